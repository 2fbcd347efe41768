"""The bulk size k from a memory budget: BulkSampler(bulk_size=None, memory_budget=B)
must pick the k that the C++ EpochIterator (`matsamp sample --bulk-size 0
--memory-budget B`) picks, sample k minibatches per call, and yield the same
minibatches as with any explicit k."""
import re
import subprocess

import pytest
import torch

import matsamp
from matsamp.loader import DEFAULT_MEMORY_BUDGET

SEED, FRACTION, BATCH = 3, 0.5, 64

# sampler, sizes, include_frontier
CASES = {
    "graphsage": ("graphsage", [5, 3], True),
    "ladies": ("ladies", [64, 32], True),
    "fastgcn-exclude-frontier": ("fastgcn", [48, 48], False),
}


def raises(exception, match, fn):
    with pytest.raises(exception, match=match) as info:
        fn()
    message = str(info.value)
    assert "\n" not in message and "Exception raised from" not in message, message


def make_loader(graph, case, **kwargs):
    sampler, sizes, include_frontier = CASES[case]
    return matsamp.BulkSampler(graph, BATCH, graph.training_nodes(FRACTION, SEED), sampler=sampler,
                               sizes=sizes, include_frontier=include_frontier, seed=SEED, **kwargs)


def op_k(graph, case, budget, minibatches):
    sampler, sizes, include_frontier = CASES[case]
    return matsamp.ops.bulk_size_for_budget(graph, sampler, sizes, BATCH, minibatches, budget,
                                            include_frontier=include_frontier)


def one_minibatch_budget(graph, case):
    """The smallest budget that fits one minibatch: the op raises below it (bisection)."""
    low, high = 0, 1 << 40   # low does not fit (0 is no budget), high does
    assert op_k(graph, case, high, 1) == 1
    while high - low > 1:
        middle = (low + high) // 2
        try:
            op_k(graph, case, middle, 1)
            high = middle
        except ValueError:
            low = middle
    return high


