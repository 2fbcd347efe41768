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
// A link or R-GCN run's identity starts with its tag (a node run's with its
// seed), so that a checkpoint of another kind of training is named as such.
constexpr int64_t kLinkCheckpointTag = 0x4C494E4B;  // "LINK"
constexpr int64_t kRgcnCheckpointTag = 0x5247434E;  // "RGCN"

void save_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::nn::Module& model,
                     const torch::optim::Optimizer& optimizer, const std::vector<torch::Tensor>& best_parameters,
                     const ProgressNumbers& progress);

void load_checkpoint(const std::string& path, const std::vector<int64_t>& identity, const torch::Device& device,
                     torch::nn::Module& model, torch::optim::Optimizer& optimizer,
                     std::vector<torch::Tensor>& best_parameters, ProgressNumbers& progress);

}  // namespace matsamp
