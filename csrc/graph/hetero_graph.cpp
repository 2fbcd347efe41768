#include "graph/hetero_graph.h"

#include <algorithm>
#include <set>

#include "core/error.h"
#include "graph/graph.h"
#include "graph/transform.h"

namespace matsamp {

namespace {

template <class Items, class Name>
std::string names_of(const Items& items, Name name) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + name(item);
  return out.empty() ? "none" : out;
}

}  // namespace

int HeteroGraph::type_index(const std::string& name) const {
  for (size_t t = 0; t < types.size(); ++t)
    if (types[t].name == name) return static_cast<int>(t);
  fail("unknown vertex type '", name, "' (the types are ", names_of(types, [](const VertexType& t) { return t.name; }),
       ")");
}

int HeteroGraph::relation_index(const std::string& key) const {
  int found = -1, by_name = 0;
  for (size_t r = 0; r < relations.size(); ++r) {
    if (relations[r].key() == key) return static_cast<int>(r);
    if (relations[r].name == key) found = static_cast<int>(r), ++by_name;
  }
  if (by_name == 1) return found;
  fail(by_name > 1 ? "ambiguous" : "unknown", " relation '", key, "' (the relations are ",
       names_of(relations, [](const Relation& r) { return r.key(); }), ")");
}

int64_t HeteroGraph::num_vertices() const {
  int64_t n = 0;
  for (const VertexType& t : types) n += t.count;
  return n;
}

int64_t HeteroGraph::num_edges() const {
  int64_t m = 0;
  for (const Relation& r : relations) m += r.adj.nnz();
  return m;
}

void add_relation(HeteroGraph& g, const std::string& source, const std::string& name, const std::string& destination,
                  const std::vector<int64_t>& source_ids, const std::vector<int64_t>& destination_ids,
                  std::vector<int64_t>* origin) {
  const VertexType& s = g.types[g.type_index(source)];
  const VertexType& d = g.types[g.type_index(destination)];
  const std::string key = source + "," + name + "," + destination;
  MATSAMP_CHECK(source_ids.size() == destination_ids.size(), "relation ", key, ": ", source_ids.size(),
                " source ids but ", destination_ids.size(), " destination ids");
  for (const Relation& r : g.relations) MATSAMP_CHECK(r.key() != key, "relation ", key, " is given twice");
  for (size_t e = 0; e < source_ids.size(); ++e) {
    MATSAMP_CHECK(source_ids[e] >= 0 && source_ids[e] < s.count, "relation ", key, ": edge ", e, " starts at ", source,
                  " ", source_ids[e], ", outside [0, ", s.count, ")");
    MATSAMP_CHECK(destination_ids[e] >= 0 && destination_ids[e] < d.count, "relation ", key, ": edge ", e, " ends at ",
                  destination, " ", destination_ids[e], ", outside [0, ", d.count, ")");
  }
  Relation r{source, name, destination, {}};
  r.adj = csr_from_triples(d.count, s.count, destination_ids, source_ids, std::vector<float>(source_ids.size(), 1.0f),
                           origin);
  g.relations.push_back(std::move(r));
}

std::vector<Reverse> reverses(const HeteroGraph& g) {
  std::set<std::pair<std::string, std::string>> linked;  // (source, destination) pairs with a relation
  for (const Relation& r : g.relations) linked.insert({r.source, r.destination});
  std::vector<Reverse> out;
  for (const Relation& r : g.relations)
    out.push_back(r.source == r.destination                 ? Reverse::symmetrize
                  : linked.count({r.destination, r.source}) ? Reverse::none
                                                            : Reverse::add);
  return out;
}

Relation reverse_of(const Relation& r, CsrMatrix transposed) {
  return {r.destination, "rev_" + r.name, r.source, std::move(transposed)};
}

void add_reverse_relations(HeteroGraph& g) {
  const std::vector<Reverse> kinds = reverses(g);
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == Reverse::symmetrize) g.relations[i].adj = symmetrize(g.relations[i].adj);
    if (kinds[i] == Reverse::add) {
      Relation reverse = reverse_of(g.relations[i], transpose(g.relations[i].adj));
      g.relations.push_back(std::move(reverse));
    }
  }
}

void validate(const HeteroGraph& g, const std::string& what) {
  validate_schema(g, what);
  for (const Relation& r : g.relations) validate(r.adj, what + ": relation " + r.key());
}

void validate_schema(const HeteroGraph& g, const std::string& what) {
  MATSAMP_CHECK(!g.types.empty(), what, ": a heterogeneous graph needs at least one vertex type");
  std::set<std::string> names, keys;
  for (const VertexType& t : g.types) {
    MATSAMP_CHECK(!t.name.empty() && names.insert(t.name).second, what, ": vertex type '", t.name,
                  "' is empty or given twice");
    MATSAMP_CHECK(t.count >= 0, what, ": vertex type ", t.name, " has ", t.count, " vertices");
    MATSAMP_CHECK(t.feature_dim >= 0 && static_cast<int64_t>(t.features.size()) == t.count * t.feature_dim, what,
                  ": vertex type ", t.name, " has ", t.features.size(), " feature values for ", t.count, " x ",
                  t.feature_dim);
    MATSAMP_CHECK(t.labels.empty() || static_cast<int64_t>(t.labels.size()) == t.count, what, ": vertex type ", t.name,
                  " has ", t.labels.size(), " labels for ", t.count, " vertices");
    MATSAMP_CHECK(t.times.empty() || static_cast<int64_t>(t.times.size()) == t.count, what, ": vertex type ", t.name,
                  " has ", t.times.size(), " vertex times for ", t.count, " vertices");
    for (int64_t label : t.labels)
      MATSAMP_CHECK(label >= -1, what, ": vertex type ", t.name, ": label ", label,
                    " is negative (-1 marks unlabelled)");
    for (const auto& [split, ids] : t.splits)
      for (size_t i = 0; i < ids.size(); ++i)
        MATSAMP_CHECK(ids[i] >= 0 && ids[i] < t.count && (i == 0 || ids[i - 1] < ids[i]), what, ": ", t.name, " ",
                      split, " set: id ", ids[i], " at ", i, " is outside [0, ", t.count,
                      ") or not ascending without repeats");
  }
  for (const Relation& r : g.relations) {
    MATSAMP_CHECK(keys.insert(r.key()).second, what, ": relation ", r.key(), " is given twice");
    const int64_t rows = g.types[g.type_index(r.destination)].count, cols = g.types[g.type_index(r.source)].count;
    MATSAMP_CHECK(r.adj.rows == rows && r.adj.cols == cols, what, ": relation ", r.key(), " is ", r.adj.shape(),
                  ", expected ", rows, " x ", cols, " (|", r.destination, "| x |", r.source, "|)");
  }
}

HeteroGraph as_heterogeneous(const Graph& g) {
  HeteroGraph h;
  VertexType v{"v", g.num_vertices(), g.feature_dim, g.features, g.labels, g.splits, g.vertex_times};
  h.types.push_back(std::move(v));
  h.relations.push_back({"v", "to", "v", g.adj});
  return h;
}

}  // namespace matsamp
