// SPDX-License-Identifier: BSD-3-Clause
// Static constraint scores for planners (Dumitrache et al., "Collision and
// proximity avoidance for robust behaviour of real-time robot applications",
// §IV): each in [0, 1], 0 forbidden, 1 fully satisfied; a configuration's
// score is their product (eq. 3).
#pragma once

#include <span>

namespace proxima::robot {

/// Eq. 4: sin(π (θ − lo) / (hi − lo))^γ, 1 mid-range and 0 at either limit
/// (and outside the range). Throws proxima::Error for lo ≥ hi, γ ≤ 0 or a
/// non-finite argument.
double joint_limit_score(double theta, double lo, double hi, double gamma = 1.0);

/// Eq. 5's shape between d_low and d_high. The paper prints
/// sin(π (d − d_low) / (d_high − d_low))^γ, which peaks half-way and falls
/// back to 0 at d_high, then jumps to 1: a clearance score must not punish
/// more clearance, so the default is the quarter wave, monotone and
/// continuous at both ends. `paper_half_wave` keeps the printed formula.
enum class ClearanceRamp { quarter_wave, paper_half_wave };

/// Eq. 5: 0 below d_low, 1 above d_high, the ramp between. Throws
/// proxima::Error for d_low ≥ d_high, γ ≤ 0 or a non-finite argument.
double clearance_score(double d, double d_low, double d_high, double gamma = 1.0,
                       ClearanceRamp ramp = ClearanceRamp::quarter_wave);

/// Eq. 3: the product of the scores (1 for none). Throws proxima::Error for
/// a score outside [0, 1].
double combined_score(std::span<const double> scores);

}  // namespace proxima::robot
