#include "graph/partition.h"

#include <algorithm>
#include <limits>

#include "core/error.h"
#include "core/row_blocks.h"
#include "graph/transform.h"

#ifdef MATSAMP_HAVE_METIS
#include <metis.h>
#endif

namespace matsamp {

bool metis_available() {
#ifdef MATSAMP_HAVE_METIS
  return true;
#else
  return false;
#endif
}

namespace {

// The constraints' weights per vertex, row-major (vertex v: weights[v * ncon ...]):
// 1, then its degree in g (edges), then 1 for each set holding it.
std::vector<int64_t> constraint_weights(const CsrMatrix& g, const PartitionBalance& balance, int* ncon) {
  const int64_t n = g.rows;
  *ncon = 1 + (balance.edges ? 1 : 0) + static_cast<int>(balance.sets.size());
  std::vector<int64_t> w(n * *ncon, 0);
  for (int64_t v = 0; v < n; ++v) {
    w[v * *ncon] = 1;
    if (balance.edges) w[v * *ncon + 1] = g.row_nnz(v);
  }
  int c = balance.edges ? 2 : 1;
  for (const auto& [name, ids] : balance.sets) {
    for (vid_t v : ids) {
      MATSAMP_CHECK(v >= 0 && v < n, "partition: vertex ", v, " of set ", name, " outside [0, ", n, ")");
      w[v * *ncon + c] = 1;
    }
    ++c;
  }
  return w;
}

}  // namespace

std::vector<std::pair<std::string, double>> part_imbalance(const CsrMatrix& adj, const std::vector<int32_t>& part,
                                                           int parts, const PartitionBalance& balance) {
  PartitionBalance all = balance;
  all.edges = true;  // reported always
  int ncon = 0;
  const std::vector<int64_t> w = constraint_weights(drop_self_loops(symmetrize(adj)), all, &ncon);
  std::vector<std::vector<double>> sums(ncon, std::vector<double>(parts, 0));
  for (size_t v = 0; v < part.size(); ++v)
    for (int c = 0; c < ncon; ++c) sums[c][part[v]] += static_cast<double>(w[v * ncon + c]);
  std::vector<std::string> names{"vertices", "edges"};
  for (const auto& set : all.sets) names.push_back(set.first);
  std::vector<std::pair<std::string, double>> out;
  for (int c = 0; c < ncon; ++c) {
    double total = 0, largest = 0;
    for (double x : sums[c]) {
      total += x;
      largest = std::max(largest, x);
    }
    out.emplace_back(names[c], total > 0 ? largest / (total / parts) : 1.0);
  }
  return out;
}

std::vector<int32_t> partition_kway(const CsrMatrix& adj, int parts, uint64_t seed, const PartitionBalance& balance) {
  MATSAMP_CHECK(adj.rows == adj.cols, "partition: the adjacency must be square, got ", adj.rows, " x ", adj.cols);
  MATSAMP_CHECK(adj.rows > 0, "partition: the graph has no vertices");
  MATSAMP_CHECK(parts >= 1 && parts <= adj.rows, "partition: ", parts, " parts for ", adj.rows,
                " vertices; need 1 <= parts <= vertices");
  if (parts == 1) return std::vector<int32_t>(adj.rows, 0);
#ifndef MATSAMP_HAVE_METIS
  (void)seed;
  (void)balance;
  throw Error("partition: this build has no METIS (install libmetis-dev and rebuild matsamp)");
#else
  const CsrMatrix g = drop_self_loops(symmetrize(adj));
  const RowBlocks blocks{g.rows, parts};
  std::vector<int32_t> out(g.rows);
  if (g.nnz() == 0 && balance.empty()) {  // nothing to cut: METIS has no work, equal blocks are optimal
    for (int64_t v = 0; v < g.rows; ++v) out[v] = blocks.owner(v);
    return out;
  }
  MATSAMP_CHECK(g.nnz() < std::numeric_limits<idx_t>::max(), "partition: ", g.nnz(),
                " nonzeros in A + Aᵀ exceed METIS's 32-bit index range");
  std::vector<idx_t> xadj(g.rowptr.begin(), g.rowptr.end()), adjncy(g.colidx.begin(), g.colidx.end());
  std::vector<idx_t> part(g.rows);
  int ncon = 1;
  const std::vector<int64_t> weights = constraint_weights(g, balance, &ncon);
  std::vector<idx_t> vwgt(weights.begin(), weights.end());
  std::vector<real_t> tolerance(ncon, static_cast<real_t>(1.05));  // several constraints need some room
  idx_t n = static_cast<idx_t>(g.rows), constraints = ncon, nparts = parts, cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7fffffff);
  if (ncon == 1) options[METIS_OPTION_UFACTOR] = 10;  // 1% imbalance keeps parts close to equal row blocks
  const int status = METIS_PartGraphKway(&n, &constraints, xadj.data(), adjncy.data(),
                                         ncon == 1 ? nullptr : vwgt.data(), nullptr, nullptr, &nparts, nullptr,
                                         ncon == 1 ? nullptr : tolerance.data(), options, &cut, part.data());
  MATSAMP_CHECK(status == METIS_OK, "partition: METIS_PartGraphKway failed (",
                status == METIS_ERROR_MEMORY ? "out of memory" : "error code " + std::to_string(status), ")");
  for (int64_t v = 0; v < g.rows; ++v) out[v] = static_cast<int32_t>(part[v]);
  return out;
#endif
}

