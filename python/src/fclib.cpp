// nscd.solve and nscd.read_fclib: FCLIB's local problem u = W r + q with Coulomb friction μ
// (nscd/io/fclib_file.hpp, solvers/solve.hpp), solved as `nscd solve` solves a file's problem.
#include "nscd/core/error.hpp"
#include "nscd/io/fclib_file.hpp"
#include "python/src/bindings.hpp"
#include "solvers/solve.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl/filesystem.h>

#include <cstdint>
#include <vector>

namespace nscd::python {
namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Indices = Eigen::Matrix<std::int64_t, Eigen::Dynamic, 1>;

// W given in compressed sparse rows: the columns and values of row k are indices[p] and data[p]
// for p in [indptr[k], indptr[k + 1]); an entry given twice counts as their sum (SciPy's rule)
struct CsrMatrix {
  std::int64_t rows = 0, cols = 0;
  Eigen::VectorXd data;
  Indices indices, indptr;
};

// checks the shapes of (W's size, q, μ) and the values of q and μ
void check_contacts(Eigen::Index rows, Eigen::Index cols, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  const Eigen::Index nc = mu.size();
  NSCD_THROW_UNLESS(nc > 0, "mu: expected one friction coefficient per contact, found none");
  NSCD_THROW_UNLESS(q.size() == 3 * nc, "q: expected 3 × {} = {} values (three per contact of mu), found {}", nc,
                    3 * nc, q.size());
  NSCD_THROW_UNLESS(rows == 3 * nc && cols == 3 * nc, "W: expected a {} × {} matrix, found {} × {}", 3 * nc, 3 * nc,
                    rows, cols);
  NSCD_THROW_UNLESS(q.allFinite(), "q: expected finite numbers, found NaN or infinity");
  NSCD_THROW_UNLESS(mu.allFinite() && (mu.array() >= 0).all(), "mu: expected finite coefficients ≥ 0");
}

solvers::FrictionProblem problem(solvers::DelassusMatrix W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  solvers::FrictionProblem p;
  p.W = std::move(W);
  p.q = q;
  p.mu = mu;
  return p;
}

// the problem (W, q, μ) of a dense W after checking its shapes and values
solvers::FrictionProblem dense_problem(const Matrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  check_contacts(W.rows(), W.cols(), q, mu);
  NSCD_THROW_UNLESS(W.allFinite(), "W: expected finite numbers, found NaN or infinity");
  return problem(solvers::DelassusMatrix::from_dense(W), q, mu);
}

void check_csr(const CsrMatrix& W) {
  const Indices& ptr = W.indptr;
  NSCD_THROW_UNLESS(ptr.size() == W.rows + 1 && ptr[0] == 0 && ptr[W.rows] == W.data.size() &&
                        W.indices.size() == W.data.size(),
                    "W: expected a compressed sparse row matrix of {} rows, found inconsistent index arrays", W.rows);
  for (std::int64_t k = 0; k < W.rows; ++k)
    NSCD_THROW_UNLESS(ptr[k] <= ptr[k + 1], "W: expected row pointers in increasing order, found {} after {}",
                      ptr[k + 1], ptr[k]);
  NSCD_THROW_UNLESS(W.data.size() == 0 || (W.indices.minCoeff() >= 0 && W.indices.maxCoeff() < W.cols),
                    "W: expected column indices in [0, {}), found one outside", W.cols);
  NSCD_THROW_UNLESS(W.data.allFinite(), "W: expected finite numbers, found NaN or infinity");
}

// the problem of a sparse W, its 3×3 blocks taken as DelassusMatrix stores them, without forming
// W densely (duplicate entries summed, as SciPy does)
solvers::FrictionProblem sparse_problem(const CsrMatrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu) {
  check_contacts(W.rows, W.cols, q, mu);
  check_csr(W);
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(W.data.size()));
  for (std::int64_t k = 0; k < W.rows; ++k)
    for (std::int64_t p = W.indptr[k]; p < W.indptr[k + 1]; ++p)
      entries.emplace_back(static_cast<int>(k), static_cast<int>(W.indices[p]), W.data[p]);
  Eigen::SparseMatrix<double, Eigen::RowMajor> sparse(W.rows, W.cols);
  sparse.setFromTriplets(entries.begin(), entries.end());
  return problem(solvers::DelassusMatrix::from_sparse(sparse), q, mu);
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

py::dict solution(const solvers::FrictionProblem& p, const solvers::SolverOptions& o) {
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

py::dict solve(const Matrix& W, const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const std::string& solver,
               double tolerance, int max_iterations) {
  const solvers::SolverOptions o = options(solver, tolerance, max_iterations);
  return solution(dense_problem(W, q, mu), o);
}

py::dict solve_csr(std::int64_t rows, std::int64_t cols, Eigen::VectorXd data, Indices indices, Indices indptr,
                   const Eigen::VectorXd& q, const Eigen::VectorXd& mu, const std::string& solver, double tolerance,
                   int max_iterations) {
  const solvers::SolverOptions o = options(solver, tolerance, max_iterations);
  return solution(sparse_problem({rows, cols, std::move(data), std::move(indices), std::move(indptr)}, q, mu), o);
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
  m.def("solve_csr", &solve_csr, py::arg("rows"), py::arg("cols"), py::arg("data"), py::arg("indices"),
        py::arg("indptr"), py::arg("q"), py::arg("mu"), py::arg("solver"), py::arg("tolerance"),
        py::arg("max_iterations"));
  m.def("read_fclib", &read_fclib, py::arg("path"));
}

}  // namespace nscd::python
