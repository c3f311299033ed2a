#pragma once
/// @file
/// The library logger (ipc-toolkit's scheme): libraries never print; they log here.
/// Levels: trace per sweep, debug per step, info per run.

#include <spdlog/spdlog.h>

#include <memory>

namespace nscd {

/// The logger used by every nscd library; by default a colour stderr sink named "nscd".
spdlog::logger& logger();

/// Replaces the library logger (the command-line program and tests install their own).
void set_logger(std::shared_ptr<spdlog::logger> new_logger);

}  // namespace nscd
