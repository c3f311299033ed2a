#include "nscd/app/collapse_analysis.hpp"

#include "nscd/core/error.hpp"
#include "nscd/step/joints.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace nscd::app {
namespace {

bool is_movable(const BodyModel& b) { return !is_kinematic(b.kind); }

// a joint at t = 0 (joints.hpp): its contact points in each body's frame and its normal in a's frame
struct JointAtStart {
  JointMotion joint;                        // bodies, area and centroid; the motion still zero
  std::vector<std::pair<Vec3, Vec3>> points;  // (p_A, p_B)
  Vec3 n_A = Vec3::Zero();
};

// the joints of the trial's first step (contacts detected at s0) between rigid, fixed or driven
// bodies, with their contacts touching within `tolerance`
std::vector<JointAtStart> joints_at_start(const Model& m, const State& s0, const ActiveContacts& contacts,
                                          double tolerance) {
  std::vector<JointAtStart> joints;
  for (const Joint& j : find_joints(contacts)) {
    if (finite_element_body(m, j.a) || finite_element_body(m, j.b)) continue;
    const Quat to_a = s0.q[j.a].conjugate(), to_b = s0.q[j.b].conjugate();
    JointAtStart start{{j.a, j.b, j.area, j.centroid, 0, 0, 0, ""}, {}, to_a * j.normal};
    for (int i : j.contacts) {
      const contact::ContactPoint& p = contacts[i].point;
      if (p.gap <= tolerance) start.points.emplace_back(to_a * (p.p_W - s0.x[j.a]), to_b * (p.p_W - s0.x[j.b]));
    }
    if (!start.points.empty()) joints.push_back(std::move(start));
  }
  return joints;
}

std::string joint_mode(const JointMotion& j, double threshold) {
  if (j.min_opening > threshold) return "open";
  const bool hinge = j.max_opening > threshold, slide = j.max_slip > threshold;
  if (hinge && slide) return "hinge and slide";
  if (hinge) return "hinge";
  return slide ? "slide" : "";
}

// the joints whose points opened or slipped more than `threshold` between s0 and s
std::vector<JointMotion> joint_motions(const std::vector<JointAtStart>& joints, const State& s, double threshold) {
  std::vector<JointMotion> moved;
  for (const JointAtStart& start : joints) {
    JointMotion j = start.joint;
    const Vec3 n = s.q[j.a] * start.n_A;
    j.min_opening = std::numeric_limits<double>::infinity();
    j.max_opening = -j.min_opening;
    for (const auto& [p_A, p_B] : start.points) {
      const Vec3 separation = (s.x[j.b] + s.q[j.b] * p_B) - (s.x[j.a] + s.q[j.a] * p_A);
      const double opening = separation.dot(n);
      j.max_opening = std::max(j.max_opening, opening);
      j.min_opening = std::min(j.min_opening, opening);
      j.max_slip = std::max(j.max_slip, (separation - opening * n).norm());
    }
    j.mode = joint_mode(j, threshold);
    if (!j.mode.empty()) moved.push_back(j);
  }
  return moved;
}

}  // namespace

CollapseCriterion default_criterion(const Model& m, const std::string& file) {
  const double g = m.step.gravity.norm();
  NSCD_THROW_UNLESS(g > 0, "{}: gravity: expected a non-zero gravity for a collapse analysis (its multiplier is in "
                    "units of |g|)", file);
  double smallest = std::numeric_limits<double>::infinity();
  Vec3 lo = Vec3::Constant(smallest), hi = -lo;
  for (const BodyModel& b : m.bodies) {
    if (!is_movable(b)) continue;
    smallest = std::min(smallest, 2 * b.bounding_radius);
    lo = lo.cwiseMin(b.x0 - Vec3::Constant(b.bounding_radius));
    hi = hi.cwiseMax(b.x0 + Vec3::Constant(b.bounding_radius));
  }
  NSCD_THROW_UNLESS(std::isfinite(smallest), "{}: bodies: expected a rigid or finite-element body to load, found "
                    "only fixed and driven ones", file);
  CollapseCriterion c;
  c.structure_size = (hi - lo).norm();
  const double t0 = std::sqrt(c.structure_size / g);
  c.displacement = 0.01 * smallest;
  c.ramp_time = 4 * t0;
  c.hold_time = 8 * t0;
  return c;
}

