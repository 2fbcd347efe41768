"""matsamp.pyg: PyG's ``NeighborLoader``, ``LinkNeighborLoader`` and ``HGTLoader`` on matsamp's samplers.

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

Heterogeneous graphs (a ``HeteroData``) work the same way, with PyG's hetero
fields per node type (``n_id``, ``num_sampled_nodes``, attributes; ``batch_size``
and ``input_id`` on the input type) and per edge type (``edge_index``, ``e_id``,
``num_sampled_edges``, attributes)::

    loader = NeighborLoader(data, num_neighbors={key: [15, 10] for key in data.edge_types},
                            input_nodes=("paper", data["paper"].train_mask), batch_size=1024)
    model = to_hetero(GNN(), data.metadata())
    for batch in loader:
        out = model(batch.x_dict, batch.edge_index_dict)["paper"][:batch["paper"].batch_size]

:class:`HGTLoader` samples layer-wise (a budget of vertices per node type and
layer, as HGT). Heterogeneous batches are ``HeteroData`` objects when PyG can be
imported, otherwise :class:`HeteroBatch` objects with the same fields.
"""
import copy
import importlib

import torch

from . import _device, _trees, ops
from .graph import Graph
from .hetero import HeteroBulkSampler, HeteroGraph
from .link_loader import LinkLoader, link_labels
from .loader import DEFAULT_MEMORY_BUDGET, BulkSampler

# What a CPU loader's bulks hold by default (dozens of minibatches at PyG's usual
# sizes): stacking more gains a CPU nothing, and a bulk's memory is then reused by
# the next instead of paged in afresh (a whole epoch at once paged in about 1.6 GB
# per R-MAT 18 epoch: half its time). A GPU gains from larger bulks.
CPU_LOADER_MEMORY_BUDGET = 512 << 20

_IGNORED_LOADER_ARGS = ("num_workers", "persistent_workers", "pin_memory", "prefetch_factor",
                        "filter_per_worker", "drop_last", "timeout", "worker_init_fn")
_HETERO_BULK_SIZE = 16  # minibatches per engine call for heterogeneous graphs (no memory estimate there)


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


class HeteroBatch:
    """A sampled heterogeneous subgraph with ``HeteroData``'s fields, when PyG is
    not installed: ``batch["paper"].n_id``, ``batch["author", "writes",
    "paper"].edge_index``, ``batch.x_dict``, ``batch.metadata()``. Each node or
    edge type's fields are a :class:`Batch`."""

    def __init__(self, stores):
        self._stores = dict(stores)  # {node type or edge type: Batch}

    @property
    def node_types(self):
        return [key for key in self._stores if isinstance(key, str)]

    @property
    def edge_types(self):
        return [key for key in self._stores if not isinstance(key, str)]

    def metadata(self):
        return self.node_types, self.edge_types

    def __getitem__(self, key):
        return self._stores[key]

    def __getattr__(self, name):
        # x_dict, edge_index_dict, ...: that field of every type holding it, as HeteroData collects them
        if name.endswith("_dict") and not name.startswith("_"):
            key = name[:-len("_dict")]
            return {k: store[key] for k, store in self._stores.items() if key in store.keys()}
        raise AttributeError(name)

    def to(self, device):
        return HeteroBatch({key: store.to(device) for key, store in self._stores.items()})

    def __repr__(self):
        return f"HeteroBatch({', '.join(f'{key}={store!r}' for key, store in self._stores.items())})"


class _Loader:
    """What the loaders share: their length, and each batch moved to the device and transformed."""

    def __len__(self):
        return len(self._sampler)

    def __iter__(self):
        for batch in self._batches():
            batch = batch.to(self.device)
            yield self.transform(batch) if self.transform is not None else batch


