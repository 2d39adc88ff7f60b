// SPDX-License-Identifier: BSD-3-Clause
// Library and solver labels, shared by the adapters and the peer registry so a
// crashed child's row reads the same as a successful one.
#pragma once

#include <cstddef>
#include <string>

namespace proxima::bench::detail {

std::string fcl_library();     // defined in fcl_peer.cpp
std::string ccd_library();     // defined in ccd_peer.cpp
std::string bullet_library();  // defined in bullet_peer.cpp
std::string ode_library();     // defined in ode_peer.cpp (built only with ODE)
std::string mujoco_library();  // defined in mujoco_peer.cpp (built only with MuJoCo)

#ifdef PROXIMA_COAL_VERSION
// From CMake: the parent process labels Coal's rows without loading Coal
// (coal_api.hpp says why it loads only where it runs).
inline std::string coal_library() { return std::string("Coal ") + PROXIMA_COAL_VERSION; }
#endif

// Coal's EPA iteration cap (its default, 64, is up to 5.7e-3 m off on
// polytopes of 2000 vertices; see coal_peer.cpp); the labels below carry it.
inline constexpr std::size_t coal_epa_iterations = 128;

inline constexpr const char* fcl_libccd_solver = "fcl::distance GST_LIBCCD";
inline constexpr const char* fcl_indep_solver = "fcl::distance GST_INDEP";
inline constexpr const char* ccd_solver = "ccdGJKPenetration (GJK+EPA)";
inline constexpr const char* bullet_gjk_solver = "btGjkPairDetector (Voronoi simplex + GJK-EPA depth)";
inline constexpr const char* bullet_epa_solver = "btGjkEpaSolver2::Distance (Penetration on overlap)";
inline constexpr const char* coal_distance_solver = "ComputeDistance (GJK; EPA cap 128)";
inline constexpr const char* mujoco_distance_solver = "mj_geomDistance";

// Penetration-depth peers (all_depth_peers).
inline constexpr const char* ccd_gjk_depth_solver = "ccdGJKPenetration (GJK+EPA)";
inline constexpr const char* ccd_mpr_depth_solver = "ccdMPRPenetration (MPR)";
inline constexpr const char* fcl_libccd_signed_solver = "fcl::distance signed GST_LIBCCD";
inline constexpr const char* fcl_indep_signed_solver = "fcl::distance signed GST_INDEP";
inline constexpr const char* fcl_libccd_contact_solver = "fcl::collide contact GST_LIBCCD";
inline constexpr const char* fcl_indep_contact_solver = "fcl::collide contact GST_INDEP";
inline constexpr const char* bullet_epa_depth_solver = "btGjkEpaSolver2::Penetration";
inline constexpr const char* bullet_pair_depth_solver = "btGjkPairDetector + btGjkEpaPenetrationDepthSolver";
inline constexpr const char* ode_solver = "dCollide (deepest contact)";
inline constexpr const char* coal_signed_solver = "ComputeDistance signed (GJK+EPA, cap 128)";
inline constexpr const char* coal_contact_solver = "ComputeCollision contact (GJK+EPA, cap 128)";
inline constexpr const char* mujoco_signed_solver = "mj_geomDistance (signed)";
inline constexpr const char* mujoco_collision_solver = "mj_collision (deepest contact)";

// Contact-manifold peers (all_manifold_peers).
inline constexpr const char* bullet_box_box_manifold_solver = "btBoxBoxDetector";
inline constexpr const char* bullet_gjk_manifold_solver = "btGjkPairDetector + btGjkEpaPenetrationDepthSolver (1 point)";
inline constexpr const char* fcl_manifold_solver = "fcl::collide, 16 contacts, GST_LIBCCD";
inline constexpr const char* ode_manifold_solver = "dCollide, 16 contacts";

}  // namespace proxima::bench::detail
