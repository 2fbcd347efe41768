#include "distributed_csr.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <numeric>
#include <tuple>
#include <vector>

#include "agreement.h"
#include "io/binary_csr.h"

namespace matsamp {

namespace {

uint64_t fnv1a(uint64_t h, const void* data, size_t bytes) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}

// Identity of a .msg file: a hash of its header (sizes, flags and per-section checksums).
uint64_t header_identity(const std::string& path) {
  constexpr size_t kHeaderBytes = 80;  // see io/binary_csr.h
  std::ifstream in(path, std::ios::binary);
  MATSAMP_CHECK(in, path, ": cannot open");
  char header[kHeaderBytes] = {};
  in.read(header, kHeaderBytes);
  MATSAMP_CHECK(in.gcount() == static_cast<std::streamsize>(kHeaderBytes), path, ": truncated header");
  return fnv1a(0xCBF29CE484222325ull, header, kHeaderBytes);
}

// Ends every rank unless all identities equal rank 0's.
void agree_on_identity(Communicator& comm, uint64_t identity, const std::string& what) {
  const std::vector<int64_t> all = comm.all_gatherv(std::vector<int64_t>{static_cast<int64_t>(identity)});
  const auto other = std::find_if(all.begin(), all.end(), [&](int64_t id) { return id != all[0]; });
  agree(comm, other == all.end(),
        detail::concat("ranks were given different graph files: rank ", other - all.begin(),
                       " does not have the graph of rank 0 (", what, ")"));
}

}  // namespace

void check_same_on_every_rank(Communicator& comm, const CsrMatrix& m, const std::string& what) {
  uint64_t h = 0xCBF29CE484222325ull;
  const int64_t shape[2] = {m.rows, m.cols};
  h = fnv1a(h, shape, sizeof shape);
  h = fnv1a(h, m.rowptr.data(), m.rowptr.size() * sizeof(int64_t));
  h = fnv1a(h, m.colidx.data(), m.colidx.size() * sizeof(col_t));
  h = fnv1a(h, m.values.data(), m.values.size() * sizeof(float));
  agree_on_identity(comm, h, detail::concat(what, ": ", m.shape()));
}

CsrMatrix row_slice(const CsrMatrix& m, int64_t r0, int64_t r1) {
  MATSAMP_CHECK(0 <= r0 && r0 <= r1 && r1 <= m.rows, "row_slice: rows [", r0, ", ", r1, ") outside ", m.shape());
  CsrMatrix out(r1 - r0, m.cols);
  const int64_t first = m.rowptr[r0], last = m.rowptr[r1];
  for (int64_t r = r0; r <= r1; ++r) out.rowptr[r - r0] = m.rowptr[r] - first;
  out.colidx.assign(m.colidx.begin() + first, m.colidx.begin() + last);
  if (m.values.empty()) out.values.assign(last - first, 1.0f);
  else out.values.assign(m.values.begin() + first, m.values.begin() + last);
  return out;
}

CsrMatrix stack_rows(const std::vector<CsrMatrix>& parts, int64_t cols) {
  int64_t rows = 0, nnz = 0;
  for (const CsrMatrix& part : parts) {
    rows += part.rows;
    nnz += part.nnz();
  }
  CsrMatrix out(rows, cols);
  out.colidx.reserve(nnz);
  out.values.reserve(nnz);
  int64_t r = 0;
  for (const CsrMatrix& part : parts) {
    for (int64_t i = 0; i < part.rows; ++i, ++r) out.rowptr[r + 1] = out.rowptr[r] + part.row_nnz(i);
    out.colidx.insert(out.colidx.end(), part.colidx.begin(), part.colidx.end());
    out.values.insert(out.values.end(), part.values.begin(), part.values.end());
  }
  return out;
}

DistributedCsr block_row_of(const CsrMatrix& whole, const ProcessGrid& grid) {
  DistributedCsr d;
  d.blocks = {whole.rows, grid.process_rows()};
  d.block = grid.row();
  d.local = row_slice(whole, d.first_row(), d.blocks.end(d.block));
  return d;
}

