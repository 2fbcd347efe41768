"""matsamp.HeteroGraph and HeteroBulkSampler: typed minibatches in PyG's
HeteroData form, from a generated ogbn-mag-shaped graph, its .msg and
PyG-style edge_index dicts."""
import subprocess

import pytest
import torch

import matsamp


@pytest.fixture(scope="module")
def mag():
    return matsamp.HeteroGraph.generate_mag(1000, classes=4, seed=2)


def global_edges(graph, batch):
    """Every sampled edge of a batch as (edge type, source id, destination id) in global ids."""
    out = set()
    for e, edge_index in batch.edge_index.items():
        src, dst = batch.n_id[e[0]][edge_index[0]], batch.n_id[e[2]][edge_index[1]]
        out |= {(e, int(u), int(v)) for u, v in zip(src, dst)}
    return out


def test_batches_hold_real_typed_edges_and_start_with_their_seeds(mag):
    assert ("paper", "rev_writes", "author") in mag.edge_types
    csr = {}
    for r, e in enumerate(mag.edge_types):
        rowptr, col = mag.handle.relation_csr(r)
        csr[e] = (rowptr, col)
    loader = matsamp.HeteroBulkSampler(mag, "paper", 64, num_neighbors=[4, 3], seed=3, bulk_size=4)
    batches = list(loader)
    assert len(batches) == len(loader) == (len(mag.split("paper", "train")) + 63) // 64
    for batch in batches[:5]:
        assert batch.batch_size == 64 or batch is batches[-1]
        assert set(batch.n_id) == set(mag.node_types)
        seeds = batch.n_id["paper"][:batch.batch_size]
        assert set(seeds.tolist()) <= set(mag.split("paper", "train").tolist())
        edges = global_edges(mag, batch)
        assert edges, "a minibatch samples edges"
        for e, u, v in edges:  # u -> v is an entry (v, u) of the relation's matrix
            rowptr, col = csr[e]
            assert u in col[rowptr[v]:rowptr[v + 1]].tolist(), f"{e}: {u} -> {v} is not an edge"
        # Layer 0 holds only edges into the seeds.
        for e, (edge_index, weight) in batch.layers[0].items():
            assert e[2] == "paper" and int(edge_index[1].max()) < batch.batch_size
            assert torch.all(weight > 0)


def test_hgt_draws_at_most_each_types_budget_over_real_edges(mag):
    csr = {e: mag.handle.relation_csr(r) for r, e in enumerate(mag.edge_types)}
    budgets = {"paper": [30, 20], "author": [40, 20], "institution": [5, 5], "field_of_study": [10, 5]}
    loader = matsamp.HeteroBulkSampler(mag, "paper", 32, num_samples=budgets, seed=4, bulk_size=3)
    assert loader.sampler == "hgt"
    for batch in list(loader)[:4]:
        assert set(batch.n_id["paper"][:batch.batch_size].tolist()) <= set(mag.split("paper", "train").tolist())
        previous = {t: (batch.batch_size if t == "paper" else 0) for t in mag.node_types}
        for layer, sizes in enumerate(batch.layer_sizes):
            for t in mag.node_types:
                assert previous[t] <= sizes[t] <= previous[t] + budgets[t][layer], (t, layer)
            previous = sizes
        edges = global_edges(mag, batch)
        assert edges
        for e, u, v in edges:
            rowptr, col = csr[e]
            assert u in col[rowptr[v]:rowptr[v + 1]].tolist(), f"{e}: {u} -> {v} is not an edge"
        for per_layer in batch.layers:
            for edge_index, weight in per_layer.values():
                sums = torch.zeros(int(edge_index[1].max()) + 1).index_add_(0, edge_index[1], weight)
                assert torch.allclose(sums[sums > 0], torch.ones_like(sums[sums > 0]), atol=1e-5)


