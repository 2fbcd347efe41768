"""matsamp.BulkSampler: an epoch of sampled minibatches, k sampled per call."""
from collections import namedtuple

import torch

from . import _args, _device, ops

#: The default ``memory_budget`` of :class:`BulkSampler`, in bytes: 4 GiB, the
#: C++ EpochOptions default (the CLI's on the CPU is 1 GiB, ``--memory-budget 1G``;
#: matsamp.pyg's CPU loaders take 512 MiB).
DEFAULT_MEMORY_BUDGET = 4 << 30
_INT64_MAX = (1 << 63) - 1   # what the op takes; a larger budget limits nothing more


class Adj(namedtuple("Adj", ["edge_index", "weight", "size"])):
    """The sampled adjacency of one layer of one minibatch, in PyG's orientation.

    edge_index: int64 ``[2, E]``; row 0 indexes the source vertices (this
        layer's inputs), row 1 the targets (its outputs). Edges are sorted by
        target, then source.
    weight: float32 ``[E]``: GraphSAGE 1/(neighbours sampled for the target),
        so a weighted sum is the mean; LADIES / FastGCN the row-normalized
        importance weights; GraphSAINT the subgraph's GCN-normalized
        adjacency (self-loops included), row-normalized.
    size: ``(num_src, num_dst)``. When sources start with the targets
        (GraphSAGE, GraphSAINT, and LADIES / FastGCN with include_frontier) the targets'
        own rows are ``x[:num_dst]``.
    """
    __slots__ = ()

    def to_sparse(self):
        """The layer as a sparse COO tensor ``[num_dst, num_src]``: ``adj.to_sparse() @ x``
        aggregates (a weighted mean for GraphSAGE)."""
        num_src, num_dst = self.size
        return torch.sparse_coo_tensor(self.edge_index.flip(0), self.weight, (num_dst, num_src))


class MiniBatch(namedtuple("MiniBatch", ["n_id", "batch_size", "adjs", "layer_ids", "id"])):
    """One sampled minibatch, shaped for a PyG-style loop::

        for mb in sampler:
            x = features[mb.n_id]
            for layer, (edge_index, weight, size) in zip(model.layers, mb.adjs):
                x = layer(x, edge_index, weight, size)   # x[:size[1]] are the targets
            loss = F.cross_entropy(x, labels[mb.layer_ids[-1]])   # x has batch_size rows

    n_id: int64 global ids of the input vertices (the furthest layer).
    batch_size: number of batch (seed) vertices.
    adjs: one :class:`Adj` per layer in the order a model consumes them:
        adjs[i] maps layer_ids[i] (sources) to layer_ids[i + 1] (targets).
    layer_ids: int64 global ids per layer, input first; layer_ids[0] is n_id
        and layer_ids[-1] the batch vertices.
    id: global minibatch id within the epoch (part of the random key).
    """
    __slots__ = ()


