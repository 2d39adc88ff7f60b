// Helpers for the mesh-reader tests: a private temporary directory, files
// written from text or bytes, and error-message checks.
#pragma once

#include <unistd.h>

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

namespace proxima::test {

/// A directory of its own for each test (ctest runs tests in parallel),
/// removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("proxima_io_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `bytes` to a file of that name in the directory; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& bytes) const {
    const std::filesystem::path p = path_ / name;
    std::ofstream out(p, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

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

/// Expects `load` to throw proxima::Error whose message contains every part.
inline void expect_error(const std::function<void()>& load, std::initializer_list<std::string> parts) {
  try {
    load();
    ADD_FAILURE() << "no error; expected one mentioning '" << *parts.begin() << "'";
  } catch (const Error& e) {
    const std::string m = e.what();
    for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "'" << p << "' not in: " << m;
  }
}

}  // namespace proxima::test
