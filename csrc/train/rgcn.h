// R-GCN (Schlichtkrull et al.) on heterogeneous minibatches
// (sampling/hetero_sample.h): per layer,
//   h'_d = W_root,d · h_d[:|F_d|] + Σ_{r: dst(r) = d} W_r · (A_r · h_src(r))
// with A_r the sampled relation's mean-aggregation matrix, ReLU and dropout
// between layers; vertex types without features get learned embeddings (as
// PyG's ogbn-mag example), featured types a linear map to the hidden width.
// With B bases (PyG's RGCNConv num_bases), W_r = Σ_b a_rb V_b: a layer holds
// B·in·out + R·B relation weights instead of R·in·out.
#pragma once
#include <torch/torch.h>

#include <vector>

#include "graph/hetero_graph.h"
#include "sampling/hetero_sample.h"

namespace matsamp {

struct RgcnShape {
  int layers = 2;
  int64_t hidden = 64, classes = 2;
  int64_t num_bases = 0;       // 0: a full weight per relation; else 1 … the number of relations
  bool shared_weight = false;  // the ablation that ignores types: one weight for the mean over all
                               // sampled neighbours (whatever their relation), one root, one input
                               // map for all featured types
  double dropout = 0;
};

// One message-passing layer: a weight per relation (or B bases and R x B
// coefficients), a root weight with bias per destination type.
class RgcnLayer : public torch::nn::Module {
 public:
  RgcnLayer(int64_t in, int64_t out, int64_t relations, int64_t roots, int64_t bases);

  // Every relation's W_r composed from the bases ([R, in, out]), once per
  // forward pass; undefined without bases.
  torch::Tensor composed_weights() const;
  // W_r · aggregated, with `composed` from composed_weights().
  torch::Tensor message(size_t r, const torch::Tensor& aggregated, const torch::Tensor& composed);
  torch::Tensor root(size_t t, const torch::Tensor& h) { return root_[t]->forward(h); }

 private:
  std::vector<torch::nn::Linear> relation_, root_;  // relation_: without bases only
  torch::Tensor bases_, coefficients_;              // [B, in, out] and [R, B]
};

class Rgcn : public torch::nn::Module {
 public:
  // The graph must outlive the model (featured types' inputs are read from it).
  Rgcn(const HeteroGraph& g, const RgcnShape& shape);

  // Logits of the minibatch's seeds (of seed_type).
  torch::Tensor forward(const HeteroMinibatch& mb, int seed_type, const torch::Device& device);

  // Layer l's parameters; layer 0 is the last applied (the seeds' logits).
  const RgcnLayer& layer(int l) const { return *layers_.at(l); }

 private:
  torch::Tensor input(size_t t, const std::vector<vid_t>& ids, const torch::Device& device);

  const HeteroGraph& graph_;
  RgcnShape shape_;
  std::vector<int> source_type_, destination_type_;  // per relation
  std::vector<std::vector<size_t>> relations_into_;  // per destination type
  std::vector<torch::nn::Linear> project_;           // per featured type (one shared by all in the ablation)
  std::vector<torch::nn::Embedding> embed_;          // per featureless type
  std::vector<std::shared_ptr<RgcnLayer>> layers_;
  std::vector<torch::Tensor> features_;  // not parameters: the inputs of featured types, on the device
};

}  // namespace matsamp
