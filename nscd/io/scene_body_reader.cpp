#include "nscd/io/scene_body_reader.hpp"

#include "nscd/io/csv_table.hpp"
#include "nscd/io/peer_at2.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <vector>

namespace nscd::io {

namespace detail {

namespace {

// the names of a body's model, in the order of BodyKind
const std::vector<std::string>& body_kind_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const BodyKind kind : kBodyKinds) out.emplace_back(to_string(kind));
    return out;
  }();
  return names;
}

}  // namespace

namespace {

namespace fs = std::filesystem;

constexpr double kDegenerateRatio = 1e-9;  // hull extent below this × size counts as flat

// convex vertices must span a volume: four points far from each other, picked greedily
bool spans_volume(const std::vector<Vec3>& p) {
  const auto farthest = [&](auto&& distance) {
    return *std::max_element(p.begin(), p.end(), [&](const Vec3& x, const Vec3& y) {
      return distance(x) < distance(y);
    });
  };
  const Vec3 a = p[0];
  const Vec3 b = farthest([&](const Vec3& x) { return (x - a).norm(); });
  const double size = (b - a).norm();
  if (size == 0) return false;
  const Vec3 ab = (b - a) / size;
  const Vec3 c = farthest([&](const Vec3& x) { return ab.cross(x - a).norm(); });
  const Vec3 normal = ab.cross(c - a);
  if (normal.norm() <= kDegenerateRatio * size) return false;
  const Vec3 n = normal.normalized();
  const Vec3 d = farthest([&](const Vec3& x) { return std::abs(n.dot(x - a)); });
  return std::abs(n.dot(d - a)) > kDegenerateRatio * size;
}

ConvexShape read_convex(const Value& v) {
  v.expect_keys({"vertices"});
  const Value vertices = v.at("vertices");
  ConvexShape shape;
  for (const Value& vertex : vertices.items()) shape.vertices.push_back(vertex.vec3());
  if (shape.vertices.size() < 4 || !spans_volume(shape.vertices))
    vertices.fail(fmt::format("expected at least 4 vertices spanning a volume, found {} {}",
                              shape.vertices.size(),
                              shape.vertices.size() < 4 ? "vertices" : "flat or collinear vertices"));
  return shape;
}

MeshShape read_mesh(const Value& v, BodyKind model, const fs::path& scene_dir) {
  if (!has_mesh(model))
    v.fail(fmt::format("a mesh shape needs model \"ffr\", \"tl\" or \"linear\", found model \"{}\"",
                       to_string(model)));
  const fs::path file = (scene_dir / v.string()).lexically_normal();
  const std::string extension = file.extension().string();
  if (extension != ".msh" && extension != ".vtu")
    v.fail_expected("a Gmsh .msh or VTK .vtu file");
  std::error_code ec;
  if (!fs::is_regular_file(file, ec) || !std::ifstream(file))
    v.fail(fmt::format("cannot read the mesh file \"{}\"", file.string()));
  return MeshShape{file};
}

ShapeSpec read_shape(const Value& v, BodyKind model, const fs::path& scene_dir) {
  v.expect_keys({"box", "sphere", "convex", "mesh"});
  if (v.json().size() != 1)
    v.fail_expected("exactly one of \"box\", \"sphere\", \"convex\", \"mesh\"");
  if (const auto box = v.find("box"))
    return BoxShape{box->vec3_if([](const Vec3& s) { return (s.array() > 0).all(); },
                                 "3 positive numbers")};
  if (const auto sphere = v.find("sphere")) return SphereShape{sphere->positive()};
  if (const auto convex = v.find("convex")) return read_convex(*convex);
  return read_mesh(v.at("mesh"), model, scene_dir);
}

Quat read_orientation(const Value& v) {
  v.expect_keys({"quaternion", "axis_angle"});
  if (v.json().size() != 1) v.fail_expected("exactly one of \"quaternion\", \"axis_angle\"");
  if (const auto quaternion = v.find("quaternion")) {
    // [w, x, y, z], normalised
    const std::vector<Value> items = quaternion->items();
    if (items.size() != 4) quaternion->fail_expected("[w, x, y, z]");
    const Quat q(items[0].number(), items[1].number(), items[2].number(), items[3].number());
    if (!(q.coeffs().stableNorm() > 0)) quaternion->fail_expected("a non-zero quaternion [w, x, y, z]");
    return Quat(q.coeffs().stableNormalized());
  }
  const Value axis_angle = v.at("axis_angle");
  axis_angle.expect_keys({"axis", "angle"});
  const Vec3 axis = axis_angle.at("axis").direction();
  return Quat(Eigen::AngleAxisd(axis_angle.at("angle").number(), axis));
}

// a table motion: a CSV file (time,value) or a PEER NGA .AT2 record, whose quantity is the
// acceleration (docs/scene_format.md, Tables)
void read_table(const Value& v, const fs::path& scene_dir, Motion& m) {
  v.expect_keys({"type", "file", "quantity", "direction", "scale"});
  // the table file is relative to the scene's folder; its errors carry file:line
  const Value file = v.at("file");
  m.file = (scene_dir / file.string()).lexically_normal();
  const bool at2 = is_peer_at2(m.file);
  const std::optional<Value> quantity = at2 ? v.find("quantity") : v.at("quantity");
  m.quantity = quantity ? static_cast<Motion::Quantity>(quantity->one_of({"velocity", "acceleration", "displacement"}))
                        : Motion::Quantity::Acceleration;
  if (at2 && m.quantity != Motion::Quantity::Acceleration)
    quantity->fail_expected("\"acceleration\" or no quantity: a PEER NGA .AT2 file holds accelerations");
  m.direction = v.at("direction").direction();
  if (const auto scale = v.find("scale")) m.scale = scale->number();
  try {
    TimeTable table = at2 ? read_peer_at2(m.file) : read_time_table(m.file);
    m.times = std::move(table.times);
    m.values = std::move(table.values);
  } catch (const InputError& e) {
    file.fail(e.what());
  }
}

Motion read_motion(const Value& v, const fs::path& scene_dir) {
  // keys of every type first (for suggestions), then those of the given type
  v.expect_keys({"type", "value", "direction", "amplitude", "angular_frequency", "start", "phase",
                 "file", "quantity", "scale"});
  Motion m;
  m.type = static_cast<Motion::Type>(v.at("type").one_of({"constant", "sine", "table"}));
  switch (m.type) {
    case Motion::Type::Constant:
      v.expect_keys({"type", "value"});
      m.value = v.at("value").vec3();
      break;
    case Motion::Type::Sine:
      v.expect_keys({"type", "direction", "amplitude", "angular_frequency", "start", "phase"});
      m.direction = v.at("direction").direction();
      m.amplitude = v.at("amplitude").number();
      m.angular_frequency = v.at("angular_frequency").positive();
      m.start = v.at("start").non_negative();
      if (const auto phase = v.find("phase")) m.phase = phase->number();
      break;
    case Motion::Type::Table:
      read_table(v, scene_dir, m);
      break;
  }
  return m;
}

// hexahedra of one subdivided box at most: a million (3·10⁶ unknowns, gigabytes of factorised
// stiffness) is far beyond what a floating-frame or reference block needs, and a typo such as
// [2000, 2000, 2000] must not exhaust the memory
constexpr long kMaxElementsPerBody = 1'000'000;

std::array<int, 3> read_elements(const Value& v) {
  const std::vector<Value> items = v.items();
  if (items.size() != 3) v.fail_expected("3 positive integers [nx, ny, nz]");
  const std::array<int, 3> n{items[0].integer_at_least(1), items[1].integer_at_least(1), items[2].integer_at_least(1)};
  const double total = static_cast<double>(n[0]) * n[1] * n[2];  // exact below 2⁵³, no overflow
  if (total > static_cast<double>(kMaxElementsPerBody))
    v.fail(fmt::format("{} × {} × {} = {} hexahedra; expected at most {} per body", n[0], n[1], n[2], total,
                       kMaxElementsPerBody));
  return n;
}

// the tetrahedra's size of a body meshed automatically when simulated as ffr, tl or linear (by
// its model or `nscd run --model`); shape_mesh.hpp checks the count against the shape
double read_mesh_size(const Value& v, const Body& b) {
  if (is_kinematic(b.model))
    v.fail(fmt::format("\"mesh_size\" applies to rigid, ffr, tl or linear bodies, found model \"{}\"",
                       to_string(b.model)));
  if (std::holds_alternative<MeshShape>(b.shape)) v.fail("\"mesh_size\" does not apply to a mesh shape");
  if (b.elements) v.fail("\"mesh_size\" and \"elements\" exclude each other: tetrahedra or hexahedra");
  return v.positive();
}

// the number of elastic modes of a body simulated as ffr (by its model or `nscd run --model`)
int read_modes(const Value& v, const Body& b) {
  if (b.model != BodyKind::Ffr && b.model != BodyKind::Rigid)
    v.fail(fmt::format("\"modes\" applies to ffr bodies (or rigid ones run with --model ffr), found model \"{}\"",
                       to_string(b.model)));
  return v.integer_at_least(0);
}

// the static correction of a body simulated as ffr: "none" or "joints" (true)
bool read_static_correction(const Value& v, const Body& b) {
  if (b.model != BodyKind::Ffr && b.model != BodyKind::Rigid)
    v.fail(fmt::format("\"static_correction\" applies to ffr bodies (or rigid ones run with --model ffr), found "
                       "model \"{}\"", to_string(b.model)));
  return v.one_of({"none", "joints"}) == 1;
}

// the contact surface of a body simulated as ffr: "mesh" or "shape" (true)
bool read_contact_surface(const Value& v, const Body& b) {
  if (b.model != BodyKind::Ffr && b.model != BodyKind::Rigid)
    v.fail(fmt::format("\"contact_surface\" applies to ffr bodies (or rigid ones run with --model ffr), found "
                       "model \"{}\"", to_string(b.model)));
  return v.one_of({"mesh", "shape"}) == 1;
}

// how a body simulated as ffr integrates its modes the step does not resolve: "trapezoidal" or
// "backward_euler" (true)
bool read_unresolved_modes(const Value& v, const Body& b) {
  if (b.model != BodyKind::Ffr && b.model != BodyKind::Rigid)
    v.fail(fmt::format("\"unresolved_modes\" applies to ffr bodies (or rigid ones run with --model ffr), found "
                       "model \"{}\"", to_string(b.model)));
  return v.one_of({"trapezoidal", "backward_euler"}) == 1;
}

}  // namespace

