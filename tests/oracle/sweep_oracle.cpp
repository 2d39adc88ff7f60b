// SPDX-License-Identifier: BSD-3-Clause
#include "sweep_oracle.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "oracle_geometry.hpp"

namespace proxima::oracle {
namespace {

using Eigen::Vector3d;
constexpr double kInf = std::numeric_limits<double>::infinity();

// F(w) = min_{x in A - B} w.x, with the minimiser x = s_A(-w) - s_B(w).
class Evaluator {
 public:
  Evaluator(const Support& a, const Support& b) : a_(a), b_(b) {}
  double operator()(const Vector3d& w, Vector3d* x) {
    ++count_;
    *x = a_(-w) - b_(w);
    if (!x->allFinite()) throw std::runtime_error("proxima::oracle::sweep: non-finite support point");
    return w.dot(*x);
  }
  long count() const { return count_; }

 private:
  const Support& a_;
  const Support& b_;
  long count_ = 0;
};

// Ellipsoid {c + L u : |u| <= 1} in R^N.
template <int N>
struct Ellipsoid {
  Eigen::Matrix<double, N, 1> c;
  Eigen::Matrix<double, N, N> L;
};

// Shrinks E to the minimum-volume ellipsoid containing
// E ∩ {p : g.(p - c) >= beta}, beta >= 0 (beta = 0: central cut, > 0: deep
// cut).  Returns false if the cut is degenerate or leaves (numerically)
// nothing, i.e. when no further progress is possible.
template <int N>
bool cut(Ellipsoid<N>& e, const Eigen::Matrix<double, N, 1>& g, double beta) {
  using Vec = Eigen::Matrix<double, N, 1>;
  const Vec lg = e.L.transpose() * g;
  const double norm = lg.norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) return false;
  const double alpha = std::max(beta, 0.0) / norm;
  if (!(alpha < 1.0)) return false;
  const Vec at = lg / norm;
  const Vec step = e.L * at;  // = P g / sqrt(g' P g)
  constexpr double n = N;
  const double tau = (1.0 + n * alpha) / (n + 1.0);
  const double s2 = n * n * (1.0 - alpha * alpha) / (n * n - 1.0);
  const double sigma = 2.0 * (1.0 + n * alpha) / ((n + 1.0) * (1.0 + alpha));
  const double gamma = 1.0 - std::sqrt(std::max(1.0 - sigma, 0.0));
  e.c += tau * step;
  e.L = std::sqrt(s2) * (e.L - gamma * step * at.transpose());
  return e.c.allFinite() && e.L.allFinite();
}

void tangent_frame(const Vector3d& d, Vector3d* e1, Vector3d* e2) {
  Eigen::Index i;
  d.cwiseAbs().minCoeff(&i);
  *e1 = d.cross(Vector3d::Unit(i)).normalized();
  *e2 = d.cross(*e1).normalized();
}

struct State {
  double best = -kInf;          // best F(d)/|d| found so far
  Vector3d dir = Vector3d::UnitX();
  double upper = kInf;          // upper bound on dist (min |x| and certificate)
  std::vector<Vector3d> points; // support points seen during refinement
  void offer(const Vector3d& w, double f, const Vector3d& x) {
    const double nw = w.norm();
    const double phi = f / nw;
    if (phi > best) best = phi, dir = w / nw;
    upper = std::min(upper, x.norm());
  }
};

// Distance from the origin to the convex hull of a few points (brute force
// over all vertices, edges and triangles).
double hull_distance(const std::vector<Vector3d>& sel) {
  double best2 = kInf;
  for (const auto& p : sel) best2 = std::min(best2, p.squaredNorm());
  for (std::size_t i = 0; i < sel.size(); ++i) {
    for (std::size_t j = i + 1; j < sel.size(); ++j) {
      best2 = std::min(best2, closest_point_on_segment(Vector3d::Zero(), sel[i], sel[j]).squaredNorm());
      for (std::size_t k = j + 1; k < sel.size(); ++k) {
        best2 = std::min(
            best2, closest_point_on_triangle(Vector3d::Zero(), sel[i], sel[j], sel[k]).squaredNorm());
      }
    }
  }
  return std::sqrt(best2);
}

// Upper bound on dist: every collected support point lies in C, so the
// distance from the origin to the hull of ANY subset of them bounds dist from
// above.  Subsets of `keep` points tried (cheapest first, stopping once tight):
// the points nearest to the supporting plane of `dir`; then, for a few
// thickness bands around that plane, the points nearest to the predicted
// closest point best*dir and a farthest-point sample of the band (needed when
// the contact feature of C is a face or a curved patch whose support points
// form continuous families, e.g. cylinder rims).
double certificate(const std::vector<Vector3d>& pts, const Vector3d& dir, double best, int keep) {
  if (pts.empty()) return kInf;
  std::vector<std::pair<double, Vector3d>> byplane;
  byplane.reserve(pts.size());
  double scale = 0.0;
  for (const auto& p : pts) {
    byplane.emplace_back(dir.dot(p), p);
    scale = std::max(scale, p.norm());
  }
  std::sort(byplane.begin(), byplane.end(),
            [](const auto& l, const auto& r) { return l.first < r.first; });
  const double dup_tol = 1e-15 * scale;
  const double tight = 1e-14 * (1.0 + std::abs(best));
  auto add_unique = [&](std::vector<Vector3d>& sel, const Vector3d& p) {
    for (const auto& q : sel) {
      if ((p - q).norm() <= dup_tol) return;
    }
    sel.push_back(p);
  };
  std::vector<Vector3d> sel;
  for (const auto& hp : byplane) {
    add_unique(sel, hp.second);
    if (static_cast<int>(sel.size()) >= keep) break;
  }
  double upper = hull_distance(sel);
  if (upper - best <= tight) return upper;
  const Vector3d foot = best * dir;
  const double hmin = byplane.front().first;
  for (const double band : {1e-13, 1e-10, 1e-7}) {
    std::vector<Vector3d> cand;
    for (const auto& hp : byplane) {
      if (hp.first > hmin + band * scale) break;
      cand.push_back(hp.second);
    }
    std::sort(cand.begin(), cand.end(), [&](const Vector3d& l, const Vector3d& r) {
      return (l - foot).squaredNorm() < (r - foot).squaredNorm();
    });
    // (a) nearest to the predicted closest point.
    sel.clear();
    for (const auto& p : cand) {
      add_unique(sel, p);
      if (static_cast<int>(sel.size()) >= keep) break;
    }
    upper = std::min(upper, hull_distance(sel));
    if (upper - best <= tight) return upper;
    // (b) farthest-point sampling seeded with the nearest one.
    sel.assign(1, cand.front());
    std::vector<double> dmin(cand.size(), kInf);
    while (static_cast<int>(sel.size()) < keep) {
      std::size_t far = 0;
      double fard = -1.0;
      for (std::size_t i = 0; i < cand.size(); ++i) {
        dmin[i] = std::min(dmin[i], (cand[i] - sel.back()).squaredNorm());
        if (dmin[i] > fard) fard = dmin[i], far = i;
      }
      if (!(fard > dup_tol * dup_tol)) break;
      sel.push_back(cand[far]);
    }
    upper = std::min(upper, hull_distance(sel));
    if (upper - best <= tight) return upper;
  }
  return upper;
}

// Phase 1: Fibonacci sphere.  Keeps the sweep results for later use.
void coarse_sweep(Evaluator& eval, State& st, int n, std::vector<std::pair<double, Vector3d>>* all) {
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  Vector3d x;
  for (int i = 0; i < n; ++i) {
    const double z = 1.0 - (2.0 * i + 1.0) / n;
    const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
    const double phi = golden * i;
    const Vector3d d(r * std::cos(phi), r * std::sin(phi), z);
    const double f = eval(d, &x);
    st.offer(d, f, x);
    all->emplace_back(f, d);
  }
}

// Phase 1b: maximise the concave F over the unit ball with a 3-D ellipsoid
// method until a separating direction (F > 0) appears.  Returns true if found.
bool find_separating_direction(Evaluator& eval, State& st, const Vector3d& x_any, int max_iter) {
  Ellipsoid<3> e;
  e.c.setZero();
  e.L = Eigen::Matrix3d::Identity();
  Vector3d x;
  for (int it = 0; it < max_iter; ++it) {
    // The kept set always contains the segment [0, d*] (length 1) if the sets
    // are separated, so an ellipsoid with all semi-axes < 1/2 proves overlap
    // (up to rounding).
    if (e.L.norm() < 0.45) break;
    const double nc = e.c.norm();
    Vector3d g;
    double beta;
    if (nc > 1.0) {  // feasibility cut: keep c_hat . d <= 1
      g = -e.c / nc;
      beta = nc - 1.0;
    } else if (nc < 1e-100) {  // F(0) = 0, any point of C is a super-gradient
      g = x_any;
      beta = 0.0;
    } else {
      const Vector3d u = e.c / nc;
      const double fu = eval(u, &x);  // F(c) = |c| F(u), same minimiser x
      st.offer(u, fu, x);
      if (fu > 0.0) return true;
      g = x;  // F(d) <= F(c) + x.(d - c); keep F(d) >= 0
      beta = -fu * nc;
    }
    if (!cut(e, g, beta)) break;
  }
  return st.best > 0.0;
}

// Phase 2: one pass of the gnomonic-chart ellipsoid method around st.dir.
void refine_pass(Evaluator& eval, State& st, int max_iter) {
  const Vector3d d0 = st.dir;
  Vector3d x;
  const double f0 = eval(d0, &x);
  st.offer(d0, f0, x);
  st.points.push_back(x);
  const double lower = std::max(st.best, 1e-300);
  double radius = std::sqrt(std::max(st.upper * st.upper - lower * lower, 0.0)) / lower;
  radius = std::min(2.0 * radius + 1e-8, 1e8);
  Vector3d e1, e2;
  tangent_frame(d0, &e1, &e2);
  Ellipsoid<2> e;
  e.c.setZero();
  e.L = radius * Eigen::Matrix2d::Identity();
  for (int it = 0; it < max_iter; ++it) {
    const Vector3d w = d0 + e.c(0) * e1 + e.c(1) * e2;
    const double nw = w.norm();
    const double f = eval(w, &x);
    st.offer(w, f, x);
    st.points.push_back(x);
    // Concave psi(p) = F(w(p)) - best |w(p)| <= 0 here; keep psi >= 0.
    const Vector3d y = x - st.best * (w / nw);
    const Eigen::Vector2d g(e1.dot(y), e2.dot(y));
    // Depth of the deep cut; at rounding level it may exceed the ellipsoid's
    // extent, then fall back to the (always valid, weaker) central cut.
    const double beta = std::max(st.best * nw - f, 0.0);
    if (!cut(e, g, beta)) {
      const double noise = 16.0 * std::numeric_limits<double>::epsilon() * (std::abs(f) + x.norm() * nw);
      if (beta > noise || !cut(e, g, 0.0)) break;
    }
    if (e.L.norm() < 1e-18) break;
  }
}

// Overlapping sets: best-effort local maximisation of F on the sphere.
void compass_search(Evaluator& eval, State& st, Vector3d d) {
  Vector3d x, e1, e2;
  double f = eval(d, &x);
  double step = 0.05;
  for (int it = 0; it < 4000 && step > 1e-12; ++it) {
    tangent_frame(d, &e1, &e2);
    bool improved = false;
    for (int k = 0; k < 8 && !improved; ++k) {
      const double a = k * std::numbers::pi / 4.0;
      const Vector3d dd = (d + step * (std::cos(a) * e1 + std::sin(a) * e2)).normalized();
      const double fd = eval(dd, &x);
      if (fd > f) f = fd, d = dd, improved = true;
    }
    if (!improved) step *= 0.5;
  }
  if (f > st.best) st.best = f, st.dir = d;
}

}  // namespace

