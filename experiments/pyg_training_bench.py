"""A PyG GraphSAGE training loop with PyG's NeighborLoader (pyg-lib) and with
matsamp.pyg.NeighborLoader, in one process: the same Data, model, optimizer, split and
torch seed, only the loader's import differs.

Per graph and system (rounds interleaved): each epoch's loader time (the time the loop
waits on the loader: sampling, batch assembly, feature gather), training time (forward,
backward, Adam), sampled validation accuracy (each system's own loader, all neighbours
of the fanouts), and the training time (loader + training, evaluation excluded) until
validation accuracy first reaches --target. With --device cuda the model trains on the
GPU; PyG's loader samples on the CPU as PyG's examples do (batches moved with .to), and
matsamp's samples the Data moved to the GPU, where its batches stay. Prints JSON (and writes it with --out);
--plot draws loader and training time per epoch and the time to the target.

    source /tmp/pygenv/env.sh      # PyG + pyg-lib: ../shared/tools/setup_pyg.sh /tmp/pygenv
    PYTHONPATH=build/python:$PYTHONPATH /usr/bin/python3 experiments/pyg_training_bench.py \\
        --graph cora --graph planted:1000000 --out results/pyg_training.json --plot results/pyg_training.png
"""
import argparse
import datetime
import json
import os
import sys
import tempfile
import time

import torch

import matsamp
import matsamp.pyg
from pyg_loader_bench import cpu_model, load_graph, make_data, write_report


