#include "nscd/io/output_writer.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/vtk_files.hpp"
#include "nscd/io/vtk_xml.hpp"

#include <spdlog/fmt/fmt.h>

#include <cerrno>
#include <iterator>
#include <system_error>

namespace nscd::io {
namespace fs = std::filesystem;

namespace {

constexpr const char* kHistoryHeader =
    "step,time,kinetic_energy,potential_energy,n_contacts,max_penetration,solver_iterations,solver_error,"
    "inner_iterations,solver_stage,solver_factorizations,"
    "gravitational_energy,elastic_energy,friction_dissipated,impact_dissipated,damping_dissipated,driven_work,"
    "load_work,projection_work,energy_error,bonds_intact,bonds_broken,wall_seconds";
constexpr const char* kBodiesHeader = "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz";
constexpr const char* kProbesHeader = "time,probe,x,y,z,ux,uy,uz";
constexpr const char* kJointsHeader =
    "time,step,body_a,body_b,area,cx,cy,cz,nx,ny,nz,normal_force,shear_x,shear_y,shear_z,shear,moment_x,moment_y,"
    "moment_z,pressure_x,pressure_y,pressure_z,eccentricity_x,eccentricity_y,eccentricity_z,eccentricity,inside,"
    "opening,sliding_x,sliding_y,sliding_z,sliding,state";
constexpr const char* kHistoryFile = "history.csv";
constexpr const char* kBodiesFile = "bodies.csv";
constexpr const char* kProbesFile = "probes.csv";
constexpr const char* kJointsFile = "joints.csv";
constexpr const char* kFixedFile = "fixed.vtu";

// the OS's reason for the last failed call, as text
std::string os_reason(int err) {
  return err != 0 ? std::generic_category().message(err) : std::string("unknown reason");
}

// opens a file for writing from scratch, or throws naming it and the reason
std::ofstream open_for_writing(const fs::path& path, std::ios::openmode mode) {
  errno = 0;
  std::ofstream out(path, mode | std::ios::out | std::ios::trunc);
  if (!out)
    throw InputError(
        fmt::format("cannot open output file '{}': {}", path.string(), os_reason(errno)));
  return out;
}

// a fresh csv file holding only its header line
std::ofstream open_csv(const fs::path& path, const char* header) {
  std::ofstream out = open_for_writing(path, std::ios::openmode{});
  out << header << '\n';
  return out;
}

// an existing csv file cut back to `bytes` and opened for appending, or throws naming it
std::ofstream open_to_continue(const fs::path& path, std::uintmax_t bytes) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec || size < bytes)
    throw InputError(fmt::format("cannot continue output file '{}': {}", path.string(),
                                 ec ? ec.message() : fmt::format("{} bytes, the checkpoint expects at least {}", size, bytes)));
  fs::resize_file(path, bytes, ec);
  if (ec) throw InputError(fmt::format("cannot continue output file '{}': {}", path.string(), ec.message()));
  errno = 0;
  std::ofstream out(path, std::ios::out | std::ios::app);
  if (!out) throw InputError(fmt::format("cannot open output file '{}': {}", path.string(), os_reason(errno)));
  return out;
}

// bodies_000012.vtu and the like
std::string indexed_name(const char* stem, int index, const char* extension) {
  return fmt::format("{}_{:06d}.{}", stem, index, extension);
}

// a csv field, quoted (RFC 4180) only when it holds a comma, a quote or a line break
void append_field(fmt::memory_buffer& out, const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) {
    out.append(text);
    return;
  }
  out.push_back('"');
  for (const char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// ",x,y,z" with the shortest decimal form that reads back to the same double
void append_vec3(fmt::memory_buffer& out, const Vec3& v) {
  fmt::format_to(std::back_inserter(out), ",{},{},{}", v.x(), v.y(), v.z());
}

// the rows of joints.csv for time `time`
void append_joint_rows(fmt::memory_buffer& out, const std::string& time, const JointFrame& frame) {
  for (const JointRecord& j : frame.joints) {
    fmt::format_to(std::back_inserter(out), "{},{},", time, frame.step);
    append_field(out, j.name_a);
    out.push_back(',');
    append_field(out, j.name_b);
    fmt::format_to(std::back_inserter(out), ",{}", j.area);
    append_vec3(out, j.centroid);
    append_vec3(out, j.normal);
    fmt::format_to(std::back_inserter(out), ",{}", j.normal_force);
    append_vec3(out, j.shear);
    fmt::format_to(std::back_inserter(out), ",{}", j.shear.norm());
    append_vec3(out, j.moment);
    append_vec3(out, j.centre_of_pressure);
    append_vec3(out, j.eccentricity);
    fmt::format_to(std::back_inserter(out), ",{},{},{}", j.eccentricity.norm(), j.inside ? 1 : 0, j.opening);
    append_vec3(out, j.sliding);
    fmt::format_to(std::back_inserter(out), ",{},{}\n", j.sliding.norm(), j.state_name);
  }
}

// writes a whole buffer to a csv stream
void write_buffer(std::ofstream& out, const fmt::memory_buffer& buffer) {
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
}

// flushes a stream, or throws naming its file
void flush_checked(std::ofstream& out, const fs::path& path) {
  errno = 0;
  out.flush();
  if (!out) throw Error(fmt::format("cannot write '{}': {}", path.string(), os_reason(errno)));
}

}  // namespace

