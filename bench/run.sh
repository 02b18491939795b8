#!/usr/bin/env bash
# bench/run.sh - builds and runs every benchmark; each prints "BENCH name: ... ratio x" lines
# comparing ours with a reference measured in the same run (these machines are shared and
# noisy: only side-by-side ratios mean anything).
#   bench/bench_*.c   linked with build/libnpu_runtime.a
#   bench/bench_*.cu  built with nvcc -cudart shared, run under LD_PRELOAD
#   bench/bench_*.py  Python benchmarks (they start their own NPU processes)
set -u
cd "$(dirname "$0")/.."
B=$PWD/build; O=$B/bench; mkdir -p "$O"
LIBS="-lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread -lOpenCL"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
FILTER=${BENCH_FILTER:-.}
rc=0
for src in $(ls bench/bench_*.c 2>/dev/null | grep -E "$FILTER"); do
    n=$(basename "${src%.c}")
    if cc -O3 -g -march=native -pthread -D_GNU_SOURCE -I. -Itests "$src" "$B/libnpu_runtime.a" $LIBS -o "$O/$n" 2>"$O/$n.build.log"; then
        echo "== $n"; "$O/$n" || { echo "$n exited $?"; rc=1; }
    else echo "== $n: build failed"; cat "$O/$n.build.log"; rc=1; fi
done
for src in $(ls bench/bench_*.cu 2>/dev/null | grep -E "$FILTER"); do
    n=$(basename "${src%.cu}")
    flags=$(sed -n 's|^// NVCC_FLAGS:||p' "$src" | head -1)
    if /usr/local/cuda/bin/nvcc -O3 -cudart shared -Itests $flags "$src" -o "$O/$n" 2>"$O/$n.build.log"; then
        echo "== $n"; LD_PRELOAD=$B/lib/libtransfer_to_npu.so "$O/$n" || { echo "$n exited $?"; rc=1; }
    else echo "== $n: build failed"; cat "$O/$n.build.log"; rc=1; fi
done
for src in $(ls bench/bench_*.py 2>/dev/null | grep -E "$FILTER"); do n=$(basename "${src%.py}"); echo "== $n"; python3 "$src" || { echo "$n exited $?"; rc=1; }; done
exit $rc
