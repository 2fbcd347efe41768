// Vertex -> local id of one minibatch at a time, for the column relabelling.
// DenseVertexIndex is an array over all n vertices (O(1) lookups, 4n bytes per
// thread): right when a call touches a good share of the graph. HashVertexIndex
// is an open-addressing table sized by the minibatch: right when n is much
// larger than the work (a rank of a partitioned graph with 10^8 vertices).
// Both hand back new vertices in ascending order, so the result is the same.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/csr.h"
#include "ops/sort_marked.h"

namespace matsamp {

constexpr col_t kUnseenVertex = -1;

class DenseVertexIndex {
 public:
  explicit DenseVertexIndex(int64_t n) : ids_(n, kUnseenVertex), marks_((n + 63) / 64, 0) {}
  void start(size_t /*expected*/) {}
  col_t find(col_t v) const { return ids_[v]; }
  void put(col_t v, col_t id) { ids_[v] = id; }
  void mark_new(col_t v) { marks_[v >> 6] |= uint64_t{1} << (v & 63); }
  // list[lead, end) (the marked new vertices) in ascending order.
  void sort_new(std::vector<vid_t>& list, size_t lead) { sort_marked(list, lead, marks_.data(), marks_.size()); }
  void clear(const std::vector<vid_t>& list) {
    for (vid_t v : list) ids_[v] = kUnseenVertex;
  }

 private:
  std::vector<col_t> ids_;
  std::vector<uint64_t> marks_;
};

class HashVertexIndex {
 public:
  // A table for about `expected` vertices (at most half full), emptied.
  void start(size_t expected) {
    size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    if (slots_.size() < capacity) slots_.assign(capacity, {kUnseenVertex, 0});
    mask_ = capacity - 1;
  }
  col_t find(col_t v) const {
    for (size_t at = hash(v);; at = (at + 1) & mask_) {
      if (slots_[at].vertex == v) return slots_[at].id;
      if (slots_[at].vertex == kUnseenVertex) return kUnseenVertex;
    }
  }
  void put(col_t v, col_t id) {
    size_t at = hash(v);
    while (slots_[at].vertex != v && slots_[at].vertex != kUnseenVertex) at = (at + 1) & mask_;
    if (slots_[at].vertex == kUnseenVertex) used_.push_back(at);
    slots_[at] = {v, id};
  }
  void mark_new(col_t) {}
  void sort_new(std::vector<vid_t>& list, size_t lead) { std::sort(list.begin() + lead, list.end()); }
  void clear(const std::vector<vid_t>& /*list*/) {
    for (size_t at : used_) slots_[at].vertex = kUnseenVertex;
    used_.clear();
  }

 private:
  struct Slot {
    col_t vertex, id;
  };
  size_t hash(col_t v) const {
    return (static_cast<uint64_t>(static_cast<uint32_t>(v)) * 0x9E3779B97F4A7C15ull) >> 32 & mask_;
  }
  std::vector<Slot> slots_;
  std::vector<size_t> used_;  // the slots filled since start()
  size_t mask_ = 0;
};

}  // namespace matsamp
