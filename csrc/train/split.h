// Train / validation / test vertices for semi-supervised node classification.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

struct DataSplit {
  std::vector<vid_t> train;  // ascending vertex ids
  std::vector<vid_t> validation;
  std::vector<vid_t> test;
};

// The split of Shchur et al. ("Pitfalls of GNN evaluation"): per class, a
// seeded choice of train_per_class training and validation_per_class
// validation vertices; every other labelled vertex is a test vertex.
struct PerClassSplitOptions {
  int64_t train_per_class = 20;
  int64_t validation_per_class = 30;
  uint64_t seed = 0;
};

// labels: one per vertex, -1 = unlabelled (in no set), classes 0 … max label.
// Throws when a class has fewer labelled vertices than the split takes.
DataSplit split_per_class(const std::vector<int64_t>& labels, const PerClassSplitOptions& options);

// A split by time, as temporal benchmarks take it: labelled vertices earlier than
// t1 train, those from t1 to before t2 validate, the rest (t2 on) test. Throws
// unless t1 < t2 and each set holds a vertex.
DataSplit split_by_time(const std::vector<int64_t>& labels, const std::vector<int64_t>& times, int64_t t1, int64_t t2);

}  // namespace matsamp
