#pragma once
/// @file
/// The output directory of a run (docs/output.md): <name>.pvd, bodies_NNNNNN.vtu,
/// contacts_NNNNNN.vtp, joints_NNNNNN.vtp, history.csv, bodies.csv, probes.csv, joints.csv, run.json.
///
/// Every file is written completely or not at all: VTK files, the pvd collection and run.json
/// go to a temporary name and are renamed; CSV files are appended line by line and flushed at
/// each output time, so a stopped run leaves readable files. CSV numbers are written in the
/// shortest decimal form that reads back to the same double (no spaces, no padding), except
/// times: a time t = k h is written, in the CSV files and the pvd collection, as the decimal
/// k × h (time_text), so that 0.03 reads 0.03 and not 0.030000000000000002. The pvd names its
/// parts "bodies", "contacts", "fixed" and "joints".

#include "nscd/io/frame.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace nscd::io {

namespace detail {
struct XmlCache;
}

/// Where the output of a run stands, for a checkpoint: its output times (the pvd entries),
/// whether fixed.vtu is listed, and the sizes of its csv files once flushed, so that a restart
/// continues them from that point (a run stopped after the checkpoint may have written more).
struct OutputPosition {
  std::vector<double> times;
  bool has_fixed = false;
  std::uintmax_t history_bytes = 0, bodies_bytes = 0, probes_bytes = 0, joints_bytes = 0;
};

class OutputWriter {
 public:
  /// Creates `dir` if needed and starts fresh CSV files with their headers, or, with `resume`,
  /// continues the output of `dir` from that position: its csv files cut back to the recorded
  /// sizes, the output index and pvd entries taken from it.
  /// @param vtk, csv  as in the scene's "output" section
  /// @throws nscd::InputError if the directory cannot be created, or if a csv file to resume is
  ///         missing or shorter than recorded.
  OutputWriter(std::filesystem::path dir, std::string scene_name, bool vtk, bool csv,
               const OutputPosition* resume = nullptr);
  OutputWriter(OutputWriter&&) noexcept;
  OutputWriter& operator=(OutputWriter&&) noexcept;
  ~OutputWriter();

  /// Writes bodies_NNNNNN.vtu, contacts_NNNNNN.vtp and joints_NNNNNN.vtp (NNNNNN = output index,
  /// from 0), appends the rows of bodies.csv, probes.csv and joints.csv for time t, and rewrites
  /// the pvd collection.
  void write_output(double t, const BodyMeshFrame& bodies, const ContactFrame& contacts, const JointFrame& joints,
                    const std::vector<BodyRow>& body_rows, const std::vector<ProbeRow>& probe_rows);

  /// Writes fixed.vtu (fixed bodies, written once) and lists it in the pvd at every time.
  void write_fixed_bodies(const BodyMeshFrame& fixed);

  /// Appends one row of history.csv (flushed at the next output or at close).
  void append_history(const HistoryRow& row);

  /// Writes run.json atomically.
  void write_run_json(const nlohmann::json& run) const;

  /// Flushes the CSV files.
  void flush();
  /// Flushes the CSV files and returns where the output stands.
  OutputPosition position();

  const std::filesystem::path& dir() const { return m_dir; }
  int n_outputs() const { return m_n_outputs; }

 private:
  void write_pvd() const;

  std::filesystem::path m_dir;
  std::string m_name;
  bool m_vtk, m_csv;
  bool m_has_fixed = false;
  int m_n_outputs = 0;
  std::vector<double> m_times;
  std::ofstream m_history, m_bodies, m_probes, m_joints;
  std::unique_ptr<detail::XmlCache> m_body_cells;  // the compressed cells of the last bodies_NNNNNN.vtu
};

/// An output time t = k h as the decimal k × h: t rounded to 15 significant digits, trailing
/// zeros dropped ("0.03", "1234567.8901", "2.5e-05"). k × h has at most as many significant
/// digits as k and h together, and the double k·h (two roundings: h, then the product) is within
/// 2.3·10⁻¹⁶ relative of it, inside half a unit of the 15th digit (5·10⁻¹⁶ relative at the
/// least); so when k × h has at most 15 significant digits (h = 1e-4 and k < 10¹⁴, h = 2.5e-5
/// and k < 10¹³) this is k × h exactly, and it reads back to the double nearest k × h.
std::string time_text(double t);

/// Writes `text` to `path` atomically (temporary file in the same folder, then rename).
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace nscd::io
