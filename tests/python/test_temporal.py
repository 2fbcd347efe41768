"""Temporal and disjoint sampling from Python: Graph.from_edge_index with times,
sample_bulk(seed_times=), and matsamp.pyg.NeighborLoader / LinkNeighborLoader
(time_attr=, edge_label_time=, disjoint=) against PyG's rules, checked edge by
edge on a small directed graph."""
import pytest
import torch

import matsamp
from matsamp.pyg import NeighborLoader


def timed_graph(n=120, m=1500, seed=5):
    g = torch.Generator().manual_seed(seed)
    edge_index = torch.randint(0, n, (2, m), generator=g)
    return edge_index, torch.randint(0, 50, (n,), generator=g), torch.randint(0, 50, (m,), generator=g)


@pytest.mark.parametrize("sampler", ["graphsage", "labor"])
def test_sample_bulk_keeps_every_layer_to_its_minibatchs_time(sampler):
    edge_index, node_time, edge_time = timed_graph()
    graph = matsamp.Graph.from_edge_index(edge_index, 120, edge_time=edge_time, node_time=node_time)
    seeds, offsets = torch.arange(0, 60), torch.tensor([0, 20, 40, 60])
    bounds = torch.tensor([10, 30, 49])
    layers = matsamp.ops.sample_bulk(graph, sampler, seeds, offsets, [5, 5], seed_times=bounds,
                                     edge_positions=True)
    edges = 0
    for layer in layers:
        rows = torch.repeat_interleave(torch.arange(layer.rowptr.numel() - 1), layer.rowptr.diff())
        minibatch = torch.searchsorted(layer.row_offsets, rows, right=True) - 1
        e = graph.edge_ids[layer.positions]  # the columns of edge_index drawn
        source = edge_index[1, e]            # the entry's column: the neighbour
        assert bool((edge_time[e] <= bounds[minibatch]).all())
        assert bool((node_time[source] <= bounds[minibatch]).all())
        edges += e.numel()
    assert edges > 50
    # Times past every edge: as many neighbours as untimed sampling draws.
    late = matsamp.ops.sample_bulk(graph, sampler, seeds, offsets, [5, 5], seed_times=torch.full((3,), 99))
    plain = matsamp.ops.sample_bulk(graph, sampler, seeds, offsets, [5, 5])
    assert torch.equal(late[0].rowptr, plain[0].rowptr)
    if sampler == "labor":
        return
    # last: deterministic, the latest edges.
    last = [matsamp.ops.sample_bulk(graph, "graphsage", seeds, offsets, [3], seed_times=bounds, seed=s,
                                    temporal_strategy="last")[0] for s in (1, 2)]
    assert torch.equal(last[0].col, last[1].col)


def test_a_loaded_graph_samples_by_its_node_years(tmp_path):
    """An OGB folder's raw/node_year.csv is the graph's node_time: sampling by time
    keeps every sampled neighbour to the seed's time without any argument for it."""
    edge_index, node_time, _ = timed_graph(seed=9)
    raw = tmp_path / "ogbn_years" / "raw"
    raw.mkdir(parents=True)
    (raw / "num-node-list.csv").write_text("120\n")
    (raw / "edge.csv").write_text("".join(f"{u},{v}\n" for u, v in edge_index.t().tolist()))
    (raw / "node_year.csv").write_text("".join(f"{t}\n" for t in node_time.tolist()))
    graph = matsamp.Graph.load(str(tmp_path / "ogbn_years"))
    assert torch.equal(graph.node_time, node_time)
    seeds = torch.arange(0, 120, 3)
    layers = matsamp.ops.sample_bulk(graph, "graphsage", seeds, torch.arange(seeds.numel() + 1), [4, 3],
                                     seed_times=node_time[seeds])
    rowptr, col = graph.csr()[:2]
    sampled = 0
    for layer in layers:
        rows = torch.repeat_interleave(torch.arange(layer.rowptr.numel() - 1), layer.rowptr.diff())
        tree = torch.searchsorted(layer.row_offsets, rows, right=True) - 1
        neighbours = layer.vertices[layer.col.to(torch.int64)]
        assert bool((node_time[neighbours] <= node_time[seeds][tree]).all())
        sampled += neighbours.numel()
    assert sampled > 100
    assert matsamp.Graph.from_edge_index(edge_index, 120).node_time is None
    # Saved and loaded again, from a file or from from_edge_index's node_time.
    graph.save(tmp_path / "years.msg")
    assert torch.equal(matsamp.Graph.load(str(tmp_path / "years.msg")).node_time, node_time)
    made = matsamp.Graph.from_edge_index(edge_index, 120, node_time=node_time)
    made.save(tmp_path / "made.msg")
    assert torch.equal(matsamp.Graph.load(str(tmp_path / "made.msg")).node_time, node_time)


