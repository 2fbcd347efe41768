// Our 1.5D P = Q·A (sparsity-aware and oblivious) against CombBLAS's 2D SUMMA product
// (Mult_AnXBn_Synch) on the same matrices: time and bytes moved, both counted the same
// way (PMPI, mpi_byte_counter.h). A is an R-MAT graph; Q is GraphSAGE's first layer,
// one row per seed, `seeds` random vertices for each of the p/c process rows.
// Prints one JSON line per (c, method) on rank 0.
//   mpirun -np P combblas_comparison [SCALE] [SEEDS_PER_PROCESS_ROW] [REPEATS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "combblas_bridge.h"
#include "distributed/graph_product.h"
#include "distributed/mpi_communicator.h"
#include "generate/generators.h"
#include "mpi_byte_counter.h"
#include "sampling/epoch.h"
#include "util/json.h"
#include "util/timer.h"

namespace matsamp {
namespace {

// GraphSAGE's first-layer Q for one process row: `seeds` distinct vertices, one per row.
CsrMatrix seed_selector(int64_t n, int64_t seeds, int process_row) {
  std::vector<vid_t> all(n);
  std::iota(all.begin(), all.end(), 0);
  const std::vector<vid_t> order = shuffle_vertices(all, 1000 + process_row, 0);
  CsrMatrix q(seeds, n);
  for (int64_t i = 0; i < seeds; ++i) {
    q.colidx.push_back(static_cast<col_t>(order[i]));
    q.rowptr[i + 1] = i + 1;
  }
  q.values.assign(seeds, 1.0f);
  return q;
}

struct Measurement {
  double seconds = 0;  // median over repeats, barrier to barrier
  int64_t bytes = 0;   // all ranks, per product
};

// Runs product() `repeats` times after one warm-up; every rank gets the same numbers.
template <class Product>
Measurement measure(Communicator& world, int repeats, Product&& product) {
  product();
  std::vector<double> times;
  int64_t bytes = 0;
  for (int i = 0; i < repeats; ++i) {
    world.barrier();
    experiments::reset_mpi_bytes();
    ScopedTimer timer(nullptr);
    product();
    world.barrier();
    times.push_back(timer.seconds());
    bytes = experiments::mpi_bytes_sent();
  }
  std::vector<int64_t> total{bytes};
  world.all_reduce_sum(total);
  std::sort(times.begin(), times.end());
  double median = times[times.size() / 2];
  world.broadcast(&median, 1, DataType::float64, 0);  // rank 0's clock decides
  return {median, total[0]};
}

void report(Communicator& world, JsonObject json, const Measurement& m) {
  json.add("time_s", m.seconds).add("bytes", m.bytes);
  if (world.rank() == 0) std::printf("%s\n", json.str().c_str());
  std::fflush(stdout);
}

int run(int argc, char** argv) {
  MpiSession session;
  auto world = make_mpi_communicator(MPI_COMM_WORLD);
  RmatOptions rmat;
  rmat.scale = argc > 1 ? std::atoi(argv[1]) : 14;
  const int64_t seeds = argc > 2 ? std::atoll(argv[2]) : 4096;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  const CsrMatrix a = generate_rmat(rmat).adj;  // the same on every rank
  const int p = world->size();
  for (int c = 1; c * c <= p; ++c) {
    if (p % (c * c) != 0) continue;
    ProcessGrid grid(*world, c);
    const DistributedCsr block = block_row_of(a, grid);
    const CsrMatrix q = seed_selector(a.rows, std::min(seeds, a.rows), grid.row());
    auto describe = [&](const char* method) {
      return JsonObject()
          .add("method", method)
          .add("processes", p)
          .add("replication", c)
          .add("scale", rmat.scale)
          .add("vertices", a.rows)
          .add("nonzeros", a.nnz())
          .add("q_rows", q.rows * grid.process_rows());
    };
    int64_t ours_nnz = 0;
    for (auto exchange : {GraphProduct::Exchange::sparsity_aware, GraphProduct::Exchange::oblivious}) {
      GraphProduct product(grid, exchange);
      const int operand = product.add_operand(block);
      CsrMatrix result;
      const Measurement m = measure(*world, repeats, [&] {
        result = product.multiply(q, operand);
        product.finish();
      });
      std::vector<int64_t> nnz{grid.col() == 0 ? result.nnz() : 0};
      world->all_reduce_sum(nnz);
      ours_nnz = nnz[0];
      report(
          *world,
          describe(exchange == GraphProduct::Exchange::sparsity_aware ? "matsamp_1.5d_aware" : "matsamp_1.5d_oblivious")
              .add("result_nonzeros", nnz[0]),
          m);
    }
    if (!combblas_bridge::square_grid(p)) continue;
    // The same stacked Q (every process row's Q_i) and A, in CombBLAS's 2D layout.
    auto cgrid = std::make_shared<combblas::CommGrid>(MPI_COMM_WORLD, 0, 0);
    std::vector<CsrMatrix> q_rows;
    for (int i = 0; i < grid.process_rows(); ++i) q_rows.push_back(seed_selector(a.rows, q.rows, i));
    auto cq = combblas_bridge::from_whole(cgrid, stack_rows(q_rows, a.cols));
    auto ca = combblas_bridge::from_whole(cgrid, a);
    combblas_bridge::Matrix cp(cgrid);
    const Measurement m = measure(*world, repeats, [&] {
      cp = combblas::Mult_AnXBn_Synch<combblas::PlusTimesSRing<double, double>, double,
                                      combblas::SpDCCols<int64_t, double>>(cq, ca);
    });
    const int64_t combblas_nnz = cp.getnnz();  // a collective
    report(*world,
           describe("combblas_2d_summa")
               .add("result_nonzeros", combblas_nnz)
               .add("same_nonzeros_as_ours", combblas_nnz == ours_nnz),
           m);
  }
  return 0;
}

}  // namespace
}  // namespace matsamp

int main(int argc, char** argv) {
  try {
    return matsamp::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "combblas_comparison: error: %s\n", e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}
