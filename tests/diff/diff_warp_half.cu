// NVCC_FLAGS: -arch=sm_90
/*
 * diff_warp_half.cu - differential test (diff.h) of (1) warp-level operations and (2) __half /
 * __nv_bfloat16 arithmetic. Every result is computed on the device; the host only makes the
 * inputs (fixed seeds, diff_rand), launches, copies back and hands sections to diff_section_in.
 * Built for sm_90 (the recording GPU): __reduce_*_sync needs sm_80, and sm_90 PTX carries the
 * native bf16 add/sub/mul/fma/cvt instructions instead of their sm_80 emulation.
 *
 * Only results CUDA defines are recorded:
 *  - a shuffle reads a lane inside its mask, or its own value by the width rules (PTX: the
 *    lane/delta operand is taken mod 32, srcLane mod width, up/down do not leave the width
 *    group, xor may read an earlier group; out-of-range values 32, 33, 40, -1, -7 included);
 *  - vote / match / reduce masks name exactly the lanes that call, or lanes that have exited
 *    (the CUDA guide allows exited lanes in the mask; w_exit_* and w_pfull_* rely on that);
 *  - __activemask() and coalesced groups (built on it) only in w_active_*: the guide does not
 *    promise convergence, so those sections record what the hardware does;
 *  - atomics: final values of operations whose result no ordering changes (never returns).
 *
 * Warp kernels (w_vote .. w_active) run in four launch shapes, one after another in each section
 * (slot-major: a section is one output of the kernel for every thread of every shape, shape
 * after shape, blocks in order, threads by linear id): 1 x 96, 2 x 48 (partial last warp),
 * 1 x (12,8) (warps straddle rows), 1 x (6,4,2) (48 threads, 3D) = 336 values; w_vote_* and
 * w_loop_* add 1 x 1024 (1360 values). Every thread's inputs are hashes of its index there.
 *
 * Sections (all recorded with tolerance 0; the compare-time program decides the tolerance):
 *  w_shfl_{idx,up,down,xor}_i32   1 x 64, width 32,16,8,4,2,1 x 10 lane/delta values each
 *                                 (c_src / c_delta below); index ((w * 10 + p) * 64 + thread),
 *                                 w = log2(32 / width); operands are run-time values
 *  w_shfl_{idx,up,down,xor}_{f32,f64,i64}, w_shfl_xor_h2, w_shfl_down_h_idx_bf
 *                                 1 x 32, width 32/8/2 x 4 values, index ((w * 4 + p) * 32 + t)
 *  w_shfl_imm_*                   immediate operands (1 x 64); w_bfly_f32 / w_downred_f32: xor
 *                                 butterfly and shfl_down float sums
 *  w_part_g20_* / w_part_oe_*     partial masks, 1 x 64: lanes < 20 and lanes >= 20 as two
 *                                 concurrent groups; odd and even lanes as two groups
 *  w_vote_*    ballot/any/all/shfl width 16 with the present-lanes mask, then inside if/else
 *              and nested branches with the exact branch masks
 *  w_redux_*   __reduce_{add,min,max}_sync (unsigned and int), and/or/xor, partial masks
 *  w_match_*   __match_any/all_sync on int, long long, float and double bits, unsigned long
 *  w_lanemask_* %laneid, %lanemask_{lt,le,eq,ge,gt} (inline PTX), ballot rank
 *  w_syncwarp_* shared-memory exchanges ordered by __syncwarp(mask), in branches and a loop
 *  w_cg_*      cooperative groups: tiled_partition<16/8/4> shfl/ballot/any/all/match, cg::reduce
 *              (plus/less/greater/bit ops), inclusive/exclusive_scan, dynamic tile,
 *              labeled_partition / binary_partition (full warps only)
 *  w_loop_*    ballot/reduce/shfl inside a loop with per-lane trip counts (nvcc unrolls it, so
 *              lanes reach different copies of the same call), __any_sync-controlled loop
 *  w_exit_*    votes with the full mask after some lanes returned
 *  w_pfull_*   the full mask in partial warps
 *  w_active_*  __activemask() / coalesced_threads() in branches and loops
 *  w_atom_*    final values of global (8 x 256 threads) and per-block shared atomics
 *  h_* / bf_*  __half / __nv_bfloat16:
 *    *_full        all 65536 bit patterns (index = pattern): h sqrt exp rcp log sin,
 *                  h f2h_mid (float midpoint between a half and its upper neighbour -> rn),
 *                  bf sqrt exp
 *    unary         1024 patterns (32 specials, then one per 64-pattern bucket): the other
 *                  math functions, floor..abs, isnan/isinf, to_f32, packed h2* versions
 *    binary        2048 (a, b, c) triples (32 x 32 specials, then random): arithmetic, _rn,
 *                  _sat, fma_relu, min/max(_nan), cmp_bits (bit order at F_cmp); packed h2*
 *                  on 512 lanes (triples 768..1279), h2cmp_* on 256 pairs
 *    conversions   f2h_* / f2bf_* on 2048 floats (midpoints +-1 ulp, ties, boundaries),
 *                  d2h / d2bf on 1024 doubles (midpoints +-2^-40 relative: no double rounding),
 *                  to integers on 512 patterns, from int/short/ll on 512 values, pair
 *                  constructors (element i = lane i & 1 of pair i >> 1)
 */
#include "diff.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <vector>
#include <string>

namespace cg = cooperative_groups;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef __nv_bfloat16 bf16;
typedef __nv_bfloat162 bf162;
#define FULL 0xffffffffu

/* ------------------------------------------------------------------------------------------ */
/* device helpers                                                                              */

