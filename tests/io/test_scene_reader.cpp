// read_scene(): a scene with every field, defaults, one test per kind of
// malformed input (each message must name the JSON path), and every scene in scenes/;
// read_scene_text(), the same reader on a text standing for a file.

#include "nscd/core/error.hpp"
#include "nscd/io/scene.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace nscd::io {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// a scene that sets every field of docs/scene_format.md
constexpr const char* kContractExample = R"({
  "name": "three_blocks_quake",
  "time": { "step": 1e-4, "duration": 1.5, "output_interval": 1e-2 },
  "integrator": { "theta": 1.0, "projection": false },
  "gravity": [0, 0, -9.81],
  "solver": { "type": "nlgs", "tolerance": 1e-5, "max_iterations": 1000,
              "inner_tolerance": 1e-5, "inner_max_iterations": 50 },
  "materials": {
    "stone": { "density": 2500, "young": 35e9, "poisson": 0.2,
               "damping": { "mass": 0.0, "stiffness": 1e-4 } },
    "ground": { "density": 2500 }
  },
  "interactions": [
    { "materials": ["stone", "ground"], "friction": 0.5, "restitution": 0.0 },
    { "materials": ["stone", "stone"],  "friction": 0.3 }
  ],
  "bodies": [
    { "name": "table", "model": "driven", "material": "ground",
      "shape": { "box": [6, 6, 0.2] }, "position": [0, 0, -0.1],
      "motion": { "velocity": { "type": "sine", "direction": [1, 0, 0], "amplitude": 0.9,
                                "angular_frequency": 5.235987755982989, "start": 0.1 } } },
    { "name": "left", "model": "ffr", "material": "stone",
      "shape": { "box": [1, 1, 2] }, "elements": [4, 4, 8], "position": [0, 0.6667, 1] },
    { "name": "arch_stone_1", "model": "rigid", "material": "stone",
      "shape": { "convex": { "vertices": [[0,0,0], [1,0,0], [0,1,0], [0,0,1]] } } },
    { "name": "grain", "model": "rigid", "material": "stone",
      "shape": { "sphere": 0.05 }, "mesh_size": 0.02, "position": [0, 0, 2], "velocity": [0, 0, -1],
      "angular_velocity": [0, 0, 0],
      "orientation": { "axis_angle": { "axis": [0, 0, 1], "angle": 0.3 } } }
  ],
  "probes": [
    { "name": "top_point", "body": "left", "point": [0, 0.6667, 2] },
    { "name": "top_face", "body": "left", "region": { "min": [-0.5, 0.1667, 1.999],
                                                      "max": [0.5, 1.1667, 2.001] } }
  ],
  "meshing": { "size": 0.25 },
  "output": { "vtk": true, "csv": true }
})";

// a small valid scene that the malformed cases edit: bodies[0] ground (fixed), bodies[1] block
json minimal_scene() {
  return json::parse(R"({
    "time": { "step": 1e-3, "duration": 1 },
    "materials": { "stone": { "density": 2000 }, "ground": { "density": 1000 } },
    "interactions": [ { "materials": ["stone", "ground"], "friction": 0.5 },
                      { "materials": ["stone", "stone"], "friction": 0.4 } ],
    "bodies": [
      { "name": "ground", "model": "fixed", "material": "ground",
        "shape": { "box": [10, 10, 1] }, "position": [0, 0, -0.5] },
      { "name": "block", "model": "rigid", "material": "stone",
        "shape": { "box": [1, 1, 1] }, "position": [0, 0, 0.5] }
    ]
  })");
}

class SceneReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() /
            (std::string("nscd_test_scene_reader_") + info->test_suite_name() + "_" + info->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path path = m_dir / name;
    std::ofstream(path) << text;
    return path;
  }

  // writes the minimal scene edited by `edit` and returns read_scene's error message
  std::string error_of(const std::function<void(json&)>& edit) const {
    json scene = minimal_scene();
    edit(scene);
    return error_of_text(scene.dump(2));
  }

  std::string error_of_text(const std::string& text) const {
    const fs::path path = write("scene.json", text);
    try {
      read_scene(path);
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no InputError for:\n" << text;
    return {};
  }

  fs::path m_dir;
};

#define EXPECT_HAS(message, part) EXPECT_NE((message).find(part), std::string::npos) << (message)

