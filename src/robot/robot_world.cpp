// SPDX-License-Identifier: BSD-3-Clause
// A robot and a world's bodies under one contact LCP per step (see
// robot_world.hpp for the formulation).
#include <proxima/robot/robot_world.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include <proxima/core/error.hpp>
#include <proxima/robot/kinematics.hpp>
#include <proxima/sim/rigid_motion.hpp>

namespace proxima::robot {

namespace {

using RobotWorldClock = std::chrono::steady_clock;

double ms_since_start(RobotWorldClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(RobotWorldClock::now() - t0).count();
}

std::shared_ptr<const sim::Geometry> link_part_geometry(const LinkShape& s) {
  if (const Shape* shape = s.shape()) return std::make_shared<const sim::ConvexGeometry>(*shape);
  return std::make_shared<const sim::MeshGeometry>(std::make_shared<const Bvh>(*s.bvh()));
}

}  // namespace

namespace {

std::string translation_text(const Vec3& p) {
  std::ostringstream s;
  s.precision(6);
  s << "[" << p.x() << ", " << p.y() << ", " << p.z() << "]";
  return s.str();
}

// `initial` with its base at `base`, the one pose that says where the root
// link is (or starts). A state that names another pose is refused rather
// than overridden: the caller meant one of the two, and which one is not
// for us to guess. The default pose (exactly the identity) names none; a
// pose equal to `base` up to rounding (a state read back from a robot
// standing there) agrees.
ArticulatedState at_base(ArticulatedState s, const Transform& base) {
  const Transform& given = s.base;
  const bool unset = given.p == Vec3::Zero() && given.R == Mat3::Identity();
  const bool same = given.is_finite() && (given.p - base.p).norm() <= 1e-9 * (1.0 + base.p.norm()) &&
                    (given.R - base.R).cwiseAbs().maxCoeff() <= 1e-9;
  if (!unset && !same) {
    const double turn = given.is_finite() && base.is_finite()
                            ? Eigen::AngleAxisd(Mat3(given.R.transpose() * base.R)).angle()
                            : std::nan("");
    std::ostringstream angle;
    angle.precision(6);
    angle << turn;
    throw Error("robot world: initial.base (translation " + translation_text(given.p) + ") and base (translation " +
                translation_text(base.p) + ", turned " + angle.str() +
                " rad from it) disagree; the root link is placed at base: leave initial.base at its default "
                "(identity) or set it equal to base");
  }
  s.base = base;
  return s;
}

}  // namespace

RobotWorld::RobotWorld(const RobotGeometry& geometry, const Transform& base, const ArticulatedState& initial,
                       sim::World world, BaseKind kind)
    : robot_(Dynamics(geometry.model(), base, world.gravity, kind), at_base(initial, base)),
      world_(std::move(world)) {
  const RobotModel& m = geometry.model();
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    part_begin_.push_back(parts_.size());
    for (const LinkShape& s : geometry.link(static_cast<int>(l)).shapes)
      parts_.push_back(Part{static_cast<int>(l), s.origin, link_part_geometry(s)});
  }
  part_begin_.push_back(parts_.size());
  forward_kinematics(m, std::span<const double>(initial.q.data(), static_cast<std::size_t>(initial.q.size())), base,
                     poses_);
}

void RobotWorld::set_self_collision(const AllowedCollisionMatrix& allowed) {
  const std::size_t links = part_begin_.size() - 1;
  if (allowed.size() != links)
    throw Error("robot world: the allowed-collision matrix has " + std::to_string(allowed.size()) +
                " links, the robot " + std::to_string(links));
  self_pairs_.clear();
  for (std::size_t a = 0; a < links; ++a)
    for (std::size_t b = a + 1; b < links; ++b)
      if (part_begin_[a] < part_begin_[a + 1] && part_begin_[b] < part_begin_[b + 1] &&
          !allowed.allowed(static_cast<int>(a), static_cast<int>(b)))
        self_pairs_.emplace_back(static_cast<int>(a), static_cast<int>(b));
}

