// k_lanes_off.cu - tests/cuda/k_lanes.cu with the lane copy turned off (NPU_PTX_NO_LANES=1):
// every kernel runs per thread, so both executions of the same kernels meet the same host
// references.
// ENV: NPU_PTX_NO_LANES=1
#include "k_lanes.cu"
