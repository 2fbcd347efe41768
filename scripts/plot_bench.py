#!/usr/bin/env python3
"""Draws the per-step breakdown of one `matsamp bench` JSON object.

    plot_bench.py BENCH.json OUT.png|OUT.svg|OUT.pdf

One stacked bar per run (bulk, and per batch when the JSON has it): the time of
P = Q*A and its normalization, of inverse transform sampling and of extraction,
the rest of the run's wall time as "other", and the floor (the bytes and gathers
the epoch must move at the machine's measured rates) as a marker. `matsamp bench
--plot OUT` runs it.
"""
import json
import sys

STEPS = [("probability_s", "probability (P = Q·A, normalize)"),
         ("sampling_s", "sampling (inverse transform)"),
         ("extraction_s", "extraction (rows, columns, relabel)")]


def runs_of(bench):
    """(label, run) of each mode the JSON reports, bulk first (edge-seeded
    benches: also the bulk without the seed-edge mask)."""
    source = bench.get("link", bench)
    names = [("bulk", "bulk (k = {})"), ("bulk_without_exclusion", "bulk, no mask (k = {})"),
             ("per_batch", "per batch (k = {})")]
    return [(label.format(source[key].get("bulk_size", "?")), source[key]) for key, label in names if key in source]


def step_time(run, key):
    """A step's seconds; heterogeneous runs nest them under "steps", 0 when not measured."""
    return run.get(key, run.get("steps", {}).get(key, 0.0))


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot_bench.py BENCH.json OUT.png")
    with open(argv[1]) as f:
        bench = json.load(f)
    runs = runs_of(bench)
    if not runs:
        sys.exit(f"plot_bench.py: {argv[1]} has no bulk or per_batch run to draw")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4 + 1.5 * len(runs), 4.5))
    labels = [label for label, _ in runs]
    bottoms = [0.0] * len(runs)
    for key, name in STEPS + [("other", "other")]:
        heights = []
        for i, (_, run) in enumerate(runs):
            steps = sum(step_time(run, k) for k, _ in STEPS)
            heights.append(max(0.0, run["time_s"] - steps) if key == "other" else step_time(run, key))
        ax.bar(labels, heights, bottom=bottoms, label=name)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    floors = [run.get("floor_s") for _, run in runs]
    if all(f is not None for f in floors):
        ax.scatter(labels, floors, marker="_", s=900, color="black", zorder=3, label="floor (bytes / bandwidth)")
    ax.set_ylabel("seconds per epoch")
    title = f"{bench.get('sampler', '')} on {bench.get('graph', '')}"
    ax.set_title(f"{title}: {bench.get('minibatches', '?')} minibatches of {bench.get('batch_size', '?')}",
                 fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(argv[2])


if __name__ == "__main__":
    main(sys.argv)
