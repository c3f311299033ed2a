#pragma once
/// @file
/// The library logger (ipc-toolkit's scheme): libraries never print; they log here.
/// Levels: trace per sweep, debug per step, info per run.

#include <spdlog/sinks/ansicolor_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace nscd {

/// The logger used by every nscd library; by default a colour stderr sink named "nscd".
spdlog::logger& logger();

/// Replaces the library logger (the command-line program and tests install their own).
void set_logger(std::shared_ptr<spdlog::logger> new_logger);

/// A colour sink on a terminal (stderr by default) that keeps a status line, such as a progress
/// bar, as the last line: a message erases the status line ("\r", then ANSI "erase to the end
/// of the line"), is printed on a line of its own, and the status line is drawn again under it.
/// Without a status line it prints as spdlog's colour sink does. Thread-safe.
class StatusLineSink final : public spdlog::sinks::sink {
 public:
  explicit StatusLineSink(FILE* file = stderr);

  /// Draws `line` (no newline in it) in place of the current status line.
  void show_status(std::string_view line);
  /// Ends the status line with a newline, leaving it on screen; later messages print normally.
  void end_status();

  void log(const spdlog::details::log_msg& msg) override;
  void flush() override;
  void set_pattern(const std::string& pattern) override;
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override;

 private:
  void erase_status();

  std::mutex m_mutex;
  FILE* m_file;
  spdlog::sinks::ansicolor_sink<spdlog::details::console_nullmutex> m_terminal;  // guarded by m_mutex
  std::string m_status;  // empty when no status line is shown
};

}  // namespace nscd
