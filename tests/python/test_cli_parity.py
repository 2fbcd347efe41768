"""The Python loader against the C++ CLI: `matsamp sample` writes every minibatch of
an epoch to .npz; the BulkSampler must yield the same minibatches, bit for bit,
with a different bulk size (the result may not depend on k)."""
import subprocess

import numpy as np
import pytest
import torch

import matsamp

SEED, EPOCH, FRACTION = 7, 2, 0.5

# (graph file, symmetrize, batch size, sampler, sizes, include_frontier[, locality blocks[, saint_norm[,
#  minibatches per step, bulk steps]]])
CASES = {
    "graphsage": ("cora.npz", True, 64, "graphsage", [5, 3], True),
    "graphsage-mtx-3-layers": ("karate.mtx", False, 4, "graphsage", [4, 2, 2], True),
    "labor": ("cora.npz", True, 64, "labor", [5, 3], True),
    "ladies": ("cora.npz", True, 64, "ladies", [64, 32], True),
    "ladies-exclude-frontier": ("cora.npz", True, 64, "ladies", [48, 48], False),
    "fastgcn": ("cora.npz", True, 64, "fastgcn", [64, 64], True),
    "saint": ("cora.npz", True, 64, "saint", [3, 3], True),
    "saint_node": ("cora.npz", True, 64, "saint_node", [200, 200], True),
    "saint_edge": ("cora.npz", True, 64, "saint_edge", [150, 150], True),
    "frontier": ("cora.npz", True, 64, "frontier", [120, 120], True),
    "saint-norm": ("cora.npz", True, 64, "saint", [2, 2], True, 0, True),
    "frontier-norm": ("karate.mtx", False, 4, "frontier", [6, 6], True, 0, True),
    "graphsage-locality-blocks": ("cora.npz", True, 64, "graphsage", [5, 3], True, 4),
    "ladies-locality-blocks": ("karate.mtx", False, 4, "ladies", [6, 6], True, 3),
    "graphsage-lanes-and-blocks": ("cora.npz", True, 32, "graphsage", [5, 3], True, 2, False, 4, 2),
}


def sizes_options(sampler, sizes):
    """The CLI options that give the loader's sizes."""
    if sampler.startswith("saint") or sampler == "frontier":
        size = "--walk-length" if sampler == "saint" else "--budget"
        return [size, str(sizes[0]), "--layers", str(len(sizes))]
    return ["--fanouts" if sampler in ("graphsage", "labor") else "--samples", ",".join(map(str, sizes))]


def run_cli(cli, graph_path, symmetrize, batch, sampler, sizes, include_frontier, out_dir, locality_blocks,
            saint_norm, lanes, bulk_steps):
    command = [str(cli), "sample", "--graph", str(graph_path), "--sampler", sampler,
               *sizes_options(sampler, sizes), "--batch-size", str(batch), "--bulk-size", "3", "--train-fraction", str(FRACTION),
               "--seed", str(SEED), "--epoch", str(EPOCH), "--locality-blocks", str(locality_blocks),
               "--minibatches-per-step", str(lanes), "--bulk-steps", str(bulk_steps or 1), "--out", str(out_dir)]
    command += ["--symmetrize"] if symmetrize else []
    command += [] if include_frontier else ["--exclude-frontier"]
    command += ["--saint-norm"] if saint_norm else []
    subprocess.run(command, check=True, capture_output=True)
    return sorted(out_dir.glob("minibatch_*.npz"))


def as_npz_layout(mb):
    """A MiniBatch in the CLI's .npz fields (layer 0 = the batch layer)."""
    fields = {"seeds": mb.layer_ids[-1].numpy(), "id": np.array([mb.id])}
    layers = len(mb.adjs)
    for l in range(layers):
        (sources, targets), weight, (num_src, num_dst) = mb.adjs[layers - 1 - l]
        counts = torch.bincount(targets, minlength=num_dst)
        prefix = f"layer{l}_"
        fields[prefix + "indptr"] = torch.cat([torch.zeros(1, dtype=torch.int64), counts.cumsum(0)]).numpy()
        fields[prefix + "indices"] = sources.to(torch.int32).numpy()
        fields[prefix + "values"] = weight.numpy()
        fields[prefix + "shape"] = np.array([num_dst, num_src])
        fields[prefix + "vertices"] = mb.layer_ids[layers - 1 - l].numpy()
    return fields


