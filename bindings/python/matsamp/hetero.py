"""matsamp.HeteroGraph and matsamp.HeteroBulkSampler: heterogeneous graphs
(typed vertices, relations) and their sampling, node-wise with a fanout per
relation or layer-wise with a budget per vertex type (HGT's)."""
import os
from typing import Dict, List, NamedTuple, Tuple

import torch

from . import _args, ops

EdgeType = Tuple[str, str, str]


def _positive(x, name):
    value = _args.integer(x, name)
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value}")
    return value


def _times_of(times, key, what):
    """times[key] as a contiguous int64 CPU tensor (None when not given), checked."""
    value = times.get(key)
    if value is None:
        return None
    if not isinstance(value, torch.Tensor) or value.dtype != torch.int64 or value.dim() != 1:
        raise ValueError(f"{what}[{key!r}] must be a 1-D int64 tensor, got "
                         f"{getattr(value, 'dtype', type(value).__name__)} {list(getattr(value, 'shape', []))}")
    return value.cpu().contiguous()


class HeteroGraph:
    """A heterogeneous graph held by the C++ engine: vertex types with their
    counts (and features, labels and splits when the dataset has them), and
    relations ``(source, name, destination)`` as PyG names its edge types.

    Make one with :meth:`load` (OGB's heterogeneous layout as downloaded,
    ``ogbn_mag/``), :meth:`from_edge_index_dict` (PyG's ``HeteroData`` fields)
    or :meth:`generate_mag` (a graph of ogbn-mag's shape). By default the
    reverse of every relation between two types is added and a relation within
    one type made symmetric, as PyG's ``ToUndirected`` does.
    """

    def __init__(self, handle):
        """Internal: use :meth:`load`, :meth:`from_edge_index_dict` or :meth:`generate_mag`."""
        self.handle = handle  # torch.classes.matsamp.HeteroGraph, what the op takes

    @classmethod
    def _made(cls, handle, add_reverse):
        if add_reverse:
            handle.add_reverse_relations()
        return cls(handle)

    @classmethod
    def load(cls, path, *, add_reverse=True):
        """Reads an OGB heterogeneous dataset folder (raw/num-node-dict.csv.gz, raw/relations/...) or a
        heterogeneous .msg file (``matsamp convert -g ogbn_mag -o mag.msg``)."""
        return cls._made(torch.classes.matsamp.HeteroGraph.load(os.fspath(path)), add_reverse)

    @classmethod
    def generate_mag(cls, papers, *, classes=8, seed=1, add_reverse=True):
        """A generated graph of ogbn-mag's shape (papers, authors, institutions, fields)."""
        return cls._made(torch.classes.matsamp.HeteroGraph.generate_mag(
            _args.integer(papers, "papers"), _args.integer(classes, "classes"), _args.integer(seed, "seed")),
            add_reverse)

    @classmethod
    def from_edge_index_dict(cls, num_nodes_dict: Dict[str, int], edge_index_dict: Dict[EdgeType, torch.Tensor], *,
                             add_reverse=True, node_time_dict: Dict[str, torch.Tensor] = None,
                             edge_time_dict: Dict[EdgeType, torch.Tensor] = None):
        """From PyG's ``HeteroData`` fields: ``{type: count}`` and ``{(src, rel, dst): edge_index}``
        with ``edge_index[0]`` source ids and ``edge_index[1]`` destination ids; ``node_time_dict``
        ``{type: int64 times}`` for sampling by time (an edge is as late as its source, and a type
        left out is never too late, as in PyG); ``edge_time_dict`` ``{edge type: int64 times}``,
        one per edge (an edge type given them is sampled by its edges' own times, PyG's edge-level
        rule; repeated edges count as the earliest of them; no reverses are added then)."""
        if not isinstance(num_nodes_dict, dict) or not num_nodes_dict:
            raise ValueError("num_nodes_dict must be a non-empty dict {node type: count}")
        names = list(num_nodes_dict)
        handle = torch.classes.matsamp.HeteroGraph(names, [_args.integer(num_nodes_dict[n], f"num_nodes_dict[{n!r}]")
                                                           for n in names])
        unknown = [key for key in (edge_time_dict or {}) if tuple(key) not in set(map(tuple, edge_index_dict))]
        if unknown:
            raise ValueError(f"edge_time_dict: unknown edge types {unknown}")
        for key, edge_index in edge_index_dict.items():
            if not (isinstance(key, tuple) and len(key) == 3 and all(isinstance(k, str) for k in key)):
                raise ValueError(f"edge types are (source, relation, destination) tuples of str, got {key!r}")
            if not isinstance(edge_index, torch.Tensor) or edge_index.dim() != 2 or edge_index.size(0) != 2:
                raise ValueError(f"edge_index of {key} must be a [2, E] tensor, got "
                                 f"{tuple(getattr(edge_index, 'shape', ()))}")
            handle.add_relation(key[0], key[1], key[2], edge_index[0].to(torch.int64).contiguous(),
                                edge_index[1].to(torch.int64).contiguous(),
                                _times_of(edge_time_dict or {}, tuple(key), "edge_time_dict"))
        for node_type in (node_time_dict or {}):
            if node_type not in num_nodes_dict:
                raise ValueError(f"node_time_dict: unknown node type {node_type!r} (the types are {', '.join(names)})")
            handle.set_times(node_type, _times_of(node_time_dict, node_type, "node_time_dict"))
        return cls._made(handle, add_reverse)

    @property
    def node_types(self) -> List[str]:
        return list(self.handle.types())

    @property
    def edge_types(self) -> List[EdgeType]:
        return [tuple(key.split(",")) for key in self.handle.relations()]

    @property
    def num_nodes_dict(self) -> Dict[str, int]:
        return dict(zip(self.handle.types(), self.handle.counts()))

    @property
    def node_time_dict(self) -> Dict[str, torch.Tensor]:
        """Each timed type's vertex times (OGB's node_year, or node_time_dict's)."""
        times = {t: self.handle.times(t) for t in self.node_types}
        return {t: v for t, v in times.items() if v.numel()}

    def features(self, node_type):
        """float32 ``[count, f]`` (f = 0 when the type has none)."""
        return self.handle.features(node_type)

    def labels(self, node_type):
        return self.handle.labels(node_type)

    def split(self, node_type, name):
        """The dataset's ``"train"``, ``"valid"`` or ``"test"`` ids of a type (empty when it has none)."""
        return self.handle.split(node_type, name)


