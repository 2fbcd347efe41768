// Training checkpoints (train/checkpoint.h): the header and checksum, then torch's
// archive, the run's identity and the model's, optimizer's and best model's tensors.
// c10::Error escaping the reader is a finding, as any exception but matsamp::Error.
#include <torch/torch.h>

#include <cstdlib>
#include <string>

#include "fuzz_input.h"
#include "train/checkpoint.h"

namespace {

const std::vector<int64_t> kIdentity{7, 3, 4, 2};

struct Run {
  torch::nn::Linear model{3, 4};
  torch::optim::Adam optimizer{model->parameters(), torch::optim::AdamOptions(0.01)};
};

}  // namespace

// With MATSAMP_FUZZ_SEED_DIR set, writes a checkpoint there first (fuzz.sh's seed).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  torch::set_num_threads(1);
  if (const char* dir = std::getenv("MATSAMP_FUZZ_SEED_DIR")) {
    Run run;
    run.model->forward(torch::ones({2, 3})).sum().backward();
    run.optimizer.step();  // the optimizer's state holds tensors too
    matsamp::save_checkpoint(std::string(dir) + "/run.ckpt", kIdentity, *run.model, run.optimizer,
                             {run.model->weight.detach().clone()}, {{3, 1}, {0.5}});
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return matsamp::fuzz::read_as_file(data, size, "run.ckpt", [](const std::string& p) {
    Run run;
    std::vector<torch::Tensor> best;
    matsamp::ProgressNumbers progress{{0, 0}, {0}};
    matsamp::load_checkpoint(p, kIdentity, torch::kCPU, *run.model, run.optimizer, best, progress);
  });
}
