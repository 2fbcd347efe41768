// Heterogeneous graphs and their node-wise sampler: relations built and checked
// as the user gives them, the shared column compaction against a plain
// reference, one type and one relation giving exactly GraphSAGE's minibatches,
// per-relation fanouts and distributions, and minibatches that do not depend on
// the bulk size.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>
#include <set>

#include "backend/backend.h"
#include "error_checks.h"
#include "graph/hetero_graph.h"
#include "hetero_test_graph.h"
#include "io/graph_io.h"
#include "io/hetero_io.h"
#include "io/text_writer.h"
#include "sampling/fingerprint.h"
#include "sampling/hetero_layer_wise.h"
#include "sampling/hetero_neighbor.h"
#include "sampling_checks.h"
#include "statistics.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

using testing::relation_edges;
using testing::small_hetero_graph;

TEST(HeteroGraph, RelationsAreCheckedAndNamed) {
  HeteroGraph g = small_hetero_graph();
  validate(g, "test");
  ASSERT_EQ(g.relations.size(), 5u);  // cites (symmetric), writes, has_topic, rev_writes, rev_has_topic
  EXPECT_EQ(g.relations[g.relation_index("rev_writes")].key(), "paper,rev_writes,author");
  EXPECT_EQ(g.relation_index("author,writes,paper"), g.relation_index("writes"));
  const Relation& writes = g.relations[g.relation_index("writes")];
  EXPECT_EQ(writes.adj.rows, 300);  // rows: the destination type
  EXPECT_EQ(writes.adj.cols, 120);
  const Relation& cites = g.relations[g.relation_index("cites")];
  EXPECT_TRUE(is_pattern_symmetric(cites.adj));
  EXPECT_EQ(g.relations[g.relation_index("rev_writes")].adj.colidx, transpose(writes.adj).colidx);
  const auto expect_error = [](auto&& fn, const std::string& expected) {
    try {
      fn();
      ADD_FAILURE() << "no error; expected: " << expected;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  expect_error([&] { g.relation_index("reviews"); }, "unknown relation 'reviews' (the relations are paper,cites,paper");
  expect_error([&] { g.type_index("venue"); }, "unknown vertex type 'venue' (the types are paper, author, topic)");
  expect_error(
      [&] {
        add_relation(g, "author", "edits", "paper", {0, 120}, {1, 2});
      },
      "relation author,edits,paper: edge 1 starts at author 120, outside [0, 120)");
  expect_error([&] { add_relation(g, "author", "writes", "paper", {0}, {1}); }, "is given twice");
  g.relations.push_back({"author", "x", "topic", CsrMatrix{}});
  expect_error([&] { validate(g, "graph"); }, "graph: relation author,x,topic is 0 x 0");
}

TEST(HeteroGraph, OgbLayoutRoundTrips) {
  HeteroGraph g = small_hetero_graph();
  VertexType& paper = g.types[g.type_index("paper")];
  paper.feature_dim = 3;
  for (int64_t i = 0; i < paper.count * 3; ++i) paper.features.push_back(0.25f * static_cast<float>(i % 7));
  for (int64_t v = 0; v < paper.count; ++v) paper.labels.push_back(v % 5 == 0 ? -1 : v % 4);
  paper.splits = {{"train", {1, 2, 3, 5}}, {"valid", {6, 7}}, {"test", {8, 9, 10}}};
  for (int64_t v = 0; v < paper.count; ++v) paper.times.push_back(2000 + v % 17);  // node_year
  const std::string dir = testing::scratch_dir("ogb_hetero") + "/ogbn_toy";
  write_ogb_hetero_dataset(dir, g);
  ASSERT_TRUE(is_ogb_hetero_dataset(dir));
  EXPECT_FALSE(is_ogb_node_dataset(dir)) << "a heterogeneous folder is not read as a homogeneous one";
  const HeteroGraph back = read_ogb_hetero_dataset(dir);
  ASSERT_EQ(back.types.size(), g.types.size());
  for (size_t t = 0; t < g.types.size(); ++t) {
    EXPECT_EQ(back.types[t].name, g.types[t].name);
    EXPECT_EQ(back.types[t].count, g.types[t].count);
    EXPECT_EQ(back.types[t].features, g.types[t].features);
    EXPECT_EQ(back.types[t].labels, g.types[t].labels);
    EXPECT_EQ(back.types[t].times, g.types[t].times);
  }
  // Vertex 5 is unlabelled: left out of the split.
  EXPECT_EQ(back.types[0].splits.at("train"), (std::vector<vid_t>{1, 2, 3}));
  ASSERT_EQ(back.relations.size(), g.relations.size());
  for (const Relation& r : g.relations) {
    const Relation& b = back.relations[back.relation_index(r.key())];
    EXPECT_EQ(b.adj.rowptr, r.adj.rowptr) << r.key();
    EXPECT_EQ(b.adj.colidx, r.adj.colidx) << r.key();
  }
  // An edge file naming a vertex beyond its type's count.
  write_lines(
      dir + "/raw/relations/author___writes___paper/edge.csv.gz", 1,
      [](int64_t, std::string& out) { out += "120,3\n"; }, true);
  write_lines(
      dir + "/raw/relations/author___writes___paper/num-edge-list.csv.gz", 1,
      [](int64_t, std::string& out) { out += "1\n"; }, true);
  try {
    read_ogb_hetero_dataset(dir);
    ADD_FAILURE() << "read an author id beyond the 120 authors";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("author___writes___paper/edge.csv.gz: relation author,writes,paper: edge 0 "
                                         "starts at author 120, outside [0, 120)"),
              std::string::npos)
        << e.what();
  }
}

TEST(HeteroSampling, SharedCompactionMatchesTheReference) {
  std::mt19937_64 rng(7);
  const int64_t n = 50, k = 3;
  std::vector<CsrMatrix> parts;
  std::vector<Offsets> offsets;
  for (int p = 0; p < 3; ++p) {
    const int64_t rows = 4 + p;
    std::vector<int64_t> r, c;
    for (int64_t i = 0; i < rows; ++i)
      for (int j = 0; j < 3; ++j) r.push_back(i), c.push_back(static_cast<int64_t>(rng() % n));
    parts.push_back(csr_from_triples(rows, n, r, c, std::vector<float>(r.size(), 1.0f)));
    offsets.push_back({0, 1, rows - 2, rows});
  }
  const std::vector<vid_t> leading{7, 3, 9, 42};
  const Offsets leading_offsets{0, 2, 2, 4};
  const SharedCompactResult got = compact_columns_shared(parts, offsets, leading, leading_offsets);
  // Reference: per block, the leaders, then every other column of any part ascending.
  std::vector<vid_t> vertices;
  Offsets col_offsets{0};
  std::vector<std::map<vid_t, int64_t>> position(k);
  for (int64_t g = 0; g < k; ++g) {
    std::vector<vid_t> list(leading.begin() + leading_offsets[g], leading.begin() + leading_offsets[g + 1]);
    std::set<vid_t> others;
    for (size_t p = 0; p < parts.size(); ++p)
      for (int64_t e = parts[p].rowptr[offsets[p][g]]; e < parts[p].rowptr[offsets[p][g + 1]]; ++e)
        if (std::find(list.begin(), list.end(), parts[p].colidx[e]) == list.end()) others.insert(parts[p].colidx[e]);
    list.insert(list.end(), others.begin(), others.end());
    for (vid_t v : list) position[g][v] = static_cast<int64_t>(vertices.size()), vertices.push_back(v);
    col_offsets.push_back(static_cast<int64_t>(vertices.size()));
  }
  EXPECT_EQ(got.vertices, vertices);
  EXPECT_EQ(got.col_offsets, col_offsets);
  for (size_t p = 0; p < parts.size(); ++p)
    for (int64_t g = 0; g < k; ++g)
      for (int64_t i = offsets[p][g]; i < offsets[p][g + 1]; ++i) {
        std::vector<int64_t> expected;
        for (int64_t e = parts[p].rowptr[i]; e < parts[p].rowptr[i + 1]; ++e)
          expected.push_back(position[g][parts[p].colidx[e]]);
        std::sort(expected.begin(), expected.end());
        expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
        const std::vector<int64_t> row(got.adj[p].colidx.begin() + got.adj[p].rowptr[i],
                                       got.adj[p].colidx.begin() + got.adj[p].rowptr[i + 1]);
        EXPECT_EQ(row, expected) << "part " << p << " row " << i;
      }
  // One part: exactly compact_columns.
  const CompactResult single = compact_columns(parts[0], offsets[0], leading, leading_offsets);
  const SharedCompactResult shared = compact_columns_shared({parts[0]}, {offsets[0]}, leading, leading_offsets);
  EXPECT_EQ(shared.vertices, single.vertices);
  EXPECT_EQ(shared.adj[0].colidx, single.adj.colidx);
  EXPECT_THROW(compact_columns_shared({parts[0], parts[1]}, {offsets[0]}, leading, leading_offsets), Error);
}

// Values carried by some parts move with their entries: each still names its
// entry's vertex after the relabelling, and a part without them is unchanged.
TEST(HeteroSampling, SharedCompactionCarriesEachPartsValues) {
  std::mt19937_64 rng(3);
  const int64_t n = 40;
  std::vector<CsrMatrix> parts;
  for (int p = 0; p < 3; ++p) {
    std::vector<int64_t> r, c;
    for (int64_t i = 0; i < 6; ++i)
      for (int j = 0; j < 4; ++j) r.push_back(i), c.push_back(static_cast<int64_t>(rng() % n));
    parts.push_back(csr_from_triples(6, n, r, c, std::vector<float>(r.size(), 1.0f)));
  }
  const std::vector<Offsets> offsets(3, Offsets{0, 2, 6});
  const std::vector<vid_t> leading{11, 4, 30};
  const Offsets leading_offsets{0, 1, 3};
  // Part p's carried value of entry e: 100 p + its column (the vertex it names).
  std::vector<std::vector<vid_t>> carried(3);
  for (size_t p = 0; p < 3; ++p)
    for (col_t c : parts[p].colidx) carried[p].push_back(static_cast<vid_t>(100 * p) + c);
  const std::vector<vid_t> untouched = carried[1];
  const SharedCompactResult plain = compact_columns_shared(parts, offsets, leading, leading_offsets);
  const SharedCompactResult got =
      compact_columns_shared(parts, offsets, leading, leading_offsets, {&carried[0], nullptr, &carried[2]});
  EXPECT_EQ(got.vertices, plain.vertices);
  int64_t moved = 0;
  for (size_t p : {0, 2}) {
    EXPECT_EQ(got.adj[p].colidx, plain.adj[p].colidx);
    for (int64_t e = 0; e < got.adj[p].nnz(); ++e) {
      EXPECT_EQ(carried[p][e], static_cast<vid_t>(100 * p) + got.vertices[got.adj[p].colidx[e]]) << p << " " << e;
      moved += carried[p][e] != static_cast<vid_t>(100 * p) + parts[p].colidx[e];
    }
  }
  EXPECT_GT(moved, 0) << "the relabelling reordered no entry: the test checks nothing";
  EXPECT_EQ(carried[1], untouched);
  std::vector<vid_t> short_list(3);
  testing::expect_error(
      [&] {
        compact_columns_shared(parts, offsets, leading, leading_offsets, {nullptr, &short_list, nullptr});
      },
      "compact_columns: 3 carried values for " + std::to_string(parts[1].nnz()) + " entries");
  testing::expect_error([&] { compact_columns_shared(parts, offsets, leading, leading_offsets, {nullptr}); },
                        "compact_columns: carried values for 1 matrices, not 3");
}

// With Context::record_positions each relation's layer names every sampled
// entry's position in A_r, and the minibatches are those sampled without.
TEST(HeteroSampling, RecordedPositionsNameTheDrawnEntries) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  for (bool expand_new_only : {false, true}) {
    const HeteroNeighborSampler sampler(*cpu, g, parse_relation_fanouts(g, "4,3,2"), expand_new_only);
    std::vector<vid_t> seeds(40);
    std::iota(seeds.begin(), seeds.end(), 3);
    Context plain{*cpu, 5}, recording{*cpu, 5};
    recording.record_positions = true;
    const HeteroBulkSample without = to_host(*cpu, sampler.sample(plain, 0, seeds, {0, 15, 40}, 0, 2));
    const HeteroBulkSample with = to_host(*cpu, sampler.sample(recording, 0, seeds, {0, 15, 40}, 0, 2));
    Fingerprint a, b;
    a.add(without);
    b.add(with);
    EXPECT_EQ(a.value(), b.value());
    int64_t checked = 0;
    for (size_t l = 0; l < with.layers.size(); ++l) {
      const HeteroSampledLayer& layer = with.layers[l];
      for (size_t r = 0; r < g.relations.size(); ++r) {
        const CsrMatrix& s = layer.adj[r];
        EXPECT_TRUE(without.layers[l].positions[r].empty());
        ASSERT_EQ(static_cast<int64_t>(layer.positions[r].size()), s.nnz()) << g.relations[r].key();
        const CsrMatrix& a = g.relations[r].adj;
        const int target = g.type_index(g.relations[r].destination), source = with.relation_sources[r];
        const std::vector<vid_t>& rows = l == 0 ? with.seeds.ids[target] : with.layers[l - 1].vertices[target];
        for (int64_t i = 0; i < s.rows; ++i)
          for (int64_t e = s.rowptr[i]; e < s.rowptr[i + 1]; ++e, ++checked) {
            const vid_t position = layer.positions[r][e];
            ASSERT_TRUE(position >= a.rowptr[rows[i]] && position < a.rowptr[rows[i] + 1])
                << g.relations[r].key() << " layer " << l << ": position " << position << " is not in row " << rows[i];
            EXPECT_EQ(a.colidx[position], layer.vertices[source][s.colidx[e]]);
          }
      }
    }
    EXPECT_GT(checked, 100);
  }
}

