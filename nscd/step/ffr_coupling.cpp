#include "nscd/step/ffr_coupling.hpp"

#include "solvers/modal_columns.hpp"

#include <algorithm>
#include <array>
#include <span>

namespace nscd {
namespace {

// λ_free of eq. (19): the known part plus the fictitious forces at the current rotation
void update_lambda_free(const Model& m, const State& s, int b, FfrStepData& data) {
  const int d = m.bodies[b].ffr_index;
  data.lambda_free = data.lambda_base;
  if (m.step.fictitious_forces)
    ffr::add_fictitious_response(m.ffr_bodies[d], data.O_i, s.w[b], data.rotation.O, data.rotation.w,
                                 data.lambda_free);
  data.mean_lambda_free = ffr::mass_weighted_mean(m.ffr_bodies[d], data.lambda_free);
}

// free velocities of eqs. (15)–(16) at the current O_{i+1}
void set_free_motion(const Model& m, const State& s, int b, const FfrStepData& data, FreeMotion& free) {
  const ffr::FfrBody& body = m.ffr_bodies[m.bodies[b].ffr_index];
  const Mat3& O = data.rotation.O;
  free.v = s.v[b] + m.step.h * step_gravity(m, b, s.t);
  free.inv_inertia_W = O * body.inv_inertia_B * O.transpose();
  free.w = free.inv_inertia_W * data.L_i;
  free.iterations = data.rotation.iterations;
}

// a modal point's H̄_αᵀ = Σ_i w_i Φ_{k_i}ᵀ (k × 3) into rows_t, Φ_{k_i} the rows of node k_i in
// phi, summed entry by entry over i; each node's three rows are adjacent in phi (stored by rows)
void set_modal_rows(const ffr::ModeMatrix& phi, const MeshSide& material_point, ffr::MatrixX3& rows_t) {
  const Eigen::Index k = phi.cols();
  std::array<const double*, 3> rows{};  // node k_i's three rows, adjacent, are Φ_{k_i}ᵀ stored by columns
  for (int i = 0; i < 3; ++i)
    if (material_point.nodes[i] >= 0) rows[i] = phi.data() + 3 * static_cast<Eigen::Index>(material_point.nodes[i]) * k;
  rows_t.resize(k, 3);
  weighted_node_sum(rows, material_point.weights, rows_t.size(), rows_t.data());
}

}  // namespace

void weighted_node_sum(const std::array<const double*, 3>& a, const Vec3& w, Eigen::Index n, double* out) {
  // a node left out as a present one of weight 0: x + 0 y = x, so the sum is that of the others
  const auto present = std::ranges::find_if(a, [](const double* values) { return values != nullptr; });
  if (present == a.end()) {
    std::fill(out, out + n, 0.0);
    return;
  }
  std::array<Eigen::Map<const Eigen::ArrayXd>, 3> values{
      Eigen::Map<const Eigen::ArrayXd>(a[0] ? a[0] : *present, n), Eigen::Map<const Eigen::ArrayXd>(a[1] ? a[1] : *present, n),
      Eigen::Map<const Eigen::ArrayXd>(a[2] ? a[2] : *present, n)};
  Eigen::Map<Eigen::ArrayXd>(out, n) =
      values[0] * (a[0] ? w[0] : 0.0) + values[1] * (a[1] ? w[1] : 0.0) + values[2] * (a[2] ? w[2] : 0.0);
}

void begin_ffr_step(const Model& m, const State& s, std::vector<FfrStepData>& ffr, std::vector<FreeMotion>& free) {
  ffr.resize(m.ffr_bodies.size());
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != BodyKind::Ffr) continue;
    const int d = m.bodies[b].ffr_index;
    const ffr::FfrBody& body = m.ffr_bodies[d];
    FfrStepData& data = ffr[d];
    if (!body.modes) data.node_responses.resize(body.nn());
    data.O_i = s.q[b].toRotationMatrix();
    data.L_i = data.O_i * (body.inertia_B * (data.O_i.transpose() * s.w[b]));
    data.lambda_base = ffr::deformation_base(body, s.psi[d], s.lambda[d]);
    data.mean_lambda_i = ffr::mass_weighted_mean(body, s.lambda[d]);
    data.rotation = ffr::rotate(body, data.O_i, s.w[b], data.L_i, {}, {}, {data.O_i, s.w[b], 0, true},
                                m.step.inner_tolerance, m.step.inner_max_iterations);
    update_lambda_free(m, s, b, data);
    set_free_motion(m, s, b, data, free[b]);
  }
}

