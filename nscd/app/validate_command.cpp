#include "nscd/app/commands.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/io/scene_checks.hpp"
#include "nscd/step/initial_overlaps.hpp"
#include "nscd/step/stepper.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <map>

namespace nscd::app {

namespace {

// each applied load: its bodies, vectors and the largest time factor over the run
void print_loads(const Model& m) {
  const auto print_vector = [](const char* name, const Vec3& v, const char* unit) {
    if (v != Vec3::Zero()) std::printf(", %s (%g, %g, %g) %s", name, v.x(), v.y(), v.z(), unit);
  };
  for (std::size_t l = 0; l < m.loads.size(); ++l) {
    const LoadModel& load = m.loads[l];
    std::printf("  loads[%zu]: on %zu bod%s", l, load.bodies.size(), load.bodies.size() == 1 ? "y" : "ies");
    print_vector("force", load.force, "N");
    print_vector("moment", load.moment, "N m");
    print_vector("acceleration", load.acceleration, "m/s^2");
    std::printf(", time factor at most %g over the run\n", load.factor.peaks(m.duration).velocity);
  }
}

// each driven body's peak acceleration, velocity and displacement over the run
void print_driven_peaks(const Model& m) {
  for (const BodyModel& body : m.bodies) {
    const auto print = [&](const char* what, const DrivenMotion& motion, const char* unit) {
      const MotionPeaks p = motion.peaks(m.duration);
      std::printf("  driven \"%s\" %s: peak acceleration %.4g %s/s², velocity %.4g %s/s, displacement %.4g %s",
                  body.name.c_str(), what, p.acceleration, unit, p.velocity, unit, p.displacement, unit);
      if (p.velocity_jump > 0)
        std::printf(", velocity jumps up to %.4g %s/s (impulsive acceleration)", p.velocity_jump, unit);
      std::printf("\n");
    };
    if (body.linear_motion) print("velocity", *body.linear_motion, "m");
    if (body.angular_motion) print("angular velocity", *body.angular_motion, "rad");
  }
}

// how many FFR bodies keep how many elastic modes, and the highest kept frequency
void print_modal_reduction(const Model& m) {
  int reduced = 0, fewest = 0, most = 0;
  double omega = 0;
  for (const ffr::FfrBody& f : m.ffr_bodies) {
    if (!f.modes) continue;
    fewest = reduced == 0 ? f.modes->size() : std::min(fewest, f.modes->size());
    most = std::max(most, f.modes->size());
    omega = std::max(omega, std::sqrt(f.modes->omega2.maxCoeff()));
    ++reduced;
  }
  if (reduced == 0) {
    std::printf(", every body on its full mesh\n");
    return;
  }
  const std::string modes = fewest == most ? std::to_string(most) : fmt::format("{} to {}", fewest, most);
  std::printf(", %d of %zu bodies reduced to %s elastic modes (highest kept frequency %.4g rad/s, %.4g Hz)\n",
              reduced, m.ffr_bodies.size(), modes.c_str(), omega, omega / (2 * std::numbers::pi));
}

}  // namespace

int validate_command(const std::filesystem::path& scene_file) {
  const io::Scene scene = io::read_scene(scene_file);
  const Model m = io::build_model(scene);
  const State s = io::initial_state(m, scene);
  check_initial_overlaps(m, s, scene.file.string());

  // bodies by model and degrees of freedom (6 per rigid body, 6 + 3 per node for FFR bodies, 3 per
  // node for TL and linear bodies)
  std::map<std::string, int> by_model;
  long dofs = 0;
  for (int b = 0; b < m.nb(); ++b) {
    ++by_model[to_string(m.bodies[b].kind)];
    dofs += unknowns(m, b);
  }
  // contacts within the alert distance at t = 0
  StepWorkspace detection;
  detect_all(m, s, m.step.alert_distance, detection);

  std::printf("%s: valid scene \"%s\"\n", scene_file.string().c_str(), m.name.c_str());
  std::printf("  bodies: %d (", m.nb());
  const char* separator = "";
  for (const auto& [model, count] : by_model) {
    std::printf("%s%d %s", separator, count, model.c_str());
    separator = ", ";
  }
  std::printf(")\n  degrees of freedom: %ld\n", dofs);
  std::printf("  contacts at t = 0 (alert distance %.3g m): %zu\n", m.step.alert_distance,
              detection.detected.size() + detection.mesh_detected.size());
  std::printf("  time: %ld steps of %g s (%g s), output every %ld steps\n", m.n_steps, m.step.h, m.duration,
              m.output_every);
  const solvers::Stopping& stopping = m.step.solver.stopping();
  std::printf("  solver: %s, tolerance %g, at most %d iterations",
              std::string(solvers::to_string(m.step.solver.type)).c_str(), stopping.tolerance, stopping.max_iterations);
  if (solvers::nlgs_sweeps(m.step.solver) && stopping.min_iterations > 1)
    std::printf(", at least %d sweeps", stopping.min_iterations);
  std::printf("\n");
  if (!m.ffr_bodies.empty()) {
    std::printf("  ffr: rotational fictitious forces %s",
                m.step.fictitious_forces ? "on" : "off (F_rot = 0, ffr.fictitious_forces)");
    print_modal_reduction(m);
  }
  print_loads(m);
  print_driven_peaks(m);

  // masses, sizes and time scales: one line per body for small scenes, the range for large ones
  constexpr int kPerBodyLines = 10;
  const io::SceneChecks checks = io::check_scene(m, scene, m.nb() <= kPerBodyLines);
  for (const std::string& line : checks.lines) std::printf("  %s\n", line.c_str());
  for (const std::string& warning : checks.warnings) std::printf("  warning: %s\n", warning.c_str());
  return 0;
}

}  // namespace nscd::app
