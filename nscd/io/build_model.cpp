#include "nscd/io/build_model.hpp"

#include "contact/congruence.hpp"
#include "contact/mass_properties.hpp"
#include "ffr/point_location.hpp"
#include "nscd/core/error.hpp"
#include "nscd/io/joint_loads.hpp"
#include "nscd/io/mesh_file.hpp"
#include "nscd/io/modal_cache.hpp"
#include "nscd/io/shape_mesh.hpp"
#include "nscd/step/penalty_contact.hpp"
#include "nscd/step/shape_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <string>

namespace nscd::io {
namespace {

// activation tolerance on the predicted gap, relative to the smallest body diameter
constexpr double kActivationGapFraction = 1e-6;

// two FE bodies' convex shapes are turned copies of each other (contact/congruence.hpp) when
// their vertices match within this fraction of the bounding radius: ten times the rounding of the
// vertices scenes/gen_arch.py writes (9 significant digits: 5e-9 m on coordinates below 10 m, 1e-8
// of a voussoir's radius of 0.62 m), and far below any joint's tolerance or element's size
constexpr double kTurnedCopy = 1e-7;

// tessellated unit sphere for display: latitude–longitude quads, triangles at the poles
DisplayMesh unit_sphere_display() {
  constexpr double radius = 1.0;
  constexpr int kRings = 8, kSectors = 16;
  DisplayMesh mesh;
  mesh.vertices_B.push_back(Vec3(0, 0, radius));
  for (int i = 1; i < kRings; ++i) {
    const double polar = std::numbers::pi * i / kRings;
    for (int j = 0; j < kSectors; ++j) {
      const double azimuth = 2 * std::numbers::pi * j / kSectors;
      mesh.vertices_B.push_back(radius * Vec3(std::sin(polar) * std::cos(azimuth),
                                              std::sin(polar) * std::sin(azimuth), std::cos(polar)));
    }
  }
  mesh.vertices_B.push_back(Vec3(0, 0, -radius));
  const int south = static_cast<int>(mesh.vertices_B.size()) - 1;
  auto ring = [](int i, int j) { return 1 + (i - 1) * kSectors + (j % kSectors); };
  for (int j = 0; j < kSectors; ++j) {
    mesh.polygons.push_back({0, ring(1, j), ring(1, j + 1)});
    for (int i = 1; i + 1 < kRings; ++i)
      mesh.polygons.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j + 1)});
    mesh.polygons.push_back({south, ring(kRings - 1, j + 1), ring(kRings - 1, j)});
  }
  return mesh;
}

DrivenMotion::TableQuantity table_quantity(Motion::Quantity quantity) {
  switch (quantity) {
    case Motion::Quantity::Velocity: return DrivenMotion::TableQuantity::Velocity;
    case Motion::Quantity::Acceleration: return DrivenMotion::TableQuantity::Acceleration;
    case Motion::Quantity::Displacement: break;
  }
  return DrivenMotion::TableQuantity::Displacement;
}

// a driven body's motion as the scene gives it (validated by read_scene), a table's values scaled
DrivenMotion driven_motion(const Motion& motion) {
  switch (motion.type) {
    case Motion::Type::Constant:
      return DrivenMotion::constant(motion.value);
    case Motion::Type::Sine:
      return DrivenMotion::sine(motion.direction, motion.amplitude, motion.angular_frequency, motion.start,
                                motion.phase);
    case Motion::Type::Table:
      break;
  }
  std::vector<double> values = motion.values;
  for (double& f : values) f *= motion.scale;
  return DrivenMotion::table(table_quantity(motion.quantity), motion.direction, motion.times, values);
}

// the mesh file of a body
ffr::Mesh file_mesh(const MeshShape& mesh, const std::string& where) {
  try {
    return read_mesh_file(mesh.file);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}.shape.mesh: {}", where, e.what()));
  }
}

