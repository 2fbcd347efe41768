"""matsamp: bulk GNN minibatch sampling as sparse linear algebra, from PyTorch.

    import matsamp
    graph = matsamp.Graph.load("cora.npz", symmetrize=True)
    for mb in matsamp.BulkSampler(graph, batch_size=64, sizes=[10, 5], seed=1):
        x = graph.features[mb.n_id]
        ...

The ops themselves are torch ops (torch.ops.matsamp.sample, ...),
with documented wrappers in matsamp.ops.
"""
import torch  # noqa: F401  (loads libtorch before the extension registers into it)

from . import _C  # noqa: F401  (registers torch.ops.matsamp and torch.classes.matsamp)
from . import ops
from .graph import Dataset, Graph, load_dataset
from .hetero import HeteroBatch, HeteroBulkSampler, HeteroGraph
from .link_loader import LinkBatch, LinkLoader
from .loader import Adj, BulkSampler, MiniBatch

built_with_cuda = _C.built_with_cuda
keep_freed_memory_for_reuse = _C.keep_freed_memory_for_reuse

__all__ = ["Adj", "BulkSampler", "Dataset", "Graph", "HeteroBatch", "HeteroBulkSampler", "HeteroGraph", "LinkBatch", "LinkLoader", "MiniBatch", "load_dataset", "ops", "built_with_cuda", "keep_freed_memory_for_reuse"]
