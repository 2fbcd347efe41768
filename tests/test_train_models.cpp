// The models compute their formulas on the sparse layer matrices (the one torch test TU).
#include <gtest/gtest.h>

#include "train/models.h"
#include "train/tensors.h"

namespace matsamp {
namespace {

// 2 destinations, 4 sources (the destinations first), mean weights.
CsrMatrix small_layer() {
  return csr_from_triples(2, 4, {0, 0, 1, 1, 1}, {1, 2, 0, 2, 3}, {0.5f, 0.5f, 1.0f / 3, 1.0f / 3, 1.0f / 3});
}

torch::Tensor dense_of(const CsrMatrix& m) {
  torch::Tensor d = torch::zeros({m.rows, m.cols});
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t e = m.rowptr[r]; e < m.rowptr[r + 1]; ++e) d[r][m.colidx[e]] = m.values[e];
  return d;
}

// The parameters of a model by name.
torch::Tensor parameter(const GnnModel& model, const std::string& name) {
  for (const auto& item : model.named_parameters())
    if (item.key() == name) return item.value();
  ADD_FAILURE() << "no parameter " << name;
  return {};
}

TEST(TrainModels, SparseTensorEqualsTheCsrMatrix) {
  const CsrMatrix m = small_layer();
  const torch::Tensor t = to_sparse_tensor(m, torch::kCPU);
  EXPECT_TRUE(t.is_sparse());
  EXPECT_TRUE(t.is_coalesced());
  EXPECT_TRUE(torch::equal(t.to_dense(), dense_of(m)));
}

TEST(TrainModels, GraphSageIsRootPlusMeanOfNeighbours) {
  torch::manual_seed(1);
  ModelShape shape{ModelKind::sage, 3, 5, 2, 1, 0.0};
  auto model = make_model(shape);
  model->eval();
  const CsrMatrix m = small_layer();
  const torch::Tensor x = torch::randn({4, 3});
  const torch::Tensor got = model->forward({{to_sparse_tensor(m, torch::kCPU), 2}}, x);
  const torch::Tensor expected = x.narrow(0, 0, 2).matmul(parameter(*model, "root0.weight").t()) +
                                 parameter(*model, "root0.bias") +
                                 dense_of(m).matmul(x).matmul(parameter(*model, "neigh0.weight").t());
  EXPECT_TRUE(torch::allclose(got, expected, 1e-5, 1e-6));
}

TEST(TrainModels, GcnIsAggregationOfTransformedFeaturesPlusBias) {
  torch::manual_seed(2);
  ModelShape shape{ModelKind::gcn, 3, 5, 2, 2, 0.0};
  auto model = make_model(shape);
  model->eval();
  const CsrMatrix inner = csr_from_triples(4, 4, {0, 1, 2, 3, 3}, {0, 1, 2, 3, 0}, {1, 1, 1, 0.5f, 0.5f});
  const CsrMatrix outer = small_layer();
  const torch::Tensor x = torch::randn({4, 3});
  const torch::Tensor got =
      model->forward({{to_sparse_tensor(inner, torch::kCPU), 4}, {to_sparse_tensor(outer, torch::kCPU), 2}}, x);
  torch::Tensor h = torch::relu(dense_of(inner).matmul(x.matmul(parameter(*model, "weight0.weight").t())) +
                                parameter(*model, "bias0"));
  h = dense_of(outer).matmul(h.matmul(parameter(*model, "weight1.weight").t())) + parameter(*model, "bias1");
  EXPECT_TRUE(torch::allclose(got, h, 1e-5, 1e-6));
}

TEST(TrainModels, SparseInputRowsGiveWhatDenseRowsGive) {
  const CsrMatrix inner = csr_from_triples(4, 4, {0, 1, 2, 3, 3}, {0, 1, 2, 3, 0}, {1, 1, 1, 0.5f, 0.5f});
  const std::vector<Block> blocks{{to_sparse_tensor(inner, torch::kCPU), 4},
                                  {to_sparse_tensor(small_layer(), torch::kCPU), 2}};
  const CsrMatrix x = csr_from_triples(4, 6, {0, 0, 2, 3}, {1, 5, 0, 3}, {0.5f, 0.5f, 1, 1});
  for (ModelKind kind : {ModelKind::sage, ModelKind::gcn}) {
    torch::manual_seed(4);
    auto model = make_model({kind, 6, 5, 3, 2, 0.5});
    model->eval();
    const torch::Tensor from_dense = model->forward(blocks, dense_of(x));
    const torch::Tensor from_sparse = model->forward(blocks, to_sparse_tensor(x, torch::kCPU));
    EXPECT_TRUE(torch::allclose(from_dense, from_sparse, 1e-5, 1e-6)) << model_kind_name(kind);
  }
}

TEST(TrainModels, GradientsFlowThroughTheSparseProduct) {
  torch::manual_seed(3);
  auto model = make_model({ModelKind::sage, 3, 4, 2, 1, 0.0});
  const torch::Tensor x = torch::randn({4, 3});
  model->forward({{to_sparse_tensor(small_layer(), torch::kCPU), 2}}, x).sum().backward();
  EXPECT_GT(parameter(*model, "neigh0.weight").grad().abs().sum().item<float>(), 0);
}

TEST(TrainModels, LayersThatDoNotChainAreAnError) {
  auto model = make_model({ModelKind::sage, 3, 4, 2, 2, 0.0});
  const torch::Tensor layer = to_sparse_tensor(small_layer(), torch::kCPU);
  EXPECT_THROW(model->forward({{layer, 2}}, torch::randn({4, 3})), Error);              // one layer of two
  EXPECT_THROW(model->forward({{layer, 2}, {layer, 2}}, torch::randn({4, 3})), Error);  // 2 rows feed 4 columns
  EXPECT_THROW(make_model({ModelKind::gcn, 3, 4, 2, 0, 0.0}), Error);
}

}  // namespace
}  // namespace matsamp
