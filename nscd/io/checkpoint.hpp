#pragma once
/// @file
/// Checkpoints of a run (docs/commands.md, `--checkpoint-interval`, `--restart`): the whole
/// State (time, step, every body's pose and velocities, the FFR and TL nodal ψ and λ, last step's
/// contacts and impulses for the warm start, the cohesive bonds) and where the output stands, in an HDF5 file
/// (Debian's libhdf5). Doubles are stored bit for bit, so a run restarted from a checkpoint
/// continues exactly as the uninterrupted run would have.
///
/// Layout (format 3): datasets `format`, `step` (int64), `t`, `x` (nb × 3), `q` (nb × 4, w x y z),
/// `v`, `w` (nb × 3), `psi`, `lambda` (the FFR bodies' vectors end to end), `tl_psi`,
/// `tl_lambda` (the TL and linear bodies' absolute nodal vectors end to end), `warm_bodies`
/// (n × 2 int32), `warm_values` (n × 6: p_A, r_W), `bonds`, `broken_bonds` (the cohesive
/// bonds, n × 2 int32: a, b) with `bonds_feature`, `broken_bonds_feature` (n int64: the
/// features' bits), `scene_sha256` (64 chars), `output_times`, `output_sizes` (history, bodies,
/// probes, joints bytes), `output_fixed`, `non_converged`, `energy` (EnergyBalance's kinetic,
/// gravitational, elastic, initial, friction, impacts, damping, driven_work, load_work,
/// projection_work).

#include "nscd/io/output_writer.hpp"
#include "nscd/step/energy_balance.hpp"
#include "nscd/step/model.hpp"
#include "nscd/step/state.hpp"

#include <filesystem>
#include <string>

namespace nscd::io {

struct Checkpoint {
  std::string scene_sha256;  // of the scene file the run was started from
  State state;
  OutputPosition output;
  long non_converged = 0;    // steps whose solver stopped short, so far (run.json)
  EnergyBalance energy;      // the run's energy balance at this state (history.csv)
};

/// Writes `c` to `file` atomically (a temporary name, then renamed).
/// @throws nscd::Error if the file cannot be written.
void write_checkpoint(const std::filesystem::path& file, const Checkpoint& c);

/// Reads a checkpoint written by write_checkpoint for a run of model m.
/// @throws nscd::InputError naming the file if it is not such a checkpoint (unreadable,
///         corrupted, another format) or if its bodies do not match m (another scene).
Checkpoint read_checkpoint(const std::filesystem::path& file, const Model& m);

/// `checkpoint_<step>.h5` in dir; after writing one, keep_last_checkpoints removes all but the
/// newest `keep` of them.
std::filesystem::path checkpoint_path(const std::filesystem::path& dir, long step);
void keep_last_checkpoints(const std::filesystem::path& dir, int keep);

}  // namespace nscd::io
