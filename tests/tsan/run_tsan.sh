#!/usr/bin/env bash
# run_tsan.sh - builds the runtime (npu_runtime/*.c, npu_runtime/kernel/*.c) with
# ThreadSanitizer into build/tsan and runs tests/tsan/stress16 (16 host threads hammering
# allocation, copies, launches, streams, events, host functions) with halt_on_error: any
# TSan report fails the tier. Prints "PASS tsan/stress16" or "FAIL tsan/stress16".
# The JIT-compiled kernel objects and OpenBLAS are not instrumented (TSan sees the runtime's
# own synchronisation, which is what this checks). TSAN_CC (default cc).
# Thread-mode kernels are left out under TSan (STRESS_FIBERS=0): the executor's fibers switch
# stacks in assembly without TSan's fiber annotations, and TSan's own state breaks on that
# (CHECK failed in tsan_clock.cpp / stack depot overflow), which says nothing about races.
# The same program, with fibers, also runs uninstrumented (PASS tsan/stress16-fibers-plain)
# against build/libnpu_runtime.a when that exists, for its result checks.
set -u
cd "$(dirname "$0")/../.."
B=build/tsan
mkdir -p "$B/obj" build/tests/logs
# gcc by default: clang-14 rejects cube.c's __builtin_cpu_supports("f16c").
TSAN_CC=${TSAN_CC:-cc}
FLAGS="-fsanitize=thread -O1 -g -fPIC -pthread -D_GNU_SOURCE -I. -Wall -Wextra -Wno-unused-parameter"
log=build/tests/logs/tsan-stress16.log
: >"$log"
objs=()
stale=()
for src in npu_runtime/*.c npu_runtime/kernel/*.c; do
    o=$B/obj/$(echo "${src%.c}" | tr / _).o
    objs+=("$o")
    if [ ! "$o" -nt "$src" ] || [ -n "$(find npu_runtime -newer "$o" \( -name '*.h' -o -name '*.def' \) | head -1)" ]; then
        stale+=("$src")
    fi
done
if [ ${#stale[@]} -gt 0 ]; then
    printf '%s\n' "${stale[@]}" | xargs -P "$(nproc)" -I{} sh -c \
        'o='"$B"'/obj/$(echo "{}" | sed "s/\.c$//" | tr / _).o; '"$TSAN_CC $FLAGS"' -c {} -o $o' >>"$log" 2>&1 \
        || { echo "FAIL tsan/stress16 (runtime build failed, see $log)"; tail -20 "$log"; exit 0; }
fi
if ! $TSAN_CC $FLAGS -Itests tests/tsan/stress16.c "${objs[@]}" -lopenblas -lffi -lzstd -llz4 -ldl -lm \
        -o "$B/stress16" >>"$log" 2>&1; then
    echo "FAIL tsan/stress16 (build failed, see $log)"; tail -20 "$log"; exit 0
fi
# The kernel cache is private, so the first launches really race translation + compilation.
rm -rf "$B/kcache"
STRESS_FIBERS=0 TRANSFER_TO_NPU_CACHE=$PWD/$B/kcache TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 suppressions=$PWD/tests/tsan/tsan.supp ${TSAN_OPTIONS:-}" \
    timeout -k 5 600 "$B/stress16" tests/tsan/stress16.ptx >>"$log" 2>&1
rc=$?
if [ $rc -eq 0 ] && ! grep -q "WARNING: ThreadSanitizer" "$log"; then
    echo "PASS tsan/stress16"
else
    echo "FAIL tsan/stress16 (rc $rc, see $log)"
    grep -A12 "WARNING: ThreadSanitizer" "$log" | head -40
    tail -5 "$log"
fi

if [ -f build/libnpu_runtime.a ]; then
    plog=build/tests/logs/tsan-stress16-plain.log
    if ${CC:-cc} -O2 -g -pthread -D_GNU_SOURCE -I. -Itests tests/tsan/stress16.c build/libnpu_runtime.a \
            -lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread -o "$B/stress16-plain" >"$plog" 2>&1 &&
        TRANSFER_TO_NPU_CACHE=$PWD/$B/kcache STRESS_ITERS=24 timeout -k 5 300 "$B/stress16-plain" tests/tsan/stress16.ptx >>"$plog" 2>&1; then
        echo "PASS tsan/stress16-fibers-plain"
    else
        echo "FAIL tsan/stress16-fibers-plain (see $plog)"; tail -5 "$plog"
    fi
fi
