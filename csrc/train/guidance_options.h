// What DGS's explanation-guided sampling is asked to do (train/online_explanation.h);
// torch-free, for TrainOptions.
#pragma once
#include <cstdint>

namespace matsamp {

// With --sampler dgs and partitioned features, each rank's part is explained every
// `every` steps; the masks steer which remote neighbours are drawn and which
// feature dimensions of remote rows are fetched.
struct GuidanceOptions {
  int64_t every = 0;                     // T: steps between explanations; 0: none
  double remote_feature_fraction = 1.0;  // share of dimensions fetched for remote rows, by the feature mask
  double importance_floor = 0.1;         // least importance a remote neighbour is given
  int64_t explainer_steps = 100;         // GNNExplainer's optimizer steps per explanation
};

// Throws a one-line error for options that cannot work.
void check_guidance_options(const GuidanceOptions& options);

}  // namespace matsamp
