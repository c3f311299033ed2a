#pragma once
/// @file
/// Fills the plain output records of frame.hpp from the model, the state and the last
/// step's contacts and report (docs/output.md):
///  - bodies as polygons in the current configuration, point velocity v + ω × (p − x) and
///    displacement p − p(t = 0); when the model has finite-element bodies, their local
///    displacement ψ and cell von Mises stress, on each body's own points and cells (zero on
///    the other bodies);
///  - active contacts with the force r / h on body b in the world frame, its normal and
///    tangential parts, and status 0 open (r = 0), 1 stick (‖r_T‖ < μ r_n), 2 slip;
///  - the joints of the step (nscd/step/joints.hpp) with their resultants (joint_forces.hpp);
///  - the rows of history.csv, bodies.csv and probes.csv.

#include "nscd/io/frame.hpp"
#include "nscd/step/active_contacts.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/stepper.hpp"

#include <vector>

namespace nscd::io {

/// The bodies whose kind is (fixed_only ? Fixed : not Fixed) as one polygon mesh.
BodyMeshFrame body_mesh_frame(const Model& m, const State& s, bool fixed_only);

/// The stress at the centre of each cell of finite-element body b (ffr, tl or linear), in the
/// body's frame (FFR: its floating frame; TL and linear: its frame at t = 0) [Pa]: the small-strain
/// stress of ffr/linear_elasticity.hpp eq. (3) (ffr, linear) or the Cauchy stress of
/// ffr/st_venant_kirchhoff.hpp eq. (6) (tl). The output's von Mises stresses are of these.
std::vector<Mat3> cell_stresses(const Model& m, const State& s, int b);

/// The active contacts of a step, with their forces r / h.
ContactFrame contact_frame(const Model& m, const StepContacts& contacts);

/// The joints of a step ending at `s`, with their bodies' names and resultants.
JointFrame joint_frame(const Model& m, const State& s, const StepContacts& contacts);

/// The row of history.csv of the step `report` just made, ending at `s`, with the run's energy
/// balance after that step, at `s` (the kinetic, gravitational and elastic energies are taken from it).
HistoryRow history_row(const Model& m, const State& s, const StepReport& report, double wall_seconds,
                       const EnergyBalance& energy);

/// One row per body for bodies.csv.
std::vector<BodyRow> body_rows(const Model& m, const State& s);

/// One row per probe for probes.csv.
std::vector<ProbeRow> probe_rows(const Model& m, const State& s);

}  // namespace nscd::io
