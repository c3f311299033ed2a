#pragma once
/// @file
/// The scratch of one step (stepper.hpp), owned by the caller and reused from step to step, as
/// MuJoCo's mjData holds its arena: nothing in it survives a step except `contacts`, the step's
/// contact problem and solution (active_contacts.hpp), which output and scripts read.

#include "contact/detection.hpp"
#include "nscd/step/active_contacts.hpp"
#include "nscd/step/contact_jacobian.hpp"
#include "nscd/step/ffr_coupling.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/position_projection.hpp"
#include "nscd/step/rigid_dynamics.hpp"
#include "nscd/step/state.hpp"
#include "nscd/step/tl_coupling.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace nscd {

/// Per-stage wall times [s], accumulated over steps: free_motion is stage 1 (with the free solves
/// of FFR, TL and linear bodies), detection stage 2, assembly stages 3–4 and the initial
/// impulses, solve stage 5, update stages 6–7.
struct StepTimings {
  double free_motion = 0, detection = 0, assembly = 0, solve = 0, update = 0;
};

/// Scratch owned by the caller, reused each step; `contacts` is what the last step solved.
struct StepWorkspace {
  std::vector<contact::Pose> poses;
  std::vector<std::uint8_t> movable;
  std::vector<FreeMotion> free;                 // per body (non-movable: prescribed end velocities)
  std::vector<contact::ContactPoint> detected;  // stage 2 between shapes, sorted by (a, b, feature)
  std::vector<contact::ContactPoint> shape_detected;  // stage 2 between the undeformed shapes of the pairs
                                                     // on the shapes' faces (shape_contacts.hpp), sorted alike
  MeshContacts mesh_detected;                   // stage 2 with FE bodies, sorted alike
  std::vector<FfrStepData> ffr;                 // per FFR body (BodyModel::ffr_index)
  std::vector<TlStepData> tl;                   // per TL or linear body (BodyModel::tl_index)
  std::vector<MeshPoint> mesh_points;           // the mesh sides of the active contacts (ContactJacobian::point)
  contact::DetectionScratch detection_scratch;  // the broad phase's buffers, reused
  StepContacts contacts;                        // stages 3–5: the active contacts, the problem, its solution
  Eigen::VectorXd r0;                           // stage 5's initial impulses
  std::vector<Vec3> next_x, next_v, next_w;     // end-of-step state before it is committed
  std::vector<Quat> next_q;
  std::vector<Eigen::VectorXd> next_psi, next_lambda, next_tl_psi, next_tl_lambda;
  Eigen::VectorXd gap_end;                      // stage 7: linearised end-of-step gaps, per active contact
  std::vector<ProjectedRow> projected_rows;     // stage 7: per active contact
  Eigen::VectorXd P;                            // stage 7: position impulses [kg·m]
  std::vector<Vec6> projection_moves;           // stage 7: Δ[x; φ] per body
  ProjectionResult projection;                  // stage 7: sweeps of the last step
  StepTimings timings;
};

}  // namespace nscd
