"""matsamp.pyg's NeighborLoader and HGTLoader on heterogeneous graphs, against a
real PyG source tree (../shared/pyg, PyG 2.8, or MATSAMP_PYG=/path): PyG's
HeteroData fields checked field by field on papers / authors / institutions,
and PyG's own to_hetero(SAGEConv), HGTConv and HeteroConv run on the batches."""
import sys

import pytest
import torch

from matsamp import HeteroGraph
from matsamp.pyg import Batch, HeteroBatch, HGTLoader, LinkNeighborLoader, NeighborLoader

WRITES, REV_WRITES = ("author", "writes", "paper"), ("paper", "rev_writes", "author")
CITES, AFFILIATED = ("paper", "cites", "paper"), ("author", "affiliated_with", "institution")


def academic(pyg, papers=120, authors=80, institutions=10, seed=0):
    """Papers cite papers, authors write papers and belong to institutions, made
    undirected by PyG's ToUndirected (rev_writes, rev_affiliated_with, cites both ways).
    A paper's label depends on its own and its authors' features."""
    g = torch.Generator().manual_seed(seed)
    data = pyg.data.HeteroData()
    data["paper"].x = torch.randn(papers, 8, generator=g)
    data["paper"].year = torch.randint(2000, 2020, (papers,), generator=g)
    data["paper"].train_mask = torch.rand(papers, generator=g) < 0.6
    data["author"].x = torch.randn(authors, 6, generator=g)
    data["institution"].x = torch.randn(institutions, 4, generator=g)
    writes = torch.stack([torch.randint(0, authors, (300,), generator=g),
                          torch.randint(0, papers, (300,), generator=g)])
    data[WRITES].edge_index = writes
    data[WRITES].edge_attr = torch.randn(300, 3, generator=g)
    data[CITES].edge_index = torch.randint(0, papers, (2, 400), generator=g)
    data[AFFILIATED].edge_index = torch.stack([torch.arange(authors), torch.randint(0, institutions, (authors,),
                                                                                     generator=g)])
    authored = torch.zeros(papers).index_add_(0, writes[1], data["author"].x[writes[0], 0])
    data["paper"].y = ((data["paper"].x[:, 0] + authored) > 0).long()
    return pyg.transforms.ToUndirected()(data)


def in_neighbours(data):
    """Per edge type, the distinct sources of each destination."""
    out = {}
    for e in data.edge_types:
        sources = out.setdefault(e, {})
        for u, v in data[e].edge_index.t().tolist():
            sources.setdefault(v, set()).add(u)
    return out


def check_fields(data, batch, input_type, seeds):
    """What every heterogeneous batch holds, node-wise or layer-wise."""
    bs = batch[input_type].batch_size
    assert torch.equal(batch[input_type].n_id[:bs], seeds)                 # the seeds first, in order
    for t in data.node_types:
        n_id = batch[t].n_id
        assert n_id.unique().numel() == n_id.numel() == batch[t].num_nodes
        assert torch.equal(batch[t].x, data[t].x[n_id])
    assert torch.equal(batch["paper"].y, data["paper"].y[batch["paper"].n_id])
    assert torch.equal(batch["paper"].year, data["paper"].year[batch["paper"].n_id])
    for e in data.edge_types:
        edge_index, e_id = batch[e].edge_index, batch[e].e_id
        global_ids = torch.stack([batch[e[0]].n_id[edge_index[0]], batch[e[2]].n_id[edge_index[1]]])
        assert torch.equal(data[e].edge_index[:, e_id], global_ids)        # an edge of this type, e_id finds it
        if "edge_attr" in data[e].keys():
            assert torch.equal(batch[e].edge_attr, data[e].edge_attr[e_id])


