// Edge features of OGB node-property datasets (raw/edge-feat.csv.gz, data.npz's
// edge_feat): each row follows its edge into the CSR, through duplicates,
// --symmetrize, self-loop removal and vertex subsets, into .msg (float32 and
// float16) and out again, array by array; every malformed part a one-line error.
#include <filesystem>
#include <map>
#include <utility>

#include <gtest/gtest.h>

#include "cli_runner.h"
#include "core/half.h"
#include "graph/transform.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/msg_container.h"
#include "io/npz.h"
#include "io/text_writer.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

namespace fs = std::filesystem;
using testing::expect_same_graph;
using testing::scratch_dir;
using testing::throws_error_with;
using Edge = std::pair<int64_t, int64_t>;
using Row = std::vector<float>;

constexpr int64_t kVertices = 6;
constexpr int64_t kDim = 3;

// Edges out of CSR order, a self loop, one edge in both directions and one
// listed twice (its second row must lose); row i of the features is distinct per
// edge and exact in float16 (multiples of 1/4 below 2048).
const std::vector<Edge> kEdges = {{3, 1}, {0, 2}, {2, 0}, {5, 5}, {1, 4}, {0, 1}, {3, 1}, {4, 3}};
Row edge_row(size_t i) { return {0.25f * static_cast<float>(i), -1.0f * static_cast<float>(i), 7.0f}; }

void write_text(const std::string& path, int64_t lines, const std::function<void(int64_t, std::string&)>& line) {
  write_lines(path, lines, line, true);
}

// An OGB folder in CSV form holding kEdges and their features.
std::string csv_dataset(const std::string& name) {
  const std::string dir = scratch_dir(name) + "/ogbn_edges";
  fs::create_directories(dir + "/raw");
  write_text(dir + "/raw/num-node-list.csv.gz", 1, [](int64_t, std::string& out) { out += "6\n"; });
  write_text(dir + "/raw/edge.csv.gz", static_cast<int64_t>(kEdges.size()), [](int64_t i, std::string& out) {
    append_number(out, kEdges[i].first), out += ',', append_number(out, kEdges[i].second), out += '\n';
  });
  write_text(dir + "/raw/edge-feat.csv.gz", static_cast<int64_t>(kEdges.size()), [](int64_t i, std::string& out) {
    const Row r = edge_row(static_cast<size_t>(i));
    for (size_t j = 0; j < r.size(); ++j) (j ? out += ',' : out), append_number(out, r[j]);
    out += '\n';
  });
  return dir;
}

// The row each stored edge should carry: its first listing's.
std::map<Edge, Row> first_rows() {
  std::map<Edge, Row> rows;
  for (size_t i = 0; i < kEdges.size(); ++i) rows.emplace(kEdges[i], edge_row(i));
  return rows;
}

Row row_of_entry(const Graph& g, int64_t e) {
  return Row(g.edge_features.begin() + e * g.edge_feature_dim, g.edge_features.begin() + (e + 1) * g.edge_feature_dim);
}

// Every entry (r, c) of g (ids mapped back through `original` when given)
// carries rows[(r, c)], or, when only the reverse was stored, rows[(c, r)].
void expect_rows_follow_entries(const Graph& g, const std::map<Edge, Row>& rows,
                                const std::vector<vid_t>& original = {}) {
  ASSERT_EQ(g.edge_feature_dim, kDim);
  ASSERT_EQ(static_cast<int64_t>(g.edge_features.size()), g.num_edges() * kDim);
  for (int64_t r = 0; r < g.num_vertices(); ++r)
    for (int64_t e = g.adj.rowptr[r]; e < g.adj.rowptr[r + 1]; ++e) {
      const int64_t u = original.empty() ? r : original[r];
      const int64_t v = original.empty() ? g.adj.colidx[e] : original[g.adj.colidx[e]];
      auto it = rows.find({u, v});
      if (it == rows.end()) it = rows.find({v, u});
      ASSERT_NE(it, rows.end()) << u << "," << v;
      EXPECT_EQ(row_of_entry(g, e), it->second) << "entry " << u << "," << v;
    }
}

