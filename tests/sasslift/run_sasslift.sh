#!/usr/bin/env bash
# tests/sasslift/run_sasslift.sh - the SASS front end tier: every CUDA kernel test program of
# tests/cuda (k_*.cu, already built by tests/run.sh into build/tests/cuda; nvcc's default
# architecture embeds sm_75 machine code next to compute_75 PTX, and the sm_80-only tests embed
# sm_80 code) runs again with TRANSFER_TO_NPU_ISA=sass, so its kernels are decoded from
# the machine code and lifted (sass_lift.c) instead of translated from the PTX ptxas made it
# from: the same host references must hold. Programs whose kernels the SASS path does not run
# yet are listed in tests/sasslift/known_failures.txt with the reason; they still run: a
# failure prints "SKIP name: known ..." (not counted), a pass prints "FAIL name (passes now:
# remove it from known_failures.txt)". Tests with no SASS to lift (XFAIL features, the
# fault-expectation tests whose messages name PTX lines) are left out by the same list.
#   SASSLIFT_FILTER=regex narrows the programs; TEST_TIMEOUT (default 300 s) per program.
# TIER_TIMEOUT: 3000
set -u
cd "$(dirname "$0")/../.."
B=$PWD/build
T=$B/tests/cuda
LOGS=$B/tests/logs
mkdir -p "$LOGS"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
TIMEOUT=${TEST_TIMEOUT:-300}
FILTER=${SASSLIFT_FILTER:-.}
KNOWN=tests/sasslift/known_failures.txt
for src in tests/cuda/k_*.cu; do
    name=$(basename "${src%.cu}")
    echo "$name" | grep -qE "$FILTER" || continue
    grep -q '^// XFAIL:' "$src" && continue
    why=$(sed -n "s|^$name: *||p" "$KNOWN" | head -1)
    [ -x "$T/$name" ] || { echo "FAIL $name (not built: run tests/run.sh first)"; continue; }
    envs=$(sed -n 's|^// ENV:||p' "$src" | head -1)
    expect=$(sed -n 's|^// EXPECT_EXIT: *||p' "$src" | head -1); expect=${expect:-0}
    log=$LOGS/sasslift-$name.log
    timeout -k 5 "$TIMEOUT" env $envs TRANSFER_TO_NPU_ISA=sass LD_PRELOAD="$B/lib/libtransfer_to_npu.so" \
        LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$T/$name" >"$log" 2>&1
    rc=$?
    if [ -n "$why" ]; then
        if [ "$rc" -eq "$expect" ]; then echo "FAIL $name (passes now: remove it from $KNOWN)"
        else echo "SKIP $name: known SASS-path failure: $why"; fi
    elif [ "$rc" -eq "$expect" ]; then echo "PASS $name"
    else echo "FAIL $name (rc $rc, see $log)"; grep -m6 -E 'CHECK failed|ERROR|error' "$log" | sed 's/^/    /'; fi
done

# An instruction the lifter does not run is named, never run wrongly: k_sass_unsup (IMMA) gets
# cudaErrorNoKernelImageForDevice at launch and checks that itself; here the migration report
# must list the opcode and the log must name kernel, offset, instruction and its words.
if echo k_sass_unsup_report | grep -qE "$FILTER" && [ -x "$T/k_sass_unsup" ]; then
    rdir=$B/tests/sasslift-report; rm -rf "$rdir"; mkdir -p "$rdir"
    log=$LOGS/sasslift-k_sass_unsup_report.log
    timeout -k 5 "$TIMEOUT" env TRANSFER_TO_NPU_ISA=sass TRANSFER_TO_NPU_REPORT="$rdir" \
        LD_PRELOAD="$B/lib/libtransfer_to_npu.so" LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        "$T/k_sass_unsup" >"$log" 2>&1
    rc=$?
    csv=$rdir/transfer_to_npu_report.unsupported.csv
    if [ "$rc" -ne 0 ]; then echo "FAIL k_sass_unsup_report (rc $rc, see $log)"
    elif ! grep -qE '^"SASS IMMA \(sm_80\)",machine code,[1-9]' "$csv" 2>/dev/null; then
        echo "FAIL k_sass_unsup_report (the report does not list SASS IMMA (sm_80), see $csv)"
    elif ! grep -qE 'kernel _Z4immaPKiS0_Pi \(sm_80\): pc 0x[0-9a-f]+: IMMA is not lifted yet: IMMA[^ ]* .*\[[0-9a-f]{16} [0-9a-f]{16}\]' "$log"; then
        echo "FAIL k_sass_unsup_report (the log does not name kernel, pc, instruction and words, see $log)"
    else echo "PASS k_sass_unsup_report"; fi
fi
