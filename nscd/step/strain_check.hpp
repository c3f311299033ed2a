#pragma once
/// @file
/// The strain reached by the small-strain models (ffr, linear), checked during a run: their
/// linear elasticity (ffr/linear_elasticity.hpp) holds for strains of a few per mille to ~1 %;
/// beyond that a body should use the Total Lagrangian model (tl).
///
/// The measure is the largest absolute principal strain over the cells,
///
///   ε_max = max_cells max_i |ε_i|,   ε_i the eigenvalues of ε = ½(∇u + ∇uᵀ) at the cell centre,
///
/// with u the displacements in the floating frame (ffr: ψ) or from the initial configuration
/// (linear: there a rotation θ shows as a strain ≈ θ²/2, the linear model's own error).

#include "ffr/mesh.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <Eigen/Core>

namespace nscd {

/// The strain above which `nscd run` warns, once, that a small-strain model is out of its range.
constexpr double kSmallStrainLimit = 0.01;

/// ε_max above for nodal displacements u (3nn) [m] of `mesh`.
double largest_principal_strain(const ffr::Mesh& mesh, const Eigen::VectorXd& u);

struct BodyStrain {
  int body = -1;       // index into Model::bodies; −1 when there is no ffr or linear body
  double strain = 0.0; // its ε_max
};

/// The ffr or linear body with the largest ε_max in state `s`.
BodyStrain largest_small_strain(const Model& m, const State& s);

}  // namespace nscd
