"""Datasets from Python: an OGB folder as downloaded (written here, gzip CSV),
read with its features, labels and split; saved as .msg and read back; the same
graph the CLI reads."""
import gzip
import subprocess
import sys

import pytest
import torch

import matsamp


def _write_csv_gz(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt") as f:
        for row in rows:
            f.write(",".join(str(x) for x in row) + "\n")


@pytest.fixture
def ogb_folder(tmp_path):
    """A 40-vertex directed dataset in OGB's CSV layout, vertex 7 labelled NaN."""
    g = torch.Generator().manual_seed(5)
    n, m = 40, 150
    src, dst = torch.randint(0, n, (m,), generator=g), torch.randint(0, n, (m,), generator=g)
    features = torch.randn(n, 6, generator=g)
    labels = torch.randint(0, 3, (n,), generator=g)
    root = tmp_path / "ogbn_tiny"
    raw = root / "raw"
    _write_csv_gz(raw / "edge.csv.gz", zip(src.tolist(), dst.tolist()))
    _write_csv_gz(raw / "num-node-list.csv.gz", [[n]])
    _write_csv_gz(raw / "num-edge-list.csv.gz", [[m]])
    _write_csv_gz(raw / "node-feat.csv.gz", [[repr(x) for x in row] for row in features.tolist()])
    _write_csv_gz(raw / "node-label.csv.gz", [["nan" if v == 7 else labels[v].item()] for v in range(n)])
    split = {"train": list(range(0, 24)), "valid": list(range(24, 32)), "test": list(range(32, 40))}
    for name, ids in split.items():
        _write_csv_gz(root / "split" / "time" / f"{name}.csv.gz", [[v] for v in reversed(ids)])
    return root, src, dst, features, labels, split


def _dense(graph):
    rowptr, col, value = graph.csr()
    a = torch.zeros(graph.num_nodes, graph.num_nodes)
    rows = torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff())
    a[rows, col.long()] = value
    return a


def test_load_dataset_reads_an_ogb_folder(ogb_folder):
    root, src, dst, features, labels, split = ogb_folder
    graph, feats, labs, splits = matsamp.load_dataset(root)
    want = torch.zeros(40, 40)
    want.index_put_((src, dst), torch.ones(len(src)), accumulate=True)
    assert torch.equal(_dense(graph), want)  # directed, repeated edges summed
    assert torch.equal(feats, features)      # repr() round-trips float32 exactly
    want_labels = labels.clone()
    want_labels[7] = -1
    assert torch.equal(labs, want_labels)
    assert sorted(splits) == ["test", "train", "valid"]
    assert splits["train"].tolist() == [v for v in split["train"] if v != 7]  # ascending, NaN-labelled out
    assert splits["test"].tolist() == split["test"]
    assert "train=23" in repr(graph)


def test_save_writes_one_msg_file_the_cli_reads(ogb_folder, tmp_path, cli):
    graph = matsamp.Graph.load(ogb_folder[0], symmetrize=True)
    path = tmp_path / "tiny.msg"
    graph.save(path)
    back = matsamp.Graph.load(path)
    assert torch.equal(_dense(back), _dense(graph))
    assert torch.equal(back.features, graph.features) and torch.equal(back.labels, graph.labels)
    assert {k: v.tolist() for k, v in back.splits.items()} == {k: v.tolist() for k, v in graph.splits.items()}
    info = subprocess.run([str(cli), "info", "-g", str(path)], capture_output=True, text=True, check=True).stdout
    assert '"split":{"test":8,"train":23,"valid":8}' in info

    # Arrays made in Python: a graph from an edge index with a split of our own.
    g = matsamp.Graph.from_edge_index(torch.tensor([[0, 1, 2], [1, 2, 0]]), features=torch.ones(3, 2),
                                      labels=torch.tensor([0, 1, 0]))
    g.splits = {"train": torch.tensor([2, 0])}
    g.save(tmp_path / "mine.msg")
    assert matsamp.Graph.load(tmp_path / "mine.msg").splits["train"].tolist() == [0, 2]


def test_save_stores_features_as_float16_on_request(tmp_path, cli):
    features = torch.linspace(-3, 3, 40).reshape(10, 4)
    g = matsamp.Graph.from_edge_index(torch.tensor([[0, 1, 2], [1, 2, 9]]), features=features)
    g.save(tmp_path / "f32.msg")
    g.save(tmp_path / "f16.msg", features_dtype=torch.float16)
    back = matsamp.Graph.load(tmp_path / "f16.msg").features
    assert back.dtype == torch.float32
    assert torch.equal(back, features.half().float())  # torch's rounding: the nearest half, ties to even
    info = subprocess.run([str(cli), "info", "-g", str(tmp_path / "f16.msg")], capture_output=True, text=True,
                          check=True).stdout
    assert '"feature_dtype":"float16"' in info
    assert (tmp_path / "f16.msg").stat().st_size < (tmp_path / "f32.msg").stat().st_size
    with pytest.raises(ValueError, match="features_dtype must be"):
        g.save(tmp_path / "x.msg", features_dtype=torch.int8)
    g.features[0, 0] = 1e6
    with pytest.raises(RuntimeError, match="beyond float16's range"):
        g.save(tmp_path / "big.msg", features_dtype=torch.float16)


