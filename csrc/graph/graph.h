// A graph as the engine sees it: adjacency in CSR, optional dense vertex and
// edge features and labels.
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
  // Edge features: row e belongs to the adjacency's entry e (colidx[e] of its
  // row), so every transformation of adj that moves entries moves these rows too.
  int64_t edge_feature_dim = 0;      // 0 when the graph has none
  std::vector<float> edge_features;  // nnz * edge_feature_dim, row-major
  std::vector<int64_t> labels;       // empty, or one per vertex (-1 = unlabelled)
  // Empty, or one per vertex: when it appears (ogbn-arxiv's year), what sampling
  // by time keeps to (a seed's time, a neighbour's time).
  std::vector<int64_t> vertex_times;
  // Named vertex sets a dataset ships ("train", "valid", "test"), ascending ids.
  std::map<std::string, std::vector<vid_t>> splits;

  int64_t num_vertices() const { return adj.rows; }
  int64_t num_edges() const { return adj.nnz(); }
  bool has_features() const { return feature_dim > 0; }
  bool has_edge_features() const { return edge_feature_dim > 0; }
  bool has_labels() const { return !labels.empty(); }
  bool has_vertex_times() const { return !vertex_times.empty(); }
  bool has_split() const { return splits.count("train") > 0; }
  int64_t num_classes() const;  // 1 + max label, 0 without labels
};

// Throws unless the parts agree (square adjacency, feature and label counts = n,
// edge feature rows = nnz, split ids in [0, n) and ascending without repeats).
void validate(const Graph& g, const std::string& what);

// Rows origin[0], origin[1], ... of the row-major `rows` of width `dim`: the
// edge features of a transformed adjacency whose entry e was entry origin[e].
std::vector<float> gather_rows(const std::vector<float>& rows, int64_t dim, const std::vector<int64_t>& origin);

}  // namespace matsamp
