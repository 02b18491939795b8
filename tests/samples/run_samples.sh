#!/usr/bin/env bash
# tests/samples/run_samples.sh - NVIDIA's cuda-samples, built as a user would for a GPU and run
# on the NPU through scripts/transfer-to-npu; prints "PASS name" / "FAIL name (reason: ...)"
# per sample and a summary line. Fetches nothing: it needs a checkout of
# https://github.com/NVIDIA/cuda-samples (commit c94ff366 is the one the table was written
# for) at CUDA_SAMPLES=path, and without it prints one SKIP line and exits 0 (what CI sees).
#   CUDA_SAMPLES=~/cuda-samples make samples            (or: bash tests/samples/run_samples.sh)
#   SAMPLES_FILTER=regex     only samples whose name matches
#   SAMPLES_TIMEOUT=300      seconds per run (a sample's timeout=S option overrides it)
#   SAMPLES_JOBS=2           parallel nvcc builds (at most 2: the machines are shared)
#   SAMPLES_BUILD_ONLY=1     build, do not run
#   SAMPLES_JUDGE_ONLY=1     neither build nor run: judge the logs of the last run again
#   SAMPLES_OUT=build/samples
# TIER_TIMEOUT: 0
# (tests/run.sh: no limit on the whole tier, each sample's run has its own timeout; a full
# run builds for ~30 min and runs for ~1 h on 2 cores)
# Build: `nvcc -O2 -I $CUDA_SAMPLES/Common <sources> -o name` plus what the sample's
# CMakeLists.txt links (table: tests/samples/samples.txt). nvcc's defaults are kept: static
# cudart and the default architecture (PTX for compute_75 in the fatbin). -L<cuda>/lib64/stubs
# is added where -lcuda is linked, since this machine has no driver libcuda.so. Each sample is
# built in SAMPLES_OUT/<name>/, which is also where it runs: the sample folder's files are
# linked there and its data/ copied (samples find inputs through sdkFindFilePath, which looks
# in ./ and ./data/ of the working directory, and some write output images next to them),
# so nothing is written into the checkout. A build is redone when a file of the sample, of
# Common/ or the command line changed.
# Run: `scripts/transfer-to-npu ./name args` from that folder, stdin from /dev/null, under
# `timeout`, with TRANSFER_TO_NPU_LOG=info (each kernel translation is logged, so a timeout
# names the last kernel translated) and TRANSFER_TO_NPU_REPORT in SAMPLES_OUT/logs/<name>/
# (its unsupported-API list goes into the failure reason). Output: SAMPLES_OUT/logs/<name>.log,
# one line per sample in SAMPLES_OUT/results.txt.
# Verdict, from the exit code AND the output (lines of the runtime's own log,
# "[transfer_to_npu ...", are not the program's output and are not judged): a sample passes
# only if it exits 0 (or its exit=N), its output matches its success marker ("ok" column),
# every count=/same= check of its row holds, no CUDA call failed in a way the runtime logs as
# an ERROR (a rejected kernel, a fault, an assert), the migration report lists no call the
# runtime does not support (a sample that ignores that error has not run as on a GPU), and no
# line carries a failure marker
# (Test failed, FAIL..., failed, ERROR, mismatch, waiving/WAIVED, CUDA error, "does not
# support", ... see FAIL_RE) other than lines its allow= pattern exempts. Several samples exit
# 0 after printing a failure (the MC_* samples ignore their own check; others skip or waive
# with exit 0): these come out as FAIL with "exit 0 but printed: <line>". A sample that waives
# itself (exit 2, EXIT_WAIVED, or a "Waiving" line) is a failure with the waiver shown. A row
# marked nocheck is a sample that verifies nothing (the tensor-core GEMMs check only with
# -DCPU_DEBUG, a multi-hour host GEMM at their sizes): its PASS says "completion only".
#
# Scope (121 of the 180 sample folders of 0_Introduction..6_Performance), from the issue's rule "no graphics interop,
# MPI, multi-GPU, NPP/cuFFT/cuSPARSE/cuSOLVER/nvJPEG" applied to each sample's README
# "Dependencies needed to build/run" list and its CMakeLists.txt. Excluded:
#   graphics interop (X11/GL, EGL, Direct3D, Vulkan in Dependencies), 30: simpleCUDA2GL,
#     simpleTexture3D, EGLStream_CUDA_CrossGPU, EGLStream_CUDA_Interop, FunctionPointers,
#     boxFilter, imageDenoising, particles, bindlessTexture, oceanFFT, randomFog, Mandelbrot,
#     SobelFilter, bicubicTexture, bilateralFilter, fluidsGL, marchingCubes, nbody,
#     postProcessGL, recursiveGaussian, simpleD3D11, simpleD3D11Texture, simpleD3D12, simpleGL,
#     simpleVulkan, simpleVulkanMMAP, smokeParticles, volumeFiltering, volumeRender,
#     vulkanImageCUDA (oceanFFT, fluidsGL and randomFog also need cuFFT/cuRAND; counted here)
#   MPI, 1: simpleMPI
#   NPP (+FreeImage), 6: FilterBorderControlNPP, boxFilterNPP, cannyEdgeDetectorNPP,
#     freeImageInteropNPP, histEqualizationNPP, watershedSegmentationNPP
#   cuFFT, 5: simpleCUFFT, simpleCUFFT_callback, simpleCUFFT_MGPU, simpleCUFFT_2d_MGPU,
#     convolutionFFT2D
#   cuSPARSE/cuSOLVER, 9: conjugateGradient, conjugateGradientCudaGraphs, conjugateGradientPrecond,
#     conjugateGradientUM, cuSolverDn_LinearSolver, cuSolverRf, cuSolverSp_LinearSolver,
#     cuSolverSp_LowlevelCholesky, cuSolverSp_LowlevelQR
#   nvJPEG, 2: nvJPEG, nvJPEG_encoder;  NvSci (Tegra/automotive), 1: cudaNvSci
#   multi-GPU by design (peer access, one device per thread), 5: simpleMultiGPU, simpleP2P,
#     streamOrderedAllocationP2P, conjugateGradientMultiDeviceCG, p2pBandwidthLatencyTest
#   not nvcc-built CUDA C samples: 7_libNVVM/* (C programs over libNVVM, their own CMake
#     project) and 8_Platform_Specific/Tegra (built only with BUILD_TEGRA)
# Host packages some samples need to build: OpenMP (gcc's libgomp) for cudaOpenMP and
# UnifiedMemoryStreams, Boost headers (Debian libboost-dev) for interval.
# In scope although their names suggest otherwise: MonteCarloMultiGPU, simpleCUBLASXT and
# topologyQuery run on one device; conjugateGradientMultiBlockCG links cuSPARSE in its CMake
# but calls neither cuSPARSE nor cuBLAS, so it is built without them.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
if [ -z "${CUDA_SAMPLES:-}" ]; then
    echo "SKIP samples: CUDA_SAMPLES is not set -- NO cuda-samples were built or run." \
         "Set CUDA_SAMPLES=<checkout of github.com/NVIDIA/cuda-samples> to run this tier."
    exit 0
