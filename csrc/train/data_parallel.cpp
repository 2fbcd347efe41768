#include "train/data_parallel.h"

#include <torch/cuda.h>

#include "core/philox.h"

namespace matsamp {

namespace {

constexpr uint32_t kDropoutTag = 0xD0u;  // purpose tag in random keys (sampler layers use small numbers)

// The tensors as one flat tensor, for one collective instead of one per tensor: on
// their GPU when the transport reads device memory (NCCL), otherwise on the host.
torch::Tensor flatten(const std::vector<torch::Tensor>& tensors, const Communicator& comm) {
  std::vector<torch::Tensor> parts;
  for (const torch::Tensor& t : tensors) parts.push_back(t.reshape(-1));
  torch::Tensor flat = torch::cat(parts);  // contiguous, as cat's results are
  if (flat.is_cuda() && comm.takes_device_buffers()) {
    // The transport runs on a stream of its own: torch's work on the buffer must be done.
    torch::cuda::synchronize(flat.device().index());
    return flat;
  }
  return flat.to(torch::kCPU);
}

std::vector<torch::Tensor> gradients_of(const std::vector<torch::Tensor>& parameters) {
  std::vector<torch::Tensor> grads;
  for (const torch::Tensor& p : parameters) grads.push_back(p.grad().defined() ? p.grad() : torch::zeros_like(p));
  return grads;
}

}  // namespace

void all_reduce_gradients(const std::vector<torch::Tensor>& parameters, Communicator& comm) {
  torch::Tensor flat = flatten(gradients_of(parameters), comm);
  comm.all_reduce_sum(flat.data_ptr<float>(), flat.numel(), DataType::float32);
  int64_t offset = 0;
  for (const torch::Tensor& p : parameters) {
    torch::Tensor g = flat.narrow(0, offset, p.numel()).view_as(p).to(p.device());
    if (p.grad().defined()) p.mutable_grad().copy_(g);
    else p.mutable_grad() = g.clone();
    offset += p.numel();
  }
}

void broadcast_parameters(const std::vector<torch::Tensor>& parameters, Communicator& comm) {
  torch::NoGradGuard no_grad;
  torch::Tensor flat = flatten(parameters, comm);
  comm.broadcast(flat.data_ptr<float>(), flat.numel(), DataType::float32, 0);
  int64_t offset = 0;
  for (torch::Tensor p : parameters) {
    p.copy_(flat.narrow(0, offset, p.numel()).view_as(p));
    offset += p.numel();
  }
}

void seed_minibatch_dropout(uint64_t seed, uint32_t epoch_key, int64_t minibatch) {
  torch::manual_seed(random_bits({seed, epoch_key, kDropoutTag, static_cast<uint64_t>(minibatch), 0}, 0));
}

}  // namespace matsamp
