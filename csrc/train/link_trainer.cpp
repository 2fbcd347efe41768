#include "train/link_trainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "io/atomic_file.h"
#include "sampling/epoch.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/link_metrics.h"
#include "train/models.h"
#include "train/step_plan.h"
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

// Encoder and decoder as one module: one set of parameters to reduce, checkpoint and keep.
class LinkModel : public torch::nn::Module {
 public:
  LinkModel(const ModelShape& encoder_shape, const std::string& decoder_kind)
      : encoder(register_module("encoder", make_model(encoder_shape))),
        decoder(register_module("decoder", std::make_shared<Decoder>(decoder_kind, encoder_shape.num_classes))) {}
  std::shared_ptr<GnnModel> encoder;
  std::shared_ptr<Decoder> decoder;
};

std::vector<float> to_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

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

struct LinkTrainer::State {
  const Graph& graph;
  const EdgeSplit& split;
  const Sampler& sampler;
  Context context;
  Communicator& comm;
  LinkTrainOptions options;
  torch::Device device;
  FeatureTable features;
  NegativeSampler negatives;
  std::vector<vid_t> edge_ids;  // 0 … |train| - 1, shuffled per epoch
  StepPlan plan;
  std::pair<int64_t, int64_t> lanes;  // this rank's
  std::shared_ptr<LinkModel> model;
  std::unique_ptr<torch::optim::Adam> optimizer;
  torch::Tensor full;  // the training graph's mean-aggregation matrix, for evaluation

  int64_t next_epoch = 0, epochs_since_best = 0;
  LinkSummary best;  // epochs, best epoch and scores so far
  std::vector<torch::Tensor> best_parameters;

  State(const Graph& graph_, const EdgeSplit& split_, const Sampler& sampler_, Backend& backend_, Communicator& comm_,
        const LinkTrainOptions& options_);
  static StepPlan step_plan(const EdgeSplit& split, const Sampler& sampler, const LinkTrainOptions& options, int ranks);
  int64_t negatives_per_positive() const { return options.negatives.per_positive; }
  BulkSample sample(const EpochOrder& order, const StepPlan::Bulk& bulk, uint32_t epoch, EdgeBulk* edges);
  double train_step(const BulkSample& sampled, const EdgeBulk& edges, const StepPlan::Bulk& bulk, int64_t step,
                    uint32_t epoch);
  LinkScores score(const torch::Tensor& h, const EdgeSet& positives, const EdgeSet& negatives);
  LinkScores leaders(const LinkScores& mine);  // rank 0's scores, on every rank
  void evaluate(LinkEpoch& m);
  std::vector<int64_t> identity() const;
  ProgressNumbers progress_numbers() const;
};

LinkTrainer::State::State(const Graph& graph_, const EdgeSplit& split_, const Sampler& sampler_, Backend& backend_,
                          Communicator& comm_, const LinkTrainOptions& options_)
    : graph(graph_),
      split(split_),
      sampler(sampler_),
      context{backend_, options_.train.seed},
      comm(comm_),
      options(options_),
      device(torch_device(options_.train.device)),
      features(graph_, device),
      negatives(graph_.adj, options_.negatives),
      plan(step_plan(split_, sampler_, options_, comm_.size())),
      lanes(plan.rank_lanes(comm_.rank(), comm_.size())) {
  const TrainOptions& o = options.train;
  MATSAMP_CHECK(o.model == "sage", "link prediction trains the sage model (got '", o.model, "')");
  MATSAMP_CHECK(o.hidden > 0 && o.learning_rate > 0, "link prediction: hidden and learning rate must be positive");
  MATSAMP_CHECK(o.epochs >= 0 && o.patience >= 0 && o.weight_decay >= 0,
                "link prediction: epochs, patience and weight decay must be non-negative");
  MATSAMP_CHECK(o.feature_replication == 0 && o.locality_blocks == 0 && o.guidance.every == 0,
                "link prediction reads the features on every process (no feature replication, locality blocks or "
                "explanation-guided sampling)");
  MATSAMP_CHECK(graph.feature_dim > 0, "link prediction needs vertex features (the graph has none)");
  MATSAMP_CHECK(split.validation.size() > 0 && split.validation_negatives.size() > 0,
                "link prediction needs validation edges and negatives to score them against");
  if (o.threads > 0) torch::set_num_threads(o.threads);
  edge_ids.resize(split.train.size());
  for (int64_t e = 0; e < split.train.size(); ++e) edge_ids[e] = e;
  torch::manual_seed(o.seed);
  const ModelShape encoder{ModelKind::sage, graph.feature_dim, o.hidden, o.hidden, sampler.num_layers(), o.dropout};
  model = std::make_shared<LinkModel>(encoder, options.decoder);
  model->to(device);
  broadcast_parameters(model->parameters(), comm);
  optimizer = std::make_unique<torch::optim::Adam>(
      model->parameters(), torch::optim::AdamOptions(o.learning_rate).weight_decay(o.weight_decay));
  full = to_sparse_tensor(full_neighbourhood_matrix(graph.adj, Aggregation::mean), device);
}

