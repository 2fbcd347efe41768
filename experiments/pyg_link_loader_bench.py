"""matsamp.pyg.LinkNeighborLoader beside PyG's own LinkNeighborLoader (pyg-lib), in one process.

The graph and Data as experiments/pyg_loader_bench.py makes them; seed edges a
random --seed-edges of the graph's edges, triplet negatives (one destination per
positive; PyG's binary mode draws a new source too, so the two loaders would not do
the same work). With
--temporal, both loaders sample by time as PyG's temporal link prediction does:
node times uniform in [0, 1000), each seed edge at a time no earlier than its ends'
(edge_label_time), time_attr="time" (every seed node a tree of its own, nothing
later than its edge). For each thread count, interleaved over --repeat rounds: the
time to build each loader and to run one shuffled epoch, and the nodes and edges
the batches hold. Prints JSON (and writes it with --out).

    source /tmp/pygenv/env.sh      # PyG + pyg-lib: ../shared/tools/setup_pyg.sh /tmp/pygenv
    PYTHONPATH=build/python:$PYTHONPATH /usr/bin/python3 experiments/pyg_link_loader_bench.py \\
        --graph rmat:16 --temporal --threads 1,2 --out results/pyg_link_loader.json
"""
import argparse
import datetime
import os
import sys
import tempfile
import time

import torch

import matsamp
import matsamp.pyg
from pyg_hetero_loader_bench import summarize
from pyg_loader_bench import cpu_model, load_graph, make_data, write_report


def loader_options(data, args):
    """Both loaders' arguments: the seed edges, triplet negatives, and with --temporal their times."""
    g = torch.Generator().manual_seed(4)
    pick = torch.randperm(data.edge_index.size(1), generator=g)[:args.seed_edges]
    seeds = data.edge_index[:, pick]
    options = dict(num_neighbors=args.fanouts, edge_label_index=seeds, batch_size=args.batch_size, shuffle=True,
                   neg_sampling="triplet")
    if args.temporal:
        appears = torch.maximum(data.time[seeds[0]], data.time[seeds[1]])
        options.update(time_attr="time", edge_label_time=appears + torch.randint(0, 100, appears.shape, generator=g))
    return options


def run(make, data, options):
    """(build seconds, epoch seconds, batches, nodes, edges) of a fresh loader's first epoch."""
    start = time.perf_counter()
    loader = make(data, **options)
    built = time.perf_counter()
    batches = nodes = edges = 0
    for batch in loader:
        batches += 1
        nodes += batch.num_nodes
        edges += batch.edge_index.size(1)
    return built - start, time.perf_counter() - built, batches, nodes, edges


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", default="rmat:16", help="rmat:SCALE, planted:N or cora")
    parser.add_argument("--fanouts", type=lambda s: [int(f) for f in s.split(",")], default=[10, 5])
    parser.add_argument("--batch-size", type=int, default=512, help="seed edges per batch")
    parser.add_argument("--seed-edges", type=int, default=50_000)
    parser.add_argument("--features", type=int, default=64)
    parser.add_argument("--temporal", action="store_true", help="sample by time (node times, edge_label_time)")
    parser.add_argument("--threads", default="1,2", help="torch (and OpenMP) thread counts, comma separated")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--out", help="write the JSON here too")
    args = parser.parse_args()
    from torch_geometric.loader import LinkNeighborLoader as PygLoader
    with tempfile.TemporaryDirectory() as workdir:
        name, _, graph = load_graph(args.graph, workdir)
    data = make_data(graph, args.features)
    data.time = torch.randint(0, 1000, (data.num_nodes,), generator=torch.Generator().manual_seed(3))
    options = loader_options(data, args)
    runs = []
    for rep in range(args.repeat):
        for threads in (int(t) for t in args.threads.split(",")):
            torch.set_num_threads(threads)
            for system, make in (("pyg", PygLoader), ("matsamp", matsamp.pyg.LinkNeighborLoader)):
                build, epoch, batches, nodes, edges = run(make, data, options)
                runs.append(dict(system=system, threads=threads, round=rep, build_s=build, epoch_s=epoch,
                                 batches=batches, nodes=nodes, edges=edges))
                print(f"{name} {threads}t round {rep}: {system} build {build:.3f} s, epoch {epoch:.3f} s, "
                      f"{nodes} nodes, {edges} edges", file=sys.stderr)
    summary = summarize(runs)
    report = dict(date=datetime.date.today().isoformat(), machine=cpu_model(), cpus=os.cpu_count(),
                  torch=torch.__version__, matsamp=matsamp.__file__, graph=name, vertices=graph.num_nodes,
                  edges=graph.num_edges, options=dict(fanouts=args.fanouts, batch_size=args.batch_size,
                                                      seed_edges=args.seed_edges, temporal=args.temporal,
                                                      repeat=args.repeat, negatives="triplet, one per positive"),
                  runs=runs, summary=summary)
    write_report(report, args.out, None)


if __name__ == "__main__":
    main()
