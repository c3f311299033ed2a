#pragma once
/// @file
/// Wall-clock timing of step stages (MuJoCo's TM_START/TM_END): a scope adds its duration in
/// seconds to a double.

#include <chrono>

namespace nscd {

/// Adds the wall time between construction and destruction to `*accumulator` [s].
class ScopedTimer {
 public:
  explicit ScopedTimer(double* accumulator)
      : m_accumulator(accumulator), m_start(std::chrono::steady_clock::now()) {}
  ~ScopedTimer() {
    *m_accumulator += std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double* m_accumulator;
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace nscd