// the tetrahedra of a body's rigid shape (shape_mesh.hpp), in the shape's frame; the size from
// the body, the scene or the shape, and at most kMaxTetrahedra
ffr::Mesh automatic_mesh(const Scene& scene, const Body& body, const std::string& where,
                         const contact::Shape& shape) {
  const double size = body.mesh_size.value_or(scene.meshing.size.value_or(default_mesh_size(shape)));
  const double count = expected_tetrahedra(shape, size);
  if (count > kMaxTetrahedra) {
    const std::string source = body.mesh_size    ? where + ".mesh_size"
                               : scene.meshing.size ? fmt::format("{}: meshing.size", scene.file.string())
                                                    : where + ": the default mesh size";
    throw InputError(fmt::format("{}: {:.4g} m gives about {:.3g} tetrahedra for body \"{}\"; expected at most {:.0e} "
                                 "per body: set \"mesh_size\" to {:.3g} m or more",
                                 source, size, count, body.name, kMaxTetrahedra,
                                 size * std::cbrt(count / kMaxTetrahedra)));
  }
  return *tetrahedral_mesh(shape, size, where);
}

// a convex shape meshed for this model and its vertex_radii (contact/congruence.hpp)
struct MeshedShape {
  contact::ConvexPolyhedron poly;
  std::vector<double> radii;
};

// the convex shapes meshed so far for this model, one of each set of turned copies
using MeshedShapes = std::vector<MeshedShape>;

// a shape meshed before in this model, and the rotation that turns it onto a body's
struct TurnedCopy {
  contact::ConvexPolyhedron first;
  Mat3 rotation;
};

// for a body meshed from its convex shape (no mesh file, no box "elements"): the shape meshed
// before of which `shape` is a turned copy (kTurnedCopy), or none, `shape` then added to `meshed`
std::optional<TurnedCopy> turned_copy(const Body& body, const contact::Shape& shape, MeshedShapes& meshed) {
  const auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape);
  if (poly == nullptr || std::holds_alternative<MeshShape>(body.shape) || body.elements) return std::nullopt;
  const double tolerance = kTurnedCopy * contact::bounding_radius(shape);
  std::vector<double> radii = contact::vertex_radii(*poly);
  for (const MeshedShape& first : meshed)
    if (contact::radii_match(first.radii, radii, tolerance))
      if (const std::optional<Mat3> R = contact::rotation_onto(first.poly, *poly, tolerance))
        return TurnedCopy{first.poly, *R};
  meshed.push_back({*poly, std::move(radii)});
  return std::nullopt;
}

// the finite-element mesh of a body as built (a subdivided box, a mesh file, or the tetrahedra
// of its rigid shape `shape` in the shape's frame), and the offset from those coordinates to the
// scene's (`centroid` for the tetrahedra; none for the others, already in the scene's)
std::pair<ffr::Mesh, std::optional<Vec3>> finite_element_mesh(const Scene& scene, const Body& body,
                                                              const std::string& where, const contact::Shape& shape,
                                                              const Vec3& centroid) {
  if (const auto* mesh = std::get_if<MeshShape>(&body.shape)) return {file_mesh(*mesh, where), std::nullopt};
  if (body.elements) return {ffr::make_box_mesh(std::get<BoxShape>(body.shape).size, *body.elements), std::nullopt};
  return {automatic_mesh(scene, body, where, shape), centroid};
}

// the elastic modes kept by an FFR body (0: all, full FFR): `nscd run --modes`, else the body's
// "modes", else its material's; and where that number comes from, for messages
std::pair<int, std::string> elastic_modes(const Scene& scene, const Body& body, const std::string& where) {
  if (scene.ffr.modes) return {*scene.ffr.modes, fmt::format("--modes {}", *scene.ffr.modes)};
  if (body.modes) return {*body.modes, where + ".modes"};
  const auto& modes = scene.materials.at(body.material).modes;
  return {modes.value_or(0), fmt::format("{}: materials.{}.modes", scene.file.string(), body.material)};
}

// whether a modal FFR body gets the static correction of its joints: `nscd run
// --static-correction`, else the body's "static_correction", else its material's (default "none")
bool joint_correction(const Scene& scene, const Body& body) {
  if (scene.ffr.joint_correction) return *scene.ffr.joint_correction;
  return body.joint_correction.value_or(scene.materials.at(body.material).joint_correction.value_or(false));
}

