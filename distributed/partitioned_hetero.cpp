#include "partitioned_hetero.h"

#include "agreement.h"
#include "graph/transform.h"
#include "io/hetero_io.h"

namespace matsamp {

namespace {

std::vector<DistributedCsr> block_rows_of(const HeteroGraph& graph, const ProcessGrid& grid) {
  std::vector<DistributedCsr> blocks;
  for (const Relation& r : graph.relations) blocks.push_back(block_row_of(r.adj, grid));
  return blocks;
}

}  // namespace

HeteroBlocks read_hetero_blocks(const std::string& path, ProcessGrid& grid, bool add_reverse) {
  Communicator& world = grid.world();
  check_same_file_on_every_rank(world, path);
  HeteroBlocks part;
  agree_on(world, [&] {
    part.schema = read_hetero_schema(path, false).graph;
    for (size_t r = 0; r < part.schema.relations.size(); ++r) {
      DistributedCsr& d = part.blocks.emplace_back();
      d.blocks = {part.schema.relations[r].adj.rows, grid.process_rows()};
      d.block = grid.row();
      d.local = read_hetero_relation_rows(path, r, d.first_row(), d.blocks.end(d.block));
    }
  });
  if (!add_reverse) return part;
  const std::vector<Reverse> kinds = reverses(part.schema);
  for (size_t r = 0; r < kinds.size(); ++r) {
    if (kinds[r] == Reverse::symmetrize)
      part.blocks[r].local = union_of(part.blocks[r].local, transpose(part.blocks[r], grid).local);
    if (kinds[r] == Reverse::add) {
      const CsrMatrix& a = part.schema.relations[r].adj;
      CsrMatrix shape;  // the reverse's shape, its entries in the blocks
      shape.rows = a.cols;
      shape.cols = a.rows;
      Relation reverse = reverse_of(part.schema.relations[r], std::move(shape));
      part.schema.relations.push_back(std::move(reverse));
      part.blocks.push_back(transpose(part.blocks[r], grid));
    }
  }
  return part;
}

PartitionedHetero::PartitionedHetero(ProcessGrid& grid, const HeteroGraph& graph, GraphProduct::Exchange exchange,
                                     std::unique_ptr<Backend> local)
    : PartitionedHetero(grid, graph,
                        (validate(graph, "partitioned heterogeneous sampling"), block_rows_of(graph, grid)), exchange,
                        std::move(local)) {}

PartitionedHetero::PartitionedHetero(ProcessGrid& grid, const HeteroGraph& schema, std::vector<DistributedCsr> blocks,
                                     GraphProduct::Exchange exchange, std::unique_ptr<Backend> local)
    : graph_(schema), product_(grid, exchange), backend_(product_, std::move(local)) {
  validate_schema(schema, "partitioned heterogeneous sampling");
  MATSAMP_CHECK(blocks.size() == schema.relations.size(), "partitioned heterogeneous sampling: ", blocks.size(),
                " block rows for ", schema.relations.size(), " relations");
  std::vector<int64_t> entries{0};
  for (DistributedCsr& b : blocks) {
    entries[0] += b.local.nnz();
    blocks_.push_back(std::move(b));
    handles_.push_back(backend_.register_distributed(blocks_.back()));
  }
  grid.col_comm().all_reduce_sum(entries);  // one block row of each relation per process row
  edges_ = entries[0];
}

Matrix PartitionedHetero::distribute(const CsrMatrix& whole) {
  blocks_.push_back(block_row_of(whole, product_.grid()));
  return backend_.register_distributed(blocks_.back());
}

}  // namespace matsamp
