// A graph as the engine sees it: adjacency in CSR, optional dense features and labels.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/csr.h"

namespace matsamp {

struct Graph {
  CsrMatrix adj;                // n x n
  int64_t feature_dim = 0;      // 0 when the graph has no features
  std::vector<float> features;  // n * feature_dim, row-major
  std::vector<int64_t> labels;  // empty, or one per vertex (-1 = unlabelled)
  // Named vertex sets a dataset ships ("train", "valid", "test"), ascending ids.
  std::map<std::string, std::vector<vid_t>> splits;

  int64_t num_vertices() const { return adj.rows; }
  int64_t num_edges() const { return adj.nnz(); }
  bool has_features() const { return feature_dim > 0; }
  bool has_labels() const { return !labels.empty(); }
  bool has_split() const { return splits.count("train") > 0; }
  int64_t num_classes() const;  // 1 + max label, 0 without labels
};

// Throws unless the parts agree (square adjacency, feature and label counts = n,
// split ids in [0, n) and ascending without repeats).
void validate(const Graph& g, const std::string& what);

}  // namespace matsamp