TEST_F(SceneReaderTest, ReadsContractExampleWithEveryField) {
  const Scene s = read_scene(write("quake.json", kContractExample));
  EXPECT_EQ(s.name, "three_blocks_quake");
  EXPECT_EQ(s.time.step, 1e-4);
  EXPECT_EQ(s.time.duration, 1.5);
  EXPECT_EQ(s.time.output_interval, 1e-2);
  EXPECT_FALSE(s.time.output_every);
  EXPECT_EQ(s.theta, 1.0);
  EXPECT_FALSE(s.projection);
  EXPECT_EQ(s.gravity, Vec3(0, 0, -9.81));
  EXPECT_EQ(s.solver.type, solvers::SolverType::Nlgs);
  EXPECT_EQ(s.solver.tolerance, 1e-5);
  EXPECT_EQ(s.solver.max_iterations, 1000);
  EXPECT_EQ(s.solver.inner_tolerance, 1e-5);
  EXPECT_EQ(s.solver.inner_max_iterations, 50);

  ASSERT_EQ(s.materials.size(), 2u);
  const Material& stone = s.materials.at("stone");
  EXPECT_EQ(stone.density, 2500);
  EXPECT_EQ(stone.young, 35e9);
  EXPECT_EQ(stone.poisson, 0.2);
  EXPECT_EQ(stone.damping_mass, 0.0);
  EXPECT_EQ(stone.damping_stiffness, 1e-4);
  EXPECT_FALSE(s.materials.at("ground").young);

  ASSERT_EQ(s.interactions.size(), 2u);
  EXPECT_EQ(s.interactions[0].material_a, "stone");
  EXPECT_EQ(s.interactions[0].material_b, "ground");
  EXPECT_EQ(s.interactions[0].friction, 0.5);
  EXPECT_EQ(s.interactions[1].friction, 0.3);
  EXPECT_EQ(s.interactions[1].restitution, 0.0);

  ASSERT_EQ(s.bodies.size(), 4u);
  const Body& table = s.bodies[0];
  EXPECT_EQ(table.model, BodyKind::Driven);
  EXPECT_EQ(std::get<BoxShape>(table.shape).size, Vec3(6, 6, 0.2));
  ASSERT_TRUE(table.motion_velocity);
  EXPECT_EQ(table.motion_velocity->type, Motion::Type::Sine);
  EXPECT_EQ(table.motion_velocity->direction, Vec3(1, 0, 0));
  EXPECT_EQ(table.motion_velocity->amplitude, 0.9);
  EXPECT_EQ(table.motion_velocity->angular_frequency, 5.235987755982989);
  EXPECT_EQ(table.motion_velocity->start, 0.1);
  EXPECT_EQ(table.motion_velocity->phase, 0.0);
  EXPECT_FALSE(table.motion_angular_velocity);

  const Body& left = s.bodies[1];
  EXPECT_EQ(left.model, BodyKind::Ffr);
  EXPECT_EQ(left.elements, (std::array<int, 3>{4, 4, 8}));
  EXPECT_EQ(left.position, Vec3(0, 0.6667, 1));

  const Body& stone_1 = s.bodies[2];
  EXPECT_EQ(std::get<ConvexShape>(stone_1.shape).vertices.size(), 4u);
  EXPECT_FALSE(stone_1.position);

  const Body& grain = s.bodies[3];
  EXPECT_EQ(std::get<SphereShape>(grain.shape).radius, 0.05);
  EXPECT_EQ(grain.mesh_size, 0.02);
  EXPECT_EQ(s.meshing.size, 0.25);
  EXPECT_EQ(grain.velocity, Vec3(0, 0, -1));
  EXPECT_TRUE(grain.orientation.isApprox(Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ())), 1e-15));

  ASSERT_EQ(s.probes.size(), 2u);
  EXPECT_EQ(s.probes[0].point, Vec3(0, 0.6667, 2));
  ASSERT_TRUE(s.probes[1].region);
  EXPECT_EQ(s.probes[1].region->second, Vec3(0.5, 1.1667, 2.001));
  EXPECT_TRUE(s.output.vtk);
  EXPECT_TRUE(s.output.csv);
}

TEST_F(SceneReaderTest, FillsDefaults) {
  const Scene s = read_scene(write("little.json", minimal_scene().dump()));
  EXPECT_EQ(s.name, "little");  // the file stem
  EXPECT_EQ(s.theta, 0.5);
  EXPECT_TRUE(s.projection);
  EXPECT_EQ(s.gravity, Vec3(0, 0, -9.81));
  EXPECT_FALSE(s.time.output_interval);
  EXPECT_FALSE(s.time.output_every);
  EXPECT_EQ(s.solver.type, solvers::SolverType::Auto);
  EXPECT_EQ(s.solver.relaxation, 1.0);
  EXPECT_EQ(s.solver.anderson_depth, 3);
  EXPECT_EQ(s.solver.error_measure, solvers::ErrorScaling::Velocity);
  EXPECT_FALSE(s.solver.fail_on_divergence);
  EXPECT_FALSE(s.detection.alert_distance);
  EXPECT_FALSE(s.detection.max_penetration);
  EXPECT_EQ(s.interactions[0].restitution, 0.0);
  EXPECT_TRUE(s.bodies[1].orientation.isApprox(Quat::Identity()));
  EXPECT_EQ(s.bodies[1].velocity, Vec3::Zero());
  EXPECT_TRUE(s.output.vtk && s.output.csv);
}

