// A heterogeneous graph in the .msg container (layout: io/hetero_io.h).
#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <string_view>
#include <vector>

#include "io/file_reader.h"
#include "io/hetero_io.h"
#include "io/msg_container.h"

namespace matsamp {

namespace {

using msg::copy_section;
using msg::Layout;
using msg::section_bytes;

constexpr const char* kSchema = "schema";
constexpr std::string_view kNameForbidden("\t\n\0", 3);  // the schema's separators

std::string type_section(size_t t, const std::string& part) { return "type/" + std::to_string(t) + "/" + part; }
std::string relation_section(size_t r, const std::string& part) { return "relation/" + std::to_string(r) + "/" + part; }

const std::string& schema_name(const std::string& path, const char* what, const std::string& name) {
  MATSAMP_CHECK(name.find_first_of(kNameForbidden) == std::string::npos, path, ": ", what, " '", name,
                "' holds a tab, a line break or a NUL, which the format keeps out of names");
  return name;
}

std::string schema_text(const std::string& path, const HeteroGraph& g) {
  std::string text;
  for (const VertexType& t : g.types)
    text +=
        detail::concat("type\t", schema_name(path, "vertex type", t.name), "\t", t.count, "\t", t.feature_dim, "\n");
  for (const Relation& r : g.relations)
    text += detail::concat("relation\t", r.source, "\t", schema_name(path, "relation", r.name), "\t", r.destination,
                           "\t", r.adj.nnz(), "\n");
  return text;
}

int64_t schema_number(const std::string& path, size_t line, std::string_view text) {
  int64_t value = -1;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0)
    fail(path, ": section schema, line ", line, ": '", text, "' is not a count");
  return value;
}

int schema_type(const std::string& path, size_t line, const HeteroGraph& g, const std::string& name) {
  for (size_t t = 0; t < g.types.size(); ++t)
    if (g.types[t].name == name) return static_cast<int>(t);
  fail(path, ": section schema, line ", line, ": relation names unknown vertex type '", name, "'");
}

HeteroSchema parse_schema(const std::string& path, const std::string& text) {
  HeteroSchema s;
  std::vector<std::vector<std::string>> relations;
  size_t line = 0;
  for (size_t at = 0; at < text.size(); ++line) {
    const size_t end = text.find('\n', at);
    if (end == std::string::npos) fail(path, ": section schema, line ", line + 1, ": no line break at its end");
    std::vector<std::string> fields;
    for (size_t from = at; from <= end;) {
      const size_t tab = std::min(text.find('\t', from), end);
      fields.push_back(text.substr(from, tab - from));
      from = tab + 1;
    }
    at = end + 1;
    if (fields[0] == "type" && fields.size() == 4 && relations.empty()) {
      const int64_t count = schema_number(path, line + 1, fields[2]);
      if (count > std::numeric_limits<col_t>::max())
        fail(path, ": section schema, line ", line + 1, ": ", count, " vertices of type ", fields[1],
             " do not fit 32-bit ids (limit 2^31 - 1)");
      s.graph.types.push_back({fields[1], count, schema_number(path, line + 1, fields[3])});
    } else if (fields[0] == "relation" && fields.size() == 5) {
      relations.push_back(std::move(fields));
    } else {
      fail(path, ": section schema, line ", line + 1,
           ": expected 'type NAME COUNT FEATURE_DIM' (types first) or 'relation SOURCE NAME DESTINATION EDGES', "
           "tab-separated");
    }
  }
  for (size_t r = 0; r < relations.size(); ++r) {
    const std::vector<std::string>& f = relations[r];
    const size_t at_line = s.graph.types.size() + r + 1;
    Relation rel{f[1], f[2], f[3], {}};
    rel.adj.cols = s.graph.types[schema_type(path, at_line, s.graph, f[1])].count;
    rel.adj.rows = s.graph.types[schema_type(path, at_line, s.graph, f[3])].count;
    s.graph.relations.push_back(std::move(rel));
    s.edges.push_back(schema_number(path, at_line, f[4]));
  }
  return s;
}

// "type/<t>/split/<name>" for one of `types` types, t written as the writer writes it.
bool is_split_section(const std::string& name, size_t types) {
  const size_t slash = name.find('/', 5);
  if (name.rfind("type/", 0) != 0 || slash == std::string::npos) return false;
  size_t t = 0;
  const auto [end, ec] = std::from_chars(name.data() + 5, name.data() + slash, t);
  if (ec != std::errc() || end != name.data() + slash || t >= types) return false;
  const std::string prefix = type_section(t, "split/");
  return name.size() > prefix.size() && name.rfind(prefix, 0) == 0;
}

// Every section where the schema puts it, of the size it implies, before any
// is read: what a reader allocates is then bounded by the file's length.
void check_sections(const std::string& path, const Layout& l, const HeteroSchema& s) {
  std::map<std::string, uint64_t> expected;  // name -> bytes
  std::vector<std::string> required;
  for (size_t t = 0; t < s.graph.types.size(); ++t) {
    const VertexType& type = s.graph.types[t];
    int64_t values;
    if (__builtin_mul_overflow(type.count, type.feature_dim, &values))
      fail(path, ": corrupt section schema: vertex type ", type.name, ": features overflow");
    if (type.feature_dim > 0) {
      expected[type_section(t, "features")] = section_bytes(path, values, 4);
      required.push_back(type_section(t, "features"));
    }
    expected[type_section(t, "labels")] = section_bytes(path, type.count, 8);
    expected[type_section(t, "times")] = section_bytes(path, type.count, 8);
  }
  for (size_t r = 0; r < s.graph.relations.size(); ++r) {
    expected[relation_section(r, "rowptr")] = section_bytes(path, s.graph.relations[r].adj.rows + 1, 8);
    expected[relation_section(r, "colidx")] = section_bytes(path, s.edges[r], 4);
    expected[relation_section(r, "values")] = section_bytes(path, s.edges[r], 4);
    required.push_back(relation_section(r, "rowptr"));
    required.push_back(relation_section(r, "colidx"));
  }
  for (const std::string& name : required)
    if (!l.find(name)) fail(path, ": corrupt section table: no section ", name);
  for (const auto& [name, e] : l.sections) {
    if (name == kSchema || msg::check_chunk_section(path, l, name, e)) continue;
    if (auto want = expected.find(name); want != expected.end()) {
      if (e.bytes != want->second)
        fail(path, ": corrupt section table: section ", name, " has ", e.bytes, " bytes, expected ", want->second);
      continue;
    }
    const bool is_split = is_split_section(name, s.graph.types.size());
    if (!is_split) fail(path, ": corrupt section table: section ", name, " is not one the schema describes");
    if (e.bytes % 8 != 0) fail(path, ": corrupt section table: section ", name, " is not a whole number of ids");
  }
}

}  // namespace

