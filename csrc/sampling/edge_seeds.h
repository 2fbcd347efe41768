// Link prediction's minibatches in matrix form. A minibatch of seed edges is a
// pair of seed matrices (sources, destinations) plus a negative one: k negative
// destinations per positive, corrupting its destination. Its seed vertices are
// the union of the three, deduplicated (ascending id), with each edge's
// endpoints as positions in that list; its layers are then sampled from those
// seeds as from vertex seeds, with its positive edges (and, on request, their
// reverses) masked out of the rows the layers sample from (ExcludedEdges).
#pragma once
#include <vector>

#include "core/csr.h"
#include "sampling/excluded_edges.h"
#include "sampling/sampler.h"

namespace matsamp {

struct TemporalEpoch;

enum class NegativeDistribution {
  uniform,  // every vertex alike
  degree,   // proportional to degree^0.75 (entries of its row), as word2vec's unigram table
};

struct NegativeOptions {
  int64_t per_positive = 1;
  NegativeDistribution distribution = NegativeDistribution::uniform;
  bool reject_known_edges = false;  // redraw a negative that is an edge of the source
};

NegativeDistribution parse_negative_distribution(const std::string& name);  // "uniform" or "degree"

// Negative destinations drawn with the engine's counter-based keys, so that the
// same seed gives the same negatives on every backend, bulk size and rank count.
class NegativeSampler {
 public:
  NegativeSampler(const CsrMatrix& adj, const NegativeOptions& options);
  const NegativeOptions& options() const { return options_; }
  // Negative i of positive j (source `source`) of global minibatch m in epoch
  // `epoch`: key (seed, epoch, tag, m, j·k + i); with rejection, draws 1, 2, …
  // (at most 64) replace one that is an edge source → destination, and with
  // `vertex_times`, one whose time is later than `latest` (a temporal positive's:
  // PyG's rule for negatives of a time; after 64 the last draw stands).
  vid_t draw(vid_t source, uint64_t seed, uint32_t epoch, int64_t minibatch, int64_t j, int64_t i,
             const std::vector<int64_t>* vertex_times = nullptr, int64_t latest = 0) const;
  // The probability of drawing v (before rejection): for tests.
  double probability(vid_t v) const;

 private:
  const CsrMatrix& adj_;
  NegativeOptions options_;
  std::vector<double> cumulative_;  // degree: running sums of weight^0.75, cumulative_.back() = total
};

// k stacked edge minibatches on the host, ready to be sampled.
struct EdgeBulk {
  int64_t first_minibatch = 0;
  Offsets edge_offsets{0};  // k + 1: minibatch g holds positives [edge_offsets[g], edge_offsets[g+1])
  std::vector<vid_t> sources, destinations;
  int64_t negatives_per_positive = 0;
  std::vector<vid_t> negatives;  // positive e's are negatives[e·k_neg …)
  std::vector<vid_t> seeds;      // per minibatch: sorted, distinct endpoints and negatives
  Offsets seed_offsets{0};
  // Positions of each edge's vertices within its minibatch's seeds block.
  std::vector<int64_t> source_index, destination_index, negative_index;
  ExcludedEdges excluded;  // empty blocks when nothing is excluded

  int64_t count() const { return static_cast<int64_t>(edge_offsets.size()) - 1; }
  int64_t positives() const { return static_cast<int64_t>(sources.size()); }
};

struct EdgeBulkOptions {
  uint64_t seed = 1;
  uint32_t epoch = 0;
  bool exclude = true;           // the minibatch's positives out of its layers
  bool exclude_reverse = false;  // ... and their reverses (undirected graphs stored both ways)
  // Temporal link prediction: each positive's time (edge_times[e]) and the vertices'
  // times; its negatives are drawn no later than it (NegativeSampler::draw). Borrowed.
  const std::vector<int64_t>* edge_times = nullptr;
  const std::vector<int64_t>* vertex_times = nullptr;
  // Sampling by time (sample_edge_trees): every source, destination and negative a
  // tree of its own, minibatch g's seeds its sources, then destinations, then
  // negatives, in order and not merged (a vertex seeds a tree per occurrence).
  bool trees = false;
};

// The bulk of minibatches first … first + k - 1 whose positives are `sources`
// and `destinations` cut by `edge_offsets`, with negatives from `negatives`
// (none when null).
EdgeBulk make_edge_bulk(std::vector<vid_t> sources, std::vector<vid_t> destinations, Offsets edge_offsets,
                        int64_t first_minibatch, const NegativeSampler* negatives, const EdgeBulkOptions& options);

// The bulk's layers: sample_excluding with the bulk's excluded edges (an
// error unless the sampler is an EdgeSeedSampler), or sample() when nothing is excluded.
Bulk sample_edge_bulk(const Sampler& sampler, Context& ctx, const EdgeBulk& edges, uint32_t epoch);

// The layers of a bulk made with `trees`, by time (a TemporalSampler): the trees of
// positive e, the e-th of the bulk, sampled strictly before edge_times[e], so that
// no tree holds its own edge (a simple graph has it once) or any later one; tree
// keys from first_tree on, (2 + k) per positive in epoch order, as for any bulk size.
Bulk sample_edge_trees(const Sampler& sampler, Context& ctx, const EdgeBulk& edges, uint32_t epoch,
                       const TemporalEpoch& times, const std::vector<int64_t>& edge_times, int64_t first_tree);

}  // namespace matsamp
