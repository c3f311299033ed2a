#pragma once
/// @file
/// Colouring of the contact graph for the parallel Gauss–Seidel sweeps of sweep_plan.hpp. Two
/// contacts conflict when W couples them, i.e. when a block W_ij or W_ji is stored (they share a
/// movable body, delassus.hpp eq. (2)); contacts of one colour are pairwise independent, so a
/// sweep may update them concurrently, and their updates do not depend on the order they are
/// done in.
///
///  (1) first fit: contacts in index order, each takes the smallest colour none of its
///      neighbours has: at most Δ + 1 colours (Δ the largest number of neighbours);
///  (2) balancing: contacts in index order again, each moves to the least populated colour
///      (smallest index on ties) among those none of its neighbours has, if that colour holds
///      fewer contacts than its own; the number of colours does not grow.
///
/// Both passes are sequential and depend on W's sparsity pattern only, never on the number of
/// threads, so neither do the colours.
///
/// References: [Jones & Plassmann 1993] A parallel graph coloring heuristic, SIAM J. Sci. Comput. 14;
///             Siconos numerics, fc3d_nsgs_graph (OpenMP coloured NSGS).

#include "solvers/contact_bodies.hpp"
#include "solvers/delassus.hpp"

#include <vector>

namespace nscd::solvers {

/// Contacts grouped by colour.
struct ContactColoring {
  std::vector<int> color;        // (nc) colour of each contact
  std::vector<int> order;        // (nc) contacts by colour, increasing index within a colour
  std::vector<int> color_start;  // (n_colors + 1) colour c is order[color_start[c] .. color_start[c + 1])
  int n_colors() const { return static_cast<int>(color_start.size()) - 1; }
};

/// Colours the contacts of W by eq. (1), then balances the colours by eq. (2). A W without
/// contacts has no colour (color_start == {0}).
ContactColoring color_contacts(const DelassusMatrix& W);

/// The same colouring for the contacts of the body form b (contact_bodies.hpp): two contacts
/// conflict when they share a body, exactly where nscd's assembly of W stores a block, so this
/// gives color_contacts(W) of that W without assembling it.
ContactColoring color_contacts(const ContactBodies& b);

}  // namespace nscd::solvers
