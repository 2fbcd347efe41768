#include "train/trainer.h"

#include <algorithm>
#include <numeric>

#include "sampling/registry.h"
#include "train/loop.h"
#include "train/models.h"
#include "train/online_explanation.h"
#include "train/tensors.h"
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

// Minibatches [ids.first, ids.second) of `order`, on the host (by time with
// `times`: a tree per seed). An order of full minibatches numbered from
// numbered_from has numbered_from batch sizes of trees before it.
// The backend's cached memory goes back: torch trains on the same GPU.
BulkSample sample_on_host(const Sampler& sampler, Context& ctx, const EpochOrder& order,
                          std::pair<int64_t, int64_t> ids, uint32_t epoch, const TemporalEpoch* times,
                          int64_t batch_size, int64_t numbered_from = 0) {
  BulkSample bulk = to_host(
      ctx.backend, times ? sample_minibatches_by_time(sampler, ctx, order, ids.first, ids.second, epoch, *times,
                                                      numbered_from, numbered_from * batch_size)
                         : sample_minibatches(sampler, ctx, order, ids.first, ids.second, epoch, numbered_from));
  ctx.backend.release_cached_memory();
  return bulk;
}

struct NodeBulk final : SampledBulk {
  BulkSample sample;
};

// One minibatch ready for the model: its blocks, labels and input rows (or, with
// partitioned features, the ids whose rows the training thread fetches in step
// order, the fetch being a collective).
struct NodeMinibatch final : PreparedMinibatch {
  std::vector<Block> blocks;
  std::vector<vid_t> inputs;
  torch::Tensor x, y;
};

// The options with the locality blocks a run draws from: DGS explains a process's
// own rows, so with explanations and partitioned features one block per process row
// unless set.
TrainOptions resolved(TrainOptions o, int ranks) {
  if (o.guidance.every > 0 && o.feature_replication > 0 && o.epoch.locality.blocks == 0)
    o.epoch.locality.blocks = ranks / o.feature_replication;
  return o;
}

TrainSummary node_summary(const LoopSummary& s) {
  TrainSummary out;
  out.epochs_run = s.epochs_run;
  out.best_epoch = s.best_epoch;
  out.best_validation_accuracy = s.best_epoch >= 0 ? s.best_score : 0;
  out.test_accuracy = s.best_epoch >= 0 ? s.kept[0] : 0;
  out.stopped_early = s.stopped_early;
  return out;
}

}  // namespace

// Node classification: cross-entropy on the seeds' labels; evaluation of the
// train, validation and test vertices, full or sampled.
class NodeTask final : public TrainingTask {
 public:
  NodeTask(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
           const TrainOptions& options);

  const TrainOptions& options() const { return options_; }
  const GnnModel& gnn() const { return *model_; }
  int64_t labelled_vertices_held() const { return scored_ids_.numel(); }
  // The last evaluation: train, validation and test accuracy, validation loss.
  const std::vector<double>& last_scores() const { return last_scores_; }

  torch::nn::Module& model() override { return *model_; }
  std::vector<int64_t> identity() const override;
  const std::vector<vid_t>& training_items() const override { return data_.split.train; }
  int64_t steps_per_bulk(int64_t lanes, int64_t minibatches) const override {
    return std::max<int64_t>(1, bulk_size_for_budget(sampler_, options_.epoch.batch_size, minibatches,
                                                     options_.epoch.memory_budget, options_.epoch.times != nullptr) /
                                    lanes);
  }
  BatchLocality locality() const override { return {static_cast<int>(options_.epoch.locality.blocks), data_.vertices}; }
  int sampling_group() const override { return row_ranks_; }

