"""PyG's disjoint batches from trees sampled one seed per block: each tree's
edge fields (torch.ops.matsamp.pyg_batches over the per-seed blocks) merged into
one batch per minibatch, hop-major as PyG orders them (every tree's seed, then
every tree's first hop, ...), with ``batch`` naming each node's tree."""
import torch


def merge_trees(vertices, tree_offsets, edge_index, e_id, edge_offsets, num_nodes, num_edges, t0, t1):
    """The fields of the batch of trees [t0, t1): n_id, batch, edge_index, e_id,
    num_sampled_nodes and num_sampled_edges (lists per hop).

    vertices / tree_offsets: the last layer's vertex list and its offsets per tree
    (tree t's vertices, seed first, then each hop's new ones); the rest as
    pyg_batches returns them over the per-tree blocks."""
    device = vertices.device
    trees = t1 - t0
    counts = num_nodes[t0:t1]                      # [B, hops + 1]
    lengths = counts.sum(1)
    first = int(tree_offsets[t0])
    tree_vertices = vertices[first:int(tree_offsets[t1])]
    # Each node of the trees, tree-major: its tree, its index in the tree, its hop.
    tree = torch.repeat_interleave(torch.arange(trees, device=device), lengths)
    index = torch.arange(tree.numel(), device=device) - (tree_offsets[t0:t1] - first).to(device)[tree]
    hop = (index.unsqueeze(1) >= counts.cumsum(1)[tree]).sum(1)
    order = torch.sort(hop, stable=True).indices  # hop-major, then tree, then index
    place = torch.empty_like(order)
    place[order] = torch.arange(order.numel(), device=device)  # tree-major node -> its place in the batch
    # The trees' edges: tree t's block is its sources, then its targets (local ids).
    e0, e1 = int(edge_offsets[t0]), int(edge_offsets[t1])
    edges = torch.arange(e0, e1, device=device)
    edge_tree = torch.searchsorted(edge_offsets[t0 + 1:t1 + 1].to(device), edges, right=True)
    within = edges - edge_offsets[t0:t1].to(device)[edge_tree]
    block = 2 * edge_offsets[t0:t1].to(device)[edge_tree]
    per_tree = (edge_offsets[t0 + 1:t1 + 1] - edge_offsets[t0:t1]).to(device)[edge_tree]
    base = (tree_offsets[t0:t1] - first).to(device)[edge_tree]
    sources = place[base + edge_index[block + within]]
    targets = place[base + edge_index[block + per_tree + within]]
    edge_hop = (within.unsqueeze(1) >= num_edges[t0:t1].to(device).cumsum(1)[edge_tree]).sum(1)
    edge_order = torch.sort(edge_hop, stable=True).indices
    return dict(n_id=tree_vertices[order], batch=tree[order],
                edge_index=torch.stack([sources[edge_order], targets[edge_order]]),
                e_id=e_id[e0:e1][edge_order], num_sampled_nodes=counts.sum(0).tolist(),
                num_sampled_edges=num_edges[t0:t1].sum(0).tolist())
