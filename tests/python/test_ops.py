"""The torch ops directly: stacked results, independence of the bulk size, gather."""
import torch

import matsamp


def test_bulk_equals_one_minibatch_at_a_time(cora):
    """Sampling k minibatches together gives each exactly as sampling it alone."""
    seeds = torch.randperm(cora.num_nodes, generator=torch.Generator().manual_seed(0))[:150]
    offsets = [0, 64, 128, 150]
    for sampler in matsamp.ops.SAMPLERS:
        sizes = {"graphsage": [5, 5], "saint": [2, 2]}.get(sampler, [40, 40])
        bulk = matsamp.ops.sample_bulk(cora, sampler, seeds, torch.tensor(offsets), sizes,
                                       first_minibatch=10, epoch=1, seed=3)
        for g in range(3):
            alone = matsamp.ops.sample_bulk(cora, sampler, seeds[offsets[g]:offsets[g + 1]],
                                            torch.tensor([0, offsets[g + 1] - offsets[g]]), sizes,
                                            first_minibatch=10 + g, epoch=1, seed=3)
            for stacked, single in zip(bulk, alone):
                r0, r1 = stacked.row_offsets[g:g + 2].tolist()
                c0, c1 = stacked.col_offsets[g:g + 2].tolist()
                e0, e1 = stacked.rowptr[r0].item(), stacked.rowptr[r1].item()
                assert torch.equal(stacked.rowptr[r0:r1 + 1] - e0, single.rowptr)
                assert torch.equal(stacked.col[e0:e1] - c0, single.col)
                assert torch.equal(stacked.value[e0:e1], single.value)
                assert torch.equal(stacked.vertices[c0:c1], single.vertices)


def test_result_layout(cora):
    seeds = torch.tensor([0, 1, 2, 3, 4, 5], dtype=torch.int64)
    layers = matsamp.ops.sample_bulk(cora, "graphsage", seeds, torch.tensor([0, 2, 6]), [3, 2])
    assert len(layers) == 2
    first = layers[0]
    assert first.rowptr.dtype == torch.int64 and first.col.dtype == torch.int32
    assert first.value.dtype == torch.float32 and first.vertices.dtype == torch.int64
    assert first.row_offsets.tolist() == [0, 2, 6]
    assert torch.equal(first.vertices[:2], seeds[:2])          # frontier first, per minibatch
    c0 = first.col_offsets[1].item()
    assert torch.equal(first.vertices[c0:c0 + 4], seeds[2:])
    assert torch.equal(layers[1].row_offsets, first.col_offsets)


def test_different_seed_or_epoch_changes_the_sample(cora):
    seeds = torch.arange(0, 600, 3)
    offsets = torch.tensor([0, seeds.numel()])

    def vertices(**key):
        return matsamp.ops.sample_bulk(cora, "graphsage", seeds, offsets, [5], **key)[0].vertices

    assert torch.equal(vertices(seed=1, epoch=0), vertices(seed=1, epoch=0))
    assert not torch.equal(vertices(seed=1, epoch=0), vertices(seed=2, epoch=0))
    assert not torch.equal(vertices(seed=1, epoch=0), vertices(seed=1, epoch=1))


def test_gather_rows(cora):
    index = torch.tensor([5, 0, 5, 2707])
    assert torch.equal(matsamp.ops.gather_rows(cora.features, index), cora.features[index])
    empty = matsamp.ops.gather_rows(cora.features, torch.empty(0, dtype=torch.int64))
    assert empty.shape == (0, cora.features.size(1))
    # Any dtype and shape, many ids (a team of threads and the prefetch window),
    # strided views (index_select's path), empty rows.
    g = torch.Generator().manual_seed(1)
    many = torch.randint(0, 2708, (50_000,), generator=g)
    for table in (torch.randint(0, 9, (2708,), generator=g), torch.randn(2708, 3, 5, generator=g).half(),
                  cora.features.t()[:40].t(), torch.empty(2708, 0)):
        assert torch.equal(matsamp.ops.gather_rows(table, many), table[many])


def test_shuffle_is_a_seeded_permutation():
    nodes = torch.arange(100, 200)
    a = matsamp.ops.shuffle_nodes(nodes, 1, 0)
    assert torch.equal(a.sort().values, nodes) and not torch.equal(a, nodes)
    assert torch.equal(a, matsamp.ops.shuffle_nodes(nodes, 1, 0))
    assert not torch.equal(a, matsamp.ops.shuffle_nodes(nodes, 1, 1))


def test_pyg_batches_by_tensor_ops_equal_the_host_kernel(cora):
    """pyg_batches' tensor-op path (what layers on a GPU take) gives the host kernel's
    fields exactly: node-wise and other samplers, an empty minibatch, a graph's edge ids."""
    seeds = torch.randperm(cora.num_nodes, generator=torch.Generator().manual_seed(5))[:130]
    offsets = torch.tensor([0, 50, 50, 111, 130])  # minibatch 1 is empty
    edge_ids = torch.randperm(cora.num_edges, generator=torch.Generator().manual_seed(6))
    for sampler, sizes in (("graphsage", [4, 3]), ("labor", [4, 3]), ("ladies", [60, 60]), ("saint", [2, 2])):
        layers = matsamp.ops.sample_bulk(cora, sampler, seeds, offsets, sizes, seed=2, edge_positions=True)
        arguments = ([l.rowptr for l in layers], [l.col for l in layers], [l.row_offsets for l in layers],
                     [l.col_offsets for l in layers], [l.positions for l in layers], edge_ids)
        for new_targets_only in (True, False):
            host = torch.ops.matsamp.pyg_batches(*arguments, new_targets_only)
            by_tensor_ops = torch.ops.matsamp._pyg_batches_by_tensor_ops(*arguments, new_targets_only)
            assert host[0].numel() > 0, sampler
            for name, got, want in zip(("edge_index", "e_id", "edge_offsets", "num_sampled_nodes",
                                        "num_sampled_edges"), by_tensor_ops, host):
                assert got.dtype == want.dtype and torch.equal(got, want), f"{sampler}, {new_targets_only}: {name}"
