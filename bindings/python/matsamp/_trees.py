"""PyG's disjoint batches from trees sampled one seed per block: each tree's
edge fields (torch.ops.matsamp.pyg_batches over the per-seed blocks) merged into
one batch per minibatch, hop-major as PyG orders them (every tree's seed, then
every tree's first hop, ...), with ``batch`` naming each node's tree."""
import torch


def _places(counts, tree, index):
    """Where item `index` of tree `tree` goes when the trees' items are laid out
    hop-major: counts[t, h] items of tree t at hop h, each tree's items hop by hop."""
    hop = (index.unsqueeze(1) >= counts.cumsum(1)[tree]).sum(1)
    hop_start = torch.cat([counts.new_zeros(1), counts.sum(0).cumsum(0)[:-1]])   # [hops]
    trees_before = counts.cumsum(0) - counts                                      # [B, hops]
    within_tree = counts.cumsum(1) - counts                                       # [B, hops]
    return hop_start[hop] + trees_before[tree, hop] + index - within_tree[tree, hop]


def merge_trees(vertices, tree_offsets, edge_index, e_id, edge_offsets, num_nodes, num_edges, t0, t1):
    """The fields of the batch of trees [t0, t1): n_id, batch, edge_index, e_id,
    num_sampled_nodes and num_sampled_edges (lists per hop).

    vertices / tree_offsets: the last layer's vertex list and its offsets per tree
    (tree t's vertices, seed first, then each hop's new ones); the rest as
    pyg_batches returns them over the per-tree blocks."""
    device = vertices.device
    counts = num_nodes[t0:t1]                      # [B, hops + 1]
    first = int(tree_offsets[t0])
    starts = tree_offsets[t0:t1] - first
    # Each node, tree-major: its tree and index in the tree, then its place in the batch.
    tree = torch.repeat_interleave(torch.arange(t1 - t0, device=device), counts.sum(1))
    index = torch.arange(tree.numel(), device=device) - starts[tree]
    place = _places(counts, tree, index)
    n_id = torch.empty_like(vertices[:tree.numel()])
    n_id[place] = vertices[first:first + tree.numel()]
    batch = torch.empty_like(tree)
    batch[place] = tree
    # The trees' edges: tree t's block is its sources, then its targets (local ids).
    e0, e1 = int(edge_offsets[t0]), int(edge_offsets[t1])
    edge_counts = num_edges[t0:t1]
    edge_tree = torch.repeat_interleave(torch.arange(t1 - t0, device=device), edge_counts.sum(1))
    within = torch.arange(e1 - e0, device=device) - (edge_offsets[t0:t1] - e0)[edge_tree]
    block = 2 * edge_offsets[t0:t1][edge_tree]
    per_tree = edge_counts.sum(1)[edge_tree]
    sources = place[starts[edge_tree] + edge_index[block + within]]
    targets = place[starts[edge_tree] + edge_index[block + per_tree + within]]
    edge_place = _places(edge_counts, edge_tree, within)
    merged = torch.empty(2, e1 - e0, dtype=sources.dtype, device=device)
    merged[0, edge_place] = sources
    merged[1, edge_place] = targets
    merged_e_id = torch.empty_like(e_id[e0:e1])
    merged_e_id[edge_place] = e_id[e0:e1]
    return dict(n_id=n_id, batch=batch, edge_index=merged, e_id=merged_e_id,
                num_sampled_nodes=counts.sum(0).tolist(), num_sampled_edges=edge_counts.sum(0).tolist())
