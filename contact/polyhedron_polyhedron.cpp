#include "contact/polyhedron_polyhedron.hpp"

#include "contact/feature_id.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace nscd::contact::detail {
namespace {

// eq. (2): relative and absolute margins by which a face axis is preferred
constexpr double kRelAxisTol = 0.05;
constexpr double kAbsAxisTol = 1e-3;
// edge directions whose cross product is shorter than this are parallel: no edge–edge axis
constexpr double kParallelSin = 1e-6;
// clipped vertices closer than this fraction of the smaller radius are one vertex: such near
// twins (left by the clipping of almost coincident faces) add nothing to the support but make
// the Delassus operator nearly singular
constexpr double kMergeTol = 1e-3;
// incident vertices within this fraction of the smaller radius outside a side plane are inside
constexpr double kClipSlack = 1e-6;

struct FaceQuery {
  double separation = -std::numeric_limits<double>::infinity();
  int face = -1;
};

struct EdgeQuery {
  double separation = -std::numeric_limits<double>::infinity();
  Vec3 axis = Vec3::Zero();  // oriented from a to b
  int direction_a = -1;
  int direction_b = -1;
};

// extent [lo, hi] of the projections L·y of P's vertices
void extent(const PosedPolyhedron& P, const Vec3& L, double& lo, double& hi) {
  lo = std::numeric_limits<double>::infinity();
  hi = -lo;
  for (const Vec3& y : P.vertices) {
    const double d = L.dot(y);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
}

// min L·y − offset over P's vertices, or, as soon as a vertex gives at most `floor`, that vertex's
double lowest(const PosedPolyhedron& P, const Vec3& L, double offset, double floor) {
  double lo = std::numeric_limits<double>::infinity();
  for (const Vec3& y : P.vertices) {
    lo = std::min(lo, L.dot(y));
    if (lo - offset <= floor) break;
  }
  return lo - offset;
}

// support function h(L) = Σ_k |L · u_k| of a box about its centre (posed_shapes.hpp)
double box_support(const std::array<Vec3, 3>& u, const Vec3& L) {
  return std::abs(L.dot(u[0])) + std::abs(L.dot(u[1])) + std::abs(L.dot(u[2]));
}

// far above the round-off of the vertices' projections and of the support functions (some ulps
// of the coordinates), far below the margins of eq. (2); the same for (A, B) and (B, A)
double round_off_slack(const PosedPolyhedron& A, const PosedPolyhedron& B) {
  return 1e-10 * (A.centre.norm() + B.centre.norm() + A.radius + B.radius);
}

// eq. (3): the separations of box P's faces −e_0, +e_0, −e_1, … (make_box's order) from box Q,
// by the support functions, equal to the vertices' up to round-off
std::array<double, 6> box_face_separations(const PosedPolyhedron& P, const PosedPolyhedron& Q) {
  std::array<double, 6> s;
  const Vec3 d = Q.centre - P.centre;
  for (int k = 0; k < 3; ++k) {
    const Vec3& axis = P.normals[2 * k + 1];
    const double along = axis.dot(d);
    const double depth = (*P.shape->box_half_size)[k] + box_support(*Q.half_edges, axis);
    s[2 * k] = -along - depth;
    s[2 * k + 1] = along - depth;
  }
  return s;
}

// f ≤ b √len2, without the square root (len2 > 0)
bool at_most_scaled(double f, double b, double len2) {
  if (f <= 0) return b >= 0 || f * f >= b * b * len2;
  return b > 0 && f * f <= b * b * len2;
}

// eq. (1) over the outward face normals of P, against the vertices of Q; stops above `alert`. A
// face's scan of Q stops once its separation cannot exceed the best so far. Between boxes only
// the faces whose eq. (3) is within twice the round-off of the largest are scanned: the others'
// vertices separate less than the largest face's, so the face chosen is the same to the bit
FaceQuery query_faces(const PosedPolyhedron& P, const PosedPolyhedron& Q, double alert, double slack) {
  const bool boxes = P.half_edges != nullptr && Q.half_edges != nullptr;
  std::array<double, 6> estimate{};
  double candidate = -std::numeric_limits<double>::infinity();
  if (boxes) {
    estimate = box_face_separations(P, Q);
    candidate = *std::max_element(estimate.begin(), estimate.end()) - 2 * slack;
  }
  FaceQuery best;
  for (std::size_t f = 0; f < P.normals.size(); ++f) {
    if (boxes && estimate[f] < candidate) continue;
    const double s = lowest(Q, P.normals[f], P.offsets[f], best.separation);
    if (s > best.separation) {
      best.separation = s;
      best.face = static_cast<int>(f);
      if (s > alert) break;
    }
  }
  return best;
}

// eq. (1) over the cross products of edge directions, in the better of both orientations. An axis
// whose separation cannot exceed `relevant` is left as soon as B's vertices show it: the caller
// needs only an axis that separates more (one beyond the alert distance, or one preferred to the
// faces by eq. (2)). Between two boxes an axis is left before any vertex is projected when its
// separation from the support functions, |L · (c_B − c_A)| − h_A(L) − h_B(L) (the vertices'
// separation up to round-off), is below `relevant` by more than the round-off: the vertices would
// have left it too, so the axis chosen is the same to the bit
EdgeQuery query_edges(const PosedPolyhedron& A, const PosedPolyhedron& B, double alert, double relevant,
                      double slack) {
  EdgeQuery best;
  const bool boxes = A.half_edges != nullptr && B.half_edges != nullptr;
  for (std::size_t i = 0; i < A.directions.size(); ++i) {
    for (std::size_t j = 0; j < B.directions.size(); ++j) {
      Vec3 L = A.directions[i].cross(B.directions[j]);
      const double len2 = L.squaredNorm();
      if (len2 < kParallelSin * kParallelSin) continue;
      // eq. (3) is homogeneous in L: tested on the cross product before it is normalised
      if (boxes && at_most_scaled(std::abs(L.dot(B.centre - A.centre)) - box_support(*A.half_edges, L) -
                                      box_support(*B.half_edges, L),
                                  relevant - slack, len2))
        continue;
      L /= std::sqrt(len2);
      double lo_a, hi_a;
      extent(A, L, lo_a, hi_a);
      // B's extent: both orientations' separations only fall as vertices are added
      double lo_b = std::numeric_limits<double>::infinity(), hi_b = -lo_b;
      bool can_exceed = true;
      for (const Vec3& y : B.vertices) {
        const double d = L.dot(y);
        lo_b = std::min(lo_b, d);
        hi_b = std::max(hi_b, d);
        if (lo_b - hi_a <= relevant && lo_a - hi_b <= relevant) {
          can_exceed = false;
          break;
        }
      }
      if (!can_exceed) continue;
      const double s_plus = lo_b - hi_a;
      const double s_minus = lo_a - hi_b;
      const double s = std::max(s_plus, s_minus);
      if (s > best.separation) {
        best.separation = s;
        best.axis = s_plus >= s_minus ? L : Vec3(-L);
        best.direction_a = static_cast<int>(i);
        best.direction_b = static_cast<int>(j);
        if (s > alert) return best;
      }
    }
  }
  return best;
}

// the edge of direction class `dir` whose midpoint is farthest along L
int support_edge(const PosedPolyhedron& P, int dir, const Vec3& L) {
  int best = -1;
  double best_d = -std::numeric_limits<double>::infinity();
  for (std::size_t e = 0; e < P.shape->edges.size(); ++e) {
    if (P.edge_direction[e] != dir) continue;
    const auto& edge = P.shape->edges[e];
    const double d = L.dot(P.vertices[edge[0]] + P.vertices[edge[1]]);
    if (d > best_d) {
      best_d = d;
      best = static_cast<int>(e);
    }
  }
  return best;
}

// closest points c1 ∈ [p1, q1], c2 ∈ [p2, q2] of two non-degenerate segments [Ericson 2005 §5.1.9]
void closest_points(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2, Vec3& c1,
                    Vec3& c2) {
  const Vec3 d1 = q1 - p1;
  const Vec3 d2 = q2 - p2;
  const Vec3 r = p1 - p2;
  const double a = d1.squaredNorm();
  const double e = d2.squaredNorm();
  const double f = d2.dot(r);
  const double c = d1.dot(r);
  const double b = d1.dot(d2);
  const double denom = a * e - b * b;
  double s = denom > 0.0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  c1 = p1 + s * d1;
  c2 = p2 + t * d2;
}

void edge_contact(const PosedPolyhedron& A, int a, const PosedPolyhedron& B, int b,
                  const EdgeQuery& q, double alert, std::vector<ContactPoint>& out) {
  // the supporting edges: farthest along L on a, farthest along −L on b
  const int ea = support_edge(A, q.direction_a, q.axis);
  const int eb = support_edge(B, q.direction_b, -q.axis);
  const auto& edge_a = A.shape->edges[ea];
  const auto& edge_b = B.shape->edges[eb];
  Vec3 pa, pb;
  closest_points(A.vertices[edge_a[0]], A.vertices[edge_a[1]], B.vertices[edge_b[0]],
                 B.vertices[edge_b[1]], pa, pb);
  const double gap = q.axis.dot(pb - pa);
  if (gap > alert) return;
  ContactPoint cp;
  cp.a = a;
  cp.b = b;
  cp.p_W = 0.5 * (pa + pb);
  cp.R_WC = orthonormal_frame(q.axis);
  cp.gap = gap;
  cp.feature = edge_edge_feature(ea, eb);
  out.push_back(cp);
}

void face_contact(const PosedPolyhedron& R, const PosedPolyhedron& I, int reference_face,
                  bool reference_is_b, int a, int b, double alert, ClipScratch& scratch,
                  std::vector<ContactPoint>& out) {
  const Vec3& n_ref = R.normals[reference_face];
  const double offset_ref = R.offsets[reference_face];
  const auto& ref_loop = R.shape->faces[reference_face];

  // incident face: most anti-parallel to the reference normal
  int incident_face = 0;
  double lowest = std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < I.normals.size(); ++f) {
    const double d = I.normals[f].dot(n_ref);
    if (d < lowest) {
      lowest = d;
      incident_face = static_cast<int>(f);
    }
  }
  const auto& inc_loop = I.shape->faces[incident_face];

  // clip the incident polygon by every side plane of the reference face
  auto& polygon = scratch.polygon;
  polygon.clear();
  for (std::size_t k = 0; k < inc_loop.size(); ++k) {
    polygon.push_back({I.vertices[inc_loop[k]], clip_id(0, static_cast<int>(k), 0), false,
                       static_cast<int>(k)});
  }
  const double slack2 = std::pow(kClipSlack * std::min(R.radius, I.radius), 2);
  for (std::size_t k = 0; k < ref_loop.size() && !polygon.empty(); ++k) {
    const Vec3& o = R.vertices[ref_loop[k]];
    const Vec3 side = (R.vertices[ref_loop[(k + 1) % ref_loop.size()]] - o).cross(n_ref);
    clip_by_side(polygon, o, side, slack2 * side.squaredNorm(), static_cast<int>(k), scratch.clipped);
    std::swap(polygon, scratch.clipped);
  }

  // drop repeated vertices: degenerate (line or point) overlaps and near-coincident corners
  const double merge2 = std::pow(kMergeTol * std::min(R.radius, I.radius), 2);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < polygon.size(); ++k) {
    if (kept > 0 && (polygon[k].p_W - polygon[kept - 1].p_W).squaredNorm() <= merge2) continue;
    polygon[kept++] = polygon[k];
  }
  if (kept > 1 && (polygon[kept - 1].p_W - polygon[0].p_W).squaredNorm() <= merge2) --kept;

