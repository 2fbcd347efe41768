"""Bad arguments give clear, one-line Python exceptions, never crashes or wrong results."""
import pytest
import torch

import matsamp

SEEDS = torch.tensor([0, 1, 2, 3])
OFFSETS = torch.tensor([0, 2, 4])


def raises(exception, match, fn):
    with pytest.raises(exception, match=match) as info:
        fn()
    message = str(info.value)
    assert "\n" not in message and "Exception raised from" not in message, message


def test_wrong_dtypes(cora):
    raises(TypeError, "seeds must have dtype int64, got int32",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", SEEDS.int(), OFFSETS, [2]))
    raises(TypeError, "seed_offsets must have dtype int64, got float32",
           lambda: matsamp.ops.sample_bulk(cora, "ladies", SEEDS, OFFSETS.float(), [2]))
    raises(TypeError, "value must have dtype float32, got float64",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 1]), torch.tensor([0]),
                                          torch.tensor([1.0], dtype=torch.float64)))
    raises(TypeError, "col must have dtype int64 or int32, got float32",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 1]), torch.tensor([0.0])))
    raises(TypeError, "index must have dtype int64",
           lambda: matsamp.ops.gather_rows(cora.features, torch.tensor([0], dtype=torch.int32)))
    raises(TypeError, "input_nodes must be a 1-D int64 tensor",
           lambda: matsamp.BulkSampler(cora, 8, torch.tensor([0.5])))


def test_ids_out_of_range(cora):
    raises(ValueError, r"seeds\[3\] = 2708 is out of range \[0, 2708\)",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", torch.tensor([0, 1, 2, 2708]),
                                           OFFSETS, [2]))
    raises(ValueError, r"seeds\[0\] = -1 is out of range",
           lambda: matsamp.ops.sample_bulk(cora, "fastgcn", torch.tensor([-1, 1, 2, 3]),
                                           OFFSETS, [2]))
    raises(ValueError, r"index\[1\] = 9999 is out of range",
           lambda: matsamp.ops.gather_rows(cora.features, torch.tensor([0, 9999])))
    raises(ValueError, r"input_nodes\[1\] = 5000 is out of range",
           lambda: matsamp.BulkSampler(cora, 8, torch.tensor([1, 5000])))
    raises(ValueError, r"col\[0\] = 3 is out of range \[0, 2\)",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 1, 1]), torch.tensor([3])))
    # A 64-bit id that would wrap to a valid 32-bit one is still an error.
    raises(ValueError, "out of range",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 1, 1]), torch.tensor([2**32 + 1])))


def test_bad_layer_sizes(cora):
    raises(ValueError, "at least one layer",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, OFFSETS, []))
    raises(ValueError, "layer 1 has 0 samples",
           lambda: matsamp.ops.sample_bulk(cora, "ladies", SEEDS, OFFSETS, [4, 0]))
    raises(ValueError, "at least one layer", lambda: matsamp.BulkSampler(cora, 8, sizes=[]))
    raises(ValueError, r"sizes\[0\] = 0", lambda: matsamp.BulkSampler(cora, 8, sizes=[0, 5]))
    raises(ValueError, r"sizes\[1\] = -3", lambda: matsamp.BulkSampler(cora, 8, sizes=[5, -3]))


