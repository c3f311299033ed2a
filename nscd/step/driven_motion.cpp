#include "nscd/step/driven_motion.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace nscd {
namespace {

using Cubic = std::array<double, 4>;  // c₀ + c₁ τ + c₂ τ² + c₃ τ³

double value(const Cubic& c, double tau) { return c[0] + tau * (c[1] + tau * (c[2] + tau * c[3])); }

Cubic derivative(const Cubic& c) { return {c[1], 2 * c[2], 3 * c[3], 0.0}; }

// max |p| over [a, b]: at an end or at a root of p' (at most quadratic) inside
double max_abs(const Cubic& p, double a, double b) {
  double best = std::max(std::abs(value(p, a)), std::abs(value(p, b)));
  const Cubic d = derivative(p);
  auto consider = [&](double tau) {
    if (tau > a && tau < b) best = std::max(best, std::abs(value(p, tau)));
  };
  if (d[2] != 0) {
    const double discriminant = d[1] * d[1] - 4 * d[2] * d[0];
    if (discriminant >= 0) {
      consider((-d[1] + std::sqrt(discriminant)) / (2 * d[2]));
      consider((-d[1] - std::sqrt(discriminant)) / (2 * d[2]));
    }
  } else if (d[1] != 0) {
    consider(-d[0] / d[1]);
  }
  return best;
}

}  // namespace

DrivenMotion DrivenMotion::constant(const Vec3& value) {
  DrivenMotion motion;
  motion.m_form = Form::Constant;
  motion.m_value = value;
  return motion;
}

DrivenMotion DrivenMotion::sine(const Vec3& direction, double amplitude, double angular_frequency, double start,
                                double phase) {
  DrivenMotion motion;
  motion.m_form = Form::Sine;
  motion.m_direction = direction;
  motion.m_amplitude = amplitude;
  motion.m_omega = angular_frequency;
  motion.m_start = start;
  motion.m_phase = phase;
  return motion;
}

DrivenMotion DrivenMotion::table(TableQuantity quantity, const Vec3& direction, const std::vector<double>& times,
                                 const std::vector<double>& values) {
  DrivenMotion motion;
  motion.m_form = Form::Table;
  motion.m_direction = direction;
  const std::vector<double>& t = times;
  const std::vector<double>& f = values;
  const std::size_t n = f.size() - 1;
  motion.m_velocity_jumps = quantity == TableQuantity::Displacement;

  // before the first sample, eqs. (2)–(4): at rest, v held at f₀, x held at f₀
  Cubic before{};
  if (quantity == TableQuantity::Velocity) before = {0.0, f[0], 0.0, 0.0};
  if (quantity == TableQuantity::Displacement) before = {f[0], 0.0, 0.0, 0.0};
  motion.m_pieces.push_back({t[0], before});

  // one piece per interval, x and v continuous at the samples (x only for eq. 4)
  double X = quantity == TableQuantity::Displacement ? f[0] : 0.0, V = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const double dt = t[k + 1] - t[k], s = (f[k + 1] - f[k]) / dt;
    Cubic c{};
    switch (quantity) {
      case TableQuantity::Acceleration: c = {X, V, f[k] / 2, s / 6}; break;
      case TableQuantity::Velocity: c = {X, f[k], s / 2, 0.0}; break;
      case TableQuantity::Displacement: c = {f[k], s, 0.0, 0.0}; break;
    }
    motion.m_pieces.push_back({t[k], c});
    X = value(c, dt);
    V = value(derivative(c), dt);
  }
  // after the last sample: a = 0 with v = V_n (2), v held at f_n (3), x held at f_n (4)
  Cubic after{};
  switch (quantity) {
    case TableQuantity::Acceleration: after = {X, V, 0.0, 0.0}; break;
    case TableQuantity::Velocity: after = {X, f[n], 0.0, 0.0}; break;
    case TableQuantity::Displacement: after = {f[n], 0.0, 0.0, 0.0}; break;
  }
  motion.m_pieces.push_back({t[n], after});
  return motion;
}

const DrivenMotion::Piece& DrivenMotion::piece(double t) const {
  // pieces 1 … n + 1 start at t₀ … t_n; the count of those starting at or before t
  const auto count = std::upper_bound(m_pieces.begin() + 1, m_pieces.end(), t,
                                      [](double x, const Piece& p) { return x < p.start; }) -
                     (m_pieces.begin() + 1);
  return m_pieces[static_cast<std::size_t>(count)];
}

double DrivenMotion::table_displacement(double t) const {
  const Piece& p = piece(t), &p0 = piece(0.0);
  return value(p.c, t - p.start) - value(p0.c, 0.0 - p0.start);
}

