// Long runs without output (issue: no creep, no memory growth): steps a scene and prints, every
// --every steps, the largest displacement of any rigid body from its initial position (the
// drift of a scene at rest) and the resident memory, then the growth of the resident memory
// after step --settle.
//
//   build/bin/bench_long_run scenes/incline_stick.json scenes/stack10.json --steps 100000
//
// Not a test (tests/step/test_long_run.cpp runs a shorter version); docs/robustness.md records
// the figures with the command.

#include "nscd/core/resident_memory.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/step/stepper.hpp"

#include <CLI/CLI.hpp>
#include <tbb/global_control.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"bench_long_run: drift and resident memory over a long run"};
  std::vector<std::string> scenes;
  long steps = 100000, every = 10000, settle = 1000;
  app.add_option("scenes", scenes)->required();
  app.add_option("--steps", steps, "steps per scene")->default_val(100000);
  app.add_option("--every", every, "steps between report lines")->default_val(10000);
  app.add_option("--settle", settle, "memory growth is measured from this step on")->default_val(1000);
  CLI11_PARSE(app, argc, argv);
  tbb::global_control one_thread(tbb::global_control::max_allowed_parallelism, 1);

  for (const std::string& file : scenes) {
    const nscd::io::Scene scene = nscd::io::read_scene(file);
    const nscd::Model m = nscd::io::build_model(scene);
    nscd::State s = nscd::io::initial_state(m, scene);
    const std::vector<nscd::Vec3> x0 = s.x;
    nscd::StepWorkspace ws;
    std::printf("%s (%d bodies), %ld steps of %g s\n%10s %14s %12s\n", file.c_str(), m.nb(), steps, m.step.h, "step",
                "drift [m]", "RSS [MiB]");
    double drift = 0;
    std::int64_t rss_settled = 0;
    for (long n = 1; n <= steps; ++n) {
      const nscd::StepReport report = nscd::step(m, s, ws);
      if (report.status != nscd::StepStatus::Ok) {
        std::fprintf(stderr, "bench_long_run: %s\n", report.message.c_str());
        return 3;
      }
      for (int b = 0; b < m.nb(); ++b)
        if (m.bodies[b].kind == nscd::BodyKind::Rigid) drift = std::max(drift, (s.x[b] - x0[b]).norm());
      if (n == settle) rss_settled = nscd::resident_bytes();
      if (n % every == 0 || n == steps)
        std::printf("%10ld %14.3e %12.2f\n", n, drift, static_cast<double>(nscd::resident_bytes()) / (1 << 20));
    }
    std::printf("largest drift %.3e m; resident memory growth after step %ld: %+.1f KiB\n\n", drift, settle,
                static_cast<double>(nscd::resident_bytes() - rss_settled) / 1024);
  }
  return 0;
}
