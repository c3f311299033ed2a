#pragma once
/// @file
/// One entry point for the solver family on (W, q, μ) (friction_problem.hpp): the default policy
/// `auto` (auto_solver.hpp: NLGS, then PROX where NLGS stalls); the exact
/// Signorini–Coulomb solvers NLGS (nlgs.hpp, with the local solvers of local_solver.hpp), NSN
/// (nsn.hpp) and PROX (prox.hpp); Anitescu's CCP with or without the correction that makes it
/// exact (ccp_solver.hpp); the k-facet pyramid LCP (lcp_solver.hpp). Every solver returns a
/// SolverResult whose error is the common error of error_measure.hpp eq. (3):
///
///  (1) error = sqrt(Σ_i ‖r_i − P_{K_μi}(r_i − (u_i + μ_i ‖u_Ti‖ e_n))‖²) / max(‖q‖, ‖r‖, ‖u‖),
///
/// so results of different solvers compare directly, also with Siconos's fc3d_compute_error.
/// The names below are those of `nscd solve --solver` (docs/commands.md).
///
/// References: see the headers of each solver.

#include "solvers/auto_solver.hpp"
#include "solvers/ccp_solver.hpp"
#include "solvers/friction_problem.hpp"
#include "solvers/interior_point.hpp"
#include "solvers/lcp_solver.hpp"
#include "solvers/nlgs.hpp"
#include "solvers/nsn.hpp"
#include "solvers/prox.hpp"
#include "solvers/stopping.hpp"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nscd::solvers {

/// The solver to run and the options of each (only those of `type` are used).
struct SolverOptions {
  SolverType type = SolverType::Auto;
  AutoOptions automatic;
  NlgsOptions nlgs;
  NsnOptions nsn;
  ProxOptions prox;
  VelocityProxOptions velocity_prox;
  InteriorPointOptions interior_point;
  CcpOptions ccp;
  LcpOptions lcp;

  /// The stopping rule (stopping.hpp) of the solver `type`: that of its options.
  Stopping& stopping();
  const Stopping& stopping() const;
};

/// Runs the solver options.type on p from r0 (warm start; wrong size: zero). A problem without
/// contacts is returned converged, with no iteration and error 0, whatever the solver.
/// @throws nscd::InputError as the solver called does (wrong sizes, μ < 0, options out of range).
/// coupling, if not null, is p's body form (body_coupling.hpp): auto then runs its second stage on
/// it, and VelocityProx needs it.
/// deferred, if not null, gives p's body form per contact (contact_bodies.hpp): nlgs and auto's NLGS
/// stages then sweep on it (nlgs_bodies.hpp), p.W may hold its diagonal blocks only, and the
/// solvers that need W whole ask for it (DeferredDelassus::assembled).
/// @throws nscd::InputError also for VelocityProx without coupling, and for ProxRestart (a stage of auto only).
SolverResult solve(const FrictionProblem& p, const SolverOptions& options, const Eigen::VectorXd& r0,
                   const BodyCoupling* coupling = nullptr, const DeferredDelassus* deferred = nullptr);

/// The NLGS that options.type runs sweep by sweep: NLGS with options.nlgs, or auto's stage 1
/// without its progress test (auto_solver.hpp); nullopt for the other solvers.
std::optional<NlgsOptions> nlgs_sweeps(const SolverOptions& options);

/// A named solver variant, as accepted by `nscd solve --solver`.
struct SolverVariant {
  std::string_view name;         // e.g. "nlgs-jm"
  std::string_view description;  // one line for --help
};

/// Every name solver_options_from_name accepts, in the order of docs/commands.md:
/// auto, nlgs, nlgs-ac, nlgs-jm, nlgs-dsfp, nsn, prox, ccp, ccp-apgd, ccp-pgs, ccp-pgs-corrected,
/// lcp, lcp-lemke, lcp-pgs.
const std::vector<SolverVariant>& solver_variants();

/// Default options of the variant `name`; nullopt for an unknown name. The one reader of solver
/// names: parse_solver_variant and parse_step_solver go through it.
std::optional<SolverOptions> solver_options_from_name(std::string_view name);

/// Default options of the variant `name`, one of solver_variants().
/// @throws nscd::InputError "<what> <name>: unknown solver; expected one of auto, nlgs, ..." (every
///         variant) for another name; `what` says where the name was given (e.g. "--solver").
SolverOptions parse_solver_variant(std::string_view name, std::string_view what);

/// The solvers a time step may run, by name (a scene's solver.type, `nscd run --solver`):
/// "auto", "nlgs", "ccp", "lcp", "nsn", "prox". Their other settings are fields of a scene's
/// solver section, not variants.
const std::vector<std::string>& step_solver_names();

/// The solver type named `name`, one of step_solver_names().
/// @throws nscd::InputError "<what> <name>: unknown solver; expected one of auto, nlgs, ccp, lcp,
///         nsn, prox" for another name.
SolverType parse_step_solver(std::string_view name, std::string_view what);

}  // namespace nscd::solvers
