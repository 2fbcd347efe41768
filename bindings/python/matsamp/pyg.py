"""matsamp.pyg: PyG's ``NeighborLoader`` and ``LinkNeighborLoader`` on matsamp's samplers.

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
from .link_loader import LinkLoader
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
            ``input_id`` is, as in PyG, a seed's position in the ids given,
            or its own id for a mask or None.
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
        _check_pyg_options(loader_args, num_neighbors, replace, directed, disjoint, subgraph_type)
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
        self._edges = _SampledEdges(edge_index, num_nodes, sampler)
        seeds, self._input_position = _seeds(input_nodes, num_nodes)
        if seed is None:
            seed = int(torch.randint(0, 1 << 62, ()))
        self._sampler = BulkSampler(self.graph, batch_size, seeds, sampler=sampler,
                                    sizes=list(num_neighbors), bulk_size=bulk_size, memory_budget=memory_budget,
                                    shuffle=shuffle, seed=seed, device="cpu")

    def __len__(self):
        return len(self._sampler)

    def __iter__(self):
        for mb in self._sampler:
            batch = self._batch(mb)
            yield self.transform(batch) if self.transform is not None else batch

    def _batch(self, mb):
        fields = self._edges.subgraph(mb.layer_ids, mb.adjs)
        n_id = fields["n_id"]
        fields.update(batch_size=mb.batch_size, input_id=_input_id(self._input_position, n_id[:mb.batch_size]))
        return _make_batch(self.data, fields, n_id, fields["e_id"]).to(self.device)


class _SampledEdges:
    """PyG's edge fields of a sampled minibatch: hop by hop edge_index in local
    ids, e_id into data.edge_index, num_sampled_nodes / num_sampled_edges."""

    def __init__(self, edge_index, num_nodes, sampler):
        self.num_nodes = num_nodes
        self.node_wise = sampler in _NODE_WISE
        self.keys, self.ids = _edge_lookup(edge_index, num_nodes)

    def subgraph(self, layer_ids, adjs):
        n_id = layer_ids[0]
        hops = list(reversed(adjs))               # hop 1 (into the seeds) first
        targets = list(reversed(layer_ids))      # targets[h] are hop h + 1's targets
        edges, num_edges = [], []
        for h, adj in enumerate(hops):
            edge_index = adj.edge_index
            if self.node_wise and h > 0:  # only the previous hop's new vertices expand
                edge_index = edge_index[:, edge_index[1] >= targets[h - 1].numel()]
            edges.append(edge_index)
            num_edges.append(edge_index.size(1))
        edge_index = torch.cat(edges, dim=1)
        sizes = [t.numel() for t in targets]
        num_nodes = [sizes[0]] + [b - a for a, b in zip(sizes, sizes[1:])]
        e_id, found = self.edge_id(n_id, edge_index)
        if not bool(found.all()):  # self-loops of Â (layer-wise, GraphSAINT): left to the model, as GCNConv adds them
            hop = torch.repeat_interleave(torch.arange(len(num_edges)), torch.tensor(num_edges))
            num_edges = torch.bincount(hop[found], minlength=len(num_edges)).tolist()
            edge_index, e_id = edge_index[:, found], e_id[found]
        return dict(edge_index=edge_index, n_id=n_id, e_id=e_id, num_sampled_nodes=num_nodes,
                    num_sampled_edges=num_edges)

    def edge_id(self, n_id, edge_index):
        """The column of data.edge_index of each sampled edge, and whether it has one."""
        keys = n_id[edge_index[1]] * self.num_nodes + n_id[edge_index[0]]
        if self.keys.numel() == 0:  # no edges: nothing sampled is one
            return keys, torch.zeros_like(keys, dtype=torch.bool)
        at = torch.searchsorted(self.keys, keys).clamp(max=self.keys.numel() - 1)
        return self.ids[at], self.keys[at] == keys


def _check_pyg_options(loader_args, num_neighbors, replace, directed, disjoint, subgraph_type):
    """PyG's loader options that matsamp does not sample: a clear error each."""
    unknown = sorted(set(loader_args) - set(_IGNORED_LOADER_ARGS))
    if unknown:
        raise TypeError(f"unexpected argument(s) {', '.join(unknown)}")
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


