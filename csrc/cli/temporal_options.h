// --temporal, --vertex-times and --edge-times of the commands that sample vertex
// seeds (sample, bench, train): PyG's temporal sampling from the command line, one
// tree per seed, no neighbour later than its seed's time (a neighbour's time is
// its vertex's, or with --edge-times its edge's).
#pragma once
#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "graph/graph.h"
#include "graph/hetero_graph.h"
#include "sampling/epoch.h"
#include "sampling/hetero_temporal.h"
#include "util/json.h"

namespace matsamp::cli {

struct TemporalOptions {
  std::string strategy;      // "uniform" or "last"; empty: untimed
  std::string vertex_times;  // a file of "vertex time" lines, or random:MAX
  int64_t edge_times = -1;   // the edge feature column of the edges' times; -1: the neighbours' vertex times
  bool requested() const { return !strategy.empty() || !vertex_times.empty() || edge_times >= 0; }
};

void add_temporal_options(CLI::App& command, TemporalOptions& options);
// The epoch's times for graph `g` in `backend` (null without --temporal): seeds
// at the times of --vertex-times, else the graph's own (Graph::vertex_times),
// random ones drawn from `seed`; neighbours at their vertex's time or their
// edge's (--edge-times). One-line errors for half-given options.
std::shared_ptr<const TemporalEpoch> make_epoch_times(const TemporalOptions& options, const Graph& g, Backend& backend,
                                                      uint64_t seed);
// Link prediction by time (train --task link --temporal): one-line errors unless a
// strategy, --edge-times (each edge's time) and a --time-split are given.
void check_link_times(const TemporalOptions& options, const std::vector<int64_t>& time_split);
// Its times: the training graph (a split by time's, entry_times its entries' times)
// in time order; vertex times, from --vertex-times or g's own, bound the negatives
// where given.
std::shared_ptr<const TemporalEpoch> make_link_times(const TemporalOptions& options, const Graph& g,
                                                     const CsrMatrix& train_graph,
                                                     const std::vector<int64_t>& entry_times, Backend& backend,
                                                     uint64_t seed);
// The same for a heterogeneous graph (null without --temporal): every type's
// times from random:MAX (each type its own stream), else the types' own (an OGB
// folder's node_year); a type without times is never too late. Vertex times
// from a file and --edge-times are for homogeneous graphs (one-line errors).
std::shared_ptr<const HeteroTemporalEpoch> make_hetero_epoch_times(const TemporalOptions& options, const HeteroGraph& g,
                                                                   Backend& backend, uint64_t seed);
// The options as JSON fields (none when untimed).
void describe(const TemporalOptions& options, JsonObject& json);

}  // namespace matsamp::cli
