// k_syncthreads_red_fibers.cu - tests/cuda/k_syncthreads_red.cu with barrier kernels on fibers
// (thread mode: bar.red through the runtime's barrier).
// ENV: NPU_PTX_NO_PHASES=1
#include "k_syncthreads_red.cu"
