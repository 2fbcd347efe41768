// The MPI transport: each collective delivers exactly what was sent, also when the
// counts exceed the per-message limit (lowered here to force the chunked path), and
// the counters record the bytes sent to other ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>

#include "core/error.h"
#include "mpi_test_env.h"

namespace matsamp {
namespace {

using testing::world;

// What rank `from` sends rank `to` in the all-to-all tests: (from + 2·to) % 5 values.
int64_t part_size(int from, int to) { return (from + 2 * to) % 5; }
int64_t part_value(int from, int to, int64_t i) { return 1000 * from + 100 * to + i; }

class MpiTransport : public ::testing::TestWithParam<int64_t> {  // the message limit
 protected:
  std::unique_ptr<Communicator> comm_ = make_mpi_communicator(MPI_COMM_WORLD, GetParam());
};

TEST_P(MpiTransport, AllToAllvDeliversEveryPart) {
  Communicator& comm = *comm_;
  const int p = comm.size(), me = comm.rank();
  std::vector<int64_t> send, send_counts(p);
  for (int to = 0; to < p; ++to) {
    send_counts[to] = part_size(me, to);
    for (int64_t i = 0; i < send_counts[to]; ++i) send.push_back(part_value(me, to, i));
  }
  const std::vector<int64_t> got = comm.all_to_allv(send, send_counts);
  std::vector<int64_t> want;
  for (int from = 0; from < p; ++from)
    for (int64_t i = 0; i < part_size(from, me); ++i) want.push_back(part_value(from, me, i));
  EXPECT_EQ(got, want);
}

TEST_P(MpiTransport, AllGathervStacksThePartsInRankOrder) {
  Communicator& comm = *comm_;
  std::vector<float> mine(comm.rank() % 3 == 1 ? 0 : 4 + comm.rank());
  std::iota(mine.begin(), mine.end(), 10.0f * comm.rank());
  std::vector<float> want;
  for (int r = 0; r < comm.size(); ++r)
    for (int i = 0; i < (r % 3 == 1 ? 0 : 4 + r); ++i) want.push_back(10.0f * r + i);
  EXPECT_EQ(comm.all_gatherv(mine), want);
}

TEST_P(MpiTransport, AllReduceSumsElementwise) {
  Communicator& comm = *comm_;
  std::vector<double> values(11);
  for (int i = 0; i < 11; ++i) values[i] = comm.rank() * 0.5 + i;
  comm.all_reduce_sum(values);
  const double p = comm.size();
  for (int i = 0; i < 11; ++i) EXPECT_EQ(values[i], 0.5 * p * (p - 1) / 2 + p * i);
}

TEST_P(MpiTransport, BroadcastFromEveryRoot) {
  Communicator& comm = *comm_;
  for (int root = 0; root < comm.size(); ++root) {
    std::vector<int32_t> data(9, comm.rank() == root ? root + 7 : -1);
    comm.broadcast(data.data(), 9, DataType::int32, root);
    EXPECT_EQ(data, std::vector<int32_t>(9, root + 7));
  }
}

TEST_P(MpiTransport, SendAndRecvAroundARing) {
  Communicator& comm = *comm_;
  const int next = (comm.rank() + 1) % comm.size(), prev = (comm.rank() + comm.size() - 1) % comm.size();
  std::vector<int64_t> out(10, comm.rank()), in(10, -1);
  std::vector<int64_t> empty;
  if (comm.rank() % 2 == 0) {
    comm.send(out.data(), 10, DataType::int64, next, 3);
    comm.send(empty.data(), 0, DataType::int64, next, 4);
    comm.recv(in.data(), 10, DataType::int64, prev, 3);
    comm.recv(empty.data(), 0, DataType::int64, prev, 4);
  } else {
    comm.recv(in.data(), 10, DataType::int64, prev, 3);
    comm.recv(empty.data(), 0, DataType::int64, prev, 4);
    comm.send(out.data(), 10, DataType::int64, next, 3);
    comm.send(empty.data(), 0, DataType::int64, next, 4);
  }
  EXPECT_EQ(in, std::vector<int64_t>(10, prev));
}

INSTANTIATE_TEST_SUITE_P(Limits, MpiTransport, ::testing::Values(int64_t{INT_MAX}, int64_t{2}),
                         [](const auto& info) { return info.param == INT_MAX ? "IntMax" : "Chunked"; });

TEST(MpiCounters, RecordBytesAndMessagesSentToOtherRanks) {
  auto comm = make_mpi_communicator(MPI_COMM_WORLD);
  const int p = comm->size(), me = comm->rank();
  std::vector<int64_t> send_counts(p), send;
  int64_t bytes = 0, messages = 0;
  for (int to = 0; to < p; ++to) {
    send_counts[to] = part_size(me, to);
    send.resize(send.size() + send_counts[to], 1);
    if (to != me && send_counts[to] > 0) {
      bytes += 8 * send_counts[to];
      ++messages;
    }
  }
  comm->reset_counters();
  std::vector<int64_t> recv_counts(p);
  for (int from = 0; from < p; ++from) recv_counts[from] = part_size(from, me);
  std::vector<int64_t> recv(std::accumulate(recv_counts.begin(), recv_counts.end(), int64_t{0}));
  comm->all_to_allv(send.data(), send_counts, recv.data(), recv_counts, DataType::int64);
  const CommCounters& c = comm->counters().at("all_to_allv");
  EXPECT_EQ(c.bytes, bytes);
  EXPECT_EQ(c.messages, messages);
  EXPECT_EQ(c.calls, 1);

  std::vector<float> data(6);
  comm->broadcast(data.data(), 6, DataType::float32, 0);
  EXPECT_EQ(comm->counters().at("broadcast").bytes, me == 0 ? 24 * (p - 1) : 0);
}

TEST(MpiTransportErrors, BadArgumentsAreClearErrors) {
  auto comm = make_mpi_communicator(MPI_COMM_WORLD);
  std::vector<int64_t> data(3);
  EXPECT_THROW(comm->all_to_allv(data.data(), {1}, data.data(), {1, 2}, DataType::int64), Error);
  EXPECT_THROW(comm->broadcast(data.data(), 3, DataType::int64, comm->size()), Error);
  EXPECT_THROW(comm->send(data.data(), -1, DataType::int64, 0, 0), Error);
  EXPECT_THROW(make_mpi_communicator(MPI_COMM_WORLD, 0), Error);
  EXPECT_THROW(comm->split(-1, 0), Error);
}

// Training samples and fetches on threads of their own: collectives on two
// duplicates at once, on two threads, each in its own order, deliver what each sent.
TEST(MpiConcurrentDuplicate, CollectivesOnTwoThreadsAtOnce) {
  const std::unique_ptr<Communicator> a = world().concurrent_duplicate();
  ASSERT_TRUE(a) << "the MPI of this build has no MPI_THREAD_MULTIPLE";
  const std::unique_ptr<Communicator> b = world().concurrent_duplicate();
  EXPECT_EQ(a->size(), world().size());
  EXPECT_EQ(a->rank(), world().rank());
  const int p = world().size(), me = world().rank();
  const auto sums = [p, me](Communicator& comm, int64_t offset) {
    int64_t failures = 0;
    for (int64_t round = 0; round < 200; ++round) {
      std::vector<int64_t> v{me + round + offset};
      comm.all_reduce_sum(v);
      failures += v[0] != p * (p - 1) / 2 + p * (round + offset);
      std::vector<int64_t> all = comm.all_gatherv(std::vector<int64_t>(1 + (round + me) % 3, offset));
      failures += static_cast<int64_t>(std::count(all.begin(), all.end(), offset)) != static_cast<int64_t>(all.size());
    }
    return failures;
  };
  int64_t failures_b = -1;
  std::thread other([&] { failures_b = sums(*b, 1000); });
  const int64_t failures_a = sums(*a, 0);
  other.join();
  EXPECT_EQ(failures_a, 0);
  EXPECT_EQ(failures_b, 0);
  EXPECT_EQ(make_self_communicator()->concurrent_duplicate()->size(), 1);
}

TEST(SelfCommunicator, CopiesAndQueuesLikeAOneRankJob) {
  auto comm = make_self_communicator();
  EXPECT_EQ(comm->size(), 1);
  const std::vector<int32_t> send{4, 5, 6};
  EXPECT_EQ(comm->all_to_allv(send, {3}), send);
  EXPECT_EQ(comm->all_gatherv(send), send);
  comm->send(send.data(), 3, DataType::int32, 0, 9);
  std::vector<int32_t> got(3);
  comm->recv(got.data(), 3, DataType::int32, 0, 9);
  EXPECT_EQ(got, send);
  EXPECT_THROW(comm->recv(got.data(), 3, DataType::int32, 0, 9), Error);
  EXPECT_EQ(comm->split(0, 0)->size(), 1);
}

}  // namespace
}  // namespace matsamp
