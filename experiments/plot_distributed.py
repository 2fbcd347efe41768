#!/usr/bin/python3
"""Charts for experiments/distributed.md from the JSON lines of `matsamp bench --distributed`
(experiments/run_distributed.sh) and, optionally, of combblas_comparison.

  /usr/bin/python3 experiments/plot_distributed.py experiments/results/distributed_cpu.jsonl \
      [--combblas experiments/results/combblas_comparison.jsonl] [--out experiments/results]

Writes distributed_time.png (time per step against p), distributed_bytes.png (bytes per
step against p), distributed_model.png (first product: measured bytes against the model)
and, with --combblas, combblas_comparison.png. Needs matplotlib (python3-matplotlib).
"""
import argparse
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def variant(run):
    """How a run sampled: replicated, or partitioned with its exchange, and c."""
    if run["distributed"] == "replicated":
        return "replicated"
    exchange = "aware" if run["exchange"] == "sparsity_aware" else "oblivious"
    if run.get("row_sampling") == "fetched_rows":
        exchange += " (rows fetched)"
    return f"partitioned {exchange}, c={run['replication']}"


def by_sampler_and_variant(runs):
    groups = {}
    for run in runs:
        groups.setdefault(run["sampler"], {}).setdefault(variant(run), []).append(run)
    for variants in groups.values():
        for series in variants.values():
            series.sort(key=lambda r: r["processes"])
    return groups


def style(name):
    if name == "replicated":
        return dict(color="black", marker="o", linestyle="-")
    color = "tab:green" if "rows fetched" in name else "tab:blue" if "aware" in name else "tab:red"
    return dict(color=color, marker="s" if "c=1" in name else "^", linestyle="-" if "c=1" in name else "--")


def plot_against_p(runs, value, ylabel, title, path, log=False):
    groups = by_sampler_and_variant(runs)
    fig, axes = plt.subplots(1, len(groups), figsize=(6 * len(groups), 4.5), squeeze=False)
    for ax, (sampler, variants) in zip(axes[0], sorted(groups.items())):
        for name, series in sorted(variants.items()):
            ps = [r["processes"] for r in series]
            ax.plot(ps, [value(r) for r in series], label=name, **style(name))
        ax.set_xscale("log", base=2)
        if log:
            ax.set_yscale("log")
        ax.set_xticks([1, 2, 4, 8])
        ax.set_xticklabels(["1", "2", "4", "8"])
        ax.set_xlabel("processes p")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{sampler}: {title}")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_model(runs, path):
    """First product of each step: measured fetch and reduce bytes against the model."""
    fig, ax = plt.subplots(figsize=(5.5, 5))
    points = []
    for run in runs:
        first = run.get("first_product")
        if not first or run["processes"] == 1:
            continue
        for kind, marker in (("fetch", "o"), ("reduce", "^")):
            model, measured = first[f"model_{kind}_bytes_per_step"], first[f"measured_{kind}_bytes_per_step"]
            if model <= 0 and measured <= 0:
                continue
            upper = kind == "reduce" and first["model_reduce_is_upper_bound"]
            color = "tab:blue" if run["exchange"] == "sparsity_aware" else "tab:red"
            ax.scatter(model, measured, marker=marker, color=color, facecolors="none" if upper else color)
            points += [model, measured]
    if points:
        lo, hi = min(p for p in points if p > 0) / 2, max(points) * 2
        ax.plot([lo, hi], [lo, hi], color="gray", linewidth=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel("model bytes per step")
    ax.set_ylabel("measured bytes per step")
    ax.set_title("first product: o fetch, ^ reduce\nblue aware, red oblivious; hollow: model is an upper bound",
                 fontsize=9)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_combblas(runs, path):
    labels = sorted({(r["processes"], r["replication"]) for r in runs})
    methods = ["matsamp_1.5d_aware", "matsamp_1.5d_oblivious", "combblas_2d_summa"]
    colors = ["tab:blue", "tab:red", "tab:green"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / len(methods)
    for i, (method, color) in enumerate(zip(methods, colors)):
        for ax, key in zip(axes, ("time_s", "bytes")):
            values = []
            for p, c in labels:
                match = [r[key] for r in runs if r["method"] == method and (r["processes"], r["replication"]) == (p, c)]
                values.append(match[0] if match else 0)
            ax.bar([x + i * width for x in range(len(labels))], values, width, label=method, color=color)
    for ax, ylabel in zip(axes, ("time per product (s)", "bytes moved per product")):
        ax.set_xticks([x + width for x in range(len(labels))])
        ax.set_xticklabels([f"p={p}\nc={c}" for p, c in labels])
        ax.set_ylabel(ylabel)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
    scale = runs[0]["scale"] if runs else "?"
    fig.suptitle(f"P = Q·A, R-MAT scale {scale}: ours (1.5D) against CombBLAS (2D SUMMA)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", help="JSON lines of matsamp bench --distributed")
    parser.add_argument("--combblas", help="JSON lines of combblas_comparison")
    parser.add_argument("--out", default=None, help="directory of the PNGs (default: beside the results)")
    args = parser.parse_args()
    out = args.out or os.path.dirname(os.path.abspath(args.results))
    runs = read_lines(args.results)
    plot_against_p(runs, lambda r: r["time_per_step_s"], "seconds per step (max over ranks)",
                   "time per step", os.path.join(out, "distributed_time.png"))
    plot_against_p(runs, lambda r: max(r["bytes_per_step"], 1), "bytes per step (all ranks; none shown as 1)",
                   "bytes moved per step", os.path.join(out, "distributed_bytes.png"), log=True)
    plot_model(runs, os.path.join(out, "distributed_model.png"))
    if args.combblas:
        plot_combblas(read_lines(args.combblas), os.path.join(out, "combblas_comparison.png"))


if __name__ == "__main__":
    main()
