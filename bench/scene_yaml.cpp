// SPDX-License-Identifier: BSD-3-Clause
#include "scene_yaml.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace proxima::bench {

const YamlNode* YamlNode::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

namespace {

struct Line {
  int number = 0;  ///< 1-based, for messages
  std::size_t indent = 0;
  std::string text;  ///< without indentation, comment and trailing blanks
};

class Parser {
 public:
  Parser(const std::string& text, std::string source) : source_(std::move(source)) { split(text); }

  YamlNode document() {
    if (lines_.empty()) {
      YamlNode empty;
      empty.kind = YamlNode::Kind::map;
      return empty;
    }
    if (lines_[0].indent != 0) fail(lines_[0].number, "the document does not start at column 1");
    YamlNode root = block(0);
    if (at_ < lines_.size()) fail(lines_[at_].number, "unexpected indentation");
    return root;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw std::runtime_error(source_ + ":" + std::to_string(line) + ": " + why);
  }

  // A '#' starts a comment at the line start or after a blank, outside quotes.
  static std::string strip_comment(const std::string& s) {
    char quote = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
        return s.substr(0, i);
      }
    }
    return s;
  }

  void split(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    int number = 0;
    while (std::getline(in, raw)) {
      ++number;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      std::string s = strip_comment(raw);
      while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
      const std::size_t first = s.find_first_not_of(' ');
      if (first == std::string::npos) continue;
      if (s[first] == '\t') fail(number, "a tab in the indentation");
      if (first == 0 && (s == "---" || s == "...")) continue;
      if (s[first] == '&' || s[first] == '*' || s[first] == '!' || s[first] == '|' || s[first] == '>')
        fail(number, "anchors, aliases, tags and block scalars are not supported");
      lines_.push_back({number, first, s.substr(first)});
    }
  }

  static bool is_item(const std::string& t) { return t == "-" || t.rfind("- ", 0) == 0; }

  // The node whose lines start at at_ with indentation `indent`.
  YamlNode block(std::size_t indent) {
    if (is_item(lines_[at_].text)) return sequence(indent);
    return mapping(indent);
  }

  YamlNode sequence(std::size_t indent) {
    YamlNode node;
    node.kind = YamlNode::Kind::seq;
    node.line = lines_[at_].number;
    while (at_ < lines_.size() && lines_[at_].indent == indent && is_item(lines_[at_].text)) {
      Line& l = lines_[at_];
      const std::size_t rest = l.text.find_first_not_of(' ', 1);
      if (rest == std::string::npos) {
        // "-" alone: the item is the block below it.
        ++at_;
        if (at_ >= lines_.size() || lines_[at_].indent <= indent) fail(l.number, "empty sequence item");
        node.items.push_back(block(lines_[at_].indent));
      } else if (const std::string item = l.text.substr(rest); !is_item(item) && key_colon(item) == std::string::npos) {
        // "- value": a scalar or a flow collection.
        ++at_;
        node.items.push_back(flow_value(item, l.number));
      } else {
        // "- key: ..." or "- - ...": rest is the first line of the item, at the column it stands in.
        l.indent += rest;
        l.text = l.text.substr(rest);
        node.items.push_back(block(l.indent));
      }
    }
    if (at_ < lines_.size() && lines_[at_].indent > indent) fail(lines_[at_].number, "unexpected indentation");
    return node;
  }

  // The ':' ending a key: followed by a blank or the end of the line, outside quotes and flow brackets.
  static std::size_t key_colon(const std::string& t) {
    char quote = 0;
    int depth = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        --depth;
      } else if (c == ':' && depth == 0 && (i + 1 == t.size() || t[i + 1] == ' ')) {
        return i;
      }
    }
    return std::string::npos;
  }

  YamlNode mapping(std::size_t indent) {
    YamlNode node;
    node.kind = YamlNode::Kind::map;
    node.line = lines_[at_].number;
    while (at_ < lines_.size() && lines_[at_].indent == indent) {
      const Line l = lines_[at_];
      if (is_item(l.text)) fail(l.number, "a sequence item where a mapping key was expected");
      const std::size_t colon = key_colon(l.text);
      if (colon == std::string::npos) fail(l.number, "expected 'key: value', found '" + l.text + "'");
      std::string key = unquote(trim(l.text.substr(0, colon)), l.number);
      if (key.empty()) fail(l.number, "empty mapping key");
      if (node.find(key)) fail(l.number, "duplicate key '" + key + "'");
      const std::string value = trim(l.text.substr(colon + 1));
      ++at_;
      YamlNode child;
      if (!value.empty()) {
        child = flow_value(value, l.number);
      } else if (at_ < lines_.size() && lines_[at_].indent > indent) {
        child = block(lines_[at_].indent);
      } else if (at_ < lines_.size() && lines_[at_].indent == indent && is_item(lines_[at_].text)) {
        child = sequence(indent);  // "key:" with its items at the key's own column
      } else {
        child.line = l.number;  // null
      }
      node.entries.emplace_back(std::move(key), std::move(child));
    }
    if (at_ < lines_.size() && lines_[at_].indent > indent) fail(lines_[at_].number, "unexpected indentation");
    return node;
  }

  static std::string trim(const std::string& s) {
    const std::size_t a = s.find_first_not_of(' ');
    if (a == std::string::npos) return "";
    const std::size_t b = s.find_last_not_of(' ');
    return s.substr(a, b - a + 1);
  }

  std::string unquote(const std::string& s, int line) const {
    if (s.empty() || (s[0] != '"' && s[0] != '\'')) return s;
    if (s.size() < 2 || s.back() != s[0]) fail(line, "unterminated quoted string " + s);
    const std::string inner = s.substr(1, s.size() - 2);
    if (s[0] == '"' && inner.find('\\') != std::string::npos) fail(line, "escape sequences are not supported");
    return inner;
  }

  // A value on one line: a flow collection or a scalar.
  YamlNode flow_value(const std::string& s, int line) {
    std::size_t pos = 0;
    YamlNode v = flow(s, pos, line);
    skip_blanks(s, pos);
    if (pos != s.size()) fail(line, "unexpected text after the value: '" + s.substr(pos) + "'");
    return v;
  }

  static void skip_blanks(const std::string& s, std::size_t& pos) {
    while (pos < s.size() && s[pos] == ' ') ++pos;
  }

  YamlNode flow(const std::string& s, std::size_t& pos, int line) {
    skip_blanks(s, pos);
    YamlNode node;
    node.line = line;
    if (pos >= s.size()) return node;
    const char open = s[pos];
    if (open == '[' || open == '{') {
      const char close = open == '[' ? ']' : '}';
      node.kind = open == '[' ? YamlNode::Kind::seq : YamlNode::Kind::map;
      ++pos;
      skip_blanks(s, pos);
      if (pos < s.size() && s[pos] == close) {
        ++pos;
        return node;
      }
      while (true) {
        if (node.kind == YamlNode::Kind::seq) {
          node.items.push_back(flow(s, pos, line));
        } else {
          const std::size_t colon = s.find(':', pos);
          if (colon == std::string::npos) fail(line, "expected 'key: value' in a flow mapping");
          std::string key = unquote(trim(s.substr(pos, colon - pos)), line);
          pos = colon + 1;
          YamlNode v = flow(s, pos, line);
          node.entries.emplace_back(std::move(key), std::move(v));
        }
        skip_blanks(s, pos);
        if (pos >= s.size())
          fail(line, std::string("unterminated flow ") + (open == '[' ? "sequence" : "mapping") +
                         " (multi-line flow collections are not supported)");
        if (s[pos] == ',') {
          ++pos;
          continue;
        }
        if (s[pos] == close) {
          ++pos;
          return node;
        }
        fail(line, std::string("expected ',' or '") + close + "', found '" + s[pos] + "'");
      }
    }
    if (open == '"' || open == '\'') {
      const std::size_t end = s.find(open, pos + 1);
      if (end == std::string::npos) fail(line, "unterminated quoted string");
      node.value = unquote(s.substr(pos, end - pos + 1), line);
      pos = end + 1;
      return node;
    }
    std::size_t end = pos;
    while (end < s.size() && s[end] != ',' && s[end] != ']' && s[end] != '}') ++end;
    node.value = trim(s.substr(pos, end - pos));
    pos = end;
    return node;
  }

  std::string source_;
  std::vector<Line> lines_;
  std::size_t at_ = 0;
};

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot be opened");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Accessors that name the file and line of what is missing or wrong.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const YamlNode& at, const std::string& why) const {
    throw std::runtime_error(source_ + ":" + std::to_string(at.line) + ": " + why);
  }

  const YamlNode& key(const YamlNode& map, const std::string& name, const std::string& where) const {
    if (map.kind != YamlNode::Kind::map) fail(map, where + " is not a mapping");
    const YamlNode* n = map.find(name);
    if (!n) fail(map, where + " has no '" + name + "'");
    return *n;
  }

  const std::vector<YamlNode>& seq(const YamlNode& n, const std::string& what) const {
    if (n.kind != YamlNode::Kind::seq) fail(n, what + " is not a sequence");
    return n.items;
  }

  std::string scalar(const YamlNode& n, const std::string& what) const {
    if (n.kind != YamlNode::Kind::scalar) fail(n, what + " is not a scalar");
    return n.value;
  }

  double number(const YamlNode& n, const std::string& what) const {
    const std::string s = scalar(n, what);
    double v = 0.0;
    const char* end = s.data() + s.size();
    const auto [ptr, ec] = std::from_chars(s.data(), end, v);
    if (s.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
      fail(n, what + " is not a finite number: '" + s + "'");
    return v;
  }

  std::vector<double> numbers(const YamlNode& n, const std::string& what) const {
    std::vector<double> out;
    for (const YamlNode& item : seq(n, what)) out.push_back(number(item, what + " entry"));
    return out;
  }

  std::vector<double> numbers(const YamlNode& n, const std::string& what, std::size_t count) const {
    std::vector<double> v = numbers(n, what);
    if (v.size() != count)
      fail(n, what + " has " + std::to_string(v.size()) + " numbers, expected " + std::to_string(count));
    return v;
  }

 private:
  std::string source_;
};

}  // namespace

