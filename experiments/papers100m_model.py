#!/usr/bin/env python3
"""Predicts graph-partitioned GraphSAGE training on ogbn-papers100M at p = 16 ... 256,
c = 1 ... 8 from what was measured here at p <= 8 (experiments/distributed.md): memory per
rank, bytes per epoch, and lower bounds on the epoch's communication time. Prints the
markdown table of experiments/papers100m.md.

    python3 experiments/papers100m_model.py [--bandwidth GBPS] [--latency US] [--gpu-memory GB]
"""
import argparse

# ogbn-papers100M (OGB): vertices, directed edges (symmetrized for sampling), features, split.
N = 111_059_956
NNZ = 2 * 1_615_685_872
FEATURE_BYTES = 128 * 4
TRAIN = 1_207_179
LABELLED = 1_207_179 + 125_265 + 214_338  # the split's training, validation and test vertices
BATCH, FANOUTS = 1024, (15, 10, 5)

# Measured here (experiments/distributed.md, "Memory per rank"): a rank's peak RSS is
# O + (bytes per nonzero * nnz + feature bytes * n) * c / p + bytes per labelled vertex * labelled,
# fitted at p = 1, 2, 4, 8: 12.5 bytes per nonzero of its block (CSR arrays and sampling's
# working memory; R-MAT 20, 21 and 22), nothing per vertex of the whole graph (what does not
# shrink with p stays 5 MB, the bulk, from 1M to 4M vertices), 38 bytes per labelled vertex in
# training (the split's lists and labels, and the bulk: the planted graph whose 1M vertices are
# all labelled), O = 0.2 GB for the process (0.7 GB with a CUDA context).
BYTES_PER_NONZERO, BYTES_PER_LABELLED, OVERHEAD = 12.5, 38.0, 0.7e9
# The byte model (distributed.md, checked against MPI's counters to 1-3%): a remote row
# sampled at its owner costs 24 + 8 m bytes (m = min(s, degree) picks, ~ s on papers100M,
# average degree 29), the process row's gather of sampled rows 8 (1 + m) per row and extra rank.


def rows_per_layer():
    """Rows of A sampled per minibatch and layer, without repeats (an upper bound: on R-MAT 20,
    1M vertices, repeats cut the third layer's input to 7% of it; papers100M is 100x larger)."""
    rows, frontier = [], BATCH
    for s in FANOUTS:
        rows.append(frontier)
        frontier *= s + 1  # the frontier keeps its vertices first, then adds s per row
    return rows, frontier


def predict(p, c, bandwidth, latency, split_rows=False):
    """split_rows: the c ranks of a process row sample their own minibatches (--row-work split),
    so there is no gather along the row; the fetches are the same (a rank's column has r ranks)."""
    r = p // c  # process rows
    rows, inputs = rows_per_layer()
    minibatches = -(-TRAIN // BATCH)
    remote = 1 - 1 / r
    sampling = sum(u * (24 + 8 * s) for u, s in zip(rows, FANOUTS)) * remote
    gather = 0 if split_rows else (c - 1) * sum(8 * u * (1 + s) for u, s in zip(rows, FANOUTS))
    features = inputs * FEATURE_BYTES * remote  # each row fetched from its block's owner
    # Per step every rank all-reduces the gradients (ring: 2 (p - 1) / p of them each) of a
    # 3-layer SAGE, 128 -> 256 -> 256 -> 172, root and neighbour weights: ~284k floats.
    gradients_per_step = p * 2 * (p - 1) / p * 4 * 284_000
    per_minibatch = sampling + gather + features
    epoch_bytes = minibatches * per_minibatch + minibatches / p * gradients_per_step
    # Lower bound on communication time: each rank sends 1/p of the bytes at `bandwidth`,
    # plus the latency of its rounds: per step (one minibatch per rank), 5 all-to-allv of the
    # process column per layer and one feature fetch, each r - 1 messages.
    steps = minibatches / p
    rounds = steps * (len(FANOUTS) * 5 + 1)
    time = epoch_bytes / p / bandwidth + rounds * (r - 1) * latency
    memory = OVERHEAD + (BYTES_PER_NONZERO * NNZ + FEATURE_BYTES * N) * c / p + BYTES_PER_LABELLED * LABELLED
    return memory, epoch_bytes, time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bandwidth", type=float, default=25.0, help="GB/s per GPU (HDR InfiniBand: 25)")
    ap.add_argument("--latency", type=float, default=5.0, help="microseconds per message")
    ap.add_argument("--gpu-memory", type=float, default=80.0, help="GB per GPU")
    a = ap.parse_args()
    print("| p | c | memory per rank (GB) | fits | bytes per epoch (GB) | communication bound (s/epoch) "
          "| split rows: bytes (GB) | split rows: bound (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for p in (16, 32, 64, 128, 256):
        for c in (1, 2, 4, 8):
            if p % (c * c):
                continue
            memory, epoch_bytes, time = predict(p, c, a.bandwidth * 1e9, a.latency * 1e-6)
            _, split_bytes, split_time = predict(p, c, a.bandwidth * 1e9, a.latency * 1e-6, split_rows=True)
            fits = "yes" if memory <= a.gpu_memory * 1e9 else "no"
            print(f"| {p} | {c} | {memory / 1e9:.1f} | {fits} | {epoch_bytes / 1e9:,.0f} | {time:.2f} "
                  f"| {split_bytes / 1e9:,.0f} | {split_time:.2f} |")


if __name__ == "__main__":
    main()
