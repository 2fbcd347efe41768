// OGB node-property datasets in the folders OGB ships: the CSV form (gzip or
// not) and the npz form, written here from generated graphs, read back array by
// array, kept whole in .msg, and every malformed part a one-line error.
#include <cmath>
#include <filesystem>
#include <limits>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "io/text_writer.h"
#include "io_test_helpers.h"
#include "split_dataset.h"
#include "test_data.h"

namespace matsamp {
namespace {

namespace fs = std::filesystem;
using testing::scratch_dir;
using testing::throws_error_with;
using testing::write_file;

// A directed graph with features, some unlabelled vertices and a split.
Graph dataset(int64_t n = 300) {
  PlantedPartitionOptions o;
  o.vertices = n;
  o.classes = 4;
  o.average_degree = 6;
  o.feature_dim = 5;
  o.seed = 7;
  Graph g = generate_planted_partition(o);
  for (int64_t v = 0; v < n; v += 10) g.labels[v] = -1;
  for (int64_t v = 0; v < n; ++v)
    (v % 5 == 0 ? g.splits["test"] : v % 5 == 1 ? g.splits["valid"] : g.splits["train"]).push_back(v);
  return g;
}

// The split as a reader returns it: without the unlabelled vertices.
std::map<std::string, std::vector<vid_t>> labelled_split(const Graph& g) {
  auto out = g.splits;
  for (auto& [name, ids] : out)
    ids.erase(std::remove_if(ids.begin(), ids.end(), [&](vid_t v) { return g.labels[v] < 0; }), ids.end());
  return out;
}

void expect_same_dataset(const Graph& got, const Graph& want) {
  EXPECT_EQ(got.adj.rowptr, want.adj.rowptr);
  EXPECT_EQ(got.adj.colidx, want.adj.colidx);
  EXPECT_EQ(got.feature_dim, want.feature_dim);
  EXPECT_EQ(got.features, want.features);  // shortest round-trip text: exact
  EXPECT_EQ(got.labels, want.labels);
  EXPECT_EQ(got.splits, labelled_split(want));
}

TEST(OgbDataset, CsvFormRoundTripsGzipAndPlain) {
  const Graph g = dataset();
  for (bool gzip : {true, false}) {
    const std::string dir = scratch_dir(gzip ? "ogb_csv_gz" : "ogb_csv") + "/ogbn_made";
    OgbWriteOptions options;
    options.gzip = gzip;
    options.split_scheme = "time";
    write_ogb_node_dataset(dir, g, options);
    EXPECT_TRUE(fs::exists(dir + (gzip ? "/raw/edge.csv.gz" : "/raw/edge.csv")));
    EXPECT_TRUE(fs::exists(dir + (gzip ? "/split/time/train.csv.gz" : "/split/time/train.csv")));
    EXPECT_TRUE(is_ogb_node_dataset(dir));
    expect_same_dataset(read_graph(dir), g);

    // Kept whole by .msg.
    const std::string msg = dir + "/../d.msg";
    write_binary_csr(msg, read_graph(dir));
    expect_same_dataset(read_graph(msg), g);
  }
}

TEST(OgbDataset, NpzFormAsPapers100MShipsIt) {
  const Graph g = dataset(200);
  const std::string dir = scratch_dir("ogb_npz") + "/ogbn_papers";
  fs::create_directories(dir + "/raw");
  std::vector<int64_t> edge_index(2 * g.num_edges());
  for (int64_t r = 0; r < g.num_vertices(); ++r)
    for (int64_t e = g.adj.rowptr[r]; e < g.adj.rowptr[r + 1]; ++e)
      edge_index[e] = r, edge_index[g.num_edges() + e] = g.adj.colidx[e];
  NpzWriter data;
  data.add("edge_index", edge_index, {2, g.num_edges()});
  data.add("node_feat", g.features, {g.num_vertices(), g.feature_dim});
  data.add("num_nodes_list", std::vector<int64_t>{g.num_vertices()});
  data.add("num_edges_list", std::vector<int64_t>{g.num_edges()});
  data.write(dir + "/raw/data.npz");
  std::vector<float> labels(g.num_vertices());
  for (int64_t v = 0; v < g.num_vertices(); ++v)
    labels[v] = g.labels[v] < 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(g.labels[v]);
  NpzWriter label_file;
  label_file.add("node_label", labels, {g.num_vertices(), 1});
  label_file.write(dir + "/raw/node-label.npz");
  fs::create_directories(dir + "/split/time");
  for (const auto& set : g.splits) {  // all vertices, NaN-labelled ones too: the reader drops those
    const std::vector<vid_t>& ids = set.second;
    write_lines(
        dir + "/split/time/" + set.first + ".csv.gz", static_cast<int64_t>(ids.size()),
        [&](int64_t i, std::string& out) { append_number(out, ids[i]), out += '\n'; }, true);
  }
  expect_same_dataset(read_graph(dir), g);
  write_binary_csr(dir + "/../d.msg", read_graph(dir));
  expect_same_dataset(read_graph(dir + "/../d.msg"), g);
}

// The npz form's broken arrays: each a one-line error naming the file and field.
TEST(OgbDataset, NpzFormBrokenArraysAreOneLineErrors) {
  const std::string dir = scratch_dir("ogb_npz_bad") + "/d";
  fs::create_directories(dir + "/raw");
  const std::string data = dir + "/raw/data.npz", labels = dir + "/raw/node-label.npz";
  auto write_data = [&](std::vector<int64_t> edges, std::vector<int64_t> shape, int64_t nodes, int64_t declared_edges,
                        std::vector<int64_t> feature_shape) {
    NpzWriter w;
    w.add("edge_index", edges, std::move(shape));
    w.add("num_nodes_list", std::vector<int64_t>{nodes});
    w.add("num_edges_list", std::vector<int64_t>{declared_edges});
    std::vector<float> features(feature_shape[0] * feature_shape[1], 1.0f);
    w.add("node_feat", features, std::move(feature_shape));
    w.write(data);
    fs::remove(labels);
  };
  write_data({0, 1, 1, 2, 0, 0}, {3, 2}, 3, 2, {3, 2});
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {data + ": field edge_index: expected shape (2, E)"}));
  write_data({0, 1, 1, 2}, {2, 2}, 3, 5, {3, 2});
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"2 edges, but num_edges_list says 5"}));
  write_data({0, 1, 1, 3}, {2, 2}, 3, 2, {3, 2});
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"vertex id 3 at 1 out of range [0, 3)"}));
  write_data({0, 1, 1, 2}, {2, 2}, 3, 2, {4, 2});
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {data + ": field node_feat: expected shape (3, d)"}));
  write_data({0, 1, 1, 2}, {2, 2}, 3, 2, {3, 2});
  NpzWriter two_columns;
  two_columns.add("node_label", std::vector<float>(6, 1.0f), {3, 2});
  two_columns.write(labels);
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"2 label columns; only one label per vertex"}));
  NpzWriter fractional;
  fractional.add("node_label", std::vector<float>{0.0f, 1.5f, 2.0f}, {3, 1});
  fractional.write(labels);
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"label 1.5 of vertex 1 is not a non-negative integer"}));
}