fi
CS=$(cd "$CUDA_SAMPLES" 2>/dev/null && pwd) \
    || { echo "FAIL samples_tier: CUDA_SAMPLES=$CUDA_SAMPLES is not a directory"; exit 1; }
if [ ! -d "$CS/Samples" ] || [ ! -d "$CS/Common" ]; then
    echo "FAIL samples_tier: $CS has no Samples/ and Common/ (not a cuda-samples checkout)"; exit 1
fi
if [ ! -f build/lib/libtransfer_to_npu.so ]; then
    echo "FAIL samples_tier: build/lib/libtransfer_to_npu.so is missing (run make first)"; exit 1
fi
CUDA=${CUDA:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA/bin/nvcc}
OUT=${SAMPLES_OUT:-build/samples}; mkdir -p "$OUT/logs"; OUT=$(cd "$OUT" && pwd)
LOGS=$OUT/logs
TABLE=$ROOT/tests/samples/samples.txt
FILTER=${SAMPLES_FILTER:-.}
TIMEOUT=${SAMPLES_TIMEOUT:-300}
JOBS=${SAMPLES_JOBS:-2}; [ "$JOBS" -gt 2 ] && JOBS=2
export TRANSFER_TO_NPU_CACHE=${TRANSFER_TO_NPU_CACHE:-$ROOT/build/kcache}

