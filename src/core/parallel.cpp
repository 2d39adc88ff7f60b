// SPDX-License-Identifier: BSD-3-Clause
// parallel_for: threads started per call (a batch of thousands of queries
// costs milliseconds, a thread start tens of microseconds), chunks handed
// out by an atomic counter.
#include <proxima/core/parallel.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <proxima/core/error.hpp>

namespace proxima {

int thread_count(int threads) {
  const int hardware = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  // Each thread gets its own scratch (a robot's link poses, a mesh pair's
  // stacks), so a count far past the machine is memory spent on nothing
  // and thousands of thread starts: refused, not trimmed.
  const int most = std::max(kMaxThreads, hardware);
  if (threads < 0 || threads > most)
    throw Error("threads: must be in [0, " + std::to_string(most) + "] (0 = every hardware thread), got " +
                std::to_string(threads));
  return threads > 0 ? threads : hardware;
}

void parallel_for(std::size_t n, int threads,
                  const std::function<void(std::size_t begin, std::size_t end, int thread)>& body) {
  const int count = thread_count(threads);
  if (n == 0) return;
  if (count == 1) {
    body(0, n, 0);
    return;
  }
  // About eight chunks a thread: small enough to even out uneven rows,
  // large enough that the counter is touched rarely.
  const std::size_t chunk = std::max<std::size_t>(1, n / (8 * static_cast<std::size_t>(count)));
  const std::size_t chunks = (n + chunk - 1) / chunk;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::size_t failed_at = n;
  std::exception_ptr error;
  const auto work = [&](int thread) {
    for (;;) {
      const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= chunks || failed.load(std::memory_order_relaxed)) return;
      const std::size_t begin = k * chunk, end = std::min(n, begin + chunk);
      try {
        body(begin, end, thread);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(lock);
        if (begin < failed_at) {
          failed_at = begin;
          error = std::current_exception();
        }
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  const int helpers = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(count), chunks)) - 1;
  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(helpers));
  try {
    for (int t = 1; t <= helpers; ++t) pool.emplace_back(work, t);
  } catch (...) {
    // No thread could be started: what was started, and this one, finish
    // the work.
  }
  work(0);
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace proxima