SweepReport sweep_separation_report(const Support& a, const Support& b, const SweepOptions& options) {
  if (!a || !b) throw std::invalid_argument("proxima::oracle::sweep: empty support function");
  Evaluator eval(a, b);
  State st;
  std::vector<std::pair<double, Vector3d>> swept;
  coarse_sweep(eval, st, std::max(options.sweep_directions, 16), &swept);

  SweepReport rep;
  bool separated = st.best > 0.0;
  if (!separated) {
    Vector3d x_any;
    eval(st.dir, &x_any);
    separated = find_separating_direction(eval, st, x_any, 3000);
  }
  if (separated) {
    // At least `passes` passes; up to 4 more while the certificate is not
    // tight (e.g. when the first chart was centred far from the optimum).
    const int min_passes = std::max(options.passes, 1);
    for (int pass = 0; pass < min_passes + 4; ++pass) {
      refine_pass(eval, st, options.max_iterations);
      st.upper = std::min(st.upper, certificate(st.points, st.dir, st.best, options.certificate_points));
      if (pass + 1 >= min_passes && st.upper - st.best <= 1e-13 * (1.0 + std::abs(st.upper))) break;
    }
    Vector3d x;
    rep.lower = eval(st.dir, &x);
    rep.upper = st.upper;
    rep.value = rep.lower;
    rep.separated = true;
  } else {
    std::sort(swept.begin(), swept.end(),
              [](const auto& l, const auto& r) { return l.first > r.first; });
    const int starts = std::min<int>(6, static_cast<int>(swept.size()));
    for (int i = 0; i < starts; ++i) compass_search(eval, st, swept[static_cast<std::size_t>(i)].second);
    rep.lower = st.best;
    rep.upper = kInf;
    rep.value = st.best;
    rep.separated = false;
  }
  rep.direction = st.dir;
  rep.evaluations = eval.count();
  return rep;
}

double sweep_separation(const Support& a, const Support& b, Eigen::Vector3d* best_dir) {
  const SweepReport rep = sweep_separation_report(a, b);
  if (best_dir) *best_dir = rep.direction;
  return rep.value;
}

}  // namespace proxima::oracle
