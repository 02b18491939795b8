#!/usr/bin/env bash
# run_demo.sh - builds examples/train.cu with nvcc (as for a real GPU) and trains it on the
# emulated NPU through the launcher. The weights land in build/examples/mlp_weights.bin.
set -eu
cd "$(dirname "$0")/.."
mkdir -p build/examples
if [ ! build/examples/train -nt examples/train.cu ]; then
    echo "building examples/train.cu with nvcc -cudart shared"
    /usr/local/cuda/bin/nvcc -O2 -cudart shared -o build/examples/train examples/train.cu
fi
echo "training on the NPU: scripts/transfer-to-npu build/examples/train"
exec scripts/transfer-to-npu build/examples/train build/examples/mlp_weights.bin "$@"
