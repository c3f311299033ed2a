#pragma once
/// @file
/// The collapse analysis of `nscd collapse` (docs/commands.md): the load multiplier λ at which a
/// structure collapses under the body acceleration
///
///  (1) a = λ |g| d̂   on every rigid and finite-element body (d̂ the unit direction, g gravity),
///
/// found by bisection on runs to rest, the static (kinematic) collapse load of limit analysis
/// for rigid blocks [Heyman 1966]. A trial at λ runs the scene from its initial state with the
/// load (1) ramped from 0 over T_r, then held for T_h, as a load of loads.hpp (eq. 1, time factor
/// "ramp"). The structure stands at λ when every movable body's displacement
///
///  (2) u_b(t) = ‖x_b(t) − x_b(0)‖ + r_b θ_b(t)
///
/// (x_b the centre of mass, θ_b the angle of the rotation from the initial orientation, r_b the
/// bounding radius: an upper bound of its points' displacements) stays ≤ δ up to T_r + T_h; it
/// collapses as soon as one exceeds δ. Defaults, from the movable bodies at t = 0:
///
///  (3) δ = 0.01 D_min,   T_r = 4 T₀,   T_h = 8 T₀,   T₀ = sqrt(L / |g|)
///
/// with D_min = 2 min_b r_b the smallest body's size and L the diagonal of the box holding the
/// movable bodies. A rigid structure below its collapse load does not move at all, and one above
/// it accelerates away (at least linearly for sliding, exponentially for a softening hinge
/// mechanism): with (3), a sliding block at λ = μ (1 + ε) exceeds δ within the hold once
/// ε > 2 δ / (μ |g| T_h²), 3·10⁻⁴ D_min / (μ L).
///
/// The search (bracket_collapse): λ = 0 must stand; then λ = λ₁, 2 λ₁, 4 λ₁ ... up to λ_max
/// until one collapses, then bisection of [λ_lo, λ_hi] until λ_hi − λ_lo ≤ P λ_hi; the result
/// is the midpoint.
///
/// The mechanism of a collapsing trial: the bodies that moved more than δ/20 and the joints
/// (joints.hpp: the interfaces between two bodies in contact at t = 0, rigid, fixed or driven)
/// whose contact points, carried by each body's motion, separated or slipped: a point's opening is the relative displacement along the initial contact normal
/// (positive apart), its slip the tangential part. A joint is "open" when every point opened more
/// than δ/20, a "hinge" when some did, and it "slides" when a point slipped more than δ/20.
///
/// Reference: [Heyman 1966] The stone skeleton, Int. J. Solids Struct. 2, 249–279.

#include "nscd/io/scene.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/stepper.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nscd::app {

/// The fraction of δ beyond which a body moved, or a joint's point opened or slipped, in a mechanism.
inline constexpr double kMechanismFraction = 1.0 / 20.0;

/// The trial parameters of eqs. (2)–(3).
struct CollapseCriterion {
  double displacement = 0;  // δ [m]
  double ramp_time = 0;     // T_r [s]
  double hold_time = 0;     // T_h [s]
  double structure_size = 0;  // L [m], informative
};

/// Eq. (3) for the movable bodies of `m`, built from the scene file `file`.
/// @throws nscd::InputError naming `file` when `m` has no rigid or finite-element body, or no gravity.
CollapseCriterion default_criterion(const Model& m, const std::string& file);

/// `scene` with the load (1) at multiplier λ, ramped over c.ramp_time, appended to its loads and
/// its duration set to T_r + T_h. `direction` need not be normalised (not zero).
io::Scene collapse_scene(const io::Scene& scene, const Vec3& direction, double multiplier,
                         const CollapseCriterion& c);

/// How one joint moved in a trial: the largest and smallest opening and largest slip over its
/// contact points [m], and the mode ("open", "hinge", "slide", "hinge and slide"; empty: closed).
struct JointMotion {
  int a = 0, b = 0;  // bodies, a < b
  double area = 0;                // of its contact polygon at t = 0 [m²] (joints.hpp eq. 1)
  Vec3 centroid = Vec3::Zero();   // of that polygon, world [m]
  double max_opening = 0, min_opening = 0, max_slip = 0;
  std::string mode;
};

struct TrialResult {
  double multiplier = 0;
  bool collapsed = false;
  double time = 0;              // when the trial stopped [s]
  std::vector<double> displacement;  // u_b of eq. (2) at that time, per body (0 for fixed, driven)
  int body = -1;                // the body that moved most
  std::vector<JointMotion> joints;   // the joints that moved (collapsed trials), by (a, b)
  long unconverged_steps = 0;   // steps whose contact solver stopped above solver.tolerance
  StepStatus status = StepStatus::Ok;
  std::string message;          // a failed step's report
};

/// Called after every step of a trial with the step's start velocities, the new state and the
/// workspace holding its contacts.
using TrialObserver =
    std::function<void(const StepStartVelocities&, const State&, const StepWorkspace&, const StepReport&)>;

/// Runs one trial of `m` (built from collapse_scene) from `s0` until a body's displacement exceeds
/// `stop_factor` δ or the trial ends. The result (displacements, joints) is that of the first
/// step past δ.
TrialResult run_trial(const Model& m, const State& s0, double multiplier, const CollapseCriterion& c,
                      const TrialObserver& observe = {}, double stop_factor = 1);

/// u_b of eq. (2) for every body of `m` between states `s0` and `s`.
std::vector<double> body_displacements(const Model& m, const State& s0, const State& s);

/// The search's outcome: the trials in the order run, the bracket and the multiplier.
struct CollapseSearch {
  std::vector<TrialResult> trials;
  double lo = 0;                  // the largest λ that stood
  std::optional<double> hi;       // the smallest λ that collapsed; none: stood up to λ_max
  bool stands_unloaded = true;    // λ = 0 stood
  double multiplier() const { return hi ? 0.5 * (lo + *hi) : lo; }
};

struct SearchOptions {
  double precision = 0.005;   // P
  double first = 0.25;        // λ₁
  double max_multiplier = 10; // λ_max
};

/// The bracketing and bisection described above, `trial` running one trial at λ.
CollapseSearch bracket_collapse(const std::function<TrialResult(double)>& trial, const SearchOptions& o);

}  // namespace nscd::app
