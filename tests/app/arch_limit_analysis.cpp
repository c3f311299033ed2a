#include "arch_limit_analysis.hpp"

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <vector>

namespace nscd::test {
namespace {

using Vec2 = Eigen::Vector2d;  // (x, z)

double cross(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// prefix sums over the voussoirs of the mass and the first moment (unit density and depth)
struct Voussoirs {
  std::vector<double> mass;   // Σ_{i<k} m_i
  std::vector<Vec2> moment;   // Σ_{i<k} m_i c_i
};

Voussoirs voussoirs(const ArchGeometry& arch) {
  const int n = arch.voussoirs;
  const auto point = [&](double r, int j) {
    const double phi = M_PI * j / n;
    return Vec2(r * std::cos(phi), r * std::sin(phi));
  };
  Voussoirs v{{0.0}, {Vec2::Zero()}};
  const double outer = arch.radius + arch.thickness;
  for (int i = 0; i < n; ++i) {
    // the quadrilateral's area and centroid (shoelace formula)
    const std::array<Vec2, 4> p{point(arch.radius, i), point(outer, i), point(outer, i + 1), point(arch.radius, i + 1)};
    double area = 0;
    Vec2 first = Vec2::Zero();
    for (int k = 0; k < 4; ++k) {
      const double c = cross(p[k], p[(k + 1) % 4]);
      area += c / 2;
      first += c * (p[k] + p[(k + 1) % 4]) / 6;
    }
    v.mass.push_back(v.mass.back() + std::abs(area));
    v.moment.push_back(v.moment.back() + (area < 0 ? -first : first));
  }
  return v;
}

// the work rates (W_g, W_h) of the voussoirs [from, to) turning at ω about o
Vec2 work_rates(const Voussoirs& v, int from, int to, double omega, const Vec2& o) {
  const Vec2 arm = (v.moment[to] - v.moment[from]) - (v.mass[to] - v.mass[from]) * o;
  return Vec2(-omega * arm.x(), -omega * arm.y());  // v = ω (−arm_z, arm_x): W_g = −Σ m v_z, W_h = Σ m v_x
}

// λ of the mechanism with hinges h at joints j (intrados flags), or +∞ when not admissible
double mechanism_multiplier(const Voussoirs& v, const std::array<int, 4>& j, const std::array<Vec2, 4>& h,
                            const std::array<bool, 4>& intrados) {
  const Vec2 d1 = h[1] - h[0], d4 = h[2] - h[3];
  const double det = cross(d1, d4);
  if (std::abs(det) < 1e-12) return std::numeric_limits<double>::infinity();
  const Vec2 o_b = h[0] + d1 * cross(h[3] - h[0], d4) / det;  // lines H₁H₂ and H₄H₃ meet
  const Vec2 b2 = h[1] - o_b, b3 = h[2] - o_b;
  if (b2.norm() < 1e-12 || d4.norm() < 1e-12) return std::numeric_limits<double>::infinity();
  const double w_a = 1, w_b = w_a * d1.dot(b2) / b2.squaredNorm(), w_c = w_b * b3.dot(d4) / d4.squaredNorm();
  const std::array<double, 4> relative{w_a, w_b - w_a, w_c - w_b, -w_c};
  bool forward = true, backward = true;  // admissible with these rotations, or with all reversed
  for (int k = 0; k < 4; ++k) {
    const double opening = intrados[k] ? relative[k] : -relative[k];
    forward = forward && opening >= -1e-12;
    backward = backward && opening <= 1e-12;
  }
  if (!forward && !backward) return std::numeric_limits<double>::infinity();
  const Vec2 w = work_rates(v, j[0], j[1], w_a, h[0]) + work_rates(v, j[1], j[2], w_b, o_b) +
                 work_rates(v, j[2], j[3], w_c, h[3]);
  const double sign = forward ? 1 : -1;
  if (sign * w.y() <= 1e-14) return std::numeric_limits<double>::infinity();
  return -w.x() / w.y();
}

}  // namespace

HingeMechanism arch_collapse_mechanism(const ArchGeometry& arch) {
  const Voussoirs v = voussoirs(arch);
  const int n = arch.voussoirs;
  const auto hinge = [&](int j, bool inner) {
    const double r = inner ? arch.radius : arch.radius + arch.thickness, phi = M_PI * j / n;
    return Vec2(r * std::cos(phi), r * std::sin(phi));
  };
  HingeMechanism best{std::numeric_limits<double>::infinity(), {}, {}};
  for (int j1 = 0; j1 <= n; ++j1)
    for (int j2 = j1 + 1; j2 <= n; ++j2)
      for (int j3 = j2 + 1; j3 <= n; ++j3)
        for (int j4 = j3 + 1; j4 <= n; ++j4)
          for (int pattern = 0; pattern < 16; ++pattern) {
            const std::array<int, 4> j{j1, j2, j3, j4};
            std::array<bool, 4> inner{};
            std::array<Vec2, 4> h;
            for (int k = 0; k < 4; ++k) {
              inner[k] = (pattern >> k) & 1;
              h[k] = hinge(j[k], inner[k]);
            }
            const double lambda = mechanism_multiplier(v, j, h, inner);
            if (lambda < best.multiplier) best = {lambda, j, inner};
          }
  return best;
}

}  // namespace nscd::test
