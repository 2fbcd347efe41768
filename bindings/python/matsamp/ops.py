"""Python entry points of the torch ops (torch.ops.matsamp.*), with device checks and docs."""
from collections import namedtuple

import torch

from . import _args, _device

#: The samplers the ops take, by name: the C++ sampler registry's.
SAMPLERS = tuple(torch.ops.matsamp.samplers())
#: What each sampler is and can do: its family ("node_wise", "layer_wise",
#: "subgraph") and its capabilities ("edge_seeds", "partitioned", "estimates", "importance").
SAMPLER_TRAITS = {name: frozenset(torch.ops.matsamp.sampler_traits(name)) for name in SAMPLERS}
#: The samplers of heterogeneous graphs, with each one's family.
HETERO_SAMPLERS = {name: torch.ops.matsamp.hetero_sampler_family(name) for name in torch.ops.matsamp.hetero_samplers()}


def samplers_with(trait):
    """The samplers that have ``trait`` (a family or a capability), in registry order."""
    return tuple(name for name in SAMPLERS if trait in SAMPLER_TRAITS[name])


def hetero_sampler_of(family):
    """The heterogeneous sampler of ``family`` ("node_wise" or "layer_wise")."""
    return next(name for name, f in HETERO_SAMPLERS.items() if f == family)


def describe_samplers():
    """Each sampler's one-line summary and the option its ``sizes`` set, by name."""
    return {name: (torch.ops.matsamp.sampler_summary(name), torch.ops.matsamp.sampler_sizes_option(name))
            for name in SAMPLERS}

SampledLayer = namedtuple("SampledLayer",
                          ["rowptr", "col", "value", "row_offsets", "col_offsets", "vertices", "positions"])
SampledLayer.__doc__ = """One layer of k stacked minibatches, as the ops return it.

rowptr (int64), col (int32), value (float32): the block-diagonal CSR of all k
minibatches; col holds stacked column ids. Minibatch g owns rows
[row_offsets[g], row_offsets[g+1]) and columns [col_offsets[g], col_offsets[g+1]);
column j is vertex vertices[j]. Rows are the previous layer's vertices (the
seeds for layer 0), columns list those first (GraphSAGE, GraphSAINT; LADIES and
FastGCN with include_frontier), then the newly sampled vertices in ascending id.
positions (int64, with ``edge_positions``; else empty): each entry's position
in the graph's CSR (-1 for a self-loop of Â that the graph lacks), so
``graph.edge_ids[positions]`` are the caller's edge ids of the sampled edges.
"""


def sample_bulk(graph, sampler, seeds, seed_offsets, sizes, *, first_minibatch=0, epoch=0, seed=1,
                include_frontier=True, saint_norm=False, edge_positions=False, seed_times=None,
                temporal_strategy="uniform", replace=False, expand_new_only=False):
    """Samples k minibatches at once: ``torch.ops.matsamp.sample``.

    Args:
        graph: a :class:`matsamp.Graph`.
        sampler: "graphsage", "labor" (LABOR-0: GraphSAGE's layers, each
            neighbour kept with probability min(1, size / degree) by a random number
            that all rows of a minibatch share), "ladies", "fastgcn", "saint" (GraphSAINT random
            walks: every layer is the subgraph induced by the roots, which are the
            seeds, and the vertices their walks visited), "saint_node" (the same
            with vertices drawn in proportion to ‖Â[:,v]‖² instead of walks),
            "saint_edge" (with the endpoints of edges drawn ∝ 1/deg(u) + 1/deg(v))
            or "frontier" (GraphSAINT's frontier sampler, the seeds the frontier).
        seeds: int64 batch vertices of all k minibatches, stacked.
        seed_offsets: int64 ``[k + 1]``; minibatch g is seeds[seed_offsets[g]:seed_offsets[g+1]].
        sizes: per layer, batch layer first: GraphSAGE neighbours per vertex (LABOR: expected),
            LADIES / FastGCN vertices per minibatch, or GraphSAINT's walk length
            ("saint") or vertices / edges drawn per minibatch ("saint_node" /
            "saint_edge"), the same for every layer.
        first_minibatch: global id of the first minibatch (part of every random key).
        epoch, seed: the rest of the random key. Same arguments, same result, whatever k.
        include_frontier: LADIES / FastGCN: each layer's vertices start with the previous layer's.
        saint_norm: the GraphSAINT samplers: GraphSAINT's aggregator normalization,
            layer entries Â_vu / α_uv (α estimated once per graph by pre-sampling),
            an unbiased aggregation; False: rows normalized.
        edge_positions: also locate each sampled entry in the graph's CSR
            (``SampledLayer.positions``), on the device that sampled.
        seed_times: int64 ``[k]``, each minibatch's time: temporal sampling (the
            samplers with the "temporal" trait, on a graph built with times): no
            sampled edge of minibatch g, in any layer, is later than seed_times[g].
            One seed per minibatch samples each seed's tree by its own time.
        temporal_strategy: "uniform" (draw among the edges early enough) or "last"
            (the latest of them), as pyg-lib's.
        replace: draw with replacement (GraphSAGE, as PyG's replace=True): each
            vertex with a neighbour draws exactly sizes[l] times, repeats kept.
        expand_new_only: the node-wise samplers: layer l > 0 draws only for the
            vertices layer l - 1 added, as PyG's loaders expand (the others keep
            empty rows, so layers keep their shape: rows the previous layer's
            vertices); by default every vertex of the frontier draws.

    Returns:
        A list of :class:`SampledLayer`, in sampling order (index 0 has the seeds as rows).
    """
    _args.graph(graph)
    _check_sampler(sampler)
    _device.check_same_device(seeds, graph, "seeds")
    _args.tensor(seed_offsets, "seed_offsets")
    out = torch.ops.matsamp.sample(graph.handle, sampler, seeds, seed_offsets, _args.int_list(sizes, "sizes"),
                                   _args.integer(first_minibatch, "first_minibatch"), _args.integer(epoch, "epoch"),
                                   _args.integer(seed, "seed"), bool(include_frontier), bool(saint_norm),
                                   bool(edge_positions), seed_times, _args.string(temporal_strategy, "temporal_strategy"),
                                   bool(replace), bool(expand_new_only))
    return [SampledLayer(*fields) for fields in zip(*out)]