StepPlan LinkTrainer::State::step_plan(const EdgeSplit& split, const Sampler& sampler, const LinkTrainOptions& options,
                                       int ranks) {
  const TrainOptions& o = options.train;
  MATSAMP_CHECK(sampler.excludes_edges(), "the ", sampler.name(),
                " sampler cannot take seed edges out of its layers (link prediction samples with graphsage, labor, "
                "dgs, ladies or fastgcn)");
  MATSAMP_CHECK(o.batch_size > 0, "batch size must be positive, got ", o.batch_size);
  MATSAMP_CHECK(split.train.size() > 0, "link prediction needs training edges");
  const int64_t lanes = o.minibatches_per_step > 0 ? o.minibatches_per_step : ranks;
  MATSAMP_CHECK(lanes % ranks == 0, "minibatches per step (", lanes, ") must be a multiple of the ", ranks,
                " processes");
  // A minibatch of b positives seeds at most (2 + k)·b vertices. Like the node
  // trainer's, the steps per bulk must not depend on p.
  const int64_t minibatches = minibatch_count(split.train.size(), o.batch_size);
  const int64_t seeds = (2 + options.negatives.per_positive) * o.batch_size;
  const int64_t steps_per_bulk =
      o.bulk_steps > 0
          ? o.bulk_steps
          : std::max<int64_t>(1, bulk_size_for_budget(sampler, seeds, minibatches, o.memory_budget) / lanes);
  return StepPlan(split.train.size(), o.batch_size, lanes, steps_per_bulk);
}

// This rank's minibatches of the bulk: their edges (positives, negatives, masks) and layers.
BulkSample LinkTrainer::State::sample(const EpochOrder& order, const StepPlan::Bulk& bulk, uint32_t epoch,
                                      EdgeBulk* edges) {
  const auto [first, end] = plan.lane_minibatches(bulk, lanes);
  auto [ids, offsets] = order.seeds(first, end);
  std::vector<vid_t> sources(ids.size()), destinations(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    sources[i] = split.train.sources[ids[i]];
    destinations[i] = split.train.destinations[ids[i]];
  }
  *edges = make_edge_bulk(std::move(sources), std::move(destinations), std::move(offsets), first, &negatives,
                          {options.train.seed, epoch, true, options.exclude_reverse && split.undirected});
  Context ctx = context;
  return to_host(context.backend, sample_edge_bulk(sampler, ctx, *edges, epoch));
}

// One optimizer step: this rank's lanes, the loss divided by the step's pairs on all ranks.
double LinkTrainer::State::train_step(const BulkSample& sampled, const EdgeBulk& edges, const StepPlan::Bulk& bulk,
                                      int64_t step, uint32_t epoch) {
  const int64_t k = negatives_per_positive();
  const double step_pairs = static_cast<double>(plan.step_seeds(bulk, step) * (1 + k));
  optimizer->zero_grad();
  double loss_sum = 0;
  for (int64_t lane = lanes.first; lane < lanes.second; ++lane) {
    const int64_t id = plan.minibatch(bulk, lane, step);
    if (id < 0) continue;  // this lane ran out in the last bulk; the rank still joins the reduction
    const int64_t g = id - edges.first_minibatch;
    const Minibatch mb = extract_minibatch(sampled, g);
    seed_minibatch_dropout(options.train.seed, epoch, id);
    const torch::Tensor h =
        model->encoder->forward(minibatch_blocks(mb, device, true), features.rows(mb.layers.back().vertices));
    const int64_t e0 = edges.edge_offsets[g], e1 = edges.edge_offsets[g + 1];
    const auto slice = [&](const std::vector<int64_t>& index, int64_t from, int64_t to) {
      return index_tensor(std::vector<vid_t>(index.begin() + from, index.begin() + to), device);
    };
    const torch::Tensor src = slice(edges.source_index, e0, e1), dst = slice(edges.destination_index, e0, e1);
    const torch::Tensor pos = model->decoder->forward(h.index_select(0, src), h.index_select(0, dst));
    const torch::Tensor neg = model->decoder->forward(h.index_select(0, src.repeat_interleave(k)),
                                                      h.index_select(0, slice(edges.negative_index, e0 * k, e1 * k)));
    const torch::Tensor loss = torch::binary_cross_entropy_with_logits(
                                   torch::cat({pos, neg}), torch::cat({torch::ones_like(pos), torch::zeros_like(neg)}),
                                   /*weight=*/{}, /*pos_weight=*/{}, at::Reduction::Sum) /
                               step_pairs;
    loss.backward();
    loss_sum += loss.item<double>() * step_pairs;
  }
  all_reduce_gradients(model->parameters(), comm);
  optimizer->step();
  return loss_sum;
}