io::Scene collapse_scene(const io::Scene& scene, const Vec3& direction, double multiplier,
                         const CollapseCriterion& c) {
  io::Scene loaded = scene;
  io::Load load;
  for (const io::Body& b : scene.bodies)
    if (!is_kinematic(b.model)) load.bodies.push_back(b.name);
  load.acceleration = multiplier * scene.gravity.norm() * direction.normalized();
  load.time.type = io::LoadTime::Type::Ramp;
  load.time.start = 0;
  load.time.end = c.ramp_time;
  loaded.loads.push_back(std::move(load));
  loaded.time.duration = c.ramp_time + c.hold_time;
  return loaded;
}

std::vector<double> body_displacements(const Model& m, const State& s0, const State& s) {
  std::vector<double> u(m.nb(), 0.0);
  for (int b = 0; b < m.nb(); ++b) {
    if (!is_movable(m.bodies[b])) continue;
    const double angle = Eigen::AngleAxisd(s.q[b] * s0.q[b].conjugate()).angle();
    u[b] = (s.x[b] - s0.x[b]).norm() + m.bodies[b].bounding_radius * angle;
  }
  return u;
}

TrialResult run_trial(const Model& m, const State& s0, double multiplier, const CollapseCriterion& c,
                      const TrialObserver& observe, double stop_factor) {
  TrialResult result;
  result.multiplier = multiplier;
  const double threshold = kMechanismFraction * c.displacement;
  State s = s0;
  StepWorkspace ws;
  std::vector<JointAtStart> joints;
  while (s.step < m.n_steps) {
    const StepStartVelocities start = step_start_velocities(s);
    const StepReport report = step(m, s, ws);
    if (report.status != StepStatus::Ok) {
      result.status = report.status;
      result.message = report.message;
      break;
    }
    if (report.solver_status != solvers::SolverStatus::Converged) ++result.unconverged_steps;
    if (observe) observe(start, s, ws, report);
    if (s.step == 1) joints = joints_at_start(m, s0, ws.contacts.active, threshold);
    const std::vector<double> u = body_displacements(m, s0, s);
    const double largest = *std::max_element(u.begin(), u.end());
    if (!result.collapsed) {
      result.displacement = u;
      result.body = static_cast<int>(std::max_element(u.begin(), u.end()) - u.begin());
      result.time = s.t;
      result.collapsed = largest > c.displacement;
      if (result.collapsed) result.joints = joint_motions(joints, s, threshold);
    }
    if (largest > stop_factor * c.displacement) break;
  }
  return result;
}

CollapseSearch bracket_collapse(const std::function<TrialResult(double)>& trial, const SearchOptions& o) {
  CollapseSearch search;
  const auto run = [&](double multiplier) {
    search.trials.push_back(trial(multiplier));
    return search.trials.back().collapsed;
  };
  if (run(0.0)) {
    search.stands_unloaded = false;
    search.hi = 0.0;
    return search;
  }
  for (double multiplier = std::min(o.first, o.max_multiplier);; multiplier = std::min(2 * multiplier, o.max_multiplier)) {
    if (run(multiplier)) {
      search.hi = multiplier;
      break;
    }
    search.lo = multiplier;
    if (multiplier >= o.max_multiplier) return search;
  }
  while (*search.hi - search.lo > o.precision * *search.hi) {
    const double mid = 0.5 * (search.lo + *search.hi);
    (run(mid) ? *search.hi : search.lo) = mid;
  }
  return search;
}

}  // namespace nscd::app
