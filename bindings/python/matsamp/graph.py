"""matsamp.Graph: a graph the samplers run on."""
import numbers
import operator
import os
import sys
from typing import Dict, NamedTuple, Optional

import torch

from . import _args, _device


class Graph:
    """A graph for matsamp's samplers.

    The adjacency is held by the C++ engine in its CSR form (int64 row pointers,
    int32 column ids, float32 values), converted once when the graph is made, so
    sampling calls never convert it again; the layer-wise samplers' matrices
    (GCN-normalized adjacency and its square) are prepared on first use and kept.

    Make one with :meth:`load` (the C++ readers: ``.npz``, ``.mtx``, ``.msg``
    binary CSR, anything else as an edge list), :meth:`from_csr`,
    :meth:`from_edge_index` or :meth:`from_scipy`. Row ``v`` of the adjacency
    lists the neighbours that vertex ``v`` samples from.

    Attributes:
        features: float tensor ``[num_nodes, f]`` or None.
        edge_features: float tensor ``[num_edges, d]`` or None (only :meth:`load`
            fills it: an OGB folder's ``edge-feat`` or a ``.msg`` file's): row ``e``
            belongs to the adjacency's entry ``e``, i.e. to the edge
            ``(row of e, csr()[1][e])`` in the CSR order of :meth:`csr`.
        labels: int64 tensor ``[num_nodes]`` (-1 = unlabelled) or None.
        edge_ids: for a graph made by :meth:`from_edge_index`, int64
            ``[num_edges]``: the column of ``edge_index`` that adjacency entry
            ``e`` (CSR order) came from, the first one of a repeated edge;
            None otherwise. A sampled edge's PyG ``e_id`` is ``edge_ids`` at its
            position (:func:`matsamp.ops.sample_bulk` with ``edge_positions``).
        splits: the dataset's own vertex sets, ``{"train": ids, "valid": ids,
            "test": ids}`` (int64 ascending), or ``{}``.
        device: where the graph lives and its samplers run: the CPU, or a CUDA
            device (the engine's CUDA backend keeps the adjacency there after the
            first sampling call; features, labels and splits are moved there too).
    """

    def __init__(self, handle, features=None, labels=None, device="cpu", splits=None, edge_ids=None):
        """Internal: use :meth:`load` or a ``from_*`` constructor."""
        self.handle = handle   # torch.classes.matsamp.Graph, what the ops take
        self.device = _device.graph_device(device)
        n = handle.num_vertices()
        if features is not None:
            if not isinstance(features, torch.Tensor) or features.dim() != 2 or features.size(0) != n:
                raise ValueError(f"features must be a tensor of shape [{n}, f], got "
                                 f"{getattr(features, 'shape', type(features).__name__)}")
        if labels is not None:
            if not isinstance(labels, torch.Tensor) or labels.dtype != torch.int64 or labels.shape != (n,):
                raise ValueError(f"labels must be an int64 tensor of shape [{n}], got "
                                 f"{getattr(labels, 'dtype', type(labels).__name__)} "
                                 f"{tuple(getattr(labels, 'shape', ()))}")
        if self.device.type == "cuda":
            handle.place_on_cuda(self.device.index)
        self.features = None if features is None else features.to(self.device)
        self.labels = None if labels is None else labels.to(self.device)
        edge_features = handle.edge_features()   # [0] when the graph has none
        self.edge_features = edge_features.to(self.device) if edge_features.dim() == 2 else None
        self.splits = {name: ids.to(self.device) for name, ids in (splits or {}).items()}
        self.edge_ids = None if edge_ids is None else edge_ids.to(self.device)
        # The node times sampling by time keeps to: the file's (Graph.load) or from_edge_index's node_time.
        vertex_times = handle.vertex_times()
        self.node_time = vertex_times.to(self.device) if vertex_times.numel() else None

    @classmethod
    def load(cls, path, *, labels_path=None, symmetrize=False, drop_self_loops=False,
             largest_component=False, device="cpu", mmap=False):
        """Reads a graph or dataset with the C++ readers, as ``matsamp sample --graph PATH`` does.

        Args:
            path: an OGB dataset folder as downloaded (``ogbn_arxiv/``: its features, node years,
                labels and split come along), ``.npz`` (adjacency, optional features
                and labels, as cora.npz), ``.mtx`` Matrix Market, ``.msg`` matsamp
                binary, or an edge list (SNAP or CSV); text files may be gzip.
            labels_path: optional "vertex label" file (for edge lists).
            symmetrize, drop_self_loops, largest_component: the CLI's cleanup
                options of the same names, applied in that order. Edge features
                follow their edges: the reverse that ``symmetrize`` adds gets
                the row of the edge it reverses.
            device: "cpu", or "cuda" / "cuda:N" to sample on that GPU.
            mmap: for a ``.msg`` file with float32 features: ``features`` is a
                view of a private memory mapping of the file instead of a copy
                (like numpy's ``mmap_mode``; writing to it copies the touched
                pages, never the file). The section is verified once here. The
                file must not shrink while the tensor lives: a lost page is a
                SIGBUS, not an error (README, "guarantees").

        Raises:
            ValueError: ``mmap`` with a file that is not ``.msg``, or with
                ``largest_component`` (which renumbers, so copies, the features).
            RuntimeError: the file cannot be read (the message names file and line or
                field; with ``mmap``, also float16 features, which must be
                converted), or the device cannot be used (the message says why).
        """
        _device.graph_device(device)
        handle = torch.classes.matsamp.Graph.load(
            os.fspath(path), os.fspath(labels_path) if labels_path else "", _args.boolean(symmetrize, "symmetrize"),
            _args.boolean(drop_self_loops, "drop_self_loops"), _args.boolean(largest_component, "largest_component"),
            _args.boolean(mmap, "mmap"))
        features, labels = handle.features(), handle.labels()
        return cls(handle, features if features.numel() else None,
                   labels if labels.numel() else None, device, dict(handle.splits()))

    def save(self, path, *, features_dtype=torch.float32):
        """Writes the graph with its features, edge features, labels, splits and node times
        (``node_time``) as one ``.msg`` file (what ``matsamp convert`` writes; the CLI
        and :meth:`load` read it).
        The file appears whole or not at all.

        Args:
            features_dtype: ``torch.float32``, or ``torch.float16`` to store the
                features in half the bytes (about 3 significant digits; read back
                as float32), as ``matsamp convert --features-dtype float16``.

        Raises:
            ValueError: ``features_dtype`` is neither.
            RuntimeError: the file cannot be written (the message says why), or a
                feature is beyond float16's range.
        """
        if features_dtype not in (torch.float32, torch.float16):
            raise ValueError(f"matsamp.Graph.save: features_dtype must be torch.float32 or torch.float16, "
                             f"got {features_dtype}")
        empty = torch.empty(0)
        self.handle.save(os.fspath(path),
                         empty if self.features is None else self.features.float().cpu(),
                         empty.long() if self.labels is None else self.labels.cpu(),
                         {name: ids.cpu() for name, ids in self.splits.items()},
                         features_dtype == torch.float16,
                         empty.long() if self.node_time is None else self.node_time.cpu())

    @classmethod
    def from_csr(cls, rowptr, col, value=None, *, features=None, labels=None, device="cpu"):
        """A graph from CSR arrays (copied once into the engine).

        Args:
            rowptr: int64 or int32 ``[n + 1]``.
            col: int32 or int64 ``[nnz]``. Columns need not be sorted within a row:
                they are sorted on the way in, and repeated ones merged.
            value: float32 ``[nnz]`` edge weights (non-negative; repeated entries
                are summed), or None for all ones.
            features: optional float tensor ``[n, f]`` (kept, not copied).
            labels: optional int64 ``[n]``.
            device: "cpu", or "cuda" / "cuda:N" to sample on that GPU (the CSR tensors
                may be on any device; they are copied to the engine once).

        rowptr, col and value may be tensors, NumPy arrays or lists.

        Raises:
            TypeError: an argument has the wrong type or dtype.
            ValueError: the CSR is malformed (the message says where).
        """
        _device.graph_device(device)
        rowptr = _array(rowptr, "rowptr", _ID_DTYPES, dim=1).to(torch.int64)
        col = _array(col, "col", _ID_DTYPES, dim=1)
        value = None if value is None else _array(value, "value", (torch.float32,), dim=1)
        n = rowptr.numel() - 1
        if n < 0:
            raise ValueError("rowptr needs n + 1 >= 1 entries, got none")
        nnz = col.numel()
        if rowptr[0] != 0 or rowptr[-1] != nnz:
            raise ValueError(f"rowptr must run from 0 to nnz = {nnz} (len(col)), "
                             f"got {int(rowptr[0])} to {int(rowptr[-1])}")
        if n and bool((rowptr[1:] < rowptr[:-1]).any()):
            row = int((rowptr[1:] < rowptr[:-1]).nonzero()[0])
            raise ValueError(f"rowptr decreases at row {row}: {int(rowptr[row])} > {int(rowptr[row + 1])}")
        if value is not None and value.numel() == 0:
            value = None   # the engine's "all ones"
        if value is not None:
            if value.numel() != nnz:
                raise ValueError(f"value has {value.numel()} entries for {nnz} column ids")
            _check_weights(value, "value")
        if not _sorted_within_rows(rowptr, col):
            _check_column_count(n)
            _check_ids(col, "col", n)
            rows = torch.repeat_interleave(torch.arange(n), rowptr.diff())
            handle, _ = torch.ops.matsamp.graph_from_edge_index(n, rows, col.to(torch.int64), value)
            return cls(handle, features, labels, device)
        return cls._from_sorted_csr(rowptr, col, value, features, labels, device)

    @classmethod
    def from_edge_index(cls, edge_index, num_nodes=None, *, edge_weight=None, features=None,
                        labels=None, device="cpu", edge_time=None, node_time=None, _transposed=False):
        """A graph from a PyG-style edge list: edge ``i`` runs from ``edge_index[0, i]``
        to ``edge_index[1, i]`` and is an entry of the adjacency row of its source, as
        in ``SparseTensor(row=edge_index[0], col=edge_index[1])``.

        The CSR is built by a counting sort in C++ (threaded; no copy of int32 or
        int64 ids), and :attr:`edge_ids` keeps the column of ``edge_index`` each
        adjacency entry came from.

        Args:
            edge_index: int64 or int32 ``[2, E]`` (tensor, NumPy array or list;
                CUDA tensors are read on the host).
            num_nodes: the number of vertices; None for 1 + the largest id (0 without edges).
            edge_weight: float32 ``[E]`` (non-negative), or None for all ones.
                Repeated edges are merged into one, their weights summed.
            features, labels, device: as in :meth:`from_csr`.
            edge_time, node_time: int64 ``[E]`` / ``[num_nodes]`` times for temporal
                sampling (``sample_bulk(..., seed_times=)``): an edge may be drawn
                for a seed of time t when its own time and its neighbour's are at
                most t (PyG's rule). A repeated edge keeps its first occurrence's time.
            _transposed: internal (matsamp.pyg): edge i is an entry of its
                target's row instead, as PyG samples (a vertex draws its sources).

        Raises:
            TypeError: an argument has the wrong type or dtype.
            ValueError: wrong shape, negative ids, ids not below ``num_nodes``, or
                negative weights.
        """
        _device.graph_device(device)
        edges = _array(edge_index, "edge_index", _ID_DTYPES)
        if edges.dim() == 1 and edges.numel() == 0:
            edges = edges.view(2, 0)
        if edges.dim() != 2 or edges.size(0) != 2:
            raise ValueError(f"edge_index must have shape [2, E], got {list(edges.shape)}")
        if num_nodes is None:
            _check_ids(edges, "edge_index", None)
            n = int(edges.max()) + 1 if edges.numel() else 0
        else:
            n = _count(num_nodes, "num_nodes")
            _check_ids(edges, "edge_index", n, bound="num_nodes")
        weight = None
        if edge_weight is not None:
            weight = _array(edge_weight, "edge_weight", (torch.float32,))
            if weight.shape != (edges.size(1),):
                raise ValueError(f"edge_weight must have shape [{edges.size(1)}] (one per edge), "
                                 f"got {list(weight.shape)}")
            _check_weights(weight, "edge_weight")
        _check_column_count(n)
        rows, cols = (edges[1], edges[0]) if _transposed else (edges[0], edges[1])
        handle, edge_ids = torch.ops.matsamp.graph_from_edge_index(n, rows, cols, weight)
        times = _entry_times(handle, edge_ids, edge_time, node_time, edges.size(1), n)
        if times is not None:
            handle.set_entry_times(times)
        graph = cls(handle, features, labels, device, edge_ids=edge_ids)
        graph.node_time = None if node_time is None else node_time.to(graph.device)
        return graph

    @classmethod
    def from_scipy(cls, matrix, *, features=None, labels=None, device="cpu"):
        """A graph from a square scipy.sparse matrix or array (CSR, CSC, COO, ...):
        ``matrix[u, v]`` is the weight of the entry of ``v`` in row ``u``.

        The matrix is converted to CSR with its duplicates summed; stored entries
        (explicit zeros too) become edges, their values float32 weights, which must
        be non-negative. The matrix itself is not modified.

        Args:
            matrix: a scipy.sparse matrix or array of real (or bool) values.
            features, labels, device: as in :meth:`from_csr`.

        Raises:
            TypeError: ``matrix`` is not a scipy.sparse matrix, or holds complex values.
            ValueError: ``matrix`` is not square, or has a negative or non-finite value.
        """
        _device.graph_device(device)
        sparse = sys.modules.get("scipy.sparse")   # loaded by whoever made a scipy matrix
        if sparse is None or not sparse.issparse(matrix):
            raise TypeError(f"matrix must be a scipy.sparse matrix or array, got {_type_name(matrix)}")
        if len(matrix.shape) != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"matrix must be square, got shape {tuple(matrix.shape)}")
        if matrix.dtype.kind not in "biuf":
            raise TypeError(f"matrix must hold real values, got dtype {matrix.dtype}")
        csr = matrix.tocsr()
        if not csr.has_canonical_format:
            if csr is matrix:
                csr = csr.copy()
            csr.sum_duplicates()
        csr.sort_indices()
        rowptr = _array(csr.indptr, "indptr", _ID_DTYPES).to(torch.int64)
        col = _array(csr.indices, "indices", _ID_DTYPES)
        value = _array(csr.data.astype("float32", copy=False), "data", (torch.float32,))
        bad = ~(value.isfinite() & (value >= 0))
        if bool(bad.any()):
            i = int(bad.nonzero()[0])
            row = int(torch.searchsorted(rowptr, i, right=True)) - 1
            raise ValueError(f"matrix[{row}, {int(col[i])}] = {csr.data[i]} is not a finite non-negative weight")
        _check_column_count(matrix.shape[0])
        return cls._from_sorted_csr(rowptr, col, value, features, labels, device)

    @classmethod
    def _from_sorted_csr(cls, rowptr, col, value, features, labels, device):
        """The engine's graph from CPU tensors (columns sorted and unique per row)."""
        value = torch.empty(0, dtype=torch.float32) if value is None else value
        return cls(torch.classes.matsamp.Graph(rowptr, col, value), features, labels, device)

    @property
    def num_nodes(self):
        return self.handle.num_vertices()

    @property
    def num_edges(self):
        """Nonzeros of the adjacency (a symmetrized edge counts twice)."""
        return self.handle.num_edges()

    @property
    def num_classes(self):
        return 0 if self.labels is None else int(self.labels.max()) + 1

    def csr(self):
        """(rowptr int64, col int32, value float32): views of the engine's host arrays
        (on the CPU whatever the graph's device); do not modify."""
        return self.handle.rowptr(), self.handle.col(), self.handle.value()

    def training_nodes(self, fraction, seed=1):
        """The CLI's ``--train-fraction`` choice: a seeded ``fraction`` of all vertices, ascending."""
        if isinstance(fraction, bool) or not isinstance(fraction, numbers.Real):
            raise TypeError(f"fraction must be a number, got {_type_name(fraction)}")
        return self.handle.training_vertices(float(fraction), _args.integer(seed, "seed"))

    def remote_neighbours(self, own_nodes):
        """The neighbours of the nodes ``range(first, end)`` (``own_nodes``, a range or a
        (first, end) pair) outside that range, ascending: what DGS's explanation graph
        joins a partition to, and what :meth:`set_column_importance` weighs."""
        first, end = _own_range(own_nodes, self.num_nodes)
        rowptr, col, _ = self.csr()
        neighbours = col[int(rowptr[first]):int(rowptr[end])].to(torch.int64)
        return torch.unique(neighbours[(neighbours < first) | (neighbours >= end)])

    def set_column_importance(self, nodes, weights, *, own_nodes=None, elsewhere=1.0):
        """DGS's guided draw for the ``"dgs"`` sampler of this graph (its loaders, now
        and later): each neighbour's chance scaled by its importance, kept entries
        weighted by 1 / their chance, so every layer stays an unbiased estimate.

        Args:
            nodes: int64 ids, ascending and distinct (e.g. :meth:`remote_neighbours`).
            weights: float32, one per node, in (0, 1] (e.g. an explainer's node mask).
            own_nodes: None, or a range / (first, end) pair of nodes that weigh 1 ...
            elsewhere: ... while every node neither listed nor own weighs this, in (0, 1].
                Without ``own_nodes``, every unlisted node weighs 1.

        Raises:
            ValueError: ids out of range or not ascending, weights outside (0, 1], a
                bad range, or as many weights as nodes not given.
        """
        first, end = (0, 0) if own_nodes is None else _own_range(own_nodes, self.num_nodes)
        if isinstance(elsewhere, bool) or not isinstance(elsewhere, numbers.Real):
            raise TypeError(f"elsewhere must be a number, got {_type_name(elsewhere)}")
        if own_nodes is None and elsewhere != 1.0:
            raise ValueError("elsewhere: the weight of nodes neither listed nor own needs own_nodes")
        nodes = torch.as_tensor(nodes, dtype=torch.int64).cpu()
        weights = torch.as_tensor(weights, dtype=torch.float32).cpu()
        self.handle.set_column_importance(nodes, weights, first, end, float(elsewhere))

    def __repr__(self):
        f = "none" if self.features is None else self.features.size(1)
        split = "".join(f", {name}={ids.numel()}" for name, ids in sorted(self.splits.items()))
        return (f"matsamp.Graph(num_nodes={self.num_nodes}, num_edges={self.num_edges}, "
                f"features={f}, classes={self.num_classes}{split}, device={self.device})")


