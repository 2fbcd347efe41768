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
#include "train/online_explanation.h"
#include "train/step_plan.h"
#include "train/tensors.h"
#include "train/training_stream.h"
#include "util/progress.h"
#include "util/timer.h"
#ifdef MATSAMP_HAVE_DISTRIBUTED
#include "distributed/distributed_csr.h"
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

// Membership of each held vertex (ascending) in one set of the split.
torch::Tensor membership(const std::vector<vid_t>& held, const std::vector<vid_t>& set, const torch::Device& device) {
  std::vector<uint8_t> in(held.size(), 0);
  for (vid_t v : set) {
    const auto at = std::lower_bound(held.begin(), held.end(), v);
    if (at != held.end() && *at == v) in[at - held.begin()] = 1;
  }
  return torch::from_blob(in.data(), {static_cast<int64_t>(in.size())}, torch::kBool).clone().to(device);
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

// The options with the locality blocks a run draws from: DGS explains a process's
// own rows, so with explanations and partitioned features one block per process row
// unless set.
TrainOptions with_default_locality(TrainOptions o, int ranks) {
  if (o.guidance.every > 0 && o.feature_replication > 0 && o.locality_blocks == 0)
    o.locality_blocks = ranks / o.feature_replication;
  return o;
}

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
  int64_t rank_bulk_size = 1;  // minibatches this rank trains on per bulk (set with plan)
  StepPlan plan;
  std::pair<int64_t, int64_t> lanes;  // this rank's
  // The lanes this rank samples: its own, or with a partitioned graph those of its
  // process row (whose ranks sample together: the product asks it), of which it
  // trains on its own.
  std::pair<int64_t, int64_t> sampling_lanes;
  int sampling_rows = 1, sampling_row = 0, row_ranks = 1, row_rank = 0;  // the same as a grid
  FeatureTable features;

  std::shared_ptr<GnnModel> model;
  std::unique_ptr<torch::optim::Adam> optimizer;
  // The vertices of the split this rank scores (hold_split), ascending, with their
  // labels and sets (train, validation, test): what labels minibatches and what
  // evaluation scores.
  torch::Tensor scored_ids, scored_labels, scored_in[3];
  int64_t set_sizes[3] = {0, 0, 0};
  std::vector<Block> full_blocks;                // full-neighbourhood evaluation
  std::vector<vid_t> evaluation_vertices;        // sampled evaluation: this sampling row's share
  int64_t evaluation_minibatches = 0;            // of all rows' minibatches
  std::unique_ptr<BackgroundWorker> prefetcher;  // null without prefetching
  std::unique_ptr<BackgroundWorker> preparer;    // null without the pipeline
#ifdef MATSAMP_HAVE_DISTRIBUTED
  std::unique_ptr<ProcessGrid> grid;  // with the fetcher: features in the 1.5D layout
  std::unique_ptr<FeatureFetcher> fetcher;
  torch::Tensor gathered_features;  // all rows, for full evaluation
#endif
  std::unique_ptr<GuidedSampling> guidance;  // DGS (options.guidance); null without
  int64_t explanation_fetch_bytes = 0;       // sent fetching the remote rows explained (once)

  std::FILE* progress_out = nullptr;  // run()'s: steps of the epoch shown there (rank 0)
  TrainingProgress progress;          // with the next two, what checkpoints hold
  std::vector<torch::Tensor> best_parameters;

  State(const TrainingData& data_, const Sampler& sampler_, Backend& backend_, Communicator& comm_,
        const TrainOptions& options_);
  static ModelShape model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options);
  static StepPlan step_plan(const TrainingData& data, const Sampler& sampler, const TrainOptions& options, int ranks,
                            int64_t* rank_bulk_size);

  // This rank's minibatches of one step: extracted, converted, with their inputs.
  PreparedStep prepare_step(const BulkSample& sample, const StepPlan::Bulk& bulk, int64_t step) const;
  double train_step(PreparedStep prepared, int64_t step_seeds, uint32_t epoch, EpochTimes& times);
  void evaluate(EpochMetrics& m);
  torch::Tensor labels_of(const std::vector<vid_t>& ids) const;
  // Adds to scores[0..2] the correct predictions of train, validation and test
  // vertices among `ids` (scored vertices), and to scores[3] the validation loss.
  void add_scores(const torch::Tensor& logits, const torch::Tensor& ids, std::vector<double>& scores) const;
  // Sampled evaluation: this rank's share of the scored vertices' minibatches.
  void add_sampled_scores(uint32_t epoch, std::vector<double>& scores);
  std::vector<int64_t> identity() const;
  void hold_split();
  // The first of a sampling row's evaluation minibatches (numbered among all rows').
  int64_t evaluation_row_begin(int row) const { return row * evaluation_minibatches / sampling_rows; }
  void partition_features();
  void setup_guidance();
  void before_bulk(EpochTimes& times) {
    if (guidance) guidance->before_bulk(sampler, comm, &times.explanation_wait);
  }
  // Collective with partitioned features; remote_dims: as FeatureFetcher::fetch.
  torch::Tensor input_rows(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims = {});
  int64_t feature_bytes_sent() const;  // by this rank's fetches so far
  bool partitioned_features() const;
  BatchLocality locality() const { return {static_cast<int>(options.locality_blocks), data.vertices}; }
  torch::Tensor all_inputs();
};