def test_other_bad_arguments(cora):
    raises(ValueError, "sampler must be one of",
           lambda: matsamp.BulkSampler(cora, 8, sampler="cluster"))
    raises(ValueError, "takes its walk length or budget once per layer",
           lambda: matsamp.BulkSampler(cora, 8, sampler="saint", sizes=[2, 3]))
    raises(ValueError, "takes its walk length or budget once per layer",
           lambda: matsamp.BulkSampler(cora, 8, sampler="saint", sizes=[-1, -1]))
    raises(ValueError, "takes its walk length or budget once per layer",
           lambda: matsamp.BulkSampler(cora, 8, sampler="saint_node", sizes=[100, 50]))
    raises(ValueError, "batch_size must be a positive integer",
           lambda: matsamp.BulkSampler(cora, 0))
    raises(ValueError, "locality_blocks must be a non-negative integer",
           lambda: matsamp.BulkSampler(cora, 8, locality_blocks=-1))
    raises(ValueError, "locality_blocks: 3000 blocks for 2708 nodes",
           lambda: matsamp.BulkSampler(cora, 8, locality_blocks=3000))
    raises(ValueError, "minibatches_per_step must be a non-negative integer",
           lambda: matsamp.BulkSampler(cora, 8, minibatches_per_step=-1))
    raises(ValueError, "bulk_steps must be a positive integer",
           lambda: matsamp.BulkSampler(cora, 8, bulk_steps=0))
    raises(ValueError, r"locality blocks \(3\) must divide the minibatches per step \(2\)",
           lambda: matsamp.BulkSampler(cora, 8, locality_blocks=3, minibatches_per_step=2))
    raises(ValueError, "minibatches_per_step must be non-negative",
           lambda: matsamp.ops.epoch_order(SEEDS, 2708, 8, 1, 0, minibatches_per_step=-1))
    raises(ValueError, "steps per bulk must be positive",
           lambda: matsamp.ops.epoch_order(SEEDS, 2708, 8, 1, 0, bulk_steps=0))
    raises(ValueError, "stream must be in",
           lambda: matsamp.ops.shuffle_nodes(SEEDS, 1, 0, -1))
    raises(ValueError, "seed_offsets must hold k \\+ 1 >= 2 entries",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, torch.tensor([0, 3]), [2]))
    raises(ValueError, "seed_offsets decrease",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, torch.tensor([0, 3, 1, 4]), [2]))
    raises(ValueError, "seed must be non-negative",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, OFFSETS, [2], seed=-1))
    raises(ValueError, "rowptr decreases at row 1",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 2, 1]), torch.tensor([1])))
    raises(ValueError, "features must be a tensor of shape",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 0]), torch.tensor([], dtype=torch.int64),
                                          features=torch.zeros(3, 2)))


def test_unreadable_file(tmp_path):
    raises(RuntimeError, "missing.npz", lambda: matsamp.Graph.load(tmp_path / "missing.npz"))
    broken = tmp_path / "broken.mtx"
    broken.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 7\n")
    raises(RuntimeError, "broken.mtx", lambda: matsamp.Graph.load(broken))


@pytest.mark.skipif(matsamp.built_with_cuda, reason="this build has a CUDA backend")
def test_cuda_graph_without_cuda_build(cora_path):
    raises(RuntimeError, "matsamp was built without CUDA",
           lambda: matsamp.Graph.load(cora_path, device="cuda"))
    raises(RuntimeError, "matsamp was built without CUDA",
           lambda: matsamp.Graph.from_csr(torch.tensor([0, 0]), torch.tensor([], dtype=torch.int64),
                                          device="cuda:0"))


@pytest.mark.skipif(torch.cuda.is_available(), reason="torch has CUDA here")
def test_cuda_output_device_without_cuda(cora):
    raises(RuntimeError, "device cuda requested, but this torch .* has no usable CUDA",
           lambda: matsamp.BulkSampler(cora, 8, device="cuda"))


