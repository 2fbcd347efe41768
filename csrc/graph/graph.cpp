#include "graph/graph.h"

#include <algorithm>

#include "util/row_gather.h"

namespace matsamp {

int64_t Graph::num_classes() const {
  if (labels.empty()) return 0;
  return 1 + *std::max_element(labels.begin(), labels.end());
}

void validate(const Graph& g, const std::string& what) {
  MATSAMP_CHECK(g.adj.rows == g.adj.cols, what, ": adjacency is not square (", g.adj.shape(), ")");
  const int64_t n = g.num_vertices();
  MATSAMP_CHECK(g.feature_dim >= 0 && static_cast<int64_t>(g.features.size()) == n * g.feature_dim, what, ": ",
                g.features.size(), " feature values for ", n, " vertices x ", g.feature_dim, " features");
  MATSAMP_CHECK(g.edge_feature_dim >= 0 &&
                    static_cast<int64_t>(g.edge_features.size()) == g.num_edges() * g.edge_feature_dim,
                what, ": ", g.edge_features.size(), " edge feature values for ", g.num_edges(), " edges x ",
                g.edge_feature_dim, " features");
  MATSAMP_CHECK(g.labels.empty() || static_cast<int64_t>(g.labels.size()) == n, what, ": ", g.labels.size(),
                " labels for ", n, " vertices");
  MATSAMP_CHECK(g.vertex_times.empty() || static_cast<int64_t>(g.vertex_times.size()) == n, what, ": ",
                g.vertex_times.size(), " vertex times for ", n, " vertices");
  for (int64_t label : g.labels)
    MATSAMP_CHECK(label >= -1, what, ": label ", label, " is negative (-1 marks unlabelled)");
  for (const auto& [name, ids] : g.splits)
    for (size_t i = 0; i < ids.size(); ++i) {
      MATSAMP_CHECK(ids[i] >= 0 && ids[i] < n, what, ": split '", name, "' holds vertex ", ids[i], " out of range [0, ",
                    n, ")");
      MATSAMP_CHECK(i == 0 || ids[i - 1] < ids[i], what, ": split '", name, "' is not ascending or repeats vertex ",
                    ids[i]);
    }
}

std::vector<float> gather_rows(const std::vector<float>& rows, int64_t dim, const std::vector<int64_t>& origin) {
  std::vector<float> out(origin.size() * static_cast<size_t>(dim));
  gather_row_bytes(reinterpret_cast<const char*>(rows.data()), dim * static_cast<int64_t>(sizeof(float)), origin.data(),
                   static_cast<int64_t>(origin.size()), reinterpret_cast<char*>(out.data()));
  return out;
}

}  // namespace matsamp