void RobotWorld::check_options() const {
  const sim::StepOptions& o = world_.options;
  if (!(o.dt > 0.0) || !std::isfinite(o.dt))
    throw Error("robot world: options.dt must be finite and > 0, got " + std::to_string(o.dt));
  if (!(o.contact_margin >= 0.0) || !std::isfinite(o.contact_margin))
    throw Error("robot world: options.contact_margin must be finite and >= 0, got " +
                std::to_string(o.contact_margin));
  if (!(o.stabilization >= 0.0 && o.stabilization <= 1.0))
    throw Error("robot world: options.stabilization must be in [0, 1], got " + std::to_string(o.stabilization));
  if (!(o.epsilon >= 0.0) || !std::isfinite(o.epsilon))
    throw Error("robot world: options.epsilon must be finite and >= 0, got " + std::to_string(o.epsilon));
  if (o.friction_basis != sim::FrictionBasis::fixed)
    throw Error("robot world: options.friction_basis must be fixed (sliding is not supported with a robot)");
  if (world_.gravity != robot_.dynamics().gravity())
    throw Error("robot world: gravity changed after the robot was added (the robot's dynamics keep the first)");
  const sim::RestitutionTable& r = world_.restitution;
  bool bouncing = r.default_e != 0.0;
  for (const auto& [pair, e] : r.pairs) bouncing = bouncing || e != 0.0;
  if (bouncing) throw Error("robot world: restitution must be 0 (impacts with a robot are perfectly inelastic)");
  for (const sim::Body& b : world_.bodies()) {
    if (b.kinematic) throw Error("robot world: body \"" + b.name + "\": kinematic bodies are not supported");
    if (!b.force_schedule.keys.empty() || !b.torque_schedule.keys.empty())
      throw Error("robot world: body \"" + b.name + "\": force and torque schedules are not supported");
  }
}

void RobotWorld::step() {
  check_options();
  stats_ = RobotWorldStats{};
  const double h = world_.options.dt;
  // Nothing is changed until finish_step has succeeded: a failing robot
  // step leaves robot and bodies as they were.
  auto t0 = RobotWorldClock::now();
  robot_.begin_step(h);
  stats_.ms_dynamics = ms_since_start(t0);
  t0 = RobotWorldClock::now();
  find_contacts();
  stats_.ms_contacts = ms_since_start(t0);
  t0 = RobotWorldClock::now();
  build();
  stats_.ms_build = ms_since_start(t0);
  t0 = RobotWorldClock::now();
  const sim::ContactSolveOptions& so = world_.options.solve;
  x_.setZero(lcp_.b.size());
  if (lcp_.b.size() > 0) {
    sim::ContactSolution s;
    if (world_.options.solver == sim::SolverKind::lemke) {
      s = sim::solve_lemke(lcp_, so);
      stats_.iterations = s.iterations;
      stats_.lemke_status = s.status;
      if (s.status != sim::LcpStatus::ok) {
        stats_.fallbacks = 1;
        s = sim::solve_pgs(lcp_, so, Eigen::VectorXd());
        stats_.iterations += s.iterations;
      }
    } else {
      s = sim::solve_pgs(lcp_, so, Eigen::VectorXd());
      stats_.iterations = s.iterations;
    }
    stats_.status = s.status;
    x_ = s.x;
  }
  stats_.ms_solve = ms_since_start(t0);
  t0 = RobotWorldClock::now();
  apply();
  stats_.ms_dynamics += ms_since_start(t0);
  world_.set_time(world_.time() + h);
}

void RobotWorld::set_link_friction(int link, int body, double mu) {
  const int links = static_cast<int>(robot_.dynamics().model().links().size());
  if (link < 0 || link >= links)
    throw Error("robot world: link friction: link index " + std::to_string(link) + " is out of range (" +
                std::to_string(links) + " links)");
  const int bodies = static_cast<int>(world_.bodies().size());
  if (body < -1 || body >= bodies)
    throw Error("robot world: link friction: body index " + std::to_string(body) + " is out of range (" +
                std::to_string(bodies) + " bodies; -1 for every body)");
  if (!(mu >= 0.0) || !std::isfinite(mu))
    throw Error("robot world: link friction: mu must be finite and >= 0, got " + std::to_string(mu));
  link_mu_[{link, body}] = mu;
}

double RobotWorld::link_friction(int link, int body) const {
  if (link_mu_.empty()) return world_.friction.default_mu;
  auto it = link_mu_.find({link, body});
  if (it == link_mu_.end()) it = link_mu_.find({link, -1});
  return it == link_mu_.end() ? world_.friction.default_mu : it->second;
}