def check_hops(data, batch, input_type, fanouts):
    """PyG's node-wise hop structure: hop h's edges of each edge type go into the
    vertices new at hop h - 1, each of which draws min(fanout, in-degree) sources."""
    sources = in_neighbours(data)
    sizes = {t: torch.tensor(batch[t].num_sampled_nodes).cumsum(0).tolist() for t in data.node_types}
    for t in data.node_types:
        assert sizes[t][-1] == batch[t].n_id.numel()
    assert batch[input_type].num_sampled_nodes[0] == batch[input_type].batch_size
    for e in data.edge_types:
        counts = batch[e].num_sampled_edges
        assert len(counts) == len(fanouts[e]) and sum(counts) == batch[e].edge_index.size(1)
        begin = 0
        for hop, count in enumerate(counts):
            edges = batch[e].edge_index[:, begin:begin + count]
            lo, hi = (sizes[e[2]][hop - 1] if hop else 0), sizes[e[2]][hop]
            assert bool((edges[0] < sizes[e[0]][hop + 1]).all())           # sources: up to this hop's vertices
            for target in range(lo, hi):
                got = edges[0, edges[1] == target]
                want = sources[e].get(int(batch[e[2]].n_id[target]), set())
                assert got.numel() == min(fanouts[e][hop], len(want)), (e, hop)
                assert got.unique().numel() == got.numel()                   # without replacement
            assert bool(((edges[1] >= lo) & (edges[1] < hi)).all()), (e, hop)
            begin += count
    # PyG's n_id: every node past the seeds is the source of a kept edge (none only re-expansions reached).
    reached = {t: set() for t in data.node_types}
    for e in data.edge_types:
        reached[e[0]] |= set(batch[e].edge_index[0].tolist())
    for t in data.node_types:
        first = batch[t].num_sampled_nodes[0]
        assert set(range(first, batch[t].n_id.numel())) <= reached[t], t


def test_neighbor_batches_follow_pygs_hetero_conventions(pyg):
    data = academic(pyg)
    seeds = data["paper"].train_mask.nonzero().flatten()
    fanouts = {WRITES: [3, 2], CITES: [2, 2], REV_WRITES: [2, 1], AFFILIATED: [0, 1],
               ("institution", "rev_affiliated_with", "author"): [0, 2]}
    loader = NeighborLoader(data, fanouts, input_nodes=("paper", data["paper"].train_mask), batch_size=16, seed=4)
    assert len(loader) == (seeds.numel() + 15) // 16
    batches = list(loader)
    assert len(batches) == len(loader)
    for i, batch in enumerate(batches):
        assert isinstance(batch, pyg.data.HeteroData)
        check_fields(data, batch, "paper", seeds[16 * i:16 * (i + 1)])
        check_hops(data, batch, "paper", fanouts)
        assert torch.equal(batch["paper"].input_id, batch["paper"].n_id[:batch["paper"].batch_size])  # a mask
        assert torch.equal(batch["paper"].train_mask, data["paper"].train_mask[batch["paper"].n_id])
    assert batches[0]["institution"].n_id.numel() > 0                         # reached at hop 2 only
    assert batches[0][AFFILIATED].num_sampled_edges[0] == 0

    # a list for every edge type, -1 for all neighbours, ids as input: input_id indexes them
    ids = torch.tensor([5, 3, 90, 41, 7, 64])
    batch = next(iter(NeighborLoader(data, [-1, 2], input_nodes=("paper", ids), batch_size=4)))
    check_fields(data, batch, "paper", ids[:4])
    check_hops(data, batch, "paper", {e: [1 << 20, 2] for e in data.edge_types})
    assert torch.equal(batch["paper"].input_id, torch.arange(4))
    # another input type, given by name (all its vertices)
    batch = next(iter(NeighborLoader(data, [2, 2], input_nodes="author", batch_size=10)))
    check_fields(data, batch, "author", torch.arange(10))
    assert batch["paper"].num_sampled_nodes[0] == 0


def test_same_seed_same_batches_and_a_new_order_each_epoch(pyg):
    data = academic(pyg, seed=1)

    def epoch(loader):
        return [({t: b[t].n_id for t in b.node_types}, {e: b[e].edge_index for e in b.edge_types}) for b in loader]

    def same(a, b):
        return len(a) == len(b) and all(all(torch.equal(x[k], y[k]) for k in x)
                                        for p, q in zip(a, b) for x, y in zip(p, q))

    first = NeighborLoader(data, [3, 2], input_nodes=("paper", None), batch_size=20, shuffle=True, seed=7)
    second = NeighborLoader(data, [3, 2], input_nodes=("paper", None), batch_size=20, shuffle=True, seed=7,
                            bulk_size=3)
    a, b = epoch(first), epoch(second)
    assert same(a, b)                                              # the same seed, whatever the bulk size
    again = epoch(first)
    orders = [torch.cat([n_id["paper"][:20] for n_id, _ in run]) for run in (a, again)]
    assert not torch.equal(orders[0], orders[1])                   # a new order each epoch ...
    assert torch.equal(orders[0].sort().values, torch.arange(data["paper"].num_nodes))  # ... of every seed once
    torch.manual_seed(3)
    c = epoch(HGTLoader(data, [4, 4], ("paper", None), batch_size=20, shuffle=True))
    torch.manual_seed(3)
    assert same(c, epoch(HGTLoader(data, [4, 4], ("paper", None), batch_size=20, shuffle=True)))