def test_temporal_errors_are_one_line():
    edge_index, node_time, _ = timed_graph()
    graph = matsamp.Graph.from_edge_index(edge_index, 120, node_time=node_time)
    untimed = matsamp.Graph.from_edge_index(edge_index, 120)
    seeds, offsets = torch.arange(4), torch.tensor([0, 4])
    with pytest.raises(ValueError, match="the fastgcn sampler cannot sample by time \\(graphsage or labor can\\)"):
        matsamp.ops.sample_bulk(graph, "fastgcn", seeds, offsets, [2], seed_times=torch.tensor([3]))
    with pytest.raises(ValueError, match="labor samples by time with the strategy 'uniform'"):
        matsamp.ops.sample_bulk(graph, "labor", seeds, offsets, [2], seed_times=torch.tensor([3]),
                                temporal_strategy="last")
    with pytest.raises(ValueError, match="the graph has no times to sample by"):
        matsamp.ops.sample_bulk(untimed, "graphsage", seeds, offsets, [2], seed_times=torch.tensor([3]))
    with pytest.raises(ValueError, match="2 seed times for 1 minibatches"):
        matsamp.ops.sample_bulk(graph, "graphsage", seeds, offsets, [2], seed_times=torch.tensor([3, 4]))
    with pytest.raises(ValueError, match="temporal strategy must be 'uniform' or 'last', got 'recent'"):
        matsamp.ops.sample_bulk(graph, "graphsage", seeds, offsets, [2], seed_times=torch.tensor([3]),
                                temporal_strategy="recent")
    with pytest.raises(ValueError, match="node_time must have shape \\[120\\]"):
        matsamp.Graph.from_edge_index(edge_index, 120, node_time=node_time[:5])


def check_tree_batch(data, batch, seeds, fanouts, seed_time):
    """PyG's disjoint conventions: n_id hop-major with one tree per seed (batch), the
    seeds first and in order; each edge inside one tree, into the previous hop's
    nodes, an edge of data, and (with times) no later than its tree's seed."""
    n_id, ei, b = batch.n_id, batch.edge_index, batch.batch
    assert torch.equal(n_id[:batch.batch_size], seeds) and torch.equal(b[:batch.batch_size], torch.arange(seeds.numel()))
    assert sum(batch.num_sampled_nodes) == n_id.numel() == b.numel()
    assert sum(batch.num_sampled_edges) == ei.size(1)
    assert torch.equal(data.edge_index[:, batch.e_id], n_id[ei])
    assert torch.equal(b[ei[0]], b[ei[1]])                      # never across trees
    if seed_time is not None:
        tree_time = seed_time[seeds][b[ei[1]]]
        assert bool((data.time[n_id[ei[0]]] <= tree_time).all())
    begin, lo, hi = 0, 0, batch.batch_size
    for hop, count in enumerate(batch.num_sampled_edges):
        edges = ei[:, begin:begin + count]
        assert bool(((edges[1] >= lo) & (edges[1] < hi)).all())
        for t in range(lo, hi):
            assert int((edges[1] == t).sum()) <= fanouts[hop]
        nodes = n_id[hi:hi + batch.num_sampled_nodes[hop + 1]]
        trees = b[hi:hi + batch.num_sampled_nodes[hop + 1]]
        pairs = set(zip(trees.tolist(), nodes.tolist()))
        assert len(pairs) == nodes.numel()                      # a node once per tree and hop
        begin, lo, hi = begin + count, hi, hi + batch.num_sampled_nodes[hop + 1]


