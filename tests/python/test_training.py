"""The example trains GraphSAGE on Cora with the loader to >= 75% test accuracy."""
import json
import os
import pathlib
import subprocess
import sys

import matsamp

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "experiments" / "train_graphsage_cora.py"


def run_example(*args):
    # The child finds the package where this process found it.
    package_root = str(pathlib.Path(matsamp.__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, str(EXAMPLE), *args], env=env, check=True,
                          capture_output=True, text=True).stdout


def test_example_has_help():
    assert "--fanouts" in run_example("--help")


def test_graphsage_reaches_75_percent_on_cora(cora_path):
    result = json.loads(run_example("--data", str(cora_path), "--seed", "0").splitlines()[-1])
    assert result["vertices"] == 2485 and result["train"] == 140 and result["val"] == 210
    assert result["test_accuracy"] >= 0.75, result


def test_example_trains_on_graphsaint_subgraphs(cora_path):
    """The same loop on GraphSAINT random-walk subgraphs learns too (7 classes: chance
    is at most the largest class, 30%)."""
    result = json.loads(run_example("--data", str(cora_path), "--seed", "0", "--sampler", "saint",
                                    "--fanouts", "2,2", "--epochs", "20").splitlines()[-1])
    assert result["sampler"] == "saint" and result["fanouts"] == [2, 2]
    assert result["test_accuracy"] >= 0.6, result
