#include "train/hetero_trainer.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>

#include "sampling/epoch.h"
#include "train/data_parallel.h"
#include "train/tensors.h"
#include "util/json.h"

namespace matsamp {

namespace {

constexpr uint32_t kEvaluationEpochBit = 0x80000000u;  // evaluation draws apart from every training epoch

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class Rgcn : public torch::nn::Module {
 public:
  Rgcn(const HeteroGraph& g, int layers, int64_t hidden, int64_t classes, double dropout, bool shared)
      : graph_(g), dropout_(dropout), shared_(shared) {
    for (const VertexType& t : g.types) {
      if (t.feature_dim > 0) {
        // Shared: one map for every featured type (the types' features look alike to it).
        const bool reuse = shared && !shared_projection_.is_empty();
        MATSAMP_CHECK(!reuse || shared_projection_->options.in_features() == t.feature_dim,
                      "a model that ignores types needs equal feature widths (", t.name, " has ", t.feature_dim, ")");
        if (!reuse) {
          torch::nn::Linear map = register_module("project_" + t.name, torch::nn::Linear(t.feature_dim, hidden));
          if (shared) shared_projection_ = map;
          project_.push_back(map);
        } else {
          project_.push_back(shared_projection_);
        }
        embed_.emplace_back(nullptr);
      } else {
        project_.emplace_back(nullptr);
        embed_.push_back(register_module("embed_" + t.name, torch::nn::Embedding(t.count, hidden)));
      }
    }
    for (int l = 0; l < layers; ++l) {
      const int64_t out = l == 0 ? classes : hidden;  // layer 0 is the last applied (the seeds' logits)
      const size_t relations = shared ? 1 : g.relations.size(), roots = shared ? 1 : g.types.size();
      std::vector<torch::nn::Linear> rel, root;
      for (size_t r = 0; r < relations; ++r)
        rel.push_back(register_module("rel" + std::to_string(l) + "_" + std::to_string(r),
                                      torch::nn::Linear(torch::nn::LinearOptions(hidden, out).bias(false))));
      for (size_t t = 0; t < roots; ++t)
        root.push_back(
            register_module("root" + std::to_string(l) + "_" + std::to_string(t), torch::nn::Linear(hidden, out)));
      relation_.push_back(std::move(rel));
      root_.push_back(std::move(root));
    }
  }

  // Logits of the minibatch's seeds (of seed_type).
  torch::Tensor forward(const HeteroMinibatch& mb, int seed_type, const torch::Device& device) {
    const size_t types = graph_.types.size();
    const int layers = static_cast<int>(mb.layers.size());
    std::vector<torch::Tensor> h(types);
    for (size_t t = 0; t < types; ++t) {
      const torch::Tensor ids = index_tensor(mb.layers.back().vertices[t], device);
      if (embed_[t]) {
        h[t] = embed_[t]->forward(ids);
      } else {
        h[t] = project_[t]->forward(features_of(t, device).index_select(0, ids));
      }
    }
    for (int l = layers - 1; l >= 0; --l) {
      std::vector<torch::Tensor> out(types);
      for (size_t d = 0; d < types; ++d) {
        const int64_t rows = l == 0 ? static_cast<int64_t>(mb.seeds[d].size())
                                    : static_cast<int64_t>(mb.layers[l - 1].vertices[d].size());
        if (rows == 0) continue;
        torch::Tensor y = root_[l][shared_ ? 0 : d]->forward(h[d].narrow(0, 0, rows));
        // Shared: the mean over all sampled neighbours, whatever their relation,
        // as a homogeneous GraphSAGE sees the graph.
        torch::Tensor sum, count;
        for (size_t r = 0; r < graph_.relations.size(); ++r) {
          const CsrMatrix& a = mb.layers[l].adj[r];
          if (a.rows == 0 || graph_.type_index(graph_.relations[r].destination) != static_cast<int>(d)) continue;
          const torch::Tensor& x = h[graph_.type_index(graph_.relations[r].source)];
          if (!shared_) {
            y = y + relation_[l][r]->forward(torch::mm(to_sparse_tensor(a, device), x));
            continue;
          }
          CsrMatrix ones = a;
          std::fill(ones.values.begin(), ones.values.end(), 1.0f);
          std::vector<float> degrees(a.rows);
          for (int64_t i = 0; i < a.rows; ++i) degrees[i] = static_cast<float>(a.rowptr[i + 1] - a.rowptr[i]);
          const torch::Tensor part = torch::mm(to_sparse_tensor(ones, device), x);
          const torch::Tensor n = torch::tensor(degrees).unsqueeze(1).to(device);
          sum = sum.defined() ? sum + part : part;
          count = count.defined() ? count + n : n;
        }
        if (sum.defined()) y = y + relation_[l][0]->forward(sum / count.clamp_min(1));
        out[d] = l > 0 ? torch::dropout(torch::relu(y), dropout_, is_training()) : y;
      }
      h = std::move(out);
    }
    return h[seed_type];
  }

 private:
  const torch::Tensor& features_of(size_t t, const torch::Device& device) {
    if (features_.size() <= t) features_.resize(graph_.types.size());
    if (!features_[t].defined()) {
      const VertexType& type = graph_.types[t];
      features_[t] =
          torch::from_blob(const_cast<float*>(type.features.data()), {type.count, type.feature_dim}, torch::kFloat)
              .to(device);
    }
    return features_[t];
  }

  const HeteroGraph& graph_;
  double dropout_;
  bool shared_;
  std::vector<torch::nn::Linear> project_;
  torch::nn::Linear shared_projection_{nullptr};
  std::vector<torch::nn::Embedding> embed_;
  std::vector<std::vector<torch::nn::Linear>> relation_, root_;
  std::vector<torch::Tensor> features_;  // not parameters: the inputs of featured types
};

// Accuracy of the model on `ids`, sampled like training minibatches.
double evaluate(Rgcn& model, const HeteroSampler& sampler, Context ctx, int seed_type, const std::vector<vid_t>& ids,
                const std::vector<int64_t>& labels, int64_t batch_size, int64_t bulk, uint32_t epoch,
                const torch::Device& device) {
  if (ids.empty()) return 0;
  const EpochOrder order(ids, batch_size);
  int64_t correct = 0;
  for (int64_t first = 0; first < order.num_minibatches(); first += bulk) {
    const int64_t end = std::min(order.num_minibatches(), first + bulk);
    const auto [seeds, offsets] = order.seeds(first, end);
    const HeteroBulkSample sampled =
        to_host(ctx.backend, sampler.sample(ctx, seed_type, seeds, offsets, first, epoch | kEvaluationEpochBit));
    for (int64_t g = 0; g < sampled.count(); ++g) {
      const HeteroMinibatch mb = extract_minibatch(sampled, g);
      const torch::Tensor predicted = model.forward(mb, seed_type, device).argmax(1).to(torch::kCPU);
      const std::vector<vid_t>& seeds = mb.seeds[seed_type];
      for (size_t i = 0; i < seeds.size(); ++i) correct += predicted[i].item<int64_t>() == labels[seeds[i]];
    }
  }
  return static_cast<double>(correct) / static_cast<double>(ids.size());
}

}  // namespace

HeteroSummary train_rgcn(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options, std::FILE* metrics, std::FILE* progress) {
  const TrainOptions& o = options.train;
  const VertexType& type = graph.types.at(seed_type);
  MATSAMP_CHECK(!type.labels.empty(), "vertex type ", type.name, " has no labels to train on");
  const auto split = [&](const char* name) {
    const auto found = type.splits.find(name);
    return found == type.splits.end() ? std::vector<vid_t>{} : found->second;
  };
  const std::vector<vid_t> train = split("train"), validation = split("valid"), test = split("test");
  MATSAMP_CHECK(!train.empty(), "vertex type ", type.name, " has no training split");
  MATSAMP_CHECK(o.batch_size > 0 && o.hidden > 0 && o.learning_rate > 0 && o.epochs >= 0,
                "R-GCN: batch size, hidden and learning rate must be positive");
  const int64_t classes = 1 + *std::max_element(type.labels.begin(), type.labels.end());
  const torch::Device device = torch_device(o.device);
  if (o.threads > 0) torch::set_num_threads(o.threads);
  torch::manual_seed(o.seed);
  auto model =
      std::make_shared<Rgcn>(graph, sampler.num_layers(), o.hidden, classes, o.dropout, options.shared_relation_weight);
  model->to(device);
  torch::optim::Adam optimizer(model->parameters(),
                               torch::optim::AdamOptions(o.learning_rate).weight_decay(o.weight_decay));
  const torch::Tensor labels = torch::tensor(type.labels, torch::kLong).to(device);
  const int64_t bulk = o.bulk_steps > 0 ? o.bulk_steps : 16;
  const Context context{backend, o.seed};

  HeteroSummary summary;
  int64_t since_best = 0;
  for (int64_t epoch = 0; epoch < o.epochs; ++epoch) {
    HeteroEpoch m;
    m.epoch = epoch;
    const uint32_t key = static_cast<uint32_t>(epoch);
    const EpochOrder order(train, o.batch_size, o.seed, key);
    double loss_sum = 0;
    model->train();
    for (int64_t first = 0; first < order.num_minibatches(); first += bulk) {
      auto start = std::chrono::steady_clock::now();
      const int64_t end = std::min(order.num_minibatches(), first + bulk);
      const auto [seeds, offsets] = order.seeds(first, end);
      Context ctx = context;
      const HeteroBulkSample sampled = to_host(backend, sampler.sample(ctx, seed_type, seeds, offsets, first, key));
      m.sampling_s += seconds_since(start);
      start = std::chrono::steady_clock::now();
      for (int64_t g = 0; g < sampled.count(); ++g, ++m.steps) {
        const HeteroMinibatch mb = extract_minibatch(sampled, g);
        seed_minibatch_dropout(o.seed, key, mb.id);
        const torch::Tensor loss = torch::nn::functional::cross_entropy(
            model->forward(mb, seed_type, device), labels.index_select(0, index_tensor(mb.seeds[seed_type], device)));
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        loss_sum += loss.item<double>() * static_cast<double>(mb.seeds[seed_type].size());
      }
      m.training_s += seconds_since(start);
    }
    m.loss = loss_sum / static_cast<double>(train.size());
    const auto start = std::chrono::steady_clock::now();
    {
      torch::NoGradGuard no_grad;
      model->eval();
      m.validation_accuracy =
          evaluate(*model, sampler, context, seed_type, validation, type.labels, o.batch_size, bulk, key, device);
      m.test_accuracy =
          evaluate(*model, sampler, context, seed_type, test, type.labels, o.batch_size, bulk, key, device);
    }
    m.evaluation_s = seconds_since(start);
    summary.epochs = epoch + 1;
    m.improved = summary.best_epoch < 0 || m.validation_accuracy > summary.best_validation_accuracy;
    if (m.improved) {
      summary.best_epoch = epoch;
      summary.best_validation_accuracy = m.validation_accuracy;
      summary.test_accuracy = m.test_accuracy;
      since_best = 0;
    } else {
      ++since_best;
    }
    if (metrics) {
      std::fprintf(metrics, "%s\n",
                   JsonObject()
                       .add("epoch", m.epoch)
                       .add("steps", m.steps)
                       .add("loss", m.loss)
                       .add("validation_accuracy", m.validation_accuracy)
                       .add("test_accuracy", m.test_accuracy)
                       .add("improved", m.improved)
                       .add("time_s", JsonObject()
                                          .add("sampling", m.sampling_s)
                                          .add("training", m.training_s)
                                          .add("evaluation", m.evaluation_s))
                       .str()
                       .c_str());
      std::fflush(metrics);
    }
    if (progress)
      std::fprintf(progress, "matsamp: epoch %lld/%lld  loss %.4f  validation %.4f  test %.4f\n",
                   static_cast<long long>(epoch + 1), static_cast<long long>(o.epochs), m.loss, m.validation_accuracy,
                   m.test_accuracy);
    if (o.patience > 0 && since_best >= o.patience) break;
  }
  if (metrics)
    std::fprintf(metrics, "%s\n",
                 JsonObject()
                     .add("summary", true)
                     .add("epochs", summary.epochs)
                     .add("best_epoch", summary.best_epoch)
                     .add("best_validation_accuracy", summary.best_validation_accuracy)
                     .add("test_accuracy", summary.test_accuracy)
                     .str()
                     .c_str());
  return summary;
}

}  // namespace matsamp
