#!/usr/bin/env bash
# run_valgrind.sh - runtime-API CUDA programs (no kernels) under valgrind memcheck with the
# library preloaded: no invalid access, no definite or indirect leak. ("Possibly lost" blocks
# are worker threads' TLS that are still alive at exit, which valgrind cannot follow.)
# A 1 GiB device keeps the leak search from scanning a large reserved device range.
set -u
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "FAIL valgrind/not-installed"; exit 1; }
for t in rt_memcpy rt_stream; do
    bin=build/tests/cuda/$t
    [ -x "$bin" ] || { echo "FAIL valgrind/$t (not built)"; continue; }
    log=build/tests/logs/valgrind-$t.log
    TRANSFER_TO_NPU_MEMORY=1G LD_PRELOAD=$PWD/build/lib/libtransfer_to_npu.so timeout 900 valgrind --error-exitcode=97 \
        --leak-check=full --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
        "$bin" >"$log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$log"; then echo "PASS valgrind/$t"
    elif [ $rc -eq 0 ] && ! grep -qE "Invalid (read|write)|definitely lost: [1-9]|indirectly lost: [1-9]|uninitialised" "$log"; then echo "PASS valgrind/$t"
    else echo "FAIL valgrind/$t (rc $rc, see $log)"; grep -E "Invalid|lost:|ERROR SUMMARY" "$log" | head; fi
done
