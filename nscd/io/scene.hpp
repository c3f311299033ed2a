#pragma once
/// @file
/// A scene file (docs/scene_format.md) after parsing and validation: plain data, SI units, every
/// default filled in explicitly. read_scene() is the only producer; build_model() (build_model.hpp)
/// turns it into the immutable Model and the initial State of nscd/step.

#include "nscd/core/math.hpp"
#include "nscd/step/body_kind.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/solver_result.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace nscd::io {

struct TimeSettings {
  double step = 0.0;                     // h [s] > 0
  double duration = 0.0;                 // [s] > 0
  std::optional<double> output_interval; // [s]; exclusive with output_every
  std::optional<int> output_every;       // [steps]; neither given: every step
};

struct SolverSettings {
  solvers::SolverType type = solvers::SolverType::Auto;  // solvers::step_solver_names() (solvers/solve.hpp)
  std::string local_solver = "alart_curnier";  // nlgs: alart_curnier | jean_moreau | de_saxce
  std::string ccp_method = "apgd";  // ccp: apgd | pgs
  bool correction = true;           // ccp: fixed point on s = μ‖u_T‖, exact Coulomb (false: CCP relaxation)
  int facets = 8;                   // lcp: facets of the friction pyramid, ≥ 3
  std::string lcp_method = "auto";  // lcp: auto | lemke | pgs
  double tolerance = 1e-6;        // on the error measure of solvers/error_measure.hpp
  solvers::ErrorScaling error_measure = solvers::ErrorScaling::Velocity;  // its impulses' scale, eq. (1)
  int max_iterations = 1000;
  int min_iterations = 1;         // auto, nlgs: sweeps before the stopping test may end a step's solve
  double relaxation = 1.0;        // ω ∈ (0, 2)
  int anderson_depth = 3;         // nlgs, auto, Algorithm 1, position projection: sweeps mixed by solvers/anderson_mixing.hpp (0: none)
  double inner_tolerance = 1e-6;  // FFR/TL inner loop
  int inner_max_iterations = 50;
  bool fail_on_divergence = false; // non-convergence stops the run with exit code 3
  std::optional<int> dump_every;  // write the contact problem of every n-th step to FCLIB files
};

struct DetectionSettings {
  std::optional<double> alert_distance;  // [m]; unset: 1e-2 × the smallest body size
  std::optional<double> max_penetration; // [m]; a run warns when an active contact overlaps deeper; unset: never
};

/// Options of the floating-frame-of-reference model (all FFR bodies).
struct FfrSettings {
  bool fictitious_forces = true;  // false: F_rot = 0, the variant of [Lozovskiy & Dubois 2016] Fig. 7
  std::optional<int> modes;       // ≥ 0, `nscd run --modes`: every ffr body's, over the bodies' and materials'
  std::optional<bool> joint_correction;  // `nscd run --static-correction joints|none`: every ffr body's, likewise
  std::optional<bool> shape_contact;     // `nscd run --contact-surface shape|mesh`: every ffr body's, likewise
  std::optional<bool> damp_unresolved;   // `nscd run --unresolved-modes backward_euler|trapezoidal`: likewise
};

/// The automatic tetrahedral meshing of rigid shapes simulated as ffr, tl or linear (shape_mesh.hpp).
struct MeshingSettings {
  std::optional<double> size;  // [m] > 0, bodies without "mesh_size"; unset: a quarter of each body's smallest width
};

struct Material {
  double density = 0.0;               // [kg/m³] > 0
  std::optional<double> young;        // [Pa]
  std::optional<double> poisson;
  double damping_mass = 0.0;          // Rayleigh α [1/s]
  double damping_stiffness = 0.0;     // Rayleigh β [s]
  std::optional<int> modes;           // ≥ 0, elastic modes kept by its ffr bodies (0: full FFR)
  std::optional<bool> joint_correction;  // "static_correction": "joints" (true) or "none", of its modal ffr bodies
  std::optional<bool> shape_contact;     // "contact_surface": "shape" (true) or "mesh", of its ffr bodies
  std::optional<bool> damp_unresolved;   // "unresolved_modes": "backward_euler" (true) or "trapezoidal", of its modal ffr bodies
};

/// Contact law between two materials (or the "default" one).
struct Interaction {
  std::string material_a, material_b;  // both "default" for the default interaction
  double friction = 0.0;               // μ ≥ 0
  double restitution = 0.0;            // Newton e ∈ [0, 1]
  double rolling_resistance = 0.0;     // μ_r ≥ 0 (nscd/step/rolling_resistance.hpp)
  double tensile_strength = 0.0;       // f_t ≥ 0 [Pa] of bonded contacts (nscd/step/cohesion.hpp)
  double cohesion = 0.0;               // c ≥ 0 [Pa] of bonded contacts
  std::optional<double> residual_friction;  // μ_res ≥ 0 of broken bonds; unset: friction
};

