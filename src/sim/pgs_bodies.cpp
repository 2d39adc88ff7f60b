// SPDX-License-Identifier: BSD-3-Clause
// Projected Gauss–Seidel in body space (the "sequential impulses" form of
// solve_pgs in pgs.cpp): the contact-space velocity of a row is read from
// the two bodies' velocities, u = J v + bias, and an impulse change δ moves
// them by δ M⁻¹ Jᵀ. Each visit costs a few 6-vectors, so a sweep is linear
// in the number of contacts where the dense form is quadratic.
//
// Normal rows carry a small compliance ε = α W_nn (ODE's "constraint force
// mixing"): the sweeps solve u_n + ε c_n ≥ 0 ⊥ c_n ≥ 0. A face resting on
// four coplanar points is statically indeterminate; without ε the sweeps
// wander along the null space of W, loading diagonal corner pairs unevenly
// and building self-equilibrated friction stresses that sit at the edge of
// the cone, where the next perturbation makes the face slip and twist
// (measured on the 10-box stack: 2 mm drift in 3 s at 100 sweeps). ε picks
// the least-squares load distribution, so warm starts converge instead of
// drifting. The full ε acts only on the self-equilibrated part of a body
// pair's normal impulses (the loads that exert no net force or moment on
// either body, null_space_projector), where the wandering happens; the
// load-carrying part gets 0.3 ε (kLoadCompliance), enough for the sweeps to
// converge on a column. Its cost is a steady extra depth of 0.3 ε c_n Δt / γ
// per contact, a fraction of a micrometre for the stack. With ε on the whole
// load the deeper sinking of a heavily loaded edge tilted a statically
// stable staircase until it fell (see null_space_projector).
//
// Settled stacks: with warm starts a step starts about where the last one
// stopped, and what the sweeps still have to remove is the load's slow walk
// down the column (Gauss–Seidel on a chain of n bodies shrinks that error
// by about cos²(π/(2n+1)) a sweep: 2 % for 10 cubes, ~10 sweeps a settled
// step of the 10-cube mesh stack). With ContactSolveOptions::
// pgs_over_relaxation ω ≠ 1 the normal rows of each body pair are solved
// together, (W_pair + ε) δ = −(u_n + ε c_n) by a small Cholesky factor,
// and moved by ω δ (successive over-relaxation of the pair blocks), or row
// by row when that would make an impulse negative. ω = 1.5 takes the
// 10-cube stack to ~2.5 sweeps a settled step. Not the default: on a body
// whose block step is already exact (a box resting alone) ω overshoots and
// its impulses then alternate around the weight by ~1e-4 of it, within the
// velocity tolerance but no longer exact; and the blocks at ω = 1 made the
// r = 0 mesh stack (contacts from crossing triangles) fall apart. Plain
// sweeps (ω = 1) are contact by contact, as they always were.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <numbers>

#include <proxima/sim/body_space.hpp>

#include "friction_polygon.hpp"
#include "pgs_guards.hpp"

