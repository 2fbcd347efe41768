// The (p/c) x c process grid of DESIGN.md, "Distribution": rank r sits in process row
// r / c and process column r % c. Block row i of every distributed matrix lives on the
// c ranks of process row i; a process column holds every block row once.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "communicator.h"

namespace matsamp {

class ProcessGrid {
 public:
  // Collective over world. Every rank must pass the same replication factor c, and c²
  // must divide p (the 1.5D product gives each rank of a process row p/c² of the terms);
  // otherwise every rank throws the same AgreedError.
  ProcessGrid(Communicator& world, int replication);

  int size() const { return world_.size(); }
  int rank() const { return world_.rank(); }
  int replication() const { return replication_; }
  int process_rows() const { return world_.size() / replication_; }
  int row() const { return world_.rank() / replication_; }
  int col() const { return world_.rank() % replication_; }

  Communicator& world() { return world_; }
  Communicator& row_comm() { return *row_; }  // the c ranks of this process row, by column
  Communicator& col_comm() { return *col_; }  // the p/c ranks of this process column, by row

  // Counters of the world, row and column communicators, summed per operation.
  std::map<std::string, CommCounters> counters() const;
  int64_t bytes_sent() const;     // over all operations
  int64_t messages_sent() const;  // over all operations
  void reset_counters();

 private:
  Communicator& world_;
  int replication_;
  std::unique_ptr<Communicator> row_, col_;
};

}  // namespace matsamp
