#pragma once
/// @file
/// Sutherland–Hodgman clipping of the incident face by the side planes of the reference face
/// (internal to nscd::contact), with an id per output vertex that names its origin:
///  - an incident vertex k:                          (kind 0, k, 0)
///  - incident edge k crossing reference side j:    (kind 1, k, j)
///  - reference sides i < j meeting (a corner):      (kind 2, i, j)
/// Ids are 28-bit: kind in bits 26–27, the two indices (local to their face loops, < 8192) in
/// bits 13–25 and 0–12. Each vertex also records the line its outgoing edge lies on (an incident
/// edge or a side plane), from which the id of a later intersection follows.
///
/// Reference: [Sutherland & Hodgman 1974] Reentrant polygon clipping, CACM 17(1).

#include "nscd/core/math.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace nscd::contact::detail {

/// A vertex of the polygon being clipped.
struct ClipVertex {
  Vec3 p_W = Vec3::Zero();   // position [m]
  std::uint32_t id = 0;      // origin, as in the file comment
  bool edge_on_side = false; // the edge to the next vertex lies on a side plane (else an incident edge)
  int edge_index = 0;        // index of that side plane or incident edge
};

constexpr std::uint32_t clip_id(std::uint32_t kind, int i, int j) {
  constexpr std::uint32_t kMask = (1u << 13) - 1;
  return (kind << 26) | ((static_cast<std::uint32_t>(i) & kMask) << 13) |
         (static_cast<std::uint32_t>(j) & kMask);
}

/// Keeps the part of the convex polygon `in` where (x − o) · m ≤ ε ‖m‖, the half-space behind the
/// reference side plane `side`; `out` is overwritten. The slack ε (a small distance, given as
/// slack2 = ε² ‖m‖², which needs no square root) keeps vertices lying on the plane up to
/// round-off: an incident edge that runs along the side plane, as when two faces coincide, would
/// otherwise be cut at an arbitrary point.
inline void clip_by_side(const std::vector<ClipVertex>& in, const Vec3& o, const Vec3& m, double slack2, int side,
                         std::vector<ClipVertex>& out) {
  out.clear();
  const std::size_t n = in.size();
  if (n == 0) return;
  const auto inside = [slack2](double d) { return d <= 0 || d * d <= slack2; };
  double dp = (in[n - 1].p_W - o).dot(m);  // carried from Q to the next P: one distance per vertex
  for (std::size_t i = 0; i < n; ++i) {
    const ClipVertex& P = in[i == 0 ? n - 1 : i - 1];
    const ClipVertex& Q = in[i];
    const double dq = (Q.p_W - o).dot(m);
    const bool p_in = inside(dp);
    const bool q_in = inside(dq);
    // the edge P→Q crosses the plane: the crossing continues along the plane when leaving
    if (p_in != q_in) {
      ClipVertex X;
      // the crossing of the plane itself, kept on the edge
      X.p_W = P.p_W + std::clamp(dp / (dp - dq), 0.0, 1.0) * (Q.p_W - P.p_W);
      X.id = P.edge_on_side ? clip_id(2, std::min(P.edge_index, side), std::max(P.edge_index, side))
                            : clip_id(1, P.edge_index, side);
      X.edge_on_side = p_in ? true : P.edge_on_side;
      X.edge_index = p_in ? side : P.edge_index;
      out.push_back(X);
    }
    if (q_in) out.push_back(Q);
    dp = dq;
  }
}

}  // namespace nscd::contact::detail
