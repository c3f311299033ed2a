#pragma once
/// @file
/// The scales of a scene, reported by `nscd validate` (in full) and at the start of `nscd run`
/// (in short) so that a unit mistake shows before a run: each body's mass and size, the time
/// step against the scene's time scales, and warnings for implausible values.
///
/// Time scales, for the time step h, gravity g, the run's duration T and alert distance d:
///  - free fall in one step from rest, g h²/2, against d (more: a body falls past the alert
///    distance in its first step, the step is coarse for the scene's lengths);
///  - after falling for the whole run, v = g T, a body moves g T h per step (reported);
///  - for each ffr, tl or linear body, the highest natural frequency ω_max of M⁻¹ K (undamped,
///    small strain), estimated from below by power iterations, and h ω_max.

#include "ffr/ffr_body.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/model.hpp"

#include <string>
#include <vector>

namespace nscd::io {

struct SceneChecks {
  std::vector<std::string> lines;     // the facts, one line each, without indentation
  std::vector<std::string> warnings;  // implausible values, each naming the bound and why
};

/// The report above. With `per_body`, one line per body (mass, bounding box in the body frame
/// or radius) and per finite-element body (ω_max); otherwise the smallest and largest over the
/// bodies. Warnings are grouped by kind, naming a few bodies or materials.
SceneChecks check_scene(const Model& m, const Scene& scene, bool per_body);

/// ω_max [rad/s] of the generalised problem K x = ω² M x of `body`: the Rayleigh quotient after
/// 30 power iterations on M⁻¹ K (M solved by conjugate gradients; M is well conditioned). It is a
/// lower bound that reaches the top of the spectrum's highest cluster within a few per cent.
/// Of a modal body, its highest kept ω_k, exactly.
double highest_natural_frequency(const ffr::FfrBody& body);

/// `"a", "b", "c", … and k more`: the first `shown` names quoted, then the count of the others.
std::string name_list(const std::vector<std::string>& names, std::size_t shown = 5);

}  // namespace nscd::io
