#pragma once
/// @file
/// Frictional contact problems in FCLIB's HDF5 format [Acary et al. 2014]: read by fclib_hdf5.hpp
/// (checked piece by piece; Debian's libfclib stops the process on damaged files), written
/// through libfclib. A local problem (W, q, μ) is read as is; a global problem
///
///  (1) M v = H r + f,   u = Hᵀ v + w
///
/// is condensed into the local one (`nscd solve` of docs/commands.md, FCLIB's definitions):
///
///  (2) W = Hᵀ M⁻¹ H,   q = Hᵀ M⁻¹ f + w,
///
/// with M factorised once by a sparse LDLᵀ (Eigen SimplicialLDLT). Global problems with
/// equality constraints (G, b) are refused. Only three-dimensional problems are accepted.
///
/// Reference: [Acary, Brémond, Koziara, Pérignon 2014] FCLIB: a collection of discrete 3D
///            frictional contact problems, INRIA RT-0444.

#include "solvers/body_coupling.hpp"
#include "solvers/friction_problem.hpp"

#include <Eigen/Core>

#include <filesystem>
#include <optional>

namespace nscd::io {

/// A problem read from an FCLIB file.
struct FclibProblem {
  solvers::FrictionProblem problem;  // local form, eq. (2) for a global file
  bool is_global = false;            // the file held a global problem
  std::optional<solvers::BodyCoupling> body;  // a global file's M and H (body_coupling.hpp: its H is Hᵀ here)
};

/// Reads the local or global problem of `file`.
/// @throws nscd::InputError naming the file and what is wrong (missing, not HDF5, no FCLIB
///         problem, two-dimensional, equality constraints, inconsistent sizes, singular M).
FclibProblem read_fclib_problem(const std::filesystem::path& file);

/// Writes `problem` as an FCLIB local problem, followed by the solution (r, u) in FCLIB's
/// solution layout, to `file` (replaced). Given the problem's body form, writes the global
/// problem (1) instead, with M, H = body->Hᵀ, f = 0 and w = q (so that eq. (2) gives the same
/// W and q back), and v = M⁻¹ Hᵀ r in the solution.
/// @throws nscd::InputError if the file cannot be written.
void write_fclib_solution(const std::filesystem::path& file, const solvers::FrictionProblem& problem,
                          const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                          const solvers::BodyCoupling* body = nullptr);

}  // namespace nscd::io
