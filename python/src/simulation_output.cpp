#include "python/src/simulation_output.hpp"

#include "nscd/app/output_directory.hpp"
#include "nscd/io/output_frames.hpp"

#include <algorithm>

namespace nscd::python {
namespace {

io::OutputWriter open_writer(const std::filesystem::path& dir, bool overwrite, const Model& m,
                             const io::OutputPosition* resume) {
  if (!resume) app::prepare_output_directory(dir, overwrite);  // a restart continues the output in dir
  return io::OutputWriter(dir, m.name, m.output_vtk, m.output_csv, resume);
}

void write_frame(io::OutputWriter& out, const Model& m, const State& s, const io::ContactFrame& contacts) {
  out.write_output(s.t, io::body_mesh_frame(m, s, false), contacts, io::body_rows(m, s), io::probe_rows(m, s));
}

}  // namespace

SimulationOutput::SimulationOutput(const std::filesystem::path& dir, bool overwrite, const Model& m, const State& s,
                                   const io::OutputPosition* resume, nlohmann::json header)
    : m_out(open_writer(dir, overwrite, m, resume)), m_run(std::move(header)) {
  m_out.write_run_json(m_run);
  if (resume) return;
  const auto is_fixed = [](const BodyModel& b) { return b.kind == BodyKind::Fixed; };
  if (std::any_of(m.bodies.begin(), m.bodies.end(), is_fixed))
    m_out.write_fixed_bodies(io::body_mesh_frame(m, s, true));
  write_frame(m_out, m, s, io::ContactFrame{});
}

void SimulationOutput::after_step(const Model& m, const State& s, const StepContacts& contacts, const StepReport& report,
                                  double wall_seconds, const EnergyBalance& energy) {
  m_out.append_history(io::history_row(m, s, report, wall_seconds, energy));
  if (s.step % m.output_every == 0 || s.step == m.n_steps) write_frame(m_out, m, s, io::contact_frame(m, contacts));
}

void SimulationOutput::close(const State& s, const StepReport& last, long non_converged) {
  if (m_closed) return;
  m_closed = true;
  m_out.flush();
  m_run["status"] = to_string(last.status);
  if (!last.message.empty()) m_run["message"] = last.message;
  m_run["steps"] = s.step;
  m_run["simulated_time"] = s.t;
  m_run["non_converged_steps"] = non_converged;
  m_out.write_run_json(m_run);
}

}  // namespace nscd::python
