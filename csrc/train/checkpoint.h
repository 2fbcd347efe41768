// Checkpoints: model and optimizer state, the best model so far and the
// training progress, in one torch archive.
#pragma once
#include <torch/torch.h>

#include <string>
#include <vector>

namespace matsamp {

// Where training stands, in the trainer's own order: counters (next epoch,
// best epoch, ...) and scores (the best validation score, ...).
struct ProgressNumbers {
  std::vector<int64_t> counters;
  std::vector<double> scores;
};

// `identity` names the run (seed and model shape): loading a checkpoint of
// another run is an error rather than a shape mismatch deep inside torch.
void save_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& best_parameters,
                     const ProgressNumbers& progress);

void load_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::Device& device,
                     torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                     std::vector<torch::Tensor>& best_parameters, ProgressNumbers& progress);

}  // namespace matsamp