void RobotWorld::find_contacts() {
  found_.clear();
  aux_.clear();
  const std::vector<sim::Body>& bodies = world_.bodies();
  ContactOptions co;
  co.margin = world_.options.contact_margin;
  // Boxes reach the facet broad phase's ε (robot_world_facets.cpp).
  const double reach = facet_formulation() ? std::max(world_.options.epsilon, co.margin) : co.margin;
  const auto sides = [](int link, int body_a, int body_b, int link_b) {
    RobotContact c;
    c.link = link;
    c.body_a = body_a;
    c.body_b = body_b;
    c.link_b = link_b;
    return c;
  };
  // As the world's narrow phase: a resting face keeps all its points.
  co.feature_tolerance = 1e-3;
  const auto collect = [&](int link, int body_a, int body_b, int link_b, double mu) {
    // A failed query adds no contact, an unconverged one keeps its finite
    // contacts (World::narrowphase).
    if (scratch_.status != Status::ok && scratch_.status != Status::not_converged) return;
    for (const Contact& c : scratch_.points) {
      if (!c.point.allFinite() || !c.normal.allFinite() || !std::isfinite(c.depth)) continue;
      Found& f = found_.emplace_back();
      f.c.link = link;
      f.c.body_a = body_a;
      f.c.body_b = body_b;
      f.c.link_b = link_b;
      f.c.point = c.point;
      f.c.normal = c.normal;
      f.c.depth = c.depth;
      f.mu = mu;
    }
  };
  // Links against every body (static or dynamic); no broad phase beyond
  // the boxes: a robot scene has a few dozen link shapes and bodies.
  for (const Part& part : parts_) {
    const Transform pose = poses_[static_cast<std::size_t>(part.link)] * part.origin;
    const Aabb box = part.geometry->world_aabb(pose).inflated(reach);
    for (std::size_t j = 0; j < bodies.size(); ++j) {
      const sim::Body& b = bodies[j];
      if (!box.overlaps(b.geometry->world_aabb(b.pose))) continue;
      ++stats_.pairs;
      const double mu = link_friction(part.link, static_cast<int>(j));
      if (add_facet_contacts(*part.geometry, pose, false, *b.geometry, b.pose, b.is_static,
                             sides(part.link, -1, static_cast<int>(j), -1), mu))
        continue;
      part.geometry->contacts(pose, *b.geometry, b.pose, co, scratch_);
      collect(part.link, -1, static_cast<int>(j), -1, mu);
    }
  }
  // Link pairs of the self-collision check: every shape of one against
  // every shape of the other, the normal from b to a.
  for (const auto& [a, b] : self_pairs_)
    for (std::size_t i = part_begin_[static_cast<std::size_t>(a)]; i < part_begin_[static_cast<std::size_t>(a) + 1]; ++i) {
      const Part& pa = parts_[i];
      const Transform pose_a = poses_[static_cast<std::size_t>(a)] * pa.origin;
      const Aabb box = pa.geometry->world_aabb(pose_a).inflated(reach);
      for (std::size_t j = part_begin_[static_cast<std::size_t>(b)]; j < part_begin_[static_cast<std::size_t>(b) + 1]; ++j) {
        const Part& pb = parts_[j];
        const Transform pose_b = poses_[static_cast<std::size_t>(b)] * pb.origin;
        if (!box.overlaps(pb.geometry->world_aabb(pose_b))) continue;
        ++stats_.pairs;
        if (add_facet_contacts(*pa.geometry, pose_a, false, *pb.geometry, pose_b, false, sides(a, -1, -1, b),
                               world_.friction.default_mu))
          continue;
        pa.geometry->contacts(pose_a, *pb.geometry, pose_b, co, scratch_);
        collect(a, -1, -1, b, world_.friction.default_mu);
      }
    }
  // Body pairs with at least one dynamic body.
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      const sim::Body& a = bodies[i];
      const sim::Body& b = bodies[j];
      if (a.infinite_mass() && b.infinite_mass()) continue;
      if (!a.geometry->world_aabb(a.pose).inflated(reach).overlaps(b.geometry->world_aabb(b.pose))) continue;
      ++stats_.pairs;
      const double mu = world_.friction.mu(static_cast<int>(i), static_cast<int>(j));
      if (add_facet_contacts(*a.geometry, a.pose, a.is_static, *b.geometry, b.pose, b.is_static,
                             sides(-1, static_cast<int>(i), static_cast<int>(j), -1), mu))
        continue;
      a.geometry->contacts(a.pose, *b.geometry, b.pose, co, scratch_);
      collect(-1, static_cast<int>(i), static_cast<int>(j), -1,
              world_.friction.mu(static_cast<int>(i), static_cast<int>(j)));
    }
  stats_.contacts = static_cast<int>(found_.size());
}