Trainer::State::State(const TrainingData& data_, const Sampler& sampler_, Backend& backend_, Communicator& comm_,
                      const TrainOptions& options_)
    : data(data_),
      sampler(sampler_),
      context{backend_, options_.seed},
      comm(comm_),
      options(with_default_locality(options_, comm_.size())),
      device(torch_device(options_.device)),
      shape(model_shape(data_, sampler_, options_)),
      plan(step_plan(data_, sampler_, options, comm_.size(), &rank_bulk_size)),
      lanes(plan.rank_lanes(comm_.rank(), comm_.size())),
      sampling_lanes(lanes),
      sampling_rows(comm_.size()),
      sampling_row(comm_.rank()),
      features(
          data_.mapped_features ? FeatureTable(data_.mapped_features, device)
          : options_.feature_replication > 0  // rows come from the fetcher
              ? FeatureTable::format_of(data_.graph.features, data_.feature_rows(), data_.graph.feature_dim, device)
              : FeatureTable(data_.graph.features, data_.feature_rows(), data_.graph.feature_dim, device)) {
  MATSAMP_CHECK(options.learning_rate > 0, "learning rate must be positive, got ", options.learning_rate);
  MATSAMP_CHECK(options.weight_decay >= 0, "weight decay must be non-negative, got ", options.weight_decay);
  MATSAMP_CHECK(options.epochs >= 0 && options.patience >= 0, "epochs and patience must be non-negative");
  // Not the OpenMP count: on small graphs extra torch threads mostly wait for each other.
  if (options.threads > 0) torch::set_num_threads(options.threads);

  if (data.partitioned) {
    MATSAMP_CHECK(options.evaluation == EvaluationMode::sampled,
                  "a partitioned graph is evaluated sampled (--evaluation sampled): no process holds the whole "
                  "neighbourhood matrix");
    MATSAMP_CHECK(options.feature_replication > 0,
                  "a partitioned graph keeps its features partitioned too: set the feature replication to the "
                  "graph's replication c");
    options.prefetch = false;  // sampling is a collective, on the thread that runs the others (MPI_THREAD_FUNNELED)
  }
  if (options.evaluation == EvaluationMode::full) {
    const torch::Tensor full = to_sparse_tensor(
        full_neighbourhood_matrix(data.graph.adj, shape.kind == ModelKind::sage ? Aggregation::mean : Aggregation::gcn),
        device);
    full_blocks.assign(shape.num_layers, Block{full, data.vertices});
  }

  MATSAMP_CHECK(options.locality_blocks >= 0, "locality blocks must be 0 (off) or positive, got ",
                options.locality_blocks);
  plan.epoch_order(data.split.train, options.seed, 0, locality());  // bad locality blocks fail here
  if (options.prefetch) prefetcher = std::make_unique<BackgroundWorker>();
  if (options.pipeline) preparer = std::make_unique<BackgroundWorker>();
  if (options.feature_replication > 0) partition_features();
  if (data.partitioned && !options.split_row_sampling) {  // otherwise every rank samples its own lanes
    sampling_rows = comm.size() / options.feature_replication;
    row_ranks = options.feature_replication;
    sampling_row = comm.rank() / row_ranks;  // the grid's row and column (distributed/process_grid.h)
    row_rank = comm.rank() % row_ranks;
    sampling_lanes = plan.rank_lanes(sampling_row, sampling_rows);
  }
  hold_split();

  torch::manual_seed(options.seed);
  model = make_model(shape);
  model->to(device);
  broadcast_parameters(model->parameters(), comm);
  optimizer = std::make_unique<torch::optim::Adam>(
      model->parameters(), torch::optim::AdamOptions(options.learning_rate).weight_decay(options.weight_decay));
  setup_guidance();
}