// whether an FFR body's contacts are on its shape's faces: `nscd run --contact-surface`, else the
// body's "contact_surface", else its material's (default "mesh")
bool shape_contact(const Scene& scene, const Body& body) {
  if (scene.ffr.shape_contact) return *scene.ffr.shape_contact;
  return body.shape_contact.value_or(scene.materials.at(body.material).shape_contact.value_or(false));
}

// how a modal FFR body integrates its unresolved modes (ffr_body.hpp eq. R3): `nscd run
// --unresolved-modes`, else the body's "unresolved_modes", else its material's (default "trapezoidal")
ffr::UnresolvedModes unresolved_modes(const Scene& scene, const Body& body) {
  const bool damped = scene.ffr.damp_unresolved.value_or(
      body.damp_unresolved.value_or(scene.materials.at(body.material).damp_unresolved.value_or(false)));
  return damped ? ffr::UnresolvedModes::BackwardEuler : ffr::UnresolvedModes::Trapezoidal;
}

// where a body's contact surface comes from, for messages
std::string contact_surface_source(const Scene& scene, const Body& body, const std::string& where) {
  if (scene.ffr.shape_contact) return "--contact-surface shape";
  if (body.shape_contact) return where + ".contact_surface";
  return fmt::format("{}: materials.{}.contact_surface", scene.file.string(), body.material);
}

// the boundary triangles of an FFR body on each face of its convex shape (body frame) and their
// grids, for contact on the faces (shape_contacts.hpp); the body's mesh must be made from that shape
ShapeFaces body_shape_faces(const Scene& scene, const Body& in, const std::string& where, const contact::Shape& shape,
                            const ffr::FfrBody& fe) {
  const auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape);
  std::optional<ShapeFaces> faces;
  if (poly != nullptr && !std::holds_alternative<MeshShape>(in.shape))
    faces = shape_faces(*poly, fe.mesh, fe.surface);
  NSCD_THROW_UNLESS(faces.has_value(), "{}: body \"{}\": \"contact_surface\": \"shape\" needs a mesh made from a box "
                    "or a convex shape, found {}; use \"mesh\"", contact_surface_source(scene, in, where), in.name,
                    poly == nullptr                              ? "a sphere"
                    : std::holds_alternative<MeshShape>(in.shape) ? "a mesh file"
                                                                  : "a mesh whose boundary is not on the shape's faces");
  return *std::move(faces);
}

// the modal basis of an FFR body's mesh as built (modal_cache.hpp) with the static correction for
// `corrections`, or null for a full FFR body
std::shared_ptr<const ffr::ModalBasis> body_modes(const Scene& scene, const Body& body, const std::string& where,
                                                  const ffr::Mesh& mesh, const ffr::FfrMaterial& material,
                                                  std::span<const ffr::NodalLoad> corrections = {}) {
  const auto [k, source] = elastic_modes(scene, body, where);
  if (k == 0) return nullptr;
  try {
    return cached_modal_basis(mesh, material.density, material.young, material.poisson, k, corrections);
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: body \"{}\": {}", source, body.name, e.what()));
  }
}

// shape in the body frame, and the centre of mass where the shape's coordinates put it
std::pair<contact::Shape, Vec3> body_shape(const Body& body, const std::string& where) {
  if (const auto* box = std::get_if<BoxShape>(&body.shape)) return {contact::make_box(box->size), Vec3::Zero()};
  if (const auto* sphere = std::get_if<SphereShape>(&body.shape))
    return {contact::Sphere{sphere->radius}, Vec3::Zero()};
  if (const auto* convex = std::get_if<ConvexShape>(&body.shape)) {
    contact::ConvexPolyhedron hull;
    try {
      hull = contact::convex_hull(convex->vertices);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}.shape.convex.vertices: {}", where, e.what()));
    }
    const Vec3 centroid = contact::mass_properties(hull).centroid;
    return {contact::translated(hull, -centroid), centroid};
  }
  // a mesh: the hull of its nodes
  std::vector<Vec3> nodes = file_mesh(std::get<MeshShape>(body.shape), where).nodes;
  contact::ConvexPolyhedron hull = contact::convex_hull(nodes);
  const Vec3 centroid = contact::mass_properties(hull).centroid;
  return {contact::translated(hull, -centroid), centroid};
}

