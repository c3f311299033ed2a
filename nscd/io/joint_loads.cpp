#include "nscd/io/joint_loads.hpp"

#include "contact/surface_projection.hpp"
#include "nscd/core/error.hpp"

#include <cmath>

namespace nscd::io {
namespace {

// the projection of p (the frame of body o) on the shape of body o
contact::SurfaceProjection project(const contact::Shape& shape, const Vec3& p) {
  if (const auto* poly = std::get_if<contact::ConvexPolyhedron>(&shape))
    return contact::project_on_polyhedron(*poly, p);
  return contact::project_on_sphere(std::get<contact::Sphere>(shape).radius, p);
}

}  // namespace

std::vector<ffr::NodalLoad> joint_loads(const Model& m, int b, double reach) {
  const BodyModel& body = m.bodies[b];
  NSCD_DEMAND(body.kind == BodyKind::Ffr);
  const ffr::FfrBody& f = m.ffr_bodies[body.ffr_index];
  std::vector<ffr::NodalLoad> loads;
  for (const int k : f.surface.nodes) {
    const Vec3 p = body.x0 + body.q0 * f.mesh.nodes[k];
    for (int o = 0; o < m.nb(); ++o) {
      const BodyModel& other = m.bodies[o];
      if (o == b || (p - other.x0).norm() > other.bounding_radius + reach) continue;
      const contact::SurfaceProjection q = project(m.shapes[o], other.q0.conjugate() * (p - other.x0));
      if (std::abs(q.distance) > reach) continue;
      loads.push_back({k, body.q0.conjugate() * (other.q0 * q.normal)});
      break;  // one load per node: the first body it touches, in the scene's order
    }
  }
  return loads;
}

}  // namespace nscd::io
