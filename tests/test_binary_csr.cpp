// The .msg binary format: round trips, block-row reads, and corrupt files.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include <gtest/gtest.h>

#include "core/half.h"
#include "generate/generators.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io_test_helpers.h"
#include "msg_forge.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::expect_same_graph;
using testing::overwrite;
using testing::read_all;
using testing::scratch_dir;
using testing::throws_error_with;

Graph small_labelled_graph() {
  PlantedPartitionOptions o;
  o.vertices = 97;  // odd sizes exercise the 8-byte padding of every section
  o.classes = 3;
  o.average_degree = 5;
  o.feature_dim = 3;
  o.seed = 11;
  Graph g = generate_planted_partition(o);
  for (size_t e = 0; e < g.adj.values.size(); ++e) g.adj.values[e] = 0.25f * static_cast<float>(e % 7);
  return g;
}

int entries_in(const std::string& dir) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) count += entry.exists();
  return count;
}

TEST(BinaryCsr, RoundTripWithFeaturesAndLabels) {
  const std::string dir = scratch_dir("msg_roundtrip");
  const Graph g = small_labelled_graph();
  write_binary_csr(dir + "/g.msg", g);
  EXPECT_EQ(entries_in(dir), 1) << "no temporary file stays beside it";
  expect_same_graph(read_binary_csr(dir + "/g.msg"), g);
  expect_same_graph(read_graph(dir + "/g.msg"), g);

  const BinaryCsrInfo info = read_binary_csr_info(dir + "/g.msg");
  EXPECT_EQ(info.vertices, 97);
  EXPECT_EQ(info.edges, g.num_edges());
  EXPECT_EQ(info.feature_dim, 3);
  EXPECT_TRUE(info.has_values && info.has_features && info.has_labels);
}

TEST(BinaryCsr, RoundTripOfARealGraphWithoutExtras) {
  const std::string dir = scratch_dir("msg_karate");
  const Graph g = read_matrix_market(testing::data_file("karate.mtx"));
  write_binary_csr(dir + "/karate.msg", g);
  expect_same_graph(read_binary_csr(dir + "/karate.msg"), g);
  const BinaryCsrInfo info = read_binary_csr_info(dir + "/karate.msg");
  EXPECT_FALSE(info.has_features || info.has_labels);
}

TEST(BinaryCsr, GraphWithoutValuesReadsAsUnitWeights) {
  const std::string dir = scratch_dir("msg_pattern");
  Graph g;
  g.adj = CsrMatrix(3, 3);
  g.adj.rowptr = {0, 1, 2, 2};
  g.adj.colidx = {1, 0};
  write_binary_csr(dir + "/p.msg", g);
  EXPECT_FALSE(read_binary_csr_info(dir + "/p.msg").has_values);
  const Graph back = read_binary_csr(dir + "/p.msg");
  EXPECT_EQ(back.adj.colidx, g.adj.colidx);
  EXPECT_EQ(back.adj.values, (std::vector<float>{1.0f, 1.0f}));
}

TEST(BinaryCsr, EmptyGraphRoundTrips) {
  const std::string dir = scratch_dir("msg_empty");
  Graph g;
  write_binary_csr(dir + "/e.msg", g);
  const Graph back = read_binary_csr(dir + "/e.msg");
  EXPECT_EQ(back.num_vertices(), 0);
  EXPECT_EQ(back.num_edges(), 0);
}