// The labelled vertices this rank scores: the training set (any rank may train on
// any of them) and, evaluated sampled, its sampling row's share of the evaluation
// minibatches (all labelled vertices, ascending, cut every batch size); evaluated
// full, every one. Held per rank, not whole: a graph may label most of its vertices.
void Trainer::State::hold_split() {
  const std::vector<vid_t> scored = scored_vertices(data.split);
  MATSAMP_CHECK(data.split_labels.size() == scored.size(), data.split_labels.size(), " labels for the ", scored.size(),
                " vertices of the split");
  const int64_t b = options.batch_size;
  evaluation_minibatches = (static_cast<int64_t>(scored.size()) + b - 1) / b;
  std::vector<vid_t> held;
  if (options.evaluation == EvaluationMode::full) {
    held = scored;
  } else {
    const auto at = [&](int64_t minibatch) { return scored.begin() + std::min<int64_t>(minibatch * b, scored.size()); };
    evaluation_vertices.assign(at(evaluation_row_begin(sampling_row)), at(evaluation_row_begin(sampling_row + 1)));
    held = data.split.train;
    std::sort(held.begin(), held.end());
    std::vector<vid_t> both;
    std::set_union(held.begin(), held.end(), evaluation_vertices.begin(), evaluation_vertices.end(),
                   std::back_inserter(both));
    held = std::move(both);
  }
  std::vector<int64_t> labels(held.size());
  for (size_t i = 0; i < held.size(); ++i)
    labels[i] = data.split_labels[std::lower_bound(scored.begin(), scored.end(), held[i]) - scored.begin()];
  scored_ids = index_tensor(held, device);
  scored_labels = torch::tensor(labels, torch::kLong).to(device);
  const std::vector<vid_t>* sets[3] = {&data.split.train, &data.split.validation, &data.split.test};
  for (int k = 0; k < 3; ++k) {
    scored_in[k] = membership(held, *sets[k], device);
    set_sizes[k] = static_cast<int64_t>(sets[k]->size());
  }
}

