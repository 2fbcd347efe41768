#include "train/link_trainer.h"

#include <algorithm>
#include <cmath>

#include "sampling/registry.h"
#include "train/checkpoint.h"
#include "train/link_metrics.h"
#include "train/loop.h"
#include "train/models.h"
#include "train/tensors.h"
#include "util/timer.h"

namespace matsamp {

namespace {

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

// Encoder and decoder as one module: one set of parameters to reduce, checkpoint and keep.
class LinkModel : public torch::nn::Module {
 public:
  LinkModel(const ModelShape& encoder_shape, const std::string& decoder_kind)
      : encoder(register_module("encoder", make_model(encoder_shape))),
        decoder(register_module("decoder", std::make_shared<Decoder>(decoder_kind, encoder_shape.num_classes))) {}
  std::shared_ptr<GnnModel> encoder;
  std::shared_ptr<Decoder> decoder;
};

JsonObject describe(const LinkScores& s) {
  JsonObject hits;
  for (const auto& [k, v] : s.hits) hits.add(std::to_string(k), v);
  JsonObject out = JsonObject().add("auc", s.auc);
  if (s.mrr) out.add("mrr", *s.mrr);
  return out.add("hits", hits);
}

// Scores as numbers (auc, mrr or NaN, Hits@K for each K, 0 where not scored
// yet) and back, for broadcasts and checkpoints.
void append_numbers(const LinkScores& s, const std::vector<int64_t>& hits_k, std::vector<double>& out) {
  out.push_back(s.auc);
  out.push_back(s.mrr.value_or(std::nan("")));
  for (int64_t k : hits_k) out.push_back(s.hits.count(k) ? s.hits.at(k) : 0.0);
}

LinkScores scores_from(const double* numbers, const std::vector<int64_t>& hits_k) {
  LinkScores s;
  s.auc = numbers[0];
  if (!std::isnan(numbers[1])) s.mrr = numbers[1];
  for (size_t i = 0; i < hits_k.size(); ++i) s.hits[hits_k[i]] = numbers[2 + i];
  return s;
}

}  // namespace

std::string score_line(const LinkScores& s) {
  char text[64];
  if (s.mrr) std::snprintf(text, sizeof text, "AUC %.4f  MRR %.4f", s.auc, *s.mrr);
  else std::snprintf(text, sizeof text, "AUC %.4f", s.auc);
  return text;
}

namespace {

LinkSummary link_summary(const LoopSummary& s, const std::vector<int64_t>& hits_k) {
  LinkSummary out;
  out.epochs = s.epochs_run;
  out.best_epoch = s.best_epoch;
  out.stopped_early = s.stopped_early;
  if (s.best_epoch >= 0) {
    out.validation = scores_from(s.kept.data(), hits_k);
    out.test = scores_from(s.kept.data() + s.kept.size() / 2, hits_k);
  }
  return out;
}

struct LinkBulk final : SampledBulk {
  EdgeBulk edges;
  BulkSample sample;
};

// A minibatch ready for the model: its blocks and input rows, and the positions
// of its positives' and negatives' endpoints among its seeds.
struct LinkMinibatch final : PreparedMinibatch {
  std::vector<Block> blocks;
  torch::Tensor x, sources, destinations, negatives;
};

// Link prediction: binary cross-entropy of each positive against its negatives.
class LinkTask final : public TrainingTask {
 public:
  LinkTask(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Communicator& comm,
           const LinkTrainOptions& options);

  const LinkScores& last_validation() const { return last_validation_; }
  const std::vector<int64_t>& hits_k() const { return options_.hits_k; }