void reset_mesh_point(const contact::ContactPoint& c, int contact, int side, const MeshSide& material_point,
                      MeshPoint& point) {
  ffr::MatrixX3 Z = std::move(point.Z), rows_t = std::move(point.rows_t);
  point = MeshPoint{};
  point.Z = std::move(Z);
  point.rows_t = std::move(rows_t);
  point.contact = contact;
  point.body = side == 0 ? c.a : c.b;
  point.side = material_point;
  point.sigma_C = side == 0 ? Mat3(-c.R_WC) : c.R_WC;
}

void set_ffr_point(const Model& m, const contact::ContactPoint& c, int contact, int side,
                   const MeshSide& material_point, std::vector<FfrStepData>& ffr, MeshPoint& point) {
  const int d = m.bodies[side == 0 ? c.a : c.b].ffr_index;
  const ffr::FfrBody& body = m.ffr_bodies[d];
  if (body.modes) {  // Z = Â₊⁻¹ H̄ᵀ, Â₊ diagonal; mean_Z stays 0 (modal_basis.hpp eq. 3)
    reset_mesh_point(c, contact, side, material_point, point);
    set_modal_rows(body.modes->phi, material_point, point.rows_t);
    point.Z.resize(point.rows_t.rows(), 3);
    point.Z.noalias() = body.implicit_inverse.asDiagonal() * point.rows_t;
  } else {
    set_mesh_point_base(c, contact, side, material_point, body, ffr[d].node_responses,
                        [&body](int k) { return ffr::node_response(body, k); }, point);
    for (int c3 = 0; c3 < 3; ++c3) point.mean_Z.col(c3) = ffr::mass_weighted_mean(body, point.Z.col(c3));
    point.rows_t.resize(0, 3);
  }
  point.ffr_index = d;
  orient_ffr_point(ffr, point);
}

void orient_ffr_point(const std::vector<FfrStepData>& ffr, MeshPoint& point) {
  if (point.ffr_index < 0) return;
  point.OtC = ffr[point.ffr_index].rotation.O.transpose() * point.sigma_C;
}

PointsByBody points_by_ffr_body(const std::vector<MeshPoint>& points, std::size_t n_ffr) {
  PointsByBody out;
  out.start.assign(n_ffr + 1, 0);
  for (const MeshPoint& p : points)
    if (p.ffr_index >= 0) ++out.start[p.ffr_index + 1];
  for (std::size_t d = 0; d < n_ffr; ++d) out.start[d + 1] += out.start[d];
  out.points.resize(out.start.back());
  std::vector<int> fill(out.start.begin(), out.start.end() - 1);
  for (std::size_t i = 0; i < points.size(); ++i)
    if (points[i].ffr_index >= 0) out.points[fill[points[i].ffr_index]++] = static_cast<int>(i);
  return out;
}

int rotate_ffr_bodies(const Model& m, const State& s, const std::vector<MeshPoint>& points,
                      const Eigen::VectorXd& r, std::vector<FfrStepData>& ffr, std::vector<FreeMotion>& free) {
  // material points and world impulses of each FFR body, in contact order
  const PointsByBody by_body = points_by_ffr_body(points, ffr.size());
  std::vector<Vec3> X(by_body.points.size()), P(by_body.points.size());
  for (std::size_t n = 0; n < by_body.points.size(); ++n) {
    const MeshPoint& p = points[by_body.points[n]];
    X[n] = p.side.X_B;
    P[n] = p.sigma_C * r.segment<3>(3 * static_cast<Eigen::Index>(p.contact));
  }
  int iterations = 0;
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != BodyKind::Ffr) continue;
    const int d = m.bodies[b].ffr_index;
    FfrStepData& data = ffr[d];
    const std::size_t first = by_body.start[d], count = by_body.start[d + 1] - by_body.start[d];
    data.rotation = ffr::rotate(m.ffr_bodies[d], data.O_i, s.w[b], data.L_i, std::span(X).subspan(first, count),
                                std::span(P).subspan(first, count), data.rotation, m.step.inner_tolerance,
                                m.step.inner_max_iterations);
    iterations = std::max(iterations, data.rotation.iterations);
    update_lambda_free(m, s, b, data);
    set_free_motion(m, s, b, data, free[b]);
  }
  return iterations;
}