__device__ __forceinline__ u32 hsh(u32 x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
__device__ __forceinline__ int ltid()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ int nthr() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ int gtid() { return blockIdx.x * nthr() + ltid(); }
/* the lanes of this warp that exist (partial last warp of a block) */
__device__ __forceinline__ u32 present_mask()
{
    int n = nthr() - (ltid() & ~31);
    return n >= 32 ? FULL : (1u << n) - 1;
}
/* output slot k of this thread: o[k * tot + off + gtid] */
#define OUT(k) o[(size_t)(k) * tot + off + gtid()]
#define WARGS u32 *o, int tot, int off
/* input seed of this thread, distinct across all shapes of one section */
#define GID (off + gtid())

__device__ __forceinline__ u16 B(__half x) { return __half_as_ushort(x); }
__device__ __forceinline__ u16 B(bf16 x) { return __bfloat16_as_ushort(x); }
__device__ __forceinline__ u32 W(__half2 x) { return B(__low2half(x)) | (u32)B(__high2half(x)) << 16; }
__device__ __forceinline__ u32 W(bf162 x) { return B(__low2bfloat16(x)) | (u32)B(__high2bfloat16(x)) << 16; }
template <class T> __device__ __forceinline__ T H(u16 u);
template <> __device__ __forceinline__ __half H<__half>(u16 u) { return __ushort_as_half(u); }
template <> __device__ __forceinline__ bf16 H<bf16>(u16 u) { return __ushort_as_bfloat16(u); }
template <class T> struct P2;
template <> struct P2<__half> { typedef __half2 t; };
template <> struct P2<bf16> { typedef bf162 t; };
__device__ __forceinline__ __half2 MK(__half a, __half b) { return __halves2half2(a, b); }
__device__ __forceinline__ bf162 MK(bf16 a, bf16 b) { return __halves2bfloat162(a, b); }
__device__ __forceinline__ void ST2(u16 *o, __half2 r) { o[0] = B(__low2half(r)); o[1] = B(__high2half(r)); }
__device__ __forceinline__ void ST2(u16 *o, bf162 r) { o[0] = B(__low2bfloat16(r)); o[1] = B(__high2bfloat16(r)); }

/* ------------------------------------------------------------------------------------------ */
/* (1) warp level                                                                              */

#define NP 10
__constant__ int c_width[6] = {32, 16, 8, 4, 2, 1};
__constant__ int c_src[NP] = {0, 1, 3, 15, 16, 31, 32, 40, -1, -7};
__constant__ unsigned c_delta[NP] = {0, 1, 2, 3, 7, 8, 16, 31, 32, 33};

/* run-time lane/delta/width operands; 64 threads */
__global__ void k_shfl_rt(u32 *o)
{
    const int t = threadIdx.x, T = blockDim.x, S = 6 * NP * T;
    const int v = (int)hsh(t + 1);
#pragma unroll 1
    for (int w = 0; w < 6; w++) {
        const int width = c_width[w];
#pragma unroll 1
        for (int p = 0; p < NP; p++) {
            size_t s = (size_t)(w * NP + p) * T + t;
            o[s] = __shfl_sync(FULL, v, c_src[p], width);
            o[s + S] = __shfl_up_sync(FULL, v, c_delta[p], width);
            o[s + 2 * S] = __shfl_down_sync(FULL, v, c_delta[p], width);
            o[s + 3 * S] = __shfl_xor_sync(FULL, v, (int)c_delta[p], width);
        }
    }
}

__constant__ int c_tw[3] = {32, 8, 2};
__constant__ int c_tsrc[4] = {0, 5, 40, -1};
__constant__ unsigned c_tdl[4] = {1, 2, 16, 33};

/* other types: float, double, long long; 32 threads; index ((w * 4 + p) * 32 + t) */
__global__ void k_shfl_types(float *of, double *od, long long *ol)
{
    const int t = threadIdx.x, T = blockDim.x, S = 12 * T;
    const float f = (float)((int)(hsh(t + 7) % 200001u) - 100000) * 0.03125f;
    const double d = (double)hsh(t + 99) * 1.0000001192092896 + (double)t * 1e-7;
    const long long l = (long long)(((u64)hsh(t + 5) << 32) | hsh(t + 6));
#pragma unroll 1
    for (int w = 0; w < 3; w++) {
        const int width = c_tw[w];
#pragma unroll 1
        for (int p = 0; p < 4; p++) {
            size_t s = (size_t)(w * 4 + p) * T + t;
            const int src = c_tsrc[p];
            const unsigned dl = c_tdl[p];
            of[s] = __shfl_sync(FULL, f, src, width);
            of[s + S] = __shfl_up_sync(FULL, f, dl, width);
            of[s + 2 * S] = __shfl_down_sync(FULL, f, dl, width);
            of[s + 3 * S] = __shfl_xor_sync(FULL, f, (int)dl, width);
            od[s] = __shfl_sync(FULL, d, src, width);
            od[s + S] = __shfl_up_sync(FULL, d, dl, width);
            od[s + 2 * S] = __shfl_down_sync(FULL, d, dl, width);
            od[s + 3 * S] = __shfl_xor_sync(FULL, d, (int)dl, width);
            ol[s] = __shfl_sync(FULL, l, src, width);
            ol[s + S] = __shfl_up_sync(FULL, l, dl, width);
            ol[s + 2 * S] = __shfl_down_sync(FULL, l, dl, width);
            ol[s + 3 * S] = __shfl_xor_sync(FULL, l, (int)dl, width);
        }
    }
}

/* __half2 / __half / bf16 shuffles (cuda_fp16/bf16 overloads); 32 threads, same layout */
__global__ void k_shfl_16(u32 *oh)
{
    const int t = threadIdx.x, T = blockDim.x, S = 12 * T;
    const __half2 h2 = __floats2half2_rn(t * 0.25f + 0.125f, -1.5f * t);
    const __half h = __float2half_rn(t * 3.0f - 7.5f);
    const bf16 b = __float2bfloat16_rn(t * -0.75f + 100.0f);
#pragma unroll 1
    for (int w = 0; w < 3; w++) {
        const int width = c_tw[w];
#pragma unroll 1
        for (int p = 0; p < 4; p++) {
            size_t s = (size_t)(w * 4 + p) * T + t;
            oh[s] = W(__shfl_xor_sync(FULL, h2, (int)c_tdl[p], width));
            oh[s + S] = B(__shfl_down_sync(FULL, h, c_tdl[p], width)) | (u32)B(__shfl_sync(FULL, b, c_tsrc[p], width)) << 16;
        }
    }
}

/* immediate operands; 64 threads; o[k * 64 + t], k < 16; butterfly / shfl_down float sums */
__global__ void k_shfl_imm(u32 *o, float *of)
{
    const int t = threadIdx.x, T = blockDim.x, lane = t & 31;
    const int v = (int)hsh(t + 1000);
    o[0 * T + t] = __shfl_sync(FULL, v, 5);
    o[1 * T + t] = __shfl_sync(FULL, v, 40);
    o[2 * T + t] = __shfl_sync(FULL, v, 3, 8);
    o[3 * T + t] = __shfl_sync(FULL, v, -1, 16);
    o[4 * T + t] = __shfl_up_sync(FULL, v, 1);
    o[5 * T + t] = __shfl_up_sync(FULL, v, 4, 16);
    o[6 * T + t] = __shfl_up_sync(FULL, v, 33);
    o[7 * T + t] = __shfl_down_sync(FULL, v, 1);
    o[8 * T + t] = __shfl_down_sync(FULL, v, 16);
    o[9 * T + t] = __shfl_down_sync(FULL, v, 2, 4);
    o[10 * T + t] = __shfl_xor_sync(FULL, v, 1);
    o[11 * T + t] = __shfl_xor_sync(FULL, v, 16);
    o[12 * T + t] = __shfl_xor_sync(FULL, v, 31);
    o[13 * T + t] = __shfl_xor_sync(FULL, v, 4, 8);
    o[14 * T + t] = __shfl_xor_sync(FULL, v, 8, 4);      /* reads the earlier 4-group, or own */
    o[15 * T + t] = __shfl_sync(FULL, v, (lane * 5 + 3) & 31);
    /* float reductions (fixed order on every lane, so exact results are defined) */
    float s = (float)((v & 0xffff) - 0x8000) * 0.001f + 1e-3f * t;
    float b = s;
    for (int m = 16; m >= 1; m >>= 1) b += __shfl_xor_sync(FULL, b, m);
    float dsum = s;
    for (int m = 16; m >= 1; m >>= 1) dsum += __shfl_down_sync(FULL, dsum, m);
    of[t] = b;
    of[T + t] = dsum;
}

/* partial masks, all reads inside the mask (or own value by the rules); 64 threads, 2 warps;
 * o[k * 64 + t], k < 28; lanes that do not take a branch leave their slots 0 */
__global__ void k_partial(u32 *o)
{
    const int t = threadIdx.x, T = blockDim.x, lane = t & 31;
    const u32 v = hsh(t + 4242);
    const double dv = (double)v * 3.000000000001 + 0.5;
#define PO(k) o[(k) * T + t]
    if (lane < 20) {
        const u32 m = 0x000fffffu;
        PO(0) = __shfl_sync(m, v, (lane * 7 + 3) % 20);
        PO(1) = __shfl_up_sync(m, v, 3);
        PO(2) = __shfl_down_sync(m, v, 3, 4);              /* stays in its 4-group */
        PO(3) = __shfl_xor_sync(m, v, 1);
        PO(4) = __shfl_xor_sync(m, v, 2, 4);
        PO(5) = __shfl_sync(m, v, 19 - lane);
        double d = __shfl_down_sync(m, dv, 1, 4);
        PO(6) = (u32)__double_as_longlong(d);
        PO(7) = (u32)(__double_as_longlong(d) >> 32);
        PO(8) = __ballot_sync(m, v & 1);
        PO(9) = __any_sync(m, (v & 15) == 3);
        PO(10) = __all_sync(m, v & 0x100);
        PO(11) = __reduce_add_sync(m, v);
        PO(12) = __match_any_sync(m, lane % 3);
    } else {
        const u32 m = 0xfff00000u;
        PO(0) = __shfl_sync(m, v, 20 + (lane * 5) % 12);
        PO(1) = __shfl_up_sync(m, v, 2, 4);
        PO(2) = __shfl_down_sync(m, v, 5);
        PO(3) = __shfl_xor_sync(m, v, 3);
        PO(8) = __ballot_sync(m, v & 2);
        PO(9) = __any_sync(m, (v & 31) == 7);
        PO(10) = __all_sync(m, (v & 7) != 0);
        PO(11) = __reduce_max_sync(m, (int)v);
        PO(12) = __match_any_sync(m, (v >> 4) & 1);
    }
    __syncwarp();
    if (lane & 1) {
        const u32 m = 0xaaaaaaaau;
        PO(13) = __shfl_xor_sync(m, v, 2);
        PO(14) = __shfl_down_sync(m, v, 2);
        PO(15) = __shfl_up_sync(m, v, 4);
        PO(16) = __shfl_sync(m, v, ((lane + 6) & 31) | 1);
        PO(17) = __shfl_xor_sync(m, v, 2, 8);
        PO(18) = __shfl_down_sync(m, v, 6, 16);
        double d = __shfl_xor_sync(m, dv, 6);
        PO(19) = (u32)__double_as_longlong(d);
        PO(20) = (u32)(__double_as_longlong(d) >> 32);
        PO(21) = __ballot_sync(m, v & 2);
        PO(22) = __any_sync(m, (v & 63) == 5);
        PO(23) = __all_sync(m, v & 0x8000);
        PO(24) = __reduce_max_sync(m, v);
        PO(25) = __match_any_sync(m, (lane >> 2) & 1);
        int pred = -1;
        PO(26) = __match_all_sync(m, t >> 5, &pred);
        PO(27) = pred;
    } else {
        const u32 m = 0x55555555u;
        PO(13) = __shfl_xor_sync(m, v, 4);
        PO(14) = __shfl_down_sync(m, v, 8, 16);
        PO(15) = __shfl_up_sync(m, v, 2);
        PO(16) = __shfl_sync(m, v, 30 - lane);
        PO(21) = __ballot_sync(m, v & 4);
        PO(24) = (u32)__reduce_min_sync(m, (int)v);
        PO(25) = __match_any_sync(m, v & 1);
        int pred = -1;
        PO(26) = __match_all_sync(m, v & 1, &pred);
        PO(27) = pred;
    }
#undef PO
}

/* votes in divergent branches; every mask is the exact set of calling lanes */
__global__ void k_vote(WARGS)
{
    const int lane = ltid() & 31;
    const u32 pm = present_mask();
    const u32 x = hsh(GID * 3 + 1);
    OUT(0) = __ballot_sync(pm, x & 1);
    OUT(1) = __any_sync(pm, (x % 61) == 0);
    OUT(2) = __all_sync(pm, (x % 53) != 0);
    OUT(3) = __shfl_xor_sync(pm, x, 5, 16);
    OUT(4) = __shfl_down_sync(pm, x, 3, 16);
    const bool cond = ((x >> 8) % 3) == 0;
    const u32 mc = __ballot_sync(pm, cond);
    OUT(5) = mc;
    if (cond) {
        OUT(6) = __ballot_sync(mc, x & 2);
        OUT(7) = __any_sync(mc, x & 4);
        OUT(8) = __all_sync(mc, x & 8);
        OUT(9) = __reduce_min_sync(mc, x);
        OUT(10) = __match_any_sync(mc, x & 3);
        const u32 m2 = __ballot_sync(mc, x & 16);
        if (x & 16) {
            OUT(11) = __reduce_or_sync(m2, x);
            OUT(12) = __shfl_sync(m2, x, __ffs(m2) - 1);
        } else {
            OUT(11) = __reduce_xor_sync(mc & ~m2, x);
            OUT(12) = __shfl_sync(mc & ~m2, x, 31 - __clz(mc & ~m2));
        }
    } else {
        const u32 me = pm & ~mc;
        OUT(6) = __ballot_sync(me, x & 2);
        OUT(7) = __any_sync(me, (x & 127) == 1);
        OUT(8) = __all_sync(me, x & 0x30000);
        OUT(9) = __reduce_max_sync(me, x);
        OUT(10) = __match_any_sync(me, x & 7);
        if (lane & 1) {
            const u32 mo = me & 0xaaaaaaaau;
            OUT(11) = __reduce_add_sync(mo, x);
            OUT(12) = __ballot_sync(mo, x & 32);
        }
    }
    OUT(13) = __ballot_sync(pm, x & 64);   /* after reconvergence */
}

/* warp reductions, signed and unsigned, full (present) and partial masks */
__global__ void k_redux(WARGS)
{
    const int lane = ltid() & 31;
    const u32 pm = present_mask();
    const u32 x = hsh(GID + 77777);
    const int s = (int)x >> (x & 15);
    OUT(0) = __reduce_add_sync(pm, x);
    OUT(1) = __reduce_min_sync(pm, x);
    OUT(2) = __reduce_max_sync(pm, x);
    OUT(3) = (u32)__reduce_add_sync(pm, s);
    OUT(4) = (u32)__reduce_min_sync(pm, s);
    OUT(5) = (u32)__reduce_max_sync(pm, s);
    OUT(6) = __reduce_and_sync(pm, x | 0xf0f0f00fu);
    OUT(7) = __reduce_or_sync(pm, x & 0x01100110u);
    OUT(8) = __reduce_xor_sync(pm, x);
    if (lane < 20) {
        const u32 m = pm & 0x000fffffu;
        OUT(9) = __reduce_add_sync(m, x);
        OUT(10) = (u32)__reduce_min_sync(m, s);
    } else {
        const u32 m = pm & 0xfff00000u;
        OUT(9) = __reduce_and_sync(m, x | 0x0ff0ff0fu);
        OUT(10) = (u32)__reduce_max_sync(m, s);
    }
}

/* __match_any_sync / __match_all_sync on int, long long (equal low words), float and double
 * bits (+0 / -0, NaN payloads), unsigned long; full (present) and partial masks */
__global__ void k_match(WARGS)
{
    const int lane = ltid() & 31, warp = ltid() >> 5;
    const u32 pm = present_mask();
    const u32 x = hsh(GID + 31337);
    const int ik = (int)(x % 5u) - 2;
    const long long lk = (long long)(((u64)(x % 3u) << 33) | 0x1234u);
    const u32 fbits[6] = {0x00000000u, 0x80000000u, 0x3f800000u, 0x7fc00000u, 0x7fc00001u, 0x3f800001u};
    const float fk = __uint_as_float(fbits[x % 6u]);
    const double dk = (x & 3) == 0 ? 0.0 : (x & 3) == 1 ? -0.0 : (x & 3) == 2 ? 1.0 : 1.0000000000000002;
    int pred = -1;
    OUT(0) = __match_any_sync(pm, ik);
    OUT(1) = __match_all_sync(pm, warp * 7 + (int)blockIdx.x, &pred);
    OUT(2) = pred;
    OUT(3) = __match_all_sync(pm, ik, &pred);
    OUT(4) = pred;
    OUT(5) = __match_any_sync(pm, lk);
    OUT(6) = __match_all_sync(pm, (long long)(((u64)(lane >> 4) << 40) | 5u), &pred);
    OUT(7) = pred;
    OUT(8) = __match_any_sync(pm, fk);
    OUT(9) = __match_any_sync(pm, dk);
    OUT(10) = __match_any_sync(pm, (unsigned long)((x & 1) ? 1ull << 32 : (x & 2) ? 0ull : 1ull));
    if ((lane & 3) == 1) {
        const u32 m = pm & 0x22222222u;
        OUT(11) = __match_any_sync(m, x & 1);
        OUT(12) = __match_all_sync(m, 99, &pred);
        OUT(13) = pred;
    }
}

/* %laneid and the lane masks, read with inline PTX; __popc of them */
__global__ void k_lanemask(WARGS)
{
    u32 id, lt, le, eq, ge, gt;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    OUT(0) = id;
    OUT(1) = lt;
    OUT(2) = le;
    OUT(3) = eq;
    OUT(4) = ge;
    OUT(5) = gt;
    const u32 pm = present_mask();
    const u32 x = hsh(GID + 5);
    OUT(6) = __popc(__ballot_sync(pm, x & 1) & lt);   /* rank among the lanes with x odd */
}

/* __syncwarp(mask) with shared memory exchanges */
__global__ void k_syncwarp(WARGS)
{
    __shared__ u32 s[1024];
    const int t = ltid(), lane = t & 31, base = t & ~31;
    const u32 pm = present_mask();
    const int n = __popc(pm);                 /* 32 or 16 here, both powers of two */
    const u32 x = hsh(GID + 99);
    s[t] = x;
    __syncwarp(pm);
    OUT(0) = s[base + ((lane + 1) & (n - 1))];
    __syncwarp(pm);
    if (lane < 16) {
        s[t] = x * 3u;
        __syncwarp(pm & 0xffffu);
        OUT(1) = s[base + (lane ^ 5)];
        __syncwarp(pm & 0xffffu);
    }
    __syncwarp(pm);
    if (lane & 1) {
        s[t] = x + 7u;
        __syncwarp(pm & 0xaaaaaaaau);
        OUT(2) = s[base + ((lane + 2) & (n - 1))];
    } else {
        s[t] = x ^ 0x5555u;
        __syncwarp(pm & 0x55555555u);
        OUT(3) = s[base + ((lane + 4) & (n - 1))];
    }
    __syncwarp(pm);
    u32 acc = x;
    for (int k = 0; k < 4; k++) {             /* stencil passes */
        s[t] = acc;
        __syncwarp(pm);
        acc = acc * 5u + s[base + ((lane + 3) & (n - 1))];
        __syncwarp(pm);
    }
    OUT(4) = acc;
}

/* cooperative groups: static tiles 16/8/4 (every tile full for these shapes), a dynamic tile,
 * labeled / binary partitions (full warps only) */
__global__ void k_cg(WARGS)
{
    cg::thread_block blk = cg::this_thread_block();
    const u32 x = hsh(GID + 2024);
    const u32 y = x & 0xffff;
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(blk);
    OUT(0) = t16.thread_rank() | t16.meta_group_rank() << 8 | t16.meta_group_size() << 16;
    OUT(1) = t16.shfl(x, 3);
    OUT(2) = t16.shfl_down(x, 1);
    OUT(3) = t16.shfl_up(x, 2);
    OUT(4) = t16.shfl_xor(x, 5);
    OUT(5) = t16.ballot(x & 1);
    OUT(6) = t16.any((x % 23) == 0) | t16.all((x % 29) != 0) << 1;
    OUT(7) = cg::reduce(t16, y, cg::plus<u32>());
    OUT(8) = cg::reduce(t16, x, cg::less<u32>());
    OUT(9) = cg::reduce(t16, (int)x, cg::greater<int>());
    OUT(10) = cg::inclusive_scan(t16, y);
    OUT(11) = cg::exclusive_scan(t16, y, cg::plus<u32>());
    OUT(12) = t16.match_any(x & 3);
    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(blk);
    OUT(13) = t8.shfl(x, 7);
    OUT(14) = t8.ballot(x & 2);
    OUT(15) = cg::reduce(t8, y, cg::plus<u32>());
    OUT(16) = cg::reduce(t8, x, cg::less<u32>());
    OUT(17) = cg::reduce(t8, x, cg::greater<u32>());
    OUT(18) = cg::reduce(t8, x, cg::bit_xor<u32>()) ^ cg::reduce(t8, x, cg::bit_and<u32>());
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(blk);
    OUT(19) = t4.shfl_xor(x, 1);
    OUT(20) = cg::reduce(t4, y, cg::plus<u32>()) + (cg::reduce(t4, x, cg::bit_or<u32>()) << 1);
    OUT(21) = t4.thread_rank() | t4.meta_group_rank() << 8;
    /* float sums of exactly representable values (no rounding in any order) */
    OUT(22) = __float_as_uint(cg::reduce(t16, (float)(x & 255) * 0.5f, cg::plus<float>()));
    OUT(23) = __float_as_uint(cg::reduce(t16, __uint_as_float(x & 0xbfffffff), cg::greater<float>()));
    cg::thread_group tg = cg::tiled_partition(blk, 8);
    OUT(24) = tg.thread_rank() | tg.size() << 8;
    if (nthr() % 32 == 0) {
        cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
        cg::coalesced_group lp = cg::labeled_partition(w, (int)(x & 3));
        OUT(25) = lp.size() | lp.thread_rank() << 8;
        cg::coalesced_group bp = cg::binary_partition(w, x & 4);
        OUT(26) = cg::reduce(bp, y, cg::plus<u32>());
        OUT(27) = bp.shfl(x, 0);
    }
}

/* data-dependent trip counts: warp ops inside loops with shrinking masks, reconvergence */
__global__ void k_loop(WARGS)
{
    const u32 pm = present_mask();
    const u32 x = hsh(GID + 8080);
    const int n = (x >> 4) % 9;
    int k = 0;
    u32 acc = 0, hist = 0;
    u32 m = __ballot_sync(pm, k < n);
    while (k < n) {
        acc += __reduce_add_sync(m, x + k);
        acc ^= __shfl_sync(m, acc, __ffs(m) - 1);
        hist = hist * 3u + __popc(m);
        k++;
        m = __ballot_sync(m, k < n);
    }
    OUT(0) = acc;
    OUT(1) = hist;
    OUT(2) = __reduce_add_sync(pm, acc);
    int j = 0;
    u32 s = 0;
    while (__any_sync(pm, j < n)) {
        if (j < n) s += (u32)j * x;
        else s ^= 1u << j;
        j++;
    }
    OUT(3) = s;
    OUT(4) = j;
    for (int i = 0; i < n; i++)
        if (x & (1u << i)) s = s * 7u + i;
    __syncwarp(pm);
    OUT(5) = __ballot_sync(pm, s & 1);
}

/* lanes exit early; the mask still names them (allowed: they have exited) */
__global__ void k_exit(WARGS)
{
    const u32 x = hsh(GID + 555);
    if ((x & 7) == 0) return;
    OUT(0) = __ballot_sync(FULL, x & 8);
    OUT(1) = __any_sync(FULL, (x & 0xf0) == 0x10);
    OUT(2) = __all_sync(FULL, (x & 0x300) != 0);
    OUT(3) = __reduce_add_sync(FULL, x & 0xfff);
    OUT(4) = __match_any_sync(FULL, (x >> 12) & 3);
}

/* the full mask in a partial warp (the missing lanes count as exited) */
__global__ void k_pfull(WARGS)
{
    const int lane = ltid() & 31;
    const u32 pm = present_mask();
    const u32 x = hsh(GID + 4321);
    OUT(0) = __ballot_sync(FULL, 1);
    OUT(1) = __ballot_sync(FULL, x & 1);
    OUT(2) = __reduce_add_sync(FULL, x & 0xffff);
    OUT(3) = __shfl_sync(FULL, x, (lane * 3) & (__popc(pm) - 1));   /* reads a present lane */
    OUT(4) = __shfl_xor_sync(FULL, x, 1);
}

/* __activemask and coalesced groups in divergent code */
__global__ void k_active(WARGS)
{
    const int lane = ltid() & 31;
    const u32 x = hsh(GID + 606);
    OUT(0) = __activemask();
    if ((x >> 3) % 3 == 0) {
        OUT(1) = __activemask();
        if (lane & 2) OUT(2) = __activemask();
        cg::coalesced_group g = cg::coalesced_threads();
        OUT(3) = g.size() | g.thread_rank() << 8;
        OUT(4) = g.shfl(x, 0);
        OUT(5) = cg::reduce(g, x & 0xff, cg::plus<u32>());
        OUT(6) = g.ballot(x & 1);
    } else {
        OUT(1) = __activemask();
        cg::coalesced_group g = cg::coalesced_threads();
        OUT(3) = g.size() | g.thread_rank() << 8;
        OUT(5) = cg::reduce(g, x, cg::greater<u32>());
    }
    __syncwarp(present_mask());
    OUT(7) = __activemask();
    const int n = x % 5;
    u32 h = 0;
    for (int i = 0; i < n; i++) h = h * 31u + __popc(__activemask());
    OUT(8) = h;
}

/* atomics: 8 blocks x 256 threads; final values only */
struct AtomG {
    u32 u[16];
    unsigned long long q[10];
    float f[3];
    double d[1];
    __half2 h2;
    __half h;
    u16 pad0;
    bf162 b2;
    bf16 b;
    u16 s16;
};
__global__ void k_atom(AtomG *g, u32 *blk_u, float *blk_f, u32 *blk_h)
{
    __shared__ u32 su[12];
    __shared__ float sf[2];
    __shared__ __half2 sh2;
    __shared__ bf162 sb2;
    const int t = threadIdx.x, gi = blockIdx.x * blockDim.x + t;
    const u32 x = hsh(gi + 1);
    if (t == 0) {
        su[0] = 0; su[1] = 0; su[2] = 0x7fffffffu; su[3] = 0; su[4] = 0xffffffffu; su[5] = 0;
        su[6] = 0xffffffffu; su[7] = 0; su[8] = 0; su[9] = 0; su[10] = 3; su[11] = 0;
        sf[0] = 0; sf[1] = 100.0f;
        sh2 = __floats2half2_rn(0.0f, 0.0f);
        sb2 = __floats2bfloat162_rn(0.0f, 0.0f);
    }
    __syncthreads();
    /* global */
    atomicAdd(&g->u[0], 1u);
    atomicAdd(&g->u[1], x & 0xffff);
    atomicAdd((int *)&g->u[2], (int)(x % 2001u) - 1000);
    atomicSub(&g->u[3], x & 0xff);
    atomicMin((int *)&g->u[4], (int)x);
    atomicMax((int *)&g->u[5], (int)x);
    atomicMin(&g->u[6], x);
    atomicMax(&g->u[7], x);
    atomicAnd(&g->u[8], x | 0xfff0fff0u);
    atomicOr(&g->u[9], x & 0x00100020u);
    atomicXor(&g->u[10], x);
    atomicInc(&g->u[11], 17u);
    atomicDec(&g->u[12], 13u);
    atomicExch(&g->u[13], 0xc0ffeeu);
    atomicCAS(&g->u[14], 0u, 77u);
    {   /* CAS-loop maximum */
        u32 old = g->u[15], assumed;
        const u32 want = x % 1000003u;
        while (old < want) {
            assumed = old;
            old = atomicCAS(&g->u[15], assumed, want);
            if (old == assumed) break;
        }
    }
    const unsigned long long xq = ((unsigned long long)x << 32) | hsh(x);
    atomicAdd(&g->q[0], xq);
    atomicMin((long long *)&g->q[1], (long long)xq);
    atomicMax((long long *)&g->q[2], (long long)xq);
    atomicAnd(&g->q[3], xq | 0xffff0fffffff0fffull);
    atomicOr(&g->q[4], xq & 0x0000100000002000ull);
    atomicXor(&g->q[5], xq);
    atomicMin(&g->q[6], xq);
    atomicMax(&g->q[7], xq);
    atomicExch(&g->q[8], 0x123456789abcdefull);
    atomicCAS(&g->q[9], 0ull, 0xfedcba9876543210ull);
    atomicAdd(&g->f[0], (float)(x % 16u) * 0.25f);
    atomicAdd(&g->f[1], -1.5f);
    atomicExch(&g->f[2], 2.5f);
    atomicAdd(&g->d[0], (double)(x % 64u) * 0.125);
    atomicAdd(&g->h2, __floats2half2_rn(0.5f, -0.25f));
    atomicAdd(&g->h, __float2half_rn(1.0f));
    if ((gi & 15) == 0) {
        atomicAdd(&g->b2, __floats2bfloat162_rn(1.0f, -2.0f));
        atomicAdd(&g->b, __float2bfloat16_rn(0.5f));
    }
    atomicCAS(&g->s16, (unsigned short)0, (unsigned short)0x1234);
    /* shared */
    atomicAdd(&su[0], x & 0xfff);
    atomicAdd_block(&su[1], 3u);
    atomicMin((int *)&su[2], (int)x);
    atomicMax((int *)&su[3], (int)x);
    atomicMin(&su[4], x);
    atomicAnd(&su[6], x | 0xff0fff0fu);
    atomicOr(&su[7], x & 0x80000001u);
    atomicXor(&su[8], x);
    atomicInc(&su[9], 5u);
    atomicDec(&su[10], 6u);
    atomicCAS(&su[11], 0u, 5u);
    atomicMax(&su[5], x);
    atomicAdd(&sf[0], (float)(x & 7u));
    atomicAdd(&sf[1], -0.125f);
    atomicAdd(&sh2, __floats2half2_rn(1.0f, 0.125f));
    if ((t & 3) == 0) atomicAdd(&sb2, __floats2bfloat162_rn(0.5f, 2.0f));
    __syncthreads();
    if (t < 12) blk_u[blockIdx.x * 12 + t] = su[t];
    if (t < 2) blk_f[blockIdx.x * 2 + t] = sf[t];
    if (t == 0) { blk_h[blockIdx.x * 2] = W(sh2); blk_h[blockIdx.x * 2 + 1] = W(sb2); }
}

/* ------------------------------------------------------------------------------------------ */
/* (2) half / bf16                                                                              */

/* one elementwise kernel per operation family: OP::f(i, n, a, b, c, o) writes output k of
 * element i at o[k * n + i] (packed families: elements 2i and 2i+1) */
template <class OP> __global__ void k_ew(int n, const void *a, const void *b, const void *c, void *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) OP::f(i, n, a, b, c, o);
}
#define ARGS int i, int n, const void *a_, const void *b_, const void *c_, void *o_
#define LOAD3(T) const T x = H<T>(((const u16 *)a_)[i]), y = H<T>(((const u16 *)b_)[i]), \
    z = H<T>(((const u16 *)c_)[i]); (void)y; (void)z;