def test_neighbor_loader_samples_by_time_and_disjoint_trees(pyg):
    edge_index, node_time, _ = timed_graph(seed=7)
    data = pyg.data.Data(edge_index=edge_index, time=node_time, x=torch.randn(120, 3), num_nodes=120)
    seeds = torch.arange(0, 120, 2)
    for kwargs, seed_time in (({"time_attr": "time"}, node_time), ({"disjoint": True}, None),
                              ({"time_attr": "time", "temporal_strategy": "last"}, node_time)):
        loader = NeighborLoader(data, [3, 2], input_nodes=seeds, batch_size=16, seed=3, **kwargs)
        batches = list(loader)
        assert len(batches) == 4
        for i, batch in enumerate(batches):
            check_tree_batch(data, batch, seeds[16 * i:16 * (i + 1)], [3, 2], seed_time)
            if seed_time is not None:                               # PyG's seed_time: each seed's time
                assert torch.equal(batch.seed_time, seed_time[seeds[16 * i:16 * (i + 1)]])
            assert torch.equal(batch.time, data.time[batch.n_id])
        # The same batches whatever the bulk size.
        again = list(NeighborLoader(data, [3, 2], input_nodes=seeds, batch_size=16, seed=3, bulk_size=1, **kwargs))
        for a, b in zip(batches, again, strict=True):
            assert torch.equal(a.n_id, b.n_id) and torch.equal(a.edge_index, b.edge_index)
    # input_time instead of the node times: an edge-level time needs it.
    edge_data = pyg.data.Data(edge_index=edge_index, stamp=torch.arange(edge_index.size(1)), num_nodes=120)
    with pytest.raises(ValueError, match="give input_time"):
        NeighborLoader(edge_data, [2], input_nodes=seeds, batch_size=8, time_attr="stamp")
    times = torch.full((seeds.numel(),), 700)
    for batch in NeighborLoader(edge_data, [4, 4], input_nodes=seeds, batch_size=8, time_attr="stamp",
                                input_time=times):
        assert bool((batch.e_id <= 700).all())
    with pytest.raises(ValueError, match="the ladies sampler cannot sample by time"):
        NeighborLoader(data, [20], batch_size=8, time_attr="time", sampler="ladies")
    with pytest.raises(ValueError, match="disjoint sampling takes a node-wise sampler, not 'ladies'"):
        NeighborLoader(data, [20], batch_size=8, disjoint=True, sampler="ladies")
    with pytest.raises(ValueError, match="input_time: a seed given twice has two times"):
        NeighborLoader(data, [2], input_nodes=torch.tensor([1, 1]), batch_size=8, time_attr="time",
                       input_time=torch.tensor([3, 4]))


def test_weighted_neighbour_draws_follow_the_weights(pyg):
    """weight_attr: 300 targets, each with sources 0..3 weighted 1, 1, 0, 8: one draw
    each per epoch picks source 3 with probability 0.8 and never source 2."""
    targets = torch.arange(4, 304)
    sources = torch.arange(4).repeat(300)
    edge_index = torch.stack([sources, targets.repeat_interleave(4)])
    weight = torch.tensor([1.0, 1.0, 0.0, 8.0]).repeat(300)
    data = pyg.data.Data(edge_index=edge_index, w=weight, num_nodes=304)
    loader = NeighborLoader(data, [1], input_nodes=targets, batch_size=64, weight_attr="w", seed=2)
    picks = torch.cat([batch.n_id[batch.edge_index[0]] for _ in range(8) for batch in loader])
    assert picks.numel() == 2400
    counts = torch.bincount(picks, minlength=4)
    assert counts[2] == 0
    # Binomial(2400, 0.8): sd 19.6; five of them either side.
    assert abs(int(counts[3]) - 1920) < 98, counts.tolist()
    with pytest.raises(ValueError, match="weight_attr: data has no tensor 'v' with one weight per edge"):
        NeighborLoader(data, [1], batch_size=8, weight_attr="v")


def check_link_trees(data, batch, edges, per_edge, tree_time=None, time_of_edge=None):
    """PyG's disjoint link batches: seed edge i's trees are seed nodes per_edge·i
    (source), +1 (destination) and the rest its negatives; every sampled edge is an
    edge of data inside one tree, and (with times) none later than its seed edge."""
    n_id, ei, b = batch.n_id, batch.edge_index, batch.batch
    p = edges.size(1)
    assert batch.batch_size == p * per_edge
    seeds = n_id[:p * per_edge].view(p, per_edge)
    assert torch.equal(seeds[:, :2].t(), edges)
    assert torch.equal(b[:p * per_edge], torch.arange(p).repeat_interleave(per_edge))
    assert torch.equal(data.edge_index[:, batch.e_id], n_id[ei])
    assert torch.equal(b[ei[0]], b[ei[1]])
    if tree_time is not None:
        assert bool((time_of_edge(batch, ei) <= tree_time[b[ei[1]]]).all())
    return ei.size(1)


