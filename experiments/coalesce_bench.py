"""Graph.from_edge_index's CSR build: the engine's counting sort (torch.ops.matsamp.coalesce_edges)
against the torch.sort + unique_consecutive build it replaced, on the same random edge list,
interleaved; prints one JSON line.

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
    return rowptr, key % n, value


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
    builds = {"torch_sort": torch_sort_build, "counting_sort": torch.ops.matsamp.coalesce_edges}
    times = {f"{name}_{kind}_s": [] for name in builds for kind in ("unweighted", "weighted")}
    for _ in range(args.repeat):
        for name, build in builds.items():
            for kind, value in (("unweighted", None), ("weighted", weight)):
                start = time.perf_counter()
                build(n, row, col, value)
                times[f"{name}_{kind}_s"].append(time.perf_counter() - start)
    a, b = torch_sort_build(n, row, col, weight), torch.ops.matsamp.coalesce_edges(n, row, col, weight)
    identical = all(torch.equal(x.to(y.dtype), y) for x, y in zip(a, b))
    result = {"vertices": n, "edges": args.edges, "threads": args.threads, "repeat": args.repeat,
              "identical": identical, **{k: min(v) for k, v in times.items()}}
    result["speedup_weighted"] = result["torch_sort_weighted_s"] / result["counting_sort_weighted_s"]
    print(json.dumps(result))


if __name__ == "__main__":
    main()
