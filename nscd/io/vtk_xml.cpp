#include "nscd/io/vtk_xml.hpp"

#include "nscd/core/error.hpp"
#include "nscd/io/vtk_files.hpp"

#include <libdeflate.h>
#include <spdlog/fmt/fmt.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <system_error>

namespace nscd::io::detail {
namespace fs = std::filesystem;

static_assert(std::endian::native == std::endian::little, "the files declare byte_order=\"LittleEndian\"");
static_assert(sizeof(Vec3) == 3 * sizeof(double), "a std::vector<Vec3> is a Float64 array of 3 components");

namespace {

constexpr std::size_t kBlockSize = 32768;  // vtkXMLWriter's default block size
// libdeflate's level 1: zlib streams ~1 % smaller than zlib's level 1, 2–4 times faster
constexpr int kLevel = 1;

template <class T>
std::span<const std::byte> bytes_of(const std::vector<T>& values) {
  return std::as_bytes(std::span<const T>(values));
}

// a libdeflate compressor at kLevel and its output buffer, one per thread (a compressor is not
// thread-safe)
struct Compressor {
  std::unique_ptr<libdeflate_compressor, decltype(&libdeflate_free_compressor)> c{
      libdeflate_alloc_compressor(kLevel), &libdeflate_free_compressor};
  std::vector<unsigned char> buffer;

  // one block as a zlib stream (RFC 1950), which vtkZLibDataCompressor decompresses
  std::vector<unsigned char> compress(std::span<const std::byte> raw) {
    if (!c) throw Error("cannot compress the output: out of memory");
    buffer.resize(std::max(buffer.size(), libdeflate_zlib_compress_bound(c.get(), raw.size())));
    const std::size_t size = libdeflate_zlib_compress(c.get(), raw.data(), raw.size(), buffer.data(), buffer.size());
    NSCD_DEMAND(size > 0);  // the bound always suffices
    return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(size)};
  }
};

// the array's key in a cache: its section and name
std::string cache_key(const XmlSection& section, const XmlArray& array) {
  return fmt::format("{}/{}", section.tag, array.name);
}

// the cached blocks of `array` if it is marked for reuse and its bytes are those cached
const PackedArray* cached(const XmlCache* cache, const XmlSection& section, const XmlArray& array) {
  if (cache == nullptr || !array.reuse) return nullptr;
  const auto entry = cache->arrays.find(cache_key(section, array));
  if (entry == cache->arrays.end()) return nullptr;
  const std::vector<std::byte>& raw = entry->second.raw;
  if (raw.size() != array.bytes.size() || std::memcmp(raw.data(), array.bytes.data(), raw.size()) != 0) return nullptr;
  return &entry->second.packed;
}

// every array of `data` cut into blocks, the blocks of all arrays compressed in parallel, except the
// arrays found in `cache`; those marked for reuse are then cached
std::vector<PackedArray> pack_arrays(const XmlDataSet& data, XmlCache* cache) {
  std::vector<PackedArray> packed;
  std::vector<std::span<const std::byte>> raw;             // every block to compress, in file order
  std::vector<std::pair<std::size_t, std::size_t>> owner;  // (array, block) of each
  std::vector<std::size_t> fresh;                          // the arrays compressed here
  struct ToCache {
    std::size_t index;
    std::string key;
    std::span<const std::byte> bytes;
  };
  std::vector<ToCache> to_cache;                           // those of them to cache
  for (const XmlSection& section : data.sections)
    for (const XmlArray& array : section.arrays) {
      if (const PackedArray* p = cached(cache, section, array)) {
        packed.push_back(*p);
        continue;
      }
      const std::size_t n = array.bytes.size(), nblocks = (n + kBlockSize - 1) / kBlockSize;
      PackedArray p;
      p.header = {nblocks, kBlockSize, n % kBlockSize};
      p.blocks.resize(nblocks);
      for (std::size_t b = 0; b < nblocks; ++b) {
        raw.push_back(array.bytes.subspan(b * kBlockSize, std::min(kBlockSize, n - b * kBlockSize)));
        owner.emplace_back(packed.size(), b);
      }
      if (cache != nullptr && array.reuse) to_cache.push_back({packed.size(), cache_key(section, array), array.bytes});
      fresh.push_back(packed.size());
      packed.push_back(std::move(p));
    }
  tbb::enumerable_thread_specific<Compressor> compressors;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, raw.size()), [&](const tbb::blocked_range<std::size_t>& r) {
    Compressor& compressor = compressors.local();
    for (std::size_t i = r.begin(); i != r.end(); ++i)
      packed[owner[i].first].blocks[owner[i].second] = compressor.compress(raw[i]);
  });
  for (const std::size_t i : fresh)
    for (const std::vector<unsigned char>& block : packed[i].blocks) packed[i].header.push_back(block.size());
  for (ToCache& c : to_cache) cache->arrays[std::move(c.key)] = {{c.bytes.begin(), c.bytes.end()}, packed[c.index]};
  return packed;
}