def test_dataset_errors_name_the_file(ogb_folder, tmp_path):
    root = ogb_folder[0]
    _write_csv_gz(root / "raw" / "node-feat.csv.gz", [[1.0, 2.0]])
    with pytest.raises(RuntimeError, match=r"node-feat\.csv\.gz:2: expected 2 feature values|"
                                           r"node-feat\.csv\.gz: 1 feature rows for 40 vertices"):
        matsamp.load_dataset(root)
    (root / "raw" / "edge.csv.gz").unlink()
    with pytest.raises(RuntimeError, match=r"raw/edge\.csv\.gz: missing"):
        matsamp.load_dataset(root)
    g = matsamp.Graph.from_edge_index(torch.tensor([[0], [1]]))
    none = torch.empty(0, dtype=torch.long)
    with pytest.raises(ValueError, match="features must have shape"):
        g.handle.save(str(tmp_path / "x.msg"), torch.ones(5, 2), none, {}, False, none)
    with pytest.raises(ValueError, match="3 vertex times for 2 vertices"):
        g.handle.save(str(tmp_path / "x.msg"), torch.empty(0), none, {}, False, torch.tensor([1, 2, 3]))
    with pytest.raises(RuntimeError, match="cannot"):
        g.save(tmp_path / "no" / "such" / "dir" / "x.msg")


@pytest.fixture
def edge_features(ogb_folder):
    """raw/edge-feat.csv.gz for the fixture's edges: row i = (i, -i / 4), distinct per edge."""
    root, src = ogb_folder[0], ogb_folder[1]
    rows = torch.stack([torch.arange(len(src)).float(), -torch.arange(len(src)).float() / 4], 1)
    _write_csv_gz(root / "raw" / "edge-feat.csv.gz", [[repr(x) for x in row] for row in rows.tolist()])
    return rows


def _expected_edge_rows(graph, src, dst, rows, symmetrized=False):
    """Per CSR entry (r, c): the row of the first listing of edge (r, c), else (when
    symmetrized) of (c, r)."""
    first = {}
    for i, (u, v) in enumerate(zip(src.tolist(), dst.tolist())):
        first.setdefault((u, v), i)
    rowptr, col, _ = graph.csr()
    entry_rows = torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff()).tolist()
    picked = []
    for r, c in zip(entry_rows, col.tolist()):
        picked.append(first[(r, c)] if (r, c) in first or not symmetrized else first[(c, r)])
    return rows[torch.tensor(picked)]


def test_edge_features_follow_their_edges_into_the_csr(ogb_folder, edge_features):
    root, src, dst = ogb_folder[:3]
    data = matsamp.load_dataset(root)
    assert data.edge_features.shape == (data.graph.num_edges, 2)
    assert torch.equal(data.edge_features, _expected_edge_rows(data.graph, src, dst, edge_features))
    sym = matsamp.load_dataset(root, symmetrize=True)
    assert sym.graph.num_edges > data.graph.num_edges
    assert torch.equal(sym.edge_features, _expected_edge_rows(sym.graph, src, dst, edge_features, symmetrized=True))
    graph, features, labels, splits = sym  # still four fields to unpack
    assert graph.edge_features is sym.edge_features
    assert matsamp.Graph.from_edge_index(torch.tensor([[0], [1]])).edge_features is None


def test_edge_features_round_trip_through_msg(ogb_folder, edge_features, tmp_path, cli):
    graph = matsamp.Graph.load(ogb_folder[0], symmetrize=True)
    graph.save(tmp_path / "f32.msg")
    graph.save(tmp_path / "f16.msg", features_dtype=torch.float16)
    for name in ("f32.msg", "f16.msg"):  # every value is exact in float16
        back = matsamp.Graph.load(tmp_path / name)
        assert torch.equal(back.edge_features, graph.edge_features), name
        assert torch.equal(_dense(back), _dense(graph)), name
    info = subprocess.run([str(cli), "info", "-g", str(tmp_path / "f16.msg")], capture_output=True, text=True,
                          check=True).stdout
    assert f'"edge_features":{graph.num_edges},"edge_feature_dim":2' in info
    assert '"edge_feature_dtype":"float16"' in info


def test_broken_edge_features_name_the_file_and_line(ogb_folder, edge_features):
    root = ogb_folder[0]
    _write_csv_gz(root / "raw" / "edge-feat.csv.gz", [[1.0, 2.0], [1.0, "x"]])
    with pytest.raises(RuntimeError, match=r"edge-feat\.csv\.gz:2: feature value 'x' is not a number"):
        matsamp.load_dataset(root)
    _write_csv_gz(root / "raw" / "edge-feat.csv.gz", [[1.0, 2.0]])
    with pytest.raises(RuntimeError, match=r"edge-feat\.csv\.gz: 1 feature rows for 150 edges"):
        matsamp.load_dataset(root)


def test_save_past_the_file_size_limit_is_an_error_that_keeps_the_earlier_file(tmp_path):
    """Graph.save in a process whose file-size limit it passes: a ValueError or
    RuntimeError naming the file (not a SIGXFSZ), the earlier file intact, nothing left beside it."""
    path = tmp_path / "g.msg"
    script = (
        "import resource, sys, torch, matsamp\n"
        "g = matsamp.Graph.from_edge_index(torch.randint(0, 5000, (2, 50000), generator=torch.Generator()"
        ".manual_seed(int(sys.argv[2])), dtype=torch.int64), 5000)\n"
        "if sys.argv[3] == 'limit':\n"
        "    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, resource.RLIM_INFINITY))\n"
        "try:\n"
        "    g.save(sys.argv[1])\n"
        "except (ValueError, RuntimeError) as e:\n"
        "    print(e)\n"
        "    sys.exit(3)\n")
    run = lambda seed, limit: subprocess.run([sys.executable, "-c", script, str(path), str(seed), limit],
                                             capture_output=True, text=True)
    assert run(1, "none").returncode == 0
    earlier = path.read_bytes()
    assert len(earlier) > 64 << 10
    failed = run(2, "limit")
    assert failed.returncode == 3, failed.stderr
    assert f"cannot write {path}: File too large" in failed.stdout
    assert path.read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.msg"]
