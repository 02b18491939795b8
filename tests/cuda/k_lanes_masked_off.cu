// k_lanes_masked_off.cu - tests/cuda/k_lanes_masked.cu with the masked regions turned off
// (NPU_PTX_NO_MASKED=1): a lane group leaves the lanes at a divergent branch and, in phase
// mode, comes back at a stop once its registers hold their lane classes again
// (lane_reentry_check), against the same host references.
// ENV: NPU_PTX_NO_MASKED=1
#include "k_lanes_masked.cu"
