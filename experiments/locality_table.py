#!/usr/bin/env python3
"""Markdown tables of experiments/run_locality.sh's output (a JSON-lines file):
per graph, c, sampler, graph order (as given / renumbered by `matsamp partition`) and
--locality-blocks: bytes sent per epoch, sampled edges and bytes per sampled edge,
the epoch time and the share of it spent in the exchange."""
import json
import os
import sys


def main(path):
    partitions, runs = {}, []
    for line in open(path):
        record = json.loads(line)
        if "parts" in record:
            partitions[record["out"]] = record
        elif record.get("command") == "bench":
            runs.append(record)
    for out, p in partitions.items():
        print(f"- `{os.path.basename(out)}`: {p['vertices']} vertices, {p['nonzeros']} nonzeros, "
              f"{p['parts']} parts in {p['partition_s']:.2f} s; nonzeros between blocks: "
              f"{p['block_cut_fraction_before']:.3f} as given, {p['block_cut_fraction_after']:.3f} renumbered")
    print()
    print("| graph | c | sampler | order | locality blocks | MB sent | sampled edges (M) | bytes / edge "
          "| epoch s | exchange share |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in runs:
        name = os.path.basename(r["graph"])
        renumbered = r["graph"] in partitions
        sent = sum(r["rank_bytes_sent"])
        exchange = sum(r["rank_exchange_s"]) / max(1e-12, sum(r["rank_time_s"]))
        base = name.split("_parts")[0].removesuffix(".msg")
        print(f"| {base} | {r['replication']} | {r['sampler']} | {'partitioned' if renumbered else 'as given'} "
              f"| {r['locality_blocks']} | {sent / 1e6:.0f} | {r['sampled_edges'] / 1e6:.1f} "
              f"| {sent / max(1, r['sampled_edges']):.2f} | {r['epoch_s']:.2f} | {exchange:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "experiments/results/locality_cpu.jsonl")
