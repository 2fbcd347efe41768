#include "io/msg_container.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#include "core/error.h"
#include "io/atomic_file.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the .msg format is little-endian");

namespace matsamp::msg {

namespace {

constexpr char kMagic[8] = {'M', 'A', 'T', 'S', 'A', 'M', 'P', '1'};
constexpr uint64_t kAlign = 64;

uint64_t padded(uint64_t bytes) { return (bytes + kAlign - 1) & ~(kAlign - 1); }

uint64_t header_checksum(const Header& h, const Entry* table) {
  XXH3_state_t* state = XXH3_createState();
  MATSAMP_CHECK(state, "out of memory for a checksum state");
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, &h, offsetof(Header, checksum));
  XXH3_64bits_update(state, table, sizeof(Entry) * h.sections);
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return sum;
}

// A file of the other kind names the reader that takes it.
[[noreturn]] void refuse_version(const std::string& path, uint32_t found, uint32_t wanted) {
  if (found == 1)
    fail(path,
         ": written in .msg format 1 by an older matsamp; re-convert it from its source (matsamp convert "
         "SOURCE ",
         path, ")");
  if (found == kHeteroVersion && wanted == kGraphVersion)
    fail(path,
         ": a heterogeneous graph (vertex types and relations), not a graph of one vertex type: read it with "
         "read_hetero_binary (matsamp bench and train take it as -g, with --relation-fanouts)");
  if (found == kGraphVersion && wanted == kHeteroVersion)
    fail(path,
         ": a graph of one vertex type, not a heterogeneous graph: read it with read_binary_csr (or read_graph; "
         "matsamp commands take it as -g)");
  if (found == kEstimateVersion) fail(path, ": GraphSAINT's pre-sampled counts (--saint-counts), not a graph");
  if (wanted == kEstimateVersion) fail(path, ": a graph, not GraphSAINT's pre-sampled counts (--saint-counts)");
  fail(path, ": unsupported format version ", found, " (this build reads ", kGraphVersion, " and ", kHeteroVersion,
       ")");
}

}  // namespace

void write_file(const std::string& path, uint32_t version, int64_t n, int64_t nnz, int64_t feature_dim,
                const std::vector<Part>& parts) {
  MATSAMP_CHECK(parts.size() <= kMaxSections, path, ": ", parts.size(), " sections, more than the format's ",
                kMaxSections);
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = version;
  h.sections = static_cast<uint32_t>(parts.size());
  h.n = n;
  h.nnz = nnz;
  h.feature_dim = feature_dim;
  std::vector<Entry> table(parts.size());
  uint64_t at = padded(sizeof(Header) + sizeof(Entry) * parts.size());
  const uint64_t first_section = at;
  for (size_t i = 0; i < parts.size(); ++i) {
    MATSAMP_CHECK(parts[i].name.size() < sizeof(Entry::name), path, ": section name '", parts[i].name, "' is too long");
    Entry& e = table[i];
    std::memset(&e, 0, sizeof e);
    std::memcpy(e.name, parts[i].name.data(), parts[i].name.size());
    e.offset = at;
    e.bytes = parts[i].bytes;
    e.checksum = XXH3_64bits(parts[i].data, parts[i].bytes);
    at += padded(e.bytes);
  }
  h.checksum = header_checksum(h, table.data());

  AtomicFileWriter out(path);
  const char zeros[kAlign] = {};
  out.write(&h, sizeof(h));
  out.write(table.data(), sizeof(Entry) * table.size());
  out.write(zeros, first_section - sizeof(h) - sizeof(Entry) * table.size());
  for (const Part& p : parts) {
    out.write(p.data, p.bytes);
    out.write(zeros, padded(p.bytes) - p.bytes);
  }
  out.commit();
}