YamlNode parse_yaml(const std::string& text, const std::string& source) { return Parser(text, source).document(); }

PlanningScene load_planning_scene(const std::filesystem::path& file) {
  const std::string source = file.string();
  const YamlNode root = parse_yaml(read_text(file), source);
  const Reader r(source);
  PlanningScene scene;
  scene.name = file.stem().string();
  const YamlNode& world = r.key(root, "world", "the scene");
  const YamlNode& objects = r.key(world, "collision_objects", "'world'");
  for (const YamlNode& obj : r.seq(objects, "'collision_objects'")) {
    const std::string id = r.scalar(r.key(obj, "id", "a collision object"), "'id'");
    const std::string where = "collision object '" + id + "'";
    for (const char* unsupported : {"meshes", "planes"}) {
      const YamlNode* n = obj.find(unsupported);
      if (n && !(n->kind == YamlNode::Kind::seq && n->items.empty()) && !(n->kind == YamlNode::Kind::scalar && n->value.empty()))
        r.fail(*n, where + " has " + unsupported + ", which the benchmark does not read");
    }
    const auto& prims = r.seq(r.key(obj, "primitives", where), where + " 'primitives'");
    const auto& poses = r.seq(r.key(obj, "primitive_poses", where), where + " 'primitive_poses'");
    if (prims.size() != poses.size())
      r.fail(obj, where + " has " + std::to_string(prims.size()) + " primitives but " + std::to_string(poses.size()) +
                      " primitive_poses");
    for (std::size_t k = 0; k < prims.size(); ++k) {
      ScenePrimitive p;
      p.id = prims.size() == 1 ? id : id + "/" + std::to_string(k);
      p.type = r.scalar(r.key(prims[k], "type", where + " primitive"), "'type'");
      const YamlNode& dims = r.key(prims[k], "dimensions", where + " primitive");
      const std::size_t want = p.type == "box" ? 3 : p.type == "cylinder" ? 2 : p.type == "sphere" ? 1 : 0;
      if (want == 0) r.fail(prims[k], where + ": primitive type '" + p.type + "' is not box, cylinder or sphere");
      p.dimensions = r.numbers(dims, where + " " + p.type + " 'dimensions'", want);
      for (double d : p.dimensions)
        if (!(d > 0.0)) r.fail(dims, where + ": dimensions must be positive");
      const std::vector<double> pos = r.numbers(r.key(poses[k], "position", where + " pose"), where + " 'position'", 3);
      const YamlNode& on = r.key(poses[k], "orientation", where + " pose");
      const std::vector<double> q = r.numbers(on, where + " 'orientation'", 4);
      if (std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) < 1e-9)
        r.fail(on, where + ": zero orientation quaternion");
      for (std::size_t i = 0; i < 3; ++i) p.position[i] = pos[i];
      for (std::size_t i = 0; i < 4; ++i) p.orientation_xyzw[i] = q[i];
      scene.primitives.push_back(std::move(p));
    }
  }
  return scene;
}

std::map<std::string, double> load_request_start_state(const std::filesystem::path& file) {
  const std::string source = file.string();
  const YamlNode root = parse_yaml(read_text(file), source);
  const Reader r(source);
  const YamlNode& js = r.key(r.key(root, "start_state", "the request"), "joint_state", "'start_state'");
  const YamlNode& names = r.key(js, "name", "'joint_state'");
  const std::vector<double> pos = r.numbers(r.key(js, "position", "'joint_state'"), "'position'");
  const auto& items = r.seq(names, "'name'");
  if (items.size() != pos.size())
    r.fail(js, std::to_string(items.size()) + " joint names but " + std::to_string(pos.size()) + " positions");
  std::map<std::string, double> out;
  for (std::size_t i = 0; i < items.size(); ++i) out[r.scalar(items[i], "joint name")] = pos[i];
  return out;
}

}  // namespace proxima::bench
