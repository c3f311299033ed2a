#include "nscd/core/logger.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace nscd {
namespace {
std::shared_ptr<spdlog::logger>& logger_slot() {
  static std::shared_ptr<spdlog::logger> slot = spdlog::stderr_color_mt("nscd");
  return slot;
}

// "\r" and ANSI "erase to the end of the line" (EL)
constexpr const char* kEraseLine = "\r\033[K";
}  // namespace

spdlog::logger& logger() { return *logger_slot(); }

void set_logger(std::shared_ptr<spdlog::logger> new_logger) { logger_slot() = std::move(new_logger); }

StatusLineSink::StatusLineSink(FILE* file) : m_file(file), m_terminal(file, spdlog::color_mode::automatic) {}

void StatusLineSink::erase_status() {
  if (!m_status.empty()) std::fputs(kEraseLine, m_file);
}

void StatusLineSink::show_status(std::string_view line) {
  std::lock_guard lock(m_mutex);
  std::fputs(kEraseLine, m_file);
  std::fwrite(line.data(), 1, line.size(), m_file);
  std::fflush(m_file);
  m_status = line;
}

void StatusLineSink::end_status() {
  std::lock_guard lock(m_mutex);
  if (m_status.empty()) return;
  std::fputc('\n', m_file);
  std::fflush(m_file);
  m_status.clear();
}

void StatusLineSink::log(const spdlog::details::log_msg& msg) {
  std::lock_guard lock(m_mutex);
  erase_status();
  m_terminal.log(msg);  // ends with a newline and flushes
  if (!m_status.empty()) {
    std::fputs(m_status.c_str(), m_file);
    std::fflush(m_file);
  }
}

void StatusLineSink::flush() {
  std::lock_guard lock(m_mutex);
  m_terminal.flush();
}

void StatusLineSink::set_pattern(const std::string& pattern) {
  std::lock_guard lock(m_mutex);
  m_terminal.set_pattern(pattern);
}

void StatusLineSink::set_formatter(std::unique_ptr<spdlog::formatter> formatter) {
  std::lock_guard lock(m_mutex);
  m_terminal.set_formatter(std::move(formatter));
}

}  // namespace nscd
