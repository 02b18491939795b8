#!/usr/bin/env bash
# run_sass.sh - the SASS decoder tier (npu_runtime/kernel/sass_decode.c), with NVIDIA's
# nvdisasm (PyPI nvidia-cuda-nvdisasm) as the oracle. Prints PASS/FAIL lines:
#   sass/robust          random and truncated buffers, and real instructions with random
#                        bits flipped: a status, a message, bounded text, no crash
#   sass/corpusA_smNN    every instruction of every .text section of cubins built from
#                        tests/cuda/*.cu and tests/sass/kernels/*.cu for sm_75, sm_80, sm_86
#                        and sm_89, decoded and printed, equal to `nvdisasm -b SMNN` on the
#                        same bytes (one nvdisasm run per SM)
#   sass/corpusA_elf     the same through `nvdisasm -c` on the cubins with calls, indirect
#                        branches and labels (labels resolved to addresses)
#   sass/flips_smNN      every bit of 12-104 and 122-127 of one instruction per distinct
#                        form flipped in turn: where both decode, the texts must be equal, and
#                        nothing nvdisasm calls illegal may decode; what only nvdisasm decodes
#                        is counted (coverage), not a failure
#   sass/corpusB         SASS_CORPUS=<libtorch_cuda.so or a folder of .cubin> (optional):
#                        the sm_75/sm_80 cubins of PyTorch compared through nvdisasm -c;
#                        SASS_CORPUS_SAMPLE=K takes a deterministic 1-in-K sample of them,
#                        SASS_CORPUS_CACHE=dir keeps nvdisasm's output (gzip) between runs
# Cubins are rebuilt only when the source is newer. A source that does not build for an SM
# is skipped for it (listed in the log).
set -u
cd "$(dirname "$0")/../.."
B=build/sass
mkdir -p "$B/cubins" "$B/logs"
CC=${CC:-cc}
CUDA=${CUDA:-/usr/local/cuda}
NVCC=${NVCC:-$CUDA/bin/nvcc}
PTXAS=${PTXAS:-$CUDA/bin/ptxas}
PY=${PYTHON:-python3}

# --- the test driver (decoder sources compiled in; no runtime needed) ---
TOOL=$B/sass_tool
if ! $CC -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE -I. -o "$TOOL" \
        tests/sass/sass_tool.c npu_runtime/kernel/sass_decode.c npu_runtime/kernel/sass_decode_ctl.c \
        npu_runtime/kernel/sass_format.c -lzstd -llz4 -lm >"$B/logs/build-tool.log" 2>&1; then
    echo "FAIL sass/build (see $B/logs/build-tool.log)"; tail -5 "$B/logs/build-tool.log"; exit 1
fi

NVD=$($PY - <<'EOF'
import sys; sys.path.insert(0, "tests/sass")
from sass_compare import find_nvdisasm
print(find_nvdisasm() or "")
EOF
)
if [ -z "$NVD" ]; then
    echo "FAIL sass/oracle: nvdisasm not found (pip install nvidia-cuda-nvdisasm; make deps)"
    exit 0
fi

