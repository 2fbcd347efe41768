#include <algorithm>
#include <cctype>
#include <filesystem>

#include "io/binary_csr.h"
#include "io/graph_io.h"

namespace matsamp {

namespace {

std::string lowercase_extension(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".gz") == 0) name.resize(name.size() - 3);
  const size_t dot = name.find_last_of('.');
  return dot == std::string::npos ? std::string() : name.substr(dot);
}

}  // namespace

Graph read_graph(const std::string& path, const ReadOptions& options) {
  if (std::filesystem::is_directory(path)) {
    if (is_ogb_node_dataset(path)) return read_ogb_node_dataset(path, options);
    fail("cannot open ", path,
         ": not a regular file (a folder is read only in OGB's layout, with raw/edge.csv.gz "
         "or raw/data.npz)");
  }
  const std::string ext = lowercase_extension(std::filesystem::path(path).filename().string());
  if (ext == ".mtx") return read_matrix_market(path, options);
  if (ext == ".npz") return read_npz_graph(path);
  if (ext == ".msg") return read_binary_csr(path, BinaryReadOptions{options.msg_features});
  return read_edge_list(path, options);  // .txt, .el, .csv, .tsv, .edges, ... (SNAP files vary)
}

}  // namespace matsamp