#define STORE16(T, ...) { const T r_[] = {__VA_ARGS__}; u16 *o = (u16 *)o_ + i; \
    for (int k = 0; k < (int)(sizeof r_ / sizeof r_[0]); k++) o[(size_t)k * n] = B(r_[k]); }
#define OP16(NAME, ...) template <class T> struct NAME { \
    static __device__ __forceinline__ void f(ARGS) { LOAD3(T) STORE16(T, __VA_ARGS__) } };
#define LOAD3P(T) if (2 * i >= n) return; typedef typename P2<T>::t T2; \
    const u16 *a = (const u16 *)a_ + 2 * i, *b = (const u16 *)b_ + 2 * i, *c = (const u16 *)c_ + 2 * i; \
    const T2 x = MK(H<T>(a[0]), H<T>(a[1])), y = MK(H<T>(b[0]), H<T>(b[1])), z = MK(H<T>(c[0]), H<T>(c[1])); \
    (void)y; (void)z;
#define STORE16P(...) { const T2 r_[] = {__VA_ARGS__}; u16 *o = (u16 *)o_ + 2 * i; \
    for (int k = 0; k < (int)(sizeof r_ / sizeof r_[0]); k++) ST2(o + (size_t)k * n, r_[k]); }
#define OP16P(NAME, ...) template <class T> struct NAME { \
    static __device__ __forceinline__ void f(ARGS) { LOAD3P(T) STORE16P(__VA_ARGS__) } };

