#include "solvers/solve.hpp"

#include "nscd/core/error.hpp"
#include "solvers/nlgs_bodies.hpp"

#include <algorithm>

#include <utility>

namespace nscd::solvers {

SolverResult solve(const FrictionProblem& p, const SolverOptions& options, const Eigen::VectorXd& r0,
                   const BodyCoupling* coupling, const DeferredDelassus* deferred) {
  if (p.nc() == 0) return SolverResult{};  // nothing to solve: converged after no iteration
  if (options.type == SolverType::Auto) return solve_auto(p, options.automatic, r0, coupling, deferred);
  if (options.type == SolverType::Nlgs && deferred != nullptr)
    return solve_nlgs_bodies(p, *deferred->bodies, options.nlgs, r0);
  // the others read W whole
  const FrictionProblem& whole = deferred != nullptr ? deferred->assembled() : p;
  switch (options.type) {
    case SolverType::VelocityProx:
      NSCD_THROW_UNLESS(coupling != nullptr, "the velocity PROX solver needs the bodies of the problem");
      return solve_velocity_prox(whole, *coupling, options.velocity_prox, r0);
    case SolverType::InteriorPoint:
      NSCD_THROW_UNLESS(coupling != nullptr, "the interior point solver needs the bodies of the problem");
      return solve_interior_point(p, *coupling, options.interior_point);
    case SolverType::Nsn:
      return solve_nsn(whole, options.nsn, r0);
    case SolverType::Prox:
      return solve_prox(whole, options.prox, r0);
    case SolverType::ProxRestart:
      throw InputError("prox-restart is a stage of auto, not a solver of its own");
    case SolverType::Ccp:
      return solve_ccp(whole, options.ccp, r0);
    case SolverType::Lcp:
      return solve_lcp(whole, options.lcp, r0);
    case SolverType::Auto:
    case SolverType::Nlgs:
      break;
  }
  return solve_nlgs(whole, options.nlgs, r0);
}

Stopping& SolverOptions::stopping() {
  return const_cast<Stopping&>(std::as_const(*this).stopping());
}

const Stopping& SolverOptions::stopping() const {
  switch (type) {
    case SolverType::Auto:
      return automatic.stopping;
    case SolverType::Nlgs:
      return nlgs.stopping;
    case SolverType::Nsn:
      return nsn.stopping;
    case SolverType::Prox:
      return prox.stopping;
    case SolverType::VelocityProx:
      return velocity_prox.stopping;
    case SolverType::InteriorPoint:
      return interior_point.stopping;
    case SolverType::ProxRestart:
      return automatic.stopping;
    case SolverType::Ccp:
      return ccp.stopping;
    case SolverType::Lcp:
      return lcp.stopping;
  }
  return automatic.stopping;
}

std::optional<NlgsOptions> nlgs_sweeps(const SolverOptions& options) {
  if (options.type == SolverType::Nlgs) return options.nlgs;
  if (options.type == SolverType::Auto) return nlgs_stage_options(options.automatic, 0);
  return std::nullopt;
}

const std::vector<SolverVariant>& solver_variants() {
  static const std::vector<SolverVariant> variants{
      {"auto", "nonlinear Gauss-Seidel while it progresses, then interior point and proximal Newton"},
      {"nlgs", "nonlinear Gauss-Seidel, Alart-Curnier local solver (= nlgs-ac)"},
      {"nlgs-ac", "nonlinear Gauss-Seidel, Alart-Curnier local Newton"},
      {"nlgs-jm", "nonlinear Gauss-Seidel, Jean-Moreau local Newton"},
      {"nlgs-dsfp", "nonlinear Gauss-Seidel, De Saxce local fixed point"},
      {"nsn", "semismooth Newton (Alart-Curnier) on the whole problem, sparse LU"},
      {"prox", "proximal point, Newton inner solver"},
      {"ccp", "cone complementarity by APGD with the correction s = mu |u_T| (exact Coulomb)"},
      {"ccp-apgd", "cone complementarity (relaxed Coulomb) by APGD"},
      {"ccp-pgs", "cone complementarity (relaxed Coulomb) by projected Gauss-Seidel"},
      {"ccp-pgs-corrected", "cone complementarity by projected Gauss-Seidel with the correction"},
      {"lcp", "8-facet pyramid LCP, Lemke if small else Gauss-Seidel"},
      {"lcp-lemke", "8-facet pyramid LCP by Lemke's pivoting"},
      {"lcp-pgs", "8-facet pyramid LCP by block Gauss-Seidel"},
  };
  return variants;
}

namespace {

// the error of a name not among `names`
[[noreturn]] void unknown_solver(std::string_view name, std::string_view what, const std::vector<std::string>& names) {
  throw InputError(fmt::format("{} {}: unknown solver; expected one of {}", what, name, fmt::join(names, ", ")));
}

}  // namespace

SolverOptions parse_solver_variant(std::string_view name, std::string_view what) {
  if (std::optional<SolverOptions> options = solver_options_from_name(name)) return *options;
  std::vector<std::string> names;
  for (const SolverVariant& v : solver_variants()) names.emplace_back(v.name);
  unknown_solver(name, what, names);
}

const std::vector<std::string>& step_solver_names() {
  static const std::vector<std::string> names{"auto", "nlgs", "ccp", "lcp", "nsn", "prox"};
  return names;
}

SolverType parse_step_solver(std::string_view name, std::string_view what) {
  const std::vector<std::string>& names = step_solver_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) unknown_solver(name, what, names);
  return solver_options_from_name(name)->type;
}

std::optional<SolverOptions> solver_options_from_name(std::string_view name) {
  SolverOptions o;
  if (name == "auto") {
    o.type = SolverType::Auto;
  } else if (name == "nlgs" || name == "nlgs-ac") {
    o.type = SolverType::Nlgs;
  } else if (name == "nlgs-jm") {
    o.type = SolverType::Nlgs;
    o.nlgs.local_solver = LocalSolverKind::JeanMoreau;
  } else if (name == "nlgs-dsfp") {
    o.type = SolverType::Nlgs;
    o.nlgs.local_solver = LocalSolverKind::DeSaxceFixedPoint;
  } else if (name == "nsn") {
    o.type = SolverType::Nsn;
  } else if (name == "prox") {
    o.type = SolverType::Prox;
  } else if (name == "ccp" || name == "ccp-pgs-corrected" || name == "ccp-apgd" || name == "ccp-pgs") {
    o.type = SolverType::Ccp;
    o.ccp.method = name == "ccp" || name == "ccp-apgd" ? CcpMethod::Apgd : CcpMethod::Pgs;
    o.ccp.correction = name == "ccp" || name == "ccp-pgs-corrected";
  } else if (name == "lcp" || name == "lcp-lemke" || name == "lcp-pgs") {
    o.type = SolverType::Lcp;
    o.lcp.method = name == "lcp" ? LcpMethod::Auto : (name == "lcp-lemke" ? LcpMethod::Lemke : LcpMethod::Pgs);
  } else {
    return std::nullopt;
  }
  return o;
}

}  // namespace nscd::solvers
