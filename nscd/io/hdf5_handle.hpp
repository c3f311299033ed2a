#pragma once
/// @file
/// An HDF5 identifier closed on scope exit (files, groups, datasets, dataspaces, types), for the
/// readers and writers of HDF5 files (fclib_hdf5.cpp, checkpoint.cpp).

#include <hdf5.h>

namespace nscd::io {

class Hdf5Handle {
 public:
  Hdf5Handle(hid_t id, herr_t (*close)(hid_t)) : m_id(id), m_close(close) {}
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  ~Hdf5Handle() {
    if (m_id >= 0) m_close(m_id);
  }
  hid_t get() const { return m_id; }
  bool valid() const { return m_id >= 0; }

 private:
  hid_t m_id;
  herr_t (*m_close)(hid_t);
};

/// Stops HDF5 from printing its error stack on every failed call; the callers report errors.
inline void silence_hdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

}  // namespace nscd::io
