"""DGS from Python: a partition's remote neighbours, and a column importance that
steers the "dgs" sampler's draw (its unbiasedness is tested in C++)."""
import pytest
import torch

import matsamp


def own_copy(graph):  # importance belongs to a graph: the shared fixture stays as it is
    rowptr, col, value = graph.csr()
    return matsamp.Graph.from_csr(rowptr.clone(), col.clone().to(torch.int64), value.clone())


def remote_share(layer, first, end):
    kept = layer.vertices[layer.col.to(torch.int64)]
    return ((kept < first) | (kept >= end)).double().mean().item()


def test_remote_neighbours_are_those_outside_the_range(cora):
    rowptr, col, _ = cora.csr()
    first, end = 100, 900
    expected = sorted({int(c) for c in col[int(rowptr[first]):int(rowptr[end])] if not first <= c < end})
    assert cora.remote_neighbours((first, end)).tolist() == expected
    assert cora.remote_neighbours(range(first, end)).tolist() == expected
    assert cora.remote_neighbours((0, cora.num_nodes)).numel() == 0


def test_importance_steers_dgs_layers_away_from_remote_neighbours(cora):
    graph = own_copy(cora)
    first, end = 0, graph.num_nodes // 2
    seeds = torch.arange(first, end)

    def layer():
        return matsamp.ops.sample_bulk(graph, "dgs", seeds, torch.tensor([0, seeds.numel()]), [3], seed=5)[0]

    uniform = layer()
    remote = graph.remote_neighbours((first, end))
    graph.set_column_importance(remote, torch.full((remote.numel(),), 0.05), own_nodes=(first, end), elsewhere=0.05)
    guided = layer()
    # Rows whose neighbours are all remote keep their draw (chances are relative within a row).
    assert remote_share(guided, first, end) < 0.8 * remote_share(uniform, first, end)
    # A remote neighbour kept despite its low chance carries the larger weight 1 / chance.
    kept = guided.vertices[guided.col.to(torch.int64)]
    far = (kept < first) | (kept >= end)
    assert guided.value[far].mean() > guided.value[~far].mean()
    graph.set_column_importance([], [])  # every column 1 again: the uniform draw
    again = layer()
    assert torch.equal(again.col, uniform.col) and torch.equal(again.value, uniform.value)


def test_bad_importance_is_a_clear_error(cora):
    graph = own_copy(cora)
    n = graph.num_nodes
    with pytest.raises(ValueError, match=r"outside \(0, 1\]"):
        graph.set_column_importance([1, 2], [0.5, 1.5])
    with pytest.raises(ValueError, match="not ascending"):
        graph.set_column_importance([2, 1], [0.5, 0.5])
    with pytest.raises(ValueError, match="2 columns but 1 weights"):
        graph.set_column_importance([1, 2], [0.5])
    with pytest.raises(ValueError, match="out of range"):
        graph.set_column_importance([n], [0.5])
    with pytest.raises(ValueError, match="is not a range"):
        graph.set_column_importance([1], [0.5], own_nodes=(5, n + 1))
    with pytest.raises(ValueError, match="needs own_nodes"):
        graph.set_column_importance([1], [0.5], elsewhere=0.5)
    with pytest.raises(TypeError, match="own_nodes must be a range"):
        graph.remote_neighbours(5)
