// The container shared by the .msg formats: a 48-byte header, a table of named
// sections, then the sections, each 64-byte aligned and covered by an XXH3-64
// checksum in the table; the header and table are covered by one more. The
// header's version says what the sections hold: one graph (io/binary_csr.h) or
// a heterogeneous graph (io/hetero_binary.cpp); each reader refuses the other's
// files, saying which reader takes them.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/csr.h"
#include "io/file_reader.h"

namespace matsamp::msg {

constexpr uint32_t kGraphVersion = 2;     // one graph: rowptr, colidx, ... (binary_csr.h)
constexpr uint32_t kHeteroVersion = 3;    // vertex types and relations (hetero_binary.cpp)
constexpr uint32_t kEstimateVersion = 4;  // GraphSAINT's pre-sampled counts (sampling/estimate_file.h)
constexpr uint32_t kMaxSections = 1024;

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t sections;
  int64_t n;
  int64_t nnz;
  int64_t feature_dim;
  uint64_t checksum;  // of bytes [0, 40) and of the table
};
static_assert(sizeof(Header) == 48, "the on-disk header is 48 bytes");

struct Entry {
  char name[32];
  uint64_t offset;
  uint64_t bytes;
  uint64_t checksum;
};
static_assert(sizeof(Entry) == 56, "a section table entry is 56 bytes");

// A section to write: its name (at most 31 bytes) and its bytes.
struct Part {
  std::string name;
  const void* data;
  uint64_t bytes;
};

// Writes the header (magic and checksum filled in here; version, n, nnz and
// feature_dim as given), the table and the parts, atomically (io/atomic_file.h).
void write_file(const std::string& path, uint32_t version, int64_t n, int64_t nnz, int64_t feature_dim,
                const std::vector<Part>& parts);

// The file's header and sections by name, checked against each other and the file.
struct Layout {
  Header header;
  std::map<std::string, Entry> sections;
  const Entry* find(const std::string& name) const {
    auto it = sections.find(name);
    return it == sections.end() ? nullptr : &it->second;
  }
};

// Header and table: magic, version (a file of another version is refused naming
// what it holds and what reads it), checksum, sections end to end and the file
// exactly as long as they say. No section is read.
Layout parse(const FileReader& file, uint32_t version);

// The version of a .msg file, or 0 when `path` is not a readable regular file
// starting with the magic. Never throws.
uint32_t peek_version(const std::string& path);

// count * item bytes, refused as a corrupt header when negative or beyond 2^60.
uint64_t section_bytes(const std::string& path, int64_t count, uint64_t item);

// Section `e` read whole into `out` (e.bytes bytes) and checked against its checksum.
void read_section(const FileReader& file, const std::string& name, const Entry& e, void* out);
// The check alone, for a section's bytes already in memory (a mapping of the file).
void check_section(const std::string& path, const std::string& name, const void* bytes, uint64_t size,
                   uint64_t checksum);

template <class T>
std::vector<T> copy_section(const FileReader& file, const Layout& l, const std::string& name) {
  const Entry& e = l.sections.at(name);
  std::vector<T> out(e.bytes / sizeof(T));
  read_section(file, name, e, out.data());
  return out;
}

// Chunk checksums: a section a reader may read in parts (a block of rows) has a
// companion "chunks/<name>", the XXH3-64 of each MiB of it, so that the reader
// verifies what it reads.
constexpr const char* kChunksPrefix = "chunks/";
constexpr uint64_t kChunk = uint64_t{1} << 20;  // bytes per chunk checksum
uint64_t chunk_count(uint64_t bytes);
// Appends to `parts` the chunk sections of those of its parts `partial` selects;
// `sums` holds their bytes until the file is written.
void add_chunk_sections(std::vector<Part>& parts, const std::function<bool(const std::string&)>& partial,
                        std::deque<std::vector<uint64_t>>& sums);
// True when `name` is a chunk section; throws unless it matches its section.
bool check_chunk_section(const std::string& path, const Layout& l, const std::string& name, const Entry& e);
// Every chunk section read and checked against its checksum (a reader of the
// whole file verifies them like every other section).
void verify_chunk_sections(const FileReader& file, const Layout& l);
// Throws naming the first of `names` present without its chunk section.
void require_chunk_sections(const std::string& path, const Layout& l, const std::vector<std::string>& names);
// Bytes [begin, end) of section `name` into `out`: the whole chunks around them
// are read and each checked against its checksum (at most 2 MiB more than asked).
void read_checked(const FileReader& file, const Layout& l, const std::string& name, uint64_t begin, uint64_t end,
                  void* out);
// Rows [r0, r1) of the rows x cols matrix of nnz entries in sections
// <prefix>rowptr, <prefix>colidx and <prefix>values (absent: every entry 1),
// chunk by chunk verified, as a (r1 - r0) x cols matrix; validated.
CsrMatrix read_csr_rows(const FileReader& file, const Layout& l, const std::string& prefix, int64_t rows, int64_t cols,
                        int64_t nnz, int64_t r0, int64_t r1);

// Features are numbers: a NaN or infinity would poison every layer it reaches.
// `row` names what a row belongs to in the message ("vertex", "edge").
void check_finite_features(const std::string& path, const std::string& section, const float* features, size_t count,
                           int64_t dim, const char* row = "vertex");
inline void check_finite_features(const std::string& path, const std::string& section,
                                  const std::vector<float>& features, int64_t dim, const char* row = "vertex") {
  check_finite_features(path, section, features.data(), features.size(), dim, row);
}

}  // namespace matsamp::msg
