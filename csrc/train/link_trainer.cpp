#include "train/link_trainer.h"

#include <algorithm>
#include <chrono>

#include "sampling/epoch.h"
#include "train/link_metrics.h"
#include "train/models.h"
#include "train/tensors.h"
#include "util/json.h"

namespace matsamp {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Scores a pair of embeddings: their dot product, or an MLP over their
// elementwise product (the OGB link examples' LinkPredictor).
class Decoder : public torch::nn::Module {
 public:
  Decoder(const std::string& kind, int64_t dim) {
    MATSAMP_CHECK(kind == "dot" || kind == "mlp", "unknown decoder '", kind, "' (expected dot or mlp)");
    if (kind == "mlp") {
      hidden_ = register_module("hidden", torch::nn::Linear(dim, dim));
      out_ = register_module("out", torch::nn::Linear(dim, 1));
    }
  }
  torch::Tensor forward(const torch::Tensor& a, const torch::Tensor& b) {
    const torch::Tensor z = a * b;
    if (!hidden_) return z.sum(-1);
    return out_->forward(torch::relu(hidden_->forward(z))).squeeze(-1);
  }

 private:
  torch::nn::Linear hidden_{nullptr}, out_{nullptr};
};

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

JsonObject describe(const LinkScores& s) {
  JsonObject hits;
  for (const auto& [k, v] : s.hits) hits.add(std::to_string(k), v);
  return JsonObject().add("auc", s.auc).add("mrr", s.mrr).add("hits", hits);
}

struct LinkModel {
  std::shared_ptr<GnnModel> encoder;
  std::shared_ptr<Decoder> decoder;
  std::vector<torch::Tensor> parameters() const {
    std::vector<torch::Tensor> p = encoder->parameters();
    for (const torch::Tensor& t : decoder->parameters()) p.push_back(t);
    return p;
  }
  void train(bool on) {
    encoder->train(on);
    decoder->train(on);
  }
};

// Every vertex's embedding through the full mean-aggregation matrix of the training graph.
torch::Tensor full_embeddings(LinkModel& model, const torch::Tensor& full, int64_t n, int layers,
                              const FeatureTable& features) {
  const std::vector<Block> blocks(layers, Block{full, n});
  return model.encoder->forward(blocks, features.all());
}

LinkScores score(LinkModel& model, const torch::Tensor& h, const EdgeSet& positives,
                 const std::vector<vid_t>& negatives, int64_t per_positive, const std::vector<int64_t>& hits_k,
                 const torch::Device& device) {
  LinkScores s;
  if (positives.size() == 0) return s;
  const torch::Tensor src = index_tensor(positives.sources, device), dst = index_tensor(positives.destinations, device);
  const std::vector<float> pos = to_vector(model.decoder->forward(h.index_select(0, src), h.index_select(0, dst)));
  const torch::Tensor neg_src = src.repeat_interleave(per_positive), neg_dst = index_tensor(negatives, device);
  const std::vector<float> neg =
      to_vector(model.decoder->forward(h.index_select(0, neg_src), h.index_select(0, neg_dst)));
  s.auc = roc_auc(pos, neg);
  s.mrr = mean_reciprocal_rank(ranks_among_own_negatives(pos, neg));
  for (int64_t k : hits_k) s.hits[k] = hits_at_k(pos, neg, k);
  return s;
}

}  // namespace