std::size_t packed_size(const PackedArray& p) {
  std::size_t size = p.header.size() * sizeof(std::uint64_t);
  for (const std::vector<unsigned char>& block : p.blocks) size += block.size();
  return size;
}

// the XML text up to and including the `_` that starts the appended data
std::string xml_head(const XmlDataSet& data, const std::vector<PackedArray>& packed) {
  fmt::memory_buffer text;
  auto out = std::back_inserter(text);
  fmt::format_to(out,
                 "<VTKFile type=\"{0}\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\" "
                 "compressor=\"vtkZLibDataCompressor\">\n  <{0}>\n    <Piece",
                 data.type);
  for (const auto& [name, count] : data.counts) fmt::format_to(out, " {}=\"{}\"", name, count);
  fmt::format_to(out, ">\n");
  std::size_t index = 0, offset = 0;
  for (const XmlSection& section : data.sections) {
    fmt::format_to(out, "      <{}>\n", section.tag);
    for (const XmlArray& array : section.arrays) {
      fmt::format_to(out, "        <DataArray type=\"{}\" Name=\"{}\"", array.type, array.name);
      if (array.components != 1) fmt::format_to(out, " NumberOfComponents=\"{}\"", array.components);
      fmt::format_to(out, " format=\"appended\" offset=\"{}\"/>\n", offset);
      offset += packed_size(packed[index++]);
    }
    fmt::format_to(out, "      </{}>\n", section.tag);
  }
  fmt::format_to(out, "    </Piece>\n  </{}>\n  <AppendedData encoding=\"raw\">\n   _", data.type);
  return fmt::to_string(text);
}

}  // namespace

XmlArray xml_array(std::string_view name, const std::vector<Vec3>& values) {
  return {name, "Float64", 3, std::as_bytes(std::span<const double>(values.empty() ? nullptr : values.front().data(),
                                                                    3 * values.size()))};
}
XmlArray xml_array(std::string_view name, const std::vector<double>& values) {
  return {name, "Float64", 1, bytes_of(values)};
}
XmlArray xml_array(std::string_view name, const std::vector<int>& values) {
  static_assert(sizeof(int) == 4);
  return {name, "Int32", 1, bytes_of(values)};
}
XmlArray xml_array(std::string_view name, const std::vector<std::int64_t>& values) {
  return {name, "Int64", 1, bytes_of(values)};
}
XmlArray xml_array(std::string_view name, const std::vector<std::uint8_t>& values) {
  return {name, "UInt8", 1, bytes_of(values)};
}

void write_vtk_xml(const fs::path& path, const XmlDataSet& data, XmlCache* cache) {
  const std::vector<PackedArray> packed = pack_arrays(data, cache);
  const fs::path tmp = temporary_path(path);
  errno = 0;
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  if (out) {
    const std::string head = xml_head(data, packed);
    out.write(head.data(), static_cast<std::streamsize>(head.size()));
    for (const PackedArray& p : packed) {
      out.write(reinterpret_cast<const char*>(p.header.data()),
                static_cast<std::streamsize>(p.header.size() * sizeof(std::uint64_t)));
      for (const std::vector<unsigned char>& block : p.blocks)
        out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(block.size()));
    }
    out << "\n  </AppendedData>\n</VTKFile>\n";
    out.close();
  }
  // a failed write leaves no temporary file behind
  if (!out) {
    const int err = errno;
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(fmt::format("cannot write '{}': {}", path.string(),
                            err != 0 ? std::generic_category().message(err) : std::string("unknown reason")));
  }
  commit_temporary(tmp, path);
}

}  // namespace nscd::io::detail
