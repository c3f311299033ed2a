#include "nscd/io/scene_load_reader.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/csv_table.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace nscd::io::detail {

namespace {

namespace fs = std::filesystem;

// fixed and driven bodies have a prescribed motion; forces and moments enter the free motion of
// rigid bodies only, a body acceleration every body's (as gravity does)
void check_loadable(const Value& where, const Body& body, bool acceleration_only) {
  if (is_kinematic(body.model))
    where.fail(fmt::format("body \"{}\" is {}: its motion is prescribed, loads act on bodies that move freely",
                           body.name, to_string(body.model)));
  if (body.model != BodyKind::Rigid && !acceleration_only)
    where.fail(fmt::format("body \"{}\" is {}: forces and moments act on rigid bodies only (a finite-element "
                           "body takes an \"acceleration\" alone)",
                           body.name, to_string(body.model)));
}

// "all" or a non-empty list of distinct body names, in scene order
std::vector<std::string> read_load_bodies(const Value& v, const std::vector<Body>& bodies, bool acceleration_only) {
  std::vector<std::string> names;
  for (const Body& b : bodies) names.push_back(b.name);
  std::vector<std::string> selected;
  if (v.json().is_string()) {
    // every body that moves: fixed and driven bodies keep their prescribed motion
    if (v.string() != "all") v.fail_expected("\"all\" or a list of body names");
    for (const Body& b : bodies) {
      if (is_kinematic(b.model)) continue;
      check_loadable(v, b, acceleration_only);
      selected.push_back(b.name);
    }
    if (selected.empty()) v.fail("\"all\" selects no body: every body is fixed or driven");
    return selected;
  }
  const std::vector<Value> items = v.items();
  if (items.empty()) v.fail_expected("\"all\" or a non-empty list of body names");
  std::set<std::string> seen;
  for (const Value& item : items) {
    const std::string name = item.string();
    const auto body = std::find(names.begin(), names.end(), name);
    if (body == names.end()) item.fail(fmt::format("unknown body \"{}\"{}", name, did_you_mean(name, names)));
    if (!seen.insert(name).second) item.fail(fmt::format("body \"{}\" is listed twice", name));
    check_loadable(item, bodies[body - names.begin()], acceleration_only);
  }
  for (const std::string& name : names)
    if (seen.contains(name)) selected.push_back(name);
  return selected;
}

LoadTime read_load_time(const Value& v, const fs::path& scene_dir) {
  LoadTime time;
  time.type = static_cast<LoadTime::Type>(v.at("type").one_of({"constant", "ramp", "table"}));
  switch (time.type) {
    case LoadTime::Type::Constant:
      v.expect_keys({"type"});
      break;
    case LoadTime::Type::Ramp: {
      v.expect_keys({"type", "start", "end"});
      time.start = v.at("start").non_negative();
      time.end = v.at("end").number_if([&](double t) { return t > time.start; },
                                       fmt::format("a time greater than \"start\" ({})", time.start));
      break;
    }
    case LoadTime::Type::Table: {
      v.expect_keys({"type", "file"});
      // relative to the scene's folder; the table's errors carry file:line
      const Value file = v.at("file");
      time.file = (scene_dir / file.string()).lexically_normal();
      try {
        TimeTable table = read_time_table(time.file);
        time.times = std::move(table.times);
        time.values = std::move(table.values);
      } catch (const InputError& e) {
        file.fail(e.what());
      }
      break;
    }
  }
  return time;
}

}  // namespace

Load read_load(const Value& v, const std::vector<Body>& bodies, const fs::path& scene_dir) {
  v.expect_keys({"bodies", "force", "moment", "acceleration", "time"});
  Load load;
  const auto force = v.find("force"), moment = v.find("moment"), acceleration = v.find("acceleration");
  if (!force && !moment && !acceleration) v.fail("expected at least one of \"force\", \"moment\" and \"acceleration\"");
  if (force) load.force = force->vec3();
  if (moment) load.moment = moment->vec3();
  if (acceleration) load.acceleration = acceleration->vec3();
  load.bodies = read_load_bodies(v.at("bodies"), bodies, !force && !moment);
  if (const auto time = v.find("time")) load.time = read_load_time(*time, scene_dir);
  return load;
}

}  // namespace nscd::io::detail
