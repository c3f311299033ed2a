#pragma once
/// @file
/// A generated frictional contact problem, shared by the solver tests and benchmarks: spheres on
/// a jittered cubic lattice of n × n × n bodies, each touching its +x, +y and +z neighbours and,
/// in the bottom layer, a fixed ground; about 3n³ + n² contacts, each coupled through W with up
/// to 10 others (a dense granular packing has about as many). W is assembled exactly as the
/// stepper does (docs/method.md):
///
///   G_ib = ± R_WCᵀ [I | −[p − x_b]×],   W_ij = Σ_b G_ib M_b⁻¹ G_jbᵀ   (bodies b shared by i and j)
///
/// with random contact frames (a normal near the lattice axis), unit masses and q_n < 0 (every
/// contact closing), so most contacts stick or slide and few open.

#include "solvers/friction_problem.hpp"

namespace nscd::test_support {

/// The lattice problem of n × n × n spheres, its jitter, frames and q drawn from `seed`.
solvers::FrictionProblem lattice_problem(int n, unsigned seed);

}  // namespace nscd::test_support
