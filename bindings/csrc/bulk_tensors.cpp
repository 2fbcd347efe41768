#include "bulk_tensors.h"

#include <torch/cuda.h>

#include "convert.h"
#include "kernels/cuda_backend.h"

namespace matsamp::bindings {

namespace {

// A copy, by torch on its own stream, of n elements in the backend's device memory.
at::Tensor device_copy(const void* data, int64_t n, at::ScalarType type, c10::Device device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  if (n == 0) return at::empty({0}, options);
  return at::from_blob(const_cast<void*>(data), {n}, options).clone();
}

}  // namespace

SampleTensors to_tensors(Backend& backend, Bulk&& bulk, c10::Device device) {
  SampleTensors out;
  auto& [rowptr, col, value, row_offsets, col_offsets, vertices] = out;
  auto on_device = [&](auto&& values) { return vector_to_tensor(std::move(values)).to(device); };
  for (Layer& layer : bulk.layers) {
    if (device.is_cuda()) {
      const DeviceCsrArrays arrays = device_arrays(backend, layer.adj);
      rowptr.push_back(device_copy(arrays.rowptr, layer.adj.rows() + 1, at::kLong, device));
      col.push_back(device_copy(arrays.colidx, layer.adj.nnz(), at::kInt, device));
      value.push_back(device_copy(arrays.values, layer.adj.nnz(), at::kFloat, device));
      vertices.push_back(
          device_copy(device_ids(backend, layer.vertices.ids), layer.vertices.ids.size(), at::kLong, device));
    } else {
      CsrMatrix adj = backend.to_host(std::move(layer.adj));
      rowptr.push_back(vector_to_tensor(std::move(adj.rowptr)));
      col.push_back(vector_to_tensor(std::move(adj.colidx)));
      value.push_back(vector_to_tensor(std::move(adj.values)));
      vertices.push_back(vector_to_tensor(backend.ids_to_host(std::move(layer.vertices.ids))));
    }
    row_offsets.push_back(on_device(std::move(layer.row_offsets)));
    col_offsets.push_back(on_device(std::move(layer.vertices.offsets)));
  }
  if (device.is_cuda()) torch::cuda::synchronize(device.index());
  return out;
}

at::Tensor on_host(const at::Tensor& t) { return t.defined() ? t.cpu() : t; }

}  // namespace matsamp::bindings
