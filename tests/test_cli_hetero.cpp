// `matsamp bench` on heterogeneous graphs as a user runs it: a generated
// ogbn-mag-shaped graph and an OGB heterogeneous folder, bulk equal to per batch,
// and one-line errors for what a user gets wrong.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "test_data.h"

namespace matsamp {
namespace {

TEST(HeteroCli, BenchSamplesEveryRelationAndBulkEqualsPerBatch) {
  const std::string dir = testing::scratch_dir("hetero_cli");
  const testing::CliResult r = testing::run_cli(
      "bench -g mag:2000 --relation-fanouts 'writes=5,3;cites=4,2;rev_writes=0,3' -b 64 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"seed_type\":\"paper\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"paper,rev_writes,author\":{\"edges\":"), std::string::npos) << "reverses added";
  EXPECT_NE(r.out.find("\"identical_minibatches\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"paper,has_topic,field_of_study\":{\"edges\":"), std::string::npos);

  // The same graph as an OGB heterogeneous folder, relations kept as given.
  const testing::CliResult converted =
      testing::run_cli("convert -g mag:2000 --format ogb -o " + dir + "/ogbn_mag_toy", dir);
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  EXPECT_NE(converted.out.find("4 vertex types, 4 relations"), std::string::npos) << converted.out;
  const testing::CliResult folder =
      testing::run_cli("bench -g " + dir + "/ogbn_mag_toy --keep-relations --fanouts 4,4 -b 64", dir);
  ASSERT_EQ(folder.exit_code, 0) << folder.err;
  EXPECT_EQ(folder.out.find("rev_writes"), std::string::npos) << "--keep-relations adds no reverse";
  EXPECT_NE(folder.out.find("\"sampled_edges\":"), std::string::npos);
}

TEST(HeteroCli, LayerWiseBenchDrawsPerTypeAndBulkEqualsPerBatch) {
  const std::string dir = testing::scratch_dir("hetero_cli_layer_wise");
  const testing::CliResult r = testing::run_cli(
      "bench -g mag:2000 --type-budgets 'paper=40,20;author=30,10;field_of_study=8,4' -b 64 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sampler\":\"hgt\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"author\":{\"vertices\":3080,\"budgets\":\"30,10\"}"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"institution\":{\"vertices\":24,\"budgets\":\"0,0\"}"), std::string::npos)
      << "types left out draw nothing";
  EXPECT_NE(r.out.find("\"identical_minibatches\":true"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"sampled_edges\":0,"), std::string::npos) << r.out;
}

TEST(HeteroCli, MistakesAreOneLineErrors) {
  const std::string dir = testing::scratch_dir("hetero_cli_errors");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --relation-fanouts 'reviews=3,2'", dir),
                                 "unknown relation 'reviews'");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --seed-type venue", dir),
                                 "unknown vertex type 'venue'");
  testing::expect_one_line_error(testing::run_cli("info -g mag:1000", dir), "mag:1000 is a heterogeneous graph");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --sampler ladies", dir),
                                 "heterogeneous graphs are sampled node-wise");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --type-budgets 'paper=8;venue=4'", dir),
                                 "unknown vertex type 'venue'");
  testing::expect_one_line_error(
      testing::run_cli("bench -g mag:1000 --type-budgets 8 --relation-fanouts writes=3", dir), "give one");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:10", dir), "10 papers out of range");
  testing::expect_one_line_error(testing::run_cli("convert -g mag:1000 -o mag.msg", dir),
                                 "converts to an OGB folder (--format ogb), not yet to .msg");
}

}  // namespace
}  // namespace matsamp
