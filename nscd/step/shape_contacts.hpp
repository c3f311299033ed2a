#pragma once
/// @file
/// Contact on the shapes' faces for FFR bodies meshed from a convex polyhedron (a box, a convex
/// shape: "contact_surface": "shape", docs/method.md "Contact on the shapes' faces"), a coarser
/// contact surface than the mesh's nodes (mesh_contacts.hpp):
///
///  - detection between the convex polyhedra posed at the bodies' frames (x, q), by the rigid
///    blocks' broad and narrow phases (contact/detection.hpp, kOnShape): a face–face joint gives
///    the corners of the clipped polygon, each with the gap g_shapes of the undeformed shapes and
///    the normal n from a to b (C1, C2);
///  - each contact point p has on each FFR side a material point on that body's boundary mesh:
///    with X = Oᵀ (p − x), the face f whose outward normal is nearest the contact's outward
///    direction on that side (n on a, −n on b) among the faces whose planes are within 10⁻³ of
///    the shape's radius of the nearest one (largest signed distance n_f·X − d_f), and X's
///    orthogonal projection on the boundary triangles lying on f (contact/surface_projection.hpp;
///    those near X found by the face's grid, face_grid.hpp), a MeshSide of weights w_k,
///      (1) X_B = Σ_k w_k X_k   (= X for X on the face, up to round-off);
///  - the deformation enters the gap to first order, the small-deformation approximation of the
///    FFR model (ψ small against the body, so that its change of the contact geometry beyond the
///    normal displacement of the material points is of second order):
///      (2) g = g_shapes + n·(O_b ψ_b(X_B,b) − O_a ψ_a(X_B,a)),   ψ(X_B) = Σ_k w_k ψ_k,
///    and the point moves to p + ½ (O_a ψ_a + O_b ψ_b), midway between the displaced material
///    points (a side without nodes, on a rigid, fixed or driven body, has ψ = 0).
/// The contacts are MeshContacts, so the Jacobians, W (contact_jacobian.hpp eq. 6), the modes
/// and Algorithm 1 apply unchanged. A joint's contact is reduced to the polygon's corners; the
/// local deformation at the contact (the pressure's distribution over the face) is not resolved.
///
/// A corner is a point load on one node: the option is meant for modal bodies. Corners active
/// while they move apart are held on the step's gap rate (contact_problem.hpp,
/// normal_velocity_shift), so that they do no work on undamped modes above 1/h (docs/method.md,
/// "Modes and damping").
///
/// Pairs on the shapes' faces: an FFR body with face triangles (BodyModel::shape_faces) and
/// another such body or a rigid, fixed or driven polyhedron. Pairs with a sphere, a TL or linear
/// body or an FFR body in node-to-surface contact stay node to surface.

#include "contact/detection.hpp"
#include "contact/shape.hpp"
#include "ffr/mesh.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <optional>
#include <span>

namespace nscd {

/// What contact on the faces of `poly` (body frame) needs for a body whose mesh is made from it:
/// per face, the boundary triangles of `surface` whose three nodes lie in the face's plane, to
/// 1e-8 of the shape's bounding radius (the nodes of a mesh made from the shape lie on its faces
/// up to round-off), and their grid for reaches up to 1e-2 of that radius; nothing when a boundary
/// triangle lies on no face or a face holds none (a mesh not made from this shape).
std::optional<ShapeFaces> shape_faces(const contact::ConvexPolyhedron& poly, const ffr::Mesh& mesh,
                                      const ffr::Surface& surface);

/// The material point (1) of the body-frame point X on the boundary mesh of an FFR body in
/// contact on the faces of its shape `poly` (`faces` from shape_faces()), on the face nearest the
/// direction `outward` (body frame).
MeshSide face_point(const contact::ConvexPolyhedron& poly, const ShapeFaces& faces, const ffr::Mesh& mesh,
                    const Vec3& X, const Vec3& outward);

/// How contact detection takes body b (contact::detect_contacts): kRigid, kOnShape for an FFR body
/// in contact on its shape's faces, kMeshed for the other bodies on a mesh, kStatic for fixed and
/// driven bodies.
contact::Mobility mobility(const Model& m, int b);

/// Whether the contacts of body b with an FFR body in contact on its shape's faces are found on
/// the faces (contact::pair_route): b is such a body or a rigid, fixed or driven polyhedron.
bool on_shape(const Model& m, int b);

/// Whether the contacts of bodies a and b are found on their shapes' faces (contact::pair_route).
bool shape_pair(const Model& m, int a, int b);

/// Appends the contact of each point of `on_shapes`, found between the undeformed shapes of pairs
/// on the shapes' faces posed at their frames in `s` (contact::detect_contacts with these bodies
/// kOnShape), with its material points (1) and gap (2), in the same order.
void append_shape_contacts(const Model& m, const State& s, std::span<const contact::ContactPoint> on_shapes,
                           MeshContacts& out);

}  // namespace nscd
