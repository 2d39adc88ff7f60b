// SPDX-License-Identifier: BSD-3-Clause
#include "labels.hpp"
#include "manifold.hpp"
#include "peers.hpp"

namespace proxima::bench {

const std::vector<Peer>& all_peers() {
  static const std::vector<Peer> peers{
      {detail::fcl_library(), detail::fcl_libccd_solver, run_fcl_libccd},
      {detail::fcl_library(), detail::fcl_indep_solver, run_fcl_indep},
      {detail::ccd_library(), detail::ccd_solver, run_libccd},
      {detail::bullet_library(), detail::bullet_gjk_solver, run_bullet_gjk_pair},
      {detail::bullet_library(), detail::bullet_epa_solver, run_bullet_epa_distance},
#ifdef PROXIMA_HAVE_COAL
      {detail::coal_library(), detail::coal_distance_solver, run_coal_distance},
#endif
#ifdef PROXIMA_HAVE_MUJOCO
      {detail::mujoco_library(), detail::mujoco_distance_solver, run_mujoco_distance},
#endif
  };
  return peers;
}

const std::vector<Peer>& all_depth_peers() {
  static const std::vector<Peer> peers{
      {detail::ccd_library(), detail::ccd_gjk_depth_solver, run_ccd_gjk_depth},
      {detail::ccd_library(), detail::ccd_mpr_depth_solver, run_ccd_mpr_depth},
      {detail::fcl_library(), detail::fcl_libccd_signed_solver, run_fcl_libccd_signed},
      {detail::fcl_library(), detail::fcl_indep_signed_solver, run_fcl_indep_signed},
      {detail::fcl_library(), detail::fcl_libccd_contact_solver, run_fcl_libccd_contact},
      {detail::fcl_library(), detail::fcl_indep_contact_solver, run_fcl_indep_contact},
      {detail::bullet_library(), detail::bullet_epa_depth_solver, run_bullet_epa_depth},
      {detail::bullet_library(), detail::bullet_pair_depth_solver, run_bullet_pair_depth},
#ifdef PROXIMA_HAVE_ODE
      {detail::ode_library(), detail::ode_solver, run_ode},
#endif
#ifdef PROXIMA_HAVE_COAL
      {detail::coal_library(), detail::coal_signed_solver, run_coal_signed},
      {detail::coal_library(), detail::coal_contact_solver, run_coal_contact},
#endif
#ifdef PROXIMA_HAVE_MUJOCO
      {detail::mujoco_library(), detail::mujoco_signed_solver, run_mujoco_signed},
      {detail::mujoco_library(), detail::mujoco_collision_solver, run_mujoco_collision},
#endif
  };
  return peers;
}

const std::vector<ManifoldPeer>& all_manifold_peers() {
  static const std::vector<ManifoldPeer> peers{
      {detail::bullet_library(), detail::bullet_box_box_manifold_solver, run_bullet_box_box_manifold},
      {detail::bullet_library(), detail::bullet_gjk_manifold_solver, run_bullet_gjk_manifold},
      {detail::fcl_library(), detail::fcl_manifold_solver, run_fcl_manifold},
#ifdef PROXIMA_HAVE_ODE
      {detail::ode_library(), detail::ode_manifold_solver, run_ode_manifold},
#endif
  };
  return peers;
}

}  // namespace proxima::bench
