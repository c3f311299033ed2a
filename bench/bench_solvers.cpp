// Every solver of solvers/solve.hpp on every FCLIB problem of a folder (default ../shared/data/fclib),
// at tolerances 1e-4 and 1e-8 from r = 0: iterations, error (error_measure.hpp, Siconos's
// fc3d_compute_error), status and wall time, printed as a Markdown table. When built with Debian's
// libsiconos-numerics-dev (found by CMake, optional), Siconos's NSGS and PROX run on the same
// problems in the same process, their result measured by the same error function.
//
//   build/bin/bench_solvers [FOLDER] [--solvers nlgs,nsn,...] [--problems SUBSTRING] [--repeat N]
//
// Not a test: times depend on the machine; docs/performance.md records a run with its command.

#include "nscd/io/fclib_file.hpp"
#include "solvers/error_measure.hpp"
#include "solvers/solve.hpp"

#include <CLI/CLI.hpp>

#ifdef NSCD_WITH_SICONOS
#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsSparseMatrix.h>
#include <SparseBlockMatrix.h>
#include <SolverOptions.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace sv = nscd::solvers;

constexpr double kTolerances[] = {1e-4, 1e-8};

// iteration budgets per solver type (sweeps, Newton iterations, APGD steps, pivots)
int budget(const sv::SolverOptions& o) {
  switch (o.type) {
    case sv::SolverType::Auto:
    case sv::SolverType::Nlgs:
      return 20000;
    case sv::SolverType::Nsn:
      return 200;
    case sv::SolverType::Prox:
    case sv::SolverType::VelocityProx:
    case sv::SolverType::InteriorPoint:
    case sv::SolverType::ProxRestart:
      return 500;
    case sv::SolverType::Ccp:
      return 20000;
    case sv::SolverType::Lcp:
      return o.lcp.method == sv::LcpMethod::Pgs ? 5000 : 20000;
  }
  return 1000;
}

struct Cell {
  int iterations = 0;
  double error = 0.0;
  double ms = 0.0;
  std::string status;
};

std::string format(const Cell& c) {
  if (c.status.empty()) return "n/a";
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%d / %.1e / %.3g%s", c.iterations, c.error, c.ms,
                c.status == "converged" ? "" : (" (" + c.status + ")").c_str());
  return buffer;
}

// the fastest of `repeat` runs; a run that timed itself (Cell::ms > 0, the Siconos driver alone,
// without the conversion of W into its storage) keeps its own time
template <class F>
Cell timed(int repeat, F&& run) {
  Cell best;
  for (int k = 0; k < repeat; ++k) {
    const auto start = std::chrono::steady_clock::now();
    Cell c = run();
    if (c.ms == 0.0) c.ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (k == 0 || c.ms < best.ms) best = c;
  }
  return best;
}

#ifdef NSCD_WITH_SICONOS
// W in Siconos's sparse block storage (3×3 blocks, the storage its NSGS sweeps fastest): the
// stored blocks as a triplet matrix, converted by SBM_from_csparse
NumericsMatrix* siconos_block_matrix(const sv::DelassusMatrix& W) {
  const int n = 3 * W.nc();
  NumericsMatrix* T = NM_create(NM_SPARSE, n, n);
  NM_triplet_alloc(T, 9 * static_cast<CS_INT>(W.nc() + W.n_offdiag()));
  T->matrix2->origin = NSM_TRIPLET;
  auto add_block = [&](int i, int j, const Eigen::Matrix3d& block) {
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) NM_entry(T, 3 * i + a, 3 * j + b, block(a, b));
  };
  for (int i = 0; i < W.nc(); ++i) {
    add_block(i, i, W.diag(i));
    W.for_each_offdiag(i, [&](int j, const Eigen::Matrix3d& block) { add_block(i, j, block); });
  }
  NumericsMatrix* M = NM_create(NM_SPARSE_BLOCK, n, n);
  M->matrix1 = SBM_new();
  SBM_from_csparse(3, NM_csc(T), M->matrix1);
  NM_free(T);
  return M;
}

