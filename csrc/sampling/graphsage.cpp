// GraphSAGE as a matrix program: P = Q·A (Q selects the frontier), ITS picks
// fanout neighbours per row, compact_columns builds the next frontier.
#include <algorithm>

#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

class GraphSageSampler final : public Sampler {
 public:
  GraphSageSampler(const CsrMatrix& adj, std::vector<int64_t> fanouts, uint64_t seed)
      : adj_(adj), fanouts_(std::move(fanouts)), seed_(seed) {
    check_layer_sizes(fanouts_, "GraphSAGE fanouts");
    MATSAMP_CHECK(adj_.rows == adj_.cols, "GraphSAGE: adjacency is not square (", adj_.shape(), ")");
  }

  std::string name() const override { return "graphsage"; }
  int num_layers() const override { return static_cast<int>(fanouts_.size()); }

  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                    int64_t first_minibatch, uint32_t epoch, Backend& backend,
                    StepStats* times) const override {
    BulkSample bulk{first_minibatch, seeds, seed_offsets, {}};
    bulk.layers.reserve(fanouts_.size());   // frontier points into the previous layer
    const std::vector<vid_t>* frontier = &bulk.seeds;
    const Offsets* offsets = &bulk.seed_offsets;
    for (int l = 0; l < num_layers(); ++l) {
      CsrMatrix p;
      {
        ScopedTimer t(times ? &times->probability : nullptr);
        p = backend.select_rows(adj_, *frontier);   // Q·A with a one-per-row selector
        backend.normalize_rows(p, false);
      }
      if (times) times->probability_nonzeros += p.nnz();
      CsrMatrix s;
      {
        ScopedTimer t(times ? &times->sampling : nullptr);
        s = backend.its_sample(p, fanouts_[l], {seed_, epoch, static_cast<uint32_t>(l),
                                                first_minibatch, *offsets});
      }
      ScopedTimer t(times ? &times->extraction : nullptr);
      std::fill(s.values.begin(), s.values.end(), 1.0f);   // mean aggregation weights
      backend.normalize_rows(s, false);
      CompactResult c = backend.compact_columns(s, *offsets, *frontier, *offsets);
      bulk.layers.push_back({std::move(c.adj), *offsets, std::move(c.col_offsets),
                             std::move(c.vertices)});
      frontier = &bulk.layers.back().vertices;
      offsets = &bulk.layers.back().col_offsets;
    }
    return bulk;
  }

  int64_t bytes_per_minibatch(int64_t batch_size) const override {
    const double average_degree = adj_.rows ? static_cast<double>(adj_.nnz()) / adj_.rows : 0;
    double rows = static_cast<double>(batch_size), bytes = 0;
    for (int64_t fanout : fanouts_) {
      rows = std::min(rows, static_cast<double>(adj_.rows));
      // P (column + value), the sample, the relabelled copy and the vertex list;
      // twice the average degree because sampled vertices tend to be hubs.
      bytes += rows * (2 * average_degree * 8 + fanout * 24 + 16);
      rows *= 1 + fanout;
    }
    return static_cast<int64_t>(bytes);
  }

 private:
  const CsrMatrix& adj_;
  std::vector<int64_t> fanouts_;
  uint64_t seed_;
};

}  // namespace

std::unique_ptr<Sampler> make_graphsage_sampler(const CsrMatrix& adj, std::vector<int64_t> fanouts,
                                                uint64_t seed) {
  return std::make_unique<GraphSageSampler>(adj, std::move(fanouts), seed);
}

}  // namespace matsamp
