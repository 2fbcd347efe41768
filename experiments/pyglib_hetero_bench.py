"""pyg-lib's heterogeneous neighbour sampler on an OGB heterogeneous folder, as
`matsamp bench -g FOLDER --fanouts F` samples it: the same relations (reverses
added, a relation within one type made symmetric, as matsamp and PyG's
ToUndirected do), the seed type's training split in minibatches of b, one
epoch, one minibatch per call (pyg-lib has no bulk mode). Prints JSON.

    python3 experiments/pyglib_hetero_bench.py FOLDER [--fanouts 15,10] [-b 1024] [--seed-type paper]

Needs pyg_lib importable (../shared/tools/setup_pyg.sh builds it; source its env.sh)."""
import argparse
import gzip
import json
import pathlib
import resource
import time

import numpy as np
import torch
import pyg_lib


def read_ints(path):
    with gzip.open(path, "rt") as f:
        text = f.read()
    return np.array(text.replace("\n", ",").split(",")[:-1] if text else [], dtype=np.int64)


def csr(dst, src, rows):
    """CSR with one row per destination (the CSC of PyG's edge type), duplicates merged."""
    key = np.unique(dst * (1 << 32) + src)
    dst, src = key >> 32, key & 0xFFFFFFFF
    rowptr = np.zeros(rows + 1, dtype=np.int64)
    np.add.at(rowptr, dst + 1, 1)
    return torch.from_numpy(np.cumsum(rowptr)), torch.from_numpy(src)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--fanouts", default="15,10")
    parser.add_argument("-b", "--batch-size", type=int, default=1024)
    parser.add_argument("--seed-type", default="paper")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    raw = pathlib.Path(args.folder) / "raw"
    with gzip.open(raw / "num-node-dict.csv.gz", "rt") as f:
        names, counts = [line.strip().split(",") for line in f.read().strip().splitlines()]
    count = dict(zip(names, map(int, counts)))
    edges = {}
    for folder in sorted((raw / "relations").iterdir()):
        src_type, rel, dst_type = folder.name.split("___")
        pairs = read_ints(folder / "edge.csv.gz").reshape(-1, 2)
        edges[(src_type, rel, dst_type)] = (pairs[:, 0], pairs[:, 1])
    relations = {}
    linked = {(s, d) for s, _, d in edges}
    for (s, rel, d), (u, v) in edges.items():
        if s == d:  # symmetric within one type
            relations[(s, rel, d)] = csr(np.concatenate([v, u]), np.concatenate([u, v]), count[d])
        else:
            relations[(s, rel, d)] = csr(v, u, count[d])
            if (d, s) not in linked:
                relations[(d, "rev_" + rel, s)] = csr(u, v, count[s])
    fanouts = [int(x) for x in args.fanouts.split(",")]
    seeds = torch.from_numpy(read_ints(pathlib.Path(args.folder) / "split" / "given" / args.seed_type / "train.csv.gz"))
    order = seeds[torch.randperm(len(seeds), generator=torch.Generator().manual_seed(1))]
    rowptr = {k: v[0] for k, v in relations.items()}
    col = {k: v[1] for k, v in relations.items()}
    num_neighbors = {k: fanouts for k in relations}
    sampled = minibatches = 0
    start = time.perf_counter()
    for first in range(0, len(order), args.batch_size):
        batch = order[first:first + args.batch_size]
        row_dict, _, node_dict, *_ = pyg_lib.sampler.hetero_neighbor_sample(
            rowptr, col, {args.seed_type: batch}, num_neighbors, csc=True, replace=False, directed=True,
            return_edge_id=False)
        sampled += sum(int(r.numel()) for r in row_dict.values())
        minibatches += 1
    seconds = time.perf_counter() - start
    print(json.dumps({"sampler": "pyg_lib.sampler.hetero_neighbor_sample", "pyg_lib": pyg_lib.__version__,
                      "torch": torch.__version__, "threads": args.threads, "relations": len(relations),
                      "seeds": len(seeds), "batch_size": args.batch_size, "fanouts": fanouts,
                      "minibatches": minibatches, "time_s": seconds, "minibatches_per_s": minibatches / seconds,
                      "sampled_edges": sampled, "sampled_edges_per_s": sampled / seconds,
                      "peak_memory_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))


if __name__ == "__main__":
    main()
