#include "train/edge_split.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "sampling/edge_seeds.h"
#include "sampling/epoch.h"

namespace matsamp {

namespace {

constexpr uint32_t kEdgeSplitEpoch = 0xED6E5000u;  // a shuffle key no training epoch uses
constexpr uint32_t kValidationNegativesEpoch = 0xED6E5001u, kTestNegativesEpoch = 0xED6E5002u;

// evaluation_negatives per positive: destinations that are no edge of the source
// (nor the source itself), drawn uniformly with fixed keys.
EdgeSet fixed_negatives(const CsrMatrix& adj, const EdgeSet& positives, int64_t per_positive, uint64_t seed,
                        uint32_t epoch) {
  EdgeSet out;
  if (per_positive == 0) return out;
  const NegativeSampler sampler(adj, {per_positive, NegativeDistribution::uniform, true});
  for (int64_t e = 0; e < positives.size(); ++e)
    for (int64_t i = 0; i < per_positive; ++i) {
      out.sources.push_back(positives.sources[e]);
      out.destinations.push_back(sampler.draw(positives.sources[e], seed, epoch, 0, e, i));
    }
  return out;
}

void check_options(const CsrMatrix& adj, const EdgeSplitOptions& options) {
  MATSAMP_CHECK(options.evaluation_negatives >= 0, "edge split: evaluation negatives must be non-negative, got ",
                options.evaluation_negatives);
  MATSAMP_CHECK(adj.rows == adj.cols, "edge split: the graph is not square (", adj.rows, " x ", adj.cols, ")");
}

// The candidate edges: each undirected one once (u < v), self-loops left out; with
// `entries`, each one's entry of adj.
EdgeSet candidate_edges(const CsrMatrix& adj, bool undirected, std::vector<int64_t>* entries = nullptr) {
  EdgeSet all;
  for (int64_t u = 0; u < adj.rows; ++u)
    for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) {
      const vid_t v = adj.colidx[e];
      if (v == u || (undirected && v < u)) continue;
      all.sources.push_back(u);
      all.destinations.push_back(v);
      if (entries) entries->push_back(e);
    }
  MATSAMP_CHECK(all.size() > 0, "edge split: the graph has no edges (other than self-loops)");
  return all;
}

// The training graph of split.train (both ways when undirected) and the fixed
// evaluation negatives.
void finish_split(const CsrMatrix& adj, const EdgeSplitOptions& options, EdgeSplit& split) {
  std::vector<int64_t> rows(split.train.sources.begin(), split.train.sources.end());
  std::vector<int64_t> cols(split.train.destinations.begin(), split.train.destinations.end());
  if (split.undirected) {
    rows.insert(rows.end(), split.train.destinations.begin(), split.train.destinations.end());
    cols.insert(cols.end(), split.train.sources.begin(), split.train.sources.end());
  }
  std::vector<float> values(rows.size(), 1.0f);
  split.train_graph = csr_from_triples(adj.rows, adj.cols, std::move(rows), std::move(cols), std::move(values));
  split.evaluation_negatives = options.evaluation_negatives;
  split.validation_negatives =
      fixed_negatives(adj, split.validation, options.evaluation_negatives, options.seed, kValidationNegativesEpoch);
  split.test_negatives =
      fixed_negatives(adj, split.test, options.evaluation_negatives, options.seed, kTestNegativesEpoch);
}

}  // namespace

