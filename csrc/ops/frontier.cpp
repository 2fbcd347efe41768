#include "ops/frontier.h"

#include <algorithm>

#include "core/philox.h"
#include "ops/op_checks.h"
#include "util/parallel.h"

namespace matsamp {

namespace {

int64_t degree(const CsrMatrix& adj, vid_t v) { return adj.rowptr[v + 1] - adj.rowptr[v]; }

vid_t neighbour(const CsrMatrix& adj, vid_t u, const RandomKey& key) {
  return adj
      .colidx[adj.rowptr[u] + static_cast<int64_t>(scale_to(random_bits(key, kFrontierNeighbourDraw), degree(adj, u)))];
}

// The frontier of one minibatch on a Dashboard: pins[i] is the tile (frontier
// slot) pin i belongs to, or -1 once that vertex was popped.
class Dashboard {
 public:
  Dashboard(const CsrMatrix& adj, const vid_t* roots, int64_t m, double enlargement)
      : adj_(adj), enlargement_(enlargement) {
    int64_t pins = 0, largest = 0;
    for (int64_t i = 0; i < m; ++i) {
      pins += degree(adj, roots[i]);
      largest = std::max(largest, degree(adj, roots[i]));
    }
    capacity_ = frontier_starting_capacity(pins, largest, enlargement);
    pins_.reserve(capacity_);
    for (int64_t i = 0; i < m; ++i) pin(roots[i]);
  }

  bool empty() const { return live_pins_ == 0; }

  // Pops a frontier vertex with probability ∝ its degree: uniform probes of the
  // pins until one is live.
  vid_t pop(const RandomKey& key) {
    // Few live pins among many (the frontier moved to low degrees): compact, so
    // that a probe hits a live pin with probability at least 1 / (2·enlargement).
    if (static_cast<double>(pins_.size()) > 2 * enlargement_ * static_cast<double>(live_pins_)) compact();
    for (uint32_t draw = 0;; ++draw) {
      const int64_t at = static_cast<int64_t>(scale_to(random_bits(key, draw), pins_.size()));
      const int32_t tile = pins_[at];
      if (tile < 0) continue;
      Tile& t = tiles_[tile];
      std::fill(pins_.begin() + t.first_pin, pins_.begin() + t.first_pin + t.degree, -1);
      live_pins_ -= t.degree;
      t.degree = 0;
      return t.vertex;
    }
  }

  // Puts v in the frontier: deg(v) pins at the end, compacting first if full.
  void pin(vid_t v) {
    const int64_t d = degree(adj_, v);
    if (d == 0) return;  // cannot be popped: a walk cannot leave it
    if (static_cast<int64_t>(pins_.size()) + d > capacity_) compact();
    if (static_cast<int64_t>(pins_.size()) + d > capacity_) capacity_ = static_cast<int64_t>(pins_.size()) + d;
    tiles_.push_back({v, static_cast<int64_t>(pins_.size()), d});
    pins_.insert(pins_.end(), d, static_cast<int32_t>(tiles_.size() - 1));
    live_pins_ += d;
  }

 private:
  struct Tile {
    vid_t vertex;
    int64_t first_pin, degree;  // degree 0 once popped
  };
  // Drops the popped vertices' pins and tiles, keeping the live ones in order.
  void compact() {
    std::vector<Tile> live;
    pins_.clear();
    for (const Tile& t : tiles_) {
      if (t.degree == 0) continue;
      live.push_back({t.vertex, static_cast<int64_t>(pins_.size()), t.degree});
      pins_.insert(pins_.end(), t.degree, static_cast<int32_t>(live.size() - 1));
    }
    tiles_ = std::move(live);
  }

