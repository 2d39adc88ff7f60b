// SPDX-License-Identifier: BSD-3-Clause
// `proxima robot` on arbitrary lines, for the Panda shipped in
// tests/data/robots: joint vectors, environments, attached objects, scene and
// hold lines, motion checks. The promise (apps/robot_protocol.hpp): one JSON
// answer per line, an error answer for a bad request, never an exception, a
// crash or a NaN.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz_input.hpp"
#include "json_checks.hpp"
#include "json_lines.hpp"
#include "robot_protocol.hpp"

namespace {

const proxima::robot::SceneChecker& panda() {
  static const proxima::robot::SceneChecker checker = [] {
    proxima::apps::RobotCommandOptions o;
    o.urdf = PROXIMA_ROBOTS_DIR "/panda/panda.urdf";
    o.srdf = PROXIMA_ROBOTS_DIR "/panda/panda.srdf";
    return proxima::apps::load_robot_checker(o);
  }();
  return checker;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  proxima::apps::MeshFiles files;
  proxima::apps::RobotSession session;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
    if (request.is_discarded()) continue;  // the stream's parse error is fuzz_query's
    const nlohmann::json a = proxima::apps::answer_robot(panda(), request, files, &session);
    if (!a.is_object() || !a.contains("status")) proxima::fuzz::broken("answer without a status:", a.dump());
    proxima::fuzz::check_finite(a);
    const nlohmann::json back = nlohmann::json::parse(proxima::apps::answer_text(a), nullptr, false);
    if (back.is_discarded()) proxima::fuzz::broken("answer line");
  }
  return 0;
}