  std::shared_ptr<const SampledBulk> sample(Context& ctx, const EpochOrder& order, std::pair<int64_t, int64_t> ids,
                                            uint32_t epoch) const override {
    auto out = std::make_shared<NodeBulk>();
    out->sample =
        sample_on_host(sampler_, ctx, order, ids, epoch, options_.epoch.times.get(), options_.epoch.batch_size);
    return out;
  }
  std::unique_ptr<PreparedMinibatch> prepare(const SampledBulk& bulk, int64_t id,
                                             PreparationTimes& times) const override;
  void complete(PreparedMinibatch* minibatch, PreparationTimes& times) override;
  bool completes_while_preparing() const override;
  torch::Tensor loss(PreparedMinibatch& minibatch) override {
    auto& mb = static_cast<NodeMinibatch&>(minibatch);
    return summed_cross_entropy(model_->forward(mb.blocks, mb.x), mb.y);
  }
  void before_bulk(double* waited) override {
    if (guidance_) guidance_->before_bulk(comm_, waited);
  }
  void after_step() override {
    if (guidance_) guidance_->after_step(*model_);
  }
  Evaluation evaluate(uint32_t epoch, int64_t bulk_minibatches) override;
  size_t kept_scores() const override { return 1; }  // test accuracy
  JsonObject summary_fields(const LoopSummary& s) override {
    std::vector<int64_t> explanation_bytes{explanation_fetch_bytes_};
    comm_.all_reduce_sum(explanation_bytes);
    const TrainSummary summary = node_summary(s);
    JsonObject fields = JsonObject()
                            .add("best_validation_accuracy", summary.best_validation_accuracy)
                            .add("test_accuracy", summary.test_accuracy);
    if (guidance_) fields.add("explanation_fetch_bytes", explanation_bytes[0]);  // all ranks', before epoch 1
    return fields;
  }
  int64_t feature_bytes_sent() const override;

 private:
  static ModelShape model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options);
  torch::Tensor labels_of(const std::vector<vid_t>& ids) const {
    return scored_labels_.index_select(0, torch::searchsorted(scored_ids_, index_tensor(ids, device_)));
  }
  // Adds to scores[0..2] the correct predictions of train, validation and test
  // vertices among `ids` (scored vertices), and to scores[3] the validation loss.
  void add_scores(const torch::Tensor& logits, const torch::Tensor& ids, std::vector<double>& scores) const;
  // Sampled evaluation: this rank's share of the scored vertices' minibatches.
  void add_sampled_scores(uint32_t epoch, int64_t bulk_minibatches, std::vector<double>& scores);
  void hold_split();
  // The first of a sampling row's evaluation minibatches (numbered among all rows').
  int64_t evaluation_row_begin(int row) const { return row * evaluation_minibatches_ / sampling_rows_; }
  void partition_features();
  void setup_guidance();
  // Collective with partitioned features; remote_dims: as FeatureFetcher::fetch.
  torch::Tensor input_rows(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims = {});
  bool partitioned_features() const;
  torch::Tensor all_inputs();

  const TrainingData& data_;
  const Sampler& sampler_;
  Context context_;
  Communicator& comm_;
  TrainOptions options_;
  torch::Device device_;
  ModelShape shape_;
  // The ranks of a partitioned graph's process row sample together (the product
  // asks it): the evaluation minibatches split by such rows.
  int sampling_rows_ = 1, sampling_row_ = 0, row_ranks_ = 1, row_rank_ = 0;
  FeatureTable features_;
  std::shared_ptr<GnnModel> model_;
  // The vertices of the split this rank scores (hold_split), ascending, with their
  // labels and sets (train, validation, test): what labels minibatches and what
  // evaluation scores.
  torch::Tensor scored_ids_, scored_labels_, scored_in_[3];
  int64_t set_sizes_[3] = {0, 0, 0};
  std::vector<Block> full_blocks_;          // full-neighbourhood evaluation
  std::vector<vid_t> evaluation_vertices_;  // sampled evaluation: this sampling row's share
  int64_t evaluation_minibatches_ = 0;      // of all rows' minibatches
#ifdef MATSAMP_HAVE_DISTRIBUTED
  std::unique_ptr<Communicator> fetch_comm_;  // the fetcher's own, where it fetches while steps are prepared
  std::unique_ptr<ProcessGrid> grid_;         // with the fetcher: features in the 1.5D layout
  std::unique_ptr<FeatureFetcher> fetcher_;
  torch::Tensor gathered_features_;  // all rows, for full evaluation
#endif
  std::unique_ptr<GuidedSampling> guidance_;  // DGS (options.guidance); null without
  int64_t explanation_fetch_bytes_ = 0;       // sent fetching the remote rows explained (once)
  std::vector<double> last_scores_;
};