TEST_F(SceneReaderTest, ReadsOptionalSectionsAndNormalises) {
  json scene = minimal_scene();
  scene["detection"] = {{"alert_distance", 0.01}, {"max_penetration", 1e-4}};
  scene["solver"] = {{"type", "ccp"}, {"relaxation", 1.5}, {"fail_on_divergence", true}, {"min_iterations", 3},
                     {"anderson_depth", 0}, {"error_measure", "siconos"}};
  scene["time"]["output_every"] = 10;
  scene["interactions"] = json::parse(R"([{ "materials": "default", "friction": 0.5 }])");
  scene["bodies"][1]["orientation"] = {{"quaternion", {2, 0, 0, 0}}};
  const Scene s = read_scene(write("scene.json", scene.dump()));
  EXPECT_EQ(s.detection.alert_distance, 0.01);
  EXPECT_EQ(s.detection.max_penetration, 1e-4);
  EXPECT_EQ(s.solver.type, solvers::SolverType::Ccp);
  EXPECT_EQ(s.solver.relaxation, 1.5);
  EXPECT_EQ(s.solver.min_iterations, 3);
  EXPECT_EQ(s.solver.anderson_depth, 0);
  EXPECT_EQ(s.solver.error_measure, solvers::ErrorScaling::Siconos);
  EXPECT_TRUE(s.solver.fail_on_divergence);
  EXPECT_EQ(s.time.output_every, 10);
  EXPECT_EQ(s.interactions[0].material_a, "default");
  EXPECT_EQ(s.bodies[1].orientation.w(), 1.0);
}

TEST_F(SceneReaderTest, ReadsMotionTableWithHeader) {
  write("quake.csv", "time,acceleration\n0,0\n0.5,1.5\n1.0,-2\n");
  json scene = minimal_scene();
  scene["bodies"][0]["model"] = "driven";
  scene["bodies"][0]["motion"] = json::parse(
      R"({"velocity": {"type": "table", "file": "quake.csv", "quantity": "acceleration",
                       "direction": [0, 2, 0], "scale": 9.81}})");
  const Scene s = read_scene(write("scene.json", scene.dump()));
  const Motion& m = *s.bodies[0].motion_velocity;
  EXPECT_EQ(m.quantity, Motion::Quantity::Acceleration);
  EXPECT_EQ(m.direction, Vec3(0, 1, 0));
  EXPECT_EQ(m.scale, 9.81);
  EXPECT_EQ(m.times, (std::vector<double>{0, 0.5, 1.0}));
  EXPECT_EQ(m.values, (std::vector<double>{0, 1.5, -2}));
}

TEST_F(SceneReaderTest, ReadsTheFfrFictitiousForcesSwitch) {
  EXPECT_TRUE(read_scene(write("scene.json", minimal_scene().dump())).ffr.fictitious_forces);
  json scene = minimal_scene();
  scene["ffr"] = {{"fictitious_forces", false}};
  EXPECT_FALSE(read_scene(write("scene.json", scene.dump())).ffr.fictitious_forces);
  EXPECT_HAS(error_of([](json& s) { s["ffr"] = {{"fictitious_forces", "no"}}; }),
             "ffr.fictitious_forces: expected true or false, found \"no\"");
  EXPECT_HAS(error_of([](json& s) { s["ffr"] = {{"fictitious", false}}; }),
             "ffr.fictitious: unknown key \"fictitious\"; did you mean \"fictitious_forces\"?");
}

TEST_F(SceneReaderTest, ReadsLoads) {
  write("factor.csv", "time,factor\n0,0\n0.5,2\n");
  json scene = minimal_scene();
  scene["bodies"].push_back(json::parse(R"({"name": "ball", "model": "rigid", "material": "stone",
                                            "shape": {"sphere": 0.1}, "position": [3, 0, 0.1]})"));
  scene["loads"] = json::parse(R"([
    {"bodies": "all", "acceleration": [1, 0, 0], "time": {"type": "ramp", "start": 0.5, "end": 2}},
    {"bodies": ["ball", "block"], "force": [0, 10, 0], "moment": [0, 0, 1], "time": {"type": "table", "file": "factor.csv"}},
    {"bodies": ["ball"], "force": [1, 2, 3]}
  ])");
  const Scene s = read_scene(write("scene.json", scene.dump()));
  ASSERT_EQ(s.loads.size(), 3u);
  // "all": every body but the fixed ground; names in scene order
  EXPECT_EQ(s.loads[0].bodies, (std::vector<std::string>{"block", "ball"}));
  EXPECT_EQ(s.loads[0].acceleration, Vec3(1, 0, 0));
  EXPECT_EQ(s.loads[0].time.type, LoadTime::Type::Ramp);
  EXPECT_EQ(s.loads[0].time.start, 0.5);
  EXPECT_EQ(s.loads[0].time.end, 2.0);
  EXPECT_EQ(s.loads[1].bodies, (std::vector<std::string>{"block", "ball"}));
  EXPECT_EQ(s.loads[1].moment, Vec3(0, 0, 1));
  EXPECT_EQ(s.loads[1].time.times, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(s.loads[1].time.values, (std::vector<double>{0, 2}));
  EXPECT_EQ(s.loads[2].time.type, LoadTime::Type::Constant);
  EXPECT_EQ(s.loads[2].force, Vec3(1, 2, 3));
  EXPECT_EQ(s.loads[2].acceleration, Vec3::Zero());
}

