// SPDX-License-Identifier: BSD-3-Clause
#include "json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <proxima/core/error.hpp>

#include "nearest_name.hpp"

namespace proxima::apps {

using nlohmann::json;

namespace {

// One open object or array while parsing: the keys an object has named so
// far (the latest last), or the index of an array's next element.
struct Frame {
  bool object = false;
  std::vector<std::string> keys;  // few per object: a linear search beats a set
  std::size_t index = 0;
};

// nlohmann's parser callback with a stack of frames: the only place that
// sees a key twice (the DOM keeps the last value silently). Frames are
// reused from line to line of one parse and the path is only spelt out for
// an error, so a clean parse allocates little beyond the DOM itself.
class DuplicateKeyCheck {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open(true); break;
      case json::parse_event_t::array_start: open(false); break;
      case json::parse_event_t::key: {
        Frame& f = stack_[depth_ - 1];
        const std::string& key = parsed.get_ref<const std::string&>();
        if (std::find(f.keys.begin(), f.keys.end(), key) != f.keys.end()) fail(child_path(path(), key), "duplicate key");
        f.keys.push_back(key);
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        --depth_;
        element_done();
        break;
      case json::parse_event_t::value: element_done(); break;
    }
    return true;
  }

 private:
  void open(bool object) {
    if (depth_ == stack_.size()) stack_.emplace_back();
    Frame& f = stack_[depth_++];
    f.object = object;
    f.keys.clear();
    f.index = 0;
  }
  void element_done() {
    if (depth_ > 0 && !stack_[depth_ - 1].object) ++stack_[depth_ - 1].index;
  }
  // The path of the innermost open object, from the frames below it.
  std::string path() const {
    std::string p;
    for (std::size_t i = 0; i + 1 < depth_; ++i) {
      const Frame& f = stack_[i];
      p = f.object ? child_path(p, f.keys.back()) : index_path(p, f.index);
    }
    return p;
  }

  std::vector<Frame> stack_;
  std::size_t depth_ = 0;
};

// A value as a message quotes it: short, so a huge array does not flood the answer.
std::string brief(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37).append("...");
  return s;
}

std::string range_text(const Range& r) {
  std::string s;
  s.append(r.lo_open ? "(" : "[").append(number_text(r.lo)).append(", ").append(number_text(r.hi));
  s.append(r.hi_open ? ")" : "]").append(r.unit);
  return s;
}

}  // namespace

std::string number_text(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

json parse_json(const std::string& text) { return json::parse(text, DuplicateKeyCheck()); }

json parse_json(std::istream& in) { return json::parse(in, DuplicateKeyCheck()); }

std::string child_path(const std::string& path, std::string_view key) {
  std::string s = path;
  if (!s.empty()) s.push_back('.');
  s.append(key);
  return s;
}

std::string index_path(const std::string& path, std::size_t i) {
  std::string s = path;
  s.append("[").append(std::to_string(i)).append("]");
  return s;
}

void fail(const std::string& field, const std::string& reason) {
  std::string m = field;
  m.append(": ").append(reason);
  throw Error(m);
}

double number_at(const json& j, const std::string& field, const Range& range) {
  if (!j.is_number()) fail(field, "expected a number (got " + brief(j) + ")");
  const double v = j.get<double>();
  if (!std::isfinite(v)) fail(field, "not a finite number");
  const bool below = range.lo_open ? !(v > range.lo) : !(v >= range.lo);
  const bool above = range.hi_open ? !(v < range.hi) : !(v <= range.hi);
  if (below || above) fail(field, "must be in " + range_text(range) + " (got " + number_text(v) + ")");
  return v;
}

long long integer_at(const json& j, const std::string& field, long long lo, long long hi) {
  const std::string expected = "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  // As JSON Schema counts them, 3.0 is an integer too; 3.5 is not.
  if (!j.is_number() || (j.is_number_float() && j.get<double>() != std::floor(j.get<double>())))
    fail(field, expected + " (got " + brief(j) + ")");
  const bool in = j.is_number_unsigned()  ? j.get<unsigned long long>() <= static_cast<unsigned long long>(hi) &&
                                                static_cast<long long>(j.get<unsigned long long>()) >= lo
                  : j.is_number_integer() ? j.get<long long>() >= lo && j.get<long long>() <= hi
                                          : j.get<double>() >= static_cast<double>(lo) &&
                                                j.get<double>() <= static_cast<double>(hi);
  if (!in) fail(field, expected + " (got " + brief(j) + ")");
  return j.is_number_float() ? static_cast<long long>(j.get<double>()) : j.get<long long>();
}

std::string string_at(const json& j, const std::string& field) {
  if (!j.is_string()) fail(field, "expected a string (got " + brief(j) + ")");
  return j.get<std::string>();
}

bool bool_at(const json& j, const std::string& field) {
  if (!j.is_boolean()) fail(field, "expected true or false (got " + brief(j) + ")");
  return j.get<bool>();
}

const json& array_at(const json& j, const std::string& field, const char* of, bool non_empty) {
  if (!j.is_array() || (non_empty && j.empty()))
    fail(field, std::string(non_empty ? "expected a non-empty array of " : "expected an array of ") + of);
  return j;
}

Vec3 vec3_at(const json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3) fail(field, "expected an array of 3 numbers");
  Vec3 v;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string f = index_path(field, i);
    if (!j[i].is_number()) fail(f, "expected a number (got " + brief(j[i]) + ")");
    v[static_cast<Eigen::Index>(i)] = j[i].get<double>();
    if (!std::isfinite(v[static_cast<Eigen::Index>(i)])) fail(f, "not a finite number");
  }
  // The messages spell kMaxLength out.
  static_assert(kMaxLength == 1e15);
  for (Eigen::Index i = 0; i < 3; ++i)
    if (!(std::abs(v[i]) <= kMaxLength))
      fail(field, number_text(v[i]) + " is beyond ±1e15, the range of lengths Proxima accepts");
  return v;
}

