// The host's rates are measured once per key and read back after (util/host_rates.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_data.h"
#include "util/host_rates.h"

namespace matsamp {
namespace {

TEST(HostRates, MeasuredOnceThenReadBack) {
  const std::string dir = testing::scratch_dir("host_rates_kept");
  int measured = 0;
  const auto measure = [&] {
    ++measured;
    return HostRates{2.5e10, 1.25e8 + measured, ""};
  };
  const HostRates first = cached_rates(dir, "host A | 2 threads", measure);
  EXPECT_EQ(first.source, "measured");
  const HostRates again = cached_rates(dir, "host A | 2 threads", measure);
  EXPECT_EQ(measured, 1) << "the kept rates were measured again";
  EXPECT_EQ(again.copy_bandwidth, first.copy_bandwidth);
  EXPECT_EQ(again.gather_rate, first.gather_rate);
  EXPECT_NE(again.source.find(dir), std::string::npos) << again.source;
  // Another key (thread count, host) is measured for itself.
  EXPECT_EQ(cached_rates(dir, "host A | 1 threads", measure).source, "measured");
  EXPECT_EQ(measured, 2);
}

TEST(HostRates, UnreadableOrWrongFilesAreMeasuredAgain) {
  const std::string dir = testing::scratch_dir("host_rates_bad");
  int measured = 0;
  const auto measure = [&] {
    ++measured;
    return HostRates{1e10, 1e8, ""};
  };
  const HostRates kept = cached_rates(dir, "key", measure);
  ASSERT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
  const std::filesystem::path file = std::filesystem::directory_iterator(dir)->path();
  for (const char* content : {"key\n-1 5\n", "key\nnan 1\n", "key\n", "other key\n1 2\n", ""}) {
    std::ofstream(file) << content;
    EXPECT_EQ(cached_rates(dir, "key", measure).source, "measured") << content;
  }
  EXPECT_EQ(measured, 6);
  EXPECT_EQ(cached_rates(dir, "key", measure).gather_rate, kept.gather_rate) << "rewritten by the last measurement";
  // No folder: measured every time, nothing written.
  EXPECT_EQ(cached_rates("", "key", measure).source, "measured");
  EXPECT_EQ(measured, 7);
}

}  // namespace
}  // namespace matsamp
