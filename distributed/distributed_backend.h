// The backend of graph-partitioned sampling. Samplers hold `const CsrMatrix&` graph
// matrices; here those are placeholders (n x n, no entries) bound to distributed
// block rows, and every op whose graph operand is a placeholder runs as the 1.5D
// product. Everything else runs on the local backend, and the block-diagonal column
// extraction is split across the process row.
#pragma once
#include <map>
#include <memory>

#include "graph_product.h"
#include "sampling/backend.h"

namespace matsamp {

// An n x cols matrix with no entries, standing for `a` in a sampler.
CsrMatrix placeholder_of(const DistributedCsr& a);

class DistributedBackend final : public Backend {
 public:
  // Where sample_rows of a distributed matrix samples: at each row's owner, which
  // sends back only the picks (GraphProduct::sample_rows), or here, after fetching
  // the rows whole through the product. Both give the same rows, bit for bit.
  enum class RowSampling { at_owner, fetched_rows };

  DistributedBackend(GraphProduct& product, std::unique_ptr<Backend> local);
  void set_row_sampling(RowSampling where) { row_sampling_ = where; }

  // Products with `placeholder` (by address) use the distributed matrix `a`.
  // Collective over the grid (the matrix's row uniformity is agreed on).
  void bind(const CsrMatrix& placeholder, const DistributedCsr& a);

  std::string name() const override;
  CsrMatrix spgemm(const CsrMatrix& a, const CsrMatrix& b) override;
  CsrMatrix select_rows(const CsrMatrix& a, const std::vector<vid_t>& rows) override;
  CsrMatrix select_cols_blocked(const CsrMatrix& a, const Offsets& row_offsets, const std::vector<vid_t>& cols,
                                const Offsets& col_offsets, const std::vector<float>& weights) override;
  void normalize_rows(CsrMatrix& p, bool square_first) override;
  CsrMatrix its_sample(const CsrMatrix& p, int64_t s, const SampleKeys& keys) override;
  CsrMatrix sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s, const SampleKeys& keys,
                        bool uniform_rows) override;
  // LABOR's rows, decided where sample_rows would sample them (RowSampling):
  // an entry's number depends on its minibatch and column only, so any rank
  // decides a row as one process does.
  CsrMatrix labor_sample_rows(const CsrMatrix& a, const std::vector<vid_t>& rows, int64_t s,
                              const SampleKeys& keys) override;
  CompactResult compact_columns(CsrMatrix s, const Offsets& row_offsets, const std::vector<vid_t>& leading,
                                const Offsets& leading_offsets) override;

 private:
  struct Bound {
    int operand = -1;
    bool uniform_rows = false;   // of the real matrix, not of its empty placeholder
  };
  const Bound* bound(const CsrMatrix& m) const;
  void reject_placeholder(const CsrMatrix& m, const char* op) const;
  CsrMatrix distributed_select_rows(const Bound& b, int64_t n, const std::vector<vid_t>& rows);

  GraphProduct& product_;
  std::unique_ptr<Backend> local_;
  std::map<const CsrMatrix*, Bound> bound_;
  RowSampling row_sampling_ = RowSampling::at_owner;
};

}  // namespace matsamp
