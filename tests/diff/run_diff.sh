#!/usr/bin/env bash
# tests/diff/run_diff.sh - the differential tier: each tests/diff/NAME.cu is built with nvcc and
# run on the NPU against tests/diff/ref/NAME.bin, results recorded on a real NVIDIA GPU by
# scripts/gpu_diff.sh (the reference names the GPU it came from). tests/diff/known/NAME.txt lists
# the sections that still differ, with the reason; any other difference fails, and so does a
# known one that has started to match (the list only shrinks). A program with no recording yet
# runs once in record mode and must finish without API errors ("NAME-runs"); it is compared
# once a session with a GPU records it.
# Every program also checks our execution modes against each other ("NAME-modes"): its default
# run's results are the reference for runs with NPU_PTX_NO_LANES=1 (per-thread code),
# NPU_PTX_NO_PHASES=1 (fibers for barrier and warp kernels) and TRANSFER_TO_NPU_MEMCHECK=1
# (checked accesses); each must match bit for bit.
set -u
cd "$(dirname "$0")/../.."
B=$PWD/build; T=$B/tests/diff; mkdir -p "$T"
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$B/kcache}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for src in tests/diff/*.cu; do
    n=$(basename "$src" .cu); exe=$T/$n
    if ! [ "$exe" -nt "$src" ] || ! [ "$exe" -nt tests/diff/diff.h ]; then
        flags=$(sed -n 's|^// NVCC_FLAGS:||p' "$src" | head -1)
        if ! $NVCC -cudart shared -Itests -Itests/diff $flags "$src" -o "$exe" >"$T/$n.build.log" 2>&1; then
            echo "FAIL $n (build)"; tail -5 "$T/$n.build.log"; continue
        fi
    fi
    run=(env LD_PRELOAD="$B/lib/libtransfer_to_npu.so" LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 300 "$exe")
    ref=tests/diff/ref/$n.bin; known=tests/diff/known/$n.txt
    if [ -f "$ref" ]; then
        args=("$ref"); [ -f "$known" ] && args+=(--known "$known")
        "${run[@]}" "${args[@]}" >"$T/$n.log" 2>&1; rc=$?
        grep -E '^(reference|[0-9]+ sections)' "$T/$n.log" | sed 's/^/    /'
        if [ $rc -eq 0 ]; then echo "PASS $n"
        else echo "FAIL $n"; grep -E '^(FAIL|FIXED)|API|->' "$T/$n.log" | head -20 | sed 's/^/    /'; fi
    else
        echo "    $n: no GPU recording yet (scripts/gpu_diff.sh records one); checked that it runs"
    fi
    "${run[@]}" --record "$T/$n.self.bin" >"$T/$n.self.log" 2>&1; rc=$?
    if [ ! -f "$ref" ]; then
        if [ $rc -eq 0 ]; then echo "PASS $n-runs"
        else echo "FAIL $n-runs"; grep -E 'API|->' "$T/$n.self.log" | head -20 | sed 's/^/    /'; fi
    fi
    bad=""
    for mode in NPU_PTX_NO_LANES=1 NPU_PTX_NO_PHASES=1 TRANSFER_TO_NPU_MEMCHECK=1; do
        env "$mode" "${run[@]}" "$T/$n.self.bin" >"$T/$n.${mode%%=*}.log" 2>&1 || bad="$bad $mode"
    done
    if [ $rc -eq 0 ] && [ -z "$bad" ]; then echo "PASS $n-modes"
    else echo "FAIL $n-modes (differs under:$bad)"; for mode in $bad; do grep -E '^FAIL|API' "$T/$n.${mode%%=*}.log" | head -5 | sed "s/^/    $mode: /"; done; fi
done
