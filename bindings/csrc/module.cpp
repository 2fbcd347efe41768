// The Python module matsamp._C. Importing it loads this library, whose static
// initializers register the torch ops and the Graph class (library.cpp, cpu/);
// the module itself only reports how it was built: built_with_cuda says whether
// the ops have CUDA kernels (graphs can be placed on a GPU). No torch headers here.
#include <pybind11/pybind11.h>

PYBIND11_MODULE(_C, m) {
  m.doc() = "matsamp torch extension: ops in torch.ops.matsamp, Graph in torch.classes.matsamp";
#ifdef MATSAMP_WITH_CUDA_BACKEND
  m.attr("built_with_cuda") = true;
#else
  m.attr("built_with_cuda") = false;
#endif
}
