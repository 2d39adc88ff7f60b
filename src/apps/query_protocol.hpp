// SPDX-License-Identifier: BSD-3-Clause
// The `proxima query` JSON-lines protocol (docs/design.md, "Command line"): one
// request object per input line, one answer object per output line, in order.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "json_mesh.hpp"

namespace proxima::apps {

/// Answers one parsed request. Never throws: bad requests give
/// {"id": …, "status": "error", "message": "…"}.
nlohmann::json answer(const nlohmann::json& request);
/// As above, with mesh files shared across the requests of one stream.
nlohmann::json answer(const nlohmann::json& request, MeshFiles& files);

/// Answers one raw input line (which may not be JSON at all).
nlohmann::json answer_line(const std::string& line);
nlohmann::json answer_line(const std::string& line, MeshFiles& files);

/// Reads request lines from `in` until EOF and writes one answer line per
/// non-blank input line to `out`, flushing after each. Returns the number of
/// error answers.
int run_query_stream(std::istream& in, std::ostream& out);

}  // namespace proxima::apps
