// Bullet 3.24 (Debian's libbullet-dev, btDiscreteDynamicsWorld) on a scene file of nscd
// (docs/scene_format.md), to time it beside bench_scene on the same host, e.g. on the
// running-bond wall scenes/wall_static.json, whose target in issue 14 is Bullet's speed with its
// inexact 10 iterations: time per step, contact points per step (the points of Bullet's contact
// manifolds), the deepest penetration (most negative manifold distance), and at the end the
// largest displacement of a rigid body from its initial position (does the wall stand?).
//
//   build/bin/bench_bullet SCENE.json [--steps N] [--warmup N] [--iterations N]
//
// nscd's reader reads the scene (its errors as nscd reports them, exit code 2) and its model
// builder gives each body's pose, mass and inertia. Only what the wall needs is carried over:
// rigid and fixed bodies with box shapes, gravity, the time step (one internal Bullet step of h
// per step), friction and restitution of the interactions. Bullet combines the two bodies'
// friction and restitution by their product, so every body gets √μ and √e: all pairs of bodies
// that can touch must share one μ and one e. Any other scene (other models or shapes, initial
// velocities, loads, cohesive laws, penalty contact, pairs with different laws) is refused,
// exit code 2. nscd's integrator, solver and detection settings are not used. Bullet keeps its
// defaults otherwise, all printed: collision margin 0.04 m (a tenth of the smallest half extent
// where that is less: 0.025 m on the wall's ground), 4 points per manifold, split impulse, warm
// starting, one friction direction per point, sleeping after 2 s at rest; single precision
// (Debian's libbullet; its float64 variant is the double one). The discrete world steps on one
// thread.
//
// Not a test: numbers depend on the machine; run bench_scene SCENE.json --threads 1 beside it.

#include "nscd/core/error.hpp"
#include "nscd/io/build_model.hpp"
#include "nscd/io/scene.hpp"

#include <CLI/CLI.hpp>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

btVector3 bt(const nscd::Vec3& v) {
  return {static_cast<btScalar>(v.x()), static_cast<btScalar>(v.y()), static_cast<btScalar>(v.z())};
}

btQuaternion bt(const nscd::Quat& q) {
  return {static_cast<btScalar>(q.x()), static_cast<btScalar>(q.y()), static_cast<btScalar>(q.z()),
          static_cast<btScalar>(q.w())};
}

const char* shape_name(const nscd::io::ShapeSpec& shape) {
  static constexpr const char* names[] = {"box", "sphere", "convex", "mesh"};
  return names[shape.index()];
}

// refuses (nscd::InputError, exit code 2) what this benchmark does not carry over to Bullet
void check_supported(const nscd::io::Scene& scene) {
  const std::string file = scene.file.string();
  NSCD_THROW_UNLESS(!scene.contact.penalty,
                    "{}: contact: model \"penalty\"; bench_bullet supports scenes with the non-smooth contact "
                    "model \"nscd\" only", file);
  NSCD_THROW_UNLESS(scene.loads.empty(), "{}: loads: {} load(s); bench_bullet supports gravity only", file,
                    scene.loads.size());
  for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
    const nscd::io::Body& body = scene.bodies[i];
    const bool rigid_or_fixed = body.model == nscd::BodyKind::Rigid || body.model == nscd::BodyKind::Fixed;
    NSCD_THROW_UNLESS(rigid_or_fixed && std::holds_alternative<nscd::io::BoxShape>(body.shape),
                      "{}: bodies[{}]: body \"{}\" has model \"{}\" and a {} shape; bench_bullet supports bodies "
                      "with model \"rigid\" or \"fixed\" and a box shape", file, i, body.name,
                      nscd::to_string(body.model), shape_name(body.shape));
    NSCD_THROW_UNLESS(body.velocity == nscd::Vec3::Zero() && body.angular_velocity == nscd::Vec3::Zero(),
                      "{}: bodies[{}]: body \"{}\" has an initial velocity; bench_bullet supports bodies at rest "
                      "at t = 0", file, i, body.name);
  }
}

std::string pair_name(const nscd::Model& m, int a, int b) {
  return fmt::format("bodies \"{}\" and \"{}\"", m.bodies[a].name, m.bodies[b].name);
}

// MAX_FRICTION of Bullet's btManifoldResult::calculateCombinedFriction, where it clamps the product
constexpr double kBulletMaxFriction = 10.0;

struct PairLaw {
  double friction = 0.0, restitution = 0.0;
  int a = 0, b = 0;  // the first pair of bodies with this law
};