double DrivenMotion::table_velocity(double t) const {
  const Piece& p = piece(t);
  return value(derivative(p.c), t - p.start);
}

double DrivenMotion::table_acceleration(double t) const {
  const Piece& p = piece(t);
  return value(derivative(derivative(p.c)), t - p.start);
}

Vec3 DrivenMotion::acceleration(double t) const {
  switch (m_form) {
    case Form::Constant:
      return Vec3::Zero();
    case Form::Sine:
      return t > m_start ? Vec3(m_amplitude * m_omega * std::cos(m_omega * (t - m_start) + m_phase) * m_direction)
                         : Vec3::Zero();
    case Form::Table:
      break;
  }
  return table_acceleration(t) * m_direction;
}

Vec3 DrivenMotion::velocity(double t) const {
  switch (m_form) {
    case Form::Constant:
      return m_value;
    case Form::Sine:
      return t > m_start ? Vec3(m_amplitude * std::sin(m_omega * (t - m_start) + m_phase) * m_direction)
                         : Vec3::Zero();
    case Form::Table:
      break;
  }
  return table_velocity(t) * m_direction;
}

Vec3 DrivenMotion::displacement(double t) const {
  switch (m_form) {
    case Form::Constant:
      return m_value * t;
    case Form::Sine:
      return t > m_start ? Vec3(m_amplitude / m_omega *
                                (std::cos(m_phase) - std::cos(m_omega * (t - m_start) + m_phase)) * m_direction)
                         : Vec3::Zero();
    case Form::Table:
      break;
  }
  return table_displacement(t) * m_direction;
}

MotionPeaks DrivenMotion::peaks(double duration) const {
  switch (m_form) {
    case Form::Constant:
      return {0.0, m_value.norm(), m_value.norm() * duration, 0.0};
    case Form::Sine:
      return sine_peaks(duration);
    case Form::Table:
      break;
  }
  return table_peaks(duration);
}

MotionPeaks DrivenMotion::table_peaks(double duration) const {
  MotionPeaks peaks;
  const Piece& p0 = piece(0.0);
  const double x0 = value(p0.c, 0.0 - p0.start);
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < m_pieces.size(); ++i) {
    const Piece& p = m_pieces[i];
    // the piece's span [lo, hi) within [0, duration], as τ
    const double lo = std::max(i == 0 ? -kInfinity : p.start, 0.0);
    const double hi = std::min(i + 1 < m_pieces.size() ? m_pieces[i + 1].start : kInfinity, duration);
    if (lo > hi) continue;
    Cubic x = p.c;
    x[0] -= x0;
    const Cubic v = derivative(x), a = derivative(v);
    const double a_tau = lo - p.start, b_tau = hi - p.start;
    peaks.displacement = std::max(peaks.displacement, max_abs(x, a_tau, b_tau));
    peaks.velocity = std::max(peaks.velocity, max_abs(v, a_tau, b_tau));
    peaks.acceleration = std::max(peaks.acceleration, max_abs(a, a_tau, b_tau));
    // eq. (4): v jumps where a piece begins (the left piece's slope against this one's)
    if (m_velocity_jumps && i > 0 && p.start > 0 && p.start <= duration) {
      const Piece& left = m_pieces[i - 1];
      const double jump = value(v, 0.0) - value(derivative(left.c), p.start - left.start);
      peaks.velocity_jump = std::max(peaks.velocity_jump, std::abs(jump));
    }
  }
  return peaks;
}

MotionPeaks DrivenMotion::sine_peaks(double duration) const {
  MotionPeaks peaks;
  if (duration <= m_start) return peaks;
  // θ = ω (t − t₀) + φ over (φ, θ_end]; a, v and Δx are extremal at the ends or at multiples of
  // π/2, and one period holds every value
  const double theta_end = m_phase + std::min(m_omega * (duration - m_start), 2 * std::numbers::pi);
  std::vector<double> thetas{m_phase, theta_end};
  const double quarter = std::numbers::pi / 2;
  for (double k = std::ceil(m_phase / quarter); k * quarter < theta_end; k += 1) thetas.push_back(k * quarter);
  const double A = std::abs(m_amplitude);
  for (double theta : thetas) {
    peaks.acceleration = std::max(peaks.acceleration, A * m_omega * std::abs(std::cos(theta)));
    peaks.velocity = std::max(peaks.velocity, A * std::abs(std::sin(theta)));
    peaks.displacement = std::max(peaks.displacement, A / m_omega * std::abs(std::cos(m_phase) - std::cos(theta)));
  }
  peaks.velocity_jump = A * std::abs(std::sin(m_phase));
  return peaks;
}

}  // namespace nscd