OutputWriter::OutputWriter(fs::path dir, std::string scene_name, bool vtk, bool csv, const OutputPosition* resume)
    : m_dir(std::move(dir)),
      m_name(std::move(scene_name)),
      m_vtk(vtk),
      m_csv(csv),
      m_body_cells(std::make_unique<detail::XmlCache>()) {
  NSCD_THROW_UNLESS(!m_name.empty(), "output in '{}': the scene name is empty", m_dir.string());

  // the output folder, which may already exist
  std::error_code ec;
  fs::create_directories(m_dir, ec);
  const bool is_directory = !ec && fs::is_directory(m_dir, ec);
  if (!ec && !is_directory) ec = std::make_error_code(std::errc::not_a_directory);
  if (ec)
    throw InputError(
        fmt::format("cannot create output directory '{}': {}", m_dir.string(), ec.message()));

  if (resume != nullptr) {
    m_times = resume->times;
    m_n_outputs = static_cast<int>(m_times.size());
    m_has_fixed = resume->has_fixed;
    if (m_csv) {
      m_history = open_to_continue(m_dir / kHistoryFile, resume->history_bytes);
      m_bodies = open_to_continue(m_dir / kBodiesFile, resume->bodies_bytes);
      m_probes = open_to_continue(m_dir / kProbesFile, resume->probes_bytes);
      m_joints = open_to_continue(m_dir / kJointsFile, resume->joints_bytes);
    }
    return;
  }
  // fresh csv files with their headers
  if (m_csv) {
    m_history = open_csv(m_dir / kHistoryFile, kHistoryHeader);
    m_bodies = open_csv(m_dir / kBodiesFile, kBodiesHeader);
    m_probes = open_csv(m_dir / kProbesFile, kProbesHeader);
    m_joints = open_csv(m_dir / kJointsFile, kJointsHeader);
    flush();
  }
}

OutputWriter::OutputWriter(OutputWriter&&) noexcept = default;
OutputWriter& OutputWriter::operator=(OutputWriter&&) noexcept = default;
OutputWriter::~OutputWriter() = default;

void OutputWriter::write_output(double t, const BodyMeshFrame& bodies, const ContactFrame& contacts,
                                const JointFrame& joints, const std::vector<BodyRow>& body_rows,
                                const std::vector<ProbeRow>& probe_rows) {
  // vtk files of this output time, then the collection that lists them
  if (m_vtk) {
    detail::write_body_mesh(m_dir / indexed_name("bodies", m_n_outputs, "vtu"), bodies, m_body_cells.get());
    detail::write_contacts(m_dir / indexed_name("contacts", m_n_outputs, "vtp"), contacts);
    detail::write_joints(m_dir / indexed_name("joints", m_n_outputs, "vtp"), joints);
  }
  m_times.push_back(t);
  ++m_n_outputs;
  if (m_vtk) write_pvd();
  if (!m_csv) return;

  // one row per body: time, name, position, orientation (w, x, y, z), velocity, angular velocity
  const std::string time = time_text(t);
  fmt::memory_buffer buffer;
  for (const BodyRow& row : body_rows) {
    fmt::format_to(std::back_inserter(buffer), "{},", time);
    append_field(buffer, row.body);
    append_vec3(buffer, row.x);
    fmt::format_to(std::back_inserter(buffer), ",{},{},{},{}", row.q.w(), row.q.x(), row.q.y(),
                   row.q.z());
    append_vec3(buffer, row.v);
    append_vec3(buffer, row.w);
    buffer.push_back('\n');
  }
  write_buffer(m_bodies, buffer);

  // one row per probe: time, name, position, displacement
  buffer.clear();
  for (const ProbeRow& row : probe_rows) {
    fmt::format_to(std::back_inserter(buffer), "{},", time);
    append_field(buffer, row.probe);
    append_vec3(buffer, row.x);
    append_vec3(buffer, row.u);
    buffer.push_back('\n');
  }
  write_buffer(m_probes, buffer);

  // one row per joint
  buffer.clear();
  append_joint_rows(buffer, time, joints);
  write_buffer(m_joints, buffer);
  flush();
}

