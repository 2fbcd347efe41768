// A sampled bulk's layers as tensors: what the sampling ops return.
#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <tuple>
#include <vector>

#include "sampling/sample.h"

namespace matsamp::bindings {

// Per layer, in sampling order: rowptr, col, value, row_offsets, col_offsets,
// vertices, positions (int64 per entry, or empty when not asked for).
using SampleTensors =
    std::tuple<std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>,
               std::vector<at::Tensor>, std::vector<at::Tensor>, std::vector<at::Tensor>>;

// The bulk as tensors on `device`: on the CPU its host arrays, moved; on a GPU
// its device arrays, which the tensors then hold (with the backend) when they
// are torch's memory on torch's stream (torch_cuda_memory.h), else copied device
// to device and synchronized. Block offsets are on the host: copied up. With
// `graph`, each layer's entries are located in it first, in the backend
// (sample.h: entry_positions): the positions that name sampled edges.
SampleTensors to_tensors(const std::shared_ptr<Backend>& backend, Bulk&& bulk, c10::Device device,
                         const Matrix* graph = nullptr);

// The tensor on the host, for reading (no copy when it is there already).
at::Tensor on_host(const at::Tensor& t);

}  // namespace matsamp::bindings
