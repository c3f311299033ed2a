// Long runs, the shorter version of bench/bench_long_run.cpp (docs/robustness.md): a block
// resting on a slope with tan α < μ, the stack of ten boxes and the arch do not creep, and the
// resident memory stays flat once the first thousand steps have sized the workspaces.

#include "nscd/core/resident_memory.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace nscd {
namespace {

struct LongRun {
  double drift = 0;             // largest displacement of a rigid body from its start [m]
  std::int64_t growth = 0;      // resident memory at the end minus after 1000 steps [bytes]
};

io::Scene read(const std::string& scene_name) {
  return io::read_scene(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes" / scene_name);
}

LongRun run(const io::Scene& scene, long steps) {
  const Model m = io::build_model(scene);
  State s = io::initial_state(m, scene);
  const std::vector<Vec3> x0 = s.x;
  StepWorkspace ws;
  LongRun out;
  std::int64_t settled = 0;
  for (long n = 1; n <= steps; ++n) {
    const StepReport report = step(m, s, ws);
    EXPECT_EQ(report.status, StepStatus::Ok) << report.message;
    if (report.status != StepStatus::Ok) break;
    for (int b = 0; b < m.nb(); ++b)
      if (m.bodies[b].kind == BodyKind::Rigid) out.drift = std::max(out.drift, (s.x[b] - x0[b]).norm());
    if (n == 1000) settled = resident_bytes();
  }
  out.growth = resident_bytes() - settled;
  return out;
}

// 2·10⁴ steps (20 s) on the slope, 6·10⁴ on the stack: the stack's rocking mode, with forward
// sweeps only (no symmetric first sweep, nlgs.hpp), passed 1e-9 m between 5·10⁴ and 6·10⁴ steps,
// and sooner with the boxes in another order (docs/robustness.md). The drift bound is the
// issue's, 1e-9 m; what remains is round-off (measured: 6e-12 m on the slope, 1e-14 m on the
// stack, in either order). Memory: the step allocates nothing
// that lives on once the workspace is sized, so the resident set does not grow; 1 MiB leaves
// room for the allocator's and the test framework's own bookkeeping.
// AddressSanitizer keeps freed memory in quarantine, so the resident set grows under it by design
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kMemoryIsMeaningful = false;
#else
constexpr bool kMemoryIsMeaningful = true;
#endif

TEST(LongRun, BlockOnASlopeBelowTheFrictionAngleDoesNotCreep) {
  const LongRun r = run(read("incline_stick.json"), 20000);
  EXPECT_LT(r.drift, 1e-9);
  if (kMemoryIsMeaningful) {
    EXPECT_LT(r.growth, 1 << 20);
  }
}

TEST(LongRun, StackOfTenBoxesDoesNotCreep) {
  const LongRun r = run(read("stack10.json"), 60000);
  EXPECT_LT(r.drift, 1e-9);
  if (kMemoryIsMeaningful) {
    EXPECT_LT(r.growth, 1 << 20);
  }
}

TEST(LongRun, StackOfTenBoxesListedInAnotherOrderDoesNotCreep) {
  // the order that grew fastest with forward sweeps only: 2.8e-6 m after 10⁵ steps
  io::Scene scene = read("stack10.json");
  const std::vector<int> order = {0, 7, 9, 10, 8, 6, 4, 1, 5, 2, 3};  // ground, cube_6, cube_8, …
  std::vector<io::Body> bodies;
  for (const int b : order) bodies.push_back(scene.bodies[b]);
  scene.bodies = bodies;
  EXPECT_LT(run(scene, 60000).drift, 1e-9);
}

TEST(LongRun, ArchStandsStillAtItsToleranceWithTheVelocityMeasure) {
  // scenes/arch.json as given: 15 voussoirs of about 1.7 t, NLGS at 1e-5, 2 s. The velocity
  // measure (solvers/error_measure.hpp) leaves a residual contact velocity of at most
  // 1e-5 × max(‖q‖, ‖r̃‖, ‖u‖), about 1e-5 × 0.1 m/s here (q ≈ g h per contact, r̃ the weights'
  // impulses as velocities, of the same size), so at most 1e-9 m per step and 2e-6 m over the
  // 2 000 steps if every step's residual pushed the same way: bound 1e-5 m. Measured 1.6e-6 m.
  // Siconos's measure divides by ‖r‖ in N s (about 50 here), which lets the contacts keep
  // 5e-4 m/s: the arch then creeps 1.5 mm in the 2 s, which the second run checks, so that the
  // test fails if the scene's problems stop being measured in velocities
  io::Scene scene = read("arch.json");
  EXPECT_LT(run(scene, 2000).drift, 1e-5);
  scene.solver.error_measure = solvers::ErrorScaling::Siconos;
  EXPECT_GT(run(scene, 2000).drift, 1e-4);
}

}  // namespace
}  // namespace nscd
