// The NCCL transport. Buffers may be device memory of the rank's GPU (used in place)
// or host memory (staged through a device buffer of the communicator's, since NCCL
// reads and writes device memory only). Bootstrapped through another communicator (MPI): rank 0's ncclUniqueId is broadcast.
// Each operation runs on the communicator's own stream and has finished when it
// returns, as the Communicator interface promises. NCCL point-to-point has no tags:
// messages between two ranks arrive in the order they were sent. Built only with
// CUDA and NCCL (MATSAMP_WITH_NCCL).
#pragma once
#include <memory>

#include "communicator.h"

namespace matsamp {

// Collective over bootstrap. device < 0: local_rank() modulo the visible GPUs (with
// one rank per GPU, as srun --gpus-per-task or CUDA_VISIBLE_DEVICES arrange). NCCL
// cannot put two ranks on one GPU: a job with more ranks than GPUs per node must use
// the MPI transport. `bootstrap` must outlive the result (abort goes through it).
std::unique_ptr<Communicator> make_nccl_communicator(Communicator& bootstrap, int device = -1);

}  // namespace matsamp
