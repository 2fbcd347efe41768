#include "train/hetero_trainer.h"

#include <torch/torch.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>

#include "io/atomic_file.h"
#include "sampling/epoch.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/rgcn.h"
#include "train/tensors.h"
#include "util/json.h"

namespace matsamp {

namespace {

constexpr uint32_t kEvaluationEpochBit = 0x80000000u;  // evaluation draws apart from every training epoch

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// What the model's parameters are shaped by: each type's name, count (its
// embedding rows) and feature width, and the relations in order.
int64_t schema_hash(const HeteroGraph& g) {
  std::string text;
  for (const VertexType& t : g.types)
    text += t.name + '\0' + std::to_string(t.count) + '\0' + std::to_string(t.feature_dim) + '\n';
  for (const Relation& r : g.relations) text += r.key() + '\n';
  return static_cast<int64_t>(XXH3_64bits(text.data(), text.size()));
}

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

std::vector<vid_t> split_of(const VertexType& type, const char* name) {
  const auto found = type.splits.find(name);
  return found == type.splits.end() ? std::vector<vid_t>{} : found->second;
}

}  // namespace

struct RgcnTrainer::State {
  const HeteroGraph& graph;
  const int seed_type;
  const HeteroSampler& sampler;
  Context context;
  HeteroTrainOptions options;
  torch::Device device;
  std::vector<vid_t> train, validation, test;
  RgcnShape shape;
  std::shared_ptr<Rgcn> model;
  std::unique_ptr<torch::optim::Adam> optimizer;
  torch::Tensor labels;
  int64_t bulk = 0;

  int64_t next_epoch = 0, epochs_since_best = 0;
  HeteroSummary best;  // best epoch and scores so far

