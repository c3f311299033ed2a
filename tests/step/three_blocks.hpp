#pragma once
// §4.2 of [Lozovskiy & Dubois 2016], scenes/ffr_three_blocks.json, for the tests that compare
// runs of it: the probe upper_top_face's u_x over t ≤ 1 s, the stored TL run's, and their norm.

#include "nscd/io/output_frames.hpp"
#include "nscd/io/scene.hpp"
#include "scene_builder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace nscd::test {

// §4.2, scenes/ffr_three_blocks.json up to t = 1.0 s, before the chaotic rocking: u_x of the probe
// upper_top_face at the output times 0, 0.01, …, 1.0 s, with k modes per block (0: full FFR), in
// contact on the mesh (node to surface) or on the blocks' faces (shape_contacts.hpp)
inline std::vector<double> three_blocks_probe(int modes, bool shape_contact = false) {
  io::Scene scene = io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes/ffr_three_blocks.json");
  scene.time.duration = 1.0;
  scene.ffr.modes = modes;
  if (shape_contact) scene.ffr.shape_contact = true;
  Simulation sim(scene);
  std::vector<double> u{io::probe_rows(sim.model, sim.state)[0].u.x()};
  for (long n = 1; n <= sim.model.n_steps; ++n) {
    EXPECT_EQ(sim.advance().status, StepStatus::Ok);
    if (n % sim.model.output_every == 0) u.push_back(io::probe_rows(sim.model, sim.state)[0].u.x());
  }
  return u;
}

// the same u_x of the TL run stored in tests/data (its README says how it was made)
inline std::vector<double> three_blocks_tl_probe() {
  std::ifstream in(std::filesystem::path(NSCD_SOURCE_DIR) / "tests/data/ffr_three_blocks_tl_upper_top_face.csv");
  std::string line;
  std::getline(in, line);  // header time,u_x
  std::vector<double> u;
  while (std::getline(in, line)) u.push_back(std::stod(line.substr(line.find(',') + 1)));
  return u;
}

// ‖u − u_ref‖ / ‖u_ref‖ over the output times (docs/validation.md)
inline double relative_difference(const std::vector<double>& u, const std::vector<double>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) diff += (u[i] - ref[i]) * (u[i] - ref[i]), norm += ref[i] * ref[i];
  return std::sqrt(diff / norm);
}

}  // namespace nscd::test
