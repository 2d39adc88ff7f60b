// SPDX-License-Identifier: BSD-3-Clause
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "manifold.hpp"
#include "peers.hpp"

namespace proxima::bench {
namespace {

// Same binary on both ends of the pipe, so native byte order is fine.
class Writer {
 public:
  template <class T>
  void raw(const T& v) {
    const auto* p = reinterpret_cast<const char*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  void str(const std::string& s) {
    raw(static_cast<std::uint64_t>(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  const std::vector<char>& bytes() const { return bytes_; }

 private:
  std::vector<char> bytes_;
};

class Reader {
 public:
  explicit Reader(const std::vector<char>& bytes) : bytes_(bytes) {}
  template <class T>
  bool raw(T& v) {
    if (bytes_.size() - at_ < sizeof(T)) return false;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return true;
  }
  bool str(std::string& s) {
    std::uint64_t n = 0;
    if (!raw(n) || bytes_.size() - at_ < n) return false;
    s.assign(bytes_.data() + at_, n);
    at_ += n;
    return true;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  const std::vector<char>& bytes_;
  std::size_t at_ = 0;
};

std::vector<char> serialize(const PeerCell& c) {
  Writer w;
  w.str(c.library);
  w.str(c.solver);
  w.raw(static_cast<std::uint8_t>(c.supported));
  w.str(c.note);
  w.raw(c.median_ns);
  w.raw(static_cast<std::uint64_t>(c.distances.size()));
  for (double d : c.distances) w.raw(d);
  w.raw(static_cast<std::int64_t>(c.failures));
  w.raw(static_cast<std::uint64_t>(c.normals.size()));
  for (const auto& n : c.normals) w.raw(n);
  return w.bytes();
}

bool deserialize(const std::vector<char>& bytes, PeerCell& c) {
  Reader r(bytes);
  std::uint8_t supported = 0;
  std::uint64_t count = 0;
  std::int64_t failures = 0;
  std::uint64_t normal_count = 0;
  if (!r.str(c.library) || !r.str(c.solver) || !r.raw(supported) || !r.str(c.note) ||
      !r.raw(c.median_ns) || !r.raw(count) || count > bytes.size() / sizeof(double))
    return false;
  c.supported = supported != 0;
  c.distances.resize(count);
  for (double& d : c.distances)
    if (!r.raw(d)) return false;
  if (!r.raw(failures) || !r.raw(normal_count) ||
      normal_count > bytes.size() / sizeof(std::array<double, 3>))
    return false;
  c.failures = static_cast<int>(failures);
  c.normals.resize(normal_count);
  for (auto& n : c.normals)
    if (!r.raw(n)) return false;
  if (!r.done()) return false;
  return true;
}

std::vector<char> serialize(const ManifoldCell& c) {
  Writer w;
  w.str(c.library);
  w.str(c.solver);
  w.raw(static_cast<std::uint8_t>(c.supported));
  w.str(c.note);
  w.raw(c.median_ns);
  w.raw(static_cast<std::int64_t>(c.failures));
  w.raw(static_cast<std::uint64_t>(c.manifolds.size()));
  for (const Manifold& m : c.manifolds) {
    w.raw(m.normal);
    w.raw(static_cast<std::uint64_t>(m.points.size()));
    for (const ManifoldPoint& p : m.points) {
      w.raw(p.position);
      w.raw(p.depth);
    }
  }
  return w.bytes();
}

bool deserialize(const std::vector<char>& bytes, ManifoldCell& c) {
  Reader r(bytes);
  std::uint8_t supported = 0;
  std::int64_t failures = 0;
  std::uint64_t count = 0;
  if (!r.str(c.library) || !r.str(c.solver) || !r.raw(supported) || !r.str(c.note) || !r.raw(c.median_ns) ||
      !r.raw(failures) || !r.raw(count) || count > bytes.size())
    return false;
  c.supported = supported != 0;
  c.failures = static_cast<int>(failures);
  c.manifolds.resize(count);
  for (Manifold& m : c.manifolds) {
    std::uint64_t points = 0;
    if (!r.raw(m.normal) || !r.raw(points) || points > bytes.size()) return false;
    m.points.resize(points);
    for (ManifoldPoint& p : m.points)
      if (!r.raw(p.position) || !r.raw(p.depth)) return false;
  }
  return r.done();
}

bool write_all(int fd, const std::vector<char>& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + sent, bytes.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

template <class Cell>
[[noreturn]] void child_main(const std::function<Cell()>& fn, int fd) {
  int code = 0;
  try {
    code = write_all(fd, serialize(fn())) ? 0 : 2;
  } catch (const std::exception& e) {
    std::cerr << "isolated peer threw: " << e.what() << '\n';
    code = 3;
  } catch (...) {
    code = 3;
  }
  ::close(fd);
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  // _exit: the parent's atexit handlers and static destructors are not ours to run.
  ::_exit(code);
}

std::array<double, 3> nan3() {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  return {nan, nan, nan};
}

std::string signal_text(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  std::string text = "crashed: signal " + std::to_string(sig);
  if (abbrev != nullptr) text += std::string(" (SIG") + abbrev + ")";
  return text;
}

PeerCell failed_cell(std::size_t poses, std::string note) {
  PeerCell cell;
  cell.distances.assign(poses, std::numeric_limits<double>::quiet_NaN());
  cell.failures = static_cast<int>(poses);
  cell.note = std::move(note);
  return cell;
}

template <class Cell>
struct ChildOutcomeOf {
  bool ok = false;
  bool signalled = false;
  Cell cell;            // valid when ok
  std::string failure;  // why not ok
};
using ChildOutcome = ChildOutcomeOf<PeerCell>;

template <class Cell>
ChildOutcomeOf<Cell> run_child(const std::function<Cell()>& fn, std::chrono::seconds timeout) {
  ChildOutcomeOf<Cell> out;
  int fds[2];
  if (::pipe(fds) != 0) {
    out.failure = std::string("pipe: ") + std::strerror(errno);
    return out;
  }
  // Unflushed output would otherwise be written twice, once by each process.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    out.failure = std::string("fork: ") + std::strerror(errno);
    return out;
  }
  if (pid == 0) {
    ::close(fds[0]);
    // A peer's assertion text would flood the report; its exit status is the row.
    if (std::FILE* null = std::freopen("/dev/null", "w", stderr)) (void)null;
    child_main(fn, fds[1]);
  }
  ::close(fds[1]);

  // Drain while waiting: a large result would fill the pipe and block the child.
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  std::vector<char> bytes;
  bool timed_out = false;
  char buffer[65536];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
    if (ready <= 0) continue;
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    out.failure = "timed out after " + std::to_string(timeout.count()) + " s (killed)";
  } else if (WIFSIGNALED(status)) {
    out.signalled = true;
    out.failure = signal_text(WTERMSIG(status));
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    out.failure = "child exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (!deserialize(bytes, out.cell)) {
    out.failure = "child sent a malformed result";
  } else {
    out.ok = true;
  }
  return out;
}

Workload single_pose(const Workload& work, std::size_t i) {
  return {work.name, work.a, work.b, {work.pose_a[i]}, {work.pose_b[i]}};
}

// After a crash, one process per pose keeps the poses that do work. Each
// child's median is then that pose's own time, so the medians combine exactly.
// Child notes are dropped: they count poses and would not add up.
PeerCell run_pose_by_pose(const Peer& peer, const Workload& work, int repeats,
                          std::chrono::seconds timeout, std::size_t poses) {
  PeerCell cell;
  cell.distances.assign(poses, std::numeric_limits<double>::quiet_NaN());
  bool any_normals = false;
  std::vector<std::array<double, 3>> normals(poses, nan3());
  std::vector<double> times;
  std::size_t crashed = 0;
  std::string first_crash;
  for (std::size_t i = 0; i < poses; ++i) {
    const Workload one = single_pose(work, i);
    const ChildOutcome out = run_child<PeerCell>([&] { return peer.run(one, repeats); }, timeout);
    if (!out.ok) {
      ++cell.failures;
      ++crashed;
      if (first_crash.empty()) first_crash = out.failure;
      continue;
    }
    cell.supported = cell.supported && out.cell.supported;
    cell.failures += out.cell.failures;
    if (!out.cell.distances.empty()) cell.distances[i] = out.cell.distances.front();
    if (!out.cell.normals.empty()) {
      normals[i] = out.cell.normals.front();
      any_normals = true;
    }
    if (out.cell.failures == 0 && out.cell.supported) times.push_back(out.cell.median_ns);
  }
  if (any_normals) cell.normals = std::move(normals);
  std::sort(times.begin(), times.end());
  if (!times.empty()) {
    const std::size_t mid = times.size() / 2;
    cell.median_ns = times.size() % 2 == 1 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
  }
  cell.note = first_crash + " on " + std::to_string(crashed) + " of " + std::to_string(poses) +
              " poses (after a crash, each pose ran in its own process)";
  return cell;
}

ManifoldCell failed_manifold_cell(std::size_t poses, std::string note) {
  ManifoldCell cell;
  cell.manifolds.assign(poses, Manifold{});
  cell.failures = static_cast<int>(poses);
  cell.note = std::move(note);
  return cell;
}

// As run_pose_by_pose, for manifolds.
ManifoldCell run_manifold_pose_by_pose(const ManifoldPeer& peer, const Workload& work, int repeats,
                                       std::chrono::seconds timeout, std::size_t poses) {
  ManifoldCell cell;
  cell.manifolds.assign(poses, Manifold{});
  std::vector<double> times;
  std::size_t crashed = 0;
  std::string first_crash;
  for (std::size_t i = 0; i < poses; ++i) {
    const Workload one = single_pose(work, i);
    const ChildOutcomeOf<ManifoldCell> out =
        run_child<ManifoldCell>([&] { return peer.run(one, repeats); }, timeout);
    if (!out.ok) {
      ++cell.failures;
      ++crashed;
      if (first_crash.empty()) first_crash = out.failure;
      continue;
    }
    cell.supported = cell.supported && out.cell.supported;
    cell.failures += out.cell.failures;
    if (!out.cell.manifolds.empty()) cell.manifolds[i] = out.cell.manifolds.front();
    if (out.cell.failures == 0 && out.cell.supported) times.push_back(out.cell.median_ns);
  }
  std::sort(times.begin(), times.end());
  if (!times.empty()) {
    const std::size_t mid = times.size() / 2;
    cell.median_ns = times.size() % 2 == 1 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);
  }
  cell.note = first_crash + " on " + std::to_string(crashed) + " of " + std::to_string(poses) +
              " poses (after a crash, each pose ran in its own process)";
  return cell;
}

}  // namespace

PeerCell run_isolated(const std::function<PeerCell()>& fn, std::size_t poses,
                      std::chrono::seconds timeout) {
  ChildOutcome out = run_child<PeerCell>(fn, timeout);
  return out.ok ? std::move(out.cell) : failed_cell(poses, out.failure);
}

PeerCell run_peer_isolated(const Peer& peer, const Workload& work, int repeats,
                           std::chrono::seconds timeout) {
  const std::size_t poses = std::min(work.pose_a.size(), work.pose_b.size());
  ChildOutcome out = run_child<PeerCell>([&] { return peer.run(work, repeats); }, timeout);
  PeerCell cell;
  if (out.ok)
    cell = std::move(out.cell);
  else if (out.signalled && poses > 1)
    cell = run_pose_by_pose(peer, work, repeats, timeout, poses);
  else
    cell = failed_cell(poses, out.failure);
  cell.library = peer.library;
  cell.solver = peer.solver;
  return cell;
}

ManifoldCell run_manifold_peer_isolated(const ManifoldPeer& peer, const Workload& work, int repeats,
                                        std::chrono::seconds timeout) {
  const std::size_t poses = std::min(work.pose_a.size(), work.pose_b.size());
  ChildOutcomeOf<ManifoldCell> out = run_child<ManifoldCell>([&] { return peer.run(work, repeats); }, timeout);
  ManifoldCell cell;
  if (out.ok)
    cell = std::move(out.cell);
  else if (out.signalled && poses > 1)
    cell = run_manifold_pose_by_pose(peer, work, repeats, timeout, poses);
  else
    cell = failed_manifold_cell(poses, out.failure);
  cell.library = peer.library;
  cell.solver = peer.solver;
  return cell;
}

}  // namespace proxima::bench
