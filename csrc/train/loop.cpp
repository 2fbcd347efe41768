#include "train/loop.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <future>
#include <limits>

#include "io/atomic_file.h"
#include "train/background_worker.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/tensors.h"
#include "train/training_stream.h"
#include "util/memory.h"
#include "util/progress.h"
#include "util/timer.h"

namespace matsamp {

namespace {

struct TimedBulk {
  std::shared_ptr<const SampledBulk> bulk;
  double seconds = 0;
};

// This rank's minibatches of one step, ready for the model (null: the lane ran out).
struct PreparedStep {
  std::vector<std::pair<int64_t, std::unique_ptr<PreparedMinibatch>>> lanes;  // with each one's id
  PreparationTimes times;
};

ProgressNumbers numbers_of(const TrainingProgress& p) {
  ProgressNumbers n{{p.next_epoch, p.best_epoch, p.epochs_since_best, p.stopped_early},
                    {p.best_score, p.best_tiebreak}};
  n.scores.insert(n.scores.end(), p.kept.begin(), p.kept.end());
  return n;
}

TrainingProgress progress_of(const ProgressNumbers& n) {
  MATSAMP_CHECK(n.counters.size() == 4 && n.scores.size() >= 2, "a checkpoint's training progress has ",
                n.counters.size(), " counters and ", n.scores.size(), " scores, not 4 and at least 2");
  TrainingProgress p;
  p.next_epoch = n.counters[0];
  p.best_epoch = n.counters[1];
  p.epochs_since_best = n.counters[2];
  p.stopped_early = n.counters[3] != 0;
  p.best_score = n.scores[0];
  p.best_tiebreak = n.scores[1];
  p.kept.assign(n.scores.begin() + 2, n.scores.end());
  return p;
}

}  // namespace

EpochPlan make_epoch_plan(const TrainingTask& task, const TrainOptions& options, int ranks) {
  const int64_t lanes = step_lanes(options.epoch.minibatches_per_step, task.locality().blocks, ranks);
  MATSAMP_CHECK(lanes % ranks == 0, "minibatches per step (", lanes, ") must be a multiple of the ", ranks,
                " processes");
  MATSAMP_CHECK(options.epoch.batch_size > 0, "batch size must be positive, got ", options.epoch.batch_size);
  const int64_t items = static_cast<int64_t>(task.training_items().size());
  // Steps per bulk set the lane layout, so they must not depend on p.
  const int64_t steps_per_bulk = options.epoch.bulk_steps > 0
                                     ? options.epoch.bulk_steps
                                     : task.steps_per_bulk(lanes, minibatch_count(items, options.epoch.batch_size));
  return EpochPlan(items, {options.epoch.batch_size, lanes, steps_per_bulk, task.locality()});
}

struct TrainingLoop::State {
  TrainingTask& task;
  Context context;
  Communicator& comm;
  TrainOptions options;
  torch::Device device;
  EpochPlan plan;
  std::pair<int64_t, int64_t> lanes;           // this rank's
  std::pair<int64_t, int64_t> sampling_lanes;  // those it samples (its sampling group's)
  std::unique_ptr<torch::optim::Adam> optimizer;
  std::unique_ptr<BackgroundWorker> prefetcher;  // null without prefetching
  std::unique_ptr<BackgroundWorker> preparer;    // null without the pipeline
  TrainingProgress progress;                     // with best_parameters, what checkpoints hold
  std::vector<torch::Tensor> best_parameters;
  std::FILE* progress_out = nullptr;  // run()'s: steps of the epoch shown there (rank 0)

