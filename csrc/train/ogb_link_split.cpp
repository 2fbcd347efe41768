#include "train/ogb_link_split.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/error.h"
#include "io/torch_save.h"

namespace matsamp {

namespace {

namespace fs = std::filesystem;

using TensorDict = std::map<std::string, SavedTensor>;

TensorDict load_dict(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  MATSAMP_CHECK(in, "cannot read ", path, ": ", std::strerror(errno));
  char magic[2] = {0, 0};
  in.read(magic, 2);
  // torch.save writes a zip archive since torch 1.6; before, a bare pickle stream.
  MATSAMP_CHECK(magic[0] == 'P' && magic[1] == 'K', path,
                " is not in torch's zip format (a pickle saved before torch 1.6, which only Python reads); "
                "re-save it once: python -c \"import torch; torch.save(torch.load('",
                path, "'), '", path, "')\"");
  return read_saved_tensors(path);
}

// The tensor under `key`, its ids checked to lie in [0, n); nullptr when absent.
const SavedTensor* ids(const TensorDict& dict, const std::string& key, int64_t n, const std::string& path) {
  const auto found = dict.find(key);
  if (found == dict.end()) return nullptr;
  const SavedTensor& t = found->second;
  MATSAMP_CHECK(!t.dtype.empty(), path, ": '", key, "' is not a tensor");
  MATSAMP_CHECK(t.is_integer(), path, ": '", key, "' holds ", t.dtype, " values, not vertex ids");
  if (!t.values.empty()) {
    const auto [low, high] = std::minmax_element(t.values.begin(), t.values.end());
    MATSAMP_CHECK(*low >= 0 && *high < n, path, ": '", key, "' has vertex ids in [", *low, ", ", *high,
                  "], outside the graph's [0, ", n, ")");
  }
  return &t;
}

EdgeSet pairs(const SavedTensor& t, const std::string& key, const std::string& path) {
  MATSAMP_CHECK(t.shape.size() == 2 && t.shape[1] == 2, path, ": '", key, "' has shape ", shape_string(t.shape),
                ", expected [E, 2]");
  EdgeSet out;
  for (int64_t e = 0; e < t.shape[0]; ++e) {
    out.sources.push_back(t.values[2 * e]);
    out.destinations.push_back(t.values[2 * e + 1]);
  }
  return out;
}

// One file's positives, and its negatives (per_source: K per positive, or 0 for a pool).
struct SetRead {
  EdgeSet positives, negatives;
  int64_t per_source = 0;
  bool has_negatives = false;
};

SetRead read_set(const std::string& path, int64_t n) {
  MATSAMP_CHECK(fs::is_regular_file(path), "OGB link split: ", path, " is missing");
  const TensorDict dict = load_dict(path);
  SetRead out;
  if (const SavedTensor* edge = ids(dict, "edge", n, path)) {
    out.positives = pairs(*edge, "edge", path);
    if (const SavedTensor* neg = ids(dict, "edge_neg", n, path)) {
      out.negatives = pairs(*neg, "edge_neg", path);
      out.has_negatives = true;
    }
    return out;
  }
  const SavedTensor *source = ids(dict, "source_node", n, path), *target = ids(dict, "target_node", n, path);
  MATSAMP_CHECK(source && target, path,
                " has neither 'edge' nor 'source_node' and 'target_node' (a knowledge-graph split with "
                "'head', 'relation', 'tail' is not a link-property one matsamp reads)");
  MATSAMP_CHECK(source->shape.size() == 1 && target->shape == source->shape, path, ": 'source_node' ",
                shape_string(source->shape), " and 'target_node' ", shape_string(target->shape),
                " must be vectors of one length");
  out.positives.sources.assign(source->values.begin(), source->values.end());
  out.positives.destinations.assign(target->values.begin(), target->values.end());
  if (const SavedTensor* neg = ids(dict, "target_node_neg", n, path)) {
    const int64_t sources = static_cast<int64_t>(source->values.size());
    MATSAMP_CHECK(neg->shape.size() == 2 && neg->shape[0] == sources && neg->shape[1] > 0, path,
                  ": 'target_node_neg' has shape ", shape_string(neg->shape), ", expected [", sources, ", K]");
    out.per_source = neg->shape[1];
    for (size_t e = 0; e < neg->values.size(); ++e) {
      out.negatives.sources.push_back(out.positives.sources[e / out.per_source]);
      out.negatives.destinations.push_back(neg->values[e]);
    }
    out.has_negatives = true;
  }
  return out;
}

}  // namespace

EdgeSplit read_ogb_link_split(const std::string& train_pt, const CsrMatrix& graph) {
  MATSAMP_CHECK(graph.rows == graph.cols, "OGB link split: the graph is not square (", graph.rows, " x ", graph.cols,
                ")");
  const fs::path dir = fs::path(train_pt).parent_path();
  const int64_t n = graph.rows;
  EdgeSplit split;
  split.train_graph = graph;
  split.undirected = is_pattern_symmetric(graph);
  split.train = read_set(train_pt, n).positives;
  MATSAMP_CHECK(split.train.size() > 0, train_pt, " has no training edges");
  SetRead valid = read_set((dir / "valid.pt").string(), n), test = read_set((dir / "test.pt").string(), n);
  for (const auto* set : {&valid, &test})
    MATSAMP_CHECK(set->has_negatives && set->positives.size() > 0,
                  (dir / (set == &valid ? "valid.pt" : "test.pt")).string(),
                  " has no positives or no negatives ('edge_neg' or 'target_node_neg') to score them against");
  MATSAMP_CHECK(valid.per_source == test.per_source, "OGB link split in ", dir.string(),
                ": valid.pt and test.pt rank negatives differently (", valid.per_source, " and ", test.per_source,
                " per source)");
  split.validation = std::move(valid.positives);
  split.validation_negatives = std::move(valid.negatives);
  split.test = std::move(test.positives);
  split.test_negatives = std::move(test.negatives);
  split.evaluation_negatives = valid.per_source;
  return split;
}

}  // namespace matsamp
