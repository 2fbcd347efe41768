"""matsamp.pyg.NeighborLoader as PyG users use it, against a real PyG source
tree (../shared/pyg, PyG 2.8, or MATSAMP_PYG=/path): PyG's field conventions,
field by field on a small directed graph, and PyG's own SAGEConv / GCNConv
trained and run on the batches."""
import sys
import types

import pytest
import torch

import matsamp
from matsamp.pyg import Batch, LinkNeighborLoader, NeighborLoader


def directed_data(pyg, n=80, m=500, seed=3):
    g = torch.Generator().manual_seed(seed)
    edge_index = torch.randint(0, n, (2, m), generator=g)
    return pyg.data.Data(x=torch.randn(n, 4, generator=g), y=torch.randint(0, 3, (n,), generator=g),
                         edge_index=edge_index, edge_attr=torch.randn(m, 2, generator=g),
                         train_mask=torch.rand(n, generator=g) < 0.5)


def check_batch(data, batch, seeds, fanouts):
    n_id, ei, bs = batch.n_id, batch.edge_index, batch.batch_size
    assert torch.equal(n_id[:bs], seeds)                       # the seeds first, in order
    assert n_id.unique().numel() == n_id.numel()
    assert torch.equal(data.edge_index[:, batch.e_id], n_id[ei])  # every edge exists, e_id finds it
    assert sum(batch.num_sampled_nodes) == n_id.numel() == batch.num_nodes
    assert set(range(bs, n_id.numel())) <= set(ei[0].tolist())  # every node past the seeds an edge reached
    assert sum(batch.num_sampled_edges) == ei.size(1)
    assert torch.equal(batch.x, data.x[n_id]) and torch.equal(batch.y, data.y[n_id])
    assert torch.equal(batch.edge_attr, data.edge_attr[batch.e_id])
    sources = {}  # distinct sources of each target in the input graph
    for u, v in data.edge_index.t().tolist():
        sources.setdefault(v, set()).add(u)
    begin, lo, hi = 0, 0, bs
    for hop, count in enumerate(batch.num_sampled_edges):
        edges = ei[:, begin:begin + count]
        assert bool(((edges[1] >= lo) & (edges[1] < hi)).all())  # hop h expands hop h-1's new vertices
        for t in range(lo, hi):
            got = edges[0, edges[1] == t]
            want = sources.get(int(n_id[t]), set())
            assert got.numel() == min(fanouts[hop], len(want))   # without replacement
            assert set(n_id[got].tolist()) <= want
        begin, lo, hi = begin + count, hi, hi + batch.num_sampled_nodes[hop + 1]


def test_batches_follow_pygs_conventions(pyg):
    data = directed_data(pyg)
    seeds = data.train_mask.nonzero().flatten()
    loader = NeighborLoader(data, num_neighbors=[3, 2], input_nodes=data.train_mask, batch_size=16)
    assert len(loader) == (seeds.numel() + 15) // 16
    batches = list(loader)
    assert len(batches) == len(loader)
    for i, batch in enumerate(batches):
        assert isinstance(batch, pyg.data.Data)
        check_batch(data, batch, seeds[16 * i:16 * (i + 1)], [3, 2])
        assert torch.equal(batch.input_id, batch.n_id[:batch.batch_size])  # a mask: the seeds' own ids, as in PyG
        assert torch.equal(batch.train_mask, data.train_mask[batch.n_id])

    # shuffle: every seed once per epoch, a new order each epoch, fixed by torch.manual_seed
    torch.manual_seed(0)
    loader = NeighborLoader(data, [2], input_nodes=seeds, batch_size=7, shuffle=True)
    epochs = [torch.cat([b.n_id[:b.batch_size] for b in loader]) for _ in range(2)]
    for order in epochs:
        assert torch.equal(order.sort().values, seeds)
    assert not torch.equal(epochs[0], epochs[1])
    torch.manual_seed(0)
    again = NeighborLoader(data, [2], input_nodes=seeds, batch_size=7, shuffle=True)
    assert torch.equal(torch.cat([b.n_id[:b.batch_size] for b in again]), epochs[0])
    for b in again:  # ids given: input_id indexes them
        assert torch.equal(seeds[b.input_id], b.n_id[:b.batch_size])