namespace proxima::sim {

using Eigen::Index;
using Eigen::Matrix2d;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace pgs_detail {

// A view of a Jacobian row with its static sides pointed at a zero
// "ground" slot of the velocity array (index = number of dynamic bodies),
// so that the hot loop reads and writes both sides without branches; a
// static side's entries are zero (JacobianRow), so the slot stays zero.
// A view rather than a copy: the rows are read where build_lcp wrote them.
struct Row {
  const JacobianRow* r = nullptr;
  std::size_t a = 0, b = 0;
  double velocity(const std::vector<Vec6>& v) const { return r->bias + r->ja.dot(v[a]) + r->jb.dot(v[b]); }
  void apply(double delta, std::vector<Vec6>& v) const {
    v[a] += delta * r->ma;
    v[b] += delta * r->mb;
  }
  // (J M⁻¹ Jᵀ) entry of this row and `o` when both act on the same two
  // slots (a static side's entries are zero, so no test is needed).
  double coupling(const Row& o) const { return r->ja.dot(o.r->ma) + r->jb.dot(o.r->mb); }
};

// One contact's rows and its blocks of W: the compliance-augmented W_nn
// and the 2×2 tangent block.
struct Block {
  int normal = 0, tangent = -1;  // rows in x
  double mu = 0.0;
  Row n, t1, t2;
  double wnn = 0.0, eps = 0.0;
  Matrix2d wtt = Matrix2d::Zero();
};

Row view(const JacobianRow& r, int ground) {
  return {&r, static_cast<std::size_t>(r.a >= 0 ? r.a : ground), static_cast<std::size_t>(r.b >= 0 ? r.b : ground)};
}

// Consecutive blocks (in visiting order) between the same two bodies, and
// the Cholesky factor of their normal rows' W + ε (offset into `factors`,
// −1 when solved row by row: one contact, too many, or singular).
struct Group {
  std::size_t begin = 0, end = 0;
  std::ptrdiff_t factor = -1;
  // The k×k projector P onto the pair's self-equilibrated load patterns
  // (offset into `projectors`, −1 when there are none: fewer than four
  // contacts, or more than kMaxPairBlock), see null_space_projector.
  std::ptrdiff_t projector = -1;
};

// Larger pairs are solved row by row (the factor is k³/6, the visits k).
constexpr std::size_t kMaxPairBlock = 16;

// The compliance on the load-carrying part of a pair's normal impulses, as
// a fraction of ContactSolveOptions::pgs_regularization (which sets it on
// the self-equilibrated part, null_space_projector): enough to keep the
// sweeps converging on a column of bodies (the 10-box stack drifted 0.3 mm
// in 2 s at 0.1, 0.0006 mm at 0.3), a third of the steady sinking that
// toppled the staircase at 1.
constexpr double kLoadCompliance = 0.3;

// In-place Cholesky of the k×k symmetric matrix a (row major, lower part
// used): false when a pivot is not clearly positive (a singular W_pair
// without compliance).
bool cholesky(double* a, std::size_t k) {
  for (std::size_t j = 0; j < k; ++j) {
    double d = a[j * k + j];
    for (std::size_t m = 0; m < j; ++m) d -= a[j * k + m] * a[j * k + m];
    if (!(d > 1e-12 * a[j * k + j])) return false;
    d = std::sqrt(d);
    a[j * k + j] = d;
    for (std::size_t i = j + 1; i < k; ++i) {
      double s = a[i * k + j];
      for (std::size_t m = 0; m < j; ++m) s -= a[i * k + m] * a[j * k + m];
      a[i * k + j] = s / d;
    }
  }
  return true;
}

// The compliance acts on the self-equilibrated part of a body pair's normal
// impulses only: P = I − A (AᵀA)⁺ Aᵀ, A the pair's k normal rows on one
// body (6 columns: force and moment), projects onto the load patterns that
// exert no net force or moment (for a face on four corners, the diagonal
// pairs pushing against each other). Those are the null space the sweeps
// wandered along; the rest is what holds the bodies up, and a compliance
// on it let each contact sink by ε c_n Δt / γ: the heavily loaded edge of a
// staircase's overhang sank 17 µm against ~0 at the light side, tilting
// every cube toward the overhang, and a statically stable staircase (ten
// cubes shifted 9.5 mm each, 2.5 mm of margin) toppled at 1.3 s. Returns
// false when the rows leave no such pattern (k ≤ 3 independent rows).
bool null_space_projector(const Block* blocks, std::size_t k, double* out) {
  // An orthonormal basis of the column space of A (k × 6) by modified
  // Gram–Schmidt over its six columns, each dropped when what is left of it
  // is below 1e-9 of its own length (force and moment columns differ in
  // scale by the lever arms): a few hundred flops for a face's four
  // contacts, against a 6 × 6 eigensolver's thousands, on every step.
  std::array<std::array<double, kMaxPairBlock>, 6> q{};
  int rank = 0;
  for (int j = 0; j < 6; ++j) {
    std::array<double, kMaxPairBlock>& v = q[static_cast<std::size_t>(rank)];
    double length = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
      const JacobianRow& r = *blocks[i].n.r;
      v[i] = (r.a >= 0 ? r.ja : r.jb)[j];
      length += v[i] * v[i];
    }
    length = std::sqrt(length);
    if (!(length > 0.0)) continue;
    for (int b = 0; b < rank; ++b) {
      const std::array<double, kMaxPairBlock>& u = q[static_cast<std::size_t>(b)];
      double d = 0.0;
      for (std::size_t i = 0; i < k; ++i) d += u[i] * v[i];
      for (std::size_t i = 0; i < k; ++i) v[i] -= d * u[i];
    }
    double left = 0.0;
    for (std::size_t i = 0; i < k; ++i) left += v[i] * v[i];
    left = std::sqrt(left);
    if (!(left > 1e-9 * length)) continue;
    for (std::size_t i = 0; i < k; ++i) v[i] /= left;
    if (++rank == static_cast<int>(k)) return false;  // no load pattern is free
  }
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (int b = 0; b < rank; ++b) s -= q[static_cast<std::size_t>(b)][i] * q[static_cast<std::size_t>(b)][j];
      out[i * k + j] = s;
    }
  return rank > 0;
}

