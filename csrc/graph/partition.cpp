#include "graph/partition.h"

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

std::vector<int32_t> partition_kway(const CsrMatrix& adj, int parts, uint64_t seed) {
  MATSAMP_CHECK(adj.rows == adj.cols, "partition: the adjacency must be square, got ", adj.rows, " x ", adj.cols);
  MATSAMP_CHECK(adj.rows > 0, "partition: the graph has no vertices");
  MATSAMP_CHECK(parts >= 1 && parts <= adj.rows, "partition: ", parts, " parts for ", adj.rows,
                " vertices; need 1 <= parts <= vertices");
  if (parts == 1) return std::vector<int32_t>(adj.rows, 0);
#ifndef MATSAMP_HAVE_METIS
  (void)seed;
  throw Error("partition: this build has no METIS (install libmetis-dev and rebuild matsamp)");
#else
  const CsrMatrix g = drop_self_loops(symmetrize(adj));
  const RowBlocks blocks{g.rows, parts};
  std::vector<int32_t> out(g.rows);
  if (g.nnz() == 0) {  // nothing to cut: METIS has no work, equal blocks are optimal
    for (int64_t v = 0; v < g.rows; ++v) out[v] = blocks.owner(v);
    return out;
  }
  MATSAMP_CHECK(g.nnz() < std::numeric_limits<idx_t>::max(), "partition: ", g.nnz(),
                " nonzeros in A + Aᵀ exceed METIS's 32-bit index range");
  std::vector<idx_t> xadj(g.rowptr.begin(), g.rowptr.end()), adjncy(g.colidx.begin(), g.colidx.end());
  std::vector<idx_t> part(g.rows);
  idx_t n = static_cast<idx_t>(g.rows), constraints = 1, nparts = parts, cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7fffffff);
  options[METIS_OPTION_UFACTOR] = 10;  // 1% imbalance keeps parts close to equal row blocks
  const int status = METIS_PartGraphKway(&n, &constraints, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr,
                                         &nparts, nullptr, nullptr, options, &cut, part.data());
  MATSAMP_CHECK(status == METIS_OK, "partition: METIS_PartGraphKway failed (",
                status == METIS_ERROR_MEMORY ? "out of memory" : "error code " + std::to_string(status), ")");
  for (int64_t v = 0; v < g.rows; ++v) out[v] = static_cast<int32_t>(part[v]);
  return out;
#endif
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
