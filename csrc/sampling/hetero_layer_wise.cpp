#include "sampling/hetero_layer_wise.h"

#include "sampling/registry.h"

#include <algorithm>

#include "core/error.h"
#include "sampling/layer_wise.h"

namespace matsamp {

namespace {

// [Â_r1; Â_r2; …] of the given relations, Â_r = D_r^-1 A_r.
CsrMatrix stack_normalized(const HeteroGraph& graph, const std::vector<size_t>& relations, int64_t cols) {
  CsrMatrix b(0, cols);
  for (size_t r : relations) {
    CsrMatrix a = graph.relations[r].adj;
    normalize_rows(a);
    const int64_t base = b.rowptr.back();
    for (int64_t i = 1; i <= a.rows; ++i) b.rowptr.push_back(base + a.rowptr[i]);
    b.colidx.insert(b.colidx.end(), a.colidx.begin(), a.colidx.end());
    b.values.insert(b.values.end(), a.values.begin(), a.values.end());
    b.rows += a.rows;
  }
  return b;
}

// Q_s: row g holds base_r + u for every relation r and every u of F_dst(r) block g.
CsrMatrix budget_rows(int64_t k, int64_t cols, const std::vector<size_t>& relations, const std::vector<int64_t>& base,
                      const std::vector<int>& destination, const std::vector<std::vector<vid_t>>& frontier,
                      const std::vector<Offsets>& offsets) {
  return indicator_rows(k, cols, [&](int64_t g, std::vector<vid_t>& row) {
    for (size_t r : relations) {
      const int d = destination[r];
      for (int64_t i = offsets[d][g]; i < offsets[d][g + 1]; ++i) row.push_back(base[r] + frontier[d][i]);
    }
  });
}

}  // namespace

HeteroLayerWiseSampler::HeteroLayerWiseSampler(const HeteroGraph& graph, std::vector<std::vector<int64_t>> budgets,
                                               const Place& place)
    : graph_(graph), budgets_(std::move(budgets)) {
  validate(graph, "heterogeneous layer-wise sampling");
  const size_t types = graph.types.size();
  MATSAMP_CHECK(budgets_.size() == types, "heterogeneous layer-wise sampling: budgets for ", budgets_.size(),
                " vertex types, the graph has ", types);
  num_layers_ = static_cast<int>(budgets_[0].size());
  MATSAMP_CHECK(num_layers_ > 0, "heterogeneous layer-wise sampling: at least one layer is needed");
  for (size_t t = 0; t < types; ++t) {
    MATSAMP_CHECK(static_cast<int>(budgets_[t].size()) == num_layers_, "heterogeneous layer-wise sampling: type ",
                  graph.types[t].name, " has ", budgets_[t].size(), " budgets, the first one ", num_layers_);
    for (int64_t n : budgets_[t])
      MATSAMP_CHECK(n >= 0, "heterogeneous layer-wise sampling: type ", graph.types[t].name, " has a negative budget ",
                    n);
  }
  from_.resize(types);
  base_.resize(graph.relations.size());
  for (size_t r = 0; r < graph.relations.size(); ++r) {
    source_.push_back(graph.type_index(graph.relations[r].source));
    destination_.push_back(graph.type_index(graph.relations[r].destination));
    std::vector<size_t>& from = from_[source_[r]];
    base_[r] = from.empty() ? 0 : base_[from.back()] + graph.relations[from.back()].adj.rows;
    from.push_back(r);
  }
  stacked_.resize(types);
  for (size_t s = 0; s < types; ++s)
    if (!from_[s].empty()) {
      CsrMatrix b = stack_normalized(graph, from_[s], graph.types[s].count);
      check_column_count(b.rows, "heterogeneous layer-wise sampling: the relations leaving one type");  // Q_s's columns
      stacked_[s] = place(std::move(b));
    }
}

int64_t HeteroLayerWiseSampler::bytes_per_minibatch(int64_t batch_size) const {
  int64_t rows = 0, entries = 0;
  for (const Relation& r : graph_.relations) rows += r.adj.rows, entries += r.adj.nnz();
  const double degree = rows > 0 ? static_cast<double>(entries) / static_cast<double>(rows) : 0;
  double frontier = static_cast<double>(batch_size), bytes = 0;
  for (int l = 0; l < num_layers_; ++l) {
    int64_t drawn = 0;
    for (const std::vector<int64_t>& n : budgets_) drawn += n[l];
    // P's rows and the extracted rows (column + value each), the columns with their weights.
    bytes += 2 * frontier * degree * 8 + 16 * (static_cast<double>(drawn) + frontier);
    frontier += static_cast<double>(drawn);
  }
  return static_cast<int64_t>(bytes);
}

HeteroBulk HeteroLayerWiseSampler::sample(Context& ctx, const HeteroSeeds& seeds, int64_t first_minibatch,
                                          uint32_t epoch) const {
  check_held_by(stacked_, ctx);
  check_hetero_seeds(graph_, seeds);
  Backend& backend = ctx.backend;
  const int types = static_cast<int>(graph_.types.size());
  const int64_t k = seeds.count();
  const Offsets per_minibatch = one_row_per_minibatch(k);

  HeteroBulk bulk{first_minibatch, seeds, source_, {}};
  // The frontier on the host (Q_s and C_s are built here) and in the backend.
  std::vector<std::vector<vid_t>> ids = seeds.ids;
  std::vector<Offsets> offsets = seeds.offsets;
  std::vector<BlockedIds> frontier(types);
  for (int t = 0; t < types; ++t) frontier[t] = BlockedIds{backend.upload_ids(ids[t]), offsets[t]};
  for (int l = 0; l < num_layers_; ++l) {
    HeteroLayer layer;
    layer.adj.resize(source_.size());
    layer.row_offsets.resize(source_.size());
    layer.vertices = frontier;
    std::vector<std::vector<vid_t>> next_ids = ids;
    for (int s = 0; s < types; ++s) {
      std::vector<size_t> sampled;  // relations from s whose destinations have a frontier
      for (size_t r : from_[s])
        if (offsets[destination_[r]].back() > 0) sampled.push_back(r);
      const int64_t n = budgets_[s][l];
      if (n == 0 || sampled.empty()) continue;
      const Matrix& b = stacked_[s];
      const Matrix p = ctx.timed(&StepStats::probability, [&] {
        const CsrMatrix q = budget_rows(k, b.rows(), sampled, base_, destination_, ids, offsets);
        return backend.normalize_rows(backend.spgemm(backend.upload(q), b), RowScale::by_sum_of_squares);
      });
      const SampleKeys keys{part_seed(ctx.seed, s), epoch, static_cast<uint32_t>(l), first_minibatch, per_minibatch};
      const CsrMatrix chosen =
          ctx.timed(&StepStats::sampling, [&] { return backend.to_host(backend.its_sample(p, n, keys)); });
      ctx.timed(&StepStats::extraction, [&] {
        ColumnSelector c =
            layer_columns(chosen, backend.values_to_host(backend.gather(p, frontier[s])), ids[s], offsets[s], n, true);
        const BlockedIds columns{backend.upload_ids(c.vertices), c.col_offsets};
        const Values weights = backend.upload_values(std::move(c.weights));
        for (size_t r : sampled) {
          const int d = destination_[r];
          std::vector<vid_t> rows = ids[d];
          for (vid_t& u : rows) u += base_[r];
          Matrix a =
              backend.select_rows_cols_blocked(b, {backend.upload_ids(std::move(rows)), offsets[d]}, columns, weights);
          layer.adj[r] = backend.normalize_rows(std::move(a), RowScale::by_sum);
          layer.row_offsets[r] = offsets[d];
        }
        layer.vertices[s] = columns;
        next_ids[s] = std::move(c.vertices);
      });
    }
    ids = std::move(next_ids);
    for (int t = 0; t < types; ++t) offsets[t] = layer.vertices[t].offsets;
    frontier = layer.vertices;
    bulk.layers.push_back(std::move(layer));
  }
  return bulk;
}

std::vector<std::vector<int64_t>> parse_type_budgets(const HeteroGraph& graph, const std::string& text) {
  std::vector<std::string> names;
  for (const VertexType& t : graph.types) names.push_back("type " + t.name);
  return parse_named_counts(
      text, names, [&](const std::string& name) { return graph.type_index(name); }, "budgets");
}

HeteroSamplerSpec hgt_hetero_sampler() {
  return {"hgt",
          "layer-wise as HGT: budgets[t][l] vertices of type t per minibatch and layer, p(v) ∝ its squared "
          "normalised degree within the type",
          SamplerFamily::layer_wise, HeteroCounts::per_type,
          [](Backend& backend, const HeteroGraph& graph, std::vector<std::vector<int64_t>> budgets) {
            return std::make_unique<HeteroLayerWiseSampler>(backend, graph, std::move(budgets));
          }};
}

}  // namespace matsamp