def _seeds(nodes, num_nodes):
    """PyG's input_nodes as (seed ids, input_id of each vertex or None). As in
    PyG, input_id is the position in an index tensor, and the vertex's own id
    when input_nodes is a mask or None (all vertices)."""
    if nodes is None:
        return torch.arange(num_nodes), None
    if isinstance(nodes, torch.Tensor) and nodes.dtype == torch.bool:
        if nodes.shape != (num_nodes,):
            raise ValueError(f"input_nodes: a bool mask needs shape [{num_nodes}], got {tuple(nodes.shape)}")
        return nodes.nonzero().flatten(), None
    nodes = torch.as_tensor(nodes, dtype=torch.int64).flatten()
    if nodes.numel() and (int(nodes.min()) < 0 or int(nodes.max()) >= num_nodes):
        raise ValueError(f"input_nodes: ids must lie in [0, {num_nodes}), got {int(nodes.min())}..{int(nodes.max())}")
    return nodes, _positions(nodes, num_nodes)


def _input_id(position, seeds):
    return seeds if position is None else position[seeds]


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


class LinkNeighborLoader:
    """PyG's ``LinkNeighborLoader`` (homogeneous graphs), sampled by matsamp in bulk.

    Args:
        data: a ``torch_geometric.data.Data`` (or an object with ``edge_index``
            and ``num_nodes``), the graph messages pass along.
        num_neighbors: neighbours per vertex per hop, first hop first.
        edge_label_index: int64 ``[2, P]`` seed edges (default: ``data.edge_index``).
        edge_label: labels of the seed edges (default: ones). With binary
            negative sampling the positives' labels are shifted by one and the
            negatives get 0, as PyG does.
        neg_sampling: ``"binary"`` / ``"triplet"``, a dict ``{"mode": ..., "amount": k}``
            or PyG's ``NegativeSampling``; ``neg_sampling_ratio=k`` is binary with k.
            k must be a whole number: k negative destinations per positive,
            uniform over the vertices (``{"weight": ...}`` is not supported;
            matsamp's ``negative_distribution="degree"`` draws ∝ degree^0.75).
        exclude_seed_edges: mask each batch's seed edges (both ways) out of its
            sampled edges so that a model cannot read the answer; False (PyG's
            behaviour) keeps them.
        batch_size, shuffle, replace, directed, disjoint, subgraph_type, sampler,
        bulk_size, seed, device, transform, num_workers, ...: as for
        :class:`NeighborLoader` (samplers that can mask edges: graphsage,
        labor, ladies, fastgcn).

    Batches hold PyG's fields: ``n_id`` (the seed edges' endpoints and
    negatives first), ``e_id``, ``edge_index``, ``num_sampled_nodes``,
    ``num_sampled_edges``, node and edge attributes cut to the batch,
    ``input_id`` (indices of the batch's seed edges into ``edge_label_index``),
    and per mode: binary, ``edge_label_index`` (local ids; positives, then
    negatives) and ``edge_label``; triplet, ``src_index``, ``dst_pos_index``
    and ``dst_neg_index`` (``[P, k]``).
    """

    def __init__(self, data, num_neighbors, edge_label_index=None, edge_label=None, edge_label_time=None, *,
                 neg_sampling=None, neg_sampling_ratio=None, batch_size=1, shuffle=False, replace=False,
                 directed=True, disjoint=False, subgraph_type="directional", sampler="graphsage",
                 negative_distribution="uniform", exclude_seed_edges=False, bulk_size=16, seed=None,
                 device=None, transform=None, **loader_args):
        _check_pyg_options(loader_args, num_neighbors, replace, directed, disjoint, subgraph_type)
        if edge_label_time is not None:
            raise ValueError("edge_label_time (temporal sampling) is not supported")
        edge_index = getattr(data, "edge_index", None)
        if not isinstance(edge_index, torch.Tensor):
            raise TypeError(f"data must have an edge_index tensor, got {type(data).__name__}")
        num_nodes = int(data.num_nodes)
        self.data, self.transform = data, transform
        self.mode, amount = _negative_sampling(neg_sampling, neg_sampling_ratio)
        self.device = torch.device("cpu") if device is None else torch.device(device)
        self.edge_label_index = edge_index if edge_label_index is None else edge_label_index
        self.edge_label = edge_label
        if self.mode == "triplet" and edge_label is not None:
            raise ValueError("edge_label cannot be given with triplet negative sampling (as in PyG)")
        # Vertex v samples its sources: row v of the adjacency lists u for every edge u -> v.
        graph = Graph.from_edge_index(edge_index.flip(0), num_nodes)
        self._edges = _SampledEdges(edge_index, num_nodes, sampler)
        if seed is None:
            seed = int(torch.randint(0, 1 << 62, ()))
        self._loader = LinkLoader(graph, self.edge_label_index.to(torch.int64).cpu(), batch_size, sampler=sampler,
                                  sizes=list(num_neighbors), negatives=amount,
                                  negative_distribution=negative_distribution, exclude=bool(exclude_seed_edges),
                                  exclude_reverse=True, bulk_size=bulk_size, shuffle=shuffle, seed=seed)

    def __len__(self):
        return len(self._loader)

    def __iter__(self):
        for lb in self._loader:
            batch = self._batch(lb)
            yield self.transform(batch) if self.transform is not None else batch

    def _batch(self, lb):
        fields = self._edges.subgraph(lb.layer_ids, lb.adjs)
        p = lb.e_id.numel()
        fields["input_id"] = lb.e_id
        if self.mode == "triplet":
            fields.update(src_index=lb.edge_label_index[0, :p], dst_pos_index=lb.edge_label_index[1, :p],
                          dst_neg_index=lb.negative_index)
        else:
            positive = (torch.ones(p) if self.edge_label is None else self.edge_label[lb.e_id])
            if self.mode == "binary":
                positive = positive + (0 if self.edge_label is None else 1)
                label = torch.cat([positive, torch.zeros(lb.edge_label.numel() - p, dtype=positive.dtype)])
                fields.update(edge_label_index=lb.edge_label_index, edge_label=label)
            else:
                fields.update(edge_label_index=lb.edge_label_index[:, :p], edge_label=positive)
        return _make_batch(self.data, fields, fields["n_id"], fields["e_id"]).to(self.device)


