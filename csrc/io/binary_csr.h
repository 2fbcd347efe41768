// The matsamp binary graph format (.msg): a fixed header, then the CSR arrays,
// features and labels as raw little-endian sections, each 8-byte aligned and
// covered by a checksum in the header. Loaded by mmap; write_binary_csr and
// read_binary_csr are declared in graph_io.h.
//
// Layout (all integers little-endian):
//   0   char[8]   magic "MATSAMP1"
//   8   uint32    version (1)
//   12  uint32    flags: bit 0 values, bit 1 features, bit 2 labels
//   16  int64     n (vertices)
//   24  int64     nnz
//   32  int64     feature_dim (0 without features)
//   40  uint64[5] checksums of rowptr, colidx, values, features, labels (0 if absent)
//   80  sections in that order: rowptr int64[n+1], colidx int32[nnz], values float[nnz],
//       features float[n*feature_dim], labels int64[n]; each zero-padded to 8 bytes.
#pragma once
#include <cstdint>
#include <string>

#include "core/csr.h"

namespace matsamp {

struct BinaryCsrInfo {
  int64_t vertices = 0;
  int64_t edges = 0;  // nonzeros of the adjacency
  int64_t feature_dim = 0;
  bool has_values = false;  // without values every edge weighs 1
  bool has_features = false;
  bool has_labels = false;
};

// Header only (checked against the file length); no section is read.
BinaryCsrInfo read_binary_csr_info(const std::string& path);

// Rows [r0, r1) of the adjacency: (r1 - r0) x n, rowptr rebased to 0. Only those rows
// are touched (for partitioned loading); section checksums are not verified, bounds are.
CsrMatrix read_binary_csr_rows(const std::string& path, int64_t r0, int64_t r1);

}  // namespace matsamp