class NeighborLoader(_Loader):
    """PyG's ``NeighborLoader``, sampled by matsamp in bulk.

    Args:
        data: a ``torch_geometric.data.Data``, or any object with ``edge_index``
            (``[2, E]``, source to target) and ``num_nodes``; node attributes
            (``x``, ``y``, masks, ...) and edge attributes are cut to each batch.
            Or a ``torch_geometric.data.HeteroData`` (any object with
            ``node_types``, ``edge_types``, ``data[node_type].num_nodes`` and
            ``data[edge_type].edge_index``): see "Heterogeneous graphs" below.
        num_neighbors: neighbours per vertex per hop, first hop first; -1 takes
            all. For ``sampler="ladies"`` / ``"fastgcn"``: vertices per hop;
            for the GraphSAINT samplers: as ``matsamp.BulkSampler``'s ``sizes``.
            For a HeteroData: a list (every edge type) or a dict ``{edge type:
            list}`` naming every edge type, as in PyG.
        input_nodes: seed vertices: int64 ids, a bool mask, or None for all.
            ``input_id`` is, as in PyG, a seed's position in the ids given,
            or its own id for a mask or None. For a HeteroData: a node type,
            or ``(node type, ids | mask | None)``.
        batch_size: seeds per batch (the last batch may be smaller).
        shuffle: draw the seeds in a new random order each epoch.
        replace: PyG's: each hop draws ``num_neighbors[h]`` times per node with
            any neighbour, repeats kept as repeated edges (GraphSAGE; positive
            fanouts; homogeneous graphs).
        subgraph_type: PyG's: ``"directional"`` (the sampled edges),
            ``"bidirectional"`` (they and their reverses, each pair once;
            ``num_sampled_nodes`` / ``num_sampled_edges`` None, as PyG's) or
            ``"induced"`` (every edge of ``data`` among the batch's nodes, found
            in one op per bulk; no ``num_sampled_edges``); ``directed=False``
            is ``"induced"``, as PyG's. Homogeneous graphs, not with
            ``disjoint`` for induced.
        disjoint: each seed its own tree, as PyG's: a vertex two seeds reach is
            in the batch once per tree, and ``batch`` names each node's tree
            (node-wise samplers; for a HeteroData ``batch`` per node type).
        time_attr: the name of a node-level or edge-level int64 attribute of
            ``data``: temporal sampling (implies ``disjoint``), as PyG's: a seed
            of time t reaches, at every hop, only edges whose own time (edge
            level) or whose source's time (node level) is at most t. A seed's
            time is ``input_time`` or, for a node-level attribute, its own;
            batches carry it as ``seed_time``. Samplers with the "temporal"
            trait (graphsage). A HeteroData is sampled by node-level times,
            ``data[t][time_attr]`` of the node types that have one (a type
            without is never too late, as in PyG), or by edge-level ones,
            ``data[e][time_attr]`` of the edge types that have one (with
            ``input_time``; a repeated edge counts as its earliest);
            ``seed_time`` is on the input type.
        temporal_strategy: "uniform" (draw among the edges early enough) or
            "last" (the latest of them), as pyg-lib's.
        input_time: int64, one time per seed (in ``input_nodes``' order).
        weight_attr: the name of an edge-level attribute of non-negative
            weights: a vertex draws its neighbours with probability in
            proportion to their edges' weights, without replacement, as PyG's
            weighted sampling (the node-wise samplers; a repeated edge's weights
            are summed).
        sampler: any matsamp sampler (``matsamp.ops.SAMPLERS``): "graphsage"
            (PyG's sampling: a target samples its sources, uniformly without
            replacement), "labor", "ladies", "fastgcn", "saint", ... . With the
            node-wise samplers each hop expands only the previous hop's new
            vertices, as PyG's does; with the others a hop keeps every edge of
            its sampled layer that is an edge of ``data`` (the self-loops their
            normalized adjacency adds are left to the model, as GCNConv adds them).
            A HeteroData is sampled by "graphsage" only.
        bulk_size, memory_budget: minibatches sampled per call, as in
            :class:`matsamp.BulkSampler` (for a HeteroData: ``bulk_size`` only,
            default 16). ``memory_budget`` defaults to
            :data:`CPU_LOADER_MEMORY_BUDGET` (512 MiB) on the CPU and to the
            BulkSampler's 4 GiB on a GPU.
        seed: sampling seed; None draws one from torch's generator (so
            ``torch.manual_seed`` fixes the batches, as with PyG).
        device: where sampling runs and batches go (default: the device of
            ``data.edge_index``, so a ``Data`` on a GPU is sampled there and its
            batches, features gathered, stay there). ``"cuda"`` on a machine
            or build without CUDA is an error, never a silent CPU run. A
            HeteroData is sampled on the CPU and its batches moved to ``device``.
        num_workers, persistent_workers, pin_memory, ...: accepted for PyG
            scripts and unused (matsamp samples many batches per call on its
            own threads).

    Heterogeneous graphs: the edge types sampled are exactly ``data``'s (no
    reverses are added; ``T.ToUndirected()`` adds them, as for PyG). As in PyG,
    at hop 1 every seed, and at hop h every vertex new at hop h - 1, draws per
    edge type into its type min(fanout, in-degree) distinct sources uniformly,
    without replacement; ``n_id[t]`` holds the seeds (input type) first and in
    order, then each hop's new vertices; ``edge_index[e]`` holds hop 1's edges,
    then hop 2's, ...; ``e_id[e]`` are columns of ``data[e].edge_index`` (the
    first one of a repeated edge). What differs from PyG: the random draws
    (matsamp's counter-based generator keyed by seed, epoch, hop, minibatch,
    row and edge type, not torch's: a seed gives the same batches for any bulk
    size, but not PyG's batches), the epoch's seed order and the order of a
    hop's new vertices (ascending ids, PyG's in the order drawn). As in PyG,
    older vertices are not expanded again (the engine's ``expand_new_only``),
    so every node past the seeds is the source of a kept edge.
    """

    def __init__(self, data, num_neighbors, input_nodes=None, *, batch_size=1, shuffle=False, replace=False,
                 directed=True, disjoint=False, subgraph_type="directional", sampler="graphsage", bulk_size=None,
                 memory_budget=None, seed=None, device=None, transform=None, time_attr=None,
                 temporal_strategy="uniform", input_time=None, weight_attr=None, **loader_args):
        _check_pyg_options(loader_args)
        self.data, self.transform, self.sampler = data, transform, sampler
        self._trees = bool(disjoint) or time_attr is not None
        kind = _subgraph_type(directed, subgraph_type, self._trees)
        if _is_hetero(data):
            if kind != "directional" or replace:
                raise ValueError("subgraph_type and replace=True are for homogeneous graphs (a Data); a "
                                 "HeteroData samples the directional subgraph without replacement")
            self.device = _hetero_device(device, data)
            _check_hetero_options(sampler, memory_budget)
            self._hetero = _HeteroSampling(data, input_nodes, batch_size, shuffle, seed, bulk_size,
                                           num_neighbors=num_neighbors, trees=self._trees,
                                           times=_hetero_times(data, time_attr, temporal_strategy),
                                           input_time=input_time, temporal_strategy=temporal_strategy)
            self._sampler = self._hetero.sampler
        else:
            self._hetero = None
            edge_index, num_nodes = _homogeneous(data, num_neighbors)
            times = _times(data, time_attr, sampler, temporal_strategy, num_nodes, edge_index.size(1))
            if self._trees and "node_wise" not in ops.SAMPLER_TRAITS.get(sampler, ()):
                raise ValueError(f"disjoint sampling takes a node-wise sampler, not {sampler!r}")
            self.graph = _sampling_graph(edge_index, num_nodes, device, _weights(data, weight_attr, edge_index),
                                         **times)
            self.device = self.graph.device
            self._subgraphs = _Subgraphs(data, self.graph, sampler, kind)
            seeds, position = _seeds(input_nodes, num_nodes)
            self._seed_time = None if time_attr is None else _seed_time(seeds, input_time, times.get("node_time"),
                                                                       num_nodes).to(self.device)
            self._input_position = None if position is None else position.to(self.device)
            budget = memory_budget if memory_budget is not None else (
                DEFAULT_MEMORY_BUDGET if self.device.type == "cuda" else CPU_LOADER_MEMORY_BUDGET)
            self._sampler = BulkSampler(self.graph, batch_size, seeds, sampler=sampler, sizes=list(num_neighbors),
                                        bulk_size=bulk_size, memory_budget=budget, shuffle=shuffle, seed=_seed(seed),
                                        replace=_replace(replace, num_neighbors, sampler),
                                        expand_new_only=self._subgraphs.node_wise)
            self._sampler.temporal_strategy = temporal_strategy

    def _batches(self):
        if self._hetero is not None:
            yield from self._hetero.batches()
            return
        for calls, sequence in _epoch_of(self._sampler, self._trees, self._seed_time):
            batches = {}
            for first, seeds, offsets, layers in calls:
                input_id = _input_id(self._input_position, seeds)
                split = self._subgraphs.tree_batches(layers, offsets) if self._trees else self._subgraphs.batches(layers)
                for g, batch in enumerate(split):
                    batch["input_id"] = input_id[offsets[g]:offsets[g + 1]]
                    if self._seed_time is not None:
                        batch["seed_time"] = self._seed_time[seeds[offsets[g]:offsets[g + 1]]]
                    batches[first + g] = batch
            for g in sequence:
                yield self._subgraphs.data_of(batches.pop(g))