TEST_F(SceneReaderTest, RejectsBadLoads) {
  const auto load_error = [&](const std::string& load) {
    return error_of([&](json& s) { s["loads"] = json::array({json::parse(load)}); });
  };
  EXPECT_HAS(load_error(R"({"bodies": ["blok"], "force": [1, 0, 0]})"),
             "scene.json: loads[0].bodies[0]: unknown body \"blok\"; did you mean \"block\"?");
  EXPECT_HAS(load_error(R"({"bodies": ["block", "block"], "force": [1, 0, 0]})"),
             "loads[0].bodies[1]: body \"block\" is listed twice");
  EXPECT_HAS(load_error(R"({"bodies": ["ground"], "force": [1, 0, 0]})"),
             "loads[0].bodies[0]: body \"ground\" is fixed: its motion is prescribed");
  EXPECT_HAS(load_error(R"({"bodies": [], "force": [1, 0, 0]})"),
             "loads[0].bodies: expected \"all\" or a non-empty list of body names, found []");
  EXPECT_HAS(load_error(R"({"bodies": "every", "force": [1, 0, 0]})"),
             "loads[0].bodies: expected \"all\" or a list of body names, found \"every\"");
  EXPECT_HAS(load_error(R"({"bodies": ["block"]})"),
             "loads[0]: expected at least one of \"force\", \"moment\" and \"acceleration\"");
  EXPECT_HAS(load_error(R"({"bodies": ["block"], "force": [1, 0]})"), "loads[0].force: expected an array of 3 numbers, found [1,0]");
  EXPECT_HAS(load_error(R"({"bodies": ["block"], "force": [1, 0, 0], "time": {"type": "linear"}})"),
             "loads[0].time.type: expected one of");
  EXPECT_HAS(load_error(R"({"bodies": ["block"], "force": [1, 0, 0], "time": {"type": "ramp", "start": 1, "end": 1}})"),
             "loads[0].time.end: expected a time greater than \"start\" (1), found 1");
  EXPECT_HAS(load_error(R"({"bodies": ["block"], "force": [1, 0, 0], "time": {"type": "constant", "start": 1}})"),
             "loads[0].time.start: unknown key \"start\"");
  const std::string missing = load_error(R"({"bodies": ["block"], "force": [1, 0, 0], "time": {"type": "table", "file": "nowhere.csv"}})");
  EXPECT_HAS(missing, "loads[0].time.file: ");
  EXPECT_HAS(missing, "nowhere.csv: cannot open");
  // finite-element bodies take an acceleration alone, "all" included
  const auto ffr_block = [](json& s) {
    s["materials"]["stone"]["young"] = 1e9;
    s["materials"]["stone"]["poisson"] = 0.2;
    s["bodies"][1]["model"] = "ffr";
    s["bodies"][1]["elements"] = {1, 1, 1};
  };
  json scene = minimal_scene();
  ffr_block(scene);
  scene["loads"] = json::parse(R"([{"bodies": "all", "acceleration": [1, 0, 0]}])");
  EXPECT_EQ(read_scene(write("scene.json", scene.dump())).loads[0].bodies, (std::vector<std::string>{"block"}));
  const std::string fe = error_of([&](json& s) {
    ffr_block(s);
    s["loads"] = json::parse(R"([{"bodies": "all", "acceleration": [1, 0, 0], "moment": [0, 0, 1]}])");
  });
  EXPECT_HAS(fe, "loads[0].bodies: body \"block\" is ffr: forces and moments act on rigid bodies only");
}

TEST_F(SceneReaderTest, RejectsWrongType) {
  const std::string e = error_of([](json& s) { s["time"]["step"] = "fast"; });
  EXPECT_HAS(e, "scene.json: time.step: expected a positive number, found \"fast\"");
}

TEST_F(SceneReaderTest, RejectsMissingRequiredKey) {
  const std::string e = error_of([](json& s) { s["time"].erase("step"); });
  EXPECT_HAS(e, "time: missing required key \"step\"");
}

