#pragma once
/// @file SHA-256 of a file (OpenSSL), recorded in run.json so a run names the exact scene it ran.

#include <filesystem>
#include <string>

namespace nscd::app {

/// Lower-case hexadecimal SHA-256 of the file's bytes. @throws nscd::InputError if unreadable.
std::string sha256_hex(const std::filesystem::path& file);

}  // namespace nscd::app
