#include "contact/posed_shapes.hpp"

#include <cmath>

namespace nscd::contact::detail {
namespace {

// unit directions closer than ~1.4e-6 rad (either sign) share one edge–edge axis class
constexpr double kParallelCos = 1.0 - 1e-12;

}  // namespace

void PosedShapes::build(std::span<const Shape> shapes, std::span<const Pose> poses) {
  const std::size_t nb = shapes.size();
  m_bodies.assign(nb, Body{});

  // sizes of the flat arrays
  std::size_t nv = 0;
  std::size_t nf = 0;
  std::size_t ne = 0;
  for (std::size_t i = 0; i < nb; ++i) {
    Body& body = m_bodies[i];
    body.first_vertex = nv;
    body.first_face = nf;
    body.first_edge = ne;
    body.first_direction = ne;
    if (const auto* poly = std::get_if<ConvexPolyhedron>(&shapes[i])) {
      nv += poly->vertices.size();
      nf += poly->faces.size();
      ne += poly->edges.size();
    }
  }
  m_vertices.resize(nv);
  m_normals.resize(nf);
  m_offsets.resize(nf);
  m_directions.resize(ne);
  m_edge_direction.resize(ne);

  for (std::size_t i = 0; i < nb; ++i) {
    Body& body = m_bodies[i];
    body.centre = poses[i].p_WB;
    if (const auto* sphere = std::get_if<Sphere>(&shapes[i])) {
      body.is_sphere = true;
      body.radius = sphere->radius;
      body.box = {body.centre.array() - body.radius, body.centre.array() + body.radius};
      continue;
    }
    const auto& poly = std::get<ConvexPolyhedron>(shapes[i]);
    body.shape = &poly;
    const Mat3 R = poses[i].q_WB.normalized().toRotationMatrix();

    // vertices, their bounding box and radius
    Vec3* v = m_vertices.data() + body.first_vertex;
    body.box = {Vec3::Constant(INFINITY), Vec3::Constant(-INFINITY)};
    double r2 = 0.0;
    for (std::size_t k = 0; k < poly.vertices.size(); ++k) {
      v[k] = body.centre + R * poly.vertices[k];
      body.box.lo = body.box.lo.cwiseMin(v[k]);
      body.box.hi = body.box.hi.cwiseMax(v[k]);
      r2 = std::max(r2, (v[k] - body.centre).squaredNorm());
    }
    body.radius = std::sqrt(r2);

    // face planes
    for (std::size_t f = 0; f < poly.faces.size(); ++f) {
      const Vec3 n = R * poly.face_normals[f];
      m_normals[body.first_face + f] = n;
      m_offsets[body.first_face + f] = n.dot(v[poly.faces[f][0]]);
    }

    // edge direction classes, in edge order
    Vec3* dirs = m_directions.data() + body.first_direction;
    std::size_t nd = 0;
    for (std::size_t e = 0; e < poly.edges.size(); ++e) {
      const Vec3 d = (v[poly.edges[e][1]] - v[poly.edges[e][0]]).normalized();
      std::size_t c = 0;
      while (c < nd && std::abs(dirs[c].dot(d)) < kParallelCos) ++c;
      if (c == nd) dirs[nd++] = d;
      m_edge_direction[body.first_edge + e] = static_cast<int>(c);
    }
    body.num_directions = nd;
  }
}

PosedPolyhedron PosedShapes::polyhedron(int body) const {
  const Body& b = m_bodies[body];
  const ConvexPolyhedron& poly = *b.shape;
  PosedPolyhedron p;
  p.shape = b.shape;
  p.vertices = {m_vertices.data() + b.first_vertex, poly.vertices.size()};
  p.normals = {m_normals.data() + b.first_face, poly.faces.size()};
  p.offsets = {m_offsets.data() + b.first_face, poly.faces.size()};
  p.directions = {m_directions.data() + b.first_direction, b.num_directions};
  p.edge_direction = {m_edge_direction.data() + b.first_edge, poly.edges.size()};
  p.radius = b.radius;
  return p;
}

}  // namespace nscd::contact::detail