def bulk_size_for_budget(graph, sampler, sizes, batch_size, minibatches, budget_bytes, *,
                         include_frontier=True):
    """The bulk size k that fits ``budget_bytes``: ``torch.ops.matsamp.bulk_size_for_budget``.

    The largest k in [1, minibatches] whose estimated sampling memory fits the
    budget, for the sampler :func:`sample_bulk` builds with these arguments:
    the k the C++ EpochIterator (and ``matsamp sample --bulk-size 0
    --memory-budget ...``) picks. The estimate depends on the graph's size,
    the sampler, sizes, include_frontier and batch_size, not on the seeds.

    Args:
        graph: a :class:`matsamp.Graph`.
        sampler: one of :data:`SAMPLERS`.
        sizes: per layer, batch layer first, as for :func:`sample_bulk`.
        batch_size: batch vertices per minibatch.
        minibatches: minibatches in the epoch (k is at most this).
        budget_bytes: memory for one bulk, in bytes (positive).
        include_frontier: LADIES / FastGCN, as for :func:`sample_bulk`.

    Raises:
        ValueError: not even one minibatch fits the budget (the message gives
            the bytes one needs), or a non-positive batch_size, minibatches or
            budget_bytes, an unknown sampler, bad sizes.
    """
    _args.graph(graph)
    _check_sampler(sampler)
    return torch.ops.matsamp.bulk_size_for_budget(graph.handle, sampler, _args.int_list(sizes, "sizes"),
                                                  bool(include_frontier), _args.integer(batch_size, "batch_size"),
                                                  _args.integer(minibatches, "minibatches"),
                                                  _args.integer(budget_bytes, "budget_bytes"))


def epoch_order(nodes, num_nodes, batch_size, seed, epoch, locality_blocks=0, shuffle=True, minibatches_per_step=0,
                bulk_steps=1):
    """The epoch's node order, where each minibatch starts in it (``starts``, one
    more than the minibatches) and the minibatch ids in the order steps train on
    them (``sequence``): the C++ EpochPlan that the CLI and the trainer cut their
    epochs with. ``nodes`` are shuffled with a Philox key of (seed, epoch), or
    kept in order; steps take ``minibatches_per_step`` minibatches (lanes; 0:
    one, or ``locality_blocks``), sampled ``bulk_steps`` steps at a time; with
    ``locality_blocks`` B > 0 lane j's minibatches come from block j·B/lanes of
    B equal id ranges of [0, num_nodes)."""
    order, starts, sequence = torch.ops.matsamp.epoch_order(
        _args.tensor(nodes, "nodes"), _args.integer(num_nodes, "num_nodes"), _args.integer(batch_size, "batch_size"),
        _args.integer(seed, "seed"), _args.integer(epoch, "epoch"), _args.integer(locality_blocks, "locality_blocks"),
        bool(shuffle), _args.integer(minibatches_per_step, "minibatches_per_step"),
        _args.integer(bulk_steps, "bulk_steps"))
    return order, starts.tolist(), sequence.tolist()


def shuffle_nodes(nodes, seed, epoch, stream=0):
    """``nodes`` in the order of epoch ``epoch`` (the C++ EpochIterator's shuffle);
    ``stream`` j gives locality block j's independent order."""
    return torch.ops.matsamp.shuffle_vertices(_args.tensor(nodes, "nodes"), _args.integer(seed, "seed"),
                                              _args.integer(epoch, "epoch"), _args.integer(stream, "stream"))


def gather_rows(features, index):
    """``features[index]`` along dim 0, with a ValueError that names an index out of range."""
    return torch.ops.matsamp.gather_rows(_args.tensor(features, "features"), _args.tensor(index, "index"))


def _check_sampler(sampler):
    if _args.string(sampler, "sampler") not in SAMPLERS:
        raise ValueError(f"sampler must be one of {', '.join(SAMPLERS)}; got {sampler!r}")
