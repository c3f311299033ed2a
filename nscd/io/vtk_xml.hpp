#pragma once
/// @file
/// Internal to nscd::io: a writer of VTK XML files (.vtu, .vtp) in the form VTK's own
/// vtkXMLWriter gives with binary appended data, 64-bit headers and zlib (docs/output.md),
/// which ParaView and the `vtk` Python package read.
///
/// Format (VTK File Formats, "XML File Formats", appended raw data): each DataArray gives the
/// offset of its data after the `_` of <AppendedData encoding="raw">; the data of an array of n
/// bytes is cut into b = ⌈n / 32768⌉ blocks of 32 768 bytes (the last one shorter), each compressed
/// alone as a zlib stream (RFC 1950), and preceded by the UInt64 header
///   [b, 32768, n mod 32768, c₁, …, c_b]
/// with c_i the compressed size of block i (an empty array: [0, 32768, 0]). This is the layout of
/// vtkXMLWriter with vtkZLibDataCompressor, read by the same readers; the streams come from
/// libdeflate (level 1), 2–4 times faster than zlib's level 1 on our files and no larger, and the
/// blocks are compressed in parallel (TBB), each on its own, so the file does not depend on the
/// number of threads.
///
/// The file is written to `<file>.tmp` and renamed over `<file>`.

#include "nscd/core/math.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nscd::io::detail {

/// One DataArray: its name, its VTK type ("Float64", "Int32", "Int64", "UInt8"), its number of
/// components and its values as bytes (little-endian, as in memory); `reuse` marks an array that
/// usually has the same bytes in the next file (the bodies' cells), to be kept in an XmlCache.
struct XmlArray {
  std::string_view name;
  std::string_view type;
  int components = 1;
  std::span<const std::byte> bytes;
  bool reuse = false;
};

/// The arrays of 3-vectors, doubles, ints, 64-bit ints and bytes, without copying the values.
XmlArray xml_array(std::string_view name, const std::vector<Vec3>& values);
XmlArray xml_array(std::string_view name, const std::vector<double>& values);
XmlArray xml_array(std::string_view name, const std::vector<int>& values);
XmlArray xml_array(std::string_view name, const std::vector<std::int64_t>& values);
XmlArray xml_array(std::string_view name, const std::vector<std::uint8_t>& values);

/// One element of a piece (PointData, CellData, Points, Cells, Verts ...) and its arrays.
struct XmlSection {
  std::string_view tag;
  std::vector<XmlArray> arrays;
};

/// A data set of one piece: its type ("UnstructuredGrid", "PolyData"), the piece's counts
/// (NumberOfPoints ...) and its sections in the order of the file.
struct XmlDataSet {
  std::string_view type;
  std::vector<std::pair<std::string_view, std::size_t>> counts;
  std::vector<XmlSection> sections;
};

/// An array's data as it follows the `_` of the appended data: its header and compressed blocks.
struct PackedArray {
  std::vector<std::uint64_t> header;
  std::vector<std::vector<unsigned char>> blocks;
};

/// The arrays marked `reuse` of the last file written with this cache, by section and name, with
/// their bytes: an array with the same bytes in the next file is not compressed again (a run's
/// bodies keep their cells, which are half of the bytes of bodies_NNNNNN.vtu).
struct XmlCache {
  struct Entry {
    std::vector<std::byte> raw;
    PackedArray packed;
  };
  std::map<std::string, Entry, std::less<>> arrays;
};

/// Writes `data` to `path` (through `<path>.tmp`), with the compressed arrays of `cache` if given,
/// and updates it.
/// @throws nscd::Error naming the file and the OS reason if it cannot be written
void write_vtk_xml(const std::filesystem::path& path, const XmlDataSet& data, XmlCache* cache = nullptr);

}  // namespace nscd::io::detail
