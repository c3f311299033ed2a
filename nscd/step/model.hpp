#pragma once
/// @file
/// The immutable description of a simulation (MuJoCo's mjModel): bodies' mass properties and
/// shapes, contact laws, time-stepping and solver parameters. Built once (from a scene file by
/// io::build_model(), nscd/io/build_model.hpp) and never modified while stepping; it knows no file
/// format.

#include "contact/shape.hpp"
#include "ffr/ffr_body.hpp"
#include "ffr/tl_body.hpp"
#include "nscd/core/math.hpp"
#include "nscd/step/body_kind.hpp"
#include "nscd/step/driven_motion.hpp"
#include "nscd/step/face_grid.hpp"
#include "nscd/step/loads.hpp"
#include "nscd/step/surface_search.hpp"
#include "solvers/solve.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace nscd {

/// Per face of a convex shape, the boundary triangles of the body's mesh that lie on it (node
/// indices, counter-clockwise seen from outside), for contact on the shape's faces
/// (shape_contacts.hpp).
using FaceTriangles = std::vector<std::vector<std::array<int, 3>>>;

/// What contact on the faces of an FFR body's convex shape (shape_contacts.hpp) needs besides the
/// shape and the mesh: per face, the boundary triangles on it and their grid (face_grid.hpp); the
/// shape's bounding radius.
struct ShapeFaces {
  FaceTriangles triangles;
  std::vector<FaceGrid> grids;  // grids[f] over triangles[f]
  double radius = 0.0;          // [m]
};

/// One body. The body frame B has its origin at the centre of mass (for an FFR body, the
/// floating frame, whose origin is the centre of mass of the undeformed mesh; for a TL or linear
/// body, the frame of the undeformed mesh at t = 0, which never moves).
struct BodyModel {
  std::string name;
  BodyKind kind = BodyKind::Rigid;
  int material = 0;          // index into Model::material_names
  int ffr_index = -1;       // FFR bodies: index into Model::ffr_bodies and State::psi, lambda
  int tl_index = -1;            // TL, linear bodies: index into Model::tl_bodies and State::tl_psi, tl_lambda
  double mass = 0.0;         // [kg]; 0 for fixed and driven bodies
  Mat3 inertia_B = Mat3::Zero();      // about the centre of mass, body frame [kg m²]
  Mat3 inv_inertia_B = Mat3::Zero();  // its inverse (zero for fixed and driven bodies)
  double bounding_radius = 0.0;       // [m]
  Vec3 x0 = Vec3::Zero();             // initial centre of mass [m]
  Quat q0 = Quat::Identity();         // initial orientation
  std::optional<DrivenMotion> linear_motion;   // driven: v(t)
  std::optional<DrivenMotion> angular_motion;  // driven: ω(t), optional
  ShapeFaces shape_faces;  // FFR bodies in contact on their shape's faces (shape_contacts.hpp);
                           // no triangles: node to surface
  SurfaceSearch surface_search;  // FE bodies: node-to-surface detection's search (surface_search.hpp)
  bool shape_contact() const { return !shape_faces.triangles.empty(); }
};

/// Contact law of a pair of materials; with c > 0 or f_t > 0, the contacts present at t = 0
/// are bonded (cohesion.hpp).
struct ContactLaw {
  double friction = 0.0;     // μ
  double restitution = 0.0;  // Newton e
  bool defined = false;      // false: no interaction was given for this pair
  double rolling_resistance = 0.0;  // μ_r, at contacts with a sphere side (rolling_resistance.hpp)
  double tensile_strength = 0.0;   // f_t [Pa]
  double cohesion = 0.0;           // c [Pa]
  double residual_friction = 0.0;  // μ_res of broken bonds

  bool cohesive() const { return cohesion > 0 || tensile_strength > 0; }
};

/// A polygon mesh used only for display (a sphere's tessellation; a polyhedron's faces).
struct DisplayMesh {
  std::vector<Vec3> vertices_B;
  std::vector<std::vector<int>> polygons;
};

