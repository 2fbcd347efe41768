#!/usr/bin/env python3
"""The pieces of experiments/cpu_peers.sh: matsamp's and pyg-lib's CPU samplers, each a
fresh process on the same graph and seeds.

  prepare GRAPH.msg OUT_DIR FRACTION   the graph's CSR as OUT_DIR/graph.npz (int64 indptr
                                       and indices, what a pyg-lib user loads with numpy)
                                       and matsamp's --train-fraction seeds as seeds.npy
  pyglib OUT_DIR FANOUTS BATCH THREADS one shuffled epoch of pyg-lib's neighbor_sample over
                                       those seeds in minibatches of BATCH (one JSON line:
                                       load and epoch seconds, minibatches, sampled edges)
  report JSONL PNG                     medians per system and thread count (JSON on stdout)
                                       and a plot of epoch time, cold wall time and peak RSS

`prepare` imports matsamp (build/python on PYTHONPATH); `pyglib` imports only numpy,
torch and pyg_lib (../shared/tools/setup_pyg.sh), so its process is what a pyg-lib user's
would be.
"""
import json
import statistics
import sys
import time


def prepare(graph_path, out_dir, fraction):
    import numpy as np

    import matsamp

    graph = matsamp.Graph.load(graph_path)
    rowptr, col, _ = graph.csr()
    np.savez(f"{out_dir}/graph.npz", indptr=rowptr.numpy().astype(np.int64), indices=col.numpy().astype(np.int64))
    np.save(f"{out_dir}/seeds.npy", graph.training_nodes(float(fraction)).numpy().astype(np.int64))


def pyglib_epoch(out_dir, fanouts, batch, threads):
    start = time.perf_counter()
    import numpy as np
    import torch

    import pyg_lib

    torch.set_num_threads(int(threads))
    with np.load(f"{out_dir}/graph.npz") as g:
        rowptr, col = torch.from_numpy(g["indptr"]), torch.from_numpy(g["indices"])
    seeds = torch.from_numpy(np.load(f"{out_dir}/seeds.npy"))
    loaded = time.perf_counter()
    num_neighbors = [int(f) for f in fanouts.split(",")]
    order = seeds[torch.randperm(seeds.numel(), generator=torch.Generator().manual_seed(1))]
    minibatches = edges = 0
    epoch_start = time.perf_counter()
    for first in range(0, order.numel(), int(batch)):
        out = pyg_lib.sampler.neighbor_sample(rowptr, col, order[first:first + int(batch)], num_neighbors,
                                              return_edge_id=False)
        minibatches += 1
        edges += out[0].numel()
    end = time.perf_counter()
    print(json.dumps(dict(system="pyg-lib", threads=int(threads), load_s=loaded - start, epoch_s=end - epoch_start,
                          minibatches=minibatches, sampled_edges=edges)))


def report(jsonl, png):
    runs = [json.loads(line) for line in open(jsonl) if line.strip()]
    keys = sorted({(r["graph"], r["system"], r["threads"]) for r in runs})
    rows = []
    for graph, system, threads in keys:
        of = [r for r in runs if (r["graph"], r["system"], r["threads"]) == (graph, system, threads)]
        rows.append(dict(graph=graph, system=system, threads=threads, rounds=len(of),
                         **{k: statistics.median(r[k] for r in of) for k in ("epoch_s", "wall_s", "peak_rss_bytes")}))
    for row in rows:  # matsamp's epoch and cold run against pyg-lib's, same graph and threads
        peer = [p for p in rows if p["system"] == "pyg-lib" and (p["graph"], p["threads"]) == (row["graph"], row["threads"])]
        if row["system"] == "matsamp" and peer:
            row["epoch_speedup_over_pyglib"] = peer[0]["epoch_s"] / row["epoch_s"]
            row["cold_speedup_over_pyglib"] = peer[0]["wall_s"] / row["wall_s"]
            row["rss_over_pyglib"] = row["peak_rss_bytes"] / peer[0]["peak_rss_bytes"]
    print(json.dumps(rows, indent=1))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    labels = [f"{r['graph']}\n{r['system']}, {r['threads']} thr." for r in rows]
    colors = ["tab:blue" if r["system"] == "matsamp" else "tab:orange" for r in rows]
    for ax, key, title, scale in ((axes[0], "epoch_s", "warm epoch (s)", 1), (axes[1], "wall_s", "cold run (s)", 1),
                                  (axes[2], "peak_rss_bytes", "peak RSS (MiB)", 2**20)):
        ax.bar(range(len(rows)), [r[key] / scale for r in rows], color=colors)
        ax.set_xticks(range(len(rows)), labels, fontsize=7)
        ax.set_title(title)
    fig.suptitle("matsamp and pyg-lib on the CPU, fresh processes (medians)")
    fig.tight_layout()
    fig.savefig(png, dpi=120)


if __name__ == "__main__":
    commands = {"prepare": prepare, "pyglib": pyglib_epoch, "report": report}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](*sys.argv[2:])