TEST(HeteroSampling, OneTypeAndOneRelationIsGraphSage) {
  const Graph cora = read_graph(testing::data_file("cora.npz"));
  const HeteroGraph h = as_heterogeneous(cora);
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler hetero(*cpu, h, {{10, 5}});
  const std::vector<vid_t> seeds{5, 17, 100, 4, 2000, 17, 9};
  const Offsets offsets{0, 3, 5, 7};
  Context ctx{*cpu, 11};
  const HeteroBulkSample got = to_host(*cpu, hetero.sample(ctx, 0, seeds, offsets, 4, 2));
  const BulkSample expected = testing::graphsage(cora.adj, {10, 5}, 11)->sample(seeds, offsets, 4, 2);
  ASSERT_EQ(got.layers.size(), expected.layers.size());
  for (size_t l = 0; l < got.layers.size(); ++l) {
    EXPECT_EQ(got.layers[l].vertices[0], expected.layers[l].vertices) << "layer " << l;
    EXPECT_EQ(got.layers[l].adj[0].rowptr, expected.layers[l].adj.rowptr) << "layer " << l;
    EXPECT_EQ(got.layers[l].adj[0].colidx, expected.layers[l].adj.colidx) << "layer " << l;
    EXPECT_EQ(got.layers[l].adj[0].values, expected.layers[l].adj.values) << "layer " << l;
  }
}