def test_bulk_size_changes_nothing(mag):
    def edges(bulk):
        loader = matsamp.HeteroBulkSampler(mag, "paper", 50, num_neighbors={("author", "writes", "paper"): [5, 2],
                                                                           ("paper", "cites", "paper"): [3, 3]},
                                           seed=9, bulk_size=bulk)
        return [(b.n_id["paper"].tolist(), sorted(global_edges(mag, b))) for b in loader]
    assert edges(1) == edges(7)

    def hgt(bulk):
        loader = matsamp.HeteroBulkSampler(mag, "paper", 50, num_samples=[20, 10], seed=9, bulk_size=bulk)
        return [(b.n_id["author"].tolist(), sorted(global_edges(mag, b))) for b in loader]
    assert hgt(1) == hgt(7)


def test_from_edge_index_dict_as_pyg_names_edge_types():
    g = matsamp.HeteroGraph.from_edge_index_dict(
        {"user": 3, "item": 4}, {("user", "buys", "item"): torch.tensor([[0, 0, 1, 2], [1, 3, 3, 0]])})
    assert g.edge_types == [("user", "buys", "item"), ("item", "rev_buys", "user")]
    batch = next(iter(matsamp.HeteroBulkSampler(g, "item", 4, torch.arange(4), num_neighbors=[5], shuffle=False)))
    assert sorted(global_edges(g, batch)) == [(("user", "buys", "item"), u, v) for u, v in
                                              sorted([(2, 0), (0, 1), (0, 3), (1, 3)])]


def test_load_reads_a_converted_msg_as_its_source(tmp_path, cli):
    subprocess.run([str(cli), "convert", "-g", "mag:1000:4", "--graph-seed", "2", "-o", str(tmp_path / "mag.msg")],
                   check=True, capture_output=True)
    stored = matsamp.HeteroGraph.load(tmp_path / "mag.msg")
    source = matsamp.HeteroGraph.generate_mag(1000, classes=4, seed=2)
    assert stored.edge_types == source.edge_types and stored.num_nodes_dict == source.num_nodes_dict
    for r in range(len(source.edge_types)):
        assert all(torch.equal(a, b) for a, b in zip(stored.handle.relation_csr(r), source.handle.relation_csr(r)))
    assert torch.equal(stored.features("paper"), source.features("paper"))
    assert torch.equal(stored.labels("paper"), source.labels("paper"))
    assert torch.equal(stored.split("paper", "valid"), source.split("paper", "valid"))
    with pytest.raises(ValueError, match="not a heterogeneous graph"):
        matsamp.HeteroGraph.load(tmp_path / "missing.msg")


def test_bad_arguments_are_clear_errors(mag):
    with pytest.raises(ValueError, match="unknown vertex type 'venue'"):
        matsamp.HeteroBulkSampler(mag, "venue", 8, num_neighbors=[2])
    with pytest.raises(ValueError, match="unknown edge types"):
        matsamp.HeteroBulkSampler(mag, "paper", 8, num_neighbors={("paper", "reviews", "paper"): [2]})
    with pytest.raises(ValueError, match="edge 0 starts at user 5, outside"):
        matsamp.HeteroGraph.from_edge_index_dict({"user": 3, "item": 4},
                                                 {("user", "buys", "item"): torch.tensor([[5], [0]])})
    with pytest.raises(ValueError, match="unknown node types"):
        matsamp.HeteroBulkSampler(mag, "paper", 8, num_samples={"venue": [2]})
    with pytest.raises(ValueError, match="takes num_samples"):
        matsamp.HeteroBulkSampler(mag, "paper", 8, sampler="hgt", num_neighbors=[2])
    with pytest.raises(ValueError, match="unknown heterogeneous sampler 'ladies'"):
        matsamp.HeteroBulkSampler(mag, "paper", 8, sampler="ladies", num_neighbors=[2])
    with pytest.raises(TypeError, match="matsamp.HeteroGraph"):
        matsamp.HeteroBulkSampler(None, "paper", 8, num_neighbors=[2])


def test_the_rgcn_example_learns_the_papers_classes():
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[2] / "experiments" / "train_rgcn_mag.py"
    spec = importlib.util.spec_from_file_location("train_rgcn_mag", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    scores = example.main(["--papers", "1500", "--epochs", "2", "--batch-size", "128", "--hidden", "32"])
    assert scores["test"] > 0.8  # 8 classes: chance is 0.125
