#include "contact/posed_shapes.hpp"

#include <cmath>

namespace nscd::contact::detail {

void PosedShapes::build(std::span<const Shape> shapes, std::span<const Pose> poses) {
  const std::size_t nb = shapes.size();
  m_bodies.assign(nb, Body{});

  // sizes of the flat arrays
  std::size_t nv = 0;
  std::size_t nf = 0;
  std::size_t nd = 0;
  for (std::size_t i = 0; i < nb; ++i) {
    Body& body = m_bodies[i];
    body.first_vertex = nv;
    body.first_face = nf;
    body.first_direction = nd;
    if (const auto* poly = std::get_if<ConvexPolyhedron>(&shapes[i])) {
      nv += poly->vertices.size();
      nf += poly->faces.size();
      nd += poly->direction_edge.size();
    }
  }
  m_vertices.resize(nv);
  m_normals.resize(nf);
  m_offsets.resize(nf);
  m_directions.resize(nd);

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
    if (poly.box_half_size)
      for (int k = 0; k < 3; ++k) body.half_edges[k] = (*poly.box_half_size)[k] * R.col(k);

    // face planes
    for (std::size_t f = 0; f < poly.faces.size(); ++f) {
      const Vec3 n = R * poly.face_normals[f];
      m_normals[body.first_face + f] = n;
      m_offsets[body.first_face + f] = n.dot(v[poly.faces[f][0]]);
    }

    // one direction per class of the shape (rotations keep parallel edges parallel), from its first edge
    Vec3* dirs = m_directions.data() + body.first_direction;
    for (std::size_t c = 0; c < poly.direction_edge.size(); ++c) {
      const auto& edge = poly.edges[poly.direction_edge[c]];
      dirs[c] = (v[edge[1]] - v[edge[0]]).normalized();
    }
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
  p.directions = {m_directions.data() + b.first_direction, poly.direction_edge.size()};
  p.edge_direction = poly.edge_direction;
  p.radius = b.radius;
  p.centre = b.centre;
  if (poly.box_half_size) p.half_edges = &b.half_edges;
  return p;
}

}  // namespace nscd::contact::detail
