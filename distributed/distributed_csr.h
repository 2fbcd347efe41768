// A matrix in the 1.5D layout: n rows in process_rows() blocks; block row i (all its
// columns, global ids) lives on the ranks of process row i.
#pragma once
#include <string>
#include <vector>

#include "core/csr.h"
#include "core/row_blocks.h"
#include "process_grid.h"

namespace matsamp {

struct DistributedCsr {
  RowBlocks blocks;
  int block = 0;    // the block row held here: this rank's process row
  CsrMatrix local;  // rows [blocks.begin(block), blocks.end(block)) x cols

  int64_t rows() const { return blocks.n; }
  int64_t cols() const { return local.cols; }
  int64_t first_row() const { return blocks.begin(block); }
};

// Rows [r0, r1) of m, as a (r1 - r0) x m.cols matrix.
CsrMatrix row_slice(const CsrMatrix& m, int64_t r0, int64_t r1);
// The parts (each with `cols` columns) one below the other.
CsrMatrix stack_rows(const std::vector<CsrMatrix>& parts, int64_t cols);

// This rank's block row of a matrix every rank holds whole (tests, generated graphs).
DistributedCsr block_row_of(const CsrMatrix& whole, const ProcessGrid& grid);

// Collective over the grid: this rank's block row of a's transpose, its rows (a's
// columns) in process_rows() blocks, equal to block_row_of(transpose(whole)) of
// the whole matrix that a's blocks make. Each rank of a process row sends a 1/c
// share of its block's entries down its process column to the process rows
// that own their columns; each process row then gathers the c shares.
DistributedCsr transpose(const DistributedCsr& a, ProcessGrid& grid);

// Collective: ends every rank with one AgreedError unless every rank holds the same
// matrix (compared by shape and a hash of its arrays). `what` names it in the message.
void check_same_on_every_rank(Communicator& comm, const CsrMatrix& m, const std::string& what);

// Collective: ends every rank with one AgreedError unless every rank was given
// the same .msg file (compared by its header, which carries the section checksums).
void check_same_file_on_every_rank(Communicator& comm, const std::string& path);

// Collective: reads only this rank's block row of a matsamp binary CSR (.msg) file.
// Ranks given different files (compared by their headers, which carry the section
// checksums), or a file that fails to open on some rank, end every rank with one
// AgreedError.
DistributedCsr read_block_row(const std::string& path, ProcessGrid& grid);

}  // namespace matsamp