TEST(BinaryCsr, BlockRowsEqualTheRowsOfTheWholeMatrix) {
  const std::string dir = scratch_dir("msg_blocks");
  const Graph g = small_labelled_graph();
  write_binary_csr(dir + "/g.msg", g);
  const int64_t n = g.num_vertices();
  for (auto [r0, r1] : std::vector<std::pair<int64_t, int64_t>>{{0, n}, {0, 1}, {13, 50}, {96, 97}, {40, 40}}) {
    const CsrMatrix block = read_binary_csr_rows(dir + "/g.msg", r0, r1);
    ASSERT_EQ(block.rows, r1 - r0);
    EXPECT_EQ(block.cols, n);
    ASSERT_EQ(block.rowptr.front(), 0);
    for (int64_t r = r0; r < r1; ++r) {
      ASSERT_EQ(block.row_nnz(r - r0), g.adj.row_nnz(r)) << "row " << r;
      for (int64_t k = 0; k < g.adj.row_nnz(r); ++k) {
        EXPECT_EQ(block.colidx[block.rowptr[r - r0] + k], g.adj.colidx[g.adj.rowptr[r] + k]);
        EXPECT_EQ(block.values[block.rowptr[r - r0] + k], g.adj.values[g.adj.rowptr[r] + k]);
      }
    }
  }
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr_rows(dir + "/g.msg", 5, 98); },
                                {dir + "/g.msg: row block [5, 98) outside [0, 97)"}));
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr_rows(dir + "/g.msg", 6, 5); }, {"row block [6, 5)"}));
}

// What a rank of partitioned training reads: feature rows and labels at ids
// equal the whole graph's, split sets as stored; bounds and order are checked.
TEST(BinaryCsr, FeatureRowsLabelsAtIdsAndSplitsEqualTheWholeGraphs) {
  const std::string dir = scratch_dir("msg_parts");
  Graph g = small_labelled_graph();
  g.splits = {{"train", {0, 4, 96}}, {"valid", {5}}, {"test", {7, 8}}};
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, g);
  const int64_t n = g.num_vertices(), f = g.feature_dim;
  for (auto [r0, r1] : std::vector<std::pair<int64_t, int64_t>>{{0, n}, {0, 1}, {13, 50}, {96, 97}, {40, 40}}) {
    const std::vector<float> rows = read_binary_feature_rows(path, r0, r1);
    EXPECT_EQ(rows, std::vector<float>(g.features.begin() + r0 * f, g.features.begin() + r1 * f)) << r0 << ".." << r1;
  }
  const std::vector<vid_t> ids{0, 1, 2, 50, 95, 96};
  std::vector<int64_t> expected;
  for (vid_t v : ids) expected.push_back(g.labels[v]);
  EXPECT_EQ(read_binary_labels_at(path, ids), expected);
  EXPECT_TRUE(read_binary_labels_at(path, {}).empty());
  EXPECT_EQ(read_binary_labels(path), g.labels);
  EXPECT_EQ(read_binary_splits(path), g.splits);
  EXPECT_TRUE(throws_error_with([&] { read_binary_feature_rows(path, 5, 98); },
                                {path + ": feature rows [5, 98) outside [0, 97)"}));
  EXPECT_TRUE(throws_error_with([&] { read_binary_labels_at(path, {3, 2}); }, {"at ascending ids"}));
  EXPECT_TRUE(throws_error_with([&] { read_binary_labels_at(path, {3, 97}); }, {"label ids outside [0, 97)"}));
  Graph bare = g;
  bare.features.clear();
  bare.feature_dim = 0;
  bare.labels.clear();
  bare.splits.clear();
  write_binary_csr(dir + "/bare.msg", bare);
  EXPECT_TRUE(throws_error_with([&] { read_binary_feature_rows(dir + "/bare.msg", 0, 1); }, {"has no features"}));
  EXPECT_TRUE(throws_error_with([&] { read_binary_labels_at(dir + "/bare.msg", {0}); }, {"has no labels"}));
  EXPECT_TRUE(read_binary_splits(dir + "/bare.msg").empty());
}

