#include "train/hetero_trainer.h"

#include <torch/torch.h>
#include <xxhash.h>

#include <algorithm>

#include "train/checkpoint.h"
#include "train/loop.h"
#include "train/rgcn.h"
#include "train/tensors.h"
#include "util/timer.h"

namespace matsamp {

namespace {

constexpr uint32_t kEvaluationEpochBit = 0x80000000u;  // evaluation draws apart from every training epoch

// What the model's parameters are shaped by: each type's name, count (its
// embedding rows) and feature width, and the relations in order.
int64_t schema_hash(const HeteroGraph& g) {
  std::string text;
  for (const VertexType& t : g.types)
    text += t.name + '\0' + std::to_string(t.count) + '\0' + std::to_string(t.feature_dim) + '\n';
  for (const Relation& r : g.relations) text += r.key() + '\n';
  return static_cast<int64_t>(XXH3_64bits(text.data(), text.size()));
}

std::vector<vid_t> split_of(const VertexType& type, const char* name) {
  const auto found = type.splits.find(name);
  return found == type.splits.end() ? std::vector<vid_t>{} : found->second;
}

HeteroSummary hetero_summary(const LoopSummary& s) {
  HeteroSummary out;
  out.epochs = s.epochs_run;
  out.best_epoch = s.best_epoch;
  out.stopped_early = s.stopped_early;
  out.best_validation_accuracy = s.best_epoch >= 0 ? s.best_score : 0;
  out.test_accuracy = s.best_epoch >= 0 ? s.kept[0] : 0;
  return out;
}

struct HeteroSampled final : SampledBulk {
  HeteroBulkSample sample;
};

struct HeteroPrepared final : PreparedMinibatch {
  HeteroMinibatch minibatch;
  torch::Tensor y;
};

// Node classification of one vertex type of a heterogeneous graph.
class RgcnTask final : public TrainingTask {
 public:
  RgcnTask(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend, Communicator& comm,
           const HeteroTrainOptions& options);

  const Rgcn& rgcn() const { return *model_; }
  double last_validation() const { return last_validation_; }
  std::optional<double> last_test() const { return last_test_; }

