"""Loading a .msg file's features: copied (pread) against mapped
(load_dataset(path, mmap=True)). Writes a graph with float32 features once,
then loads it in a fresh process per mode and prints one JSON line each: load
time, the process's peak RSS and how much of it is anonymous memory (copies)
or file pages (the mapping), after the load and after reading every feature once.

    PYTHONPATH=build/python /usr/bin/python3 experiments/mapped_features_bench.py \
        --vertices 1000000 --dim 128 --dir /tmp/mapbench
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time


def memory():
    """VmHWM (peak), RssAnon and RssFile of this process, in MB."""
    fields = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "RssAnon", "RssFile"):
                fields[key] = int(value.split()[0]) / 1024
    return fields


def measure(path, mapped):
    import torch  # noqa: F401  (matsamp needs torch loaded first)
    import matsamp
    before = memory()
    start = time.perf_counter()
    data = matsamp.load_dataset(path, mmap=mapped)
    load_s = time.perf_counter() - start
    loaded = memory()
    checksum = float(data.features.sum())  # every row read once
    touched = memory()
    print(json.dumps({
        "mode": "mmap" if mapped else "pread", "features_mb": data.features.numel() * 4 / 2**20,
        "load_s": round(load_s, 3), "peak_rss_mb": round(touched["VmHWM"], 1),
        "peak_rss_over_import_mb": round(touched["VmHWM"] - before["VmHWM"], 1),
        "anon_after_load_mb": round(loaded["RssAnon"] - before["RssAnon"], 1),
        "file_after_load_mb": round(loaded["RssFile"] - before["RssFile"], 1),
        "anon_after_reading_mb": round(touched["RssAnon"] - before["RssAnon"], 1),
        "file_after_reading_mb": round(touched["RssFile"] - before["RssFile"], 1),
        "feature_sum": checksum}))


def write_graph(path, vertices, dim):
    import torch
    import matsamp
    g = torch.Generator().manual_seed(1)
    edges = torch.randint(0, vertices, (2, 4 * vertices), generator=g)
    graph = matsamp.Graph.from_edge_index(edges, num_nodes=vertices,
                                          features=torch.rand(vertices, dim, generator=g))
    graph.save(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--dim", type=int, default=128)
    parser.add_argument("--dir", default="/tmp/matsamp_mapbench")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--measure", choices=["pread", "mmap"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    path = pathlib.Path(args.dir) / f"features_{args.vertices}x{args.dim}.msg"
    if args.measure:
        return measure(path, args.measure == "mmap")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_graph(path, args.vertices, args.dim)
    print(json.dumps({"file": str(path), "file_mb": round(path.stat().st_size / 2**20, 1),
                      "vertices": args.vertices, "dim": args.dim, "page_cache": "warm (file just read)"}))
    path.read_bytes()  # both modes start from a warm page cache
    for _ in range(args.repeats):
        for mode in ("pread", "mmap"):
            subprocess.run([sys.executable, __file__, "--measure", mode, "--vertices", str(args.vertices),
                            "--dim", str(args.dim), "--dir", args.dir], check=True, env=os.environ)


if __name__ == "__main__":
    main()
