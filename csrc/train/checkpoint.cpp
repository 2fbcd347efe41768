#include "train/checkpoint.h"

#include <algorithm>
#include <filesystem>

#include "core/error.h"

namespace matsamp {

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

void save_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& best_parameters,
                     const TrainingProgress& progress) {
  torch::serialize::OutputArchive archive, model_archive, optimizer_archive, best_archive;
  model.save(model_archive);
  optimizer.save(optimizer_archive);
  for (size_t i = 0; i < best_parameters.size(); ++i) best_archive.write(std::to_string(i), best_parameters[i]);
  archive.write("model", model_archive);
  archive.write("optimizer", optimizer_archive);
  archive.write("best_model", best_archive);
  archive.write("identity", torch::tensor(identity));
  archive.write("progress", torch::tensor(std::vector<int64_t>{progress.next_epoch, progress.best_epoch,
                                                               progress.epochs_since_best, progress.stopped_early}));
  archive.write("scores",
                torch::tensor(std::vector<double>{progress.best_validation_accuracy, progress.best_validation_loss,
                                                  progress.test_accuracy_at_best}));
  // Written aside and renamed, so a crash never leaves half a checkpoint.
  const std::string partial = path + ".partial";
  try {
    archive.save_to(partial);
  } catch (const c10::Error& e) {
    fail("cannot write checkpoint '", path, "': ", first_line(e.what_without_backtrace()));
  }
  std::filesystem::rename(partial, path);
}

void load_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::Device& device,
                     torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                     std::vector<torch::Tensor>& best_parameters, TrainingProgress& progress) {
  torch::serialize::InputArchive archive, model_archive, optimizer_archive, best_archive;
  torch::Tensor saved_identity, counters, scores;
  try {
    archive.load_from(path, device);
    archive.read("identity", saved_identity);
    archive.read("progress", counters);
    archive.read("scores", scores);
    archive.read("model", model_archive);
    archive.read("optimizer", optimizer_archive);
    archive.read("best_model", best_archive);
  } catch (const c10::Error& e) {
    fail("cannot read checkpoint '", path, "': ", first_line(e.what_without_backtrace()));
  }
  saved_identity = saved_identity.to(torch::kCPU);
  MATSAMP_CHECK(saved_identity.numel() == static_cast<int64_t>(identity.size()) &&
                    std::equal(identity.begin(), identity.end(), saved_identity.data_ptr<int64_t>()),
                "checkpoint '", path,
                "' belongs to another run (seed, model, input, hidden, classes or layers differ)");
  model.load(model_archive);
  optimizer.load(optimizer_archive);
  best_parameters.clear();
  while (true) {
    torch::Tensor p;  // fresh each time: try_read fills a defined tensor in place
    if (!best_archive.try_read(std::to_string(best_parameters.size()), p)) break;
    best_parameters.push_back(p.to(device));
  }

  counters = counters.to(torch::kCPU);
  scores = scores.to(torch::kCPU);
  progress.next_epoch = counters[0].item<int64_t>();
  progress.best_epoch = counters[1].item<int64_t>();
  progress.epochs_since_best = counters[2].item<int64_t>();
  progress.stopped_early = counters[3].item<int64_t>() != 0;
  progress.best_validation_accuracy = scores[0].item<double>();
  progress.best_validation_loss = scores[1].item<double>();
  progress.test_accuracy_at_best = scores[2].item<double>();
}

}  // namespace matsamp
