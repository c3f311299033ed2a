#pragma once
/// @file
/// Error types and the three tiers of checks (Drake's scheme):
///  - NSCD_THROW_UNLESS(cond, fmt, ...): user input; throws nscd::InputError (exit code 2).
///  - NSCD_DEMAND(cond): always-on invariant; aborts with a message.
///  - assert(cond): debug-only developer check.

#include <spdlog/fmt/fmt.h>

#include <stdexcept>
#include <string>

namespace nscd {

/// Failure caused by something the user gave (scene, mesh, problem file, command line).
/// The command-line program maps it to exit code 2. The message names the file, the place in
/// it and what was expected.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Internal failure (a bug or an unrecoverable numerical state).
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
[[noreturn]] void demand_failed(const char* cond, const char* file, int line);
}  // namespace detail

}  // namespace nscd

#define NSCD_THROW_UNLESS(cond, ...)                                  \
  do {                                                                \
    if (!(cond)) throw ::nscd::InputError(fmt::format(__VA_ARGS__));  \
  } while (0)

#define NSCD_DEMAND(cond)                                                      \
  do {                                                                         \
    if (!(cond)) ::nscd::detail::demand_failed(#cond, __FILE__, __LINE__);     \
  } while (0)
