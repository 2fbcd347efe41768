// Link prediction's training side: OGB's metrics on hand-computed cases, the
// random edge split, OGB link datasets' own splits, and `matsamp train --task link`
// as a user runs it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "cli_runner.h"
#include "error_checks.h"
#include "generate/generators.h"
#include "graph/transform.h"
#include "io/graph_io.h"
#include "io/torch_save.h"
#include "sampling_checks.h"
#include "test_data.h"
#include "train/edge_split.h"
#include "train/link_metrics.h"
#include "train/ogb_link_split.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/serialize.h>
#include <torch/torch.h>

namespace matsamp {
namespace {

TEST(LinkMetrics, MatchHandComputedCases) {
  // Positives 0.9, 0.4; negatives 0.5, 0.4, 0.1: pairs won 3 + 1.5 (a tie) of 6.
  EXPECT_DOUBLE_EQ(roc_auc({0.9f, 0.4f}, {0.5f, 0.4f, 0.1f}), 4.5 / 6);
  EXPECT_DOUBLE_EQ(roc_auc({1, 2}, {0}), 1.0);
  // Hits@K: above the K-th highest negative (0.5 for K = 1, 0.4 for K = 2).
  EXPECT_DOUBLE_EQ(hits_at_k({0.9f, 0.4f}, {0.5f, 0.4f, 0.1f}, 1), 0.5);
  EXPECT_DOUBLE_EQ(hits_at_k({0.9f, 0.45f}, {0.5f, 0.4f, 0.1f}, 2), 1.0);
  EXPECT_DOUBLE_EQ(hits_at_k({0.0f}, {0.5f}, 3), 1.0);  // fewer negatives than K
  // Per-source ranks: positive 0.5 among 0.9, 0.5, 0.1 -> 1 + 1 + 0.5; positive 1 among 0, 0, 0 -> 1.
  const std::vector<double> ranks = ranks_among_own_negatives({0.5f, 1.0f}, {0.9f, 0.5f, 0.1f, 0, 0, 0});
  EXPECT_EQ(ranks, (std::vector<double>{2.5, 1.0}));
  EXPECT_DOUBLE_EQ(mean_reciprocal_rank(ranks), (1 / 2.5 + 1) / 2);
  EXPECT_DOUBLE_EQ(hits_at_k_per_source(ranks, 2), 0.5);
  EXPECT_THROW(ranks_among_own_negatives({1, 2}, {1, 2, 3}), Error);
  EXPECT_THROW(roc_auc({}, {1}), Error);
}

TEST(EdgeSplit, SplitsEachUndirectedEdgeOnceAndTrainsOnlyOnTrainingEdges) {
  Graph g = read_graph(testing::data_file("cora.npz"));
  g.adj = symmetrize(drop_self_loops(g.adj));  // as train's clean-up leaves it
  const EdgeSplit s = split_edges(g.adj, {0.05, 0.10, 3, 20});
  ASSERT_TRUE(s.undirected);
  const int64_t undirected = g.adj.nnz() / 2;
  EXPECT_EQ(s.train.size() + s.validation.size() + s.test.size(), undirected);
  EXPECT_EQ(s.validation.size(), static_cast<int64_t>(0.05 * undirected));
  EXPECT_EQ(s.test.size(), static_cast<int64_t>(0.10 * undirected));
  std::set<std::pair<vid_t, vid_t>> seen;
  for (const EdgeSet* set : {&s.train, &s.validation, &s.test})
    for (int64_t e = 0; e < set->size(); ++e) {
      EXPECT_TRUE(seen.insert({set->sources[e], set->destinations[e]}).second) << "an edge in two sets";
      EXPECT_TRUE(testing::has_entry(g.adj, set->sources[e], set->destinations[e]));
    }
  // The training graph: exactly the training edges, both ways.
  EXPECT_EQ(s.train_graph.nnz(), 2 * s.train.size());
  for (int64_t e = 0; e < s.test.size(); ++e)
    EXPECT_FALSE(testing::has_entry(s.train_graph, s.test.sources[e], s.test.destinations[e]));
  // Fixed negatives: not edges of the whole graph, the same for the same seed.
  ASSERT_EQ(s.test_negatives.size(), 20 * s.test.size());
  for (int64_t i = 0; i < s.test_negatives.size(); ++i) {
    EXPECT_EQ(s.test_negatives.sources[i], s.test.sources[i / 20]);
    EXPECT_FALSE(testing::has_entry(g.adj, s.test.sources[i / 20], s.test_negatives.destinations[i]));
  }
  const EdgeSplit again = split_edges(g.adj, {0.05, 0.10, 3, 20});
  EXPECT_EQ(again.test.sources, s.test.sources);
  EXPECT_EQ(again.test_negatives.destinations, s.test_negatives.destinations);
  EXPECT_NE(split_edges(g.adj, {0.05, 0.10, 4, 20}).test.sources, s.test.sources);
  EXPECT_THROW(split_edges(g.adj, {0.5, 0.5, 0, 1}), Error);
  // A directed graph: each edge once, the training graph one way.
  const EdgeSplit directed = split_edges(read_graph(testing::data_file("cora.npz")).adj, {0.05, 0.10, 3, 1});
  EXPECT_FALSE(directed.undirected);
  EXPECT_EQ(directed.train_graph.nnz(), directed.train.size());
}

TEST(LinkCli, TrainsOnCoraAndScoresTheTestEdges) {
  const std::string dir = testing::scratch_dir("link_cli");
  const testing::CliResult r =
      testing::run_cli("train --task link -g " + testing::data_file("cora.npz") +
                           " --fanouts 10,10 -b 256 --epochs 25 --hidden 64 --dropout 0 --torch-threads 2",
                       dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::count_lines(r.out), 26) << r.out;
  const size_t at = r.out.find("\"summary\":true");
  ASSERT_NE(at, std::string::npos) << r.out;
  const size_t test = r.out.find("\"test\":{\"auc\":", at);
  ASSERT_NE(test, std::string::npos) << r.out;
  const double auc = std::stod(r.out.substr(test + 14));
  EXPECT_GT(auc, 0.85) << r.out.substr(at);  // a random scorer gives 0.5
  EXPECT_NE(r.err.find("link prediction on"), std::string::npos);
}

TEST(LinkCli, CheckpointsAndResumes) {
  const std::string dir = testing::scratch_dir("link_cli_resume");
  const std::string command = "train --task link -g planted:300:4 --fanouts 5,5 -b 64 --hidden 16 --torch-threads 1";
  const testing::CliResult first = testing::run_cli(command + " --epochs 2 --checkpoint " + dir + "/link.pt", dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const testing::CliResult straight = testing::run_cli(command + " --epochs 3", dir);
  const testing::CliResult resumed = testing::run_cli(command + " --epochs 3 --resume " + dir + "/link.pt", dir);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resumed from " + dir + "/link.pt at epoch 2"), std::string::npos) << resumed.err;
  EXPECT_EQ(testing::count_lines(resumed.out), 2) << resumed.out;  // epoch 2 and the summary
  // The third epoch's line, times aside, is the one of a run that never stopped.
  const auto loss_of = [](const std::string& out) {
    const size_t at = out.find("{\"epoch\":2,");
    return at == std::string::npos ? std::string("missing")
                                   : out.substr(at, out.find("\"peak_memory_bytes\"", at) - at);
  };
  EXPECT_EQ(loss_of(resumed.out), loss_of(straight.out));
  EXPECT_NE(loss_of(straight.out), "missing") << straight.out;
  // A node-classification checkpoint is not a link one.
  ASSERT_EQ(testing::run_cli("train -g planted:300:4 --epochs 1 --checkpoint " + dir + "/node.pt", dir).exit_code, 0);
  testing::expect_one_line_error(testing::run_cli(command + " --epochs 3 --resume " + dir + "/node.pt", dir),
                                 "belongs to another run");
}

// An OGB link dataset as it ships: raw/ holds the training graph, split/<scheme>/
// {train,valid,test}.pt the positives and the negatives of each set, written by
// torch.save (torch::pickle_save writes the same zip archive), in one of OGB's two
// layouts: 'edge' / 'edge_neg' pairs (a shared pool), or 'source_node',
// 'target_node' and 'target_node_neg' (k per source).
struct OgbLinkFolder {
  std::string folder;
  EdgeSplit split;  // what was written
};

void save_pt(const std::string& path, const std::vector<std::pair<std::string, torch::Tensor>>& entries) {
  c10::Dict<std::string, torch::Tensor> dict;
  for (const auto& [key, value] : entries) dict.insert(key, value);
  const std::vector<char> bytes = torch::pickle_save(dict);
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

torch::Tensor pairs_tensor(const EdgeSet& edges) {
  torch::Tensor t = torch::empty({edges.size(), 2}, torch::kLong);
  for (int64_t e = 0; e < edges.size(); ++e) {
    t[e][0] = static_cast<int64_t>(edges.sources[e]);
    t[e][1] = static_cast<int64_t>(edges.destinations[e]);
  }
  return t;
}

torch::Tensor ids_tensor(const std::vector<vid_t>& ids) {
  return torch::tensor(std::vector<int64_t>(ids.begin(), ids.end()), torch::kLong);
}

OgbLinkFolder write_ogb_link_folder(const std::string& dir, bool per_source) {
  PlantedPartitionOptions planted;
  planted.vertices = 400;
  planted.feature_dim = 16;
  Graph g = generate_planted_partition(planted);
  OgbLinkFolder out{dir + (per_source ? "/ogbl_citation_toy" : "/ogbl_collab_toy"),
                    split_edges(g.adj, {0.1, 0.1, 2, 3})};
  g.adj = out.split.train_graph;  // OGB's graph holds the training edges only
  write_ogb_node_dataset(out.folder, g);
  const std::string scheme = out.folder + "/split/" + (per_source ? "time" : "collab");
  std::filesystem::create_directories(scheme);
  const auto write = [&](const std::string& name, const EdgeSet& positives, const EdgeSet* negatives) {
    if (!per_source) {
      std::vector<std::pair<std::string, torch::Tensor>> entries{{"edge", pairs_tensor(positives)},
                                                                 {"weight", torch::ones({positives.size()})}};
      if (negatives) entries.emplace_back("edge_neg", pairs_tensor(*negatives));
      return save_pt(scheme + "/" + name, entries);
    }
    std::vector<std::pair<std::string, torch::Tensor>> entries{{"source_node", ids_tensor(positives.sources)},
                                                               {"target_node", ids_tensor(positives.destinations)}};
    if (negatives) entries.emplace_back("target_node_neg", ids_tensor(negatives->destinations).view({-1, 3}));
    save_pt(scheme + "/" + name, entries);
  };
  write("train.pt", out.split.train, nullptr);
  write("valid.pt", out.split.validation, &out.split.validation_negatives);
  write("test.pt", out.split.test, &out.split.test_negatives);
  return out;
}

void expect_same_edges(const EdgeSet& got, const EdgeSet& expected, const std::string& what) {
  EXPECT_EQ(got.sources, expected.sources) << what;
  EXPECT_EQ(got.destinations, expected.destinations) << what;
}

TEST(OgbLinkSplit, ReadsBothLayoutsAsWritten) {
  const std::string dir = testing::scratch_dir("ogb_link_split");
  for (bool per_source : {false, true}) {
    const OgbLinkFolder written = write_ogb_link_folder(dir, per_source);
    const std::string train_pt = ogb_pickled_split(written.folder);
    ASSERT_FALSE(train_pt.empty());
    const Graph g = read_graph(written.folder);
    const EdgeSplit read = read_ogb_link_split(train_pt, g.adj);
    EXPECT_TRUE(read.undirected);
    EXPECT_EQ(read.train_graph.colidx, written.split.train_graph.colidx);
    expect_same_edges(read.train, written.split.train, "train");
    expect_same_edges(read.validation, written.split.validation, "validation");
    expect_same_edges(read.test, written.split.test, "test");
    expect_same_edges(read.validation_negatives, written.split.validation_negatives, "validation negatives");
    expect_same_edges(read.test_negatives, written.split.test_negatives, "test negatives");
    EXPECT_EQ(read.evaluation_negatives, per_source ? 3 : 0) << "a pool of pairs has no per-source ranks";
  }
}

// What torch.save holds besides contiguous int64 tensors, read as torch reads it: other
// integer types and views (a transpose, a slice of a longer storage); other dtypes named.
TEST(OgbLinkSplit, ReadsViewsAndOtherIntegerTypes) {
  const std::string dir = testing::scratch_dir("ogb_link_views"), path = dir + "/views.pt";
  const std::vector<std::pair<std::string, torch::Tensor>> saved{
      {"transposed", torch::arange(12, torch::kLong).view({3, 4}).t()},
      {"slice", torch::arange(10, torch::kInt).slice(0, 2, 5)},
      {"bytes", torch::tensor({0, 255}, torch::kUInt8)},
      {"shorts", torch::tensor({-7, 300}, torch::kShort)},
      {"chars", torch::tensor({-3}, torch::kChar)},
      {"empty", torch::zeros({0, 2}, torch::kLong)}};
  save_pt(path, saved);
  const auto read = read_saved_tensors(path);
  for (const auto& [key, tensor] : saved) {
    const SavedTensor& t = read.at(key);
    EXPECT_EQ(t.shape, tensor.sizes().vec()) << key;
    const torch::Tensor values = tensor.contiguous().to(torch::kLong);
    EXPECT_EQ(t.values, std::vector<int64_t>(values.data_ptr<int64_t>(), values.data_ptr<int64_t>() + values.numel()))
        << key;
  }
  EXPECT_EQ(read.at("transposed").values, (std::vector<int64_t>{0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11}));
  save_pt(path, {{"float", torch::ones({2})}});
  EXPECT_EQ(read_saved_tensors(path).at("float").dtype, "Float");
  EXPECT_TRUE(read_saved_tensors(path).at("float").values.empty());

  // The same records with a "byteorder" of "big" (torch 2 writes one): refused, not misread.
  const std::string big = dir + "/big.pt";
  {
    caffe2::serialize::PyTorchStreamReader reader(path);
    caffe2::serialize::PyTorchStreamWriter writer(big);
    for (const std::string& record : reader.getAllRecords()) {
      const auto [data, size] = reader.getRecord(record);
      writer.writeRecord(record, data.get(), size);
    }
    writer.writeRecord("byteorder", "big", 3);
  }
  testing::expect_error([&] { read_saved_tensors(big); },
                        "saved on a big-endian machine; matsamp reads little-endian files");
}

TEST(OgbLinkSplit, BadFilesAreOneLineErrors) {
  const std::string dir = testing::scratch_dir("ogb_link_split_bad");
  const OgbLinkFolder written = write_ogb_link_folder(dir, false);
  const std::string scheme = written.folder + "/split/collab";
  const CsrMatrix adj = read_graph(written.folder).adj;
  const auto expect_error = [&](const std::string& expected) {
    try {
      read_ogb_link_split(scheme + "/train.pt", adj);
      ADD_FAILURE() << "no error; expected: " << expected;
    } catch (const Error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(expected), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  };
  save_pt(scheme + "/valid.pt", {{"edge", torch::tensor({0, 400}, torch::kLong).view({1, 2})}});
  expect_error("'edge' has vertex ids in [0, 400], outside the graph's [0, 400)");
  save_pt(scheme + "/valid.pt", {{"edge", torch::zeros({3, 2}, torch::kLong)}});
  expect_error("valid.pt has no positives or no negatives");
  save_pt(scheme + "/valid.pt", {{"edge", torch::zeros({3, 3}, torch::kLong)}});
  expect_error("'edge' has shape [3, 3], expected [E, 2]");
  save_pt(scheme + "/valid.pt", {{"head", torch::zeros({3}, torch::kLong)}});
  expect_error("a knowledge-graph split");
  save_pt(scheme + "/valid.pt", {{"edge", torch::ones({3, 2})}});
  expect_error("'edge' holds Float values, not vertex ids");
  // A damaged archive never reaches the pickle machine: the member's CRC-32 refuses it.
  save_pt(scheme + "/valid.pt", {{"edge", torch::zeros({3, 2}, torch::kLong)}});
  std::string bytes;
  {
    std::ifstream in(scheme + "/valid.pt", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const size_t pickled = bytes.find("_rebuild_tensor_v2");
  ASSERT_NE(pickled, std::string::npos);
  bytes[pickled] ^= 0x01;
  std::ofstream(scheme + "/valid.pt", std::ios::binary) << bytes;
  expect_error("data.pkl: CRC-32 mismatch (corrupt archive)");
  std::ofstream(scheme + "/valid.pt", std::ios::binary) << "\x80\x02legacy pickle";
  expect_error("is not in torch's zip format (a pickle saved before torch 1.6");
  std::filesystem::remove(scheme + "/valid.pt");
  expect_error("valid.pt is missing");
}

TEST(LinkCli, TrainsOnAnOgbLinkFolderWithItsOwnSplit) {
  const std::string dir = testing::scratch_dir("link_cli_ogbl");
  for (bool per_source : {false, true}) {
    const OgbLinkFolder written = write_ogb_link_folder(dir, per_source);
    const testing::CliResult r =
        testing::run_cli("train --task link -g " + written.folder + " --epochs 2 --hidden 8 -b 128", dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("the dataset's own split"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::to_string(written.split.train.size()) + " train, " +
                         std::to_string(written.split.validation.size()) + " validation"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.out.find("\"summary\":true"), std::string::npos);
    EXPECT_EQ(r.out.find("\"mrr\"") != std::string::npos, per_source) << "MRR needs negatives per source";
    // --split random splits the folder's graph instead.
    const testing::CliResult random = testing::run_cli(
        "train --task link -g " + written.folder + " --split random --epochs 1 --hidden 8 -b 128", dir);
    ASSERT_EQ(random.exit_code, 0) << random.err;
    EXPECT_EQ(random.err.find("the dataset's own split"), std::string::npos) << random.err;
  }
  testing::expect_one_line_error(
      testing::run_cli("train --task link -g " + testing::data_file("cora.npz") + " --split given --epochs 1", dir),
      "ships no link split");
}

TEST(LinkCli, BadInputIsAOneLineError) {
  const std::string dir = testing::scratch_dir("link_cli_errors");
  const std::string cora = testing::data_file("cora.npz");
  testing::expect_one_line_error(testing::run_cli("train --task link -g " + cora + " --sampler saint --epochs 1", dir),
                                 "the saint sampler cannot take seed edges out of its layers");
  testing::expect_one_line_error(
      testing::run_cli("train --task link -g " + cora + " --edge-split 0.5,0.6 --epochs 1", dir),
      "fractions must be non-negative and leave edges to train on");
  testing::expect_one_line_error(
      testing::run_cli("train --task link -g " + cora + " --sampler dgs --explain-every 2 --epochs 1", dir),
      "no feature replication, locality blocks or explanation-guided sampling");
  testing::expect_one_line_error(testing::run_cli("train --task link -g rmat:6 --epochs 1", dir),
                                 "link prediction needs vertex features");
}

}  // namespace
}  // namespace matsamp
