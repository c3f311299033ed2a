// PEER NGA .AT2 accelerograms (nscd/io/peer_at2.hpp): the committed synthetic record, both forms
// of the sampling line, each malformed input, and a driven table read from one in a scene.

#include "nscd/core/error.hpp"
#include "nscd/io/peer_at2.hpp"
#include "nscd/io/scene.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace nscd::io {
namespace {

namespace fs = std::filesystem;
using detail::kStandardGravity;
using detail::read_peer_at2;
using nlohmann::json;

// tests/data/synthetic_pulse.AT2: a triangular pulse of ±0.2 g, 20 samples 0.01 s apart
const fs::path kRecord = fs::path(NSCD_TEST_DATA_DIR) / "synthetic_pulse.AT2";
const std::vector<double> kPulseInG{0,    .05, .1,  .15,  .2,   .15, .1,     .05,     0, -.05,
                                    -.1, -.15, -.2, -.15, -.1, -.05, 0, .0125, -.0125, 0};

constexpr const char* kHeader =
    "PEER NGA STRONG MOTION DATABASE RECORD\n"
    "Synthetic, 01/01/2026, nscd test, 000\n"
    "ACCELERATION TIME SERIES IN UNITS OF G\n";

class PeerAt2Test : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_dir = fs::temp_directory_path() / (std::string("nscd_test_peer_at2_") + info->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& name, const std::string& text) const {
    const fs::path path = m_dir / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // read_peer_at2's error message for a file of this text
  std::string error_of(const std::string& text) const {
    try {
      read_peer_at2(write("record.AT2", text));
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no InputError for:\n" << text;
    return {};
  }

  // the scene of one driven box whose velocity is `velocity`; read_scene's error message
  std::string scene_error_of(const json& velocity) const {
    try {
      read_scene(write_scene(velocity));
    } catch (const InputError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no InputError for:\n" << velocity.dump();
    return {};
  }

  fs::path write_scene(const json& velocity) const {
    json scene = json::parse(R"({
      "time": { "step": 1e-3, "duration": 0.3 },
      "materials": { "stone": { "density": 2000 } },
      "bodies": [ { "name": "table", "model": "driven", "material": "stone", "shape": { "box": [2, 2, 0.2] } } ]
    })");
    scene["bodies"][0]["motion"] = {{"velocity", velocity}};
    return write("scene.json", scene.dump(2));
  }

  fs::path m_dir;
};

#define EXPECT_HAS(message, part) EXPECT_NE((message).find(part), std::string::npos) << (message)

// the record of kPulseInG, in m/s², at t = k · 0.01 s
void expect_the_pulse(const detail::TimeTable& table) {
  ASSERT_EQ(table.values.size(), kPulseInG.size());
  ASSERT_EQ(table.times.size(), kPulseInG.size());
  for (std::size_t k = 0; k < kPulseInG.size(); ++k) {
    EXPECT_EQ(table.times[k], static_cast<double>(k) * 0.01) << k;
    EXPECT_EQ(table.values[k], kStandardGravity * kPulseInG[k]) << k;
  }
}

TEST_F(PeerAt2Test, ReadsTheCommittedRecordInMetresPerSecondSquared) {
  expect_the_pulse(read_peer_at2(kRecord));
  EXPECT_EQ(kStandardGravity, 9.80665);
}

TEST_F(PeerAt2Test, ReadsTheOlderSamplingLineWindowsLineEndsAndAnyValuesPerLine) {
  std::string text = std::string(kHeader) + "   20    .0100    NPTS, DT\n";
  for (std::size_t k = 0; k < kPulseInG.size(); ++k) text += fmt::format("{:15.7E}{}", kPulseInG[k], k % 3 == 2 ? "\n" : "");
  text += "\n\n";
  std::string crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  expect_the_pulse(read_peer_at2(write("older.at2", crlf)));
}

TEST_F(PeerAt2Test, ReadsTheSamplingLineWithoutCommaAndWithTrailingText) {
  std::string text = std::string(kHeader) + "NPTS=     20  DT=   0.0100 SEC,\n";
  for (const double a : kPulseInG) text += fmt::format(" {}\n", a);
  expect_the_pulse(read_peer_at2(write("variant.AT2", text)));
}

TEST(PeerAt2, IsChosenByTheExtensionInAnyCase) {
  EXPECT_TRUE(detail::is_peer_at2("quake/RSN6_IMPVALL.I_I-ELC180.AT2"));
  EXPECT_TRUE(detail::is_peer_at2("record.at2"));
  EXPECT_TRUE(detail::is_peer_at2("record.At2"));
  EXPECT_FALSE(detail::is_peer_at2("record.csv"));
  EXPECT_FALSE(detail::is_peer_at2("record.AT2.csv"));
  EXPECT_FALSE(detail::is_peer_at2("AT2"));
}

TEST_F(PeerAt2Test, RejectsAShortHeader) {
  EXPECT_HAS(error_of("PEER NGA STRONG MOTION DATABASE RECORD\nSynthetic\n"),
             "record.AT2: expected 4 header lines (PEER NGA .AT2 record), found 2");
}

TEST_F(PeerAt2Test, RejectsAnotherUnitThanG) {
  const std::string e = error_of(
      "PEER NGA STRONG MOTION DATABASE RECORD\nSynthetic\nVELOCITY TIME SERIES IN UNITS OF CM/S\n"
      "NPTS=     2, DT=   .0100 SEC\n 1 2\n");
  EXPECT_HAS(e, "record.AT2:3: expected accelerations in units of g");
  EXPECT_HAS(e, "found \"VELOCITY TIME SERIES IN UNITS OF CM/S\"");
}

TEST_F(PeerAt2Test, RejectsASamplingLineInNeitherForm) {
  const std::string e = error_of(std::string(kHeader) + "20 samples every 0.01 s\n");
  EXPECT_HAS(e, "record.AT2:4: expected the number of samples and the time step, \"NPTS= n, DT= dt SEC\" or "
                "\"n dt NPTS, DT\" (PEER NGA .AT2 record), found \"20 samples every 0.01 s\"");
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 20.5, DT= .01 SEC\n"), "record.AT2:4: expected the number");
}

TEST_F(PeerAt2Test, RejectsFewerThanTwoSamplesOrANonPositiveStep) {
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 1, DT= .01 SEC\n 0.1\n"),
             "record.AT2:4: expected NPTS ≥ 2 samples, found 1");
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 2, DT= 0 SEC\n 0.1 0.2\n"),
             "record.AT2:4: expected a time step DT > 0 [s], found 0");
}

