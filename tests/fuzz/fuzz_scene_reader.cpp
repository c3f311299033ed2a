// libFuzzer target: a scene file as the fuzzer writes it, through everything `nscd validate`
// does before it prints (read_scene, build_model, initial_state). Bad input must end in
// nscd::InputError; any other exception, a crash or a sanitizer report is a finding.
//
//   tools/fuzz.sh   (builds with clang, seeds the corpus from scenes/, runs a fixed count)

#include "nscd/core/error.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "tests/fuzz/fuzz_input.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path file = nscd::fuzz::write_input(data, size, "scene", ".json");
  try {
    const nscd::io::Scene scene = nscd::io::read_scene(file);
    const nscd::Model model = nscd::io::build_model(scene);
    nscd::io::initial_state(model, scene);
  } catch (const nscd::InputError&) {
    // the expected outcome of bad input
  }
  return 0;
}