// Labels read at ids verify the chunks they lie in, and only those.
TEST(BinaryCsr, LabelsAtIdsAreVerifiedChunkByChunk) {
  const std::string dir = scratch_dir("msg_label_chunks");
  PlantedPartitionOptions o;
  o.vertices = 300000;  // 2.4 MB of labels: three chunks
  o.classes = 4;
  o.average_degree = 2;
  o.feature_dim = 1;
  const Graph g = generate_planted_partition(o);
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, g);
  uint64_t labels_at = 0;
  for (const BinarySection& s : read_binary_csr_sections(path))
    if (s.name == "labels") labels_at = s.offset;
  std::string flipped = read_all(path);
  flipped[labels_at + 8 * 10] ^= 0x01;  // label 10: the first chunk
  overwrite(path, flipped);
  EXPECT_TRUE(throws_error_with(
      [&] {
        read_binary_labels_at(path, {3, 200000});
      },
      {path + ": checksum mismatch in section labels (bytes 0 to"}));
  const std::vector<int64_t> late = read_binary_labels_at(path, {140000, 200000, 299999});  // chunks 2 and 3
  EXPECT_EQ(late, (std::vector<int64_t>{g.labels[140000], g.labels[200000], g.labels[299999]}));
}

TEST(BinaryCsr, TruncatedFileReportsExpectedAndActualSize) {
  const std::string dir = scratch_dir("msg_truncated");
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, small_labelled_graph());
  const std::string bytes = read_all(path);
  overwrite(path, bytes.substr(0, bytes.size() - 5));
  const std::string expected = "truncated: expected " + std::to_string(bytes.size()) + " bytes, file has " +
                               std::to_string(bytes.size() - 5);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": " + expected}));
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr_rows(path, 0, 1); }, {path + ": " + expected}));
  overwrite(path, bytes.substr(0, 20));
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); },
                                {path + ": truncated: expected at least 48 bytes, file has 20"}));
  overwrite(path, bytes + "junk");
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": size mismatch"}));
}

TEST(BinaryCsr, FlippedBytesFailTheSectionChecksum) {
  const std::string dir = scratch_dir("msg_checksum");
  const std::string path = dir + "/g.msg";
  Graph g = small_labelled_graph();
  g.splits["train"] = {1, 5, 9};
  g.splits["test"] = {2, 3};
  write_binary_csr(path, g);
  const std::string bytes = read_all(path);
  const auto sections = read_binary_csr_sections(path);
  ASSERT_EQ(sections.size(), 12u);  // rowptr colidx values features labels, their chunks/*, split/test split/train
  for (const BinarySection& s : sections) {
    for (uint64_t at : {s.offset, s.offset + s.bytes / 2, s.offset + s.bytes - 1}) {
      std::string corrupt = bytes;
      corrupt[at] = static_cast<char>(corrupt[at] ^ 0x10);
      overwrite(path, corrupt);
      EXPECT_TRUE(
          throws_error_with([&] { read_binary_csr(path); }, {path + ": checksum mismatch in section " + s.name}));
    }
  }
}

// A block of rows is verified as it is read: a flipped byte in the chunk it
// reads is an error naming the section, one in another chunk is not read.
TEST(BinaryCsr, BlockRowsAreVerifiedChunkByChunk) {
  const std::string dir = scratch_dir("msg_chunks");
  RmatOptions o;
  o.scale = 14;  // ~ 425k nonzeros: colidx spans two MiB chunks
  const Graph g = generate_rmat(o);
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, g);
  uint64_t colidx_at = 0;
  for (const BinarySection& s : read_binary_csr_sections(path))
    if (s.name == "colidx") colidx_at = s.offset;
  ASSERT_GT(g.num_edges() * 4, 1 << 20);
  const std::string bytes = read_all(path);
  const int64_t last = g.num_vertices();
  const int64_t late_row = std::upper_bound(g.adj.rowptr.begin(), g.adj.rowptr.end(), (1 << 20) / 4 + 10) -
                           g.adj.rowptr.begin();  // a row whose entries lie in the second chunk
  std::string flipped = bytes;
  flipped[colidx_at + 4 * 100] ^= 0x04;  // entry 100: the first chunk
  overwrite(path, flipped);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr_rows(path, 0, 10); },
                                {path + ": checksum mismatch in section colidx (bytes 0 to"}));
  const CsrMatrix tail = read_binary_csr_rows(path, late_row, last);  // reads the second chunk only
  EXPECT_EQ(tail.nnz(), g.adj.rowptr[last] - g.adj.rowptr[late_row]);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": checksum mismatch in section colidx"}));
}

