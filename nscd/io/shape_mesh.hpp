#pragma once
/// @file
/// Linear tetrahedral meshes of rigid shapes (convex polyhedra, boxes, spheres), for the bodies
/// simulated as ffr, tl or linear without a mesh of their own, made by Gmsh [Geuzaine & Remacle
/// 2009] in the shape's frame:
///  - a convex polyhedron with the built-in kernel: its vertices as points, its edges as straight
///    lines, each face's loop of edges as a plane surface, the faces as a surface loop bounding
///    the volume. The tetrahedra fill the polyhedron exactly, so the mesh's volume, centroid and
///    inertia (ffr/ffr_body.hpp) are the polyhedron's (contact/mass_properties.hpp) up to
///    round-off;
///  - a sphere of radius R with the OpenCASCADE kernel (addSphere). The boundary nodes lie on the
///    sphere and the mesh is inscribed in it: each boundary triangle of edge a cuts off a cap of
///    height ≈ a²/(6R), so that
///      (1) V_mesh ≈ 4/3 π R³ (1 − (a/R)²/4),
///    a volume (mass) error of about 1.6 % for a = R/4 and 0.4 % for a = R/8 (measured with
///    Gmsh 4.8: 2.0 % and 0.53 %; 3.8 % for the default a = R/2).
/// Every mesh has the size a [m] (Mesh.MeshSizeMax; every point of a polyhedron too), first-order
/// elements, Gmsh's Delaunay algorithms in one thread: the same shape and size give the same mesh.
///
/// Sizes (docs/scene_format.md, "mesh_size"):
///  (2) the default a = t / 4, t the shape's smallest width: for a polyhedron the smallest extent
///      along a face normal, for a sphere its diameter;
///  (3) the expected number of tetrahedra N ≈ V / (a³ / (6√2)), the volume over that of a regular
///      tetrahedron of edge a; a body accepts at most kMaxTetrahedra.
///
/// Meshes are cached for the process, keyed by the shape (a polyhedron's vertex set, a sphere's
/// radius, each rounded to the nanometre) and the size (rounded likewise): 1 000 identical bricks
/// are meshed once, and share the first one's mesh. A scene's turned copies of a shape (its
/// voussoirs) are meshed once as well, by build_model.cpp, which turns the first one's mesh
/// (contact/congruence.hpp).
///
/// References: [Geuzaine & Remacle 2009] Gmsh: a 3-D finite element mesh generator with
///             built-in pre- and post-processing facilities, IJNME 79(11), 1309–1331.

#include "contact/shape.hpp"
#include "ffr/mesh.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace nscd::io {

/// The most tetrahedra, eq. (3), of one body: a million (3·10⁶ unknowns, gigabytes of factorised
/// stiffness) is far beyond what a deformable block needs, the limit of a box's "elements".
inline constexpr double kMaxTetrahedra = 1e6;

/// The default mesh size a of `shape`, eq. (2) [m].
double default_mesh_size(const contact::Shape& shape);

/// The expected number of tetrahedra of `shape` meshed with size `size` [m], eq. (3).
double expected_tetrahedra(const contact::Shape& shape, double size);

/// The tetrahedral mesh of `shape` (in its frame) with size `size` [m], from the cache or made
/// by Gmsh. Thread-safe.
/// @param where  the body, at the start of the messages (e.g. "scene.json: bodies[3]").
/// @throws nscd::InputError "<where>.shape: ..." when Gmsh cannot mesh the shape.
std::shared_ptr<const ffr::Mesh> tetrahedral_mesh(const contact::Shape& shape, double size, const std::string& where);

/// The number of shapes meshed by Gmsh so far in this process (the cache's misses).
std::size_t shapes_meshed();

}  // namespace nscd::io
