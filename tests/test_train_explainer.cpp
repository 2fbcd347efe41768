// DGS's explanation: the explanation graph of a partition, and the masks learned
// on it pointing at the remote vertex and the feature dimension the model's
// prediction rests on.
#include <gtest/gtest.h>

#include <algorithm>

#include "train/explainer.h"

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
// the rest go.
TEST(ExplainPartition, MasksPointAtWhatThePredictionRestsOn) {
  ModelShape shape;
  shape.kind = ModelKind::gcn;
  shape.input_dim = 4;
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
  const torch::Tensor local = torch::zeros({3, 4});
  const torch::Tensor remote =
      torch::tensor({1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f}).view({3, 4});
  ExplainerOptions options;
  options.steps = 300;
  options.seed = 4;
  options.node_size = 0.05;    // the size term, not the entropy term, lets unused remote vertices go
  options.node_entropy = 0.0;  // (entropy alone pushes each mask to the side it starts on)
  const ExplanationMasks masks = explain_partition(*model, g, local, remote, options);
  ASSERT_EQ(masks.remote.size(), 3u);
  ASSERT_EQ(masks.features.size(), 4u);
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
  EXPECT_THROW(explain_partition(*model, g, torch::rand({2, 3}), torch::rand({3, 3}), options), Error);
  EXPECT_THROW(explain_partition(*model, g, torch::rand({0, 3}), torch::rand({2, 3}), options), Error);
}

}  // namespace
}  // namespace matsamp