TEST(BinaryCsr, SplitsRoundTripAndAreListed) {
  const std::string dir = scratch_dir("msg_splits");
  Graph g = small_labelled_graph();
  g.splits = {{"train", {0, 4, 96}}, {"valid", {}}, {"test", {7}}};
  write_binary_csr(dir + "/g.msg", g);
  EXPECT_EQ(read_binary_csr(dir + "/g.msg").splits, g.splits);
  EXPECT_EQ(read_binary_csr_info(dir + "/g.msg").splits, (std::vector<std::string>{"test", "train", "valid"}));
  g.splits["train"] = {4, 0};
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/bad.msg", g); }, {"split 'train' is not ascending"}));
  g.splits["train"] = {97};
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/bad.msg", g); },
                                {"split 'train' holds vertex 97 out of range [0, 97)"}));
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.msg"));
}

TEST(BinaryCsr, BadMagicVersionAndHeader) {
  const std::string dir = scratch_dir("msg_header");
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, small_labelled_graph());
  const std::string bytes = read_all(path);

  std::string bad = bytes;
  bad[0] = 'X';
  overwrite(path, bad);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": not a matsamp binary graph"}));

  bad = bytes;
  bad[8] = 1;  // a file of the first format
  overwrite(path, bad);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); },
                                {path + ": written in .msg format 1 by an older matsamp; re-convert it"}));

  bad = bytes;
  bad[8] = 7;
  overwrite(path, bad);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": unsupported format version 7"}));

  for (int at : {12, 16 + 7, 24 + 6, 32, 48 + 3, 48 + 40}) {  // count, n, nnz, feature_dim, a name, an offset
    bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x40);
    overwrite(path, bad);
    EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": "})) << "byte " << at;
    EXPECT_TRUE(throws_error_with([&] { read_binary_csr_info(path); }, {path + ": "})) << "byte " << at;
  }
  bad = bytes;
  bad[16 + 7] = static_cast<char>(0x80);  // n negative: caught by the header checksum first
  overwrite(path, bad);
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); }, {path + ": checksum mismatch in the header"}));
}

TEST(BinaryCsr, WriterRefusesInconsistentGraphs) {
  const std::string dir = scratch_dir("msg_invalid");
  Graph g;
  g.adj = CsrMatrix(2, 2);
  g.adj.rowptr = {0, 2, 2};
  g.adj.colidx = {1, 1};  // duplicate column
  g.adj.values = {1, 1};
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/g.msg", g); }, {dir + "/g.msg", "sorted and unique"}));
  EXPECT_FALSE(std::filesystem::exists(dir + "/g.msg"));
  EXPECT_EQ(entries_in(dir), 0) << "no temporary file stays";
}

TEST(BinaryCsr, NonFiniteFeaturesAreRefusedNamingTheSection) {
  const std::string dir = scratch_dir("msg_nan");
  Graph g = small_labelled_graph();
  g.features[5] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/w.msg", g); },
                                {dir + "/w.msg: section features: value nan", "not finite"}));
  EXPECT_FALSE(std::filesystem::exists(dir + "/w.msg"));

  // A file that holds one anyway (checksums made to match) is refused on reading.
  const std::string path = dir + "/g.msg";
  write_binary_csr(path, small_labelled_graph());
  const std::string bytes = testing::read_all(path);
  std::string features = testing::msg_section_bytes(bytes, "features");
  const float inf = std::numeric_limits<float>::infinity();
  std::memcpy(&features[4 * 7], &inf, 4);
  testing::overwrite(path, testing::with_section(bytes, "features", features));
  EXPECT_TRUE(throws_error_with([&] { read_binary_csr(path); },
                                {path + ": section features: value inf of vertex ", "is not finite"}));
}

