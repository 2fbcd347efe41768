// Matrix Market reader: real files, the accepted variants, and every malformed input.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/csr.h"
#include "io/graph_io.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::scratch_dir;
using testing::throws_error_with;
using testing::write_file;

bool has_edge(const CsrMatrix& a, int64_t u, int64_t v) {
  return std::binary_search(a.colidx.begin() + a.rowptr[u], a.colidx.begin() + a.rowptr[u + 1], static_cast<col_t>(v));
}

TEST(MatrixMarket, KarateIsThe78EdgeUndirectedClub) {
  const Graph g = read_matrix_market(testing::data_file("karate.mtx"));
  validate(g.adj, "karate");
  EXPECT_EQ(g.num_vertices(), 34);
  EXPECT_EQ(g.num_edges(), 156);  // 78 undirected edges, both directions
  EXPECT_EQ(transpose(g.adj), g.adj);
  EXPECT_EQ(g.adj.row_nnz(0), 16);   // the instructor
  EXPECT_EQ(g.adj.row_nnz(33), 17);  // the administrator
  EXPECT_TRUE(has_edge(g.adj, 0, 1) && has_edge(g.adj, 1, 0));
  EXPECT_FALSE(has_edge(g.adj, 0, 33));
  for (float v : g.adj.values) EXPECT_EQ(v, 1.0f);
  EXPECT_FALSE(g.has_features());
  EXPECT_FALSE(g.has_labels());
}

TEST(MatrixMarket, JagmeshKeepsItsDiagonal) {
  const Graph g = read_matrix_market(testing::data_file("jagmesh7.mtx"));
  validate(g.adj, "jagmesh7");
  EXPECT_EQ(g.num_vertices(), 1138);
  // 4294 stored entries, 1138 of them diagonal: 2 * 3156 + 1138 (numpy count).
  EXPECT_EQ(g.num_edges(), 7450);
  EXPECT_TRUE(has_edge(g.adj, 0, 0) && has_edge(g.adj, 17, 0) && has_edge(g.adj, 0, 17));
}

TEST(MatrixMarket, GeneralRealFileSumsDuplicatesAndKeepsDirection) {
  const std::string dir = scratch_dir("mm_general");
  const Graph g = read_matrix_market(write_file(dir, "w.mtx",
                                                "%%MATRIXMARKET Matrix Coordinate Real General\n"
                                                "% a comment\n"
                                                "\n"
                                                "3 3 4\n"
                                                "1 2 0.5\n"
                                                "1 2 1.25\n"
                                                "3\t1  2e0\n"
                                                "2 3 0\n"));
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.adj.rowptr, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(g.adj.colidx, (std::vector<col_t>{1, 2, 0}));
  EXPECT_EQ(g.adj.values, (std::vector<float>{1.75f, 0.0f, 2.0f}));
}

TEST(MatrixMarket, IntegerSymmetricMirrorsOffDiagonalOnly) {
  const std::string dir = scratch_dir("mm_integer");
  const Graph g = read_matrix_market(
      write_file(dir, "i.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 3\n2 1 7\n"));
  EXPECT_EQ(g.adj.rowptr, (std::vector<int64_t>{0, 2, 3}));
  EXPECT_EQ(g.adj.colidx, (std::vector<col_t>{0, 1, 0}));
  EXPECT_EQ(g.adj.values, (std::vector<float>{3.0f, 7.0f, 7.0f}));
}

TEST(MatrixMarket, MissingFileNamesPathAndReason) {
  EXPECT_TRUE(throws_error_with([] { read_matrix_market("/nonexistent/g.mtx"); },
                                {"cannot open /nonexistent/g.mtx", "No such file"}));
}

struct BadFile {
  const char* name;
  const char* text;
  std::vector<std::string> expected;  // parts of the message after the path
};

class MatrixMarketMalformed : public ::testing::TestWithParam<BadFile> {};

TEST_P(MatrixMarketMalformed, NamesFileLineAndProblem) {
  const BadFile& bad = GetParam();
  const std::string dir = scratch_dir(std::string("mm_bad_") + bad.name);
  const std::string path = write_file(dir, std::string(bad.name) + ".mtx", bad.text);
  try {
    read_matrix_market(path);
    FAIL() << "no error for " << bad.name;
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(message.rfind(path + ":", 0), 0u) << message;
    for (const std::string& part : bad.expected)
      EXPECT_NE(message.find(part), std::string::npos) << "want \"" << part << "\" in: " << message;
  }
}

constexpr const char* kHeader = "%%MatrixMarket matrix coordinate real general\n";

