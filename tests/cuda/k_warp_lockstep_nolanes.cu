// k_warp_lockstep_nolanes.cu - tests/cuda/k_warp_lockstep.cu with the lane-group copy off (every
// kernel per thread, lockstep through phase-mode stops alone).
// ENV: NPU_PTX_NO_LANES=1
#include "k_warp_lockstep.cu"