/// A body's display: a mesh, shared by all spheres (the unit sphere's), scaled.
struct BodyDisplay {
  std::shared_ptr<const DisplayMesh> mesh;
  double scale = 1.0;  // body-frame vertex = scale × mesh vertex
};

/// A probe: a weighted mean of material points of one body: body-frame points of a rigid body,
/// or mesh nodes of an FFR, TL or linear body (a region: its nodes, equal weights; a point: the shape
/// functions of the cell holding it).
struct ProbeModel {
  std::string name;
  int body = 0;
  std::vector<Vec3> points_B;     // rigid bodies, equal weights
  std::vector<int> nodes;         // FFR, TL and linear bodies
  std::vector<double> weights;    // FE bodies, aligned with nodes, summing to 1
};

/// Penalty contact (penalty_contact.hpp), the comparison model that replaces the NSCD law.
struct PenaltyLaw {
  double stiffness = 0.0;                 // k_n of one joint [N/m]
  double damping = 0.0;                   // c_n of one joint [N s/m]
  double regularisation_velocity = 0.0;   // v_ε of the regularised Coulomb law [m/s]
};

struct StepParameters {
  double h = 1e-3;             // time step [s]
  double theta = 0.5;          // θ ∈ [0.5, 1]
  Vec3 gravity = Vec3(0, 0, -9.81);
  double alert_distance = 0;   // [m]
  double activation_gap = 0;   // contacts with a predicted gap below this are active [m]
  solvers::SolverOptions solver;  // the contact solver of every step (solvers/solve.hpp)
  solvers::ErrorScaling error_measure = solvers::ErrorScaling::Velocity;  // of the step's problems
  bool fail_on_divergence = false;
  double inner_tolerance = 1e-6;  // FFR Rotator (relative on ω), TL Newton (relative on λ): Algorithm 1 inner loop
  int inner_max_iterations = 50;
  bool fictitious_forces = true;  // FFR: the rotational fictitious forces of eq. (18)
  bool projection = true;         // the position projection after each step (position_projection.hpp)
  std::optional<PenaltyLaw> penalty;  // penalty contact instead of the non-smooth law (no solver)
};

struct Model;

/// The mesh and finite-element constants of body b: Model::ffr_bodies[ffr_index] for an FFR body,
/// Model::tl_bodies[tl_index].fe for a TL or linear body, null for the other kinds.
const ffr::FfrBody* finite_element_body(const Model& m, int b);

/// The number of unknowns of body b: 6 (rigid), 6 + 3 × nodes or 6 + modes (FFR), 3 × nodes (TL, linear),
/// 0 (fixed, driven).
long unknowns(const Model& m, int b);

struct Model {
  std::string name;
  std::vector<BodyModel> bodies;
  std::vector<contact::Shape> shapes;       // per body, body frame
  std::vector<BodyDisplay> display;         // per body, body frame
  std::vector<std::string> material_names;
  std::vector<ContactLaw> laws;             // n_materials², row-major, symmetric
  std::vector<ProbeModel> probes;
  std::vector<LoadModel> loads;             // applied loads on rigid bodies (loads.hpp)
  std::vector<ffr::FfrBody> ffr_bodies;     // FFR bodies' constant matrices (BodyModel::ffr_index)
  std::vector<ffr::TlBody> tl_bodies;       // TL and linear bodies' constants (BodyModel::tl_index)
  StepParameters step;
  double duration = 0.0;                    // [s]
  long n_steps = 0;                         // round(duration / h)
  long output_every = 1;                    // steps between outputs
  bool output_vtk = true, output_csv = true;

  int nb() const { return static_cast<int>(bodies.size()); }
  bool has_meshes() const { return !ffr_bodies.empty() || !tl_bodies.empty(); }
  /// Whether a pair of materials has a cohesive law (cohesion.hpp): else no contact is bonded.
  bool has_cohesion() const {
    return std::any_of(laws.begin(), laws.end(), [](const ContactLaw& law) { return law.cohesive(); });
  }
  const ContactLaw& law(int material_a, int material_b) const {
    return laws[material_a * material_names.size() + material_b];
  }
};

}  // namespace nscd
