#!/usr/bin/env python3
"""GraphSAGE sampling with plain torch ops, one minibatch at a time, against matsamp.

The simple alternative a PyTorch user would write: per minibatch and layer, gather
each frontier vertex's row extent, draw `fanout` neighbour positions with
torch.rand (all neighbours when the degree is at most the fanout, as matsamp),
and relabel the columns with a dense vertex -> local id table (frontier first,
new vertices in ascending id, as matsamp). It draws with replacement, which is
cheaper than matsamp's draws without replacement, so the comparison favours it.

In the same process, on the same graph, device, seeds and minibatches, it times:
  torch_per_batch   the plain torch sampler above, one minibatch per step
  matsamp_bulk      torch.ops.matsamp.sample ("graphsage") on all minibatches at once
  matsamp_per_batch the same op on one minibatch per call (k = 1)
and prints one JSON object (times, sampled edges, edges/s, speedups); progress
goes to stderr. Times are the median of --repeat runs, after one warm-up run.

    PYTHONPATH=build/python /usr/bin/python3 experiments/torch_baseline.py \\
        --graph rmat20.msg --fanouts 15,10,5 --batch-size 1024 --train-fraction 0.1
"""
import argparse
import json
import statistics
import sys
import time

import torch

import matsamp


def sample_layer_torch(rowptr, col, frontier, fanout, table, generator):
    """One GraphSAGE layer of one minibatch with plain torch ops.

    Returns (rows, cols, values, vertices): the sampled adjacency in COO with mean
    weights, and the layer's vertices (frontier first, then new ones ascending).
    `table` is an n-sized int64 tensor of -1, restored before returning.
    """
    start = rowptr[frontier]
    degree = rowptr[frontier + 1] - start
    slots = torch.arange(fanout, device=frontier.device)
    draws = torch.rand(frontier.numel(), fanout, device=frontier.device, generator=generator)
    take_all = (degree <= fanout)[:, None]
    offsets = torch.where(take_all, slots[None, :], (draws * degree[:, None]).long())
    keep = ~take_all | (slots[None, :] < degree[:, None])
    rows = keep.nonzero()[:, 0]
    neighbours = col[(start[:, None] + offsets)[keep]].long()
    table[frontier] = torch.arange(frontier.numel(), device=frontier.device)
    new = torch.unique(neighbours[table[neighbours] < 0])
    table[new] = torch.arange(frontier.numel(), frontier.numel() + new.numel(), device=frontier.device)
    cols = table[neighbours]
    vertices = torch.cat([frontier, new])
    table[vertices] = -1
    values = 1.0 / torch.minimum(degree, torch.tensor(fanout, device=degree.device)).float()[rows]
    return rows, cols, values, vertices


def epoch_torch(rowptr, col, batches, fanouts, num_nodes, seed):
    """Samples every minibatch in turn; returns the number of sampled edges."""
    generator = torch.Generator(device=rowptr.device)
    generator.manual_seed(seed)
    table = torch.full((num_nodes,), -1, dtype=torch.int64, device=rowptr.device)
    edges = 0
    for seeds in batches:
        frontier = seeds
        for fanout in fanouts:
            rows, _, _, frontier = sample_layer_torch(rowptr, col, frontier, fanout, table, generator)
            edges += rows.numel()
    return edges


def epoch_matsamp(graph, seeds, ends, fanouts, bulk_size, seed):
    """Samples the epoch with the matsamp op, bulk_size minibatches per call."""
    edges = 0
    for first in range(0, len(ends), bulk_size):
        last = min(len(ends), first + bulk_size)
        begin = ends[first - 1] if first else 0
        offsets = torch.tensor([0] + [e - begin for e in ends[first:last]], dtype=torch.int64)
        layers = matsamp.ops.sample_bulk(graph, "graphsage", seeds[begin:ends[last - 1]], offsets, fanouts,
                                         first_minibatch=first, seed=seed)
        edges += sum(layer.col.numel() for layer in layers)
    return edges


def timed(run, device, repeat, label):
    """Median wall time of `repeat` runs after a warm-up, and the run's result."""
    def once():
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        result = run()
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        return time.perf_counter() - t0, result

    once()
    times, results = [], set()
    for i in range(repeat):
        seconds, result = once()
        times.append(seconds)
        results.add(result)
        print(f"{label}: run {i + 1}/{repeat} {seconds:.3f} s", file=sys.stderr)
    return statistics.median(times), times, results


