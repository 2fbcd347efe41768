// size_of and the one-rank communicator (used when MPI is not running, and by p = 1 tests).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>

#include "communicator.h"
#include "core/error.h"

namespace matsamp {

size_t size_of(DataType type) {
  switch (type) {
    case DataType::int8: return 1;
    case DataType::int32: return 4;
    case DataType::int64: return 8;
    case DataType::float32: return 4;
    case DataType::float64: return 8;
  }
  fail("size_of: unknown data type ", static_cast<int>(type));
}

void Communicator::count_all_reduce(int64_t n, DataType type) {
  const int64_t p = size();
  count("all_reduce_sum", 2 * n * static_cast<int64_t>(size_of(type)) * (p - 1) / p, 2 * (p - 1));
}

void Communicator::count_all_to_allv(const std::vector<int64_t>& send_counts, DataType type) {
  int64_t bytes = 0, messages = 0;
  for (int peer = 0; peer < size(); ++peer)
    if (peer != rank() && send_counts[peer] > 0) {
      bytes += send_counts[peer] * static_cast<int64_t>(size_of(type));
      ++messages;
    }
  count("all_to_allv", bytes, messages);
}

void Communicator::count_all_gatherv(int64_t n, DataType type) {
  count("all_gatherv", n * static_cast<int64_t>(size_of(type)) * (size() - 1), n > 0 ? size() - 1 : 0);
}

void Communicator::count_broadcast(int64_t n, DataType type, int root) {
  const bool sender = rank() == root && size() > 1;
  count("broadcast", sender ? n * static_cast<int64_t>(size_of(type)) * (size() - 1) : 0, sender ? size() - 1 : 0);
}

void Communicator::count_send(int64_t n, DataType type, int64_t messages) {
  count("send", n * static_cast<int64_t>(size_of(type)), messages);
}

void Communicator::check_count(int64_t n, const char* what) const {
  MATSAMP_CHECK(n >= 0, what, ": negative count ", n);
}

void Communicator::check_peer(int peer, const char* what) const {
  MATSAMP_CHECK(peer >= 0 && peer < size(), what, " ", peer, " outside [0, ", size(), ")");
}

void Communicator::check_counts(const std::vector<int64_t>& counts, const char* what) const {
  MATSAMP_CHECK(static_cast<int>(counts.size()) == size(), what, " counts: ", counts.size(), " entries for ", size(),
                " ranks");
  for (int64_t c : counts) check_count(c, what);
}

void Communicator::check_own_part(int64_t n, const std::vector<int64_t>& recv_counts) const {
  check_counts(recv_counts, "all_gatherv receive");
  MATSAMP_CHECK(recv_counts[rank()] == n, "all_gatherv: rank ", rank(), " sends ", n,
                " elements but the receive counts say ", recv_counts[rank()]);
}

void Communicator::check_exchange(const std::vector<int64_t>& send_counts,
                                  const std::vector<int64_t>& recv_counts) const {
  check_counts(send_counts, "all_to_allv send");
  check_counts(recv_counts, "all_to_allv receive");
  MATSAMP_CHECK(send_counts[rank()] == recv_counts[rank()], "all_to_allv: rank ", rank(), " sends itself ",
                send_counts[rank()], " elements but expects ", recv_counts[rank()]);
}

namespace {

class SelfCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string transport() const override { return "self"; }

  void all_reduce_sum(void*, int64_t n, DataType type) override {
    check_count(n, "all_reduce_sum");
    count_all_reduce(n, type);
  }
  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    check_exchange(send_counts, recv_counts);
    copy(send, recv, send_counts[0], type);
    count_all_to_allv(send_counts, type);
  }
  void all_gatherv(const void* send, int64_t n, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    check_own_part(n, recv_counts);
    copy(send, recv, n, type);
    count_all_gatherv(n, type);
  }
  void broadcast(void*, int64_t n, DataType type, int root) override {
    check_count(n, "broadcast");
    check_peer(root, "broadcast root");
    count_broadcast(n, type, root);
  }
  void send(const void* data, int64_t n, DataType type, int peer, int tag) override {
    check_peer(peer, "send peer");
    check_count(n, "send");
    const char* bytes = static_cast<const char*>(data);
    mailbox_[tag].emplace_back(bytes, bytes + n * size_of(type));
    count_send(0, type, 0);  // to itself: nothing crosses a wire
  }
  void recv(void* data, int64_t n, DataType type, int peer, int tag) override {
    check_peer(peer, "recv peer");
    auto& queue = mailbox_[tag];
    MATSAMP_CHECK(!queue.empty(), "recv on one rank: no message with tag ", tag, " was sent");
    const std::vector<char>& message = queue.front();
    MATSAMP_CHECK(message.size() == static_cast<size_t>(n) * size_of(type), "recv on one rank: expected ",
                  n * size_of(type), " bytes, the message has ", message.size());
    if (!message.empty()) std::memcpy(data, message.data(), message.size());
    queue.pop_front();
  }
  void barrier() override {}
  std::unique_ptr<Communicator> split(int, int) override { return std::make_unique<SelfCommunicator>(); }
  std::unique_ptr<Communicator> concurrent_duplicate() override { return std::make_unique<SelfCommunicator>(); }
  [[noreturn]] void abort(const std::string& message) override {
    std::fprintf(stderr, "matsamp: error: %s\n", message.c_str());
    std::fflush(stderr);
    std::exit(EXIT_FAILURE);
  }

 private:
  static void copy(const void* from, void* to, int64_t n, DataType type) {
    MATSAMP_CHECK(n >= 0, "copy: negative count ", n);
    if (n > 0 && from != to) std::memmove(to, from, n * size_of(type));
  }
  std::map<int, std::deque<std::vector<char>>> mailbox_;
};

}  // namespace

std::unique_ptr<Communicator> make_self_communicator() { return std::make_unique<SelfCommunicator>(); }

}  // namespace matsamp