TEST(OgbEdgeFeatures, CsvRowsFollowTheirEdgesIntoTheCsrFirstListingOfARepeatWins) {
  const Graph g = read_graph(csv_dataset("ogb_edge_csv"));
  EXPECT_EQ(g.num_edges(), 7);  // (3, 1) twice is one entry
  expect_rows_follow_entries(g, first_rows());
  // (3, 1) is entry 4 in CSR order: rows 0 (0,1) (0,2), 1 (1,4), 2 (2,0), 3 (3,1).
  EXPECT_EQ(g.adj.rowptr[3], 4);
  EXPECT_EQ(row_of_entry(g, 4), edge_row(0));
  EXPECT_EQ(g.adj.values[4], 2.0f);  // weights of a repeat add up, as without features
}

TEST(OgbEdgeFeatures, SymmetrizedCopiesCarryTheirOriginalsRowAndCleanupStepsKeepAlignment) {
  const Graph g = read_graph(csv_dataset("ogb_edge_sym"));
  const Graph sym = cleanup(g, {true, false, false});
  EXPECT_EQ(sym.num_edges(), 11);                 // 7 stored, (2,0)/(0,2) already both ways, (5,5) its own reverse
  expect_rows_follow_entries(sym, first_rows());  // (1,3) has (3,1)'s row; (0,2) and (2,0) keep their own
  const Graph no_loops = cleanup(g, {true, true, false});
  EXPECT_EQ(no_loops.num_edges(), 10);
  expect_rows_follow_entries(no_loops, first_rows());
  // Vertex 5 (only a self loop) is cut off: the rest is renumbered, rows still follow.
  const Graph component = cleanup(g, {true, true, true});
  EXPECT_EQ(component.num_vertices(), 5);
  expect_rows_follow_entries(component, first_rows(), {0, 1, 2, 3, 4});
  const std::vector<vid_t> some = {4, 1, 3};
  expect_rows_follow_entries(induced_subgraph(sym, some), first_rows(), some);
}

TEST(OgbEdgeFeatures, WrittenFolderAndMsgRoundTripFloat32AndFloat16) {
  Graph g = cleanup(read_graph(csv_dataset("ogb_edge_rt")), {true, false, false});
  g.adj.values.assign(g.num_edges(), 1.0f);  // OGB's edge.csv holds no weights (the repeat's 2)
  for (bool gzip : {true, false}) {
    const std::string dir = scratch_dir(gzip ? "ogb_edge_rt_gz" : "ogb_edge_rt_plain") + "/ogbn";
    OgbWriteOptions options;
    options.gzip = gzip;
    write_ogb_node_dataset(dir, g, options);
    EXPECT_TRUE(fs::exists(dir + (gzip ? "/raw/edge-feat.csv.gz" : "/raw/edge-feat.csv")));
    expect_same_graph(read_graph(dir), g);
  }
  const std::string dir = scratch_dir("ogb_edge_msg");
  write_binary_csr(dir + "/f32.msg", g);
  write_binary_csr(dir + "/f16.msg", g, FeatureType::float16);
  expect_same_graph(read_graph(dir + "/f32.msg"), g);
  expect_same_graph(read_graph(dir + "/f16.msg"), g);  // every value is exact in float16
  const BinaryCsrInfo single = read_binary_csr_info(dir + "/f32.msg"), half = read_binary_csr_info(dir + "/f16.msg");
  EXPECT_EQ(single.edge_feature_dim, kDim);
  EXPECT_EQ(single.edge_feature_type, FeatureType::float32);
  EXPECT_EQ(half.edge_feature_type, FeatureType::float16);
  std::map<std::string, uint64_t> bytes;
  for (const BinarySection& s : read_binary_csr_sections(dir + "/f16.msg")) bytes[s.name] = s.bytes;
  EXPECT_EQ(bytes["edge_features_f16"], 2u * 11 * kDim);
  EXPECT_EQ(bytes.count("edge_features"), 0u);

  // float16 rounds what it cannot hold, and refuses what is out of its range.
  Graph inexact = g;
  inexact.edge_features[5] = 0.1f;
  EXPECT_EQ(read_binary_csr((write_binary_csr(dir + "/r.msg", inexact, FeatureType::float16), dir + "/r.msg"))
                .edge_features[5],
            half_to_float(float_to_half(0.1f)));
  inexact.edge_features[5] = 1e6f;
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/big.msg", inexact, FeatureType::float16); },
                                {"feature 2 of edge 1 is 1e+06", "beyond float16's range"}));
}

