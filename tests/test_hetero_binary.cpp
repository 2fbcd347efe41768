// The heterogeneous .msg format: bit-exact round trips, and one-line errors for
// truncated, corrupt and forged files and for a file given to the other reader.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>

#include <gtest/gtest.h>

#include "generate/generators.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/hetero_io.h"
#include "io_test_helpers.h"
#include "msg_forge.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::msg_section;
using testing::msg_section_bytes;
using testing::read_all;
using testing::scratch_dir;
using testing::throws_error_with;
using testing::with_section;

HeteroGraph small_mag() {
  HeteroMagOptions o;
  o.papers = 301;  // odd sizes exercise the padding of every section
  o.classes = 5;
  o.feature_dim = 7;
  o.seed = 3;
  HeteroGraph g = generate_hetero_mag(o);
  add_reverse_relations(g);
  std::vector<float>& values = g.relations[g.relation_index("cites")].adj.values;
  for (size_t e = 0; e < values.size(); ++e) values[e] = 0.125f * static_cast<float>(e % 9);
  VertexType& author = g.types[g.type_index("author")];
  author.labels.assign(author.count, -1);  // a second labelled type, every vertex unlabelled
  author.labels[4] = 2;
  author.splits["train"] = {4};
  for (int64_t v = 0; v < author.count; ++v) author.times.push_back(1990 + v % 31);  // the authors' times
  return g;
}

bool weighted(const CsrMatrix& a) {
  return std::any_of(a.values.begin(), a.values.end(), [](float v) { return v != 1.0f; });
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void expect_same_graph(const HeteroGraph& got, const HeteroGraph& want) {
  ASSERT_EQ(got.types.size(), want.types.size());
  for (size_t t = 0; t < want.types.size(); ++t) {
    const VertexType &a = got.types[t], &b = want.types[t];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.count, b.count) << b.name;
    EXPECT_EQ(a.feature_dim, b.feature_dim) << b.name;
    EXPECT_TRUE(same_bits(a.features, b.features)) << b.name;
    EXPECT_EQ(a.labels, b.labels) << b.name;
    EXPECT_EQ(a.times, b.times) << b.name;
    EXPECT_EQ(a.splits, b.splits) << b.name;
  }
  ASSERT_EQ(got.relations.size(), want.relations.size());
  for (size_t r = 0; r < want.relations.size(); ++r) {
    const Relation &a = got.relations[r], &b = want.relations[r];
    EXPECT_EQ(a.key(), b.key());
    EXPECT_EQ(a.adj.rows, b.adj.rows) << b.key();
    EXPECT_EQ(a.adj.cols, b.adj.cols) << b.key();
    EXPECT_EQ(a.adj.rowptr, b.adj.rowptr) << b.key();
    EXPECT_EQ(a.adj.colidx, b.adj.colidx) << b.key();
    EXPECT_TRUE(same_bits(a.adj.values, b.adj.values)) << b.key();
  }
}

