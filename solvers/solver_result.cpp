#include "solvers/solver_result.hpp"

namespace nscd::solvers {

std::string_view to_string(SolverStatus status) {
  switch (status) {
    case SolverStatus::Converged:
      return "converged";
    case SolverStatus::MaxIterations:
      return "max_iterations";
    case SolverStatus::NonFinite:
      return "non_finite";
  }
  return "unknown";
}

std::string_view to_string(SolverType type) {
  switch (type) {
    case SolverType::Auto:
      return "auto";
    case SolverType::Nlgs:
      return "nlgs";
    case SolverType::Nsn:
      return "nsn";
    case SolverType::Prox:
      return "prox";
    case SolverType::VelocityProx:
      return "vprox";
    case SolverType::InteriorPoint:
      return "ipm";
    case SolverType::ProxRestart:
      return "prox-restart";
    case SolverType::Ccp:
      return "ccp";
    case SolverType::Lcp:
      return "lcp";
  }
  return "unknown";
}

}  // namespace nscd::solvers
