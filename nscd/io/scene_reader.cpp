#include "nscd/io/json_reader.hpp"
#include "nscd/io/scene.hpp"
#include "nscd/io/scene_body_reader.hpp"
#include "nscd/io/scene_load_reader.hpp"
#include "solvers/solve.hpp"

#include <algorithm>
#include <set>
#include <utility>

namespace nscd::io {

namespace {

namespace fs = std::filesystem;
using detail::Value;

using MaterialPair = std::pair<std::string, std::string>;  // sorted

constexpr const char* kDefault = "default";  // material name of the default interaction

MaterialPair sorted_pair(const std::string& a, const std::string& b) {
  return a < b ? MaterialPair(a, b) : MaterialPair(b, a);
}

TimeSettings read_time(const Value& v) {
  v.expect_keys({"step", "duration", "output_interval", "output_every"});
  TimeSettings t;
  t.step = v.at("step").positive();
  t.duration = v.at("duration").positive();
  if (t.step > t.duration)
    v.at("step").fail(fmt::format("the step {} is longer than the duration {}", t.step, t.duration));
  // output: at most one of interval and every
  const auto interval = v.find("output_interval");
  const auto every = v.find("output_every");
  if (interval && every) every->fail("\"output_interval\" and \"output_every\" are exclusive; give one");
  if (interval) {
    t.output_interval = interval->number_if([&](double x) { return x >= t.step; },
                                            fmt::format("an interval ≥ the step {}", t.step));
  }
  if (every) t.output_every = every->integer_at_least(1);
  return t;
}

void read_integrator(const Value& v, Scene& scene) {
  v.expect_keys({"theta", "projection"});
  if (const auto x = v.find("theta")) scene.theta = x->number_in(0.5, 1.0);
  if (const auto x = v.find("projection")) scene.projection = x->boolean();
}

ContactSettings read_contact(const Value& v) {
  v.expect_keys({"model", "stiffness", "damping", "regularisation_velocity"});
  ContactSettings c;
  if (const auto x = v.find("model")) c.penalty = x->one_of({"nscd", "penalty"}) == 1;
  if (const auto x = v.find("stiffness")) c.stiffness = x->positive();
  if (const auto x = v.find("damping")) c.damping = x->non_negative();
  if (const auto x = v.find("regularisation_velocity")) c.regularisation_velocity = x->positive();
  if (c.penalty && !c.stiffness) v.fail_expected("a \"stiffness\" [N/m] with the penalty model");
  return c;
}

SolverSettings read_solver(const Value& v) {
  v.expect_keys({"type", "tolerance", "error_measure", "max_iterations", "min_iterations", "relaxation", "anderson_depth", "inner_tolerance",
                 "inner_max_iterations", "fail_on_divergence", "dump_every", "local_solver", "ccp_method",
                 "correction", "facets", "lcp_method"});
  SolverSettings s;
  auto choice = [&](const char* key, const std::vector<std::string>& names, std::string& field) {
    if (const auto x = v.find(key)) field = names[x->one_of(names)];
  };
  if (const auto x = v.find("type")) {
    const std::vector<std::string>& names = solvers::step_solver_names();
    s.type = solvers::parse_step_solver(names[x->one_of(names)], "solver.type");
  }
  choice("local_solver", {"alart_curnier", "jean_moreau", "de_saxce"}, s.local_solver);
  choice("ccp_method", {"apgd", "pgs"}, s.ccp_method);
  choice("lcp_method", {"auto", "lemke", "pgs"}, s.lcp_method);
  if (const auto x = v.find("correction")) s.correction = x->boolean();
  if (const auto x = v.find("facets")) s.facets = x->integer_at_least(3);
  if (const auto x = v.find("tolerance")) s.tolerance = x->positive();
  if (const auto x = v.find("error_measure"))
    s.error_measure = x->one_of({"velocity", "siconos"}) == 0 ? solvers::ErrorScaling::Velocity
                                                              : solvers::ErrorScaling::Siconos;
  if (const auto x = v.find("max_iterations")) s.max_iterations = x->integer_at_least(1);
  if (const auto x = v.find("min_iterations")) {
    s.min_iterations = x->integer_at_least(1);
    if (s.min_iterations > s.max_iterations)
      x->fail_expected(fmt::format("an integer ≤ max_iterations ({})", s.max_iterations));
  }
  if (const auto x = v.find("relaxation"))
    s.relaxation = x->number_if([](double w) { return w > 0 && w < 2; }, "a number in (0, 2)");
  if (const auto x = v.find("anderson_depth")) {
    s.anderson_depth = x->integer_at_least(0);
    if (s.anderson_depth > solvers::NlgsOptions::max_anderson_depth)
      x->fail_expected(fmt::format("an integer ≤ {}", solvers::NlgsOptions::max_anderson_depth));
  }
  if (const auto x = v.find("inner_tolerance")) s.inner_tolerance = x->positive();
  if (const auto x = v.find("inner_max_iterations")) s.inner_max_iterations = x->integer_at_least(1);
  if (const auto x = v.find("fail_on_divergence")) s.fail_on_divergence = x->boolean();
  if (const auto x = v.find("dump_every")) s.dump_every = x->integer_at_least(1);
  return s;
}

DetectionSettings read_detection(const Value& v) {
  v.expect_keys({"alert_distance", "max_penetration"});
  DetectionSettings d;
  if (const auto x = v.find("alert_distance")) d.alert_distance = x->non_negative();
  if (const auto x = v.find("max_penetration")) d.max_penetration = x->non_negative();
  return d;
}

FfrSettings read_ffr(const Value& v) {
  v.expect_keys({"fictitious_forces"});
  FfrSettings f;
  if (const auto x = v.find("fictitious_forces")) f.fictitious_forces = x->boolean();
  return f;
}

MeshingSettings read_meshing(const Value& v) {
  v.expect_keys({"size"});
  MeshingSettings m;
  if (const auto x = v.find("size")) m.size = x->positive();
  return m;
}

Material read_material(const Value& v) {
  v.expect_keys({"density", "young", "poisson", "damping", "modes", "static_correction", "contact_surface",
                 "unresolved_modes"});
  Material m;
  m.density = v.at("density").positive();
  if (const auto x = v.find("young")) m.young = x->positive();
  if (const auto x = v.find("poisson"))
    m.poisson = x->number_if([](double nu) { return nu > -1 && nu < 0.5; }, "a number in (-1, 0.5)");
  if (const auto damping = v.find("damping")) {
    damping->expect_keys({"mass", "stiffness"});
    if (const auto x = damping->find("mass")) m.damping_mass = x->non_negative();
    if (const auto x = damping->find("stiffness")) m.damping_stiffness = x->non_negative();
  }
  if (const auto x = v.find("modes")) m.modes = x->integer_at_least(0);
  if (const auto x = v.find("static_correction")) m.joint_correction = x->one_of({"none", "joints"}) == 1;
  if (const auto x = v.find("contact_surface")) m.shape_contact = x->one_of({"mesh", "shape"}) == 1;
  if (const auto x = v.find("unresolved_modes")) m.damp_unresolved = x->one_of({"trapezoidal", "backward_euler"}) == 1;
  return m;
}

std::map<std::string, Material> read_materials(const Value& v) {
  std::map<std::string, Material> materials;
  for (const auto& [name, value] : v.members()) {
    if (name == kDefault)
      value.fail("the name \"default\" is reserved for the default interaction");
    materials.emplace(name, read_material(value));
  }
  if (materials.empty()) v.fail_expected("at least one material");
  return materials;
}

// {"materials": ["a", "b"], ...} or {"materials": "default", ...}
Interaction read_interaction(const Value& v, const std::map<std::string, Material>& materials) {
  v.expect_keys({"materials", "friction", "restitution", "rolling_resistance", "tensile_strength", "cohesion",
                 "residual_friction"});
  Interaction in;
  const Value pair = v.at("materials");
  constexpr std::string_view kExpected = "a pair of material names [\"a\", \"b\"] or \"default\"";
  if (pair.json().is_string()) {
    if (pair.string() != kDefault) pair.fail_expected(kExpected);
    in.material_a = in.material_b = kDefault;
  } else {
    const std::vector<Value> names = pair.items();
    if (names.size() != 2) pair.fail_expected(kExpected);
    for (const Value& name : names) {
      const std::string s = name.string();
      if (!materials.contains(s))
        name.fail(fmt::format("unknown material \"{}\"{}", s, detail::did_you_mean(s, detail::material_names(materials))));
    }
    in.material_a = names[0].string();
    in.material_b = names[1].string();
  }
  in.friction = v.at("friction").non_negative();
  if (const auto x = v.find("restitution")) in.restitution = x->number_in(0.0, 1.0);
  if (const auto x = v.find("rolling_resistance")) in.rolling_resistance = x->non_negative();
  if (const auto x = v.find("tensile_strength")) in.tensile_strength = x->non_negative();
  if (const auto x = v.find("residual_friction")) in.residual_friction = x->non_negative();
  if (const auto x = v.find("cohesion")) {
    in.cohesion = x->non_negative();
    // the shifted cone of nscd/step/cohesion.hpp has its apex at −h c A / μ
    if (in.cohesion > 0 && in.friction == 0)
      x->fail("a cohesion c > 0 needs a friction μ > 0 (the cohesive law is a Coulomb cone shifted by c/μ); "
              "set \"friction\" or \"cohesion\": 0");
  }
  return in;
}

// cohesive laws (tensile_strength or cohesion > 0) bond rigid, fixed and driven bodies: a scene
// with one needs all its bodies so
Probe read_probe(const Value& v, const std::vector<Body>& bodies) {
  v.expect_keys({"name", "body", "point", "region"});
  Probe p;
  p.name = v.at("name").name();
  const Value body = v.at("body");
  p.body = body.string();
  if (std::none_of(bodies.begin(), bodies.end(), [&](const Body& b) { return b.name == p.body; })) {
    std::vector<std::string> names;
    for (const Body& b : bodies) names.push_back(b.name);
    body.fail(fmt::format("unknown body \"{}\"{}", p.body, detail::did_you_mean(p.body, names)));
  }
  // exactly one of a point and a region
  const auto point = v.find("point");
  const auto region = v.find("region");
  if (point.has_value() == region.has_value()) v.fail("expected exactly one of \"point\" and \"region\"");
  if (point) p.point = point->vec3();
  if (region) {
    region->expect_keys({"min", "max"});
    const Vec3 lo = region->at("min").vec3();
    const Value max = region->at("max");
    const Vec3 hi = max.vec3_if([&](const Vec3& x) { return (x.array() > lo.array()).all(); },
                                "3 numbers each greater than the corresponding \"min\"");
    p.region = std::make_pair(lo, hi);
  }
  return p;
}

OutputSettings read_output(const Value& v) {
  v.expect_keys({"vtk", "csv"});
  OutputSettings o;
  if (const auto x = v.find("vtk")) o.vtk = x->boolean();
  if (const auto x = v.find("csv")) o.csv = x->boolean();
  return o;
}

// names must be unique within a list: the second occurrence fails
template <class T>
void check_unique_names(const Value& list, const std::vector<T>& entries, std::string_view what) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto [it, inserted] = first.emplace(entries[i].name, i);
    if (!inserted)
      list.items()[i].at("name").fail(fmt::format("duplicate {} name \"{}\" (also {}[{}])", what,
                                                  entries[i].name, list.path(), it->second));
  }
}