def test_link_neighbor_loader_samples_each_seed_edge_as_of_its_time(pyg):
    from matsamp.pyg import LinkNeighborLoader
    edge_index, node_time, edge_time = timed_graph(seed=11)
    data = pyg.data.Data(edge_index=edge_index, time=node_time, stamp=edge_time, num_nodes=120)
    label_index = edge_index[:, :90]
    label_time = torch.randint(10, 50, (90,), generator=torch.Generator().manual_seed(1))
    node_level = lambda batch, ei: data.time[batch.n_id[ei[0]]]      # noqa: E731
    edge_level = lambda batch, ei: data.stamp[batch.e_id]            # noqa: E731
    for attr, time_of_edge in (("time", node_level), ("stamp", edge_level)):
        for mode, k in (("binary", 1), ("triplet", 2)):
            kwargs = dict(edge_label_index=label_index, edge_label_time=label_time, time_attr=attr,
                          neg_sampling={"mode": mode, "amount": k}, batch_size=32, shuffle=True, seed=4)
            batches = list(LinkNeighborLoader(data, [4, 3], **kwargs))
            assert len(batches) == 3
            sampled = 0
            for batch in batches:
                edges = label_index[:, batch.input_id]
                tree_time = label_time[batch.input_id]
                sampled += check_link_trees(data, batch, edges, 2 + k, tree_time, time_of_edge)
                seeds = batch.n_id[:batch.batch_size].view(-1, 2 + k)
                if mode == "binary":
                    p = batch.input_id.numel()
                    assert torch.equal(batch.edge_label_time, torch.cat([tree_time, tree_time.repeat_interleave(k)]))
                    assert torch.equal(batch.n_id[batch.edge_label_index[:, :p]], edges)
                    assert torch.equal(batch.edge_label, torch.cat([torch.ones(p), torch.zeros(p * k)]))
                else:
                    assert torch.equal(batch.seed_time, tree_time)
                    assert torch.equal(batch.n_id[batch.dst_neg_index], seeds[:, 2:])
                if attr == "time":  # node-level: no negative later than its edge, as PyG's
                    assert bool((data.time[seeds[:, 2:]] <= tree_time.unsqueeze(1)).all())
            assert sampled > 200
            again = list(LinkNeighborLoader(data, [4, 3], bulk_size=1, **kwargs))
            for a, b in zip(batches, again, strict=True):
                assert torch.equal(a.n_id, b.n_id) and torch.equal(a.edge_index, b.edge_index)
    # disjoint without time: the same trees, untimed.
    for batch in LinkNeighborLoader(data, [4], edge_label_index=label_index, batch_size=45, disjoint=True,
                                    sampler="labor"):
        check_link_trees(data, batch, label_index[:, batch.input_id], 2)
    with pytest.raises(ValueError, match="needs both time_attr .* and edge_label_time"):
        LinkNeighborLoader(data, [2], batch_size=8, time_attr="time")
    with pytest.raises(ValueError, match="needs both time_attr .* and edge_label_time"):
        LinkNeighborLoader(data, [2], batch_size=8, edge_label_time=label_time)
    with pytest.raises(ValueError, match="edge_label_time must be int64 with one time per seed edge \\(90\\)"):
        LinkNeighborLoader(data, [2], edge_label_index=label_index, edge_label_time=label_time[:5], time_attr="time")
    with pytest.raises(ValueError, match="exclude_seed_edges is not supported with disjoint or temporal"):
        LinkNeighborLoader(data, [2], edge_label_index=label_index, edge_label_time=label_time, time_attr="time",
                           exclude_seed_edges=True)
    with pytest.raises(ValueError, match="the ladies sampler cannot sample by time"):
        LinkNeighborLoader(data, [2], edge_label_index=label_index, edge_label_time=label_time, time_attr="time",
                           sampler="ladies")
