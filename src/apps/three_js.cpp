// SPDX-License-Identifier: BSD-3-Clause
#include "three_js.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <proxima/core/error.hpp>

namespace proxima::apps {

std::string libjs_three_prefix() {
  if (const char* v = std::getenv("PROXIMA_LIBJS_THREE_PREFIX"); v && *v) return v;
  return "/usr";
}

namespace {

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": not found; the replay page inlines three.js from Debian's libjs-three "
                       "(apt-get install libjs-three, or scripts/deps.sh)");
  std::ostringstream s;
  s << in.rdbuf();
  if (!in.good() && !in.eof()) throw Error(path + ": cannot be read (libjs-three)");
  return s.str();
}

}  // namespace

ThreeJs load_three_js(const std::string& prefix) {
  const std::string js = prefix + "/share/javascript/three/";
  ThreeJs t;
  t.library = read_whole(js + "three.min.js");
  t.controls = read_whole(js + "examples/js/controls/OrbitControls.js");
  t.licence = read_whole(prefix + "/share/doc/libjs-three/copyright");
  return t;
}

}  // namespace proxima::apps
