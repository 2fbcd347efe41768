// The opt-in mapping of a .msg file's float32 features: the same rows as the
// pread reader, verified once at open, private (writes never reach the file),
// and one-line refusals of what cannot be mapped.
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "generate/generators.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/mapped_features.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::read_all;
using testing::scratch_dir;
using testing::throws_error_with;

Graph featured_graph(int64_t n) {
  PlantedPartitionOptions o;
  o.vertices = n;
  o.classes = 3;
  o.average_degree = 4;
  o.feature_dim = 7;  // rows of 28 bytes: the section starts mid-page
  o.seed = 5;
  return generate_planted_partition(o);
}

TEST(MappedFeatures, RowsEqualThePreadReadersAndTheGraphWithoutFeaturesIsTheRest) {
  const std::string path = scratch_dir("mapped_equal") + "/g.msg";
  const Graph g = featured_graph(3001);
  write_binary_csr(path, g);
  const MappedFeatures mapped(path);
  ASSERT_EQ(mapped.rows(), g.num_vertices());
  ASSERT_EQ(mapped.dim(), g.feature_dim);
  EXPECT_EQ(std::vector<float>(mapped.data(), mapped.data() + g.features.size()), g.features);
  const Graph rest = read_binary_csr(path, BinaryReadOptions{false});
  EXPECT_EQ(rest.adj, g.adj);
  EXPECT_EQ(rest.labels, g.labels);
  EXPECT_EQ(rest.feature_dim, 0);
  EXPECT_TRUE(rest.features.empty());
}

TEST(MappedFeatures, WritesStayInTheProcess) {
  const std::string path = scratch_dir("mapped_private") + "/g.msg";
  write_binary_csr(path, featured_graph(100));
  const std::string before = read_all(path);
  {
    const MappedFeatures mapped(path);
    mapped.data()[3] = 12345.0f;
    EXPECT_EQ(mapped.data()[3], 12345.0f);
  }
  EXPECT_EQ(read_all(path), before);
  EXPECT_NE(MappedFeatures(path).data()[3], 12345.0f);
}

TEST(MappedFeatures, VerifiedOnceAtOpenAndRefusesWhatCannotBeMapped) {
  const std::string dir = scratch_dir("mapped_refusals");
  const std::string path = dir + "/g.msg";
  Graph g = featured_graph(200);
  write_binary_csr(path, g);
  uint64_t offset = 0;
  for (const BinarySection& s : read_binary_csr_sections(path))
    if (s.name == "features") offset = s.offset;
  std::string corrupt = read_all(path);
  corrupt[offset + 100] ^= 0x10;
  testing::overwrite(path, corrupt);
  EXPECT_TRUE(throws_error_with([&] { MappedFeatures m(path); }, {path + ": checksum mismatch in section features"}));

  write_binary_csr(path, g, FeatureType::float16);
  EXPECT_TRUE(throws_error_with([&] { MappedFeatures m(path); },
                                {path + ": features are stored as float16, which must be converted to float32"}));
  g.features.clear();
  g.feature_dim = 0;
  write_binary_csr(path, g);
  EXPECT_TRUE(throws_error_with([&] { MappedFeatures m(path); }, {path + ": has no features"}));
  EXPECT_TRUE(throws_error_with([&] { MappedFeatures m(dir + "/none.msg"); }, {"cannot open " + dir + "/none.msg"}));
}

}  // namespace
}  // namespace matsamp
