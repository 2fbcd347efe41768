"""experiments/torch_baseline.py: its plain-torch GraphSAGE sampler samples what it
claims (real neighbours, all of them for small degrees, frontier first), and the
script runs end to end, printing its JSON."""
import importlib.util
import json
import pathlib
import subprocess
import sys

import torch

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "experiments" / "torch_baseline.py"
spec = importlib.util.spec_from_file_location("torch_baseline", SCRIPT)
torch_baseline = importlib.util.module_from_spec(spec)
spec.loader.exec_module(torch_baseline)


def test_plain_torch_layer_samples_neighbours(cora):
    rowptr, col, _ = cora.csr()
    rowptr = rowptr.long()
    n, fanout = cora.num_nodes, 4
    frontier = torch.tensor([0, 5, 17, 633, 1701, 2000, 2707])
    table = torch.full((n,), -1, dtype=torch.int64)
    generator = torch.Generator()
    generator.manual_seed(3)
    rows, cols, values, vertices = torch_baseline.sample_layer_torch(rowptr, col, frontier, fanout, table,
                                                                     generator)
    assert torch.equal(vertices[:frontier.numel()], frontier)
    assert torch.equal(vertices[frontier.numel():], vertices[frontier.numel():].sort().values)
    assert (table == -1).all(), "the table is restored"
    for i, v in enumerate(frontier.tolist()):
        neighbours = col[rowptr[v]:rowptr[v + 1]].long()
        picked = vertices[cols[rows == i]]
        assert torch.isin(picked, neighbours).all(), f"row {v}: a sampled column is not a neighbour"
        if neighbours.numel() <= fanout:
            assert torch.equal(picked.sort().values, neighbours.sort().values), f"row {v}: all neighbours"
        else:
            assert picked.numel() == fanout
        assert torch.allclose(values[rows == i], torch.full((picked.numel(),), 1.0 / picked.numel()))


def test_script_prints_the_comparison(cora_path):
    run = subprocess.run([sys.executable, str(SCRIPT), "--graph", str(cora_path), "--fanouts", "5,3",
                          "--batch-size", "256", "--train-fraction", "0.5", "--repeat", "1"],
                         capture_output=True, text=True, check=True)
    report = json.loads(run.stdout)
    assert report["minibatches"] == 6   # 1354 seeds in batches of 256
    for name in ("torch_per_batch", "matsamp_bulk", "matsamp_per_batch"):
        assert report[name]["time_s"] > 0 and report[name]["sampled_edges"] > 0, name
        assert report[name]["same_edges_every_run"], name
    # Bulk or not, matsamp samples the same minibatches.
    assert report["matsamp_bulk"]["sampled_edges"] == report["matsamp_per_batch"]["sampled_edges"]
    assert "run 1/1" in run.stderr


def test_script_rejects_bad_fanouts(cora_path):
    run = subprocess.run([sys.executable, str(SCRIPT), "--graph", str(cora_path), "--fanouts", "5,0"],
                         capture_output=True, text=True)
    assert run.returncode != 0 and "every fanout must be positive" in run.stderr
