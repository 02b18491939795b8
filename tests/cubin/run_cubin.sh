#!/usr/bin/env bash
# run_cubin.sh - the cubin tier: builds tests/cubin/cubin_tool.c against build/libnpu_runtime.a
# and runs check_cubin.py, which compiles the sources of this folder with nvcc/ptxas/nvlink
# and compares the loader's model with nvdisasm, readelf and ptxas -v (see its header).
# Prints "PASS <check>" / "FAIL <check>" lines (tests/run.sh adds "cubin/"). Needs `make all build/libnpu_runtime.a`.
# TRANSFER_TO_NPU_CUBIN_CORPUS=/path/to/libtorch_cuda.so adds the PyTorch corpus check.
set -u
cd "$(dirname "$0")/../.."
B=build/tests/cubin
mkdir -p "$B"
CC=${CC:-cc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$NVCC" ]; then echo "FAIL nvcc-missing ($NVCC)"; exit 0; fi
if ! $CC -O1 -g -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -I. tests/cubin/cubin_tool.c \
        build/libnpu_runtime.a -lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread -o "$B/cubin_tool" 2>"$B/build.log"; then
    echo "FAIL build (see $B/build.log)"; tail -5 "$B/build.log"; exit 0
fi
export TRANSFER_TO_NPU_LOG=${TRANSFER_TO_NPU_LOG:-error}
NVCC=$NVCC ${PYTHON:-python3} tests/cubin/check_cubin.py "$B/cubin_tool" "$B/work"
