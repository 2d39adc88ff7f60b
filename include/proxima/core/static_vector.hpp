// SPDX-License-Identifier: BSD-3-Clause
// A vector with fixed inline capacity: the hot paths collect small, bounded
// point sets (contact features, clipped polygons) without touching the heap.
#pragma once

#include <array>
#include <cstddef>

namespace proxima {

template <class T, std::size_t N>
class StaticVector {
 public:
  static constexpr std::size_t kCapacity = N;

  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  bool full() const { return n_ == N; }
  void clear() { n_ = 0; }
  /// Returns false (and drops x) when full; callers decide what that means.
  bool push_back(const T& x) {
    if (n_ == N) return false;
    data_[n_++] = x;
    return true;
  }
  void pop_back() { --n_; }
  void resize(std::size_t n) { n_ = n < N ? n : N; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& back() { return data_[n_ - 1]; }
  T* begin() { return data_.data(); }
  T* end() { return data_.data() + n_; }
  const T* begin() const { return data_.data(); }
  const T* end() const { return data_.data() + n_; }

 private:
  // Left uninitialized: only [0, n_) is ever read, and zeroing kilobytes of
  // capacity per query would cost more than the work done in them.
  std::array<T, N> data_;
  std::size_t n_ = 0;
};

}  // namespace proxima