def _negative_sampling(neg_sampling, ratio):
    """(mode, amount) from PyG's arguments: mode None, "binary" or "triplet"."""
    if neg_sampling is None and ratio is not None:
        neg_sampling = {"mode": "binary", "amount": ratio}
    if neg_sampling is None:
        return None, 0
    if isinstance(neg_sampling, str):
        neg_sampling = {"mode": neg_sampling}
    if not isinstance(neg_sampling, dict):   # PyG's NegativeSampling
        if getattr(neg_sampling, "weight", None) is not None:
            raise ValueError("negative sampling weights are not supported; matsamp draws negatives uniformly "
                             "or with negative_distribution='degree'")
        neg_sampling = {"mode": str(getattr(neg_sampling.mode, "value", neg_sampling.mode)),
                        "amount": neg_sampling.amount}
    if neg_sampling.get("weight") is not None:
        raise ValueError("negative sampling weights are not supported; matsamp draws negatives uniformly "
                         "or with negative_distribution='degree'")
    mode, amount = neg_sampling.get("mode"), neg_sampling.get("amount", 1)
    if mode not in ("binary", "triplet"):
        raise ValueError(f"negative sampling mode must be 'binary' or 'triplet', got {mode!r}")
    if isinstance(amount, bool) or float(amount) != int(amount) or int(amount) < 1:
        raise ValueError(f"negative sampling amount must be a whole number >= 1 (negatives per positive), "
                         f"got {amount!r}")
    return mode, int(amount)
