// Node-wise (GraphSAGE) sampling of a heterogeneous graph as a matrix program.
// The frontier has one block list per vertex type; per layer l and relation
// r = (s, name, d) with fanout f_r[l] > 0,
//   S_r = mean(sample_rows(A_r, F_d, f_r[l]))   f_r[l] distinct source-type
//                                               neighbours per frontier vertex of d
// and per vertex type s, the relations into s share one column list per minibatch:
//   {S_r}_{src(r)=s}, V_s = compact_columns_shared(…, leading F_s)
// (F_s's own vertices first, then the new ones ascending), and V_s is the next
// frontier of s. Relation r draws under part_seed(seed, r), so relations draw
// independently, a one-type, one-relation graph gives exactly GraphSAGE's
// minibatches, and the same seed gives the same minibatches for any bulk size,
// backend and rank count. With expand_new_only (PyG's rule), a layer after the
// first draws for the vertices of each type the layer before added only (the
// others keep empty rows), as the node-wise samplers do (node_wise.h). By time,
// every draw keeps to its block's seed time, as GraphSAGE's does.
#pragma once
#include <string>
#include <vector>

#include "sampling/hetero_sample.h"

namespace matsamp {

class HeteroNeighborSampler final : public HeteroSampler {
 public:
  // fanouts[r][l]: relation r's neighbours per vertex in layer l (0: r is not
  // sampled in that layer); every relation lists the same number of layers.
  HeteroNeighborSampler(HeteroRelations relations, std::vector<std::vector<int64_t>> fanouts,
                        bool expand_new_only = false);
  // The graph's relations registered in `backend`; the graph must outlive the sampler.
  HeteroNeighborSampler(Backend& backend, const HeteroGraph& graph, std::vector<std::vector<int64_t>> fanouts,
                        bool expand_new_only = false)
      : HeteroNeighborSampler(HeteroRelations::registered(backend, graph), std::move(fanouts), expand_new_only) {}

  std::string name() const override { return "graphsage"; }
  const HeteroGraph& graph() const override { return relations_.graph; }
  int num_layers() const override { return num_layers_; }
  // Every relation's fanout taken by every frontier vertex.
  int64_t bytes_per_minibatch(int64_t batch_size) const override;
  using HeteroSampler::sample;
  HeteroBulk sample(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const override;
  // Every relation's draw kept to its block's seed time (sample_rows_before).
  HeteroBulk sample_before(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                           const HeteroTemporalBounds& bounds) const override;

 private:
  HeteroBulk sample_program(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch, uint32_t epoch,
                            const HeteroTemporalBounds* temporal) const;

  HeteroRelations relations_;
  std::vector<std::vector<int64_t>> fanouts_;
  bool expand_new_only_;
  int num_layers_ = 0;
};

// "rel=15,10;rel2=5,5" or one list "15,10" for every relation: fanouts per
// relation (named as HeteroGraph::relation_index accepts) and layer; relations
// left out of a per-relation list are not sampled.
std::vector<std::vector<int64_t>> parse_relation_fanouts(const HeteroGraph& graph, const std::string& text);

}  // namespace matsamp
