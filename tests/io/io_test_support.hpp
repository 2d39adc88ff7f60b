// SPDX-License-Identifier: BSD-3-Clause
// Helpers for the mesh-reader tests: files written from text or bytes (and,
// from tests/support, a private temporary directory and error checks).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>

#include <gtest/gtest.h>

#include <proxima/core/error.hpp>
#include <proxima/io/mesh_io.hpp>

#include "../support/temp_files.hpp"

namespace proxima::test {

using testing::TempDir;

/// Little- or big-endian byte writer for binary test files.
class Bytes {
 public:
  explicit Bytes(bool big_endian = false) : big_(big_endian) {}
  template <class T>
  Bytes& put(T v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (big_ != (std::endian::native == std::endian::big)) {
      for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    }
    s_.append(reinterpret_cast<const char*>(b), sizeof(T));
    return *this;
  }
  Bytes& text(const std::string& t) {
    s_ += t;
    return *this;
  }
  const std::string& str() const { return s_; }

 private:
  bool big_;
  std::string s_;
};

using testing::expect_error;

}  // namespace proxima::test
