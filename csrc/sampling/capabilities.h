// What a sampler can do besides sampling vertex seeds of a homogeneous graph.
// Each capability is a flag in the sampler table (SamplerSpec::capabilities),
// which is what the CLI, the trainer and Python ask before they choose; the
// ones that are calls are also an interface the sampler implements beside
// Sampler, so only samplers that have them carry the methods. The flags and the
// interfaces agree for every registered sampler (test_registry).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sampling/sampler.h"

namespace matsamp {

class EstimateStore;     // sampling/estimate_file.h
class ColumnImportance;  // ops/column_importance.h

enum Capability : unsigned {
  kEdgeSeeds = 1,    // takes link prediction's seed edges out of its layers (EdgeSeedSampler)
  kPartitioned = 2,  // samples a graph partitioned in 1.5D (a property of its program: no interface)
  kEstimates = 4,    // pre-samples estimates a file can keep (EstimatingSampler)
  kImportance = 8,   // draws by a column importance (ImportanceGuidedSampler: DGS)
  kTemporal = 16,    // samples by time: no neighbour later than its seed (TemporalSampler)
};

// kEdgeSeeds: sample() with each minibatch's excluded edges (block g: minibatch
// g) taken out of the rows its layers sample from: link prediction's seed edges.
class EdgeSeedSampler {
 public:
  static constexpr Capability kCapability = kEdgeSeeds;
  static constexpr const char* kLacking = "cannot take seed edges out of its layers";
  virtual ~EdgeSeedSampler() = default;
  // The edges as upload_excluded() put them in ctx's backend.
  virtual Bulk sample_excluding(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                const ExcludedInBackend& excluded) const = 0;
  // The same with seeds and edges on the host: uploads them first.
  Bulk sample_excluding(Context& ctx, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                        int64_t first_minibatch, uint32_t epoch, const ExcludedEdges& excluded) const;
  // `excluded` in `backend`, over the columns this sampler's masks have.
  virtual ExcludedInBackend upload_excluded(Backend& backend, const ExcludedEdges& excluded) const = 0;
};

// kTemporal: sampling where row i of block g draws only among the adjacency's
// entries whose time is at most the block's seed time (ops.h: sample_rows_before);
// with one seed per block, every tree keeps to its seed's time in every layer.
struct TemporalBounds {
  Ids order, sorted_times;          // the adjacency's TimeOrder (ops.h), in ctx's backend
  std::vector<int64_t> seed_times;  // one per minibatch of the call
  TemporalStrategy strategy = TemporalStrategy::uniform;
};
class TemporalSampler {
 public:
  static constexpr Capability kCapability = kTemporal;
  static constexpr const char* kLacking = "cannot sample by time";
  virtual ~TemporalSampler() = default;
  virtual Bulk sample_before(Context& ctx, const SeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                             const TemporalBounds& bounds) const = 0;
};

// kEstimates: keeps what the sampler estimates by pre-sampling (GraphSAINT's
// counts) in `store` under `key` (the sampler and its options), and reuses it
// from there when kept.
class EstimatingSampler {
 public:
  static constexpr Capability kCapability = kEstimates;
  static constexpr const char* kLacking = "cannot keep pre-sampled estimates";
  virtual ~EstimatingSampler() = default;
  virtual void keep_estimates(std::shared_ptr<const EstimateStore> store, std::string key) = 0;
};

// kImportance: the column importance the sampler draws by from its next call on
// (safe while another thread samples).
class ImportanceGuidedSampler {
 public:
  static constexpr Capability kCapability = kImportance;
  static constexpr const char* kLacking = "cannot draw by a column importance";
  virtual ~ImportanceGuidedSampler() = default;
  virtual void set_column_importance(std::shared_ptr<const ColumnImportance> importance) const = 0;
};

// `sampler` as the interface of one of these capabilities, or null when it has not that capability.
template <class Interface>
const Interface* find_capability(const Sampler& sampler) {
  return dynamic_cast<const Interface*>(&sampler);
}
template <class Interface>
Interface* find_capability(Sampler& sampler) {
  return dynamic_cast<Interface*>(&sampler);
}

// The error for a sampler without `capability`: "the saint sampler cannot take
// seed edges out of its layers (graphsage, labor, dgs, ladies or fastgcn can)".
[[noreturn]] void lacks_capability(const Sampler& sampler, Capability capability, const char* lacking);

// find_capability, or that error.
template <class Interface>
const Interface& require_capability(const Sampler& sampler) {
  if (const Interface* found = find_capability<Interface>(sampler)) return *found;
  lacks_capability(sampler, Interface::kCapability, Interface::kLacking);
}
template <class Interface>
Interface& require_capability(Sampler& sampler) {
  if (Interface* found = find_capability<Interface>(sampler)) return *found;
  lacks_capability(sampler, Interface::kCapability, Interface::kLacking);
}

}  // namespace matsamp
