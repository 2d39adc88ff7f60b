// SPDX-License-Identifier: BSD-3-Clause
// The replay page's template and script (src/apps/viewer/), compiled into
// the program so that an installed `proxima` needs no data files for them.
#pragma once

namespace proxima::apps {

/// viewer/replay.html: the page, with {{name}} markers for its parts.
extern const char* const kReplayHtml;
/// viewer/replay.js: the viewer that draws the page's data with three.js.
extern const char* const kReplayJs;

}  // namespace proxima::apps