class HGTLoader(_Loader):
    """PyG's ``HGTLoader``: heterogeneous batches sampled layer-wise by matsamp
    (``matsamp.HeteroBulkSampler(sampler="hgt")``), in bulk.

    Args:
        data: a ``torch_geometric.data.HeteroData`` (or an object with
            ``node_types``, ``edge_types``, ``data[node_type].num_nodes`` and
            ``data[edge_type].edge_index``).
        num_samples: vertices drawn per layer, a list (every node type) or a
            dict ``{node type: list}`` (types left out are not drawn).
        input_nodes: a node type, or ``(node type, ids | mask | None)``.
        is_sorted: accepted and unused.
        transform: applied to each batch.
        batch_size, shuffle, bulk_size, seed, device, num_workers, ...: as for
            :class:`NeighborLoader`.

    Batches hold PyG's HGTLoader fields: per node type ``n_id`` (the seeds
    first and in order, then each layer's draws) and its attributes cut to it,
    ``batch_size`` and ``input_id`` on the input type; per edge type the
    subgraph the sampled vertices induce: ``edge_index`` (local ids, row 0
    sources), ``e_id`` and edge attributes. As in PyG, each layer draws up to
    its budget of vertices per type without replacement, a vertex v with
    probability ∝ (Σ_u 1/deg(u))², u over the already sampled vertices that v
    has an edge to (of any edge type), deg(u) u's in-degree in that edge type.
    What differs from PyG: the random draws (matsamp's generator,
    as for :class:`NeighborLoader`), the order of a layer's draws (ascending
    ids), that a draw of an already sampled vertex is dropped (PyG draws among
    the others only, so a layer may add fewer vertices here), and that every
    edge among the sampled vertices is kept (PyG looks at 50 random in-edges of
    a vertex with more).
    """

    def __init__(self, data, num_samples, input_nodes, is_sorted=False, transform=None,
                 transform_sampler_output=None, *, batch_size=1, shuffle=False, bulk_size=None, seed=None,
                 device=None, **loader_args):
        _check_pyg_options(loader_args)
        if transform_sampler_output is not None:
            raise ValueError("transform_sampler_output is not supported: matsamp builds the batches directly")
        if not _is_hetero(data):
            raise ValueError(f"HGTLoader samples heterogeneous graphs (a HeteroData), got {type(data).__name__}")
        self.data, self.transform = data, transform
        self.device = _hetero_device(device, data)
        self._hetero = _HeteroSampling(data, input_nodes, batch_size, shuffle, seed, bulk_size,
                                       num_samples=num_samples)
        self._sampler = self._hetero.sampler

    def _batches(self):
        return self._hetero.batches()


