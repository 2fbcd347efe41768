#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.h"
#include "io/graph_io.h"
#include "sampling/epoch.h"
#include "sampling/minibatch_npz.h"
#include "sampling/sampler.h"
#include "test_data.h"
#include "test_sampler.h"

namespace matsamp {
namespace {

using testing::CliResult;
using testing::count_lines;
using testing::data_file;
using testing::expect_one_line_error;
using testing::read_text;
using testing::run_cli;
using testing::scratch_dir;

TEST(Cli, HelpEverywhere) {
  const std::string dir = scratch_dir("cli_help");
  const auto top = run_cli("--help", dir);
  EXPECT_EQ(top.exit_code, 0);
  for (const char* command : {"generate", "convert", "info", "partition", "sample", "bench"}) {
    EXPECT_NE(top.out.find(command), std::string::npos) << command;
    const auto sub = run_cli(std::string(command) + " --help", dir);
    EXPECT_EQ(sub.exit_code, 0) << command;
    EXPECT_NE(sub.out.find("--"), std::string::npos) << command;
  }
  EXPECT_NE(run_cli("", dir).exit_code, 0) << "a command is required";
}

TEST(Cli, BenchPrintsJsonAndBulkEqualsPerBatch) {
  const std::string dir = scratch_dir("cli_bench");
  const auto r = run_cli("bench --graph rmat:10 --fanouts 5,3 -b 64 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_lines(r.out), 1);
  for (const char* key : {"\"probability_s\":", "\"sampling_s\":", "\"extraction_s\":", "\"minibatches_per_s\":",
                          "\"sampled_edges_per_s\":", "\"peak_memory_bytes\":", "\"per_batch\":", "\"fanouts\":[5,3]",
                          "\"minibatches\":16"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
  EXPECT_NE(r.out.find("\"identical_minibatches\":true"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("16 / 16 minibatches"), std::string::npos) << "progress on stderr";
  // At most one progress line a second, and the last: not one per minibatch.
  size_t per_batch_lines = 0;
  for (size_t at = r.err.find("per-batch: "); at != std::string::npos; at = r.err.find("per-batch: ", at + 1))
    ++per_batch_lines;
  EXPECT_GE(per_batch_lines, 1u) << r.err;
  EXPECT_LT(per_batch_lines, 16u) << r.err;
}

// --saint-counts: the first run writes GraphSAINT's pre-sampled counts, the
// second reads them and samples the same minibatches; other samplers say why not.
TEST(Cli, SaintCountsAreKeptAndReused) {
  const std::string dir = scratch_dir("cli_saint_counts");
  const std::string command = "bench --graph rmat:9 --sampler saint_node --saint-norm -b 64 --saint-counts " + dir +
                              "/counts.msg";
  auto fingerprint = [](const std::string& out) {
    const size_t at = out.find("\"fingerprint\":");
    return at == std::string::npos ? std::string() : out.substr(at, out.find(',', at) - at);
  };
  const auto first = run_cli(command, dir);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_TRUE(std::filesystem::exists(dir + "/counts.msg"));
  const auto second = run_cli(command, dir);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_FALSE(fingerprint(first.out).empty()) << first.out;
  EXPECT_EQ(fingerprint(second.out), fingerprint(first.out));
  const auto sage = run_cli("bench --graph rmat:9 --saint-counts " + dir + "/counts.msg", dir);
  EXPECT_EQ(sage.exit_code, 1);
  EXPECT_NE(sage.err.find("matsamp: error: the graphsage sampler cannot keep pre-sampled estimates (saint, saint_node, "
                          "saint_edge or frontier can)"),
            std::string::npos)
      << sage.err;
}

// convert --features-dtype float16: a .msg whose features take half the bytes,
// which info reports; no other output format takes the option.
TEST(Cli, ConvertStoresFeaturesAsFloat16OnRequest) {
  const std::string dir = scratch_dir("cli_half");
  const std::string source = "planted:300:3";
  ASSERT_EQ(run_cli("convert -g " + source + " -o " + dir + "/f32.msg", dir).exit_code, 0);
  const auto half = run_cli("convert -g " + source + " -o " + dir + "/f16.msg --features-dtype float16", dir);
  ASSERT_EQ(half.exit_code, 0) << half.err;
  EXPECT_NE(half.out.find("features (float16)"), std::string::npos) << half.out;
  EXPECT_LT(std::filesystem::file_size(dir + "/f16.msg"), std::filesystem::file_size(dir + "/f32.msg"));
  const auto info = run_cli("info -g " + dir + "/f16.msg", dir);
  EXPECT_NE(info.out.find("\"feature_dtype\":\"float16\""), std::string::npos) << info.out;
  const auto ogb = run_cli("convert -g " + source + " -o " + dir + "/ogb --format ogb --features-dtype float16", dir);
  EXPECT_EQ(ogb.exit_code, 1);
  EXPECT_NE(ogb.err.find("--features-dtype float16 applies to a .msg"), std::string::npos) << ogb.err;
}

// --plot draws the steps of both runs (a PNG from Debian's matplotlib); without
// a Python that runs the script, one line says what is missing.
TEST(Cli, BenchPlotsTheStepBreakdown) {
  const std::string dir = scratch_dir("cli_bench_plot");
  ::setenv("MATSAMP_PYTHON", "/usr/bin/python3", 1);  // Debian's, with matplotlib (install-deps.sh)
  const auto r =
      run_cli("bench --graph rmat:9 --fanouts 5,3 -b 64 --compare-per-batch --plot " + dir + "/steps.png", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_lines(r.out), 1) << "the JSON, as without --plot";
  EXPECT_EQ(testing::read_text(dir + "/steps.png").substr(0, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "/steps.png.json")) << "the script's input is removed";
  ::setenv("MATSAMP_PYTHON", "/nonexistent/python3", 1);
  const auto missing = run_cli("bench --graph rmat:9 --fanouts 5,3 -b 64 --plot " + dir + "/none.png", dir);
  ::unsetenv("MATSAMP_PYTHON");
  testing::expect_one_line_error(missing, "--plot: /nonexistent/python3");
}

// The command keeps freed memory for reuse unless the user tunes malloc, and says which.
TEST(Cli, BenchReportsWhetherFreedMemoryIsKept) {
#ifdef __SANITIZE_ADDRESS__
  GTEST_SKIP() << "AddressSanitizer replaces glibc's malloc, whose settings this tests";
#endif
  const std::string dir = scratch_dir("cli_bench_malloc");
  const std::string bench = "bench --graph rmat:8 --fanouts 3 -b 32";
  if (!std::getenv("GLIBC_TUNABLES") && !std::getenv("MALLOC_TOP_PAD_")) {
    const auto kept = run_cli(bench, dir);
    ASSERT_EQ(kept.exit_code, 0) << kept.err;
    EXPECT_NE(kept.out.find("\"freed_memory_kept\":true"), std::string::npos) << kept.out;
  }
  ASSERT_EQ(setenv("MALLOC_TOP_PAD_", "131072", 1), 0);
  const auto tuned = run_cli(bench, dir);
  unsetenv("MALLOC_TOP_PAD_");
  ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
  EXPECT_NE(tuned.out.find("\"freed_memory_kept\":false"), std::string::npos) << tuned.out;
}

TEST(Cli, BenchRunsLabor) {
  const std::string dir = scratch_dir("cli_bench_labor");
  const auto r = run_cli("bench --graph rmat:10 --sampler labor --fanouts 5,3 -b 64 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key :
       {"\"sampler\":\"labor\"", "\"fanouts\":[5,3]", "\"input_vertices\":", "\"identical_minibatches\":true"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
}

TEST(Cli, BenchRunsGraphSaint) {
  const std::string dir = scratch_dir("cli_bench_saint");
  const auto r =
      run_cli("bench --graph rmat:10 --sampler saint --walk-length 3 --layers 2 -b 64 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"sampler\":\"saint\"", "\"walk_length\":3", "\"layers\":2", "\"minibatches\":16",
                          "\"identical_minibatches\":true"})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << " missing in " << r.out;
  const auto node = run_cli("bench --graph rmat:10 --sampler saint_node --budget 100 --layers 3 -b 64", dir);
  ASSERT_EQ(node.exit_code, 0) << node.err;
  for (const char* key : {"\"sampler\":\"saint_node\"", "\"budget\":100", "\"layers\":3"})
    EXPECT_NE(node.out.find(key), std::string::npos) << key << " missing in " << node.out;
  const auto edge = run_cli("bench --graph rmat:10 --sampler saint_edge --budget 50 -b 64", dir);
  ASSERT_EQ(edge.exit_code, 0) << edge.err;
  EXPECT_NE(edge.out.find("\"sampler\":\"saint_edge\""), std::string::npos) << edge.out;
  const auto zero = run_cli("bench --graph rmat:8 --sampler saint --walk-length 0", dir);
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.err.find("--walk-length"), std::string::npos) << zero.err;
}

// --temporal: one tree per seed by its vertex's time, the same minibatches at
// any bulk size, fewer edges than untimed; half-given options are one-line errors.
TEST(Cli, BenchSamplesByTime) {
  const std::string dir = scratch_dir("cli_bench_temporal");
  {
    std::ofstream times(dir + "/times.txt");
    for (int v = 0; v < 256; ++v) times << v << " " << (v * 37) % 50 << "\n";
  }
  const std::string base = "bench --graph rmat:8 --fanouts 4,3 -b 32 ";
  const auto bulk = run_cli(base + "--temporal uniform --vertex-times " + dir + "/times.txt", dir);
  ASSERT_EQ(bulk.exit_code, 0) << bulk.err;
  EXPECT_NE(bulk.out.find("\"temporal\":\"uniform\""), std::string::npos) << bulk.out;
  const auto single = run_cli(base + "--temporal uniform --vertex-times " + dir + "/times.txt -k 1", dir);
  ASSERT_EQ(single.exit_code, 0) << single.err;
  const auto field = testing::json_field;
  EXPECT_EQ(field(bulk.out, "fingerprint"), field(single.out, "fingerprint"));
  EXPECT_FALSE(field(bulk.out, "fingerprint").empty());
  const auto untimed = run_cli(base, dir);
  ASSERT_EQ(untimed.exit_code, 0) << untimed.err;
  EXPECT_NE(field(bulk.out, "sampled_edges"), field(untimed.out, "sampled_edges"));
  const auto last = run_cli(base + "--temporal last --vertex-times random:20", dir);
  EXPECT_EQ(last.exit_code, 0) << last.err;
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--temporal uniform", "--temporal needs vertex times: the graph has none"},
           {"--vertex-times random:5", "--vertex-times needs --temporal"},
           {"--temporal uniform --vertex-times random:0", "random:MAX needs a positive integer MAX"},
           {"--temporal last --sampler ladies --samples 16 --vertex-times random:5", "cannot sample by time"},
           {"--temporal uniform --vertex-times " + dir + "/missing.txt", "missing.txt"}}) {
    const auto r = run_cli(base + args, dir);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
  }
  {
    std::ofstream partial(dir + "/partial.txt");
    partial << "0 3\n";
  }
  const auto partial = run_cli(base + "--temporal uniform --vertex-times " + dir + "/partial.txt", dir);
  EXPECT_NE(partial.err.find("vertex 1 has no time"), std::string::npos) << partial.err;
}

TEST(Cli, BenchRepeatReportsTheMedianRunAndEveryTime) {
  const std::string dir = scratch_dir("cli_bench_repeat");
  const auto r = run_cli("bench --graph rmat:8 --fanouts 3,2 -b 32 --repeat 3 --compare-per-batch", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Both modes list three times (three numbers, two commas) and equal minibatches in every run.
  for (const char* mode : {"\"bulk\":", "\"per_batch\":"}) {
    const size_t at = r.out.find(mode);
    ASSERT_NE(at, std::string::npos) << r.out;
    const size_t times = r.out.find("\"repeat_times_s\":[", at);
    ASSERT_NE(times, std::string::npos) << r.out;
    const std::string list = r.out.substr(times, r.out.find(']', times) - times);
    EXPECT_EQ(std::count(list.begin(), list.end(), ','), 2) << list;
    const size_t identical = r.out.find("\"repeats_identical\":", times);
    ASSERT_NE(identical, std::string::npos) << r.out;
    EXPECT_EQ(r.out.compare(identical, 24, "\"repeats_identical\":true"), 0) << r.out;
  }
  EXPECT_NE(r.err.find("bulk, run 3 of 3"), std::string::npos) << "progress names the repeat";
  const auto zero = run_cli("bench --graph rmat:8 --repeat 0", dir);  // CLI11's range check
  EXPECT_NE(zero.exit_code, 0);
  EXPECT_NE(zero.err.find("--repeat: Value 0 not in range 1 to 1000"), std::string::npos) << zero.err;
}

TEST(Cli, SampleWritesEveryMinibatchAsNpz) {
  const std::string dir = scratch_dir("cli_sample");
  const std::string karate = data_file("karate.mtx");
  const auto r = run_cli("sample --graph " + karate + " --fanouts 4,2 -b 8 -k 2 --seed 3 --out " + dir + "/mb", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The same epoch sampled in this process: the files must hold exactly it.
  const Graph g = read_matrix_market(karate);
  auto sampler = testing::graphsage(g.adj, {4, 2}, 3);
  auto backend = make_cpu_backend();
  auto bound = sampler->bind(*backend);
  EpochIterator epoch(*bound.sampler, bound.context, training_vertices(34, 1.0, 3), {8, 0, int64_t{1} << 30, 3, 0});
  BulkSample bulk;
  int64_t checked = 0;
  while (epoch.next(&bulk))
    for (int64_t i = 0; i < bulk.count(); ++i) {
      const Minibatch want = extract_minibatch(bulk, i);
      const Minibatch got = read_minibatch_npz(minibatch_path(dir + "/mb", want.id));
      EXPECT_EQ(got.seeds, want.seeds);
      ASSERT_EQ(got.layers.size(), 2u);
      for (size_t l = 0; l < 2; ++l) {
        EXPECT_EQ(got.layers[l].vertices, want.layers[l].vertices);
        EXPECT_TRUE(got.layers[l].adj == want.layers[l].adj);
      }
      ++checked;
    }
  EXPECT_EQ(checked, 5);
  EXPECT_FALSE(std::filesystem::exists(minibatch_path(dir + "/mb", 5)));
}

// The output folder appears whole: an earlier run's files never mix with the
// new ones, a failed run leaves the earlier folder as it was, and nothing
// hidden stays beside it.
TEST(Cli, SampleReplacesTheOutputFolderWhole) {
  const std::string dir = scratch_dir("cli_sample_atomic");
  std::filesystem::create_directories(dir + "/mb");
  std::ofstream(dir + "/mb/minibatch_000099.npz") << "an earlier run";
  auto r = run_cli("sample --graph rmat:7 --fanouts 3 -b 64 --out " + dir + "/mb", dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/mb/minibatch_000099.npz"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/mb/minibatch_000001.npz"));
  r = run_cli("sample --graph rmat:7 --fanouts 3 --sampler ladies --samples 0 --out " + dir + "/mb", dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(std::filesystem::exists(dir + "/mb/minibatch_000001.npz"));  // the earlier folder, untouched
  std::ofstream(dir + "/file") << "mine";
  r = run_cli("sample --graph rmat:7 --out " + dir + "/file", dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write " + dir + "/file: a file of that name exists"), std::string::npos) << r.err;
  int entries = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(name == "mb" || name == "file" || name == "cli.out" || name == "cli.err") << name;
    ++entries;
  }
  EXPECT_EQ(entries, 4);
}

// Every file name in dir, hidden ones too.
std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename().string());
  return names;
}

// A write that fails (here: past a file-size limit, EFBIG) is a one-line error;
// the earlier output stays as it was and no temporary file or folder is left.
TEST(Cli, WritesPastTheFileSizeLimitFailCleanly) {
  const std::string dir = scratch_dir("cli_file_limit");
  const std::vector<std::pair<std::string, std::string>> writes = {
      {"generate rmat --scale 12 --seed 2 -o " + dir + "/r.msg", "r.msg"},
      {"convert -g " + data_file("cora.npz") + " -o " + dir + "/cora.msg", "cora.msg"},
      {"partition -g rmat:12 --parts 2 -o " + dir + "/p.msg", "p.msg"},
      {"sample --graph rmat:12 --fanouts 10,10 -b 256 --out " + dir + "/mb", "mb"},
  };
  for (const auto& [args, name] : writes) {
    ASSERT_EQ(run_cli(args, dir).exit_code, 0) << args;  // the earlier output, written without a limit
    const std::set<std::string> before = names_in(dir);
    const std::string path = dir + "/" + name;
    const bool folder = std::filesystem::is_directory(path);
    const std::string earlier = folder ? read_text(path + "/minibatch_000000.npz") : read_text(path);
    const CliResult r = testing::run_cli_with_file_limit(args, dir, 16);
    expect_one_line_error(r, "cannot write");
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
    EXPECT_EQ(folder ? read_text(path + "/minibatch_000000.npz") : read_text(path), earlier) << name;
    EXPECT_EQ(names_in(dir), before) << args << ": a temporary file or folder was left";
  }
}

TEST(Cli, GenerateConvertInfo) {
  const std::string dir = scratch_dir("cli_generate");
  ASSERT_EQ(run_cli("generate rmat --scale 9 --edge-factor 8 -o " + dir + "/r.msg", dir).exit_code, 0);
  const auto info = run_cli("info -g " + dir + "/r.msg", dir);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("\"vertices\":512"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"symmetric\":true"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"self_loops\":0"), std::string::npos) << info.out;

  ASSERT_EQ(run_cli("generate planted --vertices 300 --classes 3 --features 8 -o " + dir + "/p.msg", dir).exit_code, 0);
  const auto planted = run_cli("info -g " + dir + "/p.msg", dir);
  EXPECT_NE(planted.out.find("\"feature_dim\":8"), std::string::npos) << planted.out;
  EXPECT_NE(planted.out.find("\"classes\":3"), std::string::npos) << planted.out;

  const auto convert = run_cli("convert -g " + data_file("cora.npz") + " -o " + dir + "/cora.msg", dir);
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  const Graph a = read_npz_graph(data_file("cora.npz")), b = read_binary_csr(dir + "/cora.msg");
  EXPECT_TRUE(a.adj == b.adj);
  EXPECT_EQ(a.features, b.features);
  EXPECT_EQ(a.labels, b.labels);
}

TEST(Cli, BadInputIsOneLineError) {
  const std::string dir = scratch_dir("cli_errors");
  expect_one_line_error(run_cli("bench --graph rmat:8 --fanouts 5,0", dir), "layer 1 has 0 samples");
  expect_one_line_error(run_cli("info --graph " + dir + "/missing.mtx", dir), "missing.mtx");
  expect_one_line_error(run_cli("bench --graph rmat:x", dir), "rmat:x");
  testing::expect_usage_error(run_cli("bench --graph rmat:8 --memory-budget 4Q", dir), "4Q");
  expect_one_line_error(run_cli("bench --graph rmat:8 --memory-budget 1K", dir), "raise the memory budget");
  {
    std::ofstream empty(dir + "/empty.txt");
    empty << "# no edges\n";
  }
  expect_one_line_error(run_cli("bench --graph " + dir + "/empty.txt", dir), "no vertices");
  // CLI11 rejects unknown samplers before anything runs.
  EXPECT_NE(run_cli("bench --sampler nope", dir).exit_code, 0);
  // Options of distributed runs are not ignored without --distributed, and a
  // distributed run that no launcher started does not quietly run alone.
  expect_one_line_error(run_cli("bench --graph rmat:6 --oblivious", dir), "--oblivious applies to --distributed");
  expect_one_line_error(run_cli("bench --graph rmat:6 --replication 2", dir), "--replication applies to --distributed");
  expect_one_line_error(run_cli("bench --graph rmat:6 --fetch-rows", dir), "--fetch-rows applies to --distributed");
  expect_one_line_error(run_cli("bench --graph rmat:6 --transport nccl", dir),
                        "--transport and --collective-timeout apply to --distributed");
  expect_one_line_error(run_cli("bench --graph rmat:6 --collective-timeout 5", dir),
                        "--transport and --collective-timeout apply to --distributed");
  expect_one_line_error(run_cli("bench --graph rmat:6 --row-work split", dir), "--row-work applies to --distributed");
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("SLURM_STEP_NUM_TASKS"))
    expect_one_line_error(run_cli("bench --graph rmat:6 --distributed replicated", dir),
                          "was not started by mpirun or srun");
}

// Mistakes in the command line: one line each, "matsamp: error: ", exit code 2.
TEST(Cli, UsageErrorsAreOneLineWithExitCode2) {
  const std::string dir = scratch_dir("cli_usage");
  using testing::expect_usage_error;
  expect_usage_error(run_cli("bench --graph rmat:6 --threads 100000", dir),
                     "--threads: Value 100000 not in range 0 to 4096");
  expect_usage_error(run_cli("bench --graph rmat:6 --no-such-option", dir), "--no-such-option");
  expect_usage_error(run_cli("bench extra words", dir), "not expected");
  expect_usage_error(run_cli("sample --graph rmat:6", dir), "--out is required");
  expect_usage_error(run_cli("", dir), "A subcommand is required");
  // Bounds read as written, not as DBL_MAX's 310 digits.
  const auto degree = run_cli("generate planted --degree -5 -o " + dir + "/p.msg", dir);
  expect_usage_error(degree, "--degree: Value -5 is not positive");
  EXPECT_LT(degree.err.size(), 120u) << degree.err;
  expect_usage_error(run_cli("generate planted --homophily 2 -o " + dir + "/p.msg", dir),
                     "--homophily: Value 2 not in range 0 to 1");
  expect_usage_error(run_cli("bench --graph rmat:6 --train-fraction nan", dir), "not a finite number");
}

// Numbers that do not fit are refused, not wrapped around or saturated.
TEST(Cli, NumbersThatWouldWrapAreRefused) {
  const std::string dir = scratch_dir("cli_wrap");
  using testing::expect_usage_error;
  expect_usage_error(run_cli("bench --graph rmat:6 --seed -1", dir), "--seed: Value -1 is not a non-negative");
  expect_usage_error(run_cli("bench --graph rmat:6 --seed 99999999999999999999", dir), "--seed");
  expect_usage_error(run_cli("generate rmat --seed -3 -o " + dir + "/r.msg", dir), "--seed: Value -3");
  expect_usage_error(run_cli("bench --graph rmat:6 --memory-budget 1e30G", dir), "'1e30G' is too large");
  expect_usage_error(run_cli("bench --graph rmat:6 -b 0x10", dir), "--batch-size: Value 0x10");
  expect_one_line_error(run_cli("bench --graph rmat:4294967312", dir), "scale 4294967312 is above 30");
  expect_one_line_error(run_cli("bench --graph planted:10:99999999999", dir), "class count 99999999999 is above 10");
  // Leading zeros are decimal, not octal.
  const auto seed = run_cli("bench --graph rmat:6 --fanouts 2 -b 16 --seed 010", dir);
  ASSERT_EQ(seed.exit_code, 0) << seed.err;
  EXPECT_NE(seed.out.find("\"seed\":10,"), std::string::npos) << seed.out;
}

}  // namespace
}  // namespace matsamp