void check_same_file_on_every_rank(Communicator& comm, const std::string& path) {
  uint64_t identity = 0;
  agree_on(comm, [&] { identity = header_identity(path); });
  agree_on_identity(comm, identity, path);
}

DistributedCsr transpose(const DistributedCsr& a, ProcessGrid& grid) {
  check_column_count(a.rows(), "distributed transpose");  // a's rows become column ids
  DistributedCsr t;
  t.blocks = {a.cols(), grid.process_rows()};
  t.block = grid.row();
  // This rank's share of the block's rows, its entries as (column, row, value
  // bits) triples, grouped by the process row that owns the column.
  const RowBlocks shares{a.local.rows, grid.replication()};
  const int64_t r0 = shares.begin(grid.col()), r1 = shares.end(grid.col());
  std::vector<int64_t> counts(grid.process_rows(), 0);
  for (int64_t e = a.local.rowptr[r0]; e < a.local.rowptr[r1]; ++e) counts[t.blocks.owner(a.local.colidx[e])] += 3;
  std::vector<int64_t> next(counts.size(), 0);
  for (size_t i = 1; i < counts.size(); ++i) next[i] = next[i - 1] + counts[i - 1];
  std::vector<int32_t> send(a.local.rowptr[r1] * 3 - a.local.rowptr[r0] * 3);
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t e = a.local.rowptr[r]; e < a.local.rowptr[r + 1]; ++e) {
      int64_t& at = next[t.blocks.owner(a.local.colidx[e])];
      int32_t* triple = send.data() + at;
      at += 3;
      triple[0] = a.local.colidx[e];
      triple[1] = static_cast<int32_t>(a.first_row() + r);
      std::memcpy(&triple[2], &a.local.values[e], sizeof(float));
    }
  const std::vector<int32_t> mine = grid.col_comm().all_to_allv(send, counts);
  const std::vector<int32_t> all = grid.row_comm().all_gatherv(mine);
  // Counted into rows, each row's entries then put in column order.
  const int64_t first = t.first_row(), entries = static_cast<int64_t>(all.size()) / 3;
  t.local = CsrMatrix(t.blocks.end(t.block) - first, a.rows());
  for (int64_t i = 0; i < entries; ++i) ++t.local.rowptr[all[3 * i] - first + 1];
  std::partial_sum(t.local.rowptr.begin(), t.local.rowptr.end(), t.local.rowptr.begin());
  std::vector<std::pair<col_t, float>> placed(entries);
  std::vector<int64_t> at(t.local.rowptr.begin(), t.local.rowptr.end() - 1);
  for (int64_t i = 0; i < entries; ++i) {
    float value;
    std::memcpy(&value, &all[3 * i + 2], sizeof(float));
    placed[at[all[3 * i] - first]++] = {all[3 * i + 1], value};
  }
  t.local.colidx.resize(entries);
  t.local.values.resize(entries);
  for (int64_t r = 0; r < t.local.rows; ++r) {
    std::sort(placed.begin() + t.local.rowptr[r], placed.begin() + t.local.rowptr[r + 1]);
    for (int64_t e = t.local.rowptr[r]; e < t.local.rowptr[r + 1]; ++e)
      std::tie(t.local.colidx[e], t.local.values[e]) = placed[e];
  }
  return t;
}

DistributedCsr read_block_row(const std::string& path, ProcessGrid& grid) {
  Communicator& world = grid.world();
  check_same_file_on_every_rank(world, path);
  BinaryCsrInfo info;
  agree_on(world, [&] { info = read_binary_csr_info(path); });
  DistributedCsr d;
  d.blocks = {info.vertices, grid.process_rows()};
  d.block = grid.row();
  agree_on(world, [&] { d.local = read_binary_csr_rows(path, d.first_row(), d.blocks.end(d.block)); });
  return d;
}

}  // namespace matsamp
