// What validate and run check about a scene's scales: the highest natural frequency against a
// dense eigensolver, the warnings of implausible units, and the scene switch of the FFR
// fictitious forces against the model's.

#include "tests/step/scene_builder.hpp"

#include "nscd/io/scene_checks.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace nscd::io {
namespace {

TEST(SceneChecks, HighestNaturalFrequencyMatchesTheDenseEigenvalue) {
  Scene scene = test::stone_scene(1e-4, 0.01, 0.0);
  test::add_box(scene, "block", BodyKind::Ffr, Vec3(1, 1, 2), Vec3::Zero()).elements = std::array{2, 2, 3};
  const Model m = build_model(scene);
  const ffr::FfrBody& body = m.ffr_bodies[0];
  const Eigen::MatrixXd K(body.stiffness), M(body.mass_matrix);
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> dense(K, M, Eigen::EigenvaluesOnly);
  const double exact = std::sqrt(dense.eigenvalues().maxCoeff());
  const double estimate = highest_natural_frequency(body);
  // a lower bound (a Rayleigh quotient); after 30 power iterations on this 108-dof body, within
  // 5 %: enough to judge h ω_max, whose threshold is an order of magnitude
  EXPECT_LE(estimate, exact * (1 + 1e-12));
  EXPECT_GT(estimate, 0.95 * exact);
}

TEST(SceneChecks, WarnsOfImplausibleUnits) {
  // Young's modulus typed in MPa, a body 2 km long, gravity in mm/s²
  Scene scene = test::stone_scene(1e-3, 0.01, 0.0);
  scene.materials["stone"].young = 35000;
  scene.gravity = Vec3(0, 0, -9810);
  test::add_box(scene, "block", BodyKind::Ffr, Vec3(1, 1, 1), Vec3::Zero()).elements = std::array{1, 1, 1};
  test::add_box(scene, "quay", BodyKind::Fixed, Vec3(2000, 10, 1), Vec3(0, 0, -1));
  const SceneChecks checks = check_scene(build_model(scene), scene, true);
  const std::string all = fmt::format("{}", fmt::join(checks.warnings, "\n"));
  EXPECT_NE(all.find("Young's modulus 3.5e+04 Pa"), std::string::npos) << all;
  EXPECT_NE(all.find("larger than 1000 m"), std::string::npos) << all;
  EXPECT_NE(all.find("\"quay\""), std::string::npos) << all;
  EXPECT_NE(all.find("|g| = 9810"), std::string::npos) << all;
  EXPECT_EQ(checks.warnings.size(), 3u) << all;
  // the paper's stone passes
  Scene stone = test::stone_scene(1e-4, 0.01, 0.0);
  test::add_box(stone, "block", BodyKind::Ffr, Vec3(1, 1, 2), Vec3::Zero()).elements = std::array{2, 2, 4};
  EXPECT_TRUE(check_scene(build_model(stone), stone, true).warnings.empty());
}

// the scenes a new user runs first (the README's tour among them) raise none of the warnings meant
// for unit mistakes: the benchmark walls had density 1 kg/m³ and the mortar wall strengths in Pa
TEST(SceneChecks, ShippedScenesRaiseNoWarnings) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(NSCD_SOURCE_DIR) / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const Scene scene = read_scene(entry.path());
    const SceneChecks checks = check_scene(build_model(scene), scene, false);
    EXPECT_TRUE(checks.warnings.empty()) << fmt::format("{}", fmt::join(checks.warnings, "\n"));
    ++count;
  }
  EXPECT_GE(count, 15);
}

// θ moves rigid and driven bodies only: θ = 1 in a scene of FFR blocks on fixed ground warns (the
// blocks move by the trapezoidal rule whatever θ), not with θ = 1/2 nor once a rigid body is there
TEST(SceneChecks, WarnsOfAThetaThatMovesNoBody) {
  Scene scene = test::stone_scene(1e-4, 0.01, 0.5);
  scene.theta = 1.0;
  test::add_box(scene, "ground", BodyKind::Fixed, Vec3(3, 3, 0.2), Vec3(0, 0, -0.1));
  test::add_box(scene, "block", BodyKind::Ffr, Vec3(1, 1, 2), Vec3(0, 0, 1)).elements = std::array{2, 2, 4};
  const auto theta_warnings = [](const Scene& s) {
    const SceneChecks checks = check_scene(build_model(s), s, false);
    return std::count_if(checks.warnings.begin(), checks.warnings.end(),
                         [](const std::string& w) { return w.find("integrator.theta = 1 ") != std::string::npos; });
  };
  EXPECT_EQ(theta_warnings(scene), 1);
  Scene midpoint = scene;
  midpoint.theta = 0.5;
  EXPECT_EQ(theta_warnings(midpoint), 0);
  test::add_box(scene, "brick", BodyKind::Rigid, Vec3(1, 1, 1), Vec3(0, 0, 2.5));
  EXPECT_EQ(theta_warnings(scene), 0);
}

// the scene switch "ffr": {"fictitious_forces": false} is the model's switch: a rotating cuboid
// without gravity or contact then keeps ψ = 0 (test_ffr_dynamics.cpp), bitwise as the switch
TEST(SceneChecks, FfrFictitiousForcesSwitchOfTheSceneIsTheModels) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "nscd_test_no_fictitious_forces.json";
  std::ofstream(file) << R"({
    "time": {"step": 1e-4, "duration": 0.01},
    "gravity": [0, 0, 0],
    "ffr": {"fictitious_forces": false},
    "materials": {"stone": {"density": 2500, "young": 35e9, "poisson": 0.2}},
    "bodies": [{"name": "cuboid", "model": "ffr", "material": "stone", "shape": {"box": [1, 1, 2]},
                "elements": [2, 2, 4], "position": [0, 0, 0], "velocity": [1, 0, 0],
                "angular_velocity": [0, 12.566370614359172, 0]}]
  })";
  Scene scene = read_scene(file);
  test::Simulation from_scene(scene);
  EXPECT_FALSE(from_scene.model.step.fictitious_forces);
  scene.ffr.fictitious_forces = true;
  test::Simulation switched(scene);
  switched.model.step.fictitious_forces = false;
  for (long n = 0; n < from_scene.model.n_steps; ++n) {
    ASSERT_EQ(from_scene.advance().status, StepStatus::Ok);
    ASSERT_EQ(switched.advance().status, StepStatus::Ok);
  }
  EXPECT_EQ(from_scene.state.q[0].coeffs(), switched.state.q[0].coeffs());
  EXPECT_EQ(from_scene.state.psi[0], switched.state.psi[0]);
  EXPECT_EQ(from_scene.state.psi[0].norm(), 0.0);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace nscd::io
