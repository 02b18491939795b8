// k_warp_lockstep_fibers.cu - tests/cuda/k_warp_lockstep.cu with barrier kernels on fibers
// (warp lockstep through the executor: rt->ls_step / ls_push / ls_reconv).
// ENV: NPU_PTX_NO_PHASES=1
#include "k_warp_lockstep.cu"