TEST(HeteroSampling, RelationsSampleTheirOwnEdgesWithTheirOwnFanouts) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  // Papers as seeds: layer 0 samples what points into papers (cites, writes,
  // rev_has_topic); layer 1 also what points into authors and topics.
  const auto fanouts = parse_relation_fanouts(g, "cites=4,2;writes=3,1;rev_has_topic=1,1;rev_writes=0,2");
  const HeteroNeighborSampler sampler(*cpu, g, fanouts);
  const std::vector<vid_t> seeds{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  Context ctx{*cpu, 5};
  const HeteroBulkSample bulk = to_host(*cpu, sampler.sample(ctx, 0, seeds, {0, 5, 10}, 0, 0));
  const int paper = g.type_index("paper"), author = g.type_index("author"), topic = g.type_index("topic");
  const HeteroSampledLayer& first = bulk.layers[0];
  EXPECT_EQ(first.adj[g.relation_index("has_topic")].rows, 0) << "nothing samples into topics from papers";
  EXPECT_EQ(first.adj[g.relation_index("rev_writes")].rows, 0) << "fanout 0 in layer 0";
  EXPECT_TRUE(first.vertices[author].size() > 0 && first.vertices[topic].size() > 0);
  // The papers' vertex list starts with the seeds of each minibatch.
  for (int64_t g2 = 0; g2 < 2; ++g2)
    for (int64_t i = 0; i < 5; ++i)
      EXPECT_EQ(first.vertices[paper][first.vertex_offsets[paper][g2] + i], seeds[5 * g2 + i]);
  for (size_t l = 0; l < bulk.layers.size(); ++l) {
    const std::vector<std::vector<vid_t>>& frontier = l == 0 ? std::vector<std::vector<vid_t>>{seeds, {}, {}}
                                                             : bulk.layers[l - 1].vertices;
    for (size_t r = 0; r < g.relations.size(); ++r) {
      const CsrMatrix& a = bulk.layers[l].adj[r];
      if (a.rows == 0) continue;
      for (int64_t i = 0; i < a.rows; ++i)
        EXPECT_LE(a.rowptr[i + 1] - a.rowptr[i], fanouts[r][l]) << g.relations[r].key() << " layer " << l;
      const std::vector<vid_t>& rows = frontier[g.type_index(g.relations[r].destination)];
      for (int64_t mb = 0; mb < 2; ++mb)
        for (const auto& [v, u] : relation_edges(bulk, g, l, r, mb, rows))
          EXPECT_TRUE(testing::has_entry(g.relations[r].adj, v, u))
              << g.relations[r].key() << ": (" << v << ", " << u << ") is not an edge";
    }
  }
  EXPECT_GT(bulk.layers[1].adj[g.relation_index("rev_writes")].nnz(), 0) << "authors sample their papers in layer 1";
}

