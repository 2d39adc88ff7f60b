// SPDX-License-Identifier: BSD-3-Clause
// The JSON-lines loop the `proxima` stream commands (query, robot, watch)
// share: blank lines skipped, one answer line per other line, in order,
// flushed after each, so a driving process can wait for each answer.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

namespace proxima::apps {

/// Answers each non-blank line of `in` with answer(line) on `out`; returns
/// how many answers had "status": "error".
int run_json_lines(std::istream& in, std::ostream& out,
                   const std::function<nlohmann::json(const std::string& line)>& answer);

/// One answer as one line of text. A string that is not valid UTF-8 (a
/// parse error's message quotes the bytes of a malformed line) has its bad
/// bytes replaced by U+FFFD: the default dump() throws there, which ended
/// the whole stream (found by fuzz/fuzz_query.cpp).
std::string answer_text(const nlohmann::json& answer);

/// {"status": "error", "message": …}, echoing request[key] (the line's
/// "id", or "t") when the request is an object that has it.
nlohmann::json error_line(const nlohmann::json& request, const char* key, const std::string& message);

}  // namespace proxima::apps
