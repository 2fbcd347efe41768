"""load_dataset(path, mmap=True): a .msg file's float32 features as a view of a
private mapping of the file (seen in /proc/self/maps while the tensor lives),
equal to the copied ones; writes stay in the process; what cannot be mapped is
refused in one line."""
import gc

import pytest
import torch

import matsamp


def _mapped(path):
    with open("/proc/self/maps") as maps:
        return any(line.rstrip().endswith(str(path)) for line in maps)


@pytest.fixture
def msg_file(tmp_path):
    g = torch.Generator().manual_seed(3)
    edges = torch.randint(0, 500, (2, 3000), generator=g)
    graph = matsamp.Graph.from_edge_index(edges, num_nodes=500, features=torch.randn(500, 33, generator=g),
                                          labels=torch.randint(0, 4, (500,), generator=g))
    path = tmp_path / "g.msg"
    graph.save(path)
    return path, graph


def test_mapped_features_equal_the_copied_ones_and_live_as_long_as_the_tensor(msg_file):
    path, graph = msg_file
    copied = matsamp.load_dataset(path)
    assert not _mapped(path)
    data = matsamp.load_dataset(path, mmap=True)
    assert _mapped(path)
    assert torch.equal(data.features, copied.features) and torch.equal(data.features, graph.features)
    assert torch.equal(data.labels, copied.labels)
    assert torch.equal(data.graph.csr()[1], copied.graph.csr()[1])
    rows = data.features[10:20]  # a view keeps the mapping
    del data
    gc.collect()
    assert _mapped(path)
    assert torch.equal(rows, graph.features[10:20])
    del rows
    gc.collect()
    assert not _mapped(path)
    sym = matsamp.Graph.load(path, mmap=True, symmetrize=True)
    assert torch.equal(sym.features, graph.features)


def test_writes_to_mapped_features_never_reach_the_file(msg_file):
    path, graph = msg_file
    before = path.read_bytes()
    data = matsamp.load_dataset(path, mmap=True)
    data.features.mul_(2)
    assert torch.equal(data.features, 2 * graph.features)
    assert path.read_bytes() == before


def test_what_cannot_be_mapped_is_refused(msg_file, tmp_path):
    path, graph = msg_file
    graph.save(tmp_path / "f16.msg", features_dtype=torch.float16)
    with pytest.raises(RuntimeError, match=r"f16\.msg: features are stored as float16, which must be converted"):
        matsamp.load_dataset(tmp_path / "f16.msg", mmap=True)
    (tmp_path / "g.txt").write_text("0 1\n1 2\n")
    with pytest.raises(ValueError, match=r"mmap maps the features of a \.msg file; .*g\.txt is not one"):
        matsamp.load_dataset(tmp_path / "g.txt", mmap=True)
    with pytest.raises(ValueError, match="largest_component renumbers them"):
        matsamp.load_dataset(path, mmap=True, largest_component=True)
    with pytest.raises(TypeError, match="mmap"):
        matsamp.load_dataset(path, mmap="yes")
    bare = matsamp.Graph.from_edge_index(torch.tensor([[0], [1]]))
    bare.save(tmp_path / "bare.msg")
    with pytest.raises(RuntimeError, match=r"bare\.msg: has no features"):
        matsamp.load_dataset(tmp_path / "bare.msg", mmap=True)