// Column files past what the dataset declares: one line naming file and line.
TEST(OgbDataset, ColumnFilesLongerThanDeclaredAreErrors) {
  const Graph g = dataset(8);
  const std::string root = scratch_dir("ogb_columns");
  std::string nine_rows, nine_labels;
  for (int i = 0; i < 9; ++i) nine_rows += "1,2,3,4,5\n", nine_labels += "1\n";
  const std::vector<std::pair<std::string, std::string>> cases = {{"raw/node-feat.csv.gz", nine_rows},
                                                                  {"raw/node-label.csv.gz", nine_labels},
                                                                  {"raw/node-label.csv.gz", "1,2\n"},
                                                                  {"raw/num-node-list.csv.gz", "8\n8\n"},
                                                                  {"raw/num-node-list.csv.gz", "-8\n"}};
  const std::vector<std::string> errors = {
      "node-feat.csv.gz:9: more than the 8 feature rows expected",
      "node-label.csv.gz:9: more than the 8 labels expected", "node-label.csv.gz:1: 2 label columns",
      "num-node-list.csv.gz:2: more than one graph", "num-node-list.csv.gz:1: count -8 is negative"};
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string dir = root + "/d" + std::to_string(i);
    write_ogb_node_dataset(dir, g);
    const std::string text = cases[i].second;
    write_lines(
        dir + "/" + cases[i].first, 1, [&](int64_t, std::string& out) { out += text; }, true);
    EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {errors[i]})) << cases[i].first;
  }
  testing::expect_error([] { parse_value_mode("magnitude"); },
                        "unknown value mode 'magnitude' (given, pattern or abs)");
}

