// SPDX-License-Identifier: BSD-3-Clause
// Small helpers over tinyxml2 shared by the URDF and SRDF readers: parsing
// with the error's line, and attributes read strictly (every number finite,
// every vector exactly three numbers), each failure naming the source, the
// line, the element and the attribute.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <tinyxml2.h>

#include <proxima/core/math.hpp>
#include <proxima/robot/robot_model.hpp>

namespace proxima::robot::xml {

/// A parsed document and the name its messages use ("panda.urdf", or "" for text).
struct Document {
  tinyxml2::XMLDocument doc;
  std::string source;

  /// "panda.urdf:12" / "line 12".
  SourceLocation where(const tinyxml2::XMLElement* e) const { return {source, e ? e->GetLineNum() : 0}; }
  /// Throws proxima::Error "<where>: <what>: <reason>".
  [[noreturn]] void fail(const tinyxml2::XMLElement* e, const std::string& what, const std::string& reason) const;
};

/// Parses `text`; throws proxima::Error with the line and tinyxml2's reason
/// for malformed XML or an empty document.
void parse(Document& d, std::string_view text, const std::string& source);

/// The whole file as text; throws proxima::Error naming the path when it
/// cannot be read.
std::string read_file(const std::filesystem::path& path, const char* kind);

/// The attribute, or nullopt when absent.
std::optional<std::string> attribute(const tinyxml2::XMLElement* e, const char* name);
/// The attribute; throws (naming `what`) when it is absent or empty.
std::string required(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what);
/// A finite double; throws for text that is not exactly one number or not finite.
double number(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what);
/// As number, with a default when the attribute is absent.
double number_or(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what,
                 double fallback);
/// Three finite doubles separated by whitespace, with a default when absent.
Vec3 vec3_or(const Document& d, const tinyxml2::XMLElement* e, const char* name, const std::string& what,
             const Vec3& fallback);

}  // namespace proxima::robot::xml