LinkScores LinkTrainer::State::score(const torch::Tensor& h, const EdgeSet& positives, const EdgeSet& negatives) {
  LinkScores s;
  if (positives.size() == 0) return s;
  const auto scores_of = [&](const EdgeSet& edges) {
    return to_vector(model->decoder->forward(h.index_select(0, index_tensor(edges.sources, device)),
                                             h.index_select(0, index_tensor(edges.destinations, device))));
  };
  const std::vector<float> pos = scores_of(positives), neg = scores_of(negatives);
  s.auc = roc_auc(pos, neg);
  if (split.evaluation_negatives > 0) s.mrr = mean_reciprocal_rank(ranks_among_own_negatives(pos, neg));
  for (int64_t k : options.hits_k) s.hits[k] = hits_at_k(pos, neg, k);
  return s;
}

// Rank 0's scores decide early stopping everywhere, whatever the rounding of the reductions.
LinkScores LinkTrainer::State::leaders(const LinkScores& mine) {
  std::vector<double> numbers;
  append_numbers(mine, options.hits_k, numbers);
  comm.broadcast(numbers.data(), static_cast<int64_t>(numbers.size()), DataType::float64, 0);
  return scores_from(numbers.data(), options.hits_k);
}

// Validation every epoch; test only at a new best (it is reported there and never chooses).
void LinkTrainer::State::evaluate(LinkEpoch& m) {
  const auto start = std::chrono::steady_clock::now();
  torch::NoGradGuard no_grad;
  model->eval();
  const std::vector<Block> blocks(sampler.num_layers(), Block{full, graph.num_vertices()});
  const torch::Tensor h = model->encoder->forward(blocks, features.all());
  m.validation = leaders(score(h, split.validation, split.validation_negatives));
  m.improved = best.best_epoch < 0 || m.validation.auc > best.validation.auc;
  if (m.improved) {
    best.best_epoch = m.epoch;
    best.validation = m.validation;
    best.test = leaders(score(h, split.test, split.test_negatives));
    best_parameters.clear();
    for (const torch::Tensor& p : model->parameters()) best_parameters.push_back(p.detach().clone());
    epochs_since_best = 0;
  } else {
    ++epochs_since_best;
  }
  model->train();
  m.evaluation_s = seconds_since(start);
}

std::vector<int64_t> LinkTrainer::State::identity() const {
  const TrainOptions& o = options.train;
  return {kLinkCheckpointTag,       static_cast<int64_t>(o.seed),
          graph.feature_dim,        o.hidden,
          sampler.num_layers(),     options.decoder == "mlp",
          negatives_per_positive(), static_cast<int64_t>(options.hits_k.size())};
}

ProgressNumbers LinkTrainer::State::progress_numbers() const {
  ProgressNumbers n{{next_epoch, best.best_epoch, epochs_since_best, best.stopped_early}, {}};
  append_numbers(best.validation, options.hits_k, n.scores);
  append_numbers(best.test, options.hits_k, n.scores);
  return n;
}

LinkTrainer::LinkTrainer(const Graph& graph, const EdgeSplit& split, const Sampler& sampler, Backend& backend,
                         Communicator& comm, const LinkTrainOptions& options)
    : state_(std::make_unique<State>(graph, split, sampler, backend, comm, options)) {}

LinkTrainer::~LinkTrainer() = default;

int64_t LinkTrainer::next_epoch() const { return state_->next_epoch; }