Vec3 deformable_velocity(const ffr::FfrBody& fe, const MeshSide& side, const Mat3& OtC, const Eigen::VectorXd& lambda,
                         const Vec3& mean_lambda) {
  return OtC.transpose() * (interpolate(fe, side, lambda) - mean_lambda);
}

Vec3 point_deformable_velocity(const ffr::FfrBody& fe, const MeshPoint& point, const Eigen::VectorXd& lambda,
                               const Vec3& mean_lambda) {
  if (point.rows_t.size() == 0) return deformable_velocity(fe, point.side, point.OtC, lambda, mean_lambda);
  const Eigen::Index k = point.rows_t.rows();
  return point.OtC.transpose() * (solvers::transposed_times(point.rows_t.data(), lambda.data(), k, k) - mean_lambda);
}

Vec3 free_deformable_velocity(const Model& m, const std::vector<FfrStepData>& ffr, const MeshPoint& point) {
  const FfrStepData& data = ffr[point.ffr_index];
  return point_deformable_velocity(m.ffr_bodies[point.ffr_index], point, data.lambda_free, data.mean_lambda_free);
}

namespace {

// T = A B (k × 3) for A (k × 3) and B (3 × 3) into the columns of stride ld at out, and
// U = diag(d) T into the three columns after them, two rows at a time (the two lanes of an Array2d)
void rotate_columns(const ffr::MatrixX3& A, const Mat3& B, const Eigen::VectorXd& d, double* out, Eigen::Index ld) {
  using Lanes = Eigen::Array2d;
  const Eigen::Index k = A.rows();
  const double* a = A.data();
  Eigen::Index j = 0;
  for (; j + 1 < k; j += 2) {
    const Lanes a0 = Lanes::Map(a + j), a1 = Lanes::Map(a + k + j), a2 = Lanes::Map(a + 2 * k + j);
    const Lanes d_j = Lanes::Map(d.data() + j);
    for (int b = 0; b < 3; ++b) {
      const Lanes t = a0 * B(0, b) + a1 * B(1, b) + a2 * B(2, b);
      Lanes::Map(out + b * ld + j) = t;
      Lanes::Map(out + (3 + b) * ld + j) = d_j * t;
    }
  }
  if (j < k)
    for (int b = 0; b < 3; ++b) {
      out[b * ld + j] = a[j] * B(0, b) + a[k + j] * B(1, b) + a[2 * k + j] * B(2, b);
      out[(3 + b) * ld + j] = d[j] * out[b * ld + j];
    }
}

}  // namespace

Eigen::MatrixXd orient_modal_points(const Model& m, const std::vector<MeshPoint>& points) {
  Eigen::Index k = 0;
  for (const MeshPoint& p : points) k = std::max(k, p.rows_t.rows());
  Eigen::MatrixXd oriented(k, 6 * static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const MeshPoint& p = points[i];
    if (p.rows_t.size() == 0) continue;
    rotate_columns(p.rows_t, p.OtC, m.ffr_bodies[p.ffr_index].implicit_inverse,
                   &oriented(0, 6 * static_cast<Eigen::Index>(i)), k);
  }
  return oriented;
}

Mat3 mesh_block(const Eigen::MatrixXd& oriented, const std::vector<MeshPoint>& points, int ip, int iq) {
  const MeshPoint &p = points[ip], &q = points[iq];
  if (p.rows_t.size() > 0)
    return solvers::transposed_product(&oriented(0, 6 * static_cast<Eigen::Index>(ip)),
                                       &oriented(0, 6 * static_cast<Eigen::Index>(iq) + 3), p.rows_t.rows(),
                                       oriented.rows());
  Mat3 G = -q.mean_Z;
  for (int i = 0; i < 3; ++i)
    if (p.side.nodes[i] >= 0) G += p.side.weights[i] * q.Z.block<3, 3>(3 * p.side.nodes[i], 0);
  return p.OtC.transpose() * G * q.OtC;
}

Eigen::VectorXd end_of_step_lambda(const FfrStepData& data, const std::vector<MeshPoint>& points,
                                   const PointsByBody& by_body, const Eigen::VectorXd& r, int d) {
  Eigen::VectorXd lambda = data.lambda_free;
  for (int n = by_body.start[d]; n < by_body.start[d + 1]; ++n) {
    const MeshPoint& p = points[by_body.points[n]];
    solvers::add_product(p.Z.data(), p.OtC * r.segment<3>(3 * static_cast<Eigen::Index>(p.contact)), p.Z.rows(),
                         p.Z.rows(), lambda.data());
  }
  return lambda;
}

}  // namespace nscd
