#pragma once
/// @file
/// Internal to nscd::io: values computed once per key for the whole process and shared, immutable
/// (the meshes of shape_mesh.hpp, the modal bases of modal_cache.hpp). Thread-safe; counts the
/// values it had to compute (its misses).

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>

namespace nscd::io::detail {

template <class Key, class Value>
class ProcessCache {
 public:
  /// The value of key, made by make() (returning a Value) when not cached yet. An exception of
  /// make() leaves the key uncached.
  template <class Make>
  std::shared_ptr<const Value> get(const Key& key, Make&& make) {
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::shared_ptr<const Value>& value = m_values[key];
    if (value == nullptr) {
      value = std::make_shared<const Value>(make());
      ++m_misses;
    }
    return value;
  }

  /// The number of values made so far.
  std::size_t misses() const {
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_misses;
  }

 private:
  mutable std::mutex m_mutex;
  std::map<Key, std::shared_ptr<const Value>> m_values;
  std::size_t m_misses = 0;
};

}  // namespace nscd::io::detail
