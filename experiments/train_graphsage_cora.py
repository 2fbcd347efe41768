#!/usr/bin/env python3
"""Trains a 2-layer GraphSAGE on Cora with matsamp's BulkSampler, in plain PyTorch.

The graph is Cora symmetrized, restricted to its largest connected component
(2485 vertices); the split is Shchur et al.'s: per class 20 training and 30
validation vertices (a seeded choice), every other vertex a test vertex.
Training minibatches are sampled with the given fanouts (or, with --sampler
saint, saint_node or saint_edge, as GraphSAINT subgraphs: --fanouts then gives
the walk length or budget once per layer, e.g. 2,2); evaluation uses the full
neighbourhood (fanout -1), so it is exact. The test accuracy reported is
that of the epoch with the best validation accuracy. The last line printed is
a JSON object with the results.

Run with /usr/bin/python3 (Debian's torch) and the package on the path:
    PYTHONPATH=build/python /usr/bin/python3 experiments/train_graphsage_cora.py
"""
import argparse
import copy
import json
import os
import pathlib
import time

import torch
import torch.nn.functional as F

import matsamp

REPO = pathlib.Path(__file__).resolve().parents[1]


class SageLayer(torch.nn.Module):
    """h_dst = W_neigh · mean(h_src over sampled neighbours) + W_root · h_dst + b."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.neigh = torch.nn.Linear(d_in, d_out, bias=False)
        self.root = torch.nn.Linear(d_in, d_out)

    def forward(self, x, adj):
        (sources, targets), weight, (_, num_dst) = adj
        # Both projections in one product, before averaging (the same by
        # linearity, and less data to move); a sparse x (Cora's bag-of-words
        # input) takes the sparse product.
        w = torch.cat([self.neigh.weight, self.root.weight]).t()
        h = torch.sparse.mm(x, w) if x.is_sparse else x @ w
        neigh, root = h[:, :w.size(1) // 2], h[:num_dst, w.size(1) // 2:]
        # weight is 1/(neighbours sampled), so the weighted sum is the mean.
        mean = torch.zeros_like(root).index_add_(0, targets, neigh[sources] * weight[:, None])
        return mean + root + self.root.bias


class GraphSage(torch.nn.Module):
    def __init__(self, d_in, hidden, classes, dropout):
        super().__init__()
        self.layers = torch.nn.ModuleList([SageLayer(d_in, hidden), SageLayer(hidden, classes)])
        self.dropout = dropout

    def forward(self, x, adjs):
        """x: input features of mb.n_id (dense, or sparse for sparse inputs); adjs: mb.adjs."""
        for i, (layer, adj) in enumerate(zip(self.layers, adjs)):
            if i > 0:
                x = F.relu(x)
            x = layer(dropout(x, self.dropout, self.training), adj)
        return x


def dropout(x, p, training):
    """F.dropout, also for a sparse x (on its stored values)."""
    if not x.is_sparse:
        return F.dropout(x, p, training)
    x = x.coalesce()
    return torch.sparse_coo_tensor(x.indices(), F.dropout(x.values(), p, training), x.shape)


def split_per_class(labels, train_per_class, val_per_class, generator):
    """Per class a seeded choice of training and validation vertices; the rest is test."""
    train, val = [], []
    for c in range(int(labels.max()) + 1):
        members = (labels == c).nonzero().flatten()
        members = members[torch.randperm(members.numel(), generator=generator)]
        train.append(members[:train_per_class])
        val.append(members[train_per_class:train_per_class + val_per_class])
    train, val = torch.cat(train).sort().values, torch.cat(val).sort().values
    test = torch.ones(labels.numel(), dtype=torch.bool)
    test[train] = False
    test[val] = False
    return train, val, test.nonzero().flatten()


@torch.no_grad()
def accuracy(model, graph, features, nodes, layers):
    """Accuracy on `nodes` with full neighbourhoods (exact, not sampled)."""
    model.eval()
    correct = 0
    full = matsamp.BulkSampler(graph, 1024, nodes, sizes=[-1] * layers, shuffle=False)
    for mb in full:
        prediction = model(features[mb.n_id].to_sparse(), mb.adjs).argmax(1)
        correct += int((prediction == graph.labels[mb.layer_ids[-1]]).sum())
    return correct / nodes.numel()


def main():
    default_data = pathlib.Path(os.environ.get("MATSAMP_DATA", REPO.parent / "shared" / "data"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=pathlib.Path, default=default_data / "cora.npz",
                        help="cora.npz (default: $MATSAMP_DATA/cora.npz or ../shared/data/cora.npz)")
    parser.add_argument("--epochs", type=int, default=50)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--sampler", default="graphsage", choices=["graphsage", "labor", "saint", "saint_node", "saint_edge"],
                        help="how training minibatches are sampled")
    parser.add_argument("--fanouts", default="10,10",
                        help="neighbours per layer, batch layer first (GraphSAINT: walk length or budget per layer)")
    parser.add_argument("--bulk-size", type=int, default=0,
                        help="minibatches sampled per call (0: the most that fit --memory-budget)")
    parser.add_argument("--memory-budget", type=int, default=matsamp.loader.DEFAULT_MEMORY_BUDGET,
                        help="bytes one bulk may use when choosing the bulk size (default 4 GiB)")
    parser.add_argument("--locality-blocks", type=int, default=0,
                        help="draw each minibatch from one of this many equal id ranges (0: from all training "
                             "vertices); for a graph renumbered by 'matsamp partition --parts P', use P")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--dropout", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--weight-decay", type=float, default=5e-4)
    parser.add_argument("--seed", type=int, default=0, help="seeds the split, the model and the sampler")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args()
    fanouts = [int(f) for f in args.fanouts.split(",")]

    torch.manual_seed(args.seed)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    start = time.time()
    graph = matsamp.Graph.load(args.data, symmetrize=True, largest_component=True)
    features = graph.features / graph.features.sum(1, keepdim=True).clamp(min=1)
    train, val, test = split_per_class(graph.labels, 20, 30, torch.Generator().manual_seed(args.seed))

    model = GraphSage(features.size(1), args.hidden, graph.num_classes, args.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    loader = matsamp.BulkSampler(graph, args.batch_size, train, sampler=args.sampler, sizes=fanouts,
                                 bulk_size=args.bulk_size or None, memory_budget=args.memory_budget,
                                 locality_blocks=args.locality_blocks, seed=args.seed)
    best_val, best_epoch, best_state = -1.0, -1, None
    for epoch in range(args.epochs):
        model.train()
        total_loss = 0.0
        for mb in loader:
            optimizer.zero_grad()
            out = model(features[mb.n_id].to_sparse(), mb.adjs)
            loss = F.cross_entropy(out, graph.labels[mb.layer_ids[-1]])
            loss.backward()
            optimizer.step()
            total_loss += float(loss) * mb.batch_size
        val_accuracy = accuracy(model, graph, features, val, len(fanouts))
        if val_accuracy > best_val:
            best_val, best_epoch, best_state = val_accuracy, epoch, copy.deepcopy(model.state_dict())
        print(f"epoch {epoch:3d}  loss {total_loss / train.numel():.4f}  val {val_accuracy:.4f}",
              flush=True)
    model.load_state_dict(best_state)
    test_accuracy = accuracy(model, graph, features, test, len(fanouts))

    result = {"graph": str(args.data), "vertices": graph.num_nodes, "train": train.numel(),
              "val": val.numel(), "test": test.numel(), "epochs": args.epochs,
              "sampler": args.sampler, "fanouts": fanouts, "bulk_size": loader.bulk_size, "best_epoch": best_epoch,
              "val_accuracy": round(best_val, 4), "test_accuracy": round(test_accuracy, 4),
              "seconds": round(time.time() - start, 2)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
