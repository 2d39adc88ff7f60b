// SPDX-License-Identifier: BSD-3-Clause
// `proxima query --html PAGE`: each answered collide, distance,
// signed_distance or contacts request becomes a frame of the replay page
// (replay_page.hpp): the two shapes at their poses, the witness points and
// the segment between them, the contact points with their normals.
#pragma once

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "html_replay.hpp"
#include "json_mesh.hpp"
#include "replay_page.hpp"

namespace proxima::apps {

class QueryReplay {
 public:
  /// Keeps the first `frame_budget` drawn requests (later ones are counted, not drawn).
  explicit QueryReplay(int frame_budget = kDefaultFrameBudget);

  /// Adds the request's frame when `answer` is not an error and the query
  /// is one the page draws; returns whether it did. Meshes are read through
  /// `files` (already loaded while answering). The frame's label is `label`
  /// when given, else the request's id and query.
  bool add(const nlohmann::json& request, const nlohmann::json& answer, MeshFiles& files,
           const std::string& label = "");

  int frames() const { return static_cast<int>(frames_.size()); }
  int skipped() const { return skipped_; }
  nlohmann::json data() const;

 private:
  ShapeTable shapes_;
  nlohmann::json frames_ = nlohmann::json::array();
  int budget_ = 0, skipped_ = 0;
};

/// run_query_stream, adding each answered request to `page`.
int run_query_stream(std::istream& in, std::ostream& out, QueryReplay& page);

}  // namespace proxima::apps