TEST(HeteroSampling, MinibatchesDoNotDependOnTheBulkSize) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  testing::expect_minibatches_independent_of_bulk(HeteroNeighborSampler(*cpu, g, parse_relation_fanouts(g, "3,2")),
                                                  *cpu);
  testing::expect_minibatches_independent_of_bulk(
      HeteroNeighborSampler(*cpu, g, parse_relation_fanouts(g, "3,2,2"), /*expand_new_only=*/true), *cpu);
}

// PyG's expansion: after the first layer, a relation draws only for the
// vertices of its destination type the layer before added (min(fanout, degree)
// each); the rows of older vertices stay empty, and fewer vertices are reached.
TEST(HeteroSampling, ExpandNewOnlyDrawsForTheAddedVertices) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  const auto fanouts = parse_relation_fanouts(g, "3,2,2");
  const HeteroNeighborSampler pyg(*cpu, g, fanouts, true), every(*cpu, g, fanouts);
  std::vector<vid_t> seeds(60);
  std::iota(seeds.begin(), seeds.end(), 0);
  const Offsets offsets{0, 20, 21, 60};
  Context ctx{*cpu, 5};
  const HeteroBulkSample bulk = to_host(*cpu, pyg.sample(ctx, 0, seeds, offsets, 0, 0));
  const HeteroBulkSample all = to_host(*cpu, every.sample(ctx, 0, seeds, offsets, 0, 0));
  int64_t empty_rows = 0;
  for (size_t l = 1; l < bulk.layers.size(); ++l)
    for (size_t r = 0; r < g.relations.size(); ++r) {
      const CsrMatrix& a = bulk.layers[l].adj[r];
      if (a.rows == 0) continue;
      const int t = g.type_index(g.relations[r].destination);
      const Offsets& rows = bulk.layers[l].row_offsets[r];
      const Offsets& before = l == 1 ? bulk.seeds.offsets[t] : bulk.layers[l - 2].vertex_offsets[t];
      for (int64_t mb = 0; mb + 1 < static_cast<int64_t>(rows.size()); ++mb)
        for (int64_t i = rows[mb]; i < rows[mb + 1]; ++i) {
          const vid_t v = bulk.layers[l - 1].vertices[t][i];
          const bool added = i - rows[mb] >= before[mb + 1] - before[mb];
          EXPECT_EQ(a.row_nnz(i), added ? std::min(fanouts[r][l], g.relations[r].adj.row_nnz(v)) : 0)
              << g.relations[r].key() << " layer " << l << " vertex " << v;
          empty_rows += !added;
        }
    }
  EXPECT_GT(empty_rows, 0);
  int64_t reached = 0, reached_by_all = 0;
  for (size_t t = 0; t < g.types.size(); ++t) {
    reached += static_cast<int64_t>(bulk.layers.back().vertices[t].size());
    reached_by_all += static_cast<int64_t>(all.layers.back().vertices[t].size());
  }
  EXPECT_LT(reached, reached_by_all);
  EXPECT_EQ(bulk.layers[0].vertices, all.layers[0].vertices);  // the first layer is the default's
}