class Dataset(NamedTuple):
    """What :func:`load_dataset` returns: the graph and, as the graph holds them,
    its features, labels and splits (None / ``{}`` where the dataset has none),
    and, by name only, its ``edge_features``."""
    graph: Graph
    features: Optional[torch.Tensor]
    labels: Optional[torch.Tensor]
    splits: Dict[str, torch.Tensor]

    @property
    def edge_features(self):
        """float tensor ``[num_edges, d]`` or None: row ``e`` belongs to the CSR's entry ``e``."""
        return self.graph.edge_features


def load_dataset(path, **kwargs):
    """Reads a dataset in any format :meth:`Graph.load` takes (an OGB folder as
    downloaded, ``.msg``, ``.npz``, ...); keyword arguments go to :meth:`Graph.load`
    (``mmap=True`` maps a ``.msg`` file's features instead of copying them).

    >>> graph, features, labels, splits = matsamp.load_dataset("dataset/ogbn_arxiv", symmetrize=True)
    >>> train = splits["train"]
    >>> edge_features = matsamp.load_dataset("dataset/ogbn_proteins").edge_features
    """
    graph = Graph.load(path, **kwargs)
    return Dataset(graph, graph.features, graph.labels, graph.splits)


_ID_DTYPES = (torch.int64, torch.int32)


