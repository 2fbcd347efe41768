#include "train/models.h"

#include <algorithm>

#include "core/error.h"
#include "train/tensors.h"

namespace matsamp {

ModelKind parse_model_kind(const std::string& name) {
  if (name == "sage") return ModelKind::sage;
  if (name == "gcn") return ModelKind::gcn;
  fail("unknown model '", name, "' (expected sage or gcn)");
}

std::string model_kind_name(ModelKind kind) { return kind == ModelKind::sage ? "sage" : "gcn"; }

namespace {

// Layer widths: input, hidden … hidden, classes.
std::vector<int64_t> layer_widths(const ModelShape& s) {
  MATSAMP_CHECK(s.num_layers >= 1, "a model needs at least one layer, got ", s.num_layers);
  MATSAMP_CHECK(s.input_dim > 0 && s.hidden_dim > 0 && s.num_classes > 0, "model dimensions must be positive (input ",
                s.input_dim, ", hidden ", s.hidden_dim, ", classes ", s.num_classes, ")");
  MATSAMP_CHECK(s.dropout >= 0 && s.dropout < 1, "dropout must be in [0, 1), got ", s.dropout);
  std::vector<int64_t> widths{s.input_dim};
  for (int64_t l = 1; l < s.num_layers; ++l) widths.push_back(s.hidden_dim);
  widths.push_back(s.num_classes);
  return widths;
}

void check_blocks(const std::vector<Block>& blocks, const torch::Tensor& x, int64_t layers) {
  MATSAMP_CHECK(static_cast<int64_t>(blocks.size()) == layers, "model of ", layers, " layers got ", blocks.size(),
                " sampled layers");
  MATSAMP_CHECK(blocks.front().adj.size(1) == x.size(0), "input has ", x.size(0), " rows, the first layer has ",
                blocks.front().adj.size(1), " columns");
  for (size_t l = 0; l + 1 < blocks.size(); ++l)
    MATSAMP_CHECK(blocks[l].adj.size(0) == blocks[l + 1].adj.size(1) && blocks[l].num_dst == blocks[l].adj.size(0),
                  "sampled layers do not chain at layer ", l);
}

// x·Wᵀ + b for dense or sparse x (nn::Linear takes dense input only).
torch::Tensor linear_map(torch::nn::Linear linear, const torch::Tensor& x) {
  if (!x.is_sparse()) return linear->forward(x);
  torch::Tensor y;
  if (x.requires_grad()) {  // the explainer's masked input: a gradient per nonzero, not the dense n x f one
    const torch::Tensor c = x.coalesce();  // values(), unlike _values(), carries the gradient
    const torch::Tensor at = c.indices();
    y = torch::zeros({x.size(0), linear->weight.size(0)}, linear->weight.options())
            .index_add(0, at[0], c.values().unsqueeze(1) * linear->weight.t().index_select(0, at[1]));
  } else {
    y = torch::mm(x, linear->weight.t());
  }
  return linear->bias.defined() ? y + linear->bias : y;
}

torch::Tensor dropout_entries(const torch::Tensor& x, double p, bool training) {
  if (!x.is_sparse() || !training || p == 0) return torch::dropout(x, p, training);
  // Only stored entries can be dropped; the zeros stay zero either way.
  return torch::sparse_coo_tensor(x._indices(), torch::dropout(x._values(), p, true), x.sizes())._coalesced_(true);
}

class GraphSage final : public GnnModel {
 public:
  explicit GraphSage(const ModelShape& shape) : GnnModel(shape) {
    const std::vector<int64_t> w = layer_widths(shape);
    for (size_t l = 0; l + 1 < w.size(); ++l) {
      root_.push_back(register_module("root" + std::to_string(l), torch::nn::Linear(w[l], w[l + 1])));
      neigh_.push_back(register_module("neigh" + std::to_string(l),
                                       torch::nn::Linear(torch::nn::LinearOptions(w[l], w[l + 1]).bias(false))));
    }
  }

  torch::Tensor forward(const std::vector<Block>& blocks, torch::Tensor h) override {
    check_blocks(blocks, h, shape_.num_layers);
    for (size_t l = 0; l < blocks.size(); ++l) {
      h = dropout_entries(h, shape_.dropout, is_training());
      const torch::Tensor& mean = blocks[l].adj;  // 1/count per sampled neighbour
      const int64_t n_dst = blocks[l].num_dst;
      if (h.is_sparse()) {
        // Sparse input rows: transform every row, then aggregate. The same sum
        // as below, without densifying n_src x f input rows.
        h = linear_map(root_[l], h).narrow(0, 0, n_dst) + at::_sparse_mm(mean, linear_map(neigh_[l], h));
      } else {
        h = root_[l]->forward(h.narrow(0, 0, n_dst)) + neigh_[l]->forward(at::_sparse_mm(mean, h));
      }
      if (l + 1 < blocks.size()) h = torch::relu(h);
    }
    return h;
  }

 private:
  std::vector<torch::nn::Linear> root_, neigh_;
};

class Gcn final : public GnnModel {
 public:
  explicit Gcn(const ModelShape& shape) : GnnModel(shape) {
    const std::vector<int64_t> w = layer_widths(shape);
    for (size_t l = 0; l + 1 < w.size(); ++l) {
      // The bias is added after aggregation: rows of the matrices need not sum to 1.
      weight_.push_back(register_module("weight" + std::to_string(l),
                                        torch::nn::Linear(torch::nn::LinearOptions(w[l], w[l + 1]).bias(false))));
      bias_.push_back(register_parameter("bias" + std::to_string(l), torch::zeros({w[l + 1]})));
    }
  }

  torch::Tensor forward(const std::vector<Block>& blocks, torch::Tensor h) override {
    check_blocks(blocks, h, shape_.num_layers);
    for (size_t l = 0; l < blocks.size(); ++l) {
      h = dropout_entries(h, shape_.dropout, is_training());
      h = at::_sparse_mm(blocks[l].adj, linear_map(weight_[l], h)) + bias_[l];
      if (l + 1 < blocks.size()) h = torch::relu(h);
    }
    return h;
  }

 private:
  std::vector<torch::nn::Linear> weight_;
  std::vector<torch::Tensor> bias_;
};

}  // namespace

std::vector<Block> minibatch_blocks(const Minibatch& mb, const torch::Device& device, bool needs_frontier_first) {
  std::vector<Block> blocks;
  const std::vector<vid_t>* rows = &mb.seeds;
  for (const MinibatchLayer& layer : mb.layers) {
    // GraphSAGE takes h_dst = h_src[:n_dst]; a sampler that drops the frontier would make that silently wrong.
    MATSAMP_CHECK(!needs_frontier_first || (layer.vertices.size() >= rows->size() &&
                                            std::equal(rows->begin(), rows->end(), layer.vertices.begin())),
                  "the sage model needs the frontier first among each layer's columns; "
                  "the sampler does not keep it (drop --exclude-frontier)");
    blocks.push_back({to_sparse_tensor(layer.adj, device), layer.adj.rows});
    rows = &layer.vertices;
  }
  std::reverse(blocks.begin(), blocks.end());
  return blocks;
}

std::shared_ptr<GnnModel> make_model(const ModelShape& shape) {
  if (shape.kind == ModelKind::sage) return std::make_shared<GraphSage>(shape);
  return std::make_shared<Gcn>(shape);
}

}  // namespace matsamp
