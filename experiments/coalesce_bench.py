"""Graph.from_edge_index's CSR build: the engine's counting sort (torch.ops.matsamp.graph_from_edge_index,
which also keeps each entry's edge id) against a torch.sort + unique_consecutive build, on the same random
edge list, int64 and int32 ids, interleaved; prints one JSON line.

    PYTHONPATH=build/python python3 experiments/coalesce_bench.py --vertices 262144 --edges 7600000
"""
import argparse
import json
import time

import torch

import matsamp  # noqa: F401  (registers torch.ops.matsamp)


def torch_sort_build(n, row, col, value):
    key, order = torch.sort(row * n + col, stable=True)
    key, inverse = torch.unique_consecutive(key, return_inverse=True)
    rowptr = torch.zeros(n + 1, dtype=torch.int64)
    rowptr[1:] = torch.cumsum(torch.bincount(torch.div(key, n, rounding_mode="floor"), minlength=n), 0)
    if value is not None:
        value = torch.zeros(key.numel(), dtype=torch.float64).index_add_(0, inverse, value[order].double()).float()
    return rowptr, key % n, value, order


def counting_sort_build(n, row, col, value):
    graph, edge_ids = torch.ops.matsamp.graph_from_edge_index(n, row, col, value)
    return graph.rowptr(), graph.col(), graph.value(), edge_ids


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=262144)
    parser.add_argument("--edges", type=int, default=7_600_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    g = torch.Generator().manual_seed(1)
    n = args.vertices
    row, col = (torch.randint(0, n, (args.edges,), generator=g) for _ in range(2))
    weight = torch.rand(args.edges, generator=g)
    builds = {"torch_sort": torch_sort_build, "counting_sort": counting_sort_build,
              "counting_sort_int32": lambda n, r, c, v: counting_sort_build(n, r.int(), c.int(), v)}
    times = {f"{name}_{kind}_s": [] for name in builds for kind in ("unweighted", "weighted")}
    for _ in range(args.repeat):
        for name, build in builds.items():
            for kind, value in (("unweighted", None), ("weighted", weight)):
                start = time.perf_counter()
                build(n, row, col, value)
                times[f"{name}_{kind}_s"].append(time.perf_counter() - start)
    rowptr, cols, values, order = torch_sort_build(n, row, col, weight)
    first = torch.ones_like(order, dtype=torch.bool)  # the first edge id of each merged entry
    keys = (row * n + col)[order]
    first[1:] = keys[1:] != keys[:-1]
    built = counting_sort_build(n, row, col, weight)
    identical = all(torch.equal(x.to(y.dtype), y) for x, y in zip((rowptr, cols, values, order[first]), built))
    result = {"vertices": n, "edges": args.edges, "threads": args.threads, "repeat": args.repeat,
              "identical": identical, **{k: min(v) for k, v in times.items()}}
    result["speedup_weighted"] = result["torch_sort_weighted_s"] / result["counting_sort_weighted_s"]
    result["speedup_unweighted"] = result["torch_sort_unweighted_s"] / result["counting_sort_unweighted_s"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
