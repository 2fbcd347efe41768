#include "train/rgcn.h"

#include <cmath>

#include "core/error.h"
#include "train/tensors.h"

namespace matsamp {

RgcnLayer::RgcnLayer(int64_t in, int64_t out, int64_t relations, int64_t roots, int64_t bases) {
  if (bases == 0) {
    for (int64_t r = 0; r < relations; ++r)
      relation_.push_back(
          register_module("rel" + std::to_string(r), torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(false))));
  } else {
    // V_b at the scale of a full weight (torch's Linear: U(±1/√in)), a_rb of
    // variance 1/B, so that each W_r starts at that scale too.
    torch::NoGradGuard no_grad;
    const double v = 1 / std::sqrt(static_cast<double>(in)), a = std::sqrt(3.0 / static_cast<double>(bases));
    bases_ = register_parameter("bases", torch::empty({bases, in, out}).uniform_(-v, v));
    coefficients_ = register_parameter("coefficients", torch::empty({relations, bases}).uniform_(-a, a));
  }
  for (int64_t t = 0; t < roots; ++t)
    root_.push_back(register_module("root" + std::to_string(t), torch::nn::Linear(in, out)));
}

torch::Tensor RgcnLayer::composed_weights() const {
  if (!bases_.defined()) return {};
  const int64_t b = bases_.size(0), in = bases_.size(1), out = bases_.size(2);
  return coefficients_.mm(bases_.view({b, in * out})).view({coefficients_.size(0), in, out});
}

torch::Tensor RgcnLayer::message(size_t r, const torch::Tensor& aggregated, const torch::Tensor& composed) {
  if (composed.defined()) return aggregated.mm(composed[static_cast<int64_t>(r)]);
  return relation_[r]->forward(aggregated);
}

Rgcn::Rgcn(const HeteroGraph& g, const RgcnShape& shape)
    : graph_(g), shape_(shape), relations_into_(g.types.size()), features_(g.types.size()) {
  const int64_t relations = static_cast<int64_t>(g.relations.size());
  MATSAMP_CHECK(shape.num_bases >= 0,
                "R-GCN: the number of bases must be 0 (a full weight per relation) or positive, got ", shape.num_bases);
  MATSAMP_CHECK(shape.num_bases <= relations, "R-GCN: ", shape.num_bases, " bases for ", relations,
                " relations (reverses included): at most one basis per relation");
  MATSAMP_CHECK(shape.num_bases == 0 || !shape.shared_weight,
                "R-GCN: bases decompose per-relation weights; the ablation that ignores types has one weight");
  for (size_t r = 0; r < g.relations.size(); ++r) {
    source_type_.push_back(g.type_index(g.relations[r].source));
    destination_type_.push_back(g.type_index(g.relations[r].destination));
    relations_into_[destination_type_.back()].push_back(r);
  }
  const int64_t hidden = shape.hidden;
  torch::nn::Linear shared_projection{nullptr};
  for (const VertexType& t : g.types) {
    if (t.feature_dim == 0) {
      project_.emplace_back(nullptr);
      embed_.push_back(register_module("embed_" + t.name, torch::nn::Embedding(t.count, hidden)));
      continue;
    }
    embed_.emplace_back(nullptr);
    if (shape.shared_weight && shared_projection) {
      // One map for every featured type: the types' features look alike to it.
      MATSAMP_CHECK(shared_projection->options.in_features() == t.feature_dim,
                    "a model that ignores types needs equal feature widths (", t.name, " has ", t.feature_dim, ")");
      project_.push_back(shared_projection);
      continue;
    }
    project_.push_back(register_module("project_" + t.name, torch::nn::Linear(t.feature_dim, hidden)));
    if (shape.shared_weight) shared_projection = project_.back();
  }
  const int64_t weights = shape.shared_weight ? 1 : relations;
  const int64_t roots = shape.shared_weight ? 1 : static_cast<int64_t>(g.types.size());
  for (int l = 0; l < shape.layers; ++l) {
    const int64_t out = l == 0 ? shape.classes : hidden;  // layer 0 is the last applied (the seeds' logits)
    layers_.push_back(register_module("layer" + std::to_string(l),
                                      std::make_shared<RgcnLayer>(hidden, out, weights, roots, shape.num_bases)));
  }
}

torch::Tensor Rgcn::input(size_t t, const std::vector<vid_t>& ids, const torch::Device& device) {
  const torch::Tensor index = index_tensor(ids, device);
  if (embed_[t]) return embed_[t]->forward(index);
  if (!features_[t].defined()) {
    const VertexType& type = graph_.types[t];
    features_[t] =
        torch::from_blob(const_cast<float*>(type.features.data()), {type.count, type.feature_dim}, torch::kFloat)
            .to(device);
  }
  return project_[t]->forward(features_[t].index_select(0, index));
}

torch::Tensor Rgcn::forward(const HeteroMinibatch& mb, int seed_type, const torch::Device& device) {
  const size_t types = graph_.types.size();
  const int layers = static_cast<int>(mb.layers.size());
  MATSAMP_CHECK(layers == shape_.layers, "R-GCN of ", shape_.layers, " layers given a minibatch of ", layers);
  std::vector<torch::Tensor> h(types);
  for (size_t t = 0; t < types; ++t) h[t] = input(t, mb.layers.back().vertices[t], device);
  for (int l = layers - 1; l >= 0; --l) {
    RgcnLayer& layer = *layers_[l];
    const torch::Tensor composed = layer.composed_weights();
    std::vector<torch::Tensor> out(types);
    for (size_t d = 0; d < types; ++d) {
      const int64_t rows = l == 0 ? static_cast<int64_t>(mb.seeds[d].size())
                                  : static_cast<int64_t>(mb.layers[l - 1].vertices[d].size());
      if (rows == 0) continue;
      torch::Tensor y = layer.root(shape_.shared_weight ? 0 : d, h[d].narrow(0, 0, rows));
      // Shared: the mean over all sampled neighbours, whatever their relation,
      // as a homogeneous GraphSAGE sees the graph: Σ_r (A_r ≠ 0)·h / Σ_r deg_r.
      torch::Tensor sum, count;
      for (size_t r : relations_into_[d]) {
        const CsrMatrix& a = mb.layers[l].adj[r];
        if (a.rows == 0) continue;
        const torch::Tensor& x = h[source_type_[r]];
        if (!shape_.shared_weight) {
          y = y + layer.message(r, torch::mm(to_sparse_tensor(a, device), x), composed);
          continue;
        }
        const torch::Tensor part = torch::mm(to_sparse_pattern(a, device), x);
        const torch::Tensor degrees =
            torch::from_blob(const_cast<int64_t*>(a.rowptr.data()), {a.rows + 1}, torch::kLong)
                .diff()
                .to(device, torch::kFloat)
                .unsqueeze(1);
        sum = sum.defined() ? sum + part : part;
        count = count.defined() ? count + degrees : degrees;
      }
      if (sum.defined()) y = y + layer.message(0, sum / count.clamp_min(1), composed);
      out[d] = l > 0 ? torch::dropout(torch::relu(y), shape_.dropout, is_training()) : y;
    }
    h = std::move(out);
  }
  return h[seed_type];
}

}  // namespace matsamp