// every pair of materials whose bodies can touch (two bodies, at least one not kinematic) needs
// an interaction, unless there is a default one
void check_interactions(const Value& root, const Scene& scene) {
  const std::vector<Value> items =
      root.find("interactions") ? root.at("interactions").items() : std::vector<Value>();
  std::map<MaterialPair, std::size_t> given;
  bool has_default = false;
  for (std::size_t i = 0; i < scene.interactions.size(); ++i) {
    const Interaction& in = scene.interactions[i];
    const MaterialPair key = sorted_pair(in.material_a, in.material_b);
    const auto [it, inserted] = given.emplace(key, i);
    if (!inserted)
      items[i].at("materials").fail(fmt::format("duplicate interaction between \"{}\" and \"{}\" (also interactions[{}])",
                                                key.first, key.second, it->second));
    has_default = has_default || in.material_a == kDefault;
  }
  if (has_default) return;

  // per material: one body, and one body that moves (first in scene order)
  std::map<std::string, const Body*> any_body, moving_body;
  for (const Body& b : scene.bodies) {
    any_body.emplace(b.material, &b);
    if (!is_kinematic(b.model)) moving_body.emplace(b.material, &b);
  }
  for (const auto& [material, mover] : moving_body) {
    for (const Body& other : scene.bodies) {
      if (&other == mover || given.contains(sorted_pair(material, other.material))) continue;
      root.document().fail("interactions", fmt::format("no interaction between materials \"{}\" and \"{}\" (bodies \"{}\" and \"{}\" "
                          "can touch); add {{\"materials\": [\"{}\", \"{}\"], \"friction\": ...}} or a "
                          "default interaction {{\"materials\": \"default\", \"friction\": ...}}",
                          material, other.material, mover->name, other.name, material, other.material));
    }
  }
}

