#pragma once
/// @file A one-line progress bar (steps, simulated time, steps/s, contacts, solver iterations),
/// redrawn at most ten times a second as the status line of a StatusLineSink, so that log
/// messages print on lines of their own above it; used only when stderr is a terminal.

#include "nscd/core/logger.hpp"

#include <chrono>
#include <memory>
#include <string>

namespace nscd::app {

/// What the contact solver did in one step: "0 contacts" when there was no contact problem to
/// solve; otherwise "635 contacts  41 it", the solver's iterations (NLGS sweeps; in scenes with
/// ffr, tl or linear bodies, summed over the solves of Algorithm 1, contact_solve.hpp).
std::string contact_summary(int n_contacts, int solver_iterations);

class ProgressBar {
 public:
  ProgressBar(long total_steps, double duration, std::shared_ptr<StatusLineSink> sink);
  /// Redraws if 0.1 s passed since the last draw, or on the last step; `contacts` is the step's
  /// contact_summary.
  void update(long step, double t, const std::string& contacts);
  /// Ends the line.
  void finish();

 private:
  long m_total;
  double m_duration;
  std::shared_ptr<StatusLineSink> m_sink;
  std::chrono::steady_clock::time_point m_start, m_last;
};

}  // namespace nscd::app
