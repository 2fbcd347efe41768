// Rows asked of the ranks that own them: the request and reply of a process column
// whose rank q holds block row q (the feature fetch, the degrees of Â's columns).
#pragma once
#include <cstdint>
#include <numeric>
#include <vector>

#include "communicator.h"
#include "core/row_blocks.h"

namespace matsamp {

// Collective over `column`. `wanted` are ascending, unique row ids (so grouped by
// owner); each owner answers answer(id, out), writing `width` values of row `id`
// of its block to out. Returns the rows in the order of `wanted` (width values each):
// one all-to-all of counts, one of ids, one of the answers.
template <class Value, class Id, class Answer>
std::vector<Value> ask_owners(Communicator& column, const RowBlocks& blocks, const std::vector<Id>& wanted,
                              int64_t width, Answer&& answer) {
  const int ranks = column.size();
  const std::vector<int64_t> ones(ranks, 1);
  std::vector<int64_t> counts(ranks, 0), asked_counts(ranks);
  for (Id v : wanted) ++counts[blocks.owner(v)];
  column.all_to_allv(counts.data(), ones, asked_counts.data(), ones, DataType::int64);
  std::vector<Id> asked(std::accumulate(asked_counts.begin(), asked_counts.end(), int64_t{0}));
  column.all_to_allv(wanted.data(), counts, asked.data(), asked_counts, data_type_of<Id>());
  std::vector<Value> answers(asked.size() * width);
  for (size_t i = 0; i < asked.size(); ++i) answer(asked[i], answers.data() + i * width);
  std::vector<int64_t> values_out(ranks), values_in(ranks);
  for (int q = 0; q < ranks; ++q) {
    values_out[q] = asked_counts[q] * width;
    values_in[q] = counts[q] * width;
  }
  std::vector<Value> fetched(wanted.size() * width);
  column.all_to_allv(answers.data(), values_out, fetched.data(), values_in, data_type_of<Value>());
  return fetched;
}

}  // namespace matsamp