  torch::nn::Module& model() override { return *model_; }
  std::vector<int64_t> identity() const override;
  const std::vector<vid_t>& training_items() const override { return edge_ids_; }
  int64_t terms_per_item() const override { return 1 + options_.negatives.per_positive; }
  // A minibatch of b positives seeds at most (2 + k)·b vertices (by time, as many trees).
  int64_t steps_per_bulk(int64_t lanes, int64_t minibatches) const override {
    const TrainOptions& o = options_.train;
    const int64_t seeds = (2 + options_.negatives.per_positive) * o.epoch.batch_size;
    return std::max<int64_t>(
        1,
        bulk_size_for_budget(sampler_, seeds, minibatches, o.epoch.memory_budget, options_.times != nullptr) / lanes);
  }
  std::shared_ptr<const SampledBulk> sample(Context& ctx, const EpochOrder& order, std::pair<int64_t, int64_t> ids,
                                            uint32_t epoch) const override;
  std::unique_ptr<PreparedMinibatch> prepare(const SampledBulk& bulk, int64_t id,
                                             PreparationTimes& times) const override;
  torch::Tensor loss(PreparedMinibatch& minibatch) override;
  Evaluation evaluate(uint32_t epoch, int64_t bulk_minibatches) override;
  // Validation's and test's numbers (append_numbers).
  size_t kept_scores() const override { return 2 * (2 + options_.hits_k.size()); }
  void score_best(Evaluation& evaluation, uint32_t epoch) override;
  JsonObject summary_fields(const LoopSummary& s) override {
    const LinkSummary summary = link_summary(s, options_.hits_k);
    return JsonObject().add("validation", describe(summary.validation)).add("test", describe(summary.test));
  }

 private:
  LinkScores score(const EdgeSet& positives, const EdgeSet& negatives);
  LinkScores leaders(const LinkScores& mine);  // rank 0's scores, on every rank