TEST_F(SceneReaderTest, RejectsUnknownKeyWithSuggestion) {
  const std::string e = error_of([](json& s) { s["materials"]["stone"] = {{"densty", 2000}}; });
  EXPECT_HAS(e, "materials.stone.densty: unknown key \"densty\"; did you mean \"density\"?");
}

TEST_F(SceneReaderTest, RejectsNegativeBoxSize) {
  const std::string e = error_of([](json& s) { s["bodies"][0]["shape"]["box"] = {1, -2, 1}; });
  EXPECT_HAS(e, "bodies[0].shape.box: expected 3 positive numbers, found [1,-2,1]");
}

TEST_F(SceneReaderTest, RejectsANegativePenetrationBound) {
  const std::string e = error_of([](json& s) { s["detection"] = {{"max_penetration", -1e-4}}; });
  EXPECT_HAS(e, "detection.max_penetration: expected a number ≥ 0, found -0.0001");
}

TEST_F(SceneReaderTest, RejectsThetaOutOfRange) {
  const std::string e = error_of([](json& s) { s["integrator"] = {{"theta", 0.3}}; });
  EXPECT_HAS(e, "integrator.theta: expected a number in [0.5, 1], found 0.3");
}

TEST_F(SceneReaderTest, IntegratorWithoutThetaKeepsTheDefault) {
  json scene = minimal_scene();
  scene["integrator"] = {{"projection", false}};
  const Scene s = read_scene(write("no_theta.json", scene.dump()));
  EXPECT_EQ(s.theta, 0.5);
  EXPECT_FALSE(s.projection);
}

TEST_F(SceneReaderTest, RejectsProjectionThatIsNotABoolean) {
  const std::string e = error_of([](json& s) { s["integrator"] = {{"projection", "yes"}}; });
  EXPECT_HAS(e, "integrator.projection: expected true or false, found \"yes\"");
}

TEST_F(SceneReaderTest, RejectsMissingInteractionForTouchingPair) {
  const std::string e = error_of([](json& s) { s["interactions"].erase(0); });
  EXPECT_HAS(e, "interactions: no interaction between materials");
  EXPECT_HAS(e, "\"stone\"");
  EXPECT_HAS(e, "\"ground\"");
  EXPECT_HAS(e, "bodies \"block\" and \"ground\"");
}

TEST_F(SceneReaderTest, AcceptsMissingInteractionBetweenKinematicBodies) {
  json scene = minimal_scene();
  scene["interactions"].erase(0);
  scene["bodies"][1]["model"] = "fixed";
  EXPECT_NO_THROW(read_scene(write("scene.json", scene.dump())));
}

TEST_F(SceneReaderTest, RejectsUnknownMaterial) {
  const std::string e = error_of([](json& s) { s["bodies"][1]["material"] = "stoen"; });
  EXPECT_HAS(e, "bodies[1].material: unknown material \"stoen\"; did you mean \"stone\"?");
}

TEST_F(SceneReaderTest, RejectsDuplicateBodyName) {
  const std::string e = error_of([](json& s) { s["bodies"].push_back(s["bodies"][1]); });
  EXPECT_HAS(e, "bodies[2].name: duplicate body name \"block\" (also bodies[1])");
}

TEST_F(SceneReaderTest, RejectsDuplicateInteraction) {
  const std::string e = error_of([](json& s) {
    s["interactions"].push_back({{"materials", {"ground", "stone"}}, {"friction", 0.1}});
  });
  EXPECT_HAS(e, "interactions[2].materials: duplicate interaction");
}

TEST_F(SceneReaderTest, SyntaxErrorHasLineAndColumn) {
  const std::string e = error_of_text("{\n  \"time\": { \"step\": 1e-3\n    \"duration\": 1 }\n}\n");
  EXPECT_HAS(e, "scene.json: line 3, column 5: syntax error");
}

TEST_F(SceneReaderTest, NumberOverflowHasLineAndColumn) {
  const std::string e = error_of_text("{\n  \"time\": { \"step\": 1e999 } }");
  EXPECT_HAS(e, "line 2, column");
  EXPECT_HAS(e, "1e999");
}

TEST_F(SceneReaderTest, SemanticErrorHasLineAndColumn) {
  json scene = minimal_scene();
  scene["bodies"][1]["shape"]["sphere"] = -1;
  scene["bodies"][1]["shape"].erase("box");
  // the error points at the key "sphere", the only one in the text
  const std::string text = scene.dump(2);
  const std::size_t offset = text.find("\"sphere\"");
  const std::size_t line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
  const std::size_t column = offset - text.rfind('\n', offset);
  EXPECT_HAS(error_of_text(text),
             fmt::format("bodies[1].shape.sphere: expected a positive number, found -1 (line {}, column {})",
                         line, column));
}

TEST_F(SceneReaderTest, RejectsDuplicateJsonKey) {
  const std::string e = error_of_text(R"({"time": {"step": 1e-3, "step": 1e-2}})");
  EXPECT_HAS(e, "time.step: duplicate key \"step\"");
}

