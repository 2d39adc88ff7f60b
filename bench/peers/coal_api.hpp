// SPDX-License-Identifier: BSD-3-Clause
// Coal reaches the benchmarks only through this table, loaded at first use
// from the shared library that holds the Coal adapters (coal_peer.cpp,
// coal_mesh.cpp). Linked in the usual way, the wheel's Coal brought its own
// octomap 1.10 into processes that already hold Debian's octomap 1.9 (through
// FCL): both register their tree types in one static map at start-up, and
// the process corrupted its heap before main returned. Loaded with
// RTLD_DEEPBIND, the Coal library and its dependencies bind to their own
// symbols first; and since the peers run in forked children, only those
// children load it at all.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "coal_mesh.hpp"
#include "workload.hpp"

namespace proxima::bench {

struct CoalApi {
  PeerCell (*distance)(const Workload& work, int repeats);
  PeerCell (*signed_distance)(const Workload& work, int repeats);
  PeerCell (*contact)(const Workload& work, int repeats);
  std::unique_ptr<CoalMeshPair> (*mesh_pair)(const std::vector<std::array<double, 3>>& vertices,
                                             const std::vector<std::array<int, 3>>& triangles,
                                             const std::vector<double>& box_size);
};

/// The Coal library's table; loads it on the first call. Throws
/// std::runtime_error with the loader's message when it cannot be loaded.
const CoalApi& coal_api();

/// The adapters behind the table, defined in the Coal library (call them
/// through coal_api(), never directly).
namespace coal_side {
PeerCell distance(const Workload& work, int repeats);
PeerCell signed_distance(const Workload& work, int repeats);
PeerCell contact(const Workload& work, int repeats);
}  // namespace coal_side

}  // namespace proxima::bench

/// The one symbol the Coal library exports for coal_api().
extern "C" const proxima::bench::CoalApi* proxima_bench_coal_api();
