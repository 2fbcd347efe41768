#include "agreement.h"

#include <algorithm>
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

void agree_on_arguments(Communicator& comm, const std::vector<std::string>& arguments) {
  std::string mine;
  for (const std::string& a : arguments) mine += a + '\0';
  int64_t length = static_cast<int64_t>(mine.size());
  comm.broadcast(&length, 1, DataType::int64, 0);
  std::string root(length, '\0');
  if (comm.rank() == 0) root = mine;
  comm.broadcast(root.data(), length, DataType::int8, 0);
  std::vector<std::string> theirs;
  for (size_t at = 0; at < root.size();) {
    const size_t end = root.find('\0', at);
    theirs.push_back(root.substr(at, end - at));
    at = end + 1;
  }
  std::string difference;
  for (size_t i = 0; i < std::max(arguments.size(), theirs.size()) && difference.empty(); ++i) {
    const std::string a = i < arguments.size() ? "'" + arguments[i] + "'" : "nothing";
    const std::string b = i < theirs.size() ? "'" + theirs[i] + "'" : "nothing";
    if (a != b)
      difference = detail::concat("ranks were started with different arguments: rank ", comm.rank(), " has ", a,
                                  " where rank 0 has ", b, " (argument ", i + 1,
                                  "); every rank must run the same command");
  }
  agree(comm, difference.empty(), difference);
}

}  // namespace matsamp
