#include <cstdio>

#include "cli/commands.h"
#include "cli/validators.h"
#include "generate/generators.h"
#include "graph/transform.h"
#include "io/graph_io.h"

namespace matsamp::cli {

void add_generate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("generate", "generate an R-MAT or planted-partition graph as binary CSR");
  struct Options {
    std::string kind = "rmat", out;
    RmatOptions rmat;
    PlantedPartitionOptions planted;
    uint64_t seed = 1;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("kind", options->kind, "rmat or planted")
      ->check(CLI::IsMember({"rmat", "planted"}))
      ->capture_default_str();
  cmd->add_option("-o,--out", options->out, "output file (.msg binary CSR)")->required();
  cmd->add_option("--seed", options->seed, "generator seed")->capture_default_str();
  cmd->add_option("--scale", options->rmat.scale, "R-MAT: 2^scale vertices")
      ->check(CLI::Range(1, 30))
      ->capture_default_str();
  cmd->add_option("--edge-factor", options->rmat.edge_factor, "R-MAT: edges per vertex before symmetrizing")
      ->check(positive())
      ->capture_default_str();
  cmd->add_option("--vertices", options->planted.vertices, "planted: vertex count")
      ->check(positive())
      ->capture_default_str();
  cmd->add_option("--classes", options->planted.classes, "planted: classes")->check(positive())->capture_default_str();
  cmd->add_option("--degree", options->planted.average_degree, "planted: average degree")
      ->check(positive())
      ->capture_default_str();
  cmd->add_option("--homophily", options->planted.homophily, "planted: fraction of intra-class edges")
      ->check(in_range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--features", options->planted.feature_dim, "planted: feature dimension")
      ->check(non_negative())
      ->capture_default_str();
  cmd->add_option("--signal", options->planted.feature_signal, "planted: class separation of features")
      ->capture_default_str();
  cmd->callback([options] {
    Graph g;
    if (options->kind == "rmat") {
      options->rmat.seed = options->seed;
      g = generate_rmat(options->rmat);
    } else {
      options->planted.seed = options->seed;
      g = generate_planted_partition(options->planted);
    }
    write_binary_csr(options->out, g);
    std::printf("wrote %s: %lld vertices, %lld nonzeros\n", options->out.c_str(),
                static_cast<long long>(g.num_vertices()), static_cast<long long>(g.num_edges()));
  });
}

}  // namespace matsamp::cli
