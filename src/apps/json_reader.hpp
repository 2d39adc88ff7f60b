// SPDX-License-Identifier: BSD-3-Clause
// The one way every `proxima` input (query, robot and watch lines, cell,
// environment and scene files, programs) is read from JSON, so that a
// misspelt, unknown or repeated key is an error rather than a field taken
// as absent: for a safety tool a typo that silently changes the answer is
// the worst bug.
//
//   parse_json(text)            refuses a key repeated in one object, naming it
//   read_object(j, "a", [&](ObjectReader& r) { … })
//                               hands the object to the lambda, then refuses
//                               every key the lambda did not read
//
// An ObjectReader exists only inside read_object, which finishes it when the
// lambda returns: a key added to a format later but never read by the
// code is refused, never ignored. Errors read "field: reason", the field as
// a path (`bodies[2].shape.radius`).
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/core/math.hpp>

namespace proxima::apps {

/// Parses JSON text; throws proxima::Error "path.key: duplicate key" for an
/// object that names a key twice, and a nlohmann::json::exception for text
/// that is not JSON (a number no double holds, 1e400, included).
nlohmann::json parse_json(const std::string& text);
nlohmann::json parse_json(std::istream& in);

/// `path` + "." + key, or key alone at the top level (empty path).
std::string child_path(const std::string& path, std::string_view key);
/// `path` + "[i]".
std::string index_path(const std::string& path, std::size_t i);
/// A number as a message quotes it: six significant digits.
std::string number_text(double x);

/// An inclusive or open interval for a number, as its error message says it.
struct Range {
  double lo = -kMaxLength;
  double hi = kMaxLength;
  bool lo_open = false;
  bool hi_open = false;
  const char* unit = "";  ///< e.g. " m": appended to the bounds in messages
};

/// Lengths and margins Proxima accepts: [0, 1e15] m.
inline constexpr Range kLengthRange{0.0, kMaxLength, false, false, " m"};

/// Throws "field: reason" (proxima::Error).
[[noreturn]] void fail(const std::string& field, const std::string& reason);

/// j as a finite number within `range`; errors name `field`.
double number_at(const nlohmann::json& j, const std::string& field, const Range& range = {});
/// j as an integer in [lo, hi].
long long integer_at(const nlohmann::json& j, const std::string& field, long long lo, long long hi);
/// j as a string.
std::string string_at(const nlohmann::json& j, const std::string& field);
/// j as true or false.
bool bool_at(const nlohmann::json& j, const std::string& field);
/// j as an array (empty allowed unless `non_empty`).
const nlohmann::json& array_at(const nlohmann::json& j, const std::string& field, const char* of,
                               bool non_empty = false);
/// j as [x, y, z], each finite and within ±1e15.
Vec3 vec3_at(const nlohmann::json& j, const std::string& field);
/// vec3_at with a magnitude of at most `limit` (a speed, a force); the
/// message names `unit`.
Vec3 bounded_vec3_at(const nlohmann::json& j, const std::string& field, const char* unit, double limit);

/// The nearest of `known` to `key` (nearest_name: edit distance, letters
/// swapped count once, case ignored), or "" when none is near enough to be a
/// typo.
std::string nearest_key(std::string_view key, const std::vector<std::string>& known);

/// A JSON object being read: each key the code asks for is declared, each
/// key it reads is consumed, and finish() refuses whatever is left, naming
/// the key, its place and the nearest declared key. Made by read_object only.
class ObjectReader {
 public:
  ObjectReader(const ObjectReader&) = delete;
  ObjectReader& operator=(const ObjectReader&) = delete;

  const std::string& path() const { return path_; }
  /// The path of one of this object's keys.
  std::string field(std::string_view key) const { return child_path(path_, key); }
  const nlohmann::json& object() const { return j_; }

  /// Whether the key is present; declares it but does not consume it.
  bool has(std::string_view key);
  /// The value, consumed; nullptr when absent.
  const nlohmann::json* get(std::string_view key);
  /// The value, consumed; "path: missing \"key\"" when absent.
  const nlohmann::json& required(std::string_view key, std::string_view what = {});

  double number(std::string_view key, const Range& range = {});
  double number_or(std::string_view key, double fallback, const Range& range = {});
  long long integer(std::string_view key, long long lo, long long hi);
  long long integer_or(std::string_view key, long long fallback, long long lo, long long hi);
  std::string string(std::string_view key);
  std::string string_or(std::string_view key, const std::string& fallback);
  bool boolean_or(std::string_view key, bool fallback);
  Vec3 vec3(std::string_view key);
  Vec3 vec3_or(std::string_view key, const Vec3& fallback);

  /// A key this format knows but that does not apply here: an error with
  /// `reason` when present.
  void refuse(std::string_view key, const std::string& reason);

  /// Refuses every key not consumed ("path.key: unknown key (did you mean
  /// \"k\"?)"). read_object calls it.
  void finish();

 private:
  ObjectReader(const nlohmann::json& j, std::string path);
  template <class F>
  friend auto read_object(const nlohmann::json& j, const std::string& path, F&& read);

  void declare(std::string_view key);

  const nlohmann::json& j_;
  std::string path_;
  std::vector<std::string> declared_;
  std::vector<std::string_view> consumed_;  ///< keys of j_ itself
};

/// Throws "path: expected an object" unless j is an object.
void require_object(const nlohmann::json& j, const std::string& path, const char* what = nullptr);

/// Reads the object j at `path` with read(ObjectReader&), then refuses its
/// unread keys; returns what read returns. Throws "path: expected an
/// object" when j is not one.
template <class F>
auto read_object(const nlohmann::json& j, const std::string& path, F&& read) {
  require_object(j, path);
  ObjectReader r(j, path);
  if constexpr (std::is_void_v<decltype(read(r))>) {
    read(r);
    r.finish();
  } else {
    auto out = read(r);
    r.finish();
    return out;
  }
}

}  // namespace proxima::apps