class _HeteroSampling:
    """PyG's heterogeneous batches, a sampled bulk at a time
    (torch.ops.matsamp.pyg_hetero_batches): node-wise with num_neighbors
    (NeighborLoader's), layer-wise with num_samples (HGTLoader's); each batch's
    fields are views of the op's results, e_id the relations' edge ids. With
    trees (disjoint, node-wise), every seed is sampled as a block of its own
    (keyed by its place in the epoch), by its time when times are given
    (_hetero_times'), and a batch is its seeds' trees merged per node type and
    edge type (_trees)."""

    def __init__(self, data, input_nodes, batch_size, shuffle, seed, bulk_size, num_neighbors=None,
                 num_samples=None, trees=False, times=None, input_time=None, temporal_strategy="uniform"):
        self.data = data
        self.num_nodes = {t: int(data[t].num_nodes) for t in data.node_types}
        edge_index = {tuple(e): data[e].edge_index for e in data.edge_types}
        self.input_type, seeds, self.input_position = _hetero_seeds(input_nodes, self.num_nodes)
        if num_neighbors is not None:
            num_neighbors = _fanouts(num_neighbors, edge_index, self.num_nodes)
        # PyG samples exactly data's edge types: no reverses are added.
        graph = HeteroGraph.from_edge_index_dict(self.num_nodes, edge_index, add_reverse=False, **(times or {}))
        self.node_types, self.edge_types = graph.node_types, graph.edge_types
        self.sampler = HeteroBulkSampler(graph, self.input_type, batch_size, seeds, num_neighbors=num_neighbors,
                                         num_samples=num_samples, shuffle=shuffle, seed=_seed(seed),
                                         bulk_size=_HETERO_BULK_SIZE if bulk_size is None else bulk_size)
        self.node_wise = num_neighbors is not None
        self.trees, self.temporal_strategy = trees, temporal_strategy
        self.seed_time = None if times is None else _seed_time(
            seeds, input_time, times.get("node_time_dict", {}).get(self.input_type),
            self.num_nodes[self.input_type])

    def batches(self):
        for first, first_seed, seeds, offsets, epoch in self.sampler._calls():
            blocks, key = (torch.arange(seeds.numel() + 1), first_seed) if self.trees else (offsets, first)
            seed_times = None if self.seed_time is None else self.seed_time[seeds]
            fields = torch.ops.matsamp.pyg_hetero_batches(*self.sampler._arguments(seeds, blocks, key, epoch),
                                                          seed_times=seed_times,
                                                          temporal_strategy=self.temporal_strategy)
            if not self.trees:  # read as lists once per call
                n_id, node_offsets, num_nodes, edge_index, e_id, edge_offsets, num_edges = fields
                fields = (n_id, [o.tolist() for o in node_offsets], [c.tolist() for c in num_nodes], edge_index, e_id,
                          [o.tolist() for o in edge_offsets], [c.tolist() for c in num_edges])
            input_id = _input_id(self.input_position, seeds)
            batch_of = self._tree_batch if self.trees else self._batch
            offsets = offsets.tolist()
            for g in range(len(offsets) - 1):
                s0, s1 = offsets[g], offsets[g + 1]
                input_fields = {"batch_size": s1 - s0, "input_id": input_id[s0:s1]}
                if seed_times is not None:
                    input_fields["seed_time"] = seed_times[s0:s1]
                node_fields, edge_fields = batch_of(fields, g, s0, s1)
                node_fields[self.input_type].update(input_fields)
                yield _make_hetero_batch(self.data, node_fields, edge_fields, self.num_nodes)

    def _batch(self, fields, g, *_):
        """Minibatch g's fields, a block of the op's results (offsets and counts as lists)."""
        n_id, node_offsets, num_nodes, edge_index, e_id, edge_offsets, num_edges = fields
        node_fields, edge_fields = {}, {}
        for i, t in enumerate(self.node_types):
            node_fields[t] = {"n_id": n_id[i][node_offsets[i][g]:node_offsets[i][g + 1]]}
            if self.node_wise:
                node_fields[t]["num_sampled_nodes"] = num_nodes[i][g]
        for r, e in enumerate(self.edge_types):
            e0, e1 = edge_offsets[r][g], edge_offsets[r][g + 1]
            edge_fields[e] = {"edge_index": edge_index[r][2 * e0:2 * e1].view(2, e1 - e0), "e_id": e_id[r][e0:e1]}
            if self.node_wise:
                edge_fields[e]["num_sampled_edges"] = num_edges[r][g]
        return node_fields, edge_fields

    def _tree_batch(self, fields, g, t0, t1):
        """The fields of trees [t0, t1) (the op's blocks) merged, with batch per node type."""
        n_id, node_offsets, num_nodes, edge_index, e_id, edge_offsets, num_edges = fields
        node_fields, layouts = {}, {}
        for i, t in enumerate(self.node_types):
            node_fields[t], layouts[t] = _trees.merge_nodes(n_id[i], node_offsets[i], num_nodes[i], t0, t1)
        edge_fields = {e: _trees.merge_edges(edge_index[r], e_id[r], edge_offsets[r], num_edges[r], t0, t1,
                                             layouts[e[0]], layouts[e[2]])
                       for r, e in enumerate(self.edge_types)}
        return node_fields, edge_fields


def _sampling_graph(edge_index, num_nodes, device, edge_weight=None, edge_time=None, node_time=None):
    """The graph PyG's sampling walks: vertex v samples its sources, so row v of
    the adjacency lists u for every edge u -> v (and edge_ids name edge_index's
    columns); on `device`, by default edge_index's; with the weights and times given."""
    return Graph.from_edge_index(edge_index, num_nodes, _transposed=True, edge_weight=edge_weight,
                                 edge_time=edge_time, node_time=node_time,
                                 device=edge_index.device if device is None else device)


def _weights(data, weight_attr, edge_index):
    """data's edge weights named weight_attr as float32 on the CPU (None without a name), checked."""
    if weight_attr is None:
        return None
    value = getattr(data, weight_attr, None)
    if not isinstance(value, torch.Tensor) or value.shape != (edge_index.size(1),):
        raise ValueError(f"weight_attr: data has no tensor {weight_attr!r} with one weight per edge "
                         f"({edge_index.size(1)})")
    if not value.is_floating_point():
        raise TypeError(f"weight_attr: {weight_attr!r} must be a floating-point tensor, got {value.dtype}")
    return value.detach().to(torch.float32).cpu()


def _times(data, time_attr, sampler, strategy, num_nodes, num_edges):
    """{"node_time": ...} or {"edge_time": ...} from data's time_attr (empty without one), checked."""
    if time_attr is None:
        return {}
    if "temporal" not in ops.SAMPLER_TRAITS.get(sampler, ()):
        raise ValueError(f"time_attr: the {sampler} sampler cannot sample by time "
                         f"({', '.join(ops.samplers_with('temporal'))} can)")
    _check_strategy(strategy)
    value = getattr(data, time_attr, None)
    if not isinstance(value, torch.Tensor) or value.dim() != 1:
        raise ValueError(f"time_attr: data has no 1-D tensor {time_attr!r}")
    if value.dtype != torch.int64:
        raise TypeError(f"time_attr: {time_attr!r} must be int64, got {value.dtype}")
    is_node = data.is_node_attr(time_attr) if hasattr(data, "is_node_attr") else value.numel() == num_nodes
    if is_node and value.numel() == num_nodes:
        return {"node_time": value.cpu()}
    if value.numel() == num_edges:
        return {"edge_time": value.cpu()}
    raise ValueError(f"time_attr: {time_attr!r} has {value.numel()} entries, neither one per node ({num_nodes}) "
                     f"nor one per edge ({num_edges})")


def _check_strategy(strategy):
    if strategy not in ("uniform", "last"):
        raise ValueError(f"temporal_strategy must be 'uniform' or 'last', got {strategy!r}")


