#include "nscd/io/fclib_hdf5.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/hdf5_handle.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cstdint>

namespace nscd::io {
namespace {

class Reader {
 public:
  Reader(const std::string& file, hid_t h5) : m_file(file), m_h5(h5) {}

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
    return H5Oget_info_by_name(m_h5, path.c_str(), &info, H5P_DEFAULT) >= 0 && info.type == type;
  }

  void require_group(const std::string& path) const {
    if (!exists(path, H5O_TYPE_GROUP)) fail(path, "is missing (expected a group)");
  }

  // the values of a dataset of class `cls` (integers or floating point) with `least` to `most`
  // elements, read as T
  template <class T>
  std::vector<T> read(const std::string& path, long least, long most) const {
    constexpr bool integers = std::is_same_v<T, std::int64_t>;
    const H5T_class_t cls = integers ? H5T_INTEGER : H5T_FLOAT;
    const char* kind = integers ? "integers" : "numbers";
    if (!exists(path, H5O_TYPE_DATASET)) fail(path, fmt::format("is missing (expected {})", kind));
    Hdf5Handle set(H5Dopen2(m_h5, path.c_str(), H5P_DEFAULT), H5Dclose);
    Hdf5Handle type(set.valid() ? H5Dget_type(set.get()) : -1, H5Tclose);
    Hdf5Handle space(set.valid() ? H5Dget_space(set.get()) : -1, H5Sclose);
    if (!type.valid() || !space.valid()) fail(path, "cannot be opened");
    if (H5Tget_class(type.get()) != cls) fail(path, fmt::format("has the wrong type (expected {})", kind));
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < least || n > most)
      fail(path, least == most ? fmt::format("has {} elements, expected {}", n, least)
                               : fmt::format("has {} elements, expected {} to {}", n, least, most));
    std::vector<T> values(static_cast<std::size_t>(n));
    const hid_t memory = integers ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE;
    if (n > 0 && H5Dread(set.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      fail(path, "cannot be read (damaged data)");
    return values;
  }

  std::vector<double> doubles(const std::string& path, long count) const { return read<double>(path, count, count); }

  // integers within [lo, hi], as int
  std::vector<int> ints(const std::string& path, long least, long most, long lo, long hi) const {
    const std::vector<std::int64_t> values = read<std::int64_t>(path, least, most);
    std::vector<int> out(values.size());
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (values[k] < lo || values[k] > hi)
        fail(path, fmt::format("holds {} at {}, expected {} to {}", values[k], k, lo, hi));
      out[k] = static_cast<int>(values[k]);
    }
    return out;
  }

  int integer(const std::string& path, long lo, long hi) const { return ints(path, 1, 1, lo, hi)[0]; }

  // a matrix group of libfclib's read_matrix, with its indices checked (see the header)
  FclibMatrixData matrix(const std::string& g) const {
    require_group(g);
    FclibMatrixData a;
    a.nzmax = integer(g + "/nzmax", 0, kMaxEntries);
    a.m = integer(g + "/m", 0, kMaxEntries);
    a.n = integer(g + "/n", 0, kMaxEntries);
    a.nz = integer(g + "/nz", -2, a.nzmax);
    if (a.nz >= 0) {
      a.i = ints(g + "/i", a.nz, a.nz, 0, a.m - 1);  // rows
      a.p = ints(g + "/p", a.nz, a.nz, 0, a.n - 1);  // columns
      a.x = read<double>(g + "/x", a.nz, a.nzmax);
      return a;
    }
    // compressed columns (nz = −1) or rows (nz = −2): starts p, then the other dimension's indices
    const int outer = a.nz == -1 ? a.n : a.m, inner = a.nz == -1 ? a.m : a.n;
    a.p = ints(g + "/p", outer + 1, outer + 1, 0, a.nzmax);
    if (a.p[0] != 0 || !std::is_sorted(a.p.begin(), a.p.end()))
      fail(g + "/p", "does not hold non-decreasing starts from 0");
    const int used = a.p[outer];
    a.i = ints(g + "/i", used, a.nzmax, 0, inner - 1);
    a.x = read<double>(g + "/x", used, a.nzmax);
    return a;
  }

  int spacedim(const std::string& root) const {
    const std::string path = root + "/spacedim";
    const int d = integer(path, 0, 3);
    if (d != 2 && d != 3) fail(path, fmt::format("is {}, expected 2 or 3", d));
    return d;
  }

  // the length of a vector of contact coefficients: `length` / spacedim, divisible
  long per_contact(const std::string& path, long length, int d) const {
    if (length % d != 0) fail(path, fmt::format("belongs to a problem of size {}, not divisible by {}", length, d));
    return length / d;
  }

 private:
  const std::string& m_file;
  hid_t m_h5;
};

}  // namespace

fclib_matrix FclibMatrixData::view() {
  fclib_matrix v{};
  v.nzmax = nzmax;
  v.m = m;
  v.n = n;
  v.nz = nz;
  v.p = p.data();
  v.i = i.data();
  v.x = x.data();
  return v;
}

FclibData read_fclib_data(const std::string& file) {
  silence_hdf5();
  Hdf5Handle h5(H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!h5.valid()) throw InputError(fmt::format("{}: HDF5 cannot open the file", file));
  const Reader r(file, h5.get());
  FclibData data;
  std::string root = "/fclib_local";
  if (!r.exists(root, H5O_TYPE_GROUP)) {
    root = "/fclib_global";
    NSCD_THROW_UNLESS(r.exists(root, H5O_TYPE_GROUP),
                      "{}: no FCLIB problem in this HDF5 file (expected a fclib_local or fclib_global group)", file);
    data.is_global = true;
  }
  data.spacedim = r.spacedim(root);
  r.require_group(root + "/vectors");
  const std::string vectors = root + "/vectors";
  if (!data.is_global) {
    data.W = r.matrix(root + "/W");
    data.q = r.doubles(vectors + "/q", data.W.m);
    data.mu = r.doubles(vectors + "/mu", r.per_contact(vectors + "/mu", data.W.m, data.spacedim));
    return data;
  }
  data.M = r.matrix(root + "/M");
  data.H = r.matrix(root + "/H");
  data.has_equality_constraints = r.exists(root + "/G", H5O_TYPE_GROUP);
  data.f = r.doubles(vectors + "/f", data.M.m);
  data.w = r.doubles(vectors + "/w", data.H.n);
  data.mu = r.doubles(vectors + "/mu", r.per_contact(vectors + "/mu", data.H.n, data.spacedim));
  return data;
}

}  // namespace nscd::io