// rolling resistance acts on rigid scenes only (nscd/step/rolling_resistance.hpp): a nonzero
// coefficient with a finite-element body in the scene fails at the coefficient
// rolling resistance and cohesion (the laws of nscd/step/rolling_resistance.hpp and cohesion.hpp)
// need a scene of rigid, fixed and driven bodies, and do not go together
void check_rolling_and_cohesion(const Value& root, const Scene& scene) {
  const auto meshed = std::find_if(scene.bodies.begin(), scene.bodies.end(), [](const Body& b) { return has_mesh(b.model); });
  const auto rolling = [](const Interaction& in) { return in.rolling_resistance > 0; };
  const auto cohesive = [](const Interaction& in) { return in.cohesion > 0 || in.tensile_strength > 0; };
  const bool any_rolling = std::any_of(scene.interactions.begin(), scene.interactions.end(), rolling);
  for (std::size_t i = 0; i < scene.interactions.size(); ++i) {
    const Interaction& in = scene.interactions[i];
    if (!rolling(in) && !cohesive(in)) continue;
    const Value key = root.at("interactions").items()[i].at(
        rolling(in) ? "rolling_resistance" : in.cohesion > 0 ? "cohesion" : "tensile_strength");
    const char* what = rolling(in) ? "rolling resistance" : "a cohesive interaction";
    if (meshed != scene.bodies.end())
      key.fail(fmt::format("{} needs a scene of rigid, fixed and driven bodies, but body \"{}\" has the "
                            "finite-element model \"{}\"; remove it or make that body rigid",
                            what, meshed->name, to_string(meshed->model)));
    if (cohesive(in) && any_rolling)
      key.fail("cohesive joints and rolling resistance cannot be combined in one scene; remove one of them");
  }
}