ModelShape Trainer::State::model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options) {
  ModelShape shape;
  shape.kind = parse_model_kind(options.model);
  shape.input_dim = data.feature_dim();
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
  return StepPlan(train, options.batch_size, lanes, steps_per_bulk, options.locality_blocks > 0);
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
    p.y = labels_of(mb.seeds);
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
      mb.x = input_rows(mb.inputs, guidance ? guidance->remote_dims() : std::vector<int64_t>{});
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

torch::Tensor Trainer::State::labels_of(const std::vector<vid_t>& ids) const {
  return scored_labels.index_select(0, torch::searchsorted(scored_ids, index_tensor(ids, device)));
}

void Trainer::State::add_scores(const torch::Tensor& logits, const torch::Tensor& ids,
                                std::vector<double>& scores) const {
  const torch::Tensor at = torch::searchsorted(scored_ids, ids);
  const torch::Tensor y = scored_labels.index_select(0, at);
  const torch::Tensor correct = logits.argmax(1).eq(y);
  for (int k = 0; k < 3; ++k) scores[k] += correct.logical_and(scored_in[k].index_select(0, at)).sum().item<double>();
  const torch::Tensor validation = scored_in[1].index_select(0, at);
  if (validation.any().item<bool>())
    scores[3] += summed_cross_entropy(logits.index({validation}), y.index({validation})).item<double>();
}

void Trainer::State::add_sampled_scores(uint32_t epoch_key, std::vector<double>& scores) {
  // The minibatches split into equal shares per sampling row; each rank of a
  // row takes every row_ranks-th. Every rank makes the same number of sampling
  // and fetching calls (they may be collectives), empty ones where its share is out.
  // Minibatches are numbered among all rows' (their random draws follow the number).
  const EpochOrder order(evaluation_vertices, options.batch_size);
  int64_t longest = 0;
  for (int row = 0; row < sampling_rows; ++row)
    longest = std::max(longest, evaluation_row_begin(row + 1) - evaluation_row_begin(row));
  const int64_t chunk = rank_bulk_size * row_ranks, slots = (chunk + row_ranks - 1) / row_ranks;
  const int64_t begin = evaluation_row_begin(sampling_row), end = begin + order.num_minibatches();
  for (int64_t first = begin; first < begin + longest; first += chunk) {
    const std::pair<int64_t, int64_t> range{std::min(first, end) - begin, std::min(first + chunk, end) - begin};
    const BulkSample sample =
        sample_minibatches(sampler, context, order, range, epoch_key | kEvaluationEpochBit, begin);
    context.backend.finish_collectives();
    for (int64_t slot = 0; slot < slots; ++slot) {
      const int64_t g = slot * row_ranks + row_rank;
      const bool mine = g < sample.count();
      const Minibatch mb = mine ? extract_minibatch(sample, g) : Minibatch{};
      const torch::Tensor x = input_rows(mine ? mb.layers.back().vertices : std::vector<vid_t>{});
      if (!mine) continue;
      add_scores(model->forward(minibatch_blocks(mb, device, shape.kind == ModelKind::sage), x),
                 index_tensor(mb.seeds, device), scores);
    }
  }
}

void Trainer::State::evaluate(EpochMetrics& m) {
  ScopedTimer t(&m.times.evaluation);
  torch::NoGradGuard no_grad;
  model->eval();
  std::vector<double> scores(4, 0.0);  // correct train, validation, test; validation loss
  if (options.evaluation == EvaluationMode::full) {
    // Every rank scores every vertex.
    add_scores(model->forward(full_blocks, all_inputs()).index_select(0, scored_ids), scored_ids, scores);
  } else {
    add_sampled_scores(static_cast<uint32_t>(m.epoch), scores);
    comm.all_reduce_sum(scores);
  }
  model->train();
  const auto share = [](double count, int64_t of) { return of > 0 ? count / static_cast<double>(of) : 0.0; };
  scores = {share(scores[0], set_sizes[0]), share(scores[1], set_sizes[1]), share(scores[3], set_sizes[1]),
            share(scores[2], set_sizes[2])};
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
  MATSAMP_CHECK(!data.mapped_features, "mapped features stay whole in each process: feature replication must be 0");
  grid = std::make_unique<ProcessGrid>(comm, options.feature_replication);
  const RowBlocks blocks{data.vertices, grid->process_rows()};
  const size_t block_floats = (blocks.end(grid->row()) - blocks.begin(grid->row())) * g.feature_dim;
  if (data.partitioned) {
    MATSAMP_CHECK(data.first_feature_row == blocks.begin(grid->row()) &&
                      data.feature_rows() == blocks.end(grid->row()) - blocks.begin(grid->row()),
                  "this process holds feature rows [", data.first_feature_row, ", ",
                  data.first_feature_row + data.feature_rows(), "), not those of its process row [",
                  blocks.begin(grid->row()), ", ", blocks.end(grid->row()), ")");
  }
  const float* block = data.partitioned ? g.features.data() : feature_block_of(g.features, g.feature_dim, *grid);
  fetcher = std::make_unique<FeatureFetcher>(*grid, data.vertices, g.feature_dim, block, block_floats);
#else
  fail("feature replication ", options.feature_replication, " needs distributed/, which builds with MPI only");
#endif
}

void Trainer::State::setup_guidance() {
  const GuidanceOptions& g = options.guidance;
  check_guidance_options(g);
  if (g.every == 0) return;
  MATSAMP_CHECK(sampler.name() == "dgs", "explanation-guided sampling (--explain-every) draws with --sampler dgs, not ",
                sampler.name());
#ifdef MATSAMP_HAVE_DISTRIBUTED
  MATSAMP_CHECK(fetcher,
                "explanation-guided sampling explains the feature rows a process holds against the rest: "
                "it needs partitioned features (--feature-replication c)");
  MATSAMP_CHECK(options.locality_blocks == grid->process_rows(),
                "explanation-guided sampling draws a process's minibatches from the rows it holds: locality blocks "
                "must be p/c = ",
                grid->process_rows(), ", not ", options.locality_blocks);
  const int row = grid->row();
  const vid_t first = fetcher->blocks().begin(row), end = fetcher->blocks().end(row);
  MATSAMP_CHECK(!data.partitioned || data.block_rows, "a partitioned graph's explanation needs its block row of A");
  ExplanationGraph graph =
      explanation_graph(data.partitioned ? *data.block_rows : row_slice(data.graph.adj, first, end), first);
  const int64_t sent_before = feature_bytes_sent();
  const std::vector<float> remote = fetcher->fetch(graph.remote);  // once: features never change
  explanation_fetch_bytes = feature_bytes_sent() - sent_before;
  const torch::Tensor own_rows =  // read only
      torch::from_blob(const_cast<float*>(fetcher->block()), {end - first, data.graph.feature_dim});
  const torch::Tensor remote_rows =
      torch::from_blob(const_cast<float*>(remote.data()),
                       {static_cast<int64_t>(graph.remote.size()), data.graph.feature_dim})
          .clone();
  ExplainerOptions explainer;
  explainer.steps = g.explainer_steps;
  explainer.seed = options.seed;
  guidance = std::make_unique<GuidedSampling>(
      std::make_unique<OnlineExplanation>(std::move(graph), own_rows, remote_rows, shape, explainer), g);
  sampler.set_column_importance(std::make_shared<const ColumnImportance>());  // importance 1 until the first masks
#else
  fail("explanation-guided sampling needs partitioned features, which build with MPI only");
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

torch::Tensor Trainer::State::input_rows(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims) {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher) return features.from_rows(fetcher->fetch(ids, remote_dims), static_cast<int64_t>(ids.size()));
#endif
  return features.rows(ids);
}

// Full evaluation multiplies every row, so partitioned features are gathered
// whole for it, once (every rank evaluates the same graph; features never change).
torch::Tensor Trainer::State::all_inputs() {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher && !gathered_features.defined()) {
    std::vector<vid_t> all(data.vertices);
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
  const TrainingStreamScope stream(s.device);
  EpochMetrics m;
  m.epoch = s.progress.next_epoch;
  ScopedTimer epoch_timer(&m.times.total);
  const uint32_t epoch_key = static_cast<uint32_t>(m.epoch);
  const EpochOrder order(s.plan.epoch_order(s.data.split.train, s.options.seed, epoch_key, s.locality()),
                         s.plan.minibatch_starts());
  const auto sample_bulk = [&s, &order, epoch_key](int64_t index) {
    SampledBulk out;
    ScopedTimer t(&out.seconds);
    Context ctx = s.context;
    out.bulk = sample_minibatches(s.sampler, ctx, order, s.plan.lane_minibatches(s.plan.bulk(index), s.sampling_lanes),
                                  epoch_key);
    ctx.backend.finish_collectives();
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
  s.before_bulk(m.times);
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
    if (++next_bulk < s.plan.num_bulks()) {
      s.before_bulk(m.times);
      pending = start(next_bulk);
    }
    for (int64_t step = 0; step < bulk.lane_length; ++step) unprepared.push_back({current, bulk, step});
  };
  const auto prepare = [&s](const StepRef& ref) {
    // One thread: an OpenMP team of this worker would spin on the cores the training's team computes on.
    return s.preparer ? s.preparer->submit([&s, ref] {
      omp_set_num_threads(1);
      const TrainingStreamScope stream(s.device);
      return s.prepare_step(ref.sample->bulk, ref.bulk, ref.step);
    })
                      : std::async(std::launch::deferred,
                                   [&s, ref] { return s.prepare_step(ref.sample->bulk, ref.bulk, ref.step); });
  };
  std::deque<std::pair<std::future<PreparedStep>, int64_t>> prepared;  // with each step's seeds
  const FinishPreparing finish_preparing{prepared};
  double loss_sum = 0;
  const int64_t fetched_before = s.feature_bytes_sent();
  int64_t epoch_steps = 0;
  for (int64_t b = 0; b < s.plan.num_bulks(); ++b) epoch_steps += s.plan.bulk(b).lane_length;
  // Steps as they train, once an epoch takes over a second: a bar on a terminal,
  // a line every few seconds in a log; the epoch's own line follows (the last
  // step is not reported).
  Progress steps_shown("epoch " + std::to_string(m.epoch + 1), epoch_steps, "steps",
                       s.comm.rank() == 0 ? s.progress_out : nullptr);
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
    if (s.guidance) s.guidance->after_step(*s.model);
    if (++m.steps < epoch_steps && steps_shown.seconds() >= 1.0) steps_shown.update(m.steps);  // quick epochs: none
  }
  steps_shown.clear();
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
  stream.wait();
  return m;
}

TrainSummary Trainer::summary() const { return summarize(state_->progress); }

const torch::nn::Module& Trainer::model() const { return *state_->model; }

int64_t Trainer::labelled_vertices_held() const { return state_->scored_ids.numel(); }

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
  state_->progress_out = progress;
  std::vector<int64_t> explanation_bytes{state_->explanation_fetch_bytes};
  state_->comm.all_reduce_sum(explanation_bytes);
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
    JsonObject line = describe_summary(result);
    if (state_->guidance) line.add("explanation_fetch_bytes", explanation_bytes[0]);  // all ranks', before epoch 1
    std::fprintf(metrics, "%s\n", line.str().c_str());
    std::fflush(metrics);
  }
  return result;
}

}  // namespace matsamp
