// SPDX-License-Identifier: BSD-3-Clause
// The metrics of driven scenes (drive_metrics.hpp).
#include <cmath>
#include <cstdio>
#include <string>

#include <proxima/core/error.hpp>

#include "drive_metrics.hpp"

namespace proxima::sim::detail {
namespace {

std::string format(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

const Body& at(const World& w, int i) { return w.bodies()[static_cast<std::size_t>(i)]; }

// The constant velocity of a kinematic body (the belt's or pusher's speed).
Vec3 scripted_velocity(const World& w, int i, const char* metric) {
  const Body& b = at(w, i);
  if (!b.kinematic || !b.kinematic->keyframes.empty() || !b.kinematic->angular_velocity.isZero(0.0) ||
      b.kinematic->velocity.isZero(0.0))
    throw Error(std::string("metric.on: a ") + metric + " metric needs a kinematic body moving at a constant velocity, \"" +
                b.name + "\" is not one");
  return b.kinematic->velocity;
}

// Sliding friction μ m g decelerates the slip at μ g until it is gone: the
// body reaches the belt's speed after Δv/(μ g) and slides Δv²/(2 μ g) on it.
class Belt final : public Metric {
 public:
  Belt(const World& w, int body, int belt) : body_(body), belt_(belt) {
    const Vec3 v = scripted_velocity(w, belt, "belt");
    speed_ = v.norm();
    dir_ = v / speed_;
  }
  void start(const World& w) override {
    const double mu = w.friction.mu(body_, belt_), g = w.gravity.norm();
    const double dv = speed_ - at(w, body_).linear_velocity.dot(dir_);
    expected_time_ = mu * g > 0.0 ? std::abs(dv) / (mu * g) : INFINITY;
    expected_slip_ = mu * g > 0.0 ? dv * dv / (2.0 * mu * g) : INFINITY;
    belt0_ = at(w, belt_).pose.p.dot(dir_);
    body0_ = at(w, body_).com_position().dot(dir_);
  }
  void observe(const World& w, const StepStats&) override {
    const double v = at(w, body_).linear_velocity.dot(dir_);
    if (reached_ < 0.0 && std::abs(v - speed_) <= 1e-3 * speed_) {
      reached_ = w.time();
      slip_ = (at(w, belt_).pose.p.dot(dir_) - belt0_) - (at(w, body_).com_position().dot(dir_) - body0_);
    }
  }
  std::vector<MetricResult> results() const override {
    if (reached_ < 0.0)
      return {{"belt_not_reached", 0.0, format("belt: the body never reached the belt's %.4g m/s", speed_)}};
    return {{"belt_reach_time", reached_,
             format("belt: reached %.4g m/s at %.4f s (v/(mu g) = %.4f s), slip %.5f m", speed_, reached_,
                    expected_time_, slip_) +
                 format(" (v^2/(2 mu g) = %.5f m)", expected_slip_)},
            {"belt_reach_time_expected", expected_time_, ""},
            {"belt_slip", slip_, ""},
            {"belt_slip_expected", expected_slip_, ""}};
  }

 private:
  int body_, belt_;
  double speed_ = 0.0;
  Vec3 dir_ = Vec3::UnitX();
  double expected_time_ = 0.0, expected_slip_ = 0.0, belt0_ = 0.0, body0_ = 0.0;
  double reached_ = -1.0, slip_ = 0.0;
};

// At constant speed the push balances the supports' kinetic friction μ m g.
class Push final : public Metric {
 public:
  Push(const World& w, int body, int pusher, double from) : body_(body), pusher_(pusher), from_(from) {
    const Vec3 v = scripted_velocity(w, pusher, "push");
    speed_ = v.norm();
    dir_ = v / speed_;
  }
  void start(const World&) override {}
  void observe(const World& w, const StepStats&) override {
    if (w.time() < from_ - 0.5 * w.options.dt) return;
    double push = 0.0;
    for (const ContactImpulse& c : w.last_contacts()) {
      const bool a = c.body_a == body_;
      if (!a && c.body_b != body_) continue;
      const int other = a ? c.body_b : c.body_a;
      const Vec3 on_body = (a ? 1.0 : -1.0) * (c.normal_impulse * c.normal + c.friction_impulse);
      if (other == pusher_) push += on_body.dot(dir_);
      else if (mu_ < 0.0 && at(w, other).is_static) mu_ = w.friction.mu(body_, other);
    }
    force_ += push / w.options.dt;
    speed_sum_ += at(w, body_).linear_velocity.dot(dir_);
    ++n_;
    weight_ = at(w, body_).mass.mass * w.gravity.norm();
  }
  std::vector<MetricResult> results() const override {
    if (n_ == 0 || mu_ < 0.0)
      return {{"push_no_samples", 0.0, format("push: no samples with a static support after %.4g s", from_)}};
    const double force = force_ / n_, speed = speed_sum_ / n_, expected = mu_ * weight_;
    return {{"push_force_ratio", force / expected,
             format("push: mean force %.5f N against mu m g = %.5f N (ratio %.6f), speed / pusher's %.6f", force,
                    expected, force / expected, speed / speed_)},
            {"push_speed_ratio", speed / speed_, ""}};
  }

 private:
  int body_, pusher_;
  double from_, speed_ = 0.0;
  Vec3 dir_ = Vec3::UnitX();
  double force_ = 0.0, speed_sum_ = 0.0, mu_ = -1.0, weight_ = 0.0;
  int n_ = 0;
};

// Heights of the centre of mass along −g: dropped from h₀, it touches at
// h_c and climbs back to h_c + e² (h₀ − h_c).
class Bounce final : public Metric {
 public:
  Bounce(int body, int on) : body_(body), on_(on) {}
  void start(const World& w) override {
    up_ = -w.gravity.normalized();
    h0_ = at(w, body_).com_position().dot(up_);
    e_ = w.restitution.e(body_, on_);
  }
  void observe(const World& w, const StepStats&) override {
    const Body& b = at(w, body_);
    const double h = b.com_position().dot(up_), v = b.linear_velocity.dot(up_);
    if (state_ == 0 && v > 0.0) {  // the impact's step turned the velocity
      state_ = 1;
      contact_ = previous_;
    }
    if (state_ == 1) {
      peak_ = std::max(peak_, h);
      if (v < 0.0) state_ = 2;  // the first rebound's top
    }
    previous_ = h;
  }
  std::vector<MetricResult> results() const override {
    if (state_ == 0) return {{"bounce_no_samples", 0.0, "bounce: the body never rebounded"}};
    const double ratio = (peak_ - contact_) / (h0_ - contact_);
    return {{"bounce_ratio", ratio,
             format("bounce: rebound %.5f m of a %.5f m drop, ratio %.5f against e^2 = %.5f", peak_ - contact_,
                    h0_ - contact_, ratio, e_ * e_)},
            {"bounce_expected", e_ * e_, ""},
            {"bounce_drop", h0_ - contact_, ""}};
  }

 private:
  int body_, on_;
  Vec3 up_ = Vec3::UnitZ();
  double h0_ = 0.0, e_ = 0.0, previous_ = 0.0, contact_ = 0.0, peak_ = -INFINITY;
  int state_ = 0;  // 0 falling, 1 rising after the impact, 2 past the first top
};

}  // namespace

std::unique_ptr<Metric> belt_metric(const World& w, int body, int belt) { return std::make_unique<Belt>(w, body, belt); }

std::unique_ptr<Metric> push_metric(const World& w, int body, int pusher, double from) {
  return std::make_unique<Push>(w, body, pusher, from);
}

std::unique_ptr<Metric> bounce_metric(const World&, int body, int on) { return std::make_unique<Bounce>(body, on); }

}  // namespace proxima::sim::detail
