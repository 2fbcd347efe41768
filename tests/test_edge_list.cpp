// SNAP edge lists and vertex label files: the real email-Eu-core graph, the accepted
// syntax, and every malformed input.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "graph/transform.h"
#include "io/graph_io.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::scratch_dir;
using testing::throws_error_with;
using testing::write_file;

using LineCases = std::vector<std::pair<std::string, std::string>>;  // a bad line, a part of its error

// Each case's line written as line 3 of file `stem`<i>.txt after `first_two_lines`:
// read(path) must throw an error naming the path, line 3 and the case's problem.
template <class Read>
void expect_each_line_rejected(const std::string& dir, const std::string& stem, const std::string& first_two_lines,
                               const LineCases& cases, Read&& read) {
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string path =
        write_file(dir, stem + std::to_string(i) + ".txt", first_two_lines + cases[i].first + "\n");
    EXPECT_TRUE(throws_error_with([&] { read(path); }, {path + ":3: ", cases[i].second})) << "line: " << cases[i].first;
  }
}

TEST(EdgeList, EmailEuCoreAsDirectedGraph) {
  const Graph g = read_edge_list(testing::data_file("email-Eu-core.txt"));
  validate(g.adj, "email-Eu-core");
  // Facts from numpy: 25571 distinct directed edges (642 self loops), ids 0..1004.
  EXPECT_EQ(g.num_vertices(), 1005);
  EXPECT_EQ(g.num_edges(), 25571);
  EXPECT_EQ(g.adj.row_nnz(0), 41);
  EXPECT_NE(transpose(g.adj), g.adj);  // not symmetrized by the reader

  const Graph clean = cleanup(g, {/*symmetrize=*/true, /*drop_self_loops=*/true, /*largest_component=*/false});
  EXPECT_EQ(clean.num_edges(), 32128);
  EXPECT_EQ(cleanup(clean, {false, false, true}).num_vertices(), 986);
}

TEST(EdgeList, EmailEuCoreDepartmentLabels) {
  Graph g = read_edge_list(testing::data_file("email-Eu-core.txt"));
  read_vertex_labels(testing::data_file("email-Eu-core-department-labels.txt"), g);
  ASSERT_EQ(g.labels.size(), 1005u);
  EXPECT_EQ(g.labels[0], 1);
  EXPECT_EQ(g.labels[2], 21);
  EXPECT_EQ(g.labels[1004], 22);
  EXPECT_EQ(g.num_classes(), 42);
  EXPECT_EQ(std::count(g.labels.begin(), g.labels.end(), -1), 0);
  validate(g, "email-Eu-core");
}

TEST(EdgeList, SyntaxVariants) {
  const std::string dir = scratch_dir("el_syntax");
  const Graph g = read_edge_list(write_file(dir, "g.tsv",
                                            "# SNAP header\n"
                                            "% another comment style\n"
                                            "\n"
                                            "0\t1\r\n"
                                            "  3   1  \n"
                                            "1 0 2.5\n"
                                            "0 1\n"));  // duplicate: weights sum
  EXPECT_EQ(g.num_vertices(), 4);
  EXPECT_EQ(g.adj.rowptr, (std::vector<int64_t>{0, 1, 2, 2, 3}));
  EXPECT_EQ(g.adj.colidx, (std::vector<col_t>{1, 0, 1}));
  EXPECT_EQ(g.adj.values, (std::vector<float>{2.0f, 2.5f, 1.0f}));
}

// An edge list has no count: a file cut inside its last line cannot be told from
// one written without its final line end (SNAP's), so it reads, with a warning
// naming the line; a file that ends its lines gets none.
TEST(EdgeList, AFileEndingInsideItsLastLineReadsWithAWarning) {
  const std::string dir = scratch_dir("el_cut");
  const std::string cut = write_file(dir, "cut.txt", "0 1\n1 2\n2 3");
  ::testing::internal::CaptureStderr();
  const Graph g = read_edge_list(cut);
  const std::string warned = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(g.num_edges(), 3);
  EXPECT_NE(warned.find("warning: " + cut + ":3: the file ends inside this line"), std::string::npos) << warned;
  ::testing::internal::CaptureStderr();
  read_edge_list(write_file(dir, "whole.txt", "0 1\n1 2\n2 3\n"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST(EdgeList, EmptyFileIsAnEmptyGraph) {
  const std::string dir = scratch_dir("el_empty");
  const Graph g = read_edge_list(write_file(dir, "e.txt", "# nothing\n"));
  EXPECT_EQ(g.num_vertices(), 0);
  EXPECT_EQ(g.num_edges(), 0);
}

TEST(EdgeList, MissingFileNamesPathAndReason) {
  EXPECT_TRUE(throws_error_with([] { read_edge_list("/nonexistent/g.txt"); },
                                {"cannot open /nonexistent/g.txt: No such file"}));
}

// Each malformed line, as the only data line after a good one: the error names line 3.
TEST(EdgeList, MalformedLinesNameFileAndLine) {
  const std::string dir = scratch_dir("el_bad");
  const LineCases cases = {
      {"0 x", "vertex id 'x' is not an integer"},
      {"0 1.5", "vertex id '1.5' is not an integer"},
      {"-3 1", "vertex id -3 is negative"},
      {"0 2147483647", "vertex id 2147483647 does not fit 32-bit column ids"},
      {"0 99999999999999999999", "vertex id '99999999999999999999' is too large"},
      {"0 1 nan", "weight nan is not a finite non-negative number"},
      {"0 1 -1", "weight -1 is negative; read the pattern (--values pattern) or magnitudes (--values abs)"},
      {"0 1 inf", "weight inf is not a finite"},
      {"0 1 w", "weight 'w' is not a number"},
      {"0", "found 1 fields"},
      {"0 1 2 3", "found 4 fields"},
  };
  expect_each_line_rejected(dir, "bad", "# c\n0 1\n", cases, [](const std::string& path) { read_edge_list(path); });
}

TEST(EdgeList, LabelsLeaveUnlistedVerticesAtMinusOne) {
  const std::string dir = scratch_dir("el_labels");
  Graph g = read_edge_list(write_file(dir, "g.txt", "0 1\n1 4\n"));
  read_vertex_labels(write_file(dir, "labels.txt", "# vertex label\n4 2\n0\t0\n"), g);
  EXPECT_EQ(g.labels, (std::vector<int64_t>{0, -1, -1, -1, 2}));
}

TEST(EdgeList, MalformedLabelLinesNameFileAndLine) {
  const std::string dir = scratch_dir("el_bad_labels");
  Graph g = read_edge_list(write_file(dir, "g.txt", "0 1\n1 4\n"));  // n = 5
  const LineCases cases = {
      {"5 1", "vertex id 5 out of range [0, 5)"}, {"-1 1", "vertex id -1 out of range [0, 5)"},
      {"2 red", "label 'red' is not an integer"}, {"2 -4", "label -4 is negative"},
      {"0 3", "vertex 0 is listed twice"},        {"2", "expected 'vertex label', found 1 fields"},
  };
  expect_each_line_rejected(dir, "labels", "0 1\n\n", cases,
                            [&](const std::string& path) { read_vertex_labels(path, g); });
}

}  // namespace
}  // namespace matsamp
