#!/usr/bin/env bash
# scripts/gpu_diff.sh - differential testing against a real NVIDIA GPU (the best oracle we have).
#
#   scripts/gpu_diff.sh prepare   here (no GPU): builds the diff programs (tests/diff/*.cu), the
#                                 driver-API PTX runner and examples/train.cu into .gpu/, and the
#                                 tests/cuda programs into build/tests/cuda (tests/run.sh's builds)
#   scripts/gpu_diff.sh run       on the GPU machine (the device tool; carry .gpu and
#                                 build/tests/cuda): records tests/diff references, runs every
#                                 tests/cuda program natively, the PTX tier through
#                                 ptx_run_cuda, both training examples, and the Python tier with
#                                 TTN_NATIVE_GPU=1 (scripts run plain, without the bridge).
#                                 Writes $OUT/ref/*.bin, $OUT/summary.txt, $OUT/logs.tgz
#   scripts/gpu_diff.sh import DIR   copies DIR/ref/*.bin into tests/diff/ref/
#
# A tests/cuda program that fails natively either tests NPU-only behaviour (it checks on_npu()
# or an NPU variable) or has an expectation real CUDA does not share: read its log.
set -u
cd "$(dirname "$0")/.."
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA/bin/nvcc
G=.gpu

prepare() {
    mkdir -p $G/diff
    make -j2 >/dev/null || exit 1
    # every tests/cuda program, built as tests/run.sh builds it (its up-to-date builds are reused)
    for src in tests/cuda/*.cu; do
        n=$(basename "${src%.cu}"); out=build/tests/cuda/$n
        [ "$out" -nt "$src" ] && [ "$out" -nt tests/check.h ] && continue
        flags=$(sed -n 's|^// NVCC_FLAGS:||p' "$src" | head -1)
        echo "nvcc $n"; mkdir -p build/tests/cuda
        $NVCC -cudart shared -Itests $flags "$src" -o "$out" || echo "build failed: $n"
    done
    for src in tests/diff/*.cu; do
        n=$(basename "${src%.cu}")
        [ $G/diff/$n -nt "$src" ] && [ $G/diff/$n -nt tests/diff/diff.h ] && continue
        flags=$(sed -n 's|^// NVCC_FLAGS:||p' "$src" | head -1)
        echo "nvcc $n"
        $NVCC -cudart shared -Itests -Itests/diff $flags "$src" -o $G/diff/$n || echo "build failed: $n"
    done
    cc -O2 -I$CUDA/include tests/ptx/ptx_run_cuda.c -L$CUDA/lib64/stubs -lcuda -o $G/ptx_run_cuda || exit 1
    $NVCC -O2 -cudart shared -o $G/train examples/train.cu || exit 1
    du -sh $G build/tests/cuda
}

run() {
    OUT=${OUT:-/tmp/gpu_out}
    mkdir -p "$OUT/ref" /tmp/gd/logs/cuda /tmp/gd/logs/ptx /tmp/gd/logs/diff
    L=/tmp/gd/logs; S=$OUT/summary.txt
    : >"$S"
    { nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; $NVCC --version | tail -2; } >>"$S" 2>&1
    # 1. diff references
    for p in $G/diff/*; do
        n=$(basename "$p")
        if timeout 120 "$p" --record "$OUT/ref/$n.bin" >$L/diff/$n.log 2>&1; then echo "RECORDED $n" >>"$S"
        else echo "RECORD-FAILED $n (rc $?)" >>"$S"; tail -20 $L/diff/$n.log >>"$S"; fi
    done
    # 2. tests/cuda natively (8 at a time)
    runone() {
        src=tests/cuda/$1.cu; b=build/tests/cuda/$1
        envs=$(sed -n 's|^// ENV:||p' "$src" | head -1)
        expect=$(sed -n 's|^// EXPECT_EXIT: *||p' "$src" | head -1); expect=${expect:-0}
        start=$(date +%s%N)
        timeout -k 5 30 env $envs "$b" >/tmp/gd/logs/cuda/$1.log 2>&1; rc=$?
        t=$(( ($(date +%s%N) - start) / 1000000 ))
        if [ "$rc" -eq "$expect" ]; then echo "PASS cuda/$1 ${t}ms"; else echo "FAIL cuda/$1 rc=$rc expected=$expect ${t}ms"; fi
    }
    export -f runone
    ls build/tests/cuda | xargs -P 8 -I{} bash -c 'runone {}' | sort >>"$S"
    # 3. PTX tier through the driver API
    for f in tests/ptx/*.ptx; do
        n=$(basename "$f" .ptx); inf=tests/ptx/$n.in; [ -f "$inf" ] || inf=/dev/null
        timeout 60 $G/ptx_run_cuda "$f" "$inf" >$L/ptx/$n.out 2>$L/ptx/$n.err
        if cmp -s $L/ptx/$n.out tests/ptx/$n.expected; then echo "PASS ptx/$n" >>"$S"
        else echo "DIFF ptx/$n" >>"$S"; diff tests/ptx/$n.expected $L/ptx/$n.out | head -8 >>"$S"; fi
    done
    # 4. the training examples, unchanged, on the GPU
    timeout 120 $G/train /tmp/gd/mlp_weights.bin >$L/train_cu.log 2>&1; echo "train.cu rc=$?" >>"$S"
    tail -4 $L/train_cu.log >>"$S"
    PYTHONUNBUFFERED=1 timeout 300 python3 examples/train_cupy.py >$L/train_cupy.log 2>&1; echo "train_cupy.py rc=$?" >>"$S"
    tail -4 $L/train_cupy.log >>"$S"
    # 5. the Python tier, scripts run plain
    TTN_NATIVE_GPU=1 TTN_PY_TIMEOUT=120 timeout 240 python3 -m pytest -q -rA -p no:cacheprovider \
        --ignore tests/python/test_bridge.py tests/python >$L/pytest.log 2>&1
    echo "pytest rc=$?" >>"$S"; grep -E '^(PASS|FAIL|SKIP) ' $L/pytest.log >>"$S"
    tar -czf "$OUT/logs.tgz" -C /tmp/gd logs
    grep -c '^PASS' "$S" | sed 's/^/passes: /' >>"$S"
    grep -vE '^(PASS|RECORDED)' "$S" | head -150
}

case ${1:-} in
    prepare) prepare ;;
    run) run ;;
    import) mkdir -p tests/diff/ref && cp "$2"/ref/*.bin tests/diff/ref/ && ls -la tests/diff/ref ;;
    *) echo "usage: $0 prepare | run | import DIR" >&2; exit 2 ;;
esac