Layout parse(const FileReader& file, uint32_t version) {
  const std::string& path = file.path();
  Layout l;
  Header& h = l.header;
  if (file.size() < sizeof(Header))
    fail(path, ": truncated: expected at least ", sizeof(Header), " bytes, file has ", file.size());
  file.read(0, &h, sizeof(Header));
  if (std::memcmp(h.magic, kMagic, 8) != 0) fail(path, ": not a matsamp binary graph (bad magic)");
  if (h.version != version) refuse_version(path, h.version, version);
  if (h.sections > kMaxSections) fail(path, ": corrupt header: ", h.sections, " sections");
  const uint64_t table_end = sizeof(Header) + uint64_t{h.sections} * sizeof(Entry);
  if (file.size() < table_end)
    fail(path, ": truncated: expected at least ", table_end, " bytes, file has ", file.size());
  std::vector<Entry> table(h.sections);
  file.read(sizeof(Header), table.data(), sizeof(Entry) * h.sections);
  if (header_checksum(h, table.data()) != h.checksum) fail(path, ": checksum mismatch in the header");

  uint64_t at = padded(table_end);
  for (const Entry& e : table) {
    if (std::memchr(e.name, 0, sizeof e.name) == nullptr) fail(path, ": corrupt section table: unterminated name");
    const std::string name = e.name;
    if (e.offset != at || e.bytes > (uint64_t{1} << 60))
      fail(path, ": corrupt section table: section ", name, " is not where the one before ends");
    at += padded(e.bytes);
    if (!l.sections.emplace(name, e).second) fail(path, ": corrupt section table: section ", name, " twice");
  }
  if (file.size() < at) fail(path, ": truncated: expected ", at, " bytes, file has ", file.size());
  if (file.size() > at) fail(path, ": size mismatch: expected ", at, " bytes, file has ", file.size());
  return l;
}

uint32_t peek_version(const std::string& path) {
  // Not FileReader: a path that is no file (a generator spec, a folder) is an answer here, not an error.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return 0;
  char bytes[12];
  const bool whole = ::pread(fd, bytes, sizeof bytes, 0) == static_cast<ssize_t>(sizeof bytes);
  ::close(fd);
  if (!whole || std::memcmp(bytes, kMagic, 8) != 0) return 0;
  uint32_t version;
  std::memcpy(&version, bytes + 8, 4);
  return version;
}

uint64_t section_bytes(const std::string& path, int64_t count, uint64_t item) {
  uint64_t bytes;
  if (count < 0 || __builtin_mul_overflow(static_cast<uint64_t>(count), item, &bytes) || bytes > (uint64_t{1} << 60))
    fail(path, ": corrupt header: section size overflows");
  return bytes;
}

void check_section(const std::string& path, const std::string& name, const void* bytes, uint64_t size,
                   uint64_t checksum) {
  if (XXH3_64bits(bytes, size) != checksum) fail(path, ": checksum mismatch in section ", name);
}

void read_section(const FileReader& file, const std::string& name, const Entry& e, void* out) {
  file.read(e.offset, out, e.bytes);
  check_section(file.path(), name, out, e.bytes, e.checksum);
}

uint64_t chunk_count(uint64_t bytes) { return (bytes + kChunk - 1) / kChunk; }

void add_chunk_sections(std::vector<Part>& parts, const std::function<bool(const std::string&)>& partial,
                        std::deque<std::vector<uint64_t>>& sums) {
  for (size_t i = 0, whole = parts.size(); i < whole; ++i) {
    if (!partial(parts[i].name)) continue;
    std::vector<uint64_t>& s = sums.emplace_back(chunk_count(parts[i].bytes));
    const char* p = static_cast<const char*>(parts[i].data);
    for (uint64_t c = 0; c < s.size(); ++c)
      s[c] = XXH3_64bits(p + c * kChunk, std::min(kChunk, parts[i].bytes - c * kChunk));
    parts.push_back({kChunksPrefix + parts[i].name, s.data(), s.size() * sizeof(uint64_t)});
  }
}

bool check_chunk_section(const std::string& path, const Layout& l, const std::string& name, const Entry& e) {
  if (name.rfind(kChunksPrefix, 0) != 0) return false;
  const Entry* of = l.find(name.substr(std::strlen(kChunksPrefix)));
  if (!of || e.bytes != 8 * chunk_count(of->bytes))
    fail(path, ": corrupt section table: section ", name, " does not match its section");
  return true;
}