// the one contact law of every pair of bodies that can touch (at least one of them rigid): one
// √μ and √e per body cannot give two pairs different laws under Bullet's product
PairLaw common_law(const nscd::io::Scene& scene, const nscd::Model& m) {
  const std::string file = scene.file.string();
  std::optional<PairLaw> common;
  for (int a = 0; a < m.nb(); ++a)
    for (int b = a + 1; b < m.nb(); ++b) {
      if (m.bodies[a].kind != nscd::BodyKind::Rigid && m.bodies[b].kind != nscd::BodyKind::Rigid) continue;
      const nscd::ContactLaw& law = m.law(m.bodies[a].material, m.bodies[b].material);
      NSCD_THROW_UNLESS(!law.cohesive(),
                        "{}: interactions: {} have a cohesive law (tensile_strength or cohesion > 0); bench_bullet "
                        "supports frictional contact only", file, pair_name(m, a, b));
      NSCD_THROW_UNLESS(law.friction <= kBulletMaxFriction,
                        "{}: interactions: {} have friction {}; Bullet clamps the friction of a pair at {}", file,
                        pair_name(m, a, b), law.friction, kBulletMaxFriction);
      if (!common) common = PairLaw{law.friction, law.restitution, a, b};
      NSCD_THROW_UNLESS(law.friction == common->friction && law.restitution == common->restitution,
                        "{}: interactions: {} have friction {} and restitution {}, {} friction {} and restitution "
                        "{}; Bullet multiplies the two bodies' values, so bench_bullet needs one friction and one "
                        "restitution for every pair of bodies that can touch", file, pair_name(m, common->a, common->b),
                        common->friction, common->restitution, pair_name(m, a, b), law.friction, law.restitution);
    }
  NSCD_THROW_UNLESS(common.has_value(), "{}: bodies: no two bodies can touch (a rigid body and another one)", file);
  return *common;
}

// Bullet's world with the scene's bodies, in the scene's order. The world is declared last so
// that it is destroyed first, while the bodies, broadphase and dispatcher it refers to exist.
struct BulletWorld {
  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher{&configuration};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  std::vector<std::unique_ptr<btBoxShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};

  BulletWorld(const nscd::io::Scene& scene, const nscd::Model& m, const PairLaw& law, int iterations) {
    world.setGravity(bt(m.step.gravity));
    world.getSolverInfo().m_numIterations = iterations;
    for (int b = 0; b < m.nb(); ++b) {
      const nscd::BodyModel& body = m.bodies[b];
      shapes.push_back(std::make_unique<btBoxShape>(bt(std::get<nscd::io::BoxShape>(scene.bodies[b].shape).size / 2)));
      btRigidBody::btRigidBodyConstructionInfo info(static_cast<btScalar>(body.mass), nullptr, shapes.back().get(),
                                                    bt(nscd::Vec3(body.inertia_B.diagonal())));
      info.m_startWorldTransform = btTransform(bt(body.q0), bt(body.x0));
      info.m_friction = static_cast<btScalar>(std::sqrt(law.friction));
      info.m_restitution = static_cast<btScalar>(std::sqrt(law.restitution));
      bodies.push_back(std::make_unique<btRigidBody>(info));
      world.addRigidBody(bodies.back().get());
    }
  }
};

struct ContactCount {
  long points = 0;           // manifold points, summed over the steps
  long pairs = 0;            // manifolds with at least one point, summed over the steps
  double penetration = 0.0;  // deepest: minus the most negative manifold distance [m]
};

void count_contacts(btCollisionDispatcher& dispatcher, ContactCount& count) {
  for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
    const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(i);
    count.points += manifold.getNumContacts();
    count.pairs += manifold.getNumContacts() > 0;
    for (int j = 0; j < manifold.getNumContacts(); ++j)
      count.penetration = std::max(count.penetration, -static_cast<double>(manifold.getContactPoint(j).getDistance()));
  }
}

// `steps` steps of h, each one internal step of Bullet; the contacts after each; the wall-clock
// time [s] in `wall`
ContactCount run_steps(BulletWorld& w, btScalar h, long steps, double& wall) {
  ContactCount count;
  const auto start = std::chrono::steady_clock::now();
  for (long n = 0; n < steps; ++n) {
    w.world.stepSimulation(h, 0, h);
    count_contacts(w.dispatcher, count);
  }
  wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return count;
}

struct Displacement {
  double largest = 0.0;  // [m], of a rigid body's centre of mass from its initial position
  int body = -1;         // which (-1: none moved)
  int rigid = 0, asleep = 0;
};

