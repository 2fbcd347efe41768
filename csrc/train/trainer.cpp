#include "train/trainer.h"

#include <omp.h>
#include <algorithm>
#include <chrono>

#include <deque>
#include <future>
#include <numeric>

#include "io/atomic_file.h"
#include "sampling/epoch.h"
#include "train/background_worker.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/models.h"
#include "train/step_plan.h"
#include "train/tensors.h"
#include "util/timer.h"
#ifdef MATSAMP_HAVE_DISTRIBUTED
#include "distributed/feature_fetcher.h"
#endif

namespace matsamp {

namespace {

// Sampled evaluation draws with epoch | this, apart from every training epoch.
constexpr uint32_t kEvaluationEpochBit = 0x80000000u;

torch::Tensor summed_cross_entropy(const torch::Tensor& logits, const torch::Tensor& targets) {
  return torch::nn::functional::cross_entropy(logits, targets,
                                              torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
}

double accuracy(const torch::Tensor& logits, const torch::Tensor& labels, const torch::Tensor& ids) {
  if (ids.numel() == 0) return 0;
  const torch::Tensor predicted = logits.index_select(0, ids).argmax(1);
  return predicted.eq(labels.index_select(0, ids)).sum().item<double>() / static_cast<double>(ids.numel());
}

std::vector<vid_t> sorted_union(const DataSplit& split) {
  std::vector<vid_t> all = split.train;
  all.insert(all.end(), split.validation.begin(), split.validation.end());
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

ProgressNumbers numbers_of(const TrainingProgress& p) {
  return {{p.next_epoch, p.best_epoch, p.epochs_since_best, p.stopped_early},
          {p.best_validation_accuracy, p.best_validation_loss, p.test_accuracy_at_best}};
}

TrainingProgress progress_of(const ProgressNumbers& n) {
  TrainingProgress p;
  p.next_epoch = n.counters[0];
  p.best_epoch = n.counters[1];
  p.epochs_since_best = n.counters[2];
  p.stopped_early = n.counters[3] != 0;
  p.best_validation_accuracy = n.scores[0];
  p.best_validation_loss = n.scores[1];
  p.test_accuracy_at_best = n.scores[2];
  return p;
}

struct SampledBulk {
  BulkSample bulk;
  double seconds = 0;
};

// One minibatch of a step, ready for the model: its blocks, labels and input
// rows (or, with partitioned features, the ids whose rows the training thread
// fetches in step order, the fetch being a collective). id < 0: the lane ran
// out in the last bulk.
struct PreparedMinibatch {
  int64_t id = -1;
  std::vector<Block> blocks;
  std::vector<vid_t> inputs;
  torch::Tensor x, y;
};
struct PreparedStep {
  std::vector<PreparedMinibatch> lanes;
  double block_conversion = 0, feature_fetch = 0;  // the preparation's busy time
};

// Waits for a prefetch still running when an exception leaves the epoch
// (a deferred one never started and is left alone).
struct FinishBeforeLeaving {
  std::future<SampledBulk>& pending;
  ~FinishBeforeLeaving() {
    if (pending.valid() && pending.wait_for(std::chrono::seconds(0)) != std::future_status::deferred) pending.wait();
  }
};

// Waits for the preparations still running when an exception leaves the epoch.
struct FinishPreparing {
  std::deque<std::pair<std::future<PreparedStep>, int64_t>>& pending;
  ~FinishPreparing() {
    for (auto& p : pending)
      if (p.first.valid() && p.first.wait_for(std::chrono::seconds(0)) != std::future_status::deferred) p.first.wait();
  }
};

}  // namespace

EvaluationMode parse_evaluation_mode(const std::string& name) {
  if (name == "full") return EvaluationMode::full;
  if (name == "sampled") return EvaluationMode::sampled;
  fail("unknown evaluation mode '", name, "' (expected full or sampled)");
}

struct Trainer::State {
  const TrainingData& data;
  const Sampler& sampler;
  Context context;
  Communicator& comm;
  TrainOptions options;
  torch::Device device;
  ModelShape shape;
  int64_t rank_bulk_size = 1;  // minibatches this rank samples per call (set with plan)
  StepPlan plan;
  std::pair<int64_t, int64_t> lanes;  // this rank's
  FeatureTable features;

  std::shared_ptr<GnnModel> model;
  std::unique_ptr<torch::optim::Adam> optimizer;
  torch::Tensor labels, train_ids, validation_ids, test_ids;
  std::vector<Block> full_blocks;                // full-neighbourhood evaluation
  std::vector<vid_t> evaluation_vertices;        // sampled evaluation
  std::unique_ptr<BackgroundWorker> prefetcher;  // null without prefetching
  std::unique_ptr<BackgroundWorker> preparer;    // null without the pipeline
#ifdef MATSAMP_HAVE_DISTRIBUTED
  std::unique_ptr<ProcessGrid> grid;  // with the fetcher: features in the 1.5D layout
  std::unique_ptr<FeatureFetcher> fetcher;
  torch::Tensor gathered_features;  // all rows, for full evaluation
#endif

  TrainingProgress progress;  // with the next two, what checkpoints hold
  std::vector<torch::Tensor> best_parameters;

  State(const TrainingData& data_, const Sampler& sampler_, Backend& backend_, Communicator& comm_,
        const TrainOptions& options_);
  static ModelShape model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options);
  static StepPlan step_plan(const TrainingData& data, const Sampler& sampler, const TrainOptions& options, int ranks,
                            int64_t* rank_bulk_size);

  // This rank's minibatches of one step: extracted, converted, with their inputs.
  PreparedStep prepare_step(const BulkSample& sample, const StepPlan::Bulk& bulk, int64_t step) const;
  double train_step(PreparedStep prepared, int64_t step_seeds, uint32_t epoch, EpochTimes& times);
  torch::Tensor evaluation_logits(uint32_t epoch);
  void evaluate(EpochMetrics& m);
  std::vector<int64_t> identity() const;
  void partition_features();
  torch::Tensor input_rows(const std::vector<vid_t>& ids);  // collective with partitioned features
  int64_t feature_bytes_sent() const;                       // by this rank's fetches so far
  bool partitioned_features() const;
  BatchLocality locality() const { return {static_cast<int>(options.locality_blocks), data.graph.num_vertices()}; }
  torch::Tensor all_inputs();
};

Trainer::State::State(const TrainingData& data_, const Sampler& sampler_, Backend& backend_, Communicator& comm_,
                      const TrainOptions& options_)
    : data(data_),
      sampler(sampler_),
      context{backend_, options_.seed},
      comm(comm_),
      options(options_),
      device(torch_device(options_.device)),
      shape(model_shape(data_, sampler_, options_)),
      plan(step_plan(data_, sampler_, options_, comm_.size(), &rank_bulk_size)),
      lanes(plan.rank_lanes(comm_.rank(), comm_.size())),
      features(data_.graph, device) {
  MATSAMP_CHECK(options.learning_rate > 0, "learning rate must be positive, got ", options.learning_rate);
  MATSAMP_CHECK(options.weight_decay >= 0, "weight decay must be non-negative, got ", options.weight_decay);
  MATSAMP_CHECK(options.epochs >= 0 && options.patience >= 0, "epochs and patience must be non-negative");
  // Not the OpenMP count: on small graphs extra torch threads mostly wait for each other.
  if (options.threads > 0) torch::set_num_threads(options.threads);

  const Graph& g = data.graph;
  labels = torch::from_blob(const_cast<int64_t*>(g.labels.data()), {g.num_vertices()}, torch::kLong).clone().to(device);
  train_ids = index_tensor(data.split.train, device);
  validation_ids = index_tensor(data.split.validation, device);
  test_ids = index_tensor(data.split.test, device);
  if (options.evaluation == EvaluationMode::full) {
    const torch::Tensor full = to_sparse_tensor(
        full_neighbourhood_matrix(g.adj, shape.kind == ModelKind::sage ? Aggregation::mean : Aggregation::gcn), device);
    full_blocks.assign(shape.num_layers, Block{full, g.num_vertices()});
  } else {
    evaluation_vertices = sorted_union(data.split);
  }

  MATSAMP_CHECK(options.locality_blocks >= 0, "locality blocks must be 0 (off) or positive, got ",
                options.locality_blocks);
  plan.epoch_order(data.split.train, options.seed, 0, locality());  // bad locality blocks fail here
  if (options.prefetch) prefetcher = std::make_unique<BackgroundWorker>();
  if (options.pipeline) preparer = std::make_unique<BackgroundWorker>();
  if (options.feature_replication > 0) partition_features();

  torch::manual_seed(options.seed);
  model = make_model(shape);
  model->to(device);
  broadcast_parameters(model->parameters(), comm);
  optimizer = std::make_unique<torch::optim::Adam>(
      model->parameters(), torch::optim::AdamOptions(options.learning_rate).weight_decay(options.weight_decay));
}

ModelShape Trainer::State::model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options) {
  ModelShape shape;
  shape.kind = parse_model_kind(options.model);
  shape.input_dim = data.graph.feature_dim;
  shape.hidden_dim = options.hidden;
  shape.num_classes = data.num_classes;
  shape.num_layers = sampler.num_layers();
  shape.dropout = options.dropout;
  return shape;
}

StepPlan Trainer::State::step_plan(const TrainingData& data, const Sampler& sampler, const TrainOptions& options,
                                   int ranks, int64_t* rank_bulk_size) {
  const int64_t lanes = options.minibatches_per_step > 0 ? options.minibatches_per_step : ranks;
  MATSAMP_CHECK(lanes % ranks == 0, "minibatches per step (", lanes, ") must be a multiple of the ", ranks,
                " processes");
  MATSAMP_CHECK(options.batch_size > 0, "batch size must be positive, got ", options.batch_size);
  const int64_t lanes_per_rank = lanes / ranks;
  const int64_t train = static_cast<int64_t>(data.split.train.size());
  const int64_t minibatches = (train + options.batch_size - 1) / options.batch_size;
  // Steps per bulk set the lane layout, so they must not depend on p: the
  // budget is applied as if one process sampled every lane (p > 1 uses less).
  const int64_t steps_per_bulk =
      options.bulk_steps > 0
          ? options.bulk_steps
          : std::max<int64_t>(1, bulk_size_for_budget(sampler, options.batch_size, minibatches, options.memory_budget) /
                                     lanes);
  *rank_bulk_size = steps_per_bulk * lanes_per_rank;
  return StepPlan(train, options.batch_size, lanes, steps_per_bulk);
}

PreparedStep Trainer::State::prepare_step(const BulkSample& sample, const StepPlan::Bulk& bulk, int64_t step) const {
  PreparedStep out;
  for (int64_t lane = lanes.first; lane < lanes.second; ++lane) {
    PreparedMinibatch& p = out.lanes.emplace_back();
    p.id = plan.minibatch(bulk, lane, step);
    if (p.id < 0) continue;
    Minibatch mb;
    {
      ScopedTimer t(&out.block_conversion);
      mb = extract_minibatch(sample, p.id - sample.first_minibatch);
      p.blocks = minibatch_blocks(mb, device, shape.kind == ModelKind::sage);
    }
    ScopedTimer t(&out.feature_fetch);
    p.y = labels.index_select(0, index_tensor(mb.seeds, device));
    if (partitioned_features()) p.inputs = std::move(mb.layers.back().vertices);
    else p.x = features.rows(mb.layers.back().vertices);
  }
  return out;
}

double Trainer::State::train_step(PreparedStep prepared, int64_t step_seeds, uint32_t epoch_key, EpochTimes& times) {
  optimizer->zero_grad();
  times.block_conversion += prepared.block_conversion;
  times.feature_fetch += prepared.feature_fetch;
  double loss_sum = 0;
  for (PreparedMinibatch& mb : prepared.lanes) {
    if (partitioned_features() && !mb.x.defined()) {  // the fetch is a collective: every rank joins, in order
      ScopedTimer t(&times.feature_fetch);
      mb.x = input_rows(mb.inputs);
    }
    if (mb.id < 0) continue;
    ScopedTimer t(&times.propagation);
    seed_minibatch_dropout(options.seed, epoch_key, mb.id);
    const torch::Tensor loss = summed_cross_entropy(model->forward(mb.blocks, mb.x), mb.y) /
                               static_cast<double>(step_seeds);
    loss.backward();
    loss_sum += loss.item<double>() * static_cast<double>(step_seeds);
  }
  {
    ScopedTimer t(&times.gradient_reduction);
    all_reduce_gradients(model->parameters(), comm);
  }
  ScopedTimer t(&times.optimizer);
  optimizer->step();
  return loss_sum;
}

torch::Tensor Trainer::State::evaluation_logits(uint32_t epoch_key) {
  if (options.evaluation == EvaluationMode::full) return model->forward(full_blocks, all_inputs());
  torch::Tensor logits =
      torch::zeros({data.graph.num_vertices(), shape.num_classes}, torch::TensorOptions().device(device));
  const EpochOrder order(evaluation_vertices, options.batch_size);
  const int64_t minibatches = order.num_minibatches();
  for (int64_t first = 0; first < minibatches; first += rank_bulk_size) {
    const BulkSample sample = sample_minibatches(sampler, context, order,
                                                 {first, std::min(minibatches, first + rank_bulk_size)},
                                                 epoch_key | kEvaluationEpochBit);
    for (int64_t g = 0; g < sample.count(); ++g) {
      const Minibatch mb = extract_minibatch(sample, g);
      const torch::Tensor x = input_rows(mb.layers.back().vertices);
      logits.index_copy_(0, index_tensor(mb.seeds, device),
                         model->forward(minibatch_blocks(mb, device, shape.kind == ModelKind::sage), x));
    }
  }
  return logits;
}

void Trainer::State::evaluate(EpochMetrics& m) {
  ScopedTimer t(&m.times.evaluation);
  torch::NoGradGuard no_grad;
  model->eval();
  const torch::Tensor logits = evaluation_logits(static_cast<uint32_t>(m.epoch));
  model->train();
  std::vector<double> scores{accuracy(logits, labels, train_ids), accuracy(logits, labels, validation_ids),
                             validation_ids.numel() ? summed_cross_entropy(logits.index_select(0, validation_ids),
                                                                           labels.index_select(0, validation_ids))
                                                              .item<double>() /
                                                          validation_ids.numel()
                                                    : 0.0,
                             accuracy(logits, labels, test_ids)};
  // Rank 0's scores decide early stopping everywhere, whatever the rounding of the reductions.
  comm.broadcast(scores.data(), static_cast<int64_t>(scores.size()), DataType::float64, 0);
  m.train_accuracy = scores[0];
  m.validation_accuracy = scores[1];
  m.validation_loss = scores[2];
  m.test_accuracy = scores[3];
}

std::vector<int64_t> Trainer::State::identity() const {
  return {static_cast<int64_t>(options.seed),
          static_cast<int64_t>(shape.kind),
          shape.input_dim,
          shape.hidden_dim,
          shape.num_classes,
          shape.num_layers};
}

void Trainer::State::partition_features() {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  const Graph& g = data.graph;
  grid = std::make_unique<ProcessGrid>(comm, options.feature_replication);
  fetcher = std::make_unique<FeatureFetcher>(*grid, g.num_vertices(), g.feature_dim,
                                             feature_block_of(g.features, g.feature_dim, *grid));
#else
  fail("feature replication ", options.feature_replication, " needs distributed/, which builds with MPI only");
#endif
}

int64_t Trainer::State::feature_bytes_sent() const {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (grid) {
    const auto counters = grid->counters();
    const auto fetches = counters.find("all_to_allv");  // only the fetcher exchanges on the grid
    return fetches == counters.end() ? 0 : fetches->second.bytes;
  }
#endif
  return 0;
}

bool Trainer::State::partitioned_features() const {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  return fetcher != nullptr;
#else
  return false;
#endif
}

torch::Tensor Trainer::State::input_rows(const std::vector<vid_t>& ids) {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher) return features.from_rows(fetcher->fetch(ids), static_cast<int64_t>(ids.size()));
#endif
  return features.rows(ids);
}

