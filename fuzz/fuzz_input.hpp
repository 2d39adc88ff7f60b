// SPDX-License-Identifier: BSD-3-Clause
// What the fuzz targets share: numbers drawn from the fuzzer's bytes, biased
// toward the values that break geometry code (zero, signed zero, tiny,
// huge, NaN, ±inf, nearly equal), and the targets' own failure report.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

namespace proxima::fuzz {

// A finding: the input broke a promise the library makes (a NaN where it
// says never, a result that contradicts another). Aborting makes libFuzzer
// keep the input; the replay driver (replay_main.cpp) fails the same way.
[[noreturn]] inline void broken(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "fuzz finding: %s %s\n", what, detail.c_str());
  std::abort();
}

class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}

  bool empty() const { return p_ == end_; }
  std::size_t left() const { return static_cast<std::size_t>(end_ - p_); }

  std::uint8_t byte() { return p_ < end_ ? *p_++ : 0; }

  // An integer in [0, n) (0 when n is 0).
  unsigned below(unsigned n) { return n == 0 ? 0u : static_cast<unsigned>(byte()) % n; }

  // A length or coordinate: mostly ordinary values at the scale of a robot
  // (0.001–10 m), sometimes one of the values that break code.
  double number() {
    static constexpr double kSpecial[] = {0.0,    -0.0,   1.0,    -1.0,   0.5,    1e-300, -1e-300, 5e-324,
                                          1e-12,  1e-9,   1e300,  -1e300, 1e9,    1.0 + 1e-15, 1e-6,
                                          std::numeric_limits<double>::quiet_NaN(),
                                          std::numeric_limits<double>::infinity(),
                                          -std::numeric_limits<double>::infinity()};
    constexpr unsigned kCount = sizeof(kSpecial) / sizeof(kSpecial[0]);
    const std::uint8_t tag = byte();
    if (tag < 24) return kSpecial[tag % kCount];
    if (tag < 40) {  // raw bit pattern: anything at all
      std::uint64_t bits = 0;
      for (int k = 0; k < 8; ++k) bits = bits << 8 | byte();
      double x;
      std::memcpy(&x, &bits, sizeof x);
      return x;
    }
    // Two bytes of mantissa on a scale 10^(−3…+1), signed.
    const double scale = std::pow(10.0, static_cast<double>(tag % 5) - 3.0);
    const double m = static_cast<double>(static_cast<std::uint16_t>(byte() << 8 | byte())) / 65535.0;
    return (tag & 1 ? -1.0 : 1.0) * m * 10.0 * scale;
  }

  // A positive size, mostly (the specials above still come through).
  double size() {
    const double x = number();
    return byte() < 240 && std::isfinite(x) ? std::abs(x) : x;
  }

  // The rest of the input as text.
  std::string rest() {
    std::string s(reinterpret_cast<const char*>(p_), left());
    p_ = end_;
    return s;
  }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
};

}  // namespace proxima::fuzz
