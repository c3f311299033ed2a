#pragma once
/// @file
/// Internal to nscd/io: reading of one `bodies[i]` entry (shape, pose, velocities, prescribed
/// motion) and its checks against the materials (docs/scene_format.md).

#include "nscd/io/json_reader.hpp"
#include "nscd/io/scene.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace nscd::io::detail {

/// The materials' names, in order.
std::vector<std::string> material_names(const std::map<std::string, Material>& materials);

/// Reads and checks one body. Files (meshes, motion tables) are resolved against `scene_dir`.
/// @throws nscd::InputError at the offending path.
Body read_body(const Value& v, const std::map<std::string, Material>& materials,
               const std::filesystem::path& scene_dir);

}  // namespace nscd::io::detail