def test_any_matsamp_sampler_and_all_neighbours(pyg):
    data = directed_data(pyg, seed=4)
    full = next(iter(NeighborLoader(data, [-1, -1], batch_size=10)))
    check_batch(data, full, torch.arange(10), [data.num_nodes] * 2)
    # Every neighbour taken: the hops are the breadth-first layers of the seeds
    # over incoming edges, each vertex in the first it reaches, as PyG's.
    sources = {}
    for u, v in data.edge_index.t().tolist():
        sources.setdefault(v, set()).add(u)
    seen, layer, hops = set(range(10)), set(range(10)), []
    for _ in range(2):
        layer = {u for v in layer for u in sources.get(v, ())} - seen
        seen |= layer
        hops.append(layer)
    assert full.num_sampled_nodes == [10, len(hops[0]), len(hops[1])]
    assert set(full.n_id[10:10 + len(hops[0])].tolist()) == hops[0] and set(full.n_id.tolist()) == seen
    for sampler, sizes in (("labor", [3, 3]), ("ladies", [20, 20]), ("saint", [2, 2])):
        for i, batch in enumerate(NeighborLoader(data, sizes, batch_size=12, sampler=sampler)):
            assert torch.equal(batch.n_id[:batch.batch_size], torch.arange(12 * i, 12 * i + batch.batch_size))
            assert torch.equal(data.edge_index[:, batch.e_id], batch.n_id[batch.edge_index])
            assert sum(batch.num_sampled_edges) == batch.edge_index.size(1) > 0


def cora(pyg, data_dir):
    graph = matsamp.Graph.load(data_dir / "cora.npz", symmetrize=True)
    rowptr, col, _ = graph.csr()
    edge_index = torch.stack([torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff()), col.long()])
    x = graph.features
    data = pyg.data.Data(x=x / x.sum(1, keepdim=True).clamp(min=1), y=graph.labels, edge_index=edge_index)
    perm = torch.randperm(data.num_nodes, generator=torch.Generator().manual_seed(0))
    data.train_mask = torch.zeros(data.num_nodes, dtype=torch.bool)
    data.train_mask[perm[:1000]] = True
    data.test_mask = torch.zeros(data.num_nodes, dtype=torch.bool)
    data.test_mask[perm[1500:]] = True
    return data