def test_hgt_batches_are_the_subgraph_their_sampled_vertices_induce(pyg):
    data = academic(pyg, seed=2)
    budgets = {"paper": [6, 4], "author": [8, 4], "institution": [2, 2]}
    seeds = torch.arange(0, 120, 3)
    loader = HGTLoader(data, budgets, ("paper", seeds), batch_size=12, seed=5)
    assert len(loader) == 4
    for i, batch in enumerate(loader):
        assert isinstance(batch, pyg.data.HeteroData)
        check_fields(data, batch, "paper", seeds[12 * i:12 * (i + 1)])
        assert torch.equal(seeds[batch["paper"].input_id], batch["paper"].n_id[:batch["paper"].batch_size])
        for t in data.node_types:
            drawn = batch[t].n_id.numel() - (batch["paper"].batch_size if t == "paper" else 0)
            assert 0 < drawn <= sum(budgets[t])
        for e in data.edge_types:
            sampled = [set(batch[t].n_id.tolist()) for t in (e[0], e[2])]
            want = {(u, v) for u, v in data[e].edge_index.t().tolist() if u in sampled[0] and v in sampled[1]}
            got = list(map(tuple, torch.stack([batch[e[0]].n_id[batch[e].edge_index[0]],
                                               batch[e[2]].n_id[batch[e].edge_index[1]]]).t().tolist()))
            assert len(got) == len(set(got)) and set(got) == want, e
        # every drawn vertex was drawn for an edge to one drawn before it
        for t in data.node_types:
            first = batch["paper"].batch_size if t == "paper" else 0
            linked = torch.cat([batch[e].edge_index[0] for e in data.edge_types if e[0] == t])
            assert set(range(first, batch[t].n_id.numel())) <= set(linked.tolist()), t
    # types left out of num_samples are not drawn
    batch = next(iter(HGTLoader(data, {"paper": [5, 5]}, ("paper", None), batch_size=8)))
    assert batch["author"].n_id.numel() == 0 and batch[WRITES].edge_index.size(1) == 0
    assert 8 < batch["paper"].n_id.numel() <= 18