INSTANTIATE_TEST_SUITE_P(
    AllCases, MatrixMarketMalformed,
    ::testing::Values(
        BadFile{"no_banner", "3 3 1\n1 2 1\n", {":1:", "not a Matrix Market file"}},
        BadFile{"short_banner", "%%MatrixMarket matrix coordinate\n", {":1:", "header"}},
        BadFile{"array", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", {":1:", "array"}},
        BadFile{"complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", {":1:", "complex"}},
        BadFile{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", {":1:", "hermitian"}},
        BadFile{"skew", "%%MatrixMarket matrix coordinate real skew-symmetric\n1 1 0\n", {":1:", "skew-symmetric"}},
        BadFile{"vector", "%%MatrixMarket vector coordinate real general\n1 1 0\n", {":1:", "vector"}},
        BadFile{"no_size", "%%MatrixMarket matrix coordinate real general\n% only comments\n", {":2:", "size line"}},
        BadFile{"size_fields", "%%MatrixMarket matrix coordinate real general\n3 3\n", {":2:", "size line"}},
        BadFile{"not_square", "%%MatrixMarket matrix coordinate real general\n3 4 0\n", {":2:", "3 x 4", "square"}},
        BadFile{"size_word", "%%MatrixMarket matrix coordinate real general\n3 x 1\n", {":2:", "'x'"}},
        BadFile{"row_out_of_range",
                "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n4 1 1\n",
                {":4:", "vertex id 4 out of range [1, 3]"}},
        BadFile{"col_zero",
                "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n2 0\n",
                {":3:", "vertex id 0 out of range [1, 3]"}},
        BadFile{"too_few",
                "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n2 3 1\n",
                {":4:", "truncated", "3 entries declared", "after 2"}},
        BadFile{"too_many",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1\n2 3 1\n",
                {":4:", "more entries than the 1 declared"}},
        BadFile{"nan_weight",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 nan\n",
                {":3:", "not a finite non-negative"}},
        BadFile{"negative_weight",
                "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 1 -0.5\n",
                {":4:", "weight -0.5"}},
        BadFile{"negative_integer",
                "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -2\n",
                {":3:", "negative"}},
        BadFile{"word_weight",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 heavy\n",
                {":3:", "'heavy' is not a number"}},
        BadFile{"word_id",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 b 1\n",
                {":3:", "column id 'b' is not an integer"}},
        BadFile{"fractional_id",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1.5 2 1\n",
                {":3:", "row id '1.5' is not an integer"}},
        BadFile{"pattern_with_value",
                "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 1\n",
                {":3:", "expected 2 fields, found 3"}},
        BadFile{"real_without_value",
                "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n",
                {":3:", "expected 3 fields, found 2"}}),
    [](const ::testing::TestParamInfo<BadFile>& info) { return std::string(info.param.name); });

TEST(MatrixMarket, EmptyFileIsNotMatrixMarket) {
  const std::string dir = scratch_dir("mm_empty");
  const std::string path = write_file(dir, "empty.mtx", "");
  EXPECT_TRUE(throws_error_with([&] { read_matrix_market(path); }, {path + ":", "not a Matrix Market file"}));
}

TEST(MatrixMarket, TruncatedMidLineIsAnError) {
  // A download cut inside the last entry: "3 3 2 / 1 2 1 / 2" leaves a one-field line.
  const std::string dir = scratch_dir("mm_cut");
  const std::string path = write_file(dir, "cut.mtx", std::string(kHeader) + "3 3 2\n1 2 1\n2");
  EXPECT_TRUE(throws_error_with([&] { read_matrix_market(path); }, {path + ":4:", "expected 3 fields"}));
}

// A value cut short keeps the count ("0.5" to "0."): only the missing line end
// tells; the same file complete reads.
TEST(MatrixMarket, ALastValueCutShortIsAnError) {
  const std::string dir = scratch_dir("mm_cut_value");
  const std::string body = std::string(kHeader) + "3 3 2\n1 2 1\n2 3 0.5";
  const std::string cut = write_file(dir, "cut.mtx", body.substr(0, body.size() - 1));
  EXPECT_TRUE(throws_error_with([&] { read_matrix_market(cut); }, {cut + ":4:", "ends inside its last entry"}));
  const Graph whole = read_matrix_market(write_file(dir, "whole.mtx", body + "\n"));
  EXPECT_EQ(whole.adj.values, (std::vector<float>{1.0f, 0.5f}));
}

}  // namespace
}  // namespace matsamp
