// SPDX-License-Identifier: BSD-3-Clause
// `proxima query` on arbitrary lines: each line is answered as the command
// answers it (answer_line, then dump). The promise (docs/design.md, query_protocol.hpp):
// one JSON answer per line, an error answer for a bad request, never an
// exception, a crash or a NaN (JSON has none: it would print as null).
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "json_checks.hpp"
#include "json_lines.hpp"
#include "query_protocol.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  proxima::apps::MeshFiles files;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json a = proxima::apps::answer_line(line, files);
    if (!a.is_object() || !a.contains("status")) proxima::fuzz::broken("answer without a status:", a.dump());
    proxima::fuzz::check_finite(a);
    // What run_json_lines writes: one line that parses back as JSON.
    const nlohmann::json back = nlohmann::json::parse(proxima::apps::answer_text(a), nullptr, false);
    if (back.is_discarded() || back.value("status", "") != a.value("status", "")) proxima::fuzz::broken("answer line");
  }
  return 0;
}
