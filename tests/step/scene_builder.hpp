#pragma once
// Small scenes built in code for the physics tests (the same structures io::read_scene fills).

#include "nscd/io/build_model.hpp"
#include "nscd/io/output_frames.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace nscd::test {

/// A scene with one material "stone" of the given density, an interaction stone–stone, no bodies.
inline io::Scene make_scene(double h, double duration, double density, double friction, double restitution) {
  io::Scene scene;
  scene.file = "test.json";
  scene.name = "test";
  scene.time.step = h;
  scene.time.duration = duration;
  scene.materials["stone"].density = density;
  io::Interaction& stone = scene.interactions.emplace_back();
  stone.material_a = stone.material_b = "stone";
  stone.friction = friction;
  stone.restitution = restitution;
  return scene;
}

/// make_scene with the paper's stone [Lozovskiy & Dubois 2016] §4: ρ = 2500, E = 35 GPa,
/// ν = 0.2, solver tolerances 1e-8 (outer) and 1e-10 (inner).
inline io::Scene stone_scene(double h, double duration, double friction) {
  io::Scene scene = make_scene(h, duration, 2500.0, friction, 0.0);
  io::Material& stone = scene.materials["stone"];
  stone.young = 35e9;
  stone.poisson = 0.2;
  scene.solver.tolerance = 1e-8;
  scene.solver.inner_tolerance = 1e-10;
  return scene;
}

/// Appends a body of material "stone" with the given shape, centred at `position`.
inline io::Body& add_body(io::Scene& scene, const std::string& name, BodyKind model, const io::ShapeSpec& shape,
                          const Vec3& position, const Quat& orientation = Quat::Identity()) {
  io::Body body;
  body.name = name;
  body.model = model;
  body.material = "stone";
  body.shape = shape;
  body.position = position;
  body.orientation = orientation;
  scene.bodies.push_back(body);
  return scene.bodies.back();
}

inline io::Body& add_box(io::Scene& scene, const std::string& name, BodyKind model, const Vec3& size,
                         const Vec3& position, const Quat& orientation = Quat::Identity()) {
  return add_body(scene, name, model, io::BoxShape{size}, position, orientation);
}

inline io::Body& add_sphere(io::Scene& scene, const std::string& name, BodyKind model, double radius,
                            const Vec3& position) {
  return add_body(scene, name, model, io::SphereShape{radius}, position);
}

/// Shortening of a block along z from its nodal displacements psi (3 per node, body frame): the
/// mean vertical displacement of the nodes of its bottom face (z < −z_face) minus that of its top
/// face (z > z_face), and that bottom mean through `bottom_mean`.
inline double shortening_z(const std::vector<Vec3>& nodes, const Eigen::VectorXd& psi, double z_face,
                           double& bottom_mean) {
  double top = 0, bottom = 0;
  int n_top = 0, n_bottom = 0;
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const double psi_z = psi[3 * static_cast<Eigen::Index>(k) + 2];
    if (nodes[k].z() > z_face) top += psi_z, ++n_top;
    if (nodes[k].z() < -z_face) bottom += psi_z, ++n_bottom;
  }
  bottom_mean = bottom / n_bottom;
  return bottom_mean - top / n_top;
}

/// Model, state and workspace of a scene, stepped by the tests.
struct Simulation {
  explicit Simulation(const io::Scene& scene) : model(io::build_model(scene)), state(io::initial_state(model, scene)) {}
  StepReport advance() { return step(model, state, workspace); }
  Model model;
  State state;
  StepWorkspace workspace;
};

/// Steps sim to its end and returns the largest |d_x(t) − (t + sin ωt)| of its first probe: the
/// x displacement of a point at distance 1 from the axis of a body moving at unit speed along x
/// while turning at ω about y ([Lozovskiy & Dubois 2016] §4.1).
inline double worst_rotating_probe_deviation(Simulation& sim, double omega) {
  double worst = 0;
  for (long n = 0; n < sim.model.n_steps; ++n) {
    EXPECT_EQ(sim.advance().status, StepStatus::Ok);
    const double t = sim.state.t;
    const double dx = io::probe_rows(sim.model, sim.state)[0].u.x();
    worst = std::max(worst, std::abs(dx - (t + std::sin(omega * t))));
  }
  return worst;
}

}  // namespace nscd::test
