#pragma once
/// @file
/// Joints: the interfaces between two bodies, each gathering the step's contacts between one
/// pair (a, b) whose normals agree. Two convex bodies touch on one convex patch, so a face-to-face
/// joint of two blocks is one joint whose contacts are the vertices of the clipped polygon
/// (contact/polyhedron_polyhedron.hpp); an edge or a sphere gives a joint of one or two points
/// and no area.
///
/// Geometry of a joint J with normal n (the mean of its contacts' normals, from a to b) and the
/// points x_i of its contacts projected on the plane through their mean, normal to n:
///  (1) P = conv{x_i}, counter-clockwise about n;  A = area(P);  c = centroid(P)
///      (the mean of the points when A = 0);
///  (2) the tributary area of contact i (the median-dual cell of P): for a vertex x_k of P with
///      neighbours x_{k−1}, x_{k+1}, the area of the quadrilateral (x_k, (x_k + x_{k+1})/2, c,
///      (x_{k−1} + x_k)/2); 0 for a point inside P or on one of its edges. They sum to A, and on
///      a rectangle each corner carries A/4.
/// Cohesive laws spread a joint's strength over its contacts by these areas, and the joint output
/// reports P, A and c with the resultants of the contacts' impulses.

#include "nscd/step/active_contacts.hpp"

#include <vector>

namespace nscd {

/// One joint of eq. (1).
struct Joint {
  int a = 0, b = 0;                   // bodies, a < b
  std::vector<int> contacts;          // indices into the step's ActiveContacts, increasing
  Vec3 normal = Vec3::UnitZ();        // n, unit, from a to b
  std::vector<Vec3> polygon;          // vertices of P, world, counter-clockwise about n [m]
  double area = 0.0;                  // A [m²]
  Vec3 centroid = Vec3::Zero();       // c, world [m]
  std::vector<double> tributary_area; // eq. (2), aligned with contacts [m²]
};

/// Contacts of one pair whose normals make an angle above this [rad] belong to different joints.
constexpr double kJointNormalAngle = 0.05;

/// The joints of the step's contacts, ordered by (a, b) and then by their first contact; every
/// contact belongs to exactly one joint.
std::vector<Joint> find_joints(const ActiveContacts& contacts);

}  // namespace nscd
