#include "sampling/estimate_file.h"

#include <sys/stat.h>
#include <xxhash.h>

#include "io/file_reader.h"
#include "io/msg_container.h"

namespace matsamp {
namespace {

// Â's pattern and values: the counts are per entry of this very matrix.
uint64_t matrix_checksum(const CsrMatrix& m) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, m.rowptr.data(), m.rowptr.size() * sizeof(m.rowptr[0]));
  XXH3_64bits_update(state, m.colidx.data(), m.colidx.size() * sizeof(m.colidx[0]));
  XXH3_64bits_update(state, m.values.data(), m.values.size() * sizeof(m.values[0]));
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  return sum;
}

class EstimateFile final : public EstimateStore {
 public:
  explicit EstimateFile(std::string path) : path_(std::move(path)) {}

  bool load(const std::string& key, const CsrMatrix& normalized, SubgraphCounts& counts) const override {
    struct stat info {};
    if (::stat(path_.c_str(), &info) != 0) return false;  // nothing kept yet: estimated, then saved
    const FileReader file(path_);
    const msg::Layout l = msg::parse(file, msg::kEstimateVersion);
    for (const char* name : {"key", "graph", "totals", "vertex", "entry"})
      if (!l.find(name)) fail(path_, ": corrupt: no section ", name);
    const std::vector<char> kept_key = msg::copy_section<char>(file, l, "key");
    const std::string kept(kept_key.begin(), kept_key.end());
    if (kept != key)
      fail(path_, ": holds the counts of '", kept, "', not of '", key, "' (remove it or name another file)");
    const std::vector<uint64_t> graph = msg::copy_section<uint64_t>(file, l, "graph");
    if (graph.size() != 1 || graph[0] != matrix_checksum(normalized) || l.header.n != normalized.rows ||
        l.header.nnz != normalized.nnz())
      fail(path_, ": holds the counts of another graph (", l.header.n, " vertices, ", l.header.nnz,
           " entries; this one has ", normalized.rows, " and ", normalized.nnz(), ")");
    const std::vector<int64_t> totals = msg::copy_section<int64_t>(file, l, "totals");
    std::vector<int64_t> vertex = msg::copy_section<int64_t>(file, l, "vertex");
    std::vector<int64_t> entry = msg::copy_section<int64_t>(file, l, "entry");
    if (totals.size() != 2 || vertex.size() != counts.vertex.size() || entry.size() != counts.entry.size())
      fail(path_, ": corrupt: counts of the wrong length");
    counts.subgraphs = totals[0];
    counts.sampled_vertices = totals[1];
    counts.vertex = std::move(vertex);
    counts.entry = std::move(entry);
    return true;
  }

  void save(const std::string& key, const CsrMatrix& normalized, const SubgraphCounts& counts) const override {
    const uint64_t graph = matrix_checksum(normalized);
    const int64_t totals[2] = {counts.subgraphs, counts.sampled_vertices};
    msg::write_file(path_, msg::kEstimateVersion, normalized.rows, normalized.nnz(), 0,
                    {{"key", key.data(), key.size()},
                     {"graph", &graph, sizeof graph},
                     {"totals", totals, sizeof totals},
                     {"vertex", counts.vertex.data(), counts.vertex.size() * sizeof(int64_t)},
                     {"entry", counts.entry.data(), counts.entry.size() * sizeof(int64_t)}});
  }

 private:
  std::string path_;
};

}  // namespace

std::shared_ptr<const EstimateStore> estimate_file(const std::string& path) {
  return std::make_shared<EstimateFile>(path);
}

}  // namespace matsamp
