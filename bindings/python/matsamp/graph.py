"""matsamp.Graph: a graph the samplers run on."""
import os

import torch

from . import _device


class Graph:
    """A graph for matsamp's samplers.

    The adjacency is held by the C++ engine in its CSR form (int64 row pointers,
    int32 column ids, float32 values), converted once when the graph is made, so
    sampling calls never convert it again; the layer-wise samplers' matrices
    (GCN-normalized adjacency and its square) are prepared on first use and kept.

    Make one with :meth:`load` (the C++ readers: ``.npz``, ``.mtx``, ``.msg``
    binary CSR, anything else as an edge list) or :meth:`from_csr`. Row ``v`` of
    the adjacency lists the neighbours that vertex ``v`` samples from.

    Attributes:
        features: float tensor ``[num_nodes, f]`` or None.
        labels: int64 tensor ``[num_nodes]`` (-1 = unlabelled) or None.
        device: where the graph lives and its samplers run: the CPU, or a CUDA
            device (the engine's CUDA backend keeps the adjacency there after the
            first sampling call; features and labels are moved there too).
    """

    def __init__(self, handle, features=None, labels=None, device="cpu"):
        """Internal: use :meth:`load` or :meth:`from_csr`."""
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

    @classmethod
    def load(cls, path, *, labels_path=None, symmetrize=False, drop_self_loops=False,
             largest_component=False, device="cpu"):
        """Reads a graph with the C++ readers, as ``matsamp sample --graph PATH`` does.

        Args:
            path: ``.npz`` (adjacency, optional features and labels, as cora.npz),
                ``.mtx`` Matrix Market, ``.msg`` matsamp binary CSR, or an edge list.
            labels_path: optional "vertex label" file (for edge lists).
            symmetrize, drop_self_loops, largest_component: the CLI's cleanup
                options of the same names, applied in that order.
            device: "cpu", or "cuda" / "cuda:N" to sample on that GPU.

        Raises:
            RuntimeError: the file cannot be read (the message names file and line or
                field), or the device cannot be used (the message says why).
        """
        _device.graph_device(device)
        handle = torch.classes.matsamp.Graph.load(
            os.fspath(path), os.fspath(labels_path) if labels_path else "", symmetrize,
            drop_self_loops, largest_component)
        features, labels = handle.features(), handle.labels()
        return cls(handle, features if features.numel() else None,
                   labels if labels.numel() else None, device)

    @classmethod
    def from_csr(cls, rowptr, col, value=None, *, features=None, labels=None, device="cpu"):
        """A graph from CSR tensors (copied once into the engine).

        Args:
            rowptr: int64 ``[n + 1]``.
            col: int32 or int64 ``[nnz]``, sorted and unique within each row.
            value: float32 ``[nnz]`` edge weights (non-negative), or None for all ones.
            features: optional float tensor ``[n, f]`` (kept, not copied).
            labels: optional int64 ``[n]``.
            device: "cpu", or "cuda" / "cuda:N" to sample on that GPU (the CSR tensors
                may be on any device; they are copied to the engine once).

        Raises:
            TypeError: a tensor has the wrong dtype.
            ValueError: the CSR is malformed (the message says where).
        """
        _device.graph_device(device)
        value = torch.empty(0, dtype=torch.float32) if value is None else value
        handle = torch.classes.matsamp.Graph(*(t.cpu() if isinstance(t, torch.Tensor) else t
                                               for t in (rowptr, col, value)))
        return cls(handle, features, labels, device)

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
        return self.handle.training_vertices(float(fraction), seed)

    def __repr__(self):
        f = "none" if self.features is None else self.features.size(1)
        return (f"matsamp.Graph(num_nodes={self.num_nodes}, num_edges={self.num_edges}, "
                f"features={f}, classes={self.num_classes}, device={self.device})")