  State(TrainingTask& task_, Backend& backend, Communicator& comm_, const TrainOptions& options_)
      : task(task_),
        context{backend, options_.epoch.seed},
        comm(comm_),
        options(options_),
        device(torch_device(options_.device)),
        plan(make_epoch_plan(task_, options_, comm_.size())),
        lanes(plan.rank_lanes(comm_.rank(), comm_.size())) {
    MATSAMP_CHECK(options.learning_rate > 0, "learning rate must be positive, got ", options.learning_rate);
    MATSAMP_CHECK(options.weight_decay >= 0, "weight decay must be non-negative, got ", options.weight_decay);
    MATSAMP_CHECK(options.epochs >= 0 && options.patience >= 0, "epochs and patience must be non-negative");
    // Not the OpenMP count: on small graphs extra torch threads mostly wait for each other.
    if (options.threads > 0) torch::set_num_threads(options.threads);
    const int group = task.sampling_group();
    MATSAMP_CHECK(group >= 1 && comm.size() % group == 0, "ranks sampling together (", group, ") must divide the ",
                  comm.size(), " processes");
    sampling_lanes = plan.rank_lanes(comm.rank() / group, comm.size() / group);
    progress.kept.assign(task.kept_scores(), 0.0);
    // A collective backend samples ahead only through a communicator of its own.
    if (options.prefetch && backend.collective_communicator() != &comm)
      prefetcher = std::make_unique<BackgroundWorker>();
    if (options.pipeline) preparer = std::make_unique<BackgroundWorker>();
    broadcast_parameters(task.model().parameters(), comm);
    optimizer = std::make_unique<torch::optim::Adam>(
        task.model().parameters(), torch::optim::AdamOptions(options.learning_rate).weight_decay(options.weight_decay));
  }

