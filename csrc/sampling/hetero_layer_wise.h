// Layer-wise sampling of a heterogeneous graph with a budget per vertex type,
// importance ∝ the squared normalised degree within each type, as HGT samples
// (Hu et al., WWW 2020), one layer at a time as LADIES does. With
//   Â_r = D_r^-1 A_r                   each destination vertex spreads 1 over its r-neighbours
//   B_s = [Â_r1; Â_r2; …]             the relations whose source is s, stacked (row base_r + u is Â_r's row u)
// per layer l and vertex type s with budget n_s[l] > 0:
//   Q_s   = one row per minibatch g, a 1 at base_r + u for every u in F_dst(r) block g
//           (block_indicator of F_dst(r) moved to rows of B_s by S_r, summed over r)
//   P_s   = normalize_rows((Q_s·B_s)∘(Q_s·B_s))     p_g(v) ∝ (Σ_r Σ_{u ∈ F_dst(r),g} Â_r[u, v])²
//   C_s   = its_sample(P_s, n_s[l])                 n_s[l] distinct s-vertices per minibatch
//   A^l_r = normalize_rows(diag(R_g·Â_r)·[C_s,g · diag(1/(n_s[l]·p_g(v)))])   for every r with source s
// where C_s,g lists F_s block g first, then the other drawn vertices ascending, and
// C_s is the next frontier of s (a type without budget keeps its frontier). Type s
// draws under part_seed(seed, s): the same seed gives the same minibatches for any
// bulk size, backend and rank count.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sampling/hetero_sample.h"

namespace matsamp {

class HeteroLayerWiseSampler final : public HeteroSampler {
 public:
  // budgets[t][l]: vertices of type t drawn per minibatch in layer l (0: none);
  // every type lists the same number of layers. `place` puts each B_s where the
  // ops read it (uploaded to a backend, or partitioned over a grid); the graph
  // must outlive the sampler.
  using Place = std::function<Matrix(CsrMatrix)>;
  HeteroLayerWiseSampler(const HeteroGraph& graph, std::vector<std::vector<int64_t>> budgets, const Place& place);
  // The B_s uploaded to `backend`.
  HeteroLayerWiseSampler(Backend& backend, const HeteroGraph& graph, std::vector<std::vector<int64_t>> budgets)
      : HeteroLayerWiseSampler(graph, std::move(budgets),
                               [&backend](CsrMatrix b) { return backend.upload(std::move(b)); }) {}

  std::string name() const override { return "hgt"; }
  const HeteroGraph& graph() const override { return graph_; }
  int num_layers() const override { return num_layers_; }
  int64_t bytes_per_minibatch(int64_t batch_size) const override;
  using HeteroSampler::sample;
  HeteroBulk sample(Context& ctx, const HeteroSeedBatch& seeds, int64_t first_minibatch, uint32_t epoch) const override;

 private:
  const HeteroGraph& graph_;
  std::vector<std::vector<int64_t>> budgets_;
  int num_layers_ = 0;
  std::vector<int> source_, destination_;  // per relation: its ends' type indices
  std::vector<int64_t> base_;              // per relation: its first row in B_source
  std::vector<Matrix> stacked_;            // per type s: B_s (undefined when no relation leaves s)
  std::vector<Matrix> shift_;              // per relation r: S_r, row u a 1 at base_r + u (F·S_r: F as rows of B_s)
  std::vector<std::vector<size_t>> from_;  // per type s: the relations whose source is s
};

// "paper=512,256;author=256,128" or one list "512,256" for every type: budgets
// per vertex type (by name) and layer; types left out are not sampled.
std::vector<std::vector<int64_t>> parse_type_budgets(const HeteroGraph& graph, const std::string& text);

}  // namespace matsamp
