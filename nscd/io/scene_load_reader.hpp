#pragma once
/// @file
/// Internal to nscd/io: reading of one `loads[i]` entry (docs/scene_format.md, Loads) and its
/// checks against the bodies: loads act on bodies that move freely, forces and moments on rigid
/// bodies only.

#include "nscd/io/json_reader.hpp"
#include "nscd/io/scene.hpp"

#include <filesystem>
#include <vector>

namespace nscd::io::detail {

/// Reads and checks one load on `bodies` (already read). A table file is resolved against
/// `scene_dir`.
/// @throws nscd::InputError at the offending path: an unknown or repeated body name, a body that
///         is fixed or driven, a force or moment on a body that is not rigid, none of force,
///         moment and acceleration, a bad time function or table file.
Load read_load(const Value& v, const std::vector<Body>& bodies, const std::filesystem::path& scene_dir);

}  // namespace nscd::io::detail
