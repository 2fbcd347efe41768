#include <algorithm>
#include <cctype>

#include "io/graph_io.h"

namespace matsamp {

Graph read_graph(const std::string& path) {
  const size_t dot = path.find_last_of('.');
  const size_t slash = path.find_last_of('/');
  std::string ext;
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) ext = path.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (ext == ".mtx") return read_matrix_market(path);
  if (ext == ".npz") return read_npz_graph(path);
  if (ext == ".msg") return read_binary_csr(path);
  return read_edge_list(path);  // .txt, .el, .tsv, .edges, ... (SNAP files vary)
}

}  // namespace matsamp
