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

namespace {

class SelfCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string transport() const override { return "self"; }

  void all_reduce_sum(void*, int64_t n, DataType) override {
    check_count(n, "all_reduce_sum");
    count("all_reduce_sum", 0, 0);
  }
  void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                   const std::vector<int64_t>& recv_counts, DataType type) override {
    MATSAMP_CHECK(send_counts.size() == 1 && recv_counts.size() == 1 && send_counts[0] == recv_counts[0],
                  "all_to_allv on one rank: send and receive counts must be one equal number");
    copy(send, recv, send_counts[0], type);
    count("all_to_allv", 0, 0);
  }
  void all_gatherv(const void* send, int64_t n, void* recv, const std::vector<int64_t>& recv_counts,
                   DataType type) override {
    MATSAMP_CHECK(recv_counts.size() == 1 && recv_counts[0] == n,
                  "all_gatherv on one rank: the receive count must equal the send count");
    copy(send, recv, n, type);
    count("all_gatherv", 0, 0);
  }
  void broadcast(void*, int64_t n, DataType, int root) override {
    check_count(n, "broadcast");
    MATSAMP_CHECK(root == 0, "broadcast on one rank: root ", root, " does not exist");
    count("broadcast", 0, 0);
  }
  void send(const void* data, int64_t n, DataType type, int peer, int tag) override {
    MATSAMP_CHECK(peer == 0, "send on one rank: peer ", peer, " does not exist");
    check_count(n, "send");
    const char* bytes = static_cast<const char*>(data);
    mailbox_[tag].emplace_back(bytes, bytes + n * size_of(type));
    count("send", 0, 0);
  }
  void recv(void* data, int64_t n, DataType type, int peer, int tag) override {
    MATSAMP_CHECK(peer == 0, "recv on one rank: peer ", peer, " does not exist");
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
  [[noreturn]] void abort(const std::string& message) override {
    std::fprintf(stderr, "matsamp: error: %s\n", message.c_str());
    std::fflush(stderr);
    std::exit(EXIT_FAILURE);
  }

 private:
  static void check_count(int64_t n, const char* op) {
    MATSAMP_CHECK(n >= 0, op, ": negative count ", n);
  }
  static void copy(const void* from, void* to, int64_t n, DataType type) {
    check_count(n, "copy");
    if (n > 0 && from != to) std::memmove(to, from, n * size_of(type));
  }
  std::map<int, std::deque<std::vector<char>>> mailbox_;
};

}  // namespace

std::unique_ptr<Communicator> make_self_communicator() { return std::make_unique<SelfCommunicator>(); }

}  // namespace matsamp
