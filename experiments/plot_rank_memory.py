#!/usr/bin/python3
"""Chart for experiments/distributed.md ("Memory per rank"): the largest rank's peak
resident memory against p for each run of experiments/run_rank_memory.sh, beside its
goal 1.25 * RSS(1) / p + O, O being the same command's peak on a tiny graph (the
libraries and fixed buffers; measured, in MB, given per run kind).

  /usr/bin/python3 experiments/plot_rank_memory.py RESULTS.jsonl [MORE.jsonl ...] \
      [--overhead bench=201 --overhead train=221] [--out experiments/results/rank_memory.png]

A later file's line replaces an earlier one's for the same run and p (a re-measured row).

Needs matplotlib (python3-matplotlib).
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MB = 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jsonl", nargs="+", help="JSON lines of run_rank_memory.sh")
    parser.add_argument("--overhead", action="append", default=[],
                        help="KIND=MB: O of the runs whose name starts with KIND (default bench=201, train=221)")
    parser.add_argument("--out", default="rank_memory.png")
    args = parser.parse_args()
    overhead = {"bench": 201.0, "train": 221.0}
    for item in args.overhead:
        kind, _, mb = item.partition("=")
        overhead[kind] = float(mb)

    runs = {}
    for path in args.jsonl:
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    runs.setdefault(r["run"], {})[r["p"]] = max(r["rank_peak_memory_bytes"]) / MB
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, peaks in runs.items():
        ps = sorted(peaks)
        o = overhead[name.split()[0]]
        line, = ax.plot(ps, [peaks[p] for p in ps], "o-", label=f"{name}")
        ax.plot(ps, [1.25 * peaks[1] / p + o for p in ps], "--", color=line.get_color(),
                label=f"goal 1.25·RSS(1)/p + {o:.0f} MB")
    ax.set_xscale("log", base=2)
    ax.set_xticks([1, 2, 4, 8])
    ax.set_xticklabels(["1", "2", "4", "8"])
    ax.set_xlabel("processes p (c = 1)")
    ax.set_ylabel("largest rank's peak RSS (MB)")
    ax.set_title("Memory per rank, graph partitioned")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)


if __name__ == "__main__":
    main()
