"""Graph.from_edge_index, Graph.from_scipy and Graph.from_csr: each gives the
adjacency built by hand from its input (whatever the id dtype and container,
the order of columns and repeated entries), samples by it, and rejects malformed
input with a one-line error."""
import numpy as np
import pytest
import torch

import matsamp

Graph = matsamp.Graph


def raises(exception, match, fn):
    with pytest.raises(exception, match=match) as info:
        fn()
    message = str(info.value)
    assert message.strip() and "\n" not in message and "Exception raised from" not in message, message


def dense(graph):
    """The graph's adjacency as a dense float64 matrix, after checking its CSR is canonical."""
    rowptr, col, value = graph.csr()
    n = graph.num_nodes
    assert rowptr.shape == (n + 1,) and rowptr[0] == 0 and rowptr[-1] == col.numel() == value.numel()
    rows = torch.repeat_interleave(torch.arange(n), rowptr.diff())
    key = rows * max(n, 1) + col.long()
    assert bool((key[1:] > key[:-1]).all()), "columns not sorted and unique within rows"
    a = torch.zeros(n, n, dtype=torch.float64)
    a[rows, col.long()] = value.double()
    return a


def reference(n, src, dst, weight=None):
    """A[src, dst]: 1 per (repeated) edge without weights, else the sum of its weights."""
    a = torch.zeros(n, n, dtype=torch.float64)
    for i, (u, v) in enumerate(zip(src, dst)):
        a[u, v] = 1.0 if weight is None else a[u, v] + float(weight[i])
    return a


def assert_adjacency(graph, expected):
    assert graph.num_nodes == expected.size(0)
    assert graph.num_edges == int((expected != 0).sum())
    torch.testing.assert_close(dense(graph), expected.float().double(), rtol=1e-6, atol=0)


