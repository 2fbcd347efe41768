// Engine data as torch tensors: sparse layer matrices, id lists, feature rows.
#pragma once
#include <torch/torch.h>

#include <memory>
#include <vector>

#include "core/csr.h"
#include "graph/graph.h"
#include "io/mapped_features.h"

namespace matsamp {

// "cpu", "cuda" or "cuda:N" as a torch device; a one-line error when unknown or
// when this torch has no usable CUDA.
torch::Device torch_device(const std::string& name);

// A CSR matrix as a coalesced sparse COO tensor on `device`.
torch::Tensor to_sparse_tensor(const CsrMatrix& m, const torch::Device& device);
// Its pattern: the same tensor with every stored value 1.
torch::Tensor to_sparse_pattern(const CsrMatrix& m, const torch::Device& device);

// Vertex ids as an int64 tensor on `device`.
torch::Tensor index_tensor(const std::vector<vid_t>& ids, const torch::Device& device);
// A tensor's values as host floats, in its element order (any device, dtype or layout of strides).
std::vector<float> float_vector(const torch::Tensor& t);

// Feature rows with at most this share of nonzeros are kept sparse.
inline constexpr double kMaxSparseFeatureDensity = 0.1;
// Whether `count` x `feature_dim` row-major rows are: few enough nonzeros.
bool sparse_enough(const float* rows, int64_t count, int64_t feature_dim,
                   double max_sparse_density = kMaxSparseFeatureDensity);

// The vertex features on a device. Features with few nonzeros (bag-of-words:
// ~1% on Cora) are kept sparse, so a minibatch's rows are a sparse tensor and
// the first layer multiplies sparsely instead of through n x f dense rows.
class FeatureTable {
 public:
  FeatureTable(const Graph& g, const torch::Device& device, double max_sparse_density = kMaxSparseFeatureDensity);
  // The same of `count` row-major rows (of a rank's block, when features are partitioned).
  FeatureTable(const std::vector<float>& rows, int64_t count, int64_t feature_dim, const torch::Device& device,
               double max_sparse_density = kMaxSparseFeatureDensity);
  // The rows of a mapped .msg file (train --map-features): on the CPU, dense
  // rows stay a view of the mapping, no copy; elsewhere they are copied there.
  FeatureTable(const std::shared_ptr<const MappedFeatures>& rows, const torch::Device& device,
               double max_sparse_density = kMaxSparseFeatureDensity);
  // A table of fetched rows only (features partitioned, FeatureFetcher): the format
  // (sparse or dense) of this rank's `count` rows, without a copy of them.
  static FeatureTable format_of(const std::vector<float>& rows, int64_t count, int64_t feature_dim,
                                const torch::Device& device, double max_sparse_density = kMaxSparseFeatureDensity);
  bool is_sparse() const { return sparse_; }
  torch::Tensor rows(const std::vector<vid_t>& ids) const;  // in the order of ids
  // Row-major rows fetched elsewhere (count x feature dim), in this table's format;
  // dense rows on the CPU become the tensor's storage.
  torch::Tensor from_rows(std::vector<float> rows, int64_t count) const;
  const torch::Tensor& all() const { return all_; }

 private:
  // `owner`, when given, keeps `rows` alive and lets a CPU table view them.
  FeatureTable(const float* rows, int64_t count, int64_t feature_dim, std::shared_ptr<const void> owner,
               const torch::Device& device, double max_sparse_density);

  FeatureTable(const torch::Device& device, int64_t feature_dim, bool sparse)
      : device_(device), feature_dim_(feature_dim), sparse_(sparse) {}

  torch::Device device_;
  int64_t feature_dim_;
  bool sparse_ = false;
  CsrMatrix sparse_rows_;  // host copy when sparse
  torch::Tensor all_;      // every row, on the device
};

}  // namespace matsamp
