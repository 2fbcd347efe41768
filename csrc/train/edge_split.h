// Train / validation / test edges for link prediction, in the manner of PyG's
// RandomLinkSplit: a seeded random split of the graph's edges (each undirected
// edge once when the graph is symmetric), the message-passing graph built from
// the training edges only, and fixed negatives for validation and test. A
// dataset's own split (OGB's) is read by train/ogb_link_split.h.
#pragma once
#include <cstdint>
#include <vector>

#include "core/csr.h"

namespace matsamp {

struct EdgeSet {
  std::vector<vid_t> sources, destinations;
  int64_t size() const { return static_cast<int64_t>(sources.size()); }
};

struct EdgeSplitOptions {
  double validation_fraction = 0.05;
  double test_fraction = 0.10;  // the rest trains
  uint64_t seed = 0;
  int64_t evaluation_negatives = 100;  // per validation / test positive, not edges of the graph
};

struct EdgeSplit {
  CsrMatrix train_graph;  // the graph's training edges only (both ways when it is symmetric)
  bool undirected = false;
  EdgeSet train, validation, test;  // positives (one direction per undirected edge)
  // What validation and test positives are scored against. evaluation_negatives
  // k > 0: negatives [i·k, (i+1)·k) share positive i's source (ranks per source,
  // MRR; as ogbl-citation2); 0: one pool that every positive is ranked against
  // (AUC, Hits@K; as ogbl-collab's edge_neg).
  EdgeSet validation_negatives, test_negatives;
  int64_t evaluation_negatives = 0;
  // A split by time: each training positive's time and each train_graph entry's
  // (what sampling by time orders it by); empty for a random split.
  std::vector<int64_t> train_times, train_graph_times;
};

// Throws a one-line error for fractions outside [0, 1) or summing to 1 or more,
// a graph without edges, or a split that leaves a set empty.
EdgeSplit split_edges(const CsrMatrix& adj, const EdgeSplitOptions& options);

// A split by time, as temporal link benchmarks take it: the edges (entry_times:
// one per entry of adj; an undirected edge's is that of its entry in the smaller
// vertex's row) earlier than t1 train and form the training graph, those from t1
// to before t2 validate, the rest test; each set in time order. The options'
// fractions are not used. One-line errors for times of the wrong length, t1 > t2
// and no edges to train or validate on.
EdgeSplit split_edges_by_time(const CsrMatrix& adj, const std::vector<int64_t>& entry_times, int64_t t1, int64_t t2,
                              const EdgeSplitOptions& options);

}  // namespace matsamp