void verify_chunk_sections(const FileReader& file, const Layout& l) {
  for (const auto& [name, e] : l.sections)
    if (name.rfind(kChunksPrefix, 0) == 0) copy_section<uint64_t>(file, l, name);
}

void require_chunk_sections(const std::string& path, const Layout& l, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (l.find(name) && !l.find(kChunksPrefix + name))
      fail(path, ": corrupt section table: no section ", kChunksPrefix, name);
}

void read_checked(const FileReader& file, const Layout& l, const std::string& name, uint64_t begin, uint64_t end,
                  void* out) {
  if (end <= begin) return;
  const Entry& e = l.sections.at(name);
  const Entry& sums_entry = l.sections.at(kChunksPrefix + name);
  const uint64_t c0 = begin / kChunk, c1 = (end - 1) / kChunk;
  std::vector<uint64_t> sums(c1 - c0 + 1);
  file.read(sums_entry.offset + 8 * c0, sums.data(), 8 * sums.size());
  const uint64_t from = c0 * kChunk, to = std::min((c1 + 1) * kChunk, e.bytes);
  std::vector<char> bytes(to - from);
  file.read(e.offset + from, bytes.data(), bytes.size());
  for (uint64_t c = c0; c <= c1; ++c) {
    const uint64_t at = c * kChunk - from, size = std::min(kChunk, e.bytes - c * kChunk);
    if (XXH3_64bits(bytes.data() + at, size) != sums[c - c0])
      fail(file.path(), ": checksum mismatch in section ", name, " (bytes ", c * kChunk, " to ", c * kChunk + size,
           ")");
  }
  std::memcpy(out, bytes.data() + (begin - from), end - begin);
}

CsrMatrix read_csr_rows(const FileReader& file, const Layout& l, const std::string& prefix, int64_t rows, int64_t cols,
                        int64_t nnz, int64_t r0, int64_t r1) {
  const std::string& path = file.path();
  const std::string rowptr_section = prefix + "rowptr", colidx = prefix + "colidx", values = prefix + "values";
  MATSAMP_CHECK(0 <= r0 && r0 <= r1 && r1 <= rows, path, ": row block [", r0, ", ", r1, ") outside [0, ", rows, ")");
  std::vector<int64_t> rowptr(r1 - r0 + 1);
  read_checked(file, l, rowptr_section, 8 * r0, 8 * (r1 + 1), rowptr.data());
  for (int64_t i = 0; i + 1 < static_cast<int64_t>(rowptr.size()); ++i)
    MATSAMP_CHECK(rowptr[i] <= rowptr[i + 1], path, ": corrupt section ", rowptr_section, ": decreases at row ",
                  r0 + i);
  MATSAMP_CHECK(rowptr.front() >= 0 && rowptr.back() <= nnz, path, ": corrupt section ", rowptr_section, ": rows [", r0,
                ", ", r1, ") point outside [0, ", nnz, "]");
  const int64_t first = rowptr.front(), count = rowptr.back() - first;
  CsrMatrix m(r1 - r0, cols);
  for (size_t i = 0; i < rowptr.size(); ++i) m.rowptr[i] = rowptr[i] - first;
  m.colidx.resize(count);
  read_checked(file, l, colidx, 4 * first, 4 * (first + count), m.colidx.data());
  if (l.find(values)) {
    m.values.resize(count);
    read_checked(file, l, values, 4 * first, 4 * (first + count), m.values.data());
  } else {
    m.values.assign(count, 1.0f);
  }
  validate(m, detail::concat(path, " ", prefix, "rows [", r0, ", ", r1, ")"));
  return m;
}

void check_finite_features(const std::string& path, const std::string& section, const float* features, size_t count,
                           int64_t dim, const char* row) {
  for (size_t i = 0; i < count; ++i)
    if (!std::isfinite(features[i]))
      fail(path, ": section ", section, ": value ", features[i], " of ", row, " ", static_cast<int64_t>(i) / dim,
           ", feature ", static_cast<int64_t>(i) % dim, " is not finite");
}

}  // namespace matsamp::msg