/* scalar unary */
OP16(F_sqrt, hsqrt(x))
OP16(F_rcp, hrcp(x))
OP16(F_exp, hexp(x))
OP16(F_log, hlog(x))
OP16(F_sin, hsin(x))
OP16(F_ap0, hrcp(x), hlog(x), hsin(x))
OP16(F_ap1, hrsqrt(x), hexp2(x), hexp10(x))
OP16(F_ap2, hlog2(x), hlog10(x), hcos(x))
OP16(F_tanh, htanh(x), htanh_approx(x))
OP16(F_round, hfloor(x), hceil(x), htrunc(x), hrint(x), __hneg(x), __habs(x))
/* scalar binary / ternary */
OP16(F_arith, __hadd(x, y), __hsub(x, y), __hmul(x, y), __hdiv(x, y), __hfma(x, y, z), __hadd_rn(x, y),
     __hsub_rn(x, y), __hmul_rn(x, y))
OP16(F_sat, __hadd_sat(x, y), __hsub_sat(x, y), __hmul_sat(x, y), __hfma_sat(x, y, z), __hfma_relu(x, y, z))
OP16(F_minmax, __hmin(x, y), __hmax(x, y), __hmin_nan(x, y), __hmax_nan(x, y))
/* packed unary */
OP16P(P_ap0, h2sqrt(x), h2rsqrt(x), h2rcp(x))
OP16P(P_ap1, h2exp(x), h2exp2(x), h2exp10(x), h2log(x), h2log2(x), h2log10(x))
OP16P(P_ap2, h2sin(x), h2cos(x), h2tanh(x), h2tanh_approx(x))
OP16P(P_round, h2floor(x), h2ceil(x), h2trunc(x), h2rint(x), __hneg2(x), __habs2(x))
/* packed binary / ternary */
OP16P(P_arith, __hadd2(x, y), __hsub2(x, y), __hmul2(x, y), __h2div(x, y), __hfma2(x, y, z), __hadd2_rn(x, y),
      __hsub2_rn(x, y), __hmul2_rn(x, y))
OP16P(P_sat, __hadd2_sat(x, y), __hsub2_sat(x, y), __hmul2_sat(x, y), __hfma2_sat(x, y, z), __hfma2_relu(x, y, z))
OP16P(P_minmax, __hmin2(x, y), __hmax2(x, y), __hmin2_nan(x, y), __hmax2_nan(x, y), __hcmadd(x, y, z))

/* comparisons, one u16 per pair: bit 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge, 6 equ, 7 neu, 8 ltu,
 * 9 leu, 10 gtu, 11 geu, 12 isnan(x), 13 isnan(y), 14-15 isinf(x) + 1 */
