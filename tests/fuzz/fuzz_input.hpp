#pragma once
// The input of a libFuzzer run written to a file of this process (the readers take paths).

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace nscd::fuzz {

/// Writes data to temp_directory/nscd_fuzz_<name>_<pid><extension>, the same file at every call,
/// and returns its path.
inline std::filesystem::path write_input(const std::uint8_t* data, std::size_t size, const std::string& name,
                                         const std::string& extension) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("nscd_fuzz_" + name + "_" + std::to_string(getpid()) + extension);
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                static_cast<std::streamsize>(size));
  return file;
}

}  // namespace nscd::fuzz
