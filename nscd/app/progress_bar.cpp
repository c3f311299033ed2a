#include "nscd/app/progress_bar.hpp"

#include <spdlog/fmt/fmt.h>

namespace nscd::app {

std::string contact_summary(int n_contacts, int solver_iterations) {
  if (n_contacts == 0) return "0 contacts";
  return fmt::format("{} contacts  {} it", n_contacts, solver_iterations);
}

ProgressBar::ProgressBar(long total_steps, double duration, std::shared_ptr<StatusLineSink> sink)
    : m_total(total_steps),
      m_duration(duration),
      m_sink(std::move(sink)),
      m_start(std::chrono::steady_clock::now()),
      m_last(m_start) {}

void ProgressBar::update(long step, double t, const std::string& contacts) {
  const auto now = std::chrono::steady_clock::now();
  if (!m_sink || (step < m_total && now - m_last < std::chrono::milliseconds(100))) return;
  m_last = now;
  constexpr int kWidth = 30;
  const double fraction = m_total > 0 ? static_cast<double>(step) / static_cast<double>(m_total) : 1.0;
  const int filled = static_cast<int>(fraction * kWidth);
  const double elapsed = std::chrono::duration<double>(now - m_start).count();
  m_sink->show_status(fmt::format("[{}{}] {:3.0f}% step {}/{}  t = {:.4g}/{:.4g} s  {:.0f} steps/s  {}",
                                  std::string(filled, '#'), std::string(kWidth - filled, '-'), 100 * fraction, step,
                                  m_total, t, m_duration, elapsed > 0 ? static_cast<double>(step) / elapsed : 0.0,
                                  contacts));
}

void ProgressBar::finish() {
  if (m_sink) m_sink->end_status();
}

}  // namespace nscd::app
