// CUB-backed building blocks shared by the ops; primitives.cu is the one
// translation unit that instantiates CUB's scans and sorts (compile time).
#pragma once
#include <cstdint>

#include "kernels/device_csr.h"
#include "kernels/device_engine.h"

namespace matsamp::gpu {

// offsets[0] = 0, offsets[i + 1] = counts[0] + … + counts[i] (n + 1 entries).
void counts_to_offsets(DeviceEngine& engine, const int64_t* counts, int64_t n, int64_t* offsets);
// The same, returning the total, read back (a size the caller allocates by).
int64_t offsets_from_counts(DeviceEngine& engine, const int64_t* counts, int64_t n, int64_t* offsets);

// A rows x cols matrix whose row r holds counts[r] entries: row pointers set (one
// size read back), column ids and values allocated for the caller to fill.
DeviceCsr csr_from_row_counts(DeviceEngine& engine, int64_t rows, int64_t cols, const int64_t* counts);

// In-place inclusive prefix sum.
void inclusive_sum(DeviceEngine& engine, int64_t* data, int64_t n);

// Sorts keys by their bits [0, end_bit), in place.
void sort_keys(DeviceEngine& engine, DeviceArray<uint64_t>& keys, int end_bit);
// Stable sort of (key, value) pairs by the key bits [0, end_bit); the arrays are
// replaced by the sorted ones.
void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<float>& values, int end_bit);
void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<int32_t>& values, int end_bit);
void sort_pairs(DeviceEngine& engine, DeviceArray<uint64_t>& keys, DeviceArray<int64_t>& values, int end_bit);

// Sorts the entries of every row by column id (values move along); rowptr
// has rows + 1 entries. Column ids must be unique within each row.
void sort_rows(DeviceEngine& engine, int64_t rows, const int64_t* rowptr, DeviceArray<int32_t>& colidx,
               DeviceArray<float>& values);
// The same with a second array moving along (entries sorted with their index,
// then values and carried gathered by it).
void sort_rows(DeviceEngine& engine, int64_t rows, const int64_t* rowptr, DeviceArray<int32_t>& colidx,
               DeviceArray<float>& values, DeviceArray<int64_t>& carried);

// Sorts each segment [offsets[i], offsets[i + 1]) of keys, in place.
void sort_segments(DeviceEngine& engine, int64_t segments, const int64_t* offsets, DeviceArray<int64_t>& keys);

// Runs of equal keys in a sorted array: their keys and first positions
// (starts has groups + 1 entries, the last n), and, when group_of is not null,
// the run of every position. Returns the number of runs.
int64_t group_sorted_keys(DeviceEngine& engine, const uint64_t* keys, int64_t n, DeviceArray<uint64_t>& group_keys,
                          DeviceArray<int64_t>& starts, DeviceArray<int64_t>* group_of);

// The bits needed for values in [0, n) (at least 1).
int bits_for(int64_t n);

}  // namespace matsamp::gpu