TEST_F(SceneReaderTest, RejectsMissingMotionTable) {
  const std::string e = error_of([](json& s) {
    s["bodies"][0]["model"] = "driven";
    s["bodies"][0]["motion"] = {{"velocity", {{"type", "table"}, {"file", "nowhere.csv"},
                                              {"quantity", "velocity"}, {"direction", {1, 0, 0}}}}};
  });
  EXPECT_HAS(e, "bodies[0].motion.velocity.file: ");
  EXPECT_HAS(e, "nowhere.csv: cannot open");
}

TEST_F(SceneReaderTest, RejectsMotionTableWithDecreasingTimes) {
  write("quake.csv", "0,0\n0.5,1\n0.25,2\n");
  const std::string e = error_of([](json& s) {
    s["bodies"][0]["model"] = "driven";
    s["bodies"][0]["motion"] = {{"velocity", {{"type", "table"}, {"file", "quake.csv"},
                                              {"quantity", "velocity"}, {"direction", {1, 0, 0}}}}};
  });
  EXPECT_HAS(e, "bodies[0].motion.velocity.file: ");
  EXPECT_HAS(e, "quake.csv:3: times must increase strictly, found 0.25 after 0.5");
}

TEST_F(SceneReaderTest, RejectsZeroRotationAxis) {
  const std::string e = error_of([](json& s) {
    s["bodies"][1]["orientation"] = {{"axis_angle", {{"axis", {0, 0, 0}}, {"angle", 1}}}};
  });
  EXPECT_HAS(e, "bodies[1].orientation.axis_angle.axis: expected a non-zero vector");
}

TEST_F(SceneReaderTest, ReadsCohesiveInteractions) {
  json scene = minimal_scene();
  scene["interactions"][1].update(json::parse(R"({"tensile_strength": 2e5, "cohesion": 4e5, "residual_friction": 0.3})"));
  const Scene s = read_scene(write("scene.json", scene.dump(2)));
  EXPECT_EQ(s.interactions[1].tensile_strength, 2e5);
  EXPECT_EQ(s.interactions[1].cohesion, 4e5);
  EXPECT_EQ(s.interactions[1].residual_friction, 0.3);
  EXPECT_EQ(s.interactions[0].cohesion, 0.0);
  EXPECT_FALSE(s.interactions[0].residual_friction.has_value());
}

TEST_F(SceneReaderTest, RejectsBadCohesiveInteractions) {
  const auto cohesive = [&](const std::string& keys) {
    return error_of([&](json& s) { s["interactions"][1].update(json::parse(keys)); });
  };
  EXPECT_HAS(cohesive(R"({"tensile_strength": -1})"), "interactions[1].tensile_strength: expected a number ≥ 0, found -1");
  EXPECT_HAS(cohesive(R"({"cohesion": -5})"), "interactions[1].cohesion: expected a number ≥ 0, found -5");
  EXPECT_HAS(cohesive(R"({"residual_friction": -0.1})"), "interactions[1].residual_friction: expected a number ≥ 0");
  EXPECT_HAS(cohesive(R"({"friction": 0, "cohesion": 1e4})"),
             "interactions[1].cohesion: a cohesion c > 0 needs a friction μ > 0");
  // a finite-element body in a scene with a cohesive interaction, even of another pair
  const std::string e = error_of([](json& s) {
    s["interactions"][0]["cohesion"] = 1e4;
    s["materials"]["stone"]["young"] = 1e9;
    s["materials"]["stone"]["poisson"] = 0.2;
    s["bodies"][1]["model"] = "ffr";
    s["bodies"][1]["elements"] = {2, 2, 2};
  });
  EXPECT_HAS(e, "scene.json: interactions[0].cohesion: a cohesive interaction needs a scene of rigid");
  EXPECT_HAS(e, "body \"block\" has the finite-element model \"ffr\"");
  // cohesion and rolling resistance in one scene
  EXPECT_HAS(error_of([](json& s) {
               s["interactions"][0]["tensile_strength"] = 1e4;
               s["interactions"][1]["rolling_resistance"] = 0.1;
             }),
             "scene.json: interactions[0].tensile_strength: cohesive joints and rolling resistance cannot be combined");
}

