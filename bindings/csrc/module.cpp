// The Python module matsamp._C. Importing it loads this library, whose static
// initializers register the torch ops and the Graph class (library.cpp, cpu/);
// the module itself reports how it was built (built_with_cuda: whether the ops
// have CUDA kernels) and offers the process-wide malloc setting of the CLI.
// No torch headers here.
#include <pybind11/pybind11.h>

#include "util/memory.h"

PYBIND11_MODULE(_C, m) {
  m.doc() = "matsamp torch extension: ops in torch.ops.matsamp, Graph in torch.classes.matsamp";
#ifdef MATSAMP_WITH_CUDA_BACKEND
  m.attr("built_with_cuda") = true;
#else
  m.attr("built_with_cuda") = false;
#endif
  m.def("keep_freed_memory_for_reuse", &matsamp::keep_freed_memory_for_reuse,
        "Makes glibc's malloc keep freed memory for the next allocation (no mmap for large blocks, no\n"
        "heap trimming), as the matsamp command does: bulk sampling then reuses pages instead of\n"
        "faulting in fresh ones (2.6x faster GraphSAGE bulk epochs on a virtual machine). The process\n"
        "keeps its peak heap until it exits. Returns False, changing nothing, where malloc is not\n"
        "glibc's or GLIBC_TUNABLES / MALLOC_*_ are set.");
}
