#include "nscd/core/logger.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace nscd {
namespace {
std::shared_ptr<spdlog::logger>& logger_slot() {
  static std::shared_ptr<spdlog::logger> slot = spdlog::stderr_color_mt("nscd");
  return slot;
}
}  // namespace

spdlog::logger& logger() { return *logger_slot(); }

void set_logger(std::shared_ptr<spdlog::logger> new_logger) { logger_slot() = std::move(new_logger); }

}  // namespace nscd
