#!/usr/bin/env python3
"""Link prediction on Cora with matsamp's LinkLoader, in plain PyTorch.

Cora symmetrized, its undirected edges split at random 85/5/10 (train /
validation / test); the layers are sampled from the training edges' graph only,
and each minibatch's own positive edges (both ways) are masked out of its
layers. A 2-layer GraphSAGE encoder, dot-product scores, binary cross-entropy
with one uniform negative per positive. Validation and test edges are scored
against as many fixed negatives (non-edges) by ROC-AUC, with embeddings from
the full neighbourhoods of the training graph. The last line printed is a JSON
object with the results.

    PYTHONPATH=build/python /usr/bin/python3 experiments/train_link_cora.py
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
from train_graphsage_cora import GraphSage

REPO = pathlib.Path(__file__).resolve().parents[1]


def split_edges(graph, generator, valid=0.05, test=0.10):
    """Each undirected edge (u < v) once, shuffled into train / validation / test."""
    rowptr, col = graph.csr()[:2]
    row = torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff())
    col = col.to(torch.int64)
    upper = row < col
    edges = torch.stack([row[upper], col[upper]])
    edges = edges[:, torch.randperm(edges.size(1), generator=generator)]
    n_valid, n_test = int(valid * edges.size(1)), int(test * edges.size(1))
    return edges[:, n_valid + n_test:], edges[:, :n_valid], edges[:, n_valid:n_valid + n_test]


def non_edges(graph, count, generator):
    """`count` uniform vertex pairs that are not edges (nor self-loops)."""
    rowptr, col = graph.csr()[:2]
    known = set(zip(torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff()).tolist(), col.tolist()))
    out = []
    while len(out) < count:
        u, v = torch.randint(graph.num_nodes, (2,), generator=generator).tolist()
        if u != v and (u, v) not in known:
            out.append((u, v))
    return torch.tensor(out).t()


def roc_auc(positive, negative):
    """P(a positive scores above a negative), ties counted half (Mann-Whitney)."""
    scores = torch.cat([positive, negative])
    order = scores.argsort()
    ranks = torch.empty_like(scores, dtype=torch.float64)
    ranks[order] = torch.arange(1, scores.numel() + 1, dtype=torch.float64)
    for value in scores.unique():   # average ranks over ties
        tied = scores == value
        ranks[tied] = ranks[tied].mean()
    p, n = positive.numel(), negative.numel()
    return float((ranks[:p].sum() - p * (p + 1) / 2) / (p * n))


@torch.no_grad()
def embeddings(model, graph, features, layers):
    """Every vertex's embedding through its full neighbourhood in the training graph."""
    model.eval()
    out = torch.empty(graph.num_nodes, model.layers[-1].root.out_features)
    for mb in matsamp.BulkSampler(graph, 4096, sizes=[-1] * layers, shuffle=False):
        out[mb.layer_ids[-1]] = model(features[mb.n_id].to_sparse(), mb.adjs)
    return out


def score(h, pairs):
    return (h[pairs[0]] * h[pairs[1]]).sum(-1)


def main():
    default_data = pathlib.Path(os.environ.get("MATSAMP_DATA", REPO.parent / "shared" / "data"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=pathlib.Path, default=default_data / "cora.npz",
                        help="cora.npz (default: $MATSAMP_DATA/cora.npz or ../shared/data/cora.npz)")
    parser.add_argument("--epochs", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=256, help="positive edges per minibatch")
    parser.add_argument("--sampler", default="graphsage", choices=["graphsage", "labor"])
    parser.add_argument("--fanouts", default="10,10", help="neighbours per layer, seed layer first")
    parser.add_argument("--negatives", type=int, default=1, help="negatives per positive edge")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--dropout", type=float, default=0.5)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0, help="seeds the split, the model and the sampler")
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args()
    fanouts = [int(f) for f in args.fanouts.split(",")]

    torch.manual_seed(args.seed)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    start = time.time()
    graph = matsamp.Graph.load(args.data, symmetrize=True, drop_self_loops=True)
    features = graph.features / graph.features.sum(1, keepdim=True).clamp(min=1)
    generator = torch.Generator().manual_seed(args.seed)
    train, valid, test = split_edges(graph, generator)
    valid_negatives, test_negatives = non_edges(graph, valid.size(1), generator), non_edges(graph, test.size(1),
                                                                                             generator)
    # Messages pass along the training edges only, both ways.
    train_graph = matsamp.Graph.from_edge_index(torch.cat([train, train.flip(0)], dim=1), graph.num_nodes)

    model = GraphSage(features.size(1), args.hidden, args.hidden, args.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    loader = matsamp.LinkLoader(train_graph, train, args.batch_size, sampler=args.sampler, sizes=fanouts,
                                negatives=args.negatives, exclude_reverse=True, seed=args.seed + 1)
    best_valid, best_epoch, best_state = -1.0, -1, None
    for epoch in range(args.epochs):
        model.train()
        total_loss, pairs = 0.0, 0
        for batch in loader:
            optimizer.zero_grad()
            h = model(features[batch.n_id].to_sparse(), batch.adjs)   # one row per seed
            loss = F.binary_cross_entropy_with_logits(score(h, batch.edge_label_index), batch.edge_label)
            loss.backward()
            optimizer.step()
            total_loss += float(loss) * batch.edge_label.numel()
            pairs += batch.edge_label.numel()
        h = embeddings(model, train_graph, features, len(fanouts))
        valid_auc = roc_auc(score(h, valid), score(h, valid_negatives))
        if valid_auc > best_valid:
            best_valid, best_epoch, best_state = valid_auc, epoch, copy.deepcopy(model.state_dict())
        print(f"epoch {epoch:3d}  loss {total_loss / pairs:.4f}  validation AUC {valid_auc:.4f}", flush=True)
    model.load_state_dict(best_state)
    h = embeddings(model, train_graph, features, len(fanouts))
    test_auc = roc_auc(score(h, test), score(h, test_negatives))

    result = {"graph": str(args.data), "vertices": graph.num_nodes, "train_edges": train.size(1),
              "validation_edges": valid.size(1), "test_edges": test.size(1), "epochs": args.epochs,
              "sampler": args.sampler, "fanouts": fanouts, "best_epoch": best_epoch,
              "validation_auc": round(best_valid, 4), "test_auc": round(test_auc, 4),
              "seconds": round(time.time() - start, 2)}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
