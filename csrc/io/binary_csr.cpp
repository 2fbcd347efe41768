#include "io/binary_csr.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>

#include "core/half.h"
#include "io/file_reader.h"
#include "io/graph_io.h"
#include "io/msg_container.h"

namespace matsamp {
namespace {

using msg::copy_section;
using msg::Entry;
using msg::Header;
using msg::kChunk;
using msg::kChunksPrefix;
using msg::Layout;
using msg::Part;
using msg::read_checked;
using msg::section_bytes;

constexpr const char* kSplitPrefix = "split/";
constexpr const char* kHalfFeatures = "features_f16";  // the features as IEEE halves
constexpr const char* kEdgeFeatures = "edge_features";
constexpr const char* kHalfEdgeFeatures = "edge_features_f16";
constexpr const char* kEdgeFeatureDim = "edge_feature_dim";  // int64[1]: the header has no field for it
constexpr const char* kVertexTimes = "vertex_times";         // int64[n]: Graph::vertex_times

// The width of the edge feature rows: 0 without the section.
int64_t edge_feature_dim(const FileReader& file, const Layout& l) {
  const Entry* e = l.find(kEdgeFeatureDim);
  if (!e) return 0;
  if (e->bytes != 8) fail(file.path(), ": corrupt section table: section ", kEdgeFeatureDim, " is not one int64");
  const int64_t dim = msg::copy_section<int64_t>(file, l, kEdgeFeatureDim)[0];
  if (dim <= 0) fail(file.path(), ": corrupt section ", kEdgeFeatureDim, ": ", dim, " is not positive");
  return dim;
}

Layout parse_layout(const FileReader& file) {
  const std::string& path = file.path();
  Layout l = msg::parse(file, msg::kGraphVersion);
  const Header& h = l.header;
  if (h.n < 0 || h.nnz < 0 || h.feature_dim < 0)
    fail(path, ": corrupt header: negative size (n ", h.n, ", nnz ", h.nnz, ", feature_dim ", h.feature_dim, ")");
  check_column_count(h.n, path.c_str());

  int64_t feature_count;
  if (__builtin_mul_overflow(h.n, h.feature_dim, &feature_count))
    fail(path, ": corrupt header: section size overflows");
  const int64_t edge_dim = edge_feature_dim(file, l);
  int64_t edge_feature_count;
  if (__builtin_mul_overflow(h.nnz, edge_dim, &edge_feature_count))
    fail(path, ": corrupt section ", kEdgeFeatureDim, ": edge feature section size overflows");
  const std::map<std::string, uint64_t> expected = {{"rowptr", section_bytes(path, h.n + 1, 8)},
                                                    {"colidx", section_bytes(path, h.nnz, 4)},
                                                    {"values", section_bytes(path, h.nnz, 4)},
                                                    {"features", section_bytes(path, feature_count, 4)},
                                                    {kHalfFeatures, section_bytes(path, feature_count, 2)},
                                                    {"labels", section_bytes(path, h.n, 8)},
                                                    {kVertexTimes, section_bytes(path, h.n, 8)},
                                                    {kEdgeFeatures, section_bytes(path, edge_feature_count, 4)},
                                                    {kHalfEdgeFeatures, section_bytes(path, edge_feature_count, 2)}};
  for (const char* required : {"rowptr", "colidx"})
    if (!l.find(required)) fail(path, ": corrupt section table: no section ", required);
  const bool single = l.find("features") != nullptr, half = l.find(kHalfFeatures) != nullptr;
  if (single && half) fail(path, ": corrupt section table: features stored twice (float32 and float16)");
  if ((h.feature_dim > 0) != (single || half))
    fail(path, ": corrupt header: feature_dim ", h.feature_dim, " disagrees with the features section");
  const bool edge_single = l.find(kEdgeFeatures) != nullptr, edge_half = l.find(kHalfEdgeFeatures) != nullptr;
  if (edge_single && edge_half) fail(path, ": corrupt section table: edge features stored twice (float32 and float16)");
  if ((edge_dim > 0) != (edge_single || edge_half))
    fail(path, ": corrupt section ", kEdgeFeatureDim, ": ", edge_dim, " disagrees with the edge features section");
  for (const auto& [name, e] : l.sections) {
    auto want = expected.find(name);
    if (want != expected.end() && e.bytes != want->second)
      fail(path, ": corrupt section table: section ", name, " has ", e.bytes, " bytes, expected ", want->second);
    if (name.rfind(kSplitPrefix, 0) == 0 && e.bytes % 8 != 0)
      fail(path, ": corrupt section table: section ", name, " is not a whole number of ids");
    msg::check_chunk_section(path, l, name, e);
  }
  msg::require_chunk_sections(path, l, {"rowptr", "colidx", "values"});  // what partitioned loading reads in parts
  return l;
}

// The name of the section that holds the features.
const char* features_section(const Layout& l) { return l.find(kHalfFeatures) ? kHalfFeatures : "features"; }

// The same for the edge features.
const char* edge_features_section(const Layout& l) {
  return l.find(kHalfEdgeFeatures) ? kHalfEdgeFeatures : kEdgeFeatures;
}

std::vector<float> halves_to_floats(const std::vector<uint16_t>& halves) {
  std::vector<float> out(halves.size());
  for (size_t i = 0; i < halves.size(); ++i) out[i] = half_to_float(halves[i]);
  return out;
}

// `values` (rows of `dim` belonging to a `row` each) as IEEE halves, refusing
// what float16 cannot hold, naming it.
std::vector<uint16_t> floats_to_halves(const std::string& path, const std::vector<float>& values, int64_t dim,
                                       const char* row) {
  std::vector<uint16_t> halves(values.size());
  for (size_t i = 0; i < halves.size(); ++i) {
    MATSAMP_CHECK(std::fabs(values[i]) < kHalfOverflow, path, ": feature ", i % dim, " of ", row, " ", i / dim, " is ",
                  values[i], ", beyond float16's range (keep the features float32)");
    halves[i] = float_to_half(values[i]);
  }
  return halves;
}

// Section `name` (IEEE halves when `half`) as float32 rows of `dim`, checked finite.
std::vector<float> read_feature_section(const FileReader& file, const Layout& l, const char* name, bool half,
                                        int64_t dim, const char* row) {
  std::vector<float> values = half ? halves_to_floats(copy_section<uint16_t>(file, l, name))
                                   : copy_section<float>(file, l, name);
  msg::check_finite_features(file.path(), name, values, dim, row);
  return values;
}

}  // namespace

void write_binary_csr(const std::string& path, const Graph& g) { write_binary_csr(path, g, FeatureType::float32); }

void write_binary_csr(const std::string& path, const Graph& g, FeatureType features) {
  validate(g, path);
  validate(g.adj, path);
  msg::check_finite_features(path, "features", g.features, g.feature_dim);
  msg::check_finite_features(path, kEdgeFeatures, g.edge_features, g.edge_feature_dim, "edge");
  std::vector<Part> parts = {{"rowptr", g.adj.rowptr.data(), g.adj.rowptr.size() * sizeof(int64_t)},
                             {"colidx", g.adj.colidx.data(), g.adj.colidx.size() * sizeof(col_t)}};
  if (!g.adj.values.empty()) parts.push_back({"values", g.adj.values.data(), g.adj.values.size() * sizeof(float)});
  const bool half = features == FeatureType::float16;
  std::vector<uint16_t> halves, edge_halves;
  if (g.has_features() && half) {
    halves = floats_to_halves(path, g.features, g.feature_dim, "vertex");
    parts.push_back({kHalfFeatures, halves.data(), halves.size() * sizeof(uint16_t)});
  } else if (g.has_features()) {
    parts.push_back({"features", g.features.data(), g.features.size() * sizeof(float)});
  }
  if (g.has_edge_features()) {
    parts.push_back({kEdgeFeatureDim, &g.edge_feature_dim, sizeof(int64_t)});
    if (half) {
      edge_halves = floats_to_halves(path, g.edge_features, g.edge_feature_dim, "edge");
      parts.push_back({kHalfEdgeFeatures, edge_halves.data(), edge_halves.size() * sizeof(uint16_t)});
    } else {
      parts.push_back({kEdgeFeatures, g.edge_features.data(), g.edge_features.size() * sizeof(float)});
    }
  }
  if (g.has_labels()) parts.push_back({"labels", g.labels.data(), g.labels.size() * sizeof(int64_t)});
  if (g.has_vertex_times())
    parts.push_back({kVertexTimes, g.vertex_times.data(), g.vertex_times.size() * sizeof(int64_t)});
  for (const auto& [name, ids] : g.splits) {
    MATSAMP_CHECK(name.size() + std::strlen(kSplitPrefix) < sizeof(Entry::name), path, ": split name '", name,
                  "' is too long");
    parts.push_back({kSplitPrefix + name, ids.data(), ids.size() * sizeof(vid_t)});
  }
  // A checksum per MiB of the sections a process may read only part of (its
  // block of rows, its feature rows), so that it can verify what it reads.
  std::deque<std::vector<uint64_t>> chunks;
  msg::add_chunk_sections(
      parts, [](const std::string& name) { return name.rfind(kSplitPrefix, 0) != 0; }, chunks);

  msg::write_file(path, msg::kGraphVersion, g.num_vertices(), g.adj.nnz(), g.feature_dim, parts);
}

Graph read_binary_csr(const std::string& path) { return read_binary_csr(path, BinaryReadOptions{}); }

Graph read_binary_csr(const std::string& path, const BinaryReadOptions& options) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  Graph g;
  g.adj.rows = g.adj.cols = l.header.n;
  g.adj.rowptr = copy_section<int64_t>(file, l, "rowptr");
  g.adj.colidx = copy_section<col_t>(file, l, "colidx");
  if (l.find("values")) g.adj.values = copy_section<float>(file, l, "values");
  else g.adj.values.assign(l.header.nnz, 1.0f);        // the in-memory form always carries values
  if (options.features && l.header.feature_dim > 0) {  // parse_layout: then exactly one of two feature sections
    const char* section = features_section(l);
    g.feature_dim = l.header.feature_dim;
    g.features = read_feature_section(file, l, section, section == kHalfFeatures, g.feature_dim, "vertex");
  }
  if (const int64_t edge_dim = edge_feature_dim(file, l); edge_dim > 0) {  // and of the two edge feature sections
    const char* section = edge_features_section(l);
    g.edge_feature_dim = edge_dim;
    g.edge_features = read_feature_section(file, l, section, section == kHalfEdgeFeatures, edge_dim, "edge");
  }
  if (l.find("labels")) g.labels = copy_section<int64_t>(file, l, "labels");
  if (l.find(kVertexTimes)) g.vertex_times = copy_section<int64_t>(file, l, kVertexTimes);
  for (const auto& [name, e] : l.sections)
    if (name.rfind(kSplitPrefix, 0) == 0)
      g.splits[name.substr(std::strlen(kSplitPrefix))] = copy_section<vid_t>(file, l, name);
  msg::verify_chunk_sections(file, l);
  validate(g.adj, path);
  validate(g, path);
  return g;
}

