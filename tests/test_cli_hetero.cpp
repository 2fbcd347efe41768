// `matsamp bench` on heterogeneous graphs as a user runs it: a generated
// ogbn-mag-shaped graph, an OGB heterogeneous folder and their .msg, bulk equal
// to per batch, and one-line errors for what a user gets wrong.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include "cli_runner.h"
#include "io/hetero_io.h"
#include "msg_forge.h"
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

// The digits after `"key":` in `json`, "" when absent.
std::string json_field(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\":");
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size() + 3;
  return json.substr(begin, json.find_first_not_of("0123456789", begin) - begin);
}

// convert to .msg, then bench on it: the same minibatches as bench on the source.
TEST(HeteroCli, BenchOnAConvertedMsgSamplesWhatTheSourceDoes) {
  const std::string dir = testing::scratch_dir("hetero_cli_msg");
  const std::string bench = " --relation-fanouts 'writes=5,3;cites=4,2;rev_has_topic=3,0' -b 50 --seed 7";
  const testing::CliResult converted = testing::run_cli("convert -g mag:1500 -o " + dir + "/mag.msg", dir);
  ASSERT_EQ(converted.exit_code, 0) << converted.err;
  EXPECT_NE(converted.out.find("wrote " + dir + "/mag.msg: 4 vertex types, 4 relations"), std::string::npos)
      << converted.out;
  const testing::CliResult source = testing::run_cli("bench -g mag:1500" + bench, dir);
  const testing::CliResult msg = testing::run_cli("bench -g " + dir + "/mag.msg" + bench, dir);
  ASSERT_EQ(source.exit_code, 0) << source.err;
  ASSERT_EQ(msg.exit_code, 0) << msg.err;
  ASSERT_NE(json_field(source.out, "fingerprint"), "") << source.out;
  EXPECT_EQ(json_field(msg.out, "fingerprint"), json_field(source.out, "fingerprint")) << msg.out;
  EXPECT_EQ(json_field(msg.out, "sampled_edges"), json_field(source.out, "sampled_edges"));
  EXPECT_NE(msg.out.find("\"paper,rev_writes,author\":{\"edges\":"), std::string::npos) << "reverses added";

  // From an OGB heterogeneous folder: the .msg holds what the folder does.
  ASSERT_EQ(testing::run_cli("convert -g mag:1500 --format ogb -o " + dir + "/ogbn_mag", dir).exit_code, 0);
  const testing::CliResult from_folder =
      testing::run_cli("convert -g " + dir + "/ogbn_mag -o " + dir + "/folder.msg", dir);
  ASSERT_EQ(from_folder.exit_code, 0) << from_folder.err;
  const testing::CliResult folder = testing::run_cli("bench -g " + dir + "/ogbn_mag" + bench, dir);
  const testing::CliResult folder_msg = testing::run_cli("bench -g " + dir + "/folder.msg" + bench, dir);
  ASSERT_EQ(folder.exit_code, 0) << folder.err;
  ASSERT_EQ(folder_msg.exit_code, 0) << folder_msg.err;
  EXPECT_EQ(json_field(folder_msg.out, "fingerprint"), json_field(folder.out, "fingerprint")) << folder_msg.out;

  // info lists the stored types and relations.
  const testing::CliResult info = testing::run_cli("info -g " + dir + "/mag.msg", dir);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"heterogeneous\":true"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"paper\":{\"vertices\":1500,\"feature_dim\":32,\"labelled\":1500,\"classes\":8,"
                          "\"split\":{\"test\":"),
            std::string::npos)
      << info.out;
  EXPECT_NE(info.out.find("\"author,writes,paper\":{\"source\":\"author\",\"name\":\"writes\",\"destination\":"
                          "\"paper\",\"edges\":"),
            std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("rev_writes"), std::string::npos) << "the relations as stored";

  // A command that reads one vertex type says so; a corrupt file is one line.
  testing::expect_one_line_error(testing::run_cli("sample -g " + dir + "/mag.msg -o " + dir + "/out", dir),
                                 "mag.msg is a heterogeneous graph");
  std::string bytes = testing::read_text(dir + "/mag.msg");
  bytes[testing::msg_section(bytes, "relation/0/colidx").offset + 4] ^= 0x01;
  std::ofstream(dir + "/mag.msg", std::ios::binary | std::ios::trunc) << bytes;
  testing::expect_one_line_error(testing::run_cli("bench -g " + dir + "/mag.msg" + bench, dir),
                                 "mag.msg: checksum mismatch in section relation/0/colidx");
}