void write_hetero_binary(const std::string& path, const HeteroGraph& g) {
  validate(g, path);
  const std::string schema = schema_text(path, g);
  std::vector<msg::Part> parts = {{kSchema, schema.data(), schema.size()}};
  for (size_t t = 0; t < g.types.size(); ++t) {
    const VertexType& type = g.types[t];
    if (type.feature_dim > 0) {
      msg::check_finite_features(path, type_section(t, "features"), type.features, type.feature_dim);
      parts.push_back({type_section(t, "features"), type.features.data(), type.features.size() * sizeof(float)});
    }
    if (!type.labels.empty())
      parts.push_back({type_section(t, "labels"), type.labels.data(), type.labels.size() * sizeof(int64_t)});
    if (!type.times.empty())
      parts.push_back({type_section(t, "times"), type.times.data(), type.times.size() * sizeof(int64_t)});
    for (const auto& [name, ids] : type.splits) {
      const std::string section = type_section(t, "split/" + name);
      MATSAMP_CHECK(section.size() < sizeof(msg::Entry::name), path, ": split '", name, "' of vertex type ", type.name,
                    ": the name is too long for the section ", section, " (31 bytes at most)");
      parts.push_back({section, ids.data(), ids.size() * sizeof(vid_t)});
    }
  }
  for (size_t r = 0; r < g.relations.size(); ++r) {
    const CsrMatrix& a = g.relations[r].adj;
    parts.push_back({relation_section(r, "rowptr"), a.rowptr.data(), a.rowptr.size() * sizeof(int64_t)});
    parts.push_back({relation_section(r, "colidx"), a.colidx.data(), a.colidx.size() * sizeof(col_t)});
    // Unweighted relations, the common case, say so by leaving the section out.
    if (std::any_of(a.values.begin(), a.values.end(), [](float v) { return v != 1.0f; }))
      parts.push_back({relation_section(r, "values"), a.values.data(), a.values.size() * sizeof(float)});
  }
  // A checksum per MiB of what a process reads in parts (its block of rows).
  std::deque<std::vector<uint64_t>> chunks;
  msg::add_chunk_sections(
      parts, [](const std::string& name) { return name != kSchema && name.find("/split/") == std::string::npos; },
      chunks);
  msg::write_file(path, msg::kHeteroVersion, g.num_vertices(), g.num_edges(), 0, parts);
}