TEST_F(SceneReaderTest, RejectsInconsistentBodies) {
  // each edit of the minimal scene, and the path and words its message must contain
  const std::vector<std::tuple<std::function<void(json&)>, std::string>> cases = {
      {[](json& s) { s["bodies"][1]["model"] = "rigd"; }, "bodies[1].model: expected one of"},
      {[](json& s) { s["bodies"][0]["model"] = "driven"; }, "bodies[0]: a driven body needs \"motion\""},
      {[](json& s) { s["bodies"][1]["motion"] = json::object(); }, "bodies[1].motion: \"motion\" applies only"},
      {[](json& s) {
         s["bodies"][0]["model"] = "driven";
         s["bodies"][0]["motion"] = {{"velocity", {{"type", "sine"}, {"direction", {1, 0, 0}}, {"amplitude", 1},
                                                   {"angular_frequency", 0}}}};
       },
       "bodies[0].motion.velocity.angular_frequency: expected a positive number"},
      {[](json& s) { s["bodies"][1]["elements"] = {2, 2, 2}; }, "bodies[1].elements: \"elements\" applies only"},
      {[](json& s) { s["bodies"][1]["model"] = "ffr"; }, "bodies[1].material: material \"stone\" needs \"young\""},
      {[](json& s) {
         s["materials"]["stone"]["young"] = 1e9;
         s["materials"]["stone"]["poisson"] = 0.2;
         s["bodies"][1]["model"] = "ffr";
         s["bodies"][1]["elements"] = {2000, 2000, 2000};
       },
       "bodies[1].elements: 2000 × 2000 × 2000 = 8000000000 hexahedra; expected at most 1000000 per body"},
      {[](json& s) { s["bodies"][1]["shape"] = {{"mesh", "block.msh"}}; }, "bodies[1].shape.mesh: a mesh shape needs"},
      {[](json& s) { s["bodies"][1]["mesh_size"] = 0; }, "bodies[1].mesh_size: expected a positive number"},
      {[](json& s) { s["bodies"][0]["mesh_size"] = 0.1; },
       "bodies[0].mesh_size: \"mesh_size\" applies to rigid, ffr, tl or linear bodies, found model \"fixed\""},
      {[](json& s) {
         s["materials"]["stone"]["young"] = 1e9;
         s["materials"]["stone"]["poisson"] = 0.2;
         s["bodies"][1]["model"] = "ffr";
         s["bodies"][1]["elements"] = {2, 2, 2};
         s["bodies"][1]["mesh_size"] = 0.1;
       },
       "bodies[1].mesh_size: \"mesh_size\" and \"elements\" exclude each other"},
      {[](json& s) { s["meshing"] = {{"size", -1}}; }, "meshing.size: expected a positive number"},
      {[](json& s) { s["bodies"][1]["modes"] = 2.5; }, "bodies[1].modes: expected an integer ≥ 0"},
      {[](json& s) { s["bodies"][0]["modes"] = 6; },
       "bodies[0].modes: \"modes\" applies to ffr bodies (or rigid ones run with --model ffr), found model \"fixed\""},
      {[](json& s) { s["materials"]["stone"]["modes"] = -1; }, "materials.stone.modes: expected an integer ≥ 0"},
      {[](json& s) { s["bodies"][1]["static_correction"] = "edges"; },
       "bodies[1].static_correction: expected one of \"none\", \"joints\", found \"edges\""},
      {[](json& s) { s["bodies"][0]["static_correction"] = "joints"; },
       "bodies[0].static_correction: \"static_correction\" applies to ffr bodies"},
      {[](json& s) { s["materials"]["stone"]["static_correction"] = true; }, "materials.stone.static_correction: expected"},
      {[](json& s) { s["bodies"][1]["contact_surface"] = "faces"; },
       "bodies[1].contact_surface: expected one of \"mesh\", \"shape\", found \"faces\""},
      {[](json& s) { s["bodies"][0]["contact_surface"] = "shape"; },
       "bodies[0].contact_surface: \"contact_surface\" applies to ffr bodies"},
      {[](json& s) { s["materials"]["stone"]["contact_surface"] = "node"; },
       "materials.stone.contact_surface: expected one of \"mesh\", \"shape\""},
      {[](json& s) { s["bodies"][0]["unresolved_modes"] = "backward_euler"; },
       "bodies[0].unresolved_modes: \"unresolved_modes\" applies to ffr bodies"},
      {[](json& s) { s["materials"]["stone"]["unresolved_modes"] = "implicit"; },
       "materials.stone.unresolved_modes: expected one of \"trapezoidal\", \"backward_euler\""},
      {[](json& s) { s["meshing"] = {{"sise", 1}}; }, "did you mean \"size\"?"},
      {[](json& s) { s["bodies"][0]["velocity"] = {1, 0, 0}; }, "bodies[0].velocity: a fixed body"},
      {[](json& s) { s["bodies"][1]["shape"]["sphere"] = 1; }, "bodies[1].shape: expected exactly one of"},
      {[](json& s) { s["bodies"][1]["shape"] = {{"convex", {{"vertices", {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}}}}}; },
       "bodies[1].shape.convex.vertices: expected at least 4 vertices spanning a volume"},
      {[](json& s) { s["time"]["output_every"] = 2; s["time"]["output_interval"] = 0.1; },
       "time.output_every: \"output_interval\" and \"output_every\" are exclusive"},
      {[](json& s) { s["time"]["output_interval"] = 1e-4; }, "time.output_interval: expected an interval ≥ the step"},
      {[](json& s) { s["solver"] = {{"type", "nlsg"}}; }, "did you mean \"nlgs\"?"},
      {[](json& s) { s["solver"] = {{"max_iterations", 5}, {"min_iterations", 10}}; },
       "solver.min_iterations: expected an integer ≤ max_iterations (5)"},
      {[](json& s) { s["solver"] = {{"anderson_depth", 1.5}}; }, "solver.anderson_depth: expected an integer ≥ 0"},
      {[](json& s) { s["solver"] = {{"anderson_depth", 17}}; }, "solver.anderson_depth: expected an integer ≤ 16"},
      {[](json& s) { s["solver"] = {{"error_measure", "impulse"}}; }, "solver.error_measure: expected one of"},
      {[](json& s) { s["interactions"][0]["restitution"] = 1.5; }, "interactions[0].restitution"},
      {[](json& s) { s["probes"] = {{{"name", "p"}, {"body", "block"}}}; }, "probes[0]: expected exactly one of"},
      {[](json& s) { s["probes"] = {{{"name", "p"}, {"body", "blok"}, {"point", {0, 0, 0}}}}; },
       "probes[0].body: unknown body \"blok\"; did you mean \"block\"?"},
  };
  for (const auto& [edit, expected] : cases) EXPECT_HAS(error_of(edit), expected);
}

