#include "nscd/io/checkpoint.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/hdf5_handle.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <regex>
#include <type_traits>
#include <vector>

namespace nscd::io {
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kFormat = 3;
constexpr std::size_t kShaLength = 64;

template <class T>
hid_t memory_type() {
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
  else if constexpr (std::is_same_v<T, std::int64_t>) return H5T_NATIVE_INT64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return H5T_NATIVE_INT32;
  else return H5T_NATIVE_UCHAR;
}

// a dataset of rows × cols values (cols = 0: a vector of rows values)
template <class T>
void write_dataset(hid_t file, const char* name, const std::vector<T>& data, hsize_t cols = 0) {
  const hsize_t rows = cols == 0 ? data.size() : data.size() / cols;
  const hsize_t dims[2] = {rows, cols};
  Hdf5Handle space(H5Screate_simple(cols == 0 ? 1 : 2, dims, nullptr), H5Sclose);
  Hdf5Handle set(H5Dcreate2(file, name, memory_type<T>(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  const T dummy{};
  if (!set.valid() ||
      H5Dwrite(set.get(), memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.empty() ? &dummy : data.data()) < 0)
    throw Error(fmt::format("cannot write dataset '{}' of a checkpoint", name));
}

// reads a dataset of `cols` columns (0: a vector) and checks its row count when rows ≥ 0
template <class T>
std::vector<T> read_dataset(hid_t file, const fs::path& path, const char* name, long rows, hsize_t cols = 0) {
  auto bad = [&](const std::string& what) {
    return InputError(fmt::format("{}: not a checkpoint of this scene: dataset '{}' {}", path.string(), name, what));
  };
  Hdf5Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
  if (!set.valid()) throw bad("is missing");
  Hdf5Handle space(H5Dget_space(set.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  hsize_t dims[2] = {0, 0};
  if (rank != (cols == 0 ? 1 : 2) || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0 ||
      (cols != 0 && dims[1] != cols))
    throw bad(fmt::format("has the wrong shape (expected {} columns)", cols == 0 ? 1 : cols));
  if (rows >= 0 && dims[0] != static_cast<hsize_t>(rows))
    throw bad(fmt::format("has {} rows, expected {}", dims[0], rows));
  std::vector<T> data(dims[0] * (cols == 0 ? 1 : cols));
  T dummy{};
  if (H5Dread(set.get(), memory_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.empty() ? &dummy : data.data()) < 0)
    throw bad("cannot be read");
  return data;
}

std::vector<double> flatten(const std::vector<Vec3>& v) {
  std::vector<double> out;
  for (const Vec3& x : v) out.insert(out.end(), {x.x(), x.y(), x.z()});
  return out;
}

std::vector<Vec3> unflatten(const std::vector<double>& d) {
  std::vector<Vec3> out(d.size() / 3);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = Vec3(d[3 * i], d[3 * i + 1], d[3 * i + 2]);
  return out;
}

std::vector<double> concatenate(const std::vector<Eigen::VectorXd>& vectors) {
  std::vector<double> out;
  for (const Eigen::VectorXd& v : vectors) out.insert(out.end(), v.data(), v.data() + v.size());
  return out;
}

// the size of a body's ψ and λ: its deformation coordinates (FFR: nodal or modal), its nodal dofs (TL)
int coordinates(const ffr::FfrBody& body) { return body.ncoordinates(); }
int coordinates(const ffr::TlBody& body) { return body.ndof(); }

// the bodies' vectors (ψ or λ of FFR or TL bodies) from their concatenation, sizes from the model
template <class Body>
std::vector<Eigen::VectorXd> split(const std::vector<double>& all, const std::vector<Body>& bodies) {
  std::vector<Eigen::VectorXd> out;
  std::size_t offset = 0;
  for (const Body& body : bodies) {
    out.push_back(Eigen::Map<const Eigen::VectorXd>(all.data() + offset, coordinates(body)));
    offset += static_cast<std::size_t>(coordinates(body));
  }
  return out;
}

template <class Body>
long total_dofs(const std::vector<Body>& bodies) {
  long n = 0;
  for (const Body& body : bodies) n += coordinates(body);
  return n;
}

// bonds as datasets `name` (n × 2 int32: a, b) and `name`_feature (n int64: the features' bits)
void write_bonds(hid_t f, const std::string& name, const std::vector<BondKey>& bonds) {
  std::vector<std::int32_t> bodies;
  std::vector<std::int64_t> features;
  for (const BondKey& bond : bonds) {
    bodies.insert(bodies.end(), {bond.a, bond.b});
    features.push_back(static_cast<std::int64_t>(bond.feature));
  }
  write_dataset(f, name.c_str(), bodies, 2);
  write_dataset(f, (name + "_feature").c_str(), features);
}

// the bonds of write_bonds, checked: bodies a < b of the scene, sorted
std::vector<BondKey> read_bonds(hid_t f, const fs::path& file, const std::string& name, long nb) {
  const std::vector<std::int32_t> bodies = read_dataset<std::int32_t>(f, file, name.c_str(), -1, 2);
  const long n = static_cast<long>(bodies.size() / 2);
  const std::vector<std::int64_t> features = read_dataset<std::int64_t>(f, file, (name + "_feature").c_str(), n);
  std::vector<BondKey> bonds;
  for (long i = 0; i < n; ++i) {
    const BondKey bond{bodies[2 * i], bodies[2 * i + 1], static_cast<std::uint64_t>(features[i])};
    if (bond.a < 0 || bond.b >= nb || bond.a >= bond.b || (i > 0 && !(bonds.back() < bond)))
      throw InputError(fmt::format("{}: not a checkpoint of this scene: {}[{}] joins bodies {} and {} (expected "
                                   "a < b < {}, in increasing order)",
                                   file.string(), name, i, bond.a, bond.b, nb));
    bonds.push_back(bond);
  }
  return bonds;
}

}  // namespace

void write_checkpoint(const fs::path& file, const Checkpoint& c) {
  silence_hdf5();
  const State& s = c.state;
  const fs::path tmp = file.string() + ".tmp";
  {
    Hdf5Handle h5(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!h5.valid()) throw Error(fmt::format("cannot create checkpoint '{}'", tmp.string()));
    const hid_t f = h5.get();
    write_dataset(f, "format", std::vector<std::int64_t>{kFormat});
    write_dataset(f, "step", std::vector<std::int64_t>{s.step});
    write_dataset(f, "t", std::vector<double>{s.t});
    write_dataset(f, "x", flatten(s.x), 3);
    std::vector<double> q;
    for (const Quat& r : s.q) q.insert(q.end(), {r.w(), r.x(), r.y(), r.z()});
    write_dataset(f, "q", q, 4);
    write_dataset(f, "v", flatten(s.v), 3);
    write_dataset(f, "w", flatten(s.w), 3);
    write_dataset(f, "psi", concatenate(s.psi));
    write_dataset(f, "lambda", concatenate(s.lambda));
    write_dataset(f, "tl_psi", concatenate(s.tl_psi));
    write_dataset(f, "tl_lambda", concatenate(s.tl_lambda));
    std::vector<std::int32_t> warm_bodies;
    std::vector<double> warm_values;
    for (const WarmContact& w : s.warm) {
      warm_bodies.insert(warm_bodies.end(), {w.a, w.b});
      warm_values.insert(warm_values.end(), {w.p_A.x(), w.p_A.y(), w.p_A.z(), w.r_W.x(), w.r_W.y(), w.r_W.z()});
    }
    write_dataset(f, "warm_bodies", warm_bodies, 2);
    write_dataset(f, "warm_values", warm_values, 6);
    write_bonds(f, "bonds", s.bonds);
    write_bonds(f, "broken_bonds", s.broken_bonds);
    write_dataset(f, "scene_sha256", std::vector<unsigned char>(c.scene_sha256.begin(), c.scene_sha256.end()));
    write_dataset(f, "output_times", c.output.times);
    write_dataset(f, "output_sizes",
                  std::vector<std::int64_t>{static_cast<std::int64_t>(c.output.history_bytes),
                                            static_cast<std::int64_t>(c.output.bodies_bytes),
                                            static_cast<std::int64_t>(c.output.probes_bytes),
                                            static_cast<std::int64_t>(c.output.joints_bytes)});
    write_dataset(f, "output_fixed", std::vector<std::int32_t>{c.output.has_fixed ? 1 : 0});
    write_dataset(f, "non_converged", std::vector<std::int64_t>{c.non_converged});
    const EnergyBalance& e = c.energy;
    write_dataset(f, "energy", std::vector<double>{e.kinetic, e.gravitational, e.elastic, e.initial, e.friction,
                                                   e.impacts, e.damping, e.driven_work, e.load_work,
                                                   e.projection_work});
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) throw Error(fmt::format("cannot write checkpoint '{}': {}", file.string(), ec.message()));
}

Checkpoint read_checkpoint(const fs::path& file, const Model& m) {
  silence_hdf5();
  if (!fs::is_regular_file(file)) throw InputError(fmt::format("{}: checkpoint file not found", file.string()));
  if (H5Fis_hdf5(file.c_str()) <= 0)
    throw InputError(fmt::format("{}: not a checkpoint: not an HDF5 file, or a corrupted one", file.string()));
  Hdf5Handle h5(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!h5.valid()) throw InputError(fmt::format("{}: not a checkpoint: HDF5 cannot open it", file.string()));
  const hid_t f = h5.get();
  if (read_dataset<std::int64_t>(f, file, "format", 1)[0] != kFormat)
    throw InputError(fmt::format("{}: checkpoint format {} is not {}, the one of this version of nscd",
                                 file.string(), read_dataset<std::int64_t>(f, file, "format", 1)[0], kFormat));
  Checkpoint c;
  const std::vector<unsigned char> sha = read_dataset<unsigned char>(f, file, "scene_sha256", kShaLength);
  c.scene_sha256.assign(sha.begin(), sha.end());
  State& s = c.state;
  const long nb = m.nb();
  s.step = read_dataset<std::int64_t>(f, file, "step", 1)[0];
  s.t = read_dataset<double>(f, file, "t", 1)[0];
  s.x = unflatten(read_dataset<double>(f, file, "x", nb, 3));
  const std::vector<double> q = read_dataset<double>(f, file, "q", nb, 4);
  for (long b = 0; b < nb; ++b) s.q.emplace_back(q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3]);
  s.v = unflatten(read_dataset<double>(f, file, "v", nb, 3));
  s.w = unflatten(read_dataset<double>(f, file, "w", nb, 3));
  const long ffr_dofs = total_dofs(m.ffr_bodies), tl_dofs = total_dofs(m.tl_bodies);
  s.psi = split(read_dataset<double>(f, file, "psi", ffr_dofs), m.ffr_bodies);
  s.lambda = split(read_dataset<double>(f, file, "lambda", ffr_dofs), m.ffr_bodies);
  s.tl_psi = split(read_dataset<double>(f, file, "tl_psi", tl_dofs), m.tl_bodies);
  s.tl_lambda = split(read_dataset<double>(f, file, "tl_lambda", tl_dofs), m.tl_bodies);
  const std::vector<std::int32_t> warm_bodies = read_dataset<std::int32_t>(f, file, "warm_bodies", -1, 2);
  const long n_warm = static_cast<long>(warm_bodies.size() / 2);
  const std::vector<double> warm_values = read_dataset<double>(f, file, "warm_values", n_warm, 6);
  for (long i = 0; i < n_warm; ++i) {
    WarmContact w;
    w.a = warm_bodies[2 * i];
    w.b = warm_bodies[2 * i + 1];
    if (w.a < 0 || w.b >= nb || w.a >= w.b)
      throw InputError(fmt::format("{}: not a checkpoint of this scene: contact {} joins bodies {} and {}",
                                   file.string(), i, w.a, w.b));
    w.p_A = Vec3(warm_values[6 * i], warm_values[6 * i + 1], warm_values[6 * i + 2]);
    w.r_W = Vec3(warm_values[6 * i + 3], warm_values[6 * i + 4], warm_values[6 * i + 5]);
    s.warm.push_back(w);
  }
  s.bonds = read_bonds(f, file, "bonds", nb);
  s.broken_bonds = read_bonds(f, file, "broken_bonds", nb);
  c.output.times = read_dataset<double>(f, file, "output_times", -1);
  const std::vector<std::int64_t> sizes = read_dataset<std::int64_t>(f, file, "output_sizes", 4);
  c.output.history_bytes = static_cast<std::uintmax_t>(sizes[0]);
  c.output.bodies_bytes = static_cast<std::uintmax_t>(sizes[1]);
  c.output.probes_bytes = static_cast<std::uintmax_t>(sizes[2]);
  c.output.joints_bytes = static_cast<std::uintmax_t>(sizes[3]);
  c.output.has_fixed = read_dataset<std::int32_t>(f, file, "output_fixed", 1)[0] != 0;
  c.non_converged = read_dataset<std::int64_t>(f, file, "non_converged", 1)[0];
  const std::vector<double> e = read_dataset<double>(f, file, "energy", 10);
  c.energy = {e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], e[9]};
  if (s.step < 0 || !std::isfinite(s.t) || c.output.times.empty())
    throw InputError(fmt::format("{}: not a checkpoint: step {} at t = {} with {} output times", file.string(),
                                 s.step, s.t, c.output.times.size()));
  return c;
}

fs::path checkpoint_path(const fs::path& dir, long step) {
  return dir / fmt::format("checkpoint_{:09d}.h5", step);
}

void keep_last_checkpoints(const fs::path& dir, int keep) {
  static const std::regex kName(R"(checkpoint_\d{9}\.h5)");
  std::vector<fs::path> files;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && std::regex_match(e.path().filename().string(), kName)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i + static_cast<std::size_t>(keep) < files.size(); ++i) fs::remove(files[i]);
}

}  // namespace nscd::io
