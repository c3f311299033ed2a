#pragma once
/// @file A one-line progress bar on stderr (steps, simulated time, steps/s, contacts, solver
/// iterations), redrawn at most ten times a second; used only when stderr is a terminal.

#include <chrono>

namespace nscd::app {

class ProgressBar {
 public:
  ProgressBar(long total_steps, double duration);
  /// Redraws if 0.1 s passed since the last draw, or on the last step.
  void update(long step, double t, int n_contacts, int solver_iterations);
  /// Ends the line.
  void finish();

 private:
  long m_total;
  double m_duration;
  std::chrono::steady_clock::time_point m_start, m_last;
  bool m_drawn = false;
};

}  // namespace nscd::app
