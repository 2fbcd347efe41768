#include "sampling/sample.h"

namespace matsamp {

BlockedIds added_vertices(Backend& backend, const BlockedIds& frontier, const Offsets& expanded) {
  MATSAMP_CHECK(expanded.size() == frontier.offsets.size(), "added_vertices: ", expanded.size() - 1,
                " expanded blocks for ", frontier.blocks(), " frontier blocks");
  std::vector<int64_t> starts;
  Offsets offsets{0};
  for (int64_t g = 0; g < frontier.blocks(); ++g) {
    const int64_t start = frontier.offsets[g] + expanded[g + 1] - expanded[g];
    MATSAMP_CHECK(start <= frontier.offsets[g + 1], "added_vertices: block ", g, " expanded ",
                  expanded[g + 1] - expanded[g], " vertices of ", frontier.offsets[g + 1] - frontier.offsets[g]);
    starts.push_back(start);
    offsets.push_back(offsets.back() + frontier.offsets[g + 1] - start);
  }
  return {backend.gather_ids(frontier.ids, backend.sequence_runs(starts, offsets)), std::move(offsets)};
}

int64_t Bulk::sampled_edges() const {
  int64_t edges = 0;
  for (const Layer& layer : layers) edges += layer.adj.nnz();
  return edges;
}

int64_t BulkSample::sampled_edges() const {
  int64_t edges = 0;
  for (const SampledLayer& layer : layers) edges += layer.adj.nnz();
  return edges;
}

std::vector<Ids> entry_positions(Backend& backend, const Matrix& adjacency, const Ids& seeds, Bulk& bulk) {
  std::vector<Ids> positions;
  const Ids* rows = &seeds;
  for (Layer& layer : bulk.layers) {
    positions.push_back(layer.positions.defined()
                            ? std::move(layer.positions)
                            : backend.entry_positions(adjacency, *rows, layer.adj, layer.vertices.ids));
    rows = &layer.vertices.ids;
  }
  return positions;
}

BulkSample to_host(Backend& backend, Bulk bulk) {
  BulkSample out{bulk.first_minibatch, std::move(bulk.seeds), std::move(bulk.seed_offsets), {}};
  out.layers.reserve(bulk.layers.size());
  for (Layer& layer : bulk.layers)
    out.layers.push_back({backend.to_host(std::move(layer.adj)), std::move(layer.row_offsets),
                          std::move(layer.vertices.offsets), backend.ids_to_host(std::move(layer.vertices.ids))});
  return out;
}

CsrMatrix minibatch_block(const CsrMatrix& a, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  CsrMatrix out(r1 - r0, c1 - c0);
  const int64_t e0 = a.rowptr[r0], e1 = a.rowptr[r1];
  for (int64_t r = r0; r <= r1; ++r) out.rowptr[r - r0] = a.rowptr[r] - e0;
  out.colidx.reserve(e1 - e0);
  for (int64_t e = e0; e < e1; ++e) out.colidx.push_back(static_cast<col_t>(a.colidx[e] - c0));
  out.values.assign(a.values.begin() + e0, a.values.begin() + e1);
  return out;
}

Minibatch extract_minibatch(const BulkSample& bulk, int64_t g) {
  MATSAMP_CHECK(g >= 0 && g < bulk.count(), "extract_minibatch: minibatch ", g, " not in bulk of ", bulk.count());
  Minibatch mb;
  mb.id = bulk.first_minibatch + g;
  mb.seeds.assign(bulk.seeds.begin() + bulk.seed_offsets[g], bulk.seeds.begin() + bulk.seed_offsets[g + 1]);
  for (const SampledLayer& layer : bulk.layers) {
    const int64_t r0 = layer.row_offsets[g], r1 = layer.row_offsets[g + 1];
    const int64_t c0 = layer.col_offsets[g], c1 = layer.col_offsets[g + 1];
    MinibatchLayer out;
    out.vertices.assign(layer.vertices.begin() + c0, layer.vertices.begin() + c1);
    out.adj = minibatch_block(layer.adj, r0, r1, c0, c1);
    mb.layers.push_back(std::move(out));
  }
  return mb;
}

}  // namespace matsamp