std::vector<Vec3> shape_vertices(const contact::Shape& shape) {
  if (const auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape)) return poly->vertices;
  return {Vec3::Zero()};  // a sphere is represented by its centre
}

// an FE body's probe: its mesh nodes in the region, or the shape functions at the point
void mesh_probe(const ffr::FfrBody& f, const nscd::BodyModel& body, const Probe& in, const std::string& where,
               ProbeModel& probe) {
  if (in.point) {
    const auto located = ffr::locate_point(f.mesh, body.q0.conjugate() * (*in.point - body.x0));
    NSCD_THROW_UNLESS(located.has_value(), "{}.point: the point lies outside the mesh of body \"{}\" at t = 0", where,
                      in.body);
    probe.nodes = located->nodes;
    probe.weights = located->weights;
    return;
  }
  const auto& [lo, hi] = *in.region;
  for (int k = 0; k < f.nn(); ++k) {
    const Vec3 p_W = body.x0 + body.q0 * f.mesh.nodes[k];
    if ((p_W.array() >= lo.array()).all() && (p_W.array() <= hi.array()).all()) probe.nodes.push_back(k);
  }
  NSCD_THROW_UNLESS(!probe.nodes.empty(), "{}.region: no node of body \"{}\" lies inside the region at t = 0", where,
                    in.body);
  probe.weights.assign(probe.nodes.size(), 1.0 / static_cast<double>(probe.nodes.size()));
}

// the scene's solver section as options of solvers/solve.hpp (names checked by the reader)
solvers::SolverOptions solver_options(const SolverSettings& in) {
  static const std::map<std::string, solvers::LocalSolverKind> kLocal{
      {"alart_curnier", solvers::LocalSolverKind::AlartCurnier},
      {"jean_moreau", solvers::LocalSolverKind::JeanMoreau},
      {"de_saxce", solvers::LocalSolverKind::DeSaxceFixedPoint}};
  static const std::map<std::string, solvers::LcpMethod> kLcp{
      {"auto", solvers::LcpMethod::Auto}, {"lemke", solvers::LcpMethod::Lemke}, {"pgs", solvers::LcpMethod::Pgs}};
  solvers::SolverOptions o;
  o.type = in.type;
  o.nlgs.local_solver = kLocal.at(in.local_solver);
  o.nlgs.omega = in.relaxation;
  o.nlgs.anderson_depth = in.anderson_depth;
  o.automatic.nlgs = o.nlgs;
  o.ccp.method = in.ccp_method == "pgs" ? solvers::CcpMethod::Pgs : solvers::CcpMethod::Apgd;
  o.ccp.correction = in.correction;
  o.ccp.omega = in.relaxation;
  o.lcp.method = kLcp.at(in.lcp_method);
  o.lcp.facets = in.facets;
  o.stopping() = {in.tolerance, in.max_iterations, in.min_iterations};  // min_iterations: nlgs and auto only
  return o;
}

// the law of an interaction; the residual friction defaults to the friction
ContactLaw contact_law(const Interaction& in) {
  return {.friction = in.friction,
          .restitution = in.restitution,
          .defined = true,
          .rolling_resistance = in.rolling_resistance,
          .tensile_strength = in.tensile_strength,
          .cohesion = in.cohesion,
          .residual_friction = in.residual_friction.value_or(in.friction)};
}