bool LinkTrainer::finished() const {
  return state_->best.stopped_early || state_->next_epoch >= state_->options.train.epochs;
}

LinkSummary LinkTrainer::summary() const {
  LinkSummary s = state_->best;
  s.epochs = state_->next_epoch;
  return s;
}

LinkEpoch LinkTrainer::train_epoch() {
  State& s = *state_;
  MATSAMP_CHECK(!finished(), "training has finished (epoch ", s.next_epoch, ")");
  LinkEpoch m;
  m.epoch = s.next_epoch;
  const uint32_t epoch = static_cast<uint32_t>(m.epoch);
  const EpochOrder order(s.edge_ids, s.options.train.batch_size, s.options.train.seed, epoch);
  double loss_sum = 0;
  s.model->train();
  for (int64_t b = 0; b < s.plan.num_bulks(); ++b) {
    const StepPlan::Bulk bulk = s.plan.bulk(b);
    auto start = std::chrono::steady_clock::now();
    EdgeBulk edges;
    const BulkSample sampled = s.sample(order, bulk, epoch, &edges);
    m.sampling_s += seconds_since(start);
    start = std::chrono::steady_clock::now();
    for (int64_t step = 0; step < bulk.lane_length; ++step, ++m.steps)
      loss_sum += s.train_step(sampled, edges, bulk, step, epoch);
    m.training_s += seconds_since(start);
  }
  std::vector<double> total{loss_sum};
  s.comm.all_reduce_sum(total);
  m.loss = total[0] / static_cast<double>(s.split.train.size() * (1 + s.negatives_per_positive()));
  s.evaluate(m);
  ++s.next_epoch;
  const int64_t patience = s.options.train.patience;
  s.best.stopped_early = patience > 0 && s.epochs_since_best >= patience;
  return m;
}

void LinkTrainer::save_checkpoint(const std::string& path) const {
  const State& s = *state_;
  matsamp::save_checkpoint(path, s.identity(), *s.model, *s.optimizer, s.best_parameters, s.progress_numbers());
}

void LinkTrainer::load_checkpoint(const std::string& path) {
  State& s = *state_;
  ProgressNumbers n = s.progress_numbers();
  matsamp::load_checkpoint(path, s.identity(), s.device, *s.model, *s.optimizer, s.best_parameters, n);
  s.next_epoch = n.counters[0];
  s.best.best_epoch = n.counters[1];
  s.epochs_since_best = n.counters[2];
  s.best.stopped_early = n.counters[3] != 0;
  const size_t width = n.scores.size() / 2;
  s.best.validation = scores_from(n.scores.data(), s.options.hits_k);
  s.best.test = scores_from(n.scores.data() + width, s.options.hits_k);
}

LinkSummary LinkTrainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  const bool leader = state_->comm.rank() == 0;
  if (leader && !checkpoint_path.empty()) check_can_write(checkpoint_path);
  const int64_t epochs = state_->options.train.epochs;
  while (!finished()) {
    const LinkEpoch m = train_epoch();
    if (!leader) continue;
    if (!checkpoint_path.empty()) save_checkpoint(checkpoint_path);
    if (metrics) {
      const JsonObject times =
          JsonObject().add("sampling", m.sampling_s).add("training", m.training_s).add("evaluation", m.evaluation_s);
      std::fprintf(metrics, "%s\n",
                   JsonObject()
                       .add("epoch", m.epoch)
                       .add("steps", m.steps)
                       .add("loss", m.loss)
                       .add("validation", describe(m.validation))
                       .add("improved", m.improved)
                       .add("time_s", times)
                       .str()
                       .c_str());
      std::fflush(metrics);
    }
    if (progress)
      std::fprintf(progress, "matsamp: epoch %lld/%lld  loss %.4f  validation %s\n",
                   static_cast<long long>(m.epoch + 1), static_cast<long long>(epochs), m.loss,
                   score_line(m.validation).c_str());
  }
  const LinkSummary result = summary();
  if (leader && metrics) {
    std::fprintf(metrics, "%s\n",
                 JsonObject()
                     .add("summary", true)
                     .add("epochs", result.epochs)
                     .add("best_epoch", result.best_epoch)
                     .add("stopped_early", result.stopped_early)
                     .add("validation", describe(result.validation))
                     .add("test", describe(result.test))
                     .str()
                     .c_str());
    std::fflush(metrics);
  }
  return result;
}

}  // namespace matsamp
