"""matsamp.Graph and matsamp.BulkSampler on Cora."""
import torch

import matsamp


def test_cora_loads_with_features_and_labels(cora_path):
    raw = matsamp.Graph.load(cora_path)
    assert (raw.num_nodes, raw.num_edges) == (2708, 5429)
    assert raw.features.shape == (2708, 1433) and raw.features.dtype == torch.float32
    assert raw.labels.shape == (2708,) and raw.num_classes == 7
    component = matsamp.Graph.load(cora_path, symmetrize=True, largest_component=True)
    assert component.num_nodes == 2485 and component.features.shape == (2485, 1433)
    rowptr, col, value = component.csr()
    assert rowptr.numel() == 2486 and col.numel() == value.numel() == component.num_edges


def neighbours(graph, v):
    rowptr, col, _ = graph.csr()
    return set(col[rowptr[v]:rowptr[v + 1]].tolist())


def test_epoch_covers_every_input_node_once(cora):
    nodes = torch.arange(0, cora.num_nodes, 3)
    loader = matsamp.BulkSampler(cora, 100, nodes, sizes=[4, 4], bulk_size=3, seed=2)
    minibatches = list(loader)
    assert [mb.id for mb in minibatches] == list(range(len(loader)))
    assert [mb.batch_size for mb in minibatches] == [100] * 9 + [3]
    seen = torch.cat([mb.layer_ids[-1] for mb in minibatches])
    assert torch.equal(seen.sort().values, nodes)
    assert not torch.equal(seen, nodes)   # shuffled


def test_locality_blocks_fill_each_lane_from_its_id_range(cora):
    """Three blocks, three lanes: balanced steps of one minibatch per block, lane
    by lane; a block short of its lane's share borrows from the next."""
    nodes = torch.arange(0, cora.num_nodes, 2)
    loader = matsamp.BulkSampler(cora, 100, nodes, sizes=[4, 4], bulk_size=4, locality_blocks=3, seed=2)
    begins = [j * cora.num_nodes // 3 for j in range(4)]
    steps = -(-len(nodes) // 300)
    assert len(loader) == 3 * steps
    mixed, seen = 0, []
    for i, mb in enumerate(loader):
        seeds = mb.layer_ids[-1]
        lane = i % 3   # one step after another, its lanes in order
        mixed += not (begins[lane] <= int(seeds.min()) and int(seeds.max()) < begins[lane + 1])
        seen.append(seeds)
    assert mixed <= 1   # cora's even nodes: 451, 452, 451 per block for lanes of 452, 451, 451
    seen = torch.cat(seen)
    assert torch.equal(seen.sort().values, nodes)
    assert not torch.equal(seen, nodes)   # shuffled within blocks
    one_block = matsamp.BulkSampler(cora, 100, nodes, sizes=[4, 4], locality_blocks=1, seed=2)
    every_node = matsamp.BulkSampler(cora, 100, nodes, sizes=[4, 4], seed=2)
    assert torch.equal(torch.cat([mb.layer_ids[-1] for mb in one_block]),
                       torch.cat([mb.layer_ids[-1] for mb in every_node]))


def test_minibatch_structure_graphsage(cora):
    fanouts = [6, 3]
    loader = matsamp.BulkSampler(cora, 50, sizes=fanouts, bulk_size=4, seed=9)
    for mb in list(loader)[:6]:
        assert len(mb.adjs) == 2 and len(mb.layer_ids) == 3
        assert torch.equal(mb.n_id, mb.layer_ids[0])
        assert mb.layer_ids[-1].numel() == mb.batch_size
        for i, ((sources, targets), weight, (num_src, num_dst)) in enumerate(mb.adjs):
            src_ids, dst_ids = mb.layer_ids[i], mb.layer_ids[i + 1]
            assert (num_src, num_dst) == (src_ids.numel(), dst_ids.numel())
            assert torch.equal(src_ids[:num_dst], dst_ids)   # x[:num_dst] are the targets
            assert len(set(src_ids.tolist())) == num_src      # no duplicates
            fanout = fanouts[len(mb.adjs) - 1 - i]
            for t in range(num_dst):
                v = int(dst_ids[t])
                picked = src_ids[sources[targets == t]].tolist()
                assert set(picked) <= neighbours(cora, v)
                assert len(set(picked)) == len(picked) == min(fanout, len(neighbours(cora, v)))
                w = weight[targets == t]
                assert torch.allclose(w, torch.full_like(w, 1.0 / len(picked)))


def test_full_neighbourhood_with_minus_one(cora):
    loader = matsamp.BulkSampler(cora, 200, sizes=[-1], shuffle=False)
    mb = next(iter(loader))
    (sources, targets), _, _ = mb.adjs[0]
    for t in range(0, mb.batch_size, 17):
        picked = set(mb.n_id[sources[targets == t]].tolist())
        assert picked == neighbours(cora, int(mb.layer_ids[-1][t]))


def test_epochs_advance_and_repeat(cora):
    loader = matsamp.BulkSampler(cora, 500, sizes=[3], seed=4)
    first = [mb.n_id for mb in loader]
    second = [mb.n_id for mb in loader]
    assert loader.epoch == 2
    loader.set_epoch(0)
    again = [mb.n_id for mb in loader]
    assert all(torch.equal(a, b) for a, b in zip(first, again))
    assert not all(torch.equal(a, b) for a, b in zip(first, second))


def test_bool_mask_and_layerwise_samplers(cora):
    mask = torch.zeros(cora.num_nodes, dtype=torch.bool)
    mask[:300] = True
    for sampler in ["ladies", "fastgcn"]:
        loader = matsamp.BulkSampler(cora, 64, mask, sampler=sampler, sizes=[32, 32], seed=1)
        minibatches = list(loader)
        assert len(minibatches) == 5
        seen = torch.cat([mb.layer_ids[-1] for mb in minibatches])
        assert torch.equal(seen.sort().values, torch.arange(300))
        for mb in minibatches:
            for i, ((sources, targets), weight, (num_src, num_dst)) in enumerate(mb.adjs):
                assert torch.equal(mb.layer_ids[i][:num_dst], mb.layer_ids[i + 1])
                assert int(sources.max()) < num_src and int(targets.max()) < num_dst
                sums = torch.zeros(num_dst).index_add_(0, targets, weight)
                assert torch.allclose(sums[sums > 0], torch.ones(int((sums > 0).sum())))


def test_adj_to_sparse_aggregates_as_mean(cora):
    mb = next(iter(matsamp.BulkSampler(cora, 32, sizes=[5], seed=3)))
    adj = mb.adjs[0]
    x = torch.randn(adj.size[0], 4, generator=torch.Generator().manual_seed(0))
    (sources, targets), weight, (_, num_dst) = adj
    expected = torch.zeros(num_dst, 4).index_add_(0, targets, x[sources] * weight[:, None])
    # The two sum in different orders: float rounding, relative to the terms (not to a
    # sum that may cancel to near zero).
    assert torch.allclose(torch.sparse.mm(adj.to_sparse(), x), expected, rtol=1e-5, atol=1e-5)


def test_outputs_on_the_requested_device(cora):
    mb = next(iter(matsamp.BulkSampler(cora, 32, sizes=[2], device="cpu")))
    assert mb.n_id.device.type == "cpu" and mb.adjs[0].edge_index.device.type == "cpu"