def integer_at_least(lowest):
    def parse(text):
        value = int(text)
        if value < lowest:
            raise argparse.ArgumentTypeError(f"must be at least {lowest}, got {value}")
        return value
    return parse


positive = integer_at_least(1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", required=True, help="graph file (.msg, .npz, .mtx or edge list)")
    parser.add_argument("--symmetrize", action="store_true", help="add each edge's reverse on load")
    parser.add_argument("--device", default="cpu", help="cpu, cuda or cuda:N (default cpu)")
    parser.add_argument("--fanouts", default="15,10,5", help="neighbours per layer, batch layer first")
    parser.add_argument("-b", "--batch-size", type=positive, default=1024)
    parser.add_argument("--train-fraction", type=float, default=0.1,
                        help="the seeded fraction of vertices an epoch covers (default 0.1)")
    parser.add_argument("-k", "--bulk-size", type=integer_at_least(0), default=0,
                        help="minibatches per matsamp call in bulk mode (0: all of them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=positive, default=3)
    parser.add_argument("--threads", type=integer_at_least(0), default=0, help="torch and OpenMP threads (0: torch's default)")
    parser.add_argument("--keep-freed-memory", action="store_true",
                        help="matsamp.keep_freed_memory_for_reuse() first (for all three runs), as the CLI does")
    args = parser.parse_args()
    try:
        fanouts = [int(f) for f in args.fanouts.split(",")]
    except ValueError:
        parser.error(f"--fanouts: expected comma-separated integers, got {args.fanouts!r}")
    if not fanouts or min(fanouts) <= 0:
        parser.error(f"--fanouts: every fanout must be positive, got {args.fanouts!r}")
    if not 0 < args.train_fraction <= 1:
        parser.error(f"--train-fraction must be in (0, 1], got {args.train_fraction}")
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    kept_freed_memory = args.keep_freed_memory and matsamp.keep_freed_memory_for_reuse()

    print(f"loading {args.graph}", file=sys.stderr)
    graph = matsamp.Graph.load(args.graph, symmetrize=args.symmetrize, device=args.device)
    device = graph.device
    rowptr, col, _ = (t.to(device) for t in graph.csr())
    rowptr = rowptr.long()
    n = graph.num_nodes
    order = matsamp.ops.shuffle_nodes(torch.arange(n, dtype=torch.int64), args.seed, 0)
    seeds = order[:max(1, int(args.train_fraction * n))].to(device)
    b = args.batch_size
    ends = [min(seeds.numel(), start + b) for start in range(0, seeds.numel(), b)]
    batches = [seeds[start:start + b] for start in range(0, seeds.numel(), b)]
    bulk = len(ends) if args.bulk_size <= 0 else args.bulk_size

    runs = {
        "torch_per_batch": lambda: epoch_torch(rowptr, col, batches, fanouts, n, args.seed),
        "matsamp_bulk": lambda: epoch_matsamp(graph, seeds, ends, fanouts, bulk, args.seed),
        "matsamp_per_batch": lambda: epoch_matsamp(graph, seeds, ends, fanouts, 1, args.seed),
    }
    report = {"graph": args.graph, "vertices": n, "nonzeros": graph.num_edges, "device": str(device),
              "torch": torch.__version__, "threads": torch.get_num_threads(), "fanouts": fanouts,
              "batch_size": b, "minibatches": len(ends), "bulk_size": bulk, "repeat": args.repeat,
              "kept_freed_memory": kept_freed_memory}
    for name, run in runs.items():
        median, times, results = timed(run, device, args.repeat, name)
        edges = max(results)
        report[name] = {"time_s": median, "times_s": times, "sampled_edges": edges,
                        "same_edges_every_run": len(results) == 1,
                        "sampled_edges_per_s": edges / median, "minibatches_per_s": len(ends) / median}
    report["matsamp_bulk_speedup_over_torch"] = report["torch_per_batch"]["time_s"] / report["matsamp_bulk"]["time_s"]
    report["matsamp_bulk_speedup_over_per_batch"] = (report["matsamp_per_batch"]["time_s"]
                                                     / report["matsamp_bulk"]["time_s"])
    print(json.dumps(report))


if __name__ == "__main__":
    try:
        main()
    except (RuntimeError, ValueError, TypeError) as e:
        sys.exit(f"torch_baseline: {e}")
