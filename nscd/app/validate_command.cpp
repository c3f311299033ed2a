#include "nscd/app/commands.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/build_model.hpp"
#include "nscd/step/initial_overlaps.hpp"
#include "nscd/step/stepper.hpp"

#include <cstdio>
#include <map>

namespace nscd::app {

int validate_command(const std::filesystem::path& scene_file) {
  const io::Scene scene = io::read_scene(scene_file);
  const Model m = build_model(scene);
  const State s = initial_state(m, scene);
  check_initial_overlaps(m, s, scene.file.string());

  // bodies by model and degrees of freedom (6 per rigid body, 6 + 3 per node for FFR bodies, 3 per
  // node for TL and linear bodies)
  std::map<std::string, int> by_model;
  long dofs = 0;
  for (const BodyModel& body : m.bodies) {
    ++by_model[io::to_string(body.scene_model)];
    if (body.kind == BodyKind::Rigid) dofs += 6;
    if (body.kind == BodyKind::Ffr) dofs += 6 + m.ffr_bodies[body.deformable].ndof();
    if (is_nodal(body.kind)) dofs += m.tl_bodies[body.nodal].ndof();
  }
  // contacts within the alert distance at t = 0
  std::vector<contact::Pose> poses;
  std::vector<std::uint8_t> movable;
  detection_input(m, s, poses, movable);
  std::vector<contact::ContactPoint> contacts;
  contact::detect_contacts(m.shapes, poses, movable, m.step.alert_distance, contacts);
  DeformableContacts deformable;
  detect_deformable_contacts(m, s, m.step.alert_distance, deformable);

  std::printf("%s: valid scene \"%s\"\n", scene_file.string().c_str(), m.name.c_str());
  std::printf("  bodies: %d (", m.nb());
  const char* separator = "";
  for (const auto& [model, count] : by_model) {
    std::printf("%s%d %s", separator, count, model.c_str());
    separator = ", ";
  }
  std::printf(")\n  degrees of freedom: %ld\n", dofs);
  std::printf("  contacts at t = 0 (alert distance %.3g m): %zu\n", m.step.alert_distance,
              contacts.size() + deformable.points.size());
  std::printf("  time: %ld steps of %g s (%g s), output every %ld steps\n", m.n_steps, m.step.h, m.duration,
              m.output_every);
  std::printf("  solver: %s, tolerance %g, at most %d iterations", scene.solver.type.c_str(),
              solvers::tolerance(m.step.solver), solvers::max_iterations(m.step.solver));
  if (scene.solver.type == "nlgs" && scene.solver.min_iterations > 1)
    std::printf(", at least %d sweeps", scene.solver.min_iterations);
  std::printf("\n");
  return 0;
}

}  // namespace nscd::app