  bool finished() const { return progress.stopped_early || progress.next_epoch >= options.epochs; }
  PreparedStep prepare_step(const SampledBulk& sample, const EpochPlan::Bulk& bulk, int64_t step) const;
  double train_step(PreparedStep prepared, int64_t step_terms, uint32_t epoch, EpochTimes& times);
  void evaluate(LoopEpoch& m);
};

PreparedStep TrainingLoop::State::prepare_step(const SampledBulk& sample, const EpochPlan::Bulk& bulk,
                                               int64_t step) const {
  PreparedStep out;
  for (int64_t lane = lanes.first; lane < lanes.second; ++lane) {
    const int64_t id = plan.minibatch(bulk, lane, step);
    out.lanes.emplace_back(id, id < 0 ? nullptr : task.prepare(sample, id, out.times));
  }
  if (task.completes_while_preparing())
    for (auto& lane : out.lanes) task.complete(lane.second.get(), out.times);
  return out;
}

// One optimizer step on this rank's lanes, each loss divided by the terms of the
// whole step (all ranks), so the summed gradients are those of the step's mean.
double TrainingLoop::State::train_step(PreparedStep prepared, int64_t step_terms, uint32_t epoch, EpochTimes& times) {
  optimizer->zero_grad();
  if (!task.completes_while_preparing())  // every rank joins, lane by lane, even where its lane ran out
    for (auto& lane : prepared.lanes) task.complete(lane.second.get(), prepared.times);
  times.block_conversion += prepared.times.block_conversion;
  times.feature_fetch += prepared.times.feature_fetch;
  double loss_sum = 0;
  for (auto& [id, minibatch] : prepared.lanes) {
    if (id < 0) continue;
    ScopedTimer t(&times.propagation);
    seed_minibatch_dropout(options.epoch.seed, epoch, id);
    const torch::Tensor loss = task.loss(*minibatch) / static_cast<double>(step_terms);
    loss.backward();
    loss_sum += loss.item<double>() * static_cast<double>(step_terms);
  }
  {
    ScopedTimer t(&times.gradient_reduction);
    all_reduce_gradients(task.model().parameters(), comm);
  }
  ScopedTimer t(&times.optimizer);
  optimizer->step();
  return loss_sum;
}

void TrainingLoop::State::evaluate(LoopEpoch& m) {
  ScopedTimer t(&m.times.evaluation);
  torch::NoGradGuard no_grad;
  torch::nn::Module& model = task.model();
  model.eval();
  m.evaluation = task.evaluate(static_cast<uint32_t>(m.epoch), plan.steps_per_bulk() * (lanes.second - lanes.first));
  m.improved = progress.record(m.epoch, m.evaluation.score, m.evaluation.tiebreak, options.patience);
  if (m.improved) {
    task.score_best(m.evaluation, static_cast<uint32_t>(m.epoch));
    progress.kept = m.evaluation.kept;
  }
  model.train();
}

TrainingLoop::TrainingLoop(TrainingTask& task, Backend& backend, Communicator& comm, const TrainOptions& options)
    : state_(std::make_unique<State>(task, backend, comm, options)) {}

TrainingLoop::~TrainingLoop() = default;

const EpochPlan& TrainingLoop::plan() const { return state_->plan; }

int64_t TrainingLoop::next_epoch() const { return state_->progress.next_epoch; }

bool TrainingLoop::finished() const { return state_->finished(); }

LoopSummary TrainingLoop::summary() const {
  const TrainingProgress& s = state_->progress;
  return {s.next_epoch, s.best_epoch, s.stopped_early, s.best_score, s.kept};
}

// One epoch's pipeline: bulk b + 1 is sampled (on the prefetching worker) while
// the steps of bulk b are prepared (on the preparing worker, kStepsAhead at most
// ahead of training) and trained on. Without the workers the same calls run
// deferred, on the training thread.
class TrainingLoop::Pipeline {
 public:
  Pipeline(State& s, uint32_t epoch_key, EpochTimes& times)
      : s_(s),
        epoch_key_(epoch_key),
        times_(times),
        order_(s.plan.order(s.task.training_items(), s.options.epoch.seed, epoch_key)) {
    s_.task.before_bulk(&times_.explanation_wait);
    pending_ = start(0);
  }
  // Waits for the work still running when an exception leaves the epoch (a
  // deferred task never started and is left alone): the tasks refer to this.
  ~Pipeline() {
    const auto finish = [](auto& future) {
      if (future.valid() && future.wait_for(std::chrono::seconds(0)) != std::future_status::deferred) future.wait();
    };
    for (auto& p : prepared_) finish(p.first);
    finish(pending_);
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // The next step, ready for training, and the loss terms of the whole step
  // (all ranks); false after the last.
  bool next(PreparedStep* step, int64_t* terms) {
    while (prepared_.size() <= kStepsAhead && (!unprepared_.empty() || next_bulk_ < s_.plan.num_bulks())) {
      if (unprepared_.empty()) take_bulk();
      const StepRef& ref = unprepared_.front();
      prepared_.emplace_back(prepare(ref), s_.plan.step_seeds(ref.bulk, ref.step) * s_.task.terms_per_item());
      unprepared_.pop_front();
    }
    if (prepared_.empty()) return false;
    {
      ScopedTimer t(&times_.preparation_wait);
      *step = prepared_.front().first.get();
    }
    *terms = prepared_.front().second;
    prepared_.pop_front();
    return true;
  }

 private:
  static constexpr size_t kStepsAhead = 2;
  struct StepRef {
    std::shared_ptr<const SampledBulk> sample;
    EpochPlan::Bulk bulk;
    int64_t step;
  };

  TimedBulk sample_bulk(int64_t index) const {
    TimedBulk out;
    ScopedTimer t(&out.seconds);
    Context ctx = s_.context;
    out.bulk =
        s_.task.sample(ctx, order_, s_.plan.lane_minibatches(s_.plan.bulk(index), s_.sampling_lanes), epoch_key_);
    ctx.backend.finish_collectives();
    return out;
  }
  // Deferred when not prefetching: then the wait is the sampling itself.
  std::future<TimedBulk> start(int64_t index) {
    if (s_.prefetcher) return s_.prefetcher->submit([this, index] { return sample_bulk(index); });
    return std::async(std::launch::deferred, [this, index] { return sample_bulk(index); });
  }
  // The next sampled bulk's steps, and the bulk after it started.
  void take_bulk() {
    TimedBulk current;
    {
      ScopedTimer t(next_bulk_ > 0 ? &times_.sampling_wait : nullptr);
      current = pending_.get();
    }
    // The first bulk overlaps nothing, so its wait runs from its submission:
    // the worker may well run first, with this thread descheduled.
    if (next_bulk_ == 0) times_.sampling_wait += since_submission_.seconds();
    times_.sampling += current.seconds;
    const EpochPlan::Bulk bulk = s_.plan.bulk(next_bulk_);
    if (++next_bulk_ < s_.plan.num_bulks()) {
      s_.task.before_bulk(&times_.explanation_wait);
      pending_ = start(next_bulk_);
    }
    for (int64_t step = 0; step < bulk.lane_length; ++step) unprepared_.push_back({current.bulk, bulk, step});
  }
  std::future<PreparedStep> prepare(const StepRef& ref) {
    State& s = s_;
    if (!s.preparer)
      return std::async(std::launch::deferred, [&s, ref] { return s.prepare_step(*ref.sample, ref.bulk, ref.step); });
    return s.preparer->submit([&s, ref] {
      // One thread: an OpenMP team of this worker would spin on the cores the training's team computes on.
      omp_set_num_threads(1);
      const TrainingStreamScope stream(s.device);
      return s.prepare_step(*ref.sample, ref.bulk, ref.step);
    });
  }

  State& s_;
  const uint32_t epoch_key_;
  EpochTimes& times_;
  const EpochOrder order_;
  ScopedTimer since_submission_{nullptr};
  std::future<TimedBulk> pending_;
  std::deque<StepRef> unprepared_;
  std::deque<std::pair<std::future<PreparedStep>, int64_t>> prepared_;  // with each step's loss terms
  int64_t next_bulk_ = 0;
};

LoopEpoch TrainingLoop::train_epoch() {
  State& s = *state_;
  MATSAMP_CHECK(!s.finished(), "training has finished (epoch ", s.progress.next_epoch, ")");
  TrainingTask& task = s.task;
  const TrainingStreamScope stream(s.device);
  LoopEpoch m;
  m.epoch = s.progress.next_epoch;
  ScopedTimer epoch_timer(&m.times.total);
  const uint32_t epoch_key = static_cast<uint32_t>(m.epoch);
  const int64_t fetched_before = task.feature_bytes_sent();
  int64_t epoch_steps = 0;
  for (int64_t b = 0; b < s.plan.num_bulks(); ++b) epoch_steps += s.plan.bulk(b).lane_length;
  // Steps as they train, once an epoch takes over a second: a bar on a terminal,
  // a line every few seconds in a log; the epoch's own line follows (the last
  // step is not reported).
  Progress steps_shown("epoch " + std::to_string(m.epoch + 1), epoch_steps, "steps",
                       s.comm.rank() == 0 ? s.progress_out : nullptr);
  double loss_sum = 0;
  {
    Pipeline pipeline(s, epoch_key, m.times);
    task.model().train();
    PreparedStep step;
    int64_t step_terms = 0;
    while (pipeline.next(&step, &step_terms)) {
      loss_sum += s.train_step(std::move(step), step_terms, epoch_key, m.times);
      task.after_step();
      if (++m.steps < epoch_steps && steps_shown.seconds() >= 1.0) steps_shown.update(m.steps);  // quick epochs: none
    }
  }
  steps_shown.clear();
  m.feature_fetch_bytes = task.feature_bytes_sent() - fetched_before;
  std::vector<double> total_loss{loss_sum};
  s.comm.all_reduce_sum(total_loss);
  m.loss = total_loss[0] /
           static_cast<double>(static_cast<int64_t>(task.training_items().size()) * task.terms_per_item());
  s.evaluate(m);
  if (m.improved) {
    s.best_parameters.clear();
    for (const torch::Tensor& p : task.model().parameters()) s.best_parameters.push_back(p.detach().clone());
  }
  stream.wait();
  return m;
}

void TrainingLoop::save_checkpoint(const std::string& path) const {
  const State& s = *state_;
  matsamp::save_checkpoint(path, s.task.identity(), s.task.model(), *s.optimizer, s.best_parameters,
                           numbers_of(s.progress));
}

void TrainingLoop::load_checkpoint(const std::string& path) {
  State& s = *state_;
  ProgressNumbers numbers = numbers_of(s.progress);
  matsamp::load_checkpoint(path, s.task.identity(), s.device, s.task.model(), *s.optimizer, s.best_parameters, numbers);
  s.progress = progress_of(numbers);
}

namespace {

// The epoch line: scores, then each time as a list over ranks (collective).
JsonObject epoch_line(const LoopEpoch& m, Communicator& comm) {
  const EpochTimes& t = m.times;
  const std::vector<std::pair<const char*, double>> parts{{"sampling", t.sampling},
                                                          {"sampling_wait", t.sampling_wait},
                                                          {"block_conversion", t.block_conversion},
                                                          {"feature_fetch", t.feature_fetch},
                                                          {"preparation_wait", t.preparation_wait},
                                                          {"propagation", t.propagation},
                                                          {"gradient_reduction", t.gradient_reduction},
                                                          {"optimizer", t.optimizer},
                                                          {"evaluation", t.evaluation},
                                                          {"explanation_wait", t.explanation_wait},
                                                          {"epoch", t.total}};
  std::vector<double> mine;
  for (const auto& part : parts) mine.push_back(part.second);
  const std::vector<double> all = comm.all_gatherv(mine);  // rank-major
  JsonObject times;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::vector<double> per_rank;
    for (size_t r = 0; r < all.size() / parts.size(); ++r) per_rank.push_back(all[r * parts.size() + i]);
    times.add(parts[i].first, per_rank);
  }
  const std::vector<int64_t> fetch_bytes = comm.all_gatherv(std::vector<int64_t>{m.feature_fetch_bytes});
  const std::vector<int64_t> peak_memory = comm.all_gatherv(std::vector<int64_t>{peak_resident_bytes()});
  return JsonObject()
      .add("epoch", m.epoch)
      .add("steps", m.steps)
      .add("loss", m.loss)
      .merge(m.evaluation.fields)
      .add("improved", m.improved)
      .add("feature_fetch_bytes", fetch_bytes)
      .add("peak_memory_bytes", peak_memory)  // of each rank's process so far
      .add("time_s", times);
}

std::string progress_line(const LoopEpoch& m, int64_t epochs) {
  char line[512];
  std::snprintf(line, sizeof line, "epoch %lld/%lld: loss %.4f, %s%s (%.2f s, sampling %.2f s)",
                static_cast<long long>(m.epoch + 1), static_cast<long long>(epochs), m.loss,
                m.evaluation.progress.c_str(), m.improved ? " *" : "", m.times.total, m.times.sampling);
  return line;
}

}  // namespace

LoopSummary TrainingLoop::run(std::FILE* metrics, std::FILE* progress, const std::string& checkpoint_path) {
  State& s = *state_;
  const bool leader = s.comm.rank() == 0;
  // An unwritable checkpoint path is reported now, not after the first epoch.
  if (leader && !checkpoint_path.empty()) check_can_write(checkpoint_path);
  s.progress_out = progress;
  while (!finished()) {
    const LoopEpoch m = train_epoch();
    if (leader && !checkpoint_path.empty()) save_checkpoint(checkpoint_path);
    const JsonObject line = epoch_line(m, s.comm);
    if (!leader) continue;
    if (metrics) {
      std::fprintf(metrics, "%s\n", line.str().c_str());
      std::fflush(metrics);
    }
    if (progress) std::fprintf(progress, "matsamp: %s\n", progress_line(m, s.options.epochs).c_str());
  }
  const LoopSummary result = summary();
  const JsonObject line = JsonObject()
                              .add("summary", true)
                              .add("epochs_run", result.epochs_run)
                              .add("best_epoch", result.best_epoch)
                              .merge(s.task.summary_fields(result))
                              .add("stopped_early", result.stopped_early);
  if (leader && metrics) {
    std::fprintf(metrics, "%s\n", line.str().c_str());
    std::fflush(metrics);
  }
  return result;
}

}  // namespace matsamp