void RobotWorld::add_side(Eigen::Index row, int link, int body, const Vec3& p, const Vec3& d, double s) {
  if (link >= 0) {
    // point_J_ holds the link's Jacobian at p (build computes it once per
    // contact).
    J_.row(row).head(n_).noalias() += s * (d.transpose() * point_J_.topRows<3>());
    return;
  }
  const int first = dof_[static_cast<std::size_t>(body)];
  if (first < 0) return;
  const Vec3 r = p - world_.bodies()[static_cast<std::size_t>(body)].com_position();
  J_.block<1, 3>(row, first) += s * d.transpose();
  J_.block<1, 3>(row, first + 3) += s * r.cross(d).transpose();
}

void RobotWorld::build() {
  const double h = world_.options.dt;
  const std::vector<sim::Body>& bodies = world_.bodies();
  n_ = static_cast<Eigen::Index>(robot_.dynamics().dof());
  // Number the dynamic bodies after the robot's variables.
  dof_.assign(bodies.size(), -1);
  inv_inertia_.assign(bodies.size(), Mat3::Zero());
  Eigen::Index N = n_;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].infinite_mass()) continue;
    dof_[i] = static_cast<int>(N);
    inv_inertia_[i] = bodies[i].inverse_inertia_world();
    N += 6;
  }
  v_star_.resize(N);
  v_star_.head(n_) = robot_.free_velocity();
  const Vec3& g = world_.gravity;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (dof_[i] < 0) continue;
    const sim::Body& b = bodies[i];
    v_star_.segment<3>(dof_[i]) = b.linear_velocity + h * (g + b.inverse_mass() * b.force);
    v_star_.segment<3>(dof_[i] + 3) = b.angular_velocity + h * (inv_inertia_[i] * b.torque);
  }

  // Joint limits that the step could reach become rows of the same problem
  // when there are contacts (without contacts ArticulatedSim's own rows are
  // the same problem): within the contact margin (read in the joint's
  // unit) plus twice the step's travel at the larger of q̇ and q̇_free. A
  // row asks q̇⁺ to close at most the gap, as ArticulatedSim's does.
  limits_.clear();
  if (!found_.empty()) {
    const Eigen::VectorXd& q = robot_.state().q;
    const Eigen::VectorXd& qd = robot_.state().qd;
    const Eigen::VectorXd& lower = robot_.lower_limits();
    const Eigen::VectorXd& upper = robot_.upper_limits();
    // Variable i is velocity entry off + i (after a floating base's twist).
    const Eigen::Index off = robot_.dynamics().base_dofs();
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const Eigen::Index k = off + i;
      const double reach =
          world_.options.contact_margin + 2.0 * h * std::max(std::abs(qd[k]), std::abs(v_star_[k]));
      if (std::isfinite(lower[i]) && q[i] - lower[i] <= reach) limits_.push_back({static_cast<int>(k), 1.0, q[i] - lower[i]});
      if (std::isfinite(upper[i]) && upper[i] - q[i] <= reach) limits_.push_back({static_cast<int>(k), -1.0, upper[i] - q[i]});
    }
  }
  stats_.limits = static_cast<int>(limits_.size());

  Eigen::Index rows = static_cast<Eigen::Index>(limits_.size() + aux_.size());
  for (const Found& f : found_) rows += f.mu > 0.0 ? 3 : 1;
  J_.setZero(rows, N);
  lcp_.b.setZero(rows);
  lcp_.contacts.clear();
  lcp_.groups.clear();
  Eigen::Index row = 0;
  for (const Found& f : found_) {
    const RobotContact& c = f.c;
    sim::ContactRows r;
    r.mu = f.mu;
    r.normal = static_cast<int>(row);
    const int count = f.mu > 0.0 ? 3 : 1;
    if (count == 3) r.tangent = r.normal + 1;
    lcp_.contacts.push_back(r);
    Vec3 dirs[3] = {c.normal, Vec3::Zero(), Vec3::Zero()};
    sim::tangent_basis(c.normal, dirs[1], dirs[2]);
    // Side A, then side B (a link's Jacobian at the point each, in turn).
    const BaseKind kind = robot_.dynamics().base_kind();
    if (c.link >= 0) point_jacobian(robot_.dynamics().model(), poses_, c.link, c.point, kind, point_J_);
    for (int k = 0; k < count; ++k) add_side(row + k, c.link, c.body_a, c.point, dirs[k], 1.0);
    if (c.link_b >= 0) point_jacobian(robot_.dynamics().model(), poses_, c.link_b, c.point, kind, point_J_);
    for (int k = 0; k < count; ++k) add_side(row + k, c.link_b, c.body_b, c.point, dirs[k], -1.0);
    // ψ/Δt stabilization on the normal row, as the world's (StepOptions::
    // stabilization): approach by at most the gap, push out γ of a depth.
    const double psi = -c.depth;
    lcp_.b[row] = (psi >= 0.0 ? 1.0 : world_.options.stabilization) * psi / h;
    row += count;
  }
  // Limit rows: frictionless unilateral rows on one joint velocity, ±q̇_i.
  for (const Limit& l : limits_) {
    sim::ContactRows r;
    r.normal = static_cast<int>(row);
    lcp_.contacts.push_back(r);
    J_(row, l.variable) = l.sign;
    lcp_.b[row] = l.gap / h;
    ++row;
  }
  // PEG aux rows, without impulse (robot_world_facets.cpp).
  add_aux_rows(row);
  stats_.aux = static_cast<int>(aux_.size());
  // M⁻¹ Jᵀ by blocks: the robot's (M + Δt D)⁻¹, then each body's.
  MJt_.resize(N, rows);
  MJt_.topRows(n_).noalias() = robot_.inverse_mass() * J_.leftCols(n_).transpose();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int d = dof_[i];
    if (d < 0) continue;
    MJt_.middleRows(d, 3) = bodies[i].inverse_mass() * J_.middleCols(d, 3).transpose();
    MJt_.middleRows(d + 3, 3).noalias() = inv_inertia_[i] * J_.middleCols(d + 3, 3).transpose();
  }
  lcp_.W.noalias() = J_ * MJt_;
  lcp_.b.noalias() += J_ * v_star_;
}

