// torch.classes.matsamp.HeteroGraph's holder: a heterogeneous graph held by the
// engine (types, relations as |dst| x |src| matrices, each relation's edge ids),
// its samplers kept per counts, and the CPU backend they run on.
#pragma once
#include <torch/custom_class.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "convert.h"
#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"
#include "sampling/hetero_temporal.h"
#include "sampling/registry.h"

namespace matsamp::bindings {

class HeteroGraphHolder : public torch::CustomClassHolder {
 public:
  HeteroGraphHolder(std::vector<std::string> names, std::vector<int64_t> counts) {
    TORCH_CHECK_VALUE(names.size() == counts.size(), "matsamp.HeteroGraph: ", names.size(), " type names but ",
                      counts.size(), " counts");
    for (size_t t = 0; t < names.size(); ++t) graph_.types.push_back({names[t], counts[t]});
    translate_errors([&] { validate(graph_, "matsamp.HeteroGraph"); });
  }
  explicit HeteroGraphHolder(HeteroGraph g) : graph_(std::move(g)) {}

  const HeteroGraph& graph() const { return graph_; }
  // times: each edge's (PyG's edge-level time), or undefined; an entry of
  // repeated edges is as late as the earliest of them, and named by its id.
  void add_relation(const std::string& source, const std::string& name, const std::string& destination,
                    const at::Tensor& source_ids, const at::Tensor& destination_ids,
                    const c10::optional<at::Tensor>& times);
  // Relation r's edge ids (the position in add_relation's lists of each entry's
  // first edge; with edge times, its earliest), or its entries' own positions
  // for a relation not given by add_relation (a reverse, or one read from a
  // file). -1 for position -1 (no entry).
  int64_t edge_id(size_t r, int64_t position) const {
    if (position < 0) return -1;
    const int64_t* ids = edge_ids(r);
    return ids ? ids[position] : position;
  }
  // The ids edge_id reads for relation r, by position; null where they are the positions.
  const int64_t* edge_ids(size_t r) const {
    return r < edge_ids_.size() && !edge_ids_[r].empty() ? edge_ids_[r].data() : nullptr;
  }
  void add_reverse_relations() {
    check_unfrozen();
    for (const std::vector<int64_t>& times : entry_times_)
      TORCH_CHECK_VALUE(times.empty(),
                        "matsamp.HeteroGraph: relations with edge times get no reverses added "
                        "(give each reverse with its own times, add_reverse=False)");
    matsamp::add_reverse_relations(graph_);
  }
  // Vertex type `type`'s times (one int64 per vertex), what sampling by time
  // keeps every draw to; fixed once sampling has started, as the relations are.
  void set_times(const std::string& type, const at::Tensor& times);
  // The heterogeneous sampler `name` of these counts, kept: a count per relation
  // (relation-major: counts[r * layers + l]) or per vertex type (type-major:
  // counts[t * layers + l]), as its spec says; expand_new_only: the node-wise
  // sampler's PyG expansion.
  std::shared_ptr<const HeteroSampler> sampler(const std::string& name, const std::vector<int64_t>& flat,
                                               int64_t layers, bool expand_new_only = false) const {
    const char* op = "matsamp.sample_hetero";
    const HeteroSamplerSpec& spec =
        translate_errors([&]() -> const HeteroSamplerSpec& { return find_hetero_sampler(name); });
    const bool by_type = spec.counts == HeteroCounts::per_type;
    const size_t parts = by_type ? graph_.types.size() : graph_.relations.size();
    TORCH_CHECK_VALUE(layers > 0 && flat.size() == parts * static_cast<size_t>(layers), op, ": ", flat.size(), " ",
                      by_type ? "budgets" : "fanouts", " for ", parts, by_type ? " vertex types" : " relations", " x ",
                      layers, " layers");
    std::string key = name + (expand_new_only ? ":new:" : ":all:") + std::to_string(layers) + ":";
    for (int64_t f : flat) key += std::to_string(f) + ",";
    std::lock_guard<std::mutex> lock(mutex_);
    frozen_ = true;  // samplers refer to the relations
    std::shared_ptr<const HeteroSampler>& kept = samplers_[key];
    if (!kept) {
      std::vector<std::vector<int64_t>> counts(parts);
      for (size_t i = 0; i < parts; ++i) counts[i].assign(flat.begin() + i * layers, flat.begin() + (i + 1) * layers);
      kept = translate_errors([&]() -> std::shared_ptr<const HeteroSampler> {
        return spec.make(*backend_, graph_, std::move(counts), expand_new_only);
      });
    }
    return kept;
  }
  // A bulk of seed_type's seeds (cut by seed_offsets) sampled by `sampler_name`
  // with `counts` over `layers` (as sampler()), on the host; `op` names the
  // caller in errors (bad seeds, offsets, first minibatch, seed or epoch);
  // record_positions: Context's (the draws' positions in each relation);
  // seed_times: by time (one per minibatch, HeteroTemporalBounds'), else untimed.
  HeteroBulkSample sample(const char* op, const std::string& seed_type, const at::Tensor& seeds,
                          const at::Tensor& seed_offsets, const std::string& sampler_name,
                          const std::vector<int64_t>& counts, int64_t layers, int64_t first_minibatch, int64_t epoch,
                          int64_t seed, bool expand_new_only = false, bool record_positions = false,
                          const c10::optional<at::Tensor>& seed_times = c10::nullopt,
                          const std::string& temporal_strategy = "uniform") const;

 private:
  void check_unfrozen() const {
    std::lock_guard<std::mutex> lock(mutex_);
    TORCH_CHECK(!frozen_, "matsamp.HeteroGraph: relations cannot change after sampling has started");
  }
  // The relations' time orders, made on first use (the times are fixed by then).
  const HeteroTemporalEpoch& time_orders(const char* op) const;
  HeteroGraph graph_;
  std::vector<std::vector<int64_t>> edge_ids_;     // per relation added by add_relation
  std::vector<std::vector<int64_t>> entry_times_;  // per relation: its entries' times (empty: its sources')
  std::unique_ptr<Backend> backend_ = make_cpu_backend();
  mutable std::mutex mutex_, sampling_mutex_;
  mutable bool frozen_ = false;
  mutable std::map<std::string, std::shared_ptr<const HeteroSampler>> samplers_;
  mutable std::optional<HeteroTemporalEpoch> time_orders_;
};

using HeteroPtr = c10::intrusive_ptr<HeteroGraphHolder>;

// Registers the class as torch.classes.matsamp.HeteroGraph, once (as register_graph_class).
void register_hetero_graph_class();

}  // namespace matsamp::bindings
