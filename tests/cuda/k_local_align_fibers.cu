// k_local_align_fibers.cu - tests/cuda/k_local_align.cu with barrier kernels on fibers (thread
// mode: each frame lives on its fiber's stack).
// ENV: NPU_PTX_NO_PHASES=1
#include "k_local_align.cu"