def _hetero_times(data, time_attr, strategy):
    """data's time_attr as HeteroGraph.from_edge_index_dict takes it: node_time_dict
    (the node types that have it; a type without is never too late, as in PyG) or
    edge_time_dict (the edge types that have it, each edge at its own time); None
    without a name. Checked: int64, one per node or edge, not both levels."""
    if time_attr is None:
        return None
    _check_strategy(strategy)
    found = {}
    for level, keys in (("node", data.node_types), ("edge", data.edge_types)):
        for key in keys:
            value = getattr(data[key], time_attr, None)
            if value is None:
                continue
            if not isinstance(value, torch.Tensor) or value.dtype != torch.int64 or value.dim() != 1:
                raise TypeError(f"time_attr: data[{key!r}].{time_attr} must be a 1-D int64 tensor, got "
                                f"{getattr(value, 'dtype', type(value).__name__)}")
            found.setdefault(level, {})[tuple(key) if level == "edge" else key] = value
    if not found:
        raise ValueError(f"time_attr: no node or edge type of data has {time_attr!r}")
    if len(found) == 2:
        raise ValueError(f"time_attr: {time_attr!r} is both a node-level and an edge-level attribute; give one")
    (level, times), = found.items()
    return {f"{level}_time_dict": times}


def _seed_time(seeds, input_time, node_time, num_nodes):
    """Each vertex's time as a seed: input_time scattered to its seeds, or the node times."""
    if input_time is None:
        if node_time is None:
            raise ValueError("time_attr: the seeds have no times of their own: give input_time, each seed's time")
        return node_time.cpu()
    input_time = torch.as_tensor(input_time).cpu()
    if input_time.dtype != torch.int64 or input_time.shape != seeds.shape:
        raise ValueError(f"input_time must be int64 with one time per seed ({seeds.numel()}), got "
                         f"{input_time.dtype} {list(input_time.shape)}")
    seed_time = torch.zeros(num_nodes, dtype=torch.int64)
    seed_time[seeds] = input_time
    if not torch.equal(seed_time[seeds], input_time):
        raise ValueError("input_time: a seed given twice has two times; give each seed once")
    return seed_time


def _epoch_of(sampler, trees=False, seed_time=None):
    """One epoch of a BulkSampler or LinkLoader, a sampled bulk at a time with
    the sampled edges' positions, advancing its epoch as iterating it does; a
    BulkSampler's with trees one seed per block, by seed_time when given."""
    epoch, sampler.epoch = sampler.epoch, sampler.epoch + 1
    if trees:
        return sampler._sampled_bulks(epoch, edge_positions=True, trees=True, seed_time=seed_time)
    return sampler._sampled_bulks(epoch, edge_positions=True)


class _Subgraphs:
    """PyG's batches of a homogeneous graph, a sampled bulk at a time: the edge
    fields of every minibatch by one op (torch.ops.matsamp.pyg_batches, e_id the
    graph's edge ids at the positions the sampler carried), each batch's fields
    views of its results; node and edge attributes gathered per batch, so their
    memory is a batch's whatever the bulk size. subgraph_type: PyG's;
    "induced" replaces each batch's edges by all the graph's edges among its
    nodes (torch.ops.matsamp.induced_subgraphs), "bidirectional" adds every
    sampled edge's reverse (PyG's to_bidirectional)."""

    def __init__(self, data, graph, sampler, subgraph_type="directional"):
        self.data = data
        self.graph = graph
        self.edge_ids = graph.edge_ids
        self.node_wise = "node_wise" in ops.SAMPLER_TRAITS[sampler]
        self.subgraph_type = subgraph_type

    def _fields(self, layers, new_targets_only=None):
        return torch.ops.matsamp.pyg_batches(
            [layer.rowptr for layer in layers], [layer.col for layer in layers],
            [layer.row_offsets for layer in layers], [layer.col_offsets for layer in layers],
            [layer.positions for layer in layers], self.edge_ids,
            self.node_wise if new_targets_only is None else new_targets_only)

    def tree_batches(self, layers, offsets):
        """The fields of each minibatch of one call sampled one tree per seed
        (offsets: the minibatches' first trees), merged hop-major as PyG's disjoint batches."""
        fields_of_trees = self._fields(layers)
        vertices, tree_offsets = layers[-1].vertices, layers[-1].col_offsets
        for g in range(len(offsets) - 1):
            fields = _trees.merge_trees(vertices, tree_offsets, *fields_of_trees, offsets[g], offsets[g + 1])
            fields["batch_size"] = offsets[g + 1] - offsets[g]
            yield self._with_attributes(self._shaped(fields))

    def batches(self, layers):
        """The fields of each minibatch of one sampled call (layers with positions)."""
        edge_index, e_id, edge_offsets, num_nodes, num_edges = self._fields(layers)
        vertices, col_offsets = layers[-1].vertices, layers[-1].col_offsets
        if self.subgraph_type == "induced":  # the graph's edges among each batch's nodes instead
            induced = ops.SampledLayer(*(fields[0] for fields in torch.ops.matsamp.induced_subgraphs(
                self.graph.handle, vertices, col_offsets)))
            edge_index, e_id, edge_offsets, _, _ = self._fields([induced], new_targets_only=False)
        nodes, edges = col_offsets.tolist(), edge_offsets.tolist()
        for g, (sampled_nodes, sampled_edges) in enumerate(zip(num_nodes.tolist(), num_edges.tolist())):
            n0, n1, e0, e1 = nodes[g], nodes[g + 1], edges[g], edges[g + 1]
            fields = dict(n_id=vertices[n0:n1], e_id=e_id[e0:e1], edge_index=edge_index[2 * e0:2 * e1].view(2, e1 - e0),
                          batch_size=sampled_nodes[0], num_sampled_nodes=sampled_nodes,
                          num_sampled_edges=sampled_edges)
            yield self._with_attributes(self._shaped(fields))

    def _shaped(self, fields):
        """A batch's fields for the subgraph type: per hop edge counts only for
        directional edges; bidirectional adds the reverses (as PyG, without per-hop counts)."""
        if self.subgraph_type == "induced":
            del fields["num_sampled_edges"]
        elif self.subgraph_type == "bidirectional":
            fields["edge_index"], fields["e_id"] = _bidirectional(fields["edge_index"], fields["e_id"],
                                                                  fields["n_id"].numel())
            fields["num_sampled_nodes"] = fields["num_sampled_edges"] = None
        return fields

    def _with_attributes(self, fields):
        """A batch's fields with data's node and edge attributes cut to it."""
        return {**_cut(self.data, fields, n_id=fields["n_id"], num_nodes=self.data.num_nodes, e_id=fields["e_id"],
                       num_edges=self.data.edge_index.size(1)), **fields}

    def data_of(self, fields):
        """A batch's fields as a PyG Data (when PyG imports), else a Batch."""
        Data = _pyg_data("Data")
        num_nodes = fields["n_id"].numel()
        if Data is None:
            return Batch(**fields, num_nodes=num_nodes)
        batch = Data(**fields)
        batch.num_nodes = num_nodes
        return batch


