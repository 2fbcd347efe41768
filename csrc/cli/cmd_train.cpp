// Trains a GNN on sampled minibatches (built only with libtorch).
#include <cstdio>

#include "cli/commands.h"
#include "cli/distributed_bench.h"
#include "cli/graph_source.h"
#include "cli/hetero_options.h"
#include "cli/sampler_options.h"
#include "cli/temporal_options.h"
#include "cli/validators.h"
#include "graph/transform.h"
#include "io/atomic_file.h"
#include "io/binary_csr.h"
#include "io/graph_io.h"
#include "io/mapped_features.h"
#include "io/msg_container.h"
#include "train/hetero_trainer.h"
#include "train/link_trainer.h"
#include "train/ogb_link_split.h"
#include "train/trainer.h"
#include "util/memory.h"
#ifdef MATSAMP_HAVE_DISTRIBUTED
#include "distributed/agreement.h"
#include "distributed/epoch_share.h"
#include "distributed/local_rank.h"
#include "distributed/mpi_communicator.h"
#include "distributed/partitioned_sampling.h"
#include "sampling/registry.h"
#endif

namespace matsamp::cli {

namespace {

struct TrainCommandOptions {
  GraphSource source;
  SamplerOptions sampler;
  TrainOptions train;
  TrainingDataOptions data;
  CLI::Option* evaluation_option = nullptr;
  std::string distributed;  // "", replicated, partitioned
  int replication = 1;
  std::string row_work = "shared";
  TransportOptions transport;
  std::string checkpoint, resume;
  bool map_features = false;
  std::string task = "node";
  // --task link
  EdgeSplitOptions link_split;
  LinkTrainOptions link;
  CLI::Option* weight_decay_option = nullptr;  // given: used by --task link too
  // Heterogeneous graphs (R-GCN)
  HeteroOptions hetero;
  std::string relation_weights = "per-relation";
  int64_t num_bases = 0;
  // By time (node classification, link prediction)
  TemporalOptions temporal;
  std::vector<int64_t> time_split;  // t1, t2: train before t1, validate to t2, test from t2
};

// The model, the optimizer and when training stops.
void add_model_options(CLI::App& cmd, TrainCommandOptions& o) {
  cmd.add_option("-m,--model", o.train.model,
                 "sage or gcn on a homogeneous graph (default: gcn for ladies/fastgcn, else sage); rgcn on a "
                 "heterogeneous one (its default)")
      ->check(CLI::IsMember({"sage", "gcn", "rgcn"}));
  cmd.add_option("--hidden", o.train.hidden, "hidden units per layer")->check(positive())->capture_default_str();
  cmd.add_option("--dropout", o.train.dropout, "dropout probability")
      ->check(in_range(0.0, 0.99))
      ->capture_default_str();
  cmd.add_option("--lr", o.train.learning_rate, "Adam learning rate")->check(positive())->capture_default_str();
  o.weight_decay_option =
      cmd.add_option("--weight-decay", o.train.weight_decay, "Adam weight decay (L2; 0 for --task link)")
          ->check(non_negative())
          ->capture_default_str();
  cmd.add_option("--epochs", o.train.epochs, "most epochs to train")->check(non_negative())->capture_default_str();
  cmd.add_option("--patience", o.train.patience,
                 "stop after this many epochs without a better validation accuracy (0: never)")
      ->check(non_negative())
      ->capture_default_str();
  o.evaluation_option = cmd.add_option_function<std::string>(
                               "--evaluation",
                               [&o](const std::string& name) {
                                 o.train.evaluation = name == "sampled" ? EvaluationMode::sampled
                                                                        : EvaluationMode::full;
                               },
                               "full (whole neighbourhoods) or sampled (the default with --distributed partitioned)")
                            ->check(CLI::IsMember({"full", "sampled"}))
                            ->default_str("full");
}

// What trains: the task, the split and the features.
void add_data_options(CLI::App& cmd, TrainCommandOptions& o) {
  cmd.add_option_function<std::string>(
         "--split",
         [&o](const std::string& name) {
           o.data.split_choice = name == "given"    ? SplitChoice::given
                                 : name == "random" ? SplitChoice::random
                                                    : SplitChoice::automatic;
         },
         "given: the dataset's own train/valid/test sets (an OGB folder's split/, kept in .msg; with "
         "--task link, an OGB link folder's split/<scheme>/*.pt); random: a seeded per-class split "
         "(--train-per-class, --validation-per-class), or with --task link --edge-split; auto: given "
         "when the dataset has one")
      ->check(CLI::IsMember({"auto", "given", "random"}))
      ->default_str("auto");
  cmd.add_option("--train-per-class", o.data.split.train_per_class, "--split random: training vertices per class")
      ->check(positive())
      ->capture_default_str();
  cmd.add_option("--validation-per-class", o.data.split.validation_per_class,
                 "--split random: validation vertices per class")
      ->check(non_negative())
      ->capture_default_str();
  cmd.add_option("--split-seed", o.data.split.seed, "seed of the random per-class split")->capture_default_str();
  cmd.add_flag_callback(
      "--raw-features", [&o] { o.data.normalize_features = false; },
      "keep features as they are (default: rows divided by their sum)");
  cmd.add_flag("--map-features", o.map_features,
               "use a .msg file's float32 features from a memory mapping instead of a copy (needs --raw-features; "
               "the file must not shrink while training: that is a SIGBUS, not an error)");
  cmd.add_option("--task", o.task,
                 "node: vertex classification; link: link prediction (edge-seeded minibatches, negatives, the "
                 "minibatch's edges masked out of its layers)")
      ->check(CLI::IsMember({"node", "link"}))
      ->capture_default_str();
}

// How it runs: processes, the pipeline, threads, checkpoints.
void add_run_options(CLI::App& cmd, TrainCommandOptions& o) {
  cmd.add_option("--distributed", o.distributed,
                 "train with every rank of an MPI job (mpirun, srun) on the graph 'replicated' (every rank reads it "
                 "whole; the default under a launcher) or 'partitioned': each rank reads from a .msg file only its "
                 "block row of A, its feature rows and the labels of the split (1.5D, --replication c), and "
                 "samples with the distributed product")
      ->check(CLI::IsMember({"replicated", "partitioned"}));
  cmd.add_option("--replication", o.replication,
                 "--distributed partitioned: replication factor c of the (p/c) x c grid (c*c must divide p); "
                 "features are laid out the same way")
      ->check(positive())
      ->capture_default_str();
  add_row_work_option(cmd, o.row_work);
  add_transport_options(cmd, o.transport);
  cmd.add_flag_callback(
      "--no-prefetch", [&o] { o.train.prefetch = false; }, "sample each bulk only when training needs it");
  cmd.add_flag_callback(
      "--no-pipeline", [&o] { o.train.pipeline = false; },
      "prepare each step's blocks and feature rows only when training needs them (by default the next "
      "steps are prepared on their own thread while the model trains)");
  cmd.add_option("--torch-threads", o.train.threads,
                 "torch threads for propagation (0: torch's default; --threads sets the sampler's)")
      ->check(non_negative())
      ->capture_default_str();
  cmd.add_option("--feature-replication", o.train.feature_replication,
                 "0: every process uses its own copy of the features; c: features in the 1.5D layout with "
                 "replication c, rows fetched for each minibatch (MPI builds)")
      ->check(non_negative())
      ->capture_default_str();
  cmd.add_option("--checkpoint", o.checkpoint, "write model, optimizer and progress here after every epoch");
  cmd.add_option("--resume", o.resume, "continue from this checkpoint");
}

// Link prediction (--task link).
void add_link_options(CLI::App& cmd, TrainCommandOptions& o) {
  auto* link = "Link prediction (--task link)";
  cmd.add_option_function<std::vector<double>>(
         "--edge-split",
         [&o](const std::vector<double>& fractions) {
           o.link_split.validation_fraction = fractions.at(0);
           o.link_split.test_fraction = fractions.at(1);
         },
         "validation and test fractions of the edges (each undirected edge once) when the dataset has "
         "no split of its own or with --split random; the rest trains and alone forms the graph the "
         "layers are sampled from")
      ->expected(2)
      ->delimiter(',')
      ->group(link)
      ->default_str("0.05,0.1");
  cmd.add_option("--negatives", o.link.negatives.per_positive, "negative destinations per positive edge")
      ->check(positive())
      ->group(link)
      ->capture_default_str();
  cmd.add_option_function<std::string>(
         "--negative-distribution",
         [&o](const std::string& name) { o.link.negatives.distribution = parse_negative_distribution(name); },
         "uniform, or degree (proportional to degree^0.75)")
      ->check(CLI::IsMember({"uniform", "degree"}))
      ->group(link)
      ->default_str("uniform");
  cmd.add_flag("--reject-known-negatives", o.link.negatives.reject_known_edges,
               "redraw a training negative that is an edge of its source")
      ->group(link);
  cmd.add_option("--evaluation-negatives", o.link_split.evaluation_negatives,
                 "fixed negatives per validation and test edge (AUC, MRR, Hits@K)")
      ->check(positive())
      ->group(link)
      ->capture_default_str();
  cmd.add_option("--decoder", o.link.decoder, "dot (product of the embeddings) or mlp")
      ->check(CLI::IsMember({"dot", "mlp"}))
      ->group(link)
      ->capture_default_str();
  cmd.add_flag_callback(
         "--keep-reverse-edges", [&o] { o.link.exclude_reverse = false; },
         "mask only (u, v) of a seed edge, not (v, u) too, on undirected graphs")
      ->group(link);
}

// Explanation-guided sampling (DGS).
void add_guidance_options(CLI::App& cmd, TrainCommandOptions& o) {
  auto* dgs = "Explanation-guided sampling (DGS: --sampler dgs with --feature-replication c)";
  cmd.add_option("--explain-every", o.train.guidance.every,
                 "explain each process's rows against their remote neighbours every T steps (GNNExplainer on a "
                 "snapshot of the model, on its own thread); the masks steer the next bulks: remote neighbours "
                 "drawn by importance, remote feature rows fetched with their top dimensions (0: never; "
                 "--locality-blocks then defaults to p/c)")
      ->check(non_negative())
      ->group(dgs)
      ->capture_default_str();
  cmd.add_option("--remote-feature-fraction", o.train.guidance.remote_feature_fraction,
                 "share of the feature dimensions, by the explanations' feature mask, fetched for remote vertices "
                 "in training (the rest are 0; evaluation fetches whole rows)")
      ->check(in_range(1e-9, 1.0))
      ->group(dgs)
      ->capture_default_str();
  cmd.add_option("--importance-floor", o.train.guidance.importance_floor,
                 "least importance a remote neighbour is drawn with (its kept entries are weighted by 1 / their "
                 "chance, so every layer stays unbiased; a lower floor saves more and varies more)")
      ->check(in_range(1e-9, 1.0))
      ->group(dgs)
      ->capture_default_str();
  cmd.add_option("--explainer-steps", o.train.guidance.explainer_steps,
                 "GNNExplainer's optimizer steps per explanation")
      ->check(positive())
      ->group(dgs)
      ->capture_default_str();
}

// R-GCN on heterogeneous graphs.
void add_heterogeneous_options(CLI::App& cmd, TrainCommandOptions& o) {
  add_hetero_options(cmd, o.hetero);
  cmd.add_option("--relation-weights", o.relation_weights,
                 "heterogeneous graphs: per-relation (R-GCN) or shared (one weight for every relation and one root "
                 "for every type: a model that ignores the types)")
      ->check(CLI::IsMember({"per-relation", "shared"}))
      ->group("Heterogeneous graphs (OGB heterogeneous folders, their .msg, mag:PAPERS)")
      ->capture_default_str();
  cmd.add_option("--num-bases", o.num_bases,
                 "heterogeneous graphs: each layer's relation weights as combinations of this many shared bases "
                 "(R-GCN's basis decomposition; at most the number of relations, reverses included; 0: a full "
                 "weight per relation)")
      ->check(non_negative())
      ->group("Heterogeneous graphs (OGB heterogeneous folders, mag:PAPERS)")
      ->capture_default_str();
}

void add_train_options(CLI::App& cmd, TrainCommandOptions& o) {
  add_model_options(cmd, o);
  add_data_options(cmd, o);
  add_run_options(cmd, o);
  add_link_options(cmd, o);
  add_guidance_options(cmd, o);
  add_heterogeneous_options(cmd, o);
  add_temporal_options(cmd, o.temporal);
  cmd.add_option("--time-split", o.time_split,
                 "with --temporal: T1,T2 splits the labelled vertices (with --task link, the edges by --edge-times) "
                 "by time, training before T1, validating from T1 to before T2, testing from T2 on (default: the "
                 "split of --split; --task link needs it)")
      ->delimiter(',')
      ->expected(2);
}

// The graph cleaned as node classification wants it, except that a dataset's
// own split keeps all its vertices (no cut to the largest component).
Graph load_training_graph(const TrainCommandOptions& o) {
  GraphSource source = o.source;
  source.cleanup.largest_component = false;
  source.msg_features = !o.map_features;
  Graph g = load_graph(source);
  // No model reads edge features (--edge-times reads its column); without them,
  // replacing g.adj (a link split) leaves nothing misaligned.
  if (o.temporal.edge_times < 0) {
    g.edge_features = {};
    g.edge_feature_dim = 0;
  }
  if (o.source.cleanup.largest_component && !uses_given_split(o.data.split_choice, g)) {
    g = cleanup(std::move(g), {false, false, true});
    std::fprintf(stderr, "matsamp: largest component: %lld vertices\n", static_cast<long long>(g.num_vertices()));
  }
  return g;
}

void print_resumed(const std::string& path, int64_t epoch) {
  std::fprintf(stderr, "matsamp: resumed from %s at epoch %lld\n", path.c_str(), static_cast<long long>(epoch));
}

// Link prediction: a random edge split (the same on every rank), the sampler
// over the training edges' graph.
void train_links(TrainCommandOptions& o, Communicator& comm) {
  const bool leader = comm.rank() == 0;
  // Embeddings scored by dot products train poorly under L2 (Cora: test AUC 0.75 at 5e-4, 0.91 at 0).
  if (o.weight_decay_option->count() == 0) o.train.weight_decay = 0;
  o.link_split.seed = o.data.split.seed;
  o.link.train = o.train;
  // An OGB link dataset's own split (its graph is then the training graph, ids as given).
  const std::string given = ogb_pickled_split(o.source.spec);
  const SplitChoice choice = o.data.split_choice;
  const bool by_time = o.temporal.requested();
  if (by_time) check_link_times(o.temporal, o.time_split);
  else MATSAMP_CHECK(o.time_split.empty(), "--time-split needs --temporal");
  MATSAMP_CHECK(!by_time || choice != SplitChoice::given,
                "--task link --temporal splits the edges by time (--time-split), not by --split given");
  MATSAMP_CHECK(choice != SplitChoice::given || !given.empty(), "--split given: ", o.source.spec,
                " ships no link split (an OGB folder's split/<scheme>/train.pt)");
  const bool use_given = !given.empty() && choice != SplitChoice::random && !by_time;
  if (use_given) o.source.cleanup.largest_component = false;
  Graph g = load_training_graph(o);
  if (o.data.normalize_features) normalize_feature_rows(g);
  const EdgeSplit split = by_time     ? split_edges_by_time(g.adj, edge_times_from_feature(g, o.temporal.edge_times),
                                                            o.time_split[0], o.time_split[1], o.link_split)
                          : use_given ? read_ogb_link_split(given, g.adj)
                                      : split_edges(g.adj, o.link_split);
  g.adj = split.train_graph;
  g.edge_features = {};  // of the whole graph's entries: --edge-times read them
  g.edge_feature_dim = 0;
  if (leader && use_given)
    std::fprintf(stderr, "matsamp: the dataset's own split (%s, valid.pt, test.pt)\n", given.c_str());
  if (leader)
    std::fprintf(stderr,
                 "matsamp: link prediction on %lld vertices (%s): %lld train, %lld validation, %lld test edges\n",
                 static_cast<long long>(g.num_vertices()), split.undirected ? "undirected" : "directed",
                 static_cast<long long>(split.train.size()), static_cast<long long>(split.validation.size()),
                 static_cast<long long>(split.test.size()));
  auto backend = make_backend(o.sampler, g.adj);  // may set the memory budget (cuda)
  LocalGraph graph(*backend, g.adj);
  std::unique_ptr<Sampler> sampler = make_sampler(o.sampler, graph);
  o.link.train.epoch = o.sampler.epoch;  // with the memory budget the backend set
  if (by_time)
    o.link.times =
        make_link_times(o.temporal, g, split.train_graph, split.train_graph_times, *backend, o.sampler.epoch.seed);
  LinkTrainer trainer(g, split, *sampler, *backend, comm, o.link);
  if (!o.resume.empty()) {
    trainer.load_checkpoint(o.resume);
    if (leader) print_resumed(o.resume, trainer.next_epoch());
  }
  const LinkSummary summary = trainer.run(stdout, stderr, o.checkpoint);
  if (leader)
    std::fprintf(stderr, "matsamp: best validation AUC %.4f at epoch %lld; test %s\n", summary.validation.auc,
                 static_cast<long long>(summary.best_epoch), score_line(summary.test).c_str());
}

// Resumes when asked, trains, and has the leader say how it ended.
void run_node_trainer(Trainer& trainer, const TrainCommandOptions& o, bool leader) {
  if (!o.resume.empty()) {
    trainer.load_checkpoint(o.resume);
    if (leader) print_resumed(o.resume, trainer.next_epoch());
  }
  const TrainSummary summary = trainer.run(stdout, stderr, o.checkpoint);
  if (leader)
    std::fprintf(stderr, "matsamp: best validation accuracy %.4f at epoch %lld, test accuracy %.4f\n",
                 summary.best_validation_accuracy, static_cast<long long>(summary.best_epoch), summary.test_accuracy);
}

void train_nodes(TrainCommandOptions& o, Communicator& comm) {
  const bool leader = comm.rank() == 0;
  std::shared_ptr<const MappedFeatures> mapped;
  if (o.map_features) {
    const std::string& path = o.source.spec;
    MATSAMP_CHECK(msg::peek_version(path) == msg::kGraphVersion, "--map-features maps the features of a .msg file; ",
                  path, " is not one (convert it first: matsamp convert -g ", path, " -o graph.msg)");
    MATSAMP_CHECK(!o.data.normalize_features,
                  "--map-features uses the features as stored: add --raw-features (dividing each "
                  "row by its sum would copy them)");
    MATSAMP_CHECK(o.train.feature_replication == 0,
                  "--map-features keeps every feature row in each process: it "
                  "takes --feature-replication 0");
    mapped = std::make_shared<MappedFeatures>(path);
  }
  TrainingData data = prepare_training_data(load_training_graph(o), o.data, mapped);
  auto backend = make_backend(o.sampler, data.graph.adj);  // may set the memory budget (cuda)
  LocalGraph graph(*backend, data.graph.adj);
  std::unique_ptr<Sampler> sampler = make_sampler(o.sampler, graph);
  o.sampler.epoch.times = make_epoch_times(o.temporal, data.graph, *backend, o.sampler.epoch.seed);
  MATSAMP_CHECK(o.time_split.empty() || o.sampler.epoch.times, "--time-split needs --temporal");
  if (!o.time_split.empty())
    set_split(data,
              split_by_time(data.graph.labels, o.sampler.epoch.times->vertex_times, o.time_split[0], o.time_split[1]));
  if (o.sampler.epoch.times && o.evaluation_option->count() == 0) o.train.evaluation = EvaluationMode::sampled;
  o.train.epoch = o.sampler.epoch;  // with the memory budget the backend set
  if (leader)
    std::fprintf(stderr, "matsamp: training %s on %lld vertices: %zu train, %zu validation, %zu test, %lld classes\n",
                 o.train.model.c_str(), static_cast<long long>(data.graph.num_vertices()), data.split.train.size(),
                 data.split.validation.size(), data.split.test.size(), static_cast<long long>(data.num_classes));

  Trainer trainer(data, *sampler, *backend, comm, o.train);
  run_node_trainer(trainer, o, leader);
}

// Node classification on a graph no rank holds whole: each rank reads its block
// row of A, its block of feature rows and the split's labels from a .msg file,
// samples through the distributed product and fetches feature rows from their owners.
void train_partitioned(TrainCommandOptions& o, Communicator& comm) {
#ifdef MATSAMP_HAVE_DISTRIBUTED
  const bool leader = comm.rank() == 0;
  MATSAMP_CHECK(o.task == "node", "--distributed partitioned trains node classification (--task node)");
  const std::string& path = o.source.spec;
  MATSAMP_CHECK(path.size() > 4 && path.compare(path.size() - 4, 4, ".msg") == 0,
                "--distributed partitioned reads its blocks from a .msg file, not ", path,
                " (convert it first: matsamp convert -g ", path, " --symmetrize -o graph.msg)");
  MATSAMP_CHECK(o.train.feature_replication == 0 || o.train.feature_replication == o.replication,
                "--feature-replication ", o.train.feature_replication,
                " differs from --replication: a partitioned graph lays its features out like its rows");
  if (o.evaluation_option->count() == 0) o.train.evaluation = EvaluationMode::sampled;
  MATSAMP_CHECK(o.train.evaluation == EvaluationMode::sampled,
                "--distributed partitioned evaluates sampled minibatches (--evaluation sampled): no rank holds the "
                "whole neighbourhood matrix that full evaluation multiplies by");
  o.train.feature_replication = o.replication;
  if (leader)
    std::fprintf(stderr,
                 "matsamp: --distributed partitioned uses %s as stored (no --symmetrize, self-loop or "
                 "largest-component cleanup; convert with them first)\n",
                 path.c_str());
  // Sampling is collective: through a communicator of its own it runs on the
  // prefetching worker, ahead of the steps; otherwise between them.
  const std::unique_ptr<Communicator> sampling_comm = comm.concurrent_duplicate();
  ProcessGrid grid(sampling_comm ? *sampling_comm : comm, o.replication);
  TrainingData data;
  agree_on(comm, [&] {
    data = read_partitioned_training_data(path, RowBlocks{read_binary_csr_info(path).vertices, grid.process_rows()},
                                          grid.row(), o.data);
  });
  const GraphProduct::RowWork work = parse_row_work(o.row_work);
  o.train.split_row_sampling = every_rank_samples(GraphMode::partitioned, work);
  DistributedCsr block_row = read_block_row(path, grid);
  std::unique_ptr<Backend> local;  // --device: where each rank's local ops run
  agree_on(comm, [&] { local = make_backend(o.sampler, block_row.local); });
  PartitionedSampling graph(grid, std::move(block_row), GraphProduct::Exchange::sparsity_aware, std::move(local), work);
  std::unique_ptr<Sampler> sampler = make_sampler(o.sampler, graph);
  o.train.epoch = o.sampler.epoch;
  if (leader)
    std::fprintf(stderr,
                 "matsamp: training %s on %lld vertices partitioned over %d x %d processes: %zu train, %zu "
                 "validation, %zu test, %lld classes\n",
                 o.train.model.c_str(), static_cast<long long>(data.vertices), grid.process_rows(), o.replication,
                 data.split.train.size(), data.split.validation.size(), data.split.test.size(),
                 static_cast<long long>(data.num_classes));
  data.block_rows = &graph.adjacency_block().local;  // what explanation-guided sampling explains
  Trainer trainer(data, *sampler, graph.backend(), comm, o.train);
  run_node_trainer(trainer, o, leader);
#else
  (void)o;
  (void)comm;
  fail("--distributed: this matsamp was built without MPI (configure with -DMATSAMP_WITH_MPI=ON)");
#endif
}

// R-GCN on a heterogeneous graph, data-parallel (every rank holds the graph).
void train_hetero(TrainCommandOptions& o, Communicator& comm) {
  const bool leader = comm.rank() == 0;
  MATSAMP_CHECK(o.task == "node", "--task link is for homogeneous graphs");
  MATSAMP_CHECK(o.train.feature_replication == 0 && o.train.guidance.every == 0,
                "training on a heterogeneous graph reads its features whole (no --feature-replication or "
                "--explain-every)");
  MATSAMP_CHECK(o.train.model == "rgcn", "heterogeneous graphs train R-GCN (--model rgcn), not ", o.train.model);
  HeteroSetup setup = prepare_hetero(o.source, o.sampler, o.hetero);
  HeteroTrainOptions options;
  options.times = make_hetero_epoch_times(o.temporal, setup.graph, *setup.backend, o.sampler.epoch.seed);
  MATSAMP_CHECK(o.time_split.empty() || options.times, "--time-split needs --temporal");
  VertexType& type = setup.graph.types[setup.seed_type];
  if (!o.time_split.empty()) {
    const std::vector<int64_t>& times = options.times->vertex_times[setup.seed_type];
    MATSAMP_CHECK(!times.empty(), "--time-split: vertex type ", type.name, " has no times to split by");
    const DataSplit split = split_by_time(type.labels, times, o.time_split[0], o.time_split[1]);
    type.splits = {{"train", split.train}, {"valid", split.validation}, {"test", split.test}};
  }
  const std::unique_ptr<HeteroSampler> sampler = make_hetero_sampler(*setup.backend, setup);
  options.train = o.train;
  options.train.epoch = o.sampler.epoch;
  options.shared_relation_weight = o.relation_weights == "shared";
  options.num_bases = o.num_bases;
  const std::string weights = o.num_bases > 0 ? std::to_string(o.num_bases) + " bases for the relation"
                                              : o.relation_weights;
  if (leader)
    std::fprintf(stderr, "matsamp: training R-GCN (%s weights) on %s vertices: %zu train, %zu validation, %zu test\n",
                 weights.c_str(), type.name.c_str(), type.splits.count("train") ? type.splits.at("train").size() : 0,
                 type.splits.count("valid") ? type.splits.at("valid").size() : 0,
                 type.splits.count("test") ? type.splits.at("test").size() : 0);
  RgcnTrainer trainer(setup.graph, setup.seed_type, *sampler, *setup.backend, comm, options);
  if (!o.resume.empty()) {
    trainer.load_checkpoint(o.resume);
    if (leader) print_resumed(o.resume, trainer.next_epoch());
  }
  const HeteroSummary summary = trainer.run(stdout, stderr, o.checkpoint);
  if (leader)
    std::fprintf(stderr, "matsamp: best validation accuracy %.4f at epoch %lld, test accuracy %.4f\n",
                 summary.best_validation_accuracy, static_cast<long long>(summary.best_epoch), summary.test_accuracy);
}

void train_on(TrainCommandOptions& o, Communicator& comm, int rank_on_node);

void run_training(TrainCommandOptions& o) {
  if (o.train.model.empty())
    o.train.model = is_hetero_source(o.source.spec) ? "rgcn"
                    : o.task == "node" && find_sampler(o.sampler.sampler).family == SamplerFamily::layer_wise
                        ? "gcn"  // the importance-weighted layers are GCN's
                        : "sage";
  if (!o.distributed.empty()) require_launcher();
  MATSAMP_CHECK(!o.transport.given() || !o.distributed.empty() || launched_ranks() > 1,
                "--transport and --collective-timeout apply to --distributed runs");
#ifdef MATSAMP_HAVE_DISTRIBUTED
  // Under mpirun or srun every rank trains on its share of each step; alone, one rank.
  run_mpi_job(
      [&o](Communicator& world) {
        agree_on_arguments(world, command_line());  // ranks of different commands would wait for each other forever
        train_on(o, world, local_rank());
      },
      job_transport(o.transport, o.sampler));
#else
  MATSAMP_CHECK(o.transport.name == "mpi", "--transport ", o.transport.name,
                ": this matsamp was built without MPI (configure with -DMATSAMP_WITH_MPI=ON)");
  train_on(o, *make_self_communicator(), 0);
#endif
}

void train_on(TrainCommandOptions& o, Communicator& comm, int rank_on_node) {
  const bool heterogeneous = is_hetero_source(o.source.spec);
  // --device: where sampling and propagation run; each rank on the GPU of its local rank.
  o.train.device = pick_rank_gpu(o.sampler, rank_on_node);
  // Before the graph is read: a checkpoint that cannot be written is a mistake in the command.
  if (comm.rank() == 0 && !o.checkpoint.empty()) check_can_write(o.checkpoint);
  MATSAMP_CHECK(!o.map_features || (!heterogeneous && o.task == "node" && o.distributed != "partitioned"),
                "--map-features applies to node classification (--task node) on a graph of one vertex type, "
                "not --distributed partitioned");
  MATSAMP_CHECK(!o.temporal.requested() || o.distributed != "partitioned",
                "--temporal trains on a graph each process holds whole: one process or --distributed replicated");
  if (heterogeneous) return train_hetero(o, comm);
  MATSAMP_CHECK(o.train.model != "rgcn",
                "--model rgcn trains heterogeneous graphs (an OGB heterogeneous folder, a "
                "heterogeneous .msg or mag:PAPERS); ",
                o.source.spec, " has one vertex type");
  if (o.distributed == "partitioned") return train_partitioned(o, comm);
  MATSAMP_CHECK(o.replication == 1, "--replication applies to --distributed partitioned");
  MATSAMP_CHECK(o.row_work == "shared", "--row-work applies to --distributed partitioned");
  if (o.task == "link") return train_links(o, comm);
  train_nodes(o, comm);
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "train", "train GraphSAGE or GCN on sampled minibatches; one JSON line of metrics per epoch on stdout");
  auto o = std::make_shared<TrainCommandOptions>();
  // Node classification follows Shchur et al.: the symmetrized largest component.
  o->source.cleanup = {true, true, true};
  o->source.spec = "planted:2000:5";  // runs out of the box; R-MAT has no features or labels
  o->sampler.list("fanouts") = {10, 10};
  o->sampler.list("samples") = {256, 256};
  o->sampler.flags.at("saint_norm") = true;  // GraphSAINT trains unbiased (--no-saint-norm: rows normalized)
  o->sampler.epoch.batch_size = 32;
  o->train.model.clear();  // chosen from the sampler unless given
  add_graph_options(*cmd, o->source);
  add_sampler_options(*cmd, o->sampler);
  // Training picks its own vertices and epochs.
  cmd->remove_option(cmd->get_option("--train-fraction"));
  cmd->remove_option(cmd->get_option("--epoch"));
  // A step's bulk is what it samples together: --bulk-size counts steps.
  cmd->remove_option(cmd->get_option("--bulk-steps"));
  cmd->remove_option(cmd->get_option("--bulk-size"));
  cmd->add_option("-k,--bulk-size", o->sampler.epoch.bulk_steps,
                  "steps sampled together: each process samples its minibatches of that many steps at once (0: "
                  "the most that fit --memory-budget)")
      ->check(non_negative())
      ->capture_default_str();
  add_train_options(*cmd, *o);
  cmd->callback([o] { run_training(*o); });
}

}  // namespace matsamp::cli
