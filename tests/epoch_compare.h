// Sampling whole epochs and comparing them minibatch by minibatch: the
// determinism promise (any k, threads, backend) is tested with these.
#pragma once
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "sampling/epoch.h"
#include "sampling/sample.h"
#include "test_sampler.h"

namespace matsamp::testing {

// Vertices 0 … n-1.
inline std::vector<vid_t> all_vertices(int64_t n) {
  std::vector<vid_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  return all;
}

// Every minibatch of epoch `epoch` over vertices 0 … n-1, sampled k at a time.
inline std::vector<Minibatch> sample_epoch(const TestSampler& sampler, Backend& backend, int64_t n, int64_t batch,
                                           int64_t k, uint64_t seed = 42, uint32_t epoch_number = 3) {
  return collect_minibatches(sampler, backend, all_vertices(n), {batch, k, int64_t{1} << 30, seed, epoch_number});
}

inline void expect_identical(const std::vector<Minibatch>& a, const std::vector<Minibatch>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].id, b[i].id) << what;
    ASSERT_EQ(a[i].seeds, b[i].seeds) << what << " minibatch " << i;
    ASSERT_EQ(a[i].layers.size(), b[i].layers.size());
    for (size_t l = 0; l < a[i].layers.size(); ++l) {
      ASSERT_EQ(a[i].layers[l].vertices, b[i].layers[l].vertices) << what << " mb " << i << " layer " << l;
      ASSERT_TRUE(a[i].layers[l].adj == b[i].layers[l].adj) << what << " mb " << i << " layer " << l;
    }
  }
}

}  // namespace matsamp::testing