NodeTask::NodeTask(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
                   const TrainOptions& options)
    : data_(data),
      sampler_(sampler),
      context_{backend, options.epoch.seed},
      comm_(comm),
      options_(resolved(options, comm.size())),
      device_(torch_device(options.device)),
      shape_(model_shape(data, sampler, options)),
      sampling_rows_(comm.size()),
      sampling_row_(comm.rank()),
      features_(data.mapped_features ? FeatureTable(data.mapped_features, device_)
                : options.feature_replication > 0  // rows come from the fetcher
                    ? FeatureTable::format_of(data.graph.features, data.feature_rows(), data.graph.feature_dim, device_)
                    : FeatureTable(data.graph.features, data.feature_rows(), data.graph.feature_dim, device_)) {
  MATSAMP_CHECK(!options_.epoch.times || options_.evaluation == EvaluationMode::sampled,
                "training by time evaluates sampled minibatches (--evaluation sampled): a pass over the whole "
                "graph would read edges later than the vertices it scores");
  MATSAMP_CHECK(!options_.epoch.times || !data.partitioned,
                "training by time needs the graph whole in each process: one process or --distributed replicated");
  if (data.partitioned) {
    MATSAMP_CHECK(options_.evaluation == EvaluationMode::sampled,
                  "a partitioned graph is evaluated sampled (--evaluation sampled): no process holds the whole "
                  "neighbourhood matrix");
    MATSAMP_CHECK(options_.feature_replication > 0,
                  "a partitioned graph keeps its features partitioned too: set the feature replication to the "
                  "graph's replication c");
  }
  if (options_.evaluation == EvaluationMode::full) {
    const torch::Tensor full =
        to_sparse_tensor(full_neighbourhood_matrix(data.graph.adj, shape_.kind == ModelKind::sage ? Aggregation::mean
                                                                                                  : Aggregation::gcn),
                         device_);
    full_blocks_.assign(shape_.num_layers, Block{full, data.vertices});
  }
  MATSAMP_CHECK(options_.epoch.locality.blocks >= 0, "locality blocks must be 0 (off) or positive, got ",
                options_.epoch.locality.blocks);
  if (options_.feature_replication > 0) partition_features();
  if (data.partitioned && !options_.split_row_sampling) {  // otherwise every rank samples its own lanes
    row_ranks_ = options_.feature_replication;
    sampling_rows_ = comm.size() / row_ranks_;
    sampling_row_ = comm.rank() / row_ranks_;  // the grid's row and column (distributed/process_grid.h)
    row_rank_ = comm.rank() % row_ranks_;
  }
  hold_split();
  torch::manual_seed(options_.epoch.seed);
  model_ = make_model(shape_);
  model_->to(device_);
  setup_guidance();
}

// The labelled vertices this rank scores: the training set (any rank may train on
// any of them) and, evaluated sampled, its sampling row's share of the evaluation
// minibatches (all labelled vertices, ascending, cut every batch size); evaluated
// full, every one. Held per rank, not whole: a graph may label most of its vertices.
void NodeTask::hold_split() {
  const std::vector<vid_t> scored = scored_vertices(data_.split);
  MATSAMP_CHECK(data_.split_labels.size() == scored.size(), data_.split_labels.size(), " labels for the ",
                scored.size(), " vertices of the split");
  const int64_t b = options_.epoch.batch_size;
  MATSAMP_CHECK(b > 0, "batch size must be positive, got ", b);
  evaluation_minibatches_ = (static_cast<int64_t>(scored.size()) + b - 1) / b;
  std::vector<vid_t> held;
  if (options_.evaluation == EvaluationMode::full) {
    held = scored;
  } else {
    const auto at = [&](int64_t minibatch) { return scored.begin() + std::min<int64_t>(minibatch * b, scored.size()); };
    evaluation_vertices_.assign(at(evaluation_row_begin(sampling_row_)), at(evaluation_row_begin(sampling_row_ + 1)));
    held = data_.split.train;
    std::sort(held.begin(), held.end());
    std::vector<vid_t> both;
    std::set_union(held.begin(), held.end(), evaluation_vertices_.begin(), evaluation_vertices_.end(),
                   std::back_inserter(both));
    held = std::move(both);
  }
  std::vector<int64_t> labels(held.size());
  for (size_t i = 0; i < held.size(); ++i)
    labels[i] = data_.split_labels[std::lower_bound(scored.begin(), scored.end(), held[i]) - scored.begin()];
  scored_ids_ = index_tensor(held, device_);
  scored_labels_ = torch::tensor(labels, torch::kLong).to(device_);
  const std::vector<vid_t>* sets[3] = {&data_.split.train, &data_.split.validation, &data_.split.test};
  for (int k = 0; k < 3; ++k) {
    scored_in_[k] = membership(held, *sets[k], device_);
    set_sizes_[k] = static_cast<int64_t>(sets[k]->size());
  }
}

