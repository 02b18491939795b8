// k_shfl_inactive_fibers.cu - tests/cuda/k_shfl_inactive.cu with barrier kernels on fibers
// (thread mode: the collective is computed by exec.c's coll_compute, not the phase resolver).
// ENV: NPU_PTX_NO_PHASES=1
#include "k_shfl_inactive.cu"
