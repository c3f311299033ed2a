#include "nscd/step/rolling_resistance.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace nscd {
namespace {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using Mat32 = Eigen::Matrix<double, 3, 2>;

// one active contact with rolling resistance
struct RollingContact {
  int contact = 0;          // index among the active contacts
  int body[2] = {0, 0};     // a, b
  bool movable[2] = {false, false};
  Mat32 T = Mat32::Zero();  // eq. (2): the tangent axes, world
  double coefficient = 0;   // μ_r R_eff of eq. (1) [m]
  double step = 0;          // 1 / λ_max(W_rr,αα) of eq. (7)
};

// the radius of body b if it is a sphere, else 0
double sphere_radius(const Model& m, int b) {
  const auto* sphere = std::get_if<contact::Sphere>(&m.shapes[b]);
  return sphere != nullptr ? sphere->radius : 0.0;
}

// R_eff of eq. (1) from the sides' sphere radii (0: not a sphere); 0 when neither is a sphere
double effective_radius(double r_a, double r_b) {
  if (r_a > 0 && r_b > 0) return r_a * r_b / (r_a + r_b);
  return std::max(r_a, r_b);
}

// the larger eigenvalue of a symmetric 2 × 2 matrix
double largest_eigenvalue(const Mat2& W) {
  const double half_trace = 0.5 * (W(0, 0) + W(1, 1)), half_difference = 0.5 * (W(0, 0) - W(1, 1));
  return half_trace + std::hypot(half_difference, W(0, 1));
}

// the active contacts with a sphere side and μ_r > 0, in contact order, with W_rr,αα of eq. (4)
std::vector<RollingContact> rolling_contacts(const Model& m, const StepWorkspace& ws) {
  std::vector<RollingContact> rolling;
  for (int i = 0; i < ws.contacts.active.size(); ++i) {
    const contact::ContactPoint& c = ws.contacts.active[i].point;
    const double mu_r = m.law(m.bodies[c.a].material, m.bodies[c.b].material).rolling_resistance;
    const double radius = effective_radius(sphere_radius(m, c.a), sphere_radius(m, c.b));
    if (mu_r <= 0 || radius <= 0) continue;
    const ContactJacobian& J = ws.contacts.active.jacobian(i);
    RollingContact k{i, {c.a, c.b}, {J.movable[0], J.movable[1]}, c.R_WC.rightCols<2>(), mu_r * radius, 0.0};
    Mat2 W = Mat2::Zero();
    for (int side = 0; side < 2; ++side)
      if (k.movable[side]) W += k.T.transpose() * ws.free[k.body[side]].inv_inertia_W * k.T;
    if (const double lambda = largest_eigenvalue(W); lambda > 0) {
      k.step = 1 / lambda;
      rolling.push_back(k);
    }
  }
  return rolling;
}

// eq. (5) without rolling torques beyond those already in ws.free: ω⁺ of every body for the
// impulses of ws.contacts.solution, summed in contact order as stage 6 does
std::vector<Vec3> end_angular_velocities(const Model& m, const StepWorkspace& ws) {
  const std::vector<Vec6> dv = body_velocity_changes(ws.contacts.active.jacobians(), m.nb(), ws.contacts.solution.r);
  std::vector<Vec3> w(m.nb());
  for (int b = 0; b < m.nb(); ++b) w[b] = ws.free[b].w + dv[b].tail<3>();
  return w;
}

// adds the torque impulse T dm on body b, −T dm on body a, to the angular velocities w (eq. (5))
void add_torque(const StepWorkspace& ws, const RollingContact& k, const Vec2& dm, std::vector<Vec3>& w) {
  const Vec3 torque = k.T * dm;
  for (int side = 0; side < 2; ++side)
    if (k.movable[side])
      w[k.body[side]] += (side == 0 ? -1.0 : 1.0) * (ws.free[k.body[side]].inv_inertia_W * torque);
}

// the rolling problem for the normal impulses of ws.contacts.solution: eq. (7) sweeps from
// `impulses`, updated in place, until no sweep changes one by more than `tolerance` (or the
// solver's sweep budget); returns the largest change of one impulse over all the sweeps
double solve_rolling(const Model& m, const StepWorkspace& ws, const std::vector<RollingContact>& rolling,
                     const std::vector<double>& bounds, double tolerance, std::vector<Vec2>& impulses) {
  std::vector<Vec3> w = end_angular_velocities(m, ws);
  const std::vector<Vec2> start = impulses;
  for (int sweep = 0; sweep < m.step.solver.stopping().max_iterations; ++sweep) {
    double sweep_change = 0;
    for (std::size_t k = 0; k < rolling.size(); ++k) {
      const RollingContact& c = rolling[k];
      const Vec2 w_r = c.T.transpose() * (w[c.body[1]] - w[c.body[0]]);
      Vec2 next = impulses[k] - c.step * w_r;
      if (const double norm = next.norm(); norm > bounds[k]) next *= bounds[k] / norm;
      add_torque(ws, c, next - impulses[k], w);
      sweep_change = std::max(sweep_change, (next - impulses[k]).norm());
      impulses[k] = next;
    }
    if (sweep_change <= tolerance) break;
  }
  double change = 0;
  for (std::size_t k = 0; k < rolling.size(); ++k) change = std::max(change, (impulses[k] - start[k]).norm());
  return change;
}

// eqs. (5)–(6): the torques of `impulses` into ws.free[k].w and q, from the free angular
// velocities w0 and the q0 without rolling torques
void apply_torques(const Model& m, const std::vector<RollingContact>& rolling, const std::vector<Vec2>& impulses,
                   const std::vector<Vec3>& w0, const Eigen::VectorXd& q0, StepWorkspace& ws) {
  std::vector<Vec3> dw(m.nb(), Vec3::Zero());
  for (std::size_t k = 0; k < rolling.size(); ++k) add_torque(ws, rolling[k], impulses[k], dw);
  for (int b = 0; b < m.nb(); ++b) ws.free[b].w = w0[b] + dw[b];
  for (int i = 0; i < ws.contacts.active.size(); ++i) {
    const ContactJacobian& J = ws.contacts.active.jacobian(i);
    ws.contacts.problem.q.segment<3>(3 * i) = q0.segment<3>(3 * i) + J.G[0].rightCols<3>() * dw[J.body[0]] +
                                               J.G[1].rightCols<3>() * dw[J.body[1]];
  }
}

bool has_rolling_resistance(const Model& m) {
  return std::any_of(m.laws.begin(), m.laws.end(), [](const ContactLaw& law) { return law.rolling_resistance > 0; });
}

}  // namespace