class HeteroBatch(NamedTuple):
    """One minibatch, in the form of a PyG ``HeteroData`` subgraph.

    ``n_id[t]``: the global ids of the type-t vertices the minibatch touches (the
    seeds first, for the seed type); ``edge_index[e]``: the sampled edges of edge
    type e over all layers, as local ids into ``n_id`` (row 0 sources, row 1
    destinations); ``layers``: per layer (batch layer first) ``{e: (edge_index,
    weight)}`` with the mean-aggregation weights, for layer-by-layer models: layer
    l's destinations are the first ``layer_sizes[l - 1][t]`` vertices of ``n_id[t]``
    (the seeds for l = 0), its sources the first ``layer_sizes[l][t]``."""
    id: int
    seed_type: str
    batch_size: int
    n_id: Dict[str, torch.Tensor]
    edge_index: Dict[EdgeType, torch.Tensor]
    layers: List[Dict[EdgeType, Tuple[torch.Tensor, torch.Tensor]]]
    layer_sizes: List[Dict[str, int]]


def _per_part(counts, parts, what, kind):
    """Counts per layer for every part (a list for all, or a dict {part: list},
    parts left out getting zeros), flattened part-major, and the layer count."""
    if isinstance(counts, dict):
        layers = {len(v) for v in counts.values()}
        if len(layers) != 1:
            raise ValueError(f"{what}: every {kind} needs the same number of layers")
        unknown = [k for k in counts if (tuple(k) if isinstance(k, (tuple, list)) else k) not in parts]
        if unknown:
            raise ValueError(f"{what}: unknown {kind}s {unknown} (the graph has {parts})")
        layers = layers.pop()
        per_part = [list(counts.get(p, [0] * layers)) for p in parts]
    else:
        layers = len(counts)
        per_part = [list(counts) for _ in parts]
    if layers == 0:
        raise ValueError(f"{what}: at least one layer is needed")
    return [_args.integer(c, what) for cs in per_part for c in cs], layers


