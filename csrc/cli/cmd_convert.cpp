#include <cstdio>

#include "cli/commands.h"
#include "cli/graph_source.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/hetero_io.h"
#include "util/timer.h"

namespace matsamp::cli {

void add_convert_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("convert",
                                 "convert a graph or dataset (any --graph input, heterogeneous ones too) to .msg, "
                                 "or write it as an OGB dataset folder");
  struct Options {
    GraphSource source;
    std::string out;
    std::string format = "msg";
    std::string features = "float32";
    bool plain = false;
  };
  auto options = std::make_shared<Options>();
  add_graph_options(*cmd, options->source);
  cmd->get_option("--graph")->required();
  cmd->add_option("-o,--out", options->out, "output: a .msg file, or a folder with --format ogb")->required();
  cmd->add_option("--format", options->format,
                  "msg (one file: graph, features, labels, split; of a heterogeneous graph every vertex type "
                  "and relation) or ogb (OGB's CSV folder layout)")
      ->check(CLI::IsMember({"msg", "ogb"}))
      ->capture_default_str();
  cmd->add_flag("--no-gzip", options->plain, "--format ogb: write .csv files, not .csv.gz");
  cmd->add_option("--features-dtype", options->features,
                  "how a .msg stores the features: float32, or float16 (half the bytes, about 3 significant "
                  "digits, read back as float32)")
      ->check(CLI::IsMember({"float32", "float16"}))
      ->capture_default_str();
  cmd->callback([options] {
    OgbWriteOptions ogb;
    ogb.gzip = !options->plain;
    const bool hetero = is_hetero_source(options->source.spec);
    MATSAMP_CHECK(options->features == "float32" || (options->format == "msg" && !hetero),
                  "--features-dtype float16 applies to a .msg of a graph of one vertex type");
    if (hetero) {
      const HeteroGraph g = load_hetero_graph(options->source.spec, options->source.seed);
      ScopedTimer timer(nullptr);
      if (options->format == "ogb") write_ogb_hetero_dataset(options->out, g, ogb);
      else write_hetero_binary(options->out, g);
      std::printf("wrote %s: %zu vertex types, %zu relations, %lld vertices, %lld edges (%.2f s)\n",
                  options->out.c_str(), g.types.size(), g.relations.size(), static_cast<long long>(g.num_vertices()),
                  static_cast<long long>(g.num_edges()), timer.seconds());
      return;
    }
    const Graph g = load_graph(options->source);
    ScopedTimer timer(nullptr);
    if (options->format == "ogb") write_ogb_node_dataset(options->out, g, ogb);
    else
      write_binary_csr(options->out, g, options->features == "float16" ? FeatureType::float16 : FeatureType::float32);
    std::printf("wrote %s: %lld vertices, %lld nonzeros%s%s%s%s (%.2f s)\n", options->out.c_str(),
                static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_edges()),
                !g.has_features()                ? ""
                : options->features == "float16" ? ", features (float16)"
                                                 : ", features",
                g.has_edge_features() ? ", edge features" : "", g.has_labels() ? ", labels" : "",
                g.has_split() ? ", split" : "", timer.seconds());
  });
}

}  // namespace matsamp::cli
