// nscd.solve and nscd.read_fclib: FCLIB's local problem u = W r + q with Coulomb friction μ
// (nscd/io/fclib_file.hpp, solvers/solve.hpp), solved as `nscd solve` solves a file's problem.
#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "python/src/bindings.hpp"
#include "solvers/solve.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl/filesystem.h>

namespace nscd::python {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// the problem (W, q, μ) after checking its shapes and values
solvers::FrictionProblem problem(const Matrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  const Eigen::Index nc = mu.size();
  NSCD_THROW_UNLESS(nc > 0, "mu: expected one friction coefficient per contact, found none");
  NSCD_THROW_UNLESS(q.size() == 3 * nc, "q: expected 3 × {} = {} values (three per contact of mu), found {}", nc,
                    3 * nc, q.size());
  NSCD_THROW_UNLESS(W.rows() == 3 * nc && W.cols() == 3 * nc, "W: expected a {} × {} matrix, found {} × {}", 3 * nc,
                    3 * nc, W.rows(), W.cols());
  NSCD_THROW_UNLESS(W.allFinite() && q.allFinite(), "W, q: expected finite numbers, found NaN or infinity");
  NSCD_THROW_UNLESS(mu.allFinite() && (mu.array() >= 0).all(), "mu: expected finite coefficients ≥ 0");
  solvers::FrictionProblem p;
  p.W = solvers::DelassusMatrix::from_dense(W);
  p.q = q;
  p.mu = mu;
  return p;
}

// the solver options of a name of solvers::solver_variants(), with its stopping test
solvers::SolverOptions options(const std::string& solver, double tolerance, int max_iterations) {
  solvers::SolverOptions o = solvers::parse_solver_variant(solver, "solver");
  NSCD_THROW_UNLESS(tolerance > 0, "tolerance={}: expected a positive number", tolerance);
  NSCD_THROW_UNLESS(max_iterations >= 1, "max_iterations={}: expected a positive count", max_iterations);
  o.stopping().tolerance = tolerance;
  o.stopping().max_iterations = max_iterations;
  return o;
}

py::dict solve(const Matrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const std::string& solver,
               double tolerance, int max_iterations) {
  const solvers::SolverOptions o = options(solver, tolerance, max_iterations);
  const solvers::FrictionProblem p = problem(W, q, mu);
  solvers::SolverResult result;
  {
    py::gil_scoped_release release;
    result = solvers::solve(p, o, Eigen::VectorXd(), nullptr);
  }
  py::dict d;
  d["r"] = result.r;
  d["u"] = result.u;
  d["status"] = std::string(solvers::to_string(result.status));
  d["error"] = result.error;
  d["iterations"] = result.iterations;
  d["stage"] = std::string(solvers::to_string(result.stage));
  return d;
}

py::dict read_fclib(const std::filesystem::path& file) {
  io::FclibProblem read;
  {
    py::gil_scoped_release release;
    read = io::read_fclib_problem(file);
  }
  py::dict d;
  d["W"] = Matrix(read.problem.W.to_dense());
  d["q"] = read.problem.q;
  d["mu"] = read.problem.mu;
  d["is_global"] = read.is_global;
  return d;
}

}  // namespace

void bind_fclib(py::module_& m) {
  m.def("solve", &solve, py::arg("W"), py::arg("q"), py::arg("mu"), py::arg("solver"), py::arg("tolerance"),
        py::arg("max_iterations"));
  m.def("read_fclib", &read_fclib, py::arg("path"));
}

}  // namespace nscd::python