struct BoxShape { Vec3 size; };
struct SphereShape { double radius = 0.0; };
struct ConvexShape { std::vector<Vec3> vertices; };  // world coordinates as written
struct MeshShape { std::filesystem::path file; };    // resolved against the scene's folder
using ShapeSpec = std::variant<BoxShape, SphereShape, ConvexShape, MeshShape>;

/// A prescribed velocity history v(t) (docs/scene_format.md, motion.velocity).
struct Motion {
  enum class Type { Constant, Sine, Table };
  enum class Quantity { Velocity, Acceleration, Displacement };
  Type type = Type::Constant;
  Vec3 value = Vec3::Zero();          // constant
  Vec3 direction = Vec3::UnitX();     // sine, table (unit vector)
  double amplitude = 0.0;             // sine [m/s]
  double angular_frequency = 0.0;     // sine [rad/s]
  double start = 0.0;                 // sine: zero before start [s]
  double phase = 0.0;                 // sine [rad]
  Quantity quantity = Quantity::Velocity;  // table
  double scale = 1.0;                 // table
  std::vector<double> times, values;  // table, strictly increasing times, as read (CSV) or in m/s² (.AT2)
  std::filesystem::path file;         // table file (for messages)
};

struct Body {
  std::string name;
  BodyKind model = BodyKind::Rigid;
  std::string material;
  ShapeSpec shape;
  std::optional<std::array<int, 3>> elements;  // hexahedra of a box with a finite-element model
  std::optional<double> mesh_size;  // [m] > 0, tetrahedra of a convex, sphere or box without elements (ffr, tl, linear)
  std::optional<int> modes;         // ≥ 0, elastic modes kept as an ffr body (0: full FFR); wins over the material's
  std::optional<bool> joint_correction;  // "static_correction": "joints" (true) or "none"; wins over the material's
  std::optional<bool> shape_contact;     // "contact_surface": "shape" (true) or "mesh"; wins over the material's
  std::optional<bool> damp_unresolved;   // "unresolved_modes": "backward_euler" (true) or "trapezoidal"; likewise
  std::optional<Vec3> position;                // centre of mass [m]; unset: where the shape is written
  Quat orientation = Quat::Identity();
  Vec3 velocity = Vec3::Zero();
  Vec3 angular_velocity = Vec3::Zero();
  std::optional<Motion> motion_velocity;         // driven
  std::optional<Motion> motion_angular_velocity; // driven, optional
};

struct Probe {
  std::string name;
  std::string body;
  std::optional<Vec3> point;                          // initial configuration, world
  std::optional<std::pair<Vec3, Vec3>> region;        // min, max
};

/// The time factor f(t) of a load (docs/scene_format.md, Loads).
struct LoadTime {
  enum class Type { Constant, Ramp, Table };
  Type type = Type::Constant;
  double start = 0.0, end = 0.0;      // ramp: 0 before start, 1 after end [s], end > start
  std::vector<double> times, values;  // table, strictly increasing times
  std::filesystem::path file;         // table file (for messages)
};

/// An applied load, world frame (docs/scene_format.md, Loads).
struct Load {
  std::vector<std::string> bodies;  // in scene order; not fixed or driven; rigid unless acceleration alone
  Vec3 force = Vec3::Zero();        // [N]
  Vec3 moment = Vec3::Zero();       // [N m]
  Vec3 acceleration = Vec3::Zero(); // [m/s²], as the force m a on each body
  LoadTime time;
};

/// The contact model (docs/scene_format.md, Contact): the non-smooth law, or penalty contact.
struct ContactSettings {
  bool penalty = false;
  std::optional<double> stiffness;                // k_n [N/m], required with penalty
  double damping = 0.0;                           // c_n [N s/m]
  std::optional<double> regularisation_velocity;  // v_ε [m/s]; default h μ_max |g|
};

struct OutputSettings {
  bool vtk = true;
  bool csv = true;
};

struct Scene {
  std::filesystem::path file;     // as given
  std::string name;               // default: the file's stem
  std::string description;        // free text, optional
  TimeSettings time;
  double theta = 0.5;             // θ ∈ [0.5, 1]
  bool projection = true;         // the position projection after each step
  ContactSettings contact;
  Vec3 gravity = Vec3(0, 0, -9.81);
  SolverSettings solver;
  DetectionSettings detection;
  FfrSettings ffr;
  MeshingSettings meshing;
  std::map<std::string, Material> materials;
  std::vector<Interaction> interactions;
  std::vector<Body> bodies;
  std::vector<Probe> probes;
  std::vector<Load> loads;
  OutputSettings output;
};

/// Reads and validates a scene file.
/// @throws nscd::InputError naming the file, the JSON path (e.g. `bodies[3].shape.box`), the
///         line and column where known, and what was expected.
Scene read_scene(const std::filesystem::path& file);

/// Reads and validates the scene file text `text` as if it were the content of `file`: the
/// messages name `file`, its folder resolves relative mesh and table files, its stem is the
/// default name (the Python module's scenes built as dictionaries).
/// @throws nscd::InputError as read_scene.
Scene read_scene_text(std::string text, const std::filesystem::path& file);

}  // namespace nscd::io
