// SPDX-License-Identifier: BSD-3-Clause
// Index ranges spread over threads, for the batch queries: each index is
// handled exactly once, by one thread, so a batch whose rows write only
// their own slots gives the single-threaded answers in input order.
#pragma once

#include <cstddef>
#include <functional>

namespace proxima {

/// The most threads a request may ask for, on a machine with fewer
/// hardware threads than this (on a larger one: its hardware threads).
inline constexpr int kMaxThreads = 1024;

/// The number of threads `parallel_for` runs for a request of `threads`:
/// `threads` itself when ≥ 1, the machine's hardware threads for 0 (at
/// least 1). Throws proxima::Error naming "threads" when it is negative or
/// above the larger of kMaxThreads and the machine's hardware threads.
int thread_count(int threads);

/// Calls `body(begin, end)` over consecutive chunks covering [0, n), from
/// thread_count(threads) threads (the caller's among them) that take the
/// next chunk as they finish one, so uneven rows (a mesh pair beside a
/// sphere pair) keep every thread busy. `body` receives the index of the
/// thread running it (0 … thread_count − 1) for per-thread scratch.
/// Returns after every chunk has run. When chunks throw, the exception of
/// the lowest-starting chunk that threw is rethrown, after all threads
/// have stopped; chunks not yet started when one throws are skipped.
void parallel_for(std::size_t n, int threads,
                  const std::function<void(std::size_t begin, std::size_t end, int thread)>& body);

}  // namespace proxima
