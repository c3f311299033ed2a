#pragma once
/// @file
/// What one output time writes (docs/output.md), as plain data filled by the stepper and
/// written by output_writer.hpp. Keeping it free of Model/State lets the writers be tested alone.

#include "nscd/core/math.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace nscd::io {

/// Bodies as one polygon/polyhedron mesh in the current configuration.
struct BodyMeshFrame {
  std::vector<Vec3> points;          // current positions [m]
  std::vector<Vec3> velocity;        // per point [m/s]
  std::vector<Vec3> displacement;    // per point, from the initial configuration [m]
  /// cells: VTK cell type and point indices (VTK_POLYGON = 7 for rigid faces, VTK_HEXAHEDRON =
  /// 12, VTK_TETRA = 10 for finite-element meshes)
  std::vector<int> cell_types;
  std::vector<std::vector<int>> cells;
  std::vector<int> cell_body_id;     // per cell
  std::vector<int> cell_model;       // per cell, BodyKind as int
  /// finite-element fields (docs/output.md); each is written only when non-empty, and then
  /// holds one value per point / per cell (zero for rigid bodies)
  std::vector<Vec3> local_displacement;  // per point, in the body frame [m]
  std::vector<double> von_mises;         // per cell [Pa]
};

/// Active contacts at one output time.
struct ContactFrame {
  std::vector<Vec3> points;          // [m]
  std::vector<Vec3> normal;          // unit, from a to b
  std::vector<Vec3> reaction;        // force on b, world frame, impulse / h [N]
  std::vector<double> normal_force;  // [N]
  std::vector<double> tangential_force;  // norm [N]
  std::vector<double> gap;           // [m]
  std::vector<int> status;           // 0 open, 1 stick, 2 slip
  std::vector<int> body_a, body_b;
};

/// One joint (nscd/step/joints.hpp) at one output time, with its resultants
/// (nscd/step/joint_forces.hpp): a cell of joints_NNNNNN.vtp and a row of joints.csv.
struct JointRecord {
  int body_a = 0, body_b = 0;
  std::string name_a, name_b;
  std::vector<Vec3> polygon;                // counter-clockwise about the normal: 1, 2 or ≥ 3 points [m]
  double area = 0;                          // [m²]
  Vec3 centroid = Vec3::Zero();             // [m]
  Vec3 normal = Vec3::UnitZ();              // unit, from a to b
  double normal_force = 0;                  // N, compression positive [N]
  Vec3 shear = Vec3::Zero();                // on b [N]
  Vec3 moment = Vec3::Zero();               // on b, about the centroid [N m]
  Vec3 centre_of_pressure = Vec3::Zero();   // [m]
  Vec3 eccentricity = Vec3::Zero();         // centre of pressure − centroid [m]
  bool inside = true;                       // the centre of pressure lies in the polygon
  double opening = 0;                       // [m]
  Vec3 sliding = Vec3::Zero();              // of b relative to a at the centroid [m/s]
  int state = 0;                            // 0 open, 1 stick, 2 sliding, 3 intact, 4 broken
  std::string_view state_name = "open";
};

/// The joints of the step that ended at one output time.
struct JointFrame {
  long step = 0;
  std::vector<JointRecord> joints;
};

/// One row of history.csv.
struct HistoryRow {
  long step = 0;
  double time = 0, kinetic_energy = 0, potential_energy = 0;
  int n_contacts = 0;
  double max_penetration = 0;  // [m] the deepest overlap −min(g, 0) of the active contacts at the start of the step
  int solver_iterations = 0;
  double solver_error = 0;
  int inner_iterations = 0;
  std::string_view solver_stage = "nlgs";  // the solver that finished the step (auto: its stage)
  int solver_factorizations = 0;           // sparse factorisations of the step's solve
  /// the energy balance (nscd/step/energy_balance.hpp): energies of the state, flows since t = 0 [J]
  double gravitational_energy = 0, elastic_energy = 0;
  double friction_dissipated = 0, impact_dissipated = 0, damping_dissipated = 0;
  double driven_work = 0, load_work = 0, projection_work = 0, energy_error = 0;
  long bonds_intact = 0, bonds_broken = 0;  // cohesive bonds: intact now, broken since t = 0
  double wall_seconds = 0;  // last: the one column no two runs share
};

/// One row of bodies.csv.
struct BodyRow {
  std::string body;
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
  Vec3 v = Vec3::Zero(), w = Vec3::Zero();
};

/// One row of probes.csv.
struct ProbeRow {
  std::string probe;
  Vec3 x = Vec3::Zero();   // current position [m]
  Vec3 u = Vec3::Zero();   // displacement from the initial configuration [m]
};

}  // namespace nscd::io
