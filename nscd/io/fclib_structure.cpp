#include "nscd/io/fclib_structure.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/hdf5_handle.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace nscd::io {
namespace {


class Checker {
 public:
  Checker(const std::string& file, hid_t h5) : m_file(file), m_h5(h5) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(fmt::format("{}: not a readable FCLIB problem: '{}' {}", m_file, path, what));
  }

  // whether `path` names an object of the given type (every level of the path is checked)
  bool exists(const std::string& path, H5O_type_t type) const {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
      if (H5Lexists(m_h5, path.substr(0, slash).c_str(), H5P_DEFAULT) <= 0) return false;
      if (slash == std::string::npos) break;
    }
    H5O_info_t info;
    if (H5Oget_info_by_name(m_h5, path.c_str(), &info, H5P_DEFAULT) < 0) return false;
    return info.type == type;
  }

  // libfclib's test for an optional dataset `name` of `group`: H5LTfind_dataset, which is true
  // on an error too (a damaged group), and then the dataset is read
  bool found_by_libfclib(const std::string& group, const char* name) const {
    Hdf5Handle g(H5Gopen2(m_h5, group.c_str(), H5P_DEFAULT), H5Gclose);
    return g.valid() && H5LTfind_dataset(g.get(), name) != 0;
  }

  // libfclib's test for an optional group: H5Gopen succeeds
  bool opens_as_group(const std::string& path) const {
    Hdf5Handle g(H5Gopen2(m_h5, path.c_str(), H5P_DEFAULT), H5Gclose);
    return g.valid();
  }

  void require_group(const std::string& path) const {
    if (!exists(path, H5O_TYPE_GROUP)) fail(path, "is missing (expected a group)");
  }

  // a dataset of the class `cls` with `count` elements (any count when nullopt); returns its count
  long dataset(const std::string& path, H5T_class_t cls, std::optional<long> count) const {
    return dataset(path, cls, count.value_or(0), count.value_or(kMaxEntries));
  }

  // a dataset of the class `cls` with `least` to `most` elements; returns its count
  long dataset(const std::string& path, H5T_class_t cls, long least, long most) const {
    const char* kind = cls == H5T_INTEGER ? "integers" : cls == H5T_FLOAT ? "numbers" : "a string";
    if (!exists(path, H5O_TYPE_DATASET)) fail(path, fmt::format("is missing (expected {})", kind));
    Hdf5Handle set(H5Dopen2(m_h5, path.c_str(), H5P_DEFAULT), H5Dclose);
    Hdf5Handle type(set.valid() ? H5Dget_type(set.get()) : -1, H5Tclose);
    Hdf5Handle space(set.valid() ? H5Dget_space(set.get()) : -1, H5Sclose);
    if (!type.valid() || !space.valid()) fail(path, "cannot be opened");
    if (H5Tget_class(type.get()) != cls) fail(path, fmt::format("has the wrong type (expected {})", kind));
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0) fail(path, "has an unreadable size");
    if (n < least || n > most)
      fail(path, least == most ? fmt::format("has {} elements, expected {}", n, least)
                               : fmt::format("has {} elements, expected {} to {}", n, least, most));
    // the data themselves: a file whose metadata are sound may still hold unreadable blocks,
    // and libfclib would stop the process on reading them
    if (cls == H5T_STRING && H5Tis_variable_str(type.get()) != 0) fail(path, "is a variable-length string");
    const std::size_t bytes = cls == H5T_STRING ? H5Tget_size(type.get()) : sizeof(double);
    std::vector<unsigned char> data(std::max<std::size_t>(1, bytes * static_cast<std::size_t>(n)));
    const hid_t memory = cls == H5T_INTEGER ? H5T_NATIVE_INT64 : cls == H5T_FLOAT ? H5T_NATIVE_DOUBLE : type.get();
    if (n > 0 && H5Dread(set.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0)
      fail(path, "cannot be read (damaged data)");
    return static_cast<long>(n);
  }

  // the ints of an integer dataset of `count` elements, read
  std::vector<std::int64_t> integers(const std::string& path, long count) const {
    dataset(path, H5T_INTEGER, count);
    Hdf5Handle set(H5Dopen2(m_h5, path.c_str(), H5P_DEFAULT), H5Dclose);
    std::vector<std::int64_t> values(static_cast<std::size_t>(count));
    if (count > 0 && H5Dread(set.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      fail(path, "cannot be read (damaged data)");
    return values;
  }

  long integer(const std::string& path) const { return static_cast<long>(integers(path, 1)[0]); }

  struct Sizes {
    long m = 0, n = 0;
  };

  // a matrix group of read_matrix
  Sizes matrix(const std::string& g) const {
    require_group(g);
    const long nzmax = integer(g + "/nzmax"), m = integer(g + "/m"), n = integer(g + "/n"), nz = integer(g + "/nz");
    auto within = [&](const char* name, long v) {
      if (v < 0 || v > kMaxEntries) fail(g + "/" + name, fmt::format("is {}, expected 0 to {}", v, kMaxEntries));
    };
    within("nzmax", nzmax);
    within("m", m);
    within("n", n);
    if (nz < -2 || nz > nzmax) fail(g + "/nz", fmt::format("is {}, expected −2, −1 or 0 to nzmax = {}", nz, nzmax));
    // libfclib allocates p (nz, n + 1 or m + 1), i (nz or nzmax) and x (nzmax) and reads the
    // datasets whole into them: none may be longer; each must hold the entries that are used
    long used = nz;
    if (nz >= 0) {
      dataset(g + "/p", H5T_INTEGER, nz, nz);
    } else {
      const std::vector<std::int64_t> starts = integers(g + "/p", nz == -1 ? n + 1 : m + 1);
      used = static_cast<long>(starts.back());
      if (used < 0 || used > nzmax) fail(g + "/p", fmt::format("ends at {}, expected 0 to nzmax = {}", used, nzmax));
    }
    dataset(g + "/i", H5T_INTEGER, used, nz >= 0 ? nz : nzmax);
    dataset(g + "/x", H5T_FLOAT, used, nzmax);
    if (found_by_libfclib(g, "conditioning")) {
      for (const char* name : {"conditioning", "sparsity", "determinant"}) dataset(g + "/" + name, H5T_FLOAT, 1);
      dataset(g + "/rank", H5T_INTEGER, 1);
      if (found_by_libfclib(g, "comment")) dataset(g + "/comment", H5T_STRING, 1);
    }
    return {m, n};
  }

  long spacedim(const std::string& root) const {
    const long d = integer(root + "/spacedim");
    if (d != 2 && d != 3) fail(root + "/spacedim", fmt::format("is {}, expected 2 or 3", d));
    return d;
  }

  // the length of a vector of contact coefficients: `length` / spacedim, divisible
  long per_contact(const std::string& path, long length, long d) const {
    if (length % d != 0) fail(path, fmt::format("belongs to a problem of size {}, not divisible by {}", length, d));
    return length / d;
  }

  void info(const std::string& root) const {
    const std::string g = root + "/info";
    if (!opens_as_group(g)) return;
    for (const char* name : {"title", "description", "math_info"})
      if (found_by_libfclib(g, name)) dataset(g + "/" + name, H5T_STRING, 1);
  }

 private:
  const std::string& m_file;
  hid_t m_h5;
};

}  // namespace