  const Graph& graph_;
  const EdgeSplit& split_;
  const Sampler& sampler_;
  LinkTrainOptions options_;
  torch::Device device_;
  FeatureTable features_;
  NegativeSampler negatives_;
  std::vector<vid_t> edge_ids_;  // 0 … |train| - 1, shuffled per epoch
  std::shared_ptr<LinkModel> model_;
  torch::Tensor full_;        // the training graph's mean-aggregation matrix, for evaluation
  torch::Tensor embeddings_;  // of the evaluation under way
  LinkScores last_validation_;
  Communicator& comm_;
};

LinkTask::LinkTask(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Communicator& comm,
                   const LinkTrainOptions& options)
    : graph_(graph),
      split_(split),
      sampler_(sampler),
      options_(options),
      device_(torch_device(options.train.device)),
      features_(graph, device_),
      negatives_(graph.adj, options.negatives),
      comm_(comm) {
  const TrainOptions& o = options_.train;
  MATSAMP_CHECK(o.model == "sage", "link prediction trains the sage model (got '", o.model, "')");
  MATSAMP_CHECK(o.hidden > 0, "link prediction: the hidden width must be positive, got ", o.hidden);
  MATSAMP_CHECK(o.feature_replication == 0 && o.epoch.locality.blocks == 0 && o.guidance.every == 0,
                "link prediction reads the features on every process (no feature replication, locality blocks or "
                "explanation-guided sampling)");
  MATSAMP_CHECK(graph.feature_dim > 0, "link prediction needs vertex features (the graph has none)");
  MATSAMP_CHECK(split.validation.size() > 0 && split.validation_negatives.size() > 0,
                "link prediction needs validation edges and negatives to score them against");
  if (options.times) {
    MATSAMP_CHECK(split.train_times.size() == static_cast<size_t>(split.train.size()),
                  "link prediction by time needs a split by time (each training edge's time)");
    MATSAMP_CHECK(can(find_sampler(sampler.name()), kTemporal), "the ", sampler.name(),
                  " sampler cannot sample by time (link prediction by time samples with ", samplers_that(kTemporal),
                  ")");
  } else {
    MATSAMP_CHECK(can(find_sampler(sampler.name()), kEdgeSeeds), "the ", sampler.name(),
                  " sampler cannot take seed edges out of its layers (link prediction samples with ",
                  samplers_that(kEdgeSeeds), ")");
  }
  MATSAMP_CHECK(split.train.size() > 0, "link prediction needs training edges");
  edge_ids_.resize(split.train.size());
  for (int64_t e = 0; e < split.train.size(); ++e) edge_ids_[e] = e;
  torch::manual_seed(o.epoch.seed);
  const ModelShape encoder{ModelKind::sage, graph.feature_dim, o.hidden, o.hidden, sampler.num_layers(), o.dropout};
  model_ = std::make_shared<LinkModel>(encoder, options_.decoder);
  model_->to(device_);
  full_ = to_sparse_tensor(full_neighbourhood_matrix(graph.adj, Aggregation::mean), device_);
}

std::vector<int64_t> LinkTask::identity() const {
  const TrainOptions& o = options_.train;
  return {kLinkCheckpointTag,
          static_cast<int64_t>(o.epoch.seed),
          graph_.feature_dim,
          o.hidden,
          sampler_.num_layers(),
          options_.decoder == "mlp",
          options_.negatives.per_positive,
          static_cast<int64_t>(options_.hits_k.size())};
}

// The minibatches' edges (positives, negatives, masks) and layers.
std::shared_ptr<const SampledBulk> LinkTask::sample(Context& ctx, const EpochOrder& order,
                                                    std::pair<int64_t, int64_t> ids, uint32_t epoch) const {
  auto [edge_ids, offsets] = order.seeds(ids.first, ids.second);
  std::vector<vid_t> sources(edge_ids.size()), destinations(edge_ids.size());
  for (size_t i = 0; i < edge_ids.size(); ++i) {
    sources[i] = split_.train.sources[edge_ids[i]];
    destinations[i] = split_.train.destinations[edge_ids[i]];
  }
  // By time: no exclusion, each positive's trees end before its time.
  const TemporalEpoch* times = options_.times.get();
  EdgeBulkOptions bulk{options_.train.epoch.seed, epoch, !times,
                       !times && options_.exclude_reverse && split_.undirected};
  std::vector<int64_t> edge_times;
  if (times) {
    for (vid_t e : edge_ids) edge_times.push_back(split_.train_times[e]);
    bulk.edge_times = &edge_times;
    if (!times->vertex_times.empty()) bulk.vertex_times = &times->vertex_times;
    bulk.trees = true;
  }
  auto out = std::make_shared<LinkBulk>();
  out->edges =
      make_edge_bulk(std::move(sources), std::move(destinations), std::move(offsets), ids.first, &negatives_, bulk);
  const int64_t first_tree = (2 + options_.negatives.per_positive) * order.starts()[ids.first];
  out->sample =
      to_host(ctx.backend, times ? sample_edge_trees(sampler_, ctx, out->edges, epoch, *times, edge_times, first_tree)
                                 : sample_edge_bulk(sampler_, ctx, out->edges, epoch));
  return out;
}

std::unique_ptr<PreparedMinibatch> LinkTask::prepare(const SampledBulk& bulk, int64_t id,
                                                     PreparationTimes& times) const {
  const auto& sampled = static_cast<const LinkBulk&>(bulk);
  const EdgeBulk& edges = sampled.edges;
  const int64_t g = id - edges.first_minibatch, k = options_.negatives.per_positive;
  auto p = std::make_unique<LinkMinibatch>();
  Minibatch mb;
  {
    ScopedTimer t(&times.block_conversion);
    mb = extract_minibatch(sampled.sample, g);
    p->blocks = minibatch_blocks(mb, device_, true);
  }
  ScopedTimer t(&times.feature_fetch);
  p->x = features_.rows(mb.layers.back().vertices);
  const int64_t e0 = edges.edge_offsets[g], e1 = edges.edge_offsets[g + 1];
  const auto slice = [&](const std::vector<int64_t>& index, int64_t from, int64_t to) {
    return index_tensor(std::vector<vid_t>(index.begin() + from, index.begin() + to), device_);
  };
  p->sources = slice(edges.source_index, e0, e1);
  p->destinations = slice(edges.destination_index, e0, e1);
  p->negatives = slice(edges.negative_index, e0 * k, e1 * k);
  return p;
}

torch::Tensor LinkTask::loss(PreparedMinibatch& minibatch) {
  auto& mb = static_cast<LinkMinibatch&>(minibatch);
  const int64_t k = options_.negatives.per_positive;
  const torch::Tensor h = model_->encoder->forward(mb.blocks, mb.x);
  const torch::Tensor pos = model_->decoder->forward(h.index_select(0, mb.sources), h.index_select(0, mb.destinations));
  const torch::Tensor neg =
      model_->decoder->forward(h.index_select(0, mb.sources.repeat_interleave(k)), h.index_select(0, mb.negatives));
  return torch::binary_cross_entropy_with_logits(torch::cat({pos, neg}),
                                                 torch::cat({torch::ones_like(pos), torch::zeros_like(neg)}),
                                                 /*weight=*/{}, /*pos_weight=*/{}, at::Reduction::Sum);
}

LinkScores LinkTask::score(const EdgeSet& positives, const EdgeSet& negatives) {
  LinkScores s;
  if (positives.size() == 0) return s;
  const auto scores_of = [&](const EdgeSet& edges) {
    return float_vector(
        model_->decoder->forward(embeddings_.index_select(0, index_tensor(edges.sources, device_)),
                                 embeddings_.index_select(0, index_tensor(edges.destinations, device_))));
  };
  const std::vector<float> pos = scores_of(positives), neg = scores_of(negatives);
  s.auc = roc_auc(pos, neg);
  if (split_.evaluation_negatives > 0) s.mrr = mean_reciprocal_rank(ranks_among_own_negatives(pos, neg));
  for (int64_t k : options_.hits_k) s.hits[k] = hits_at_k(pos, neg, k);
  return s;
}

// Rank 0's scores decide early stopping everywhere, whatever the rounding of the reductions.
LinkScores LinkTask::leaders(const LinkScores& mine) {
  std::vector<double> numbers;
  append_numbers(mine, options_.hits_k, numbers);
  comm_.broadcast(numbers.data(), static_cast<int64_t>(numbers.size()), DataType::float64, 0);
  return scores_from(numbers.data(), options_.hits_k);
}

// Validation every epoch, with embeddings from the full training neighbourhoods;
// test only at a new best (it is reported there and never chooses).
Evaluation LinkTask::evaluate(uint32_t, int64_t) {
  const std::vector<Block> blocks(sampler_.num_layers(), Block{full_, graph_.num_vertices()});
  embeddings_ = model_->encoder->forward(blocks, features_.all());
  last_validation_ = leaders(score(split_.validation, split_.validation_negatives));
  Evaluation e;
  e.score = last_validation_.auc;
  e.fields.add("validation", describe(last_validation_));
  e.progress = "validation " + score_line(last_validation_);
  return e;
}

void LinkTask::score_best(Evaluation& e, uint32_t) {
  const LinkScores test = leaders(score(split_.test, split_.test_negatives));
  append_numbers(last_validation_, options_.hits_k, e.kept);
  append_numbers(test, options_.hits_k, e.kept);
}

}  // namespace

struct LinkTrainer::State {
  LinkTask task;
  TrainingLoop loop;
  State(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend, Communicator& comm,
        const LinkTrainOptions& options)
      : task(graph, split, sampler, comm, options), loop(task, backend, comm, options.train) {}
};

LinkTrainer::LinkTrainer(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend,
                         Communicator& comm, const LinkTrainOptions& options)
    : state_(std::make_unique<State>(graph, split, sampler, backend, comm, options)) {}

LinkTrainer::~LinkTrainer() = default;

int64_t LinkTrainer::next_epoch() const { return state_->loop.next_epoch(); }

bool LinkTrainer::finished() const { return state_->loop.finished(); }

LinkSummary LinkTrainer::summary() const { return link_summary(state_->loop.summary(), state_->task.hits_k()); }

LinkEpoch LinkTrainer::train_epoch() {
  const LoopEpoch e = state_->loop.train_epoch();
  LinkEpoch m;
  m.epoch = e.epoch;
  m.steps = e.steps;
  m.loss = e.loss;
  m.validation = state_->task.last_validation();
  m.improved = e.improved;
  m.times = e.times;
  return m;
}

void LinkTrainer::save_checkpoint(const std::string& path) const { state_->loop.save_checkpoint(path); }

void LinkTrainer::load_checkpoint(const std::string& path) { state_->loop.load_checkpoint(path); }

LinkSummary LinkTrainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  return link_summary(state_->loop.run(metrics, progress, checkpoint_path), state_->task.hits_k());
}

}  // namespace matsamp
