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


def _write_csv_gz(path, rows):
    import gzip
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt") as f:
        for row in rows:
            f.write(",".join(str(x) for x in row) + "\n")


@pytest.mark.parametrize("layout", ["collab", "citation2"])
def test_the_cli_trains_on_an_ogb_link_split_saved_by_torch(tmp_path, cli, layout):
    """OGB's split/<scheme>/*.pt as Python's torch.save writes them, read by `matsamp train --task link`."""
    g = torch.Generator().manual_seed(3)
    n, k = 120, 4
    edges = torch.randint(0, n, (2, 600), generator=g)
    edges = edges[:, edges[0] != edges[1]]
    train, valid, test = edges[:, :500], edges[:, 500:540], edges[:, 540:580]
    root = tmp_path / f"ogbl_{layout}"
    raw = root / "raw"
    _write_csv_gz(raw / "edge.csv.gz", train.t().tolist())  # the graph: training edges only
    _write_csv_gz(raw / "num-node-list.csv.gz", [[n]])
    _write_csv_gz(raw / "num-edge-list.csv.gz", [[train.shape[1]]])
    _write_csv_gz(raw / "node-feat.csv.gz", torch.randn(n, 8, generator=g).tolist())
    split = root / "split" / layout
    split.mkdir(parents=True)
    for name, positives in [("train", train), ("valid", valid), ("test", test)]:
        if layout == "collab":
            entry = {"edge": positives.t().contiguous(), "weight": torch.ones(positives.shape[1])}
            if name != "train":
                entry["edge_neg"] = torch.randint(0, n, (100, 2), generator=g)
        else:
            entry = {"source_node": positives[0].clone(), "target_node": positives[1].clone()}
            if name != "train":
                entry["target_node_neg"] = torch.randint(0, n, (positives.shape[1], k), generator=g)
        torch.save(entry, split / f"{name}.pt")
    run = subprocess.run([str(cli), "train", "--task", "link", "-g", str(root), "--epochs", "2", "--hidden", "8",
                          "-b", "128", "--torch-threads", "1"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "the dataset's own split" in run.stderr
    assert "500 train, 40 validation, 40 test edges" in run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert 0 <= summary["test"]["auc"] <= 1
    assert ("mrr" in summary["test"]) == (layout == "citation2")
