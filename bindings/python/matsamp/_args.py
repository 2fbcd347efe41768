"""Argument checks of the public API: a wrong type is a one-line TypeError that
names the argument, raised before anything reaches a torch op (whose schema
errors span several lines and name positions, not arguments)."""
import operator
import sys

import torch


def type_name(x):
    return f"{type(x).__module__}.{type(x).__name__}" if type(x).__module__ != "builtins" else type(x).__name__


def graph(x, name="graph"):
    """x, which must be a matsamp.Graph."""
    from .graph import Graph
    if not isinstance(x, Graph):
        raise TypeError(f"{name} must be a matsamp.Graph, got {type_name(x)}")
    return x


def integer(x, name):
    """x as a Python int (NumPy and other integer types too; bools are refused)."""
    numpy = sys.modules.get("numpy")
    if isinstance(x, bool) or (numpy is not None and isinstance(x, numpy.bool_)):
        raise TypeError(f"{name} must be an int, got {type_name(x)}")
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type_name(x)}") from None


def boolean(x, name):
    numpy = sys.modules.get("numpy")
    if isinstance(x, bool) or (numpy is not None and isinstance(x, numpy.bool_)):
        return bool(x)
    raise TypeError(f"{name} must be a bool, got {type_name(x)}")


def string(x, name):
    if not isinstance(x, str):
        raise TypeError(f"{name} must be a str, got {type_name(x)}")
    return x


def tensor(x, name):
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name} must be a tensor, got {type_name(x)}")
    return x


def int_list(x, name):
    """x (a list, tuple or other sequence of ints) as a list of Python ints."""
    if isinstance(x, (str, bytes, torch.Tensor)) or not hasattr(x, "__iter__"):
        raise TypeError(f"{name} must be a list of ints, got {type_name(x)}")
    return [integer(v, f"{name}[{i}]") for i, v in enumerate(x)]
