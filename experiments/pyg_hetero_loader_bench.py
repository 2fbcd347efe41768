"""matsamp.pyg.NeighborLoader beside PyG's own NeighborLoader (pyg-lib) on a HeteroData,
in one process.

A generated academic graph (papers citing papers, authors writing papers, papers with
topics, every edge type with its reverse as T.ToUndirected adds them; 64 features per
node type, labels on papers), seeds the training papers (--train-fraction), the same
num_neighbors for every edge type; with --temporal uniform|last, both loaders sample by
time (papers and authors with random times in [0, 1000), topics without: PyG's
time_attr, every seed a tree as of its paper's time). For each thread count,
interleaved over --repeat rounds: the time to build each loader and to run one shuffled epoch, and the nodes and
edges the epoch's batches hold. Prints JSON (and writes it with --out).

    source /tmp/pygenv/env.sh      # PyG + pyg-lib: ../shared/tools/setup_pyg.sh /tmp/pygenv
    PYTHONPATH=build/python:$PYTHONPATH /usr/bin/python3 experiments/pyg_hetero_loader_bench.py \\
        --papers 200000 --threads 1,2 --out results/pyg_hetero_loader.json
"""
import argparse
import datetime
import json
import os
import statistics
import sys
import time

import torch

import matsamp
import matsamp.pyg


def academic(papers, seed):
    """A HeteroData of `papers` papers, papers / 2 authors and 500 topics: about 10
    citations and 3 authors per paper, one or two topics each, reverses added."""
    from torch_geometric.data import HeteroData
    g = torch.Generator().manual_seed(seed)
    authors, topics = papers // 2, 500
    data = HeteroData()
    for name, count in (("paper", papers), ("author", authors), ("topic", topics)):
        data[name].x = torch.randn(count, 64, generator=g)
    data["paper"].y = torch.randint(0, 16, (papers,), generator=g)

    def edges(sources, targets, per_target):
        dst = torch.arange(targets).repeat_interleave(per_target)
        # Preferential sources: a power of a uniform number skews them towards low ids.
        src = (torch.rand(dst.numel(), generator=g) ** 2 * sources).long()
        return torch.stack([src, dst])

    data["paper", "cites", "paper"].edge_index = edges(papers, papers, 10)
    data["author", "writes", "paper"].edge_index = edges(authors, papers, 3)
    data["topic", "about", "paper"].edge_index = edges(topics, papers, 2)
    for (src, rel, dst) in list(data.edge_types):
        data[dst, f"rev_{rel}", src].edge_index = data[src, rel, dst].edge_index.flip(0)
    return data


def run(make, data, seeds, args):
    """(build seconds, epoch seconds, batches, nodes, edges) of a fresh loader."""
    start = time.perf_counter()
    timed = {} if args.temporal is None else {"time_attr": "time", "temporal_strategy": args.temporal}
    loader = make(data, num_neighbors=args.fanouts, input_nodes=("paper", seeds), batch_size=args.batch_size,
                  shuffle=True, **timed)
    built = time.perf_counter()
    batches = nodes = edges = 0
    for batch in loader:
        batches += 1
        nodes += sum(batch[t].num_nodes for t in batch.node_types)
        edges += sum(batch[e].edge_index.size(1) for e in batch.edge_types)
    return built - start, time.perf_counter() - built, batches, nodes, edges


def summarize(runs):
    """Per thread count: each system's medians and PyG's build + epoch over matsamp's."""
    summary = {}
    for threads in sorted({r["threads"] for r in runs}):
        of = {s: [r for r in runs if r["threads"] == threads and r["system"] == s] for s in ("pyg", "matsamp")}
        row = {f"{s}_{k}": statistics.median(r[k] for r in of[s])
               for s in of for k in ("build_s", "epoch_s", "nodes", "edges")}
        row["pyg_over_matsamp_build_plus_epoch"] = ((row["pyg_build_s"] + row["pyg_epoch_s"]) /
                                                    (row["matsamp_build_s"] + row["matsamp_epoch_s"]))
        summary[str(threads)] = row
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=200_000)
    parser.add_argument("--fanouts", type=lambda s: [int(f) for f in s.split(",")], default=[15, 10])
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--train-fraction", type=float, default=0.4)
    parser.add_argument("--threads", default="1,2", help="torch (and OpenMP) thread counts, comma separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--temporal", choices=("uniform", "last"), help="sample by time with this strategy")
    parser.add_argument("--out", help="write the JSON here too")
    args = parser.parse_args()
    from torch_geometric.loader import NeighborLoader as PygLoader
    data = academic(args.papers, args.seed)
    if args.temporal is not None:
        g = torch.Generator().manual_seed(args.seed + 1)
        for t in ("paper", "author"):
            data[t].time = torch.randint(0, 1000, (data[t].num_nodes,), generator=g)
    perm = torch.randperm(args.papers, generator=torch.Generator().manual_seed(args.seed))
    seeds = perm[:int(args.train_fraction * args.papers)].sort().values
    runs = []
    for rep in range(args.repeat):
        for threads in (int(t) for t in args.threads.split(",")):
            torch.set_num_threads(threads)
            for system, make in (("pyg", PygLoader), ("matsamp", matsamp.pyg.NeighborLoader)):
                build, epoch, batches, nodes, edges = run(make, data, seeds, args)
                runs.append(dict(system=system, threads=threads, round=rep, build_s=build, epoch_s=epoch,
                                 batches=batches, nodes=nodes, edges=edges))
                print(f"{threads}t round {rep}: {system} build {build:.3f} s, epoch {epoch:.3f} s, "
                      f"{nodes} nodes, {edges} edges", file=sys.stderr)
    summary = summarize(runs)
    report = dict(date=datetime.date.today().isoformat(), cpus=os.cpu_count(), torch=torch.__version__,
                  options=dict(papers=args.papers, fanouts=args.fanouts, batch_size=args.batch_size,
                               train_fraction=args.train_fraction, repeat=args.repeat, temporal=args.temporal),
                  node_types={t: data[t].num_nodes for t in data.node_types},
                  edge_types={"/".join(e): data[e].edge_index.size(1) for e in data.edge_types},
                  runs=runs, summary=summary)
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
