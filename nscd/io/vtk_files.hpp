#pragma once
/// @file
/// Internal to nscd::io: the VTK XML files of one output time (docs/output.md), written in
/// binary appended form with zlib compression by vtk_xml.hpp, the blocks compressed in parallel.
///
/// Each file is written to `<file>.tmp` and renamed over `<file>`, so a reader sees either the
/// previous complete file or the new complete file.

#include "nscd/io/frame.hpp"

#include <filesystem>

class vtkObject;

namespace nscd::io::detail {

struct XmlCache;

/// Writes `frame` as a vtkUnstructuredGrid (.vtu): cell data `body_id`, `model` (and
/// `von_mises` if given), point data `velocity`, `displacement` (and `local_displacement`). With
/// a `cache`, the cells and the cell data `body_id` and `model` are compressed only when they
/// differ from those of the last file written with it.
/// @throws nscd::Error if the frame's arrays are inconsistent or the file cannot be written
void write_body_mesh(const std::filesystem::path& path, const BodyMeshFrame& frame, XmlCache* cache = nullptr);

/// Writes `frame` as a vtkPolyData (.vtp) with one vertex cell per contact point and point
/// data `normal`, `reaction`, `normal_force`, `tangential_force`, `gap`, `status`, `body_a`,
/// `body_b`. An empty frame gives a valid file with no points.
/// @throws nscd::Error if the frame's arrays are inconsistent or the file cannot be written
void write_contacts(const std::filesystem::path& path, const ContactFrame& frame);

/// Writes `frame` as a vtkPolyData (.vtp) with two cells per joint: its section (a polygon cell,
/// or a line or a vertex for a joint of two points or one) and a vertex at its centre of pressure,
/// both with the joint's cell data `joint` (its index), `part` (0 section, 1 centre of pressure),
/// `body_a`, `body_b`, `area`, `normal`, `normal_force`, `shear`, `moment`, `eccentricity`,
/// `inside`, `opening`, `sliding`, `state`; point data `thrust`, the resultant force on b at the
/// centres of pressure (zero on the sections' points), for ParaView's Glyph.
/// @throws nscd::Error if a joint has no point or the file cannot be written
void write_joints(const std::filesystem::path& path, const JointFrame& frame);

/// A vtkCallbackCommand callback for a reader's or writer's ErrorEvent and WarningEvent: errors
/// are appended to the std::string passed as client data, warnings are logged, instead of being
/// printed by vtkOutputWindow.
void collect_vtk_message(vtkObject* caller, unsigned long event, void* client, void* call);

/// The temporary name `<path>.tmp` that atomic writes go through.
std::filesystem::path temporary_path(const std::filesystem::path& path);

/// Renames `tmp` over `path` (atomic within one file system); removes `tmp` on failure.
/// @throws nscd::Error naming both paths and the OS reason
void commit_temporary(const std::filesystem::path& tmp, const std::filesystem::path& path);

}  // namespace nscd::io::detail
