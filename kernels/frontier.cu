// GraphSAINT's frontier walk on the device: the CPU's Dashboard (ops/frontier.cpp)
// pop for pop, one thread block per minibatch. The walk itself is sequential (each
// pop depends on the last); the block shares what the paper vectorizes: probing
// the pin array (a round of probes, one per thread, the first live probe in draw
// order wins, as the CPU's loop finds it), marking a popped vertex's pins, adding
// a new vertex's pins and rewriting the array when it is compacted.
//
// Each minibatch gets a pin buffer of twice its starting capacity; the rare walk
// that outgrows it (a hub joins the frontier) stops, and is run again from its
// start with a buffer four times larger: the result depends only on the keys.
#include <algorithm>
#include <climits>
#include <cub/block/block_scan.cuh>

#include "core/philox.h"
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"

namespace matsamp::gpu {

namespace {

constexpr int kWalkThreads = 512;

struct Tile {
  vid_t vertex;
  int64_t first_pin, degree;  // degree 0 once popped
};

struct Walks {
  CsrView adj;
  const vid_t* roots;
  const int64_t* root_offsets;
  int64_t steps;
  FrontierKeys keys;
  double enlargement;
  const int64_t* capacities;  // minibatch g's starting capacity (frontier_starting_capacity)
  int32_t* pins;              // minibatch g's buffer: [pin_offsets[g], pin_offsets[g + 1])
  const int64_t* pin_offsets;
  Tile* tiles;  // minibatch g's: m_g + steps from tile_offsets[g]
  const int64_t* tile_offsets;
  vid_t* popped;          // steps per minibatch
  int64_t* popped_count;  // per minibatch
  int* outgrown;          // per minibatch: the pin buffer was too small

  __device__ int64_t degree(vid_t v) const { return adj.rowptr[v + 1] - adj.rowptr[v]; }
};

// The Dashboard of one minibatch, held by its thread block. Every method is called
// by all threads of the block with the same arguments.
class BlockDashboard {
 public:
  struct Shared {
    int64_t size, live, capacity, tiles;
    uint32_t winner;
    int32_t popped_tile;
    bool outgrown;
  };

  __device__ BlockDashboard(const Walks& w, int64_t g, Shared& s)
      : w_(w),
        pins_(w.pins + w.pin_offsets[g]),
        buffer_(w.pin_offsets[g + 1] - w.pin_offsets[g]),
        tiles_(w.tiles + w.tile_offsets[g]),
        s_(s) {}

  __device__ void start(const vid_t* roots, int64_t m, int64_t capacity) {
    if (threadIdx.x == 0) {
      s_.capacity = capacity;
      s_.size = s_.live = s_.tiles = 0;
      s_.outgrown = false;
    }
    __syncthreads();
    for (int64_t i = 0; i < m && !s_.outgrown; ++i) pin(roots[i]);
  }

  __device__ bool empty() const { return s_.live == 0; }
  __device__ bool outgrown() const { return s_.outgrown; }

  __device__ vid_t pop(const RandomKey& key) {
    if (static_cast<double>(s_.size) > 2 * w_.enlargement * static_cast<double>(s_.live)) compact();
    for (uint32_t round = 0;; round += blockDim.x) {
      if (threadIdx.x == 0) s_.winner = UINT_MAX;
      __syncthreads();
      const uint32_t draw = round + threadIdx.x;
      const int64_t at = static_cast<int64_t>(scale_to(random_bits(key, draw), s_.size));
      if (pins_[at] >= 0) atomicMin(&s_.winner, draw);
      __syncthreads();
      if (s_.winner == draw) s_.popped_tile = pins_[at];
      const bool found = s_.winner != UINT_MAX;
      __syncthreads();
      if (found) break;
    }
    const Tile t = tiles_[s_.popped_tile];
    for (int64_t p = t.first_pin + threadIdx.x; p < t.first_pin + t.degree; p += blockDim.x) pins_[p] = -1;
    __syncthreads();
    if (threadIdx.x == 0) {
      tiles_[s_.popped_tile].degree = 0;
      s_.live -= t.degree;
    }
    __syncthreads();
    return t.vertex;
  }