// Siconos's NSGS or PROX on W in sparse block storage, error by error_measure on (r, W r + q)
Cell siconos(const sv::FrictionProblem& p, int solver_id, double tolerance, int max_iterations) {
  const int nc = p.nc();
  const int n = 3 * nc;
  NumericsMatrix* M = siconos_block_matrix(p.W);
  auto* q = static_cast<double*>(std::malloc(sizeof(double) * static_cast<std::size_t>(std::max(n, 1))));
  auto* mu = static_cast<double*>(std::malloc(sizeof(double) * static_cast<std::size_t>(std::max(nc, 1))));
  std::memcpy(q, p.q.data(), sizeof(double) * static_cast<std::size_t>(n));
  std::memcpy(mu, p.mu.data(), sizeof(double) * static_cast<std::size_t>(nc));
  FrictionContactProblem* problem = frictionContactProblem_new_with_data(3, nc, M, q, mu);
  ::SolverOptions* options = solver_options_create(solver_id);
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  Eigen::VectorXd r = Eigen::VectorXd::Zero(n), u = Eigen::VectorXd::Zero(n);
  const auto start = std::chrono::steady_clock::now();
  const int info = fc3d_driver(problem, r.data(), u.data(), options);
  Cell c;
  c.ms = 1e3 * std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c.iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  const Eigen::VectorXd u_check = p.W.apply(r) + p.q;
  c.error = sv::error_measure(p, r, u_check);
  c.status = info == 0 && c.error <= tolerance ? "converged" : "max_iterations";
  solver_options_delete(options);
  frictionContactProblem_free(problem);
  return c;
}
#endif

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// the solvers of --solvers, by default every one (the aliases nlgs and lcp once, as nlgs-ac and lcp-*), then
// Siconos's
std::vector<std::string> solver_names(const std::string& solver_list) {
  if (!solver_list.empty()) return split(solver_list);
  std::vector<std::string> names;
  for (const sv::SolverVariant& v : sv::solver_variants())
    if (v.name != "nlgs" && v.name != "lcp") names.emplace_back(v.name);
#ifdef NSCD_WITH_SICONOS
  names.emplace_back("siconos-nsgs");
  names.emplace_back("siconos-prox");
#endif
  return names;
}

// the .hdf5 files of the folder whose name contains `filter`, sorted
std::vector<fs::path> problem_files(const std::string& folder, const std::string& filter) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".hdf5" && entry.path().stem().string().find(filter) != std::string::npos)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bench_solvers: every solver on every FCLIB problem at 1e-4 and 1e-8"};
  std::string folder = std::string(NSCD_SHARED_DIR) + "/data/fclib";
  std::string solver_list, problem_filter;
  int repeat = 1;
  app.add_option("folder", folder, "folder of FCLIB .hdf5 problems");
  app.add_option("--solvers", solver_list, "comma-separated solver names (default: all, then Siconos)");
  app.add_option("--problems", problem_filter, "only problems whose name contains this");
  app.add_option("--repeat", repeat, "runs per cell, the fastest is kept")->default_val(1);
  CLI11_PARSE(app, argc, argv);

  const std::vector<std::string> names = solver_names(solver_list);
  const std::vector<fs::path> files = problem_files(folder, problem_filter);
  std::printf("| problem | contacts | solver | tol 1e-4: its / error / ms | tol 1e-8: its / error / ms |\n");
  std::printf("|---|---|---|---|---|\n");
  for (const fs::path& file : files) {
    const nscd::io::FclibProblem read = nscd::io::read_fclib_problem(file);
    const sv::FrictionProblem& p = read.problem;
    for (const std::string& name : names) {
      std::string cells[2];
      for (int t = 0; t < 2; ++t) {
        const double tol = kTolerances[t];
        Cell c;
#ifdef NSCD_WITH_SICONOS
        if (name == "siconos-prox" && file.stem() == "RockPile_tob1") {
          cells[t] = "n/a (Siconos 4.4's PROX exhausts the memory: killed)";
          continue;
        }
        if (name == "siconos-nsgs" || name == "siconos-prox") {
          const bool nsgs = name == "siconos-nsgs";
          c = timed(repeat, [&] {
            return siconos(p, nsgs ? SICONOS_FRICTION_3D_NSGS : SICONOS_FRICTION_3D_PROX, tol, nsgs ? 20000 : 500);
          });
          cells[t] = format(c);
          continue;
        }
#endif
        std::optional<sv::SolverOptions> o = sv::solver_options_from_name(name);
        if (!o) {
          std::fprintf(stderr, "bench_solvers: unknown solver %s\n", name.c_str());
          return 2;
        }
        o->stopping() = {tol, budget(*o)};
        const bool lemke = o->type == sv::SolverType::Lcp && o->lcp.method == sv::LcpMethod::Lemke;
        if (lemke && (o->lcp.facets + 2) * p.nc() > o->lcp.lemke_max_variables) {
          cells[t] = "n/a (too large)";
          continue;
        }
        c = timed(repeat, [&] {
          const sv::SolverResult res = sv::solve(p, *o, Eigen::VectorXd(), read.body ? &*read.body : nullptr);
          return Cell{res.iterations, res.error, 0.0, std::string(sv::to_string(res.status))};
        });
        cells[t] = format(c);
      }
      std::printf("| %s%s | %d | %s | %s | %s |\n", file.stem().string().c_str(), read.is_global ? " (global)" : "",
                  p.nc(), name.c_str(), cells[0].c_str(), cells[1].c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
