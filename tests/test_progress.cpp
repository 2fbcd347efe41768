// Progress lines: what one says, and that a log gets a few lines, not one per update.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "util/progress.h"

namespace matsamp {
namespace {

std::string written(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;) text += static_cast<char>(c);
  return text;
}

TEST(Progress, ALogGetsTheFirstAndTheLastLineOfAQuickRun) {
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  {
    Progress progress("sample", 1000, "minibatches", log);
    for (int64_t done = 1; done <= 1000; ++done) progress.update(done);
  }
  const std::string text = written(log);
  std::fclose(log);
  EXPECT_EQ(text.find('\r'), std::string::npos);  // not a terminal: plain lines
  int lines = 0;
  for (char c : text) lines += c == '\n';
  EXPECT_EQ(lines, 2) << text;
  EXPECT_NE(text.find("matsamp: sample: 1 / 1000 minibatches ("), std::string::npos) << text;
  EXPECT_NE(text.find("matsamp: sample: 1000 / 1000 minibatches ("), std::string::npos) << text;
}

TEST(Progress, ALineSaysDoneTotalRateAndTimeLeft) {
  Progress progress("bulk", 10, "minibatches", nullptr);
  const std::string start = progress.line(0);
  EXPECT_EQ(start.rfind("bulk: 0 / 10 minibatches (", 0), 0u) << start;
  EXPECT_EQ(start.find("/s"), std::string::npos) << start;  // no rate before anything is done
  const std::string half = progress.line(5);
  EXPECT_NE(half.find("minibatches/s"), std::string::npos) << half;
  EXPECT_NE(half.find("s left)"), std::string::npos) << half;
  EXPECT_EQ(progress.line(10).find("left"), std::string::npos);
}

}  // namespace
}  // namespace matsamp