Vec3 bounded_vec3_at(const json& j, const std::string& field, const char* unit, double limit) {
  const Vec3 v = vec3_at(j, field);
  if (!(v.stableNorm() <= limit)) {
    std::ostringstream m;
    m << "magnitude " << v.stableNorm() << " " << unit << " is above " << limit;
    fail(field, m.str());
  }
  return v;
}

std::string nearest_key(std::string_view key, const std::vector<std::string>& known) {
  const std::vector<std::string_view> names(known.begin(), known.end());
  return nearest_name(key, names);
}

void require_object(const json& j, const std::string& path, const char* what) {
  if (j.is_object()) return;
  fail(path.empty() ? std::string("request") : path,
       std::string("expected ") + (what ? what : "a JSON object") + " (got " + brief(j) + ")");
}

ObjectReader::ObjectReader(const json& j, std::string path) : j_(j), path_(std::move(path)) {
  declared_.reserve(32);
  consumed_.reserve(j.size());
}

// Repeats are kept (the messages list each key once): a search per key
// would cost more than the rare message.
void ObjectReader::declare(std::string_view key) { declared_.emplace_back(key); }

bool ObjectReader::has(std::string_view key) {
  declare(key);
  return j_.contains(key);
}

const json* ObjectReader::get(std::string_view key) {
  declare(key);
  const auto it = j_.find(key);
  if (it == j_.end()) return nullptr;
  // The object's own key: it lives as long as the object.
  if (std::find(consumed_.begin(), consumed_.end(), key) == consumed_.end()) consumed_.emplace_back(it.key());
  return &*it;
}

const json& ObjectReader::required(std::string_view key, std::string_view what) {
  const json* v = get(key);
  if (v == nullptr) {
    // Inside an object the object is named and the key quoted; at the top
    // level the key itself is the field.
    std::string m = "missing";
    if (!path_.empty()) m.append(" \"").append(key).append("\"");
    if (!what.empty()) m.append(" (").append(what).append(")");
    // A key left unread that is a typo of this one is the likelier mistake.
    std::vector<std::string> unread;
    for (const auto& item : j_.items())
      if (std::find(declared_.begin(), declared_.end(), item.key()) == declared_.end()) unread.push_back(item.key());
    const std::string typo = nearest_key(key, unread);
    if (!typo.empty()) m.append("; is \"").append(typo).append("\" a typo of it?");
    fail(path_.empty() ? std::string(key) : path_, m);
  }
  return *v;
}

double ObjectReader::number(std::string_view key, const Range& range) {
  return number_at(required(key), field(key), range);
}

double ObjectReader::number_or(std::string_view key, double fallback, const Range& range) {
  const json* v = get(key);
  return v ? number_at(*v, field(key), range) : fallback;
}

long long ObjectReader::integer(std::string_view key, long long lo, long long hi) {
  return integer_at(required(key), field(key), lo, hi);
}

long long ObjectReader::integer_or(std::string_view key, long long fallback, long long lo, long long hi) {
  const json* v = get(key);
  return v ? integer_at(*v, field(key), lo, hi) : fallback;
}

std::string ObjectReader::string(std::string_view key) { return string_at(required(key), field(key)); }

std::string ObjectReader::string_or(std::string_view key, const std::string& fallback) {
  const json* v = get(key);
  return v ? string_at(*v, field(key)) : fallback;
}

bool ObjectReader::boolean_or(std::string_view key, bool fallback) {
  const json* v = get(key);
  return v ? bool_at(*v, field(key)) : fallback;
}

Vec3 ObjectReader::vec3(std::string_view key) { return vec3_at(required(key), field(key)); }

Vec3 ObjectReader::vec3_or(std::string_view key, const Vec3& fallback) {
  const json* v = get(key);
  return v ? vec3_at(*v, field(key)) : fallback;
}

void ObjectReader::refuse(std::string_view key, const std::string& reason) {
  if (get(key) != nullptr) fail(field(key), reason);
}

void ObjectReader::finish() {
  for (const auto& [key, value] : j_.items()) {
    if (std::find(consumed_.begin(), consumed_.end(), key) != consumed_.end()) continue;
    std::string m = "unknown key";
    const std::string near = nearest_key(key, declared_);
    if (!near.empty()) {
      m.append(" (did you mean \"").append(near).append("\"?)");
    } else if (!declared_.empty()) {
      std::vector<std::string> once;
      for (const std::string& k : declared_)
        if (std::find(once.begin(), once.end(), k) == once.end()) once.push_back(k);
      m.append(" (expected ");
      for (std::size_t i = 0; i < once.size(); ++i) {
        if (i > 0) m.append(i + 1 == once.size() ? " or " : ", ");
        m.append("\"").append(once[i]).append("\"");
      }
      m.append(")");
    }
    fail(field(key), m);
  }
}

}  // namespace proxima::apps
