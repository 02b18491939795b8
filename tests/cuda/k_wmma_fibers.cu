// k_wmma_fibers.cu - tests/cuda/k_wmma.cu with its kernel on fibers (NPU_PTX_NO_PHASES=1):
// wmma.mma meets the warp's 32 fragments in the executor (rt->wmma_mma), which runs the
// kernel's own MMA once for the warp.
// NVCC_FLAGS: -arch=sm_80
// ENV: NPU_PTX_NO_PHASES=1
#include "k_wmma.cu"
