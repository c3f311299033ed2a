#pragma once
/// @file
/// The modal bases (ffr/modal_basis.hpp) of the FFR bodies reduced to k elastic modes, cached for
/// the process like the meshes of shape_mesh.hpp: keyed by the mesh as built (cell type, cells and
/// node coordinates, bit for bit, in the coordinates of the shape or file, before the body is
/// placed), the material's density, Young's modulus and Poisson's ratio, k, and the loads of the
/// static correction (nodes and directions). 1 000 identical bricks with the same corrected nodes
/// share one mesh, hence one eigen-analysis.

#include "ffr/modal_basis.hpp"

#include <cstddef>
#include <memory>
#include <span>

namespace nscd::io {

/// The k lowest elastic modes of `mesh` for density ρ [kg/m³], Young's modulus E [Pa] and
/// Poisson's ratio ν, with the static corrections for `corrections`, from the cache or computed.
/// Thread-safe.
/// @throws nscd::InputError as ffr::modal_basis.
std::shared_ptr<const ffr::ModalBasis> cached_modal_basis(const ffr::Mesh& mesh, double density, double young,
                                                          double poisson, int k,
                                                          std::span<const ffr::NodalLoad> corrections = {});

/// The number of modal analyses done so far in this process (the cache's misses).
std::size_t modal_analyses();

}  // namespace nscd::io