void resist_rolling(const Model& m, StepWorkspace& ws, const ContactSolve& solve) {
  ws.contacts.rolling.clear();
  if (!has_rolling_resistance(m)) return;
  const std::vector<RollingContact> rolling = rolling_contacts(m, ws);
  if (rolling.empty()) return;
  std::vector<Vec3> w0(m.nb());
  for (int b = 0; b < m.nb(); ++b) w0[b] = ws.free[b].w;
  const Eigen::VectorXd q0 = ws.contacts.problem.q;
  const double tolerance = m.step.solver.stopping().tolerance;
  std::vector<Vec2> impulses(rolling.size(), Vec2::Zero());
  std::vector<double> bounds(rolling.size());
  int iterations = ws.contacts.solution.iterations;
  bool settled = false;
  for (int pass = 0; pass < kMaxRollingPasses && !settled; ++pass) {
    if (ws.contacts.solution.status == solvers::SolverStatus::NonFinite) break;
    double largest_bound = 0;
    for (std::size_t k = 0; k < rolling.size(); ++k) {
      const double r_n = ws.contacts.solution.r[3 * static_cast<Eigen::Index>(rolling[k].contact)];
      bounds[k] = rolling[k].coefficient * std::max(r_n, 0.0);
      largest_bound = std::max(largest_bound, bounds[k]);
    }
    const double change = solve_rolling(m, ws, rolling, bounds, tolerance * largest_bound, impulses);
    settled = change <= tolerance * largest_bound;
    if (change == 0) break;  // the problem is unchanged, r still solves it
    apply_torques(m, rolling, impulses, w0, q0, ws);
    ws.contacts.solution = solve(ws.contacts.solution.r);
    iterations += ws.contacts.solution.iterations;
  }
  ws.contacts.solution.iterations = iterations;
  if (!settled && ws.contacts.solution.status == solvers::SolverStatus::Converged)
    ws.contacts.solution.status = solvers::SolverStatus::MaxIterations;
  for (std::size_t k = 0; k < rolling.size(); ++k)
    ws.contacts.rolling.push_back({rolling[k].contact, rolling[k].T * impulses[k]});
}

}  // namespace nscd