// Solves L Lᵀ y = b in place.
void cholesky_solve(const double* l, std::size_t k, double* b) {
  for (std::size_t i = 0; i < k; ++i) {
    double s = b[i];
    for (std::size_t m = 0; m < i; ++m) s -= l[i * k + m] * b[m];
    b[i] = s / l[i * k + i];
  }
  for (std::size_t i = k; i-- > 0;) {
    double s = b[i];
    for (std::size_t m = i + 1; m < k; ++m) s -= l[m * k + i] * b[m];
    b[i] = s / l[i * k + i];
  }
}

}  // namespace pgs_detail

using namespace pgs_detail;

struct PgsWorkspace::Buffers {
  std::vector<Block> blocks;
  std::vector<Group> groups;
  std::vector<double> factors;
  std::vector<double> projectors;
  std::vector<Vec6> vel;
  std::vector<int> identity;
  int polygon_sides = 0;
  std::optional<detail::FrictionPolygon> polygon;

  const detail::FrictionPolygon& friction_polygon(int q) {
    if (!polygon || polygon_sides != q) polygon.emplace(q);
    polygon_sides = q;
    return *polygon;
  }
};

PgsWorkspace::PgsWorkspace() = default;
PgsWorkspace::~PgsWorkspace() = default;
PgsWorkspace::PgsWorkspace(const PgsWorkspace&) {}
PgsWorkspace& PgsWorkspace::operator=(const PgsWorkspace&) { return *this; }
PgsWorkspace::PgsWorkspace(PgsWorkspace&& o) noexcept : buffers_(std::move(o.buffers_)) {}
PgsWorkspace& PgsWorkspace::operator=(PgsWorkspace&& o) noexcept {
  std::swap(buffers_, o.buffers_);
  return *this;
}
PgsWorkspace::Buffers& PgsWorkspace::buffers() {
  if (!buffers_) buffers_ = std::make_unique<Buffers>();
  return *buffers_;
}

ContactSolution solve_pgs_bodies(const BodySpaceProblem& p, const ContactSolveOptions& options,
                                 const VectorXd& warm, VectorXd& v) {
  PgsWorkspace workspace;
  ContactSolution out;
  out.x = warm;
  const PgsResult r = solve_pgs_bodies(p, options, out.x, v, workspace);
  out.status = r.status;
  out.iterations = r.iterations;
  return out;
}

