// What `nscd run` shows on a terminal: log messages on lines of their own above the progress bar
// (StatusLineSink), and a progress line that says only what the solver did.

#include "nscd/app/progress_bar.hpp"
#include "nscd/core/logger.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

namespace {

// everything written to `file` so far
std::string contents(FILE* file) {
  std::fflush(file);
  std::string text(static_cast<std::size_t>(std::ftell(file)), '\0');
  std::rewind(file);
  text.resize(std::fread(text.data(), 1, text.size(), file));
  return text;
}

TEST(StatusLineSink, AMessageGetsALineOfItsOwnAndTheBarIsRedrawnUnderIt) {
  FILE* file = std::tmpfile();  // not a terminal: no colours
  ASSERT_NE(file, nullptr);
  auto sink = std::make_shared<nscd::StatusLineSink>(file);
  spdlog::logger log("test", sink);
  log.set_pattern("[%l] %v");
  sink->show_status("[##--] 50%");
  log.warn("the solver stopped");
  sink->show_status("[###-] 75%");
  sink->end_status();
  log.info("done");
  // "\r\033[K" erases the bar's line before each redraw and before the message
  EXPECT_EQ(contents(file),
            "\r\033[K[##--] 50%"
            "\r\033[K[warning] the solver stopped\n[##--] 50%"
            "\r\033[K[###-] 75%\n"
            "[info] done\n");
  std::fclose(file);
}

TEST(StatusLineSink, WithoutAStatusLineMessagesPrintAsUsual) {
  FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  spdlog::logger log("test", std::make_shared<nscd::StatusLineSink>(file));
  log.set_pattern("[%l] %v");
  log.info("one");
  log.error("two");
  EXPECT_EQ(contents(file), "[info] one\n[error] two\n");
  std::fclose(file);
}

TEST(ProgressLine, IterationsAreShownOnlyForAContactProblem) {
  // no contact: the solver had nothing to solve (it reports 1 iteration, Algorithm 1 reports 0)
  EXPECT_EQ(nscd::app::contact_summary(0, 1), "0 contacts");
  EXPECT_EQ(nscd::app::contact_summary(0, 0), "0 contacts");
  EXPECT_EQ(nscd::app::contact_summary(635, 41), "635 contacts  41 it");
}

}  // namespace