def random_edges(seed, n=40, edges=300):
    """Random edges, many repeated, with self loops; weights that float32 sums exactly."""
    rng = np.random.default_rng(seed)
    src, dst = rng.integers(0, n, edges), rng.integers(0, n, edges)
    src[: edges // 4], dst[: edges // 4] = src[-(edges // 4):], dst[-(edges // 4):]   # repeats
    weight = rng.integers(1, 16, edges) / 4.0
    return n, src, dst, weight.astype(np.float32)


# The containers edge ids may come in.
CONTAINERS = {
    "tensor-int64": lambda a: torch.from_numpy(np.asarray(a, dtype=np.int64)),
    "tensor-int32": lambda a: torch.from_numpy(np.asarray(a, dtype=np.int32)),
    "ndarray-int64": lambda a: np.asarray(a, dtype=np.int64),
    "ndarray-int32": lambda a: np.asarray(a, dtype=np.int32),
    "ndarray-readonly-bigendian": lambda a: _readonly(np.asarray(a, dtype=">i8")),
    "list": lambda a: np.asarray(a).tolist(),
}


def _readonly(array):
    array.flags.writeable = False
    return array


def sample_all(graph, seeds):
    """Each seed's neighbours, as GraphSAGE samples them with a fanout above every degree."""
    layer = matsamp.ops.sample_bulk(graph, "graphsage", seeds, torch.tensor([0, seeds.numel()]),
                                    [max(graph.num_nodes, 1)])[0]
    return [sorted(layer.vertices[layer.col[layer.rowptr[i]:layer.rowptr[i + 1]].long()].tolist())
            for i in range(seeds.numel())]


def same_samples(a, b):
    seeds = torch.arange(a.num_nodes)
    offsets = torch.tensor([0, seeds.numel() // 2, seeds.numel()])
    for sampler, sizes in [("graphsage", [3, 2]), ("ladies", [16, 16]), ("saint", [2, 2])]:
        for x, y in zip(matsamp.ops.sample_bulk(a, sampler, seeds, offsets, sizes, seed=7),
                        matsamp.ops.sample_bulk(b, sampler, seeds, offsets, sizes, seed=7)):
            for s, t in zip(x, y):
                assert torch.equal(s, t), sampler
    return True


# ---- from_edge_index -------------------------------------------------------------------------

def test_edge_index_small_by_hand():
    edge_index = torch.tensor([[0, 0, 2, 2, 1, 2],
                               [1, 1, 0, 2, 0, 0]])
    g = Graph.from_edge_index(edge_index)
    assert g.num_nodes == 3 and g.num_edges == 4
    rowptr, col, value = g.csr()
    assert rowptr.tolist() == [0, 1, 2, 4]        # row u holds u's out-edges: A[src, dst]
    assert col.tolist() == [1, 0, 0, 2]
    assert value.tolist() == [1.0, 1.0, 1.0, 1.0]  # repeated edges merged
    assert g.edge_ids.tolist() == [0, 4, 2, 3]     # each entry's column of edge_index, the first of repeats
    weighted = Graph.from_edge_index(edge_index, edge_weight=torch.tensor([1, 2, 3, 4, 5, 6.0]))
    assert weighted.csr()[2].tolist() == [3.0, 5.0, 9.0, 4.0]   # and their weights summed
    assert sample_all(g, torch.tensor([0, 1, 2])) == [[1], [0], [0, 2]]


@pytest.mark.parametrize("container", sorted(CONTAINERS))
@pytest.mark.parametrize("seed", [1, 2])
def test_edge_index_random(container, seed):
    n, src, dst, weight = random_edges(seed)
    edge_index = CONTAINERS[container](np.stack([src, dst]))
    g = Graph.from_edge_index(edge_index, n)
    assert_adjacency(g, reference(n, src, dst))
    assert sample_all(g, torch.arange(n)) == [sorted(set(dst[src == u].tolist())) for u in range(n)]
    weighted = Graph.from_edge_index(edge_index, n, edge_weight=torch.from_numpy(weight))
    assert_adjacency(weighted, reference(n, src, dst, weight))
    assert torch.equal(g.csr()[1], weighted.csr()[1])
    assert_edge_ids(g, src, dst)
    assert torch.equal(weighted.edge_ids, g.edge_ids)


def assert_edge_ids(graph, src, dst):
    """edge_ids[e] is the first column of (src, dst) holding adjacency entry e."""
    rowptr, col, _ = graph.csr()
    rows = torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff())
    first = {}
    for i, edge in enumerate(zip(src.tolist(), dst.tolist())):
        first.setdefault(edge, i)
    assert graph.edge_ids.tolist() == [first[(r, c)] for r, c in zip(rows.tolist(), col.tolist())]


def test_edge_index_weights_as_array_or_list():
    n, src, dst, weight = random_edges(3)
    expected = reference(n, src, dst, weight)
    for w in (weight, weight.tolist()):
        assert_adjacency(Graph.from_edge_index(np.stack([src, dst]), n, edge_weight=w), expected)


def test_edge_index_num_nodes():
    edges = [[0, 3], [3, 1]]
    assert Graph.from_edge_index(edges).num_nodes == 4                # 1 + the largest id
    g = Graph.from_edge_index(edges, num_nodes=6)                    # isolated vertices 4, 5
    assert g.num_nodes == 6 and g.csr()[0].tolist() == [0, 1, 1, 1, 2, 2, 2]
    assert Graph.from_edge_index(edges, np.int64(4)).num_nodes == 4
    assert Graph.from_edge_index(edges, torch.tensor(5)).num_nodes == 5


@pytest.mark.parametrize("empty", [torch.empty(2, 0, dtype=torch.int64), torch.empty(0, dtype=torch.int32),
                                   np.zeros((2, 0), dtype=np.int64), [], [[], []]])
def test_edge_index_empty(empty):
    g = Graph.from_edge_index(empty)
    assert (g.num_nodes, g.num_edges) == (0, 0)
    g = Graph.from_edge_index(empty, 4, edge_weight=torch.empty(0))
    assert (g.num_nodes, g.num_edges) == (4, 0) and g.csr()[0].tolist() == [0] * 5
    assert sample_all(g, torch.arange(4)) == [[]] * 4


def test_edge_index_orientation_is_the_edge_list_readers(tmp_path):
    """An edge list file read by Graph.load gives the same CSR (rows = sources)."""
    n, src, dst, weight = random_edges(4)
    path = tmp_path / "edges.txt"
    path.write_text("".join(f"{u} {v} {w}\n" for u, v, w in zip(src, dst, weight)))
    loaded = Graph.load(path)
    built = Graph.from_edge_index(torch.from_numpy(np.stack([src, dst])), edge_weight=torch.from_numpy(weight))
    for x, y in zip(loaded.csr(), built.csr()):
        assert torch.equal(x, y)
    assert same_samples(loaded, built)


def test_edge_index_features_labels_and_pyg_tensors():
    edge_index = torch.tensor([[0, 1, 2], [1, 2, 0]])
    features, labels = torch.randn(3, 4), torch.tensor([0, 1, -1])
    g = Graph.from_edge_index(edge_index, features=features, labels=labels)
    assert g.features is features and torch.equal(g.labels, labels) and g.num_classes == 2
    # edge_index.flip(0): PyG's flow, where a target aggregates its sources.
    assert sample_all(Graph.from_edge_index(edge_index.flip(0)), torch.tensor([0])) == [[2]]


def test_edge_index_errors():
    ok = [[0, 1], [1, 2]]
    raises(TypeError, "edge_index must have dtype int64 or int32, got float32",
           lambda: Graph.from_edge_index(torch.tensor(ok, dtype=torch.float32)))
    raises(TypeError, r"edge_index must have dtype int64 or int32, got uint8 \(a NumPy array\)",
           lambda: Graph.from_edge_index(np.array(ok, dtype=np.uint8)))
    raises(TypeError, "edge_index must have dtype int64 or int32, got a list of floats",
           lambda: Graph.from_edge_index([[0.0, 1.5], [1.0, 2.0]]))
    raises(TypeError, "edge_index must have dtype int64 or int32, got a list of bools",
           lambda: Graph.from_edge_index([[True], [False]]))
    raises(TypeError, "edge_index must hold numbers, got a list holding str",
           lambda: Graph.from_edge_index([["0"], ["1"]]))
    raises(TypeError, "edge_index must be a tensor, NumPy array or list, got dict",
           lambda: Graph.from_edge_index({0: 1}))
    raises(TypeError, "num_nodes must be an int, got float", lambda: Graph.from_edge_index(ok, 3.0))
    raises(TypeError, "num_nodes must be an int, got bool", lambda: Graph.from_edge_index(ok, True))
    raises(TypeError, "edge_weight must have dtype float32, got float64",
           lambda: Graph.from_edge_index(ok, edge_weight=torch.ones(2, dtype=torch.float64)))
    raises(ValueError, r"edge_index must have shape \[2, E\], got \[3, 2\]",
           lambda: Graph.from_edge_index(torch.zeros(3, 2, dtype=torch.int64)))
    raises(ValueError, r"edge_index must have shape \[2, E\], got \[4\]",
           lambda: Graph.from_edge_index([0, 1, 1, 2]))
    raises(ValueError, "edge_index: cannot make a tensor of the list",
           lambda: Graph.from_edge_index([[0, 1], [1]]))
    raises(ValueError, r"edge_index\[1, 0\] = -2 is negative",
           lambda: Graph.from_edge_index([[0, 1], [-2, 2]]))
    raises(ValueError, r"edge_index\[0, 1\] = -1 is negative",
           lambda: Graph.from_edge_index([[0, -1], [1, 2]], 5))
    raises(ValueError, r"edge_index\[1, 1\] = 2 is not below num_nodes = 2",
           lambda: Graph.from_edge_index(ok, 2))
    raises(ValueError, "num_nodes must be non-negative, got -1", lambda: Graph.from_edge_index([], -1))
    raises(ValueError, r"edge_weight\[1\] = -0.5 is not a finite non-negative weight",
           lambda: Graph.from_edge_index(ok, edge_weight=[1.0, -0.5]))
    raises(ValueError, r"edge_weight\[0\] = inf is not a finite non-negative weight",
           lambda: Graph.from_edge_index(ok, edge_weight=[float("inf"), 1.0]))
    raises(ValueError, r"edge_weight must have shape \[2\] \(one per edge\), got \[3\]",
           lambda: Graph.from_edge_index(ok, edge_weight=torch.ones(3)))
    raises(ValueError, "vertices do not fit 32-bit column ids",
           lambda: Graph.from_edge_index(ok, 2**31))
    raises(ValueError, "features must be a tensor of shape",
           lambda: Graph.from_edge_index(ok, features=torch.zeros(2, 2)))


# ---- from_csr --------------------------------------------------------------------------------

def random_csr(seed, n=30, per_row=12):
    """An unsorted CSR with repeated columns, and the same edges as (src, dst, weight)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, per_row, n)
    counts[3] = 0                                            # an empty row
    rowptr = np.concatenate([[0], np.cumsum(counts)])
    col = rng.integers(0, n, int(rowptr[-1]))
    col[1::5] = col[0::5][: col[1::5].size]                  # repeats, mostly in the same row
    src = np.repeat(np.arange(n), counts)
    weight = (rng.integers(1, 16, col.size) / 4.0).astype(np.float32)
    return n, rowptr, col, src, weight


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_csr_unsorted_with_repeats(container):
    n, rowptr, col, src, weight = random_csr(5)
    as_ids = CONTAINERS[container]
    g = Graph.from_csr(as_ids(rowptr), as_ids(col))
    assert_adjacency(g, reference(n, src, col))
    weighted = Graph.from_csr(as_ids(rowptr), as_ids(col), torch.from_numpy(weight))
    assert_adjacency(weighted, reference(n, src, col, weight))
    assert same_samples(weighted, Graph.from_edge_index(np.stack([src, col]), n, edge_weight=weight))


def test_csr_unsorted_by_hand():
    g = Graph.from_csr([0, 3, 3, 5], [2, 0, 2, 1, 0], [1.0, 2.0, 3.0, 4.0, 5.0])
    rowptr, col, value = g.csr()
    assert rowptr.tolist() == [0, 2, 2, 4]
    assert col.tolist() == [0, 2, 0, 1]
    assert value.tolist() == [2.0, 4.0, 5.0, 4.0]


def test_csr_sorted_is_taken_as_given():
    n, src, dst, weight = random_edges(6)
    base = Graph.from_edge_index(np.stack([src, dst]), n, edge_weight=weight)
    rowptr, col, value = (t.clone() for t in base.csr())
    for c in (col, col.long(), col.numpy(), col.tolist()):
        again = Graph.from_csr(rowptr, c, value)
        for x, y in zip(again.csr(), (rowptr, col, value)):
            assert torch.equal(x, y)
    assert Graph.from_csr(rowptr.int(), col).num_edges == col.numel()
    assert torch.equal(Graph.from_csr(rowptr, col).csr()[2], torch.ones(col.numel()))


def test_csr_empty():
    g = Graph.from_csr([0], [])
    assert (g.num_nodes, g.num_edges) == (0, 0)
    g = Graph.from_csr(torch.zeros(4, dtype=torch.int64), torch.empty(0, dtype=torch.int32))
    assert (g.num_nodes, g.num_edges) == (3, 0)


def test_csr_errors():
    raises(TypeError, "rowptr must have dtype int64 or int32, got float32",
           lambda: Graph.from_csr(torch.tensor([0.0, 1.0]), [0]))
    raises(TypeError, "col must have dtype int64 or int32, got int16",
           lambda: Graph.from_csr([0, 1], torch.tensor([0], dtype=torch.int16)))
    raises(TypeError, "col must be a tensor, NumPy array or list, got str", lambda: Graph.from_csr([0, 1], "0"))
    raises(TypeError, "value must have dtype float32, got float64",
           lambda: Graph.from_csr([0, 1], [0], np.ones(1)))
    raises(ValueError, r"col must be 1-D, got shape \[1, 1\]", lambda: Graph.from_csr([0, 1], [[0]]))
    raises(ValueError, "rowptr needs n \\+ 1 >= 1 entries", lambda: Graph.from_csr([], []))
    raises(ValueError, "rowptr must run from 0 to nnz = 2", lambda: Graph.from_csr([0, 1, 1], [0, 1]))
    raises(ValueError, "rowptr must run from 0 to nnz = 1", lambda: Graph.from_csr([1, 1], [0]))
    raises(ValueError, "rowptr decreases at row 1: 2 > 1", lambda: Graph.from_csr([0, 2, 1, 2], [0, 1]))
    for col in ([1, 3], [3, 1]):   # sorted (checked by the engine) and unsorted
        raises(ValueError, r"col\[\d\] = 3 is out of range \[0, 2\)", lambda: Graph.from_csr([0, 2, 2], col))
    raises(ValueError, r"col\[1\] = -1 is out of range \[0, 2\)", lambda: Graph.from_csr([0, 2, 2], [1, -1]))
    raises(ValueError, r"col\[0\] = -1 is out of range \[0, 2\)", lambda: Graph.from_csr([0, 2, 2], [-1, 1]))
    raises(ValueError, "value has 1 entries for 2 column ids", lambda: Graph.from_csr([0, 2, 2], [1, 0], [1.0]))
    raises(ValueError, r"value\[1\] = -1.0 is not a finite non-negative weight",
           lambda: Graph.from_csr([0, 2, 2], [1, 0], [1.0, -1.0]))
    raises(ValueError, r"value\[0\] = nan is not a finite non-negative weight",
           lambda: Graph.from_csr([0, 2, 2], [0, 1], [float("nan"), 1.0]))


# ---- from_scipy ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sparse():
    return pytest.importorskip("scipy.sparse", reason="scipy is not installed (Debian: python3-scipy)")


@pytest.mark.parametrize("fmt", ["coo_matrix", "csr_matrix", "csc_matrix", "lil_matrix", "dok_matrix",
                                 "bsr_matrix", "coo_array", "csr_array", "csc_array"])
def test_scipy_formats(sparse, fmt):
    n, src, dst, weight = random_edges(7)
    coo = sparse.coo_matrix((weight.astype(np.float64), (src, dst)), shape=(n, n))   # repeats summed
    matrix = getattr(sparse, fmt)(coo)
    g = Graph.from_scipy(matrix)
    assert_adjacency(g, reference(n, src, dst, weight))
    assert same_samples(g, Graph.from_edge_index(np.stack([src, dst]), n, edge_weight=weight))


def test_scipy_unsorted_repeated_csr_is_not_modified(sparse):
    data, indices, indptr = np.array([1.0, 2.0, 3.0, 4.0]), np.array([2, 0, 2, 1]), np.array([0, 3, 3, 4])
    matrix = sparse.csr_matrix((data, indices, indptr), shape=(3, 3))
    rowptr, col, value = Graph.from_scipy(matrix).csr()
    assert (rowptr.tolist(), col.tolist(), value.tolist()) == ([0, 2, 2, 3], [0, 2, 1], [2.0, 4.0, 4.0])
    assert matrix.indices.tolist() == [2, 0, 2, 1] and matrix.data.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_scipy_values(sparse):
    pattern = sparse.csr_matrix(np.array([[0, 1], [1, 1]], dtype=bool))
    assert Graph.from_scipy(pattern).csr()[2].tolist() == [1.0, 1.0, 1.0]
    ints = sparse.csr_matrix(np.array([[0, 3], [2, 0]], dtype=np.int32))
    assert Graph.from_scipy(ints).csr()[2].tolist() == [3.0, 2.0]
    zero = sparse.csr_matrix((np.array([0.0]), np.array([1]), np.array([0, 1, 1])), shape=(2, 2))
    assert Graph.from_scipy(zero).num_edges == 1          # a stored zero stays an edge


def test_scipy_empty_and_extras(sparse):
    assert Graph.from_scipy(sparse.csr_matrix((0, 0))).num_nodes == 0
    g = Graph.from_scipy(sparse.coo_matrix((5, 5)), features=torch.ones(5, 2), labels=torch.arange(5))
    assert (g.num_nodes, g.num_edges, g.num_classes) == (5, 0, 5)


def test_scipy_errors(sparse):
    raises(TypeError, "matrix must be a scipy.sparse matrix or array, got numpy.ndarray",
           lambda: Graph.from_scipy(np.eye(3)))
    raises(TypeError, "matrix must be a scipy.sparse matrix or array, got torch.Tensor",
           lambda: Graph.from_scipy(torch.eye(3).to_sparse()))
    raises(TypeError, "matrix must hold real values, got dtype complex128",
           lambda: Graph.from_scipy(sparse.csr_matrix(np.eye(2) * 1j)))
    raises(ValueError, r"matrix must be square, got shape \(2, 3\)",
           lambda: Graph.from_scipy(sparse.csr_matrix((2, 3))))
    raises(ValueError, r"matrix\[1, 0\] = -2.0 is not a finite non-negative weight",
           lambda: Graph.from_scipy(sparse.csr_matrix(np.array([[0.0, 1.0], [-2.0, 0.0]]))))
    raises(ValueError, "features must be a tensor of shape",
           lambda: Graph.from_scipy(sparse.eye(3, format="csr"), features=torch.zeros(2, 2)))


def test_scipy_is_not_imported_by_matsamp():
    import subprocess
    import sys
    code = "import sys, matsamp; print('scipy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"
