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

// What every sampler does. Optional capabilities (seed edges, estimates,
// column importance) are interfaces a sampler implements beside this one
// (sampling/capabilities.h).
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
  // Upper estimate of the bytes one minibatch of batch_size seeds needs while sampled.
  virtual int64_t bytes_per_minibatch(int64_t batch_size) const = 0;
  // Adds the traffic no implementation of this sampler can avoid for `bulk`
  // (random gathers, streamed bytes) to stats: the floor `bench` compares with.
  virtual void count_traffic(const BulkSample& bulk, StepStats& stats) const = 0;
};

// Throws unless every fanout / sample count is positive and there is at least one layer.
void check_layer_sizes(const std::vector<int64_t>& sizes, const char* what);

// The frontier of layer l of a bulk on the host: its seeds, or the vertices of layer l - 1.
const std::vector<vid_t>& frontier_of(const BulkSample& bulk, size_t l);

}  // namespace matsamp
