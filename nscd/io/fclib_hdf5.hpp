#pragma once
/// @file
/// FCLIB problem files read with HDF5 directly. Debian's libfclib reads them too, but it ends
/// the process (exit(1)) on any failed HDF5 call and trusts the sizes it reads, so that a damaged
/// or hostile file stops `nscd solve` with an unhelpful message or overflows its buffers (both
/// found by tools/fuzz.sh). This reader reads the same layout (libfclib's fclib_read_local and
/// fclib_read_global, the parts nscd uses) and checks every piece:
///
///  matrix group (W; M, H): int datasets nzmax, m, n, nz of one element, with
///     0 ≤ m, n, nzmax ≤ kMaxEntries and −2 ≤ nz ≤ nzmax; p of nz (triplets), n + 1 (nz = −1,
///     compressed columns) or m + 1 (nz = −2, compressed rows) ints; i and x of at least the
///     entries used (nz, or the last compressed start) and at most nzmax; compressed starts
///     non-decreasing from 0, row and column indices within the matrix (triplets: i rows,
///     p columns, as CSparse and the files do);
///  spacedim: one int, 2 or 3;
///  local vectors: q (W.m), mu (W.m / spacedim, W.m divisible by it);
///  global vectors: f (M.m), w (H.n), mu (H.n / spacedim); a G group (equality constraints) is
///     reported, as nscd does not solve such problems.
///
/// Writing stays with libfclib (fclib_file.hpp), whose files this reader reads back.

#include <string>
#include <vector>

extern "C" {
#include <fclib.h>
}

namespace nscd::io {

/// Largest row, column or entry count accepted in an FCLIB matrix (8·10⁸ doubles: 6.4 GB).
inline constexpr long kMaxEntries = 800'000'000;

/// An FCLIB matrix as stored, owning its arrays.
struct FclibMatrixData {
  int nzmax = 0, m = 0, n = 0, nz = 0;
  std::vector<int> p, i;
  std::vector<double> x;
  /// libfclib's struct viewing these arrays (valid while *this is).
  fclib_matrix view();
};

/// What nscd uses of an FCLIB file: a local problem (W, q, μ) or a global one (M, H, f, w, μ).
struct FclibData {
  bool is_global = false;
  int spacedim = 3;
  FclibMatrixData W;            // local
  FclibMatrixData M, H;         // global
  bool has_equality_constraints = false;  // global: a G group
  std::vector<double> q, mu;    // local q; μ of both
  std::vector<double> f, w;     // global
};

/// Reads the local (/fclib_local) or global (/fclib_global) problem of `file`.
/// @throws nscd::InputError naming the file and the first group or dataset that is missing, of
///         the wrong type or size, unreadable, or inconsistent, or if the file holds neither.
FclibData read_fclib_data(const std::string& file);

}  // namespace nscd::io