  // one point per clipped vertex within the alert distance, midway to the reference plane
  const Vec3 n = reference_is_b ? Vec3(-n_ref) : n_ref;
  const Mat3 frame = orthonormal_frame(n);
  for (std::size_t k = 0; k < kept; ++k) {
    const double s = n_ref.dot(polygon[k].p_W) - offset_ref;
    if (s > alert) continue;
    ContactPoint cp;
    cp.a = a;
    cp.b = b;
    cp.p_W = polygon[k].p_W - 0.5 * s * n_ref;
    cp.R_WC = frame;
    cp.gap = s;
    cp.feature = face_clip_feature(reference_is_b, reference_face, incident_face, polygon[k].id);
    out.push_back(cp);
  }
}

}  // namespace

void collide_polyhedra(const PosedPolyhedron& A, int a, const PosedPolyhedron& B, int b,
                       double alert_distance, ClipScratch& scratch, std::vector<ContactPoint>& out) {
  // separating-axis test, leaving as soon as an axis separates by more than the alert distance
  const double slack = round_off_slack(A, B);
  const FaceQuery face_a = query_faces(A, B, alert_distance, slack);
  if (face_a.separation > alert_distance) return;
  const FaceQuery face_b = query_faces(B, A, alert_distance, slack);
  if (face_b.separation > alert_distance) return;

  // eq. (2): face of a, else face of b, else edge–edge
  const double scale = kAbsAxisTol * std::min(A.radius, B.radius);
  const auto margin = [&](double s) { return kRelAxisTol * std::abs(s) + scale; };
  const bool reference_is_b = face_b.separation > face_a.separation + margin(face_a.separation);
  const FaceQuery& face = reference_is_b ? face_b : face_a;
  const double preferred = face.separation + margin(face.separation);
  const EdgeQuery edge = query_edges(A, B, alert_distance, std::min(alert_distance, preferred), slack);
  if (edge.separation > alert_distance) return;
  if (edge.separation > preferred) {
    edge_contact(A, a, B, b, edge, alert_distance, out);
  } else if (reference_is_b) {
    face_contact(B, A, face.face, true, a, b, alert_distance, scratch, out);
  } else {
    face_contact(A, B, face.face, false, a, b, alert_distance, scratch, out);
  }
}

}  // namespace nscd::contact::detail
