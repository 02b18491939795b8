#!/usr/bin/env bash
# tests/memcheck/run_memcheck.sh - memcheck tier: every CUDA kernel test program of tests/cuda
# (k_*.cu, already built by tests/run.sh into build/tests/cuda) runs again with
# TRANSFER_TO_NPU_MEMCHECK=1 and must still pass: a correct program gets no report (no false
# positives from stacks, shared memory, registered/managed/pinned memory, device malloc ...).
# Tests that expect a fault (k_fault_*, k_illegal_address, k_memcheck_*) are skipped: they have
# their own expectations in tests/cuda. Prints "PASS name" / "FAIL name" lines.
#   MEMCHECK_FILTER=regex narrows the programs; TEST_TIMEOUT (default 300 s) per program.
set -u
cd "$(dirname "$0")/../.."
B=$PWD/build
T=$B/tests/cuda
LOGS=$B/tests/logs
mkdir -p "$LOGS"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
TIMEOUT=${TEST_TIMEOUT:-300}
FILTER=${MEMCHECK_FILTER:-.}
for src in tests/cuda/k_*.cu; do
    name=$(basename "${src%.cu}")
    case $name in k_fault_*|k_illegal_address|k_memcheck_*|k_assert|k_no_ptx) continue ;; esac
    echo "$name" | grep -qE "$FILTER" || continue
    [ -x "$T/$name" ] || { echo "FAIL $name (not built: run tests/run.sh first)"; continue; }
    grep -q '^// XFAIL:' "$src" && continue
    envs=$(sed -n 's|^// ENV:||p' "$src" | head -1)
    expect=$(sed -n 's|^// EXPECT_EXIT: *||p' "$src" | head -1); expect=${expect:-0}
    log=$LOGS/memcheck-$name.log
    timeout -k 5 "$TIMEOUT" env $envs TRANSFER_TO_NPU_MEMCHECK=1 LD_PRELOAD="$B/lib/libtransfer_to_npu.so" \
        LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$T/$name" >"$log" 2>&1
    rc=$?
    if [ "$rc" -eq "$expect" ] && ! grep -q '^========= Invalid' "$log"; then echo "PASS $name"
    else echo "FAIL $name (rc $rc, see $log)"; grep -m4 '^=========' "$log" | sed 's/^/    /'; fi
done
