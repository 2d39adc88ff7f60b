// SPDX-License-Identifier: BSD-3-Clause
// The metrics of the example scenes: each one is the number the papers judge
// contacts by.
#include <cmath>
#include <cstdio>
#include <numbers>

#include <Eigen/Dense>

#include <proxima/sim/metrics.hpp>

#include "drive_metrics.hpp"

namespace proxima::sim {
namespace {

std::string format(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

// What a metric reports when the run never reached its window: a 0 there
// would read as a perfect result. The name ends in "_no_samples", so a reader
// looking up the metric's usual names finds none of them.
std::vector<MetricResult> no_samples(const std::string& metric, const std::string& needed, double from, double t_end) {
  char buf[160];
  std::snprintf(buf, sizeof buf, " (needs %s at or after %.4g s; the run ended at %.4g s)", needed.c_str(), from, t_end);
  return {{metric + "_no_samples", 0.0, metric + ": no samples" + buf}};
}

// Whether the step just taken lies in a window starting at `from`. The
// world's clock adds dt at every step, so the step meant to land on `from`
// may read a hair below it (1999 × 0.001 + 0.001 < 2): half a step decides.
bool in_window(const World& w, double from) { return w.time() >= from - 0.5 * w.options.dt; }

int body_index(const World& w, const std::string& name, const char* field) {
  const int i = w.find(name);
  if (i < 0) throw Error(std::string("metric.") + field + ": no body named \"" + name + "\"");
  return i;
}

// Sum of normal impulses on `body` divided by Δt and its weight m|g|
// (resting_box: 1 when the contacts carry exactly the weight).
class SupportForce final : public Metric {
 public:
  SupportForce(int body, double from) : body_(body), from_(from) {}
  void start(const World&) override {}
  void observe(const World& w, const StepStats&) override {
    t_end_ = w.time();
    if (!in_window(w, from_)) return;
    double sum = 0.0;
    for (const ContactImpulse& c : w.last_contacts())
      if (c.body_a == body_ || c.body_b == body_) sum += c.normal_impulse;
    const Body& b = w.bodies()[static_cast<std::size_t>(body_)];
    const double ratio = sum / (w.options.dt * b.mass.mass * w.gravity.norm());
    worst_ = std::max(worst_, std::abs(ratio - 1.0));
    total_ += ratio;
    ++n_;
  }
  std::vector<MetricResult> results() const override {
    if (n_ == 0) return no_samples("support_force", "a step", from_, t_end_);
    const double mean = total_ / n_;
    return {{"support_over_weight", mean, format("sum of normal impulses / dt / weight = %.9f (mean), max |error| %.3g", mean, worst_)},
            {"support_max_error", worst_, ""}};
  }

 private:
  int body_;
  double from_;
  double total_ = 0.0, worst_ = 0.0, t_end_ = 0.0;
  int n_ = 0;
};

// Acceleration down an incline, fitted by least squares s(t) = s0 + v0 t + ½ a t²
// over the window, against g(sin θ − μ cos θ); creep when that is ≤ 0.
class Incline final : public Metric {
 public:
  Incline(int body, int on, double from) : body_(body), on_(on), from_(from) {}
  void start(const World& w) override {
    const Vec3 n = w.bodies()[static_cast<std::size_t>(on_)].pose.R.col(2);  // incline's up axis
    const Vec3 g = w.gravity;
    down_ = (g - g.dot(n) * n).normalized();
    theta_ = std::acos(std::clamp(-n.dot(g.normalized()), -1.0, 1.0));
    mu_ = w.friction.mu(body_, on_);
    expected_ = std::max(0.0, g.norm() * (std::sin(theta_) - mu_ * std::cos(theta_)));
    x0_ = w.bodies()[static_cast<std::size_t>(body_)].com_position();
  }
  void observe(const World& w, const StepStats&) override {
    const double s = (w.bodies()[static_cast<std::size_t>(body_)].com_position() - x0_).dot(down_);
    t_end_ = w.time();
    if (in_window(w, from_)) {
      if (!have_start_) {
        s_start_ = s;
        have_start_ = true;
      }
      t_.push_back(w.time());
      s_.push_back(s);
    }
  }
  std::vector<MetricResult> results() const override {
    // A parabola needs three points.
    if (t_.size() < 3) return no_samples("incline", "three steps", from_, t_end_);
    double a = 0.0;
    {
      Eigen::MatrixXd A(static_cast<Eigen::Index>(t_.size()), 3);
      Eigen::VectorXd y(static_cast<Eigen::Index>(t_.size()));
      for (std::size_t i = 0; i < t_.size(); ++i) {
        const double t = t_[i] - t_[0];
        A.row(static_cast<Eigen::Index>(i)) << 1.0, t, 0.5 * t * t;
        y[static_cast<Eigen::Index>(i)] = s_[i];
      }
      a = A.colPivHouseholderQr().solve(y)[2];
    }
    const double creep_mm = 1e3 * std::abs(s_.back() - s_start_);
    std::vector<MetricResult> r;
    r.push_back({"acceleration", a,
                 format("theta %.1f deg, mu %.2f: acceleration %.6f m/s^2, g(sin - mu cos) = %.6f", theta_ * 180 / std::numbers::pi, mu_, a, expected_)});
    r.push_back({"acceleration_error", std::abs(a - expected_), format("|error| %.3g m/s^2", std::abs(a - expected_))});
    if (expected_ == 0.0) r.push_back({"creep_mm", creep_mm, format("creep %.6f mm while stuck", creep_mm)});
    return r;
  }

 private:
  int body_, on_;
  double from_;
  Vec3 down_ = Vec3::Zero(), x0_ = Vec3::Zero();
  double theta_ = 0, mu_ = 0, expected_ = 0, s_start_ = 0, t_end_ = 0;
  bool have_start_ = false;
  std::vector<double> t_, s_;
};

// A body spinning about the vertical: kinetic energy over time, the stop
// time (spin below 1 % of the start) against the analytic stop time of
// Coulomb friction on the first step's contacts, and the tilt (toppling).
class Spin final : public Metric {
 public:
  explicit Spin(int body) : body_(body) {}
  void start(const World& w) override {
    const Body& b = w.bodies()[static_cast<std::size_t>(body_)];
    ke0_ = b.kinetic_energy();
    x0_ = b.com_position();
    w0_ = b.angular_velocity.z();
    up0_ = b.pose.R.transpose() * Vec3::UnitZ();
  }
  void observe(const World& w, const StepStats&) override {
    const Body& b = w.bodies()[static_cast<std::size_t>(body_)];
    if (!analytic_done_) {
      // Coulomb friction on a spinning patch: every contact slides
      // tangentially about the vertical axis through the COM, so the
      // friction torque is Σ μ c_n ρ for a round cone, and ω_z falls
      // linearly to zero at I_zz ω₀ / torque. Loads c_n are the first
      // step's. A q-gon cone in the fixed basis resists slip along û with
      // μ c_n h_q(û) only (h_q: support of the unit q-gon; cos(π/q) ≤ h_q ≤
      // 1), and its corners push sideways: that stop time is reported too.
      analytic_done_ = true;
      const int q = w.options.solve.friction_directions;
      double torque = 0.0, torque_q = 0.0;
      const Vec3 com = b.com_position();
      for (const ContactImpulse& c : w.last_contacts()) {
        if (c.body_a != body_ && c.body_b != body_) continue;
        const Vec3 r = c.point - com;
        const Vec3 rho(r.x(), r.y(), 0.0);
        if (rho.norm() < 1e-12) continue;
        const Vec3 u = Vec3::UnitZ().cross(rho).normalized();
        // Angle of the slip in the contact's fixed friction basis.
        const Vec3 t1 = c.tangent, t2 = c.normal.cross(t1);
        const double phi = std::atan2(u.dot(t2), u.dot(t1));
        double hq = 0.0;
        for (int j = 0; j < q; ++j) hq = std::max(hq, std::cos(phi - 2 * std::numbers::pi * j / q));
        const int other = c.body_a == body_ ? c.body_b : c.body_a;
        const double capacity = w.friction.mu(body_, other) * c.normal_impulse / w.options.dt * rho.norm();
        torque += capacity;
        torque_q += capacity * hq;
      }
      const double izz = b.inertia_world()(2, 2);
      const double inf = std::numeric_limits<double>::infinity();
      analytic_stop_ = torque > 0 ? izz * std::abs(w0_) / torque : inf;
      analytic_stop_q_ = torque_q > 0 ? izz * std::abs(w0_) / torque_q : inf;
    }
    const double ke = b.kinetic_energy();
    const Vec3 dx = b.com_position() - x0_;
    max_slide_ = std::max(max_slide_, std::hypot(dx.x(), dx.y()));
    const double tilt = std::acos(std::clamp((b.pose.R * up0_).z(), -1.0, 1.0));
    if (tilt > 5.0 * std::numbers::pi / 180 && topple_ < 0) topple_ = w.time();
    if (topple_ < 0) max_rel_change_ = std::max(max_rel_change_, std::abs(ke - ke0_) / ke0_);
    if (stop_ < 0 && std::abs(b.angular_velocity.z()) < 0.01 * std::abs(w0_)) stop_ = w.time();
    ke_end_ = ke;
    t_end_ = w.time();
  }
  std::vector<MetricResult> results() const override {
    if (!analytic_done_) return no_samples("spin", "a step", 0.0, t_end_);
    std::vector<MetricResult> r;
    r.push_back({"ke_ratio_end", ke_end_ / ke0_, format("kinetic energy at %.3f s / start = %.6f", t_end_, ke_end_ / ke0_)});
    r.push_back({"ke_max_change_upright", max_rel_change_,
                 format("max |KE - KE0| / KE0 while upright = %.3g", max_rel_change_)});
    r.push_back({"stop_time", stop_,
                 (stop_ < 0 ? std::string("spin never stopped (< 1 %)") : format("stopped at %.4f s", stop_)) +
                     format(", analytic (Coulomb) %.4f s, q-gon in the step's basis %.4f s", analytic_stop_,
                            analytic_stop_q_)});
    r.push_back({"analytic_stop_time", analytic_stop_, ""});
    r.push_back({"analytic_stop_time_qgon", analytic_stop_q_, ""});
    r.push_back({"max_slide_mm", 1e3 * max_slide_, format("max horizontal COM displacement %.4f mm", 1e3 * max_slide_)});
    r.push_back({"topple_time", topple_, topple_ < 0 ? std::string("did not topple") : format("toppled (tilt > 5 deg) at %.4f s", topple_)});
    return r;
  }

 private:
  int body_;
  double ke0_ = 0, w0_ = 0, ke_end_ = 0, t_end_ = 0, max_rel_change_ = 0;
  double stop_ = -1, topple_ = -1, analytic_stop_ = 0, analytic_stop_q_ = 0, max_slide_ = 0;
  Vec3 x0_ = Vec3::Zero();
  bool analytic_done_ = false;
  Vec3 up0_ = Vec3::UnitZ();
};

// Total energy (kinetic + potential) over time; its largest gain is the
// largest rise above the running minimum (EnergyExtremes).
class Energy final : public Metric {
 public:
  void start(const World& w) override {
    e0_ = w.kinetic_energy() + w.potential_energy();
    extremes_ = EnergyExtremes(e0_);
    scale_ = 0.0;
    for (const Body& b : w.bodies())
      if (!b.infinite_mass()) scale_ += b.mass.mass * w.gravity.norm() * b.geometry->world_aabb(b.pose).half_extents().maxCoeff();
  }
  void observe(const World& w, const StepStats&) override {
    const double e = w.kinetic_energy() + w.potential_energy();
    extremes_.add(e);
    end_ = e - e0_;
    ++n_;
  }
  std::vector<MetricResult> results() const override {
    if (n_ == 0) return no_samples("energy", "a step", 0.0, 0.0);
    return {{"energy_change_end", end_ / scale_,
             format("energy change at end %.4g J (%.3g of m g R), max gain (rise above the running minimum) %.3g J, "
                    "max loss %.3g J",
                    end_, end_ / scale_, extremes_.max_gain, extremes_.max_loss)},
            {"energy_max_gain", extremes_.max_gain / scale_, ""}};
  }

 private:
  double e0_ = 0, scale_ = 1, end_ = 0;
  EnergyExtremes extremes_;
  int n_ = 0;
};

// Drift of a body after the settling time: max |x(t) − x(settle)|.
class Drift final : public Metric {
 public:
  Drift(int body, double from) : body_(body), from_(from) {}
  void start(const World&) override {}
  void observe(const World& w, const StepStats&) override {
    t_end_ = w.time();
    if (!in_window(w, from_)) return;
    const Vec3 x = w.bodies()[static_cast<std::size_t>(body_)].com_position();
    if (!have_) {
      x0_ = x;
      have_ = true;
    }
    drift_ = std::max(drift_, (x - x0_).norm());
    height_ = x.z();
  }
  std::vector<MetricResult> results() const override {
    if (!have_) return no_samples("drift", "a step", from_, t_end_);
    return {{"drift_mm", 1e3 * drift_, format("max drift of the top body after %.2f s: %.6f mm (height %.5f m)", from_, 1e3 * drift_, height_)},
            {"height", height_, ""}};
  }

 private:
  int body_;
  double from_;
  bool have_ = false;
  Vec3 x0_ = Vec3::Zero();
  double drift_ = 0, height_ = 0, t_end_ = 0;
};

}  // namespace

std::unique_ptr<Metric> make_metric(const MetricSpec& s, const World& w) {
  if (s.kind == "support_force") return std::make_unique<SupportForce>(body_index(w, s.body, "body"), s.from);
  if (s.kind == "incline")
    return std::make_unique<Incline>(body_index(w, s.body, "body"), body_index(w, s.on, "on"), s.from);
  if (s.kind == "spin") return std::make_unique<Spin>(body_index(w, s.body, "body"));
  if (s.kind == "energy") return std::make_unique<Energy>();
  if (s.kind == "drift") return std::make_unique<Drift>(body_index(w, s.body, "body"), s.from);
  if (s.kind == "belt") return detail::belt_metric(w, body_index(w, s.body, "body"), body_index(w, s.on, "on"));
  if (s.kind == "push")
    return detail::push_metric(w, body_index(w, s.body, "body"), body_index(w, s.on, "on"), s.from);
  if (s.kind == "bounce") return detail::bounce_metric(w, body_index(w, s.body, "body"), body_index(w, s.on, "on"));
  throw Error("metric.kind: unknown metric \"" + s.kind +
              "\" (expected support_force, incline, spin, energy, drift, belt, push or bounce)");
}

void TimingSummary::add(const StepStats& s) {
  ++steps;
  broadphase += s.ms_broadphase;
  contacts += s.ms_contacts;
  build += s.ms_build;
  solve += s.ms_solve;
  fallbacks += s.fallbacks;
  unconverged_queries += s.unconverged;
  failed_queries += s.failed;
  max_contacts = std::max(max_contacts, s.contacts);
  intersecting_steps += s.intersecting > 0 ? 1 : 0;
}

std::string TimingSummary::text() const {
  const double n = steps > 0 ? steps : 1;
  const double total = (broadphase + contacts + build + solve) / n;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%.4f ms/step (broadphase %.4f, contacts %.4f, LCP build %.4f, solve %.4f); %d steps, max %d contacts, %d fallbacks",
                total, broadphase / n, contacts / n, build / n, solve / n, steps, max_contacts, fallbacks);
  std::string out = buf;
  if (unconverged_queries > 0)
    out += ", " + std::to_string(unconverged_queries) + " pair queries not converged (best bounds kept)";
  if (failed_queries > 0) out += ", " + std::to_string(failed_queries) + " pair queries failed (no contacts)";
  if (intersecting_steps > 0)
    out += ", " + std::to_string(intersecting_steps) + " steps with intersecting mesh cores (layers penetrated)";
  return out;
}

}  // namespace proxima::sim