def test_pygs_own_models_train_on_the_batches(pyg, data_dir):
    """The PyG example loop with only the loader's import changed."""
    from torch_geometric.nn import GCNConv, SAGEConv
    torch.manual_seed(1)
    data = cora(pyg, data_dir)

    class SAGE(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = torch.nn.ModuleList([SAGEConv(data.num_features, 64), SAGEConv(64, 7)])

        def forward(self, x, edge_index):
            x = torch.relu(self.convs[0](x, edge_index))
            return self.convs[1](torch.nn.functional.dropout(x, 0.5, self.training), edge_index)

    model = SAGE()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    loader = NeighborLoader(data, num_neighbors=[10, 10], batch_size=128, input_nodes=data.train_mask,
                            shuffle=True, num_workers=4)
    for _ in range(8):
        model.train()
        for batch in loader:
            optimizer.zero_grad()
            out = model(batch.x, batch.edge_index)[:batch.batch_size]
            loss = torch.nn.functional.cross_entropy(out, batch.y[:batch.batch_size])
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(data.x, data.edge_index).argmax(1)
    accuracy = float((pred[data.test_mask] == data.y[data.test_mask]).float().mean())
    assert accuracy > 0.75, accuracy

    batch = next(iter(NeighborLoader(data, [5, 5], batch_size=64)))
    out = GCNConv(data.num_features, 7)(batch.x, batch.edge_index)
    assert out.shape == (batch.num_nodes, 7) and bool(torch.isfinite(out).all())


def test_without_pyg_batches_are_light_objects(pyg, monkeypatch):
    data = directed_data(pyg)
    plain = types.SimpleNamespace(edge_index=data.edge_index, num_nodes=data.num_nodes, x=data.x, y=data.y,
                                  edge_attr=data.edge_attr, name="toy")
    monkeypatch.setitem(sys.modules, "torch_geometric.data", None)  # import fails as without PyG
    batch = next(iter(NeighborLoader(plain, [3, 2], batch_size=8)))
    assert isinstance(batch, Batch)
    check_batch(plain, batch, torch.arange(8), [3, 2])
    assert batch.name == "toy" and "n_id" in batch.keys()


def test_unsupported_arguments_are_clear_errors(pyg):
    data = directed_data(pyg)
    for kwargs, message in (({"replace": True, "num_neighbors": [-1]}, "replace=True needs a positive fanout"),
                            ({"replace": True, "sampler": "ladies"}, "the ladies sampler does not draw with "
                                                                     "replacement \\(graphsage does\\)"),
                            ({"subgraph_type": "sideways"}, "subgraph_type must be 'directional', "),
                            ({"subgraph_type": "induced", "disjoint": True}, "induced subgraphs are not supported"),
                            ({"num_neighbors": {("a", "b", "c"): [2]}}, "heterogeneous graphs")):
        args = {"num_neighbors": [2], **kwargs}
        with pytest.raises(ValueError, match=message):
            NeighborLoader(data, **args)
    with pytest.raises(TypeError, match="unexpected argument"):
        NeighborLoader(data, [2], sampler_threads=3)
    with pytest.raises(TypeError, match="edge_index"):
        NeighborLoader(object(), [2])


def test_replace_draws_each_fanout_with_repeats(pyg):
    """replace=True: each hop's targets with a source draw exactly their fanout,
    repeats kept as repeated edges (each an edge of data), the same at any bulk size."""
    data = directed_data(pyg, seed=8)
    has_source = torch.zeros(data.num_nodes, dtype=torch.bool)
    has_source[data.edge_index[1]] = True
    batches = list(NeighborLoader(data, [4, 3], batch_size=16, replace=True, seed=5))
    again = list(NeighborLoader(data, [4, 3], batch_size=16, replace=True, seed=5, bulk_size=1))
    repeats = 0
    for batch, other in zip(batches, again, strict=True):
        assert torch.equal(batch.edge_index, other.edge_index) and torch.equal(batch.n_id, other.n_id)
        n_id, ei = batch.n_id, batch.edge_index
        assert torch.equal(data.edge_index[:, batch.e_id], n_id[ei])
        begin, lo, hi = 0, 0, batch.batch_size
        for hop, count in enumerate(batch.num_sampled_edges):
            targets = ei[1, begin:begin + count]
            for t in range(lo, hi):
                assert int((targets == t).sum()) == (4, 3)[hop] * int(has_source[n_id[t]])
            begin, lo, hi = begin + count, hi, hi + batch.num_sampled_nodes[hop + 1]
        pairs = ei.t().tolist()
        repeats += len(pairs) - len(set(map(tuple, pairs)))
    assert repeats > 20


def test_cpu_loader_bulks_are_bounded_and_change_no_batch(pyg):
    """On the CPU a loader's bulks default to CPU_LOADER_MEMORY_BUDGET (a bulk
    of a whole epoch would page in its memory afresh each epoch), a GPU's to the
    BulkSampler's 4 GiB; the batches do not depend on it."""
    import matsamp.pyg
    n = 40_000
    g = torch.Generator().manual_seed(2)
    data = pyg.data.Data(edge_index=torch.randint(0, n, (2, 30 * n), generator=g), num_nodes=n,
                         x=torch.randn(n, 2, generator=g))
    bounded = NeighborLoader(data, [25, 25], batch_size=1024, shuffle=True, seed=3)
    whole = NeighborLoader(data, [25, 25], batch_size=1024, shuffle=True, seed=3, memory_budget=4 << 30)
    assert bounded._sampler.memory_budget == matsamp.pyg.CPU_LOADER_MEMORY_BUDGET == 512 << 20
    assert 1 < bounded._sampler.bulk_size < len(bounded) == whole._sampler.bulk_size
    for a, b in zip(bounded, whole, strict=True):
        assert torch.equal(a.n_id, b.n_id) and torch.equal(a.edge_index, b.edge_index) and torch.equal(a.x, b.x)


def test_induced_and_bidirectional_subgraphs(pyg):
    """subgraph_type="induced": every edge of data among a batch's nodes (a repeated
    edge once, as matsamp's graph holds it), e_id naming one of its columns;
    "bidirectional": the sampled edges and their reverses, each pair once; the
    nodes are the directional batch's."""
    data = directed_data(pyg, seed=6)
    pairs = [tuple(p) for p in data.edge_index.t().tolist()]
    directional = list(NeighborLoader(data, [3, 2], batch_size=16, seed=2))
    induced = list(NeighborLoader(data, [3, 2], batch_size=16, seed=2, subgraph_type="induced"))
    both_ways = list(NeighborLoader(data, [3, 2], batch_size=16, seed=2, subgraph_type="bidirectional"))
    assert len(directional) == len(induced) == len(both_ways) == 5
    grew = 0
    for plain, ind, bi in zip(directional, induced, both_ways, strict=True):
        assert torch.equal(plain.n_id, ind.n_id) and torch.equal(plain.n_id, bi.n_id)
        assert ind.num_sampled_nodes == plain.num_sampled_nodes and "num_sampled_edges" not in ind
        nodes = set(plain.n_id.tolist())
        want = sorted({p for p in pairs if p[0] in nodes and p[1] in nodes})
        got = ind.n_id[ind.edge_index]
        assert sorted(map(tuple, got.t().tolist())) == want
        assert torch.equal(data.edge_index[:, ind.e_id], got)
        assert torch.equal(ind.edge_attr, data.edge_attr[ind.e_id])
        sampled = set(map(tuple, plain.n_id[plain.edge_index].t().tolist()))
        reversed_too = sampled | {(v, u) for u, v in sampled}
        got = bi.n_id[bi.edge_index]
        assert sorted(map(tuple, got.t().tolist())) == sorted(reversed_too)
        named = data.edge_index[:, bi.e_id]
        assert bool(((named == got) | (named == got.flip(0))).all(dim=0).all())
        assert getattr(bi, "num_sampled_nodes", None) is None and getattr(bi, "num_sampled_edges", None) is None
        grew += len(want) - plain.edge_index.size(1)
    assert grew > 0
    # directed=False is induced, as in PyG.
    undirected = next(iter(NeighborLoader(data, [3, 2], batch_size=16, seed=2, directed=False)))
    assert torch.equal(undirected.edge_index, induced[0].edge_index)
    # The link loader's batches too.
    for batch in LinkNeighborLoader(data, [3], edge_label_index=data.edge_index[:, :60], batch_size=20,
                                    subgraph_type="induced"):
        nodes = set(batch.n_id.tolist())
        want = sorted({p for p in pairs if p[0] in nodes and p[1] in nodes})
        assert sorted(map(tuple, batch.n_id[batch.edge_index].t().tolist())) == want


def test_link_batches_follow_pygs_conventions(pyg):
    data = directed_data(pyg, n=120, m=900, seed=5)
    seeds = data.edge_index[:, :200]
    loader = LinkNeighborLoader(data, [4, 3], edge_label_index=seeds, batch_size=32, neg_sampling_ratio=2,
                                exclude_seed_edges=True, seed=3)
    assert len(loader) == 7
    seen = []
    for batch in loader:
        assert isinstance(batch, pyg.data.Data)
        p = batch.input_id.numel()
        seen.append(batch.input_id)
        # edge_label_index: local ids into n_id; the positives are the seed edges, then 2 negatives each
        pairs = batch.n_id[batch.edge_label_index]
        assert torch.equal(pairs[:, :p], seeds[:, batch.input_id])
        assert torch.equal(pairs[0, p:], seeds[0, batch.input_id].repeat_interleave(2))
        assert torch.equal(batch.edge_label, torch.cat([torch.ones(p), torch.zeros(2 * p)]))
        # sampled edges: real edges of data, e_id finds them, and none is a seed edge of the batch (either way)
        assert torch.equal(data.edge_index[:, batch.e_id], batch.n_id[batch.edge_index])
        sampled = set(map(tuple, batch.n_id[batch.edge_index].t().tolist()))
        positives = set(map(tuple, seeds[:, batch.input_id].t().tolist()))
        assert not sampled & (positives | {(v, u) for u, v in positives})
        assert sum(batch.num_sampled_edges) == batch.edge_index.size(1)
        assert torch.equal(batch.x, data.x[batch.n_id])
    assert torch.equal(torch.cat(seen).sort().values, torch.arange(200))

    # triplet: per positive its source, destination and k negative destinations, local ids
    batch = next(iter(LinkNeighborLoader(data, [4], edge_label_index=seeds, batch_size=16,
                                         neg_sampling={"mode": "triplet", "amount": 3}, seed=3)))
    assert batch.dst_neg_index.shape == (16, 3)
    assert torch.equal(batch.n_id[batch.src_index], seeds[0, batch.input_id])
    assert torch.equal(batch.n_id[batch.dst_pos_index], seeds[1, batch.input_id])
    # given labels are shifted by one with binary negatives, as PyG does
    labels = torch.arange(200) % 3
    batch = next(iter(LinkNeighborLoader(data, [2], edge_label_index=seeds, edge_label=labels, batch_size=10,
                                         neg_sampling="binary", seed=1)))
    assert torch.equal(batch.edge_label[:10], labels[batch.input_id] + 1.0)
    with pytest.raises(ValueError, match="whole number"):
        LinkNeighborLoader(data, [2], neg_sampling_ratio=0.5)


def test_pygs_own_model_learns_links_on_the_batches(pyg, data_dir):
    """PyG's link-prediction loop on Cora (SAGEConv, dot-product scores) with matsamp's loader."""
    from torch_geometric.nn import SAGEConv
    torch.manual_seed(2)
    data = cora(pyg, data_dir)
    perm = torch.randperm(data.edge_index.size(1), generator=torch.Generator().manual_seed(1))
    test_edges, train_edges = data.edge_index[:, perm[:500]], data.edge_index[:, perm[500:]]
    train_data = pyg.data.Data(x=data.x, edge_index=train_edges, num_nodes=data.num_nodes)

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = SAGEConv(data.num_features, 64), SAGEConv(64, 64)

        def forward(self, x, edge_index):
            return self.conv2(self.conv1(x, edge_index).relu(), edge_index)

    model = Encoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loader = LinkNeighborLoader(train_data, [10, 10], batch_size=256, neg_sampling_ratio=1, shuffle=True,
                                exclude_seed_edges=True)
    for _ in range(2):  # AUC 0.85 after two epochs, 0.84 after one (an epoch is most of this file's time)
        for batch in loader:
            optimizer.zero_grad()
            h = model(batch.x, batch.edge_index)
            score = (h[batch.edge_label_index[0]] * h[batch.edge_label_index[1]]).sum(-1)
            torch.nn.functional.binary_cross_entropy_with_logits(score, batch.edge_label).backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        h = model(data.x, train_edges)
        negatives = torch.randint(0, data.num_nodes, (2, 500), generator=torch.Generator().manual_seed(3))
        pos, neg = (h[test_edges[0]] * h[test_edges[1]]).sum(-1), (h[negatives[0]] * h[negatives[1]]).sum(-1)
    auc = float((pos[:, None] > neg[None, :]).float().mean())
    assert auc > 0.8, auc