def _own_range(own_nodes, n):
    if isinstance(own_nodes, range) and own_nodes.step == 1:
        first, end = own_nodes.start, own_nodes.stop
    elif isinstance(own_nodes, (tuple, list)) and len(own_nodes) == 2:
        first, end = (_args.integer(v, "own_nodes") for v in own_nodes)
    else:
        raise TypeError(f"own_nodes must be a range or a (first, end) pair, got {_type_name(own_nodes)}")
    if not 0 <= first <= end <= n:
        raise ValueError(f"own_nodes [{first}, {end}) is not a range of the graph's {n} nodes")
    return first, end


def _type_name(x):
    return f"{type(x).__module__}.{type(x).__name__}" if type(x).__module__ != "builtins" else type(x).__name__


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _entry_times(handle, edge_ids, edge_time, node_time, num_edges, num_nodes):
    """Each adjacency entry's time: its edge's, its column's vertex's, or the later of both."""
    times = None
    if edge_time is not None:
        edge_time = _array(edge_time, "edge_time", (torch.int64,))
        if edge_time.shape != (num_edges,):
            raise ValueError(f"edge_time must have shape [{num_edges}] (one per edge), got {list(edge_time.shape)}")
        times = edge_time[edge_ids]
    if node_time is not None:
        node_time = _array(node_time, "node_time", (torch.int64,))
        if node_time.shape != (num_nodes,):
            raise ValueError(f"node_time must have shape [{num_nodes}] (one per node), got {list(node_time.shape)}")
        by_node = node_time[handle.col().to(torch.int64)]
        times = by_node if times is None else torch.maximum(times, by_node)
    return times


