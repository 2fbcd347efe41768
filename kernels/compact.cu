// compact_columns on the device, by sorting: entries (of one matrix, or of
// several sharing each block's vertex list) and leading vertices are keyed
// (block, vertex); the distinct keys of the entries are the vertices each
// block touches; a key found among the leading vertices keeps its leading
// position, the others are numbered after the leading ones in ascending vertex
// id (the sort order), block by block.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

constexpr unsigned long long kNoRepeat = ~0ull;

__device__ inline uint64_t block_key(int64_t g, int64_t vertex) {
  return static_cast<uint64_t>(g) << 32 | static_cast<uint64_t>(vertex);
}

__global__ void key_leading(const vid_t* leading, DeviceOffsets blocks, uint64_t* keys, int64_t* position) {
  for (int64_t j = thread_index(); j < blocks.total; j += thread_count()) {
    const int64_t g = block_of(blocks.offsets, blocks.blocks, j);
    keys[j] = block_key(g, leading[j]);
    position[j] = j - blocks.offsets[g];
  }
}

__global__ void find_repeats(const uint64_t* sorted, int64_t n, unsigned long long* repeated_vertex) {
  for (int64_t i = thread_index() + 1; i < n; i += thread_count())
    if (sorted[i] == sorted[i - 1])
      atomicMin(repeated_vertex, static_cast<unsigned long long>(sorted[i] & 0xFFFFFFFFu));
}

// The entries of one part, numbered from `first` among all parts' entries.
__global__ void key_entries(CsrView s, DeviceOffsets row_blocks, int64_t first, uint64_t* keys, int64_t* entry) {
  for (int64_t r = thread_index(); r < s.rows; r += thread_count()) {
    const int64_t g = block_of(row_blocks.offsets, row_blocks.blocks, r);
    for (int64_t e = s.rowptr[r]; e < s.rowptr[r + 1]; ++e) {
      keys[first + e] = block_key(g, s.colidx[e]);
      entry[first + e] = first + e;
    }
  }
}

// For each distinct (block, vertex): its leading position, or a mark as new.
__global__ void match_leading(const uint64_t* vertex_keys, int64_t n, const uint64_t* lead_keys,
                              const int64_t* lead_position, int64_t leads, int64_t* local, int64_t* is_new) {
  for (int64_t u = thread_index(); u < n; u += thread_count()) {
    const int64_t at = lower_bound_in(lead_keys, leads, vertex_keys[u]);
    const bool found = at < leads && lead_keys[at] == vertex_keys[u];
    local[u] = found ? lead_position[at] : -1;
    is_new[u] = !found;
  }
}

// Per block: its column count, and the new-vertex rank at which it starts.
__global__ void block_columns(const uint64_t* vertex_keys, int64_t n, const int64_t* new_before_vertex,
                              DeviceOffsets leading_blocks, int64_t* columns, int64_t* new_before_block) {
  for (int64_t g = thread_index(); g < leading_blocks.blocks; g += thread_count()) {
    const int64_t first = lower_bound_in(vertex_keys, n, block_key(g, 0));
    const int64_t last = lower_bound_in(vertex_keys, n, block_key(g + 1, 0));
    new_before_block[g] = new_before_vertex[first];
    columns[g] = leading_blocks.offsets[g + 1] - leading_blocks.offsets[g] + new_before_vertex[last] -
                 new_before_vertex[first];
  }
}

__global__ void place_new_vertices(const uint64_t* vertex_keys, int64_t n, const int64_t* new_before_vertex,
                                   const int64_t* new_before_block, DeviceOffsets leading_blocks,
                                   const int64_t* col_offsets, int64_t* local, vid_t* vertices) {
  for (int64_t u = thread_index(); u < n; u += thread_count()) {
    if (local[u] >= 0) continue;
    const int64_t g = static_cast<int64_t>(vertex_keys[u] >> 32);
    local[u] = leading_blocks.offsets[g + 1] - leading_blocks.offsets[g] + new_before_vertex[u] - new_before_block[g];
    vertices[col_offsets[g] + local[u]] = static_cast<vid_t>(vertex_keys[u] & 0xFFFFFFFFu);
  }
}

