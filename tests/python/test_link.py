"""matsamp.LinkLoader: edge-seeded minibatches for link prediction (torch.ops.matsamp.sample_edges)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest
import torch

import matsamp

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "experiments" / "train_link_cora.py"


@pytest.fixture(scope="module")
def cora(cora_path):
    return matsamp.Graph.load(cora_path, symmetrize=True, drop_self_loops=True)


def upper_edges(graph):
    rowptr, col = graph.csr()[:2]
    row = torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff())
    keep = row < col.to(torch.int64)
    return torch.stack([row[keep], col.to(torch.int64)[keep]])


def global_edges(batch):
    """The (source, target) global id pairs of every layer of a batch."""
    out = set()
    ids = [batch.n_id]
    for adj in batch.adjs:   # input layer first: targets are the first size[1] sources of the layer
        (src, dst), _, (num_src, num_dst) = adj
        sources, targets = ids[-1], ids[-1][:num_dst]
        out.update(zip(targets[dst].tolist(), sources[src].tolist()))
        ids.append(targets)
    return out


def test_batches_hold_their_edges_negatives_and_no_positive_in_the_layers(cora):
    edges = upper_edges(cora)
    loader = matsamp.LinkLoader(cora, edges, 64, sizes=[25, 25], negatives=3, bulk_size=4, seed=5)
    batches = list(loader)
    assert len(batches) == len(loader) == -(-edges.size(1) // 64)
    seen = torch.zeros(edges.size(1), dtype=torch.bool)
    for batch in batches:
        seeds = batch.n_id[:batch.batch_size]
        assert torch.equal(seeds, seeds.unique())            # distinct, ascending
        p = batch.e_id.numel()
        seen[batch.e_id] = True
        pairs = seeds[batch.edge_label_index]
        assert torch.equal(pairs[:, :p], edges[:, batch.e_id])   # the positives, through the index map
        assert torch.equal(batch.edge_label, torch.cat([torch.ones(p), torch.zeros(3 * p)]))
        assert torch.equal(pairs[0, p:], edges[0, batch.e_id].repeat_interleave(3))   # negatives share the source
        assert batch.negative_index.shape == (p, 3)
        sampled = global_edges(batch)
        positives = set(zip(edges[0, batch.e_id].tolist(), edges[1, batch.e_id].tolist()))
        assert not sampled & positives
        assert not sampled & {(v, u) for u, v in positives}
    assert bool(seen.all())


def test_without_exclusion_the_layers_do_hold_positives(cora):
    edges = upper_edges(cora)
    loader = matsamp.LinkLoader(cora, edges, 64, sizes=[25, 25], exclude=False, bulk_size=4, seed=5)
    hits = 0
    for batch in loader:
        positives = set(zip(edges[0, batch.e_id].tolist(), edges[1, batch.e_id].tolist()))
        hits += len(global_edges(batch) & ({(v, u) for u, v in positives} | positives))
    assert hits > 100


def test_batches_do_not_depend_on_the_bulk_size(cora):
    edges = upper_edges(cora)

    def epoch(bulk_size):
        return list(matsamp.LinkLoader(cora, edges, 100, sampler="labor", sizes=[5, 5], negatives=2,
                                       negative_distribution="degree", bulk_size=bulk_size, seed=2))
    one, many = epoch(1), epoch(7)
    assert len(one) == len(many)
    for a, b in zip(one, many):
        assert torch.equal(a.n_id, b.n_id) and torch.equal(a.edge_label_index, b.edge_label_index)
        for x, y in zip(a.adjs, b.adjs):
            assert torch.equal(x.edge_index, y.edge_index) and torch.equal(x.weight, y.weight)


def test_bad_arguments_are_clear_errors(cora):
    with pytest.raises(ValueError, match="cannot mask seed edges"):
        matsamp.LinkLoader(cora, None, 10, sampler="saint")
    with pytest.raises(ValueError, match="int64 \\[2, E\\]"):
        matsamp.LinkLoader(cora, torch.zeros(3, 4, dtype=torch.int64), 10)
    with pytest.raises(ValueError, match="destinations\\[0\\] = 1000000000 is out of range"):
        next(iter(matsamp.LinkLoader(cora, torch.tensor([[0], [10 ** 9]]), 10)))
    with pytest.raises(ValueError, match="negative_distribution"):
        matsamp.LinkLoader(cora, None, 10, negative_distribution="zipf")


def test_the_example_learns_link_prediction_on_cora(cora_path):
    package_root = str(pathlib.Path(matsamp.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, str(EXAMPLE), "--data", str(cora_path), "--epochs", "8"], env=env,
                         check=True, capture_output=True, text=True).stdout
    result = json.loads(out.splitlines()[-1])
    assert result["train_edges"] + result["validation_edges"] + result["test_edges"] == 5278
    assert result["test_auc"] >= 0.8, result   # a random scorer gives 0.5
