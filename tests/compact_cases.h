// Inputs of compact_columns shared by the CPU test and the CUDA-versus-CPU test:
// each case is compacted as compact_columns(s, offsets, leading, offsets).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/error.h"
#include "ops/ops.h"
#include "reference.h"

namespace matsamp::testing {

struct CompactCase {
  CsrMatrix s;
  std::vector<vid_t> leading;
  Offsets offsets;  // the row blocks, and the leading vertices of each
};

// Two minibatches over 10 vertices; rows 0-1 belong to block 0, rows 2-4 to block 1.
inline CompactCase compact_two_minibatches() {
  CompactCase c{CsrMatrix(5, 10), {8, 5, 2, 0, 7}, {0, 2, 5}};
  c.s.rowptr = {0, 2, 3, 5, 5, 7};
  c.s.colidx = {3, 8, 1, 1, 9, 0, 8};
  c.s.values = {1, 2, 3, 4, 5, 6, 7};
  return c;
}

// 60 random rows in four blocks (one empty), leading vertices (37 r) mod 200.
inline CompactCase compact_random() {
  CompactCase c{random_csr(60, 200, 0.05, 17), {}, {0, 13, 13, 40, 60}};
  for (int64_t r = 0; r < 60; ++r) c.leading.push_back((r * 37) % 200);
  return c;
}

// One minibatch whose leading vertex 3 is listed twice (a pattern matrix).
inline CompactCase compact_repeated_leader() {
  CompactCase c{CsrMatrix(2, 5), {3, 3}, {0, 2}};
  c.s.rowptr = {0, 1, 2};
  c.s.colidx = {1, 2};
  return c;
}

// compact() must throw the error that names the repeated leading vertex 3.
inline void expect_repeated_leader_error(const std::function<void()>& compact) {
  try {
    compact();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vertex 3 appears twice"), std::string::npos) << e.what();
  }
}

}  // namespace matsamp::testing