template <class T> struct F_cmp {
    static __device__ __forceinline__ void f(ARGS)
    {
        LOAD3(T)
        u32 r = __heq(x, y) | __hne(x, y) << 1 | __hlt(x, y) << 2 | __hle(x, y) << 3 | __hgt(x, y) << 4 |
                __hge(x, y) << 5 | __hequ(x, y) << 6 | __hneu(x, y) << 7 | __hltu(x, y) << 8 |
                __hleu(x, y) << 9 | __hgtu(x, y) << 10 | __hgeu(x, y) << 11 | (__hisnan(x) ? 1 : 0) << 12 |
                (__hisnan(y) ? 1 : 0) << 13 | (u32)(__hisinf(x) + 1) << 14;
        ((u16 *)o_)[i] = (u16)r;
    }
};
/* packed comparisons, one u32 per pair: bit k (low lane) and k + 12 (high lane) for the twelve
 * *_mask comparisons in the order above; bits 24.. __hbeq2 __hblt2 __hbgeu2 __hbneu2 __hble2 */
#define CMB(k, m) r |= ((m) & 1u) << (k) | (((m) >> 16) & 1u) << ((k) + 12)
template <class T> struct P_cmp {
    static __device__ __forceinline__ void f(ARGS)
    {
        LOAD3P(T)
        u32 r = 0;
        CMB(0, __heq2_mask(x, y)); CMB(1, __hne2_mask(x, y)); CMB(2, __hlt2_mask(x, y));
        CMB(3, __hle2_mask(x, y)); CMB(4, __hgt2_mask(x, y)); CMB(5, __hge2_mask(x, y));
        CMB(6, __hequ2_mask(x, y)); CMB(7, __hneu2_mask(x, y)); CMB(8, __hltu2_mask(x, y));
        CMB(9, __hleu2_mask(x, y)); CMB(10, __hgtu2_mask(x, y)); CMB(11, __hgeu2_mask(x, y));
        r |= (u32)__hbeq2(x, y) << 24 | (u32)__hblt2(x, y) << 25 | (u32)__hbgeu2(x, y) << 26 |
             (u32)__hbneu2(x, y) << 27 | (u32)__hble2(x, y) << 28;
        ((u32 *)o_)[i] = r;
        /* raw results: masks, half2 0/1 results, __hisnan2 */
        u32 *w = (u32 *)o_ + n / 2;
        w[i] = __hlt2_mask(x, y);
        w[i + n / 2] = __hgeu2_mask(x, y);
        w[i + n] = W(__heq2(x, y));
        w[i + 3 * (n / 2)] = W(__hneu2(x, y));
        w[i + 2 * n] = W(__hisnan2(x));
    }
};

/* conversions, __half */
struct C_f2h {
    static __device__ void f(ARGS)
    {
        const float v = ((const float *)a_)[i];
        STORE16(__half, __float2half_rn(v), __float2half_rz(v), __float2half_rd(v), __float2half_ru(v), __float2half(v))
    }
};
struct C_f2bf {
    static __device__ void f(ARGS)
    {
        const float v = ((const float *)a_)[i];
        STORE16(bf16, __float2bfloat16_rn(v), __float2bfloat16_rz(v), __float2bfloat16_rd(v), __float2bfloat16_ru(v), __float2bfloat16(v))
    }
};
/* __float2half_rn only: all 65536 midpoints */
struct C_f2h_rn { static __device__ void f(ARGS) { const float v = ((const float *)a_)[i]; STORE16(__half, __float2half_rn(v)) } };
struct C_d2h { static __device__ void f(ARGS) { const double v = ((const double *)a_)[i]; STORE16(__half, __double2half(v)) } };
struct C_d2bf { static __device__ void f(ARGS) { const double v = ((const double *)a_)[i]; STORE16(bf16, __double2bfloat16(v)) } };
struct C_h2f { static __device__ void f(ARGS) { ((float *)o_)[i] = __half2float(__ushort_as_half(((const u16 *)a_)[i])); } };
struct C_bf2f { static __device__ void f(ARGS) { ((float *)o_)[i] = __bfloat162float(__ushort_as_bfloat16(((const u16 *)a_)[i])); } };
#define STOREK(TY, ...) { const TY r_[] = {__VA_ARGS__}; TY *o = (TY *)o_ + i; \
    for (int k = 0; k < (int)(sizeof r_ / sizeof r_[0]); k++) o[(size_t)k * n] = r_[k]; }
struct C_h2i32 {
    static __device__ void f(ARGS)
    {
        const __half x = __ushort_as_half(((const u16 *)a_)[i]);
        STOREK(u32, (u32)__half2int_rn(x), (u32)__half2int_rz(x), (u32)__half2int_rd(x), (u32)__half2int_ru(x),
               __half2uint_rn(x), __half2uint_rz(x), __half2uint_rd(x), __half2uint_ru(x))
    }
};
struct C_bf2i32 {
    static __device__ void f(ARGS)
    {
        const bf16 x = __ushort_as_bfloat16(((const u16 *)a_)[i]);
        STOREK(u32, (u32)__bfloat162int_rn(x), (u32)__bfloat162int_rz(x), (u32)__bfloat162int_rd(x), (u32)__bfloat162int_ru(x),
               __bfloat162uint_rn(x), __bfloat162uint_rz(x), __bfloat162uint_rd(x), __bfloat162uint_ru(x))
    }
};
struct C_h2i16 {
    static __device__ void f(ARGS)
    {
        const __half x = __ushort_as_half(((const u16 *)a_)[i]);
        STOREK(u16, (u16)__half2short_rn(x), (u16)__half2short_rz(x), (u16)__half2short_rd(x), (u16)__half2short_ru(x),
               __half2ushort_rn(x), __half2ushort_rz(x), __half2ushort_rd(x), __half2ushort_ru(x))
    }
};
struct C_bf2i16 {
    static __device__ void f(ARGS)
    {
        const bf16 x = __ushort_as_bfloat16(((const u16 *)a_)[i]);
        STOREK(u16, (u16)__bfloat162short_rn(x), (u16)__bfloat162short_rz(x), (u16)__bfloat162short_rd(x), (u16)__bfloat162short_ru(x),
               __bfloat162ushort_rn(x), __bfloat162ushort_rz(x), __bfloat162ushort_rd(x), __bfloat162ushort_ru(x))
    }
};
struct C_h2i64 {
    static __device__ void f(ARGS)
    {
        const __half x = __ushort_as_half(((const u16 *)a_)[i]);
        STOREK(u64, (u64)__half2ll_rn(x), (u64)__half2ll_rd(x), (u64)__half2ull_rz(x), (u64)__half2ull_ru(x))
    }
};
struct C_bf2i64 {
    static __device__ void f(ARGS)
    {
        const bf16 x = __ushort_as_bfloat16(((const u16 *)a_)[i]);
        STOREK(u64, (u64)__bfloat162ll_rn(x), (u64)__bfloat162ll_rd(x), (u64)__bfloat162ull_rz(x), (u64)__bfloat162ull_ru(x))
    }
};
struct C_h2i8 {
    static __device__ void f(ARGS)
    {
        const __half x = __ushort_as_half(((const u16 *)a_)[i]);
        STOREK(u8, (u8)__half2char_rz(x), (u8)__half2uchar_rz(x))
    }
};
struct C_bf2c {
    static __device__ void f(ARGS) { const bf16 x = __ushort_as_bfloat16(((const u16 *)a_)[i]); STOREK(u8, (u8)__bfloat162char_rz(x)) }
};
struct C_bf2uc {
    static __device__ void f(ARGS) { const bf16 x = __ushort_as_bfloat16(((const u16 *)a_)[i]); STOREK(u8, (u8)__bfloat162uchar_rz(x)) }
};
/* int -> half / bf16 */
struct C_i2h {
    static __device__ void f(ARGS)
    {
        const int v = ((const int *)a_)[i];
        const u32 u = (u32)v;
        const short s = (short)v;
        const unsigned short us = (unsigned short)v;
        STORE16(__half, __int2half_rn(v), __int2half_rz(v), __int2half_rd(v), __int2half_ru(v),
                __uint2half_rn(u), __uint2half_rz(u), __uint2half_rd(u), __uint2half_ru(u),
                __short2half_rn(s), __short2half_rz(s), __short2half_rd(s), __short2half_ru(s),
                __ushort2half_rn(us), __ushort2half_ru(us))
    }
};
struct C_ll2h {
    static __device__ void f(ARGS)
    {
        const long long q = ((const long long *)a_)[i];
        STORE16(__half, __ll2half_rn(q), __ll2half_rd(q), __ull2half_rn((u64)q), __ull2half_ru((u64)q))
    }
};
struct C_i2bf {
    static __device__ void f(ARGS)
    {
        const int v = ((const int *)a_)[i];
        const u32 u = (u32)v;
        const short s = (short)v;
        const unsigned short us = (unsigned short)v;
        STORE16(bf16, __int2bfloat16_rn(v), __int2bfloat16_rz(v), __int2bfloat16_rd(v), __int2bfloat16_ru(v),
                __uint2bfloat16_rn(u), __uint2bfloat16_rz(u), __uint2bfloat16_rd(u), __uint2bfloat16_ru(u),
                __short2bfloat16_rn(s), __short2bfloat16_rz(s), __short2bfloat16_rd(s), __short2bfloat16_ru(s),
                __ushort2bfloat16_rn(us), __ushort2bfloat16_ru(us))
    }
};
struct C_ll2bf {
    static __device__ void f(ARGS)
    {
        const long long q = ((const long long *)a_)[i];
        STORE16(bf16, __ll2bfloat16_rn(q), __ll2bfloat16_rd(q), __ull2bfloat16_rn((u64)q), __ull2bfloat16_ru((u64)q))
    }
};
/* pairs: element i is lane (i & 1) of pair j = i >> 1; a, b: floats (pair j), c: 16-bit values
 * (c[j], c[j ^ 1] make the packed operand) */
#define PAIR_IN(T2, MK2, H1) const int j = i >> 1, ln = i & 1; \
    const float p = ((const float *)a_)[j], q = ((const float *)b_)[j]; const u16 *c = (const u16 *)c_; \
    const T2 hp = MK2(H1(c[j]), H1(c[j ^ 1])); (void)p; (void)q;
#define PAIR_OUT(T2, LO, HI, ...) { const T2 r_[] = {__VA_ARGS__}; u16 *o = (u16 *)o_ + i; \
    for (int k = 0; k < (int)(sizeof r_ / sizeof r_[0]); k++) o[(size_t)k * n] = B(ln ? HI(r_[k]) : LO(r_[k])); }
