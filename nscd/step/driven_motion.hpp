#pragma once
/// @file
/// Prescribed motion of a driven body (docs/scene_format.md, `motion.velocity`): a velocity history
/// v(t) = d f(t) along a fixed direction d (or a constant vector), and its integral
///
///  (1) Δx(t) = ∫₀ᵗ v(s) ds
///
/// evaluated exactly for each form, so a driven body's position has no time-stepping error:
///  - constant:  v = c,                                      Δx = c t;
///  - sine:      v = A sin(ω (t − t₀) + φ) for t > t₀, else 0; Δx = A/ω (cos φ − cos(ω(t − t₀) + φ));
///  - table of velocity:      v piecewise linear through the samples (held constant outside);
///  - table of acceleration:  samples integrated by the trapezoidal rule from v(t_first) = 0,
///                            then as a velocity table (a recorded accelerogram);
///  - table of displacement:  Δx(t) = x(t) − x(0) piecewise linear, v its slope.
/// Table values are multiplied by `scale`. No baseline correction is applied to accelerograms:
/// a record whose integral drifts makes the table drift.

#include "nscd/core/math.hpp"
#include "nscd/io/scene.hpp"

#include <vector>

namespace nscd {

class DrivenMotion {
 public:
  /// @pre `motion` was validated by io::read_scene (directions unit, tables increasing).
  explicit DrivenMotion(const io::Motion& motion);

  /// v(t) [m/s or rad/s].
  Vec3 velocity(double t) const;
  /// Δx(t) of eq. (1) [m or rad].
  Vec3 displacement(double t) const;

 private:
  // f(t) piecewise linear through (m_times, m_values), held constant outside
  double table_value(double t) const;
  // F(t) = ∫_{t_first}^t f, extended linearly outside the samples
  double table_integral(double t) const;

  io::Motion::Type m_type;
  Vec3 m_value = Vec3::Zero();      // constant
  Vec3 m_direction = Vec3::UnitX();
  double m_amplitude = 0, m_omega = 0, m_start = 0, m_phase = 0;  // sine
  bool m_table_is_displacement = false;
  std::vector<double> m_times, m_values, m_cumulative;  // table
};

}  // namespace nscd
