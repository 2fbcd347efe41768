// What heterogeneous samplers produce and the interface they share. A bulk
// holds k minibatches of seeds of one vertex type; each layer holds one matrix
// per relation (its destination type's frontier x its source type's vertex list)
// and one blocked vertex list per type, the frontier's vertices first: the shape
// of PyG's heterogeneous minibatches, dicts keyed by relation and by type.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "graph/hetero_graph.h"
#include "sampling/context.h"
#include "sampling/sample.h"

namespace matsamp {

// The seeds of k minibatches, of one or more vertex types, stacked per type:
// minibatch g's seeds of type t are ids[t][offsets[t][g], offsets[t][g + 1]).
struct HeteroSeeds {
  std::vector<std::vector<vid_t>> ids;  // per vertex type
  std::vector<Offsets> offsets;         // per vertex type, k + 1 each
  int64_t count() const { return offsets.empty() ? 0 : static_cast<int64_t>(offsets[0].size()) - 1; }
  // k minibatches (offsets: k + 1) of seeds of type `type` only, in a graph of `types` types.
  static HeteroSeeds of_type(size_t types, int type, std::vector<vid_t> ids, Offsets offsets);
};

// The same seeds also in a backend, uploaded by the caller before the steps start.
struct HeteroSeedBatch {
  HeteroSeeds host;
  std::vector<BlockedIds> resident;  // per vertex type: its ids, split by host.offsets
};
HeteroSeedBatch upload_hetero_seeds(Backend& backend, HeteroSeeds seeds);

// One hop of a heterogeneous bulk, on the backend that sampled it.
struct HeteroLayer {
  // Per relation: |F_d| x |V_s| (rows: the destination type's frontier, blocked
  // by its offsets; columns: positions in the source type's V_s), or undefined
  // where the relation was not sampled in this layer.
  std::vector<Matrix> adj;
  std::vector<Offsets> row_offsets;  // per relation: the blocks of its rows (k + 1; empty where not sampled)
  std::vector<BlockedIds> vertices;  // per vertex type: V_t (the frontier's vertices first)
  // Per relation, with Context::record_positions and a draw that knows them:
  // each entry's position in A_r (the relation's edge ids); else undefined.
  std::vector<Ids> positions;
};

struct HeteroBulk {
  int64_t first_minibatch = 0;
  HeteroSeeds seeds;
  std::vector<int> relation_sources;  // per relation: its source type, whose V_s its columns index
  std::vector<HeteroLayer> layers;
  int64_t count() const { return seeds.count(); }
};

// The same on the host.
struct HeteroSampledLayer {
  std::vector<CsrMatrix> adj;                 // empty (0 x 0) where not sampled
  std::vector<Offsets> row_offsets;           // per relation: its destination frontier's blocks
  std::vector<std::vector<vid_t>> vertices;   // per vertex type
  std::vector<Offsets> vertex_offsets;        // per vertex type
  std::vector<std::vector<vid_t>> positions;  // per relation: HeteroLayer::positions (empty where none)
};
struct HeteroBulkSample {
  int64_t first_minibatch = 0;
  HeteroSeeds seeds;
  std::vector<int> relation_sources;
  std::vector<HeteroSampledLayer> layers;
  int64_t count() const { return seeds.count(); }
};
HeteroBulkSample to_host(Backend& backend, HeteroBulk bulk);

// One minibatch of a heterogeneous bulk with local ids: per layer, each type's
// vertex list and each relation's |F_d| x |V_s| matrix (0 x 0 where not sampled).
struct HeteroMinibatchLayer {
  std::vector<CsrMatrix> adj;
  std::vector<std::vector<vid_t>> vertices;
};
struct HeteroMinibatch {
  int64_t id = 0;
  std::vector<std::vector<vid_t>> seeds;  // per vertex type
  std::vector<HeteroMinibatchLayer> layers;
};
HeteroMinibatch extract_minibatch(const HeteroBulkSample& bulk, int64_t g);  // g in [0, count())

// Sampling by time: row i of block g of every relation's draw keeps to the
// entries no later than seed_times[g] (ops.h: sample_rows_before); with one seed
// per block, every tree keeps to its seed's time through every relation.
struct HeteroTemporalBounds {
  std::vector<Ids> order, sorted_times;  // per relation: A_r's TimeOrder (ops.h), in ctx's backend
  std::vector<int64_t> seed_times;       // one per minibatch (block) of the call
  TemporalStrategy strategy = TemporalStrategy::uniform;
};

class HeteroSampler {
 public:
  virtual ~HeteroSampler() = default;
  virtual std::string name() const = 0;
  virtual const HeteroGraph& graph() const = 0;
  virtual int num_layers() const = 0;
  // Upper estimate of the bytes one minibatch of batch_size seeds needs while sampled.
  virtual int64_t bytes_per_minibatch(int64_t batch_size) const = 0;
  // Minibatches first_minibatch … + k - 1 of these seeds, on ctx.backend
  // (which holds the relations and the seeds).
  virtual HeteroBulk sample(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch,
                            uint32_t epoch) const = 0;
  // The same by time. By default an error: a sampler that samples by time overrides it.
  virtual HeteroBulk sample_before(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                                   const HeteroTemporalBounds& bounds) const;
  // The same with the seeds on the host: uploads them first.
  HeteroBulk sample(Context& ctx, const HeteroSeeds& seeds, int64_t first_minibatch, uint32_t epoch) const;
  // The same with seeds of type seed_type only, split by seed_offsets (k + 1).
  HeteroBulk sample(Context& ctx, int seed_type, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                    int64_t first_minibatch, uint32_t epoch) const;
};

// The relations of `graph` as a sampler reads them: each A_r registered in a
// backend (replicated), or each a distributed handle (partitioned, one block row
// of A_r per process row). The graph gives the types and the relations' ends.
struct HeteroRelations {
  const HeteroGraph& graph;
  std::vector<Matrix> adj;               // per relation
  std::vector<int> source, destination;  // type index of each relation's ends
  HeteroRelations(const HeteroGraph& graph, std::vector<Matrix> adj);
  // Every A_r registered in `backend` (the graph must outlive the handles).
  static HeteroRelations registered(Backend& backend, const HeteroGraph& graph);
};

// Throws unless every handle was made by ctx.backend.
void check_held_by(const std::vector<Matrix>& matrices, const Context& ctx);
// Throws unless the seeds have one list per type of `graph`, each of its type's
// vertices, split into the same number (at least one) of minibatches.
void check_hetero_seeds(const HeteroGraph& graph, const HeteroSeeds& seeds);

// The random keys of part i (a relation, a vertex type) of a heterogeneous
// program: the seed mixed with i, i = 0 keeping it, so that a one-type graph
// draws as the homogeneous sampler does and the parts draw independently.
uint64_t part_seed(uint64_t seed, size_t i);

// "name=15,10;name2=5,5" or one list "15,10" for every part: counts per part
// and layer, a part named as index_of accepts (names[i] in messages); parts left
// out get zeros. Throws naming a repeated part, a bad count or lists of
// different lengths (index_of throws for an unknown name).
std::vector<std::vector<int64_t>> parse_named_counts(const std::string& text, const std::vector<std::string>& names,
                                                     const std::function<int(const std::string&)>& index_of,
                                                     const std::string& what);

}  // namespace matsamp