struct C_pair_h {
    static __device__ void f(ARGS)
    {
        PAIR_IN(__half2, __halves2half2, __ushort_as_half)
        PAIR_OUT(__half2, __low2half, __high2half, __floats2half2_rn(p, q), __float22half2_rn(make_float2(p, q)),
                 __float2half2_rn(p), __lowhigh2highlow(hp), __low2half2(hp), __highs2half2(hp, __float2half2_rn(q)))
    }
};
struct C_pair_bf {
    static __device__ void f(ARGS)
    {
        PAIR_IN(bf162, __halves2bfloat162, __ushort_as_bfloat16)
        PAIR_OUT(bf162, __low2bfloat16, __high2bfloat16, __floats2bfloat162_rn(p, q), __float22bfloat162_rn(make_float2(p, q)),
                 __float2bfloat162_rn(p), __lowhigh2highlow(hp), __low2bfloat162(hp), __highs2bfloat162(hp, __float2bfloat162_rn(q)))
    }
};
/* packed -> float2, and __high2float */
struct C_pairf_h {
    static __device__ void f(ARGS)
    {
        PAIR_IN(__half2, __halves2half2, __ushort_as_half)
        const float2 f2 = __half22float2(hp);
        STOREK(float, ln ? f2.y : f2.x, __high2float(hp))
    }
};
struct C_pairf_bf {
    static __device__ void f(ARGS)
    {
        PAIR_IN(bf162, __halves2bfloat162, __ushort_as_bfloat16)
        const float2 f2 = __bfloat1622float2(hp);
        STOREK(float, ln ? f2.y : f2.x, __high2float(hp))
    }
};
/* class: isnan | (isinf + 1) << 1, u8 */
template <class T> struct F_class {
    static __device__ __forceinline__ void f(ARGS)
    {
        const T x = H<T>(((const u16 *)a_)[i]);
        ((u8 *)o_)[i] = (u8)((__hisnan(x) ? 1 : 0) | (__hisinf(x) + 1) << 1);
    }
};

/* ------------------------------------------------------------------------------------------ */
/* host                                                                                        */

template <class T> static T *dalloc(size_t n)
{
    T *p = NULL;
    DCK(cudaMalloc((void **)&p, n * sizeof(T) + 64));
    DCK(cudaMemset(p, 0, n * sizeof(T) + 64));
    return p;
}
template <class T> static T *dcopy(const std::vector<T> &v)
{
    T *p = dalloc<T>(v.size());
    DCK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return p;
}
static void launched(const char *what)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        diff_.api_errors++;
        fprintf(stderr, "kernel %s: %s\n", what, cudaGetErrorName(e));
    }
}
static std::vector<std::string> split(const char *s)
{
    std::vector<std::string> v;
    std::string cur;
    for (; ; s++) {
        if (*s == ' ' || !*s) { if (!cur.empty()) v.push_back(cur); cur.clear(); if (!*s) break; }
        else cur += *s;
    }
    return v;
}
/* sections `pfx` + each name, consecutive blocks of `count` values of `kind` at device `dev` */
static void sections(const char *pfx, const char *names, int kind, const void *dev, size_t count,
                     int ikind = 0, const void *hin = NULL)
{
    std::vector<std::string> nm = split(names);
    size_t sz = diff_kind_size(kind);
    std::vector<unsigned char> h(nm.size() * count * sz);
    DCK(cudaMemcpy(h.data(), dev, h.size(), cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < nm.size(); k++)
        diff_section_in((std::string(pfx) + nm[k]).c_str(), kind, 0, h.data() + k * count * sz, count, ikind, hin);
}
/* elementwise family: one launch, one section per name */
template <class OP> static void fam(const char *pfx, const char *names, int kind, int n, const void *a,
                                    const void *b, const void *c, int ikind, const void *hin)
{
    std::vector<std::string> nm = split(names);
    void *o = dalloc<unsigned char>(nm.size() * (size_t)n * diff_kind_size(kind));
    k_ew<OP><<<(n + 255) / 256, 256>>>(n, a, b ? b : a, c ? c : a, o);
    launched((std::string(pfx) + nm[0]).c_str());
    sections(pfx, names, kind, o, n, ikind, hin);
    DCK(cudaFree(o));
}

/* launch shapes of the warp kernels */
struct Shape { int grid; dim3 block; };
static const Shape small_shapes[] = {{1, dim3(96)}, {2, dim3(48)}, {1, dim3(12, 8)}, {1, dim3(6, 4, 2)}};
static const Shape big_shape = {1, dim3(1024)};
typedef void (*WarpKernel)(u32 *, int, int);
static void warp_run(WarpKernel kern, int big, const char *pfx, const char *names)
{
    int nk = (int)split(names).size(), tot = 0;
    std::vector<Shape> sh(small_shapes, small_shapes + 4);
    if (big) sh.push_back(big_shape);
    for (auto &s : sh) tot += s.grid * s.block.x * s.block.y * s.block.z;
    u32 *o = dalloc<u32>((size_t)nk * tot);
    int off = 0;
    for (auto &s : sh) {
        kern<<<s.grid, s.block>>>(o, tot, off);
        launched(pfx);
        off += s.grid * s.block.x * s.block.y * s.block.z;
    }
    sections(pfx, names, DK_U32, o, tot);
    DCK(cudaFree(o));
}

static void warp_tests(void)
{
    {
        u32 *o = dalloc<u32>(4 * 6 * NP * 64);
        k_shfl_rt<<<1, 64>>>(o);
        launched("k_shfl_rt");
        sections("w_shfl_", "idx_i32 up_i32 down_i32 xor_i32", DK_U32, o, 6 * NP * 64);
        DCK(cudaFree(o));
    }
    {
        const int S = 12 * 32;
        float *of = dalloc<float>(4 * S);
        double *od = dalloc<double>(4 * S);
        long long *ol = dalloc<long long>(4 * S);
        u32 *oh = dalloc<u32>(2 * S);
        k_shfl_types<<<1, 32>>>(of, od, ol);
        launched("k_shfl_types");
        k_shfl_16<<<1, 32>>>(oh);
        launched("k_shfl_16");
        sections("w_shfl_", "idx_f32 up_f32 down_f32 xor_f32", DK_F32, of, S);
        sections("w_shfl_", "idx_f64 up_f64 down_f64 xor_f64", DK_F64, od, S);
        sections("w_shfl_", "idx_i64 up_i64 down_i64 xor_i64", DK_U64, ol, S);
        sections("w_shfl_", "xor_h2 down_h_idx_bf", DK_U32, oh, S);
        DCK(cudaFree(of)); DCK(cudaFree(od)); DCK(cudaFree(ol)); DCK(cudaFree(oh));
    }
    {
        u32 *o = dalloc<u32>(16 * 64);
        float *of = dalloc<float>(2 * 64);
        k_shfl_imm<<<1, 64>>>(o, of);
        launched("k_shfl_imm");
        sections("w_shfl_imm_", "idx5 idx40 idx3w8 idxm1w16 up1 up4w16 up33 down1 down16 down2w4 "
                 "xor1 xor16 xor31 xor4w8 xor8w4 idxvar", DK_U32, o, 64);
        sections("w_", "bfly_f32 downred_f32", DK_F32, of, 64);
        DCK(cudaFree(o)); DCK(cudaFree(of));
    }
    {
        u32 *o = dalloc<u32>(28 * 64);
        k_partial<<<1, 64>>>(o);
        launched("k_partial");
        sections("w_part_", "g20_idx g20_up g20_down g20_xor g20_xor2 g20_rev g20_dlo g20_dhi g20_ballot g20_any g20_all "
                 "g20_redux g20_match oe_xor oe_down oe_up oe_idx oe_xorw8 oe_downw16 oe_dlo oe_dhi "
                 "oe_ballot oe_any oe_all oe_redux oe_match oe_matchall oe_pred", DK_U32, o, 64);
        DCK(cudaFree(o));
    }
    warp_run(k_vote, 1, "w_vote_", "ballot any all xor5w16 down3w16 cond_ballot br_ballot br_any br_all "
             "br_redux br_match nest_redux nest_x after");
    warp_run(k_redux, 0, "w_redux_", "addu minu maxu adds mins maxs and or xor part_a part_b");
    warp_run(k_match, 0, "w_match_", "any_i all_warp all_warp_pred all_i all_i_pred any_ll all_ll all_ll_pred "
             "any_f32 any_f64 any_ul part_any part_all part_pred");
    warp_run(k_lanemask, 0, "w_lanemask_", "laneid lt le eq ge gt rank");
    warp_run(k_syncwarp, 0, "w_syncwarp_", "ring lo16 odd even stencil");
    warp_run(k_cg, 0, "w_cg_", "t16_rank t16_shfl t16_down t16_up t16_xor t16_ballot t16_anyall t16_sum t16_min "
             "t16_max t16_iscan t16_escan t16_match t8_shfl t8_ballot t8_sum t8_min t8_max t8_xorand t4_xor "
             "t4_sumor t4_rank t16_fsum t16_fmax dyn8_rank labeled binpart_sum binpart_shfl");
    warp_run(k_loop, 1, "w_loop_", "acc hist total anyloop_s anyloop_j after");
    warp_run(k_exit, 0, "w_exit_", "ballot any all redux match");
    warp_run(k_pfull, 0, "w_pfull_", "ballot1 ballot redux shfl xor1");
    warp_run(k_active, 0, "w_active_", "top branch nested co_rank co_shfl co_sum co_ballot after loop");
    {
        AtomG init;
        memset(&init, 0, sizeof init);
        init.u[4] = 0x7fffffffu; init.u[5] = 0x80000000u; init.u[6] = 0xffffffffu; init.u[8] = 0xffffffffu;
        init.u[12] = 5;
        init.q[1] = 0x7fffffffffffffffull; init.q[2] = 0x8000000000000000ull; init.q[3] = ~0ull;
        init.q[6] = ~0ull;
        init.f[1] = 1000.0f;
        AtomG *g = dalloc<AtomG>(1);
        DCK(cudaMemcpy(g, &init, sizeof init, cudaMemcpyHostToDevice));
        u32 *bu = dalloc<u32>(8 * 12), *bh = dalloc<u32>(8 * 2);
        float *bf = dalloc<float>(8 * 2);
        k_atom<<<8, 256>>>(g, bu, bf, bh);
        launched("k_atom");
        AtomG r;
        memset(&r, 0, sizeof r);
        DCK(cudaMemcpy(&r, g, sizeof r, cudaMemcpyDeviceToHost));
        diff_section("w_atom_g_u32", DK_U32, 0, r.u, 16);
        diff_section("w_atom_g_u64", DK_U64, 0, r.q, 10);
        diff_section("w_atom_g_f32", DK_F32, 0, r.f, 3);
        diff_section("w_atom_g_f64", DK_F64, 0, r.d, 1);
        u16 hv[6];
        memcpy(&hv[0], &r.h2, 4); memcpy(&hv[2], &r.h, 2);
        diff_section("w_atom_g_f16", DK_F16, 0, hv, 3);
        memcpy(&hv[0], &r.b2, 4); memcpy(&hv[2], &r.b, 2);
        diff_section("w_atom_g_bf16", DK_BF16, 0, hv, 3);
        diff_section("w_atom_g_cas16", DK_U16, 0, &r.s16, 1);
        sections("w_atom_s_", "u32", DK_U32, bu, 8 * 12);
        sections("w_atom_s_", "f32", DK_F32, bf, 8 * 2);
        sections("w_atom_s_", "h2bf2", DK_U32, bh, 8 * 2);
        DCK(cudaFree(g)); DCK(cudaFree(bu)); DCK(cudaFree(bh)); DCK(cudaFree(bf));
    }
}

/* ---- inputs for the 16-bit tests ---- */

static double hdec(u16 h) { return diff_as_double(DK_F16, h); }
/* a half pattern's value as a float, NaN payload kept */
static float hval(u16 h)
{
    if ((h & 0x7c00) == 0x7c00)
        return diff_u2f(((u32)(h & 0x8000) << 16) | 0x7f800000u | ((u32)(h & 0x3ff) << 13));
    return (float)hdec(h);
}
/* midpoint between a finite half and its neighbour away from zero (exact in float) */
static float hmid(u16 h)
{
    if ((h & 0x7c00) == 0x7c00) return hval(h);
    u16 m = h & 0x7fff;
    double a = hdec(m), b = m == 0x7bff ? 65536.0 : hdec((u16)(m + 1));
    double r = (a + b) / 2;
    return (float)((h & 0x8000) ? -r : r);
}

static const u16 h_special[32] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0xbc00, 0x3800, 0x3c01, 0x3bff, 0x7bff,
    0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0xfe00, 0x4000, 0x4200, 0x1400, 0x0200, 0x7800, 0x5640,
    0xc500, 0x3555, 0x4248, 0x0401, 0x83ff, 0x5bff, 0x2e66, 0xb800};
