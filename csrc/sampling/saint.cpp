// GraphSAINT's random-walk sampler as a matrix program:
//   F_{t+1} = its_sample(normalize_rows(Q_t·A), 1)   (Q_t selects each walker's vertex: sample_rows)
//   V_g     = the roots of minibatch g, then every other vertex its walkers visited
//   A^l     = R·Â·C with R = C = V_g (R = the roots in the batch layer), row-normalized.
// Every layer aggregates inside the same induced subgraph, and the batch layer's
// rows are the roots, so the loss is taken at the batch vertices as for the other
// samplers (each training vertex is a root once per epoch).
#include <algorithm>

#include "sampling/sampler.h"
#include "util/timer.h"

namespace matsamp {

namespace {

class SaintSampler final : public Sampler {
 public:
  SaintSampler(const CsrMatrix& adj, std::shared_ptr<const LayerWiseMatrices> matrices, SaintOptions options,
               uint64_t seed, bool uniform_rows)
      : adj_(adj),
        matrices_(std::move(matrices)),
        options_(options),
        seed_(seed),
        uniform_rows_(uniform_rows) {
    MATSAMP_CHECK(adj_.rows == adj_.cols, "GraphSAINT: adjacency is not square (", adj_.shape(), ")");
    MATSAMP_CHECK(options_.walk_length >= 1, "GraphSAINT walk length must be at least 1, got ",
                  options_.walk_length);
    MATSAMP_CHECK(options_.layers >= 1, "GraphSAINT layers must be at least 1, got ", options_.layers);
    MATSAMP_CHECK(matrices_->normalized.rows == adj_.rows, "GraphSAINT: Â has ", matrices_->normalized.rows,
                  " rows, the adjacency ", adj_.rows);
  }

  std::string name() const override { return "saint"; }
  int num_layers() const override { return static_cast<int>(options_.layers); }

  BulkSample sample(const std::vector<vid_t>& seeds, const Offsets& seed_offsets, int64_t first_minibatch,
                    uint32_t epoch, Backend& backend, StepStats* times) const override {
    BulkSample bulk{first_minibatch, seeds, seed_offsets, {}, nullptr};
    bulk.layers.reserve(options_.layers);   // frontier points into the previous layer
    SampledLayer subgraph;
    subgraph.row_offsets = seed_offsets;
    {
      ScopedTimer t(times ? &times->sampling : nullptr);
      walk_and_collect(seeds, seed_offsets, first_minibatch, epoch, backend, subgraph);
    }
    ScopedTimer t(times ? &times->extraction : nullptr);
    const CsrMatrix& normalized = matrices_->normalized;
    const std::vector<vid_t>* frontier = &bulk.seeds;
    for (int64_t l = 0; l < options_.layers; ++l) {
      SampledLayer layer = subgraph;
      layer.row_offsets = l == 0 ? seed_offsets : subgraph.col_offsets;
      if (times) {   // the rows of Â read, column id + value
        for (vid_t u : *frontier) times->streamed_bytes += 8 * normalized.row_nnz(u);
        times->gathers += static_cast<int64_t>(frontier->size());
      }
      backend.append_weighted_layer(normalized, *frontier, {}, std::move(layer), bulk);
      frontier = &bulk.layers.back().vertices;
    }
    if (times) times->gathers += options_.walk_length * static_cast<int64_t>(seeds.size());
    return bulk;
  }

  int64_t bytes_per_minibatch(int64_t batch_size) const override {
    const CsrMatrix& normalized = matrices_->normalized;
    const double degree = normalized.rows ? double(normalized.nnz()) / normalized.rows : 0;
    const double b = static_cast<double>(batch_size);
    const double vertices = std::min(double(adj_.rows), b * static_cast<double>(options_.walk_length + 1));
    // Walk picks (column id, value, row pointer) per step; each layer's rows of Â
    // (R·Â on the GPU) and the extracted subgraph, column id + value.
    const double walk = b * 24 * static_cast<double>(options_.walk_length);
    const double rows = b + vertices * static_cast<double>(options_.layers - 1);
    return static_cast<int64_t>(walk + rows * (degree * 16 + 16) + vertices * 16);
  }

 private:
  // Walks every root walk_length steps (a walker at a vertex without neighbours
  // stays) and lists V_g per minibatch: its roots in order, then the other
  // visited vertices in ascending id.
  void walk_and_collect(const std::vector<vid_t>& roots, const Offsets& offsets, int64_t first_minibatch,
                        uint32_t epoch, Backend& backend, SampledLayer& subgraph) const {
    const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
    std::vector<vid_t> position = roots;
    std::vector<std::vector<vid_t>> visited(k);
    for (int64_t step = 0; step < options_.walk_length; ++step) {
      const CsrMatrix picks = backend.sample_rows(
          adj_, position, 1, {seed_, epoch, static_cast<uint32_t>(step), first_minibatch, offsets}, uniform_rows_);
      for (int64_t g = 0; g < k; ++g)
        for (int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
          if (picks.row_nnz(i) == 0) continue;
          position[i] = picks.colidx[picks.rowptr[i]];
          visited[g].push_back(position[i]);
        }
    }
    subgraph.col_offsets.assign(1, 0);
    subgraph.vertices.clear();
    for (int64_t g = 0; g < k; ++g) {
      std::vector<vid_t> block_roots(roots.begin() + offsets[g], roots.begin() + offsets[g + 1]);
      subgraph.vertices.insert(subgraph.vertices.end(), block_roots.begin(), block_roots.end());
      std::sort(block_roots.begin(), block_roots.end());
      const auto repeated = std::adjacent_find(block_roots.begin(), block_roots.end());
      MATSAMP_CHECK(repeated == block_roots.end(), "GraphSAINT: minibatch ", first_minibatch + g,
                    " has root vertex ", repeated == block_roots.end() ? 0 : *repeated, " twice");
      std::vector<vid_t>& others = visited[g];
      std::sort(others.begin(), others.end());
      others.erase(std::unique(others.begin(), others.end()), others.end());
      for (vid_t v : others)
        if (!std::binary_search(block_roots.begin(), block_roots.end(), v)) subgraph.vertices.push_back(v);
      subgraph.col_offsets.push_back(static_cast<int64_t>(subgraph.vertices.size()));
    }
  }

  const CsrMatrix& adj_;
  std::shared_ptr<const LayerWiseMatrices> matrices_;
  SaintOptions options_;
  uint64_t seed_;
  bool uniform_rows_;   // unweighted: a step costs O(1), not O(degree)
};

}  // namespace

std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, std::shared_ptr<const LayerWiseMatrices> matrices,
                                             SaintOptions options, uint64_t seed, std::optional<bool> uniform_rows) {
  return std::make_unique<SaintSampler>(adj, std::move(matrices), options, seed,
                                        uniform_rows ? *uniform_rows : has_uniform_rows(adj));
}

std::unique_ptr<Sampler> make_saint_sampler(const CsrMatrix& adj, SaintOptions options, uint64_t seed) {
  MATSAMP_CHECK(options.walk_length >= 1 && options.layers >= 1, "GraphSAINT walk length and layers must be at "
                "least 1, got ", options.walk_length, " and ", options.layers);
  return make_saint_sampler(adj, prepare_layerwise_matrices(adj), options, seed);
}

}  // namespace matsamp
