#include <cstdio>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "io/graph_io.h"

namespace matsamp::cli {

void add_convert_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("convert", "convert a Matrix Market, edge list or .npz graph to binary CSR");
  struct Options {
    GraphSource source;
    std::string out;
  };
  auto options = std::make_shared<Options>();
  add_graph_options(*cmd, options->source);
  cmd->get_option("--graph")->required();
  cmd->add_option("-o,--out", options->out, "output file (.msg binary CSR)")->required();
  cmd->callback([options] {
    const Graph g = load_graph(options->source);
    write_binary_csr(options->out, g);
    std::printf("wrote %s: %lld vertices, %lld nonzeros%s%s\n", options->out.c_str(),
                static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_edges()),
                g.has_features() ? ", features" : "", g.has_labels() ? ", labels" : "");
  });
}

}  // namespace matsamp::cli
