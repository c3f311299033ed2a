#include "nscd/step/tl_coupling.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace nscd {
namespace {

// the indices of the TL and linear bodies, in body order
std::vector<int> nodal_bodies(const Model& m) {
  std::vector<int> bodies;
  for (int b = 0; b < m.nb(); ++b)
    if (is_nodal(m.bodies[b].kind)) bodies.push_back(b);
  return bodies;
}

}  // namespace

void begin_tl_step(const Model& m, const State& s, std::vector<TlStepData>& tl) {
  tl.resize(m.tl_bodies.size());
  const std::vector<int> bodies = nodal_bodies(m);
  tbb::parallel_for(0, static_cast<int>(bodies.size()), [&](int i) {
    const BodyModel& model = m.bodies[bodies[i]];
    const int n = model.tl_index;
    const ffr::TlBody& body = m.tl_bodies[n];
    TlStepData& data = tl[n];
    if (!data.tangent) data.tangent = std::make_shared<Eigen::SimplicialLDLT<ffr::SparseMatrix>>();
    // TL responses belong to this step's tangent; the linear ones to A₊, for the run
    if (body.nonlinear || data.node_responses.empty()) data.node_responses.assign(body.nn(), ffr::MatrixX3());
    data.base = ffr::step_base(body, s.tl_psi[n], s.tl_lambda[n], model.q0.conjugate() * step_gravity(m, bodies[i], s.t));
    const ffr::TlSolve solve = ffr::solve_velocity(
        body, s.tl_psi[n], s.tl_lambda[n], data.base, Eigen::VectorXd::Zero(body.ndof()), s.tl_lambda[n],
        m.step.inner_tolerance, m.step.inner_max_iterations, ffr::FirstTangent::Fresh, *data.tangent);
    data.lambda_free = solve.lambda;
    data.lambda_next = solve.lambda;
    data.iterations = solve.iterations;
    data.converged = solve.converged;
  });
}

Mat3 tl_orientation(const Model& m, int b, const Mat3& sigma_C) {
  return m.bodies[b].q0.toRotationMatrix().transpose() * sigma_C;
}

void set_tl_point(const Model& m, const contact::ContactPoint& c, int contact, int side, const MeshSide& material_point,
                  std::vector<TlStepData>& tl, MeshPoint& point) {
  const int n = m.bodies[side == 0 ? c.a : c.b].tl_index;
  const ffr::TlBody& body = m.tl_bodies[n];
  TlStepData& data = tl[n];
  // A_T⁻¹ E_k, column by column
  auto response = [&body, &data](int k) {
    ffr::MatrixX3 Z_k(body.ndof(), 3);
    for (int d = 0; d < 3; ++d) {
      const Eigen::VectorXd unit = Eigen::VectorXd::Unit(body.ndof(), 3 * k + d);
      Z_k.col(d) = body.nonlinear ? data.tangent->solve(unit) : body.fe.implicit->solve(unit);
    }
    return Z_k;
  };
  set_mesh_point_base(c, contact, side, material_point, body.fe, data.node_responses, response, point);
  point.tl_index = n;
  point.rows_t.resize(0, 3);
  point.OtC = tl_orientation(m, point.body, point.sigma_C);
}

int solve_tl_bodies(const Model& m, const State& s, const std::vector<MeshPoint>& points,
                    const Eigen::VectorXd& r, std::vector<TlStepData>& tl) {
  // the points of each TL or linear body, in contact order
  std::vector<std::vector<const MeshPoint*>> of_body(tl.size());
  for (const MeshPoint& p : points)
    if (p.tl_index >= 0) of_body[p.tl_index].push_back(&p);
  std::vector<int> iterations(tl.size(), 0);
  tbb::parallel_for(0, static_cast<int>(tl.size()), [&](int n) {
    if (of_body[n].empty()) return;  // λ₊ = λ_free, already solved
    const ffr::TlBody& body = m.tl_bodies[n];
    TlStepData& data = tl[n];
    // the linear response Σ Z OtC r and the nodal impulses P = Σ Nᵀ OtC r
    Eigen::VectorXd response = Eigen::VectorXd::Zero(body.ndof()), P = Eigen::VectorXd::Zero(body.ndof());
    for (const MeshPoint* p : of_body[n]) {
      const Vec3 r_B = p->OtC * r.segment<3>(3 * static_cast<Eigen::Index>(p->contact));
      response.noalias() += p->Z * r_B;
      for (int i = 0; i < 3; ++i)
        if (p->side.nodes[i] >= 0) P.segment<3>(3 * p->side.nodes[i]) += p->side.weights[i] * r_B;
    }
    const Eigen::VectorXd prediction = data.lambda_free + response;
    if (!body.nonlinear) {
      data.lambda_next = prediction;  // eq. (1) is linear: the prediction is λ₊(r)
      return;
    }
    const ffr::TlSolve solve = ffr::solve_velocity(body, s.tl_psi[n], s.tl_lambda[n], data.base, P, prediction,
                                                   m.step.inner_tolerance, m.step.inner_max_iterations,
                                                   ffr::FirstTangent::Reuse, *data.tangent);
    data.lambda_next = solve.lambda;
    data.lambda_free = solve.lambda - response;
    data.converged = data.converged && solve.converged;
    iterations[n] = solve.iterations;
  });
  return tl.empty() ? 0 : *std::max_element(iterations.begin(), iterations.end());
}

void end_tl_step(const Model& m, const State& s, int b, const TlStepData& data, Eigen::VectorXd& psi,
                 Eigen::VectorXd& lambda, Vec3& x, Vec3& v, Vec3& w) {
  const BodyModel& model = m.bodies[b];
  const int n = model.tl_index;
  const ffr::TlBody& body = m.tl_bodies[n];
  lambda = data.lambda_next;
  psi = s.tl_psi[n] + 0.5 * m.step.h * (s.tl_lambda[n] + lambda);
  x = model.x0 + model.q0 * ffr::centre_of_mass_motion(body, psi);
  v = model.q0 * ffr::centre_of_mass_motion(body, lambda);
  w = model.q0 * ffr::mean_angular_velocity(body, psi, lambda);
}

}  // namespace nscd