class BulkSampler:
    """An iterable over the minibatches of an epoch, sampled k (``bulk_size``) at a time.

    The epoch is cut as ``matsamp train`` and ``matsamp sample`` cut theirs (the
    C++ EpochPlan): the input nodes are shuffled with a Philox key of (seed,
    epoch), cut into minibatches of ``batch_size`` numbered 0, 1, ..., and the
    minibatches of one call are sampled together. Same graph, nodes, sizes,
    seed and epoch give the same minibatches as the CLI, bit for bit, whatever
    ``bulk_size`` (with ``locality_blocks``: the same ``bulk_size`` and
    ``minibatches_per_step`` as the CLI's ``--bulk-size`` steps and
    ``--minibatches-per-step``). Minibatches come in the order ``train``'s steps
    take them: step by step, each step's lanes in order.

    By default k is chosen as the C++ does: the largest k (at most the number
    of minibatches) whose estimated sampling memory fits ``memory_budget``
    (:func:`matsamp.ops.bulk_size_for_budget`); ``bulk_size`` sets it instead.
    The chosen k is the attribute ``bulk_size``; it changes only how many
    minibatches are sampled per call, never which.

    Each ``iter()`` runs one epoch and then advances ``epoch`` by one (set it
    with :meth:`set_epoch`).

    Args:
        graph: a :class:`matsamp.Graph`.
        batch_size: batch vertices per minibatch (the last one may be smaller).
        input_nodes: int64 vertex ids or a bool mask over the vertices; None for all.
        sampler: "graphsage" (default), "labor" (LABOR-0: GraphSAGE's layers
            with neighbours kept by random numbers a minibatch's rows share, so
            fewer input nodes), "ladies", "fastgcn", "saint"
            (GraphSAINT: each batch vertex roots a random walk, and every layer is
            the subgraph induced by the roots and the vertices the walks visited),
            "saint_node" (the same with vertices drawn ∝ ‖Â[:,v]‖²), "saint_edge"
            (with the endpoints of edges drawn ∝ 1/deg(u) + 1/deg(v)) or "frontier"
            (GraphSAINT's frontier sampler: the batch is the frontier, each step
            pops a vertex ∝ its degree and walks it to a neighbour).
        sizes: per layer, batch layer first: GraphSAGE neighbours per vertex, or
            LADIES / FastGCN vertices per minibatch; -1 takes all. GraphSAINT:
            the walk length ("saint") or the vertices / edges drawn / steps per
            minibatch ("saint_node" / "saint_edge" / "frontier"), the same for every layer (``(2, 2)``: walks of two
            steps, two layers).
        include_frontier: LADIES / FastGCN: each layer keeps the previous layer's
            vertices first (needed for ``x[:size[1]]``).
        bulk_size: minibatches sampled per call (k); None (the default): the
            largest k that fits ``memory_budget``. Either way at most the number
            of minibatches, ``len(self)``, and whole steps: k // minibatches_per_step
            steps, at least one.
        memory_budget: bytes one bulk may use when ``bulk_size`` is None, an int
            (default :data:`DEFAULT_MEMORY_BUDGET`, 4 GiB; ``matsamp sample``'s CPU default is 1 GiB).
            The estimate is the C++ one for these sizes; a GraphSAGE size of -1
            counts as the graph's largest degree.
        shuffle: False keeps ``input_nodes`` in their order.
        locality_blocks: 0 (default), or fill the minibatches of lane j of each
            step from the nodes of one of this many equal ranges of vertex ids,
            j·B/lanes, with balanced steps (as ``matsamp train --locality-blocks``).
            On a graph renumbered by ``matsamp partition --parts P`` with P blocks,
            a minibatch's neighbourhood stays mostly in its part; minibatches are
            then less alike than over all nodes.
        minibatches_per_step: the lanes of a step (0, the default: one, or with
            locality blocks B, B); B must divide it.
        bulk_steps: steps of the epoch layout's bulks (None: as many as
            ``bulk_size`` holds), as ``matsamp train --bulk-size``; with
            locality blocks they decide which nodes a minibatch holds. A layout
            bulk is sampled in calls of ``bulk_size`` and then yielded step by step.
        seed: sampling seed (with epoch and minibatch id, the random key).
        epoch: the epoch of the first iteration.
        device: where yielded tensors go (default: the graph's device);
            sampling runs where the graph is.
        saint_norm: the GraphSAINT samplers: GraphSAINT's aggregator
            normalization (``weight`` = Â_vu / α_uv, unbiased; α estimated once
            per graph by pre-sampling); False: the subgraph's rows normalized.
        replace: GraphSAGE draws with replacement (PyG's ``replace=True``):
            ``sizes[l]`` independent draws per vertex with a neighbour, repeats kept.
        expand_new_only: the node-wise samplers expand, at each layer after the
            first, only the vertices the layer before added (PyG's loaders'
            rule; the others keep empty rows): fewer draws and vertices, the
            same layer shapes. By default every vertex of the frontier draws.

    Attributes:
        bulk_size: k, the minibatches sampled per call (chosen or given).
        memory_budget: the budget in bytes k was or would have been chosen for.

    Raises:
        TypeError: ``graph`` is not a :class:`matsamp.Graph`, or ``sampler``
            or ``sizes`` has the wrong type.
        ValueError: a bad argument, named in the message: among them a
            ``memory_budget`` that is not a positive int, or one below what a
            single minibatch needs (the message gives that size).
    """

    def __init__(self, graph, batch_size, input_nodes=None, *, sampler="graphsage", sizes=(15, 10),
                 include_frontier=True, bulk_size=None, memory_budget=DEFAULT_MEMORY_BUDGET,
                 shuffle=True, locality_blocks=0, minibatches_per_step=0, bulk_steps=None, seed=1, epoch=0,
                 device=None, saint_norm=False, replace=False, expand_new_only=False):
        _args.graph(graph)
        if _args.string(sampler, "sampler") not in ops.SAMPLERS:
            raise ValueError(f"sampler must be one of {', '.join(ops.SAMPLERS)}; got {sampler!r}")
        self.graph = graph
        self.sampler = sampler
        if isinstance(sizes, (str, bytes, torch.Tensor)) or not hasattr(sizes, "__iter__"):
            raise TypeError(f"sizes must be a list of ints, got {_args.type_name(sizes)}")
        sizes = list(sizes)
        if torch.ops.matsamp.sampler_sizes_option(sampler) in ("walk_length", "budget") and (
                -1 in sizes or len(set(sizes)) > 1):
            raise ValueError(f"sizes {sizes}: {sampler} takes its walk length or budget once "
                             "per layer, all equal and positive")
        self.sizes = _layer_sizes(sizes, graph.num_nodes)
        self.batch_size = _positive_int(batch_size, "batch_size")
        self.nodes = _input_nodes(input_nodes, graph)
        self.locality_blocks = _non_negative_int(locality_blocks, "locality_blocks")
        if self.locality_blocks > graph.num_nodes:
            raise ValueError(f"locality_blocks: {self.locality_blocks} blocks for {graph.num_nodes} nodes; "
                             "need at most one per node")
        self.minibatches_per_step = _non_negative_int(minibatches_per_step, "minibatches_per_step")
        self._lanes = self.minibatches_per_step or max(1, self.locality_blocks)
        self._steps_per_bulk = 1
        self._num_minibatches = len(self._order(0, shuffle=False)[1]) - 1
        self.include_frontier = bool(include_frontier)
        self.saint_norm = bool(saint_norm)
        self.memory_budget = _positive_int(memory_budget, "memory_budget", " (bytes)")
        if bulk_size is None:
            self.bulk_size = ops.bulk_size_for_budget(
                graph, sampler, _estimate_sizes(sampler, sizes, self.sizes, graph), self.batch_size,
                len(self), min(self.memory_budget, _INT64_MAX), include_frontier=self.include_frontier)
        else:
            self.bulk_size = min(_positive_int(bulk_size, "bulk_size"), len(self))
        self._steps_per_bulk = (max(1, self.bulk_size // self._lanes) if bulk_steps is None
                                else _positive_int(bulk_steps, "bulk_steps"))
        self.shuffle = bool(shuffle)
        self.seed = _non_negative_int(seed, "seed")
        self.epoch = _non_negative_int(epoch, "epoch")
        self.device = graph.device if device is None else _device.output_device(device)
        self.temporal_strategy = "uniform"  # matsamp.pyg's temporal loaders set it
        self.replace = bool(replace)
        self.expand_new_only = bool(expand_new_only)

    def __len__(self):
        return self._num_minibatches

    def _order(self, epoch, shuffle):
        return ops.epoch_order(self.nodes, self.graph.num_nodes, self.batch_size, self.seed if shuffle else 0, epoch,
                               self.locality_blocks, shuffle, self._lanes, self._steps_per_bulk)

    def set_epoch(self, epoch):
        """The epoch the next iteration samples."""
        self.epoch = _non_negative_int(epoch, "epoch")

    def __iter__(self):
        epoch, self.epoch = self.epoch, self.epoch + 1
        return self._epoch(epoch)

    def _epoch(self, epoch):
        for calls, sequence in self._sampled_bulks(epoch):
            minibatches = [mb for first, seeds, offsets, layers in calls
                           for mb in _split_bulk(layers, seeds, offsets, first, self.device)]
            begin = calls[0][0]
            for g in sequence:  # in the steps' order
                yield minibatches[g - begin]

    def _sampled_bulks(self, epoch, edge_positions=False, trees=False, seed_time=None):
        """Each bulk of the epoch's layout, sampled: its calls' (first minibatch,
        seeds, seed offsets, layers) and its minibatch ids in the steps' order.
        With trees, each seed is sampled as a block of its own (disjoint trees, keyed
        by the seed's place in the epoch), by its time seed_time[seed] when given."""
        order, starts, sequence = self._order(epoch, self.shuffle)
        per_bulk = self._lanes * self._steps_per_bulk  # a layout bulk: minibatch ids [begin, end)
        for begin in range(0, len(self), per_bulk):
            end = min(len(self), begin + per_bulk)
            calls = []
            for first in range(begin, end, self.bulk_size):
                last = min(end, first + self.bulk_size)
                offsets = [starts[g] - starts[first] for g in range(first, last + 1)]
                seeds = order[starts[first]:starts[last]].to(self.graph.device)
                blocks = torch.arange(seeds.numel() + 1) if trees else torch.tensor(offsets)
                layers = ops.sample_bulk(self.graph, self.sampler, seeds, blocks, self.sizes,
                                         first_minibatch=int(starts[first]) if trees else first, epoch=epoch,
                                         seed=self.seed, include_frontier=self.include_frontier,
                                         saint_norm=self.saint_norm, edge_positions=edge_positions,
                                         seed_times=None if seed_time is None else seed_time[seeds],
                                         temporal_strategy=self.temporal_strategy, replace=self.replace,
                                         expand_new_only=self.expand_new_only)
                calls.append((first, seeds, offsets, layers))
            yield calls, sequence[begin:end]


def _split_bulk(layers, seeds, seed_offsets, first_minibatch, device):
    """The MiniBatches of a bulk: each cut out of the stacked layers by its offsets."""
    bounds = [(layer.row_offsets.tolist(), layer.col_offsets.tolist()) for layer in layers]
    layers = [ops.SampledLayer(*(t.to(device) for t in layer)) for layer in layers]
    seeds = seeds.to(device)
    for g in range(len(seed_offsets) - 1):
        adjs, layer_ids = [], [seeds[seed_offsets[g]:seed_offsets[g + 1]]]
        for layer, (rows, cols) in zip(layers, bounds):
            adjs.append(_cut_layer(layer, rows[g], rows[g + 1], cols[g], cols[g + 1]))
            layer_ids.append(layer.vertices[cols[g]:cols[g + 1]])
        adjs.reverse()
        layer_ids.reverse()
        yield MiniBatch(layer_ids[0], seed_offsets[g + 1] - seed_offsets[g], adjs, layer_ids,
                        first_minibatch + g)


def _cut_layer(layer, r0, r1, c0, c1):
    """Rows [r0, r1) and columns [c0, c1) of a stacked layer as a local Adj."""
    rowptr = layer.rowptr[r0:r1 + 1]
    e0, e1 = int(rowptr[0]), int(rowptr[-1])
    targets = torch.repeat_interleave(torch.arange(r1 - r0, device=rowptr.device), rowptr.diff())
    sources = layer.col[e0:e1].to(torch.int64) - c0
    return Adj(torch.stack([sources, targets]), layer.value[e0:e1], (c1 - c0, r1 - r0))


def _positive_int(value, name, unit=""):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(f"{name} must be a positive integer{unit}, got {value!r}")
    return value


def _non_negative_int(value, name):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    return value


def _layer_sizes(sizes, num_nodes):
    """Per-layer sizes as the ops take them: -1 becomes num_nodes (more than any row holds)."""
    sizes = list(sizes)
    if not sizes:
        raise ValueError("sizes must list at least one layer")
    for layer, size in enumerate(sizes):
        if isinstance(size, bool) or not isinstance(size, int) or not (size > 0 or size == -1):
            raise ValueError(f"sizes[{layer}] = {size!r}: every layer needs a positive size "
                             "(or -1 for all)")
    return [num_nodes if size == -1 else size for size in sizes]


def _estimate_sizes(sampler, given, sizes, graph):
    """The sizes the bulk size is estimated for: ``sizes``, except that a GraphSAGE
    layer of -1 (all neighbours) counts as the largest degree, which samples the same
    as num_nodes does but needs far less memory than the estimate for num_nodes."""
    if "node_wise" not in ops.SAMPLER_TRAITS[sampler] or -1 not in given:
        return sizes
    rowptr = graph.csr()[0]
    max_degree = max(1, int(rowptr.diff().max())) if rowptr.numel() > 1 else 1
    return [max_degree if g == -1 else s for g, s in zip(given, sizes)]


def _input_nodes(nodes, graph):
    """The input nodes as int64 ids on the CPU, checked to be vertices of the graph."""
    n = graph.num_nodes
    if nodes is None:
        return torch.arange(n, dtype=torch.int64)
    if not isinstance(nodes, torch.Tensor):
        raise TypeError(f"input_nodes must be a tensor of vertex ids or a bool mask, got "
                        f"{type(nodes).__name__}")
    nodes = nodes.cpu()
    if nodes.dtype == torch.bool:
        if nodes.shape != (n,):
            raise ValueError(f"input_nodes: a bool mask needs shape [{n}], got {tuple(nodes.shape)}")
        nodes = nodes.nonzero().flatten()
    if nodes.dtype != torch.int64 or nodes.dim() != 1:
        raise TypeError(f"input_nodes must be a 1-D int64 tensor or a bool mask, got "
                        f"{nodes.dtype} of shape {tuple(nodes.shape)}")
    if nodes.numel() == 0:
        raise ValueError("input_nodes is empty")
    bad = (nodes < 0) | (nodes >= n)
    if bool(bad.any()):
        i = int(bad.nonzero()[0])
        raise ValueError(f"input_nodes[{i}] = {int(nodes[i])} is out of range [0, {n})")
    return nodes.contiguous()
