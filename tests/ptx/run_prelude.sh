#!/usr/bin/env bash
# tests/ptx/run_prelude.sh - checks the rounding helpers of npu_runtime/kernel/ptx_prelude.h
# (f16/bf16 add/sub/fma rounded once, cvt.ftz.f32.f64, float -> integer NaN results) on a few
# hundred thousand inputs against prelude_check.py's exact reference (fractions). PASS/FAIL lines.
set -u
cd "$(dirname "$0")/../.."
T=build/tests/ptx; mkdir -p "$T"
if ! ${CC:-cc} -O2 -ffp-contract=off -I. tests/ptx/prelude_check.c -o $T/prelude_check -lm 2>$T/prelude_check.build.log; then
    echo "FAIL prelude_check_build"; cat $T/prelude_check.build.log; exit 1
fi
python3 tests/ptx/prelude_check.py $T/prelude_check "${PRELUDE_CHECK_N:-300000}"
if ${CC:-cc} -O2 -ffp-contract=off -I. tests/ptx/prelude_round.c -o $T/prelude_round -lm 2>$T/prelude_round.build.log; then
    $T/prelude_round
else
    echo "FAIL prelude_round_build"; cat $T/prelude_round.build.log
fi
# min/max and the lane-group helpers again under the JIT's flags (vectorized lane loops,
# -march=native: jit.c JIT_FLAGS), with 32-lane groups and undeclared functions as errors (the
# JIT itself compiles with -w: a misspelt builtin surfaced only as a failed dlopen)
if ${CC:-cc} -O1 -finline-small-functions -ftree-loop-vectorize -ftree-slp-vectorize -fvect-cost-model=very-cheap \
        -ffp-contract=off -fno-trapping-math -fno-strict-aliasing -march=native -Werror=implicit-function-declaration \
        -DNPU_LANES=32u -I. tests/ptx/prelude_round.c \
        -o $T/prelude_round_jit -lm 2>$T/prelude_round_jit.build.log; then
    $T/prelude_round_jit minmax
else
    echo "FAIL prelude_round_jit_build"; cat $T/prelude_round_jit.build.log
fi
