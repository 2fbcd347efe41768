"""Graphs on a GPU: the ops' CUDA kernels sample exactly what the CPU graph samples.

The tests marked needs_gpu run where matsamp was built with CUDA and torch has a
usable GPU (the GPU machine); elsewhere they are skipped, and the errors a CUDA
request gets there are tested instead.
"""
import pytest
import torch

import matsamp

HAS_GPU = matsamp.built_with_cuda and torch.cuda.is_available()
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs matsamp built with CUDA and torch with a GPU")
SIZES = {"graphsage": [10, 5], "ladies": [128, 128], "fastgcn": [128, 128], "saint": [3, 3],
         "saint_node": [200, 200], "saint_edge": [150, 150]}


def raises(exception, match, fn):
    with pytest.raises(exception, match=match) as info:
        fn()
    assert "\n" not in str(info.value), str(info.value)


@pytest.fixture(scope="module")
def gpu_cora(cora_path):
    return matsamp.Graph.load(cora_path, symmetrize=True, device="cuda")


@needs_gpu
def test_graph_and_its_tensors_are_on_the_gpu(gpu_cora, cora):
    assert gpu_cora.device.type == "cuda" and gpu_cora.device.index is not None
    assert gpu_cora.handle.device().startswith("cuda")
    assert gpu_cora.features.device == gpu_cora.device and gpu_cora.labels.device == gpu_cora.device
    assert torch.equal(gpu_cora.features.cpu(), cora.features)
    assert gpu_cora.num_edges == cora.num_edges


@needs_gpu
@pytest.mark.parametrize("sampler", sorted(SIZES))
def test_cuda_kernels_equal_the_cpu_ones(gpu_cora, cora, sampler):
    """Unweighted graph, same seed: bit-identical layers, returned on the graph's GPU."""
    seeds = torch.randperm(cora.num_nodes, generator=torch.Generator().manual_seed(1))[:300]
    offsets = torch.tensor([0, 100, 180, 300])
    key = dict(first_minibatch=4, epoch=2, seed=9)
    on_cpu = matsamp.ops.sample_bulk(cora, sampler, seeds, offsets, SIZES[sampler], **key)
    on_gpu = matsamp.ops.sample_bulk(gpu_cora, sampler, seeds.to(gpu_cora.device), offsets,
                                     SIZES[sampler], **key)
    assert len(on_gpu) == len(on_cpu)
    for gpu_layer, cpu_layer in zip(on_gpu, on_cpu):
        for name, got, want in zip(gpu_layer._fields, gpu_layer, cpu_layer):
            assert got.device == gpu_cora.device, name
            assert torch.equal(got.cpu(), want), f"{sampler}: {name} differs"


def expect_equal_layers(got, want, checksums):
    for got_layer, want_layer, checksum in zip(got, want, checksums, strict=True):
        for name, g, w in zip(got_layer._fields, got_layer, want_layer):
            assert torch.equal(g.cpu(), w), name
        assert checksum.item() == want_layer.col.sum().item()


@needs_gpu
def test_sampling_runs_on_torchs_stream_in_its_allocators_memory(gpu_cora, cora):
    """The op runs on the caller's current stream and its layers are torch's memory,
    held by the tensors (no copy) and given back to torch's allocator with them."""
    seeds = torch.randperm(cora.num_nodes, generator=torch.Generator().manual_seed(2))[:512]
    offsets = torch.tensor([0, 256, 512])

    def sample(graph, device):
        return matsamp.ops.sample_bulk(graph, "ladies", seeds.to(device), offsets, [256, 256], seed=5)

    want = sample(cora, "cpu")
    sample(gpu_cora, gpu_cora.device)  # the derived matrices are made once, on first use
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated(gpu_cora.device)
    stream = torch.cuda.Stream(gpu_cora.device)
    with torch.cuda.stream(stream):
        got = sample(gpu_cora, gpu_cora.device)
        held = torch.cuda.memory_allocated(gpu_cora.device) - before
        # Read on the same stream, without a synchronize in between.
        checksums = [layer.col.sum() for layer in got]
    stream.synchronize()
    layer_bytes = sum(t.numel() * t.element_size() for layer in got for t in (layer.rowptr, layer.col,
                                                                              layer.value, layer.vertices))
    assert held >= layer_bytes, f"{held} bytes allocated by torch for {layer_bytes} of layers"
    expect_equal_layers(got, want, checksums)
    del got, checksums  # the last references to the layers' tensors
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated(gpu_cora.device) == before


