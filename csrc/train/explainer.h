// DGS's explanation of a partition (dgs.txt, §III-B and C): the partition's vertices
// pooled into one super-vertex joined to each of its remote neighbours and to
// itself (the explanation graph), and GNNExplainer's masks learned on it for the
// model's prediction of that super-vertex: how much the prediction rests on each
// remote vertex (the node mask) and on each feature dimension (the feature mask).
// The sampler then draws remote neighbours by the node mask and the fetch sends
// remote rows' top feature dimensions (sampling/dgs.cpp, FeatureFetcher).
#pragma once
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "core/csr.h"
#include "train/models.h"

namespace matsamp {

struct ExplanationGraph {
  vid_t first = 0, end = 0;   // the partition: vertices [first, end)
  std::vector<vid_t> remote;  // the columns of its rows outside it, ascending
};

// rows: the partition's rows of A (row i is vertex first + i).
ExplanationGraph explanation_graph(const CsrMatrix& rows, vid_t first);

struct ExplainerOptions {  // GNNExplainer's defaults
  int64_t steps = 100;
  double learning_rate = 0.01;
  double node_size = 0.005, node_entropy = 1.0;
  double feature_size = 1.0, feature_entropy = 0.1;
  uint64_t seed = 0;  // the masks' initial values
};

struct ExplanationMasks {
  std::vector<float> remote;    // one per ExplanationGraph::remote, in (0, 1)
  std::vector<float> features;  // one per feature dimension, in (0, 1)
};

// Learns the masks for `model` (a snapshot: only the masks change; it runs in
// evaluation mode). local_features: the partition's feature rows (pooled by their
// mean); remote_features: one row per remote vertex, in graph.remote's order.
ExplanationMasks explain_partition(GnnModel& model, const ExplanationGraph& graph, const torch::Tensor& local_features,
                                   const torch::Tensor& remote_features, const ExplainerOptions& options = {});

}  // namespace matsamp
