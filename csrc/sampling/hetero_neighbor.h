// Node-wise (GraphSAGE) sampling of a heterogeneous graph as a matrix program.
// The frontier has one block list per vertex type; per layer l and relation
// r = (s, name, d) with fanout f_r[l] > 0,
//   S_r = mean(sample_rows(A_r, F_d, f_r[l]))   f_r[l] distinct source-type
//                                               neighbours per frontier vertex of d
// and per vertex type s, the relations into s share one column list per minibatch:
//   {S_r}_{src(r)=s}, V_s = compact_columns_shared(…, leading F_s)
// (F_s's own vertices first, then the new ones ascending), and V_s is the next
// frontier of s. Random keys are the homogeneous ones under a seed mixed with r
// (relation 0 keeps the seed), so relations draw independently, a one-type,
// one-relation graph gives exactly GraphSAGE's minibatches, and the same seed
// gives the same minibatches for any bulk size and backend.
#pragma once
#include <string>
#include <vector>

#include "graph/hetero_graph.h"
#include "sampling/context.h"
#include "sampling/sample.h"

namespace matsamp {

// One hop of a heterogeneous bulk, on the backend that sampled it.
struct HeteroLayer {
  // Per relation: |F_d| x |V_s| (rows: the destination type's frontier, blocked
  // by its offsets; columns: positions in the source type's V_s), or undefined
  // where the relation was not sampled in this layer.
  std::vector<Matrix> adj;
  std::vector<Offsets> row_offsets;  // per relation: the blocks of its rows (k + 1; empty where not sampled)
  std::vector<BlockedIds> vertices;  // per vertex type: V_t (the frontier's vertices first)
};

struct HeteroBulk {
  int64_t first_minibatch = 0;
  int seed_type = 0;
  std::vector<vid_t> seeds;           // of seed_type, stacked
  Offsets seed_offsets;               // k + 1
  std::vector<int> relation_sources;  // per relation: its source type, whose V_s its columns index
  std::vector<HeteroLayer> layers;
  int64_t count() const { return static_cast<int64_t>(seed_offsets.size()) - 1; }
};

// The same on the host.
struct HeteroSampledLayer {
  std::vector<CsrMatrix> adj;                // empty (0 x 0) where not sampled
  std::vector<Offsets> row_offsets;          // per relation: its destination frontier's blocks
  std::vector<std::vector<vid_t>> vertices;  // per vertex type
  std::vector<Offsets> vertex_offsets;       // per vertex type
};
struct HeteroBulkSample {
  int64_t first_minibatch = 0;
  int seed_type = 0;
  std::vector<vid_t> seeds;
  Offsets seed_offsets;
  std::vector<int> relation_sources;
  std::vector<HeteroSampledLayer> layers;
  int64_t count() const { return static_cast<int64_t>(seed_offsets.size()) - 1; }
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
  std::vector<vid_t> seeds;
  std::vector<HeteroMinibatchLayer> layers;
};
HeteroMinibatch extract_minibatch(const HeteroBulkSample& bulk, int64_t g);  // g in [0, count())

class HeteroNeighborSampler {
 public:
  // fanouts[r][l]: relation r's neighbours per vertex in layer l (0: r is not
  // sampled in that layer); every relation lists the same number of layers.
  // The graph must outlive the sampler; its relations are registered in `backend`.
  HeteroNeighborSampler(Backend& backend, const HeteroGraph& graph, std::vector<std::vector<int64_t>> fanouts);

  int num_layers() const { return num_layers_; }
  // Upper estimate of the bytes one minibatch of batch_size seeds needs while
  // sampled (every relation's fanout taken by every frontier vertex).
  int64_t bytes_per_minibatch(int64_t batch_size) const;
  // Minibatches first_minibatch … + k - 1 whose seeds (of type seed_type) are
  // split by seed_offsets (k + 1), on ctx.backend (the constructor's).
  HeteroBulk sample(Context& ctx, int seed_type, const std::vector<vid_t>& seeds, const Offsets& seed_offsets,
                    int64_t first_minibatch, uint32_t epoch) const;

 private:
  Backend& backend_;
  const HeteroGraph& graph_;
  std::vector<std::vector<int64_t>> fanouts_;
  std::vector<Matrix> relations_;          // A_r, registered
  std::vector<int> source_, destination_;  // type index of each relation's ends
  int num_layers_ = 0;
};

// "rel=15,10;rel2=5,5" or one list "15,10" for every relation: fanouts per
// relation (named as HeteroGraph::relation_index accepts) and layer; relations
// left out of a per-relation list are not sampled. Throws naming a relation the
// graph lacks or lists of different lengths.
std::vector<std::vector<int64_t>> parse_relation_fanouts(const HeteroGraph& graph, const std::string& text);

}  // namespace matsamp