TEST(OgbEdgeFeatures, NpzFormReadsEdgeFeatInEdgeOrder) {
  const std::string dir = scratch_dir("ogb_edge_npz") + "/papers";
  fs::create_directories(dir + "/raw");
  auto write_data = [&](int64_t rows, int64_t dim) {
    std::vector<int64_t> edge_index(2 * kEdges.size());
    std::vector<float> feat;
    for (size_t i = 0; i < kEdges.size(); ++i) {
      edge_index[i] = kEdges[i].first, edge_index[kEdges.size() + i] = kEdges[i].second;
      if (static_cast<int64_t>(i) < rows) {
        Row r = edge_row(i);
        r.resize(dim, 3.0f);
        feat.insert(feat.end(), r.begin(), r.end());
      }
    }
    NpzWriter data;
    data.add("edge_index", edge_index, {2, static_cast<int64_t>(kEdges.size())});
    data.add("edge_feat", feat, {rows, dim});
    data.add("num_nodes_list", std::vector<int64_t>{kVertices});
    data.write(dir + "/raw/data.npz");
  };
  write_data(static_cast<int64_t>(kEdges.size()), kDim);
  const Graph g = read_graph(dir);
  expect_rows_follow_entries(g, first_rows());
  expect_same_graph(read_graph(csv_dataset("ogb_edge_npz_csv")), g);
  write_data(static_cast<int64_t>(kEdges.size()) - 1, kDim);
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); },
                                {dir + "/raw/data.npz: field edge_feat: expected shape (8, d) with d >= 1"}));
}

// Each broken edge-feat file: one line naming the file (and line), and convert writes nothing.
TEST(OgbEdgeFeatures, BrokenEdgeFeatFilesAreOneLineErrorsAndWriteNothing) {
  struct Case {
    std::string text, error;
  };
  const std::vector<Case> cases = {
      {"1,2,3\n", "raw/edge-feat.csv.gz: 1 feature rows for 8 edges"},
      {"1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n1,2,3\n",
       "raw/edge-feat.csv.gz:9: more than the 8 feature rows expected (one per edge)"},
      {"1,2,3\n1,2\n", "raw/edge-feat.csv.gz:2: expected 3 feature values (as on line 1), found 2"},
      {"1,2,3\n1,x,3\n", "raw/edge-feat.csv.gz:2: feature value 'x' is not a number"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string dir = csv_dataset("ogb_edge_bad" + std::to_string(i));
    const std::string text = cases[i].text;
    write_text(dir + "/raw/edge-feat.csv.gz", 1, [&](int64_t, std::string& out) { out += text; });
    EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {dir + "/" + cases[i].error})) << i;
    const auto r = testing::run_cli("convert -g " + dir + " -o " + dir + "/out.msg", dir);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(cases[i].error), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir + "/out.msg"));
  }
}

TEST(OgbEdgeFeatures, MsgWhoseEdgeFeatureSectionsDisagreeIsCorrupt) {
  const std::string path = scratch_dir("ogb_edge_corrupt") + "/d.msg";
  const std::vector<int64_t> rowptr = {0, 1, 1};
  const std::vector<col_t> colidx = {1};
  const std::vector<float> feat = {1, 2};
  const int64_t dim = 2, wrong = 3;
  auto write = [&](std::vector<msg::Part> extra) {
    std::vector<msg::Part> parts = {{"rowptr", rowptr.data(), 24}, {"colidx", colidx.data(), 4}};
    parts.insert(parts.end(), extra.begin(), extra.end());
    msg::write_file(path, msg::kGraphVersion, 2, 1, 0, parts);
  };
  write({{"edge_features", feat.data(), 8}});
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); },
                                {path, "edge_feature_dim: 0 disagrees with the edge features section"}));
  write({{"edge_feature_dim", &wrong, 8}, {"edge_features", feat.data(), 8}});
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {"section edge_features has 8 bytes, expected 12"}));
  write({{"edge_feature_dim", &dim, 8}, {"edge_features", feat.data(), 8}, {"edge_features_f16", feat.data(), 4}});
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {"edge features stored twice"}));
}

