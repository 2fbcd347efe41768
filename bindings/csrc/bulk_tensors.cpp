#include "bulk_tensors.h"

#include <torch/cuda.h>

#include "convert.h"
#include "torch_cuda_memory.h"

namespace matsamp::bindings {

namespace {

// A copy, by torch on its own stream, of n elements in the backend's device memory.
at::Tensor device_copy(const void* data, int64_t n, at::ScalarType type, c10::Device device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  if (n == 0) return at::empty({0}, options);
  return at::from_blob(const_cast<void*>(data), {n}, options).clone();
}

// A sampled layer kept alive by the tensors over its device arrays; the backend
// outlives it (members are destroyed in reverse order).
struct HeldLayer {
  std::shared_ptr<Backend> backend;
  Layer layer;
};

// n elements of a held layer's device array, without a copy.
at::Tensor device_view(const std::shared_ptr<HeldLayer>& held, const void* data, int64_t n, at::ScalarType type,
                       c10::Device device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  if (n == 0) return at::empty({0}, options);
  return at::from_blob(
      const_cast<void*>(data), {n}, [held](void*) {}, options);
}

}  // namespace

SampleTensors to_tensors(const std::shared_ptr<Backend>& backend, Bulk&& bulk, c10::Device device) {
  SampleTensors out;
  auto& [rowptr, col, value, row_offsets, col_offsets, vertices] = out;
  auto on_device = [&](auto&& values) { return vector_to_tensor(std::move(values)).to(device); };
  const bool zero_copy = device.is_cuda() && torch_has_cuda_memory();
  for (Layer& layer : bulk.layers) {
    row_offsets.push_back(on_device(std::move(layer.row_offsets)));
    col_offsets.push_back(on_device(std::move(layer.vertices.offsets)));
    if (zero_copy) {
      const auto held = std::make_shared<HeldLayer>(HeldLayer{backend, std::move(layer)});
      const Matrix& adj = held->layer.adj;
      const DeviceCsrArrays arrays = backend->device_csr(adj);
      rowptr.push_back(device_view(held, arrays.rowptr, adj.rows() + 1, at::kLong, device));
      col.push_back(device_view(held, arrays.colidx, adj.nnz(), at::kInt, device));
      value.push_back(device_view(held, arrays.values, adj.nnz(), at::kFloat, device));
      const Ids& ids = held->layer.vertices.ids;
      vertices.push_back(device_view(held, backend->device_ids(ids), ids.size(), at::kLong, device));
    } else if (device.is_cuda()) {
      const DeviceCsrArrays arrays = backend->device_csr(layer.adj);
      rowptr.push_back(device_copy(arrays.rowptr, layer.adj.rows() + 1, at::kLong, device));
      col.push_back(device_copy(arrays.colidx, layer.adj.nnz(), at::kInt, device));
      value.push_back(device_copy(arrays.values, layer.adj.nnz(), at::kFloat, device));
      vertices.push_back(
          device_copy(backend->device_ids(layer.vertices.ids), layer.vertices.ids.size(), at::kLong, device));
    } else {
      CsrMatrix adj = backend->to_host(std::move(layer.adj));
      rowptr.push_back(vector_to_tensor(std::move(adj.rowptr)));
      col.push_back(vector_to_tensor(std::move(adj.colidx)));
      value.push_back(vector_to_tensor(std::move(adj.values)));
      vertices.push_back(vector_to_tensor(backend->ids_to_host(std::move(layer.vertices.ids))));
    }
  }
  // The copies ran on torch's stream, the sampling on the backend's own: wait for them.
  if (device.is_cuda() && !zero_copy) torch::cuda::synchronize(device.index());
  return out;
}

at::Tensor on_host(const at::Tensor& t) { return t.defined() ? t.cpu() : t; }

}  // namespace matsamp::bindings