namespace {

// The header and table, checked against the schema they hold.
HeteroSchema read_layout(const FileReader& file, Layout& l) {
  const std::string& path = file.path();
  l = msg::parse(file, msg::kHeteroVersion);
  if (!l.find(kSchema)) fail(path, ": corrupt section table: no section ", kSchema);
  const std::vector<char> schema = copy_section<char>(file, l, kSchema);
  HeteroSchema s = parse_schema(path, std::string(schema.begin(), schema.end()));
  check_sections(path, l, s);
  int64_t edges = 0;
  for (int64_t e : s.edges) edges += e;  // each bounded by its section, so the sum does not overflow
  if (l.header.n != s.graph.num_vertices() || l.header.nnz != edges || l.header.feature_dim != 0)
    fail(path, ": corrupt header: ", l.header.n, " vertices and ", l.header.nnz, " edges, but the schema's types and ",
         "relations hold ", s.graph.num_vertices(), " and ", edges);
  return s;
}

// Each type's labels and splits, and its features when asked (otherwise it is
// left without them, feature_dim 0).
void read_types(const FileReader& file, const Layout& l, HeteroGraph& g, bool features) {
  for (size_t t = 0; t < g.types.size(); ++t) {
    VertexType& type = g.types[t];
    if (type.feature_dim > 0 && features) {
      type.features = copy_section<float>(file, l, type_section(t, "features"));
      msg::check_finite_features(file.path(), type_section(t, "features"), type.features, type.feature_dim);
    } else {
      type.feature_dim = 0;
    }
    if (l.find(type_section(t, "labels"))) type.labels = copy_section<int64_t>(file, l, type_section(t, "labels"));
    if (l.find(type_section(t, "times"))) type.times = copy_section<int64_t>(file, l, type_section(t, "times"));
    const std::string splits = type_section(t, "split/");
    for (auto it = l.sections.lower_bound(splits); it != l.sections.end() && it->first.rfind(splits, 0) == 0; ++it)
      type.splits[it->first.substr(splits.size())] = copy_section<vid_t>(file, l, it->first);
  }
}

}  // namespace

HeteroGraph read_hetero_binary(const std::string& path) {
  const FileReader file(path);
  Layout l;
  HeteroGraph g = read_layout(file, l).graph;
  read_types(file, l, g, true);
  for (size_t r = 0; r < g.relations.size(); ++r) {
    CsrMatrix& a = g.relations[r].adj;
    a.rowptr = copy_section<int64_t>(file, l, relation_section(r, "rowptr"));
    a.colidx = copy_section<col_t>(file, l, relation_section(r, "colidx"));
    if (l.find(relation_section(r, "values"))) a.values = copy_section<float>(file, l, relation_section(r, "values"));
    else a.values.assign(a.colidx.size(), 1.0f);  // the in-memory form always carries values
  }
  msg::verify_chunk_sections(file, l);
  validate(g, path);
  return g;
}

HeteroSchema read_hetero_schema(const std::string& path, bool features) {
  const FileReader file(path);
  Layout l;
  HeteroSchema s = read_layout(file, l);
  read_types(file, l, s.graph, features);
  validate_schema(s.graph, path);
  return s;
}

CsrMatrix read_hetero_relation_rows(const std::string& path, size_t r, int64_t r0, int64_t r1) {
  const FileReader file(path);
  Layout l;
  const HeteroSchema s = read_layout(file, l);
  MATSAMP_CHECK(r < s.graph.relations.size(), path, ": no relation ", r, " (the file has ", s.graph.relations.size(),
                ")");
  const std::string prefix = relation_section(r, "");
  MATSAMP_CHECK(l.find(msg::kChunksPrefix + prefix + "colidx"), path,
                ": written without the chunk checksums that reading a block of rows verifies; convert it again "
                "(matsamp convert -g ",
                path, " -o NEW.msg)");
  msg::require_chunk_sections(path, l, {prefix + "rowptr", prefix + "colidx", prefix + "values"});
  const CsrMatrix& shape = s.graph.relations[r].adj;
  return msg::read_csr_rows(file, l, prefix, shape.rows, shape.cols, s.edges[r], r0, r1);
}

bool is_hetero_binary(const std::string& path) { return msg::peek_version(path) == msg::kHeteroVersion; }

HeteroGraph read_hetero_graph(const std::string& path, const ReadOptions& options) {
  if (is_ogb_hetero_dataset(path)) return read_ogb_hetero_dataset(path, options);
  if (is_hetero_binary(path)) return read_hetero_binary(path);
  fail(path,
       ": not a heterogeneous graph (an OGB heterogeneous folder with raw/num-node-dict.csv.gz, or a .msg that "
       "matsamp convert wrote from one)");
}

}  // namespace matsamp