static const u16 bf_special[32] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0xbf80, 0x3f00, 0x3f81, 0x3f7f, 0x7f7f,
    0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7fa0, 0xffc0, 0x4000, 0x4040, 0x3a80, 0x0040, 0x4700, 0x42c8,
    0xc0a0, 0x3eab, 0x4049, 0x0081, 0x807f, 0x5f80, 0x3dcd, 0xbf00};

#define NC 512   /* conversion inputs */
struct Set16 {
    std::vector<u16> iota, sub, a, b, c, conv;
};

/* bf16: 1 when is_bf */
static void make_sets(Set16 &S, int is_bf, uint64_t seed)
{
    const u16 *sp = is_bf ? bf_special : h_special;
    S.iota.resize(65536);
    for (int i = 0; i < 65536; i++) S.iota[i] = (u16)i;
    /* 1024 patterns spread over all 65536: specials, then one per 64-pattern bucket */
    S.sub.resize(1024);
    for (int i = 0; i < 1024; i++) S.sub[i] = i < 32 ? sp[i] : (u16)((i << 6) | (diff_rand(&seed) & 63));
    /* 2048 operand triples: specials x specials, then random (half uniform patterns, half
     * moderate magnitudes) */
    S.a.resize(2048); S.b.resize(2048); S.c.resize(2048);
    for (int i = 0; i < 2048; i++) {
        if (i < 1024) {
            S.a[i] = sp[i / 32]; S.b[i] = sp[i % 32]; S.c[i] = sp[(i * 7 + i / 32) % 32];
            continue;
        }
        u16 v[3];
        for (int k = 0; k < 3; k++) {
            uint64_t r = diff_rand(&seed);
            if (r & 1) v[k] = (u16)(r >> 16);
            else if (!is_bf) v[k] = (u16)(((r >> 1) & 1) << 15 | (10 + (r >> 2) % 11) << 10 | ((r >> 8) & 0x3ff));
            else v[k] = (u16)(((r >> 1) & 1) << 15 | (122 + (r >> 2) % 11) << 7 | ((r >> 8) & 0x7f));
        }
        S.a[i] = v[0]; S.b[i] = v[1]; S.c[i] = v[2];
    }
    /* conversion inputs: specials, ties (k + 0.5), magnitudes around the integer ranges */
    S.conv.resize(NC);
    for (int i = 0; i < NC; i++) {
        uint64_t r = diff_rand(&seed);
        if (i < 32) { S.conv[i] = sp[i]; continue; }
        u16 sg = (u16)((r & 1) << 15);
        if (!is_bf) {
            if (i < 160) {   /* +-(k + 0.5), k < 64, and +-k */
                double v = (i - 32) / 2 + ((i & 1) ? 0.5 : 0.0);
                /* v is exact in half: find its pattern */
                u16 hb = 0;
                for (u32 p = 0; p < 0x7c00; p++) if (hdec((u16)p) == v) { hb = (u16)p; break; }
                S.conv[i] = hb | sg;
            } else S.conv[i] = sg | (u16)((13 + (r >> 1) % 18) << 10 | ((r >> 8) & 0x3ff));
        } else {
            if (i < 160) {
                float v = (float)((i - 32) / 2) + ((i & 1) ? 0.5f : 0.0f);
                S.conv[i] = (u16)(diff_f2u(v) >> 16) | sg;   /* exact: at most 8 significant bits */
            } else S.conv[i] = sg | (u16)((125 + (r >> 1) % 70) << 7 | ((r >> 8) & 0x7f));
        }
    }
}

static std::vector<float> f2h_inputs(uint64_t seed)
{
    std::vector<float> v(2048);
    const float sp[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1.0f, -1.0f, 65504.0f, 65504.5f,
                        65519.0f, nextafterf(65520.0f, 0.0f), 65520.0f, -65520.0f, 65536.0f, 1e10f,
                        ldexpf(1, -24), ldexpf(1, -25), nextafterf(ldexpf(1, -25), 1.0f),
                        nextafterf(ldexpf(1, -25), 0.0f), 3 * ldexpf(1, -26), ldexpf(1, -26),
                        ldexpf(1, -14), 1023.5f * ldexpf(1, -24), 1e-8f, 1.17549435e-38f, 1e-45f,
                        3.40282347e38f, 1.0f / 3, 0.1f, 3.14159265f, -2.5f, 2049.0f, 4095.0f, 4097.0f,
                        -0.5f * ldexpf(1, -24), 1.5f * ldexpf(1, -24), 2.5f * ldexpf(1, -24),
                        3.38953139e38f, -3.39e38f, diff_u2f(0x7f7f8000u), diff_u2f(0x7f7f7fffu),
                        diff_u2f(0x00008000u), diff_u2f(0x00018000u), diff_u2f(0x3f808000u),
                        diff_u2f(0x3f818000u), diff_u2f(0x7fa00000u), diff_u2f(0x807f8000u)};
    const int nsp = (int)(sizeof sp / sizeof sp[0]);
    for (int i = 0; i < 2048; i++) {
        uint64_t r = diff_rand(&seed);
        if (i < nsp) { v[i] = sp[i]; continue; }
        u16 h = (u16)(r >> 20);
        if ((h & 0x7c00) == 0x7c00) h &= 0xbfff;
        u32 bb = (u32)(r >> 36) & 0xffff;
        switch (i % 10) {
        case 0: v[i] = hmid(h); break;
        case 1: v[i] = nextafterf(hmid(h), copysignf(INFINITY, hmid(h))); break;
        case 2: v[i] = nextafterf(hmid(h), 0.0f); break;
        case 3: v[i] = hval(h); break;
        case 4: v[i] = diff_u2f((u32)(r & 0x807fffffu) | (u32)((100 + (r >> 24) % 44) << 23)); break;
        case 5: v[i] = diff_u2f((u32)r); break;
        case 6: v[i] = diff_u2f(bb << 16 | 0x8000u); break;                       /* bf16 tie */
        case 7: v[i] = diff_u2f((bb << 16 | 0x8000u) + ((r >> 60) & 1 ? 1 : -1)); break;
        case 8: v[i] = diff_u2f((u32)(r & 0x807fffffu)); break;                   /* float subnormal */
        default: v[i] = (float)((int)(r % 140001) - 70000); break;
        }
    }
    return v;
}

static std::vector<double> d2h_inputs(uint64_t seed, int is_bf)
{
    std::vector<double> v(1024);
    for (int i = 0; i < 1024; i++) {
        uint64_t r = diff_rand(&seed);
        u16 h = (u16)(r >> 20);
        if ((h & 0x7c00) == 0x7c00) h &= 0xbfff;
        if (is_bf && (h & 0x7f80) == 0x7f80) h &= 0xbfff;
        double mid = is_bf ? (double)diff_u2f(((u32)h << 16) | 0x8000u) : (double)hmid(h);
        switch (i % 5) {
        case 0: v[i] = mid; break;
        case 1: v[i] = mid * (1 + ldexp(1, -40)); break;
        case 2: v[i] = mid * (1 - ldexp(1, -40)); break;
        case 3: v[i] = diff_u2d(r); break;
        default: v[i] = ldexp((double)(r >> 11), -53) * ldexp(1, (int)((r >> 3) % 60) - 30) * ((r & 1) ? -1 : 1); break;
        }
    }
    v[0] = 0.0; v[1] = -0.0; v[2] = INFINITY; v[3] = NAN; v[4] = 65520.0; v[5] = 65519.999999999;
    v[6] = ldexp(1, -25); v[7] = ldexp(1, -25) * (1 + ldexp(1, -50)); v[8] = 1e300; v[9] = -1e-300;
    v[10] = 3.3895313892515355e38; v[11] = 3.3961775292304e38;
    return v;
}

static void int_inputs(uint64_t seed, std::vector<int> &vi, std::vector<long long> &vl)
{
    const int sp[] = {0, 1, -1, 2047, 2048, 2049, 2050, 2051, -2049, 4097, 4099, 65504, 65505, 65519, 65520,
                      65535, 65536, -65520, 1 << 20, (1 << 24) + 1, 0x7fffffff, (int)0x80000000, 255, 256, 257,
                      32767, -32768, 33023, 33024, 33025, -257, 511};
    vi.resize(NC); vl.resize(NC);
    for (int i = 0; i < NC; i++) {
        uint64_t r = diff_rand(&seed);
        if (i < 32) vi[i] = sp[i];
        else if (i & 1) vi[i] = (int)(r % 140001) - 70000;
        else vi[i] = (int)(u32)(r >> 32) >> ((r >> 8) % 24);
        uint64_t r2 = diff_rand(&seed);
        vl[i] = i < 32 ? (long long)sp[i] * ((i & 1) ? 1 : (1ll << 20)) : (long long)r2 >> (r2 % 63);
    }
    vl[3] = 0x7fffffffffffffffll; vl[4] = (long long)0x8000000000000000ull; vl[5] = (1ll << 53) + 1;
}

