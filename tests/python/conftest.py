"""Shared fixtures: where the data and the CLI are, and the graphs the tests use.

MATSAMP_DATA names the data directory (default: ../shared/data beside the
repository); MATSAMP_CLI the matsamp executable (default: build/csrc/matsamp).
Missing data or CLI fail the tests rather than skip them. MATSAMP_PYG names a
PyG source tree (default: ../shared/pyg, PyG 2.8); the tests that run PyG as a
client of matsamp's batches are skipped, with that reason, when it is absent.
"""
import os
import pathlib
import sys

import pytest

import matsamp

REPO = pathlib.Path(__file__).resolve().parents[2]
PYG = pathlib.Path(os.environ.get("MATSAMP_PYG", REPO.parent / "shared" / "pyg"))


def _required(path, what):
    if not path.exists():
        pytest.fail(f"{what} not found at {path}", pytrace=False)
    return path


@pytest.fixture(scope="session")
def data_dir():
    return _required(pathlib.Path(os.environ.get("MATSAMP_DATA", REPO.parent / "shared" / "data")),
                     "data directory (set MATSAMP_DATA)")


@pytest.fixture(scope="session")
def cli():
    return _required(pathlib.Path(os.environ.get("MATSAMP_CLI", REPO / "build" / "csrc" / "matsamp")),
                     "matsamp CLI (set MATSAMP_CLI)")


@pytest.fixture(scope="session")
def cora_path(data_dir):
    return _required(data_dir / "cora.npz", "cora.npz")


@pytest.fixture(scope="session")
def cora(cora_path):
    """Cora as the samplers see it: symmetrized (the file lists each edge once)."""
    return matsamp.Graph.load(cora_path, symmetrize=True)


@pytest.fixture(scope="session")
def pyg():
    """torch_geometric, imported from the PyG source tree."""
    if not (PYG / "torch_geometric").is_dir():
        pytest.skip(f"no PyG source tree at {PYG} (set MATSAMP_PYG; ../shared/pyg holds PyG 2.8)")
    sys.path.insert(0, str(PYG))
    import fx_py311_shim  # noqa: F401  (torch 1.13's fx on Python 3.11, before torch_geometric)
    import torch_geometric
    return torch_geometric
