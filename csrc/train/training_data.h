// A graph made ready for node classification: checked, features normalized,
// vertices split. The graph is expected to be cleaned already (symmetric, and
// the largest component when the split should follow Shchur et al.).
#pragma once
#include <memory>
#include <string>

#include "core/row_blocks.h"
#include "graph/graph.h"
#include "io/mapped_features.h"
#include "train/split.h"

namespace matsamp {

// Which vertices train, validate and test: the dataset's own split (its
// "train", "valid" and "test" sets), or a seeded per-class one.
enum class SplitChoice {
  automatic,  // the dataset's when it has one, else random
  given,
  random,
};
// Whether `choice` trains on the dataset's own split of `graph`.
bool uses_given_split(SplitChoice choice, const Graph& graph);

struct TrainingDataOptions {
  bool normalize_features = true;  // bag-of-words features train better as frequencies
  SplitChoice split_choice = SplitChoice::automatic;
  PerClassSplitOptions split;  // for the random split
};

struct TrainingData {
  // Replicated training: the whole graph. Graph-partitioned training: no
  // adjacency and no labels (the sampler's graph holds this rank's block row of
  // A), and the features of the rows [first_feature_row, +feature_rows()) only.
  Graph graph;
  // train --map-features: the feature rows as a mapping of the .msg file
  // (graph.features then stays empty); aligned with the graph's vertices.
  std::shared_ptr<const MappedFeatures> mapped_features;
  bool partitioned = false;
  int64_t vertices = 0;  // of the whole graph
  int64_t first_feature_row = 0;
  // Graph-partitioned training with explanation-guided sampling: this rank's
  // block row of A (the sampler's graph holds it; borrowed).
  const CsrMatrix* block_rows = nullptr;
  DataSplit split;
  std::vector<int64_t> split_labels;  // the labels of scored_vertices(split), in that order
  int64_t num_classes = 0;

  int64_t feature_dim() const { return mapped_features ? mapped_features->dim() : graph.feature_dim; }
  int64_t feature_rows() const {
    if (mapped_features) return mapped_features->rows();
    return graph.feature_dim > 0 ? static_cast<int64_t>(graph.features.size()) / graph.feature_dim : 0;
  }
};

// Replaces the split of replicated training data (and the labels it scores).
void set_split(TrainingData& data, DataSplit split);

// Every vertex of the split once, ascending: the vertices a trainer scores.
std::vector<vid_t> scored_vertices(const DataSplit& split);

// Throws a one-line error when the graph cannot be trained on (no features, no
// labels, counts that disagree with n, too few vertices of a class, a given
// split asked of a graph without one or with no labelled training vertex).
// With `mapped`, those are the features (one row per vertex; never normalized:
// that would write every row).
TrainingData prepare_training_data(Graph graph, const TrainingDataOptions& options,
                                   std::shared_ptr<const MappedFeatures> mapped = nullptr);

// What one rank of graph-partitioned training reads of a .msg file (and no
// more): the feature rows of block `block` of `blocks`, the split (the file's
// own, or a seeded per-class one, for which every label is read once), and the
// labels of the split's vertices; each part verified against its checksums.
// The graph is used as stored (no cleanup). Throws as prepare_training_data.
TrainingData read_partitioned_training_data(const std::string& path, const RowBlocks& blocks, int block,
                                            const TrainingDataOptions& options);

// Divides each feature row by its sum of absolute values (zero rows stay zero).
void normalize_feature_rows(Graph& graph);
void normalize_feature_rows(std::vector<float>& features, int64_t feature_dim);

// How a model aggregates neighbours, and the full-neighbourhood matrix that
// evaluation multiplies with in place of the sampled ones.
enum class Aggregation {
  mean,  // GraphSAGE: D^-1 A (the expectation of the sampled 1/count rows)
  gcn,   // GCN: Â = D^-1/2 (A+I) D^-1/2, row-normalized like LADIES/FastGCN layers
};
CsrMatrix full_neighbourhood_matrix(const CsrMatrix& adj, Aggregation aggregation);

}  // namespace matsamp
