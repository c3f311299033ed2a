#include "nscd/io/fclib_file.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/fclib_hdf5.hpp"
#include "nscd/io/hdf5_handle.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>

#include <hdf5.h>
extern "C" {
#include <fclib.h>
}

#include <memory>
#include <vector>

namespace nscd::io {
namespace {

using SparseMatrix = Eigen::SparseMatrix<double>;

// an FCLIB matrix (compressed columns, compressed rows or triplets) as an Eigen sparse matrix;
// triplets follow CSparse, i row and p column indices (fclib.h's comment says the reverse, but
// the files, e.g. H of Spheres-i099-356-679 with p < n and i < m, are written this way)
SparseMatrix to_sparse(const fclib_matrix& m) {
  std::vector<Eigen::Triplet<double>> entries;
  if (m.nz == -1) {
    for (int j = 0; j < m.n; ++j)
      for (int k = m.p[j]; k < m.p[j + 1]; ++k) entries.emplace_back(m.i[k], j, m.x[k]);
  } else if (m.nz == -2) {
    for (int r = 0; r < m.m; ++r)
      for (int k = m.p[r]; k < m.p[r + 1]; ++k) entries.emplace_back(r, m.i[k], m.x[k]);
  } else {
    for (int k = 0; k < m.nz; ++k) entries.emplace_back(m.i[k], m.p[k], m.x[k]);
  }
  SparseMatrix sparse(m.m, m.n);
  sparse.setFromTriplets(entries.begin(), entries.end());
  return sparse;
}

solvers::FrictionProblem local_problem(const std::string& name, const fclib_local& local) {
  NSCD_THROW_UNLESS(local.spacedim == 3, "{}: a {}-dimensional problem; nscd solves three-dimensional ones", name,
                    local.spacedim);
  NSCD_THROW_UNLESS(local.W != nullptr && local.q != nullptr && local.mu != nullptr,
                    "{}: the local problem lacks W, q or mu", name);
  NSCD_THROW_UNLESS(local.W->m == local.W->n && local.W->m % 3 == 0,
                    "{}: W is {}×{}, expected a square matrix of size 3 × contacts", name, local.W->m, local.W->n);
  const int n = local.W->m;
  solvers::FrictionProblem p;
  p.W = solvers::DelassusMatrix::from_sparse(to_sparse(*local.W));
  p.q = Eigen::Map<const Eigen::VectorXd>(local.q, n);
  p.mu = Eigen::Map<const Eigen::VectorXd>(local.mu, n / 3);
  return p;
}

// eq. (2) into result.problem, and M and H (as H_F transposed) into result.body
void condense(const std::string& name, const fclib_global& global, FclibProblem& result) {
  NSCD_THROW_UNLESS(global.spacedim == 3, "{}: a {}-dimensional problem; nscd solves three-dimensional ones", name,
                    global.spacedim);
  NSCD_THROW_UNLESS(global.M != nullptr && global.H != nullptr && global.f != nullptr && global.w != nullptr &&
                        global.mu != nullptr,
                    "{}: the global problem lacks M, H, f, w or mu", name);
  const SparseMatrix M = to_sparse(*global.M), H = to_sparse(*global.H);
  NSCD_THROW_UNLESS(M.rows() == M.cols() && H.rows() == M.rows() && H.cols() % 3 == 0,
                    "{}: M is {}×{} and H {}×{}; expected M n×n and H n×(3 × contacts)", name, M.rows(), M.cols(),
                    H.rows(), H.cols());
  Eigen::SimplicialLDLT<SparseMatrix> ldlt(M);
  NSCD_THROW_UNLESS(ldlt.info() == Eigen::Success, "{}: the mass matrix M cannot be factorised", name);
  const Eigen::MatrixXd MinvH = ldlt.solve(Eigen::MatrixXd(H));
  const Eigen::VectorXd Minvf = ldlt.solve(Eigen::Map<const Eigen::VectorXd>(global.f, M.rows()));
  NSCD_THROW_UNLESS(MinvH.allFinite() && Minvf.allFinite(), "{}: the mass matrix M is singular", name);
  solvers::FrictionProblem& p = result.problem;
  p.W = solvers::DelassusMatrix::from_dense(H.transpose() * MinvH);
  p.q = H.transpose() * Minvf + Eigen::Map<const Eigen::VectorXd>(global.w, H.cols());
  p.mu = Eigen::Map<const Eigen::VectorXd>(global.mu, H.cols() / 3);
  result.body = solvers::BodyCoupling{M, H.transpose()};
}

// column-compressed copy of W for FCLIB, owning its arrays
struct CscMatrix {
  std::vector<int> p, i;
  std::vector<double> x;
  fclib_matrix view{};
};

void fill_csc(SparseMatrix sparse, CscMatrix& csc) {
  sparse.makeCompressed();
  csc.p.assign(sparse.outerIndexPtr(), sparse.outerIndexPtr() + sparse.cols() + 1);
  csc.i.assign(sparse.innerIndexPtr(), sparse.innerIndexPtr() + sparse.nonZeros());
  csc.x.assign(sparse.valuePtr(), sparse.valuePtr() + sparse.nonZeros());
  csc.view.nzmax = static_cast<int>(sparse.nonZeros());
  csc.view.m = static_cast<int>(sparse.rows());
  csc.view.n = static_cast<int>(sparse.cols());
  csc.view.p = csc.p.data();
  csc.view.i = csc.i.data();
  csc.view.x = csc.x.data();
  csc.view.nz = -1;
}

}  // namespace

FclibProblem read_fclib_problem(const std::filesystem::path& file) {
  const std::string name = file.string();
  NSCD_THROW_UNLESS(std::filesystem::is_regular_file(file), "{}: no such file", name);
  silence_hdf5();
  NSCD_THROW_UNLESS(H5Fis_hdf5(name.c_str()) > 0, "{}: not an HDF5 file (expected an FCLIB problem)", name);

  // read by fclib_hdf5.hpp, then viewed through libfclib's structs
  FclibData data = read_fclib_data(name);
  FclibProblem result;
  result.is_global = data.is_global;
  if (!data.is_global) {
    fclib_matrix W = data.W.view();
    fclib_local local{};
    local.spacedim = data.spacedim;
    local.W = &W;
    local.q = data.q.data();
    local.mu = data.mu.data();
    result.problem = local_problem(name, local);
    return result;
  }
  NSCD_THROW_UNLESS(!data.has_equality_constraints,
                    "{}: the global problem has equality constraints (G, b), which nscd does not solve", name);
  fclib_matrix M = data.M.view(), H = data.H.view();
  fclib_global global{};
  global.spacedim = data.spacedim;
  global.M = &M;
  global.H = &H;
  global.f = data.f.data();
  global.w = data.w.data();
  global.mu = data.mu.data();
  condense(name, global, result);
  return result;
}

void write_fclib_solution(const std::filesystem::path& file, const solvers::FrictionProblem& problem,
                          const Eigen::VectorXd& r, const Eigen::VectorXd& u, const solvers::BodyCoupling* body) {
  const std::string name = file.string();
  silence_hdf5();
  std::error_code ignored;
  std::filesystem::remove(file, ignored);

  // the problem first, so the file is a complete FCLIB problem with its solution
  Eigen::VectorXd q = problem.q, mu = problem.mu, v;
  if (body != nullptr) {
    CscMatrix M, H;
    fill_csc(body->M, M);
    fill_csc(body->H.transpose(), H);
    Eigen::VectorXd f = Eigen::VectorXd::Zero(body->M.rows());
    fclib_global global{};
    global.M = &M.view;
    global.H = &H.view;
    global.f = f.data();
    global.w = q.data();
    global.mu = mu.data();
    global.spacedim = 3;
    NSCD_THROW_UNLESS(fclib_write_global(&global, name.c_str()) == 1, "{}: cannot write the FCLIB problem", name);
    Eigen::SimplicialLDLT<SparseMatrix> ldlt(body->M);
    v = ldlt.solve(SparseMatrix(body->H.transpose()) * r);
  } else {
    CscMatrix W;
    fill_csc(problem.W.to_dense().sparseView(), W);
    fclib_local local{};
    local.W = &W.view;
    local.q = q.data();
    local.mu = mu.data();
    local.spacedim = 3;
    NSCD_THROW_UNLESS(fclib_write_local(&local, name.c_str()) == 1, "{}: cannot write the FCLIB problem", name);
  }

  Eigen::VectorXd r_copy = r, u_copy = u;
  fclib_solution solution{};
  solution.r = r_copy.data();
  solution.u = u_copy.data();
  if (body != nullptr) solution.v = v.data();
  NSCD_THROW_UNLESS(fclib_write_solution(&solution, name.c_str()) == 1, "{}: cannot write the FCLIB solution",
                    name);
}

}  // namespace nscd::io
