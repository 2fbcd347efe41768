// Link prediction's scores as OGB's evaluator defines them (ogb/linkproppred):
// ROC-AUC over positive and negative scores, Hits@K against the K-th best of
// all negatives (ogbl-collab, -ppa, -ddi), and MRR with per-source negatives
// (ogbl-citation2: ties count half).
#pragma once
#include <cstdint>
#include <vector>

namespace matsamp {

// The probability that a random positive scores above a random negative (ties: 1/2).
double roc_auc(const std::vector<float>& positive, const std::vector<float>& negative);

// The share of positives scoring above the K-th highest negative (all of them when K > negatives).
double hits_at_k(const std::vector<float>& positive, const std::vector<float>& negative, int64_t k);

// Per positive i, its rank among its own negatives negative[i·m …) (m = negative / positive):
// 1 + (# scoring higher) + (# tied) / 2.
std::vector<double> ranks_among_own_negatives(const std::vector<float>& positive, const std::vector<float>& negative);
double mean_reciprocal_rank(const std::vector<double>& ranks);
double hits_at_k_per_source(const std::vector<double>& ranks, int64_t k);  // share with rank <= k

}  // namespace matsamp