  __device__ void pin(vid_t v) {
    const int64_t d = w_.degree(v);
    if (d == 0) return;  // cannot be popped: a walk cannot leave it
    if (s_.size + d > s_.capacity) compact();
    const int64_t first = s_.size;
    if (first + d > buffer_) {  // the CPU's array would grow past this buffer
      __syncthreads();
      if (threadIdx.x == 0) s_.outgrown = true;
      __syncthreads();
      return;
    }
    const int32_t tile = static_cast<int32_t>(s_.tiles);
    for (int64_t p = first + threadIdx.x; p < first + d; p += blockDim.x) pins_[p] = tile;
    __syncthreads();
    if (threadIdx.x == 0) {
      s_.capacity = max(s_.capacity, first + d);
      tiles_[tile] = {v, first, d};
      s_.tiles = tile + 1;
      s_.size = first + d;
      s_.live += d;
    }
    __syncthreads();
  }

 private:
  // Drops the popped vertices' tiles and pins, keeping the live ones in order: the
  // live tiles' new places and first pins by block-wide scans, a chunk of tiles at
  // a time (in place: a tile only moves down), then each warp rewrites the pins of
  // its tiles.
  __device__ void compact() {
    using Scan = cub::BlockScan<int64_t, kWalkThreads>;
    __shared__ typename Scan::TempStorage scan;
    __syncthreads();
    const int64_t tiles = s_.tiles;
    int64_t kept = 0, size = 0;  // over the chunks before, the same in every thread
    for (int64_t chunk = 0; chunk < tiles; chunk += blockDim.x) {
      const int64_t t = chunk + threadIdx.x;
      const Tile tile = t < tiles ? tiles_[t] : Tile{0, 0, 0};
      const int64_t live = tile.degree > 0 ? 1 : 0;
      int64_t index, first, kept_here, size_here;
      Scan(scan).ExclusiveSum(live, index, kept_here);
      __syncthreads();
      Scan(scan).ExclusiveSum(tile.degree, first, size_here);
      __syncthreads();  // the chunk's tiles are read before any moves
      if (live) tiles_[kept + index] = {tile.vertex, size + first, tile.degree};
      kept += kept_here;
      size += size_here;
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      s_.tiles = kept;
      s_.size = size;
    }
    const int64_t warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int64_t t = warp; t < kept; t += warps)
      for (int64_t p = tiles_[t].first_pin + lane; p < tiles_[t].first_pin + tiles_[t].degree; p += 32)
        pins_[p] = static_cast<int32_t>(t);
    __syncthreads();
  }

  const Walks& w_;
  int32_t* pins_;
  int64_t buffer_;
  Tile* tiles_;
  Shared& s_;
};

__global__ void __launch_bounds__(kWalkThreads) frontier_walks(Walks w, const int64_t* which) {
  __shared__ BlockDashboard::Shared shared;
  const int64_t g = which[blockIdx.x];
  BlockDashboard board(w, g, shared);
  board.start(w.roots + w.root_offsets[g], w.root_offsets[g + 1] - w.root_offsets[g], w.capacities[g]);
  int64_t count = 0;
  for (int64_t step = 0; step < w.steps && !board.outgrown() && !board.empty(); ++step) {
    const RandomKey key = frontier_step_key(w.keys, w.keys.first_minibatch + g, step);
    const vid_t u = board.pop(key);
    if (threadIdx.x == 0) w.popped[g * w.steps + count] = u;
    ++count;
    const int64_t d = w.degree(u);
    board.pin(
        w.adj.colidx[w.adj.rowptr[u] + static_cast<int64_t>(scale_to(random_bits(key, kFrontierNeighbourDraw), d))]);
  }
  if (threadIdx.x == 0) {
    w.popped_count[g] = count;
    w.outgrown[g] = board.outgrown();
  }
}

// A walk's starting capacity, as the CPU's Dashboard computes it.
int64_t starting_capacity(const std::vector<int64_t>& degrees, int64_t begin, int64_t end, double enlargement) {
  int64_t pins = 0, largest = 0;
  for (int64_t i = begin; i < end; ++i) pins += degrees[i], largest = std::max(largest, degrees[i]);
  return frontier_starting_capacity(pins, largest, enlargement);
}

__global__ void root_degrees(CsrView adj, const vid_t* roots, int64_t m, int64_t* degrees) {
  for (int64_t i = thread_index(); i < m; i += thread_count())
    degrees[i] = adj.rowptr[roots[i] + 1] - adj.rowptr[roots[i]];
}

}  // namespace

