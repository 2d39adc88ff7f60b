#include "labels.hpp"
#include "peers.hpp"

namespace proxima::bench {

const std::vector<Peer>& all_peers() {
  static const std::vector<Peer> peers{
      {detail::fcl_library(), detail::fcl_libccd_solver, run_fcl_libccd},
      {detail::fcl_library(), detail::fcl_indep_solver, run_fcl_indep},
      {detail::ccd_library(), detail::ccd_solver, run_libccd},
      {detail::bullet_library(), detail::bullet_gjk_solver, run_bullet_gjk_pair},
      {detail::bullet_library(), detail::bullet_epa_solver, run_bullet_epa_distance},
  };
  return peers;
}

}  // namespace proxima::bench
