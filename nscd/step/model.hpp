#pragma once
/// @file
/// The immutable description of a simulation (MuJoCo's mjModel): bodies' mass properties and
/// shapes, contact laws, time-stepping and solver parameters. Built once by build_model() from
/// a parsed scene; never modified while stepping.

#include "contact/shape.hpp"
#include "nscd/core/math.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/driven_motion.hpp"
#include "solvers/nlgs.hpp"

#include <optional>
#include <string>
#include <vector>

namespace nscd {

/// How a body moves.
enum class BodyKind { Rigid, Fixed, Driven };

/// One rigid, fixed or driven body. The body frame B has its origin at the centre of mass.
struct BodyModel {
  std::string name;
  BodyKind kind = BodyKind::Rigid;
  io::BodyModel scene_model = io::BodyModel::Rigid;  // as written in the scene (for output)
  int material = 0;          // index into Model::material_names
  double mass = 0.0;         // [kg]; 0 for fixed and driven bodies
  Mat3 inertia_B = Mat3::Zero();      // about the centre of mass, body frame [kg m²]
  Mat3 inv_inertia_B = Mat3::Zero();  // its inverse (zero for fixed and driven bodies)
  double bounding_radius = 0.0;       // [m]
  Vec3 x0 = Vec3::Zero();             // initial centre of mass [m]
  Quat q0 = Quat::Identity();         // initial orientation
  std::optional<DrivenMotion> linear_motion;   // driven: v(t)
  std::optional<DrivenMotion> angular_motion;  // driven: ω(t), optional
};

/// Contact law of a pair of materials.
struct ContactLaw {
  double friction = 0.0;     // μ
  double restitution = 0.0;  // Newton e
  bool defined = false;      // false: no interaction was given for this pair
};

/// A polygon mesh used only for display (a sphere's tessellation; a polyhedron's faces).
struct DisplayMesh {
  std::vector<Vec3> vertices_B;
  std::vector<std::vector<int>> polygons;
};

/// A probe: the mean of some body-frame points of one body.
struct ProbeModel {
  std::string name;
  int body = 0;
  std::vector<Vec3> points_B;
};

struct StepParameters {
  double h = 1e-3;             // time step [s]
  double theta = 0.5;          // θ ∈ [0.5, 1]
  Vec3 gravity = Vec3(0, 0, -9.81);
  double alert_distance = 0;   // [m]
  double activation_gap = 0;   // contacts with a predicted gap below this are active [m]
  solvers::NlgsOptions nlgs;
  bool fail_on_divergence = false;
};

struct Model {
  std::string name;
  std::vector<BodyModel> bodies;
  std::vector<contact::Shape> shapes;       // per body, body frame
  std::vector<DisplayMesh> display;         // per body, body frame
  std::vector<std::string> material_names;
  std::vector<ContactLaw> laws;             // n_materials², row-major, symmetric
  std::vector<ProbeModel> probes;
  StepParameters step;
  double duration = 0.0;                    // [s]
  long n_steps = 0;                         // round(duration / h)
  long output_every = 1;                    // steps between outputs
  bool output_vtk = true, output_csv = true;

  int nb() const { return static_cast<int>(bodies.size()); }
  const ContactLaw& law(int material_a, int material_b) const {
    return laws[material_a * material_names.size() + material_b];
  }
};

}  // namespace nscd