class HeteroBulkSampler:
    """Minibatches of ``seed_type`` vertices, ``bulk_size`` minibatches per call
    of the engine; the same seed gives the same minibatches whatever the bulk size.

    Args:
        graph: a :class:`HeteroGraph`.
        seed_type: the vertex type of the seeds.
        batch_size: seeds per minibatch.
        input_nodes: the seeds' ids (default: the type's "train" split).
        num_neighbors: node-wise sampling (``sampler="graphsage"``): a list
            (every relation, batch layer first) or a dict ``{edge type: list}``
            as PyG's NeighborLoader takes it (relations left out are not sampled).
        num_samples: layer-wise sampling (``sampler="hgt"``): vertices drawn per
            minibatch, a list (every vertex type) or a dict ``{node type: list}``
            as PyG's HGTLoader takes it, with p ∝ the squared normalised degree
            within each type (types left out are not sampled).
        sampler: ``"graphsage"`` (default when num_neighbors is given) or ``"hgt"``
            (default when num_samples is given).
        shuffle, seed, bulk_size: the epoch order's shuffle and seed, and
            minibatches per engine call.
    """

    def __init__(self, graph, seed_type, batch_size, input_nodes=None, *, num_neighbors=None, num_samples=None,
                 sampler=None, shuffle=True, seed=1, bulk_size=16):
        if not isinstance(graph, HeteroGraph):
            raise TypeError(f"graph must be a matsamp.HeteroGraph, got {type(graph).__name__}")
        if seed_type not in graph.node_types:
            raise ValueError(f"unknown vertex type {seed_type!r} (the types are {', '.join(graph.node_types)})")
        if sampler is None:
            sampler = ops.hetero_sampler_of("layer_wise" if num_samples is not None else "node_wise")
        if sampler not in ops.HETERO_SAMPLERS:
            raise ValueError(f"unknown heterogeneous sampler {sampler!r} ({', '.join(ops.HETERO_SAMPLERS)})")
        self.sampler = sampler
        self.graph, self.seed_type = graph, seed_type
        self.batch_size = _positive(batch_size, "batch_size")
        self.bulk_size = _positive(bulk_size, "bulk_size")
        self.seed, self.shuffle, self.epoch = _args.integer(seed, "seed"), bool(shuffle), 0
        self.input_nodes = (graph.split(seed_type, "train") if input_nodes is None
                            else torch.as_tensor(input_nodes, dtype=torch.int64))
        if ops.HETERO_SAMPLERS[sampler] == "layer_wise":
            if num_samples is None or num_neighbors is not None:
                raise ValueError(f"sampler={sampler!r} takes num_samples (vertices per type and layer), not num_neighbors")
            self.counts, self.layers = _per_part(num_samples, graph.node_types, "num_samples", "node type")
        else:
            if num_neighbors is None or num_samples is not None:
                raise ValueError("sampler='graphsage' takes num_neighbors (a fanout per relation and layer), "
                                 "not num_samples")
            self.counts, self.layers = _per_part(num_neighbors, graph.edge_types, "num_neighbors", "edge type")

    def __len__(self):
        return (len(self.input_nodes) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        for first, _, seeds, offsets, epoch in self._calls():
            out = torch.ops.matsamp.sample_hetero(*self._arguments(seeds, offsets, first, epoch))
            for g in range(len(offsets) - 1):
                yield self._batch(out, g, first + g, seeds[offsets[g]:offsets[g + 1]])

    def _calls(self):
        """One epoch's calls of the engine: (first minibatch, its first seed's place
        in the epoch, seeds, seed offsets, epoch), advancing the epoch as iterating does."""
        order, starts, _ = torch.ops.matsamp.epoch_order(self.input_nodes, self.graph.num_nodes_dict[self.seed_type],
                                                         self.batch_size, self.seed, self.epoch, 0, self.shuffle)
        epoch, self.epoch = self.epoch, self.epoch + 1
        minibatches = len(starts) - 1
        for first in range(0, minibatches, self.bulk_size):
            end = min(minibatches, first + self.bulk_size)
            yield first, int(starts[first]), order[starts[first]:starts[end]], starts[first:end + 1] - starts[first], epoch

    def _arguments(self, seeds, offsets, first, epoch):
        """The sampling op's arguments for one call (sample_hetero, pyg_hetero_batches)."""
        return (self.graph.handle, self.seed_type, seeds, offsets, self.sampler, self.counts, self.layers, first, epoch,
                self.seed)

    def _batch(self, out, g, minibatch, seeds):
        rowptr, col, value, row_offsets, vertices, vertex_offsets = out
        types, edge_types = self.graph.node_types, self.graph.edge_types
        relations, last = len(edge_types), self.layers - 1
        index = {t: i for i, t in enumerate(types)}
        n_id = {t: vertices[last * len(types) + i][vertex_offsets[last * len(types) + i][g]:
                                                   vertex_offsets[last * len(types) + i][g + 1]]
                for i, t in enumerate(types)}
        layer_sizes = [{t: int(vertex_offsets[layer * len(types) + i][g + 1] - vertex_offsets[layer * len(types) + i][g])
                        for i, t in enumerate(types)} for layer in range(self.layers)]
        layers, merged = [], {}
        for layer in range(self.layers):
            per_layer = {}
            for r, e in enumerate(edge_types):
                j = layer * relations + r
                if len(row_offsets[j]) == 0:
                    continue
                r0, r1 = int(row_offsets[j][g]), int(row_offsets[j][g + 1])
                ptr = rowptr[j][r0:r1 + 1]
                cols = col[j][int(ptr[0]):int(ptr[-1])].to(torch.int64)
                weight = value[j][int(ptr[0]):int(ptr[-1])]
                src_offsets = vertex_offsets[layer * len(types) + index[e[0]]]
                source = cols - src_offsets[g]  # positions in V_src of this layer: a prefix of n_id[src]
                target = torch.repeat_interleave(torch.arange(r1 - r0), ptr.diff())
                edge_index = torch.stack([source, target])
                per_layer[e] = (edge_index, weight)
                merged.setdefault(e, []).append(edge_index)
            layers.append(per_layer)
        edge_index = {e: _unique_columns(torch.cat(parts, 1)) for e, parts in merged.items()}
        return HeteroBatch(minibatch, self.seed_type, len(seeds), n_id, edge_index, layers, layer_sizes)


def _unique_columns(edge_index):
    """torch.unique(edge_index, dim=1), in the same order, through one int64 key
    per column: unique over columns is far slower in torch."""
    width = int(edge_index[1].max()) + 1 if edge_index.numel() else 1
    keys = torch.unique(edge_index[0] * width + edge_index[1])
    return torch.stack([keys // width, keys % width])