// Each broken part of a dataset: the error names the file (and line), and
// convert writes nothing.
TEST(OgbDataset, BrokenPartsAreOneLineErrorsNamingFileAndLine) {
  const Graph g = dataset(50);
  const std::string root = scratch_dir("ogb_bad");
  struct Case {
    std::string file, text, error;  // file under the dataset, its new text ("" = removed), a part of the error
  };
  const std::vector<Case> cases = {
      {"raw/edge.csv.gz", "", "raw/edge.csv.gz: missing"},
      {"raw/num-node-list.csv.gz", "", "raw/num-node-list.csv.gz: missing"},
      {"raw/edge.csv.gz", "0,1\n0,1,2,3\n", "raw/edge.csv.gz:2: expected 'src dst'"},
      {"raw/edge.csv.gz", "0,1\n0,50\n", "raw/edge.csv.gz: vertex id 50 out of range [0, 50)"},
      {"raw/num-edge-list.csv.gz", "7\n", "edges, but num-edge-list says 7"},
      {"raw/node-feat.csv.gz", "1,2,3,4,5\n1,2,3,4\n", "raw/node-feat.csv.gz:2: expected 5 feature values"},
      {"raw/node-feat.csv.gz", "1,2,3,4,x\n", "raw/node-feat.csv.gz:1: feature value 'x' is not a number"},
      {"raw/node-feat.csv.gz", "1,2,3,4,5\n", "raw/node-feat.csv.gz: 1 feature rows for 50 vertices"},
      {"raw/node-label.csv.gz", "-2\n", "raw/node-label.csv.gz:1: label -2 is not a non-negative integer"},
      {"raw/node-label.csv.gz", "1\n2\n", "raw/node-label.csv.gz: 2 labels for 50 vertices"},
      {"split/given/train.csv.gz", "3\n50\n", "split/given/train.csv.gz:2: vertex id 50 out of range [0, 50)"},
      {"split/given/valid.csv.gz", "", "split/given/valid.csv.gz: missing"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string dir = root + "/d" + std::to_string(i);
    write_ogb_node_dataset(dir, g);
    const std::string path = dir + "/" + cases[i].file;
    fs::remove(path);
    if (!cases[i].text.empty()) {
      const std::string text = cases[i].text;
      write_lines(
          path, 1, [&](int64_t, std::string& out) { out += text; }, true);
    }
    EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {cases[i].error})) << cases[i].file;
    const auto r = testing::run_cli("convert -g " + dir + " -o " + dir + "/out.msg", root);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(cases[i].error), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/out.msg"));
  }
  // A truncated gzip member.
  const std::string dir = root + "/cut";
  write_ogb_node_dataset(dir, dataset(3000));
  const std::string feat = dir + "/raw/node-feat.csv.gz";
  const std::string bytes = testing::read_all(feat);
  testing::overwrite(feat, bytes.substr(0, bytes.size() / 2));
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {feat + ": gzip stream truncated"}));
  EXPECT_TRUE(throws_error_with([&] { read_graph(root); }, {"not a regular file", "OGB's layout"}));
}

// From the CLI: a dataset folder converts and samples (train_tests train on it).
// raw/node_year.csv (ogbn-arxiv's) is the vertices' times: read, kept by .msg,
// written back, and what --temporal samples by (train's use: TrainCli.TrainsByTime).
TEST(OgbDataset, NodeYearsAreVertexTimes) {
  const std::string root = scratch_dir("ogb_years");
  const std::string dir = root + "/ogbn_years";
  Graph g = dataset();
  g.vertex_times.resize(g.num_vertices());
  for (int64_t v = 0; v < g.num_vertices(); ++v) g.vertex_times[v] = 2000 + (v * 13) % 20;
  write_ogb_node_dataset(dir, g);
  EXPECT_TRUE(fs::exists(dir + "/raw/node_year.csv.gz"));
  const Graph read = read_graph(dir);
  EXPECT_EQ(read.vertex_times, g.vertex_times);
  write_binary_csr(root + "/d.msg", read);
  EXPECT_EQ(read_graph(root + "/d.msg").vertex_times, g.vertex_times);

  auto r = testing::run_cli("info -g " + root + "/d.msg", root);
  EXPECT_NE(r.out.find("\"vertex_times\":true"), std::string::npos) << r.out;
  r = testing::run_cli("bench -g " + dir + " --fanouts 3,2 -b 32 --temporal uniform", root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"vertex_times\":\"graph\""), std::string::npos) << r.out;

  write_file(dir + "/raw", "node_year.csv", "2001\n2002\n");
  fs::remove(dir + "/raw/node_year.csv.gz");
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"node_year.csv", "2 year values for 300 vertices"}));
}

TEST(OgbDataset, ConvertsAndSamplesFromTheCli) {
  const std::string root = scratch_dir("ogb_cli");
  const std::string dir = root + "/ogbn_made";
  write_ogb_node_dataset(dir, testing::split_dataset());

  auto r = testing::run_cli("convert -g " + dir + " -o " + root + "/d.msg", root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(", split"), std::string::npos) << r.out;
  r = testing::run_cli("info -g " + root + "/d.msg", root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"split\":{\"test\":120,\"train\":360,\"valid\":120}"), std::string::npos) << r.out;
  r = testing::run_cli("sample -g " + dir + " --fanouts 3,2 -b 64 --out " + root + "/mb", root);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace matsamp
