#!/usr/bin/env bash
# run_cuda_valgrind.sh - CUDA test programs that launch kernels and call cuBLAS, under
# valgrind memcheck with the library preloaded (LD_PRELOAD in valgrind's environment, so
# it reaches the client): no invalid access, no use of uninitialised values, no definite or
# indirect leak. ("Possibly lost" blocks are live worker threads' stacks/TLS at exit.)
# The JIT's compiler child runs natively (valgrind does not trace children).
#   default      a small representative subset (CI; chosen among the fastest natively, since
#                valgrind costs 30-100x and loading OpenBLAS under it alone takes ~20 s):
#                named/counted barriers (thread mode), warp match/redux, events and streams,
#                cuBLASLt, the driver's library API
# Suppressions (cuda.supp): glibc's ld.so strncmp word reads, and leaks whose allocation is
# made directly by a test program (those are the test's own, reported in the log).
#   VALGRIND_ALL=1   every built program in build/tests/cuda (~5-50 s each here; ~15 min)
#   VALGRIND_PROGS="a b"   just these programs
#   VALGRIND_JOBS    programs run in parallel (default 1)
# Prints "PASS valgrind/<prog>" / "FAIL valgrind/<prog>"; logs in build/tests/logs.
set -u
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "FAIL valgrind/not-installed"; exit 0; }
# A small device: the reserved device range is mapped readable, and memcheck's leak search
# scans it all. With the default (a share of RAM, ~48 GiB here) k_named_barriers took 150 s
# under valgrind on this loaded 2-vCPU VM; with 1 GiB, 17 s.
export TRANSFER_TO_NPU_MEMORY=${TRANSFER_TO_NPU_MEMORY:-1G}
# The JIT compiles kernels with -march=native; valgrind 3.19 cannot decode AVX-512 (SIGILL in
# npu_kentry_block on this Zen 4), so kernels are built by a compiler wrapper that adds
# -mno-avx512f, into their own cache (the compiler is part of the cache key).
mkdir -p build/valgrind
printf '#!/bin/sh\nexec %s "$@" -mno-avx512f\n' "${CC:-cc}" > build/valgrind/cc-no-avx512
chmod +x build/valgrind/cc-no-avx512
export TRANSFER_TO_NPU_CC=$PWD/build/valgrind/cc-no-avx512
export TRANSFER_TO_NPU_CACHE=$PWD/build/valgrind/kcache
SUBSET="k_named_barriers k_match_redux rt_event blas_lt drv_library"
if [ -n "${VALGRIND_PROGS:-}" ]; then
    progs=$VALGRIND_PROGS
elif [ -n "${VALGRIND_ALL:-}" ]; then
    # left out: rt_memcpy, rt_stream (run_valgrind.sh has them) and the programs whose kernels
    # make wild accesses on purpose (the runtime turns the fault into a sticky error; memcheck
    # reports the access first)
    progs=$(ls build/tests/cuda/ | grep -vE '\.|^(rt_memcpy|rt_stream|k_illegal_address|k_fault_.*|k_memcheck_.*)$')
else
    progs=$SUBSET
fi
one() { # prog
    local t=$1 bin=build/tests/cuda/$1 log=build/tests/logs/valgrind-cuda-$1.log src=tests/cuda/$1.cu envs expect
    [ -x "$bin" ] || { echo "FAIL valgrind/$t (not built: run tests/run.sh first)"; return; }
    envs=$(sed -n 's|^// ENV:||p' "$src" 2>/dev/null | head -1)
    expect=$(sed -n 's|^// EXPECT_EXIT: *||p' "$src" 2>/dev/null | head -1); expect=${expect:-0}
    local t0=$SECONDS
    # shellcheck disable=SC2086
    env $envs LD_PRELOAD=$PWD/build/lib/libtransfer_to_npu.so timeout 900 valgrind \
        --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --show-leak-kinds=definite,indirect --track-origins=no --child-silent-after-fork=yes \
        --suppressions=$PWD/tests/valgrind/cuda.supp --num-callers=24 \
        "$bin" >"$log" 2>&1
    local rc=$?
    local bad
    bad=$(grep -cE "Invalid (read|write|free)|definitely lost: [1-9]|indirectly lost: [1-9]|uninitialised|Mismatched free|overlap" "$log")
    if [ "$rc" -eq "$expect" ] && [ "$bad" -eq 0 ]; then
        echo "PASS valgrind/$t ($((SECONDS - t0)) s)"
    elif [ "$bad" -eq 0 ] && [ "$rc" -ne 97 ] && [ "$rc" -lt 128 ]; then
        # memcheck found nothing; the program's own checks differ under valgrind's CPU
        # emulation (it ignores directed rounding modes, e.g. k_cvt, k_float_round). The
        # results themselves are checked natively by the cuda tier.
        echo "PASS valgrind/$t ($((SECONDS - t0)) s; memcheck clean, program exit $rc under emulation)"
    else
        echo "FAIL valgrind/$t (rc $rc, expected $expect, see $log)"
        grep -E "Invalid|lost:|uninitialised|ERROR SUMMARY" "$log" | head -5 | sed 's/^/    /'
    fi
}
export -f one
printf '%s\n' $progs | xargs -P "${VALGRIND_JOBS:-1}" -I{} bash -c 'one {}'