ModelShape NodeTask::model_shape(const TrainingData& data, const Sampler& sampler, const TrainOptions& options) {
  ModelShape shape;
  shape.kind = parse_model_kind(options.model);
  shape.input_dim = data.feature_dim();
  shape.hidden_dim = options.hidden;
  shape.num_classes = data.num_classes;
  shape.num_layers = sampler.num_layers();
  shape.dropout = options.dropout;
  return shape;
}

std::vector<int64_t> NodeTask::identity() const {
  return {static_cast<int64_t>(options_.epoch.seed),
          static_cast<int64_t>(shape_.kind),
          shape_.input_dim,
          shape_.hidden_dim,
          shape_.num_classes,
          shape_.num_layers};
}

std::unique_ptr<PreparedMinibatch> NodeTask::prepare(const SampledBulk& bulk, int64_t id,
                                                     PreparationTimes& times) const {
  const BulkSample& sample = static_cast<const NodeBulk&>(bulk).sample;
  auto p = std::make_unique<NodeMinibatch>();
  Minibatch mb;
  {
    ScopedTimer t(&times.block_conversion);
    mb = extract_minibatch(sample, id - sample.first_minibatch);
    p->blocks = minibatch_blocks(mb, device_, shape_.kind == ModelKind::sage);
  }
  ScopedTimer t(&times.feature_fetch);
  p->y = labels_of(mb.seeds);
  if (partitioned_features()) p->inputs = std::move(mb.layers.back().vertices);
  else p->x = features_.rows(mb.layers.back().vertices);
  return p;
}

void NodeTask::complete(PreparedMinibatch* minibatch, PreparationTimes& times) {
  auto* mb = static_cast<NodeMinibatch*>(minibatch);
  if (!partitioned_features() || (mb && mb->x.defined())) return;
  ScopedTimer t(&times.feature_fetch);
  const torch::Tensor x =
      input_rows(mb ? mb->inputs : std::vector<vid_t>{}, guidance_ ? guidance_->remote_dims() : std::vector<int64_t>{});
  if (mb) mb->x = x;
}

void NodeTask::add_scores(const torch::Tensor& logits, const torch::Tensor& ids, std::vector<double>& scores) const {
  const torch::Tensor at = torch::searchsorted(scored_ids_, ids);
  const torch::Tensor y = scored_labels_.index_select(0, at);
  const torch::Tensor correct = logits.argmax(1).eq(y);
  for (int k = 0; k < 3; ++k) scores[k] += correct.logical_and(scored_in_[k].index_select(0, at)).sum().item<double>();
  const torch::Tensor validation = scored_in_[1].index_select(0, at);
  if (validation.any().item<bool>())
    scores[3] += summed_cross_entropy(logits.index({validation}), y.index({validation})).item<double>();
}

void NodeTask::add_sampled_scores(uint32_t epoch_key, int64_t bulk_minibatches, std::vector<double>& scores) {
  // The minibatches split into equal shares per sampling row; each rank of a
  // row takes every row_ranks-th. Every rank makes the same number of sampling
  // and fetching calls (they may be collectives), empty ones where its share is out.
  // Minibatches are numbered among all rows' (their random draws follow the number).
  const EpochOrder order(evaluation_vertices_, options_.epoch.batch_size);
  int64_t longest = 0;
  for (int row = 0; row < sampling_rows_; ++row)
    longest = std::max(longest, evaluation_row_begin(row + 1) - evaluation_row_begin(row));
  const int64_t chunk = bulk_minibatches * row_ranks_, slots = (chunk + row_ranks_ - 1) / row_ranks_;
  const int64_t begin = evaluation_row_begin(sampling_row_), end = begin + order.num_minibatches();
  for (int64_t first = begin; first < begin + longest; first += chunk) {
    const std::pair<int64_t, int64_t> range{std::min(first, end) - begin, std::min(first + chunk, end) - begin};
    const BulkSample sample = sample_on_host(sampler_, context_, order, range, epoch_key | kEvaluationEpochBit,
                                             options_.epoch.times.get(), options_.epoch.batch_size, begin);
    context_.backend.finish_collectives();
    for (int64_t slot = 0; slot < slots; ++slot) {
      const int64_t g = slot * row_ranks_ + row_rank_;
      const bool mine = g < sample.count();
      const Minibatch mb = mine ? extract_minibatch(sample, g) : Minibatch{};
      const torch::Tensor x = input_rows(mine ? mb.layers.back().vertices : std::vector<vid_t>{});
      if (!mine) continue;
      add_scores(model_->forward(minibatch_blocks(mb, device_, shape_.kind == ModelKind::sage), x),
                 index_tensor(mb.seeds, device_), scores);
    }
  }
}