  State(const HeteroGraph& graph_, int seed_type_, const HeteroSampler& sampler_, Backend& backend,
        const HeteroTrainOptions& options_);
  double evaluate(const std::vector<vid_t>& ids, uint32_t epoch) {
    const TrainOptions& o = options.train;
    return matsamp::evaluate(*model, sampler, context, seed_type, ids, graph.types[seed_type].labels, o.batch_size,
                             bulk, epoch, device);
  }
  std::vector<int64_t> identity() const;
  ProgressNumbers progress_numbers() const {
    return {{next_epoch, best.best_epoch, epochs_since_best, best.stopped_early},
            {best.best_validation_accuracy, best.test_accuracy}};
  }
};

RgcnTrainer::State::State(const HeteroGraph& graph_, int seed_type_, const HeteroSampler& sampler_, Backend& backend,
                          const HeteroTrainOptions& options_)
    : graph(graph_),
      seed_type(seed_type_),
      sampler(sampler_),
      context{backend, options_.train.seed},
      options(options_),
      device(torch_device(options_.train.device)) {
  const TrainOptions& o = options.train;
  const VertexType& type = graph.types.at(seed_type);
  MATSAMP_CHECK(!type.labels.empty(), "vertex type ", type.name, " has no labels to train on");
  train = split_of(type, "train");
  validation = split_of(type, "valid");
  test = split_of(type, "test");
  MATSAMP_CHECK(!train.empty(), "vertex type ", type.name, " has no training split");
  MATSAMP_CHECK(o.batch_size > 0 && o.hidden > 0 && o.learning_rate > 0 && o.epochs >= 0,
                "R-GCN: batch size, hidden and learning rate must be positive");
  shape.layers = sampler.num_layers();
  shape.hidden = o.hidden;
  shape.classes = 1 + *std::max_element(type.labels.begin(), type.labels.end());
  shape.num_bases = options.num_bases;
  shape.shared_weight = options.shared_relation_weight;
  shape.dropout = o.dropout;
  if (o.threads > 0) torch::set_num_threads(o.threads);
  torch::manual_seed(o.seed);
  model = std::make_shared<Rgcn>(graph, shape);
  model->to(device);
  optimizer = std::make_unique<torch::optim::Adam>(
      model->parameters(), torch::optim::AdamOptions(o.learning_rate).weight_decay(o.weight_decay));
  labels = torch::tensor(type.labels, torch::kLong).to(device);
  bulk = o.bulk_steps > 0 ? o.bulk_steps : 16;
}

std::vector<int64_t> RgcnTrainer::State::identity() const {
  return {kRgcnCheckpointTag, static_cast<int64_t>(options.train.seed),
          schema_hash(graph), seed_type,
          shape.classes,      shape.hidden,
          shape.layers,       shape.num_bases,
          shape.shared_weight};
}

RgcnTrainer::RgcnTrainer(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options)
    : state_(std::make_unique<State>(graph, seed_type, sampler, backend, options)) {}

RgcnTrainer::~RgcnTrainer() = default;

int64_t RgcnTrainer::next_epoch() const { return state_->next_epoch; }

bool RgcnTrainer::finished() const {
  return state_->best.stopped_early || state_->next_epoch >= state_->options.train.epochs;
}

HeteroSummary RgcnTrainer::summary() const {
  HeteroSummary s = state_->best;
  s.epochs = state_->next_epoch;
  return s;
}

const torch::nn::Module& RgcnTrainer::model() const { return *state_->model; }

HeteroEpoch RgcnTrainer::train_epoch() {
  State& s = *state_;
  MATSAMP_CHECK(!finished(), "training has finished (epoch ", s.next_epoch, ")");
  const TrainOptions& o = s.options.train;
  HeteroEpoch m;
  m.epoch = s.next_epoch;
  const uint32_t key = static_cast<uint32_t>(m.epoch);
  const EpochOrder order(s.train, o.batch_size, o.seed, key);
  double loss_sum = 0;
  s.model->train();
  for (int64_t first = 0; first < order.num_minibatches(); first += s.bulk) {
    auto start = std::chrono::steady_clock::now();
    const int64_t end = std::min(order.num_minibatches(), first + s.bulk);
    const auto [seeds, offsets] = order.seeds(first, end);
    Context ctx = s.context;
    const HeteroBulkSample sampled =
        to_host(ctx.backend, s.sampler.sample(ctx, s.seed_type, seeds, offsets, first, key));
    m.sampling_s += seconds_since(start);
    start = std::chrono::steady_clock::now();
    for (int64_t g = 0; g < sampled.count(); ++g, ++m.steps) {
      const HeteroMinibatch mb = extract_minibatch(sampled, g);
      seed_minibatch_dropout(o.seed, key, mb.id);
      const torch::Tensor loss =
          torch::nn::functional::cross_entropy(s.model->forward(mb, s.seed_type, s.device),
                                               s.labels.index_select(0, index_tensor(mb.seeds[s.seed_type], s.device)));
      s.optimizer->zero_grad();
      loss.backward();
      s.optimizer->step();
      loss_sum += loss.item<double>() * static_cast<double>(mb.seeds[s.seed_type].size());
    }
    m.training_s += seconds_since(start);
  }
  m.loss = loss_sum / static_cast<double>(s.train.size());

  // Validation every epoch; test only at a new best (it is reported there and never chooses).
  const auto start = std::chrono::steady_clock::now();
  {
    torch::NoGradGuard no_grad;
    s.model->eval();
    m.validation_accuracy = s.evaluate(s.validation, key);
    m.improved = s.best.best_epoch < 0 || m.validation_accuracy > s.best.best_validation_accuracy;
    if (m.improved) {
      m.test_accuracy = s.evaluate(s.test, key);
      s.best.best_epoch = m.epoch;
      s.best.best_validation_accuracy = m.validation_accuracy;
      s.best.test_accuracy = *m.test_accuracy;
      s.epochs_since_best = 0;
    } else {
      ++s.epochs_since_best;
    }
  }
  m.evaluation_s = seconds_since(start);
  ++s.next_epoch;
  s.best.stopped_early = o.patience > 0 && s.epochs_since_best >= o.patience;
  return m;
}

void RgcnTrainer::save_checkpoint(const std::string& path) const {
  const State& s = *state_;
  matsamp::save_checkpoint(path, s.identity(), *s.model, *s.optimizer, {}, s.progress_numbers());
}

void RgcnTrainer::load_checkpoint(const std::string& path) {
  State& s = *state_;
  ProgressNumbers n = s.progress_numbers();
  std::vector<torch::Tensor> best_parameters;  // none kept: test is scored when validation improves
  matsamp::load_checkpoint(path, s.identity(), s.device, *s.model, *s.optimizer, best_parameters, n);
  s.next_epoch = n.counters[0];
  s.best.best_epoch = n.counters[1];
  s.epochs_since_best = n.counters[2];
  s.best.stopped_early = n.counters[3] != 0;
  s.best.best_validation_accuracy = n.scores[0];
  s.best.test_accuracy = n.scores[1];
}

HeteroSummary RgcnTrainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  if (!checkpoint_path.empty()) check_can_write(checkpoint_path);
  while (!finished()) {
    const HeteroEpoch m = train_epoch();
    if (!checkpoint_path.empty()) save_checkpoint(checkpoint_path);
    if (metrics) {
      JsonObject line;
      line.add("epoch", m.epoch).add("steps", m.steps).add("loss", m.loss);
      line.add("validation_accuracy", m.validation_accuracy);
      if (m.test_accuracy) line.add("test_accuracy", *m.test_accuracy);
      line.add("improved", m.improved)
          .add("time_s", JsonObject()
                             .add("sampling", m.sampling_s)
                             .add("training", m.training_s)
                             .add("evaluation", m.evaluation_s));
      std::fprintf(metrics, "%s\n", line.str().c_str());
      std::fflush(metrics);
    }
    if (progress) {
      std::fprintf(progress, "matsamp: epoch %lld/%lld  loss %.4f  validation %.4f",
                   static_cast<long long>(m.epoch + 1), static_cast<long long>(state_->options.train.epochs), m.loss,
                   m.validation_accuracy);
      if (m.test_accuracy) std::fprintf(progress, "  test %.4f (new best)", *m.test_accuracy);
      std::fprintf(progress, "\n");
    }
  }
  const HeteroSummary result = summary();
  if (metrics) {
    std::fprintf(metrics, "%s\n",
                 JsonObject()
                     .add("summary", true)
                     .add("epochs", result.epochs)
                     .add("best_epoch", result.best_epoch)
                     .add("stopped_early", result.stopped_early)
                     .add("best_validation_accuracy", result.best_validation_accuracy)
                     .add("test_accuracy", result.test_accuracy)
                     .str()
                     .c_str());
    std::fflush(metrics);
  }
  return result;
}

HeteroSummary train_rgcn(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options, std::FILE* metrics, std::FILE* progress) {
  return RgcnTrainer(graph, seed_type, sampler, backend, options).run(metrics, progress);
}

}  // namespace matsamp
