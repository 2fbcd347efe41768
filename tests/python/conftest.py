"""Shared fixtures: where the data and the CLI are, and the graphs the tests use.

MATSAMP_DATA names the data directory (default: ../shared/data beside the
repository); MATSAMP_CLI the matsamp executable (default: build/csrc/matsamp).
Missing data or CLI fail the tests rather than skip them.
"""
import os
import pathlib

import pytest

import matsamp

REPO = pathlib.Path(__file__).resolve().parents[2]


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