__global__ void place_leading(const vid_t* leading, DeviceOffsets blocks, const int64_t* col_offsets, vid_t* vertices) {
  for (int64_t j = thread_index(); j < blocks.total; j += thread_count()) {
    const int64_t g = block_of(blocks.offsets, blocks.blocks, j);
    vertices[col_offsets[g] + j - blocks.offsets[g]] = leading[j];
  }
}

__global__ void relabel_entries(const int64_t* entry, const int64_t* vertex_of, int64_t nnz,
                                const uint64_t* vertex_keys, const int64_t* local, const int64_t* col_offsets,
                                col_t* colidx) {
  for (int64_t i = thread_index(); i < nnz; i += thread_count()) {
    const int64_t u = vertex_of[i];
    colidx[entry[i]] = static_cast<col_t>(col_offsets[vertex_keys[u] >> 32] + local[u]);
  }
}

}  // namespace

DeviceSharedCompact compact_columns_shared(DeviceEngine& engine, const std::vector<const DeviceCsr*>& parts,
                                           const std::vector<DeviceOffsets>& row_blocks, const vid_t* leading,
                                           DeviceOffsets leading_blocks,
                                           const std::vector<DeviceArray<vid_t>*>& carried) {
  MATSAMP_CHECK(carried.empty() || carried.size() == parts.size(), "compact_columns: carried values for ",
                carried.size(), " matrices, not ", parts.size());
  const cudaStream_t stream = stream_of(engine);
  const int64_t k = leading_blocks.blocks, leads = leading_blocks.total;
  std::vector<int64_t> first_entry{0};  // part i's entries from first_entry[i] on, among all parts'
  for (const DeviceCsr* s : parts) first_entry.push_back(first_entry.back() + s->nnz());
  const int64_t nnz = first_entry.back();
  const int key_bits = 32 + bits_for(k + 1);

  // Leading vertices by (block, vertex), with their positions; repeats are errors.
  DeviceArray<uint64_t> lead_keys(engine, leads);
  DeviceArray<int64_t> lead_position(engine, leads);
  DeviceArray<unsigned long long> repeated(engine, 1);
  if (leads > 0) {
    key_leading<<<blocks_for_threads(leads), kBlockThreads, 0, stream>>>(leading, leading_blocks, lead_keys.data(),
                                                                         lead_position.data());
    MATSAMP_CUDA_LAUNCHED("key_leading");
  }
  sort_pairs(engine, lead_keys, lead_position, key_bits);
  const unsigned long long none = kNoRepeat;
  engine.copy_to_device(repeated.data(), &none, sizeof none);
  if (leads > 1) {
    find_repeats<<<blocks_for_threads(leads), kBlockThreads, 0, stream>>>(lead_keys.data(), leads, repeated.data());
    MATSAMP_CUDA_LAUNCHED("find_repeats");
  }

  // The distinct (block, vertex) pairs of every part's entries, and each entry's pair.
  DeviceArray<uint64_t> entry_keys(engine, nnz);
  DeviceArray<int64_t> entry(engine, nnz);
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i]->rows > 0 && parts[i]->nnz() > 0) {
      key_entries<<<blocks_for_threads(parts[i]->rows), kBlockThreads, 0, stream>>>(
          parts[i]->view(), row_blocks[i], first_entry[i], entry_keys.data(), entry.data());
      MATSAMP_CUDA_LAUNCHED("key_entries");
    }
  sort_pairs(engine, entry_keys, entry, key_bits);
  DeviceArray<uint64_t> vertex_keys;
  DeviceArray<int64_t> starts, vertex_of;
  const int64_t n = group_sorted_keys(engine, entry_keys.data(), nnz, vertex_keys, starts, &vertex_of);
  entry_keys.reset();
  starts.reset();

  // Local column of every distinct pair: leading position, or after the leading ones.
  DeviceArray<int64_t> local(engine, n), is_new(engine, n), new_before_vertex(engine, n + 1);
  if (n > 0) {
    match_leading<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(
        vertex_keys.data(), n, lead_keys.data(), lead_position.data(), leads, local.data(), is_new.data());
    MATSAMP_CUDA_LAUNCHED("match_leading");
  }
  counts_to_offsets(engine, is_new.data(), n, new_before_vertex.data());
  DeviceArray<int64_t> columns(engine, k), new_before_block(engine, k);
  if (k > 0) {
    block_columns<<<blocks_for_threads(k), kBlockThreads, 0, stream>>>(
        vertex_keys.data(), n, new_before_vertex.data(), leading_blocks, columns.data(), new_before_block.data());
    MATSAMP_CUDA_LAUNCHED("block_columns");
  }
  DeviceArray<int64_t> col_offsets(engine, k + 1);
  const int64_t total_cols = offsets_from_counts(engine, columns.data(), k, col_offsets.data());
  const unsigned long long repeat = read_one(engine, repeated.data());
  MATSAMP_CHECK(repeat == kNoRepeat, "compact_columns: vertex ", repeat,
                " appears twice among the leading vertices of one minibatch");
  check_column_count(total_cols, "compact_columns");  // after the repeat check, as on the CPU

  DeviceSharedCompact result;
  result.vertices = DeviceArray<vid_t>(engine, total_cols);
  if (n > 0) {
    place_new_vertices<<<blocks_for_threads(n), kBlockThreads, 0, stream>>>(
        vertex_keys.data(), n, new_before_vertex.data(), new_before_block.data(), leading_blocks, col_offsets.data(),
        local.data(), result.vertices.data());
    MATSAMP_CUDA_LAUNCHED("place_new_vertices");
  }
  if (leads > 0) {
    place_leading<<<blocks_for_threads(leads), kBlockThreads, 0, stream>>>(leading, leading_blocks, col_offsets.data(),
                                                                           result.vertices.data());
    MATSAMP_CUDA_LAUNCHED("place_leading");
  }

  // Every part's entries relabelled in one array, then handed to their parts.
  DeviceArray<col_t> relabelled(engine, nnz);
  if (nnz > 0) {
    relabel_entries<<<blocks_for_threads(nnz), kBlockThreads, 0, stream>>>(
        entry.data(), vertex_of.data(), nnz, vertex_keys.data(), local.data(), col_offsets.data(), relabelled.data());
    MATSAMP_CUDA_LAUNCHED("relabel_entries");
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const DeviceCsr& s = *parts[i];
    DeviceCsr adj;
    adj.rows = s.rows;
    adj.cols = total_cols;
    adj.rowptr = DeviceArray<int64_t>(engine, s.rows + 1);
    engine.copy_on_device(adj.rowptr.data(), s.rowptr.data(), adj.rowptr.bytes());
    if (parts.size() == 1) {
      adj.colidx = std::move(relabelled);
    } else {
      adj.colidx = DeviceArray<col_t>(engine, s.nnz());
      if (s.nnz() > 0) engine.copy_on_device(adj.colidx.data(), relabelled.data() + first_entry[i], adj.colidx.bytes());
    }
    adj.values = DeviceArray<float>(engine, s.nnz());
    if (s.values.size() == s.nnz()) engine.copy_on_device(adj.values.data(), s.values.data(), adj.values.bytes());
    else fill_values(engine, adj, 1.0f);
    if (!carried.empty() && carried[i])
      sort_rows(engine, adj.rows, adj.rowptr.data(), adj.colidx, adj.values, *carried[i]);
    else sort_rows(engine, adj.rows, adj.rowptr.data(), adj.colidx, adj.values);
    result.adj.push_back(std::move(adj));
  }
  result.col_offsets = to_host(engine, col_offsets);
  return result;
}

DeviceCompact compact_columns(DeviceEngine& engine, const DeviceCsr& s, DeviceOffsets row_blocks, const vid_t* leading,
                              DeviceOffsets leading_blocks, DeviceArray<vid_t>* carried) {
  DeviceSharedCompact shared = compact_columns_shared(engine, {&s}, {row_blocks}, leading, leading_blocks, {carried});
  DeviceCompact result;
  result.adj = std::move(shared.adj[0]);
  result.vertices = std::move(shared.vertices);
  result.col_offsets = std::move(shared.col_offsets);
  return result;
}

}  // namespace matsamp::gpu
