#include "train/training_data.h"

#include <algorithm>
#include <cmath>

#include "graph/transform.h"
#include "io/binary_csr.h"
#include "ops/ops.h"

namespace matsamp {

namespace {

// The dataset's split, without unlabelled vertices (they cannot be scored);
// label_of(v) < 0 marks v unlabelled.
template <class LabelOf>
DataSplit given_split(const std::map<std::string, std::vector<vid_t>>& splits, LabelOf label_of) {
  MATSAMP_CHECK(splits.count("train"),
                "--split given: the graph has no split (an OGB dataset folder's split/, or a .msg converted from one)");
  auto labelled = [&](const char* name) {
    std::vector<vid_t> ids;
    auto it = splits.find(name);
    if (it != splits.end())
      for (vid_t v : it->second)
        if (label_of(v) >= 0) ids.push_back(v);
    return ids;
  };
  DataSplit split{labelled("train"), labelled("valid"), labelled("test")};
  MATSAMP_CHECK(!split.train.empty(), "--split given: no labelled vertex in the dataset's training set");
  return split;
}

std::vector<int64_t> labels_at(const std::vector<int64_t>& labels, const std::vector<vid_t>& ids) {
  std::vector<int64_t> out(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) out[i] = labels[ids[i]];
  return out;
}

void check_labels(const std::string& what, const std::vector<int64_t>& labels) {
  for (int64_t label : labels)
    MATSAMP_CHECK(label >= -1, what, ": label ", label, " is negative (-1 marks unlabelled)");
}

}  // namespace

bool uses_given_split(SplitChoice choice, const Graph& graph) {
  return choice == SplitChoice::given || (choice == SplitChoice::automatic && graph.has_split());
}

std::vector<vid_t> scored_vertices(const DataSplit& split) {
  std::vector<vid_t> all = split.train;
  all.insert(all.end(), split.validation.begin(), split.validation.end());
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

TrainingData prepare_training_data(Graph graph, const TrainingDataOptions& options,
                                   std::shared_ptr<const MappedFeatures> mapped) {
  MATSAMP_CHECK(graph.has_features() || mapped, "training needs vertex features; the graph has none");
  MATSAMP_CHECK(graph.has_labels(), "training needs vertex labels; the graph has none");
  validate(graph, "training graph");
  if (mapped) {
    MATSAMP_CHECK(!graph.has_features(), "training graph: features both read and mapped");
    MATSAMP_CHECK(mapped->rows() == graph.num_vertices(), "mapped features: ", mapped->rows(), " rows for ",
                  graph.num_vertices(), " vertices (a cleanup step dropped vertices; a mapping cannot follow)");
    MATSAMP_CHECK(!options.normalize_features, "mapped features are used as stored: normalizing writes every row");
  }
  if (options.normalize_features) normalize_feature_rows(graph);
  TrainingData data;
  data.mapped_features = std::move(mapped);
  data.split = uses_given_split(options.split_choice, graph)
                   ? given_split(graph.splits, [&](vid_t v) { return graph.labels[v]; })
                   : split_per_class(graph.labels, options.split);
  data.split_labels = labels_at(graph.labels, scored_vertices(data.split));
  data.num_classes = graph.num_classes();
  data.vertices = graph.num_vertices();
  data.graph = std::move(graph);
  return data;
}

void set_split(TrainingData& data, DataSplit split) {
  MATSAMP_CHECK(!data.partitioned, "a partitioned graph keeps the split it was read with");
  data.split = std::move(split);
  data.split_labels = labels_at(data.graph.labels, scored_vertices(data.split));
}

TrainingData read_partitioned_training_data(const std::string& path, const RowBlocks& blocks, int block,
                                            const TrainingDataOptions& options) {
  const BinaryCsrInfo info = read_binary_csr_info(path);
  MATSAMP_CHECK(info.has_features, "training needs vertex features; ", path, " has none");
  MATSAMP_CHECK(info.has_labels, "training needs vertex labels; ", path, " has none");
  MATSAMP_CHECK(blocks.n == info.vertices, path, ": ", info.vertices, " vertices, but the blocks cover ", blocks.n);
  TrainingData data;
  data.partitioned = true;
  data.vertices = info.vertices;
  const bool given = options.split_choice == SplitChoice::given ||
                     (options.split_choice == SplitChoice::automatic &&
                      std::count(info.splits.begin(), info.splits.end(), "train") > 0);
  if (given) {
    const auto splits = read_binary_splits(path);
    MATSAMP_CHECK(splits.count("train"), "--split given: ", path,
                  " has no split (convert an OGB dataset folder, whose split/ the .msg keeps)");
    std::vector<vid_t> all;
    for (const auto& [name, ids] : splits) all.insert(all.end(), ids.begin(), ids.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    const std::vector<int64_t> labels = read_binary_labels_at(path, all);
    check_labels(path, labels);
    const auto label_of = [&](vid_t v) { return labels[std::lower_bound(all.begin(), all.end(), v) - all.begin()]; };
    data.split = given_split(splits, label_of);
    for (vid_t v : scored_vertices(data.split)) data.split_labels.push_back(label_of(v));
    // Classes the split never shows cannot be told apart from absent ones.
    data.num_classes = 1 + *std::max_element(data.split_labels.begin(), data.split_labels.end());
  } else {
    const std::vector<int64_t> labels = read_binary_labels(path);  // once, for the per-class choice
    check_labels(path, labels);
    data.split = split_per_class(labels, options.split);
    data.split_labels = labels_at(labels, scored_vertices(data.split));
    data.num_classes = labels.empty() ? 0 : 1 + *std::max_element(labels.begin(), labels.end());
  }
  data.first_feature_row = blocks.begin(block);
  data.graph.feature_dim = info.feature_dim;
  data.graph.features = read_binary_feature_rows(path, blocks.begin(block), blocks.end(block));
  if (options.normalize_features) normalize_feature_rows(data.graph.features, info.feature_dim);
  return data;
}

void normalize_feature_rows(Graph& graph) { normalize_feature_rows(graph.features, graph.feature_dim); }

void normalize_feature_rows(std::vector<float>& features, int64_t feature_dim) {
  const int64_t f = feature_dim, n = f > 0 ? static_cast<int64_t>(features.size()) / f : 0;
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    float* row = features.data() + v * f;
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