def hetero_sage(data, hidden):
    """PyG's to_hetero of a two-layer GraphSAGE with `hidden` units and two classes."""
    from torch_geometric.nn import SAGEConv, to_hetero

    class GNN(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.conv2 = SAGEConv((-1, -1), hidden), SAGEConv((-1, -1), 2)

        def forward(self, x, edge_index):
            return self.conv2(self.conv1(x, edge_index).relu(), edge_index)

    return to_hetero(GNN(), data.metadata(), aggr="sum")


def test_pygs_own_hetero_models_run_and_learn_on_the_batches(pyg):
    from torch_geometric.nn import HeteroConv, HGTConv, SAGEConv
    torch.manual_seed(0)
    data = academic(pyg, papers=300, authors=150, seed=3)
    model = hetero_sage(data, 32)
    held_out = next(iter(NeighborLoader(data, [10, 10], input_nodes=("paper", ~data["paper"].train_mask),
                                        batch_size=100, seed=1)))

    def loss_on(batch):
        out = model(batch.x_dict, batch.edge_index_dict)["paper"][:batch["paper"].batch_size]
        return torch.nn.functional.cross_entropy(out, batch["paper"].y[:batch["paper"].batch_size])

    with torch.no_grad():
        before = float(loss_on(held_out))                           # also initialises the lazy layers
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loader = NeighborLoader(data, {e: [5, 5] for e in data.edge_types},
                            input_nodes=("paper", data["paper"].train_mask), batch_size=32, shuffle=True)
    for _ in range(10):
        for batch in loader:
            optimizer.zero_grad()
            loss_on(batch).backward()
            optimizer.step()
    with torch.no_grad():
        after = float(loss_on(held_out))
    assert after < 0.8 * before, (before, after)

    batch = next(iter(HGTLoader(data, [16, 8], ("paper", None), batch_size=16)))
    out = HGTConv(-1, 16, data.metadata(), heads=2)(batch.x_dict, batch.edge_index_dict)
    assert out["paper"].shape == (batch["paper"].num_nodes, 16) and bool(torch.isfinite(out["paper"]).all())
    conv = HeteroConv({e: SAGEConv((-1, -1), 8) for e in data.edge_types}, aggr="sum")
    out = conv(batch.x_dict, batch.edge_index_dict)
    assert all(out[t].shape == (batch[t].num_nodes, 8) for t in data.node_types)


def test_without_pyg_heterogeneous_batches_are_light_objects(pyg, monkeypatch):
    data = academic(pyg, seed=4)
    plain = HeteroBatch({**{t: Batch(num_nodes=data[t].num_nodes, **dict(data[t].items())) for t in data.node_types},
                         **{e: Batch(**dict(data[e].items())) for e in data.edge_types}})
    monkeypatch.setitem(sys.modules, "torch_geometric.data", None)  # import fails as without PyG
    for batch in (next(iter(NeighborLoader(plain, [3, 2], input_nodes=("paper", None), batch_size=8))),
                  next(iter(HGTLoader(plain, [5, 5], ("paper", None), batch_size=8)))):
        assert isinstance(batch, HeteroBatch) and isinstance(batch["paper"], Batch)
        check_fields(plain, batch, "paper", torch.arange(8))
        assert batch.metadata() == (data.node_types, data.edge_types)
        assert set(batch.x_dict) == set(data.node_types) and set(batch.edge_index_dict) == set(data.edge_types)
    check_hops(plain, next(iter(NeighborLoader(plain, [3, 2], input_nodes=("paper", None), batch_size=8))),
               "paper", {e: [3, 2] for e in data.edge_types})


def test_bad_heterogeneous_arguments_are_clear_errors(pyg):
    data = academic(pyg, seed=5)
    every = {e: [2] for e in data.edge_types}
    for args, kwargs, message in (
            ([{**every, ("paper", "writes", "author"): [2]}], {"input_nodes": "paper"}, "unknown edge types"),
            ([{**every, "paper__cited_by__paper": [2]}], {"input_nodes": "paper"}, "unknown edge types"),
            ([{WRITES: [2]}], {"input_nodes": "paper"}, "no fanouts for edge types"),
            ([{**every, WRITES: [2, 2]}], {"input_nodes": "paper"}, "same number of hops"),
            ([[2]], {"input_nodes": ("venue", None)}, "unknown node type 'venue'"),
            ([[2]], {}, "input_nodes of a heterogeneous graph"),
            ([[2]], {"input_nodes": "paper", "sampler": "ladies"}, "samples homogeneous graphs"),
            ([[2]], {"input_nodes": "paper", "memory_budget": 1 << 30}, "give bulk_size"),
            ([[2]], {"input_nodes": ("paper", torch.tensor([0, 500]))}, r"ids must lie in \[0, 120\)")):
        with pytest.raises(ValueError, match=message):
            NeighborLoader(data, *args, **kwargs)
    data["paper"].stamp = data["paper"].year.float()
    data[CITES].time = torch.zeros(data[CITES].edge_index.size(1), dtype=torch.long)
    for kwargs, error, message in (
            ({"time_attr": "time"}, ValueError, "give input_time"),
            ({"time_attr": "date"}, ValueError, "no node or edge type of data has 'date'"),
            ({"time_attr": "stamp"}, TypeError, r"data\['paper'\].stamp must be a 1-D int64 tensor"),
            ({"time_attr": "year", "temporal_strategy": "recent"}, ValueError, "temporal_strategy must be"),
            ({"time_attr": "year", "input_nodes": "author"}, ValueError, "seeds have no times of their own: give "
                                                                          "input_time")):
        with pytest.raises(error, match=message):
            NeighborLoader(data, [2], **{"input_nodes": "paper", **kwargs})
    with pytest.raises(ValueError, match="unknown node types"):
        HGTLoader(data, {"venue": [2]}, "paper")
    with pytest.raises(ValueError, match="HGTLoader samples heterogeneous graphs"):
        HGTLoader(pyg.data.Data(edge_index=torch.zeros(2, 1, dtype=torch.long), num_nodes=2), [2], "paper")
    with pytest.raises(ValueError, match="a HeteroData is not supported"):
        LinkNeighborLoader(data, [2])
    with pytest.raises(TypeError, match="unexpected argument"):
        HGTLoader(data, [2], "paper", time_attr="year")


def check_trees(data, batch, input_type, seeds, fanouts, tree_time=None, time_attr="time", strategy="uniform",
                edge_level=False):
    """PyG's disjoint (and temporal) heterogeneous batches: per node type n_id
    hop-major with batch naming each node's tree, a node once per tree; per edge
    type, each edge inside one tree, from hop h into the nodes new at hop h - 1,
    each of which draws min(fanout, allowed in-neighbours) distinct sources, the
    allowed ones (with times) those no later than the tree's seed ("last": the
    latest of them): by the source's time, or edge_level by the edge's (a
    repeated edge's earliest)."""
    bs = batch[input_type].batch_size
    assert torch.equal(batch[input_type].n_id[:bs], seeds)
    assert torch.equal(batch[input_type].batch[:bs], torch.arange(bs))
    sizes = {t: torch.tensor(batch[t].num_sampled_nodes).cumsum(0).tolist() for t in data.node_types}
    for t in data.node_types:
        n_id, tree = batch[t].n_id, batch[t].batch
        assert n_id.numel() == tree.numel() == sizes[t][-1] == batch[t].num_nodes
        assert len(set(zip(tree.tolist(), n_id.tolist()))) == n_id.numel()      # a node once per tree
        assert bool((tree >= 0).all() & (tree < bs).all())
        assert torch.equal(batch[t].x, data[t].x[n_id])
        for hop in range(len(sizes[t]) - 1):                                    # each hop tree by tree
            assert bool((tree[sizes[t][hop]:sizes[t][hop + 1]].diff() >= 0).all())

    def node_time(t, ids):
        value = getattr(data[t], time_attr, None) if tree_time is not None and not edge_level else None
        return None if value is None else value[ids]

    def edge_time(e, target, ids):
        value = getattr(data[e], time_attr, None) if tree_time is not None and edge_level else None
        if value is None:
            return None
        into = data[e].edge_index[1] == target
        sources, times = data[e].edge_index[0, into], value[into]
        return torch.stack([times[sources == u].min() for u in ids.tolist()]) if ids.numel() else ids

    sources = in_neighbours(data)
    for e in data.edge_types:
        edge_index = batch[e].edge_index
        src, dst = batch[e[0]].n_id[edge_index[0]], batch[e[2]].n_id[edge_index[1]]
        assert torch.equal(data[e].edge_index[:, batch[e].e_id], torch.stack([src, dst]))
        tree = batch[e[2]].batch[edge_index[1]]
        assert torch.equal(batch[e[0]].batch[edge_index[0]], tree)               # never across trees
        if edge_level and tree_time is not None and getattr(data[e], time_attr, None) is not None:
            assert bool((getattr(data[e], time_attr)[batch[e].e_id] <= tree_time[tree]).all())  # e_id: that early
        begin = 0
        for hop, count in enumerate(batch[e].num_sampled_edges):
            edges = edge_index[:, begin:begin + count]
            lo, hi = (sizes[e[2]][hop - 1] if hop else 0), sizes[e[2]][hop]
            assert bool(((edges[1] >= lo) & (edges[1] < hi)).all()) and bool((edges[0] < sizes[e[0]][hop + 1]).all())
            for target in range(lo, hi):
                got = batch[e[0]].n_id[edges[0, edges[1] == target]]
                allowed = torch.tensor(sorted(sources[e].get(int(batch[e[2]].n_id[target]), set())), dtype=torch.long)
                target_id = int(batch[e[2]].n_id[target])
                times = node_time(e[0], allowed) if not edge_level else edge_time(e, target_id, allowed)
                if times is not None:
                    bound = tree_time[int(batch[e[2]].batch[target])]
                    allowed, times = allowed[times <= bound], times[times <= bound]
                assert got.numel() == min(fanouts[hop], allowed.numel()) == got.unique().numel(), (e, hop)
                assert bool(torch.isin(got, allowed).all())
                if strategy == "last" and times is not None and 0 < got.numel() < allowed.numel():
                    got_times = node_time(e[0], got) if not edge_level else edge_time(e, target_id, got)
                    assert int(got_times.min()) >= int(times[~torch.isin(allowed, got)].max())
            begin += count
        assert begin == edge_index.size(1)


@pytest.mark.parametrize("strategy", ["uniform", "last"])
def test_temporal_hetero_batches_keep_every_tree_to_its_seeds_time(pyg, strategy):
    data = academic(pyg, seed=6)
    g = torch.Generator().manual_seed(8)
    data["paper"].time = torch.randint(0, 30, (data["paper"].num_nodes,), generator=g)
    data["author"].time = torch.randint(0, 30, (data["author"].num_nodes,), generator=g)  # institutions: none
    seeds = torch.arange(0, 120, 2)
    loader = NeighborLoader(data, [3, 2], input_nodes=("paper", seeds), batch_size=16, seed=2, time_attr="time",
                            temporal_strategy=strategy)
    batches = list(loader)
    assert len(batches) == 4
    for i, batch in enumerate(batches):
        ids = seeds[16 * i:16 * (i + 1)]
        assert torch.equal(batch["paper"].seed_time, data["paper"].time[ids])
        check_trees(data, batch, "paper", ids, [3, 2], batch["paper"].seed_time, strategy=strategy)
    reached = {t: sum(b[t].n_id.numel() for b in batches) for t in data.node_types}
    assert all(reached[t] > 0 for t in ("author", "institution")), reached
    # The same batches whatever the bulk size.
    again = NeighborLoader(data, [3, 2], input_nodes=("paper", seeds), batch_size=16, seed=2, time_attr="time",
                           temporal_strategy=strategy, bulk_size=1)
    for a, b in zip(batches, again, strict=True):
        for t in data.node_types:
            assert torch.equal(a[t].n_id, b[t].n_id) and torch.equal(a[t].batch, b[t].batch)
        for e in data.edge_types:
            assert torch.equal(a[e].edge_index, b[e].edge_index) and torch.equal(a[e].e_id, b[e].e_id)
    # Seeds of a type's own times or given ones: authors at input_time.
    at = torch.full((10,), 12)
    batch = next(iter(NeighborLoader(data, [4, 4], input_nodes=("author", torch.arange(10)), batch_size=10,
                                     time_attr="time", input_time=at, temporal_strategy=strategy)))
    assert torch.equal(batch["author"].seed_time, at)
    check_trees(data, batch, "author", torch.arange(10), [4, 4], at, strategy=strategy)


@pytest.mark.parametrize("strategy", ["uniform", "last"])
def test_edge_level_times_keep_every_edge_to_its_trees_seed(pyg, strategy):
    data = academic(pyg, seed=9)
    g = torch.Generator().manual_seed(3)
    for e in (CITES, WRITES):                                   # the other edge types: never too late
        data[e].time = torch.randint(0, 30, (data[e].edge_index.size(1),), generator=g)
    seeds, at = torch.arange(0, 120, 3), torch.randint(5, 30, (40,), generator=g)
    loader = NeighborLoader(data, [3, 2], input_nodes=("paper", seeds), batch_size=16, seed=1, time_attr="time",
                            input_time=at, temporal_strategy=strategy)
    batches = list(loader)
    assert len(batches) == 3
    for i, batch in enumerate(batches):
        assert torch.equal(batch["paper"].seed_time, at[16 * i:16 * (i + 1)])
        check_trees(data, batch, "paper", seeds[16 * i:16 * (i + 1)], [3, 2], batch["paper"].seed_time,
                    strategy=strategy, edge_level=True)
    with pytest.raises(ValueError, match="give input_time"):
        NeighborLoader(data, [2], input_nodes="paper", batch_size=8, time_attr="time")
    edges = {("a", "r", "b"): torch.tensor([[0, 1], [1, 0]])}
    with pytest.raises(ValueError, match="relations with edge times get no reverses added"):
        HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, edge_time_dict={("a", "r", "b"): torch.tensor([1, 2])})
    with pytest.raises(ValueError, match="unknown edge types"):
        HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, edge_time_dict={("b", "r", "a"): torch.tensor([1])})
    with pytest.raises(ValueError, match="1 edge times for 2 edges"):
        HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, add_reverse=False,
                                         edge_time_dict={("a", "r", "b"): torch.tensor([1])})
    with pytest.raises(ValueError, match="set_times: 1 times for the 2 vertices of type a"):
        HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, node_time_dict={"a": torch.tensor([1])})
    untimed = HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, add_reverse=False)
    timed = HeteroGraph.from_edge_index_dict({"a": 2, "b": 2}, edges, add_reverse=False,
                                             node_time_dict={"a": torch.tensor([1, 2])})
    sample = lambda g, times: torch.ops.matsamp.pyg_hetero_batches(  # noqa: E731
        g.handle, "b", torch.tensor([0]), torch.tensor([0, 1]), "graphsage", [1], 1, 0, 0, 1, seed_times=times)
    with pytest.raises(ValueError, match="the graph has no times to sample by"):
        sample(untimed, torch.tensor([5]))
    with pytest.raises(ValueError, match="2 seed times for 1 minibatches"):
        sample(timed, torch.tensor([5, 6]))
    data["paper"].time = torch.zeros(data["paper"].num_nodes, dtype=torch.long)
    with pytest.raises(ValueError, match="both a node-level and an edge-level attribute"):
        NeighborLoader(data, [2], input_nodes="paper", batch_size=8, time_attr="time")


