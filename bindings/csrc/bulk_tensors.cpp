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

// A sampled layer (or id list) kept alive by the tensors over its device
// arrays; the backend outlives it (members are destroyed in reverse order).
template <class T>
struct Held {
  std::shared_ptr<Backend> backend;
  T value;
};

// n elements of a held value's device array, without a copy.
template <class T>
at::Tensor device_view(const std::shared_ptr<Held<T>>& held, const void* data, int64_t n, at::ScalarType type,
                       c10::Device device) {
  const auto options = at::TensorOptions().dtype(type).device(device);
  if (n == 0) return at::empty({0}, options);
  return at::from_blob(
      const_cast<void*>(data), {n}, [held](void*) {}, options);
}

// An id list of the backend as a tensor on `device` (as to_tensors' vertices).
at::Tensor ids_tensor(const std::shared_ptr<Backend>& backend, Ids&& ids, c10::Device device, bool zero_copy) {
  if (zero_copy) {
    const auto held = std::make_shared<Held<Ids>>(Held<Ids>{backend, std::move(ids)});
    return device_view(held, backend->device_ids(held->value), held->value.size(), at::kLong, device);
  }
  if (device.is_cuda()) return device_copy(backend->device_ids(ids), ids.size(), at::kLong, device);
  return vector_to_tensor(backend->ids_to_host(std::move(ids)));
}

}  // namespace

SampleTensors to_tensors(const std::shared_ptr<Backend>& backend, Bulk&& bulk, c10::Device device,
                         const Matrix* graph) {
  SampleTensors out;
  auto& [rowptr, col, value, row_offsets, col_offsets, vertices, positions] = out;
  auto on_device = [&](auto&& values) { return vector_to_tensor(std::move(values)).to(device); };
  const bool zero_copy = device.is_cuda() && torch_has_cuda_memory();
  std::vector<Ids> located;
  if (graph) located = entry_positions(*backend, *graph, backend->upload_ids(bulk.seeds), bulk);
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    Layer& layer = bulk.layers[l];
    positions.push_back(graph ? ids_tensor(backend, std::move(located[l]), device, zero_copy)
                              : at::empty({0}, at::TensorOptions().dtype(at::kLong).device(device)));
    row_offsets.push_back(on_device(std::move(layer.row_offsets)));
    col_offsets.push_back(on_device(std::move(layer.vertices.offsets)));
    if (zero_copy) {
      const auto held = std::make_shared<Held<Layer>>(Held<Layer>{backend, std::move(layer)});
      const Matrix& adj = held->value.adj;
      const DeviceCsrArrays arrays = backend->device_csr(adj);
      rowptr.push_back(device_view(held, arrays.rowptr, adj.rows() + 1, at::kLong, device));
      col.push_back(device_view(held, arrays.colidx, adj.nnz(), at::kInt, device));
      value.push_back(device_view(held, arrays.values, adj.nnz(), at::kFloat, device));
      const Ids& ids = held->value.vertices.ids;
      vertices.push_back(device_view(held, backend->device_ids(ids), ids.size(), at::kLong, device));
    } else if (device.is_cuda()) {
      const DeviceCsrArrays arrays = backend->device_csr(layer.adj);
      rowptr.push_back(device_copy(arrays.rowptr, layer.adj.rows() + 1, at::kLong, device));
      col.push_back(device_copy(arrays.colidx, layer.adj.nnz(), at::kInt, device));
      value.push_back(device_copy(arrays.values, layer.adj.nnz(), at::kFloat, device));
      vertices.push_back(ids_tensor(backend, std::move(layer.vertices.ids), device, false));
    } else {
      CsrMatrix adj = backend->to_host(std::move(layer.adj));
      rowptr.push_back(vector_to_tensor(std::move(adj.rowptr)));
      col.push_back(vector_to_tensor(std::move(adj.colidx)));
      value.push_back(vector_to_tensor(std::move(adj.values)));
      vertices.push_back(ids_tensor(backend, std::move(layer.vertices.ids), device, false));
    }
  }
  // The copies ran on torch's stream, the sampling on the backend's own: wait for them.
  if (device.is_cuda() && !zero_copy) torch::cuda::synchronize(device.index());
  return out;
}

at::Tensor on_host(const at::Tensor& t) { return t.defined() ? t.cpu() : t; }

}  // namespace matsamp::bindings