TEST_F(PeerAt2Test, RejectsAValueThatIsNotANumber) {
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 4, DT= .01 SEC\n .1 .2\n .3 .4.5\n"),
             "record.AT2:6: expected accelerations in g (numbers separated by spaces), found \".4.5\"");
}

TEST_F(PeerAt2Test, RejectsMoreOrFewerValuesThanNpts) {
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 3, DT= .01 SEC\n .1 .2\n .3 .4\n"),
             "record.AT2:6: expected NPTS = 3 values (line 4), found more: \".4\"");
  EXPECT_HAS(error_of(std::string(kHeader) + "NPTS= 5, DT= .01 SEC\n .1 .2\n .3\n"),
             "record.AT2: expected NPTS = 5 values (line 4), found 3");
}

TEST_F(PeerAt2Test, ASceneReadsTheRecordAsAnAccelerationInMetresPerSecondSquared) {
  fs::copy_file(kRecord, m_dir / "pulse.AT2");
  const Scene s = read_scene(write_scene(
      json::parse(R"({"type": "table", "file": "pulse.AT2", "direction": [1, 0, 0], "scale": 0.5})")));
  const Motion& m = *s.bodies[0].motion_velocity;
  EXPECT_EQ(m.quantity, Motion::Quantity::Acceleration);
  EXPECT_EQ(m.scale, 0.5);
  expect_the_pulse({m.times, m.values});
  // "acceleration" may be said
  EXPECT_NO_THROW(read_scene(write_scene(json::parse(
      R"({"type": "table", "file": "pulse.AT2", "quantity": "acceleration", "direction": [1, 0, 0]})"))));
}

TEST_F(PeerAt2Test, ASceneRejectsAnotherQuantityForARecord) {
  fs::copy_file(kRecord, m_dir / "pulse.AT2");
  const std::string e = scene_error_of(
      json::parse(R"({"type": "table", "file": "pulse.AT2", "quantity": "velocity", "direction": [1, 0, 0]})"));
  EXPECT_HAS(e, "bodies[0].motion.velocity.quantity: expected \"acceleration\" or no quantity: a PEER NGA .AT2 "
                "file holds accelerations, found \"velocity\"");
  // a CSV table still needs its quantity
  write("pulse.csv", "0,0\n1,1\n");
  EXPECT_HAS(scene_error_of(json::parse(R"({"type": "table", "file": "pulse.csv", "direction": [1, 0, 0]})")),
             "missing required key \"quantity\"");
}

TEST_F(PeerAt2Test, ASceneNamesTheRecordAndItsLine) {
  write("pulse.AT2", std::string(kHeader) + "NPTS= 2, DT= .01 SEC\n .1 g\n");
  const std::string e =
      scene_error_of(json::parse(R"({"type": "table", "file": "pulse.AT2", "direction": [1, 0, 0]})"));
  EXPECT_HAS(e, "bodies[0].motion.velocity.file: ");
  EXPECT_HAS(e, "pulse.AT2:5: expected accelerations in g (numbers separated by spaces), found \"g\"");
}

}  // namespace
}  // namespace nscd::io
