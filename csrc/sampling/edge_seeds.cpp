#include "sampling/edge_seeds.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/philox.h"
#include "sampling/capabilities.h"
#include "sampling/epoch.h"

namespace matsamp {

namespace {

constexpr uint32_t kNegativeTag = 0xE0u;  // the RandomKey layer of negative draws (no sampler layer uses it)
constexpr uint32_t kMaxRejections = 64;

bool has_edge(const CsrMatrix& adj, vid_t u, vid_t v) {
  const auto begin = adj.colidx.begin() + adj.rowptr[u], end = adj.colidx.begin() + adj.rowptr[u + 1];
  return std::binary_search(begin, end, static_cast<col_t>(v));
}

// Position of v in the sorted block [begin, end).
int64_t position_in(const std::vector<vid_t>& seeds, int64_t begin, int64_t end, vid_t v) {
  return std::lower_bound(seeds.begin() + begin, seeds.begin() + end, v) - seeds.begin() - begin;
}

}  // namespace

NegativeDistribution parse_negative_distribution(const std::string& name) {
  if (name == "uniform") return NegativeDistribution::uniform;
  if (name == "degree") return NegativeDistribution::degree;
  fail("unknown negative distribution '", name, "' (expected uniform or degree)");
}

NegativeSampler::NegativeSampler(const CsrMatrix& adj, const NegativeOptions& options) : adj_(adj), options_(options) {
  MATSAMP_CHECK(options.per_positive >= 1, "negatives per positive must be at least 1, got ", options.per_positive);
  MATSAMP_CHECK(adj.rows > 0 && adj.rows == adj.cols, "negative sampling needs a square, non-empty graph (got ",
                adj.rows, " x ", adj.cols, ")");
  if (options.distribution != NegativeDistribution::degree) return;
  cumulative_.resize(adj.rows);
  double total = 0;
  for (int64_t v = 0; v < adj.rows; ++v) cumulative_[v] = total += std::pow(static_cast<double>(adj.row_nnz(v)), 0.75);
  MATSAMP_CHECK(total > 0, "negative sampling by degree: the graph has no edges");
}

vid_t NegativeSampler::draw(vid_t source, uint64_t seed, uint32_t epoch, int64_t minibatch, int64_t j, int64_t i,
                            const std::vector<int64_t>* vertex_times, int64_t latest) const {
  const RandomKey key{seed, epoch, kNegativeTag, static_cast<uint64_t>(minibatch),
                      static_cast<uint64_t>(j * options_.per_positive + i)};
  vid_t v = 0;
  for (uint32_t attempt = 0; attempt <= kMaxRejections; ++attempt) {
    const uint64_t bits = random_bits(key, attempt);
    if (cumulative_.empty()) {
      v = static_cast<vid_t>(scale_to(bits, static_cast<uint64_t>(adj_.rows)));
    } else {
      const double u = uniform01(bits) * cumulative_.back();
      v = std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin();
      v = std::min<vid_t>(v, adj_.rows - 1);
    }
    const bool known = options_.reject_known_edges && has_edge(adj_, source, v);
    if (!known && (!vertex_times || (*vertex_times)[v] <= latest)) break;
  }
  return v;
}

double NegativeSampler::probability(vid_t v) const {
  if (cumulative_.empty()) return 1.0 / static_cast<double>(adj_.rows);
  return (cumulative_[v] - (v > 0 ? cumulative_[v - 1] : 0.0)) / cumulative_.back();
}

EdgeBulk make_edge_bulk(std::vector<vid_t> sources, std::vector<vid_t> destinations, Offsets edge_offsets,
                        int64_t first_minibatch, const NegativeSampler* negatives, const EdgeBulkOptions& options) {
  MATSAMP_CHECK(sources.size() == destinations.size() && !edge_offsets.empty() &&
                    edge_offsets.back() == static_cast<int64_t>(sources.size()),
                "edge minibatches: ", sources.size(), " sources, ", destinations.size(), " destinations, offsets to ",
                edge_offsets.empty() ? 0 : edge_offsets.back());
  EdgeBulk b;
  b.first_minibatch = first_minibatch;
  b.sources = std::move(sources);
  b.destinations = std::move(destinations);
  b.edge_offsets = std::move(edge_offsets);
  const int64_t kn = negatives ? negatives->options().per_positive : 0;
  b.negatives_per_positive = kn;
  b.negatives.resize(b.sources.size() * kn);
  for (int64_t g = 0; g < b.count(); ++g) {
    const int64_t begin = b.edge_offsets[g], end = b.edge_offsets[g + 1];
    for (int64_t e = begin; e < end && kn > 0; ++e)
      for (int64_t i = 0; i < kn; ++i)
        b.negatives[e * kn + i] = negatives->draw(b.sources[e], options.seed, options.epoch, first_minibatch + g,
                                                  e - begin, i, options.edge_times ? options.vertex_times : nullptr,
                                                  options.edge_times ? (*options.edge_times)[e] : 0);
    // The seeds: sources, destinations and negatives of the minibatch (distinct and
    // ascending, or as trees: in that order).
    const int64_t seeds_begin = static_cast<int64_t>(b.seeds.size()), n = end - begin;
    b.seeds.insert(b.seeds.end(), b.sources.begin() + begin, b.sources.begin() + end);
    b.seeds.insert(b.seeds.end(), b.destinations.begin() + begin, b.destinations.begin() + end);
    b.seeds.insert(b.seeds.end(), b.negatives.begin() + begin * kn, b.negatives.begin() + end * kn);
    if (!options.trees) {
      std::sort(b.seeds.begin() + seeds_begin, b.seeds.end());
      b.seeds.erase(std::unique(b.seeds.begin() + seeds_begin, b.seeds.end()), b.seeds.end());
    }
    const int64_t seeds_end = static_cast<int64_t>(b.seeds.size());
    b.seed_offsets.push_back(seeds_end);
    const auto index = [&](vid_t v, int64_t tree) {
      return options.trees ? tree : position_in(b.seeds, seeds_begin, seeds_end, v);
    };
    std::vector<std::pair<vid_t, vid_t>> excluded;
    for (int64_t e = begin; e < end; ++e) {
      b.source_index.push_back(index(b.sources[e], e - begin));
      b.destination_index.push_back(index(b.destinations[e], n + e - begin));
      for (int64_t i = 0; i < kn; ++i)
        b.negative_index.push_back(index(b.negatives[e * kn + i], 2 * n + (e - begin) * kn + i));
      if (options.exclude) excluded.emplace_back(b.sources[e], b.destinations[e]);
      if (options.exclude && options.exclude_reverse) excluded.emplace_back(b.destinations[e], b.sources[e]);
    }
    b.excluded.add_minibatch(std::move(excluded));
  }
  return b;
}

Bulk sample_edge_bulk(const Sampler& sampler, Context& ctx, const EdgeBulk& edges, uint32_t epoch) {
  if (edges.count() == 0) return Bulk{edges.first_minibatch, {}, {0}, {}};  // a rank's lanes that ran out
  if (edges.excluded.edges.empty())
    return sampler.sample(ctx, edges.seeds, edges.seed_offsets, edges.first_minibatch, epoch);
  return require_capability<EdgeSeedSampler>(sampler).sample_excluding(ctx, edges.seeds, edges.seed_offsets,
                                                                       edges.first_minibatch, epoch, edges.excluded);
}

Bulk sample_edge_trees(const Sampler& sampler, Context& ctx, const EdgeBulk& edges, uint32_t epoch,
                       const TemporalEpoch& times, const std::vector<int64_t>& edge_times, int64_t first_tree) {
  MATSAMP_CHECK(static_cast<int64_t>(edge_times.size()) == edges.positives() && edges.excluded.edges.empty() &&
                    static_cast<int64_t>(edges.seeds.size()) == edges.positives() * (2 + edges.negatives_per_positive),
                "edge trees by time: a bulk of ", edges.positives(), " positives needs as many times (got ",
                edge_times.size(), "), one tree per endpoint and negative, and no excluded edges");
  // Tree t of minibatch g belongs to positive edge_offsets[g] + (t mod n), n its positives.
  std::vector<int64_t> seed_times(edges.seeds.size());
  for (int64_t g = 0; g < edges.count(); ++g) {
    const int64_t begin = edges.edge_offsets[g], n = edges.edge_offsets[g + 1] - begin;
    const int64_t kn = edges.negatives_per_positive, trees_begin = edges.seed_offsets[g];
    for (int64_t e = 0; e < n; ++e) {
      const int64_t before = edge_times[begin + e] - 1;
      seed_times[trees_begin + e] = seed_times[trees_begin + n + e] = before;
      for (int64_t i = 0; i < kn; ++i) seed_times[trees_begin + 2 * n + e * kn + i] = before;
    }
  }
  return sample_trees_by_time(sampler, ctx, edges.seeds, std::move(seed_times), edges.seed_offsets,
                              edges.first_minibatch, first_tree, epoch, times);
}

}  // namespace matsamp