// `file` written at `path`, and the error read_hetero_binary gives on it.
::testing::AssertionResult refused(const std::string& path, const std::string& file,
                                   std::initializer_list<std::string> parts) {
  testing::overwrite(path, file);
  return throws_error_with([&] { read_hetero_binary(path); }, parts);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(HeteroBinary, RoundTripIsBitExact) {
  const std::string dir = scratch_dir("hetero_msg_roundtrip");
  HeteroGraph g = small_mag();
  g.relations[g.relation_index("has_topic")].adj.values.clear();  // no values: every edge weighs 1
  write_hetero_binary(dir + "/mag.msg", g);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "no temporary file stays beside it";
  EXPECT_TRUE(is_hetero_binary(dir + "/mag.msg"));

  HeteroGraph back = read_hetero_binary(dir + "/mag.msg");
  const CsrMatrix& topics = back.relations[back.relation_index("has_topic")].adj;
  EXPECT_EQ(topics.values, std::vector<float>(topics.nnz(), 1.0f));
  g.relations[g.relation_index("has_topic")].adj.values.assign(topics.nnz(), 1.0f);
  expect_same_graph(back, g);
  expect_same_graph(read_hetero_graph(dir + "/mag.msg"), g);

  const std::string bytes = read_all(dir + "/mag.msg");
  EXPECT_EQ(msg_section_bytes(bytes, "schema").substr(0, 20), "type\tauthor\t464\t0\nty");
  EXPECT_EQ(msg_section(bytes, "type/3/split/train").bytes, g.types[3].splits["train"].size() * 8);
  EXPECT_EQ(msg_section(bytes, "relation/2/rowptr").bytes, (301 + 1) * 8u);
  // A values section for the weighted relations only (cites here; has_topic is all ones).
  for (size_t r = 0; r < g.relations.size(); ++r) {
    const std::string values = "relation/" + std::to_string(r) + "/values";
    const std::vector<testing::MsgSection> table = testing::msg_sections(bytes);
    const bool stored =
        std::any_of(table.begin(), table.end(), [&](const testing::MsgSection& s) { return s.name == values; });
    EXPECT_EQ(stored, weighted(g.relations[r].adj)) << g.relations[r].key();
  }
  EXPECT_TRUE(weighted(g.relations[g.relation_index("cites")].adj));
}

// What a process holding blocks of the relations reads: the schema (shapes, no
// entries; features only when asked) and any block of rows of a relation, each
// equal to the whole graph's; a flipped byte in the chunk a block reads is named.
TEST(HeteroBinary, SchemaAndBlocksOfRowsEqualTheWholeGraphs) {
  const std::string dir = scratch_dir("hetero_msg_blocks");
  const HeteroGraph g = small_mag();
  const std::string path = dir + "/mag.msg";
  write_hetero_binary(path, g);
  for (bool features : {false, true}) {
    const HeteroSchema s = read_hetero_schema(path, features);
    ASSERT_EQ(s.graph.types.size(), g.types.size());
    for (size_t t = 0; t < g.types.size(); ++t) {
      EXPECT_EQ(s.graph.types[t].count, g.types[t].count);
      EXPECT_EQ(s.graph.types[t].feature_dim, features ? g.types[t].feature_dim : 0);
      EXPECT_TRUE(same_bits(s.graph.types[t].features, features ? g.types[t].features : std::vector<float>{}));
      EXPECT_EQ(s.graph.types[t].labels, g.types[t].labels);
      EXPECT_EQ(s.graph.types[t].splits, g.types[t].splits);
    }
    ASSERT_EQ(s.graph.relations.size(), g.relations.size());
    for (size_t r = 0; r < g.relations.size(); ++r) {
      EXPECT_EQ(s.graph.relations[r].key(), g.relations[r].key());
      EXPECT_EQ(s.graph.relations[r].adj.rows, g.relations[r].adj.rows);
      EXPECT_EQ(s.graph.relations[r].adj.cols, g.relations[r].adj.cols);
      EXPECT_EQ(s.graph.relations[r].adj.nnz(), 0);
      EXPECT_EQ(s.edges[r], g.relations[r].adj.nnz());
    }
    EXPECT_THROW(validate(s.graph, "schema"), Error) << "a schema is not a whole graph";
  }
  for (size_t r = 0; r < g.relations.size(); ++r) {
    const CsrMatrix& a = g.relations[r].adj;
    for (const auto& [r0, r1] :
         {std::pair<int64_t, int64_t>{0, a.rows}, {0, 0}, {a.rows / 3, a.rows / 2}, {a.rows - 1, a.rows}}) {
      const CsrMatrix block = read_hetero_relation_rows(path, r, r0, r1);
      const int64_t first = a.rowptr[r0], last = a.rowptr[r1];
      EXPECT_EQ(block.rows, r1 - r0) << g.relations[r].key();
      EXPECT_EQ(block.cols, a.cols) << g.relations[r].key();
      for (int64_t i = 0; i <= r1 - r0; ++i) EXPECT_EQ(block.rowptr[i], a.rowptr[r0 + i] - first);
      EXPECT_EQ(block.colidx, std::vector<col_t>(a.colidx.begin() + first, a.colidx.begin() + last));
      EXPECT_TRUE(same_bits(block.values, std::vector<float>(a.values.begin() + first, a.values.begin() + last)));
    }
  }
  EXPECT_TRUE(throws_error_with([&] { read_hetero_relation_rows(path, 0, 5, 3); }, {"row block [5, 3) outside"}));
  EXPECT_TRUE(throws_error_with([&] { read_hetero_relation_rows(path, g.relations.size(), 0, 1); }, {"no relation"}));

  const std::string bytes = read_all(path);
  std::string flipped = bytes;
  flipped[msg_section(bytes, "relation/0/colidx").offset + 4] ^= 0x01;
  testing::overwrite(path, with_section(flipped, "relation/0/colidx", msg_section_bytes(flipped, "relation/0/colidx")));
  EXPECT_TRUE(throws_error_with([&] { read_hetero_relation_rows(path, 0, 0, 5); },
                                {path + ": checksum mismatch in section relation/0/colidx (bytes 0 to"}));
  // A file written before chunk checksums is read whole, and refused in blocks with a hint.
  std::string old = bytes;
  for (const testing::MsgSection& c : testing::msg_sections(bytes))
    if (c.name.rfind("chunks/", 0) == 0) old = testing::without_section(old, c.name);
  testing::overwrite(path, old);
  expect_same_graph(read_hetero_binary(path), g);
  EXPECT_TRUE(throws_error_with([&] { read_hetero_relation_rows(path, 0, 0, 5); },
                                {"written without the chunk checksums", "convert it again"}));
}

TEST(HeteroBinary, GraphWithoutFeaturesLabelsOrEdgesRoundTrips) {
  const std::string dir = scratch_dir("hetero_msg_bare");
  HeteroGraph g;
  g.types = {{"user", 3}, {"item", 0}};
  add_relation(g, "user", "follows", "user", {0, 2}, {1, 1});
  add_relation(g, "user", "buys", "item", {}, {});
  write_hetero_binary(dir + "/bare.msg", g);
  expect_same_graph(read_hetero_binary(dir + "/bare.msg"), g);
}

TEST(HeteroBinary, IsHeteroBinaryReadsOnlyTheHeader) {
  const std::string dir = scratch_dir("hetero_msg_detect");
  write_hetero_binary(dir + "/mag.msg", small_mag());
  write_binary_csr(dir + "/karate.msg", read_matrix_market(testing::data_file("karate.mtx")));
  EXPECT_TRUE(is_hetero_binary(dir + "/mag.msg"));
  EXPECT_FALSE(is_hetero_binary(dir + "/karate.msg"));
  EXPECT_FALSE(is_hetero_binary(dir + "/missing.msg"));
  EXPECT_FALSE(is_hetero_binary(dir));
  EXPECT_FALSE(is_hetero_binary("mag:1000"));
  EXPECT_FALSE(is_hetero_binary(testing::data_file("karate.mtx")));
  testing::overwrite(dir + "/short.msg", "MATSAMP1");
  EXPECT_FALSE(is_hetero_binary(dir + "/short.msg"));
  EXPECT_TRUE(throws_error_with([&] { read_hetero_graph(dir + "/karate.msg"); },
                                {dir + "/karate.msg: not a heterogeneous graph"}));
}

TEST(HeteroBinary, EachReaderRefusesTheOtherKindNamingTheRightOne) {
  const std::string dir = scratch_dir("hetero_msg_kinds");
  const std::string hetero = dir + "/mag.msg", plain = dir + "/karate.msg";
  write_hetero_binary(hetero, small_mag());
  write_binary_csr(plain, read_matrix_market(testing::data_file("karate.mtx")));
  for (auto read : {+[](const std::string& p) { read_binary_csr(p); }, +[](const std::string& p) { read_graph(p); },
                    +[](const std::string& p) { read_binary_csr_info(p); },
                    +[](const std::string& p) { read_binary_csr_rows(p, 0, 1); }})
    EXPECT_TRUE(
        throws_error_with([&] { read(hetero); }, {hetero + ": a heterogeneous graph (vertex types and relations)",
                                                  "read it with read_hetero_binary"}));
  EXPECT_TRUE(throws_error_with(
      [&] { read_hetero_binary(plain); },
      {plain + ": a graph of one vertex type, not a heterogeneous graph", "read it with read_binary_csr"}));
}

// A small written file, for the tests that alter it.
class HeteroMsgFile : public ::testing::Test {
 protected:
  void SetUp() override {
    path = scratch_dir(std::string("hetero_msg_") + ::testing::UnitTest::GetInstance()->current_test_info()->name()) +
           "/mag.msg";
    write_hetero_binary(path, small_mag());
    bytes = read_all(path);
    schema = msg_section_bytes(bytes, "schema");
  }
  std::string path, bytes, schema;
};

TEST_F(HeteroMsgFile, TruncatedOrLongerFileReportsItsSize) {
  const std::string size = std::to_string(bytes.size()), less = std::to_string(bytes.size() - 5);
  EXPECT_TRUE(refused(path, bytes.substr(0, bytes.size() - 5),
                      {path + ": truncated: expected " + size + " bytes, file has " + less}));
  EXPECT_TRUE(refused(path, bytes.substr(0, 100), {path + ": truncated: expected at least"}));
  EXPECT_TRUE(refused(path, bytes + "x", {path + ": size mismatch"}));
}

TEST_F(HeteroMsgFile, FlippedBytesFailTheSectionChecksum) {
  const std::vector<testing::MsgSection> table = testing::msg_sections(bytes);
  size_t values = 0;
  for (const Relation& r : small_mag().relations) values += weighted(r.adj);
  // schema; author labels, times, split; paper's and its features; relations, and values where
  // weighted; the chunk checksums of all but the schema and the four splits
  const size_t sections = 1 + 3 + 5 + 7 * 2 + values;
  ASSERT_EQ(table.size(), sections + sections - 5);
  for (const testing::MsgSection& s : table) {
    for (uint64_t at : {s.offset, s.offset + s.bytes / 2, s.offset + s.bytes - 1}) {
      std::string corrupt = bytes;
      corrupt[at] = static_cast<char>(corrupt[at] ^ 0x10);
      EXPECT_TRUE(refused(path, corrupt, {path + ": checksum mismatch in section " + s.name}));
    }
  }
  std::string corrupt = bytes;
  corrupt[48 + 56 * 3 + 2] ^= 0x01;  // a name in the table
  EXPECT_TRUE(refused(path, corrupt, {path + ": checksum mismatch in the header"}));
}

// A file whose checksums all match but whose schema lies: every size is checked
// against the sections, which the file's length bounds, before any is read.
TEST_F(HeteroMsgFile, ForgedCountsAreRefusedBeforeAnyAllocation) {
  const auto forged = [&](const std::string& from, const std::string& to) {
    return with_section(bytes, "schema", replaced(schema, from, to));
  };
  EXPECT_TRUE(refused(path, forged("paper\t301\t7", "paper\t2000000000\t7"),
                      {path + ": corrupt section table: section ", " bytes, expected 16000000008"}));
  EXPECT_TRUE(refused(path, forged("paper\t301\t7", "paper\t301\t4000000000000"),
                      {path + ": corrupt section table: section type/3/features has 8428 bytes"}));
  EXPECT_TRUE(refused(path, forged("paper\t301\t7", "paper\t9223372036854775807\t7"),
                      {path + ": section schema, line 4: 9223372036854775807 vertices of type paper"}));
  EXPECT_TRUE(refused(path, forged("\tcites\tpaper\t", "\tcites\tpaper\t9"),
                      {path + ": corrupt section table: section relation/2/"}));

  // A section the table says is larger than the file (the header's checksum made to match).
  std::string huge = bytes;
  const uint64_t exabyte = uint64_t{1} << 59;
  std::memcpy(&huge[48 + 56 * msg_section(bytes, "relation/0/colidx").index + 40], &exabyte, 8);
  EXPECT_TRUE(refused(path, testing::with_header_checksum(huge),
                      {path + ": corrupt section table: section relation/", " is not where the one before ends"}));
}

TEST_F(HeteroMsgFile, MalformedSchemaAndStraySectionsAreNamed) {
  const auto expect = [&](const std::string& text, const std::string& message) {
    EXPECT_TRUE(refused(path, with_section(bytes, "schema", text), {path + ": section schema, line ", message}))
        << text;
  };
  expect(replaced(schema, "type\tauthor\t464\t0", "type\tauthor\t464"), "line 1: expected 'type");
  expect(replaced(schema, "type\tauthor\t464", "type\tauthor\t-464"), "line 1: '-464' is not a count");
  expect(schema.substr(0, schema.size() - 1), "line 11: no line break at its end");
  expect(replaced(schema, "\twrites\tpaper", "\twrites\tvenue"), "line 6: relation names unknown vertex type 'venue'");
  const std::string relation_first = schema.substr(schema.find("relation")) + schema.substr(0, schema.find("relation"));
  expect(relation_first, "line 8: expected 'type NAME COUNT FEATURE_DIM' (types first)");
  expect(replaced(schema, "type\tinstitution\t", "type\tauthor\t"), "relation names unknown vertex type 'institution'");

  const std::string longer = msg_section_bytes(bytes, "type/3/labels") + "12345678";
  EXPECT_TRUE(refused(path, with_section(bytes, "type/3/labels", longer),
                      {path + ": corrupt section table: section type/3/labels has 2416 bytes, expected 2408"}));
}

// `file` with `value` written at byte `at` of section `name`, the checksums made to match.
template <class T>
std::string patched(const std::string& file, const std::string& name, size_t at, T value) {
  std::string data = msg_section_bytes(file, name);
  std::memcpy(&data[at], &value, sizeof value);
  return with_section(file, name, data);
}

TEST_F(HeteroMsgFile, ContentsAreValidatedAfterTheChecksums) {
  EXPECT_TRUE(refused(path, patched(bytes, "relation/0/colidx", 0, int32_t{1} << 30),
                      {path + ": relation author,affiliated_with,institution: column id 1073741824"}));
  EXPECT_TRUE(refused(path, patched(bytes, "type/3/labels", 8, int64_t{-2}), {path + ": vertex type paper: label -2"}));
  EXPECT_TRUE(refused(path, patched(bytes, "type/3/features", 4 * 9, std::nanf("")),
                      {path + ": section type/3/features: value nan of vertex 1, feature 2 is not finite"}));
  const size_t last = msg_section(bytes, "type/3/split/test").bytes - 8;
  EXPECT_TRUE(
      refused(path, patched(bytes, "type/3/split/test", last, int64_t{301}), {path + ": paper test set: id 301"}));
}

TEST(HeteroBinary, WriterRefusesWhatTheFormatCannotHold) {
  const std::string dir = scratch_dir("hetero_msg_writer");
  HeteroGraph g = small_mag();
  g.types[0].splits["a_split_name_much_too_long"] = {1};
  EXPECT_TRUE(throws_error_with(
      [&] { write_hetero_binary(dir + "/g.msg", g); },
      {dir + "/g.msg: split 'a_split_name_much_too_long' of vertex type author", "31 bytes at most"}));
  g = small_mag();
  g.types[2].name = "insti\ttution";
  for (Relation& r : g.relations)
    for (std::string* end : {&r.source, &r.destination})
      if (*end == "institution") *end = "insti\ttution";
  EXPECT_TRUE(throws_error_with([&] { write_hetero_binary(dir + "/g.msg", g); }, {"holds a tab"}));
  g = small_mag();
  g.types[3].features[3] = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(throws_error_with([&] { write_hetero_binary(dir + "/g.msg", g); }, {"type/3/features: value inf"}));
  g = small_mag();
  g.relations[1].adj.colidx[0] = -1;
  EXPECT_TRUE(throws_error_with([&] { write_hetero_binary(dir + "/g.msg", g); }, {dir + "/g.msg: relation"}));
  EXPECT_FALSE(std::filesystem::exists(dir + "/g.msg"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 0) << "no temporary file stays";
}

}  // namespace
}  // namespace matsamp