// Full evaluation multiplies every row, so partitioned features are gathered
// whole for it, once (every rank evaluates the same graph; features never change).
torch::Tensor Trainer::State::all_inputs() {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher && !gathered_features.defined()) {
    std::vector<vid_t> all(data.graph.num_vertices());
    std::iota(all.begin(), all.end(), 0);
    gathered_features = input_rows(all);
  }
  if (fetcher) return gathered_features;
#endif
  return features.all();
}

Trainer::Trainer(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
                 const TrainOptions& options)
    : state_(std::make_unique<State>(data, sampler, backend, comm, options)) {}

Trainer::~Trainer() = default;

int64_t Trainer::next_epoch() const { return state_->progress.next_epoch; }

bool Trainer::finished() const {
  return state_->progress.stopped_early || state_->progress.next_epoch >= state_->options.epochs;
}

EpochMetrics Trainer::train_epoch() {
  State& s = *state_;
  MATSAMP_CHECK(!finished(), "training has finished (epoch ", s.progress.next_epoch, ")");
  EpochMetrics m;
  m.epoch = s.progress.next_epoch;
  ScopedTimer epoch_timer(&m.times.total);
  const uint32_t epoch_key = static_cast<uint32_t>(m.epoch);
  const EpochOrder order(s.plan.epoch_order(s.data.split.train, s.options.seed, epoch_key, s.locality()),
                         s.options.batch_size);
  const auto sample_bulk = [&s, &order, epoch_key](int64_t index) {
    SampledBulk out;
    ScopedTimer t(&out.seconds);
    Context ctx = s.context;
    out.bulk =
        sample_minibatches(s.sampler, ctx, order, s.plan.lane_minibatches(s.plan.bulk(index), s.lanes), epoch_key);
    return out;
  };
  // Deferred when not prefetching: then the wait is the sampling itself.
  const auto start = [&s, &sample_bulk](int64_t index) {
    return s.prefetcher ? s.prefetcher->submit([&sample_bulk, index] { return sample_bulk(index); })
                        : std::async(std::launch::deferred, sample_bulk, index);
  };
  // The first bulk overlaps nothing, so its wait runs from its submission:
  // the worker may well run first, with this thread descheduled.
  ScopedTimer since_submission(nullptr);
  std::future<SampledBulk> pending = start(0);
  const FinishBeforeLeaving finish{pending};  // the task refers to `order`

  // The pipeline: bulk b + 1 is sampled while the steps of bulk b are prepared
  // (kStepsAhead at most ahead of training) and trained on.
  constexpr size_t kStepsAhead = 2;
  struct StepRef {
    std::shared_ptr<const SampledBulk> sample;
    StepPlan::Bulk bulk;
    int64_t step;
  };
  std::deque<StepRef> unprepared;
  int64_t next_bulk = 0;
  const auto take_bulk = [&] {  // the next sampled bulk's steps, and the bulk after it started
    std::shared_ptr<SampledBulk> current;
    {
      ScopedTimer t(next_bulk > 0 ? &m.times.sampling_wait : nullptr);
      current = std::make_shared<SampledBulk>(pending.get());
    }
    if (next_bulk == 0) m.times.sampling_wait += since_submission.seconds();
    m.times.sampling += current->seconds;
    const StepPlan::Bulk bulk = s.plan.bulk(next_bulk);
    if (++next_bulk < s.plan.num_bulks()) pending = start(next_bulk);
    for (int64_t step = 0; step < bulk.lane_length; ++step) unprepared.push_back({current, bulk, step});
  };
  const auto prepare = [&s](const StepRef& ref) {
    // One thread: an OpenMP team of this worker would spin on the cores the training's team computes on.
    return s.preparer ? s.preparer->submit([&s, ref] {
      omp_set_num_threads(1);
      return s.prepare_step(ref.sample->bulk, ref.bulk, ref.step);
    })
                      : std::async(std::launch::deferred,
                                   [&s, ref] { return s.prepare_step(ref.sample->bulk, ref.bulk, ref.step); });
  };
  std::deque<std::pair<std::future<PreparedStep>, int64_t>> prepared;  // with each step's seeds
  const FinishPreparing finish_preparing{prepared};
  double loss_sum = 0;
  const int64_t fetched_before = s.feature_bytes_sent();
  s.model->train();
  for (;;) {
    while (prepared.size() <= kStepsAhead && (!unprepared.empty() || next_bulk < s.plan.num_bulks())) {
      if (unprepared.empty()) take_bulk();
      const StepRef& ref = unprepared.front();
      prepared.emplace_back(prepare(ref), s.plan.step_seeds(ref.bulk, ref.step));
      unprepared.pop_front();
    }
    if (prepared.empty()) break;
    PreparedStep step;
    {
      ScopedTimer t(&m.times.preparation_wait);
      step = prepared.front().first.get();
    }
    const int64_t step_seeds = prepared.front().second;
    prepared.pop_front();
    loss_sum += s.train_step(std::move(step), step_seeds, epoch_key, m.times);
    ++m.steps;
  }
  m.feature_fetch_bytes = s.feature_bytes_sent() - fetched_before;
  std::vector<double> total_loss{loss_sum};
  s.comm.all_reduce_sum(total_loss);
  m.loss = total_loss[0] / static_cast<double>(s.data.split.train.size());
  s.evaluate(m);
  s.progress.record(m, s.options.patience);
  if (m.improved) {
    s.best_parameters.clear();
    for (const torch::Tensor& p : s.model->parameters()) s.best_parameters.push_back(p.detach().clone());
  }
  return m;
}