// --edge-weights COLUMN: each entry weighs its edge feature in that column;
// a missing column or a negative weight is a one-line error.
TEST(OgbEdgeFeatures, EdgeWeightsComeFromAColumn) {
  const std::string dir = csv_dataset("ogb_edge_weights");
  Graph g = read_graph(dir);
  weigh_by_edge_feature(g, 0);
  for (int64_t e = 0; e < g.num_edges(); ++e) EXPECT_EQ(g.adj.values[e], row_of_entry(g, e)[0]);
  EXPECT_TRUE(throws_error_with([&] { weigh_by_edge_feature(g, 3); },
                                {"edge weights: column 3 is not one of the graph's 3 edge feature columns [0, 3)"}));
  EXPECT_TRUE(throws_error_with([&] { weigh_by_edge_feature(g, 1); }, {"has weight -", "column 1"}));
  Graph plain = g;
  plain.edge_features.clear();
  plain.edge_feature_dim = 0;
  EXPECT_TRUE(throws_error_with([&] { weigh_by_edge_feature(plain, 0); }, {"the graph has no edge features"}));
  auto r = testing::run_cli("bench -g " + dir + " --edge-weights 2 --fanouts 2 -b 2", dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = testing::run_cli("bench -g " + dir + " --edge-weights 1 --fanouts 2 -b 2", dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("weights must be finite and non-negative"), std::string::npos) << r.err;
}

// --edge-times COLUMN: each neighbour is as late as its edge (column 1 holds -i,
// earlier than every seed; column 2 holds 7, later than every seed of times in
// [0, 5)); a column of fractions is refused in one line.
TEST(OgbEdgeFeatures, EdgeTimesComeFromAColumn) {
  const std::string dir = csv_dataset("ogb_edge_times");
  const Graph g = read_graph(dir);
  const std::vector<int64_t> times = edge_times_from_feature(g, 1);
  for (int64_t e = 0; e < g.num_edges(); ++e) EXPECT_EQ(times[e], static_cast<int64_t>(row_of_entry(g, e)[1]));
  EXPECT_TRUE(
      throws_error_with([&] { edge_times_from_feature(g, 0); }, {"edge times: entry ", "times must be integers"}));
  EXPECT_TRUE(throws_error_with([&] { edge_times_from_feature(g, 3); },
                                {"edge times: column 3 is not one of the graph's 3 edge feature columns [0, 3)"}));
  const std::string bench = "bench -g " + dir + " --fanouts 3,3 -b 2 --temporal uniform --vertex-times random:5 ";
  const auto sampled_edges = [](const std::string& json) {
    const size_t at = json.find("\"sampled_edges\":");
    return at == std::string::npos ? int64_t{-1} : std::stoll(json.substr(at + 16));
  };
  auto early = testing::run_cli(bench + "--edge-times 1", dir);
  ASSERT_EQ(early.exit_code, 0) << early.err;
  EXPECT_NE(early.out.find("\"edge_times_column\":1"), std::string::npos) << early.out;
  EXPECT_GT(sampled_edges(early.out), 0) << early.out;
  auto late = testing::run_cli(bench + "--edge-times 2", dir);
  ASSERT_EQ(late.exit_code, 0) << late.err;
  EXPECT_EQ(sampled_edges(late.out), 0) << late.out;
  auto fractions = testing::run_cli(bench + "--edge-times 0", dir);
  EXPECT_NE(fractions.exit_code, 0);
  EXPECT_NE(fractions.err.find("times must be integers"), std::string::npos) << fractions.err;
  auto untimed = testing::run_cli("bench -g " + dir + " --fanouts 3 -b 2 --edge-times 1", dir);
  EXPECT_NE(untimed.err.find("--edge-times needs --temporal uniform|last"), std::string::npos) << untimed.err;
}

TEST(OgbEdgeFeatures, InfoReportsCountDimAndStoredType) {
  const std::string dir = csv_dataset("ogb_edge_info");
  auto r = testing::run_cli("info -g " + dir, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"edge_features\":7,\"edge_feature_dim\":3"), std::string::npos) << r.out;
  r = testing::run_cli("convert -g " + dir + " --symmetrize --features-dtype float16 -o " + dir + "/d.msg", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(", edge features"), std::string::npos) << r.out;
  r = testing::run_cli("info -g " + dir + "/d.msg", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"edge_features\":11,\"edge_feature_dim\":3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"edge_feature_dtype\":\"float16\""), std::string::npos) << r.out;
  r = testing::run_cli("info -g " + dir + "/raw/edge.csv.gz", dir);  // a plain edge list has none
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"edge_features\":0,\"edge_feature_dim\":0"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace matsamp