// the materials' names and the contact law table over their pairs; returns each name's index
std::map<std::string, int> add_materials(const Scene& scene, Model& m) {
  std::map<std::string, int> material_index;
  for (const auto& [name, material] : scene.materials) {
    material_index[name] = static_cast<int>(m.material_names.size());
    m.material_names.push_back(name);
  }
  const std::size_t nm = m.material_names.size();
  m.laws.assign(nm * nm, ContactLaw{});
  for (const Interaction& interaction : scene.interactions) {
    if (interaction.material_a == "default") continue;
    const ContactLaw law = contact_law(interaction);
    const int ia = material_index.at(interaction.material_a), ib = material_index.at(interaction.material_b);
    m.laws[ia * nm + ib] = law;
    m.laws[ib * nm + ia] = law;
  }
  // the default interaction fills every pair left undefined
  for (const Interaction& interaction : scene.interactions)
    if (interaction.material_a == "default")
      for (ContactLaw& entry : m.laws)
        if (!entry.defined) entry = contact_law(interaction);
  return material_index;
}

// an FFR, TL or linear body's constant matrices, appended to m.ffr_bodies or m.tl_bodies, and
// returned. A turned copy of a shape meshed before takes that shape's mesh and modal basis turned
// (ffr::rotated) instead of a mesh and a modal analysis of its own, and the turned shape as its
// `shape`.
const ffr::FfrBody& add_finite_element_body(const Scene& scene, const Body& in, const std::string& where,
                                            contact::Shape& shape, const Vec3& centroid, nscd::BodyModel& body,
                                            MeshedShapes& meshed, Model& m) {
  const std::optional<TurnedCopy> turned = turned_copy(in, shape, meshed);
  auto [mesh, offset] =
      finite_element_mesh(scene, in, where, turned ? contact::Shape(turned->first) : shape, centroid);
  const Material& material = scene.materials.at(in.material);
  const ffr::FfrMaterial properties{material.density, *material.young, *material.poisson, material.damping_mass,
                                    material.damping_stiffness};
  std::shared_ptr<const ffr::ModalBasis> modes;
  // a body with the static correction of its joints gets its modes once every body is placed
  if (body.kind == BodyKind::Ffr && !joint_correction(scene, in))
    modes = body_modes(scene, in, where, mesh, properties);
  if (turned) {
    for (Vec3& X : mesh.nodes) X = turned->rotation * X;
    if (modes && !turned->rotation.isIdentity(0.0))  // a copy in place shares the basis itself
      modes = std::make_shared<const ffr::ModalBasis>(ffr::rotated(*modes, turned->rotation));
    shape = contact::rotated(turned->first, turned->rotation);
  }
  if (offset)
    for (Vec3& X : mesh.nodes) X += *offset;
  if (body.kind == BodyKind::Ffr) {
    body.ffr_index = static_cast<int>(m.ffr_bodies.size());
    m.ffr_bodies.push_back(ffr::make_ffr_body(std::move(mesh), properties, scene.time.step, std::move(modes),
                                              unresolved_modes(scene, in)));
    return m.ffr_bodies.back();
  }
  body.tl_index = static_cast<int>(m.tl_bodies.size());
  m.tl_bodies.push_back(
      ffr::make_tl_body(std::move(mesh), properties, scene.time.step, body.kind == BodyKind::Tl));
  return m.tl_bodies.back().fe;
}