static void half_tests(int is_bf)
{
    const char *P = is_bf ? "bf_" : "h_";
    const int IK = is_bf ? DK_BF16 : DK_F16;
    Set16 S;
    make_sets(S, is_bf, is_bf ? 0xbf16bf16ull : 0xf16f16f16ull);
    u16 *d_iota = dcopy(S.iota), *d_sub = dcopy(S.sub), *d_a = dcopy(S.a), *d_b = dcopy(S.b),
        *d_c = dcopy(S.c), *d_conv = dcopy(S.conv);
    char pf[32];
    snprintf(pf, sizeof pf, "%s", P);
#define F16FAM(OP, NAMES, KIND, N, A, B, C, HIN) \
    (is_bf ? fam<OP<bf16> >(pf, NAMES, KIND, N, A, B, C, IK, HIN) : fam<OP<__half> >(pf, NAMES, KIND, N, A, B, C, IK, HIN))
    /* all 65536 inputs */
    F16FAM(F_sqrt, "sqrt_full", IK, 65536, d_iota, 0, 0, S.iota.data());
    F16FAM(F_exp, "exp_full", IK, 65536, d_iota, 0, 0, S.iota.data());
    if (!is_bf) {
        F16FAM(F_rcp, "rcp_full", IK, 65536, d_iota, 0, 0, S.iota.data());
        F16FAM(F_log, "log_full", IK, 65536, d_iota, 0, 0, S.iota.data());
        F16FAM(F_sin, "sin_full", IK, 65536, d_iota, 0, 0, S.iota.data());
        fam<C_h2f>(pf, "to_f32", DK_F32, 1024, d_sub, 0, 0, IK, S.sub.data());
        std::vector<float> mid(65536);
        for (int i = 0; i < 65536; i++) mid[i] = hmid((u16)i);
        float *d_mid = dcopy(mid);
        fam<C_f2h_rn>(pf, "f2h_mid_full", DK_F16, 65536, d_mid, 0, 0, DK_F32, mid.data());
        DCK(cudaFree(d_mid));
    } else {
        F16FAM(F_ap0, "rcp log sin", IK, 1024, d_sub, 0, 0, S.sub.data());
        fam<C_bf2f>(pf, "to_f32", DK_F32, 1024, d_sub, 0, 0, IK, S.sub.data());
    }
    /* unary on 1024 spread patterns */
    F16FAM(F_ap1, "rsqrt exp2 exp10", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(F_ap2, "log2 log10 cos", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(F_tanh, "tanh tanh_approx", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(F_round, "floor ceil trunc rint neg abs", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(F_class, "isnan_isinf", DK_U8, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(P_ap0, "h2sqrt h2rsqrt h2rcp", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(P_ap1, "h2exp h2exp2 h2exp10 h2log h2log2 h2log10", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(P_ap2, "h2sin h2cos h2tanh h2tanh_approx", IK, 1024, d_sub, 0, 0, S.sub.data());
    F16FAM(P_round, "h2floor h2ceil h2trunc h2rint h2neg h2abs", IK, 1024, d_sub, 0, 0, S.sub.data());
    /* binary / ternary on 2048 triples (a printed beside mismatches) */
    F16FAM(F_arith, "add sub mul div fma add_rn sub_rn mul_rn", IK, 2048, d_a, d_b, d_c, S.a.data());
    F16FAM(F_sat, "add_sat sub_sat mul_sat fma_sat fma_relu", IK, 2048, d_a, d_b, d_c, S.a.data());
    F16FAM(F_minmax, "min max min_nan max_nan", IK, 2048, d_a, d_b, d_c, S.a.data());
    F16FAM(F_cmp, "cmp_bits", DK_U16, 2048, d_a, d_b, d_c, S.a.data());
    /* packed: 512 lanes from triples 768..1279 (half specials, half random) */
    F16FAM(P_arith, "h2add h2sub h2mul h2div h2fma h2add_rn h2sub_rn h2mul_rn", IK, 512, d_a + 768, d_b + 768, d_c + 768, S.a.data() + 768);
    F16FAM(P_sat, "h2add_sat h2sub_sat h2mul_sat h2fma_sat h2fma_relu", IK, 512, d_a + 768, d_b + 768, d_c + 768, S.a.data() + 768);
    F16FAM(P_minmax, "h2min h2max h2min_nan h2max_nan h2cmadd", IK, 512, d_a + 768, d_b + 768, d_c + 768, S.a.data() + 768);
    {   /* packed comparisons: 256 pairs -> 256 packed bits + 5 x 256 raw values */
        u32 *o = dalloc<u32>(6 * 256);
        if (is_bf) k_ew<P_cmp<bf16> ><<<2, 256>>>(512, d_a + 768, d_b + 768, d_c + 768, o);
        else k_ew<P_cmp<__half> ><<<2, 256>>>(512, d_a + 768, d_b + 768, d_c + 768, o);
        launched("P_cmp");
        sections(pf, "h2cmp_bits h2lt_mask h2geu_mask h2eq h2neu h2isnan", DK_U32, o, 256);
        DCK(cudaFree(o));
    }
    /* conversions */
    std::vector<float> fin = f2h_inputs(is_bf ? 0xbf2ull : 0xf2ull);
    float *d_fin = dcopy(fin);
    std::vector<double> din = d2h_inputs(is_bf ? 0xdb2ull : 0xd2ull, is_bf);
    double *d_din = dcopy(din);
    std::vector<int> vi;
    std::vector<long long> vl;
    int_inputs(is_bf ? 0x1b2ull : 0x12ull, vi, vl);
    int *d_vi = dcopy(vi);
    long long *d_vl = dcopy(vl);
    std::vector<float> pa(NC), pb(NC), pab(2 * NC);   /* pab: the float inputs of each lane */
    for (int i = 0; i < NC; i++) { pa[i] = fin[i * 2]; pb[i] = fin[i * 2 + 1]; pab[2 * i] = pa[i]; pab[2 * i + 1] = pb[i]; }
    float *d_pa = dcopy(pa), *d_pb = dcopy(pb);
    if (!is_bf) {
        fam<C_f2h>(pf, "f2h_rn f2h_rz f2h_rd f2h_ru f2h", DK_F16, 2048, d_fin, 0, 0, DK_F32, fin.data());
        fam<C_d2h>(pf, "d2h", DK_F16, 1024, d_din, 0, 0, DK_F64, din.data());
        fam<C_h2i32>(pf, "h2int_rn h2int_rz h2int_rd h2int_ru h2uint_rn h2uint_rz h2uint_rd h2uint_ru", DK_U32,
                     NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_h2i16>(pf, "h2short_rn h2short_rz h2short_rd h2short_ru h2ushort_rn h2ushort_rz h2ushort_rd "
                     "h2ushort_ru", DK_U16, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_h2i64>(pf, "h2ll_rn h2ll_rd h2ull_rz h2ull_ru", DK_U64, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_h2i8>(pf, "h2char_rz h2uchar_rz", DK_U8, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_i2h>(pf, "int_rn int_rz int_rd int_ru uint_rn uint_rz uint_rd uint_ru short_rn short_rz short_rd "
                   "short_ru ushort_rn ushort_ru", DK_F16, NC, d_vi, 0, 0, DK_U32, vi.data());
        fam<C_ll2h>(pf, "ll_rn ll_rd ull_rn ull_ru", DK_F16, NC, d_vl, 0, 0, DK_U64, vl.data());
        fam<C_pair_h>(pf, "floats2h2 float22h2 float2h2 lowhigh2highlow low2half2 highs2half2", DK_F16, 2 * NC,
                      d_pa, d_pb, d_conv, DK_F32, pab.data());
        fam<C_pairf_h>(pf, "h22f2 high2float", DK_F32, 2 * NC, d_pa, d_pb, d_conv, DK_F32, pab.data());
    } else {
        fam<C_f2bf>(pf, "f2bf_rn f2bf_rz f2bf_rd f2bf_ru f2bf", DK_BF16, 2048, d_fin, 0, 0, DK_F32, fin.data());
        fam<C_d2bf>(pf, "d2bf", DK_BF16, 1024, d_din, 0, 0, DK_F64, din.data());
        fam<C_bf2i32>(pf, "bf2int_rn bf2int_rz bf2int_rd bf2int_ru bf2uint_rn bf2uint_rz bf2uint_rd bf2uint_ru",
                      DK_U32, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_bf2i16>(pf, "bf2short_rn bf2short_rz bf2short_rd bf2short_ru bf2ushort_rn bf2ushort_rz "
                      "bf2ushort_rd bf2ushort_ru", DK_U16, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_bf2i64>(pf, "bf2ll_rn bf2ll_rd bf2ull_rz bf2ull_ru", DK_U64, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_bf2c>(pf, "bf2char_rz", DK_U8, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_bf2uc>(pf, "bf2uchar_rz", DK_U8, NC, d_conv, 0, 0, IK, S.conv.data());
        fam<C_i2bf>(pf, "int_rn int_rz int_rd int_ru uint_rn uint_rz uint_rd uint_ru short_rn short_rz short_rd "
                    "short_ru ushort_rn ushort_ru", DK_BF16, NC, d_vi, 0, 0, DK_U32, vi.data());
        fam<C_ll2bf>(pf, "ll_rn ll_rd ull_rn ull_ru", DK_BF16, NC, d_vl, 0, 0, DK_U64, vl.data());
        fam<C_pair_bf>(pf, "floats2bf2 float22bf2 float2bf2 lowhigh2highlow low2bf2 highs2bf2", DK_BF16, 2 * NC,
                       d_pa, d_pb, d_conv, DK_F32, pab.data());
        fam<C_pairf_bf>(pf, "bf22f2 high2float", DK_F32, 2 * NC, d_pa, d_pb, d_conv, DK_F32, pab.data());
    }
    DCK(cudaFree(d_fin)); DCK(cudaFree(d_din)); DCK(cudaFree(d_vi)); DCK(cudaFree(d_vl));
    DCK(cudaFree(d_pa)); DCK(cudaFree(d_pb));
    DCK(cudaFree(d_iota)); DCK(cudaFree(d_sub)); DCK(cudaFree(d_a)); DCK(cudaFree(d_b)); DCK(cudaFree(d_c));
    DCK(cudaFree(d_conv));
#undef F16FAM
}

int main(int argc, char **argv)
{
    diff_begin(argc, argv);
    warp_tests();
    half_tests(0);
    half_tests(1);
    return diff_end();
}
