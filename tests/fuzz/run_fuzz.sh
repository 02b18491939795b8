#!/usr/bin/env bash
# run_fuzz.sh - builds the libFuzzer harnesses (clang-14 -fsanitize=fuzzer,address,undefined)
# for the fatbin reader (fuzz_fatbin), the PTX translator (fuzz_ptx), module loading with
# variable initialisers (fuzz_module), the cubin loader (fuzz_cubin) and the SASS decoder (fuzz_sass), replays the regression corpus
# (tests/fuzz/regress/<harness>/: minimised inputs of crashes found and fixed), then fuzzes
# each harness for FUZZ_TIME seconds (default 20) from the seeds (tests/fuzz/seeds/<harness>/,
# made by make_seeds.sh) plus the corpus grown by earlier runs (build/fuzz/corpus-<harness>).
# Prints "PASS fuzz/<harness>" or "FAIL fuzz/<harness>"; a crash input is kept as
# build/fuzz/crash-<harness>-*.
set -u
cd "$(dirname "$0")/../.."
B=build/fuzz
mkdir -p "$B" build/tests/logs
FUZZ_CC=${FUZZ_CC:-clang-14}
T=${FUZZ_TIME:-20}
command -v "$FUZZ_CC" >/dev/null || { echo "FAIL fuzz/clang-14-missing"; exit 0; }
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
FLAGS="-g -O1 -D_GNU_SOURCE -I. -Wall -Wextra -Wno-unused-parameter"
declare -A SRCS=(
    [fatbin]="npu_runtime/kernel/fatbin.c npu_runtime/log.c"
    [ptx]="npu_runtime/kernel/ptx_parse.c npu_runtime/kernel/ptx_emit.c npu_runtime/log.c"
    [module]="npu_runtime/kernel/module.c npu_runtime/kernel/ptx_parse.c npu_runtime/kernel/ptx_emit.c npu_runtime/log.c"
    [cubin]="npu_runtime/kernel/cubin.c npu_runtime/log.c"
    [sass]="npu_runtime/kernel/sass_decode.c npu_runtime/kernel/sass_decode_ctl.c npu_runtime/kernel/sass_format.c"
)
# fuzz_module stubs npu_mem_alloc_module/npu_mem_free/npu_jit_load (exactly-sized blocks, no
# JIT): its stubs come first on the command line and win over the archive's definitions.
declare -A LDX=([module]="-Wl,--allow-multiple-definition")
declare -A SEEDS=([fatbin]=fatbin [ptx]=ptx [module]=ptx [cubin]=cubin [sass]=sass)
# The sources under test are instrumented; whatever else of the runtime they reach (memory,
# device ...) comes uninstrumented from build/libnpu_runtime.a when it exists (make test builds
# it first), so a new cross-module call in a translator file does not break these builds.
RTLIBS="-lzstd -llz4 -ldl -lpthread"
[ -f build/libnpu_runtime.a ] && RTLIBS="build/libnpu_runtime.a -lopenblas -lffi -lzstd -llz4 -ldl -lm -lpthread"
export TRANSFER_TO_NPU_LOG=off
for h in fatbin ptx module cubin sass; do
    log=build/tests/logs/fuzz-$h.log
    bin=$B/fuzz_$h
    # shellcheck disable=SC2086
    if ! $FUZZ_CC $FLAGS $SAN "tests/fuzz/fuzz_$h.c" ${SRCS[$h]} ${LDX[$h]:-} $RTLIBS -o "$bin" >"$log" 2>&1; then
        echo "FAIL fuzz/$h (build failed, see $log)"; tail -5 "$log"; continue
    fi
    # 1. regression corpus: every input must run clean
    if [ -d "tests/fuzz/regress/$h" ] && [ -n "$(ls -A "tests/fuzz/regress/$h")" ]; then
        if ! "$bin" -runs=0 "tests/fuzz/regress/$h"/* >>"$log" 2>&1; then
            echo "FAIL fuzz/$h (a regression input crashes, see $log)"; continue
        fi
    fi
    # 2. short fuzzing run
    corpus=$B/corpus-$h
    mkdir -p "$corpus"
    dirs=("$corpus" "tests/fuzz/seeds/${SEEDS[$h]}")
    [ -d "tests/fuzz/regress/$h" ] && dirs+=("tests/fuzz/regress/$h")
    "$bin" -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$B/crash-$h-" "${dirs[@]}" >>"$log" 2>&1
    rc=$?
    execs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
    rss=$(grep -E '^stat::peak_rss_mb' "$log" | tail -1 | awk '{print $2}')
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    if [ $rc -eq 0 ]; then echo "PASS fuzz/$h ($cov, ${execs:-?} execs in ${T}s, peak rss ${rss:-?} MB)"
    else echo "FAIL fuzz/$h (rc $rc, see $log; crash input in $B/crash-$h-*)"; grep -E '^==[0-9]+==ERROR|SUMMARY' "$log" | head -3; fi
done