def _array(x, name, dtypes, dim=None):
    """x (a tensor, NumPy array or list) as a CPU tensor of one of ``dtypes``, with
    ``dim`` dimensions if given; a list's numbers become ``dtypes[0]``."""
    expected = " or ".join(_dtype_name(d) for d in dtypes)
    numpy = sys.modules.get("numpy")
    if isinstance(x, torch.Tensor):
        if x.dtype not in dtypes:
            raise TypeError(f"{name} must have dtype {expected}, got {_dtype_name(x.dtype)}")
        t = x.cpu()
    elif numpy is not None and isinstance(x, numpy.ndarray):
        if x.dtype.name not in [_dtype_name(d) for d in dtypes]:
            raise TypeError(f"{name} must have dtype {expected}, got {x.dtype.name} (a NumPy array)")
        x = numpy.ascontiguousarray(x, dtype=x.dtype.newbyteorder("="))
        t = torch.from_numpy(x if x.flags.writeable else x.copy())
    elif isinstance(x, (list, tuple)):
        try:
            t = torch.tensor(x)
        except (TypeError, ValueError, RuntimeError) as e:
            other = _non_number(x)
            if other is not None:
                raise TypeError(f"{name} must hold numbers, got a list holding {other.__name__}") from None
            raise ValueError(f"{name}: cannot make a tensor of the list ({_first_line(e)})") from None
        floating = dtypes[0].is_floating_point
        if t.numel() and (t.dtype == torch.bool or (t.is_floating_point() and not floating)):
            kind = "bools" if t.dtype == torch.bool else "floats"
            raise TypeError(f"{name} must have dtype {expected}, got a list of {kind}")
        t = t.to(dtypes[0])
    else:
        raise TypeError(f"{name} must be a tensor, NumPy array or list, got {_type_name(x)}")
    if dim is not None and t.dim() != dim:
        raise ValueError(f"{name} must be {dim}-D, got shape {list(t.shape)}")
    return t


