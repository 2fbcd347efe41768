#include "train/ogb_link_split.h"

#include <torch/serialize.h>
#include <torch/torch.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.h"

namespace matsamp {

namespace {

namespace fs = std::filesystem;

using TensorDict = c10::Dict<c10::IValue, c10::IValue>;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

TensorDict load_dict(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  MATSAMP_CHECK(in, "cannot read ", path, ": ", std::strerror(errno));
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  // torch.save writes a zip archive since torch 1.6; before, a bare pickle stream.
  MATSAMP_CHECK(bytes.size() >= 4 && bytes[0] == 'P' && bytes[1] == 'K', path,
                " is not in torch's zip format (a pickle saved before torch 1.6, which only Python reads); "
                "re-save it once: python -c \"import torch; torch.save(torch.load('",
                path, "'), '", path, "')\"");
  c10::IValue value;
  try {
    value = torch::pickle_load(bytes);
  } catch (const c10::Error& e) {
    fail("cannot read ", path, ": ", first_line(e.what_without_backtrace()));
  }
  MATSAMP_CHECK(value.isGenericDict(), path, " holds a ", value.tagKind(),
                ", not the dictionary of tensors of an OGB link split");
  return value.toGenericDict();
}

// The tensor under `key` as int64 ids in [0, n), or undefined when absent.
torch::Tensor ids(const TensorDict& dict, const std::string& key, int64_t n, const std::string& path) {
  const auto found = dict.find(c10::IValue(key));
  if (found == dict.end()) return {};
  MATSAMP_CHECK(found->value().isTensor(), path, ": '", key, "' is not a tensor");
  const torch::Tensor t = found->value().toTensor().to(torch::kCPU);
  MATSAMP_CHECK(!t.is_floating_point() && !t.is_complex() && t.scalar_type() != torch::kBool, path, ": '", key,
                "' holds ", t.scalar_type(), " values, not vertex ids");
  const torch::Tensor out = t.to(torch::kLong).contiguous();
  if (out.numel() > 0) {
    const int64_t low = out.min().item<int64_t>(), high = out.max().item<int64_t>();
    MATSAMP_CHECK(low >= 0 && high < n, path, ": '", key, "' has vertex ids in [", low, ", ", high,
                  "], outside the graph's [0, ", n, ")");
  }
  return out;
}

EdgeSet pairs(const torch::Tensor& t, const std::string& key, const std::string& path) {
  MATSAMP_CHECK(t.dim() == 2 && t.size(1) == 2, path, ": '", key, "' has shape ", t.sizes(), ", expected [E, 2]");
  EdgeSet out;
  const int64_t* p = t.data_ptr<int64_t>();
  for (int64_t e = 0; e < t.size(0); ++e) {
    out.sources.push_back(p[2 * e]);
    out.destinations.push_back(p[2 * e + 1]);
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
  if (const torch::Tensor edge = ids(dict, "edge", n, path); edge.defined()) {
    out.positives = pairs(edge, "edge", path);
    if (const torch::Tensor neg = ids(dict, "edge_neg", n, path); neg.defined()) {
      out.negatives = pairs(neg, "edge_neg", path);
      out.has_negatives = true;
    }
    return out;
  }
  const torch::Tensor source = ids(dict, "source_node", n, path), target = ids(dict, "target_node", n, path);
  MATSAMP_CHECK(source.defined() && target.defined(), path,
                " has neither 'edge' nor 'source_node' and 'target_node' (a knowledge-graph split with "
                "'head', 'relation', 'tail' is not a link-property one matsamp reads)");
  MATSAMP_CHECK(source.dim() == 1 && target.sizes() == source.sizes(), path, ": 'source_node' ", source.sizes(),
                " and 'target_node' ", target.sizes(), " must be vectors of one length");
  out.positives.sources.assign(source.data_ptr<int64_t>(), source.data_ptr<int64_t>() + source.numel());
  out.positives.destinations.assign(target.data_ptr<int64_t>(), target.data_ptr<int64_t>() + target.numel());
  if (const torch::Tensor neg = ids(dict, "target_node_neg", n, path); neg.defined()) {
    MATSAMP_CHECK(neg.dim() == 2 && neg.size(0) == source.numel() && neg.size(1) > 0, path,
                  ": 'target_node_neg' has shape ", neg.sizes(), ", expected [", source.numel(), ", K]");
    out.per_source = neg.size(1);
    const int64_t* p = neg.data_ptr<int64_t>();
    for (int64_t e = 0; e < neg.numel(); ++e) {
      out.negatives.sources.push_back(out.positives.sources[e / out.per_source]);
      out.negatives.destinations.push_back(p[e]);
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
