// DGS's explanation: the explanation graph of a partition, and the masks learned
// on it pointing at the remote vertex and the feature dimension the model's
// prediction rests on.
#include <gtest/gtest.h>

#include <algorithm>

#include "train/explainer.h"
#include "train/online_explanation.h"

#include "error_checks.h"

namespace matsamp {
namespace {

TEST(ExplanationGraph, JoinsThePartitionToEachRemoteNeighbourOnce) {
  // Rows of vertices 2 and 3 of a 7-vertex graph: neighbours 0, 3, 6 and 2, 6, 5.
  CsrMatrix rows(2, 7);
  rows.rowptr = {0, 3, 6};
  rows.colidx = {0, 3, 6, 2, 5, 6};
  const ExplanationGraph g = explanation_graph(rows, 2);
  EXPECT_EQ(g.first, 2);
  EXPECT_EQ(g.end, 4);
  EXPECT_EQ(g.remote, (std::vector<vid_t>{0, 5, 6}));
}

// A one-layer GCN whose class 1 logit is 5 × the aggregated feature 0: only remote
// vertex 0 carries that feature, so the masks keep it and dimension 0, and let
// the rest go. With 4 feature dimensions the masked input is dense; with 40 (mostly
// zeros, as bag-of-words features are) it is sparse, with a gradient per nonzero.
class ExplainPartitionMasks : public ::testing::TestWithParam<int64_t> {};

TEST_P(ExplainPartitionMasks, MasksPointAtWhatThePredictionRestsOn) {
  const int64_t f = GetParam();
  ModelShape shape;
  shape.kind = ModelKind::gcn;
  shape.input_dim = f;
  shape.num_classes = 2;
  shape.num_layers = 1;
  const std::shared_ptr<GnnModel> model = make_model(shape);
  {
    torch::NoGradGuard no_grad;
    for (torch::Tensor& p : model->parameters()) p.zero_();
    model->named_parameters()["weight0.weight"][1][0].fill_(5.0);
  }
  model->train();
  const std::vector<torch::Tensor> before = [&] {
    std::vector<torch::Tensor> copies;
    for (const torch::Tensor& p : model->parameters()) copies.push_back(p.detach().clone());
    return copies;
  }();
  const ExplanationGraph g{0, 3, {7, 8, 9}};
  const torch::Tensor local = torch::zeros({3, f});
  torch::Tensor remote = torch::zeros({3, f});
  remote[0][0] = 1.0f;
  remote[1][2] = 1.0f;
  remote[2][1] = 1.0f;
  ExplainerOptions options;
  options.steps = 300;
  options.seed = 4;
  options.node_size = 0.05;    // the size term, not the entropy term, lets unused remote vertices go
  options.node_entropy = 0.0;  // (entropy alone pushes each mask to the side it starts on)
  const ExplanationMasks masks = explain_partition(*model, g, local, remote, options);
  ASSERT_EQ(masks.remote.size(), 3u);
  ASSERT_EQ(masks.features.size(), static_cast<size_t>(f));
  EXPECT_GT(masks.remote[0], std::max(masks.remote[1], masks.remote[2]));
  EXPECT_GT(masks.features[0], *std::max_element(masks.features.begin() + 1, masks.features.end()));
  for (float m : masks.remote) EXPECT_TRUE(m > 0 && m < 1) << m;

  // Only the masks learned: the model, its mode and its gradients are as they were.
  EXPECT_TRUE(model->is_training());
  const std::vector<torch::Tensor> after = model->parameters();
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_TRUE(torch::equal(before[i], after[i]));
    EXPECT_FALSE(after[i].grad().defined());
  }
  const ExplanationMasks again = explain_partition(*model, g, local, remote, options);  // seeded
  EXPECT_EQ(again.remote, masks.remote);
  EXPECT_EQ(again.features, masks.features);
}

INSTANTIATE_TEST_SUITE_P(DenseAndSparseInput, ExplainPartitionMasks, ::testing::Values(4, 40));

// The sparse input's path through a layer (a gradient for each stored value)
// computes what the dense input's does.
TEST(SparseInput, LayerAndGradientsEqualTheDenseInputs) {
  ModelShape shape;
  shape.input_dim = 6;
  shape.hidden_dim = 5;
  shape.num_classes = 3;
  shape.num_layers = 1;
  torch::manual_seed(3);
  const std::shared_ptr<GnnModel> model = make_model(shape);
  model->eval();
  const torch::Tensor x = torch::rand({4, 6}) * torch::rand({4, 6}).gt(0.6);
  const torch::Tensor adj = torch::rand({2, 4}).to_sparse();
  const std::vector<Block> blocks{{adj, 2}};
  const torch::Tensor dense = x.clone().set_requires_grad(true);
  model->forward(blocks, dense).pow(2).sum().backward();
  const torch::Tensor at = x.ne(0).nonzero().t().contiguous();
  const torch::Tensor values = x.index({x.ne(0)}).set_requires_grad(true);
  const torch::Tensor sparse = at::sparse_coo_tensor(at, values, x.sizes());
  const torch::Tensor got = model->forward(blocks, sparse);
  EXPECT_TRUE(torch::allclose(got, model->forward(blocks, x), 1e-5, 1e-6));
  got.pow(2).sum().backward();
  EXPECT_TRUE(torch::allclose(values.grad(), dense.grad().index({x.ne(0)}), 1e-5, 1e-6));
}

TEST(GuidanceOptions, OptionsThatCannotWorkAreErrors) {
  GuidanceOptions o;
  check_guidance_options(o);  // none asked: nothing to check
  o.every = -1;
  testing::expect_error([&] { check_guidance_options(o); }, "explanations every -1 steps");
  o.every = 0;
  o.remote_feature_fraction = 0.5;
  testing::expect_error([&] { check_guidance_options(o); }, "(--explain-every T)");
  o.every = 4;
  o.remote_feature_fraction = 1.5;
  testing::expect_error([&] { check_guidance_options(o); }, "remote feature fraction must be in (0, 1], got 1.5");
  o.remote_feature_fraction = 0.5;
  o.importance_floor = 0;
  testing::expect_error([&] { check_guidance_options(o); }, "importance floor must be in (0, 1], got 0");
  o.importance_floor = 0.2;
  o.explainer_steps = 0;
  testing::expect_error([&] { check_guidance_options(o); }, "explainer steps must be positive, got 0");
}

TEST(TopDimensions, KeepsTheLargestMaskValuesInAscendingOrder) {
  const std::vector<double> mask{0.1, 0.9, 0.5, 0.9, 0.2};
  EXPECT_EQ(top_dimensions(mask, 0.4), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(top_dimensions(mask, 0.5), (std::vector<int64_t>{1, 2, 3}));          // ceil(2.5)
  EXPECT_EQ(top_dimensions({0.3, 0.3, 0.3}, 0.5), (std::vector<int64_t>{0, 1}));  // ties: lower first
  EXPECT_EQ(top_dimensions(mask, 1.0), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_THROW(top_dimensions(mask, 0.0), Error);
  EXPECT_THROW(top_dimensions(mask, 1.5), Error);
}

TEST(RemoteImportance, StretchesTheMaskOntoFloorToOne) {
  const ExplanationGraph g{0, 2, {4, 7, 9}};
  const ColumnImportance importance = remote_importance(g, {0.6f, 0.8f, 0.7f}, 0.1);
  EXPECT_FLOAT_EQ(importance.of(4), 0.1f);
  EXPECT_FLOAT_EQ(importance.of(7), 1.0f);
  EXPECT_FLOAT_EQ(importance.of(9), 0.55f);
  EXPECT_FLOAT_EQ(importance.of(1), 1.0f);  // the partition's own
  EXPECT_FLOAT_EQ(importance.of(8), 0.1f);  // remote, beyond its neighbours
  const ColumnImportance flat = remote_importance(g, {0.7f, 0.7f, 0.7f}, 0.1);
  EXPECT_FLOAT_EQ(flat.of(4), 1.0f);  // no contrast: nothing to prefer among the neighbours
  EXPECT_THROW(remote_importance(g, {0.5f}, 0.1), Error);
  EXPECT_THROW(remote_importance(g, {0.5f, 0.5f, 0.5f}, 0.0), Error);
}

// The learner explains the snapshot taken at start(), whatever the model does
// meanwhile, and gives the masks explain_partition gives for those parameters.
TEST(OnlineExplanation, ExplainsTheSnapshotOnItsOwnThread) {
  ModelShape shape;
  shape.input_dim = 3;
  shape.hidden_dim = 8;
  shape.num_classes = 2;
  torch::manual_seed(1);
  const std::shared_ptr<GnnModel> model = make_model(shape);
  const ExplanationGraph g{0, 2, {5, 6}};
  const torch::Tensor local = torch::rand({2, 3}), remote = torch::rand({2, 3});
  ExplainerOptions options;
  options.steps = 20;
  options.seed = 7;
  OnlineExplanation online(g, local, remote, shape, options);
  EXPECT_FALSE(online.running());
  EXPECT_THROW(online.finish(), Error);

  const std::shared_ptr<GnnModel> copy = make_model(shape);
  {
    torch::NoGradGuard no_grad;
    const std::vector<torch::Tensor> from = model->parameters(), to = copy->parameters();
    for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
  }
  online.start(*model);
  EXPECT_TRUE(online.running());
  EXPECT_THROW(online.start(*model), Error);
  {
    torch::NoGradGuard no_grad;
    for (torch::Tensor& p : model->parameters()) p.fill_(0.5);  // training moves on
  }
  const ExplanationMasks got = online.finish();
  EXPECT_FALSE(online.running());
  const ExplanationMasks expected = explain_partition(*copy, g, local, remote, options);
  EXPECT_EQ(got.remote, expected.remote);
  EXPECT_EQ(got.features, expected.features);

  online.start(*model);  // the second explanation is seeded seed + 1
  options.seed = 8;
  const ExplanationMasks second = online.finish();
  EXPECT_EQ(second.remote, explain_partition(*model, g, local, remote, options).remote);
}

TEST(ExplainPartition, TwoLayerSageRunsOnTheStarAndBadInputIsAnError) {
  ModelShape shape;
  shape.input_dim = 3;
  shape.hidden_dim = 8;
  shape.num_classes = 2;
  const std::shared_ptr<GnnModel> model = make_model(shape);
  const ExplanationGraph g{0, 2, {5, 6}};
  ExplainerOptions options;
  options.steps = 5;
  const ExplanationMasks masks = explain_partition(*model, g, torch::rand({2, 3}), torch::rand({2, 3}), options);
  EXPECT_EQ(masks.remote.size(), 2u);
  EXPECT_EQ(masks.features.size(), 3u);
  testing::expect_error(
      [&] {
        explain_partition(*model, g, torch::rand({2, 3}), torch::rand({3, 3}), options);
      },
      "3 remote feature rows of 3 for 2 remote vertices of 3");
  testing::expect_error(
      [&] {
        explain_partition(*model, g, torch::rand({0, 3}), torch::rand({2, 3}), options);
      },
      "no local feature rows");
  testing::expect_error(
      [&] {
        OnlineExplanation(g, torch::rand({2, 3}), torch::rand({3, 3}), shape, options);
      },
      "3 remote feature rows for 2 remote vertices");
}

}  // namespace
}  // namespace matsamp