TrainSummary Trainer::summary() const { return summarize(state_->progress); }

const torch::nn::Module& Trainer::model() const { return *state_->model; }

void Trainer::save_checkpoint(const std::string& path) const {
  const State& s = *state_;
  matsamp::save_checkpoint(path, s.identity(), *s.model, *s.optimizer, s.best_parameters, numbers_of(s.progress));
}

void Trainer::load_checkpoint(const std::string& path) {
  State& s = *state_;
  ProgressNumbers numbers = numbers_of(s.progress);
  matsamp::load_checkpoint(path, s.identity(), s.device, *s.model, *s.optimizer, s.best_parameters, numbers);
  s.progress = progress_of(numbers);
}

TrainSummary Trainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  const bool leader = state_->comm.rank() == 0;
  // An unwritable checkpoint path is reported now, not after the first epoch.
  if (leader && !checkpoint_path.empty()) check_can_write(checkpoint_path);
  while (!finished()) {
    const EpochMetrics m = train_epoch();
    if (leader && !checkpoint_path.empty()) save_checkpoint(checkpoint_path);
    const JsonObject line = describe_epoch(m, state_->comm);
    if (!leader) continue;
    if (metrics) {
      std::fprintf(metrics, "%s\n", line.str().c_str());
      std::fflush(metrics);
    }
    if (progress) std::fprintf(progress, "matsamp: %s\n", progress_line(m, state_->options.epochs).c_str());
  }
  const TrainSummary result = summary();
  if (leader && metrics) {
    std::fprintf(metrics, "%s\n", describe_summary(result).str().c_str());
    std::fflush(metrics);
  }
  return result;
}

}  // namespace matsamp
