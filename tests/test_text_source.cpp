// Text read in blocks of whole lines, plain or gzip (by magic bytes), and
// parsed in parallel: the blocks are the file, the edges are those of a plain
// line-by-line parse, errors name the line also past the first block.
#include <sys/stat.h>
#include <zlib.h>

#include <random>
#include <string>

#include <gtest/gtest.h>

#include "io/graph_io.h"
#include "io/text_reader.h"
#include "io/text_source.h"
#include "io/text_writer.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::read_all;
using testing::scratch_dir;
using testing::throws_error_with;
using testing::write_file;

std::string gzip(const std::string& text) {  // one member
  std::string out(compressBound(text.size()) + 64, '\0');
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// Lines of random lengths, some longer than the blocks read below, the last without '\n'.
std::string random_text(int lines, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string text;
  for (int i = 0; i < lines; ++i) {
    const int length = rng() % 7 == 0 ? 300 + rng() % 200 : rng() % 40;
    for (int j = 0; j < length; ++j) text += static_cast<char>('a' + rng() % 26);
    text += '\n';
  }
  return text + "tail";
}

std::string read_blocks(const std::string& path, size_t block_bytes) {
  TextSource source(path, block_bytes);
  std::string all;
  std::string_view block;
  while (!(block = source.next_block()).empty()) {
    EXPECT_TRUE(block.back() == '\n' || all.size() + block.size() == static_cast<size_t>(source.bytes_read()));
    all.append(block);
  }
  EXPECT_TRUE(source.next_block().empty());  // stays at the end
  return all;
}

TEST(TextSource, BlocksAreTheFileWholeLinesPlainAndGzip) {
  const std::string dir = scratch_dir("text_source");
  const std::string text = random_text(2000, 1);
  const std::string plain = write_file(dir, "t.txt", text);
  const std::string packed = write_file(dir, "t.bin", gzip(text));  // gzip known by its bytes, not its name
  const std::string members = write_file(dir, "m.gz", gzip(text.substr(0, 777)) + gzip(text.substr(777)));
  for (size_t block : {64, 1000, 1 << 20}) {
    EXPECT_EQ(read_blocks(plain, block), text) << block;
    EXPECT_EQ(read_blocks(packed, block), text) << block;
    EXPECT_EQ(read_blocks(members, block), text) << block;  // concatenated members are one stream
  }
  EXPECT_FALSE(TextSource(plain).compressed());
  EXPECT_TRUE(TextSource(packed).compressed());
  EXPECT_EQ(read_blocks(write_file(dir, "empty.txt", ""), 64), "");
  EXPECT_EQ(read_blocks(write_file(dir, "empty.gz", gzip("")), 64), "");
}

TEST(TextSource, TruncatedAndCorruptGzipAreErrors) {
  const std::string dir = scratch_dir("text_source_bad");
  const std::string packed = gzip(random_text(3000, 2));
  const std::string cut = write_file(dir, "cut.gz", packed.substr(0, packed.size() / 2));
  EXPECT_TRUE(throws_error_with([&] { read_blocks(cut, 1 << 16); }, {cut + ": gzip stream truncated"}));
  const std::string no_trailer = write_file(dir, "trailer.gz", packed.substr(0, packed.size() - 4));
  EXPECT_TRUE(throws_error_with([&] { read_blocks(no_trailer, 1 << 16); }, {no_trailer + ": gzip stream truncated"}));
  std::string flipped = packed;
  flipped[packed.size() / 3] ^= 0x55;
  const std::string corrupt = write_file(dir, "corrupt.gz", flipped);
  EXPECT_TRUE(throws_error_with([&] { read_blocks(corrupt, 1 << 16); }, {corrupt + ": corrupt gzip data"}));
}

TEST(TextSource, RefusesFoldersAndFifosWithoutWaiting) {
  const std::string dir = scratch_dir("text_source_fifo");
  EXPECT_TRUE(throws_error_with([&] { TextSource s(dir); }, {"cannot open " + dir + ": not a regular file"}));
  const std::string fifo = dir + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(throws_error_with([&] { read_edge_list(fifo); }, {"cannot open " + fifo + ": not a regular file"}));
}

// Over several 8 MiB blocks: the parallel parse equals a serial one, and an
// error in a later block names its line.
TEST(ParallelParse, EdgeListOverManyBlocksEqualsASerialParse) {
  const std::string dir = scratch_dir("parallel_parse");
  const int64_t edges = 1'500'000, n = 100'000;
  std::mt19937_64 rng(3);
  std::vector<int64_t> src(edges), dst(edges);
  for (int64_t e = 0; e < edges; ++e) src[e] = rng() % n, dst[e] = rng() % n;
  const std::string path = dir + "/big.csv.gz";
  write_lines(
      path, edges + 1,
      [&](int64_t i, std::string& out) {
        if (i == 0) return void(out += "source,target\n");
        append_number(out, src[i - 1]);
        out += i % 2 ? ", " : ",";
        append_number(out, dst[i - 1]);
        out += '\n';
      },
      /*gzip=*/true);
  const Graph g = read_edge_list(path);
  const CsrMatrix want = csr_from_triples(g.num_vertices(), g.num_vertices(), src, dst, {});
  EXPECT_EQ(g.adj.rowptr, want.rowptr);
  EXPECT_EQ(g.adj.colidx, want.colidx);

  const std::string bad = dir + "/bad.txt";
  const int64_t bad_line = 1'400'000;  // past the first block
  write_lines(
      bad, edges, [&](int64_t i, std::string& out) { out += i + 1 == bad_line ? "7 x\n" : "100000 200000\n"; },
      /*gzip=*/false);
  EXPECT_TRUE(throws_error_with([&] { read_edge_list(bad); },
                                {bad + ":" + std::to_string(bad_line) + ": vertex id 'x' is not an integer"}));
}

TEST(CsvEdgeLists, HeadersCommasWeightsAndComments) {
  const std::string dir = scratch_dir("csv_edges");
  const Graph g =
      read_edge_list(write_file(dir, "g.csv", "# made by hand\nsrc,dst,weight\n0,1,0.5\n1 , 2 , 2\n\n2,0,1\n"));
  EXPECT_EQ(g.num_vertices(), 3);
  EXPECT_EQ(g.adj.colidx, (std::vector<col_t>{1, 2, 0}));
  EXPECT_EQ(g.adj.values, (std::vector<float>{0.5f, 2.0f, 1.0f}));
  const Graph tsv = read_edge_list(write_file(dir, "g.tsv", "from\tto\n3\t1\n"));
  EXPECT_EQ(tsv.num_vertices(), 4);
  // Only the first data line may be a header.
  const std::string late = write_file(dir, "late.csv", "0,1\nsrc,dst\n");
  EXPECT_TRUE(throws_error_with([&] { read_edge_list(late); }, {late + ":2: vertex id 'src' is not an integer"}));
  const std::string empty_field = write_file(dir, "e.csv", "0,,1\n");
  EXPECT_TRUE(throws_error_with([&] { read_edge_list(empty_field); }, {empty_field + ":1: vertex id ''"}));
  // Negative weights: refused, or read as the pattern or as magnitudes.
  const std::string negative = write_file(dir, "neg.csv", "0,1,-2.5\n1,0,3\n");
  EXPECT_TRUE(throws_error_with([&] { read_edge_list(negative); }, {"--values pattern", "--values abs"}));
  EXPECT_EQ(read_edge_list(negative, {ValueMode::abs}).adj.values, (std::vector<float>{2.5f, 3.0f}));
  EXPECT_TRUE(read_edge_list(negative, {ValueMode::pattern}).adj.values == (std::vector<float>{1.0f, 1.0f}) ||
              read_edge_list(negative, {ValueMode::pattern}).adj.values.empty());
}

TEST(MatrixMarketValues, NegativeAndComplexMatricesAsPatternOrMagnitudes) {
  const std::string dir = scratch_dir("mtx_values");
  const std::string real = write_file(dir, "k.mtx",
                                      "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 4\n2 1 -1\n3 2 "
                                      "-0.5\n");
  EXPECT_TRUE(
      throws_error_with([&] { read_matrix_market(real); }, {real + ":4: weight -1 is negative", "--values abs"}));
  const Graph magnitudes = read_matrix_market(real, {ValueMode::abs});
  EXPECT_EQ(magnitudes.adj.colidx, (std::vector<col_t>{0, 1, 0, 2, 1}));
  EXPECT_EQ(magnitudes.adj.values, (std::vector<float>{4, 1, 1, 0.5f, 0.5f}));
  EXPECT_EQ(read_matrix_market(real, {ValueMode::pattern}).adj.colidx, magnitudes.adj.colidx);

  const std::string complex = write_file(dir, "c.mtx",
                                         "%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 2 3 -4\n2 1 0 "
                                         "1\n");
  EXPECT_TRUE(throws_error_with([&] { read_matrix_market(complex); }, {"complex values", "--values abs"}));
  EXPECT_EQ(read_matrix_market(complex, {ValueMode::abs}).adj.values, (std::vector<float>{5, 1}));
  EXPECT_EQ(read_matrix_market(complex, {ValueMode::pattern}).num_edges(), 2);
  const std::string integer =
      write_file(dir, "i.mtx", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 -3\n");
  EXPECT_EQ(read_matrix_market(integer, {ValueMode::abs}).adj.values, (std::vector<float>{3}));
  // Compressed, and with a forged entry count that must not be allocated up front.
  const std::string packed = write_file(dir, "z.mtx.gz", gzip(testing::read_all(testing::data_file("karate.mtx"))));
  EXPECT_EQ(read_graph(packed).num_edges(), 156);
  const std::string forged = write_file(dir, "f.mtx",
                                        "%%MatrixMarket matrix coordinate pattern general\n2 2 "
                                        "999999999999\n1 2\n");
  // Refused at the size line, before anything is reserved, with what the file can hold.
  EXPECT_TRUE(throws_error_with([&] { read_matrix_market(forged); },
                                {forged + ":2: 999999999999 entries declared, but the file can hold at most 17"}));
  const std::string forged_gzip = write_file(dir, "f.mtx.gz", gzip(testing::read_all(forged)));
  EXPECT_TRUE(throws_error_with([&] { read_graph(forged_gzip); }, {":2: 999999999999 entries declared", "gzip"}));
}

}  // namespace
}  // namespace matsamp