# Failure markers, matched against the program's own lines (case-sensitive where a word also
# appears in passing output: "Relative error: 1e-7" is not a failure, "Error: ..." at the start
# of a line is).
FAIL_RE=$(printf '%s|' 'Test failed' FAIL '[Ff]ailed' '[Ff]ailure' '[Ww]aiv' WAIVED ERROR \
    '[Mm]ismatch' MISMATCH 'does not match' "DON.T Match" 'NOT OK' 'CUDA error' CUDA_ERROR \
    'error code' '[Dd]river API error' '^[[:space:]>]*[Ee]rror\b' 'Error!' 'does not support' \
    "doesn.t support" 'not supported' '[Ss]kipping execution' 'core dumped' 'terminate called' \
    'Segmentation fault' '^Aborted')
FAIL_RE=${FAIL_RE%|}

# --- the table: "name | dir | sources | flags | prep | args | ok | opts" -> tab-separated ---
rows=$(grep -vE '^[[:space:]]*(#|$)' "$TABLE" | sed -e 's/ | /\t/g' \
       | awk -F'\t' -v re="$FILTER" 'NR > 1 && NF == 8 && $1 ~ re')
[ -n "$rows" ] || { echo "FAIL samples_tier: no row of $TABLE matches SAMPLES_FILTER=$FILTER"; exit 1; }
nrows=$(printf '%s\n' "$rows" | wc -l)
echo "samples: $nrows from $CS, built and run in $OUT"

# --- build (at most 2 nvcc at a time) ---
build_one() { # row (tab-separated)
    local name dir srcs flags prep args ok opts
    IFS=$'\t' read -r name dir srcs flags prep args ok opts <<<"$1"
    local src=$CS/Samples/$dir bin=$OUT/$name blog=$LOGS/$name.build.log
    [ "$flags" = - ] && flags=""
    case " $flags " in *" -lcuda "*) flags="$flags -L$CUDA/lib64/stubs" ;; esac
    mkdir -p "$bin"
    # the run folder: the sample's files linked, data/ copied (samples write next to inputs)
    local f
    for f in "$src"/* "$src"/.[!.]*; do
        [ -e "$f" ] || continue
        case "$(basename "$f")" in data|"$name") continue ;; esac
        ln -sfn "$f" "$bin/$(basename "$f")"
    done
    [ -d "$src/data" ] && { mkdir -p "$bin/data"; cp -rup "$src/data/." "$bin/data/"; }
    local cmd="$NVCC -O2 -I$CS/Common $flags $srcs -o $bin/$name"
    local p pcmds=()
    for p in $prep; do
        case "$p" in
            fatbin:*:*|ptx:*:*)
                local kind s o; IFS=: read -r kind s o <<<"$p"
                pcmds+=("$NVCC -I$CS/Common -$kind $s -o $bin/$o") ;;
            cg-headers)
                ln -sfn "$CUDA/include/cooperative_groups.h" "$bin/cooperative_groups.h"
                ln -sfn "$CUDA/include/cooperative_groups" "$bin/cooperative_groups"
                ln -sfn "$CUDA/include/cccl/nv" "$bin/nv"; ln -sfn "$CUDA/include/cccl/cuda" "$bin/cuda" ;;
        esac
    done
    local all="$cmd"; for p in "${pcmds[@]}"; do all="$all"$'\n'"$p"; done
    local newer
    newer=$(find -L "$src" "$CS/Common" -newer "$bin/$name" -type f -not -path '*/data/*' -print -quit 2>/dev/null)
    [ -x "$bin/$name" ] && [ "$(cat "$bin/.cmd" 2>/dev/null)" = "$all" ] && [ -z "$newer" ] && return 0
    rm -f "$bin/$name" "$bin/.cmd"
    {
        echo "cd $src"
        for p in "${pcmds[@]}" "$cmd"; do echo "$p"; done
    } >"$blog"
    ( cd "$src" && for p in "${pcmds[@]}"; do $p || exit 1; done && $cmd ) >>"$blog" 2>&1 \
        && printf '%s' "$all" >"$bin/.cmd"
    return 0
}
export -f build_one; export CS OUT LOGS NVCC CUDA
t0=$(date +%s)
[ "${SAMPLES_JUDGE_ONLY:-0}" = 1 ] \
    || printf '%s\n' "$rows" | tr '\n' '\0' | xargs -0 -r -P "$JOBS" -I{} bash -c 'build_one "$1"' _ {}
nbuilt=$(printf '%s\n' "$rows" | cut -f1 | while read -r n; do [ -x "$OUT/$n/$n" ] && echo; done | wc -l)
echo "samples: $nbuilt of $nrows built ($(( $(date +%s) - t0 )) s)"
[ "${SAMPLES_BUILD_ONLY:-0}" = 1 ] && exit 0

# --- run and judge, one sample at a time (each uses every block worker) ---
opt() { # opts key -> values of key=..., one per line (options are separated by " ; ")
    printf '%s\n' "$1" | sed 's/ ; /\n/g' | while IFS= read -r o; do
        case "$o" in "$2"=*) printf '%s\n' "${o#*=}" ;; "$2") echo yes ;; esac
    done
}
first_line() { # file regex [allow] -> first line matching regex and not allow
    if [ -n "${3:-}" ]; then grep -aE -- "$2" "$1" | grep -avE -- "$3" | head -1
    else grep -aE -- "$2" "$1" | head -1; fi
}
clip() { printf '%s' "$1" | tr -d '\r' | tr '\t' ' ' | sed -e 's/^[[:space:]]*//' | cut -c1-200; }
unsupported() { # name -> "; unsupported: a (n), b (n)" from the migration reports
    local list
    list=$(cat "$LOGS/$1"/report-*.unsupported.csv 2>/dev/null | grep -av '^API,' | tr -d '"' | cut -d, -f1,3 \
           | awk -F, '{c[$1]+=$2} END {for (k in c) printf "%s (%d)\n", k, c[k]}' | sort | paste -sd, - | sed 's/,/, /g')
    [ -n "$list" ] && printf '; unsupported: %s' "$list"
}
run_one() { # name args timeout -> $LOGS/name.log, $LOGS/name.rc ("rc seconds")
    local name=$1 args=$2 to=$3 s0 rc
    rm -rf "${LOGS:?}/$name"; mkdir -p "$LOGS/$name"
    s0=$(date +%s)
    ( cd "$OUT/$name" && TRANSFER_TO_NPU_LOG=${TRANSFER_TO_NPU_LOG:-info} \
        TRANSFER_TO_NPU_REPORT="$LOGS/$name/report-%p.txt" \
        timeout -k 10 "$to" $LINEBUF "$ROOT/scripts/transfer-to-npu" "./$name" $args </dev/null >"$LOGS/$name.log" 2>&1 )
    rc=$?
    echo "$rc $(( $(date +%s) - s0 ))" >"$LOGS/$name.rc"
}

