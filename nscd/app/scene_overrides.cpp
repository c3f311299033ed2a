#include "nscd/app/scene_overrides.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/scene_checks.hpp"

#include <algorithm>
#include <map>

namespace nscd::app {
namespace {

// --model ffr|tl|linear on a scene without finite-element bodies: its rigid bodies cannot be
// meshed (only a box with "elements" or a mesh file can)
std::string unmeshable_bodies(const RunOptions& o, const io::Scene& scene) {
  std::vector<std::string> names;
  for (const io::Body& body : scene.bodies)
    if (body.model == BodyKind::Rigid) names.push_back(body.name);
  if (names.empty())
    return fmt::format("--model {}: {} has no rigid, ffr, tl or linear body to simulate as {}", *o.model,
                       o.scene.string(), *o.model);
  return fmt::format("--model {}: {} has no ffr, tl or linear body, and its {} rigid bodies cannot be meshed "
                     "(only a box with \"elements\" or a \"mesh\" file can): {}",
                     *o.model, o.scene.string(), names.size(), io::name_list(names));
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
    // only finite-element bodies switch; a scene without any would run unchanged under the
    // override's name, so a finite-element override of it is refused
    const bool any_switched = std::any_of(scene.bodies.begin(), scene.bodies.end(), [](const io::Body& body) {
      return has_mesh(body.model);
    });
    if (!any_switched && has_mesh(it->second)) throw InputError(unmeshable_bodies(o, scene));
    for (io::Body& body : scene.bodies)
      if (has_mesh(body.model)) body.model = it->second;
  }
}

}  // namespace nscd::app