EdgeSplit split_edges(const CsrMatrix& adj, const EdgeSplitOptions& options) {
  const double valid = options.validation_fraction, test = options.test_fraction;
  MATSAMP_CHECK(valid >= 0 && test >= 0 && valid + test < 1, "edge split: validation (", valid, ") and test (", test,
                ") fractions must be non-negative and leave edges to train on");
  check_options(adj, options);
  EdgeSplit split;
  split.undirected = is_pattern_symmetric(adj);
  const EdgeSet all = candidate_edges(adj, split.undirected);
  std::vector<vid_t> order(all.size());
  for (int64_t e = 0; e < all.size(); ++e) order[e] = e;
  order = shuffle_vertices(order, options.seed, kEdgeSplitEpoch);
  const auto count = [&](double fraction) { return static_cast<int64_t>(std::floor(fraction * all.size())); };
  const int64_t n_valid = count(valid), n_test = count(test), n_train = all.size() - n_valid - n_test;
  MATSAMP_CHECK(n_train > 0 && (valid == 0 || n_valid > 0) && (test == 0 || n_test > 0), "edge split: ", all.size(),
                " edges are too few for fractions ", valid, " and ", test, " (a set would be empty)");
  // Each set in ascending edge order, so that its edges do not depend on the shuffle's order within it.
  const auto take = [&](int64_t begin, int64_t end) {
    std::vector<vid_t> ids(order.begin() + begin, order.begin() + end);
    std::sort(ids.begin(), ids.end());
    EdgeSet s;
    for (vid_t e : ids) {
      s.sources.push_back(all.sources[e]);
      s.destinations.push_back(all.destinations[e]);
    }
    return s;
  };
  split.validation = take(0, n_valid);
  split.test = take(n_valid, n_valid + n_test);
  split.train = take(n_valid + n_test, all.size());

  finish_split(adj, options, split);
  return split;
}

EdgeSplit split_edges_by_time(const CsrMatrix& adj, const std::vector<int64_t>& entry_times, int64_t t1, int64_t t2,
                              const EdgeSplitOptions& options) {
  check_options(adj, options);
  MATSAMP_CHECK(static_cast<int64_t>(entry_times.size()) == adj.nnz(), "edge split by time: ", entry_times.size(),
                " edge times for ", adj.nnz(), " edges");
  MATSAMP_CHECK(t1 <= t2, "edge split by time: T1 (", t1, ") is after T2 (", t2, ")");
  EdgeSplit split;
  split.undirected = is_pattern_symmetric(adj);
  std::vector<int64_t> entries;
  const EdgeSet all = candidate_edges(adj, split.undirected, &entries);
  std::vector<vid_t> order(all.size());
  for (int64_t e = 0; e < all.size(); ++e) order[e] = e;
  std::stable_sort(order.begin(), order.end(),
                   [&](vid_t a, vid_t b) { return entry_times[entries[a]] < entry_times[entries[b]]; });
  EdgeSet* sets[3] = {&split.train, &split.validation, &split.test};
  for (vid_t e : order) {
    const int64_t t = entry_times[entries[e]];
    EdgeSet& set = *sets[t < t1 ? 0 : t < t2 ? 1 : 2];
    set.sources.push_back(all.sources[e]);
    set.destinations.push_back(all.destinations[e]);
    if (t < t1) split.train_times.push_back(t);
  }
  MATSAMP_CHECK(split.train.size() > 0 && split.validation.size() > 0, "edge split by time: of ", all.size(),
                " edges, ", split.train.size(), " are before T1 = ", t1, " (training) and ", split.validation.size(),
                " from T1 to before T2 = ", t2, " (validation); both need some");
  finish_split(adj, options, split);
  // Each training-graph entry's time: its edge's, found in adj's row (sorted, one
  // entry per pair) of the edge's source.
  const CsrMatrix& g = split.train_graph;
  split.train_graph_times.resize(g.nnz());
  for (int64_t r = 0; r < g.rows; ++r)
    for (int64_t e = g.rowptr[r]; e < g.rowptr[r + 1]; ++e) {
      const bool forward = !split.undirected || r < g.colidx[e];
      const int64_t u = forward ? r : g.colidx[e], v = forward ? g.colidx[e] : r;
      const auto row = adj.colidx.begin() + adj.rowptr[u], row_end = adj.colidx.begin() + adj.rowptr[u + 1];
      split.train_graph_times[e] = entry_times[std::lower_bound(row, row_end, v) - adj.colidx.begin()];
    }
  return split;
}

}  // namespace matsamp