std::vector<std::string> material_names(const std::map<std::string, Material>& materials) {
  std::vector<std::string> names;
  for (const auto& entry : materials) names.push_back(entry.first);
  return names;
}

Body read_body(const Value& v, const std::map<std::string, Material>& materials,
               const fs::path& scene_dir) {
  v.expect_keys({"name", "model", "material", "shape", "elements", "mesh_size", "modes", "static_correction",
                 "contact_surface", "unresolved_modes", "position", "orientation", "velocity", "angular_velocity",
                 "motion"});
  Body b;
  b.name = v.at("name").name();
  b.model = kBodyKinds[v.at("model").one_of(body_kind_names())];

  // the material must exist; finite-element models need its elastic constants
  const Value material = v.at("material");
  b.material = material.string();
  const auto it = materials.find(b.material);
  if (it == materials.end())
    material.fail(fmt::format("unknown material \"{}\"{}", b.material,
                              did_you_mean(b.material, material_names(materials))));
  if (has_mesh(b.model) && (!it->second.young || !it->second.poisson))
    material.fail(fmt::format("material \"{}\" needs \"young\" and \"poisson\" for model \"{}\"",
                              b.material, to_string(b.model)));

  b.shape = read_shape(v.at("shape"), b.model, scene_dir);

  // elements: the hexahedral subdivision of a finite-element box (without: tetrahedra)
  const bool is_fe_box = has_mesh(b.model) && std::holds_alternative<BoxShape>(b.shape);
  if (const auto elements = v.find("elements")) {
    if (!is_fe_box)
      elements->fail("\"elements\" applies only to a box shape with model \"ffr\", \"tl\" or \"linear\"");
    b.elements = read_elements(*elements);
  }
  if (const auto mesh_size = v.find("mesh_size")) b.mesh_size = read_mesh_size(*mesh_size, b);
  if (const auto modes = v.find("modes")) b.modes = read_modes(*modes, b);
  if (const auto correction = v.find("static_correction")) b.joint_correction = read_static_correction(*correction, b);
  if (const auto surface = v.find("contact_surface")) b.shape_contact = read_contact_surface(*surface, b);
  if (const auto unresolved = v.find("unresolved_modes")) b.damp_unresolved = read_unresolved_modes(*unresolved, b);

  // pose
  if (const auto position = v.find("position")) b.position = position->vec3();
  if (const auto orientation = v.find("orientation")) b.orientation = read_orientation(*orientation);

  // initial velocities: none for kinematic bodies (driven ones take theirs from motion)
  for (const char* key : {"velocity", "angular_velocity"}) {
    const auto value = v.find(key);
    if (!value) continue;
    if (b.model == BodyKind::Fixed) value->fail("a fixed body takes no initial velocity");
    if (b.model == BodyKind::Driven) value->fail("a driven body takes its velocity from \"motion\"");
    (std::string_view(key) == "velocity" ? b.velocity : b.angular_velocity) = value->vec3();
  }

  // prescribed motion: required for driven bodies, forbidden for the others
  const auto motion = v.find("motion");
  if (b.model == BodyKind::Driven) {
    if (!motion) v.fail("a driven body needs \"motion\": {\"velocity\": {...}}");
    motion->expect_keys({"velocity", "angular_velocity"});
    b.motion_velocity = read_motion(motion->at("velocity"), scene_dir);
    if (const auto angular = motion->find("angular_velocity"))
      b.motion_angular_velocity = read_motion(*angular, scene_dir);
  } else if (motion) {
    motion->fail(fmt::format("\"motion\" applies only to model \"driven\", found model \"{}\"",
                             to_string(b.model)));
  }
  return b;
}

}  // namespace detail
}  // namespace nscd::io
