// SPDX-License-Identifier: BSD-3-Clause
// The drawing library of the replay pages: three.js as Debian's libjs-three
// installs it, read when a page is written and inlined into it (the page
// opens from disk with no network, and nothing is fetched from a CDN).
#pragma once

#include <string>

namespace proxima::apps {

struct ThreeJs {
  std::string library;   ///< three.min.js
  std::string controls;  ///< examples/js/controls/OrbitControls.js (global THREE build)
  std::string licence;   ///< the package's copyright file
};

/// The prefix libjs-three is installed under: the environment variable
/// PROXIMA_LIBJS_THREE_PREFIX when set, else /usr. The files are read from
/// PREFIX/share/javascript/three and PREFIX/share/doc/libjs-three/copyright.
std::string libjs_three_prefix();

/// Reads the three files under `prefix`. Throws proxima::Error naming the
/// missing file and the package (libjs-three) that provides it.
ThreeJs load_three_js(const std::string& prefix = libjs_three_prefix());

}  // namespace proxima::apps
