// SPDX-License-Identifier: BSD-3-Clause
#include "json_lines.hpp"

#include <istream>
#include <ostream>

namespace proxima::apps {

int run_json_lines(std::istream& in, std::ostream& out,
                   const std::function<nlohmann::json(const std::string& line)>& answer) {
  int errors = 0;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const nlohmann::json a = answer(line);
    const auto status = a.find("status");
    if (status != a.end() && status->is_string() && status->get<std::string>() == "error") ++errors;
    out << answer_text(a) << '\n' << std::flush;
  }
  return errors;
}

std::string answer_text(const nlohmann::json& answer) {
  return answer.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json error_line(const nlohmann::json& request, const char* key, const std::string& message) {
  nlohmann::json a;
  if (request.is_object() && request.contains(key)) a[key] = request[key];
  a["status"] = "error";
  a["message"] = message;
  return a;
}

}  // namespace proxima::apps