void OutputWriter::write_fixed_bodies(const BodyMeshFrame& fixed) {
  if (!m_vtk) return;
  detail::write_body_mesh(m_dir / kFixedFile, fixed);
  m_has_fixed = true;
  // earlier output times list it too
  if (m_n_outputs > 0) write_pvd();
}

void OutputWriter::append_history(const HistoryRow& row) {
  if (!m_csv) return;
  fmt::memory_buffer buffer;
  fmt::format_to(std::back_inserter(buffer), "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                 row.step, time_text(row.time), row.kinetic_energy, row.potential_energy, row.n_contacts,
                 row.max_penetration, row.solver_iterations, row.solver_error, row.inner_iterations, row.solver_stage,
                 row.solver_factorizations, row.gravitational_energy, row.elastic_energy, row.friction_dissipated,
                 row.impact_dissipated, row.damping_dissipated, row.driven_work, row.load_work, row.projection_work,
                 row.energy_error, row.bonds_intact, row.bonds_broken, row.wall_seconds);
  write_buffer(m_history, buffer);
}

void OutputWriter::write_run_json(const nlohmann::json& run) const {
  write_file_atomically(m_dir / "run.json", run.dump(2) + '\n');
}

void OutputWriter::flush() {
  if (!m_csv) return;
  flush_checked(m_history, m_dir / kHistoryFile);
  flush_checked(m_bodies, m_dir / kBodiesFile);
  flush_checked(m_probes, m_dir / kProbesFile);
  flush_checked(m_joints, m_dir / kJointsFile);
}

OutputPosition OutputWriter::position() {
  flush();
  OutputPosition p;
  p.times = m_times;
  p.has_fixed = m_has_fixed;
  if (m_csv) {
    p.history_bytes = fs::file_size(m_dir / kHistoryFile);
    p.bodies_bytes = fs::file_size(m_dir / kBodiesFile);
    p.probes_bytes = fs::file_size(m_dir / kProbesFile);
    p.joints_bytes = fs::file_size(m_dir / kJointsFile);
  }
  return p;
}

void OutputWriter::write_pvd() const {
  // one entry per output time and part: 0 bodies, 1 contacts, 2 fixed bodies, 3 joints, each named so
  // that ParaView names the blocks
  fmt::memory_buffer text;
  auto out = std::back_inserter(text);
  fmt::format_to(out,
                 "<?xml version=\"1.0\"?>\n"
                 "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                 "  <Collection>\n");
  const auto append_dataset = [&](const std::string& t, int part, const char* name, const std::string& file) {
    fmt::format_to(out, "    <DataSet timestep=\"{}\" part=\"{}\" name=\"{}\" file=\"{}\"/>\n", t, part, name, file);
  };
  for (int i = 0; i < static_cast<int>(m_times.size()); ++i) {
    const std::string t = time_text(m_times[static_cast<std::size_t>(i)]);
    append_dataset(t, 0, "bodies", indexed_name("bodies", i, "vtu"));
    append_dataset(t, 1, "contacts", indexed_name("contacts", i, "vtp"));
    if (m_has_fixed) append_dataset(t, 2, "fixed", kFixedFile);
    append_dataset(t, 3, "joints", indexed_name("joints", i, "vtp"));
  }
  fmt::format_to(out, "  </Collection>\n</VTKFile>\n");
  write_file_atomically(m_dir / (m_name + ".pvd"), fmt::to_string(text));
}

std::string time_text(double t) {
  // 15 significant digits (DBL_DIG: every decimal of at most 15 digits survives the trip through
  // a double); the general format drops trailing zeros
  return fmt::format("{:.15g}", t);
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  // the whole text goes to path.tmp first
  const fs::path tmp = detail::temporary_path(path);
  std::ofstream out = open_for_writing(tmp, std::ios::binary);
  errno = 0;
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    const int err = errno;
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(fmt::format("cannot write '{}': {}", tmp.string(), os_reason(err)));
  }
  // then replaces path in one step
  detail::commit_temporary(tmp, path);
}

}  // namespace nscd::io
