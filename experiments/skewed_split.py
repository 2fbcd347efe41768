"""Gives a .msg graph a split that leans on some classes, as a split by time leans on its
years' topics: each vertex of the favoured classes is `--weight` times as likely to be drawn
into train, valid or test. Used by run_partition_training.sh.

    python3 experiments/skewed_split.py IN.msg OUT.msg --train 5000 --valid 2500 --test 5000
"""
import argparse

import torch

import matsamp


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graph", help=".msg with labels")
    parser.add_argument("out", help="the same graph with the skewed split (.msg)")
    parser.add_argument("--train", type=int, default=5000)
    parser.add_argument("--valid", type=int, default=2500)
    parser.add_argument("--test", type=int, default=5000)
    parser.add_argument("--favoured", type=int, default=3, help="classes 0 .. favoured-1 are favoured")
    parser.add_argument("--weight", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    graph = matsamp.Graph.load(args.graph)
    if graph.labels is None:
        parser.error(f"{args.graph} has no labels")
    wanted = args.train + args.valid + args.test
    if wanted > graph.labels.numel():
        parser.error(f"{wanted} split vertices asked for, the graph has {graph.labels.numel()}")
    weights = torch.where(graph.labels < args.favoured, args.weight, 1.0)
    generator = torch.Generator().manual_seed(args.seed)
    chosen = torch.multinomial(weights, wanted, replacement=False, generator=generator)
    train, valid, test = chosen.split([args.train, args.valid, args.test])
    graph.splits = {"train": train.sort().values, "valid": valid.sort().values, "test": test.sort().values}
    graph.save(args.out)
    share = (graph.labels[train] < args.favoured).float().mean().item()
    print(f"wrote {args.out}: train {args.train}, valid {args.valid}, test {args.test}; "
          f"{share:.2f} of train in classes 0-{args.favoured - 1}")


if __name__ == "__main__":
    main()
