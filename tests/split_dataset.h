// A small labelled dataset with its own split, for the tests of dataset
// folders, .msg and `train --split given`.
#pragma once
#include "generate/generators.h"

namespace matsamp::testing {

// 600 planted-partition vertices (3 classes, 16 features); vertex v is in
// "train" when v % 10 < 6, "valid" when < 8, else "test" (360 / 120 / 120).
inline Graph split_dataset() {
  PlantedPartitionOptions o;
  o.vertices = 600;
  o.classes = 3;
  o.feature_dim = 16;
  o.seed = 3;
  Graph g = generate_planted_partition(o);
  for (int64_t v = 0; v < g.num_vertices(); ++v)
    g.splits[v % 10 < 6 ? "train" : v % 10 < 8 ? "valid" : "test"].push_back(v);
  return g;
}

}  // namespace matsamp::testing
