#!/usr/bin/env bash
# run_override.sh - native kernel overrides (TRANSFER_TO_NPU_KERNELS): builds the plugin and
# the CUDA program, runs it under the preload, and checks results and log lines.
set -u
cd "$(dirname "$0")/../.."
O=build/tests/override; mkdir -p "$O"
cc -O2 -shared -fPIC -I. tests/override/override_plugin.c -o $O/override_plugin.so || { echo "FAIL override/build-plugin"; exit 1; }
/usr/local/cuda/bin/nvcc -cudart shared -Itests tests/override/override_app.cu -o $O/override_app || { echo "FAIL override/build-app"; exit 1; }
TRANSFER_TO_NPU_LOG=info TRANSFER_TO_NPU_KERNELS=$PWD/$O/override_plugin.so \
    LD_PRELOAD=$PWD/build/lib/libtransfer_to_npu.so $O/override_app >$O/run.log 2>&1
rc=$?
cat $O/run.log
[ $rc -eq 0 ] && echo "PASS override/results" || echo "FAIL override/results"
grep -q "_Z5saxpyfPKfPfi runs the native override" $O/run.log && grep -q "_Z12scale_struct6AffinePfi runs the native override" $O/run.log \
    && echo "PASS override/used" || echo "FAIL override/used"
grep -q 'overrides _Z7bad_sigPii with parameters "u64,u64" but the kernel.s PTX declares "u64,u32"' $O/run.log \
    && echo "PASS override/mismatch-message" || echo "FAIL override/mismatch-message"