// body i of the scene: its kind, finite-element data, shape in the body frame, mass properties,
// prescribed motion, initial pose and display
void add_body(const Scene& scene, std::size_t i, const std::map<std::string, int>& material_index,
              const std::shared_ptr<const DisplayMesh>& unit_sphere, MeshedShapes& meshed, Model& m) {
  const Body& in = scene.bodies[i];
  const std::string where = fmt::format("{}: bodies[{}]", scene.file.string(), i);
  nscd::BodyModel body;
  body.name = in.name;
  body.kind = in.model;
  body.material = material_index.at(in.material);
  auto [shape, centroid] = body_shape(in, where);
  const ffr::FfrBody* fe =
      has_mesh(body.kind) ? &add_finite_element_body(scene, in, where, shape, centroid, body, meshed, m) : nullptr;
  if (body.kind == BodyKind::Rigid) {
    const contact::MassProperties props = contact::mass_properties(shape);
    const double density = scene.materials.at(in.material).density;
    body.mass = density * props.volume;
    body.inertia_B = density * props.inertia;
    body.inv_inertia_B = body.inertia_B.inverse();
  } else if (fe != nullptr) {
    // the floating frame's origin (TL, linear: the frame at t = 0): the centre of mass of the
    // mesh (the shape serves the broad phase and the summary of validate; a meshed sphere's
    // stays centred on it)
    const ffr::FfrBody& f = *fe;
    body.mass = f.mass;
    body.inertia_B = f.inertia_B;
    body.inv_inertia_B = f.inv_inertia_B;
    if (auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape))
      *poly = contact::translated(*poly, centroid - f.centre_in_input);
    centroid = f.centre_in_input;
    if (body.kind == BodyKind::Ffr && shape_contact(scene, in))
      body.shape_faces = body_shape_faces(scene, in, where, shape, f);
  }
  if (in.motion_velocity) body.linear_motion = driven_motion(*in.motion_velocity);
  if (in.motion_angular_velocity) body.angular_motion = driven_motion(*in.motion_angular_velocity);
  body.bounding_radius = contact::bounding_radius(shape);
  if (fe != nullptr)
    for (const Vec3& X : fe->mesh.nodes)
      body.bounding_radius = std::max(body.bounding_radius, X.norm());
  body.x0 = in.position.value_or(centroid);
  body.q0 = in.orientation;
  if (const auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape))
    m.display.push_back({std::make_shared<const DisplayMesh>(DisplayMesh{poly->vertices, poly->faces}), 1.0});
  else
    m.display.push_back({unit_sphere, std::get<contact::Sphere>(shape).radius});
  m.shapes.push_back(std::move(shape));
  m.bodies.push_back(std::move(body));
}

// the modal FFR bodies with the static correction of their joints (modal_basis.hpp eqs. 5–7 at
// the nodes of joint_loads.hpp within the alert distance), rebuilt in their augmented bases
void add_joint_corrections(const Scene& scene, Model& m) {
  for (int b = 0; b < m.nb(); ++b) {
    const Body& in = scene.bodies[b];
    if (m.bodies[b].kind != BodyKind::Ffr || !joint_correction(scene, in)) continue;
    ffr::FfrBody& f = m.ffr_bodies[m.bodies[b].ffr_index];
    const std::vector<ffr::NodalLoad> loads = joint_loads(m, b, m.step.alert_distance);
    const std::string where = fmt::format("{}: bodies[{}]", scene.file.string(), b);
    auto modes = body_modes(scene, in, where, f.mesh, f.material, loads);
    if (!modes) continue;  // full FFR holds every static response
    const Vec3 centre_in_input = f.centre_in_input;
    f = ffr::make_ffr_body(f.mesh, f.material, f.h, std::move(modes), f.unresolved);
    f.centre_in_input = centre_in_input;
  }
}

// probe i of the scene: body-frame points of the initial configuration, or mesh nodes and weights
ProbeModel probe_model(const Scene& scene, std::size_t i, const Model& m) {
  const Probe& in = scene.probes[i];
  const std::string where = fmt::format("{}: probes[{}]", scene.file.string(), i);
  ProbeModel probe;
  probe.name = in.name;
  probe.body = static_cast<int>(std::find_if(m.bodies.begin(), m.bodies.end(),
                                             [&](const nscd::BodyModel& b) { return b.name == in.body; }) -
                                m.bodies.begin());
  const nscd::BodyModel& body = m.bodies[probe.body];
  if (body.kind == BodyKind::Ffr) {
    mesh_probe(m.ffr_bodies[body.ffr_index], body, in, where, probe);
  } else if (is_nodal(body.kind)) {
    mesh_probe(m.tl_bodies[body.tl_index].fe, body, in, where, probe);
  } else if (in.point) {
    probe.points_B.push_back(body.q0.conjugate() * (*in.point - body.x0));
  } else {
    const auto& [lo, hi] = *in.region;
    for (const Vec3& p_B : shape_vertices(m.shapes[probe.body])) {
      const Vec3 p_W = body.x0 + body.q0 * p_B;
      if ((p_W.array() >= lo.array()).all() && (p_W.array() <= hi.array()).all()) probe.points_B.push_back(p_B);
    }
    NSCD_THROW_UNLESS(!probe.points_B.empty(), "{}.region: no vertex of body \"{}\" lies inside the region at t = 0",
                      where, in.body);
  }
  return probe;
}