Evaluation NodeTask::evaluate(uint32_t epoch, int64_t bulk_minibatches) {
  std::vector<double> scores(4, 0.0);  // correct train, validation, test; validation loss
  if (options_.evaluation == EvaluationMode::full) {
    // Every rank scores every vertex.
    add_scores(model_->forward(full_blocks_, all_inputs()).index_select(0, scored_ids_), scored_ids_, scores);
  } else {
    add_sampled_scores(epoch, bulk_minibatches, scores);
    comm_.all_reduce_sum(scores);
  }
  const auto share = [](double count, int64_t of) { return of > 0 ? count / static_cast<double>(of) : 0.0; };
  scores = {share(scores[0], set_sizes_[0]), share(scores[1], set_sizes_[1]), share(scores[2], set_sizes_[2]),
            share(scores[3], set_sizes_[1])};
  // Rank 0's scores decide early stopping everywhere, whatever the rounding of the reductions.
  comm_.broadcast(scores.data(), static_cast<int64_t>(scores.size()), DataType::float64, 0);
  last_scores_ = scores;
  const double train = scores[0], validation = scores[1], test = scores[2], validation_loss = scores[3];
  Evaluation e;
  e.score = validation;
  e.tiebreak = validation_loss;
  e.fields.add("train_accuracy", train)
      .add("validation_accuracy", validation)
      .add("validation_loss", validation_loss)
      .add("test_accuracy", test);
  char text[128];
  std::snprintf(text, sizeof text, "accuracy train %.3f validation %.3f test %.3f", train, validation, test);
  e.progress = text;
  e.kept = {test};
  return e;
}

void NodeTask::partition_features() {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  const Graph& g = data_.graph;
  MATSAMP_CHECK(!data_.mapped_features, "mapped features stay whole in each process: feature replication must be 0");
  // Fetched on the preparing worker beside training, through a communicator of its
  // own where the transport allows; not with explanations, which change what a fetch
  // brings between bulks, on the training thread.
  if (options_.guidance.every == 0) fetch_comm_ = comm_.concurrent_duplicate();
  grid_ = std::make_unique<ProcessGrid>(fetch_comm_ ? *fetch_comm_ : comm_, options_.feature_replication);
  const RowBlocks blocks{data_.vertices, grid_->process_rows()};
  const size_t block_floats = (blocks.end(grid_->row()) - blocks.begin(grid_->row())) * g.feature_dim;
  if (data_.partitioned) {
    MATSAMP_CHECK(data_.first_feature_row == blocks.begin(grid_->row()) &&
                      data_.feature_rows() == blocks.end(grid_->row()) - blocks.begin(grid_->row()),
                  "this process holds feature rows [", data_.first_feature_row, ", ",
                  data_.first_feature_row + data_.feature_rows(), "), not those of its process row [",
                  blocks.begin(grid_->row()), ", ", blocks.end(grid_->row()), ")");
  }
  const float* block = data_.partitioned ? g.features.data() : feature_block_of(g.features, g.feature_dim, *grid_);
  fetcher_ = std::make_unique<FeatureFetcher>(*grid_, data_.vertices, g.feature_dim, block, block_floats);
#else
  fail("feature replication ", options_.feature_replication, " needs distributed/, which builds with MPI only");
#endif
}

