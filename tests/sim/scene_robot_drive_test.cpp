// SPDX-License-Identifier: BSD-3-Clause
// SceneRobot::drive runs before every step of a scripted robot scene, a hot
// path: once its first call has sized its scratch it must not allocate.
// Allocations are counted under the allocator itself (Eigen's vectors call
// malloc, not operator new): through the sanitizer's malloc hooks in a
// sanitizer build, through glibc's malloc otherwise. The count is armed only
// around the calls measured.
#include <atomic>
#include <cstddef>
#include <string>

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <proxima/robot/robot_world.hpp>

#include "scene.hpp"
#include "scene_robot.hpp"

namespace {

std::atomic<bool> drive_alloc_armed{false};
std::atomic<long> drive_alloc_count{0};

void count_drive_alloc() {
  if (drive_alloc_armed.load(std::memory_order_relaxed)) drive_alloc_count.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*, std::size_t),
                                                         void (*free_hook)(const volatile void*));
namespace {
void drive_malloc_hook(const volatile void*, std::size_t) { count_drive_alloc(); }
void drive_free_hook(const volatile void*) {}
// The runtime installs none unless both hooks are given.
const int drive_hooks_installed = __sanitizer_install_malloc_and_free_hooks(drive_malloc_hook, drive_free_hook);
}  // namespace
#else
// glibc's own entry points, for the program's malloc and calloc to forward
// to (free, realloc and the rest stay glibc's).
extern "C" void* __libc_malloc(std::size_t n);
extern "C" void* __libc_calloc(std::size_t count, std::size_t n);
extern "C" void* malloc(std::size_t n) {
  count_drive_alloc();
  return __libc_malloc(n);
}
extern "C" void* calloc(std::size_t count, std::size_t n) {
  count_drive_alloc();
  return __libc_calloc(count, n);
}
#endif

namespace proxima {
namespace {

// Allocations made by f.
template <class F>
long allocations_in(F&& f) {
  drive_alloc_count.store(0);
  drive_alloc_armed.store(true);
  f();
  drive_alloc_armed.store(false);
  return drive_alloc_count.load();
}

TEST(SceneRobotDrive, AllocatesNothingPerStepBeforeBetweenAndAfterTheKeys) {
#if defined(__SANITIZE_ADDRESS__)
  ASSERT_GT(drive_hooks_installed, 0);
#endif
  // The counter sees an Eigen vector's allocation, so a zero below is not
  // the counter missing it.
  EXPECT_GE(allocations_in([] {
              Eigen::VectorXd v(7);
              v.setOnes();
              EXPECT_EQ(v.sum(), 7.0);
            }),
            1);

  // The plate arm of the shipped example, a ramp from the first key to the
  // last over 0.1 s; 20 steps of 0.01 s see the ramp and the hold after it.
  const nlohmann::json j = nlohmann::json::parse(R"({"dt": 0.01, "time": 0.2, "bodies": [], "robots": [{
    "urdf": "robots/plate_arm.urdf", "kp": 200, "kd": 5,
    "targets": [{"t": 0.0, "q": [0]}, {"t": 0.05, "q": [0.2]}, {"t": 0.1, "q": [-0.1]}]}]})");
  const apps::Scene scene = apps::scene_from_json(j, PROXIMA_EXAMPLES_DIR);
  ASSERT_EQ(scene.robots.size(), 1u);
  const apps::SceneRobot& sr = scene.robots.front();
  robot::RobotWorld rw = sr.make_world(scene.world);
  Eigen::VectorXd q, qd;
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(allocations_in([&] { sr.drive(rw); }), 0) << "step " << i << ", t = " << rw.time();
    // Still the trajectory's targets (its piecewise-linear form is checked in
    // scene_robot_test.cpp): the ramp's slope between the keys.
    sr.target_at(rw.time(), q, qd);
    ASSERT_EQ(sr.drive_q.size(), 1);
    EXPECT_EQ(sr.drive_q[0], q[0]);
    EXPECT_EQ(sr.drive_qd[0], qd[0]);
    if (rw.time() > 0.051 && rw.time() < 0.099) {
      EXPECT_NEAR(qd[0], -0.3 / 0.05, 1e-9);
    }
    rw.step();
  }
  EXPECT_NEAR(rw.time(), 0.2, 1e-12);
}

}  // namespace
}  // namespace proxima
