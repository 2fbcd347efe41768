// A feature table of fetched rows only (features partitioned): the format of the
// rank's rows without holding them, fetched rows in that format, and a clear error
// where rows it does not hold are asked of it.
#include <gtest/gtest.h>

#include "error_checks.h"
#include "train/tensors.h"

namespace matsamp {
namespace {

TEST(FeatureTableFormat, KeepsTheFormatOfTheRowsButNotTheRows) {
  const std::vector<float> dense{1, 2, 3, 4, 5, 6}, sparse{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  const torch::Device cpu(torch::kCPU);
  EXPECT_FALSE(FeatureTable::format_of(dense, 2, 3, cpu).is_sparse());
  EXPECT_EQ(FeatureTable::format_of(sparse, 2, 10, cpu).is_sparse(), FeatureTable(sparse, 2, 10, cpu).is_sparse());
  EXPECT_TRUE(FeatureTable::format_of(sparse, 2, 10, cpu).is_sparse());

  const FeatureTable table = FeatureTable::format_of(dense, 2, 3, cpu);
  const torch::Tensor fetched = table.from_rows({7, 8, 9}, 1);
  EXPECT_TRUE(torch::equal(fetched, torch::tensor({7.0f, 8.0f, 9.0f}).view({1, 3})));
  // No fetched rows (a rank whose minibatch needs none of another's): an empty [0, 3] table,
  // with nothing left allocated (torch drops the deleter of an empty blob; the ASan build's
  // LeakSanitizer checks).
  const torch::Tensor none = table.from_rows({}, 0);
  EXPECT_EQ(none.sizes(), (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(none.scalar_type(), torch::kFloat);
  testing::expect_error([&] { table.rows({0}); }, "this feature table holds no rows");
  testing::expect_error([&] { FeatureTable::format_of(dense, 3, 3, cpu); }, "6 feature values for 3 rows of 3");
}

}  // namespace
}  // namespace matsamp