def _non_number(x):
    """The type of an element of the nested list x that is neither a number nor a list, or None."""
    if isinstance(x, (list, tuple)):
        return next((t for t in map(_non_number, x) if t is not None), None)
    return None if isinstance(x, numbers.Number) else type(x)


def _first_line(error):
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def _count(x, name):
    """A non-negative Python int."""
    if isinstance(x, bool):
        raise TypeError(f"{name} must be an int, got {_type_name(x)}")
    try:
        n = operator.index(x)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {_type_name(x)}") from None
    if n < 0:
        raise ValueError(f"{name} must be non-negative, got {n}")
    return n


def _check_column_count(n):
    if n > 2**31 - 1:
        raise ValueError(f"{n} vertices do not fit 32-bit column ids (limit 2^31 - 1)")


def _index_text(t, flat):
    """"[i]" or "[r, c]": where the flat index ``flat`` of ``t`` is."""
    if t.dim() == 1:
        return f"[{flat}]"
    return f"[{flat // t.size(1)}, {flat % t.size(1)}]"


def _check_ids(ids, name, n, bound=None):
    """A ValueError naming the first id that is negative, or not below n (when n is given;
    ``bound`` names where n came from)."""
    if ids.numel() == 0 or (int(ids.min()) >= 0 and (n is None or int(ids.max()) < n)):
        return   # two reductions; the first bad id is looked for only when there is one
    bad = ids < 0 if n is None else (ids < 0) | (ids >= n)
    if bool(bad.any()):
        i = int(bad.reshape(-1).nonzero()[0])
        v = int(ids.reshape(-1)[i])
        where = f"{name}{_index_text(ids, i)} = {v}"
        if bound is None and n is not None:
            raise ValueError(f"{where} is out of range [0, {n})")
        raise ValueError(f"{where} is negative" if v < 0 else f"{where} is not below {bound} = {n}")


def _check_weights(value, name):
    bad = ~(value.isfinite() & (value >= 0))
    if bool(bad.any()):
        i = int(bad.nonzero()[0])
        raise ValueError(f"{name}[{i}] = {float(value[i])} is not a finite non-negative weight")


def _sorted_within_rows(rowptr, col):
    """Whether each row's columns are strictly increasing (rowptr already checked)."""
    nnz = col.numel()
    if nnz < 2:
        return True
    increasing = col[1:] > col[:-1]
    starts = rowptr[1:-1]
    starts = starts[(starts > 0) & (starts < nnz)]
    increasing[starts - 1] = True   # a row's first entry follows another row
    return bool(increasing.all())