LinkSummary train_link_prediction(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend,
                                  const LinkTrainOptions& options, std::FILE* metrics, std::FILE* progress) {
  const TrainOptions& o = options.train;
  MATSAMP_CHECK(o.model == "sage", "link prediction trains the sage model (got '", o.model, "')");
  MATSAMP_CHECK(o.batch_size > 0, "batch size must be positive, got ", o.batch_size);
  MATSAMP_CHECK(o.hidden > 0 && o.epochs >= 0 && o.patience >= 0 && o.learning_rate > 0,
                "link prediction: hidden, epochs, patience and learning rate must be positive");
  MATSAMP_CHECK(sampler.excludes_edges(), "the ", sampler.name(),
                " sampler cannot take seed edges out of its layers (link prediction samples with graphsage, labor, "
                "ladies or fastgcn)");
  MATSAMP_CHECK(graph.feature_dim > 0, "link prediction needs vertex features (the graph has none)");
  MATSAMP_CHECK(split.train.size() > 0 && split.validation.size() > 0 && split.evaluation_negatives > 0,
                "link prediction needs training and validation edges and evaluation negatives");
  const torch::Device device = torch_device(o.device);
  if (o.threads > 0) torch::set_num_threads(o.threads);
  torch::manual_seed(o.seed);

  const FeatureTable features(graph, device);
  const int layers = sampler.num_layers();
  LinkModel model{make_model({ModelKind::sage, graph.feature_dim, o.hidden, o.hidden, layers, o.dropout}),
                  std::make_shared<Decoder>(options.decoder, o.hidden)};
  model.encoder->to(device);
  model.decoder->to(device);
  torch::optim::Adam optimizer(model.parameters(),
                               torch::optim::AdamOptions(o.learning_rate).weight_decay(o.weight_decay));
  const torch::Tensor full = to_sparse_tensor(full_neighbourhood_matrix(graph.adj, Aggregation::mean), device);
  const NegativeSampler negatives(graph.adj, options.negatives);
  const int64_t kn = options.negatives.per_positive;
  std::vector<vid_t> edge_ids(split.train.size());
  for (int64_t e = 0; e < split.train.size(); ++e) edge_ids[e] = e;
  const int64_t bulk = o.bulk_steps > 0 ? o.bulk_steps : 16;

  LinkSummary summary;
  int64_t since_best = 0;
  for (int64_t epoch = 0; epoch < o.epochs; ++epoch) {
    LinkEpoch m;
    m.epoch = epoch;
    const EpochOrder order(edge_ids, o.batch_size, o.seed, static_cast<uint32_t>(epoch));
    Context ctx{backend, o.seed};
    double loss_sum = 0;
    int64_t pairs = 0;
    model.train(true);
    for (int64_t first = 0; first < order.num_minibatches(); first += bulk) {
      const int64_t end = std::min(order.num_minibatches(), first + bulk);
      auto start = std::chrono::steady_clock::now();
      auto [ids, offsets] = order.seeds(first, end);
      std::vector<vid_t> sources(ids.size()), destinations(ids.size());
      for (size_t i = 0; i < ids.size(); ++i) {
        sources[i] = split.train.sources[ids[i]];
        destinations[i] = split.train.destinations[ids[i]];
      }
      const EdgeBulk edges =
          make_edge_bulk(std::move(sources), std::move(destinations), std::move(offsets), first, &negatives,
                         {o.seed, static_cast<uint32_t>(epoch), true, options.exclude_reverse && split.undirected});
      const BulkSample sampled = to_host(backend, sample_edge_bulk(sampler, ctx, edges, static_cast<uint32_t>(epoch)));
      m.sampling_s += seconds_since(start);
      start = std::chrono::steady_clock::now();
      for (int64_t g = 0; g < edges.count(); ++g) {
        const Minibatch mb = extract_minibatch(sampled, g);
        const torch::Tensor h =
            model.encoder->forward(minibatch_blocks(mb, device, true), features.rows(mb.layers.back().vertices));
        const int64_t e0 = edges.edge_offsets[g], e1 = edges.edge_offsets[g + 1];
        const auto slice = [&](const std::vector<int64_t>& index, int64_t from, int64_t to) {
          return index_tensor(std::vector<vid_t>(index.begin() + from, index.begin() + to), device);
        };
        const torch::Tensor src = slice(edges.source_index, e0, e1), dst = slice(edges.destination_index, e0, e1);
        const torch::Tensor pos = model.decoder->forward(h.index_select(0, src), h.index_select(0, dst));
        const torch::Tensor neg_src = src.repeat_interleave(kn);
        const torch::Tensor neg = model.decoder->forward(
            h.index_select(0, neg_src), h.index_select(0, slice(edges.negative_index, e0 * kn, e1 * kn)));
        const torch::Tensor loss = torch::binary_cross_entropy_with_logits(
            torch::cat({pos, neg}), torch::cat({torch::ones_like(pos), torch::zeros_like(neg)}));
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        loss_sum += loss.item<double>() * static_cast<double>(pos.numel() + neg.numel());
        pairs += pos.numel() + neg.numel();
        ++m.steps;
      }
      m.training_s += seconds_since(start);
    }
    m.loss = pairs ? loss_sum / static_cast<double>(pairs) : 0;

    const auto start = std::chrono::steady_clock::now();
    model.train(false);
    LinkScores test;
    {
      torch::NoGradGuard no_grad;
      const torch::Tensor h = full_embeddings(model, full, graph.num_vertices(), layers, features);
      m.validation = score(model, h, split.validation, split.validation_negatives, split.evaluation_negatives,
                           options.hits_k, device);
      test = score(model, h, split.test, split.test_negatives, split.evaluation_negatives, options.hits_k, device);
    }
    m.evaluation_s = seconds_since(start);
    summary.epochs = epoch + 1;
    const bool improved = summary.best_epoch < 0 || m.validation.auc > summary.validation.auc;
    if (improved) {
      summary.best_epoch = epoch;
      summary.validation = m.validation;
      summary.test = test;
      since_best = 0;
    } else {
      ++since_best;
    }
    if (metrics)
      std::fprintf(metrics, "%s\n",
                   JsonObject()
                       .add("epoch", m.epoch)
                       .add("steps", m.steps)
                       .add("loss", m.loss)
                       .add("validation", describe(m.validation))
                       .add("improved", improved)
                       .add("time_s", JsonObject()
                                          .add("sampling", m.sampling_s)
                                          .add("training", m.training_s)
                                          .add("evaluation", m.evaluation_s))
                       .str()
                       .c_str());
    if (progress)
      std::fprintf(progress, "matsamp: epoch %lld/%lld  loss %.4f  validation AUC %.4f  MRR %.4f\n",
                   static_cast<long long>(epoch + 1), static_cast<long long>(o.epochs), m.loss, m.validation.auc,
                   m.validation.mrr);
    if (o.patience > 0 && since_best >= o.patience) break;
  }
  if (metrics)
    std::fprintf(metrics, "%s\n",
                 JsonObject()
                     .add("summary", true)
                     .add("epochs", summary.epochs)
                     .add("best_epoch", summary.best_epoch)
                     .add("validation", describe(summary.validation))
                     .add("test", describe(summary.test))
                     .str()
                     .c_str());
  return summary;
}

}  // namespace matsamp