// a load as the scene gives it (validated by read_scene); its time factor as a velocity table
// along x (loads.hpp)
LoadModel load_model(const Load& in, const Model& m) {
  LoadModel load;
  for (int b = 0; b < m.nb(); ++b)
    if (std::find(in.bodies.begin(), in.bodies.end(), m.bodies[b].name) != in.bodies.end()) load.bodies.push_back(b);
  load.force = in.force;
  load.moment = in.moment;
  load.acceleration = in.acceleration;
  switch (in.time.type) {
    case LoadTime::Type::Constant:
      break;
    case LoadTime::Type::Ramp:
      load.factor = DrivenMotion::table(DrivenMotion::TableQuantity::Velocity, Vec3::UnitX(),
                                        {in.time.start, in.time.end}, {0.0, 1.0});
      break;
    case LoadTime::Type::Table:
      load.factor = DrivenMotion::table(DrivenMotion::TableQuantity::Velocity, Vec3::UnitX(), in.time.times,
                                        in.time.values);
      break;
  }
  return load;
}

// penalty contact's law (penalty_contact.hpp), if the scene asks for it: rigid bodies only, and
// a step within eq. (5)'s limit for the lightest of them
std::optional<PenaltyLaw> penalty_law(const Scene& scene, const Model& m) {
  const ContactSettings& c = scene.contact;
  if (!c.penalty) return std::nullopt;
  const std::string where = fmt::format("{}: contact", scene.file.string());
  NSCD_THROW_UNLESS(c.stiffness, "{}: the penalty model needs \"stiffness\" [N/m]", where);
  double max_friction = 0;
  for (const ContactLaw& law : m.laws) {
    max_friction = std::max(max_friction, law.friction);
    NSCD_THROW_UNLESS(law.rolling_resistance == 0 && !law.cohesive(),
                      "{}: rolling resistance and cohesive joints are laws of the nscd contact model, not of penalty "
                      "contact; remove \"rolling_resistance\", \"cohesion\" and \"tensile_strength\" from the "
                      "interactions", where);
  }
  const PenaltyLaw law{*c.stiffness, c.damping,
                       c.regularisation_velocity.value_or(scene.time.step * max_friction * scene.gravity.norm())};
  NSCD_THROW_UNLESS(law.regularisation_velocity > 0,
                    "{}: the penalty model needs \"regularisation_velocity\" > 0 [m/s] (the default, h μ |g|, is 0 "
                    "for this scene)", where);
  const BodyModel* lightest = nullptr;
  for (const BodyModel& body : m.bodies) {
    NSCD_THROW_UNLESS(!has_mesh(body.kind), "{}: penalty contact is for rigid bodies; body \"{}\" is {}", where,
                      body.name, to_string(body.kind));
    if (body.kind == BodyKind::Rigid && (!lightest || body.mass < lightest->mass)) lightest = &body;
  }
  if (lightest) {
    const double limit = penalty_stable_step(law, lightest->mass);
    NSCD_THROW_UNLESS(scene.time.step <= limit,
                      "{}: time.step {} is above the stable step {:.3g} s of penalty contact (2 (√(1 + ζ²) − ζ) / ω "
                      "for body \"{}\", mass {:.6g} kg, on one joint); use a smaller step or stiffness",
                      where, scene.time.step, limit, lightest->name, lightest->mass);
  }
  return law;
}