BinaryCsrInfo read_binary_csr_info(const std::string& path) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  const Header& h = l.header;
  BinaryCsrInfo info{h.n,
                     h.nnz,
                     h.feature_dim,
                     l.find("values") != nullptr,
                     h.feature_dim > 0,
                     l.find("labels") != nullptr,
                     {},
                     l.find(kHalfFeatures) ? FeatureType::float16 : FeatureType::float32,
                     edge_feature_dim(file, l),
                     l.find(kHalfEdgeFeatures) ? FeatureType::float16 : FeatureType::float32};
  for (const auto& [name, e] : l.sections)
    if (name.rfind(kSplitPrefix, 0) == 0) info.splits.push_back(name.substr(std::strlen(kSplitPrefix)));
  return info;
}

std::vector<BinarySection> read_binary_csr_sections(const std::string& path) {
  const FileReader file(path);
  std::vector<BinarySection> out;
  for (const auto& [name, e] : parse_layout(file).sections) out.push_back({name, e.offset, e.bytes, e.checksum});
  return out;
}

FloatFeatureSection binary_float_features(const FileReader& file) {
  const Layout l = parse_layout(file);
  MATSAMP_CHECK(l.header.feature_dim > 0, file.path(), ": has no features");
  MATSAMP_CHECK(!l.find(kHalfFeatures), file.path(),
                ": features are stored as float16, which must be converted to float32 (load them without mapping)");
  const Entry& e = l.sections.at("features");
  return {{"features", e.offset, e.bytes, e.checksum}, l.header.n, l.header.feature_dim};
}

