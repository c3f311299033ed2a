#pragma once
/// @file
/// Internal to nscd/io: recorded accelerograms in the format of the PEER NGA strong-motion
/// database (.AT2 files) [PEER 2013], read as a time table of accelerations.
///
/// Layout: four header lines, then the samples.
///  1. database name, 2. event, date, station and component (free text);
///  3. the quantity and its unit, "ACCELERATION TIME SERIES IN UNITS OF G"; when the line names a
///     unit ("UNITS OF ...") it must be G;
///  4. the number of samples NPTS and the time step DT [s], in either of the two forms in use:
///     "NPTS=  7990, DT=   .0050 SEC" (NGA-West2) or "7990    .0050    NPTS, DT" (NGA-West1);
///  5. onwards: the NPTS accelerations in g, several per line (usually five, E15.7), separated
///     by spaces; blank lines are skipped.
/// Sample k is at time t_k = k·DT, k = 0 … NPTS − 1.
///
/// Units: the values are in g; read_peer_at2 returns them in m/s², a_k = g₀ · value_k with
/// standard gravity g₀ = 9.80665 m/s² [CGPM 1901].
///
/// References: [PEER 2013] T. D. Ancheta et al., PEER NGA-West2 Database, PEER Report 2013/03,
///             Pacific Earthquake Engineering Research Center, Berkeley; the layout is that of
///             the .AT2 files its ground-motion database serves (and of NGA-West1's before it);
///             [CGPM 1901] Comptes rendus de la 3e Conférence générale des poids et mesures,
///             declaration on the unit of mass and the definition of weight (g₀ = 980.665 cm/s²).

#include "nscd/io/csv_table.hpp"

#include <filesystem>

namespace nscd::io::detail {

/// Standard gravity g₀ [m/s²], the unit "g" of PEER records.
inline constexpr double kStandardGravity = 9.80665;

/// Whether `file` is read as a PEER NGA record: its extension is ".AT2" in any case.
bool is_peer_at2(const std::filesystem::path& file);

/// Reads the accelerogram `file`: times k·DT [s] and accelerations g₀ · value_k [m/s²].
/// @throws nscd::InputError "<file>:<line>: <what was expected>, found ..." if the file cannot
///         be read, has fewer than 4 header lines, line 3 names a unit other than g, line 4 is
///         in neither form or gives NPTS < 2 or DT ≤ 0, a value is not a finite number, or the
///         values are not exactly NPTS.
TimeTable read_peer_at2(const std::filesystem::path& file);

}  // namespace nscd::io::detail
