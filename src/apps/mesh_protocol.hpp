// Answers of `proxima query` for pairs with a mesh operand (collide,
// distance, signed_distance while separated, tolerance).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "json_mesh.hpp"

namespace proxima::apps {

/// `request` has a mesh as "a" or "b" (or both). Throws proxima::Error for
/// a bad operand, pose or option; the caller turns it into an error answer.
nlohmann::json answer_mesh_pair(const nlohmann::json& id, const std::string& query,
                                const nlohmann::json& request, MeshFiles& files);

}  // namespace proxima::apps
