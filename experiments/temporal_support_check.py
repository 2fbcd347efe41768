"""Do matsamp's and pyg-lib's temporal samplers agree on what may be sampled?

Both loaders (PyG 2.8's NeighborLoader over pyg-lib, and matsamp.pyg.NeighborLoader)
sample the same seeds of a random directed graph by time, one tree per seed. Their
draws differ by design (different random numbers), so the check is on what is
determined: with every neighbour taken (num_neighbors -1) each seed's tree is the
whole set of edges its time allows, and with temporal_strategy="last" on distinct
edge times each row's latest k edges. For node-level and edge-level times, the
trees' edge sets (global ids, per seed) must be equal. Prints JSON.

    source /tmp/pygenv/env.sh      # PyG + pyg-lib: ../shared/tools/setup_pyg.sh /tmp/pygenv
    PYTHONPATH=build/python:$PYTHONPATH /usr/bin/python3 experiments/temporal_support_check.py \\
        --out experiments/results/temporal_support_check.json
"""
import argparse
import datetime
import json
import sys

import torch

import matsamp.pyg


def random_graph(n, m, seed):
    """A Data with random edges, node times in [0, 100) and distinct edge times."""
    from torch_geometric.data import Data
    g = torch.Generator().manual_seed(seed)
    edge_index = torch.randint(0, n, (2, m), generator=g)
    edge_index = torch.unique(edge_index, dim=1)  # one edge per pair: both samplers see the same rows
    return Data(edge_index=edge_index, num_nodes=n, node_time=torch.randint(0, 100, (n,), generator=g),
                edge_time=torch.randperm(edge_index.size(1), generator=g))


def trees(loader):
    """{(batch, tree): set of (source, target) global ids} over an epoch of disjoint batches."""
    out = {}
    for b, batch in enumerate(loader):
        n_id, ei = batch.n_id, batch.edge_index
        for s, d, t in zip(n_id[ei[0]].tolist(), n_id[ei[1]].tolist(), batch.batch[ei[1]].tolist()):
            out.setdefault((b, t), set()).add((s, d))
    return out


def compare(data, seeds, case):
    from torch_geometric.loader import NeighborLoader
    args = dict(num_neighbors=case["num_neighbors"], input_nodes=seeds, batch_size=32, time_attr=case["time_attr"],
                temporal_strategy=case["strategy"])
    if case["time_attr"] == "edge_time":  # an edge-level time: each seed's time is given
        args["input_time"] = torch.full((seeds.numel(),), case["seed_time"], dtype=torch.int64)
    pyg, ours = trees(NeighborLoader(data, **args)), trees(matsamp.pyg.NeighborLoader(data, **args))
    differing = [key for key in pyg.keys() | ours.keys() if pyg.get(key, set()) != ours.get(key, set())]
    return dict(case, num_neighbors=case["num_neighbors"], trees=len(pyg.keys() | ours.keys()),
                edges_pyg=sum(map(len, pyg.values())), edges_matsamp=sum(map(len, ours.values())),
                trees_differing=len(differing), equal=not differing)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vertices", type=int, default=3000)
    parser.add_argument("--edges", type=int, default=30000)
    parser.add_argument("--seeds", type=int, default=256)
    parser.add_argument("--out", help="write the JSON here too")
    args = parser.parse_args()
    import torch_geometric
    data = random_graph(args.vertices, args.edges, seed=7)
    seeds = torch.arange(0, args.vertices, args.vertices // args.seeds)[:args.seeds]
    cases = [dict(time_attr="node_time", strategy="uniform", num_neighbors=[-1, -1], seed_time=None),
             dict(time_attr="edge_time", strategy="uniform", num_neighbors=[-1, -1], seed_time=data.edge_time.numel() // 2),
             dict(time_attr="edge_time", strategy="last", num_neighbors=[3, 2], seed_time=data.edge_time.numel() // 2)]
    results = [compare(data, seeds, case) for case in cases]
    report = dict(date=datetime.date.today().isoformat(), torch_geometric=torch_geometric.__version__,
                  pyg_lib=__import__("pyg_lib").__version__, vertices=args.vertices, edges=data.edge_index.size(1),
                  seeds=seeds.numel(), results=results, all_equal=all(r["equal"] for r in results))
    text = json.dumps(report, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    sys.exit(0 if report["all_equal"] else 1)


if __name__ == "__main__":
    main()
