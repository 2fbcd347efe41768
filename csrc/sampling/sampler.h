// A sampler is a short matrix program over the backend's ops (DESIGN.md). Each
// one lives in its own file and is built through the registry (registry.h).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sampling/context.h"
#include "sampling/excluded_edges.h"
#include "sampling/sample.h"

namespace matsamp {

class EstimateStore;
class ColumnImportance;  // ops/column_importance.h

// A bulk's batch vertices, split into k minibatches: on the host (kept in the
// Bulk) and in the backend, uploaded by the caller before the steps start.
struct SeedBatch {
  std::vector<vid_t> host;
  BlockedIds resident;  // its offsets (k + 1) split both
  const Offsets& offsets() const { return resident.offsets; }
};
SeedBatch upload_seeds(Backend& backend, std::vector<vid_t> seeds, Offsets offsets);

// A bulk's excluded edges in the backend (ExcludedEdges::by_source), uploaded
// by the caller before the steps start: each layer's mask rows are then
// select_rows_by_key(targets, sources, frontier).
struct ExcludedInBackend {
  Matrix targets;
  BlockedIds sources;
};
ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded, int64_t cols);

class Sampler {
 public:
  virtual ~Sampler() = default;
  virtual std::string name() const = 0;
  virtual int num_layers() const = 0;
  // Samples the minibatches first_minibatch … first_minibatch + k - 1 of an
  // epoch, whose batch vertices are `seeds` (in ctx.backend), on ctx.backend
  // with random keys (ctx.seed, epoch, layer, minibatch, row, draw).
  virtual Bulk sample(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const = 0;
  // The same with the seeds on the host, split by seed_offsets (k + 1): uploads them first.
  Bulk sample(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets, int64_t first_minibatch,
              uint32_t epoch) const;
  // sample() with each minibatch's `excluded` edges (block g: minibatch g)
  // taken out of the rows its layers sample from: link prediction's seed
  // edges, uploaded by upload_excluded(). Only samplers whose excludes_edges()
  // is true can; others throw.
  virtual Bulk sample_excluding(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                const ExcludedInBackend& excluded) const;
  // The same with seeds and edges on the host: uploads them first.
  Bulk sample_excluding(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                        int64_t first_minibatch, uint32_t epoch, const ExcludedEdges& excluded) const;
  // `excluded` in ctx's backend, over the columns this sampler's masks have
  // (throws unless excludes_edges()).
  virtual ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded) const;
  virtual bool excludes_edges() const { return false; }
  // Upper estimate of the bytes one minibatch of batch_size seeds needs while sampled.
  virtual int64_t bytes_per_minibatch(int64_t batch_size) const = 0;
  // Adds the traffic no implementation of this sampler can avoid for `bulk`
  // (random gathers, streamed bytes) to stats: the floor `bench` compares with.
  virtual void count_traffic(const BulkSample& bulk, StepStats& stats) const = 0;
  // Keeps what the sampler estimates by pre-sampling (GraphSAINT's counts) in
  // `store` under `key` (the sampler and its options), and reuses it from there
  // when kept. Samplers that pre-sample nothing throw.
  virtual void keep_estimates(std::shared_ptr<const EstimateStore> store, std::string key);
  // The column importance a guided sampler (dgs) draws by from its next call on
  // (safe while another thread samples). Other samplers throw.
  virtual void set_column_importance(std::shared_ptr<const ColumnImportance> importance) const;
};

// A sampler whose layers can leave link prediction's seed edges out of the rows
// they sample from: sample() and sample_excluding() are one program
// (sample_layers), run without or with the uploaded edges.
class ExcludingSampler : public Sampler {
 public:
  Bulk sample(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const final;
  using Sampler::sample;
  Bulk sample_excluding(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                        const ExcludedInBackend& excluded) const final;
  using Sampler::sample_excluding;
  ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded) const final;
  bool excludes_edges() const final { return true; }

 protected:
  virtual Bulk sample_layers(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                             const ExcludedInBackend* excluded) const = 0;
  // The columns of the graph the excluded edges index (its vertices).
  virtual int64_t graph_columns() const = 0;
};

// Throws unless every fanout / sample count is positive and there is at least one layer.
void check_layer_sizes(const std::vector<int64_t>& sizes, const char* what);

// The frontier of layer l of a bulk on the host: its seeds, or the vertices of layer l - 1.
const std::vector<vid_t>& frontier_of(const BulkSample& bulk, size_t l);

}  // namespace matsamp