PgsResult solve_pgs_bodies(const BodySpaceProblem& p, const ContactSolveOptions& options, VectorXd& x, VectorXd& v,
                           PgsWorkspace& workspace) {
  PgsResult out;
  const Index m = static_cast<Index>(p.rows.size());
  if (!detail::start_pgs(p, x, v, out)) return out;
  PgsWorkspace::Buffers& ws = workspace.buffers();

  // v = v* + M⁻¹ Jᵀ x, row by row as velocities_after adds them, into the
  // per-body array with its zero ground slot.
  const int ground = static_cast<int>(p.v_star.size() / 6);
  std::vector<Vec6>& vel = ws.vel;
  vel.resize(static_cast<std::size_t>(ground) + 1);
  for (int i = 0; i < ground; ++i) vel[static_cast<std::size_t>(i)] = p.v_star.segment<6>(6 * i);
  vel[static_cast<std::size_t>(ground)].setZero();
  for (Index i = 0; i < m; ++i) {
    const JacobianRow& r = p.rows[static_cast<std::size_t>(i)];
    const double xi = x[i];
    if (xi == 0.0) continue;
    if (r.a >= 0) vel[static_cast<std::size_t>(r.a)] += xi * r.ma;
    if (r.b >= 0) vel[static_cast<std::size_t>(r.b)] += xi * r.mb;
  }
  const auto write_velocities = [&] {
    v.resize(6 * ground);
    for (int i = 0; i < ground; ++i) v.segment<6>(6 * i) = vel[static_cast<std::size_t>(i)];
  };
  if (p.contacts.empty()) {
    write_velocities();
    return out;
  }

  // Compact per-contact blocks, in visiting order.
  const std::size_t nc = p.contacts.size();
  const std::vector<int>* order = &p.order;
  if (order->size() != nc) {
    ws.identity.resize(nc);
    for (std::size_t k = 0; k < nc; ++k) ws.identity[k] = static_cast<int>(k);
    order = &ws.identity;
  }
  std::vector<Block>& blocks = ws.blocks;
  blocks.resize(nc);
  for (std::size_t i = 0; i < nc; ++i) {
    const ContactRows& c = p.contacts[static_cast<std::size_t>((*order)[i])];
    Block& blk = blocks[i];
    blk.normal = c.normal;
    blk.tangent = c.tangent;
    blk.mu = c.mu;
    blk.n = view(p.rows[static_cast<std::size_t>(c.normal)], ground);
    blk.wnn = blk.n.coupling(blk.n);
    blk.eps = options.pgs_regularization * blk.wnn;
    if (c.tangent >= 0) {
      blk.t1 = view(p.rows[static_cast<std::size_t>(c.tangent)], ground);
      blk.t2 = view(p.rows[static_cast<std::size_t>(c.tangent + 1)], ground);
      const double off = blk.t1.coupling(blk.t2);
      blk.wtt << blk.t1.coupling(blk.t1), off, off, blk.t2.coupling(blk.t2);
    }
  }
  std::vector<Group>& groups = ws.groups;
  std::vector<double>& factors = ws.factors;
  std::vector<double>& projectors = ws.projectors;
  groups.clear();
  factors.clear();
  projectors.clear();
  for (std::size_t i = 0; i < nc;) {
    Group g{i, i + 1, -1};
    while (g.end < nc && blocks[g.end].n.a == blocks[i].n.a && blocks[g.end].n.b == blocks[i].n.b) ++g.end;
    const std::size_t k = g.end - g.begin;
    // Pair blocks come with over-relaxation only: plain sweeps stay the
    // contact-by-contact Gauss–Seidel (with blocks at ω = 1 the r = 0 mesh
    // stack, whose contacts come from crossing triangles, fell apart).
    if (k >= 4 && k <= kMaxPairBlock && options.pgs_regularization > 0.0) {
      const std::size_t at = projectors.size();
      projectors.resize(at + k * k);
      double* c = projectors.data() + at;
      if (null_space_projector(blocks.data() + g.begin, k, c)) {
        g.projector = static_cast<std::ptrdiff_t>(at);
        for (std::size_t r = 0; r < k; ++r)
          for (std::size_t q = 0; q < k; ++q)
            c[r * k + q] = c[r * k + q] * std::sqrt(blocks[g.begin + r].eps * blocks[g.begin + q].eps) +
                           (r == q ? kLoadCompliance * blocks[g.begin + r].eps : 0.0);
      } else {
        projectors.resize(at);
      }
    }
    const double* compliance = g.projector >= 0 ? projectors.data() + g.projector : nullptr;
    bool solvable = options.pgs_over_relaxation != 1.0 && k >= 2 && k <= kMaxPairBlock;
    for (std::size_t r = g.begin; r < g.end && solvable; ++r) solvable = blocks[r].wnn > 0.0;
    if (solvable) {
      const std::size_t at = factors.size();
      factors.resize(at + k * k);
      double* a = factors.data() + at;
      for (std::size_t r = 0; r < k; ++r)
        for (std::size_t c = 0; c <= r; ++c)
          a[r * k + c] =
              blocks[g.begin + r].n.coupling(blocks[g.begin + c].n) +
              (compliance ? compliance[r * k + c] : r == c ? kLoadCompliance * blocks[g.begin + r].eps : 0.0);
      if (cholesky(a, k)) g.factor = static_cast<std::ptrdiff_t>(at);
      else factors.resize(at);
    }
    groups.push_back(g);
    i = g.end;
  }
  const detail::FrictionPolygon& polygon = ws.friction_polygon(options.friction_directions);
  const double apothem = std::cos(std::numbers::pi / options.friction_directions);

  out.status = LcpStatus::max_iterations;
  // Over-relaxed sweeps first (fast on a column of bodies); projections and
  // friction void SOR's convergence guarantee, so plain sweeps take over
  // for good once a sweep ends far above the best so far or after
  // kRelaxedSweeps.
  constexpr int kRelaxedSweeps = 50;
  double best_residual = std::numeric_limits<double>::infinity();
  bool relax = options.pgs_over_relaxation != 1.0;
  double omega = relax ? options.pgs_over_relaxation : 1.0;
  for (int it = 1; it <= options.pgs_max_iterations; ++it) {
    // Largest violation of eq. (1) met by a visit, before its update: a
    // normal row approaching (u_n + ε c_n < 0) or separating while pushed
    // (c_n > 0); a contact strictly inside its friction polygon sliding.
    // Sliding contacts are judged by their normal row only.
    double residual = 0.0;
    // Exact 1-D minimization of a normal row, projected on [0, ∞), from
    // its current u_n + ε c_n; returns that violation of eq. (1).
    // With the pair's compliance matrix C (row r of a group of k), the
    // term is (C c)_r instead of ε c_n.
    const auto compliance_term = [&](const Group& g, std::size_t r) {
      const std::size_t k = g.end - g.begin;
      const double* c = projectors.data() + g.projector + static_cast<std::ptrdiff_t>(r * k);
      double sum = 0.0;
      for (std::size_t q = 0; q < k; ++q) sum += c[q] * x[blocks[g.begin + q].normal];
      return std::pair{sum, c[r]};
    };
    const auto normal_row = [&](const Group& g, std::size_t r) {
      const Block& blk = blocks[g.begin + r];
      double& xn = x[blk.normal];
      const double eps = kLoadCompliance * blk.eps;
      const auto [term, diag] = g.projector >= 0 ? compliance_term(g, r) : std::pair{eps * xn, eps};
      const double un = blk.n.velocity(vel) + term;
      const double violation = xn > 0.0 ? std::abs(un) : -un;
      const double next = std::max(0.0, xn - un / (blk.wnn + diag));
      if (next != xn) {
        blk.n.apply(next - xn, vel);
        xn = next;
      }
      return violation;
    };
    // Tangential impulses: the 2-D block of a contact over its friction
    // polygon.
    const auto tangent_rows = [&](const Block& blk) {
      if (blk.tangent < 0) return;
      const Index t = blk.tangent;
      const double xn = x[blk.normal];
      const Vector2d f0(x[t], x[t + 1]);
      const Vector2d ut(blk.t1.velocity(vel), blk.t2.velocity(vel));
      const double radius = blk.mu * xn;
      if (f0.norm() < 0.999 * apothem * radius) residual = std::max(residual, ut.cwiseAbs().maxCoeff());
      const Vector2d f = polygon.minimize(blk.wtt, ut - blk.wtt * f0, radius);
      if (f != f0) {
        blk.t1.apply(f.x() - f0.x(), vel);
        blk.t2.apply(f.y() - f0.y(), vel);
        x[t] = f.x();
        x[t + 1] = f.y();
      }
    };
    for (const Group& g : groups) {
      if (g.factor < 0) {
        // Contact by contact: normal row, then its friction.
        for (std::size_t r = g.begin; r < g.end; ++r) {
          const Block& blk = blocks[r];
          if (blk.wnn > 0.0) residual = std::max(residual, normal_row(g, r - g.begin));
          tangent_rows(blk);
        }
        continue;
      }
      // The pair's normal rows together (violations measured before the
      // update), or one by one when the block step leaves [0, ∞); then the
      // friction of each contact.
      const std::size_t k = g.end - g.begin;
      std::array<double, kMaxPairBlock> delta{};
      for (std::size_t r = 0; r < k; ++r) {
        const Block& blk = blocks[g.begin + r];
        const double xn = x[blk.normal];
        const double term = g.projector >= 0 ? compliance_term(g, r).first : kLoadCompliance * blk.eps * xn;
        const double un = blk.n.velocity(vel) + term;
        residual = std::max(residual, xn > 0.0 ? std::abs(un) : -un);
        delta[r] = -un;
      }
      cholesky_solve(factors.data() + g.factor, k, delta.data());
      bool block = true;
      for (std::size_t r = 0; r < k; ++r) {
        delta[r] *= omega;
        block = block && x[blocks[g.begin + r].normal] + delta[r] >= 0.0;
      }
      if (block) {
        for (std::size_t r = 0; r < k; ++r) {
          const Block& blk = blocks[g.begin + r];
          blk.n.apply(delta[r], vel);
          x[blk.normal] += delta[r];
        }
      } else {
        for (std::size_t r = 0; r < k; ++r) normal_row(g, r);
      }
      for (std::size_t r = g.begin; r < g.end; ++r) tangent_rows(blocks[r]);
    }
    out.iterations = it;
    if (residual <= options.pgs_velocity_tolerance) {
      out.status = LcpStatus::ok;
      break;
    }
    best_residual = std::min(best_residual, residual);
    if (residual > 2.0 * best_residual || it >= kRelaxedSweeps) relax = false;
    omega = relax ? options.pgs_over_relaxation : 1.0;
  }
  write_velocities();
  detail::reject_non_finite(p, x, v, out);
  return out;
}


}  // namespace proxima::sim