def test_tensor_on_another_device_than_the_graph(cora):
    # A meta tensor stands in for a CUDA one, which this torch may not have.
    seeds = torch.empty(4, dtype=torch.int64, device="meta")
    raises(ValueError, "seeds: META tensor given to a CPU graph",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", seeds, OFFSETS, [2]))


def test_error_text_that_is_not_utf8_still_reaches_python(tmp_path):
    # The reader quotes the bad field; its bytes come through as \xNN, not as an empty message.
    bad = tmp_path / "bad.mtx"
    bad.write_bytes(b"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 \xff\xfe\n")
    raises(RuntimeError, r"bad\.mtx:3: .*\\xFF\\xFE", lambda: matsamp.Graph.load(bad))
    edges = tmp_path / "bad.txt"
    edges.write_bytes(b"1 2\n3 \xc3x\n")
    raises(RuntimeError, r"bad\.txt:2: .*\\xC3x", lambda: matsamp.Graph.load(edges))


def test_wrong_types_are_one_line_type_errors(cora):
    seeds, offsets = SEEDS, OFFSETS
    raises(TypeError, "graph must be a matsamp.Graph, got NoneType", lambda: matsamp.BulkSampler(None, 8))
    raises(TypeError, "graph must be a matsamp.Graph, got torch.Tensor",
           lambda: matsamp.BulkSampler(torch.zeros(3), 8))
    raises(TypeError, "graph must be a matsamp.Graph, got NoneType",
           lambda: matsamp.ops.sample_bulk(None, "graphsage", seeds, offsets, [2]))
    raises(TypeError, "sampler must be a str, got int", lambda: matsamp.BulkSampler(cora, 8, sampler=3))
    raises(TypeError, "sizes must be a list of ints, got int", lambda: matsamp.BulkSampler(cora, 8, sizes=5))
    raises(TypeError, "seed must be an int, got str",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", seeds, offsets, [2], seed="x"))
    raises(TypeError, "seed_offsets must be a tensor, got list",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", seeds, [0, 2, 4], [2]))
    raises(TypeError, r"sizes\[1\] must be an int, got float",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", seeds, offsets, [2, 1.5]))
    raises(TypeError, "nodes must be a tensor, got list", lambda: matsamp.ops.shuffle_nodes([1, 2], 1, 0))
    raises(TypeError, "features must be a tensor, got list",
           lambda: matsamp.ops.gather_rows([1.0], torch.tensor([0])))
    raises(TypeError, "batch_size must be an int, got str",
           lambda: matsamp.ops.epoch_order(torch.tensor([0, 1]), 2708, "a", 1, 0))
    raises(TypeError, "budget_bytes must be an int, got str",
           lambda: matsamp.ops.bulk_size_for_budget(cora, "graphsage", [2], 8, 4, "x"))
    raises(TypeError, "symmetrize must be a bool, got str",
           lambda: matsamp.Graph.load("missing.npz", symmetrize="yes"))
    raises(TypeError, "seed must be an int, got str", lambda: cora.training_nodes(0.5, seed="a"))
    raises(TypeError, "fraction must be a number, got str", lambda: cora.training_nodes("half"))


def test_bad_edge_arrays_and_bulk_fields_are_one_line_errors(cora):
    """torch.ops.matsamp.graph_from_edge_index and pyg_batches, called directly."""
    build = torch.ops.matsamp.graph_from_edge_index
    raises(ValueError, "num_nodes must be non-negative, got -1",
           lambda: build(-1, torch.tensor([0]), torch.tensor([0]), None))
    raises(ValueError, "row and col must be 1-D with one id per entry",
           lambda: build(3, torch.tensor([0, 1]), torch.tensor([0]), None))
    raises(TypeError, "row and col must both be int32 or both int64, got Int and Long",
           lambda: build(3, torch.tensor([0], dtype=torch.int32), torch.tensor([0]), None))
    raises(ValueError, "1 weights for 2 entries",
           lambda: build(3, torch.tensor([0, 1]), torch.tensor([1, 2]), torch.tensor([1.0])))
    raises(ValueError, r"entry \(0, 5\) outside 3 x 3",
           lambda: build(3, torch.tensor([0]), torch.tensor([5]), None))

    layers = matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, OFFSETS, [2, 2])
    fields = lambda ls, positions, edge_ids: torch.ops.matsamp.pyg_batches(
        [l.rowptr for l in ls], [l.col for l in ls], [l.row_offsets for l in ls], [l.col_offsets for l in ls],
        positions, edge_ids, True)
    raises(ValueError, "has .* entries but 0 positions \\(sample with edge_positions=True\\)",
           lambda: fields(layers, [l.positions for l in layers], torch.arange(10)))
    raises(ValueError, "every per-layer list needs one tensor per layer",
           lambda: fields(layers, [torch.zeros(0, dtype=torch.int64)], torch.arange(10)))
    located = matsamp.ops.sample_bulk(cora, "graphsage", SEEDS, OFFSETS, [2, 2], edge_positions=True)
    raises(ValueError, "is past the 10 edge ids",
           lambda: fields(located, [l.positions for l in located], torch.arange(10)))


def test_console_script_without_its_command_says_so(tmp_path, monkeypatch):
    """matsamp's console script (a pip install) when the command was not installed with the package."""
    from matsamp import _command
    monkeypatch.setattr(_command, "__file__", str(tmp_path / "_command.py"))
    with pytest.raises(SystemExit, match="the command was not installed with this package"):
        _command.main()
