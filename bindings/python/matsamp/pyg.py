"""matsamp.pyg: PyG's ``NeighborLoader`` on matsamp's samplers.

A PyG training script switches by changing its import::

    from matsamp.pyg import NeighborLoader      # was: from torch_geometric.loader import NeighborLoader

    loader = NeighborLoader(data, num_neighbors=[15, 10], batch_size=1024,
                            input_nodes=data.train_mask, shuffle=True)
    for batch in loader:
        out = model(batch.x, batch.edge_index)[:batch.batch_size]
        loss = F.cross_entropy(out, batch.y[:batch.batch_size])

Batches carry PyG's fields with PyG's meaning: ``n_id`` (global ids, the seeds
first and in order, then each hop's new vertices), ``e_id`` (columns of
``data.edge_index``), ``edge_index`` (local ids, source to target, hop by hop),
``batch_size``, ``input_id``, ``num_sampled_nodes``, ``num_sampled_edges``, and
every node- and edge-level attribute of ``data`` cut to the batch. They are
``torch_geometric.data.Data`` objects when PyG can be imported, otherwise
:class:`Batch` objects with the same fields.
"""
import torch

from .graph import Graph
from .loader import DEFAULT_MEMORY_BUDGET, BulkSampler

_NODE_WISE = ("graphsage", "labor")
_IGNORED_LOADER_ARGS = ("num_workers", "persistent_workers", "pin_memory", "prefetch_factor",
                        "filter_per_worker", "drop_last", "timeout", "worker_init_fn")


class Batch:
    """A sampled subgraph with PyG's fields, when PyG is not installed."""

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def keys(self):
        return list(self.__dict__)

    def __getitem__(self, key):
        return self.__dict__[key]

    def to(self, device):
        return Batch(**{k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in self.__dict__.items()})

    def __repr__(self):
        parts = (f"{k}={list(v.shape) if isinstance(v, torch.Tensor) else v}" for k, v in self.__dict__.items())
        return f"Batch({', '.join(parts)})"


class NeighborLoader:
    """PyG's ``NeighborLoader`` (homogeneous graphs), sampled by matsamp in bulk.

    Args:
        data: a ``torch_geometric.data.Data``, or any object with ``edge_index``
            (``[2, E]``, source to target) and ``num_nodes``; node attributes
            (``x``, ``y``, masks, ...) and edge attributes are cut to each batch.
        num_neighbors: neighbours per vertex per hop, first hop first; -1 takes
            all. For ``sampler="ladies"`` / ``"fastgcn"``: vertices per hop;
            for the GraphSAINT samplers: as ``matsamp.BulkSampler``'s ``sizes``.
        input_nodes: seed vertices: int64 ids, a bool mask, or None for all.
        batch_size: seeds per batch (the last batch may be smaller).
        shuffle: draw the seeds in a new random order each epoch.
        replace, directed, disjoint, subgraph_type: PyG's; matsamp samples
            without replacement the directed, non-disjoint subgraph (PyG's
            defaults). Other values raise ``ValueError``.
        sampler: any matsamp sampler (``matsamp.ops.SAMPLERS``): "graphsage"
            (PyG's sampling: a target samples its sources, uniformly without
            replacement), "labor", "ladies", "fastgcn", "saint", ... . With the
            node-wise samplers each hop expands only the previous hop's new
            vertices, as PyG's does; with the others a hop keeps every edge of
            its sampled layer that is an edge of ``data`` (the self-loops their
            normalized adjacency adds are left to the model, as GCNConv adds them).
        bulk_size, memory_budget: minibatches sampled per call, as in
            :class:`matsamp.BulkSampler`.
        seed: sampling seed; None draws one from torch's generator (so
            ``torch.manual_seed`` fixes the batches, as with PyG).
        device: where batches go (default: the CPU).
        num_workers, persistent_workers, pin_memory, ...: accepted for PyG
            scripts and unused (matsamp samples many batches per call on its
            own threads).
    """

    def __init__(self, data, num_neighbors, input_nodes=None, *, batch_size=1, shuffle=False, replace=False,
                 directed=True, disjoint=False, subgraph_type="directional", sampler="graphsage", bulk_size=None,
                 memory_budget=DEFAULT_MEMORY_BUDGET, seed=None, device=None, transform=None, **loader_args):
        unknown = sorted(set(loader_args) - set(_IGNORED_LOADER_ARGS))
        if unknown:
            raise TypeError(f"NeighborLoader got unexpected argument(s) {', '.join(unknown)}")
        if isinstance(num_neighbors, dict):
            raise ValueError("num_neighbors as a dict (heterogeneous graphs) is not supported yet; "
                             "pass a list for a homogeneous graph")
        if replace:
            raise ValueError("replace=True is not supported: matsamp samples neighbours without replacement")
        if not directed or subgraph_type not in ("directional",):
            raise ValueError("only the directional subgraph is supported (directed=True, "
                             "subgraph_type='directional'); induced subgraphs are not")
        if disjoint:
            raise ValueError("disjoint=True is not supported: seeds of a batch share their sampled vertices")
        edge_index = getattr(data, "edge_index", None)
        if not isinstance(edge_index, torch.Tensor):
            raise TypeError(f"data must have an edge_index tensor, got {type(data).__name__}")
        num_nodes = int(data.num_nodes)
        self.data = data
        self.transform = transform
        self.sampler = sampler
        self.device = torch.device("cpu") if device is None else torch.device(device)
        # Vertex v samples its sources: row v of the adjacency lists u for every edge u -> v.
        self.graph = Graph.from_edge_index(edge_index.flip(0), num_nodes)
        self._edge_keys, self._edge_ids = _edge_lookup(edge_index, num_nodes)
        self._input_nodes = input_nodes
        if seed is None:
            seed = int(torch.randint(0, 1 << 62, ()))
        self._sampler = BulkSampler(self.graph, batch_size, _as_ids(input_nodes, num_nodes), sampler=sampler,
                                    sizes=list(num_neighbors), bulk_size=bulk_size, memory_budget=memory_budget,
                                    shuffle=shuffle, seed=seed, device="cpu")
        self._input_position = _positions(self._sampler.nodes, num_nodes)

    def __len__(self):
        return len(self._sampler)

    def __iter__(self):
        for mb in self._sampler:
            batch = self._batch(mb)
            yield self.transform(batch) if self.transform is not None else batch

    def _batch(self, mb):
        n_id = mb.layer_ids[0]
        hops = list(reversed(mb.adjs))            # hop 1 (into the seeds) first
        targets = list(reversed(mb.layer_ids))   # targets[h] are hop h + 1's targets
        edges, num_edges = [], []
        for h, adj in enumerate(hops):
            edge_index = adj.edge_index
            if self.sampler in _NODE_WISE and h > 0:  # only the previous hop's new vertices expand
                edge_index = edge_index[:, edge_index[1] >= targets[h - 1].numel()]
            edges.append(edge_index)
            num_edges.append(edge_index.size(1))
        edge_index = torch.cat(edges, dim=1)
        sizes = [t.numel() for t in targets]
        num_nodes = [sizes[0]] + [b - a for a, b in zip(sizes, sizes[1:])]
        e_id, found = self._edge_id(n_id, edge_index)
        if not bool(found.all()):  # self-loops of Â (layer-wise, GraphSAINT): left to the model, as GCNConv adds them
            hop = torch.repeat_interleave(torch.arange(len(num_edges)), torch.tensor(num_edges))
            num_edges = torch.bincount(hop[found], minlength=len(num_edges)).tolist()
            edge_index, e_id = edge_index[:, found], e_id[found]
        fields = dict(edge_index=edge_index, n_id=n_id, e_id=e_id, batch_size=mb.batch_size,
                      input_id=self._input_position[n_id[:mb.batch_size]],
                      num_sampled_nodes=num_nodes, num_sampled_edges=num_edges)
        return _make_batch(self.data, fields, n_id, e_id).to(self.device)


    def _edge_id(self, n_id, edge_index):
        """The column of data.edge_index of each sampled edge, and whether it has one."""
        keys = n_id[edge_index[1]] * self.graph.num_nodes + n_id[edge_index[0]]
        if self._edge_keys.numel() == 0:  # no edges: nothing sampled is one
            return keys, torch.zeros_like(keys, dtype=torch.bool)
        at = torch.searchsorted(self._edge_keys, keys).clamp(max=self._edge_keys.numel() - 1)
        return self._edge_ids[at], self._edge_keys[at] == keys