def test_disjoint_hetero_batches_and_one_type_equals_the_homogeneous_loader(pyg):
    data = academic(pyg, seed=7)
    batch = next(iter(NeighborLoader(data, [3, 3], input_nodes=("paper", torch.arange(20)), batch_size=20,
                                     disjoint=True)))
    check_trees(data, batch, "paper", torch.arange(20), [3, 3])
    assert "seed_time" not in batch["paper"]
    # One node type and one edge type: the homogeneous loader's batches exactly.
    g = torch.Generator().manual_seed(2)
    keys = torch.randint(0, 90 * 90, (900,), generator=g).unique()          # no repeated edge: PyG keeps repeats
    edge_index, time = torch.stack([keys // 90, keys % 90]), torch.randint(0, 40, (90,), generator=g)
    homogeneous = pyg.data.Data(edge_index=edge_index, time=time, num_nodes=90)
    hetero = pyg.data.HeteroData()
    hetero["v"].num_nodes, hetero["v"].time = 90, time
    hetero["v", "e", "v"].edge_index = edge_index
    for kwargs in ({"time_attr": "time"}, {"time_attr": "time", "temporal_strategy": "last"}, {"disjoint": True}):
        plain = NeighborLoader(homogeneous, [4, 3], batch_size=16, shuffle=True, seed=5, **kwargs)
        typed = NeighborLoader(hetero, [4, 3], input_nodes="v", batch_size=16, shuffle=True, seed=5, **kwargs)
        count = 0
        for a, b in zip(plain, typed, strict=True):
            for field in ("n_id", "batch", "num_sampled_nodes", "input_id"):
                assert torch.equal(torch.as_tensor(a[field]), torch.as_tensor(b["v"][field])), (kwargs, field)
            for field in ("edge_index", "e_id", "num_sampled_edges"):
                assert torch.equal(torch.as_tensor(a[field]), torch.as_tensor(b["v", "e", "v"][field])), field
            count += 1
        assert count == 6


def test_pygs_hetero_model_runs_on_temporal_batches(pyg):
    data = academic(pyg, seed=8)
    data["paper"].time = data["paper"].year
    model = hetero_sage(data, 16)
    for batch in NeighborLoader(data, [5, 5], input_nodes=("paper", data["paper"].train_mask), batch_size=32,
                                time_attr="time"):
        out = model(batch.x_dict, batch.edge_index_dict)["paper"][:batch["paper"].batch_size]
        assert out.shape == (batch["paper"].batch_size, 2) and bool(torch.isfinite(out).all())