# --- corpus A: cubins ---
# tests/cuda/*.cu: one PTX (compute_75, or compute_80 when the test asks for sm_80), assembled
# for every SM; tests/sass/kernels/*.cu: PTX per SM (compute_75 for sm_75, compute_80 above),
# so that their __CUDA_ARCH__ >= 800 parts reach sm_80/86/89.
SMS="75 80 86 89"
build_cubins() { # src
    local src=$1 n flags ptxarch archs rdc sm log ptx fresh pa
    n=$(basename "${src%.cu}")
    log=$B/logs/cubin-$n.log
    flags=$(sed -n 's|^// NVCC_FLAGS:||p' "$src" | head -1)
    ptxarch=75
    case "$flags" in *sm_80*|*compute_80*) ptxarch=80 ;; *sm_90*|*sm_86*) return 0 ;; esac
    archs=$SMS
    [ "$ptxarch" = 80 ] && archs=${SMS#75 }
    rdc=; case "$flags" in *-rdc=true*) rdc="-rdc=true" ;; esac
    fresh=1
    for sm in $archs; do [ "$B/cubins/$n.sm_$sm.cubin" -nt "$src" ] || fresh=0; done
    [ $fresh = 1 ] && return 0
    : >"$log"
    for sm in $archs; do
        pa=$ptxarch
        case "$src" in tests/sass/kernels/*) pa=$([ "$sm" = 75 ] && echo 75 || echo 80) ;; esac
        ptx=$B/cubins/$n.compute_$pa.ptx
        if [ ! "$ptx" -nt "$src" ] &&
           ! $NVCC -ptx $rdc -arch=compute_$pa -Itests -o "$ptx" "$src" >>"$log" 2>&1; then
            echo "skip $n sm_$sm (no PTX for compute_$pa, see $log)"; continue
        fi
        if ! $PTXAS ${rdc:+-c} -arch=sm_$sm "$ptx" -o "$B/cubins/$n.sm_$sm.cubin" >>"$log" 2>&1; then
            echo "skip $n sm_$sm (ptxas, see $log)"
        fi
    done
}
export -f build_cubins; export B NVCC PTXAS SMS
ls tests/cuda/*.cu tests/sass/kernels/*.cu 2>/dev/null | xargs -r -P 2 -n 1 bash -c 'build_cubins "$0"' \
    > "$B/logs/cubins.txt" 2>&1
ncub=$(ls "$B"/cubins/*.cubin 2>/dev/null | wc -l)
echo "corpus A: $ncub cubins ($(grep -c '^skip' "$B/logs/cubins.txt") sources/SMs skipped, see $B/logs/cubins.txt)"

for sm in $SMS; do
    cubs=$(ls "$B"/cubins/*.sm_$sm.cubin 2>/dev/null)
    if [ -z "$cubs" ]; then echo "FAIL sass/corpusA_sm$sm (no cubins)"; continue; fi
    # shellcheck disable=SC2086
    "$TOOL" blob $sm "$B/corpusA_sm$sm.bin" $cubs > "$B/corpusA_sm$sm.map"
    log=$B/logs/corpusA_sm$sm.log
    if $PY tests/sass/sass_compare.py raw $sm "$TOOL" "$B/corpusA_sm$sm.bin" --show 40 >"$log" 2>&1
    then echo "PASS sass/corpusA_sm$sm ($(tail -1 "$log"))"
    else echo "FAIL sass/corpusA_sm$sm (see $log)"; tail -25 "$log" | sed 's/^/    /'; fi
done

if out=$("$TOOL" robust 400000 7 "$B/corpusA_sm80.bin" 80 2>&1); then echo "PASS sass/robust ($out)"
else echo "FAIL sass/robust: $out"; fi

# cubins with calls, returns, indirect branches (labels in nvdisasm -c), sm_75 and sm_80
elf=$(for c in "$B"/cubins/*.sm_75.cubin "$B"/cubins/*.sm_80.cubin; do
        "$TOOL" dis "$c" | grep -qE $'\t(@!?P[0-6T] )?(CALL|RET|BRX)' && echo "$c"; done)
if [ -n "$elf" ]; then
    log=$B/logs/corpusA_elf.log
    # shellcheck disable=SC2086
    if $PY tests/sass/sass_compare.py cubin "$TOOL" $elf --jobs 2 --show 40 >"$log" 2>&1
    then echo "PASS sass/corpusA_elf ($(echo $elf | wc -w) cubins; $(grep '^sm_' "$log" | tr '\n' ';' | sed 's/;$//'))"
    else echo "FAIL sass/corpusA_elf (see $log)"; tail -25 "$log" | sed 's/^/    /'; fi
else
    echo "FAIL sass/corpusA_elf (no cubin with calls)"
fi

for sm in $SMS; do
    log=$B/logs/flips_sm$sm.log
    if $PY tests/sass/sass_compare.py flips $sm "$TOOL" "$B/corpusA_sm$sm.bin" --show 40 >"$log" 2>&1
    then echo "PASS sass/flips_sm$sm ($(tail -1 "$log"))"
    else echo "FAIL sass/flips_sm$sm (see $log)"; tail -25 "$log" | sed 's/^/    /'; fi
done

# --- corpus B: PyTorch (optional) ---
if [ -z "${SASS_CORPUS:-}" ]; then
    echo "SKIP sass/corpusB: set SASS_CORPUS=<path to libtorch_cuda.so or a folder of cubins>"
    exit 0
fi
if [ -d "$SASS_CORPUS" ]; then
    cdir=$SASS_CORPUS
else
    cdir=$B/corpusB
    rm -rf "$cdir"; mkdir -p "$cdir"
    "$TOOL" extract "$SASS_CORPUS" "$cdir" 75 80 > "$B/logs/corpusB-extract.log" 2>&1 ||
        { echo "FAIL sass/corpusB (extraction, see $B/logs/corpusB-extract.log)"; exit 0; }
fi
log=$B/logs/corpusB.log
# shellcheck disable=SC2046
if $PY tests/sass/sass_compare.py corpus "$TOOL" $(ls "$cdir"/*.cubin) --jobs 2 --show 60 \
        --sample "${SASS_CORPUS_SAMPLE:-1}" ${SASS_CORPUS_CACHE:+--cache "$SASS_CORPUS_CACHE"} >"$log" 2>&1
then echo "PASS sass/corpusB ($(grep -E '^sm_[0-9]+ ' "$log" | tr '\n' ' '))"
else echo "FAIL sass/corpusB (see $log)"; grep -E '^sm_[0-9]+ ' "$log" | sed 's/^/    /'; fi
