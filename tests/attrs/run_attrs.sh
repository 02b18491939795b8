#!/usr/bin/env bash
# tests/attrs/run_attrs.sh - kernel attributes against ptxas as the oracle: the registers,
# user constant bank, local frame, static shared memory and thread limit our driver reports
# (cuFuncGetAttribute) for kernels loaded four ways (cuModuleLoadData, cuModuleLoadDataEx /
# cuLinkCreate / cuLibraryLoadData with CU_JIT_MAX_REGISTERS) are checked against ptxas -v
# on the same PTX with the same -maxrregcount (check_attrs.py); a launch above .maxntid gets
# CUDA_ERROR_INVALID_VALUE. With numba-cuda installed, also its register-heavy test kernel
# (test_linker.func_with_lots_of_registers), compiled to PTX by numba here (no GPU needed).
# Prints "PASS name" / "FAIL name" lines.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
B=$ROOT/build
O=$B/tests/attrs
W=$(mktemp -d "${TMPDIR:-/tmp}/ttn-attrs.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$O"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
CUDA=${CUDA:-/usr/local/cuda}
PTXAS=$CUDA/bin/ptxas
ARCH=sm_80

if ! [ "$O/attrs_probe" -nt tests/attrs/attrs_probe.cu ]; then
    "$CUDA/bin/nvcc" -o "$O/attrs_probe" tests/attrs/attrs_probe.cu -lcuda >"$W/b1.log" 2>&1 || cat "$W/b1.log"
fi
if ! [ "$O/attrs_kernels.ptx" -nt tests/attrs/attrs_kernels.cu ]; then
    "$CUDA/bin/nvcc" -ptx -arch=compute_80 -o "$O/attrs_kernels.ptx" tests/attrs/attrs_kernels.cu >"$W/b2.log" 2>&1 || cat "$W/b2.log"
fi
KERNELS="plain heavy heavy_bounded heavy_1024 local_arr shared_arr bounded128"

probe() { # ptx mode cap kernels...
    env LD_PRELOAD="$B/lib/libtransfer_to_npu.so" LD_LIBRARY_PATH="$B/lib" timeout -k 5 300 "$O/attrs_probe" "$@"
}
check() { # name ptx mode cap kernels...
    local name=$1 ptx=$2 mode=$3 cap=$4; shift 4
    local flags=""
    [ "$cap" -gt 0 ] && flags="-maxrregcount $cap"
    {
        "$PTXAS" -v -arch=$ARCH $flags "$ptx" -o /dev/null >"$W/$name.ptxas" 2>&1 || { echo "ptxas failed"; cat "$W/$name.ptxas"; exit 1; }
        probe "$ptx" "$mode" "$cap" "$@" >"$W/$name.out" 2>&1; rc=$?
        cat "$W/$name.out"
        [ $rc -eq 0 ] || { echo "probe exited $rc"; exit 1; }
        python3 tests/attrs/check_attrs.py "$ptx" "$W/$name.ptxas" "$W/$name.out" "$cap"
    } >"$W/$name.log" 2>&1
    if [ $? -eq 0 ]; then echo "PASS $name"; else echo "FAIL $name"; sed 's/^/    /' "$W/$name.log"; fi
}

check attrs_load "$O/attrs_kernels.ptx" load 0 $KERNELS
check attrs_loadex_maxreg24 "$O/attrs_kernels.ptx" loadex 24 $KERNELS
check attrs_link_maxreg40 "$O/attrs_kernels.ptx" link 40 $KERNELS
check attrs_library_maxreg32 "$O/attrs_kernels.ptx" library 32 $KERNELS

# numba-cuda's register-heavy kernel: its tests expect more than 57 registers unlimited
if python3 -c "import numba.cuda" 2>/dev/null; then
    if NUMBA_CUDA_DRIVER=$B/lib/libcuda.so.1 python3 - "$W/numba.ptx" >"$W/numba-gen.log" 2>&1 <<'PYEOF'
import sys
from numba import cuda, void, float64, int64
from numba.cuda.tests.cudadrv.test_linker import func_with_lots_of_registers
sig = void(float64[::1], int64, int64, int64, int64, int64, int64)
ptx, _ = cuda.compile_ptx(func_with_lots_of_registers, sig, cc=(8, 0))
ptx = ptx.replace(".visible .entry", ".visible .entry", 1)
open(sys.argv[1], "w").write(ptx)
PYEOF
    then
        name=$(sed -n 's/.*\.entry \([A-Za-z0-9_$]*\)(.*/\1/p' "$W/numba.ptx" | head -1)
        check attrs_numba_lots_of_registers "$W/numba.ptx" load 0 "$name"
        check attrs_numba_lots_of_registers_38 "$W/numba.ptx" loadex 38 "$name"
    else
        echo "FAIL attrs_numba_ptx"; sed 's/^/    /' "$W/numba-gen.log"
    fi
fi
exit 0
