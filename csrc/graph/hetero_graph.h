// A heterogeneous graph in matrix form: vertex types, each with its own id space
// [0, count), features, labels and split; relations r = (source type, name,
// destination type), each one sparse matrix A_r. A_r's rows are the destination
// type's vertices and its columns the source type's: row v lists the vertices
// whose messages v receives through r, which is what v samples from (PyG's
// edge type (src, rel, dst) with edge_index[0] in src, [1] in dst, transposed).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/csr.h"

namespace matsamp {

struct VertexType {
  std::string name;
  int64_t count = 0;
  int64_t feature_dim = 0;                             // 0: no features (a model learns embeddings)
  std::vector<float> features{};                       // count * feature_dim, row-major
  std::vector<int64_t> labels{};                       // empty, or one per vertex (-1 = unlabelled)
  std::map<std::string, std::vector<vid_t>> splits{};  // "train", "valid", "test": ascending ids
  std::vector<int64_t> times{};                        // empty, or one per vertex: its time (sampling by time)
};

struct Relation {
  std::string source, name, destination;
  CsrMatrix adj;  // |destination| x |source|
  // "source,name,destination": how relations are named in options and messages.
  std::string key() const { return source + "," + name + "," + destination; }
};

struct HeteroGraph {
  std::vector<VertexType> types;
  std::vector<Relation> relations;

  // Indices by name; both throw a one-line error listing the known ones.
  int type_index(const std::string& name) const;
  int relation_index(const std::string& key) const;  // "src,name,dst", or a name used by one relation only
  int64_t num_vertices() const;
  int64_t num_edges() const;
};

// Adds relation (source, name, destination) with edges source_ids[i] -> destination_ids[i]
// (duplicates summed into one entry of their count); ids are checked against the types' counts.
// With `origin`, (*origin)[e] is the edge i that entry e of the relation's matrix
// came from (the first of a repeated edge): its caller's edge id.
void add_relation(HeteroGraph& g, const std::string& source, const std::string& name, const std::string& destination,
                  const std::vector<int64_t>& source_ids, const std::vector<int64_t>& destination_ids,
                  std::vector<int64_t>* origin = nullptr);

// Makes messages flow both ways, as PyG's ToUndirected does: adds (destination,
// "rev_" + name, source) for every relation between two types that has no
// relation back, and makes a relation within one type symmetric.
void add_reverse_relations(HeteroGraph& g);
// What add_reverse_relations does to each relation: nothing (one leads back),
// makes it symmetric (within one type) or adds its reverse, reverse_of(r, A_r^T).
enum class Reverse { none, symmetrize, add };
std::vector<Reverse> reverses(const HeteroGraph& g);
Relation reverse_of(const Relation& r, CsrMatrix transposed);

// Throws unless the parts agree: distinct names, each A_r shaped |dst| x |src|,
// per-type features, labels and splits as for a homogeneous graph.
void validate(const HeteroGraph& g, const std::string& what);
// The same but for the relations' entries: what a process holding only blocks
// of each A_r (its shape kept, its arrays elsewhere) checks.
void validate_schema(const HeteroGraph& g, const std::string& what);

// A homogeneous graph as one vertex type "v" and one relation (v, "to", v) whose
// A_r is the adjacency itself.
struct Graph;
HeteroGraph as_heterogeneous(const Graph& g);

}  // namespace matsamp