# stdout line-buffered as on a terminal (stdbuf preloads libstdbuf next to the runtime): a
# sample killed at its timeout keeps what it printed, and its lines interleave with stderr's
# in the order they were written
LINEBUF=""; command -v stdbuf >/dev/null && LINEBUF="stdbuf -oL"

pass=0; fail=0; wrong=0; nbuildfail=0
: >"$OUT/results.txt"
while IFS=$'\t' read -r name dir srcs flags prep args ok opts; do
    log=$LOGS/$name.log; prog=$LOGS/$name.out
    [ "$args" = - ] && args=""; [ "$opts" = - ] && opts=""
    if [ ! -x "$OUT/$name/$name" ]; then
        why=$(grep -am1 -iE 'error|undefined reference|cannot find' "$LOGS/$name.build.log" 2>/dev/null)
        fail=$((fail+1)); nbuildfail=$((nbuildfail+1))
        echo "FAIL $name (reason: build failed: $(clip "${why:-see $LOGS/$name.build.log}"))"
        printf '%s\tFAIL\tbuild\t0\tbuild: build failed: %s\n' "$name" "$(clip "$why")" >>"$OUT/results.txt"
        continue
    fi
    to=$(opt "$opts" timeout); to=${to:-$TIMEOUT}
    [ "${SAMPLES_JUDGE_ONLY:-0}" = 1 ] || run_one "$name" "$args" "$to"
    read -r rc secs <"$LOGS/$name.rc" 2>/dev/null || { rc=255; secs=0; }
    expect=$(opt "$opts" exit); expect=${expect:-0}
    allow=$(opt "$opts" allow)
    extra=$(opt "$opts" fail); fre=$FAIL_RE${extra:+|$extra}
    grep -av '^\[transfer_to_npu ' "$log" >"$prog" 2>/dev/null
    verdict=PASS; why=""; kind=""
    failline=$(first_line "$prog" "$fre" "$allow")
    rterr=$(grep -a '^\[transfer_to_npu [0-9]* ERROR\] ' "$log" | sed 's/^\[transfer_to_npu [0-9]* ERROR\] /runtime ERROR: /' \
            | { if [ -n "$allow" ]; then grep -avE -- "$allow"; else cat; fi; } | head -1)
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        k=$(grep -aoE 'ptx: [^ ]+ ready' "$log" | tail -1 | sed -e 's/^ptx: //' -e 's/ ready$//')
        last=$(grep -av '^[[:space:]]*$' "$prog" | tail -1)
        verdict=FAIL; kind=timeout
        why="timeout after ${to} s${k:+ (last kernel translated: $k)}; last output: $(clip "$last")"
    elif [ "$rc" -eq 2 ] && [ "$expect" -ne 2 ]; then
        verdict=FAIL; kind=waived; why="waived (exit 2): $(clip "$failline")"
    elif [ -n "$failline" ]; then
        verdict=FAIL
        if [ "$rc" -eq "$expect" ]; then kind=wrong; why="exit $rc but printed: $(clip "$failline")"
        else kind=error; why="$(clip "$failline") (exit $rc)"; fi
    elif [ -n "$rterr" ] && [ "$rc" -eq "$expect" ]; then
        verdict=FAIL; kind=wrong; why="exit $rc but the runtime reported an error the sample ignored: $(clip "$rterr")"
    elif [ "$rc" -ne "$expect" ]; then
        verdict=FAIL; kind=exit
        if [ "$rc" -gt 128 ]; then why="killed by signal $((rc - 128))"; else why="exit $rc"; fi
        rt=$(grep -am1 -E '^\[transfer_to_npu [0-9]+ (ERROR|WARN)\]' "$log" | sed 's/^\[transfer_to_npu [0-9]* \([A-Z]*\)\] /runtime \1: /')
        last=$(grep -av '^[[:space:]]*$' "$prog" | tail -1)
        why="$why: $(clip "${rt:-$last}")"
    elif ! grep -aqE -- "$ok" "$prog"; then
        verdict=FAIL; kind=nomarker; why="exit $rc but no success marker /$ok/"
    else
        while IFS= read -r c; do
            n=${c%%:*}; re=${c#*:}
            got=$(grep -acE -- "$re" "$prog")
            if [ "$got" -ne "$n" ]; then verdict=FAIL; kind=wrong; why="exit $rc but $got lines match /$re/, expected $n"; break; fi
        done < <(opt "$opts" count)
        while IFS= read -r re; do
            [ $verdict = PASS ] || break
            vals=$(grep -aoE -- "$re" "$prog" | sort -u | wc -l); cnt=$(grep -acE -- "$re" "$prog")
            if [ "$cnt" -lt 2 ] || [ "$vals" -ne 1 ]; then verdict=FAIL; kind=wrong; why="exit $rc but the $cnt values of /$re/ are not all equal: $(grep -aoE -- "$re" "$prog" | sort -u | paste -sd' ')"; fi
        done < <(opt "$opts" same)
        while IFS= read -r re; do
            [ $verdict = PASS ] || break
            if ! cat "$LOGS/$name"/report-*.api.csv 2>/dev/null | tr -d '"' | awk -F, -v re="^($re)\$" '$1 ~ re && $5 == "ok" {f=1} END {exit !f}'; then
                verdict=FAIL; kind=wrong; why="exit $rc but no call of $re reached the runtime and succeeded (the sample ignores CUDA errors)"; fi
        done < <(opt "$opts" api)
        u=$(unsupported "$name")
        if [ $verdict = PASS ] && [ -n "$u" ]; then verdict=FAIL; kind=wrong; why="exit $rc but it called APIs the runtime does not support and ignored the error"; fi
    fi
    [ "$kind" = wrong ] && wrong=$((wrong+1))
    if [ $verdict = PASS ]; then
        pass=$((pass+1))
        case "$(opt "$opts" nocheck)" in yes) echo "PASS $name (completion only: the sample checks no result) [${secs} s]" ;;
                                         *) echo "PASS $name [${secs} s]" ;; esac
        printf '%s\tPASS\t%s\t%s\t\n' "$name" "$rc" "$secs" >>"$OUT/results.txt"
    else
        fail=$((fail+1)); why="$why$(unsupported "$name")"
        echo "FAIL $name (reason: $why) [${secs} s]"
        printf '%s\tFAIL\t%s\t%s\t%s: %s\n' "$name" "$rc" "$secs" "$kind" "$why" >>"$OUT/results.txt"
    fi
done <<<"$rows"
echo "samples: $pass passed, $fail failed of $nrows ($nbuildfail did not build; $wrong exited with their success code after printing a failure or a wrong result); results in $OUT/results.txt, logs in $LOGS"
