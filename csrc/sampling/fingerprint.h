// A hash of sampled minibatches that does not depend on how they were stacked:
// equal fingerprints mean (with overwhelming probability) equal minibatches.
#pragma once
#include <cstdint>

#include "sampling/hetero_sample.h"
#include "sampling/sample.h"

namespace matsamp {

class Fingerprint {
 public:
  void add(const BulkSample& bulk);  // minibatches in order of their ids
  void add(const Minibatch& mb);
  // Per minibatch: its seeds, then per layer each type's vertices and each
  // relation's rows with columns local to the minibatch: the same for any bulk size.
  void add(const HeteroBulkSample& bulk);
  void add(const HeteroBulkSample& bulk, int64_t g);  // minibatch g only
  uint64_t value() const { return hash_; }

 private:
  void mix(uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull; }
  uint64_t hash_ = 0xCBF29CE484222325ull;
};

}  // namespace matsamp