  const CsrMatrix& adj_;
  double enlargement_;
  std::vector<int32_t> pins_;
  std::vector<Tile> tiles_;
  int64_t capacity_ = 0, live_pins_ = 0;
};

void check_frontier_shape(int64_t rows, int64_t cols, int64_t steps, double enlargement) {
  MATSAMP_CHECK(rows == cols, "frontier_sample: adjacency is not square (", rows, " x ", cols, ")");
  MATSAMP_CHECK(steps >= 0, "frontier_sample: steps must be non-negative, got ", steps);
  MATSAMP_CHECK(enlargement >= 1, "frontier_sample: enlargement must be at least 1, got ", enlargement);
}

void check_frontier_arguments(int64_t rows, int64_t cols, const std::vector<vid_t>& roots, int64_t steps,
                              double enlargement) {
  check_frontier_shape(rows, cols, steps, enlargement);
  check_ids_below(roots, rows, "frontier_sample", "root", "the adjacency");
}

}  // namespace

void check_frontier_walk(int64_t rows, int64_t cols, int64_t roots, const Offsets& offsets, int64_t steps,
                         double enlargement) {
  check_frontier_shape(rows, cols, steps, enlargement);
  check_block_offsets(offsets, roots, "frontier_sample", "root offsets");
}

std::vector<std::vector<vid_t>> frontier_sample(const CsrMatrix& adj, const std::vector<vid_t>& roots,
                                                const Offsets& offsets, int64_t steps, const FrontierKeys& keys,
                                                double enlargement) {
  check_frontier_arguments(adj.rows, adj.cols, roots, steps, enlargement);
  check_block_offsets(offsets, static_cast<int64_t>(roots.size()), "frontier_sample", "root offsets");
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1;
  std::vector<std::vector<vid_t>> popped(k);
// Each step a search of the dashboard and a neighbour's row.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads_for(16 * k * steps))
  for (int64_t g = 0; g < k; ++g) {
    Dashboard board(adj, roots.data() + offsets[g], offsets[g + 1] - offsets[g], enlargement);
    popped[g].reserve(steps);
    for (int64_t step = 0; step < steps && !board.empty(); ++step) {
      const RandomKey key = frontier_step_key(keys, keys.first_minibatch + g, step);
      const vid_t u = board.pop(key);
      popped[g].push_back(u);
      board.pin(neighbour(adj, u, key));
    }
  }
  return popped;
}

CsrMatrix popped_sets(std::vector<std::vector<vid_t>> popped, int64_t cols) {
  const int64_t k = static_cast<int64_t>(popped.size());
  CsrMatrix m(k, cols);
  int64_t popped_ids = 0;
  for (const std::vector<vid_t>& row : popped) popped_ids += static_cast<int64_t>(row.size());
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_for(popped_ids))
  for (int64_t g = 0; g < k; ++g) {
    std::vector<vid_t>& row = popped[g];
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  for (int64_t g = 0; g < k; ++g) m.rowptr[g + 1] = m.rowptr[g] + static_cast<int64_t>(popped[g].size());
  m.colidx.resize(m.rowptr[k]);
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_for(popped_ids))
  for (int64_t g = 0; g < k; ++g)
    std::transform(popped[g].begin(), popped[g].end(), m.colidx.begin() + m.rowptr[g],
                   [](vid_t v) { return static_cast<col_t>(v); });
  m.values.assign(m.colidx.size(), 1.0f);
  return m;
}

std::vector<vid_t> frontier_sample_serial(const CsrMatrix& adj, const std::vector<vid_t>& roots, int64_t steps,
                                          const FrontierKeys& keys, int64_t minibatch) {
  check_frontier_arguments(adj.rows, adj.cols, roots, steps, 1.0);
  std::vector<vid_t> frontier = roots, popped;
  for (int64_t step = 0; step < steps; ++step) {
    int64_t total = 0;
    for (vid_t v : frontier) total += degree(adj, v);
    if (total == 0) break;
    const RandomKey key = frontier_step_key(keys, minibatch, step);
    int64_t target = static_cast<int64_t>(scale_to(random_bits(key, 0), total));
    size_t slot = 0;
    while (target >= degree(adj, frontier[slot])) target -= degree(adj, frontier[slot++]);
    const vid_t u = frontier[slot];
    popped.push_back(u);
    frontier[slot] = neighbour(adj, u, key);
  }
  return popped;
}

}  // namespace matsamp
