#include "nscd/step/warm_start.hpp"

#include "nscd/step/contact_problem.hpp"
#include "solvers/stick_prediction.hpp"

#include <Eigen/SparseCore>

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

namespace nscd {
namespace {

// a contact inherits last step's impulse of the nearest contact of the same pair within this
// fraction of the smaller body's bounding radius
constexpr double kWarmMatchFraction = 0.05;

// pairs with more remembered contacts than this are searched along x (initial_impulses), the
// others scanned: a sort per pair and a binary search per contact cost more than a scan of a few
// contacts (the static wall's pairs hold at most 8: 1.4 % more instructions per step sorted)
constexpr std::size_t kScannedPair = 16;

// the body form c's rows of the contacts `keep`
solvers::BodyCoupling contact_rows(const solvers::BodyCoupling& c, const std::vector<int>& keep) {
  std::vector<Eigen::Triplet<double>> ones;
  for (std::size_t k = 0; k < keep.size(); ++k)
    for (int a = 0; a < 3; ++a) ones.emplace_back(static_cast<int>(3 * k) + a, 3 * keep[k] + a, 1.0);
  Eigen::SparseMatrix<double> select(3 * static_cast<Eigen::Index>(keep.size()), c.H.rows());
  select.setFromTriplets(ones.begin(), ones.end());
  return {c.M, select * c.H};
}

// the stick prediction of the contacts `keep` of a rigid scene, on its body form (W holds its
// diagonal blocks only: solvers/stick_prediction.hpp eq. (4) needs no more)
std::optional<Eigen::VectorXd> stick_on_bodies(const Model& m, const StepWorkspace& ws, const std::vector<int>& keep) {
  const solvers::FrictionProblem& p = ws.contacts.problem;
  Eigen::VectorXd q(3 * static_cast<Eigen::Index>(keep.size()));
  Eigen::VectorXd mu(static_cast<Eigen::Index>(keep.size()));
  double trace = 0;
  for (std::size_t k = 0; k < keep.size(); ++k) {
    q.segment<3>(3 * static_cast<Eigen::Index>(k)) = p.q.segment<3>(3 * static_cast<Eigen::Index>(keep[k]));
    mu[static_cast<Eigen::Index>(k)] = p.mu[keep[k]];
    trace += p.W.diag(keep[k]).trace();
  }
  return solvers::stick_prediction(contact_rows(body_form(m, ws), keep), q, mu,
                                   q.size() > 0 ? trace / static_cast<double>(q.size()) : 0.0);
}

// r0 = the stick prediction of the contacts activated by the predicted gap; gap rows start at 0.
// Gap rows are left out of it: "stop every contact" would make them pull (their q_n holds g/h),
// and the other contacts would take huge impulses to balance the pull. On the body form in a
// rigid scene whose bodies have fewer unknowns than the contacts (6 per body against 3 per
// contact: more than two contacts per body, as in masonry and packed piles), else on W.
void stick_start(const Model& m, StepWorkspace& ws) {
  const int nc = ws.contacts.problem.nc();
  std::vector<int> activated;  // the sub-problem's contacts, in index order
  for (int i = 0; i < nc; ++i)
    if (!ws.contacts.active[i].gap_row) activated.push_back(i);
  std::optional<Eigen::VectorXd> r;
  if (!m.has_meshes() && 2 * m.nb() < static_cast<int>(activated.size())) {
    r = stick_on_bodies(m, ws, activated);
  } else if (static_cast<int>(activated.size()) == nc) {
    r = solvers::stick_prediction(assembled_problem(m, ws));
  } else {
    r = solvers::stick_prediction(solvers::renumbered(assembled_problem(m, ws), activated));
  }
  if (!r) return;
  ws.r0.setZero(3 * nc);
  for (std::size_t k = 0; k < activated.size(); ++k)
    ws.r0.segment<3>(3 * activated[k]) = r->segment<3>(3 * static_cast<Eigen::Index>(k));
}

}  // namespace

void initial_impulses(const Model& m, const State& s, StepWorkspace& ws) {
  const int nc = ws.contacts.active.size();
  ws.r0.setZero(3 * nc);
  int matched = 0;
  std::size_t first = 0, last = 0;  // the remembered contacts of the current pair: [first, last)
  std::vector<std::size_t> by_x;    // their indices by increasing x of p_A (then index), or none
  for (int i = 0; i < nc; ++i) {
    const contact::ContactPoint& c = ws.contacts.active[i].point;
    const auto pair = std::make_pair(c.a, c.b);
    if (i == 0 || pair != std::make_pair(ws.contacts.active[i - 1].point.a, ws.contacts.active[i - 1].point.b)) {
      while (first < s.warm.size() && std::make_pair(s.warm[first].a, s.warm[first].b) < pair) ++first;
      for (last = first; last < s.warm.size() && s.warm[last].a == c.a && s.warm[last].b == c.b;) ++last;
      by_x.resize(last - first > kScannedPair ? last - first : 0);
      std::iota(by_x.begin(), by_x.end(), first);
      std::sort(by_x.begin(), by_x.end(), [&s](std::size_t j, std::size_t k) {
        return std::make_pair(s.warm[j].p_A.x(), j) < std::make_pair(s.warm[k].p_A.x(), k);
      });
    }
    const Vec3 p_A = s.q[c.a].conjugate() * (c.p_W - s.x[c.a]);
    const double radius = kWarmMatchFraction * std::min(m.bodies[c.a].bounding_radius, m.bodies[c.b].bounding_radius);
    // the nearest within the radius, the first in memory order among equally near ones, as a scan
    // of [first, last) would find it (squared distances: no square root per candidate): only the
    // contacts whose x is within the best distance so far are looked at, outwards from p_A's x
    double best = radius * radius;
    std::size_t match = last;
    const auto consider = [&](std::size_t k) {
      const double dx = s.warm[k].p_A.x() - p_A.x();
      if (dx * dx > best) return false;  // farther than the best, as is every contact farther along x
      const double distance2 = (s.warm[k].p_A - p_A).squaredNorm();
      if (distance2 < best || (distance2 == best && match < last && k < match)) {
        best = distance2;
        match = k;
      }
      return true;
    };
    if (by_x.empty()) {
      for (std::size_t k = first; k < last; ++k) consider(k);
    } else {
      const auto start = std::partition_point(by_x.begin(), by_x.end(),
                                              [&](std::size_t k) { return s.warm[k].p_A.x() < p_A.x(); });
      auto up = start, down = start;
      while (up != by_x.end() && consider(*up)) ++up;
      while (down != by_x.begin() && consider(*(down - 1))) --down;
    }
    if (match == last) continue;
    ws.r0.segment<3>(3 * i) = c.R_WC.transpose() * s.warm[match].r_W;
    ++matched;
  }
  if (2 * matched < nc) stick_start(m, ws);
}

}  // namespace nscd
