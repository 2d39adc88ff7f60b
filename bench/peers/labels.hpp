// Library and solver labels, shared by the adapters and the peer registry so a
// crashed child's row reads the same as a successful one.
#pragma once

#include <string>

namespace proxima::bench::detail {

std::string fcl_library();     // defined in fcl_peer.cpp
std::string ccd_library();     // defined in ccd_peer.cpp
std::string bullet_library();  // defined in bullet_peer.cpp

inline constexpr const char* fcl_libccd_solver = "fcl::distance GST_LIBCCD";
inline constexpr const char* fcl_indep_solver = "fcl::distance GST_INDEP";
inline constexpr const char* ccd_solver = "ccdGJKPenetration (GJK+EPA)";
inline constexpr const char* bullet_gjk_solver = "btGjkPairDetector (Voronoi simplex + GJK-EPA depth)";
inline constexpr const char* bullet_epa_solver = "btGjkEpaSolver2::Distance (Penetration on overlap)";

}  // namespace proxima::bench::detail
