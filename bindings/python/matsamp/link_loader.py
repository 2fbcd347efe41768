"""matsamp.LinkLoader: an epoch of edge-seeded minibatches for link prediction."""
from collections import namedtuple

import torch

from . import _args, ops
from .loader import _cut_layer, _non_negative_int, _positive_int, _layer_sizes


class LinkBatch(namedtuple("LinkBatch", ["n_id", "batch_size", "adjs", "edge_label_index", "edge_label",
                                         "negative_index", "e_id", "id", "layer_ids"])):
    """One minibatch of seed edges::

        for batch in loader:
            h = model(features[batch.n_id], batch.adjs)          # h[:batch.batch_size]: the seeds
            score = (h[batch.edge_label_index[0]] * h[batch.edge_label_index[1]]).sum(-1)
            loss = F.binary_cross_entropy_with_logits(score, batch.edge_label)

    n_id: int64 global ids of the input vertices; its first ``batch_size`` are the
        seeds: the minibatch's sources, destinations and negatives, distinct, ascending.
    adjs: one :class:`matsamp.Adj` per layer, input layer first, as in :class:`matsamp.MiniBatch`;
        no positive edge of the minibatch (nor, with ``exclude_reverse``, its
        reverse) is among their edges.
    edge_label_index: int64 ``[2, P + P·k]``, positions among the seeds: the P
        positives, then for each positive its k negatives (same source).
    edge_label: float32 ``[P + P·k]``: 1 for positives, 0 for negatives.
    negative_index: int64 ``[P, k]``: positions of each positive's negative
        destinations (the per-source form, for MRR).
    e_id: int64 ``[P]``: the positives' indices into the loader's edges.
    id: global minibatch id within the epoch.
    layer_ids: int64 global ids per layer, input first (``layer_ids[0]`` is ``n_id``,
        ``layer_ids[-1]`` the seeds), as in :class:`matsamp.MiniBatch`.
    """
    __slots__ = ()