@needs_gpu
def test_loader_on_the_gpu_yields_the_cpu_minibatches(gpu_cora, cora):
    def minibatches(graph):
        return list(matsamp.BulkSampler(graph, 256, sizes=[5, 5], bulk_size=3, seed=4))

    for got, want in zip(minibatches(gpu_cora), minibatches(cora), strict=True):
        assert got.n_id.device == gpu_cora.device
        assert torch.equal(got.n_id.cpu(), want.n_id)
        for a, b in zip(got.adjs, want.adjs):
            assert torch.equal(a.edge_index.cpu(), b.edge_index)


@needs_gpu
def test_gather_rows_on_the_gpu(gpu_cora):
    index = torch.tensor([7, 0, 7, 2707], device=gpu_cora.device)
    got = matsamp.ops.gather_rows(gpu_cora.features, index)
    assert got.device == gpu_cora.device
    assert torch.equal(got, gpu_cora.features[index])
    raises(ValueError, r"index\[1\] = 2708 is out of range \[0, 2708\)",
           lambda: matsamp.ops.gather_rows(gpu_cora.features,
                                           torch.tensor([0, 2708], device=gpu_cora.device)))
    raises(ValueError, "features are on cuda.* but index is on cpu",
           lambda: matsamp.ops.gather_rows(gpu_cora.features, torch.tensor([0])))


@needs_gpu
def test_tensors_on_the_wrong_device_are_clear_errors(gpu_cora, cora):
    offsets = torch.tensor([0, 2])
    raises(ValueError, "seeds: CPU tensor given to a CUDA graph",
           lambda: matsamp.ops.sample_bulk(gpu_cora, "graphsage", torch.tensor([0, 1]), offsets, [2]))
    raises(ValueError, "seeds: CUDA tensor given to a CPU graph",
           lambda: matsamp.ops.sample_bulk(cora, "graphsage", torch.tensor([0, 1], device="cuda"),
                                           offsets, [2]))
    # The kernels check too, for callers of torch.ops.matsamp directly.
    raises(ValueError, "seeds are on cpu but the graph is on cuda",
           lambda: torch.ops.matsamp.sample(gpu_cora.handle, "graphsage", torch.tensor([0, 1]),
                                            offsets.to("cuda"), [2], 0, 0, 1))
    raises(ValueError, r"seeds\[1\] = 2708 is out of range",
           lambda: matsamp.ops.sample_bulk(gpu_cora, "graphsage",
                                           torch.tensor([0, 2708], device=gpu_cora.device), offsets, [2]))


@pytest.mark.skipif(not matsamp.built_with_cuda or torch.cuda.is_available(),
                    reason="for a CUDA build with a torch that has no usable CUDA")
def test_cuda_graph_with_a_torch_without_cuda(cora_path):
    raises(RuntimeError, r"a graph on cuda needs CUDA, but this torch .* has no usable CUDA",
           lambda: matsamp.Graph.load(cora_path, device="cuda"))