void RobotWorld::apply() {
  const double h = world_.options.dt;
  // The robot first: its step may still refuse (an overflow), and then the
  // bodies must not have moved either.
  robot_impulse_.noalias() = J_.leftCols(n_).transpose() * x_;
  robot_.finish_step(&robot_impulse_);
  const Eigen::VectorXd& joints = robot_.state().q;
  forward_kinematics(robot_.dynamics().model(),
                     std::span<const double>(joints.data(), static_cast<std::size_t>(joints.size())),
                     robot_.state().base, poses_);

  // Bodies: v⁺ = v* + M⁻¹ Jᵀ x, then positions as World::integrate (COM
  // with v⁺, orientation at constant angular momentum).
  dv_ = v_star_;
  dv_.noalias() += MJt_ * x_;
  std::vector<sim::Body>& bodies = world_.bodies();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const int d = dof_[i];
    if (d < 0) continue;
    sim::Body& b = bodies[i];
    const Vec3 lin = dv_.segment<3>(d);
    const Vec3 ang = dv_.segment<3>(d + 3);
    const Vec3 angular_momentum = b.inertia_world() * ang;
    const Vec3 com = b.com_position() + h * lin;
    const Quat q = sim::rotation_step(Quat(b.pose.R), angular_momentum, b.mass.inertia.inverse(), h);
    b.pose.R = q.toRotationMatrix();
    b.pose.p = com - b.pose.R * b.mass.com;
    b.linear_velocity = lin;
    b.angular_velocity = b.inverse_inertia_world() * angular_momentum;
  }

  contacts_.clear();
  for (std::size_t k = 0; k < found_.size(); ++k) {
    RobotContact c = found_[k].c;
    const sim::ContactRows& r = lcp_.contacts[k];
    c.normal_impulse = x_[r.normal];
    if (r.tangent >= 0) {
      Vec3 t1, t2;
      sim::tangent_basis(c.normal, t1, t2);
      c.friction_impulse = x_[r.tangent] * t1 + x_[r.tangent + 1] * t2;
    }
    contacts_.push_back(c);
  }
}

double RobotWorld::kinetic_energy() const {
  const ArticulatedState& s = robot_.state();
  const double robot = 0.5 * s.qd.dot(robot_.dynamics().mass_matrix(s.q) * s.qd);
  return robot + world_.kinetic_energy();
}

double RobotWorld::potential_energy() const {
  const RobotModel& m = robot_.dynamics().model();
  double e = world_.potential_energy();
  for (std::size_t l = 0; l < m.links().size(); ++l) {
    const Inertial& in = m.link(static_cast<int>(l)).inertial;
    e -= in.mass * world_.gravity.dot(poses_[l].apply(in.origin.p));
  }
  return e;
}

}  // namespace proxima::robot