// Each relation draws its fanout uniformly among a vertex's neighbours through it.
TEST(HeteroSampling, EachRelationDrawsUniformly) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  const int writes = g.relation_index("writes");
  std::vector<std::vector<int64_t>> fanouts(g.relations.size(), std::vector<int64_t>{0});
  fanouts[writes] = {2};
  const HeteroNeighborSampler sampler(*cpu, g, fanouts);
  // The paper with the most authors.
  const CsrMatrix& a = g.relations[writes].adj;
  vid_t paper = 0;
  for (vid_t p = 0; p < a.rows; ++p)
    if (a.rowptr[p + 1] - a.rowptr[p] > a.rowptr[paper + 1] - a.rowptr[paper]) paper = p;
  const int64_t degree = a.rowptr[paper + 1] - a.rowptr[paper];
  ASSERT_GE(degree, 4);
  std::map<vid_t, double> counts;
  const int draws = 4000;
  for (int epoch = 0; epoch < draws; ++epoch) {
    Context ctx{*cpu, 1};
    const HeteroBulkSample s = to_host(*cpu, sampler.sample(ctx, 0, {paper}, {0, 1}, 0, epoch));
    for (const auto& [v, u] : relation_edges(s, g, 0, writes, 0, {paper})) counts[u] += 1;
  }
  std::vector<double> observed, expected;
  for (int64_t e = a.rowptr[paper]; e < a.rowptr[paper + 1]; ++e) {
    observed.push_back(counts[a.colidx[e]]);
    expected.push_back(2.0 * draws / static_cast<double>(degree));
  }
  EXPECT_LT(testing::chi_square(observed, expected), testing::chi_square_critical(degree - 1));
}