def _bidirectional(edge_index, e_id, num_nodes):
    """The edges with their reverses, each (source, target) once, by target then
    source (PyG's to_bidirectional; a reverse keeps its edge's e_id)."""
    both = torch.cat([edge_index, edge_index.flip(0)], dim=1)
    ids = torch.cat([e_id, e_id])
    key, order = (both[1] * num_nodes + both[0]).sort(stable=True)
    first = torch.ones_like(key, dtype=torch.bool)
    first[1:] = key[1:] != key[:-1]
    order = order[first]
    return both[:, order], ids[order]


def _is_hetero(data):
    return hasattr(data, "node_types") and hasattr(data, "edge_types")


def _hetero_device(device, data):
    """Where a heterogeneous loader's batches go: `device`, else the device of data's edges."""
    if device is None:
        edges = [data[e].edge_index for e in data.edge_types]
        return edges[0].device if edges else torch.device("cpu")
    return _device.output_device(device)


def _seed(seed):
    """None draws one from torch's generator, so that torch.manual_seed fixes the batches, as with PyG."""
    return int(torch.randint(0, 1 << 62, ())) if seed is None else seed


def _check_pyg_options(loader_args):
    """PyG's loader options that matsamp does not take: a clear error."""
    unknown = sorted(set(loader_args) - set(_IGNORED_LOADER_ARGS))
    if unknown:
        raise TypeError(f"unexpected argument(s) {', '.join(unknown)}")


def _replace(replace, num_neighbors, sampler):
    """PyG's replace, checked: draws with replacement take a fanout per hop (-1, all, has none)."""
    if replace and "replace" not in ops.SAMPLER_TRAITS.get(sampler, ()):
        takers = " and ".join(s for s, traits in ops.SAMPLER_TRAITS.items() if "replace" in traits)
        raise ValueError(f"the {sampler} sampler does not draw with replacement ({takers} does)")
    if replace and -1 in list(num_neighbors):
        raise ValueError("replace=True needs a positive fanout per hop; -1 (all neighbours) draws without "
                         "replacement")
    return bool(replace)


def _subgraph_type(directed, subgraph_type, trees=False):
    """PyG's subgraph type (a name or its SubgraphType; directed=False is "induced", as PyG's)."""
    kind = str(getattr(subgraph_type, "value", subgraph_type))
    if kind not in ("directional", "bidirectional", "induced"):
        raise ValueError(f"subgraph_type must be 'directional', 'bidirectional' or 'induced', got {kind!r}")
    kind = "induced" if not directed else kind
    if kind == "induced" and trees:
        raise ValueError("induced subgraphs are not supported with disjoint or temporal sampling")
    return kind


def _check_hetero_options(sampler, memory_budget):
    node_wise = ops.hetero_sampler_of("node_wise")
    if sampler != node_wise:
        raise ValueError(f"sampler={sampler!r} samples homogeneous graphs; a HeteroData is sampled by "
                         f"{node_wise!r} (NeighborLoader) or layer-wise by HGTLoader")
    if memory_budget is not None:
        raise ValueError("memory_budget sizes the bulks of homogeneous graphs; for a HeteroData give bulk_size")


def _homogeneous(data, num_neighbors):
    """data's edge_index and num_nodes, checked as a homogeneous graph's."""
    if isinstance(num_neighbors, dict):
        raise ValueError("num_neighbors as a dict {edge type: list} is for heterogeneous graphs (a HeteroData); "
                         "pass a list for a homogeneous graph")
    edge_index = getattr(data, "edge_index", None)
    if not isinstance(edge_index, torch.Tensor):
        raise TypeError(f"data must have an edge_index tensor, got {type(data).__name__}")
    return edge_index, int(data.num_nodes)


def _seeds(nodes, num_nodes):
    """PyG's input_nodes as (seed ids, input_id of each vertex or None). As in
    PyG, input_id is the position in an index tensor, and the vertex's own id
    when input_nodes is a mask or None (all vertices)."""
    if nodes is None:
        return torch.arange(num_nodes), None
    if isinstance(nodes, torch.Tensor):
        nodes = nodes.cpu()  # the epoch's order is cut on the host
    if isinstance(nodes, torch.Tensor) and nodes.dtype == torch.bool:
        if nodes.shape != (num_nodes,):
            raise ValueError(f"input_nodes: a bool mask needs shape [{num_nodes}], got {tuple(nodes.shape)}")
        return nodes.nonzero().flatten(), None
    nodes = torch.as_tensor(nodes, dtype=torch.int64).flatten()
    if nodes.numel() and (int(nodes.min()) < 0 or int(nodes.max()) >= num_nodes):
        raise ValueError(f"input_nodes: ids must lie in [0, {num_nodes}), got {int(nodes.min())}..{int(nodes.max())}")
    return nodes, _positions(nodes, num_nodes)


def _hetero_seeds(input_nodes, num_nodes):
    """PyG's input_nodes of a heterogeneous graph, a node type or (node type,
    ids | mask | None), as (node type, seed ids, input_id of each vertex or None)."""
    if isinstance(input_nodes, str):
        input_nodes = (input_nodes, None)
    if not (isinstance(input_nodes, (tuple, list)) and len(input_nodes) == 2 and isinstance(input_nodes[0], str)):
        raise ValueError("input_nodes of a heterogeneous graph: a node type or (node type, ids | mask | None), "
                         f"got {type(input_nodes).__name__}")
    node_type, nodes = input_nodes
    if node_type not in num_nodes:
        raise ValueError(f"input_nodes: unknown node type {node_type!r} (data has {', '.join(num_nodes)})")
    return (node_type, *_seeds(nodes, num_nodes[node_type]))


