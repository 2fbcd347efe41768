// matsamp: bulk matrix-based minibatch sampling for GNN training.
#include <cstdio>

#include "cli/commands.h"
#include "core/error.h"
#include "util/memory.h"

int main(int argc, char** argv) {
  matsamp::keep_freed_memory_for_reuse();
  CLI::App app{
      "matsamp: samples GNN minibatches in bulk with sparse matrix algebra.\n"
      "Run 'matsamp COMMAND --help' for the options of a command."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "matsamp 0.1.0");
  matsamp::cli::add_generate_command(app);
  matsamp::cli::add_convert_command(app);
  matsamp::cli::add_info_command(app);
  matsamp::cli::add_partition_command(app);
  matsamp::cli::add_sample_command(app);
  matsamp::cli::add_bench_command(app);
#ifdef MATSAMP_HAVE_TRAIN
  matsamp::cli::add_train_command(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "matsamp: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
