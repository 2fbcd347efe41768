"""R-GCN in plain torch on matsamp's heterogeneous minibatches: an
ogbn-mag-shaped graph (generated, or an OGB heterogeneous folder), papers
classified from their typed neighbourhoods.

    PYTHONPATH=build/python python3 experiments/train_rgcn_mag.py [--graph ogbn_mag] [--papers 5000]
"""
import argparse

import torch

import matsamp


class RGCN(torch.nn.Module):
    """h'_d = W_root,d h_d + sum over relations r into d of W_r (mean over r's sampled neighbours)."""

    def __init__(self, graph, hidden, classes, layers, dropout):
        super().__init__()
        self.types, self.edge_types, self.dropout = graph.node_types, graph.edge_types, dropout
        self.features = {t: graph.features(t) for t in self.types}
        counts = graph.num_nodes_dict
        self.inputs = torch.nn.ModuleDict({
            t: (torch.nn.Linear(self.features[t].size(1), hidden) if self.features[t].size(1) > 0
                else torch.nn.Embedding(counts[t], hidden)) for t in self.types})
        width = lambda l: classes if l == 0 else hidden  # layer 0 gives the seeds' logits
        self.relation = torch.nn.ModuleList([torch.nn.ModuleDict({
            "__".join(e): torch.nn.Linear(hidden, width(l), bias=False) for e in self.edge_types})
            for l in range(layers)])
        self.root = torch.nn.ModuleList([torch.nn.ModuleDict({t: torch.nn.Linear(hidden, width(l)) for t in self.types})
                                         for l in range(layers)])

    def forward(self, batch):
        h = {}
        for t in self.types:
            ids = batch.n_id[t]
            h[t] = self.inputs[t](self.features[t][ids]) if self.features[t].size(1) > 0 else self.inputs[t](ids)
        for l in reversed(range(len(batch.layers))):
            out = {}
            for d in self.types:
                rows = (batch.batch_size if d == batch.seed_type else 0) if l == 0 else batch.layer_sizes[l - 1][d]
                if rows == 0:
                    continue
                y = self.root[l][d](h[d][:rows])
                for e, (edge_index, weight) in batch.layers[l].items():
                    if e[2] != d:
                        continue
                    messages = h[e[0]][edge_index[0]] * weight.unsqueeze(1)
                    mean = torch.zeros(rows, messages.size(1)).index_add_(0, edge_index[1], messages)
                    y = y + self.relation[l]["__".join(e)](mean)
                out[d] = torch.nn.functional.dropout(y.relu(), self.dropout, self.training) if l > 0 else y
            h = out
        return h[batch.seed_type]


def accuracy(model, loader, labels):
    model.eval()
    correct = total = 0
    with torch.no_grad():
        for batch in loader:
            seeds = batch.n_id[batch.seed_type][:batch.batch_size]
            correct += int((model(batch).argmax(1) == labels[seeds]).sum())
            total += batch.batch_size
    model.train()
    return correct / max(total, 1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", help="an OGB heterogeneous folder (default: a generated ogbn-mag shape)")
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--fanouts", default="10,10")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=64)
    args = parser.parse_args(argv)
    torch.manual_seed(1)
    graph = (matsamp.HeteroGraph.load(args.graph) if args.graph
             else matsamp.HeteroGraph.generate_mag(args.papers, classes=8, seed=1))
    labels = graph.labels("paper")
    fanouts = [int(f) for f in args.fanouts.split(",")]
    train = matsamp.HeteroBulkSampler(graph, "paper", args.batch_size, num_neighbors=fanouts, seed=1)
    evaluation = {name: matsamp.HeteroBulkSampler(graph, "paper", 1024, graph.split("paper", name),
                                                  num_neighbors=fanouts, shuffle=False, seed=2)
                  for name in ("valid", "test")}
    model = RGCN(graph, args.hidden, int(labels.max()) + 1, len(fanouts), dropout=0.3)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(args.epochs):
        total = 0.0
        for batch in train:
            seeds = batch.n_id["paper"][:batch.batch_size]
            loss = torch.nn.functional.cross_entropy(model(batch), labels[seeds])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss) * batch.batch_size
        scores = {name: accuracy(model, loader, labels) for name, loader in evaluation.items()}
        print(f"epoch {epoch}: loss {total / len(train.input_nodes):.4f}  validation {scores['valid']:.4f}  "
              f"test {scores['test']:.4f}", flush=True)
    return scores


if __name__ == "__main__":
    main()