void NodeTask::setup_guidance() {
  const GuidanceOptions& g = options_.guidance;
  check_guidance_options(g);
  if (g.every == 0) return;
  MATSAMP_CHECK(can(find_sampler(sampler_.name()), kImportance),
                "explanation-guided sampling (--explain-every) draws by a column importance, which ", sampler_.name(),
                " does not take (", samplers_that(kImportance), " does)");
#ifdef MATSAMP_HAVE_DISTRIBUTED
  MATSAMP_CHECK(fetcher_,
                "explanation-guided sampling explains the feature rows a process holds against the rest: "
                "it needs partitioned features (--feature-replication c)");
  MATSAMP_CHECK(options_.epoch.locality.blocks == grid_->process_rows(),
                "explanation-guided sampling draws a process's minibatches from the rows it holds: locality blocks "
                "must be p/c = ",
                grid_->process_rows(), ", not ", options_.epoch.locality.blocks);
  const int row = grid_->row();
  const vid_t first = fetcher_->blocks().begin(row), end = fetcher_->blocks().end(row);
  MATSAMP_CHECK(!data_.partitioned || data_.block_rows, "a partitioned graph's explanation needs its block row of A");
  ExplanationGraph graph =
      explanation_graph(data_.partitioned ? *data_.block_rows : row_slice(data_.graph.adj, first, end), first);
  const int64_t sent_before = feature_bytes_sent();
  const std::vector<float> remote = fetcher_->fetch(graph.remote);  // once: features never change
  explanation_fetch_bytes_ = feature_bytes_sent() - sent_before;
  const torch::Tensor own_rows =  // read only
      torch::from_blob(const_cast<float*>(fetcher_->block()), {end - first, data_.graph.feature_dim});
  const torch::Tensor remote_rows =
      torch::from_blob(const_cast<float*>(remote.data()),
                       {static_cast<int64_t>(graph.remote.size()), data_.graph.feature_dim})
          .clone();
  ExplainerOptions explainer;
  explainer.steps = g.explainer_steps;
  explainer.seed = options_.epoch.seed;
  guidance_ = std::make_unique<GuidedSampling>(
      std::make_unique<OnlineExplanation>(std::move(graph), own_rows, remote_rows, shape_, explainer),
      require_capability<ImportanceGuidedSampler>(sampler_), g);
#else
  fail("explanation-guided sampling needs partitioned features, which build with MPI only");
#endif
}

int64_t NodeTask::feature_bytes_sent() const {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (grid_) {
    const auto counters = grid_->counters();
    const auto fetches = counters.find("all_to_allv");  // only the fetcher exchanges on the grid
    return fetches == counters.end() ? 0 : fetches->second.bytes;
  }
#endif
  return 0;
}

bool NodeTask::completes_while_preparing() const {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  return fetch_comm_ != nullptr;
#else
  return false;
#endif
}

bool NodeTask::partitioned_features() const {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  return fetcher_ != nullptr;
#else
  return false;
#endif
}

torch::Tensor NodeTask::input_rows(const std::vector<vid_t>& ids, const std::vector<int64_t>& remote_dims) {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher_) return features_.from_rows(fetcher_->fetch(ids, remote_dims), static_cast<int64_t>(ids.size()));
#endif
  return features_.rows(ids);
}

// Full evaluation multiplies every row, so partitioned features are gathered
// whole for it, once (every rank evaluates the same graph; features never change).
torch::Tensor NodeTask::all_inputs() {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  if (fetcher_ && !gathered_features_.defined()) {
    std::vector<vid_t> all(data_.vertices);
    std::iota(all.begin(), all.end(), 0);
    gathered_features_ = input_rows(all);
  }
  if (fetcher_) return gathered_features_;
#endif
  return features_.all();
}

struct Trainer::State {
  NodeTask task;
  TrainingLoop loop;
  State(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
        const TrainOptions& options)
      : task(data, sampler, backend, comm, options), loop(task, backend, comm, task.options()) {}
};

Trainer::Trainer(const TrainingData& data, const Sampler& sampler, Backend& backend, Communicator& comm,
                 const TrainOptions& options)
    : state_(std::make_unique<State>(data, sampler, backend, comm, options)) {}

Trainer::~Trainer() = default;

int64_t Trainer::next_epoch() const { return state_->loop.next_epoch(); }

bool Trainer::finished() const { return state_->loop.finished(); }

EpochMetrics Trainer::train_epoch() {
  const LoopEpoch e = state_->loop.train_epoch();
  const std::vector<double>& scores = state_->task.last_scores();
  EpochMetrics m;
  m.epoch = e.epoch;
  m.steps = e.steps;
  m.loss = e.loss;
  m.train_accuracy = scores[0];
  m.validation_accuracy = scores[1];
  m.test_accuracy = scores[2];
  m.validation_loss = scores[3];
  m.improved = e.improved;
  m.feature_fetch_bytes = e.feature_fetch_bytes;
  m.times = e.times;
  return m;
}

TrainSummary Trainer::summary() const { return node_summary(state_->loop.summary()); }

const torch::nn::Module& Trainer::model() const { return state_->task.gnn(); }

int64_t Trainer::labelled_vertices_held() const { return state_->task.labelled_vertices_held(); }

void Trainer::save_checkpoint(const std::string& path) const { state_->loop.save_checkpoint(path); }

void Trainer::load_checkpoint(const std::string& path) { state_->loop.load_checkpoint(path); }

TrainSummary Trainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  return node_summary(state_->loop.run(metrics, progress, checkpoint_path));
}

}  // namespace matsamp
