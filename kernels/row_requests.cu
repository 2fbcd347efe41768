// The distributed product's requests on the device (ops.h: request_rows,
// sample_requested_rows): the rows in range keyed by (vertex, position) and
// radix-sorted, so requests come grouped by owner with ties in row order; the
// owner's rows decoded from the words; the row pointers a transport needs.
#include "kernels/cuda_check.cuh"
#include "kernels/device_ops.h"
#include "kernels/device_primitives.h"

namespace matsamp::gpu {

namespace {

__global__ void mark_in_range(const vid_t* rows, int64_t m, vid_t lo, vid_t hi, int64_t* flags) {
  for (int64_t r = thread_index(); r < m; r += thread_count()) flags[r] = rows[r] >= lo && rows[r] < hi;
}

__global__ void key_in_range(const vid_t* rows, int64_t m, vid_t lo, vid_t hi, const int64_t* place, int position_bits,
                             uint64_t* keys) {
  for (int64_t r = thread_index(); r < m; r += thread_count())
    if (rows[r] >= lo && rows[r] < hi)
      keys[place[r]] = (static_cast<uint64_t>(rows[r] - lo) << position_bits) | static_cast<uint64_t>(r);
}

__global__ void write_requests(const uint64_t* keys, int64_t count, vid_t lo, int position_bits, const int64_t* place,
                               DeviceOffsets blocks, int64_t first_minibatch, int64_t* words, vid_t* back) {
  const uint64_t mask = (uint64_t{1} << position_bits) - 1;
  for (int64_t i = thread_index(); i < count; i += thread_count()) {
    const int64_t r = static_cast<int64_t>(keys[i] & mask);
    const vid_t v = lo + static_cast<vid_t>(keys[i] >> position_bits);
    const int64_t g = block_of(blocks.offsets, blocks.blocks, r);
    words[2 * i] = first_minibatch + g;
    words[2 * i + 1] =
        static_cast<int64_t>((static_cast<uint64_t>(r - blocks.offsets[g]) << 32) | static_cast<uint32_t>(v));
    back[place[r]] = i;
  }
}

// How many sorted keys lie below each bound: the first key at or above it.
__global__ void keys_below(const uint64_t* keys, int64_t count, const vid_t* bounds, int64_t n, vid_t lo,
                           int position_bits, int64_t* below) {
  for (int64_t q = thread_index(); q < n; q += thread_count()) {
    below[q] = lower_bound_in(keys, count, static_cast<uint64_t>(bounds[q] - lo) << position_bits);
  }
}

__global__ void decode_rows(const int64_t* words, int64_t count, vid_t first_row, int64_t block_rows, vid_t* rows,
                            int* outside) {
  for (int64_t i = thread_index(); i < count; i += thread_count()) {
    const vid_t v = static_cast<vid_t>(static_cast<uint64_t>(words[2 * i + 1]) & 0xFFFFFFFFu) - first_row;
    if (v < 0 || v >= block_rows) {
      *outside = 1;
      rows[i] = 0;
    } else {
      rows[i] = v;
    }
  }
}

__global__ void gather_row_pointers(const int64_t* rowptr, const int64_t* at, int64_t n, int64_t* out) {
  for (int64_t i = thread_index(); i < n; i += thread_count()) out[i] = rowptr[at[i]];
}

__global__ void lengths_of_rows(const int64_t* rowptr, int64_t rows, vid_t* lengths) {
  for (int64_t r = thread_index(); r < rows; r += thread_count()) lengths[r] = rowptr[r + 1] - rowptr[r];
}

}  // namespace

DeviceRequests request_rows(DeviceEngine& engine, const vid_t* rows, int64_t m, const DeviceKeys& keys,
                            const std::vector<vid_t>& bounds) {
  const vid_t lo = bounds.front(), hi = bounds.back();
  const int position_bits = bits_for(std::max<int64_t>(m, 1));
  MATSAMP_CHECK(bits_for(std::max<int64_t>(hi - lo, 1)) + position_bits <= 64, "request_rows: ", m, " rows over ",
                hi - lo, " vertices do not fit a 64-bit sort key");
  const cudaStream_t stream = stream_of(engine);
  DeviceArray<int64_t> flags(engine, std::max<int64_t>(m, 1)), place(engine, m + 1);
  if (m > 0) {
    mark_in_range<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(rows, m, lo, hi, flags.data());
    MATSAMP_CUDA_LAUNCHED("mark_in_range");
  }
  const int64_t count = offsets_from_counts(engine, flags.data(), m, place.data());
  DeviceRequests out{DeviceArray<int64_t>(engine, 2 * count), DeviceArray<vid_t>(engine, count),
                     std::vector<int64_t>(bounds.size() - 1, 0)};
  if (count == 0) return out;
  DeviceArray<uint64_t> sorted(engine, count);
  key_in_range<<<blocks_for_threads(m), kBlockThreads, 0, stream>>>(rows, m, lo, hi, place.data(), position_bits,
                                                                    sorted.data());
  MATSAMP_CUDA_LAUNCHED("key_in_range");
  sort_keys(engine, sorted, bits_for(std::max<int64_t>(hi - lo, 1)) + position_bits);
  write_requests<<<blocks_for_threads(count), kBlockThreads, 0, stream>>>(sorted.data(), count, lo, position_bits,
                                                                          place.data(), keys.rows, keys.first_minibatch,
                                                                          out.words.data(), out.back.data());
  MATSAMP_CUDA_LAUNCHED("write_requests");
  const DeviceArray<vid_t> dbounds = to_device(engine, bounds);
  DeviceArray<int64_t> below(engine, dbounds.size());
  keys_below<<<blocks_for_threads(dbounds.size()), kBlockThreads, 0, stream>>>(
      sorted.data(), count, dbounds.data(), dbounds.size(), lo, position_bits, below.data());
  MATSAMP_CUDA_LAUNCHED("keys_below");
  const std::vector<int64_t> at = to_host(engine, below);
  for (size_t q = 0; q + 1 < at.size(); ++q) out.counts[q] = at[q + 1] - at[q];
  return out;
}

DeviceArray<vid_t> requested_local_rows(DeviceEngine& engine, const int64_t* words, int64_t count, vid_t first_row,
                                        int64_t block_rows) {
  DeviceArray<vid_t> rows(engine, count);
  if (count == 0) return rows;
  DeviceArray<int> outside(engine, 1);
  engine.fill_zero(outside.data(), outside.bytes());
  decode_rows<<<blocks_for_threads(count), kBlockThreads, 0, stream_of(engine)>>>(words, count, first_row, block_rows,
                                                                                  rows.data(), outside.data());
  MATSAMP_CUDA_LAUNCHED("decode_rows");
  MATSAMP_CHECK(read_one(engine, outside.data()) == 0, "distributed product: a row outside the block [", first_row,
                ", ", first_row + block_rows, ") was asked of it");
  return rows;
}

std::vector<int64_t> row_pointers_at(DeviceEngine& engine, const int64_t* rowptr, const std::vector<int64_t>& rows) {
  const DeviceArray<int64_t> at = to_device(engine, rows);
  DeviceArray<int64_t> out(engine, at.size());
  if (at.size() > 0) {
    gather_row_pointers<<<blocks_for_threads(at.size()), kBlockThreads, 0, stream_of(engine)>>>(rowptr, at.data(),
                                                                                                at.size(), out.data());
    MATSAMP_CUDA_LAUNCHED("gather_row_pointers");
  }
  return to_host(engine, out);
}

DeviceArray<vid_t> row_lengths(DeviceEngine& engine, const int64_t* rowptr, int64_t rows) {
  DeviceArray<vid_t> lengths(engine, rows);
  if (rows > 0) {
    lengths_of_rows<<<blocks_for_threads(rows), kBlockThreads, 0, stream_of(engine)>>>(rowptr, rows, lengths.data());
    MATSAMP_CUDA_LAUNCHED("lengths_of_rows");
  }
  return lengths;
}

}  // namespace matsamp::gpu
