// The transport interface of the distributed layer (DESIGN.md, "Transport").
// Implementations: MPI (host buffers) and NCCL (device buffers). Local kernels
// never see a Communicator; the ProcessGrid owns them.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace matsamp {

enum class DataType { int8, int32, int64, float32, float64 };

template <class T>
constexpr DataType data_type_of() {
  if constexpr (std::is_same_v<T, int8_t> || std::is_same_v<T, char> || std::is_same_v<T, uint8_t>)
    return DataType::int8;
  else if constexpr (std::is_same_v<T, int32_t>) return DataType::int32;
  else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) return DataType::int64;
  else if constexpr (std::is_same_v<T, float>) return DataType::float32;
  else {
    static_assert(std::is_same_v<T, double>, "unsupported element type");
    return DataType::float64;
  }
}

size_t size_of(DataType type);

// Bytes and messages this rank sent, per operation name ("all_to_allv", ...).
struct CommCounters {
  int64_t bytes = 0;
  int64_t messages = 0;
  int64_t calls = 0;
};

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual std::string transport() const = 0;  // "mpi", "nccl", "self"
  // Whether buffers may be device memory (NCCL); host memory is accepted by every transport.
  virtual bool takes_device_buffers() const { return false; }

  // Counts are in elements; displacements are the prefix sums of the counts.
  virtual void all_reduce_sum(void* data, int64_t count, DataType type) = 0;
  virtual void all_to_allv(const void* send, const std::vector<int64_t>& send_counts, void* recv,
                           const std::vector<int64_t>& recv_counts, DataType type) = 0;
  virtual void all_gatherv(const void* send, int64_t count, void* recv, const std::vector<int64_t>& recv_counts,
                           DataType type) = 0;
  virtual void broadcast(void* data, int64_t count, DataType type, int root) = 0;
  virtual void send(const void* data, int64_t count, DataType type, int peer, int tag) = 0;
  virtual void recv(void* data, int64_t count, DataType type, int peer, int tag) = 0;
  virtual void barrier() = 0;
  // Ranks with the same color form a new communicator, ordered by key.
  virtual std::unique_ptr<Communicator> split(int color, int key) = 0;
  // Collective: a communicator of the same ranks, for host buffers, whose operations
  // may run on another thread while this one's run (each thread making the operations
  // of its communicator in the same order on every rank). Null where the transport
  // cannot: MPI without MPI_THREAD_MULTIPLE.
  virtual std::unique_ptr<Communicator> concurrent_duplicate() = 0;
  // Ends every rank of the job with one message (never a hang).
  [[noreturn]] virtual void abort(const std::string& message) = 0;

  const std::map<std::string, CommCounters>& counters() const { return counters_; }
  void reset_counters() { counters_.clear(); }

  // Typed conveniences.
  template <class T>
  void all_reduce_sum(std::vector<T>& data) {
    all_reduce_sum(data.data(), static_cast<int64_t>(data.size()), data_type_of<T>());
  }
  template <class T>
  std::vector<T> all_to_allv(const std::vector<T>& send, const std::vector<int64_t>& send_counts);
  template <class T>
  std::vector<T> all_gatherv(const std::vector<T>& send);

 protected:
  void count(const std::string& op, int64_t bytes, int64_t messages) {
    CommCounters& c = counters_[op];
    c.bytes += bytes;
    c.messages += messages;
    c.calls += 1;
  }
  // The counters of each operation, one convention for every transport: the bytes this
  // rank sends to other ranks as if each transfer went directly (a broadcast counts at
  // its root once per receiver), whatever tree or ring the library picks; an all-reduce
  // counts the 2 (p - 1)/p of its data of the bandwidth-optimal algorithm.
  void count_all_reduce(int64_t n, DataType type);
  void count_all_to_allv(const std::vector<int64_t>& send_counts, DataType type);
  void count_all_gatherv(int64_t n, DataType type);
  void count_broadcast(int64_t n, DataType type, int root);
  void count_send(int64_t n, DataType type, int64_t messages);

  // Argument checks shared by the transports; each throws matsamp::Error naming `what`.
  void check_count(int64_t n, const char* what) const;
  void check_peer(int peer, const char* what) const;
  void check_counts(const std::vector<int64_t>& counts, const char* what) const;  // one per rank
  void check_own_part(int64_t n, const std::vector<int64_t>& recv_counts) const;  // all_gatherv
  void check_exchange(const std::vector<int64_t>& send_counts,                    // all_to_allv
                      const std::vector<int64_t>& recv_counts) const;

 private:
  std::map<std::string, CommCounters> counters_;
};

// Bytes this rank has sent through comm, over all operations since the last reset.
inline int64_t bytes_sent(const Communicator& comm) {
  int64_t bytes = 0;
  for (const auto& [op, c] : comm.counters()) bytes += c.bytes;
  return bytes;
}

// Messages this rank has sent through comm (the transfers the byte counts assume), since the last reset.
inline int64_t messages_sent(const Communicator& comm) {
  int64_t messages = 0;
  for (const auto& [op, c] : comm.counters()) messages += c.messages;
  return messages;
}

// A communicator of one rank (no MPI): every collective is a copy.
std::unique_ptr<Communicator> make_self_communicator();

template <class T>
std::vector<T> Communicator::all_to_allv(const std::vector<T>& send, const std::vector<int64_t>& send_counts) {
  std::vector<int64_t> recv_counts(size());
  std::vector<int64_t> counts = send_counts;
  // Every rank learns how much it receives: one all-to-all of the counts.
  all_to_allv(counts.data(), std::vector<int64_t>(size(), 1), recv_counts.data(), std::vector<int64_t>(size(), 1),
              DataType::int64);
  int64_t total = 0;
  for (int64_t c : recv_counts) total += c;
  std::vector<T> recv(total);
  all_to_allv(send.data(), send_counts, recv.data(), recv_counts, data_type_of<T>());
  return recv;
}

template <class T>
std::vector<T> Communicator::all_gatherv(const std::vector<T>& send) {
  std::vector<int64_t> counts(size());
  const int64_t mine = static_cast<int64_t>(send.size());
  all_gatherv(&mine, 1, counts.data(), std::vector<int64_t>(size(), 1), DataType::int64);
  int64_t total = 0;
  for (int64_t c : counts) total += c;
  std::vector<T> recv(total);
  all_gatherv(send.data(), mine, recv.data(), counts, data_type_of<T>());
  return recv;
}

}  // namespace matsamp