// Two relations with the same matrix draw independently (their own Philox keys).
TEST(HeteroSampling, RelationsDrawIndependently) {
  const Graph cora = read_graph(testing::data_file("cora.npz"));
  HeteroGraph g = as_heterogeneous(cora);
  g.relations.push_back({"v", "again", "v", cora.adj});
  auto cpu = make_cpu_backend();
  const HeteroNeighborSampler sampler(*cpu, g, {{3}, {3}});
  std::vector<vid_t> seeds;
  for (vid_t v = 0; v < cora.num_vertices(); ++v)
    if (cora.adj.rowptr[v + 1] - cora.adj.rowptr[v] >= 8) seeds.push_back(v);
  ASSERT_GT(seeds.size(), 50u);
  Context ctx{*cpu, 4};
  const HeteroBulkSample s =
      to_host(*cpu, sampler.sample(ctx, 0, seeds, {0, static_cast<int64_t>(seeds.size())}, 0, 0));
  int64_t same = 0;
  for (size_t i = 0; i < seeds.size(); ++i) {
    const auto row = [&](int r) {
      const CsrMatrix& a = s.layers[0].adj[r];
      std::vector<vid_t> out;
      for (int64_t e = a.rowptr[i]; e < a.rowptr[i + 1]; ++e) out.push_back(s.layers[0].vertices[0][a.colidx[e]]);
      return out;
    };
    same += row(0) == row(1);
  }
  // With degree >= 8 and 3 draws, equal sets by chance are rare (at most 1 in 56 per row).
  EXPECT_LT(same, static_cast<int64_t>(seeds.size()) / 10) << same << " of " << seeds.size() << " rows drew alike";
}

