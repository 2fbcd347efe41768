// What a sampler runs with (in the manner of cuGraph's handle): the backend of
// its ops, the seed of every random key, where step times and traffic go when
// they are measured, and the communicator of a distributed run.
#pragma once
#include <chrono>
#include <cstdint>
#include <type_traits>

#include "backend/backend.h"

namespace matsamp {

class Communicator;  // distributed/communicator.h

// Wall time of the three steps of every layer, summed over calls, and the
// memory traffic no implementation can avoid (for the floor: gathers at the
// measured random-gather rate plus streamed bytes at the copy bandwidth).
struct StepStats {
  double probability = 0;      // P = Q·A and its normalization
  double sampling = 0;         // its_sample
  double extraction = 0;       // row/column extraction and relabelling
  int64_t gathers = 0;         // random reads of single elements
  int64_t streamed_bytes = 0;  // bytes read in contiguous runs
  // The backend's transfers and synchronizations between the start of a bulk's
  // steps (its seeds already uploaded) and its result, and how many of those
  // synchronizations the step timer itself made.
  TransferCounts transfers;
  int64_t timer_syncs = 0;
  double total() const { return probability + sampling + extraction; }
};

struct Context {
  Backend& backend;
  uint64_t seed = 0;
  StepStats* stats = nullptr;            // null: nothing is measured
  Communicator* communicator = nullptr;  // distributed runs only
  // Keep each sampled entry's position in the graph's adjacency in the layer
  // (Layer::positions) where the draw knows it (the engine's edge ids).
  bool record_positions = false;

  // fn(), its wall time (the backend's queued work included) added to the step
  // when measured.
  template <class Fn>
  auto timed(double StepStats::*step, Fn&& fn) -> decltype(fn()) {
    if (!stats) return fn();
    const auto start = std::chrono::steady_clock::now();
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      add_time_since(step, start);
    } else {
      auto result = fn();
      add_time_since(step, start);
      return result;
    }
  }
  void add_time_since(double StepStats::*step, std::chrono::steady_clock::time_point start) {
    backend.synchronize();
    ++stats->timer_syncs;
    stats->*step += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  void count_streamed(int64_t bytes) {
    if (stats) stats->streamed_bytes += bytes;
  }
};

}  // namespace matsamp