// By time (--temporal): each paper a tree sampled as of its time, the same
// minibatches per batch as in bulk; an OGB folder's node_year gives the papers'
// times; what a heterogeneous graph cannot take by time is a one-line error.
TEST(HeteroCli, BenchSamplesByTime) {
  const std::string dir = testing::scratch_dir("hetero_cli_time");
  const std::string fanouts = " --relation-fanouts 'writes=5,3;cites=4,2;rev_writes=0,3' -b 32";
  const testing::CliResult r = testing::run_cli(
      "bench -g mag:1500" + fanouts + " --temporal uniform --vertex-times random:50 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"temporal\":\"uniform\",\"vertex_times\":\"random:50\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"identical_minibatches\":true"), std::string::npos) << r.out;
  const testing::CliResult untimed = testing::run_cli("bench -g mag:1500" + fanouts, dir);
  ASSERT_EQ(untimed.exit_code, 0) << untimed.err;
  EXPECT_NE(testing::json_field(r.out, "fingerprint"), testing::json_field(untimed.out, "fingerprint"));

  ASSERT_EQ(testing::run_cli("convert -g mag:1500 --format ogb -o " + dir + "/ogbn_mag", dir).exit_code, 0);
  std::filesystem::create_directories(dir + "/ogbn_mag/raw/node_year/paper");
  std::ofstream years(dir + "/ogbn_mag/raw/node_year/paper/node_year.csv");
  for (int v = 0; v < 1500; ++v) years << 2000 + v % 19 << "\n";
  years.close();
  const testing::CliResult folder = testing::run_cli("bench -g " + dir + "/ogbn_mag --temporal last" + fanouts, dir);
  ASSERT_EQ(folder.exit_code, 0) << folder.err;
  EXPECT_NE(folder.out.find("\"temporal\":\"last\",\"vertex_times\":\"graph\""), std::string::npos) << folder.out;

  const std::vector<std::pair<std::string, std::string>> mistakes{
      {"", "--temporal needs vertex times: no vertex type of the graph has any"},
      {" --vertex-times " + dir + "/times.txt", "a heterogeneous graph takes random:MAX or its own times"},
      {" --vertex-times random:9 --edge-times 0", "--edge-times is for a homogeneous graph"},
      {" --vertex-times random:9 --type-budgets 8", "heterogeneous sampler hgt cannot sample by time (graphsage can)"}};
  for (const auto& [options, message] : mistakes)
    testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --temporal uniform" + options, dir), message);
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --vertex-times random:9", dir),
                                 "--vertex-times needs --temporal uniform|last");
}

TEST(HeteroCli, MistakesAreOneLineErrors) {
  const std::string dir = testing::scratch_dir("hetero_cli_errors");
  HeteroGraph types_only;
  types_only.types = {{"user", 3}};
  write_hetero_binary(dir + "/types_only.msg", types_only);
  testing::expect_one_line_error(testing::run_cli("bench -g " + dir + "/types_only.msg", dir),
                                 "types_only.msg has no relations to sample");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --relation-fanouts 'reviews=3,2'", dir),
                                 "unknown relation 'reviews'");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --seed-type venue", dir),
                                 "unknown vertex type 'venue'");
  testing::expect_one_line_error(testing::run_cli("info -g mag:1000 --blocks 2", dir),
                                 "mag:1000 is a heterogeneous graph: --blocks");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --sampler ladies", dir),
                                 "heterogeneous graphs are sampled by graphsage with the counts given");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --type-budgets 'paper=8;venue=4'", dir),
                                 "unknown vertex type 'venue'");
  testing::expect_one_line_error(
      testing::run_cli("bench -g mag:1000 --type-budgets 8 --relation-fanouts writes=3", dir), "give one");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:10", dir), "10 papers out of range");
  testing::expect_one_line_error(testing::run_cli("bench -g mag:1000 --sampler hgt", dir),
                                 "heterogeneous graphs are sampled by graphsage with the counts given");
  testing::expect_one_line_error(testing::run_cli("bench -g rmat:8 --sampler hgt", dir),
                                 "the hgt sampler samples heterogeneous graphs");
}

// The heterogeneous samplers are entries of the table --sampler takes.
TEST(HeteroCli, SamplerNamesTheHeterogeneousSampler) {
  const std::string dir = testing::scratch_dir("hetero_cli_sampler");
  const testing::CliResult named = testing::run_cli("bench -g mag:600 --sampler hgt --type-budgets 8,4 -b 32", dir);
  ASSERT_EQ(named.exit_code, 0) << named.err;
  const testing::CliResult counted = testing::run_cli("bench -g mag:600 --type-budgets 8,4 -b 32", dir);
  ASSERT_EQ(counted.exit_code, 0) << counted.err;
  EXPECT_NE(named.out.find("\"sampler\":\"hgt\""), std::string::npos) << named.out;
  EXPECT_EQ(json_field(named.out, "fingerprint"), json_field(counted.out, "fingerprint"));
  EXPECT_NE(json_field(named.out, "fingerprint"), "");
}

}  // namespace
}  // namespace matsamp