// time stepping and solver; the alert distance and the activation tolerance from the smallest
// body diameter of m
StepParameters step_parameters(const Scene& scene, const Model& m) {
  double smallest_diameter = std::numeric_limits<double>::infinity();
  for (const nscd::BodyModel& body : m.bodies)
    smallest_diameter = std::min(smallest_diameter, 2 * body.bounding_radius);
  StepParameters p;
  p.h = scene.time.step;
  p.theta = scene.theta;
  p.gravity = scene.gravity;
  p.alert_distance = scene.detection.alert_distance.value_or(m.bodies.empty() ? 0.0 : 1e-2 * smallest_diameter);
  // round-off in gaps and velocities of resting bodies (~1e-11 m) must not switch contacts off
  p.activation_gap = m.bodies.empty() ? 0.0 : kActivationGapFraction * smallest_diameter;
  p.solver = solver_options(scene.solver);
  p.error_measure = scene.solver.error_measure;
  p.fail_on_divergence = scene.solver.fail_on_divergence;
  p.inner_tolerance = scene.solver.inner_tolerance;
  p.inner_max_iterations = scene.solver.inner_max_iterations;
  p.fictitious_forces = scene.ffr.fictitious_forces;
  p.penalty = penalty_law(scene, m);
  p.projection = scene.projection && !p.penalty;  // the projection would undo the penetration
  return p;
}

}  // namespace

Model build_model(const Scene& scene) {
  Model m;
  m.name = scene.name;
  const std::map<std::string, int> material_index = add_materials(scene, m);
  const auto unit_sphere = std::make_shared<const DisplayMesh>(unit_sphere_display());
  MeshedShapes meshed;
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) add_body(scene, i, material_index, unit_sphere, meshed, m);
  m.step = step_parameters(scene, m);
  add_joint_corrections(scene, m);
  for (int b = 0; b < m.nb(); ++b)
    if (const ffr::FfrBody* f = finite_element_body(m, b)) m.bodies[b].surface_search = surface_search(*f);
  for (std::size_t i = 0; i < scene.probes.size(); ++i) m.probes.push_back(probe_model(scene, i, m));
  for (const Load& load : scene.loads) m.loads.push_back(load_model(load, m));
  m.duration = scene.time.duration;
  m.n_steps = std::max(1L, std::lround(scene.time.duration / scene.time.step));
  if (scene.time.output_every) m.output_every = *scene.time.output_every;
  else if (scene.time.output_interval)
    m.output_every = std::max(1L, std::lround(*scene.time.output_interval / scene.time.step));
  m.output_vtk = scene.output.vtk;
  m.output_csv = scene.output.csv;
  return m;
}

State initial_state(const Model& model, const Scene& scene) {
  State s;
  for (int b = 0; b < model.nb(); ++b) {
    const nscd::BodyModel& body = model.bodies[b];
    s.x.push_back(body.x0);
    s.q.push_back(body.q0);
    Vec3 v = scene.bodies[b].velocity, w = scene.bodies[b].angular_velocity;
    if (body.kind == BodyKind::Fixed) v = w = Vec3::Zero();
    if (body.linear_motion) v = body.linear_motion->velocity(0.0);
    if (body.angular_motion) w = body.angular_motion->velocity(0.0);
    s.v.push_back(v);
    s.w.push_back(w);
  }
  for (const ffr::FfrBody& f : model.ffr_bodies) {
    s.psi.push_back(Eigen::VectorXd::Zero(f.ncoordinates()));
    s.lambda.push_back(Eigen::VectorXd::Zero(f.ncoordinates()));
  }
  // TL and linear bodies: the rigid velocity field v + ω × R(q₀) X, in the body frame
  for (int b = 0; b < model.nb(); ++b) {
    const nscd::BodyModel& body = model.bodies[b];
    if (!is_nodal(body.kind)) continue;
    const ffr::FfrBody& f = model.tl_bodies[body.tl_index].fe;
    Eigen::VectorXd lambda(f.ndof());
    const Vec3 v_B = body.q0.conjugate() * s.v[b], w_B = body.q0.conjugate() * s.w[b];
    for (int k = 0; k < f.nn(); ++k) lambda.segment<3>(3 * k) = v_B + w_B.cross(f.mesh.nodes[k]);
    s.tl_psi.push_back(Eigen::VectorXd::Zero(f.ndof()));
    s.tl_lambda.push_back(lambda);
  }
  return s;
}

}  // namespace nscd::io
