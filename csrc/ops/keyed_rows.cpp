// select_rows_by_key: rows of a keyed matrix looked up per block (link
// prediction's masks), and sequence_ids.
#include <algorithm>
#include <numeric>

#include "ops/op_checks.h"
#include "ops/ops.h"

namespace matsamp {

CsrMatrix select_rows_by_key(const CsrMatrix& m, const std::vector<vid_t>& keys, const Offsets& key_offsets,
                             const std::vector<vid_t>& rows, const Offsets& row_offsets) {
  check_select_rows_by_key(m.rows, static_cast<int64_t>(keys.size()), key_offsets, static_cast<int64_t>(rows.size()),
                           row_offsets);
  for (size_t g = 0; g + 1 < key_offsets.size(); ++g)
    for (int64_t j = key_offsets[g] + 1; j < key_offsets[g + 1]; ++j)
      MATSAMP_CHECK(keys[j - 1] < keys[j], "select_rows_by_key: the keys of block ", g,
                    " are not ascending and distinct (", keys[j - 1], " then ", keys[j], ")");
  CsrMatrix out(static_cast<int64_t>(rows.size()), m.cols);
  for (size_t g = 0; g + 1 < row_offsets.size(); ++g) {
    const auto begin = keys.begin() + key_offsets[g], end = keys.begin() + key_offsets[g + 1];
    for (int64_t i = row_offsets[g]; i < row_offsets[g + 1]; ++i) {
      const auto at = std::lower_bound(begin, end, rows[i]);
      if (at != end && *at == rows[i]) {
        const int64_t j = at - keys.begin(), from = m.rowptr[j], to = m.rowptr[j + 1];
        out.colidx.insert(out.colidx.end(), m.colidx.begin() + from, m.colidx.begin() + to);
        if (m.values.empty()) out.values.insert(out.values.end(), to - from, 1.0f);
        else out.values.insert(out.values.end(), m.values.begin() + from, m.values.begin() + to);
      }
      out.rowptr[i + 1] = static_cast<int64_t>(out.colidx.size());
    }
  }
  return out;
}

std::vector<vid_t> sequence_ids(int64_t n) {
  MATSAMP_CHECK(n >= 0, "sequence_ids: a negative count ", n);
  std::vector<vid_t> ids(n);
  std::iota(ids.begin(), ids.end(), vid_t{0});
  return ids;
}

}  // namespace matsamp
