#include "agreement.h"

#include <vector>

namespace matsamp {

void agree(Communicator& comm, bool ok, const std::string& message) {
  std::vector<int64_t> failed(comm.size(), 0);
  failed[comm.rank()] = ok ? 0 : 1;
  comm.all_reduce_sum(failed);
  int first = -1;
  for (int r = 0; r < comm.size() && first < 0; ++r)
    if (failed[r]) first = r;
  if (first < 0) return;
  int64_t length = comm.rank() == first ? static_cast<int64_t>(message.size()) : 0;
  comm.broadcast(&length, 1, DataType::int64, first);
  std::string text(length, ' ');
  if (comm.rank() == first) text = message;
  comm.broadcast(text.data(), length, DataType::int8, first);
  throw AgreedError(text);
}

}  // namespace matsamp
