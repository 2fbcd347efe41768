"""PyG's disjoint batches from trees sampled one seed per block: each tree's
fields (torch.ops.matsamp.pyg_batches or pyg_hetero_batches over the per-seed
blocks) merged into one batch per minibatch, hop-major as PyG orders them
(every tree's seed, then every tree's first hop, ...), with ``batch`` naming
each node's tree; a heterogeneous graph's merged per node type and edge type."""
import torch


def _places(counts):
    """Where each item goes when the trees' items, tree by tree and each tree's hop
    by hop (counts[t, h] items of tree t at hop h), are laid out hop-major: every
    (tree, hop) group moves whole, from its start tree-major to its start hop-major."""
    hop_start = torch.cat([counts.new_zeros(1), counts.sum(0).cumsum(0)[:-1]])   # [hops]
    trees_before = counts.cumsum(0) - counts                                      # [B, hops]
    flat = counts.flatten()
    shift = (hop_start + trees_before).flatten() - (flat.cumsum(0) - flat)
    return torch.repeat_interleave(shift, flat) + torch.arange(int(flat.sum()), device=counts.device)


def merge_nodes(vertices, tree_offsets, num_nodes, t0, t1):
    """The nodes of trees [t0, t1): n_id, batch, num_sampled_nodes and the
    layout the edges are merged by, (place, starts): place[i] is where the i-th
    node of the trees (tree by tree) goes in n_id, starts[t] where tree t's begin.

    vertices / tree_offsets: the last layer's vertex list and its offsets per tree
    (tree t's vertices, seed first, then each hop's new ones); num_nodes: each
    tree's count per hop."""
    device = vertices.device
    counts = num_nodes[t0:t1]                      # [B, hops + 1]
    first = int(tree_offsets[t0])
    starts = tree_offsets[t0:t1] - first
    tree = torch.repeat_interleave(torch.arange(t1 - t0, device=device), counts.sum(1))
    place = _places(counts)
    n_id = torch.empty_like(vertices[:tree.numel()])
    n_id[place] = vertices[first:first + tree.numel()]
    batch = torch.empty_like(tree)
    batch[place] = tree
    return dict(n_id=n_id, batch=batch, num_sampled_nodes=counts.sum(0).tolist()), (place, starts)


def merge_edges(edge_index, e_id, edge_offsets, num_edges, t0, t1, sources, targets):
    """The edges of trees [t0, t1): edge_index (merged local ids), e_id and
    num_sampled_edges; sources / targets: merge_nodes' layout of their ends' nodes.
    Tree t's block of edge_index is its sources, then its targets (local ids)."""
    device = e_id.device
    e0, e1 = int(edge_offsets[t0]), int(edge_offsets[t1])
    edge_counts = num_edges[t0:t1]
    per_tree = edge_counts.sum(1)
    edge_tree = torch.repeat_interleave(torch.arange(t1 - t0, device=device), per_tree)
    # Edge j (tree-major) of tree t: its source at 2·offsets[t] + (j - (offsets[t] - e0)).
    source_at = edge_offsets[t0:t1][edge_tree] + e0 + torch.arange(e1 - e0, device=device)
    (source_place, source_starts), (target_place, target_starts) = sources, targets
    merged_sources = source_place[source_starts[edge_tree] + edge_index[source_at]]
    merged_targets = target_place[target_starts[edge_tree] + edge_index[source_at + per_tree[edge_tree]]]
    edge_place = _places(edge_counts)
    merged = torch.empty(2, e1 - e0, dtype=edge_index.dtype, device=device)
    merged[0, edge_place] = merged_sources
    merged[1, edge_place] = merged_targets
    merged_e_id = torch.empty_like(e_id[e0:e1])
    merged_e_id[edge_place] = e_id[e0:e1]
    return dict(edge_index=merged, e_id=merged_e_id, num_sampled_edges=edge_counts.sum(0).tolist())


def merge_trees(vertices, tree_offsets, edge_index, e_id, edge_offsets, num_nodes, num_edges, t0, t1):
    """The fields of the batch of trees [t0, t1) of a homogeneous graph: n_id,
    batch, edge_index, e_id, num_sampled_nodes and num_sampled_edges (lists per hop)."""
    nodes, layout = merge_nodes(vertices, tree_offsets, num_nodes, t0, t1)
    return {**nodes, **merge_edges(edge_index, e_id, edge_offsets, num_edges, t0, t1, layout, layout)}