def expect_loader_matches_cli(cli, graph_path, symmetrize, batch, sampler, sizes, include_frontier, out_dir,
                              locality_blocks=0, saint_norm=False, lanes=0, bulk_steps=None):
    """The CLI samples 3 minibatches at a time, the loader 5: the layout (lanes,
    locality blocks, bulk steps of one by default) alone decides the minibatches."""
    files = run_cli(cli, graph_path, symmetrize, batch, sampler, sizes, include_frontier, out_dir, locality_blocks,
                    saint_norm, lanes, bulk_steps)
    graph = matsamp.Graph.load(graph_path, symmetrize=symmetrize)
    loader = matsamp.BulkSampler(graph, batch, graph.training_nodes(FRACTION, SEED), sampler=sampler,
                                 sizes=sizes, include_frontier=include_frontier, bulk_size=5,
                                 locality_blocks=locality_blocks, minibatches_per_step=lanes,
                                 bulk_steps=bulk_steps or 1, seed=SEED, epoch=EPOCH, saint_norm=saint_norm)
    minibatches = list(loader)
    assert len(minibatches) == len(files) == len(loader) > 1
    steps = lanes or max(1, locality_blocks)
    if steps > 1 and bulk_steps:  # step by step: lane j of a bulk is the run of ids j·bulk_steps, ...
        first_bulk = [lane * bulk_steps + t for t in range(bulk_steps) for lane in range(steps)]
        assert [mb.id for mb in minibatches[:len(first_bulk)]] == first_bulk
    minibatches.sort(key=lambda mb: mb.id)
    for mb, path in zip(minibatches, files):
        expected = np.load(path)
        actual = as_npz_layout(mb)
        assert sorted(actual) == sorted(expected.files), path.name
        for field, value in actual.items():
            reference = expected[field]
            assert value.dtype == reference.dtype, f"{path.name}: {field} dtype"
            assert np.array_equal(value, reference), f"{path.name}: {field} differs"


@pytest.mark.parametrize("case", CASES)
def test_loader_matches_cli(case, cli, data_dir, tmp_path):
    name, symmetrize, batch, sampler, sizes, include_frontier, *extra = CASES[case]
    expect_loader_matches_cli(cli, data_dir / name, symmetrize, batch, sampler, sizes, include_frontier, tmp_path,
                              *extra)


def test_weighted_graph_matches_cli(cli, tmp_path):
    """Edge weights make GraphSAGE draw in proportion to them (not the unweighted fast
    path): the Python graph must know its rows are weighted exactly as the CLI does."""
    rng = np.random.default_rng(3)
    n, edges = 300, 3000
    pairs = {(int(u), int(v)) for u, v in rng.integers(0, n, size=(edges, 2)) if u != v}
    lines = [f"{u + 1} {v + 1} {rng.uniform(0.1, 5.0):.4f}" for u, v in sorted(pairs)]
    path = tmp_path / "weighted.mtx"
    path.write_text("%%MatrixMarket matrix coordinate real general\n"
                    f"{n} {n} {len(lines)}\n" + "\n".join(lines) + "\n")
    out = tmp_path / "out"
    out.mkdir()
    expect_loader_matches_cli(cli, path, True, 16, "graphsage", [4, 3], True, out)


def test_graph_from_csr_samples_as_loaded_graph(cora):
    """A graph rebuilt from the loaded one's CSR tensors samples identically."""
    rowptr, col, value = cora.csr()
    rebuilt = matsamp.Graph.from_csr(rowptr.clone(), col.to(torch.int64), value.clone())
    seeds = torch.arange(0, 2000, 7)
    offsets = torch.tensor([0, 100, 200, seeds.numel()])
    for sampler, sizes in [("graphsage", [6, 4]), ("ladies", [50, 50])]:
        a = matsamp.ops.sample_bulk(cora, sampler, seeds, offsets, sizes, first_minibatch=3, seed=5)
        b = matsamp.ops.sample_bulk(rebuilt, sampler, seeds, offsets, sizes, first_minibatch=3, seed=5)
        for layer_a, layer_b in zip(a, b):
            for x, y in zip(layer_a, layer_b):
                assert torch.equal(x, y)