// the scene of a parsed document; its file name gives the default name and the folder of meshes
Scene read_scene_document(const detail::Document& doc) {
  const fs::path& file = doc.file();
  const Value root = doc.root();
  root.expect_keys({"name", "description", "time", "integrator", "contact", "gravity", "solver", "detection", "ffr",
                    "meshing", "materials", "interactions", "bodies", "probes", "loads", "output"});

  Scene scene;
  scene.file = file;
  const fs::path scene_dir = file.parent_path();

  // header and global settings; the name defaults to the file stem
  scene.name = file.stem().string();
  if (const auto name = root.find("name")) {
    scene.name = name->name();
    if (scene.name.find_first_of("/\\") != std::string::npos)
      name->fail_expected("a name usable as a file name (no slashes)");
  }
  if (const auto x = root.find("description")) scene.description = x->string();
  scene.time = read_time(root.at("time"));
  if (const auto x = root.find("integrator")) read_integrator(*x, scene);
  if (const auto x = root.find("contact")) scene.contact = read_contact(*x);
  if (const auto x = root.find("gravity")) scene.gravity = x->vec3();
  if (const auto x = root.find("solver")) scene.solver = read_solver(*x);
  if (const auto x = root.find("detection")) scene.detection = read_detection(*x);
  if (const auto x = root.find("ffr")) scene.ffr = read_ffr(*x);
  if (const auto x = root.find("meshing")) scene.meshing = read_meshing(*x);
  if (const auto x = root.find("output")) scene.output = read_output(*x);

  // materials, then the interactions between them
  scene.materials = read_materials(root.at("materials"));
  if (const auto list = root.find("interactions")) {
    for (const Value& item : list->items())
      scene.interactions.push_back(read_interaction(item, scene.materials));
  }

  // bodies
  const Value bodies = root.at("bodies");
  for (const Value& item : bodies.items())
    scene.bodies.push_back(detail::read_body(item, scene.materials, scene_dir));
  if (scene.bodies.empty()) bodies.fail_expected("at least one body");
  check_unique_names(bodies, scene.bodies, "body");

  // probes
  if (const auto list = root.find("probes")) {
    for (const Value& item : list->items()) scene.probes.push_back(read_probe(item, scene.bodies));
    check_unique_names(*list, scene.probes, "probe");
  }

  // applied loads
  if (const auto list = root.find("loads")) {
    for (const Value& item : list->items()) scene.loads.push_back(detail::read_load(item, scene.bodies, scene_dir));
  }

  check_interactions(root, scene);
  check_rolling_and_cohesion(root, scene);
  return scene;
}

}  // namespace

Scene read_scene(const fs::path& file) { return read_scene_document(detail::Document(file)); }

Scene read_scene_text(std::string text, const fs::path& file) {
  return read_scene_document(detail::Document(std::move(text), file));
}

}  // namespace nscd::io
