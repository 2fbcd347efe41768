// The binary readers (.msg, .npz) read with pread, not mmap: a file that shrinks
// while it is read is an error, not a SIGBUS, and a FIFO is refused at once.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.h"
#include "io/file_reader.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::scratch_dir;
using testing::throws_error_with;

TEST(FileReader, ReadsAtOffsetsAndNamesTheFileWhenItShrinks) {
  const std::string dir = scratch_dir("file_reader");
  const std::string path = testing::write_file(dir, "f.bin", std::string(1000, 'x') + "abcd");
  const FileReader file(path);
  EXPECT_EQ(file.size(), 1004u);
  char four[4];
  file.read(1000, four, 4);
  EXPECT_EQ(std::string(four, 4), "abcd");
  EXPECT_TRUE(throws_error_with([&] { file.read(1001, four, 4); }, {path + ": truncated"}));
  ASSERT_EQ(::truncate(path.c_str(), 10), 0);
  EXPECT_TRUE(throws_error_with([&] { file.read(1000, four, 4); }, {path + ": file shrank while it was read"}));
}

// A child reads the file over and over while this process cuts it in half:
// each read ends in the whole graph or in an error naming the file, never in a signal.
template <class Read>
void expect_no_signal_when_shrunk(const std::string& path, Read read) {
  const pid_t child = testing::start_child([&] {
    for (int i = 0; i < 100000; ++i) try {
        read();
      } catch (const Error& e) {
        return std::string(e.what()).find(path) != std::string::npos ? 0 : 2;
      }
    return 3;  // never saw the truncation
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  ASSERT_EQ(::truncate(path.c_str(), static_cast<off_t>(std::filesystem::file_size(path) / 2)), 0);
  EXPECT_EQ(testing::child_status(child), 0) << "negative: ended by that signal (7: SIGBUS)";
}

TEST(FileReader, MsgShrunkWhileReadIsAnError) {
  const std::string dir = scratch_dir("msg_shrunk");
  Graph g;
  g.adj = CsrMatrix(4096, 4096);
  g.feature_dim = 1024;
  g.features.assign(4096 * 1024, 0.5f);  // 16 MiB: most of a read is spent copying them
  write_binary_csr(dir + "/g.msg", g);
  expect_no_signal_when_shrunk(dir + "/g.msg", [&] { read_binary_csr(dir + "/g.msg"); });
}

TEST(FileReader, NpzShrunkWhileReadIsAnError) {
  const std::string dir = scratch_dir("npz_shrunk");
  NpzWriter out;
  out.add("x", std::vector<float>(size_t{4} << 20, 0.5f));
  out.write(dir + "/a.npz");
  expect_no_signal_when_shrunk(dir + "/a.npz", [&] { NpzReader in(dir + "/a.npz"); });
}

TEST(FileReader, FifoIsRefusedWithoutWaitingForAWriter) {
  const std::string dir = scratch_dir("binary_fifo");
  for (const std::string name : {"g.msg", "g.npz"}) {
    const std::string fifo = dir + "/" + name;
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const int status = testing::run_in_child(
        [&] {
          try {
            read_graph(fifo);
          } catch (const Error& e) {
            return std::string(e.what()) == "cannot open " + fifo + ": not a regular file" ? 0 : 2;
          }
          return 3;
        },
        10);
    EXPECT_EQ(status, 0) << name << (status == -SIGALRM ? ": blocked opening the FIFO" : "");
  }
}

}  // namespace
}  // namespace matsamp