class LinkLoader:
    """Edge-seeded minibatches, sampled k (``bulk_size``) at a time by the C++
    engine: the edges are shuffled with a Philox key of (seed, epoch) and cut
    into minibatches of ``batch_size`` positives; each positive gets
    ``negatives`` negative destinations from the engine's counter-based keys,
    so the same seed gives the same minibatches whatever ``bulk_size``.

    Args:
        graph: a :class:`matsamp.Graph` (the message-passing graph: for
            training, the training edges only).
        edge_index: int64 ``[2, E]`` seed edges (sources, destinations); None: every
            stored edge of the graph.
        batch_size: positive edges per minibatch.
        sampler: "graphsage" (default), "labor", "ladies" or "fastgcn".
        sizes: per layer, as for :class:`matsamp.BulkSampler`.
        negatives: negatives per positive (0: none).
        negative_distribution: "uniform" or "degree" (∝ degree^0.75).
        reject_known_edges: redraw a negative that is an edge of the graph.
        exclude: mask each minibatch's positives out of its layers.
        exclude_reverse: also mask (v, u) for a positive (u, v) (undirected graphs).
        bulk_size: minibatches sampled per call.
        shuffle, seed, epoch: the epoch order and the random key.
        replace: GraphSAGE draws with replacement (as :class:`matsamp.BulkSampler`).
        expand_new_only: PyG's expansion (as :class:`matsamp.BulkSampler`).
    """

    def __init__(self, graph, edge_index=None, batch_size=1024, *, sampler="graphsage", sizes=(15, 10),
                 negatives=1, negative_distribution="uniform", reject_known_edges=False, exclude=True,
                 exclude_reverse=True, include_frontier=True, bulk_size=16, shuffle=True, seed=1, epoch=0,
                 replace=False, expand_new_only=False):
        _args.graph(graph)
        if _args.string(sampler, "sampler") not in ops.samplers_with("edge_seeds"):
            raise ValueError(f"sampler {sampler!r} cannot mask seed edges; use one of "
                             f"{', '.join(ops.samplers_with('edge_seeds'))}")
        if negative_distribution not in ("uniform", "degree"):
            raise ValueError(f"negative_distribution must be 'uniform' or 'degree', got {negative_distribution!r}")
        self.graph = graph
        self.sampler = sampler
        self.sizes = _layer_sizes(sizes, graph.num_nodes)
        if edge_index is None:
            rowptr, col = graph.csr()[:2]
            edge_index = torch.stack([torch.repeat_interleave(torch.arange(graph.num_nodes), rowptr.diff()),
                                      col.to(torch.int64)])
        edge_index = _args.tensor(edge_index, "edge_index")
        if edge_index.dim() != 2 or edge_index.size(0) != 2 or edge_index.dtype != torch.int64:
            raise ValueError(f"edge_index must be an int64 [2, E] tensor, got {edge_index.dtype} "
                             f"{list(edge_index.shape)}")
        self.edge_index = edge_index.cpu()
        self.batch_size = _positive_int(batch_size, "batch_size")
        self.negatives = _non_negative_int(negatives, "negatives")
        self.negative_distribution = negative_distribution
        self.reject_known_edges = bool(reject_known_edges)
        self.exclude, self.exclude_reverse = bool(exclude), bool(exclude_reverse)
        self.include_frontier = bool(include_frontier)
        self.bulk_size = _positive_int(bulk_size, "bulk_size")
        self.shuffle = bool(shuffle)
        self.seed = _non_negative_int(seed, "seed")
        self.epoch = _non_negative_int(epoch, "epoch")
        self._edges = torch.arange(self.edge_index.size(1), dtype=torch.int64)
        self.replace = bool(replace)
        self.expand_new_only = bool(expand_new_only)

    def __len__(self):
        return -(-self.edge_index.size(1) // self.batch_size)

    def set_epoch(self, epoch):
        """The epoch the next iteration samples."""
        self.epoch = _non_negative_int(epoch, "epoch")

    def __iter__(self):
        epoch, self.epoch = self.epoch, self.epoch + 1
        return self._epoch(epoch)

    def _epoch(self, epoch):
        for first, ids, edge_offsets, out in self._sampled_bulks(epoch):
            yield from self._split(out, ids, edge_offsets, first)

    def _calls(self, epoch):
        """The epoch's calls: (first minibatch, the seed edges' ids, edge offsets,
        the place of the call's first edge in the epoch)."""
        num_edges = self.edge_index.size(1)
        order, starts, _ = ops.epoch_order(self._edges, max(num_edges, 1), self.batch_size,
                                           self.seed if self.shuffle else 0, epoch, 0, self.shuffle)
        for first in range(0, len(self), self.bulk_size):
            last = min(len(self), first + self.bulk_size)
            offsets = [starts[g] - starts[first] for g in range(first, last + 1)]
            yield first, order[starts[first]:starts[last]], offsets, int(starts[first])

    def _sampled_bulks(self, epoch, edge_positions=False):
        """Each call of the epoch, sampled: (first minibatch, the seed edges' ids,
        edge offsets, the op's outputs)."""
        for first, ids, offsets, _ in self._calls(epoch):
            out = torch.ops.matsamp.sample_edges(
                self.graph.handle, self.sampler, self.edge_index[0, ids].to(self.graph.device),
                self.edge_index[1, ids].to(self.graph.device), torch.tensor(offsets), self.sizes, first, epoch,
                self.seed, self.negatives, self.negative_distribution, self.reject_known_edges, self.exclude,
                self.exclude_reverse, self.include_frontier, edge_positions, self.replace, self.expand_new_only)
            yield first, ids, offsets, out

    def _tree_bulks(self, epoch, edge_time=None, temporal_strategy="uniform", node_time=None):
        """Each call of the epoch sampled as disjoint trees (PyG's disjoint link
        sampling): edge e's trees are its source's, its destination's and its
        negatives', in that order, each keyed by its place in the epoch and, with
        edge_time, sampled as of edge_time[e] (no tree reaches past its edge's time), so the
        same seed gives the same trees whatever bulk_size. Yields (first minibatch,
        the seed edges' ids, edge offsets, the negatives [P, k], the trees' layers
        with positions). With node_time too, no negative is later than its edge."""
        per_edge = 2 + self.negatives
        device = self.graph.device
        for first, ids, offsets, place in self._calls(epoch):
            src, dst = self.edge_index[0, ids], self.edge_index[1, ids]
            negatives = (torch.ops.matsamp.link_negatives(
                self.graph.handle, src, torch.tensor(offsets), first, epoch, self.seed, self.negatives,
                self.negative_distribution, self.reject_known_edges,
                None if node_time is None else edge_time[ids], None if node_time is None else node_time.cpu()).cpu()
                if self.negatives
                else torch.empty(0, dtype=torch.int64)).view(ids.numel(), self.negatives)
            trees = torch.cat([src.unsqueeze(1), dst.unsqueeze(1), negatives], dim=1).flatten()
            layers = ops.sample_bulk(self.graph, self.sampler, trees.to(device), torch.arange(trees.numel() + 1),
                                     self.sizes, first_minibatch=place * per_edge, epoch=epoch, seed=self.seed,
                                     include_frontier=self.include_frontier, edge_positions=True,
                                     seed_times=None if edge_time is None
                                     else edge_time[ids].repeat_interleave(per_edge).to(device),
                                     temporal_strategy=temporal_strategy, replace=self.replace,
                                     expand_new_only=self.expand_new_only)
            yield first, ids, offsets, negatives, layers

    def _split(self, out, ids, edge_offsets, first):
        seeds, seed_offsets = out[:2]
        layers = [ops.SampledLayer(*fields) for fields in zip(*out[6:])]
        bounds = [(layer.row_offsets.tolist(), layer.col_offsets.tolist()) for layer in layers]
        seed_offsets = seed_offsets.tolist()
        for g in range(len(edge_offsets) - 1):
            e0, e1 = edge_offsets[g], edge_offsets[g + 1]
            adjs, layer_ids = [], [seeds[seed_offsets[g]:seed_offsets[g + 1]]]
            for layer, (rows, cols) in zip(layers, bounds):
                adjs.append(_cut_layer(layer, rows[g], rows[g + 1], cols[g], cols[g + 1]))
                layer_ids.append(layer.vertices[cols[g]:cols[g + 1]])
            adjs.reverse()
            layer_ids.reverse()
            edge_label_index, edge_label, negative = link_labels(out, e0, e1, self.negatives)
            yield LinkBatch(layer_ids[0], seed_offsets[g + 1] - seed_offsets[g], adjs, edge_label_index,
                            edge_label, negative, ids[e0:e1], first + g, layer_ids)


def link_labels(out, e0, e1, k):
    """The seed edges [e0, e1) of a sample_edges output with their k negatives
    each: (edge_label_index in the minibatch's local ids, positives then
    negatives; edge_label, ones then zeros; the negatives' local ids [P, k])."""
    source_index, destination_index, _, negative_index = out[2:6]
    src, dst = source_index[e0:e1], destination_index[e0:e1]
    negative = negative_index[e0 * k:e1 * k].view(e1 - e0, k)
    edge_label_index = torch.cat([torch.stack([src, dst]),
                                  torch.stack([src.repeat_interleave(k), negative.reshape(-1)])], dim=1)
    edge_label = torch.cat([torch.ones(e1 - e0), torch.zeros((e1 - e0) * k)]).to(src.device)
    return edge_label_index, edge_label, negative