// rolling_resistance (nscd/step/rolling_resistance.hpp): default 0, any number ≥ 0 on any pair
// (it acts at the contacts with a sphere side only); negative, or nonzero with a finite-element
// body in the scene, is an error at the coefficient
TEST_F(SceneReaderTest, RollingResistanceIsNonNegativeOnRigidScenes) {
  json scene = minimal_scene();
  scene["interactions"][1]["rolling_resistance"] = 0.05;
  const Scene rolling = read_scene(write("rolling.json", scene.dump(2)));
  EXPECT_EQ(rolling.interactions[0].rolling_resistance, 0.0);
  EXPECT_EQ(rolling.interactions[1].rolling_resistance, 0.05);
  EXPECT_HAS(error_of([](json& s) { s["interactions"][0]["rolling_resistance"] = -0.1; }),
             "interactions[0].rolling_resistance: expected a number ≥ 0");
  // the block made a TL body, with μ_r = 0.1 (refused) or 0 (accepted)
  const auto deformable = [](double mu_r) {
    json s = minimal_scene();
    s["materials"]["stone"]["young"] = 1e9;
    s["materials"]["stone"]["poisson"] = 0.2;
    s["bodies"][1]["model"] = "tl";
    s["bodies"][1]["elements"] = {1, 1, 1};
    s["interactions"][1]["rolling_resistance"] = mu_r;
    return s.dump(2);
  };
  const std::string fe = error_of_text(deformable(0.1));
  EXPECT_HAS(fe, "scene.json: interactions[1].rolling_resistance: rolling resistance needs a scene of rigid");
  EXPECT_HAS(fe, "body \"block\" has the finite-element model \"tl\"");
  EXPECT_NO_THROW(read_scene(write("zero.json", deformable(0.0))));
}

TEST(SceneFiles, EveryShippedSceneReads) {
  const fs::path folder = fs::path(NSCD_SOURCE_DIR) / "scenes";
  int count = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    try {
      read_scene(entry.path());
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
    ++count;
  }
  EXPECT_GE(count, 7);
}

// read_scene_text(): the text of a file read as that file, mesh folder and default name included
TEST(SceneText, ReadsAsTheFileItStandsFor) {
  const fs::path file = fs::path(NSCD_SOURCE_DIR) / "scenes" / "ffr_three_blocks.json";
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const Scene from_file = read_scene(file);
  const Scene from_text = read_scene_text(text, file);
  EXPECT_EQ(from_text.file, file);
  EXPECT_EQ(from_text.name, from_file.name);
  ASSERT_EQ(from_text.bodies.size(), from_file.bodies.size());
  for (std::size_t i = 0; i < from_file.bodies.size(); ++i)
    EXPECT_EQ(from_text.bodies[i].name, from_file.bodies[i].name);
  EXPECT_EQ(read_scene_text(R"({"time": {"step": 1, "duration": 1}, "materials": {"m": {"density": 1}},
                              "bodies": [{"name": "b", "model": "fixed", "material": "m", "shape": {"sphere": 1}}]})",
                            "folder/my_scene.json").name, "my_scene");
  try {
    read_scene_text("{\n  \"time\": 1\n}", "folder/my_scene.json");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_HAS(std::string(e.what()), "folder/my_scene.json: time: expected");
    EXPECT_HAS(std::string(e.what()), "(line 2, column 3)");
  }
}

}  // namespace
}  // namespace nscd::io
