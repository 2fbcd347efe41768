#include "io/binary_csr.h"

#include <array>
#include <cstring>

#include "io/graph_io.h"
#include "io/mapped_file.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the .msg format is little-endian");

namespace matsamp {
namespace {

constexpr char kMagic[8] = {'M', 'A', 'T', 'S', 'A', 'M', 'P', '1'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kValues = 1, kFeatures = 2, kLabels = 4;  // header flags
enum Section { kRowptr, kColidx, kValuesSection, kFeaturesSection, kLabelsSection, kSections };
constexpr const char* kSectionNames[kSections] = {"rowptr", "colidx", "values", "features", "labels"};

struct Header {
  char magic[8];
  uint32_t version;
  uint32_t flags;
  int64_t n;
  int64_t nnz;
  int64_t feature_dim;
  uint64_t checksum[kSections];
};
static_assert(sizeof(Header) == 80, "the on-disk header is 80 bytes");

uint64_t padded(uint64_t bytes) { return (bytes + 7) & ~uint64_t{7}; }

// Checksum of one section: a multiply-xorshift chain over its 8-byte little-endian
// words (the last word zero-padded), finished with MurmurHash3's fmix64. Each step is
// a bijection of the running state, so any single changed word is always detected;
// it is not cryptographic. About 1 ns per word.
uint64_t checksum(const char* bytes, uint64_t size) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ size;
  auto mix = [&h](uint64_t word) {
    h = (h ^ word) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  };
  const uint64_t words = size / 8;
  for (uint64_t i = 0; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, bytes + 8 * i, 8);
    mix(w);
  }
  if (size % 8) {
    uint64_t w = 0;
    std::memcpy(&w, bytes + 8 * words, size % 8);
    mix(w);
  }
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

// Where each section lies, from a header already checked for sane sizes.
struct Layout {
  Header header;
  std::array<uint64_t, kSections> offset{}, bytes{};  // bytes = 0 for absent sections
  uint64_t file_size = 0;                             // what the header implies
};

uint64_t section_bytes(const std::string& path, int64_t count, uint64_t item) {
  uint64_t bytes;
  if (count < 0 || __builtin_mul_overflow(static_cast<uint64_t>(count), item, &bytes) || bytes > (uint64_t{1} << 60))
    fail(path, ": corrupt header: section size overflows");
  return bytes;
}

Layout parse_header(const MappedFile& file) {
  const std::string& path = file.path();
  Layout l;
  if (file.size() < sizeof(Header))
    fail(path, ": truncated: expected at least ", sizeof(Header), " bytes, file has ", file.size());
  std::memcpy(&l.header, file.data(), sizeof(Header));
  const Header& h = l.header;
  if (std::memcmp(h.magic, kMagic, 8) != 0) fail(path, ": not a matsamp binary graph (bad magic)");
  if (h.version != kVersion)
    fail(path, ": unsupported format version ", h.version, " (this build reads ", kVersion, ")");
  if (h.flags & ~(kValues | kFeatures | kLabels)) fail(path, ": unknown flags 0x", std::hex, h.flags);
  if (h.n < 0 || h.nnz < 0 || h.feature_dim < 0)
    fail(path, ": corrupt header: negative size (n ", h.n, ", nnz ", h.nnz, ", feature_dim ", h.feature_dim, ")");
  check_column_count(h.n, path.c_str());
  if ((h.feature_dim > 0) != bool(h.flags & kFeatures))
    fail(path, ": corrupt header: feature flag disagrees with feature_dim ", h.feature_dim);

  int64_t feature_count;
  if (__builtin_mul_overflow(h.n, h.feature_dim, &feature_count))
    fail(path, ": corrupt header: section size overflows");
  l.bytes[kRowptr] = section_bytes(path, h.n + 1, 8);
  l.bytes[kColidx] = section_bytes(path, h.nnz, 4);
  l.bytes[kValuesSection] = h.flags & kValues ? section_bytes(path, h.nnz, 4) : 0;
  l.bytes[kFeaturesSection] = h.flags & kFeatures ? section_bytes(path, feature_count, 4) : 0;
  l.bytes[kLabelsSection] = h.flags & kLabels ? section_bytes(path, h.n, 8) : 0;
  uint64_t at = sizeof(Header);
  for (int s = 0; s < kSections; ++s) {
    l.offset[s] = at;
    at += padded(l.bytes[s]);
  }
  l.file_size = at;
  if (file.size() < at) fail(path, ": truncated: expected ", at, " bytes, file has ", file.size());
  if (file.size() > at) fail(path, ": size mismatch: expected ", at, " bytes, file has ", file.size());
  return l;
}

template <class T>
std::vector<T> copy_section(const MappedFile& file, const Layout& l, Section s) {
  const char* bytes = file.data() + l.offset[s];
  if (checksum(bytes, l.bytes[s]) != l.header.checksum[s])
    fail(file.path(), ": checksum mismatch in section ", kSectionNames[s]);
  std::vector<T> out(l.bytes[s] / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes, l.bytes[s]);
  return out;
}

}  // namespace

void write_binary_csr(const std::string& path, const Graph& g) {
  validate(g, path);
  validate(g.adj, path);
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kVersion;
  h.n = g.num_vertices();
  h.nnz = g.adj.nnz();
  h.feature_dim = g.feature_dim;
  h.flags = (g.adj.values.empty() ? 0u : kValues) | (g.has_features() ? kFeatures : 0u) |
            (g.has_labels() ? kLabels : 0u);
  const std::array<std::pair<const void*, uint64_t>, kSections> sections = {{
      {g.adj.rowptr.data(), g.adj.rowptr.size() * sizeof(int64_t)},
      {g.adj.colidx.data(), g.adj.colidx.size() * sizeof(col_t)},
      {g.adj.values.data(), g.adj.values.size() * sizeof(float)},
      {g.features.data(), g.features.size() * sizeof(float)},
      {g.labels.data(), g.labels.size() * sizeof(int64_t)},
  }};
  const bool present[kSections] = {true, true, bool(h.flags & kValues), bool(h.flags & kFeatures),
                                   bool(h.flags & kLabels)};
  for (int s = 0; s < kSections; ++s)
    if (present[s]) h.checksum[s] = checksum(static_cast<const char*>(sections[s].first), sections[s].second);

  AtomicFileWriter out(path);
  out.write(&h, sizeof(h));
  const char zeros[8] = {};
  for (const auto& [data, bytes] : sections) {
    out.write(data, bytes);
    out.write(zeros, padded(bytes) - bytes);
  }
  out.commit();
}

Graph read_binary_csr(const std::string& path) {
  const MappedFile file(path);
  const Layout l = parse_header(file);
  Graph g;
  g.adj.rows = g.adj.cols = l.header.n;
  g.adj.rowptr = copy_section<int64_t>(file, l, kRowptr);
  g.adj.colidx = copy_section<col_t>(file, l, kColidx);
  if (l.header.flags & kValues) g.adj.values = copy_section<float>(file, l, kValuesSection);
  else g.adj.values.assign(l.header.nnz, 1.0f);  // the in-memory form always carries values
  if (l.header.flags & kFeatures) {
    g.feature_dim = l.header.feature_dim;
    g.features = copy_section<float>(file, l, kFeaturesSection);
  }
  if (l.header.flags & kLabels) g.labels = copy_section<int64_t>(file, l, kLabelsSection);
  validate(g.adj, path);
  validate(g, path);
  return g;
}

BinaryCsrInfo read_binary_csr_info(const std::string& path) {
  const MappedFile file(path);
  const Header h = parse_header(file).header;
  return {h.n, h.nnz, h.feature_dim, bool(h.flags & kValues), bool(h.flags & kFeatures), bool(h.flags & kLabels)};
}

CsrMatrix read_binary_csr_rows(const std::string& path, int64_t r0, int64_t r1) {
  const MappedFile file(path);
  const Layout l = parse_header(file);
  const int64_t n = l.header.n, nnz = l.header.nnz;
  MATSAMP_CHECK(0 <= r0 && r0 <= r1 && r1 <= n, path, ": row block [", r0, ", ", r1, ") outside [0, ", n, ")");
  std::vector<int64_t> rowptr(r1 - r0 + 1);
  std::memcpy(rowptr.data(), file.data() + l.offset[kRowptr] + 8 * r0, 8 * rowptr.size());
  for (int64_t i = 0; i + 1 < static_cast<int64_t>(rowptr.size()); ++i)
    MATSAMP_CHECK(rowptr[i] <= rowptr[i + 1], path, ": corrupt section rowptr: decreases at row ", r0 + i);
  MATSAMP_CHECK(rowptr.front() >= 0 && rowptr.back() <= nnz, path, ": corrupt section rowptr: rows [", r0, ", ", r1,
                ") point outside [0, ", nnz, "]");
  const int64_t first = rowptr.front(), count = rowptr.back() - first;
  CsrMatrix m(r1 - r0, n);
  for (size_t i = 0; i < rowptr.size(); ++i) m.rowptr[i] = rowptr[i] - first;
  m.colidx.resize(count);
  if (count > 0) std::memcpy(m.colidx.data(), file.data() + l.offset[kColidx] + 4 * first, 4 * count);
  if (l.header.flags & kValues) {
    m.values.resize(count);
    if (count > 0) std::memcpy(m.values.data(), file.data() + l.offset[kValuesSection] + 4 * first, 4 * count);
  } else {
    m.values.assign(count, 1.0f);
  }
  validate(m, detail::concat(path, " rows [", r0, ", ", r1, ")"));
  return m;
}

}  // namespace matsamp
