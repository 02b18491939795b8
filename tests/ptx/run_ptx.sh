#!/usr/bin/env bash
# tests/ptx/run_ptx.sh - the PTX tier: every tests/ptx/*.ptx runs through ptx_run (translate,
# compile, execute one block) and its output is compared with NAME.expected (written by gen.py
# from an independent host reference, or by hand for the bad-input cases). Prints PASS/FAIL.
set -u
cd "$(dirname "$0")/../.."
B=build; T=$B/tests/ptx; mkdir -p "$T"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$PWD/$B/kcache}
if ! ${CC:-cc} -O2 -g -pthread -D_GNU_SOURCE -I. tests/ptx/ptx_run.c $B/libnpu_runtime.a \
        -lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread -o $T/ptx_run 2>$T/build.log; then
    echo "FAIL ptx_run_build"; cat $T/build.log; exit 1
fi
for f in tests/ptx/*.ptx; do
    n=$(basename "$f" .ptx)
    inf=tests/ptx/$n.in; [ -f "$inf" ] || inf=/dev/null
    timeout 120 $T/ptx_run "$f" "$inf" >"$T/$n.out" 2>"$T/$n.err"
    if cmp -s "$T/$n.out" "tests/ptx/$n.expected"; then echo "PASS $n"
    else
        echo "FAIL $n"
        diff "tests/ptx/$n.expected" "$T/$n.out" | head -20
        tail -5 "$T/$n.err"
    fi
done
