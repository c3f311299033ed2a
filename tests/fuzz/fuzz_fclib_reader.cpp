// libFuzzer target: an FCLIB problem file (HDF5) as the fuzzer writes it, through what
// `nscd solve` reads (read_fclib_problem: local problems, or global ones condensed into local).
// Bad input must end in nscd::InputError; any other exception, a crash or a sanitizer report is
// a finding.
//
//   tools/fuzz.sh   (builds with clang, seeds the corpus from ../shared/data/fclib, runs a fixed count)

#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "tests/fuzz/fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = nscd::fuzz::write_input(data, size, "fclib", ".hdf5");
  try {
    nscd::io::read_fclib_problem(file);
  } catch (const nscd::InputError&) {
    // the expected outcome of bad input
  }
  return 0;
}
