// The matsamp binary dataset format (.msg): a fixed header, a table of named
// sections, then the sections: the CSR arrays, dense features, labels and the
// named vertex sets of a split, each 64-byte aligned and covered by an XXH3-64
// checksum in the table; the header and table are covered by one more (that
// container: io/msg_container.h, shared with the heterogeneous .msg of
// io/hetero_io.h). Read with pread (io/file_reader.h), never mapped;
// write_binary_csr and read_binary_csr are declared in graph_io.h.
//
// Layout (all integers little-endian):
//   0   char[8]   magic "MATSAMP1"
//   8   uint32    version (2; files of version 1 are refused with a re-convert hint, and
//                 heterogeneous graphs, version 3, naming read_hetero_binary)
//   12  uint32    S, the number of sections
//   16  int64     n (vertices)
//   24  int64     nnz
//   32  int64     feature_dim (0 without features)
//   40  uint64    XXH3-64 of bytes [0, 40) and of the section table
//   48  S entries of 56 bytes: char name[32] (NUL-padded), uint64 offset, uint64 bytes, uint64 XXH3-64
//   then the sections in table order, each zero-padded to 64 bytes; the file ends with the last.
// Sections: rowptr int64[n+1], colidx int32[nnz], values float[nnz] (absent: all
// ones), features float[n*feature_dim] or features_f16 uint16[n*feature_dim]
// (IEEE halves, written on request: half the bytes, about 3 significant digits;
// read back as float32), optional edge features: edge_feature_dim int64[1] (d)
// with edge_features float[nnz*d] or edge_features_f16 uint16[nnz*d] (halves
// when the vertex features are; row e belongs to the CSR entry e; readers
// before edge features skip these sections), labels int64[n], vertex_times
// int64[n] (optional; readers before it skip it), split/<name> int64[]
// (ascending ids), and for each of the first five chunks/<name> uint64[]: the
// XXH3-64 of each MiB of that section, so that a reader of a part of it (a
// block of rows) verifies what it reads.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/csr.h"
#include "graph/graph.h"
#include "io/file_reader.h"

namespace matsamp {

// How a .msg stores its features.
enum class FeatureType { float32, float16 };

struct BinaryCsrInfo {
  int64_t vertices = 0;
  int64_t edges = 0;  // nonzeros of the adjacency
  int64_t feature_dim = 0;
  bool has_values = false;  // without values every edge weighs 1
  bool has_features = false;
  bool has_labels = false;
  std::vector<std::string> splits;  // names of the vertex sets ("train", "valid", "test")
  FeatureType feature_type = FeatureType::float32;
  int64_t edge_feature_dim = 0;  // 0 without edge features
  FeatureType edge_feature_type = FeatureType::float32;
};

// write_binary_csr (graph_io.h) with the vertex and edge features stored as
// `features`; float16 refuses a value beyond its range (|x| >= 65520), naming it.
void write_binary_csr(const std::string& path, const Graph& g, FeatureType features);

struct BinarySection {
  std::string name;
  uint64_t offset = 0, bytes = 0;
  uint64_t checksum = 0;  // XXH3-64 of its bytes
};

// Header and table only (checked against the file length); no section is read.
BinaryCsrInfo read_binary_csr_info(const std::string& path);
std::vector<BinarySection> read_binary_csr_sections(const std::string& path);
// Where the float32 features of an open .msg lie (header and table checked as
// by read_binary_csr, the section not read); a one-line error when the file
// has no features or stores them as float16.
struct FloatFeatureSection {
  BinarySection section;
  int64_t rows = 0, dim = 0;
};
FloatFeatureSection binary_float_features(const FileReader& file);

// What read_binary_csr reads; without the features (when a caller maps them, io/mapped_features.h).
struct BinaryReadOptions {
  bool features = true;
};
Graph read_binary_csr(const std::string& path, const BinaryReadOptions& options);

// Rows [r0, r1) of the adjacency: (r1 - r0) x n, rowptr rebased to 0. Only those rows
// are read (for partitioned loading), with the MiB chunks around them, each
// verified against its checksum; bounds are checked.
CsrMatrix read_binary_csr_rows(const std::string& path, int64_t r0, int64_t r1);

// What a rank of graph-partitioned training reads besides its rows of the
// adjacency, each part verified against the checksums of the MiB chunks it lies in:
// feature rows [r0, r1), row-major ((r1 - r0) x feature_dim; finite values checked);
std::vector<float> read_binary_feature_rows(const std::string& path, int64_t r0, int64_t r1);
// the labels of ascending vertex ids (each chunk read once, however many ids it holds);
std::vector<int64_t> read_binary_labels_at(const std::string& path, const std::vector<vid_t>& ids);
// every label; and the named vertex sets of the split (empty without one).
std::vector<int64_t> read_binary_labels(const std::string& path);
std::map<std::string, std::vector<vid_t>> read_binary_splits(const std::string& path);

}  // namespace matsamp