std::vector<std::vector<vid_t>> frontier_sample(DeviceEngine& engine, const CsrView& adj,
                                                const std::vector<vid_t>& roots, const Offsets& offsets, int64_t steps,
                                                const FrontierKeys& keys, double enlargement) {
  const int64_t k = static_cast<int64_t>(offsets.size()) - 1, m = static_cast<int64_t>(roots.size());
  std::vector<std::vector<vid_t>> popped(k);
  if (k == 0) return popped;
  const DeviceArray<vid_t> droots = to_device(engine, roots);
  const DeviceArray<int64_t> droot_offsets = to_device(engine, offsets);
  DeviceArray<int64_t> ddegrees(engine, m);
  if (m > 0) {
    root_degrees<<<blocks_for_threads(m), kBlockThreads, 0, stream_of(engine)>>>(adj, droots.data(), m,
                                                                                 ddegrees.data());
    MATSAMP_CUDA_LAUNCHED("root_degrees");
  }
  const std::vector<int64_t> degrees = to_host(engine, ddegrees);
  std::vector<int64_t> capacities(k), buffer(k), tile_offsets(k + 1, 0);
  for (int64_t g = 0; g < k; ++g) {
    capacities[g] = starting_capacity(degrees, offsets[g], offsets[g + 1], enlargement);
    buffer[g] = std::max<int64_t>(64, 2 * capacities[g]);
    tile_offsets[g + 1] = tile_offsets[g] + (offsets[g + 1] - offsets[g]) + steps;
  }
  const DeviceArray<int64_t> dtile_offsets = to_device(engine, tile_offsets),
                             dcapacities = to_device(engine, capacities);
  DeviceArray<Tile> tiles(engine, tile_offsets[k]);
  DeviceArray<vid_t> dpopped(engine, k * steps);
  DeviceArray<int64_t> dcounts(engine, k);
  DeviceArray<int> doutgrown(engine, k);

  std::vector<int64_t> pending(k);
  for (int64_t g = 0; g < k; ++g) pending[g] = g;
  std::vector<int64_t> counts(k, 0);
  while (!pending.empty()) {
    std::vector<int64_t> pin_offsets(k + 1, 0);
    for (int64_t g = 0; g < k; ++g) pin_offsets[g + 1] = pin_offsets[g] + buffer[g];
    const DeviceArray<int64_t> dpin_offsets = to_device(engine, pin_offsets);
    DeviceArray<int32_t> pins(engine, pin_offsets[k]);
    const DeviceArray<int64_t> dwhich = to_device(engine, pending);
    const Walks w{adj,
                  droots.data(),
                  droot_offsets.data(),
                  steps,
                  keys,
                  enlargement,
                  dcapacities.data(),
                  pins.data(),
                  dpin_offsets.data(),
                  tiles.data(),
                  dtile_offsets.data(),
                  dpopped.data(),
                  dcounts.data(),
                  doutgrown.data()};
    frontier_walks<<<static_cast<unsigned>(pending.size()), kWalkThreads, 0, stream_of(engine)>>>(w, dwhich.data());
    MATSAMP_CUDA_LAUNCHED("frontier_walks");
    counts = to_host(engine, dcounts);
    const std::vector<int> outgrown = to_host(engine, doutgrown);
    std::vector<int64_t> again;
    for (int64_t g : pending)
      if (outgrown[g]) again.push_back(g), buffer[g] *= 4;
    pending = std::move(again);
  }
  const std::vector<vid_t> all = to_host(engine, dpopped);
  for (int64_t g = 0; g < k; ++g) popped[g].assign(all.begin() + g * steps, all.begin() + g * steps + counts[g]);
  return popped;
}

}  // namespace matsamp::gpu
