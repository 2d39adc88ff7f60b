// SPDX-License-Identifier: BSD-3-Clause
// Answers of `proxima query` for pairs with a mesh operand (collide,
// distance, signed_distance while separated, tolerance, contacts).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <proxima/mesh/mesh_contacts.hpp>

#include "json_mesh.hpp"

namespace proxima::apps {

class ObjectReader;

/// `request` has a mesh as "a" or "b" (or both). Throws proxima::Error for
/// a bad operand, pose or option (and finishes `request`: an unread key is
/// an error); the caller turns it into an error answer.
nlohmann::json answer_mesh_pair(const nlohmann::json& id, const std::string& query,
                                ObjectReader& request, MeshFiles& files);

/// The options of a `contacts` request with a mesh operand: "margin" (the
/// contact margin, >= 0), "max_contacts" (k >= 1), "cluster" (bool),
/// "patch_angle" (radians, [0, pi/2)), "cluster_weights" {"point", "normal",
/// "depth"} (each >= 0), "hierarchical_limit" (>= 0). Throws proxima::Error
/// naming the field; the convex-only options max_points, feature_tolerance
/// and disc_points are rejected by name.
MeshContactOptions mesh_contact_options_from_json(ObjectReader& request);

/// The request keys above that apply only when a mesh is involved (a convex
/// pair's `contacts` rejects them by name).
const std::vector<std::string>& mesh_contact_option_names();

}  // namespace proxima::apps
