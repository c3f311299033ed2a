#include "nscd/io/scene_checks.hpp"

#include <spdlog/fmt/fmt.h>

#include <Eigen/IterativeLinearSolvers>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

namespace nscd::io {
namespace {

// Plausible ranges; a value outside usually means a wrong unit.
// Density [kg/m³]: from foams and cork (~100–250) to osmium (22 590). A scene in millimetres
// with kg/mm³ gives ~1e-6, g/cm³ gives ~2, both far outside.
constexpr double kMinDensity = 100, kMaxDensity = 25'000;
// Young's modulus [Pa]: from soft rubbers and foams (~1e5–1e6) to diamond (1.2e12), with a
// margin for deliberately stiff bodies. MPa typed as Pa (stone: 35 000) or GPa (35) falls below.
constexpr double kMinYoung = 1e5, kMaxYoung = 1e13;
// Body size [m] (largest extent): grains, blocks and structures lie between; lengths written in
// millimetres for metres make bodies 1000 times too large, kilometres 1000 times too small.
constexpr double kMinSize = 1e-3, kMaxSize = 1e3;
// |g| [m/s²], unless 0: from small moons (Ceres 0.28) to geotechnical centrifuges (~100 g);
// mm/s² gives 9810.
constexpr double kMinGravity = 0.1, kMaxGravity = 1000;
// h ω_max: the θ-method is unconditionally stable, so a large h ω_max is never unstable; it is
// inaccurate. The trapezoidal rule lengthens the period of a mode by ≈ (h ω)²/12 (θ > ½ also
// damps it), so only modes with h ω ≲ 1 are resolved. The highest mode of a mesh is a mesh
// artefact, but a body's first elastic modes lie about ω_max / (2…4 n) below it (n elements
// along the body, at most a few tens in practice): h ω_max > 100 puts h ω₁ above ~1, so even
// the body's lowest elastic modes are not resolved and its elastic response is lost.
constexpr double kLargeStepOmega = 100;
// power iterations of highest_natural_frequency and the conjugate-gradient tolerance of its
// mass solves (relative residual; the consistent mass is well conditioned)
constexpr int kPowerIterations = 30;
constexpr double kMassSolveTolerance = 1e-10;

// of a modal body's line: how many of its modes the step does not resolve (ffr_body.hpp eq. R3)
// and how they are integrated
std::string unresolved_modes(const ffr::FfrBody& fe) {
  const Eigen::VectorXd& omega2 = fe.modes->omega2;
  const auto n = std::count_if(omega2.begin(), omega2.end(), [&fe](double w2) { return ffr::unresolved(w2, fe.h); });
  if (n == 0) return "";
  if (fe.unresolved == ffr::UnresolvedModes::BackwardEuler)
    return fmt::format("; {} with h ω > {:g} integrated by backward Euler", n, ffr::kResolvedOmegaH);
  return fmt::format("; {} with h ω > {:g}, which the trapezoidal rule keeps ringing unless damped "
                     "(\"unresolved_modes\": \"backward_euler\" settles them)",
                     n, ffr::kResolvedOmegaH);
}

struct BodyScale {
  double mass = 0;          // 0 for fixed and driven bodies
  Vec3 box = Vec3::Zero();  // bounding box in the body frame (polyhedra)
  double radius = 0;        // spheres
  double size = 0;          // largest extent (a sphere's diameter)
};

BodyScale body_scale(const Model& m, int b) {
  BodyScale s;
  s.mass = m.bodies[b].mass;
  if (const auto* sphere = std::get_if<contact::Sphere>(&m.shapes[b])) {
    s.radius = sphere->radius;
    s.size = 2 * sphere->radius;
    return s;
  }
  const auto& vertices = std::get<contact::ConvexPolyhedron>(m.shapes[b]).vertices;
  Vec3 lo = vertices.front(), hi = vertices.front();
  for (const Vec3& v : vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
  s.box = hi - lo;
  s.size = s.box.maxCoeff();
  return s;
}

// the index of the smallest and of the largest value among bodies[i] with value(i) ≥ 0
template <class Value>
std::pair<int, int> extremes(int n, Value value) {
  int lo = -1, hi = -1;
  for (int i = 0; i < n; ++i) {
    if (value(i) < 0) continue;
    if (lo < 0 || value(i) < value(lo)) lo = i;
    if (hi < 0 || value(i) > value(hi)) hi = i;
  }
  return {lo, hi};
}

void check_bodies(const Model& m, bool per_body, SceneChecks& out) {
  std::vector<BodyScale> scales;
  for (int b = 0; b < m.nb(); ++b) scales.push_back(body_scale(m, b));
  if (per_body) {
    for (int b = 0; b < m.nb(); ++b) {
      const BodyScale& s = scales[b];
      std::string line = fmt::format("\"{}\" ({}): ", m.bodies[b].name, to_string(m.bodies[b].kind));
      if (s.mass > 0) line += fmt::format("mass {:.4g} kg, ", s.mass);
      line += s.radius > 0 ? fmt::format("radius {:.4g} m", s.radius)
                           : fmt::format("size {:.4g} × {:.4g} × {:.4g} m", s.box.x(), s.box.y(), s.box.z());
      out.lines.push_back(line);
    }
  } else {
    const auto [light, heavy] = extremes(m.nb(), [&](int b) { return scales[b].mass > 0 ? scales[b].mass : -1.0; });
    const auto [small, large] = extremes(m.nb(), [&](int b) { return scales[b].size; });
    std::string line;
    if (light >= 0)
      line = fmt::format("mass {:.4g} kg (\"{}\") to {:.4g} kg (\"{}\"); ", scales[light].mass, m.bodies[light].name,
                         scales[heavy].mass, m.bodies[heavy].name);
    out.lines.push_back(fmt::format("bodies: {}size {:.4g} m (\"{}\") to {:.4g} m (\"{}\")", line, scales[small].size,
                                    m.bodies[small].name, scales[large].size, m.bodies[large].name));
  }
  std::vector<std::string> too_small, too_large;
  for (int b = 0; b < m.nb(); ++b) {
    if (scales[b].size < kMinSize) too_small.push_back(m.bodies[b].name);
    if (scales[b].size > kMaxSize) too_large.push_back(m.bodies[b].name);
  }
  if (!too_small.empty())
    out.warnings.push_back(fmt::format("{} {} smaller than {} m (largest extent), beyond the grains and blocks this "
                                       "program is meant for: lengths in a wrong unit (km for m)? {}",
                                       too_small.size(), too_small.size() == 1 ? "body is" : "bodies are", kMinSize,
                                       name_list(too_small)));
  if (!too_large.empty())
    out.warnings.push_back(fmt::format("{} {} larger than {} m (largest extent), beyond the blocks and structures this "
                                       "program is meant for: lengths in millimetres? {}",
                                       too_large.size(), too_large.size() == 1 ? "body is" : "bodies are", kMaxSize,
                                       name_list(too_large)));
}

void check_materials(const Scene& scene, SceneChecks& out) {
  std::set<std::string> used;
  for (const Body& body : scene.bodies) used.insert(body.material);
  for (const std::string& name : used) {
    const Material& material = scene.materials.at(name);
    if (material.density < kMinDensity || material.density > kMaxDensity)
      out.warnings.push_back(fmt::format("material \"{}\": density {:.4g} kg/m³ is outside [{}, {}] (foams to "
                                         "osmium): a wrong unit (kg/mm³, g/cm³)?",
                                         name, material.density, kMinDensity, kMaxDensity));
    if (material.young && (*material.young < kMinYoung || *material.young > kMaxYoung))
      out.warnings.push_back(fmt::format("material \"{}\": Young's modulus {:.4g} Pa is outside [{:g}, {:g}] (soft "
                                         "rubber to diamond): MPa or GPa typed as Pa?",
                                         name, *material.young, kMinYoung, kMaxYoung));
  }
}

void check_time_scales(const Model& m, bool per_body, SceneChecks& out) {
  const double h = m.step.h, g = m.step.gravity.norm(), d = m.step.alert_distance;
  if (g > 0 && (g < kMinGravity || g > kMaxGravity))
    out.warnings.push_back(fmt::format("gravity |g| = {:.4g} m/s² is outside [{}, {}] (small moons to centrifuges): "
                                       "a wrong unit (mm/s²)?",
                                       g, kMinGravity, kMaxGravity));
  if (g > 0) {
    const double fall = 0.5 * g * h * h;
    out.lines.push_back(fmt::format("time step {:g} s: free fall in one step g h²/2 = {:.3g} m against the alert "
                                    "distance {:.3g} m; after falling for the whole run (v = g T = {:.3g} m/s), "
                                    "g T h = {:.3g} m per step",
                                    h, fall, d, g * m.duration, g * m.duration * h));
    if (d > 0 && fall > d)
      out.warnings.push_back(fmt::format("the time step {:g} s is coarse for the scene's lengths: a body falls "
                                         "g h²/2 = {:.3g} m in one step from rest, more than the alert distance "
                                         "{:.3g} m; a step in a wrong unit (ms)?",
                                         h, fall, d));
  }
  // the highest natural frequencies of the finite-element bodies
  std::vector<std::pair<int, double>> omegas;
  for (int b = 0; b < m.nb(); ++b)
    if (const ffr::FfrBody* fe = finite_element_body(m, b)) omegas.emplace_back(b, highest_natural_frequency(*fe));
  if (omegas.empty()) return;
  std::vector<std::string> coarse;
  for (const auto& [b, omega] : omegas) {
    const ffr::FfrBody& fe = *finite_element_body(m, b);
    if (per_body && fe.modes) {
      const int c = fe.modes->corrections;
      const std::string corrections = c > 0 ? fmt::format(" + {} static corrections", c) : "";
      out.lines.push_back(fmt::format("\"{}\" ({}, {} modes{}): highest kept natural frequency ω = {:.3g} rad/s "
                                      "({:.3g} Hz), h ω = {:.3g}{}",
                                      m.bodies[b].name, to_string(m.bodies[b].kind), fe.modes->size() - c,
                                      corrections, omega, omega / (2 * std::numbers::pi), h * omega,
                                      unresolved_modes(fe)));
    } else if (per_body) {
      out.lines.push_back(fmt::format("\"{}\" ({}): highest natural frequency ω_max ≈ {:.3g} rad/s, h ω_max = {:.3g}",
                                      m.bodies[b].name, to_string(m.bodies[b].kind), omega, h * omega));
    }
    if (h * omega > kLargeStepOmega) coarse.push_back(m.bodies[b].name);
  }
  if (!per_body) {
    const auto top = *std::max_element(omegas.begin(), omegas.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
    const ffr::FfrBody& fe = *finite_element_body(m, top.first);
    out.lines.push_back(fmt::format("highest natural frequency ω_max ≈ {:.3g} rad/s (\"{}\"), h ω_max = {:.3g}{}",
                                    top.second, m.bodies[top.first].name, h * top.second,
                                    fe.modes ? unresolved_modes(fe) : ""));
  }
  if (!coarse.empty())
    out.warnings.push_back(fmt::format("h ω_max > {:g} for {}: the time step resolves none of the elastic modes "
                                       "(their trapezoidal rule stays stable, but only modes with h ω ≲ 1 are "
                                       "accurate, and the others ring undamped whatever integrator.theta); a "
                                       "smaller step, a coarser mesh, the material's damping, or for modal "
                                       "bodies \"unresolved_modes\": \"backward_euler\"",
                                       kLargeStepOmega, name_list(coarse)));
}

// θ moves rigid and driven bodies only (nscd/step/contact_problem.hpp, gap_theta): with θ ≠ 1/2
// and no rigid body, the scene's deformable bodies see nothing of it
void check_theta(const Model& m, SceneChecks& out) {
  if (m.step.theta == 0.5 || !m.has_meshes()) return;
  for (const BodyModel& body : m.bodies)
    if (body.kind == BodyKind::Rigid) return;
  out.warnings.push_back(fmt::format("integrator.theta = {:g} moves rigid and driven bodies only, and this scene "
                                     "has no rigid body: its ffr, tl and linear bodies move by the trapezoidal "
                                     "rule whatever θ, which does not damp them (the material's damping does)",
                                     m.step.theta));
}

}  // namespace

std::string name_list(const std::vector<std::string>& names, std::size_t shown) {
  std::vector<std::string> quoted;
  for (std::size_t i = 0; i < std::min(shown, names.size()); ++i) quoted.push_back('"' + names[i] + '"');
  if (names.size() > shown) quoted.push_back(fmt::format("and {} more", names.size() - shown));
  return fmt::format("{}", fmt::join(quoted, ", "));
}

double highest_natural_frequency(const ffr::FfrBody& body) {
  if (body.modes) return std::sqrt(body.modes->omega2.maxCoeff());
  const ffr::SparseMatrix& M = body.mass_matrix;
  const ffr::SparseMatrix& K = body.stiffness;
  Eigen::ConjugateGradient<ffr::SparseMatrix, Eigen::Lower | Eigen::Upper> mass_solver(M);
  mass_solver.setTolerance(kMassSolveTolerance);
  // a fixed start with components along every mode (deterministic)
  Eigen::VectorXd x(M.rows());
  for (Eigen::Index i = 0; i < x.size(); ++i) x[i] = std::sin(1.0 + 12.9898 * static_cast<double>(i));
  double omega_squared = 0;
  for (int k = 0; k < kPowerIterations; ++k) {
    x /= std::sqrt(x.dot(M * x));
    const Eigen::VectorXd Kx = K * x;
    omega_squared = x.dot(Kx);  // Rayleigh quotient, xᵀ M x = 1
    x = mass_solver.solve(Kx);
  }
  return std::sqrt(std::max(omega_squared, 0.0));
}

SceneChecks check_scene(const Model& m, const Scene& scene, bool per_body) {
  SceneChecks out;
  check_bodies(m, per_body, out);
  check_materials(scene, out);
  check_time_scales(m, per_body, out);
  check_theta(m, out);
  return out;
}

}  // namespace nscd::io
