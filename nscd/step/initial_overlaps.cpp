#include "nscd/step/initial_overlaps.hpp"

#include "nscd/core/error.hpp"
#include "nscd/step/mesh_contacts.hpp"
#include "nscd/step/stepper.hpp"

#include <set>
#include <utility>

namespace nscd {

void check_initial_overlaps(const Model& m, const State& s, const std::string& file) {
  StepWorkspace detection;
  detect_all(m, s, m.step.alert_distance, detection);
  std::vector<contact::ContactPoint> contacts = std::move(detection.detected);
  for (const MeshContact& c : detection.mesh_detected) contacts.push_back(c.point);
  // eq. (1); the deepest overlap relative to its tolerance is reported
  const contact::ContactPoint* worst = nullptr;
  double worst_ratio = 1.0;
  std::set<std::pair<int, int>> pairs;
  for (const contact::ContactPoint& c : contacts) {
    const double tolerance =
        kOverlapFraction * 2 * std::min(m.bodies[c.a].bounding_radius, m.bodies[c.b].bounding_radius);
    if (-c.gap <= tolerance) continue;
    pairs.insert({c.a, c.b});
    if (-c.gap / tolerance > worst_ratio) worst_ratio = -c.gap / tolerance, worst = &c;
  }
  if (worst == nullptr) return;
  throw InputError(fmt::format(
      "{}: bodies[{}] \"{}\" and bodies[{}] \"{}\" overlap by {:.4g} m at t = 0, at ({:.6g}, {:.6g}, {:.6g}){}; "
      "expected bodies that touch or are apart (an overlap up to {} of the smaller body's size is accepted)",
      file, worst->a, m.bodies[worst->a].name, worst->b, m.bodies[worst->b].name, -worst->gap, worst->p_W.x(),
      worst->p_W.y(), worst->p_W.z(),
      pairs.size() > 1 ? fmt::format(" ({} overlapping pairs in all)", pairs.size()) : std::string(),
      kOverlapFraction));
}

}  // namespace nscd
