#include "nscd/app/scene_overrides.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/scene_checks.hpp"

#include <algorithm>
#include <map>

namespace nscd::app {
namespace {

// the bodies --model switches: every ffr, tl and linear body and, to a finite-element model,
// every rigid one (its shape is then meshed into tetrahedra); fixed and driven bodies stay
bool switches(const io::Body& body, BodyKind model) {
  return has_mesh(body.model) || (has_mesh(model) && body.model == BodyKind::Rigid);
}

// a finite-element model needs the elastic constants of the switched bodies' materials, and
// forces and moments act on rigid bodies only
void check_finite_element_override(const RunOptions& o, const io::Scene& scene, BodyKind model) {
  std::map<std::string, std::vector<std::string>> bodies_of;  // material without young or poisson → bodies
  for (const io::Body& body : scene.bodies) {
    const io::Material& material = scene.materials.at(body.material);
    if (switches(body, model) && (!material.young || !material.poisson)) bodies_of[body.material].push_back(body.name);
  }
  if (!bodies_of.empty()) {
    const auto& [name, bodies] = *bodies_of.begin();
    const std::string more = bodies_of.size() > 1 ? fmt::format(" (and {} more materials)", bodies_of.size() - 1) : "";
    throw InputError(fmt::format("--model {}: {} of material \"{}\"{}: the material needs \"young\" [Pa] and "
                                 "\"poisson\" for model {}; add them to \"materials\" in {}, e.g. \"{}\": "
                                 "{{\"density\": {}, \"young\": 3e10, \"poisson\": 0.2}}",
                                 *o.model, io::name_list(bodies), name, more, *o.model, o.scene.string(), name,
                                 scene.materials.at(name).density));
  }
  for (std::size_t k = 0; k < scene.loads.size(); ++k) {
    if (scene.loads[k].force.isZero() && scene.loads[k].moment.isZero()) continue;
    for (const io::Body& body : scene.bodies) {
      const std::vector<std::string>& loaded = scene.loads[k].bodies;
      NSCD_THROW_UNLESS(!switches(body, model) || std::find(loaded.begin(), loaded.end(), body.name) == loaded.end(),
                        "--model {}: loads[{}] applies a force or moment to body \"{}\", and forces and moments act "
                        "on rigid bodies only (a finite-element body takes an \"acceleration\" alone)",
                        *o.model, k, body.name);
    }
  }
  for (std::size_t i = 0; i < scene.interactions.size(); ++i) {
    const io::Interaction& in = scene.interactions[i];
    NSCD_THROW_UNLESS(in.rolling_resistance == 0 && in.cohesion == 0 && in.tensile_strength == 0,
                      "--model {}: interactions[{}] of {} has rolling resistance or cohesion, laws of rigid bodies "
                      "only; remove them to run the scene with finite-element bodies",
                      *o.model, i, o.scene.string());
  }
}

}  // namespace

void apply_overrides(const RunOptions& o, io::Scene& scene) {
  if (o.solver) scene.solver.type = solvers::parse_step_solver(*o.solver, "--solver");
  if (o.duration) {
    NSCD_THROW_UNLESS(*o.duration > 0, "--duration {}: expected a positive time in seconds", *o.duration);
    scene.time.duration = *o.duration;
  }
  if (o.contact) {
    NSCD_THROW_UNLESS(*o.contact == "nscd" || *o.contact == "penalty", "--contact {}: expected nscd or penalty",
                      *o.contact);
    scene.contact.penalty = *o.contact == "penalty";
    NSCD_THROW_UNLESS(!scene.contact.penalty || scene.contact.stiffness,
                      "--contact penalty: {} gives no contact stiffness; add \"contact\": {{\"stiffness\": K}} "
                      "(K in N/m) to the scene", o.scene.string());
  }
  if (o.model) {
    static const std::map<std::string, BodyKind> kModels{
        {"rigid", BodyKind::Rigid}, {"ffr", BodyKind::Ffr}, {"tl", BodyKind::Tl},
        {"linear", BodyKind::Linear}};
    const auto it = kModels.find(*o.model);
    NSCD_THROW_UNLESS(it != kModels.end(), "--model {}: expected rigid, ffr, tl or linear", *o.model);
    const BodyKind model = it->second;
    // a scene without a body to switch would run unchanged under the override's name
    const bool any_switched = std::any_of(scene.bodies.begin(), scene.bodies.end(), [&](const io::Body& body) {
      return switches(body, model);
    });
    NSCD_THROW_UNLESS(any_switched || !has_mesh(model), "--model {}: {} has no rigid, ffr, tl or linear body to "
                      "simulate as {}", *o.model, o.scene.string(), *o.model);
    if (has_mesh(model)) check_finite_element_override(o, scene, model);
    for (io::Body& body : scene.bodies)
      if (switches(body, model)) body.model = model;
  }
  // the FFR options need an ffr body (after --model)
  const bool any_ffr = std::any_of(scene.bodies.begin(), scene.bodies.end(),
                                   [](const io::Body& body) { return body.model == BodyKind::Ffr; });
  if (o.modes) {
    NSCD_THROW_UNLESS(*o.modes >= 0, "--modes {}: expected a number of modes ≥ 0 (0: the full mesh)", *o.modes);
    NSCD_THROW_UNLESS(any_ffr, "--modes {}: {} has no ffr body (add --model ffr)", *o.modes, o.scene.string());
    scene.ffr.modes = *o.modes;
  }
  if (o.static_correction) {
    const std::string& c = *o.static_correction;
    NSCD_THROW_UNLESS(c == "none" || c == "joints", "--static-correction {}: expected none or joints", c);
    NSCD_THROW_UNLESS(any_ffr, "--static-correction {}: {} has no ffr body (add --model ffr)", c, o.scene.string());
    scene.ffr.joint_correction = c == "joints";
  }
  if (o.contact_surface) {
    const std::string& c = *o.contact_surface;
    NSCD_THROW_UNLESS(c == "mesh" || c == "shape", "--contact-surface {}: expected mesh or shape", c);
    NSCD_THROW_UNLESS(any_ffr, "--contact-surface {}: {} has no ffr body (add --model ffr)", c, o.scene.string());
    scene.ffr.shape_contact = c == "shape";
  }
  if (o.unresolved_modes) {
    const std::string& u = *o.unresolved_modes;
    NSCD_THROW_UNLESS(u == "trapezoidal" || u == "backward_euler",
                      "--unresolved-modes {}: expected trapezoidal or backward_euler", u);
    NSCD_THROW_UNLESS(any_ffr, "--unresolved-modes {}: {} has no ffr body (add --model ffr)", u, o.scene.string());
    scene.ffr.damp_unresolved = u == "backward_euler";
  }
}

}  // namespace nscd::app