namespace {

// The section a reader of a part needs, with its chunk checksums.
const Entry& partial_section(const FileReader& file, const Layout& l, const std::string& name) {
  const Entry* e = l.find(name);
  MATSAMP_CHECK(e, file.path(), ": has no ", name);
  MATSAMP_CHECK(l.find(kChunksPrefix + name), file.path(), ": corrupt section table: no section ", kChunksPrefix, name);
  return *e;
}

}  // namespace

CsrMatrix read_binary_csr_rows(const std::string& path, int64_t r0, int64_t r1) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  return msg::read_csr_rows(file, l, "", l.header.n, l.header.n, l.header.nnz, r0, r1);
}

std::vector<float> read_binary_feature_rows(const std::string& path, int64_t r0, int64_t r1) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  const int64_t n = l.header.n, f = l.header.feature_dim;
  MATSAMP_CHECK(0 <= r0 && r0 <= r1 && r1 <= n, path, ": feature rows [", r0, ", ", r1, ") outside [0, ", n, ")");
  const char* section = features_section(l);
  partial_section(file, l, section);
  std::vector<float> rows((r1 - r0) * f);
  if (section == kHalfFeatures) {
    std::vector<uint16_t> halves(rows.size());
    read_checked(file, l, section, 2 * r0 * f, 2 * r1 * f, halves.data());
    rows = halves_to_floats(halves);
  } else {
    read_checked(file, l, section, 4 * r0 * f, 4 * r1 * f, rows.data());
  }
  msg::check_finite_features(path, section, rows, f);
  return rows;
}

