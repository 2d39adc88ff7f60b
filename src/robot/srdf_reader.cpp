// SPDX-License-Identifier: BSD-3-Clause
// SRDF: only the allowed-collision pairs are read; groups and named states
// belong to a planner.
#include <proxima/core/error.hpp>
#include <proxima/robot/collision_matrix.hpp>

#include "xml_reader.hpp"

namespace proxima::robot {

void apply_srdf_text(const RobotModel& model, std::string_view text, AllowedCollisionMatrix& acm,
                     const std::string& source_name) {
  if (acm.size() != model.links().size())
    throw Error("SRDF: allowed-collision matrix has " + std::to_string(acm.size()) + " links, robot '" +
                model.name() + "' has " + std::to_string(model.links().size()));
  xml::Document d;
  xml::parse(d, text, source_name);
  const tinyxml2::XMLElement* robot = d.doc.FirstChildElement("robot");
  if (!robot) throw Error((source_name.empty() ? std::string("SRDF") : source_name) + ": no <robot> element");
  for (const tinyxml2::XMLElement* e = robot->FirstChildElement("disable_collisions"); e;
       e = e->NextSiblingElement("disable_collisions")) {
    int index[2];
    const char* attr[2] = {"link1", "link2"};
    for (int k = 0; k < 2; ++k) {
      const std::string name = xml::required(d, e, attr[k], "<disable_collisions>");
      index[k] = model.link_index(name);
      if (index[k] < 0)
        d.fail(e, "<disable_collisions>", std::string(attr[k]) + " '" + name + "' is not a link of robot '" +
                                              model.name() + "'");
    }
    acm.set_allowed(index[0], index[1]);
  }
}

void apply_srdf(const RobotModel& model, const std::filesystem::path& srdf, AllowedCollisionMatrix& acm) {
  apply_srdf_text(model, xml::read_file(srdf, "SRDF"), acm, srdf.string());
}

}  // namespace proxima::robot
