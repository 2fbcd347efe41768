#include "train/tensors.h"

#include "ops/ops.h"

namespace matsamp {

torch::Device torch_device(const std::string& name) {
  std::unique_ptr<torch::Device> device;
  try {
    device = std::make_unique<torch::Device>(name);
  } catch (const std::exception&) {
    fail("unknown device '", name, "' (expected cpu or cuda[:N])");
  }
  MATSAMP_CHECK(device->is_cpu() || device->is_cuda(), "device '", name, "' is not supported (use cpu or cuda)");
  MATSAMP_CHECK(device->is_cpu() || torch::cuda::is_available(), "device '", name,
                "': this build of torch has no CUDA support or sees no GPU");
  return *device;
}

namespace {

torch::Tensor sparse_with_values(const CsrMatrix& m, const torch::Tensor& values, const torch::Device& device) {
  const int64_t nnz = m.nnz();
  torch::Tensor indices = torch::empty({2, nnz}, torch::kLong);
  int64_t* rows = indices.data_ptr<int64_t>();
  int64_t* cols = rows + nnz;
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) {
      rows[e] = r;
      cols[e] = m.colidx[e];
    }
  // CSR rows are sorted with unique columns, so the COO tensor is coalesced as built.
  torch::Tensor t =
      torch::sparse_coo_tensor(indices, values, {m.rows, m.cols}, torch::TensorOptions().dtype(torch::kFloat));
  return t._coalesced_(true).to(device);
}

}  // namespace

torch::Tensor to_sparse_tensor(const CsrMatrix& m, const torch::Device& device) {
  return sparse_with_values(m, torch::from_blob(const_cast<float*>(m.values.data()), {m.nnz()}, torch::kFloat).clone(),
                            device);
}

torch::Tensor to_sparse_pattern(const CsrMatrix& m, const torch::Device& device) {
  return sparse_with_values(m, torch::ones({m.nnz()}, torch::kFloat), device);
}

torch::Tensor index_tensor(const std::vector<vid_t>& ids, const torch::Device& device) {
  return torch::from_blob(const_cast<vid_t*>(ids.data()), {static_cast<int64_t>(ids.size())}, torch::kLong)
      .clone()
      .to(device);
}

std::vector<float> float_vector(const torch::Tensor& t) {
  const torch::Tensor c = t.detach().to(torch::kCPU, torch::kFloat).contiguous();
  return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

namespace {

CsrMatrix dense_to_csr(const float* dense, int64_t rows, int64_t cols) {
  CsrMatrix m(rows, cols);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const float v = dense[r * cols + c];
      if (v == 0) continue;
      m.colidx.push_back(static_cast<col_t>(c));
      m.values.push_back(v);
    }
    m.rowptr[r + 1] = m.nnz();
  }
  return m;
}

// The rows of a vector, checked to be `count` x `feature_dim`.
const float* checked_rows(const std::vector<float>& rows, int64_t count, int64_t feature_dim) {
  MATSAMP_CHECK(static_cast<int64_t>(rows.size()) == count * feature_dim, rows.size(), " feature values for ", count,
                " rows of ", feature_dim);
  return rows.data();
}

}  // namespace

bool sparse_enough(const float* rows, int64_t count, int64_t feature_dim, double max_sparse_density) {
  int64_t nonzeros = 0;
  for (int64_t i = 0; i < count * feature_dim; ++i) nonzeros += rows[i] != 0;
  return count > 0 && static_cast<double>(nonzeros) <= max_sparse_density * static_cast<double>(count * feature_dim);
}

FeatureTable::FeatureTable(const Graph& g, const torch::Device& device, double max_sparse_density)
    : FeatureTable(g.features, g.num_vertices(), g.feature_dim, device, max_sparse_density) {}

FeatureTable::FeatureTable(const std::vector<float>& rows, int64_t count, int64_t feature_dim,
                           const torch::Device& device, double max_sparse_density)
    : FeatureTable(checked_rows(rows, count, feature_dim), count, feature_dim, nullptr, device, max_sparse_density) {}

FeatureTable::FeatureTable(const std::shared_ptr<const MappedFeatures>& rows, const torch::Device& device,
                           double max_sparse_density)
    : FeatureTable(rows->data(), rows->rows(), rows->dim(), rows, device, max_sparse_density) {}

FeatureTable::FeatureTable(const float* rows, int64_t count, int64_t feature_dim, std::shared_ptr<const void> owner,
                           const torch::Device& device, double max_sparse_density)
    : device_(device), feature_dim_(feature_dim), sparse_(sparse_enough(rows, count, feature_dim, max_sparse_density)) {
  const int64_t n = count, f = feature_dim;
  if (sparse_) {
    check_column_count(f, "feature dimension");
    sparse_rows_ = dense_to_csr(rows, n, f);
    all_ = to_sparse_tensor(sparse_rows_, device);
    return;
  }
  const torch::Tensor view = owner ? torch::from_blob(
                                         const_cast<float*>(rows), {n, f}, [owner](void*) {}, torch::kFloat)
                                   : torch::from_blob(const_cast<float*>(rows), {n, f}, torch::kFloat);
  all_ = owner && device.is_cpu() ? view : view.clone().to(device);
}

FeatureTable FeatureTable::format_of(const std::vector<float>& rows, int64_t count, int64_t feature_dim,
                                     const torch::Device& device, double max_sparse_density) {
  return FeatureTable(device, feature_dim,
                      sparse_enough(checked_rows(rows, count, feature_dim), count, feature_dim, max_sparse_density));
}

torch::Tensor FeatureTable::from_rows(std::vector<float> rows, int64_t count) const {
  MATSAMP_CHECK(static_cast<int64_t>(rows.size()) == count * feature_dim_, rows.size(), " feature values for ", count,
                " rows of ", feature_dim_);
  if (is_sparse()) return to_sparse_tensor(dense_to_csr(rows.data(), count, feature_dim_), device_);
  // torch::from_blob drops the deleter of an empty blob: no rows own no vector.
  if (count == 0) return torch::empty({0, feature_dim_}, torch::TensorOptions(torch::kFloat).device(device_));
  auto* owned = new std::vector<float>(std::move(rows));
  return torch::from_blob(
             owned->data(), {count, feature_dim_}, [owned](void*) { delete owned; }, torch::kFloat)
      .to(device_);
}

torch::Tensor FeatureTable::rows(const std::vector<vid_t>& ids) const {
  MATSAMP_CHECK(all_.defined(), "this feature table holds no rows (they are fetched from their owners)");
  if (is_sparse()) return to_sparse_tensor(select_rows(sparse_rows_, ids), device_);
  return all_.index_select(0, index_tensor(ids, device_));
}

}  // namespace matsamp