TEST(HeteroSampling, BadFanoutsAreOneLineErrors) {
  const HeteroGraph g = small_hetero_graph();
  const auto expect_error = [&](const std::string& text, const std::string& expected) {
    try {
      parse_relation_fanouts(g, text);
      ADD_FAILURE() << "no error for '" << text << "'";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  };
  expect_error("reviews=3,2", "unknown relation 'reviews'");
  expect_error("cites=3,2;writes=1", "relation author,writes,paper has 1 layers, the others 2");
  expect_error("cites=3,-1", "'-1' is not a non-negative count");
  expect_error("cites=3;cites=2", "is given twice");
  auto cpu = make_cpu_backend();
  EXPECT_THROW(HeteroNeighborSampler(*cpu, g, {{1}}), Error);  // fanouts for 1 of 5 relations
  const HeteroNeighborSampler sampler(*cpu, g, parse_relation_fanouts(g, "2"));
  Context ctx{*cpu, 1};
  EXPECT_THROW(sampler.sample(ctx, 1, {120}, {0, 1}, 0, 0), Error);  // author ids are [0, 120)
}

// Seeds of two types in one minibatch: each type's vertex list starts with its
// own seeds, both expand in the first layer, and a minibatch alone is the same
// minibatch as in a bulk, node-wise and layer-wise.
TEST(HeteroSampling, SeedsOfSeveralTypes) {
  const HeteroGraph g = small_hetero_graph();
  auto cpu = make_cpu_backend();
  const int paper = g.type_index("paper"), author = g.type_index("author");
  const HeteroNeighborSampler node_wise(*cpu, g, parse_relation_fanouts(g, "3,2"));
  const HeteroLayerWiseSampler layer_wise(*cpu, g, parse_type_budgets(g, "10,5"));
  HeteroSeeds seeds{{{}, {}, {}}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
  seeds.ids[paper] = {1, 2, 3, 40, 41};
  seeds.offsets[paper] = {0, 3, 5};
  seeds.ids[author] = {7, 8, 90};
  seeds.offsets[author] = {0, 1, 3};
  for (const HeteroSampler* sampler : std::initializer_list<const HeteroSampler*>{&node_wise, &layer_wise}) {
    Context ctx{*cpu, 13};
    const HeteroBulkSample bulk = to_host(*cpu, sampler->sample(ctx, seeds, 20, 4));
    const HeteroSampledLayer& first = bulk.layers[0];
    for (int t : {paper, author})
      for (int64_t mb = 0; mb < 2; ++mb)
        for (int64_t i = seeds.offsets[t][mb]; i < seeds.offsets[t][mb + 1]; ++i)
          EXPECT_EQ(first.vertices[t][first.vertex_offsets[t][mb] + i - seeds.offsets[t][mb]], seeds.ids[t][i])
              << sampler->name() << ": type " << g.types[t].name << " minibatch " << mb;
    EXPECT_GT(first.adj[g.relation_index("rev_writes")].nnz(), 0) << sampler->name() << ": authors expand in layer 0";
    EXPECT_GT(first.adj[g.relation_index("writes")].nnz(), 0) << sampler->name() << ": papers expand in layer 0";
    for (int64_t mb = 0; mb < 2; ++mb) {
      HeteroSeeds own{{{}, {}, {}}, {{0, 0}, {0, 0}, {0, 0}}};
      for (int t : {paper, author}) {
        own.ids[t].assign(seeds.ids[t].begin() + seeds.offsets[t][mb], seeds.ids[t].begin() + seeds.offsets[t][mb + 1]);
        own.offsets[t] = {0, static_cast<int64_t>(own.ids[t].size())};
      }
      Fingerprint in_bulk, alone;
      in_bulk.add(bulk, mb);
      alone.add(to_host(*cpu, sampler->sample(ctx, own, 20 + mb, 4)), 0);
      EXPECT_EQ(in_bulk.value(), alone.value()) << sampler->name() << ": minibatch " << mb;
    }
  }
  Context ctx{*cpu, 1};
  testing::expect_error([&] { node_wise.sample(ctx, HeteroSeeds{}, 0, 0); }, "seed lists for 0 vertex types");
  seeds.offsets[author] = {0, 1};
  testing::expect_error([&] { node_wise.sample(ctx, seeds, 0, 0); }, "author seed offsets must run from 0");
}

}  // namespace
}  // namespace matsamp
