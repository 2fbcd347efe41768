#include "kernels/device_csr.h"

namespace matsamp::gpu {

DeviceCsr upload(DeviceEngine& engine, const CsrMatrix& m) {
  DeviceCsr d;
  d.rows = m.rows;
  d.cols = m.cols;
  d.rowptr = to_device(engine, m.rowptr);
  d.colidx = to_device(engine, m.colidx);
  d.values = to_device(engine, m.values);
  return d;
}

CsrMatrix download(DeviceEngine& engine, const DeviceCsr& d) {
  CsrMatrix m(d.rows, d.cols);
  m.rowptr = to_host(engine, d.rowptr);
  m.colidx = to_host(engine, d.colidx);
  m.values = d.values.size() ? to_host(engine, d.values) : std::vector<float>(d.nnz(), 1.0f);
  return m;
}

}  // namespace matsamp::gpu
