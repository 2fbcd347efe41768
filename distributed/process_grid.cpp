#include "process_grid.h"

#include <vector>

#include "agreement.h"

namespace matsamp {

namespace {

// Every rank must have asked for the same c: compare through a sum of (c, c²).
bool same_everywhere(Communicator& world, int value) {
  std::vector<int64_t> sums{value, static_cast<int64_t>(value) * value};
  world.all_reduce_sum(sums);
  const int64_t p = world.size();
  // Equal values iff p·Σc² = (Σc)² (Cauchy-Schwarz is tight only for equal entries).
  return p * sums[1] == sums[0] * sums[0];
}

}  // namespace

ProcessGrid::ProcessGrid(Communicator& world, int replication) : world_(world), replication_(replication) {
  const int p = world.size();
  agree(world, same_everywhere(world, replication),
        detail::concat("ranks were given different replication factors (this rank has c = ", replication, ")"));
  agree(world, replication >= 1 && p % (static_cast<int64_t>(replication) * replication) == 0,
        detail::concat("replication factor c = ", replication, " does not fit ", p,
                       " processes: the 1.5D grid needs c >= 1 and p divisible by c*c"));
  row_ = world.split(row(), col());
  col_ = world.split(col(), row());
}

std::map<std::string, CommCounters> ProcessGrid::counters() const {
  std::map<std::string, CommCounters> sum;
  const Communicator* comms[] = {&world_, row_.get(), col_.get()};
  for (const Communicator* comm : comms)
    for (const auto& [op, c] : comm->counters()) {
      sum[op].bytes += c.bytes;
      sum[op].messages += c.messages;
      sum[op].calls += c.calls;
    }
  return sum;
}

int64_t ProcessGrid::bytes_sent() const {
  return matsamp::bytes_sent(world_) + matsamp::bytes_sent(*row_) + matsamp::bytes_sent(*col_);
}

int64_t ProcessGrid::messages_sent() const {
  return matsamp::messages_sent(world_) + matsamp::messages_sent(*row_) + matsamp::messages_sent(*col_);
}

void ProcessGrid::reset_counters() {
  world_.reset_counters();
  row_->reset_counters();
  col_->reset_counters();
}

}  // namespace matsamp
