#include "contact/congruence.hpp"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <vector>

namespace nscd::contact {
namespace {

// the orthonormal frame (columns) of u and the part of v across u
Mat3 frame(const Vec3& u, const Vec3& v) {
  Mat3 F;
  F.col(0) = u.normalized();
  F.col(1) = (v - v.dot(F.col(0)) * F.col(0)).normalized();
  F.col(2) = F.col(0).cross(F.col(1));
  return F;
}

// π of (1) for the proposed rotation R: each vertex of a taken by R within `reach` of a distinct
// vertex of b, or empty
std::vector<int> matching(const ConvexPolyhedron& a, const ConvexPolyhedron& b, const Mat3& R, double reach) {
  std::vector<int> pi(a.vertices.size(), -1);
  std::vector<bool> taken(b.vertices.size(), false);
  for (std::size_t k = 0; k < a.vertices.size(); ++k) {
    const Vec3 turned = R * a.vertices[k];
    for (std::size_t l = 0; l < b.vertices.size() && pi[k] < 0; ++l)
      if (!taken[l] && (turned - b.vertices[l]).norm() <= reach) pi[k] = static_cast<int>(l), taken[l] = true;
    if (pi[k] < 0) return {};
  }
  return pi;
}

// eq. (2) over the matched vertices
Mat3 least_squares_rotation(const ConvexPolyhedron& a, const ConvexPolyhedron& b, const std::vector<int>& pi) {
  Mat3 H = Mat3::Zero();
  for (std::size_t k = 0; k < pi.size(); ++k) H += a.vertices[k] * b.vertices[pi[k]].transpose();
  const Eigen::JacobiSVD<Mat3> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Mat3 &U = svd.matrixU(), &V = svd.matrixV();
  const Vec3 d(1.0, 1.0, (V * U.transpose()).determinant() < 0 ? -1.0 : 1.0);
  return V * d.asDiagonal() * U.transpose();
}

}  // namespace

std::vector<double> vertex_radii(const ConvexPolyhedron& poly) {
  std::vector<double> radii;
  for (const Vec3& v : poly.vertices) radii.push_back(v.norm());
  std::sort(radii.begin(), radii.end());
  return radii;
}

bool radii_match(std::span<const double> a, std::span<const double> b, double tolerance) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (std::abs(a[k] - b[k]) > tolerance) return false;
  return true;
}

std::optional<Mat3> rotation_onto(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance) {
  const std::size_t n = a.vertices.size();
  if (n < 3 || !radii_match(vertex_radii(a), vertex_radii(b), tolerance)) return std::nullopt;
  if (!matching(a, b, Mat3::Identity(), tolerance).empty()) return Mat3::Identity();  // a copy in place
  // b's reference pair: the farthest vertex, and the one most across it
  std::size_t i1 = 0, i2 = 0;
  for (std::size_t k = 1; k < n; ++k)
    if (b.vertices[k].norm() > b.vertices[i1].norm()) i1 = k;
  const Vec3& b1 = b.vertices[i1];
  for (std::size_t k = 1; k < n; ++k)
    if (b1.cross(b.vertices[k]).norm() > b1.cross(b.vertices[i2]).norm()) i2 = k;
  const Vec3& b2 = b.vertices[i2];
  if (b1.cross(b2).norm() <= tolerance * b1.norm()) return std::nullopt;
  const Mat3 frame_b = frame(b1, b2);
  const double dot_tolerance = tolerance * (b1.norm() + b2.norm());
  for (std::size_t i = 0; i < n; ++i) {
    if (std::abs(a.vertices[i].norm() - b1.norm()) > tolerance) continue;
    for (std::size_t j = 0; j < n; ++j) {
      if (j == i || std::abs(a.vertices[j].norm() - b2.norm()) > tolerance ||
          std::abs(a.vertices[i].dot(a.vertices[j]) - b1.dot(b2)) > dot_tolerance)
        continue;
      const Mat3 proposal = frame_b * frame(a.vertices[i], a.vertices[j]).transpose();
      const std::vector<int> pi = matching(a, b, proposal, 4 * tolerance);
      if (pi.empty()) continue;
      const Mat3 R = least_squares_rotation(a, b, pi);
      if (!matching(a, b, R, tolerance).empty()) return R;
    }
  }
  return std::nullopt;
}

ConvexPolyhedron rotated(const ConvexPolyhedron& poly, const Mat3& R) {
  ConvexPolyhedron turned = poly;
  for (Vec3& v : turned.vertices) v = R * v;
  for (Vec3& n : turned.face_normals) n = R * n;
  if (!R.isIdentity(0.0)) turned.box_half_size.reset();  // no longer along the frame's axes
  return turned;
}

}  // namespace nscd::contact
