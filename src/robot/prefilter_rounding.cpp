// SPDX-License-Identifier: BSD-3-Clause
#include "prefilter_rounding.hpp"

#include <algorithm>

namespace proxima::robot::detail {

KinematicsAllowance kinematics_allowance(const std::vector<PrefilterStep>& steps, std::size_t links, int root,
                                         double range, double travel) {
  const double u = kUnit, g3 = float_gamma(3), g4 = float_gamma(4), s3 = std::sqrt(3.0);
  KinematicsAllowance a;
  a.range = range;
  a.travel = travel;
  // The root: the base's rotation rounded entry by entry (Frobenius ≤ √3 u),
  // at the origin exactly.
  a.rot.assign(links, 0.0);
  a.pos.assign(links, 0.0);
  a.rot[static_cast<std::size_t>(root)] = s3 * u;
  for (const PrefilterStep& st : steps) {
    const double rp = a.rot[static_cast<std::size_t>(st.parent)], pp = a.pos[static_cast<std::size_t>(st.parent)];
    double l2 = 0.0;
    for (std::size_t k = 0; k < 9; ++k) {
      const double e = st.revolute ? float_gamma(4) * (std::abs(st.fixed[k]) + std::abs(st.cosine[k]) +
                                                       std::abs(st.sine[k])) +
                                         (5.0 * u + 0x1p-48) * (std::abs(st.cosine[k]) + std::abs(st.sine[k]))
                                   : u * std::abs(st.fixed[k]);
      l2 += e * e;
    }
    // 4e-15: the double matrices and sines stand for a rotation to ~1e-16.
    const double lambda = std::sqrt(l2) + 4e-15;
    double t = 0.0, dt = 0.0;
    const bool prismatic = st.variable >= 0 && !st.revolute;
    for (std::size_t k = 0; k < 3; ++k) {
      const double tk = std::abs(st.p[k]) + (prismatic ? travel * std::abs(st.slide[k]) : 0.0);
      t += tk * tk;
    }
    t = std::sqrt(t);
    dt = (prismatic ? g4 : u) * t;
    const double tt = t + dt;
    a.rot[static_cast<std::size_t>(st.child)] = rp * (1.0 + lambda) + lambda + 3.0 * g3 * (1.0 + rp) * (1.0 + lambda);
    a.pos[static_cast<std::size_t>(st.child)] = pp + rp * tt + dt + s3 * g4 * ((1.0 + rp) * tt + range);
  }
  // Each bound a little larger: the sums above are in double.
  for (double& r : a.rot) r *= 1.0 + 1e-9;
  for (double& p : a.pos) p *= 1.0 + 1e-9;
  return a;
}

double point_allowance(const KinematicsAllowance& a, std::size_t link, const Vec3& c) {
  const double u = kUnit, n = c.norm(), r = a.rot[link];
  return (a.pos[link] + r * n * (1.0 + u) + u * n + std::sqrt(3.0) * float_gamma(4) * ((1.0 + r) * (1.0 + u) * n + a.range)) *
             (1.0 + 1e-9) +
         1e-15;
}

double box_allowance(double reach, double center, double half) {
  const double u = kUnit, d = reach + center;
  // u |c| + (u + 3u + √3 γ_3 (1 + u) + u) |d| + u (2 |half|) ≤ the sum below.
  return (u * center + 12.0 * u * d + 2.0 * u * half) * (1.0 + 1e-6) + 1e-15;
}

double halfspace_allowance(double reach) { return 5.0 * kUnit * reach * (1.0 + 1e-6) + 1e-15; }

}  // namespace proxima::robot::detail
