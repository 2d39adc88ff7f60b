// SPDX-License-Identifier: BSD-3-Clause
// parallel_for: every index once, from the threads asked for, and the
// exception of the lowest-starting failed chunk.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/core/parallel.hpp>

namespace proxima {
namespace {

TEST(Parallel, EveryIndexOnceInChunksThatCoverTheRange) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{100003}})
    for (const int threads : {1, 2, 3, 8, 64}) {
      std::vector<std::atomic<int>> seen(n);
      std::atomic<int> max_thread{0};
      parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int thread) {
        ASSERT_LT(begin, end);
        ASSERT_LE(end, n);
        ASSERT_GE(thread, 0);
        ASSERT_LT(thread, threads);
        int m = max_thread.load();
        while (thread > m && !max_thread.compare_exchange_weak(m, thread)) {
        }
        for (std::size_t i = begin; i < end; ++i) seen[i].fetch_add(1);
      });
      int wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += seen[i].load() != 1;
      EXPECT_EQ(wrong, 0) << "n " << n << " threads " << threads;
      if (threads == 1) {
        EXPECT_EQ(max_thread.load(), 0);
      }
    }
}

TEST(Parallel, RunsOnSeveralThreadsWhenAsked) {
  // Chunks that wait until two different threads have entered: this can
  // only finish when at least two threads run chunks at once.
  std::mutex lock;
  std::set<std::thread::id> ids;
  std::atomic<int> inside{0};
  parallel_for(64, 2, [&](std::size_t, std::size_t, int) {
    {
      const std::lock_guard<std::mutex> hold(lock);
      ids.insert(std::this_thread::get_id());
    }
    if (inside.fetch_add(1) < 2)
      while (inside.load() < 2) std::this_thread::yield();
  });
  EXPECT_EQ(ids.size(), 2u);
}

TEST(Parallel, RethrowsTheLowestFailedChunksExceptionAfterAllStopped) {
  for (const int threads : {1, 2, 4}) {
    std::atomic<int> running{0};
    try {
      parallel_for(1000, threads, [&](std::size_t begin, std::size_t end, int) {
        running.fetch_add(1);
        for (std::size_t i = begin; i < end; ++i)
          if (i == 0) {
            running.fetch_sub(1);
            throw std::runtime_error("row " + std::to_string(i));
          }
        running.fetch_sub(1);
      });
      ADD_FAILURE() << "no exception with " << threads << " threads";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "row 0");
      EXPECT_EQ(running.load(), 0);
    }
  }
}

TEST(Parallel, ThreadCountIsStrict) {
  EXPECT_EQ(thread_count(3), 3);
  EXPECT_GE(thread_count(0), 1);
  try {
    thread_count(-1);
    ADD_FAILURE() << "threads -1 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("threads"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parallel_for(10, -2, [](std::size_t, std::size_t, int) {}), Error);
  // Beyond the machine and kMaxThreads: refused, naming the field (not
  // trimmed to the work, which would start a thread per row).
  const int most = std::max<int>(kMaxThreads, static_cast<int>(std::thread::hardware_concurrency()));
  EXPECT_EQ(thread_count(most), most);
  try {
    thread_count(most + 1);
    ADD_FAILURE() << "threads " << most + 1 << " accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("threads: must be in [0, " + std::to_string(most) + "]"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parallel_for(1000000, 100000, [](std::size_t, std::size_t, int) {}), Error);
}

}  // namespace
}  // namespace proxima
