#!/usr/bin/env bash
# make_seeds.sh - regenerates the seed corpora in tests/fuzz/seeds/ with nvcc:
#   fatbin/  nvcc -fatbin of a few test programs: zstd (default), LZ4 (--compress-mode=speed),
#            stored (--compress-mode=none), multi-arch, and a -rdc=true set as a version-2
#            wrapper input (mode byte 2, objects split by "FBSP"); byte 0 of each seed is the
#            harness's mode byte (see fuzz_fatbin.c)
#   ptx/     nvcc -ptx of test programs, plus tests/ptx/*.ptx and bench/jit_kernels.ptx
#   cubin/   nvcc -cubin of small test programs for sm_75/80/90, a -rdc=true object and a
#            kernel with 4.8 KB of parameters (KPARAM_INFO_V2); each under 64 KiB (max_len)
#   sass/    the first 4 KiB of the .text sections of a few test programs' sm_75/sm_80 cubins
#            (byte 0: the SM selector of fuzz_sass.c)
# Run by hand when the test programs change; run_fuzz.sh only reads the committed seeds.
set -eu
cd "$(dirname "$0")/../.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
S=tests/fuzz/seeds
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$S/fatbin" "$S/ptx" "$S/cubin"
progs="k_reduction k_sync k_shfl k_atomics_shared k_sgemm k_half k_calls k_local_stack k_vote
       k_state_spaces k_printf k_fnptr k_match_redux k_named_barriers k_vector_mem k_cvt k_bitops
       k_texture k_wmma k_cp_async k_grid_sync k_math_float k_malloc k_assert"
for p in $progs; do
    "$NVCC" -ptx -arch=sm_90 -Itests "tests/cuda/$p.cu" -o "$S/ptx/$p.ptx" || echo "skip ptx $p"
done
cp tests/ptx/*.ptx "$S/ptx/"
[ -f bench/jit_kernels.ptx ] && cp bench/jit_kernels.ptx "$S/ptx/"
fb() { # name mode-byte nvcc-args...
    local name=$1 mode=$2; shift 2
    "$NVCC" -fatbin -Itests "$@" -o "$TMP/$name.fatbin" || { echo "skip fatbin $name"; return 0; }
    { printf "\\x$mode"; cat "$TMP/$name.fatbin"; } > "$S/fatbin/$name"
}
fb reduction_zstd 00 -arch=sm_90 tests/cuda/k_reduction.cu
fb reduction_lz4 00 -arch=sm_90 --compress-mode=speed tests/cuda/k_reduction.cu
fb reduction_none 01 -arch=sm_90 --compress-mode=none tests/cuda/k_reduction.cu
fb sync_multiarch 01 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=[sm_90,compute_90] tests/cuda/k_sync.cu
fb shfl_none 00 -arch=sm_90 --compress-mode=none tests/cuda/k_shfl.cu
fb noptx 00 -gencode arch=compute_90,code=sm_90 tests/cuda/k_vote.cu
# -rdc=true objects: each object's fatbin carries its own PTX (with an options string)
"$NVCC" -fatbin -rdc=true -arch=sm_90 --compress-mode=none -Itests tests/cuda/k_rdc.cu -o "$TMP/a.fatbin"
"$NVCC" -fatbin -rdc=true -arch=sm_90 -Itests -x cu tests/cuda/k_rdc_b.cu.inc -o "$TMP/b.fatbin"
{ printf '\x02'; cat "$TMP/a.fatbin"; printf 'FBSP'; cat "$TMP/a.fatbin"; printf 'FBSP'; cat "$TMP/b.fatbin"; } > "$S/fatbin/rdc_v2"
cb() { # name nvcc-args...
    local name=$1; shift
    "$NVCC" -cubin -Itests "$@" -o "$S/cubin/$name.cubin" || echo "skip cubin $name"
}
cb vote_sm75 -arch=sm_75 tests/cuda/k_vote.cu
cb printf_sm80 -arch=sm_80 tests/cuda/k_printf.cu
cb fnptr_sm80 -arch=sm_80 tests/cuda/k_fnptr.cu
cb shfl_sm90 -arch=sm_90 tests/cuda/k_shfl.cu
printf 'struct B { float v[1200]; };\n__global__ void k(B b, float *o) { o[threadIdx.x] = b.v[threadIdx.x]; }\n' > "$TMP/big.cu"
cb bigparams_sm80 -arch=sm_80 "$TMP/big.cu"
cb rdc_sm80 -arch=sm_80 -rdc=true tests/cuda/k_rdc.cu
mkdir -p "$S/sass"
cc -O2 -I. -o "$TMP/sass_tool" tests/sass/sass_tool.c npu_runtime/kernel/sass_decode.c \
    npu_runtime/kernel/sass_decode_ctl.c npu_runtime/kernel/sass_format.c -lzstd -llz4 -lm
for p in k_shfl k_atomics_global k_half k_calls k_wmma k_cp_async; do
    for sm in 75 80; do
        sel=$([ $sm = 75 ] && echo 00 || echo 01)
        "$NVCC" -cubin -arch=sm_$sm -Itests "tests/cuda/$p.cu" -o "$TMP/$p.cubin" 2>/dev/null || continue
        "$TMP/sass_tool" blob $sm "$TMP/$p.bin" "$TMP/$p.cubin" >/dev/null
        { printf "\\x$sel"; head -c 4096 "$TMP/$p.bin"; } > "$S/sass/${p}_sm$sm"
    done
done
ls -la "$S/fatbin" "$S/ptx" "$S/cubin" "$S/sass" | tail -n +1
