// Outputs appear whole or not at all: a unique hidden temporary beside the
// target, removed on failure and on SIGINT / SIGTERM; a user's own files are
// never touched.
#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "child_process.h"
#include "io/atomic_file.h"
#include "io/graph_io.h"
#include "io/npz.h"
#include "io_test_helpers.h"
#include "test_data.h"

namespace matsamp {
namespace {

using testing::scratch_dir;
using testing::throws_error_with;

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

Graph small_graph() {
  Graph g;
  g.adj = CsrMatrix(3, 3);
  g.adj.rowptr = {0, 1, 2, 2};
  g.adj.colidx = {1, 2};
  g.adj.values = {1, 1};
  return g;
}

TEST(AtomicFile, WritesUnderAHiddenUniqueNameBesideTheTarget) {
  const std::string dir = scratch_dir("atomic_name");
  AtomicFileWriter a(dir + "/out.bin"), b(dir + "/out.bin");
  EXPECT_NE(a.temporary_path(), b.temporary_path());
  for (const std::string& name : names_in(dir)) {
    EXPECT_EQ(name.rfind(".out.bin.", 0), 0u) << name;
    EXPECT_EQ(name.size(), std::string(".out.bin.").size() + 6) << name;
  }
  a.write("a", 1);
  a.commit();
  EXPECT_EQ(testing::read_all(dir + "/out.bin"), "a");
  EXPECT_EQ(names_in(dir).size(), 2u);  // out.bin and b's temporary
}

TEST(AtomicFile, FailureLeavesNothingAndAUsersTmpFileIsKept) {
  const std::string dir = scratch_dir("atomic_users_tmp");
  const std::string mine = testing::write_file(dir, "g.msg.tmp", "the user's own file");
  write_binary_csr(dir + "/g.msg", small_graph());
  NpzWriter npz;
  npz.add("x", std::vector<float>{1, 2});
  testing::write_file(dir, "a.npz.tmp", "also the user's");
  npz.write(dir + "/a.npz");
  EXPECT_EQ(testing::read_all(mine), "the user's own file");
  EXPECT_EQ(testing::read_all(dir + "/a.npz.tmp"), "also the user's");
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"a.npz", "a.npz.tmp", "g.msg", "g.msg.tmp"}));
  {
    AtomicFileWriter abandoned(dir + "/h.msg");
    abandoned.write("partial", 7);
  }
  EXPECT_EQ(names_in(dir).size(), 4u) << "an uncommitted write leaves nothing";
  // A graph the writer refuses leaves nothing either, and the old file stands.
  Graph bad = small_graph();
  bad.adj.colidx = {2, 9};
  EXPECT_TRUE(throws_error_with([&] { write_binary_csr(dir + "/g.msg", bad); }, {dir + "/g.msg"}));
  EXPECT_EQ(read_binary_csr(dir + "/g.msg").adj, small_graph().adj);
  EXPECT_EQ(names_in(dir).size(), 4u);
}

TEST(AtomicFile, SignalsRemoveTheTemporaryFile) {
  for (const int signal_number : {SIGINT, SIGTERM}) {
    const std::string dir = scratch_dir("atomic_signal");
    testing::write_file(dir, "out.msg.tmp", "mine");
    const int status = testing::run_in_child([&] {
      AtomicFileWriter out(dir + "/out.msg");
      out.write("half a file", 11);
      ::raise(signal_number);
      return 0;
    });
    EXPECT_EQ(status, -signal_number) << "the signal still ends the process";
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"out.msg.tmp"})) << "signal " << signal_number;
    EXPECT_EQ(testing::read_all(dir + "/out.msg.tmp"), "mine") << "a user's file of that name is not touched";
  }
}

TEST(AtomicFile, CheckCanWriteSaysWhyNot) {
  const std::string dir = scratch_dir("atomic_check");
  check_can_write(dir + "/ok.pt");
  EXPECT_TRUE(names_in(dir).empty()) << "the probe leaves nothing";
  EXPECT_TRUE(throws_error_with([&] { check_can_write(dir + "/missing/ck.pt"); },
                                {"cannot write " + dir + "/missing/ck.pt: No such file or directory"}));
  EXPECT_TRUE(throws_error_with([&] { check_can_write(dir); }, {"cannot write " + dir + ": a folder"}));
  if (::geteuid() != 0) {  // root writes anywhere
    std::filesystem::create_directory(dir + "/locked");
    ::chmod((dir + "/locked").c_str(), 0500);
    EXPECT_TRUE(throws_error_with([&] { check_can_write(dir + "/locked/ck.pt"); }, {"Permission denied"}));
    ::chmod((dir + "/locked").c_str(), 0700);
  }
}

}  // namespace
}  // namespace matsamp