std::vector<int64_t> read_binary_labels_at(const std::string& path, const std::vector<vid_t>& ids) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  partial_section(file, l, "labels");
  MATSAMP_CHECK(std::is_sorted(ids.begin(), ids.end()), path, ": labels are read at ascending ids");
  MATSAMP_CHECK(ids.empty() || (ids.front() >= 0 && ids.back() < l.header.n), path, ": label ids outside [0, ",
                l.header.n, ")");
  std::vector<int64_t> labels(ids.size()), run;
  // Ids whose labels lie in the same chunk are read together.
  constexpr int64_t kPerChunk = kChunk / 8;
  for (size_t i = 0, j; i < ids.size(); i = j) {
    for (j = i + 1; j < ids.size() && ids[j] / kPerChunk == ids[i] / kPerChunk;) ++j;
    run.resize(ids[j - 1] - ids[i] + 1);
    read_checked(file, l, "labels", 8 * static_cast<uint64_t>(ids[i]), 8 * static_cast<uint64_t>(ids[j - 1] + 1),
                 run.data());
    for (size_t k = i; k < j; ++k) labels[k] = run[ids[k] - ids[i]];
  }
  return labels;
}

std::vector<int64_t> read_binary_labels(const std::string& path) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  MATSAMP_CHECK(l.find("labels"), path, ": has no labels");
  return copy_section<int64_t>(file, l, "labels");
}

std::map<std::string, std::vector<vid_t>> read_binary_splits(const std::string& path) {
  const FileReader file(path);
  const Layout l = parse_layout(file);
  std::map<std::string, std::vector<vid_t>> splits;
  for (const auto& [name, e] : l.sections)
    if (name.rfind(kSplitPrefix, 0) == 0) {
      std::vector<vid_t> ids = copy_section<vid_t>(file, l, name);
      MATSAMP_CHECK(std::is_sorted(ids.begin(), ids.end()) &&
                        (ids.empty() || (ids.front() >= 0 && ids.back() < l.header.n)),
                    path, ": corrupt section ", name, ": ids not ascending in [0, ", l.header.n, ")");
      splits[name.substr(std::strlen(kSplitPrefix))] = std::move(ids);
    }
  return splits;
}

}  // namespace matsamp
