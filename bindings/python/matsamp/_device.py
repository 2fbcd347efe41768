"""Where graphs and tensors may live, and the errors when they may not."""
import torch

from . import _C


def graph_device(device):
    """The device a graph may be placed on: the CPU, or a CUDA device when matsamp and
    torch both have CUDA (an index is filled in: "cuda" is the current device)."""
    device = torch.device(device)
    if device.type == "cpu":
        return device
    if device.type != "cuda":
        raise RuntimeError(f"matsamp graphs cannot be placed on {device}")
    if not _C.built_with_cuda:
        raise RuntimeError(f"matsamp was built without CUDA in its Python bindings: a graph cannot "
                           f"be placed on {device}; use device='cpu' (BulkSampler(device=...) can "
                           "still move the minibatches)")
    if not torch.cuda.is_available():
        raise RuntimeError(f"a graph on {device} needs CUDA, but this torch ({torch.__version__}) "
                           "has no usable CUDA")
    return torch.device("cuda", torch.cuda.current_device() if device.index is None else device.index)


def output_device(device):
    """A device minibatches can be moved to, checked against what this torch supports."""
    device = torch.device(device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError(f"device {device} requested, but this torch ({torch.__version__}) "
                           "has no usable CUDA")
    return device


def check_same_device(tensor, graph, name):
    """A clear error for a tensor on another device than the graph it is used with."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{name} must be a tensor, got {type(tensor).__name__}")
    if tensor.device.type != graph.device.type:
        raise ValueError(f"{name}: {tensor.device.type.upper()} tensor given to a "
                         f"{graph.device.type.upper()} graph (move it with .to({str(graph.device)!r}))")