def split(n, train_fraction, seed=0):
    """Training and validation vertices of a fixed random permutation."""
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    train = int(train_fraction * n)
    return perm[:train].sort().values, perm[train:train + max(1, n // 10)].sort().values


def loader_of(system, data, seeds, fanouts, batch_size, shuffle):
    if system == "pyg":
        from torch_geometric.loader import NeighborLoader
    else:
        NeighborLoader = matsamp.pyg.NeighborLoader
    return NeighborLoader(data, num_neighbors=fanouts, input_nodes=seeds, batch_size=batch_size, shuffle=shuffle)


def on_device(loader, device):
    """The loader's batches on `device` (moved there when they are not)."""
    for batch in loader:
        yield batch.to(device)


def timed(iterable):
    """Yields (item, seconds spent producing it)."""
    it = iter(iterable)
    while True:
        start = time.perf_counter()
        try:
            item = next(it)
        except StopIteration:
            return
        yield item, time.perf_counter() - start


@torch.no_grad()
def accuracy(model, loader, device):
    model.eval()
    correct = total = 0
    for batch in on_device(loader, device):
        out = model(batch.x, batch.edge_index)[:batch.batch_size]
        correct += int((out.argmax(1) == batch.y[:batch.batch_size]).sum())
        total += batch.batch_size
    model.train()
    return correct / max(total, 1)


def train(system, data, train_ids, valid_ids, args, num_classes):
    """One run: the epochs' times and accuracies, and the time to the target."""
    from torch_geometric.nn import GraphSAGE
    torch.manual_seed(args.seed)
    device = torch.device(args.device)
    if system == "matsamp":
        data = data.to(device)  # sampled where it lives
    model = GraphSAGE(data.num_features, args.hidden, len(args.fanouts), num_classes).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    start = time.perf_counter()
    loader = loader_of(system, data, train_ids, args.fanouts, args.batch_size, True)
    valid = loader_of(system, data, valid_ids, args.fanouts, args.batch_size, False)
    build = time.perf_counter() - start
    epochs, elapsed, reached = [], build, None
    for epoch in range(args.epochs):
        loading = training = 0.0
        for batch, waited in timed(on_device(loader, device)):
            loading += waited
            step = time.perf_counter()
            optimizer.zero_grad()
            out = model(batch.x, batch.edge_index)[:batch.batch_size]
            loss = torch.nn.functional.cross_entropy(out, batch.y[:batch.batch_size])
            loss.backward()
            optimizer.step()
            if device.type == "cuda":
                torch.cuda.synchronize()
            training += time.perf_counter() - step
        elapsed += loading + training
        evaluating = time.perf_counter()
        acc = accuracy(model, valid, device)
        epochs.append(dict(loader_s=loading, train_s=training, eval_s=time.perf_counter() - evaluating,
                           validation_accuracy=acc, loss=float(loss)))
        print(f"  {system} epoch {epoch}: loader {loading:.3f} s, training {training:.3f} s, validation {acc:.4f}",
              file=sys.stderr)
        if reached is None and acc >= args.target:
            reached = elapsed
            if args.stop_at_target:
                break
    return dict(system=system, build_s=build, epochs=epochs, seconds_to_target=reached)


def summarize(runs):
    def med(values):
        values = sorted(v for v in values if v is not None)
        return values[len(values) // 2] if values else None
    out = {}
    for system in ("pyg", "matsamp"):
        mine = [r for r in runs if r["system"] == system]
        out[f"{system}_loader_s_per_epoch"] = med(e["loader_s"] for r in mine for e in r["epochs"])
        out[f"{system}_train_s_per_epoch"] = med(e["train_s"] for r in mine for e in r["epochs"])
        out[f"{system}_seconds_to_target"] = med(r["seconds_to_target"] for r in mine)
        out[f"{system}_best_validation_accuracy"] = med(max(e["validation_accuracy"] for e in r["epochs"]) for r in mine)
    if out["matsamp_loader_s_per_epoch"]:
        out["pyg_over_matsamp_loader"] = out["pyg_loader_s_per_epoch"] / out["matsamp_loader_s_per_epoch"]
    if out["pyg_seconds_to_target"] and out["matsamp_seconds_to_target"]:
        out["pyg_over_matsamp_to_target"] = out["pyg_seconds_to_target"] / out["matsamp_seconds_to_target"]
    return out


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.8), squeeze=False)
    for ax, g in zip(axes[0], results):
        s = g["summary"]
        for j, system in enumerate(("pyg", "matsamp")):
            color = ("#d08770", "#5e81ac")[j]
            ax.bar(j, s[f"{system}_loader_s_per_epoch"], 0.6, color=color, label="loader" if j == 0 else None)
            ax.bar(j, s[f"{system}_train_s_per_epoch"], 0.6, bottom=s[f"{system}_loader_s_per_epoch"], color=color,
                   alpha=0.45, label="training" if j == 0 else None)
            reached = s[f"{system}_seconds_to_target"]
            ax.annotate(f"to {g['target']:.2f}: " + (f"{reached:.1f} s" if reached else "not reached"),
                        (j, 0), textcoords="offset points", xytext=(0, -28), ha="center", fontsize=8)
        ax.set_xticks([0, 1], ["PyG (pyg-lib)", "matsamp.pyg"])
        ax.set_title(f"{g['graph']}: seconds per epoch")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", action="append", help="cora, planted:N or rmat:SCALE (repeatable; default cora)")
    parser.add_argument("--fanouts", type=lambda s: [int(f) for f in s.split(",")], default=[10, 5])
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--train-fraction", type=float, default=0.5)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--target", type=float, default=0.8, help="validation accuracy whose time is reported")
    parser.add_argument("--stop-at-target", action="store_true", help="end a run once it reaches the target")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--threads", type=int, default=2, help="torch (and OpenMP) threads")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu", help="where the model trains (cpu, cuda)")
    parser.add_argument("--out", help="write the JSON here too")
    parser.add_argument("--plot", help="draw the per-epoch times and the time to the target to this .png")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    results = []
    with tempfile.TemporaryDirectory() as workdir:
        for spec in args.graph or ["cora"]:
            name, _, graph = load_graph(spec, workdir)
            data = make_data(graph, 32)
            train_ids, valid_ids = split(graph.num_nodes, args.train_fraction)
            num_classes = int(data.y.max()) + 1
            runs = []
            for rep in range(args.repeat):
                for system in ("pyg", "matsamp"):
                    print(f"{name} round {rep}: {system}", file=sys.stderr)
                    runs.append(dict(round=rep, **train(system, data, train_ids, valid_ids, args, num_classes)))
            results.append(dict(graph=name, vertices=graph.num_nodes, edges=graph.num_edges,
                                training_vertices=train_ids.numel(), validation_vertices=valid_ids.numel(),
                                target=args.target, runs=runs, summary=summarize(runs)))
    report = dict(date=datetime.date.today().isoformat(), machine=cpu_model(), cpus=os.cpu_count(),
                  torch=torch.__version__, device=args.device, options=vars(args) | {"graph": args.graph or ["cora"]},
                  results=results)
    write_report(report, args.out, (lambda: plot(results, args.plot)) if args.plot else None)


if __name__ == "__main__":
    main()