Displacement displacement(const BulletWorld& w, const nscd::Model& m) {
  Displacement d;
  for (int b = 0; b < m.nb(); ++b) {
    if (m.bodies[b].kind != nscd::BodyKind::Rigid) continue;
    ++d.rigid;
    d.asleep += w.bodies[b]->getActivationState() == ISLAND_SLEEPING;
    const btVector3& x = w.bodies[b]->getWorldTransform().getOrigin();
    const double moved = (nscd::Vec3(x.x(), x.y(), x.z()) - m.bodies[b].x0).norm();
    if (moved > d.largest) {
      d.largest = moved;
      d.body = b;
    }
  }
  return d;
}

void print_settings(const BulletWorld& w) {
  const btContactSolverInfo& info = w.world.getSolverInfo();
  double margin_min = BT_LARGE_FLOAT, margin_max = 0;
  for (const auto& shape : w.shapes) {
    margin_min = std::min(margin_min, static_cast<double>(shape->getMargin()));
    margin_max = std::max(margin_max, static_cast<double>(shape->getMargin()));
  }
  std::printf("engine           Bullet %d.%02d btDiscreteDynamicsWorld, %s precision, one thread\n",
              btGetVersion() / 100, btGetVersion() % 100, sizeof(btScalar) == sizeof(double) ? "double" : "single");
  std::printf("solver           btSequentialImpulseConstraintSolver, %d iterations, ERP %g, split impulse %s beyond "
              "%g m of penetration (ERP2 %g), warm starting %g, %d friction direction(s) per point\n",
              info.m_numIterations, static_cast<double>(info.m_erp), info.m_splitImpulse ? "on" : "off",
              -static_cast<double>(info.m_splitImpulsePenetrationThreshold), static_cast<double>(info.m_erp2),
              static_cast<double>(info.m_warmstartingFactor),
              info.m_solverMode & SOLVER_USE_2_FRICTION_DIRECTIONS ? 2 : 1);
  std::printf("collision        btDbvtBroadphase, box margins %g to %g m (Bullet's: 0.04 m, at most a tenth of the "
              "smallest half extent), %d points per manifold, contact breaking threshold %g m\n",
              margin_min, margin_max, MANIFOLD_CACHE_SIZE, static_cast<double>(gContactBreakingThreshold));
  std::printf("sleeping         after %g s below %g m/s and %g rad/s\n", static_cast<double>(gDeactivationTime),
              static_cast<double>(w.bodies.front()->getLinearSleepingThreshold()),
              static_cast<double>(w.bodies.front()->getAngularSleepingThreshold()));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_bullet: time Bullet's steps on a scene of rigid and fixed boxes"};
  std::string scene_file;
  long steps = 0, warmup = 0;
  int iterations = 10;
  app.add_option("scene", scene_file)->required();
  app.add_option("--steps", steps, "timed steps (default: the scene's duration)");
  app.add_option("--warmup", warmup, "untimed steps first")->default_val(0);
  app.add_option("--iterations", iterations, "Bullet's solver iterations")
      ->default_val(10)
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  CLI11_PARSE(app, argc, argv);

  try {
    const nscd::io::Scene scene = nscd::io::read_scene(scene_file);
    check_supported(scene);
    const nscd::Model m = nscd::io::build_model(scene);
    const PairLaw law = common_law(scene, m);
    if (steps <= 0) steps = m.n_steps - warmup;
    BulletWorld w(scene, m, law, iterations);
    const btScalar h = static_cast<btScalar>(m.step.h);
    double wall = 0;
    run_steps(w, h, warmup, wall);
    const ContactCount count = run_steps(w, h, steps, wall);
    const Displacement d = displacement(w, m);

    const double n = static_cast<double>(steps);
    std::printf("scene            %s (%d bodies, %d rigid)\n", scene_file.c_str(), m.nb(), d.rigid);
    print_settings(w);
    std::printf("contact law      friction %g, restitution %g (√ of each on every body; no restitution below "
                "%g m/s)\n", law.friction, law.restitution,
                static_cast<double>(w.world.getSolverInfo().m_restitutionVelocityThreshold));
    std::printf("steps            %ld (+%ld warm-up), h = %g s\n", steps, warmup, m.step.h);
    std::printf("time per step    %.4f ms  (%.0f steps/s)\n", 1e3 * wall / n, n / wall);
    std::printf("contacts/step    %.1f manifold points, %.1f touching pairs\n", static_cast<double>(count.points) / n,
                static_cast<double>(count.pairs) / n);
    std::printf("penetration      deepest %.3g m (most negative manifold distance)\n", count.penetration);
    std::printf("displacement     largest %.3g m at t = %g s (body \"%s\"); %d of %d rigid bodies asleep\n", d.largest,
                static_cast<double>(warmup + steps) * m.step.h, d.body < 0 ? "none" : m.bodies[d.body].name.c_str(),
                d.asleep, d.rigid);
  } catch (const nscd::InputError& e) {
    std::fprintf(stderr, "bench_bullet: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
