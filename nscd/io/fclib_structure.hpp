#pragma once
/// @file
/// The check of an FCLIB file's structure before Debian's libfclib reads it. libfclib ends the
/// process (exit(1)) on any failed HDF5 call and trusts the sizes it reads: a missing dataset, a
/// wrong type, or a dataset longer than the size stored beside it (an overflow of the buffer it
/// allocates) would crash `nscd solve` or end it with an unhelpful message. So every group and
/// dataset libfclib's fclib_read_local / fclib_read_global will read is checked first, with the
/// sizes libfclib derives from the file:
///
///  matrix group (W; M, H, G; V, R): int datasets nzmax, m, n, nz of one element, with
///     0 ≤ m, n, nzmax ≤ kMaxEntries and nz ≥ −2; p of nz (triplets), n + 1 (nz = −1, compressed
///     columns) or m + 1 (nz = −2, compressed rows) ints; i of nz (triplets) or nzmax ints; x of
///     nzmax doubles; when `conditioning` is there, conditioning, sparsity, determinant (double)
///     and rank (int), and `comment` a string if there;
///  spacedim: one int, 2 or 3;
///  local vectors: q (W.m), mu (W.m / spacedim, W.m divisible by it), s (R.m) when R is there;
///  global vectors: f (M.m), w (H.n), mu (H.n / spacedim), b (G.n) when G is there;
///  info (optional): title, description, math_info, strings where present.
///
/// check_matrix_indices then checks the index arrays libfclib returns (compressed starts
/// non-decreasing within [0, nzmax], row and column indices within the matrix).

#include <string>

extern "C" {
#include <fclib.h>
}

namespace nscd::io {

/// Largest row, column or entry count accepted in an FCLIB matrix (8·10⁸ doubles: 6.4 GB).
inline constexpr long kMaxEntries = 800'000'000;

/// Checks the structure above of the group `root` ("/fclib_local" or "/fclib_global") of the
/// HDF5 file `file`. @throws nscd::InputError naming the file and the first dataset that is
/// missing, of the wrong type or of the wrong size.
void check_fclib_structure(const std::string& file, const std::string& root);

/// Checks that the indices of `m` (read by libfclib) lie within the matrix.
/// @throws nscd::InputError naming the file and the matrix `which`.
void check_matrix_indices(const std::string& file, const char* which, const fclib_matrix& m);

}  // namespace nscd::io