// Features stored as float16: half the bytes, each value the nearest half (read
// back as float32, the same in a whole read and in a partitioned one); a value
// beyond float16's range is refused, naming it.
TEST(BinaryCsr, HalfFeaturesRoundToTheNearestHalfInHalfTheBytes) {
  const std::string dir = scratch_dir("msg_half");
  Graph g = small_labelled_graph();
  for (size_t i = 0; i < g.features.size(); ++i) g.features[i] = 0.001f * static_cast<float>(i) - 0.1f;
  const std::string single = dir + "/f32.msg", half = dir + "/f16.msg";
  write_binary_csr(single, g);
  write_binary_csr(half, g, FeatureType::float16);
  auto section_bytes = [](const std::string& path, const std::string& name) {
    for (const BinarySection& s : read_binary_csr_sections(path))
      if (s.name == name) return s.bytes;
    return uint64_t{0};
  };
  EXPECT_EQ(2 * section_bytes(half, "features_f16"), section_bytes(single, "features"));
  EXPECT_EQ(section_bytes(half, "features"), 0u);
  EXPECT_EQ(read_binary_csr_info(half).feature_type, FeatureType::float16);
  EXPECT_EQ(read_binary_csr_info(single).feature_type, FeatureType::float32);
  const Graph got = read_binary_csr(half);
  EXPECT_EQ(got.adj, g.adj);
  EXPECT_EQ(got.labels, g.labels);
  ASSERT_EQ(got.features.size(), g.features.size());
  for (size_t i = 0; i < g.features.size(); ++i) {
    EXPECT_EQ(got.features[i], half_to_float(float_to_half(g.features[i]))) << i;
    EXPECT_NEAR(got.features[i], g.features[i], std::fabs(g.features[i]) / 2048 + 1e-7) << i;
  }
  const int64_t f = g.feature_dim;
  EXPECT_EQ(read_binary_feature_rows(half, 13, 50),
            std::vector<float>(got.features.begin() + 13 * f, got.features.begin() + 50 * f));
  g.features[4] = 70000.0f;
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/big.msg", g, FeatureType::float16); },
                                {dir + "/big.msg: feature 1 of vertex 1 is 70000", "beyond float16's range"}));
}

TEST(BinaryCsr, MissingFileNamesPathAndReason) {
  EXPECT_TRUE(throws_error_with([] { read_binary_csr("/nonexistent/g.msg"); },
                                {"cannot open /nonexistent/g.msg: No such file"}));
}

TEST(ReadGraph, DispatchesByExtension) {
  const std::string dir = scratch_dir("read_graph");
  EXPECT_EQ(read_graph(testing::data_file("karate.mtx")).num_edges(), 156);
  EXPECT_EQ(read_graph(testing::data_file("cora.npz")).num_vertices(), 2708);
  EXPECT_EQ(read_graph(testing::data_file("email-Eu-core.txt")).num_vertices(), 1005);
  EXPECT_EQ(
      read_graph(testing::write_file(dir, "g.MTX", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n"))
          .num_edges(),
      1);
  EXPECT_EQ(read_graph(testing::write_file(dir, "edges", "0 5\n")).num_vertices(), 6);  // no extension
  EXPECT_TRUE(throws_error_with([] { read_graph("/nonexistent/dir/graph.npz"); },
                                {"cannot open /nonexistent/dir/graph.npz: No such file or directory"}));
  EXPECT_TRUE(throws_error_with([&] { read_graph(dir); }, {"cannot open " + dir + ": not a regular file"}));
}

}  // namespace
}  // namespace matsamp
