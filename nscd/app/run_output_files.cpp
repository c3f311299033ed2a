#include "nscd/app/run_output_files.hpp"

#include "nscd/app/output_directory.hpp"
#include "nscd/core/error.hpp"
#include "nscd/core/logger.hpp"
#include "nscd/core/timer.hpp"
#include "nscd/io/checkpoint.hpp"
#include "nscd/io/fclib_file.hpp"
#include "nscd/io/output_frames.hpp"
#include "nscd/step/contact_problem.hpp"
#include "nscd/step/strain_check.hpp"

#include <algorithm>

namespace nscd::app {
namespace {

// checkpoints kept in the output directory, the newest ones
constexpr int kCheckpointsKept = 3;

io::OutputWriter open_writer(const Model& m, const RunOutputOptions& o, const io::OutputPosition* resume) {
  if (!resume) prepare_output_directory(o.dir, o.overwrite);  // a restart continues the output in dir
  return io::OutputWriter(o.dir, m.name, m.output_vtk, m.output_csv, resume);
}

// the small-strain models beyond their range, checked at output times only (a pass over the
// cells, as the output's stresses are)
void warn_large_strain_once(RunDiagnostics& d, const Model& m, const State& s) {
  if (d.strain_warned) return;
  const BodyStrain worst = largest_small_strain(m, s);
  if (worst.body < 0 || worst.strain <= kSmallStrainLimit) return;
  d.strain_warned = true;
  logger().warn("t = {}: body \"{}\" (model {}) reaches a strain of {:.3g} % (largest principal strain over its "
                "cells), beyond the 1 % where its small-strain model holds; model \"tl\" does not have this limit "
                "(further occurrences are not reported)",
                s.t, m.bodies[worst.body].name, to_string(m.bodies[worst.body].kind), 100 * worst.strain);
}

// the step's contact problem and solution, replayable with `nscd solve` (a step without
// contacts has no problem: FCLIB cannot store an empty one); with cohesive bonds, the shifted
// problem solved and its solution r̃ = r + s (nscd/step/cohesion.hpp eq. (3))
void dump_problem(const Model& m, const RunOutputOptions& o, const State& s, const StepWorkspace& ws) {
  const StepContacts& contacts = ws.contacts;
  if (!o.dump_every || s.step % *o.dump_every != 0 || contacts.problem.nc() == 0) return;
  // with the body form when the step had one (rigid bodies, solver auto): a global problem
  io::write_fclib_solution(o.dir / fmt::format("problem_{:06d}.hdf5", s.step), assembled_copy(m, ws),
                           contacts.cohesion_shift.size() == 0 ? contacts.solution.r
                                                               : Eigen::VectorXd(contacts.solution.r + contacts.cohesion_shift),
                           contacts.solution.u,
                           contacts.has_body_form() ? &contacts.body_form : nullptr);
}

// run.json's entries as the run ends
void record_end(nlohmann::json& run, const StepReport& report, const State& s, const RunDiagnostics& d,
                const StepTimings& timings, double output_seconds, double wall) {
  run["status"] = to_string(report.status);
  if (!report.message.empty()) run["message"] = report.message;
  run["steps"] = s.step;
  run["simulated_time"] = s.t;
  run["non_converged_steps"] = d.non_converged;
  run["solver_stages"] = d.stage_steps;
  run["solver_factorizations"] = d.factorizations;
  run["max_penetration"] = {{"deepest", d.deepest},
                            {"time", d.deepest_time},
                            {"bound", d.bound ? nlohmann::json(*d.bound) : nlohmann::json(nullptr)},
                            {"steps_over_bound", d.over_bound}};
  run["wall_seconds"] = wall;
  run["stage_seconds"] = {{"free_motion", timings.free_motion},
                          {"detection", timings.detection},
                          {"assembly", timings.assembly},
                          {"solve", timings.solve},
                          {"update", timings.update},
                          {"output", output_seconds}};
}

}  // namespace

io::Checkpoint read_run_checkpoint(const std::filesystem::path& file, const Model& m, const std::string& scene_sha256,
                                   const std::filesystem::path& scene) {
  io::Checkpoint c = io::read_checkpoint(file, m);
  NSCD_THROW_UNLESS(c.scene_sha256 == scene_sha256,
                    "{}: the checkpoint was written by a run of another scene (SHA-256 {}), not of {} (SHA-256 {})",
                    file.string(), c.scene_sha256, scene.string(), scene_sha256);
  return c;
}

RunDiagnostics start_diagnostics(const Model& m, const State& s, const io::Checkpoint* restart,
                                 std::optional<double> max_penetration) {
  RunDiagnostics d;
  d.non_converged = restart ? restart->non_converged : 0;
  d.energy = restart ? restart->energy : start_energy_balance(m, s);
  d.bound = max_penetration;
  return d;
}

void note_step(RunDiagnostics& d, const Model& m, const StepStartVelocities& start, const State& s,
               const StepContacts& contacts, const StepReport& report) {
  add_step(d.energy, m, start, s, contacts);
  if (report.solver_status != solvers::SolverStatus::Converged && d.non_converged++ == 0)
    logger().warn("t = {}: the contact solver stopped at error {:.3g} after {} iterations (reported in "
                  "history.csv; further occurrences are counted in run.json)",
                  s.t, report.solver_error, report.solver_iterations);
  if (report.n_contacts > 0) ++d.stage_steps[std::string(solver_stage_name(m, report))];
  d.factorizations += report.solver_factorizations;
  const double step_start_time = static_cast<double>(s.step - 1) * m.step.h;
  if (report.max_penetration > d.deepest) {
    d.deepest = report.max_penetration;
    d.deepest_time = step_start_time;
  }
  if (d.bound && report.max_penetration > *d.bound && d.over_bound++ == 0)
    logger().warn("t = {}: two bodies overlap by {:.3g} m, more than detection.max_penetration = {:.3g} m "
                  "(history.csv has the deepest overlap of every step; further occurrences are counted in run.json)",
                  io::time_text(step_start_time), report.max_penetration, *d.bound);
  if (!report.inner_converged && d.newton_unconverged++ == 0)
    logger().warn("t = {}: the Newton method of a TL body stopped above solver.inner_tolerance after "
                  "solver.inner_max_iterations corrections (further occurrences are not reported)",
                  s.t);
}

RunOutputFiles::RunOutputFiles(const Model& m, const State& s, RunOutputOptions o, const io::OutputPosition* resume,
                               nlohmann::json header)
    : m_m(m), m_o(std::move(o)), m_out(open_writer(m, m_o, resume)), m_run(std::move(header)), m_last_output(s.step) {
  m_out.write_run_json(m_run);
  if (resume) return;
  {
    ScopedTimer timer(&m_seconds);
    const auto is_fixed = [](const BodyModel& b) { return b.kind == BodyKind::Fixed; };
    if (std::any_of(m.bodies.begin(), m.bodies.end(), is_fixed))
      m_out.write_fixed_bodies(io::body_mesh_frame(m, s, true));
  }
  write_frame(s, io::ContactFrame{}, io::JointFrame{s.step, {}});
}

void RunOutputFiles::write_frame(const State& s, const io::ContactFrame& contacts, const io::JointFrame& joints) {
  ScopedTimer timer(&m_seconds);
  m_out.write_output(s.t, io::body_mesh_frame(m_m, s, false), contacts, joints, io::body_rows(m_m, s),
                     io::probe_rows(m_m, s));
  m_last_output = s.step;
}

// the whole state and where the output stands, kept with the last few before it
void RunOutputFiles::write_checkpoint_now(const State& s, const RunDiagnostics& d) {
  ScopedTimer timer(&m_seconds);
  io::write_checkpoint(io::checkpoint_path(m_o.dir, s.step),
                       {m_o.scene_sha256, s, m_out.position(), d.non_converged, d.energy});
  io::keep_last_checkpoints(m_o.dir, kCheckpointsKept);
}

void RunOutputFiles::after_step(const StepStartVelocities& start, const State& s, const StepWorkspace& ws,
                                const StepReport& report, double wall_seconds, RunDiagnostics& d) {
  const StepContacts& contacts = ws.contacts;
  note_step(d, m_m, start, s, contacts, report);
  m_out.append_history(io::history_row(m_m, s, report, wall_seconds, d.energy));
  {
    ScopedTimer timer(&m_seconds);
    dump_problem(m_m, m_o, s, ws);
  }
  if (s.step % m_m.output_every == 0 || s.step == m_m.n_steps) {
    write_frame(s, io::contact_frame(m_m, contacts), io::joint_frame(m_m, s, contacts));
    warn_large_strain_once(d, m_m, s);
  }
  if (m_o.checkpoint_every > 0 && s.step % m_o.checkpoint_every == 0 && s.step < m_m.n_steps)
    write_checkpoint_now(s, d);
}

void RunOutputFiles::finish(const State& s, const StepReport& last, const RunDiagnostics& d,
                            const StepTimings& timings, std::chrono::steady_clock::time_point start) {
  // after a failed step the state is the last finite one; its contacts were overwritten by the failed step
  if (last.status != StepStatus::Ok && s.step != m_last_output)
    write_frame(s, io::ContactFrame{}, io::JointFrame{s.step, {}});
  m_out.flush();
  if (m_o.checkpoint_every > 0) write_checkpoint_now(s, d);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record_end(m_run, last, s, d, timings, m_seconds, wall);
  m_out.write_run_json(m_run);
}

}  // namespace nscd::app
