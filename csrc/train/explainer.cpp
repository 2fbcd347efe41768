#include "train/explainer.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "train/tensors.h"

namespace matsamp {

ExplanationGraph explanation_graph(const CsrMatrix& rows, vid_t first) {
  ExplanationGraph g{first, first + rows.rows, {}};
  for (col_t t : rows.colidx)
    if (t < g.first || t >= g.end) g.remote.push_back(t);
  std::sort(g.remote.begin(), g.remote.end());
  g.remote.erase(std::unique(g.remote.begin(), g.remote.end()), g.remote.end());
  return g;
}

namespace {

// The star of the explanation graph as blocks for a model of `layers` layers, vertex
// 0 the super-vertex and 1 … r the remote ones, each edge weighted by its mask
// (the super-vertex's self-loop by 1) over the row's edge count (mean aggregation).
// Every layer but the last updates all vertices; the last, the super-vertex only.
std::vector<Block> star_blocks(const torch::Tensor& mask, int64_t layers) {
  const int64_t r = mask.size(0), n = r + 1;
  const torch::Tensor remote = torch::arange(1, n, torch::kLong), zeros = torch::zeros({r}, torch::kLong);
  // Row 0: itself, then every remote vertex; row j: the super-vertex.
  const torch::Tensor hub_rows = torch::zeros({n}, torch::kLong), hub_cols = torch::arange(0, n, torch::kLong);
  const torch::Tensor hub_values = torch::cat({torch::ones({1}), mask}) / static_cast<double>(n);
  std::vector<Block> blocks;
  for (int64_t l = 0; l < layers; ++l) {
    const bool last = l + 1 == layers;
    const torch::Tensor rows = last ? hub_rows : torch::cat({hub_rows, remote});
    const torch::Tensor cols = last ? hub_cols : torch::cat({hub_cols, zeros});
    const torch::Tensor values = last ? hub_values : torch::cat({hub_values, mask});
    blocks.push_back({at::sparse_coo_tensor(torch::stack({rows, cols}), values, {last ? 1 : n, n}), last ? 1 : n});
  }
  return blocks;
}

torch::Tensor binary_entropy(const torch::Tensor& p) {
  const double eps = 1e-15;
  return -(p * torch::log(p + eps) + (1 - p) * torch::log(1 - p + eps)).mean();
}

// x (contiguous, float) with each column scaled by its mask value: sparse when x
// has few nonzeros (bag of words, FeatureTable's rule), so each step costs its
// nonzeros, not its n x f entries.
struct MaskedInput {
  torch::Tensor x, indices, values;  // with the indices and values of x's nonzeros when sparse
  explicit MaskedInput(torch::Tensor rows) : x(std::move(rows)) {
    if (!sparse_enough(x.data_ptr<float>(), x.size(0), x.size(1))) return;
    const torch::Tensor nonzero = x.ne(0);
    indices = nonzero.nonzero().t().contiguous();
    values = x.index({nonzero});
  }
  torch::Tensor operator()(const torch::Tensor& mask) const {
    if (!indices.defined()) return x * mask;
    return at::sparse_coo_tensor(indices, values * mask.index_select(0, indices[1]), x.sizes());
  }
};

}  // namespace

ExplanationMasks explain_partition(GnnModel& model, const ExplanationGraph& graph, const torch::Tensor& local_features,
                                   const torch::Tensor& remote_features, const ExplainerOptions& options) {
  const int64_t r = static_cast<int64_t>(graph.remote.size()), f = local_features.size(1);
  MATSAMP_CHECK(local_features.dim() == 2 && local_features.size(0) > 0, "explain_partition: no local feature rows");
  MATSAMP_CHECK(remote_features.dim() == 2 && remote_features.size(0) == r && remote_features.size(1) == f,
                "explain_partition: ", remote_features.size(0), " remote feature rows of ", remote_features.size(1),
                " for ", r, " remote vertices of ", f);
  MATSAMP_CHECK(options.steps >= 0 && options.learning_rate > 0, "explain_partition: bad steps or learning rate");
  const int64_t layers = model.shape().num_layers;
  const bool was_training = model.is_training();
  model.eval();
  // Only the masks learn: the model's parameters are constants here (no gradients computed or left behind).
  std::vector<bool> learning;
  for (torch::Tensor& p : model.parameters()) {
    learning.push_back(p.requires_grad());
    p.set_requires_grad(false);
  }
  const torch::Tensor x =
      torch::cat({local_features.to(torch::kFloat).mean(0, true), remote_features.to(torch::kFloat)});
  const MaskedInput masked(x.contiguous());

  int64_t target = 0;  // the unmasked prediction for the super-vertex
  {
    torch::NoGradGuard no_grad;
    target = model.forward(star_blocks(torch::ones({r}), layers), x).argmax(1).item<int64_t>();
  }
  // GNNExplainer's start: node mask logits ~ N(1, gain·sqrt(2 / 2n)), feature mask logits 0.1.
  auto generator = at::make_generator<at::CPUGeneratorImpl>(options.seed);
  const double spread = std::sqrt(2.0) * std::sqrt(2.0 / (2.0 * static_cast<double>(r + 1)));
  torch::Tensor node_logits = at::normal(1.0, spread, {r}, generator).set_requires_grad(true);
  torch::Tensor feature_logits = torch::full({f}, 0.1).set_requires_grad(true);
  torch::optim::Adam optimizer({node_logits, feature_logits}, torch::optim::AdamOptions(options.learning_rate));
  const torch::Tensor target_tensor = torch::tensor({target}, torch::kLong);
  for (int64_t step = 0; step < options.steps; ++step) {
    optimizer.zero_grad();
    const torch::Tensor node_mask = torch::sigmoid(node_logits), feature_mask = torch::sigmoid(feature_logits);
    const std::vector<Block> blocks = star_blocks(node_mask, layers);
    const torch::Tensor logits = model.forward(blocks, masked(feature_mask));
    torch::Tensor loss = torch::nn::functional::cross_entropy(logits, target_tensor);
    if (r > 0) loss = loss + options.node_size * node_mask.sum() + options.node_entropy * binary_entropy(node_mask);
    loss = loss + options.feature_size * feature_mask.mean() + options.feature_entropy * binary_entropy(feature_mask);
    loss.backward();
    optimizer.step();
  }
  std::vector<torch::Tensor> parameters = model.parameters();
  for (size_t i = 0; i < parameters.size(); ++i) parameters[i].set_requires_grad(learning[i]);
  if (was_training) model.train();
  return {float_vector(torch::sigmoid(node_logits)), float_vector(torch::sigmoid(feature_logits))};
}

}  // namespace matsamp