void check_fclib_structure(const std::string& file, const std::string& root) {
  Hdf5Handle h5(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!h5.valid()) throw InputError(fmt::format("{}: HDF5 cannot open the file", file));
  const Checker c(file, h5.get());
  c.require_group(root);
  const long d = c.spacedim(root);
  const std::string vectors = root + "/vectors";
  if (root == "/fclib_local") {
    const Checker::Sizes W = c.matrix(root + "/W");
    const bool has_v = c.opens_as_group(root + "/V");
    std::optional<Checker::Sizes> R;
    if (has_v) {
      c.matrix(root + "/V");
      R = c.matrix(root + "/R");
    }
    c.require_group(vectors);
    c.dataset(vectors + "/q", H5T_FLOAT, W.m);
    c.dataset(vectors + "/mu", H5T_FLOAT, c.per_contact(vectors + "/mu", W.m, d));
    if (R) c.dataset(vectors + "/s", H5T_FLOAT, R->m);
  } else {
    const Checker::Sizes M = c.matrix(root + "/M");
    const Checker::Sizes H = c.matrix(root + "/H");
    std::optional<Checker::Sizes> G;
    if (c.opens_as_group(root + "/G")) G = c.matrix(root + "/G");
    c.require_group(vectors);
    c.dataset(vectors + "/f", H5T_FLOAT, M.m);
    c.dataset(vectors + "/w", H5T_FLOAT, H.n);
    c.dataset(vectors + "/mu", H5T_FLOAT, c.per_contact(vectors + "/mu", H.n, d));
    if (G) c.dataset(vectors + "/b", H5T_FLOAT, G->n);
  }
  c.info(root);
}

void check_matrix_indices(const std::string& file, const char* which, const fclib_matrix& m) {
  auto fail = [&](const std::string& what) {
    throw InputError(fmt::format("{}: not a readable FCLIB problem: matrix {} ({} × {}) {}", file, which, m.m, m.n, what));
  };
  if (m.nz >= 0) {
    for (int k = 0; k < m.nz; ++k)
      if (m.i[k] < 0 || m.i[k] >= m.m || m.p[k] < 0 || m.p[k] >= m.n)
        fail(fmt::format("has entry {} at ({}, {}), outside the matrix", k, m.i[k], m.p[k]));
    return;
  }
  // compressed columns (nz = −1) or rows (nz = −2): starts p, then indices i of the other dimension
  const int outer = m.nz == -1 ? m.n : m.m, inner = m.nz == -1 ? m.m : m.n;
  if (m.p[0] != 0) fail(fmt::format("has its first compressed start at {}, expected 0", m.p[0]));
  for (int j = 0; j < outer; ++j)
    if (m.p[j + 1] < m.p[j] || m.p[j + 1] > m.nzmax)
      fail(fmt::format("has compressed start {} = {}, expected a non-decreasing count up to nzmax = {}", j + 1,
                       m.p[j + 1], m.nzmax));
  for (int k = 0; k < m.p[outer]; ++k)
    if (m.i[k] < 0 || m.i[k] >= inner) fail(fmt::format("has index {} = {}, outside 0 to {}", k, m.i[k], inner - 1));
}

}  // namespace nscd::io
