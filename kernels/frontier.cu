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
// Everything stays on the device; the host reads sizes only (the buffers' total,
// how many walks outgrew theirs, the result's nonzeros).
#include <algorithm>
#include <climits>
#include <cub/block/block_scan.cuh>

#include "core/philox.h"
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

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
  const int* run;         // per minibatch: walk it in this launch
  vid_t* popped;          // steps per minibatch
  int64_t* popped_count;  // per minibatch
  int* outgrown;          // per minibatch: the pin buffer was too small
  int* outgrown_walks;    // how many of this launch's walks outgrew theirs

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

__global__ void __launch_bounds__(kWalkThreads) frontier_walks(Walks w) {
  __shared__ BlockDashboard::Shared shared;
  const int64_t g = blockIdx.x;
  if (!w.run[g]) return;  // the whole block: walked in an earlier launch
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
    if (board.outgrown()) atomicAdd(w.outgrown_walks, 1);
  }
}

// Each walk's starting capacity, as the CPU's Dashboard computes it, and its
// first pin buffer (twice that); every walk runs in the first launch.
__global__ void first_buffers(CsrView adj, const vid_t* roots, DeviceOffsets blocks, double enlargement,
                              int64_t* capacities, int64_t* buffers, int* run) {
  for (int64_t g = thread_index(); g < blocks.blocks; g += thread_count()) {
    int64_t pins = 0, largest = 0;
    for (int64_t i = blocks.offsets[g]; i < blocks.offsets[g + 1]; ++i) {
      const int64_t d = adj.rowptr[roots[i] + 1] - adj.rowptr[roots[i]];
      pins += d;
      largest = max(largest, d);
    }
    capacities[g] = frontier_starting_capacity(pins, largest, enlargement);
    buffers[g] = max(int64_t{64}, 2 * capacities[g]);
    run[g] = 1;
  }
}

// The walks that outgrew their buffers run again with four times the buffer.
__global__ void grow_outgrown(int64_t k, int* outgrown, int64_t* buffers, int* run) {
  for (int64_t g = thread_index(); g < k; g += thread_count()) {
    run[g] = outgrown[g];
    if (outgrown[g]) buffers[g] *= 4;
    outgrown[g] = 0;
  }
}

// (minibatch, vertex) of every pop, minibatch k for the slots past a walk's end.
__global__ void key_pops(const vid_t* popped, const int64_t* counts, int64_t k, int64_t steps, int vertex_bits,
                         uint64_t* keys) {
  for (int64_t i = thread_index(); i < k * steps; i += thread_count()) {
    const int64_t g = i / steps;
    keys[i] = i - g * steps < counts[g] ? (static_cast<uint64_t>(g) << vertex_bits) | static_cast<uint64_t>(popped[i])
                                        : static_cast<uint64_t>(k) << vertex_bits;
  }
}

// Row g starts at its first distinct (g, vertex) key (row k: the slots past the ends).
__global__ void pop_row_pointers(const uint64_t* keys, int64_t n, int64_t k, int vertex_bits, int64_t* rowptr) {
  for (int64_t g = thread_index(); g <= k; g += thread_count()) {
    rowptr[g] = lower_bound_in(keys, n, static_cast<uint64_t>(g) << vertex_bits);
  }
}

__global__ void pop_columns(const uint64_t* keys, int64_t nnz, uint64_t vertex_mask, col_t* colidx) {
  for (int64_t i = thread_index(); i < nnz; i += thread_count()) colidx[i] = static_cast<col_t>(keys[i] & vertex_mask);
}