@pytest.mark.skipif(HAS_GPU, reason="a GPU is usable here")
def test_placing_the_engine_graph_on_a_missing_gpu_fails_and_keeps_it_on_the_cpu():
    graph = matsamp.Graph.from_csr(torch.tensor([0, 1, 2]), torch.tensor([1, 0]))
    expected = "cannot place the graph on cuda:0" if matsamp.built_with_cuda else "built without CUDA"
    raises(RuntimeError, expected, lambda: graph.handle.place_on_cuda(0))
    raises(ValueError, "CUDA device index must be non-negative, got -1",
           lambda: graph.handle.place_on_cuda(-1))
    assert graph.handle.device() == "cpu"
    layers = matsamp.ops.sample_bulk(graph, "graphsage", torch.tensor([0, 1]), torch.tensor([0, 2]), [1])
    assert layers[0].col.tolist() == [1, 0]


def pyg_data(pyg, device):
    g = torch.Generator().manual_seed(11)
    n, m = 300, 2400
    data = pyg.data.Data(x=torch.randn(n, 6, generator=g), y=torch.randint(0, 4, (n,), generator=g),
                         edge_index=torch.randint(0, n, (2, m), generator=g), edge_attr=torch.randn(m, 3, generator=g))
    return data.to(device)


def expect_equal_batches(got, want, device):
    assert got.keys() == want.keys()
    for key in want.keys():
        if isinstance(want[key], torch.Tensor):
            assert got[key].device == device, key
            assert torch.equal(got[key].cpu(), want[key]), key
        else:
            assert got[key] == want[key], key


@needs_gpu
def test_pyg_loaders_sample_where_the_data_lives(pyg):
    """A Data on a GPU is sampled there (the graph, pyg_batches' tensor ops and the
    gathers on the device) and gives the CPU's batches, every tensor on the GPU."""
    from matsamp.pyg import LinkNeighborLoader, NeighborLoader
    on_gpu, on_cpu = pyg_data(pyg, "cuda"), pyg_data(pyg, "cpu")
    device = torch.device("cuda", torch.cuda.current_device())
    for sampler, sizes in (("graphsage", [4, 3]), ("labor", [4, 3]), ("ladies", [60, 60])):
        loader = NeighborLoader(on_gpu, sizes, batch_size=32, sampler=sampler, seed=3, bulk_size=4)
        assert loader.graph.device == device
        reference = NeighborLoader(on_cpu, sizes, batch_size=32, sampler=sampler, seed=3, bulk_size=4)
        for got, want in zip(loader, reference, strict=True):
            expect_equal_batches(got, want, device)
    links = LinkNeighborLoader(on_gpu, [4, 3], batch_size=64, neg_sampling_ratio=1, seed=5)
    reference = LinkNeighborLoader(on_cpu, [4, 3], batch_size=64, neg_sampling_ratio=1, seed=5)
    for got, want in zip(links, reference, strict=True):
        expect_equal_batches(got, want, device)
    # device="cpu" samples a GPU Data on the CPU, as asked.
    assert NeighborLoader(on_gpu, [2], batch_size=8, device="cpu").graph.device.type == "cpu"


@pytest.mark.skipif(HAS_GPU, reason="a GPU is usable here")
def test_pyg_loaders_asked_for_a_missing_gpu_say_so(pyg):
    from matsamp.pyg import HGTLoader, LinkNeighborLoader, NeighborLoader
    data = pyg_data(pyg, "cpu")
    expected = "needs CUDA, but this torch" if matsamp.built_with_cuda else "built without CUDA"
    raises(RuntimeError, expected, lambda: NeighborLoader(data, [2], batch_size=8, device="cuda"))
    raises(RuntimeError, expected, lambda: LinkNeighborLoader(data, [2], batch_size=8, device="cuda"))
    hetero = pyg.data.HeteroData()
    hetero["paper"].num_nodes = 5
    hetero["paper", "cites", "paper"].edge_index = torch.tensor([[0, 1], [1, 2]])
    raises(RuntimeError, "device cuda requested, but this torch .* has no usable CUDA",
           lambda: HGTLoader(hetero, [2], ("paper", None), batch_size=2, device="cuda"))
    # By default batches stay where the data is: here, the CPU.
    assert next(iter(NeighborLoader(data, [2], batch_size=8))).x.device.type == "cpu"