def cli_bulk_size(cli, cora_path, case, budget, out_dir):
    """k as `matsamp sample` picks it for `--memory-budget budget` (from its progress line),
    and the number of minibatches; None and the error line when it refuses the budget."""
    sampler, sizes, include_frontier = CASES[case]
    command = [str(cli), "sample", "--graph", str(cora_path), "--symmetrize", "--sampler", sampler,
               "--fanouts" if sampler == "graphsage" else "--samples", ",".join(map(str, sizes)),
               "--batch-size", str(BATCH), "--bulk-size", "0", "--memory-budget", str(budget),
               "--train-fraction", str(FRACTION), "--seed", str(SEED), "--out", str(out_dir)]
    command += [] if include_frontier else ["--exclude-frontier"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip()
    found = re.search(r"matsamp: (\d+) minibatches, (\d+) per bulk", run.stderr)
    assert found, run.stderr
    return int(found.group(2)), int(found.group(1))


@pytest.mark.parametrize("case", CASES)
def test_budget_picks_the_cli_bulk_size(case, cli, cora, cora_path, tmp_path):
    minibatches = len(make_loader(cora, case, bulk_size=1))
    assert minibatches == 22   # ceil(1354 / 64) training vertices of Cora
    one = one_minibatch_budget(cora, case)
    assert one > 1000   # a real estimate, not the floor of 1 byte
    # Below one minibatch: both refuse, naming the budget and what one minibatch needs.
    k, error = cli_bulk_size(cli, cora_path, case, one - 1, tmp_path / "small")
    assert k is None and f"memory budget of {one - 1} bytes is below the ~{one} bytes" in error
    raises(ValueError, f"memory budget of {one - 1} bytes is below the ~{one} bytes one minibatch "
           f"of {BATCH} needs", lambda: make_loader(cora, case, memory_budget=one - 1))
    # From one minibatch up to more than the epoch holds: the loader's k is the CLI's
    # (asked for the budgets marked True; a CLI run samples a whole epoch).
    expected = {one: (1, True), one + one // 2: (1, False), 2 * one: (2, True),
                5 * one + 7: (5, True), 21 * one: (21, False), 40 * one: (minibatches, False),
                DEFAULT_MEMORY_BUDGET: (minibatches, True)}
    for budget, (k, ask_cli) in expected.items():
        loader = make_loader(cora, case, memory_budget=budget)
        assert loader.bulk_size == k, budget
        assert loader.memory_budget == budget
        if ask_cli:
            assert cli_bulk_size(cli, cora_path, case, budget, tmp_path / str(budget)) == \
                (k, minibatches)


@pytest.mark.parametrize("case", CASES)
def test_bigger_budget_never_smaller_bulk_capped_at_the_epoch(case, cora):
    one = one_minibatch_budget(cora, case)
    minibatches = 22
    budgets = sorted({int(one * 1.37 ** i) for i in range(40)} | {one * 22 - 1, one * 22})
    ks = [op_k(cora, case, budget, minibatches) for budget in budgets]
    assert ks[0] == 1 and ks[-1] == minibatches
    assert all(a <= b for a, b in zip(ks, ks[1:])), ks
    assert all(1 <= k <= minibatches for k in ks)
    assert op_k(cora, case, one * 22 - 1, minibatches) == 21
    # The cap is the epoch's minibatch count, not the budget.
    assert op_k(cora, case, one * 1000, 10**6) == 1000
    assert op_k(cora, case, one * 1000, 3) == 3


@pytest.mark.parametrize("case", CASES)
def test_budget_chosen_k_samples_the_same_minibatches(case, cora, monkeypatch):
    one = one_minibatch_budget(cora, case)
    chosen = make_loader(cora, case, memory_budget=3 * one + one // 3)
    assert chosen.bulk_size == 3
    calls = []
    sample_bulk = matsamp.ops.sample_bulk

    def counting(graph, sampler, seeds, seed_offsets, *args, **kwargs):
        calls.append(seed_offsets.numel() - 1)
        return sample_bulk(graph, sampler, seeds, seed_offsets, *args, **kwargs)

    monkeypatch.setattr(matsamp.ops, "sample_bulk", counting)
    budget_batches = list(chosen)
    assert calls == [3] * 7 + [1]   # 22 minibatches, 3 per call
    monkeypatch.setattr(matsamp.ops, "sample_bulk", sample_bulk)
    for k in [1, 7, 22]:
        explicit = list(make_loader(cora, case, bulk_size=k))
        assert len(explicit) == len(budget_batches) == 22
        for a, b in zip(budget_batches, explicit):
            assert a.id == b.id and a.batch_size == b.batch_size
            assert all(torch.equal(x, y) for x, y in zip(a.layer_ids, b.layer_ids))
            for adj_a, adj_b in zip(a.adjs, b.adjs):
                assert torch.equal(adj_a.edge_index, adj_b.edge_index)
                assert torch.equal(adj_a.weight, adj_b.weight)
                assert adj_a.size == adj_b.size


def test_explicit_bulk_size_wins_and_is_capped(cora):
    # As in the C++ EpochIterator: a given k is not checked against the budget.
    loader = make_loader(cora, "graphsage", bulk_size=2, memory_budget=1)
    assert loader.bulk_size == 2 and len(list(loader)) == 22
    assert make_loader(cora, "graphsage", bulk_size=100).bulk_size == 22
    # The default is the budget's k: 4 GiB holds all of Cora's 22 minibatches.
    assert make_loader(cora, "graphsage").bulk_size == 22
    assert make_loader(cora, "graphsage").memory_budget == DEFAULT_MEMORY_BUDGET == 4 << 30
    # A budget past int64 is as good as int64's largest.
    assert make_loader(cora, "ladies", memory_budget=1 << 80).bulk_size == 22


def test_bad_budgets_and_bulk_sizes(cora):
    for budget in [0, -1, -(4 << 30)]:
        raises(ValueError, r"memory_budget must be a positive integer \(bytes\), got -?\d+",
               lambda: make_loader(cora, "graphsage", memory_budget=budget))
    for budget in ["4G", 1.5, True, None, torch.tensor(1 << 30)]:
        raises(ValueError, r"memory_budget must be a positive integer \(bytes\), got",
               lambda: make_loader(cora, "ladies", memory_budget=budget))
    for bulk in [0, -2, 2.0, "8", False]:
        raises(ValueError, "bulk_size must be a positive integer, got",
               lambda: make_loader(cora, "graphsage", bulk_size=bulk))
    raises(ValueError, r"memory budget of 1 bytes is below the ~\d+ bytes one minibatch of 64 needs",
           lambda: make_loader(cora, "fastgcn-exclude-frontier", memory_budget=1))


def test_bulk_size_op_bad_arguments(cora):
    op = torch.ops.matsamp.bulk_size_for_budget
    h = cora.handle
    raises(ValueError, "budget_bytes must be positive, got 0",
           lambda: op(h, "graphsage", [5], True, 64, 10, 0))
    raises(ValueError, "budget_bytes must be positive, got -5",
           lambda: op(h, "graphsage", [5], True, 64, 10, -5))
    raises(ValueError, "batch_size must be positive, got 0",
           lambda: op(h, "ladies", [5], True, 0, 10, 1 << 30))
    raises(ValueError, "minibatches must be positive, got 0",
           lambda: op(h, "ladies", [5], True, 64, 0, 1 << 30))
    raises(ValueError, "unknown sampler 'cluster'; the samplers are graphsage, labor, dgs, ladies, fastgcn, saint, saint_node, saint_edge, frontier",
           lambda: op(h, "cluster", [5], True, 64, 10, 1 << 30))
    raises(ValueError, "sampler must be one of",
           lambda: matsamp.ops.bulk_size_for_budget(cora, "cluster", [5], 64, 10, 1 << 30))
    raises(ValueError, "walk length once per layer and must be equal",
           lambda: op(h, "saint", [2, 3], True, 64, 10, 1 << 30))
    raises(ValueError, "budget once per layer and must be equal",
           lambda: op(h, "saint_node", [200, 100], True, 64, 10, 1 << 30))
    raises(ValueError, "at least one layer", lambda: op(h, "graphsage", [], True, 64, 10, 1 << 30))
    raises(ValueError, "layer 1 has 0 samples",
           lambda: op(h, "fastgcn", [4, 0], True, 64, 10, 1 << 30))
    raises(ValueError, "memory budget of 100 bytes is below",
           lambda: matsamp.ops.bulk_size_for_budget(cora, "graphsage", [5], 64, 10, 100))


def test_all_neighbours_count_as_the_largest_degree(cora):
    """GraphSAGE's -1 samples every neighbour, as a fanout of the largest degree does:
    the budget is sized for that, not for a fanout of num_nodes."""
    rowptr = cora.csr()[0]
    max_degree = int(rowptr.diff().max())
    assert 100 < max_degree < cora.num_nodes
    by_degree = matsamp.ops.bulk_size_for_budget(cora, "graphsage", [max_degree, 4], 200, 14, 1 << 24)
    by_nodes = matsamp.ops.bulk_size_for_budget(cora, "graphsage", [cora.num_nodes, 4], 200, 14,
                                                1 << 24)
    assert by_nodes < by_degree
    loader = matsamp.BulkSampler(cora, 200, sizes=[-1, 4], memory_budget=1 << 24, shuffle=False)
    assert len(loader) == 14 and loader.bulk_size == by_degree
    # Same minibatches as with the largest degree as the fanout.
    explicit = matsamp.BulkSampler(cora, 200, sizes=[max_degree, 4], bulk_size=2, shuffle=False)
    for a, b in zip(loader, explicit):
        assert all(torch.equal(x, y) for x, y in zip(a.layer_ids, b.layer_ids))
        assert all(torch.equal(x.edge_index, y.edge_index) and torch.equal(x.weight, y.weight)
                   for x, y in zip(a.adjs, b.adjs))
