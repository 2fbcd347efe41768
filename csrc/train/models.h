// GNN models that propagate through the sampled matrices as sparse products.
// Torch appears only in csrc/train (and the train CLI command).
#pragma once
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "sampling/sample.h"

namespace matsamp {

enum class ModelKind { sage, gcn };
ModelKind parse_model_kind(const std::string& name);  // "sage" | "gcn"
std::string model_kind_name(ModelKind kind);

// One propagation step: the n_dst x n_src matrix of a layer, whose first
// num_dst columns are the destination vertices themselves (the frontier-first
// column order of every sampler here).
struct Block {
  torch::Tensor adj;  // sparse COO, float
  int64_t num_dst = 0;
};

struct ModelShape {
  ModelKind kind = ModelKind::sage;
  int64_t input_dim = 0;
  int64_t hidden_dim = 64;
  int64_t num_classes = 0;
  int64_t num_layers = 2;
  double dropout = 0.5;
};

class GnnModel : public torch::nn::Module {
 public:
  explicit GnnModel(const ModelShape& shape) : shape_(shape) {}
  const ModelShape& shape() const { return shape_; }
  // blocks in propagation order (input side first); x (dense or sparse) has one
  // row per column of blocks.front(). Returns logits, one row per destination
  // of blocks.back().
  virtual torch::Tensor forward(const std::vector<Block>& blocks, torch::Tensor x) = 0;

 protected:
  ModelShape shape_;
};

// GraphSAGE-mean: h_dst' = W_root·h_dst + W_neigh·(A·h_src), ReLU and dropout between layers.
// GCN: h' = A·(h·W) + b, for the importance-weighted LADIES/FastGCN matrices.
std::shared_ptr<GnnModel> make_model(const ModelShape& shape);

// A minibatch's layers as blocks in propagation order (furthest layer first).
// needs_frontier_first: throws unless every layer lists its rows first among
// its columns (GraphSAGE's h_dst = h_src[:n_dst]).
std::vector<Block> minibatch_blocks(const Minibatch& mb, const torch::Device& device, bool needs_frontier_first);

}  // namespace matsamp
