// SPDX-License-Identifier: BSD-3-Clause
#include "xml_reader.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <proxima/core/error.hpp>
#include <proxima/io/file.hpp>

namespace proxima::robot::xml {

void Document::fail(const tinyxml2::XMLElement* e, const std::string& what, const std::string& reason) const {
  const std::string at = where(e).str();
  throw Error((at.empty() ? "" : at + ": ") + what + ": " + reason);
}

void parse(Document& d, std::string_view text, const std::string& source) {
  d.source = source;
  const tinyxml2::XMLError err = d.doc.Parse(text.data(), text.size());
  if (err != tinyxml2::XML_SUCCESS) {
    const std::string at = SourceLocation{source, d.doc.ErrorLineNum()}.str();
    throw Error((at.empty() ? std::string("XML") : at) + ": malformed XML: " + d.doc.ErrorStr());
  }
}

std::string read_file(const std::filesystem::path& path, const char* kind) {
  return read_whole_file(path, std::string(kind) + " file");
}

std::optional<std::string> attribute(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e->Attribute(name);
  if (!v) return std::nullopt;
  return std::string(v);
}

std::string required(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what) {
  const char* v = e->Attribute(name);
  if (!v || !*v) d.fail(e, what, std::string("<") + e->Name() + "> has no '" + name + "' attribute");
  return v;
}

namespace {

// Parses whitespace-separated doubles strictly; false on anything else.
bool parse_numbers(std::string_view s, double* out, int count, std::string& reason) {
  const char* p = s.data();
  const char* end = p + s.size();
  auto skip = [&] { while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p; };
  for (int i = 0; i < count; ++i) {
    skip();
    if (p == end) {
      reason = "expected " + std::to_string(count) + " number(s), found " + std::to_string(i);
      return false;
    }
    // from_chars takes no leading '+', which hand-written files do use.
    if (*p == '+' && p + 1 < end && *(p + 1) != '-') ++p;
    const auto r = std::from_chars(p, end, out[i]);
    if (r.ec != std::errc() || (r.ptr < end && !std::isspace(static_cast<unsigned char>(*r.ptr)))) {
      reason = "not a number";
      return false;
    }
    p = r.ptr;
    if (!std::isfinite(out[i])) {
      reason = "not finite";
      return false;
    }
  }
  skip();
  if (p != end) {
    reason = "expected " + std::to_string(count) + " number(s), found more";
    return false;
  }
  return true;
}

}  // namespace

double number(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what) {
  const std::string v = required(d, e, name, what);
  double x = 0.0;
  std::string reason;
  if (!parse_numbers(v, &x, 1, reason)) d.fail(e, what, std::string("attribute ") + name + "=\"" + v + "\": " + reason);
  return x;
}

double number_or(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what,
                 double fallback) {
  if (!e->Attribute(name)) return fallback;
  return number(d, e, name, what);
}

Vec3 vec3_or(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what,
             const Vec3& fallback) {
  const char* v = e->Attribute(name);
  if (!v) return fallback;
  double x[3];
  std::string reason;
  if (!parse_numbers(v, x, 3, reason)) d.fail(e, what, std::string("attribute ") + name + "=\"" + v + "\": " + reason);
  return {x[0], x[1], x[2]};
}

}  // namespace proxima::robot::xml