def _input_id(position, seeds):
    return seeds if position is None else position[seeds]


def _positions(nodes, num_nodes):
    """Index into input_nodes of each vertex (its first occurrence); -1 for others."""
    position = torch.full((num_nodes,), -1, dtype=torch.int64)
    position[nodes.flip(0)] = torch.arange(nodes.numel() - 1, -1, -1, dtype=torch.int64)
    return position


def _edge_type(key):
    """(source, relation, destination) from a tuple or PyG's "source__relation__destination"."""
    parts = tuple(key.split("__")) if isinstance(key, str) else tuple(key)
    if len(parts) != 3:
        raise ValueError(f"edge types are (source, relation, destination), got {key!r}")
    return parts


def _fanouts(num_neighbors, edge_index, num_nodes):
    """PyG's num_neighbors (a list for every edge type, or a dict naming each) as
    {edge type: fanouts}, -1 (all neighbours) as the edge type's largest in-degree."""
    if isinstance(num_neighbors, dict):
        given = {_edge_type(key): list(value) for key, value in num_neighbors.items()}
        unknown = [e for e in given if e not in edge_index]
        if unknown:
            raise ValueError(f"num_neighbors: unknown edge types {unknown} (data has {list(edge_index)})")
        missing = [e for e in edge_index if e not in given]
        if missing:
            raise ValueError(f"num_neighbors: no fanouts for edge types {missing}; as in PyG, the dict names "
                             "every edge type (0 samples none)")
    else:
        given = {e: list(num_neighbors) for e in edge_index}
    if len({len(fanouts) for fanouts in given.values()}) > 1:
        raise ValueError("num_neighbors: every edge type needs the same number of hops")

    def all_of(e):
        return int(torch.bincount(edge_index[e][1], minlength=num_nodes[e[2]]).max()) if edge_index[e].numel() else 0
    return {e: [all_of(e) if int(f) < 0 else int(f) for f in fanouts] for e, fanouts in given.items()}


def _pyg_data(name):
    """torch_geometric.data's class of that name, or None without PyG."""
    try:
        return getattr(importlib.import_module("torch_geometric.data"), name)
    except ImportError:
        return None


def _take(value, index):
    """value's rows at index: a tensor's by matsamp.gather_rows (on the CPU about 1.3x
    index_select's speed, which is 2-3x indexing's), anything else by indexing."""
    if isinstance(value, torch.Tensor) and value.dim() > 0:
        return torch.ops.matsamp.gather_rows(value, index.to(value.device))
    return value[index]


def _cut(store, fields, n_id=None, num_nodes=None, e_id=None, num_edges=None):
    """store's attributes other than fields, those per node indexed by n_id and
    those per edge by e_id (a PyG store says which are which; otherwise their
    first dimension does)."""
    is_pyg = hasattr(store, "is_node_attr")

    def per(key, value, kind, count):
        if is_pyg:
            return getattr(store, f"is_{kind}_attr")(key)
        return isinstance(value, torch.Tensor) and value.dim() > 0 and value.size(0) == count

    attributes = {}
    for key in (store.keys() if is_pyg else vars(store)):
        if key in ("edge_index", "num_nodes") or key in fields:
            continue
        value = store[key] if is_pyg else getattr(store, key)
        if n_id is not None and per(key, value, "node", num_nodes):
            value = _take(value, n_id)
        elif e_id is not None and per(key, value, "edge", num_edges):
            value = _take(value, e_id)
        attributes[key] = value
    return attributes


def _make_hetero_batch(data, nodes, edges, num_nodes):
    """The batch as a PyG HeteroData (when PyG imports; a copy of data's, as PyG
    makes it) with data's attributes cut to it; nodes and edges: the fields per type."""
    stores = {}
    for t, fields in nodes.items():
        stores[t] = {**_cut(data[t], fields, n_id=fields["n_id"], num_nodes=num_nodes[t]), **fields,
                     "num_nodes": fields["n_id"].numel()}
    for e, fields in edges.items():
        stores[e] = {**_cut(data[e], fields, e_id=fields["e_id"], num_edges=data[e].edge_index.size(1)), **fields}
    HeteroData = _pyg_data("HeteroData")
    if HeteroData is None:
        return HeteroBatch({key: Batch(**fields) for key, fields in stores.items()})
    out = copy.copy(data) if isinstance(data, HeteroData) else HeteroData()
    for key, fields in stores.items():
        for name, value in fields.items():
            out[key][name] = value
    return out