def _as_ids(nodes, num_nodes):
    if nodes is None or not isinstance(nodes, torch.Tensor) or nodes.dtype != torch.bool:
        return nodes
    if nodes.shape != (num_nodes,):
        raise ValueError(f"input_nodes: a bool mask needs shape [{num_nodes}], got {tuple(nodes.shape)}")
    return nodes.nonzero().flatten()


def _positions(nodes, num_nodes):
    """Index into input_nodes of each vertex (its first occurrence); -1 for others."""
    position = torch.full((num_nodes,), -1, dtype=torch.int64)
    position[nodes.flip(0)] = torch.arange(nodes.numel() - 1, -1, -1, dtype=torch.int64)
    return position


def _edge_lookup(edge_index, num_nodes):
    """Sorted keys target * n + source of the distinct edges, and for each the
    first column of edge_index that holds it: the e_id of a sampled edge."""
    keys = edge_index[1].to(torch.int64) * num_nodes + edge_index[0].to(torch.int64)
    keys, order = torch.sort(keys, stable=True)
    first = torch.ones_like(keys, dtype=torch.bool)
    first[1:] = keys[1:] != keys[:-1]
    return keys[first], order[first]


def _make_batch(data, fields, n_id, e_id):
    """The batch as a PyG Data (when PyG imports) with data's attributes cut to it."""
    try:
        from torch_geometric.data import Data
    except ImportError:
        Data = None
    is_pyg = Data is not None and isinstance(data, Data)
    num_edges = data.edge_index.size(1)

    def per(value, count):
        return isinstance(value, torch.Tensor) and value.dim() > 0 and value.size(0) == count

    attributes = {}
    for key in (data.keys() if is_pyg else vars(data)):
        if key in ("edge_index", "num_nodes") or key in fields:
            continue
        value = data[key] if is_pyg else getattr(data, key)
        if data.is_node_attr(key) if is_pyg else per(value, data.num_nodes):
            value = value[n_id]
        elif data.is_edge_attr(key) if is_pyg else per(value, num_edges):
            value = value[e_id]
        attributes[key] = value
    if Data is None:
        return Batch(**attributes, **fields, num_nodes=n_id.numel())
    batch = Data(**attributes, **fields)
    batch.num_nodes = n_id.numel()
    return batch
