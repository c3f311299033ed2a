#pragma once
/// @file The output directory of `nscd run` before a run writes to it: an earlier run's files
/// are never mixed with a new run's (a shorter re-run would otherwise leave stale frames).

#include <filesystem>
#include <vector>

namespace nscd::app {

/// The files in `dir` (not in its subdirectories) that `nscd run` and `nscd collapse` write:
/// run.json, collapse.json, history.csv, bodies.csv, probes.csv, joints.csv, *.pvd, fixed.vtu,
/// bodies_NNNNNN.vtu, contacts_NNNNNN.vtp, joints_NNNNNN.vtp, checkpoint_NNNNNNNNN.h5 and
/// problem_NNNNNN.hdf5, sorted; none if `dir`
/// does not exist.
std::vector<std::filesystem::path> run_output_files(const std::filesystem::path& dir);

/// Prepares `dir` for a new run: without `overwrite`, refuses a directory holding output of an
/// earlier run; with it, deletes that output (run_output_files), leaving every other file.
/// @throws nscd::InputError naming the directory when it holds output and `overwrite` is false,
///         or when a file cannot be deleted.
void prepare_output_directory(const std::filesystem::path& dir, bool overwrite);

}  // namespace nscd::app
