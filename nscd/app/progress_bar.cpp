#include "nscd/app/progress_bar.hpp"

#include <spdlog/fmt/fmt.h>

#include <cstdio>
#include <string>

namespace nscd::app {

ProgressBar::ProgressBar(long total_steps, double duration)
    : m_total(total_steps), m_duration(duration), m_start(std::chrono::steady_clock::now()), m_last(m_start) {}

void ProgressBar::update(long step, double t, int n_contacts, int solver_iterations) {
  const auto now = std::chrono::steady_clock::now();
  if (step < m_total && now - m_last < std::chrono::milliseconds(100)) return;
  m_last = now;
  m_drawn = true;
  constexpr int kWidth = 30;
  const double fraction = m_total > 0 ? static_cast<double>(step) / static_cast<double>(m_total) : 1.0;
  const int filled = static_cast<int>(fraction * kWidth);
  const double elapsed = std::chrono::duration<double>(now - m_start).count();
  const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '-');
  std::fprintf(stderr, "\r[%s] %3.0f%% step %ld/%ld  t = %.4g/%.4g s  %.0f steps/s  %d contacts  %d it ",
               bar.c_str(), 100 * fraction, step, m_total, t, m_duration,
               elapsed > 0 ? static_cast<double>(step) / elapsed : 0.0, n_contacts, solver_iterations);
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (m_drawn) std::fputc('\n', stderr);
}

}  // namespace nscd::app
