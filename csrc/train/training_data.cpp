#include "train/training_data.h"

#include <algorithm>
#include <cmath>

#include "graph/transform.h"
#include "ops/ops.h"

namespace matsamp {

namespace {

// The dataset's split, without unlabelled vertices (they cannot be scored).
DataSplit given_split(const Graph& graph) {
  MATSAMP_CHECK(graph.has_split(),
                "--split given: the graph has no split (an OGB dataset folder's split/, or a .msg converted from one)");
  auto labelled = [&](const char* name) {
    std::vector<vid_t> ids;
    auto it = graph.splits.find(name);
    if (it != graph.splits.end())
      for (vid_t v : it->second)
        if (graph.labels[v] >= 0) ids.push_back(v);
    return ids;
  };
  DataSplit split{labelled("train"), labelled("valid"), labelled("test")};
  MATSAMP_CHECK(!split.train.empty(), "--split given: no labelled vertex in the dataset's training set");
  return split;
}

}  // namespace

SplitChoice parse_split_choice(const std::string& text) {
  if (text == "auto") return SplitChoice::automatic;
  if (text == "given") return SplitChoice::given;
  if (text == "random") return SplitChoice::random;
  fail("unknown split '", text, "' (auto, given or random)");
}

bool uses_given_split(SplitChoice choice, const Graph& graph) {
  return choice == SplitChoice::given || (choice == SplitChoice::automatic && graph.has_split());
}

TrainingData prepare_training_data(Graph graph, const TrainingDataOptions& options) {
  MATSAMP_CHECK(graph.has_features(), "training needs vertex features; the graph has none");
  MATSAMP_CHECK(graph.has_labels(), "training needs vertex labels; the graph has none");
  validate(graph, "training graph");
  if (options.normalize_features) normalize_feature_rows(graph);
  TrainingData data;
  data.split = uses_given_split(options.split_choice, graph) ? given_split(graph)
                                                             : split_per_class(graph.labels, options.split);
  data.num_classes = graph.num_classes();
  data.graph = std::move(graph);
  return data;
}

void normalize_feature_rows(Graph& graph) {
  const int64_t n = graph.num_vertices(), f = graph.feature_dim;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    float* row = graph.features.data() + v * f;
    double sum = 0;
    for (int64_t j = 0; j < f; ++j) sum += std::fabs(row[j]);
    if (sum == 0) continue;
    for (int64_t j = 0; j < f; ++j) row[j] = static_cast<float>(row[j] / sum);
  }
}

CsrMatrix full_neighbourhood_matrix(const CsrMatrix& adj, Aggregation aggregation) {
  CsrMatrix m;
  if (aggregation == Aggregation::gcn) {
    m = gcn_normalize(adj);
  } else {
    m = adj;
    m.values.assign(m.colidx.size(), 1.0f);  // the sampler ignores edge weights too
  }
  normalize_rows(m);
  return m;
}

}  // namespace matsamp
