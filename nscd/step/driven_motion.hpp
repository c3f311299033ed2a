#pragma once
/// @file
/// Prescribed motion of a driven body (docs/scene_format.md, `motion.velocity`): a velocity history
/// v(t) = d f(t) along a fixed direction d (or a constant vector), and its integral
///
///  (1) Δx(t) = ∫₀ᵗ v(s) ds
///
/// evaluated exactly for each form, so a driven body's position has no time-stepping error:
///  - constant:  v = c,                                      Δx = c t;
///  - sine:      v = A sin(ω (t − t₀) + φ) for t > t₀, else 0; Δx = A/ω (cos φ − cos(ω(t − t₀) + φ)).
///
/// Tables: samples (t_k, f_k), k = 0 … n, values multiplied by `scale`, s_k = (f_{k+1} − f_k) /
/// (t_{k+1} − t_k) the slope on [t_k, t_{k+1}], τ = t − t_k. The tabulated quantity is linear
/// between samples and the others are its exact derivatives and integrals; x(t) below is the
/// displacement from the first sample time, and Δx(t) = x(t) − x(0):
///
///  - acceleration (a recorded accelerogram, the body at rest until t₀):
///    (2) a = f_k + s_k τ,   v = V_k + f_k τ + s_k τ²/2,   x = X_k + V_k τ + f_k τ²/2 + s_k τ³/6,
///        V_0 = X_0 = 0, V_{k+1}, X_{k+1} the values at the interval's end; before t₀ a = v = 0;
///        after t_n a = 0 and v = V_n (the record has ended: the body keeps its last velocity).
///  - velocity:
///    (3) v = f_k + s_k τ,   x = X_k + f_k τ + s_k τ²/2,   a = s_k,
///        v held at f_0 before t₀ and at f_n after t_n (a = 0 there).
///  - displacement:
///    (4) x = f_k + s_k τ,   v = s_k,   a = 0 between samples,
///        x held at f_0 before t₀ and at f_n after t_n (v = 0 there). The velocity jumps by
///        s_k − s_{k−1} at each sample: the acceleration is impulsive there.
///
/// No baseline correction is applied to accelerograms: a record whose integral drifts makes the
/// table drift.

#include "nscd/core/math.hpp"

#include <array>
#include <vector>

namespace nscd {

/// The largest magnitudes of a prescribed motion over [0, T] (units m/s², m/s, m, or rad/s²,
/// rad/s, rad).
struct MotionPeaks {
  double acceleration = 0;   // outside the jumps
  double velocity = 0;
  double displacement = 0;   // of Δx(t)
  double velocity_jump = 0;  // the largest jump of v (a displacement table's samples, a sine's phase at t₀)
};

class DrivenMotion {
 public:
  /// The tabulated quantity of a table: eq. (2), (3) or (4).
  enum class TableQuantity { Velocity, Acceleration, Displacement };

  /// v(t) = `value`.
  static DrivenMotion constant(const Vec3& value);
  /// v(t) = A sin(ω (t − t₀) + φ) d for t > t₀, else 0.
  /// @pre `direction` is a unit vector, ω > 0.
  static DrivenMotion sine(const Vec3& direction, double amplitude, double angular_frequency, double start,
                           double phase);
  /// Samples (t_k, f_k) of `quantity` along `direction`, eqs. (2)–(4) (values already scaled).
  /// @pre `direction` is a unit vector; at least two samples, times strictly increasing.
  static DrivenMotion table(TableQuantity quantity, const Vec3& direction, const std::vector<double>& times,
                            const std::vector<double>& values);

  /// a(t) = dv/dt between jumps [m/s² or rad/s²].
  Vec3 acceleration(double t) const;
  /// v(t) [m/s or rad/s] (at a jump of v, its value just after t).
  Vec3 velocity(double t) const;
  /// Δx(t) of eq. (1) [m or rad].
  Vec3 displacement(double t) const;
  /// The peaks over 0 ≤ t ≤ `duration`, exact (the extrema of eqs. 2–4 and of the sine are at
  /// the ends of the pieces or at roots of their derivatives).
  MotionPeaks peaks(double duration) const;

 private:
  DrivenMotion() = default;  // through the three forms above

  // a table's x(t) on one piece: x = c₀ + c₁ τ + c₂ τ² + c₃ τ³, τ = t − start
  struct Piece {
    double start = 0;
    std::array<double, 4> c{};
  };
  // the piece holding t: the one before the first sample for t < t₀
  const Piece& piece(double t) const;
  // along the direction: x(t) − x(0) and its derivatives
  double table_displacement(double t) const;
  double table_velocity(double t) const;
  double table_acceleration(double t) const;
  MotionPeaks table_peaks(double duration) const;
  MotionPeaks sine_peaks(double duration) const;

  enum class Form { Constant, Sine, Table };
  Form m_form = Form::Constant;
  Vec3 m_value = Vec3::Zero();      // constant
  Vec3 m_direction = Vec3::UnitX();
  double m_amplitude = 0, m_omega = 0, m_start = 0, m_phase = 0;  // sine
  bool m_velocity_jumps = false;    // table of displacement, eq. (4)
  std::vector<Piece> m_pieces;      // table: before t₀, then one per sample (the last one after t_n)
};

}  // namespace nscd