std::vector<int32_t> partition_two_level(const CsrMatrix& adj, int machines, int devices, uint64_t seed,
                                         const PartitionBalance& balance) {
  MATSAMP_CHECK(machines >= 1 && devices >= 1, "partition: ", machines, " machines x ", devices,
                " devices; need at least 1 of each");
  const std::vector<int32_t> machine = partition_kway(adj, machines, seed, balance);
  Graph whole;  // the adjacency and the balanced sets, for induced_subgraph to cut out and renumber
  whole.adj = adj;
  for (const auto& [name, ids] : balance.sets) whole.splits[name] = ids;
  const std::vector<vid_t> order = order_by_part(machine, machines);  // machine by machine
  std::vector<int64_t> start(machines + 1, 0);
  for (int32_t m : machine) ++start[m + 1];
  for (int m = 0; m < machines; ++m) start[m + 1] += start[m];
  std::vector<int32_t> out(adj.rows);
  for (int m = 0; m < machines; ++m) {
    const std::vector<vid_t> members(order.begin() + start[m], order.begin() + start[m + 1]);
    MATSAMP_CHECK(static_cast<int64_t>(members.size()) >= devices, "partition: machine part ", m, " has ",
                  members.size(), " vertices, fewer than its ", devices, " devices");
    const Graph mine = induced_subgraph(whole, members);
    PartitionBalance within{balance.edges, {}};
    for (const auto& [name, ids] : balance.sets) within.sets.emplace_back(name, mine.splits.at(name));
    const std::vector<int32_t> device = partition_kway(mine.adj, devices, seed, within);
    for (size_t i = 0; i < members.size(); ++i) out[members[i]] = m * devices + device[i];
  }
  return out;
}

std::vector<vid_t> order_by_part(const std::vector<int32_t>& part, int parts) {
  std::vector<int64_t> start(parts + 1, 0);
  for (size_t v = 0; v < part.size(); ++v) {
    MATSAMP_CHECK(part[v] >= 0 && part[v] < parts, "order_by_part: vertex ", v, " has part ", part[v], " outside [0, ",
                  parts, ")");
    ++start[part[v] + 1];
  }
  for (int p = 0; p < parts; ++p) start[p + 1] += start[p];
  std::vector<vid_t> order(part.size());
  for (size_t v = 0; v < part.size(); ++v) order[start[part[v]]++] = static_cast<vid_t>(v);
  return order;
}

namespace {
template <class Group>
int64_t count_cut(const CsrMatrix& adj, Group group) {
  int64_t cut = 0;
#pragma omp parallel for schedule(static) reduction(+ : cut)
  for (int64_t u = 0; u < adj.rows; ++u)
    for (int64_t e = adj.rowptr[u]; e < adj.rowptr[u + 1]; ++e) cut += group(adj.colidx[e]) != group(u);
  return cut;
}
}  // namespace

int64_t cut_nonzeros(const CsrMatrix& adj, const std::vector<int32_t>& part) {
  MATSAMP_CHECK(static_cast<int64_t>(part.size()) == adj.rows && adj.rows == adj.cols, "cut_nonzeros: ", part.size(),
                " parts for a ", adj.rows, " x ", adj.cols, " matrix");
  return count_cut(adj, [&](int64_t v) { return part[v]; });
}

int64_t cut_nonzeros(const CsrMatrix& adj, int blocks) {
  MATSAMP_CHECK(blocks >= 1 && blocks <= std::max<int64_t>(1, adj.rows) && adj.rows == adj.cols,
                "cut_nonzeros: ", blocks, " blocks for a ", adj.rows, " x ", adj.cols, " matrix");
  const RowBlocks rows{adj.rows, blocks};
  return count_cut(adj, [&](int64_t v) { return rows.owner(v); });
}

}  // namespace matsamp
