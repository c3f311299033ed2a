#include "nscd/step/loads.hpp"

#include "nscd/step/model.hpp"

#include <algorithm>

namespace nscd {

double load_factor(const LoadModel& load, double t) { return load.factor.velocity(t).x(); }

BodyLoad body_load(const Model& m, int b, double t) {
  BodyLoad total;
  for (const LoadModel& load : m.loads) {
    if (!std::binary_search(load.bodies.begin(), load.bodies.end(), b)) continue;
    const double f = load_factor(load, t);
    total.force += f * load.force;
    total.moment += f * load.moment;
    total.acceleration += f * load.acceleration;
  }
  return total;
}

BodyLoad step_load(const Model& m, int b, double t) {
  const double theta = m.step.theta;
  const BodyLoad start = body_load(m, b, t), end = body_load(m, b, t + m.step.h);
  return {theta * end.force + (1 - theta) * start.force, theta * end.moment + (1 - theta) * start.moment,
          theta * end.acceleration + (1 - theta) * start.acceleration};
}

Vec3 step_gravity(const Model& m, int b, double t) {
  const Vec3 a = step_load(m, b, t).acceleration;
  return a == Vec3::Zero() ? m.step.gravity : Vec3(m.step.gravity + a);
}

}  // namespace nscd