  torch::nn::Module& model() override { return *model_; }
  std::vector<int64_t> identity() const override;
  const std::vector<vid_t>& training_items() const override { return train_; }
  int64_t steps_per_bulk(int64_t lanes, int64_t) const override {
    return std::max<int64_t>(1, kBulkMinibatches / lanes);
  }
  std::shared_ptr<const SampledBulk> sample(Context& ctx, const EpochOrder& order, std::pair<int64_t, int64_t> ids,
                                            uint32_t epoch) const override {
    auto out = std::make_shared<HeteroSampled>();
    out->sample = sample_minibatches(ctx, order, ids.first, ids.second, epoch);
    return out;
  }
  std::unique_ptr<PreparedMinibatch> prepare(const SampledBulk& bulk, int64_t id,
                                             PreparationTimes& times) const override {
    const HeteroBulkSample& sample = static_cast<const HeteroSampled&>(bulk).sample;
    ScopedTimer t(&times.block_conversion);
    auto p = std::make_unique<HeteroPrepared>();
    p->minibatch = extract_minibatch(sample, id - sample.first_minibatch);
    p->y = labels_.index_select(0, index_tensor(p->minibatch.seeds[seed_type_], device_));
    return p;
  }
  torch::Tensor loss(PreparedMinibatch& minibatch) override {
    auto& p = static_cast<HeteroPrepared&>(minibatch);
    return torch::nn::functional::cross_entropy(
        model_->forward(p.minibatch, seed_type_, device_), p.y,
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
  }
  // Validation every epoch; test only at a new best (it is reported there and never chooses).
  Evaluation evaluate(uint32_t epoch, int64_t bulk_minibatches) override {
    last_validation_ = accuracy(validation_, epoch, bulk_minibatches);
    last_test_.reset();
    bulk_minibatches_ = bulk_minibatches;
    Evaluation e;
    e.score = last_validation_;
    e.fields.add("validation_accuracy", last_validation_);
    char text[64];
    std::snprintf(text, sizeof text, "validation %.4f", last_validation_);
    e.progress = text;
    return e;
  }
  size_t kept_scores() const override { return 1; }  // test accuracy
  JsonObject summary_fields(const LoopSummary& s) override {
    const HeteroSummary summary = hetero_summary(s);
    return JsonObject()
        .add("best_validation_accuracy", summary.best_validation_accuracy)
        .add("test_accuracy", summary.test_accuracy);
  }
  void score_best(Evaluation& e, uint32_t epoch) override {
    last_test_ = accuracy(test_, epoch, bulk_minibatches_);
    e.fields.add("test_accuracy", *last_test_);
    char text[64];
    std::snprintf(text, sizeof text, " test %.4f", *last_test_);
    e.progress += text;
    e.kept = {*last_test_};
  }

 private:
  static constexpr int64_t kBulkMinibatches = 16;  // sampled at once by one process, unless set

  // Accuracy on `ids`, sampled like training minibatches: the ranks take turns
  // by bulk and sum their correct counts.
  double accuracy(const std::vector<vid_t>& ids, uint32_t epoch, int64_t bulk) {
    if (ids.empty()) return 0;
    const EpochOrder order(ids, batch_size_);
    std::vector<double> correct{0};
    const int64_t stride = bulk * comm_.size();
    for (int64_t first = bulk * comm_.rank(); first < order.num_minibatches(); first += stride) {
      const int64_t end = std::min(order.num_minibatches(), first + bulk);
      const HeteroBulkSample sampled = sample_minibatches(context_, order, first, end, epoch | kEvaluationEpochBit);
      for (int64_t g = 0; g < sampled.count(); ++g) {
        const HeteroMinibatch mb = extract_minibatch(sampled, g);
        const torch::Tensor predicted = model_->forward(mb, seed_type_, device_).argmax(1);
        const torch::Tensor y = labels_.index_select(0, index_tensor(mb.seeds[seed_type_], device_));
        correct[0] += predicted.eq(y).sum().item<double>();
      }
    }
    comm_.all_reduce_sum(correct);
    return correct[0] / static_cast<double>(ids.size());
  }

  // Minibatches [first, end) of `order`, on the host; by time, each seed a tree at its vertex's time.
  HeteroBulkSample sample_minibatches(Context& ctx, const EpochOrder& order, int64_t first, int64_t end,
                                      uint32_t epoch) const {
    if (times_)
      return to_host(ctx.backend,
                     sample_hetero_minibatches_by_time(sampler_, ctx, seed_type_, order, first, end, epoch, *times_));
    const auto [seeds, offsets] = order.seeds(first, end);
    return to_host(ctx.backend, sampler_.sample(ctx, seed_type_, seeds, offsets, first, epoch));
  }

  const HeteroGraph& graph_;
  const int seed_type_;
  const HeteroSampler& sampler_;
  const std::shared_ptr<const HeteroTemporalEpoch> times_;
  Context context_;
  Communicator& comm_;
  int64_t batch_size_;
  torch::Device device_;
  std::vector<vid_t> train_, validation_, test_;
  RgcnShape shape_;
  std::shared_ptr<Rgcn> model_;
  torch::Tensor labels_;
  double last_validation_ = 0;
  std::optional<double> last_test_;
  int64_t bulk_minibatches_ = 1;
};

RgcnTask::RgcnTask(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                   Communicator& comm, const HeteroTrainOptions& options)
    : graph_(graph),
      seed_type_(seed_type),
      sampler_(sampler),
      times_(options.times),
      context_{backend, options.train.epoch.seed},
      comm_(comm),
      batch_size_(options.train.epoch.batch_size),
      device_(torch_device(options.train.device)) {
  const TrainOptions& o = options.train;
  const VertexType& type = graph.types.at(seed_type);
  MATSAMP_CHECK(!type.labels.empty(), "vertex type ", type.name, " has no labels to train on");
  train_ = split_of(type, "train");
  validation_ = split_of(type, "valid");
  test_ = split_of(type, "test");
  MATSAMP_CHECK(!train_.empty(), "vertex type ", type.name, " has no training split");
  MATSAMP_CHECK(!times_ || !times_->vertex_times.at(seed_type).empty(), "training by time: vertex type ", type.name,
                " has no times (each seed is sampled as of its own)");
  MATSAMP_CHECK(o.epoch.batch_size > 0 && o.hidden > 0, "R-GCN: batch size and hidden width must be positive");
  MATSAMP_CHECK(o.feature_replication == 0 && o.epoch.locality.blocks == 0 && o.guidance.every == 0,
                "training on a heterogeneous graph reads its features whole on every process (no feature "
                "replication, locality blocks or explanation-guided sampling)");
  shape_.layers = sampler.num_layers();
  shape_.hidden = o.hidden;
  shape_.classes = 1 + *std::max_element(type.labels.begin(), type.labels.end());
  shape_.num_bases = options.num_bases;
  shape_.shared_weight = options.shared_relation_weight;
  shape_.dropout = o.dropout;
  torch::manual_seed(o.epoch.seed);
  model_ = std::make_shared<Rgcn>(graph, shape_);
  model_->to(device_);
  labels_ = torch::tensor(type.labels, torch::kLong).to(device_);
}

std::vector<int64_t> RgcnTask::identity() const {
  return {kRgcnCheckpointTag,  static_cast<int64_t>(context_.seed),
          schema_hash(graph_), seed_type_,
          shape_.classes,      shape_.hidden,
          shape_.layers,       shape_.num_bases,
          shape_.shared_weight};
}

}  // namespace

struct RgcnTrainer::State {
  RgcnTask task;
  TrainingLoop loop;
  State(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend, Communicator& comm,
        const HeteroTrainOptions& options)
      : task(graph, seed_type, sampler, backend, comm, options), loop(task, backend, comm, options.train) {}
};

RgcnTrainer::RgcnTrainer(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         Communicator& comm, const HeteroTrainOptions& options)
    : state_(std::make_unique<State>(graph, seed_type, sampler, backend, comm, options)) {}

RgcnTrainer::~RgcnTrainer() = default;

int64_t RgcnTrainer::next_epoch() const { return state_->loop.next_epoch(); }

bool RgcnTrainer::finished() const { return state_->loop.finished(); }

HeteroSummary RgcnTrainer::summary() const { return hetero_summary(state_->loop.summary()); }

const torch::nn::Module& RgcnTrainer::model() const { return state_->task.rgcn(); }

HeteroEpoch RgcnTrainer::train_epoch() {
  const LoopEpoch e = state_->loop.train_epoch();
  HeteroEpoch m;
  m.epoch = e.epoch;
  m.steps = e.steps;
  m.loss = e.loss;
  m.validation_accuracy = state_->task.last_validation();
  m.test_accuracy = state_->task.last_test();
  m.improved = e.improved;
  m.times = e.times;
  return m;
}

void RgcnTrainer::save_checkpoint(const std::string& path) const { state_->loop.save_checkpoint(path); }

void RgcnTrainer::load_checkpoint(const std::string& path) { state_->loop.load_checkpoint(path); }

HeteroSummary RgcnTrainer::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  return hetero_summary(state_->loop.run(metrics, progress, checkpoint_path));
}

HeteroSummary train_rgcn(const HeteroGraph& graph, int seed_type, const HeteroSampler& sampler, Backend& backend,
                         const HeteroTrainOptions& options, std::FILE* metrics, std::FILE* progress) {
  const std::unique_ptr<Communicator> self = make_self_communicator();
  return RgcnTrainer(graph, seed_type, sampler, backend, *self, options).run(metrics, progress);
}

}  // namespace matsamp