class LinkNeighborLoader(_Loader):
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
        disjoint: each seed node (a source, a destination, a negative) is a tree
            of its own, as PyG's: seed edge i's are the batch's first nodes
            (2 + k)·i, +1, +2 …; batches add ``batch`` (each node's seed edge
            within the batch). Not with ``exclude_seed_edges``.
        time_attr, edge_label_time: temporal link prediction, as PyG's (implies
            ``disjoint``): the node-level or edge-level int64 attribute of
            ``data`` the neighbours are sampled by, and each seed edge's time
            (int64 ``[P]``; both or neither). Each tree is sampled as of its
            edge's time: no sampled edge (edge level) or neighbour (node level)
            is later. Batches add ``edge_label_time`` (binary or no negatives)
            or ``seed_time`` (triplet). With a node-level time, a negative is
            no later than its edge either, as PyG's (redrawn up to 64 times).
        temporal_strategy: ``"uniform"`` or ``"last"``, as for :class:`NeighborLoader`.
        batch_size, shuffle, replace, directed, subgraph_type, sampler,
        bulk_size, seed, device, transform, weight_attr, num_workers, ...: as for
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
                 device=None, transform=None, weight_attr=None, time_attr=None, temporal_strategy="uniform",
                 **loader_args):
        _check_pyg_options(loader_args)
        if (edge_label_time is None) != (time_attr is None):
            raise ValueError("temporal link sampling needs both time_attr (the times neighbours are sampled by) "
                             "and edge_label_time (each seed edge's time)")
        if _is_hetero(data):
            raise ValueError("LinkNeighborLoader samples homogeneous graphs; a HeteroData is not supported")
        edge_index, num_nodes = _homogeneous(data, num_neighbors)
        self.data, self.transform = data, transform
        self.mode, amount = _negative_sampling(neg_sampling, neg_sampling_ratio)
        self.edge_label_index = edge_index if edge_label_index is None else edge_label_index
        self.edge_label = edge_label
        if self.mode == "triplet" and edge_label is not None:
            raise ValueError("edge_label cannot be given with triplet negative sampling (as in PyG)")
        times = _times(data, time_attr, sampler, temporal_strategy, num_nodes, edge_index.size(1))
        self._edge_label_time = None if time_attr is None else _edge_label_time(edge_label_time,
                                                                                self.edge_label_index)
        self._trees = bool(disjoint) or self._edge_label_time is not None
        if self._trees and exclude_seed_edges:
            raise ValueError("exclude_seed_edges is not supported with disjoint or temporal link sampling "
                             "(each seed node's tree is sampled alone)")
        if self._trees and "node_wise" not in ops.SAMPLER_TRAITS.get(sampler, ()):
            raise ValueError(f"disjoint sampling takes a node-wise sampler, not {sampler!r}")
        self._temporal_strategy = temporal_strategy
        self._negative_time = times.get("node_time") if self._edge_label_time is not None else None
        graph = _sampling_graph(edge_index, num_nodes, device, _weights(data, weight_attr, edge_index), **times)
        self.device = graph.device
        self._subgraphs = _Subgraphs(data, graph, sampler, _subgraph_type(directed, subgraph_type, self._trees))
        self._sampler = LinkLoader(graph, self.edge_label_index.to(torch.int64).cpu(), batch_size, sampler=sampler,
                                   sizes=list(num_neighbors), negatives=amount,
                                   negative_distribution=negative_distribution, exclude=bool(exclude_seed_edges),
                                   exclude_reverse=True, bulk_size=bulk_size, shuffle=shuffle, seed=_seed(seed),
                                   replace=_replace(replace, num_neighbors, sampler),
                                   expand_new_only=self._subgraphs.node_wise)

    def _batches(self):
        if self._trees:
            yield from self._tree_batches()
            return
        for first, ids, edge_offsets, out in _epoch_of(self._sampler):
            layers = [ops.SampledLayer(*fields) for fields in zip(*out[6:])]
            for g, batch in enumerate(self._subgraphs.batches(layers)):
                e0, e1 = edge_offsets[g], edge_offsets[g + 1]
                batch.update(self._labels(ids[e0:e1], *link_labels(out, e0, e1, self._sampler.negatives)))
                yield self._subgraphs.data_of(batch)

    def _tree_batches(self):
        """Disjoint (and temporal) batches: the trees of each seed edge's source,
        destination and negatives (LinkLoader._tree_bulks), merged as PyG's disjoint batches."""
        k = self._sampler.negatives
        per_edge = 2 + k
        epoch, self._sampler.epoch = self._sampler.epoch, self._sampler.epoch + 1
        for first, ids, edge_offsets, negatives, layers in self._sampler._tree_bulks(
                epoch, self._edge_label_time, self._temporal_strategy, self._negative_time):
            tree_offsets = [per_edge * e for e in edge_offsets]
            for g, batch in enumerate(self._subgraphs.tree_batches(layers, tree_offsets)):
                e0, e1 = edge_offsets[g], edge_offsets[g + 1]
                device = batch["n_id"].device
                batch["batch"] = batch["batch"] // per_edge
                # Seed edge i's trees are the batch's seed nodes per_edge·i, +1 and +2 …
                seeds = torch.arange((e1 - e0) * per_edge, device=device).view(e1 - e0, per_edge)
                src, dst, negative = seeds[:, 0], seeds[:, 1], seeds[:, 2:]
                edge_label_index = torch.cat([torch.stack([src, dst]),
                                              torch.stack([src.repeat_interleave(k), negative.reshape(-1)])], dim=1)
                edge_label = torch.cat([torch.ones(e1 - e0), torch.zeros((e1 - e0) * k)]).to(device)
                batch.update(self._labels(ids[e0:e1], edge_label_index, edge_label, negative))
                if self._edge_label_time is not None:
                    time = self._edge_label_time[ids[e0:e1]].to(device)
                    if self.mode == "triplet":
                        batch["seed_time"] = time
                    else:
                        batch["edge_label_time"] = torch.cat([time, time.repeat_interleave(k)])
                yield self._subgraphs.data_of(batch)

    def _labels(self, e_id, edge_label_index, edge_label, negative_index):
        """PyG's link fields of a batch of the seed edges e_id."""
        p, device = e_id.numel(), edge_label_index.device
        fields = {"input_id": e_id}
        if self.mode == "triplet":
            fields.update(src_index=edge_label_index[0, :p], dst_pos_index=edge_label_index[1, :p],
                          dst_neg_index=negative_index)
        else:
            positive = (torch.ones(p, device=device) if self.edge_label is None
                        else self.edge_label[e_id.to(self.edge_label.device)].to(device))
            if self.mode == "binary":
                positive = positive + (0 if self.edge_label is None else 1)
                label = torch.cat([positive, torch.zeros(edge_label.numel() - p, dtype=positive.dtype, device=device)])
                fields.update(edge_label_index=edge_label_index, edge_label=label)
            else:
                fields.update(edge_label_index=edge_label_index[:, :p], edge_label=positive)
        return fields


def _edge_label_time(edge_label_time, edge_label_index):
    """Each seed edge's time, int64 on the CPU, checked."""
    time = torch.as_tensor(edge_label_time)
    if time.dtype != torch.int64 or time.shape != (edge_label_index.size(1),):
        raise ValueError(f"edge_label_time must be int64 with one time per seed edge ({edge_label_index.size(1)}), "
                         f"got {time.dtype} {list(time.shape)}")
    return time.cpu()


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