// Row g: the distinct vertices of walk g's pops, ascending, values 1.
DeviceCsr distinct_pops(DeviceEngine& engine, const DeviceArray<vid_t>& popped, const DeviceArray<int64_t>& counts,
                        int64_t k, int64_t steps, int64_t cols) {
  const cudaStream_t stream = stream_of(engine);
  const int vertex_bits = bits_for(cols);
  DeviceArray<uint64_t> keys(engine, k * steps);
  if (k * steps > 0) {
    key_pops<<<blocks_for_threads(k * steps), kBlockThreads, 0, stream>>>(popped.data(), counts.data(), k, steps,
                                                                          vertex_bits, keys.data());
    MATSAMP_CUDA_LAUNCHED("key_pops");
  }
  sort_keys(engine, keys, vertex_bits + bits_for(k + 1));
  DeviceArray<uint64_t> distinct;
  DeviceArray<int64_t> starts;
  const int64_t groups = group_sorted_keys(engine, keys.data(), keys.size(), distinct, starts, nullptr);
  DeviceCsr out;
  out.rows = k;
  out.cols = cols;
  out.rowptr = DeviceArray<int64_t>(engine, k + 1);
  pop_row_pointers<<<blocks_for_threads(k + 1), kBlockThreads, 0, stream>>>(distinct.data(), groups, k, vertex_bits,
                                                                            out.rowptr.data());
  MATSAMP_CUDA_LAUNCHED("pop_row_pointers");
  const int64_t nnz = read_one(engine, out.rowptr.data() + k);
  out.colidx = DeviceArray<col_t>(engine, nnz);
  if (nnz > 0) {
    pop_columns<<<blocks_for_threads(nnz), kBlockThreads, 0, stream>>>(
        distinct.data(), nnz, (uint64_t{1} << vertex_bits) - 1, out.colidx.data());
    MATSAMP_CUDA_LAUNCHED("pop_columns");
  }
  fill_values(engine, out, 1.0f);
  return out;
}

}  // namespace

DeviceCsr frontier_sample(DeviceEngine& engine, const CsrView& adj, const vid_t* roots, DeviceOffsets root_blocks,
                          const Offsets& offsets, int64_t steps, const FrontierKeys& keys, double enlargement) {
  const cudaStream_t stream = stream_of(engine);
  const int64_t k = root_blocks.blocks;
  std::vector<int64_t> tile_offsets(k + 1, 0);
  for (int64_t g = 0; g < k; ++g) tile_offsets[g + 1] = tile_offsets[g] + (offsets[g + 1] - offsets[g]) + steps;
  const DeviceArray<int64_t> dtile_offsets = to_device(engine, tile_offsets);
  DeviceArray<int64_t> capacities(engine, k), buffers(engine, k), pin_offsets(engine, k + 1);
  DeviceArray<int> run(engine, k), outgrown(engine, k), outgrown_walks(engine, 1);
  DeviceArray<Tile> tiles(engine, tile_offsets[k]);
  DeviceArray<vid_t> popped(engine, k * steps);
  DeviceArray<int64_t> counts(engine, k);
  if (k > 0) {
    first_buffers<<<blocks_for_threads(k), kBlockThreads, 0, stream>>>(adj, roots, root_blocks, enlargement,
                                                                       capacities.data(), buffers.data(), run.data());
    MATSAMP_CUDA_LAUNCHED("first_buffers");
  }
  for (int64_t walks = k; walks > 0;) {
    const int64_t pins_total = offsets_from_counts(engine, buffers.data(), k, pin_offsets.data());
    DeviceArray<int32_t> pins(engine, pins_total);
    engine.fill_zero(outgrown_walks.data(), sizeof(int));
    const Walks w{adj,
                  roots,
                  root_blocks.offsets,
                  steps,
                  keys,
                  enlargement,
                  capacities.data(),
                  pins.data(),
                  pin_offsets.data(),
                  tiles.data(),
                  dtile_offsets.data(),
                  run.data(),
                  popped.data(),
                  counts.data(),
                  outgrown.data(),
                  outgrown_walks.data()};
    frontier_walks<<<static_cast<unsigned>(k), kWalkThreads, 0, stream>>>(w);
    MATSAMP_CUDA_LAUNCHED("frontier_walks");
    walks = read_one(engine, outgrown_walks.data());
    if (walks > 0) {
      grow_outgrown<<<blocks_for_threads(k), kBlockThreads, 0, stream>>>(k, outgrown.data(), buffers.data(),
                                                                         run.data());
      MATSAMP_CUDA_LAUNCHED("grow_outgrown");
    }
  }
  return distinct_pops(engine, popped, counts, k, steps, adj.cols);
}

}  // namespace matsamp::gpu
