#include <cstdio>
#include <filesystem>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "cli/sampler_options.h"
#include "cli/temporal_options.h"
#include "io/atomic_file.h"
#include "sampling/minibatch_npz.h"
#include "util/progress.h"

namespace matsamp::cli {

void add_sample_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("sample", "bulk-sample an epoch and write each minibatch to DIR/minibatch_NNNNNN.npz");
  struct Options {
    GraphSource source;
    SamplerOptions sampler;
    TemporalOptions temporal;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  add_graph_options(*cmd, options->source);
  add_sampler_options(*cmd, options->sampler);
  add_temporal_options(*cmd, options->temporal);
  cmd->add_option("-o,--out", options->out,
                  "output directory: it appears when the epoch is written, replacing an earlier one of that name")
      ->required();
  cmd->callback([options] {
    const Graph g = load_graph(options->source);
    auto backend = make_backend(options->sampler, g.adj);
    LocalGraph graph(*backend, g.adj);
    std::unique_ptr<Sampler> sampler = make_sampler(options->sampler, graph);
    options->sampler.epoch.times = make_epoch_times(options->temporal, g, *backend, options->sampler.epoch.seed);
    const std::vector<vid_t> train = epoch_training_vertices(options->sampler, g.num_vertices());
    EpochIterator epoch(*sampler, make_context(options->sampler, *backend), train, options->sampler.epoch);
    AtomicDirectory out(options->out);  // whole or not at all: never mixed with an earlier run's files
    std::fprintf(stderr, "matsamp: %lld minibatches, %lld per bulk\n", static_cast<long long>(epoch.num_minibatches()),
                 static_cast<long long>(epoch.bulk_size()));
    BulkSample bulk;
    int64_t written = 0;
    Progress progress("sample", epoch.num_minibatches(), "minibatches");
    while (next_bulk(epoch, &bulk)) {
      for (int64_t g_local = 0; g_local < bulk.count(); ++g_local) {
        const Minibatch mb = extract_minibatch(bulk, g_local);
        write_minibatch_npz(minibatch_path(out.staging(), mb.id), mb);
        ++written;
      }
      progress.update(written);
    }
    out.commit();
    std::printf("wrote %lld minibatches to %s\n", static_cast<long long>(written), options->out.c_str());
  });
}

}  // namespace matsamp::cli
