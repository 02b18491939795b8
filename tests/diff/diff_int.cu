/*
 * diff_int.cu - differential test: integer arithmetic, bit operations and numeric conversions.
 *
 * Every result is computed on the device; the host only generates inputs (fixed seeds),
 * launches and compares/records (diff.h). Groups of operations share one kernel each (a switch
 * on a uniform op index, so one JIT per group); risky instruction families (video
 * instructions, sm_70+ additions) have kernels of their own so that one unsupported
 * instruction does not take the other groups down with it.
 *
 * Groups (section names are "group.op"):
 *   i32   32-bit signed/unsigned arithmetic, mul.hi/mul24/mad/sad/avg/min/max/abs, div/rem
 *         (divisor never 0, never INT_MIN/-1), shifts by register and by immediate amounts
 *         >= the width (PTX clamps), funnel shifts, brev/clz/ffs/popc/bfind/fns, byte_perm and
 *         every prmt mode, bfe/bfi with pos/len beyond the width, dp4a/dp2a (all sign mixes),
 *         lop3, set/slct/cnot, sign extension, division by constants
 *   i64   the 64-bit counterparts plus mul.wide/mad.wide, carry chains (add.cc/addc/sub.cc/
 *         subc/mad.lo.cc/madc.hi), sad.s64/u64
 *   n16   16-bit arithmetic through short types and 16-bit PTX instructions
 *   n8    8-bit arithmetic through char types
 *   simd  SIMD intrinsics lowered to plain integer code (__vadd2 ... __vsubus4) and the DPX
 *         intrinsics (__vimax3_s32 ...)
 *   simdv SIMD intrinsics that nvcc lowers to PTX video instructions (vabsdiff2/4)
 *   vid   scalar and SIMD video instructions written directly (vadd, vmad, vset, vadd2 ...)
 *   szext, bmsk, pack   sm_70+ integer instructions: szext, bmsk, cvt.pack.sat
 *   cf    float -> int/uint/ll/ull (all roundings; NaN, +-inf, out of range), -> double, ->
 *         half/bf16 (all roundings), -> fp8/fp6/fp4/e8m0, cvt.rni/rzi/rmi/rpi.f32, cvt.sat,
 *         cvt.ftz, float -> s8/u8/s16/u16 via cvt
 *   cd    double -> the same targets
 *   ci    int/uint/ll/ull -> float/double (all roundings), saturating and narrowing
 *         integer-to-integer cvt
 *   cih   int/uint/short/ushort -> half/bf16 (all roundings);  cih64  ll/ull -> half/bf16
 *   ch    half -> float/double/int types (all roundings), hrint/htrunc/hfloor/hceil, -> fp8
 *   cb    bf16 -> the same;  cbs  bf16 -> short/ushort (the header's own inline PTX)
 *   c8    fp8 (e4m3, e5m2) / fp6 / fp4 -> half, e8m0 -> bf16, every encoding
 *   <group>.mixed  (i32 i64 n16 n8 simd cf cd ci ch cb) the integer-result operations of the
 *         group again, each thread running a different one (divergent control flow: the
 *         translator's per-lane path instead of its lane-group path)
 *   ld    sign/zero extension of narrow loads (s8/u8/s16/u16, char4, short2) and narrow stores
 *   aff   values affine in the thread index (base + i*stride, wrapping near 2^31 and 2^32)
 *         widened, multiplied, shifted, used as indices
 * Unspecified results are never recorded: no division by zero, no INT_MIN/-1, no C shifts by
 * >= the width (inline PTX, whose clamping is defined, instead), fns with base <= 31 only.
 * Where the H200 departs from PTX's own pseudo-code (bfe.s32 with an immediate start >= 32;
 * bfe/bfi.b64 with pos or len > 255) the results sit in sections of their own
 * (i32.bfe_imm_pos32, i64.*_raw), kept out of the .mixed sections.
 * Sizes: ~630 sections, ~1.5 MB recorded; ~4 s under the NPU library with an empty JIT cache.
 */
#include "diff.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#include <limits.h>
#include <float.h>

#pragma nv_diag_suppress 550   /* "set but never used": the shared LOCALS of the operation groups */

typedef unsigned long long u64;
typedef long long s64;

#define BLK 128

/* sizes (values per section); every one a multiple of BLK */
#define N_I32 768
#define N_I64 512
#define N_N16 768
#define N_N8 768
#define N_SIMD 256
#define N_CF 640
#define N_CD 640
#define N_CI 640
#define N_CH 640
#define N_CB 512
#define N_C8 256
#define N_LD 512
#define N_MIX 512

/* ------------------------------------------------------------------------------------------ */
/* inline PTX helpers                                                                          */
/* ------------------------------------------------------------------------------------------ */
#define DEV static __device__ __forceinline__
#define A_R_R(fn, ins) DEV uint32_t fn(uint32_t a) { uint32_t d; asm(ins " %0, %1;" : "=r"(d) : "r"(a)); return d; }
#define A_R_RR(fn, ins) DEV uint32_t fn(uint32_t a, uint32_t b) { uint32_t d; asm(ins " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
#define A_R_RRR(fn, ins) DEV uint32_t fn(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; \
    asm(ins " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
#define A_R_RRRR(fn, ins) DEV uint32_t fn(uint32_t a, uint32_t b, uint32_t c, uint32_t e) { uint32_t d; \
    asm(ins " %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "r"(e)); return d; }
#define A_L_L(fn, ins) DEV u64 fn(u64 a) { u64 d; asm(ins " %0, %1;" : "=l"(d) : "l"(a)); return d; }
#define A_L_LL(fn, ins) DEV u64 fn(u64 a, u64 b) { u64 d; asm(ins " %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b)); return d; }
#define A_L_LR(fn, ins) DEV u64 fn(u64 a, uint32_t b) { u64 d; asm(ins " %0, %1, %2;" : "=l"(d) : "l"(a), "r"(b)); return d; }
#define A_L_LLL(fn, ins) DEV u64 fn(u64 a, u64 b, u64 c) { u64 d; asm(ins " %0, %1, %2, %3;" : "=l"(d) : "l"(a), "l"(b), "l"(c)); return d; }
#define A_L_LRR(fn, ins) DEV u64 fn(u64 a, uint32_t b, uint32_t c) { u64 d; \
    asm(ins " %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(b), "r"(c)); return d; }
#define A_L_LLRR(fn, ins) DEV u64 fn(u64 a, u64 b, uint32_t c, uint32_t e) { u64 d; \
    asm(ins " %0, %1, %2, %3, %4;" : "=l"(d) : "l"(a), "l"(b), "r"(c), "r"(e)); return d; }
#define A_L_RRL(fn, ins) DEV u64 fn(uint32_t a, uint32_t b, u64 c) { u64 d; \
    asm(ins " %0, %1, %2, %3;" : "=l"(d) : "r"(a), "r"(b), "l"(c)); return d; }
#define A_R_L(fn, ins) DEV uint32_t fn(u64 a) { uint32_t d; asm(ins " %0, %1;" : "=r"(d) : "l"(a)); return d; }
#define A_R_LL(fn, ins) DEV uint32_t fn(u64 a, u64 b) { uint32_t d; asm(ins " %0, %1, %2;" : "=r"(d) : "l"(a), "l"(b)); return d; }
#define A_L_R(fn, ins) DEV u64 fn(uint32_t a) { u64 d; asm(ins " %0, %1;" : "=l"(d) : "r"(a)); return d; }
/* 16-bit */
#define A_H_H(fn, ins) DEV uint16_t fn(uint16_t a) { uint16_t d; asm(ins " %0, %1;" : "=h"(d) : "h"(a)); return d; }
#define A_H_HH(fn, ins) DEV uint16_t fn(uint16_t a, uint16_t b) { uint16_t d; asm(ins " %0, %1, %2;" : "=h"(d) : "h"(a), "h"(b)); return d; }
#define A_H_HHH(fn, ins) DEV uint16_t fn(uint16_t a, uint16_t b, uint16_t c) { uint16_t d; \
    asm(ins " %0, %1, %2, %3;" : "=h"(d) : "h"(a), "h"(b), "h"(c)); return d; }
#define A_H_HR(fn, ins) DEV uint16_t fn(uint16_t a, uint32_t b) { uint16_t d; asm(ins " %0, %1, %2;" : "=h"(d) : "h"(a), "r"(b)); return d; }
#define A_R_HH(fn, ins) DEV uint32_t fn(uint16_t a, uint16_t b) { uint32_t d; asm(ins " %0, %1, %2;" : "=r"(d) : "h"(a), "h"(b)); return d; }
#define A_R_HHR(fn, ins) DEV uint32_t fn(uint16_t a, uint16_t b, uint32_t c) { uint32_t d; \
    asm(ins " %0, %1, %2, %3;" : "=r"(d) : "h"(a), "h"(b), "r"(c)); return d; }
#define A_H_R(fn, ins) DEV uint16_t fn(uint32_t a) { uint16_t d; asm(ins " %0, %1;" : "=h"(d) : "r"(a)); return d; }
#define A_R_H(fn, ins) DEV uint32_t fn(uint16_t a) { uint32_t d; asm(ins " %0, %1;" : "=r"(d) : "h"(a)); return d; }
#define A_H_L(fn, ins) DEV uint16_t fn(u64 a) { uint16_t d; asm(ins " %0, %1;" : "=h"(d) : "l"(a)); return d; }
/* conversions with float operands */
#define A_R_F(fn, ins) DEV uint32_t fn(float a) { uint32_t d; asm(ins " %0, %1;" : "=r"(d) : "f"(a)); return d; }
#define A_H_F(fn, ins) DEV uint16_t fn(float a) { uint16_t d; asm(ins " %0, %1;" : "=h"(d) : "f"(a)); return d; }
#define A_F_F(fn, ins) DEV float fn(float a) { float d; asm(ins " %0, %1;" : "=f"(d) : "f"(a)); return d; }
#define A_D_F(fn, ins) DEV double fn(float a) { double d; asm(ins " %0, %1;" : "=d"(d) : "f"(a)); return d; }
#define A_R_D(fn, ins) DEV uint32_t fn(double a) { uint32_t d; asm(ins " %0, %1;" : "=r"(d) : "d"(a)); return d; }
#define A_H_D(fn, ins) DEV uint16_t fn(double a) { uint16_t d; asm(ins " %0, %1;" : "=h"(d) : "d"(a)); return d; }
#define A_D_D(fn, ins) DEV double fn(double a) { double d; asm(ins " %0, %1;" : "=d"(d) : "d"(a)); return d; }
#define A_F_D(fn, ins) DEV float fn(double a) { float d; asm(ins " %0, %1;" : "=f"(d) : "d"(a)); return d; }
#define A_D_H(fn, ins) DEV double fn(uint16_t a) { double d; asm(ins " %0, %1;" : "=d"(d) : "h"(a)); return d; }

/* i32 */
A_R_RR(p_mul24lo_s, "mul24.lo.s32")
A_R_RR(p_mul24hi_s, "mul24.hi.s32")
A_R_RR(p_mul24hi_u, "mul24.hi.u32")
A_R_RRR(p_mad24lo_u, "mad24.lo.u32")
A_R_RRR(p_mad24hi_s, "mad24.hi.s32")
A_R_RRR(p_mad24hi_sat, "mad24.hi.sat.s32")
A_R_RRR(p_madhi_s, "mad.hi.s32")
A_R_RRR(p_madhi_u, "mad.hi.u32")
A_R_RRR(p_madhi_sat, "mad.hi.sat.s32")
A_R_RR(p_add_sat, "add.sat.s32")
A_R_RR(p_sub_sat, "sub.sat.s32")
A_R_R(p_abs, "abs.s32")
A_R_R(p_neg, "neg.s32")
A_R_RR(p_shl, "shl.b32")
A_R_RR(p_shr_u, "shr.u32")
A_R_RR(p_shr_s, "shr.s32")
A_R_R(p_bfind_u, "bfind.u32")
A_R_R(p_bfind_s, "bfind.s32")
A_R_R(p_bfind_sh, "bfind.shiftamt.u32")
A_R_R(p_bfind_shs, "bfind.shiftamt.s32")
A_R_RRR(p_prmt, "prmt.b32")
A_R_RRR(p_prmt_f4e, "prmt.b32.f4e")
A_R_RRR(p_prmt_b4e, "prmt.b32.b4e")
A_R_RRR(p_prmt_rc8, "prmt.b32.rc8")
A_R_RRR(p_prmt_ecl, "prmt.b32.ecl")
A_R_RRR(p_prmt_ecr, "prmt.b32.ecr")
A_R_RRR(p_prmt_rc16, "prmt.b32.rc16")
A_R_RRR(p_bfe_u, "bfe.u32")
A_R_RRR(p_bfe_s, "bfe.s32")
A_R_RRRR(p_bfi, "bfi.b32")
A_R_RRR(p_dp4a_us, "dp4a.u32.s32")
A_R_RRR(p_dp4a_su, "dp4a.s32.u32")
A_R_RRR(p_dp2alo_su, "dp2a.lo.s32.u32")
A_R_RRR(p_dp2ahi_us, "dp2a.hi.u32.s32")
A_R_RR(p_set_lt, "set.lt.u32.s32")
A_R_RR(p_set_hi, "set.hi.u32.u32")
A_R_RR(p_set_ge_f, "set.ge.u32.f32")
A_R_RRR(p_slct_s, "slct.u32.s32")
A_R_RRR(p_slct_f, "slct.u32.f32")
A_R_R(p_cnot, "cnot.b32")
DEV uint32_t p_lop3_96(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
DEV uint32_t p_lop3_e8(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
DEV uint32_t p_lop3_2c(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm("lop3.b32 %0, %1, %2, %3, 0x2c;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }

/* immediate operands (a translator that emits C shifts by constants >= the width gets these wrong) */
#define IMM1(ins) asm(ins : "=r"(d) : "r"(a))
DEV uint32_t p_shl_imm(uint32_t a, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM1("shl.b32 %0, %1, 0;"); break;
    case 1: IMM1("shl.b32 %0, %1, 1;"); break;
    case 2: IMM1("shl.b32 %0, %1, 31;"); break;
    case 3: IMM1("shl.b32 %0, %1, 32;"); break;
    case 4: IMM1("shl.b32 %0, %1, 33;"); break;
    case 5: IMM1("shl.b32 %0, %1, 40;"); break;
    case 6: IMM1("shl.b32 %0, %1, 64;"); break;
    default: IMM1("shl.b32 %0, %1, 255;"); break;
    }
    return d;
}
DEV uint32_t p_shr_u_imm(uint32_t a, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM1("shr.u32 %0, %1, 0;"); break;
    case 1: IMM1("shr.u32 %0, %1, 1;"); break;
    case 2: IMM1("shr.u32 %0, %1, 31;"); break;
    case 3: IMM1("shr.u32 %0, %1, 32;"); break;
    case 4: IMM1("shr.u32 %0, %1, 33;"); break;
    case 5: IMM1("shr.u32 %0, %1, 40;"); break;
    case 6: IMM1("shr.u32 %0, %1, 64;"); break;
    default: IMM1("shr.u32 %0, %1, 1000;"); break;
    }
    return d;
}
DEV uint32_t p_shr_s_imm(uint32_t a, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM1("shr.s32 %0, %1, 0;"); break;
    case 1: IMM1("shr.s32 %0, %1, 1;"); break;
    case 2: IMM1("shr.s32 %0, %1, 31;"); break;
    case 3: IMM1("shr.s32 %0, %1, 32;"); break;
    case 4: IMM1("shr.s32 %0, %1, 33;"); break;
    case 5: IMM1("shr.s32 %0, %1, 40;"); break;
    case 6: IMM1("shr.s32 %0, %1, 64;"); break;
    default: IMM1("shr.s32 %0, %1, 1000;"); break;
    }
    return d;
}
DEV uint32_t p_bfe_imm(uint32_t a, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM1("bfe.u32 %0, %1, 0, 0;"); break;
    case 1: IMM1("bfe.u32 %0, %1, 0, 32;"); break;
    case 2: IMM1("bfe.s32 %0, %1, 8, 8;"); break;
    case 3: IMM1("bfe.s32 %0, %1, 31, 1;"); break;
    case 4: IMM1("bfe.s32 %0, %1, 28, 8;"); break;
    case 5: IMM1("bfe.s32 %0, %1, 20, 20;"); break;
    case 6: IMM1("bfe.u32 %0, %1, 4, 255;"); break;
    default: IMM1("bfe.u32 %0, %1, 31, 40;"); break;
    }
    return d;
}
/* immediate start positions >= 32. PTX's pseudo-code fills d with the field's sign bit (0 for
 * .u32 or a non-negative a); the H200 (nvcc 13.0, JIT from compute_75) returned 0xffffffff for
 * bfe.s32 here whatever a was, while register operands of the same values follow the
 * pseudo-code (i32.bfe_s). A section of its own so that this deviation stays visible apart. */
DEV uint32_t p_bfe_imm_pos32(uint32_t a, uint32_t s)
{
    uint32_t d;
    switch (s & 3) {
    case 0: IMM1("bfe.s32 %0, %1, 32, 4;"); break;
    case 1: IMM1("bfe.s32 %0, %1, 40, 40;"); break;
    case 2: IMM1("bfe.u32 %0, %1, 32, 4;"); break;
    default: IMM1("bfe.s32 %0, %1, 255, 1;"); break;
    }
    return d;
}
#define IMM2(ins) asm(ins : "=r"(d) : "r"(a), "r"(b))
DEV uint32_t p_bfi_imm(uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM2("bfi.b32 %0, %1, %2, 0, 0;"); break;
    case 1: IMM2("bfi.b32 %0, %1, %2, 0, 32;"); break;
    case 2: IMM2("bfi.b32 %0, %1, %2, 8, 8;"); break;
    case 3: IMM2("bfi.b32 %0, %1, %2, 31, 4;"); break;
    case 4: IMM2("bfi.b32 %0, %1, %2, 28, 8;"); break;
    case 5: IMM2("bfi.b32 %0, %1, %2, 32, 4;"); break;
    case 6: IMM2("bfi.b32 %0, %1, %2, 4, 255;"); break;
    default: IMM2("bfi.b32 %0, %1, %2, 255, 255;"); break;
    }
    return d;
}
DEV uint32_t p_prmt_imm(uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM2("prmt.b32 %0, %1, %2, 0x3210;"); break;
    case 1: IMM2("prmt.b32 %0, %1, %2, 0x0123;"); break;
    case 2: IMM2("prmt.b32 %0, %1, %2, 0x8888;"); break;
    case 3: IMM2("prmt.b32 %0, %1, %2, 0xba98;"); break;
    case 4: IMM2("prmt.b32 %0, %1, %2, 0x7654;"); break;
    case 5: IMM2("prmt.b32 %0, %1, %2, 0x1f9e;"); break;
    case 6: IMM2("prmt.b32.ecl %0, %1, %2, 2;"); break;
    default: IMM2("prmt.b32.rc16 %0, %1, %2, 1;"); break;
    }
    return d;
}
DEV uint32_t p_shf_imm(uint32_t a, uint32_t b, uint32_t s)
{
    uint32_t d;
    switch (s & 7) {
    case 0: IMM2("shf.l.wrap.b32 %0, %1, %2, 0;"); break;
    case 1: IMM2("shf.l.wrap.b32 %0, %1, %2, 33;"); break;
    case 2: IMM2("shf.l.clamp.b32 %0, %1, %2, 32;"); break;
    case 3: IMM2("shf.l.clamp.b32 %0, %1, %2, 40;"); break;
    case 4: IMM2("shf.r.wrap.b32 %0, %1, %2, 31;"); break;
    case 5: IMM2("shf.r.wrap.b32 %0, %1, %2, 64;"); break;
    case 6: IMM2("shf.r.clamp.b32 %0, %1, %2, 33;"); break;
    default: IMM2("shf.r.clamp.b32 %0, %1, %2, 255;"); break;
    }
    return d;
}

/* i64 */
A_L_LLL(p_madhi_s64, "mad.hi.s64")
A_L_LLL(p_madhi_u64, "mad.hi.u64")
A_L_L(p_abs64, "abs.s64")
A_L_L(p_neg64, "neg.s64")
A_L_LR(p_shl64, "shl.b64")
A_L_LR(p_shr_u64, "shr.u64")
A_L_LR(p_shr_s64, "shr.s64")
A_R_L(p_bfind_u64, "bfind.u64")
A_R_L(p_bfind_s64, "bfind.s64")
A_R_L(p_bfind_sh64, "bfind.shiftamt.u64")
A_L_LRR(p_bfe_u64, "bfe.u64")
A_L_LRR(p_bfe_s64, "bfe.s64")
A_L_LLRR(p_bfi64, "bfi.b64")
A_L_RRL(p_madwide_s, "mad.wide.s32")
A_L_RRL(p_madwide_u, "mad.wide.u32")
A_L_LLL(p_sad_s64, "sad.s64")
A_L_LLL(p_sad_u64, "sad.u64")
A_R_LL(p_set_lt64, "set.lt.u32.s64")
A_R_LL(p_set_hs64, "set.hs.u32.u64")
#define IMML(ins) asm(ins : "=l"(d) : "l"(a))
DEV u64 p_shl64_imm(u64 a, uint32_t s)
{
    u64 d;
    switch (s & 7) {
    case 0: IMML("shl.b64 %0, %1, 0;"); break;
    case 1: IMML("shl.b64 %0, %1, 1;"); break;
    case 2: IMML("shl.b64 %0, %1, 63;"); break;
    case 3: IMML("shl.b64 %0, %1, 64;"); break;
    case 4: IMML("shl.b64 %0, %1, 65;"); break;
    case 5: IMML("shl.b64 %0, %1, 32;"); break;
    case 6: IMML("shl.b64 %0, %1, 128;"); break;
    default: IMML("shl.b64 %0, %1, 255;"); break;
    }
    return d;
}
DEV u64 p_shr_s64_imm(u64 a, uint32_t s)
{
    u64 d;
    switch (s & 7) {
    case 0: IMML("shr.s64 %0, %1, 0;"); break;
    case 1: IMML("shr.u64 %0, %1, 63;"); break;
    case 2: IMML("shr.s64 %0, %1, 63;"); break;
    case 3: IMML("shr.s64 %0, %1, 64;"); break;
    case 4: IMML("shr.u64 %0, %1, 64;"); break;
    case 5: IMML("shr.s64 %0, %1, 65;"); break;
    case 6: IMML("shr.u64 %0, %1, 100;"); break;
    default: IMML("shr.s64 %0, %1, 1000;"); break;
    }
    return d;
}
DEV u64 p_bfe64_imm(u64 a, uint32_t s)
{
    u64 d;
    switch (s & 7) {
    case 0: IMML("bfe.u64 %0, %1, 0, 0;"); break;
    case 1: IMML("bfe.u64 %0, %1, 0, 64;"); break;
    case 2: IMML("bfe.s64 %0, %1, 32, 32;"); break;
    case 3: IMML("bfe.s64 %0, %1, 63, 1;"); break;
    case 4: IMML("bfe.s64 %0, %1, 60, 8;"); break;
    case 5: IMML("bfe.s64 %0, %1, 64, 4;"); break;
    case 6: IMML("bfe.u64 %0, %1, 4, 255;"); break;
    default: IMML("bfe.s64 %0, %1, 200, 100;"); break;
    }
    return d;
}

/* carry chains: top 33 bits of a 65-bit sum / borrow and high word of a difference */
DEV u64 p_addcc_hi(u64 x, u64 y)
{
    uint32_t lo, hi, cy;
    asm("add.cc.u32 %0, %3, %5;\n\taddc.cc.u32 %1, %4, %6;\n\taddc.u32 %2, 0, 0;"
        : "=r"(lo), "=r"(hi), "=r"(cy) : "r"((uint32_t)x), "r"((uint32_t)(x >> 32)), "r"((uint32_t)y), "r"((uint32_t)(y >> 32)));
    (void)lo;
    return ((u64)cy << 32) | hi;
}
DEV u64 p_subcc_hi(u64 x, u64 y)
{
    uint32_t lo, hi, bw;
    asm("sub.cc.u32 %0, %3, %5;\n\tsubc.cc.u32 %1, %4, %6;\n\tsubc.u32 %2, 0, 0;"
        : "=r"(lo), "=r"(hi), "=r"(bw) : "r"((uint32_t)x), "r"((uint32_t)(x >> 32)), "r"((uint32_t)y), "r"((uint32_t)(y >> 32)));
    (void)lo;
    return ((u64)bw << 32) | hi;
}
/* 96-bit add of (x, z.lo) + (y, z.hi): every word of a 3-word chain, folded into 64 bits */
DEV u64 p_add96(u64 x, u64 y, u64 z)
{
    uint32_t r0, r1, r2;
    asm("add.cc.u32 %0, %3, %5;\n\taddc.cc.u32 %1, %4, %6;\n\taddc.u32 %2, %7, %8;"
        : "=r"(r0), "=r"(r1), "=r"(r2)
        : "r"((uint32_t)x), "r"((uint32_t)(x >> 32)), "r"((uint32_t)y), "r"((uint32_t)(y >> 32)),
          "r"((uint32_t)z), "r"((uint32_t)(z >> 32)));
    return ((u64)r2 << 32) | (r1 ^ r0);
}
/* high 64 bits of the 128-bit product, schoolbook with mad.lo.cc / madc.hi */
DEV u64 p_mul128hi(u64 x, u64 y)
{
    uint32_t x0 = (uint32_t)x, x1 = (uint32_t)(x >> 32), y0 = (uint32_t)y, y1 = (uint32_t)(y >> 32);
    uint32_t r0, r1, r2, r3;
    asm("mul.lo.u32 %0, %4, %6;\n\t"
        "mul.hi.u32 %1, %4, %6;\n\t"
        "mad.lo.cc.u32 %1, %4, %7, %1;\n\t"
        "madc.hi.u32 %2, %4, %7, 0;\n\t"
        "mad.lo.cc.u32 %1, %5, %6, %1;\n\t"
        "madc.hi.cc.u32 %2, %5, %6, %2;\n\t"
        "madc.hi.u32 %3, %5, %7, 0;\n\t"
        "mad.lo.cc.u32 %2, %5, %7, %2;\n\t"
        "addc.u32 %3, %3, 0;"
        : "=&r"(r0), "=&r"(r1), "=&r"(r2), "=&r"(r3) : "r"(x0), "r"(x1), "r"(y0), "r"(y1));
    return ((u64)r3 << 32 | r2) ^ ((u64)r1 << 7) ^ r0;
}

/* n16 */
A_H_HH(p_add16, "add.u16")
A_H_HH(p_sub16, "sub.s16")
A_H_HH(p_mullo16, "mul.lo.s16")
A_H_HH(p_mulhi_s16, "mul.hi.s16")
A_H_HH(p_mulhi_u16, "mul.hi.u16")
A_H_HHH(p_madlo_u16, "mad.lo.u16")
A_H_HHH(p_madhi_s16, "mad.hi.s16")
A_H_HH(p_min_s16, "min.s16")
A_H_HH(p_max_u16, "max.u16")
A_H_H(p_abs16, "abs.s16")
A_H_H(p_neg16, "neg.s16")
A_H_HR(p_shl16, "shl.b16")
A_H_HR(p_shr_s16, "shr.s16")
A_H_HR(p_shr_u16, "shr.u16")
A_H_HHH(p_sad_u16, "sad.u16")
A_H_HHH(p_sad_s16, "sad.s16")
A_H_HH(p_div_s16, "div.s16")
A_H_HH(p_rem_u16, "rem.u16")
A_H_HH(p_rem_s16, "rem.s16")
A_R_HH(p_mulwide_s16, "mul.wide.s16")
A_R_HH(p_mulwide_u16, "mul.wide.u16")
A_R_HHR(p_madwide_s16, "mad.wide.s16")
A_H_HH(p_and16, "and.b16")
A_H_H(p_not16, "not.b16")
A_R_HH(p_set_lt16, "set.lt.u32.s16")

/* sm_70+ additions */
A_R_RR(p_szext_clamp_s, "szext.clamp.s32")
A_R_RR(p_szext_wrap_s, "szext.wrap.s32")
A_R_RR(p_szext_clamp_u, "szext.clamp.u32")
A_R_RR(p_szext_wrap_u, "szext.wrap.u32")
A_R_RR(p_bmsk_clamp, "bmsk.clamp.b32")
A_R_RR(p_bmsk_wrap, "bmsk.wrap.b32")
A_R_RR(p_pack_s16, "cvt.pack.sat.s16.s32")
A_R_RR(p_pack_u16, "cvt.pack.sat.u16.s32")

/* video (scalar and SIMD, written directly) */
A_R_RR(v_add_sat, "vadd.s32.s32.s32.sat")
A_R_RRR(v_sub_b0_add, "vsub.u32.u32.s32.add")
A_R_RRR(v_absdiff_min, "vabsdiff.u32.u32.u32.min")
A_R_RR(v_min_h, "vmin.s32.s32.s32")
A_R_RRR(v_max_max, "vmax.u32.s32.u32.max")
A_R_RR(v_shl_clamp, "vshl.u32.u32.u32.clamp")
A_R_RR(v_shr_wrap, "vshr.s32.s32.u32.wrap")
A_R_RRR(v_mad, "vmad.s32.s32.s32")
A_R_RR(v_set_lt, "vset.s32.u32.lt")
A_R_RRR(v_add2_sat, "vadd2.u32.u32.u32.sat")
A_R_RRR(v_sub4_sat, "vsub4.s32.s32.s32.sat")
A_R_RRR(v_avrg4, "vavrg4.u32.u32.u32")
A_R_RRR(v_absdiff2, "vabsdiff2.s32.s32.s32")
A_R_RRR(v_min2, "vmin2.s32.s32.s32")
A_R_RRR(v_max4_add, "vmax4.u32.u32.u32.add")
A_R_RRR(v_set4_ne, "vset4.u32.u32.ne")
A_R_RRR(v_set2_lt_add, "vset2.s32.s32.lt.add")
DEV uint32_t v_add_sel(uint32_t a, uint32_t b) { uint32_t d; asm("vadd.s32.s32.u32.sat %0, %1.b1, %2.h1;" : "=r"(d) : "r"(a), "r"(b)); return d; }
DEV uint32_t v_mad_sel(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm("vmad.s32.s32.u32 %0, %1.b3, %2.h0, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
DEV uint32_t v_min_merge(uint32_t a, uint32_t b, uint32_t c) { uint32_t d; asm("vmin.s32.s32.s32 %0.b2, %1.b0, %2.b3, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }

/* conversions */
A_D_F(p_f2d_ftz, "cvt.ftz.f64.f32")
A_H_F(p_f2h_rn_sat, "cvt.rn.sat.f16.f32")
A_H_F(p_f2h_rp_ftz, "cvt.rp.ftz.f16.f32")
A_F_F(p_rni_f32, "cvt.rni.f32.f32")
A_F_F(p_rzi_f32, "cvt.rzi.f32.f32")
A_F_F(p_rmi_f32, "cvt.rmi.f32.f32")
A_F_F(p_rpi_f32, "cvt.rpi.f32.f32")
A_F_F(p_sat_f32, "cvt.sat.f32.f32")
A_F_F(p_rzi_sat_f32, "cvt.rzi.sat.f32.f32")
A_F_F(p_ftz_f32, "cvt.ftz.f32.f32")
A_R_F(p_f2s8_rni, "cvt.rni.s8.f32")
A_R_F(p_f2u8_rzi, "cvt.rzi.u8.f32")
A_R_F(p_f2s16_rmi, "cvt.rmi.s16.f32")
A_R_F(p_f2u16_rpi, "cvt.rpi.u16.f32")
A_R_F(p_f2s8_sat, "cvt.rni.sat.s8.f32")
A_R_F(p_f2s32_sat, "cvt.rzi.sat.s32.f32")
A_H_F(p_f2u8_h, "cvt.rni.u8.f32")
A_H_F(p_f2s16_h, "cvt.rzi.s16.f32")
A_F_D(p_d2f_ftz, "cvt.rn.ftz.f32.f64")
A_H_D(p_d2h_rn, "cvt.rn.f16.f64")
A_H_D(p_d2h_rz, "cvt.rz.f16.f64")
A_D_D(p_rni_f64, "cvt.rni.f64.f64")
A_D_D(p_rzi_f64, "cvt.rzi.f64.f64")
A_D_D(p_rmi_f64, "cvt.rmi.f64.f64")
A_D_D(p_rpi_f64, "cvt.rpi.f64.f64")
A_D_D(p_sat_f64, "cvt.sat.f64.f64")
A_R_D(p_d2s8_rni, "cvt.rni.s8.f64")
A_R_D(p_d2u16_rzi, "cvt.rzi.u16.f64")
A_R_D(p_d2s16_rpi, "cvt.rpi.s16.f64")
A_R_D(p_d2u8_rmi, "cvt.rmi.u8.f64")
A_R_R(p_sat_u8_s32, "cvt.sat.u8.s32")
A_R_R(p_sat_s8_s32, "cvt.sat.s8.s32")
A_R_R(p_sat_u16_s32, "cvt.sat.u16.s32")
A_R_R(p_sat_s16_s32, "cvt.sat.s16.s32")
A_R_R(p_sat_u32_s32, "cvt.sat.u32.s32")
A_R_R(p_sat_s32_u32, "cvt.sat.s32.u32")
A_R_R(p_sat_s8_u32, "cvt.sat.s8.u32")
A_R_R(p_sat_u8_u32, "cvt.sat.u8.u32")
A_R_R(p_sat_s16_u32, "cvt.sat.s16.u32")
A_R_R(p_sat_u16_u32, "cvt.sat.u16.u32")
A_R_L(p_sat_s32_s64, "cvt.sat.s32.s64")
A_R_L(p_sat_u32_s64, "cvt.sat.u32.s64")
A_R_L(p_sat_s32_u64, "cvt.sat.s32.u64")
A_R_L(p_sat_u32_u64, "cvt.sat.u32.u64")
A_R_L(p_sat_s8_s64, "cvt.sat.s8.s64")
A_R_L(p_sat_u16_u64, "cvt.sat.u16.u64")
A_L_L(p_sat_s64_u64, "cvt.sat.s64.u64")
A_L_L(p_sat_u64_s64, "cvt.sat.u64.s64")
A_H_H(p_sat_u8_s16, "cvt.sat.u8.s16")
A_H_H(p_sat_s8_u16, "cvt.sat.s8.u16")
A_R_R(p_cvt_s8_s32, "cvt.s8.s32")
A_R_R(p_cvt_u8_s32, "cvt.u8.s32")
A_R_R(p_cvt_s16_u32, "cvt.s16.u32")
A_R_R(p_cvt_u16_s32, "cvt.u16.s32")
A_R_R(p_cvt_s32_s8, "cvt.s32.s8")
A_R_R(p_cvt_u32_s16, "cvt.u32.s16")
A_L_R(p_cvt_s64_s8, "cvt.s64.s8")
A_L_R(p_cvt_s64_s16, "cvt.s64.s16")
A_L_R(p_cvt_u64_s32, "cvt.u64.s32")
A_L_R(p_cvt_s64_u32, "cvt.s64.u32")
A_R_L(p_cvt_s32_s64, "cvt.s32.s64")
A_R_L(p_cvt_s16_s64, "cvt.s16.s64")
A_H_L(p_cvt_s8_u64h, "cvt.s8.u64")
A_H_R(p_cvt_u8_s32h, "cvt.u8.s32")
A_D_H(p_h2d, "cvt.f64.f16")
A_R_H(p_h2s8_rni, "cvt.rni.s8.f16")
A_R_H(p_h2u8_rzi, "cvt.rzi.u8.f16")

/* result packing: float kinds are recorded as their bit patterns */
DEV u64 FB(float x) { return __float_as_uint(x); }
DEV u64 DB(double x) { return (u64)__double_as_longlong(x); }
DEV u64 HB(__half x) { return __half_as_ushort(x); }
DEV u64 BB(__nv_bfloat16 x) { return __bfloat16_as_ushort(x); }
DEV uint32_t sdiv_safe(int32_t x, int32_t y) { int ok = y != 0 && !(x == INT_MIN && y == -1); int32_t q = x / (ok ? y : 1); return ok ? (uint32_t)q : 0xdeadbeefu; }
DEV uint32_t srem_safe(int32_t x, int32_t y) { int ok = y != 0 && !(x == INT_MIN && y == -1); int32_t q = x % (ok ? y : 1); return ok ? (uint32_t)q : 0xdeadbeefu; }
DEV uint32_t udiv_safe(uint32_t x, uint32_t y) { uint32_t q = x / (y ? y : 1u); return y ? q : 0xdeadbeefu; }
DEV uint32_t urem_safe(uint32_t x, uint32_t y) { uint32_t q = x % (y ? y : 1u); return y ? q : 0xdeadbeefu; }
DEV u64 sdiv64_safe(s64 x, s64 y) { int ok = y != 0 && !(x == LLONG_MIN && y == -1); s64 q = x / (ok ? y : 1); return ok ? (u64)q : 0xdeadbeefcafeull; }
DEV u64 srem64_safe(s64 x, s64 y) { int ok = y != 0 && !(x == LLONG_MIN && y == -1); s64 q = x % (ok ? y : 1); return ok ? (u64)q : 0xdeadbeefcafeull; }
DEV u64 udiv64_safe(u64 x, u64 y) { u64 q = x / (y ? y : 1ull); return y ? q : 0xdeadbeefcafeull; }
DEV u64 urem64_safe(u64 x, u64 y) { u64 q = x % (y ? y : 1ull); return y ? q : 0xdeadbeefcafeull; }
DEV uint16_t div16_safe(uint16_t x, uint16_t y) { int ok = y != 0 && !(x == 0x8000 && y == 0xffff); uint16_t q = p_div_s16(x, ok ? y : 1); return ok ? q : 0xbeef; }
DEV uint16_t rem16_safe(uint16_t x, uint16_t y) { int ok = y != 0 && !(x == 0x8000 && y == 0xffff); uint16_t q = p_rem_s16(x, ok ? y : 1); return ok ? q : 0xbeef; }
DEV uint16_t remu16_safe(uint16_t x, uint16_t y) { uint16_t q = p_rem_u16(x, y ? y : 1); return y ? q : 0xbeef; }
DEV u64 vib_s32(int x, int y, int mx) { bool p; int r = mx ? __vibmax_s32(x, y, &p) : __vibmin_s32(x, y, &p); return (u64)(uint32_t)r | ((u64)p << 32); }
DEV u64 vib_u32(unsigned x, unsigned y, int mx) { bool p; unsigned r = mx ? __vibmax_u32(x, y, &p) : __vibmin_u32(x, y, &p); return (u64)r | ((u64)p << 32); }
DEV u64 vib_s16x2(unsigned x, unsigned y, int mx) { bool ph, pl; unsigned r = mx ? __vibmax_s16x2(x, y, &ph, &pl) : __vibmin_s16x2(x, y, &ph, &pl); return (u64)r | ((u64)ph << 32) | ((u64)pl << 33); }
DEV u64 vib_u16x2(unsigned x, unsigned y, int mx) { bool ph, pl; unsigned r = mx ? __vibmax_u16x2(x, y, &ph, &pl) : __vibmin_u16x2(x, y, &ph, &pl); return (u64)r | ((u64)ph << 32) | ((u64)pl << 33); }
DEV u64 f2fp8(float x, int sat, int e5) { return __nv_cvt_float_to_fp8(x, sat ? __NV_SATFINITE : __NV_NOSAT, e5 ? __NV_E5M2 : __NV_E4M3); }
DEV u64 h2fp8(uint16_t x, int sat, int e5) { __half_raw r; r.x = x; return __nv_cvt_halfraw_to_fp8(r, sat ? __NV_SATFINITE : __NV_NOSAT, e5 ? __NV_E5M2 : __NV_E4M3); }
DEV u64 bf2fp8(uint16_t x, int sat, int e5) { __nv_bfloat16_raw r; r.x = x; return __nv_cvt_bfloat16raw_to_fp8(r, sat ? __NV_SATFINITE : __NV_NOSAT, e5 ? __NV_E5M2 : __NV_E4M3); }
DEV u64 fp8h(uint32_t x, int e5) { __half_raw r = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)x, e5 ? __NV_E5M2 : __NV_E4M3); return r.x; }
DEV u64 fp6h(uint32_t x, int e3) { __half_raw r = __nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)(x & 63), e3 ? __NV_E3M2 : __NV_E2M3); return r.x; }
DEV u64 fp4h(uint32_t x) { __half_raw r = __nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)(x & 15), __NV_E2M1); return r.x; }

/* ------------------------------------------------------------------------------------------ */
/* operation lists: X(name, kind, expression)                                                  */
/* available: A B C (u64), a b c (u32), sa sb sc (s32), SA SB SC (s64), s p (u32 amounts),     */
/* fa fb (float of a, b), da (double of A), ha (half of a), bfa (bf16 of a), h16 (u16 of a)    */
/* ------------------------------------------------------------------------------------------ */
#define OPS_I32(X) \
    X(add, U32, a + b) X(sub, U32, a - b) X(mul, U32, a * b) \
    X(mulhi, U32, __mulhi(sa, sb)) X(umulhi, U32, __umulhi(a, b)) \
    X(mul24, U32, __mul24(sa, sb)) X(umul24, U32, __umul24(a, b)) \
    X(mul24lo_s, U32, p_mul24lo_s(a, b)) X(mul24hi_s, U32, p_mul24hi_s(a, b)) X(mul24hi_u, U32, p_mul24hi_u(a, b)) \
    X(mad24lo_u, U32, p_mad24lo_u(a, b, c)) X(mad24hi_s, U32, p_mad24hi_s(a, b, c)) X(mad24hi_sat, U32, p_mad24hi_sat(a, b, c)) \
    X(mad, U32, a * b + c) X(madhi_s, U32, p_madhi_s(a, b, c)) X(madhi_u, U32, p_madhi_u(a, b, c)) \
    X(madhi_sat, U32, p_madhi_sat(a, b, c)) X(add_sat, U32, p_add_sat(a, b)) X(sub_sat, U32, p_sub_sat(a, b)) \
    X(udiv, U32, udiv_safe(a, b)) X(urem, U32, urem_safe(a, b)) X(sdiv, U32, sdiv_safe(sa, sb)) X(srem, U32, srem_safe(sa, sb)) \
    X(udiv7, U32, a / 7u) X(udiv_big, U32, a / 0x80000001u) X(sdiv_m3, U32, sa / -3) X(srem10, U32, sa % 10) \
    X(sdiv16, U32, sa / 16) X(srem8, U32, sa % 8) X(mul_const, U32, a * 0x9e3779b9u) \
    X(min_s, U32, min(sa, sb)) X(min_u, U32, umin(a, b)) X(max_s, U32, max(sa, sb)) X(max_u, U32, umax(a, b)) \
    X(abs, U32, p_abs(a)) X(neg, U32, p_neg(a)) \
    X(sad_s, U32, __sad(sa, sb, c)) X(sad_u, U32, __usad(a, b, c)) \
    X(hadd, U32, __hadd(sa, sb)) X(rhadd, U32, __rhadd(sa, sb)) X(uhadd, U32, __uhadd(a, b)) X(urhadd, U32, __urhadd(a, b)) \
    X(shl, U32, p_shl(a, s)) X(shr_u, U32, p_shr_u(a, s)) X(shr_s, U32, p_shr_s(a, s)) \
    X(shl_c, U32, a << (s & 31)) X(shr_s_c, U32, sa >> (s & 31)) X(rotl, U32, (a << (s & 31)) | (a >> ((32 - s) & 31))) \
    X(shl_imm, U32, p_shl_imm(a, s)) X(shr_u_imm, U32, p_shr_u_imm(a, s)) X(shr_s_imm, U32, p_shr_s_imm(a, s)) \
    X(fshl, U32, __funnelshift_l(a, b, s)) X(fshr, U32, __funnelshift_r(a, b, s)) \
    X(fshlc, U32, __funnelshift_lc(a, b, s)) X(fshrc, U32, __funnelshift_rc(a, b, s)) X(shf_imm, U32, p_shf_imm(a, b, s)) \
    X(brev, U32, __brev(a)) X(clz, U32, __clz(sa)) X(ffs, U32, __ffs(sa)) X(popc, U32, __popc(a)) \
    X(bfind_u, U32, p_bfind_u(a)) X(bfind_s, U32, p_bfind_s(a)) X(bfind_sh, U32, p_bfind_sh(a)) X(bfind_shs, U32, p_bfind_shs(a)) \
    X(fns, U32, __fns(a, s & 31, (int)(p % 67u) - 33)) \
    X(byte_perm, U32, __byte_perm(a, b, c)) X(prmt, U32, p_prmt(a, b, c)) \
    X(prmt_f4e, U32, p_prmt_f4e(a, b, c)) X(prmt_b4e, U32, p_prmt_b4e(a, b, c)) X(prmt_rc8, U32, p_prmt_rc8(a, b, c)) \
    X(prmt_ecl, U32, p_prmt_ecl(a, b, c)) X(prmt_ecr, U32, p_prmt_ecr(a, b, c)) X(prmt_rc16, U32, p_prmt_rc16(a, b, c)) \
    X(prmt_imm, U32, p_prmt_imm(a, b, s)) \
    X(bfe_u, U32, p_bfe_u(a, s, p)) X(bfe_s, U32, p_bfe_s(a, s, p)) X(bfi, U32, p_bfi(a, b, s, p)) \
    X(bfe_imm, U32, p_bfe_imm(a, s)) X(bfi_imm, U32, p_bfi_imm(a, b, s)) X(bfe_imm_pos32, U32, p_bfe_imm_pos32(a, s)) \
    X(dp4a_ss, U32, __dp4a(sa, sb, sc)) X(dp4a_uu, U32, __dp4a(a, b, c)) X(dp4a_us, U32, p_dp4a_us(a, b, c)) X(dp4a_su, U32, p_dp4a_su(a, b, c)) \
    X(dp2alo_ss, U32, __dp2a_lo(sa, sb, sc)) X(dp2alo_uu, U32, __dp2a_lo(a, b, c)) X(dp2ahi_ss, U32, __dp2a_hi(sa, sb, sc)) \
    X(dp2ahi_uu, U32, __dp2a_hi(a, b, c)) X(dp2alo_su, U32, p_dp2alo_su(a, b, c)) X(dp2ahi_us, U32, p_dp2ahi_us(a, b, c)) \
    X(lop3_96, U32, p_lop3_96(a, b, c)) X(lop3_e8, U32, p_lop3_e8(a, b, c)) X(lop3_2c, U32, p_lop3_2c(a, b, c)) \
    X(set_lt, U32, p_set_lt(a, b)) X(set_hi, U32, p_set_hi(a, b)) X(set_ge_f, U32, p_set_ge_f(a, c)) X(setp_sel, U32, sa < sb ? a : c) \
    X(slct_s, U32, p_slct_s(a, b, c)) X(slct_f, U32, p_slct_f(a, b, c)) X(cnot, U32, p_cnot(a)) \
    X(sext8, U32, (int)(int8_t)a) X(sext16, U32, (int)(int16_t)a)

/* 64-bit bfe/bfi: PTX's pseudo-code uses pos & 0xff and len & 0xff. The H200 does so for
 * pos, len <= 255 (and for 32-bit bfe/bfi always), but not for 64-bit operands above 255
 * (e.g. bfe.u64 with pos 0x80000000 gave 0, bfi.b64 with len 0x120 behaved unlike len 0x20):
 * bfe_u/bfe_s/bfi pass pos & 255, len & 255; the *_raw sections keep the full operands. */
#define OPS_I64(X) \
    X(add, U64, A + B) X(sub, U64, A - B) X(mul, U64, A * B) \
    X(mulhi, U64, __mul64hi(SA, SB)) X(umulhi, U64, __umul64hi(A, B)) \
    X(mad, U64, A * B + C) X(madhi_s, U64, p_madhi_s64(A, B, C)) X(madhi_u, U64, p_madhi_u64(A, B, C)) \
    X(udiv, U64, udiv64_safe(A, B)) X(urem, U64, urem64_safe(A, B)) X(sdiv, U64, sdiv64_safe(SA, SB)) X(srem, U64, srem64_safe(SA, SB)) \
    X(udiv10, U64, A / 10ull) X(sdiv_m7, U64, SA / -7) X(srem_big, U64, SA % 0x100000001ll) X(udiv_pow, U64, A / 0x8000000000000001ull) \
    X(min_s, U64, llmin(SA, SB)) X(min_u, U64, ullmin(A, B)) X(max_s, U64, llmax(SA, SB)) X(max_u, U64, ullmax(A, B)) \
    X(abs, U64, p_abs64(A)) X(neg, U64, p_neg64(A)) \
    X(shl, U64, p_shl64(A, s)) X(shr_u, U64, p_shr_u64(A, s)) X(shr_s, U64, p_shr_s64(A, s)) \
    X(shl_c, U64, A << (s & 63)) X(shr_s_c, U64, SA >> (s & 63)) X(rotl, U64, (A << (s & 63)) | (A >> ((64 - s) & 63))) \
    X(shl_imm, U64, p_shl64_imm(A, s)) X(shr_imm, U64, p_shr_s64_imm(A, s)) \
    X(brev, U64, __brevll(A)) X(clz, U32, __clzll(SA)) X(ffs, U32, __ffsll(SA)) X(popc, U32, __popcll(A)) \
    X(bfind_u, U32, p_bfind_u64(A)) X(bfind_s, U32, p_bfind_s64(A)) X(bfind_sh, U32, p_bfind_sh64(A)) \
    X(bfe_u, U64, p_bfe_u64(A, s & 255, p & 255)) X(bfe_s, U64, p_bfe_s64(A, s & 255, p & 255)) \
    X(bfi, U64, p_bfi64(A, B, s & 255, p & 255)) X(bfe_imm, U64, p_bfe64_imm(A, s)) \
    X(bfe_u_raw, U64, p_bfe_u64(A, s, p)) X(bfe_s_raw, U64, p_bfe_s64(A, s, p)) X(bfi_raw, U64, p_bfi64(A, B, s, p)) \
    X(mulwide_s, U64, (s64)sa * sb) X(mulwide_u, U64, (u64)a * b) \
    X(madwide_s, U64, p_madwide_s(a, b, C)) X(madwide_u, U64, p_madwide_u(a, b, C)) \
    X(addcc_hi, U64, p_addcc_hi(A, B)) X(subcc_hi, U64, p_subcc_hi(A, B)) X(add96, U64, p_add96(A, B, C)) X(mul128hi, U64, p_mul128hi(A, B)) \
    X(sad_s, U64, p_sad_s64(A, B, C)) X(sad_u, U64, p_sad_u64(A, B, C)) \
    X(set_lt, U32, p_set_lt64(A, B)) X(set_hs, U32, p_set_hs64(A, B)) X(setp_sel, U64, SA < SB ? A : C) \
    X(sext32, U64, (s64)sa) X(add_sext, U64, A + sb) X(swap32, U64, (A >> 32) | (A << 32)) \
    X(logic, U64, (A & B) | (~A & C))

#define H16 ((uint16_t)a)
#define H16B ((uint16_t)b)
#define H16C ((uint16_t)c)
#define S16 ((int16_t)a)
#define S16B ((int16_t)b)
#define OPS_N16(X) \
    X(add, U16, (int16_t)(S16 + S16B)) X(sub, U16, (int16_t)(S16 - S16B)) X(mul, U16, (int16_t)(S16 * S16B)) \
    X(div, U16, (int16_t)(S16 / (S16B ? S16B : 1))) X(rem, U16, (int16_t)(S16 % (S16B ? S16B : 1))) \
    X(udiv, U16, (uint16_t)(H16 / (H16B ? H16B : 1))) X(urem, U16, (uint16_t)(H16 % (H16B ? H16B : 1))) \
    X(min, U16, S16 < S16B ? S16 : S16B) X(umax, U16, H16 > H16B ? H16 : H16B) \
    X(shr, U16, (int16_t)(S16 >> (s & 15))) X(shl, U16, (uint16_t)(H16 << (s & 15))) X(ushr, U16, (uint16_t)(H16 >> (s & 15))) \
    X(avg, U16, (int16_t)((S16 + S16B + 1) >> 1)) X(absv, U16, (int16_t)abs((int)S16)) X(negv, U16, (int16_t)-S16) \
    X(mulhi, U16, (int16_t)(((int)S16 * S16B) >> 16)) X(umulhi, U16, (uint16_t)(((uint32_t)H16 * H16B) >> 16)) \
    X(p_add, U16, p_add16(H16, H16B)) X(p_sub, U16, p_sub16(H16, H16B)) X(p_mullo, U16, p_mullo16(H16, H16B)) \
    X(p_mulhi_s, U16, p_mulhi_s16(H16, H16B)) X(p_mulhi_u, U16, p_mulhi_u16(H16, H16B)) \
    X(p_madlo_u, U16, p_madlo_u16(H16, H16B, H16C)) X(p_madhi_s, U16, p_madhi_s16(H16, H16B, H16C)) \
    X(p_min_s, U16, p_min_s16(H16, H16B)) X(p_max_u, U16, p_max_u16(H16, H16B)) X(p_abs, U16, p_abs16(H16)) X(p_neg, U16, p_neg16(H16)) \
    X(p_shl, U16, p_shl16(H16, s)) X(p_shr_s, U16, p_shr_s16(H16, s)) X(p_shr_u, U16, p_shr_u16(H16, s)) \
    X(p_sad_u, U16, p_sad_u16(H16, H16B, H16C)) X(p_sad_s, U16, p_sad_s16(H16, H16B, H16C)) \
    X(p_div_s, U16, div16_safe(H16, H16B)) X(p_rem_s, U16, rem16_safe(H16, H16B)) X(p_rem_u, U16, remu16_safe(H16, H16B)) \
    X(p_mulwide_s, U32, p_mulwide_s16(H16, H16B)) X(p_mulwide_u, U32, p_mulwide_u16(H16, H16B)) \
    X(p_madwide_s, U32, p_madwide_s16(H16, H16B, c)) X(p_logic, U16, p_not16(p_and16(H16, H16B))) X(p_set_lt, U32, p_set_lt16(H16, H16B))

#define S8 ((int8_t)a)
#define S8B ((int8_t)b)
#define U8A ((uint8_t)a)
#define U8B ((uint8_t)b)
#define OPS_N8(X) \
    X(add, U8, (int8_t)(S8 + S8B)) X(sub, U8, (int8_t)(S8 - S8B)) X(mul, U8, (int8_t)(S8 * S8B)) \
    X(div, U8, (int8_t)(S8 / (S8B ? S8B : 1))) X(rem, U8, (int8_t)(S8 % (S8B ? S8B : 1))) \
    X(udiv, U8, (uint8_t)(U8A / (U8B ? U8B : 1))) X(urem, U8, (uint8_t)(U8A % (U8B ? U8B : 1))) \
    X(min, U8, S8 < S8B ? S8 : S8B) X(umax, U8, U8A > U8B ? U8A : U8B) \
    X(shr, U8, (int8_t)(S8 >> (s & 7))) X(shl, U8, (uint8_t)(U8A << (s & 7))) X(ushr, U8, (uint8_t)(U8A >> (s & 7))) \
    X(avg, U8, (int8_t)((S8 + S8B + 1) >> 1)) X(absv, U8, (int8_t)abs((int)S8)) X(negv, U8, (int8_t)-S8) \
    X(umulhi, U8, (uint8_t)((U8A * U8B) >> 8)) X(mulhi, U8, (int8_t)((S8 * S8B) >> 8)) X(mixmul, U8, (int8_t)(S8 * U8B)) \
    X(cmp, U8, (S8 < S8B) + 2 * (U8A < U8B) + 4 * (S8 == S8B)) X(sat_add, U8, (int8_t)max(-128, min(127, S8 + S8B)))

#define OPS_SIMD(X) \
    X(vabs2, U32, __vabs2(a)) X(vabsss2, U32, __vabsss2(a)) X(vneg2, U32, __vneg2(a)) X(vneg4, U32, __vneg4(a)) \
    X(vnegss2, U32, __vnegss2(a)) X(vnegss4, U32, __vnegss4(a)) \
    X(vabsdiffs2, U32, __vabsdiffs2(a, b)) X(vabsdiffu2, U32, __vabsdiffu2(a, b)) \
    X(vadd2, U32, __vadd2(a, b)) X(vadd4, U32, __vadd4(a, b)) X(vaddss2, U32, __vaddss2(a, b)) X(vaddss4, U32, __vaddss4(a, b)) \
    X(vaddus2, U32, __vaddus2(a, b)) X(vaddus4, U32, __vaddus4(a, b)) X(vavgs2, U32, __vavgs2(a, b)) X(vavgs4, U32, __vavgs4(a, b)) \
    X(vavgu2, U32, __vavgu2(a, b)) X(vavgu4, U32, __vavgu4(a, b)) X(vcmpeq2, U32, __vcmpeq2(a, b)) X(vcmpeq4, U32, __vcmpeq4(a, b)) \
    X(vcmpges2, U32, __vcmpges2(a, b)) X(vcmpges4, U32, __vcmpges4(a, b)) X(vcmpgeu2, U32, __vcmpgeu2(a, b)) X(vcmpgeu4, U32, __vcmpgeu4(a, b)) \
    X(vcmpgts2, U32, __vcmpgts2(a, b)) X(vcmpgts4, U32, __vcmpgts4(a, b)) X(vcmpgtu2, U32, __vcmpgtu2(a, b)) X(vcmpgtu4, U32, __vcmpgtu4(a, b)) \
    X(vcmples2, U32, __vcmples2(a, b)) X(vcmples4, U32, __vcmples4(a, b)) X(vcmpleu2, U32, __vcmpleu2(a, b)) X(vcmpleu4, U32, __vcmpleu4(a, b)) \
    X(vcmplts2, U32, __vcmplts2(a, b)) X(vcmplts4, U32, __vcmplts4(a, b)) X(vcmpltu2, U32, __vcmpltu2(a, b)) X(vcmpltu4, U32, __vcmpltu4(a, b)) \
    X(vcmpne2, U32, __vcmpne2(a, b)) X(vcmpne4, U32, __vcmpne4(a, b)) X(vhaddu2, U32, __vhaddu2(a, b)) X(vhaddu4, U32, __vhaddu4(a, b)) \
    X(vmaxs2, U32, __vmaxs2(a, b)) X(vmaxs4, U32, __vmaxs4(a, b)) X(vmaxu2, U32, __vmaxu2(a, b)) X(vmaxu4, U32, __vmaxu4(a, b)) \
    X(vmins2, U32, __vmins2(a, b)) X(vmins4, U32, __vmins4(a, b)) X(vminu2, U32, __vminu2(a, b)) X(vminu4, U32, __vminu4(a, b)) \
    X(vsads2, U32, __vsads2(a, b)) \
    X(vseteq2, U32, __vseteq2(a, b)) X(vseteq4, U32, __vseteq4(a, b)) X(vsetges2, U32, __vsetges2(a, b)) X(vsetges4, U32, __vsetges4(a, b)) \
    X(vsetgeu2, U32, __vsetgeu2(a, b)) X(vsetgeu4, U32, __vsetgeu4(a, b)) X(vsetgts2, U32, __vsetgts2(a, b)) X(vsetgts4, U32, __vsetgts4(a, b)) \
    X(vsetgtu2, U32, __vsetgtu2(a, b)) X(vsetgtu4, U32, __vsetgtu4(a, b)) X(vsetles2, U32, __vsetles2(a, b)) X(vsetles4, U32, __vsetles4(a, b)) \
    X(vsetleu2, U32, __vsetleu2(a, b)) X(vsetleu4, U32, __vsetleu4(a, b)) X(vsetlts2, U32, __vsetlts2(a, b)) X(vsetlts4, U32, __vsetlts4(a, b)) \
    X(vsetltu2, U32, __vsetltu2(a, b)) X(vsetltu4, U32, __vsetltu4(a, b)) X(vsetne2, U32, __vsetne2(a, b)) X(vsetne4, U32, __vsetne4(a, b)) \
    X(vsub2, U32, __vsub2(a, b)) X(vsub4, U32, __vsub4(a, b)) X(vsubss2, U32, __vsubss2(a, b)) X(vsubss4, U32, __vsubss4(a, b)) \
    X(vsubus2, U32, __vsubus2(a, b)) X(vsubus4, U32, __vsubus4(a, b)) \
    X(vimax3_s32, U32, __vimax3_s32(sa, sb, sc)) X(vimax3_u32, U32, __vimax3_u32(a, b, c)) \
    X(vimin3_s32, U32, __vimin3_s32(sa, sb, sc)) X(vimin3_u32, U32, __vimin3_u32(a, b, c)) \
    X(vimax3_s16x2, U32, __vimax3_s16x2(a, b, c)) X(vimax3_u16x2, U32, __vimax3_u16x2(a, b, c)) \
    X(vimin3_s16x2, U32, __vimin3_s16x2(a, b, c)) X(vimin3_u16x2, U32, __vimin3_u16x2(a, b, c)) \
    X(vimax3_s32_relu, U32, __vimax3_s32_relu(sa, sb, sc)) X(vimin3_s16x2_relu, U32, __vimin3_s16x2_relu(a, b, c)) \
    X(vimax_s32_relu, U32, __vimax_s32_relu(sa, sb)) X(vimax_s16x2_relu, U32, __vimax_s16x2_relu(a, b)) \
    X(vimin_s32_relu, U32, __vimin_s32_relu(sa, sb)) X(vimin_s16x2_relu, U32, __vimin_s16x2_relu(a, b)) \
    X(viaddmax_s32, U32, __viaddmax_s32(sa, sb, sc)) X(viaddmax_u16x2, U32, __viaddmax_u16x2(a, b, c)) \
    X(viaddmin_s16x2, U32, __viaddmin_s16x2(a, b, c)) X(viaddmin_u32, U32, __viaddmin_u32(a, b, c)) \
    X(viaddmax_s32_relu, U32, __viaddmax_s32_relu(sa, sb, sc)) X(viaddmin_s16x2_relu, U32, __viaddmin_s16x2_relu(a, b, c)) \
    X(vibmax_s32, U64, vib_s32(sa, sb, 1)) X(vibmin_u32, U64, vib_u32(a, b, 0)) \
    X(vibmax_s16x2, U64, vib_s16x2(a, b, 1)) X(vibmin_u16x2, U64, vib_u16x2(a, b, 0))

#define OPS_SIMDV(X) \
    X(vabs4, U32, __vabs4(a)) X(vabsss4, U32, __vabsss4(a)) X(vabsdiffs4, U32, __vabsdiffs4(a, b)) \
    X(vabsdiffu4, U32, __vabsdiffu4(a, b)) X(vsads4, U32, __vsads4(a, b)) X(vsadu2, U32, __vsadu2(a, b)) X(vsadu4, U32, __vsadu4(a, b))

#define OPS_VID(X) \
    X(vadd_sat, U32, v_add_sat(a, b)) X(vsub_add, U32, v_sub_b0_add(a, b, c)) X(vabsdiff_min, U32, v_absdiff_min(a, b, c)) \
    X(vmin, U32, v_min_h(a, b)) X(vmax_max, U32, v_max_max(a, b, c)) X(vshl_clamp, U32, v_shl_clamp(a, s)) \
    X(vshr_wrap, U32, v_shr_wrap(a, s)) X(vmad, U32, v_mad(a, b, c)) X(vset_lt, U32, v_set_lt(a, b)) \
    X(vadd2_sat, U32, v_add2_sat(a, b, c)) X(vsub4_sat, U32, v_sub4_sat(a, b, c)) X(vavrg4, U32, v_avrg4(a, b, c)) \
    X(vabsdiff2, U32, v_absdiff2(a, b, c)) X(vmin2, U32, v_min2(a, b, c)) X(vmax4_add, U32, v_max4_add(a, b, c)) \
    X(vset4_ne, U32, v_set4_ne(a, b, c)) X(vset2_lt_add, U32, v_set2_lt_add(a, b, c)) \
    X(vadd_sel, U32, v_add_sel(a, b)) X(vmad_sel, U32, v_mad_sel(a, b, c)) X(vmin_merge, U32, v_min_merge(a, b, c))

#define OPS_SZEXT(X) \
    X(clamp_s, U32, p_szext_clamp_s(a, s)) X(wrap_s, U32, p_szext_wrap_s(a, s)) \
    X(clamp_u, U32, p_szext_clamp_u(a, s)) X(wrap_u, U32, p_szext_wrap_u(a, s))
#define OPS_BMSK(X) X(clamp, U32, p_bmsk_clamp(s, p)) X(wrap, U32, p_bmsk_wrap(s, p))
#define OPS_PACK(X) X(sat_s16, U32, p_pack_s16(a, b)) X(sat_u16, U32, p_pack_u16(a, b))

#define OPS_CF(X) \
    X(f2i_rn, U32, __float2int_rn(fa)) X(f2i_rz, U32, __float2int_rz(fa)) X(f2i_rd, U32, __float2int_rd(fa)) X(f2i_ru, U32, __float2int_ru(fa)) \
    X(f2u_rn, U32, __float2uint_rn(fa)) X(f2u_rz, U32, __float2uint_rz(fa)) X(f2u_rd, U32, __float2uint_rd(fa)) X(f2u_ru, U32, __float2uint_ru(fa)) \
    X(f2ll_rn, U64, __float2ll_rn(fa)) X(f2ll_rz, U64, __float2ll_rz(fa)) X(f2ll_rd, U64, __float2ll_rd(fa)) X(f2ll_ru, U64, __float2ll_ru(fa)) \
    X(f2ull_rn, U64, __float2ull_rn(fa)) X(f2ull_rz, U64, __float2ull_rz(fa)) X(f2ull_rd, U64, __float2ull_rd(fa)) X(f2ull_ru, U64, __float2ull_ru(fa)) \
    X(f2d, F64, DB((double)fa)) X(f2d_ftz, F64, DB(p_f2d_ftz(fa))) \
    X(f2h_rn, F16, HB(__float2half_rn(fa))) X(f2h_rz, F16, HB(__float2half_rz(fa))) \
    X(f2h_ru, F16, HB(__float2half_ru(fa))) X(f2h_rd, F16, HB(__float2half_rd(fa))) \
    X(f2h_sat, F16, p_f2h_rn_sat(fa)) X(f2h_rp_ftz, F16, p_f2h_rp_ftz(fa)) \
    X(f2bf_rn, BF16, BB(__float2bfloat16_rn(fa))) X(f2bf_rz, BF16, BB(__float2bfloat16_rz(fa))) \
    X(f2bf_ru, BF16, BB(__float2bfloat16_ru(fa))) X(f2bf_rd, BF16, BB(__float2bfloat16_rd(fa))) \
    X(rni, F32, FB(p_rni_f32(fa))) X(rzi, F32, FB(p_rzi_f32(fa))) X(rmi, F32, FB(p_rmi_f32(fa))) X(rpi, F32, FB(p_rpi_f32(fa))) \
    X(sat, F32, FB(__saturatef(fa))) X(sat_p, F32, FB(p_sat_f32(fa))) X(rzi_sat, F32, FB(p_rzi_sat_f32(fa))) X(ftz, F32, FB(p_ftz_f32(fa))) \
    X(f2s8_rni, U32, p_f2s8_rni(fa)) X(f2u8_rzi, U32, p_f2u8_rzi(fa)) X(f2s16_rmi, U32, p_f2s16_rmi(fa)) \
    X(f2u16_rpi, U32, p_f2u16_rpi(fa)) X(f2s8_sat, U32, p_f2s8_sat(fa)) X(f2s32_sat, U32, p_f2s32_sat(fa)) \
    X(f2u8_h, U16, p_f2u8_h(fa)) X(f2s16_h, U16, p_f2s16_h(fa)) \
    X(e4m3_sat, U8, f2fp8(fa, 1, 0)) X(e4m3, U8, f2fp8(fa, 0, 0)) X(e5m2_sat, U8, f2fp8(fa, 1, 1)) X(e5m2, U8, f2fp8(fa, 0, 1)) \
    X(e2m1, U8, __nv_cvt_float_to_fp4(fa, __NV_E2M1, cudaRoundNearest)) \
    X(e2m3, U8, __nv_cvt_float_to_fp6(fa, __NV_E2M3, cudaRoundNearest)) X(e3m2, U8, __nv_cvt_float_to_fp6(fa, __NV_E3M2, cudaRoundNearest)) \
    X(e8m0_rz, U8, __nv_cvt_float_to_e8m0(fa, __NV_SATFINITE, cudaRoundZero)) \
    X(e8m0_ru, U8, __nv_cvt_float_to_e8m0(fa, __NV_NOSAT, cudaRoundPosInf)) \
    X(f2h2f, F32, FB(__half2float(__float2half_rn(fa)))) X(f2bf2f, F32, FB(__bfloat162float(__float2bfloat16_rn(fa)))) \
    X(bits_sel, U32, __float_as_uint((s & 1) ? fa : fb)) X(hi_lo_f, U32, __float_as_int(__int_as_float(sa ^ sb)))

#define OPS_CD(X) \
    X(d2i_rn, U32, __double2int_rn(da)) X(d2i_rz, U32, __double2int_rz(da)) X(d2i_rd, U32, __double2int_rd(da)) X(d2i_ru, U32, __double2int_ru(da)) \
    X(d2u_rn, U32, __double2uint_rn(da)) X(d2u_rz, U32, __double2uint_rz(da)) X(d2u_rd, U32, __double2uint_rd(da)) X(d2u_ru, U32, __double2uint_ru(da)) \
    X(d2ll_rn, U64, __double2ll_rn(da)) X(d2ll_rz, U64, __double2ll_rz(da)) X(d2ll_rd, U64, __double2ll_rd(da)) X(d2ll_ru, U64, __double2ll_ru(da)) \
    X(d2ull_rn, U64, __double2ull_rn(da)) X(d2ull_rz, U64, __double2ull_rz(da)) X(d2ull_rd, U64, __double2ull_rd(da)) X(d2ull_ru, U64, __double2ull_ru(da)) \
    X(d2f_rn, F32, FB(__double2float_rn(da))) X(d2f_rz, F32, FB(__double2float_rz(da))) \
    X(d2f_ru, F32, FB(__double2float_ru(da))) X(d2f_rd, F32, FB(__double2float_rd(da))) X(d2f_ftz, F32, FB(p_d2f_ftz(da))) \
    X(d2h, F16, HB(__double2half(da))) X(d2h_rn, F16, p_d2h_rn(da)) X(d2h_rz, F16, p_d2h_rz(da)) X(d2bf, BF16, BB(__double2bfloat16(da))) \
    X(rni, F64, DB(p_rni_f64(da))) X(rzi, F64, DB(p_rzi_f64(da))) X(rmi, F64, DB(p_rmi_f64(da))) X(rpi, F64, DB(p_rpi_f64(da))) \
    X(sat, F64, DB(p_sat_f64(da))) \
    X(d2s8_rni, U32, p_d2s8_rni(da)) X(d2u16_rzi, U32, p_d2u16_rzi(da)) X(d2s16_rpi, U32, p_d2s16_rpi(da)) X(d2u8_rmi, U32, p_d2u8_rmi(da)) \
    X(hiint, U32, __double2hiint(da)) X(loint, U32, __double2loint(da)) \
    X(hilo_swap, U64, (u64)__double_as_longlong(__hiloint2double(__double2loint(da), __double2hiint(da)))) \
    X(e4m3_sat, U8, __nv_cvt_double_to_fp8(da, __NV_SATFINITE, __NV_E4M3)) X(e5m2, U8, __nv_cvt_double_to_fp8(da, __NV_NOSAT, __NV_E5M2)) \
    X(d2f2d, F64, DB((double)__double2float_rn(da))) X(bits_sel, U64, (u64)__double_as_longlong((s & 1) ? da : __longlong_as_double(SB)))

#define OPS_CI(X) \
    X(i2f_rn, F32, FB(__int2float_rn(sa))) X(i2f_rz, F32, FB(__int2float_rz(sa))) X(i2f_ru, F32, FB(__int2float_ru(sa))) X(i2f_rd, F32, FB(__int2float_rd(sa))) \
    X(u2f_rn, F32, FB(__uint2float_rn(a))) X(u2f_rz, F32, FB(__uint2float_rz(a))) X(u2f_ru, F32, FB(__uint2float_ru(a))) X(u2f_rd, F32, FB(__uint2float_rd(a))) \
    X(ll2f_rn, F32, FB(__ll2float_rn(SA))) X(ll2f_rz, F32, FB(__ll2float_rz(SA))) X(ll2f_ru, F32, FB(__ll2float_ru(SA))) X(ll2f_rd, F32, FB(__ll2float_rd(SA))) \
    X(ull2f_rn, F32, FB(__ull2float_rn(A))) X(ull2f_rz, F32, FB(__ull2float_rz(A))) X(ull2f_ru, F32, FB(__ull2float_ru(A))) X(ull2f_rd, F32, FB(__ull2float_rd(A))) \
    X(i2d, F64, DB(__int2double_rn(sa))) X(u2d, F64, DB(__uint2double_rn(a))) \
    X(ll2d_rn, F64, DB(__ll2double_rn(SA))) X(ll2d_rz, F64, DB(__ll2double_rz(SA))) X(ll2d_ru, F64, DB(__ll2double_ru(SA))) X(ll2d_rd, F64, DB(__ll2double_rd(SA))) \
    X(ull2d_rn, F64, DB(__ull2double_rn(A))) X(ull2d_rz, F64, DB(__ull2double_rz(A))) X(ull2d_ru, F64, DB(__ull2double_ru(A))) X(ull2d_rd, F64, DB(__ull2double_rd(A))) \
    X(c_i2f, F32, FB((float)sa)) X(c_ull2d, F64, DB((double)A)) \
    X(sat_u8_s32, U32, p_sat_u8_s32(a)) X(sat_s8_s32, U32, p_sat_s8_s32(a)) X(sat_u16_s32, U32, p_sat_u16_s32(a)) X(sat_s16_s32, U32, p_sat_s16_s32(a)) \
    X(sat_u32_s32, U32, p_sat_u32_s32(a)) X(sat_s32_u32, U32, p_sat_s32_u32(a)) X(sat_s8_u32, U32, p_sat_s8_u32(a)) X(sat_u8_u32, U32, p_sat_u8_u32(a)) \
    X(sat_s16_u32, U32, p_sat_s16_u32(a)) X(sat_u16_u32, U32, p_sat_u16_u32(a)) \
    X(sat_s32_s64, U32, p_sat_s32_s64(A)) X(sat_u32_s64, U32, p_sat_u32_s64(A)) X(sat_s32_u64, U32, p_sat_s32_u64(A)) X(sat_u32_u64, U32, p_sat_u32_u64(A)) \
    X(sat_s8_s64, U32, p_sat_s8_s64(A)) X(sat_u16_u64, U32, p_sat_u16_u64(A)) X(sat_s64_u64, U64, p_sat_s64_u64(A)) X(sat_u64_s64, U64, p_sat_u64_s64(A)) \
    X(sat_u8_s16, U16, p_sat_u8_s16((uint16_t)a)) X(sat_s8_u16, U16, p_sat_s8_u16((uint16_t)a)) \
    X(cvt_s8_s32, U32, p_cvt_s8_s32(a)) X(cvt_u8_s32, U32, p_cvt_u8_s32(a)) X(cvt_s16_u32, U32, p_cvt_s16_u32(a)) X(cvt_u16_s32, U32, p_cvt_u16_s32(a)) \
    X(cvt_s32_s8, U32, p_cvt_s32_s8(a)) X(cvt_u32_s16, U32, p_cvt_u32_s16(a)) X(cvt_s64_s8, U64, p_cvt_s64_s8(a)) X(cvt_s64_s16, U64, p_cvt_s64_s16(a)) \
    X(cvt_u64_s32, U64, p_cvt_u64_s32(a)) X(cvt_s64_u32, U64, p_cvt_s64_u32(a)) X(cvt_s32_s64, U32, p_cvt_s32_s64(A)) X(cvt_s16_s64, U32, p_cvt_s16_s64(A)) \
    X(cvt_s8_u64h, U16, p_cvt_s8_u64h(A)) X(cvt_u8_s32h, U16, p_cvt_u8_s32h(a))

/* 32/16-bit integers -> half / bf16 */
#define OPS_CIH(X) \
    X(i2h_rn, F16, HB(__int2half_rn(sa))) X(i2h_rz, F16, HB(__int2half_rz(sa))) X(i2h_ru, F16, HB(__int2half_ru(sa))) X(i2h_rd, F16, HB(__int2half_rd(sa))) \
    X(u2h_rn, F16, HB(__uint2half_rn(a))) X(u2h_rz, F16, HB(__uint2half_rz(a))) X(u2h_ru, F16, HB(__uint2half_ru(a))) X(u2h_rd, F16, HB(__uint2half_rd(a))) \
    X(s2h_rn, F16, HB(__short2half_rn((short)a))) X(s2h_rz, F16, HB(__short2half_rz((short)a))) \
    X(us2h_rn, F16, HB(__ushort2half_rn((unsigned short)a))) X(us2h_ru, F16, HB(__ushort2half_ru((unsigned short)a))) \
    X(i2bf_rn, BF16, BB(__int2bfloat16_rn(sa))) X(i2bf_rz, BF16, BB(__int2bfloat16_rz(sa))) \
    X(u2bf_rd, BF16, BB(__uint2bfloat16_rd(a))) X(s2bf_rn, BF16, BB(__short2bfloat16_rn((short)a)))
/* 64-bit integers -> half / bf16 (cvt.f16.s64/u64) */
#define OPS_CIH64(X) \
    X(ll2h_rn, F16, HB(__ll2half_rn(SA))) X(ll2h_rz, F16, HB(__ll2half_rz(SA))) X(ull2h_rn, F16, HB(__ull2half_rn(A))) X(ull2h_rd, F16, HB(__ull2half_rd(A))) \
    X(ll2bf_rn, BF16, BB(__ll2bfloat16_rn(SA))) X(ull2bf_ru, BF16, BB(__ull2bfloat16_ru(A)))

#define OPS_CH(X) \
    X(h2f, F32, FB(__half2float(ha))) X(h2d, F64, DB(p_h2d(h16))) \
    X(h2i_rn, U32, __half2int_rn(ha)) X(h2i_rz, U32, __half2int_rz(ha)) X(h2i_rd, U32, __half2int_rd(ha)) X(h2i_ru, U32, __half2int_ru(ha)) \
    X(h2u_rn, U32, __half2uint_rn(ha)) X(h2u_rz, U32, __half2uint_rz(ha)) X(h2u_rd, U32, __half2uint_rd(ha)) X(h2u_ru, U32, __half2uint_ru(ha)) \
    X(h2ll_rn, U64, __half2ll_rn(ha)) X(h2ll_rz, U64, __half2ll_rz(ha)) X(h2ull_rn, U64, __half2ull_rn(ha)) X(h2ull_rz, U64, __half2ull_rz(ha)) \
    X(h2s_rn, U16, __half2short_rn(ha)) X(h2s_rz, U16, __half2short_rz(ha)) X(h2s_rd, U16, __half2short_rd(ha)) X(h2s_ru, U16, __half2short_ru(ha)) \
    X(h2us_rn, U16, __half2ushort_rn(ha)) X(h2us_rz, U16, __half2ushort_rz(ha)) X(h2us_rd, U16, __half2ushort_rd(ha)) X(h2us_ru, U16, __half2ushort_ru(ha)) \
    X(h2s8_rni, U32, p_h2s8_rni(h16)) X(h2u8_rzi, U32, p_h2u8_rzi(h16)) \
    X(hrint, F16, HB(hrint(ha))) X(htrunc, F16, HB(htrunc(ha))) X(hfloor, F16, HB(hfloor(ha))) X(hceil, F16, HB(hceil(ha))) \
    X(e4m3_sat, U8, h2fp8(h16, 1, 0)) X(e5m2, U8, h2fp8(h16, 0, 1)) X(h2bf, BF16, BB(__float2bfloat16_rn(__half2float(ha))))

#define OPS_CB(X) \
    X(bf2f, F32, FB(__bfloat162float(bfa))) \
    X(bf2i_rn, U32, __bfloat162int_rn(bfa)) X(bf2i_rz, U32, __bfloat162int_rz(bfa)) X(bf2i_rd, U32, __bfloat162int_rd(bfa)) X(bf2i_ru, U32, __bfloat162int_ru(bfa)) \
    X(bf2u_rz, U32, __bfloat162uint_rz(bfa)) X(bf2ll_rz, U64, __bfloat162ll_rz(bfa)) X(bf2ull_rn, U64, __bfloat162ull_rn(bfa)) \
    X(hrint, BF16, BB(hrint(bfa))) X(htrunc, BF16, BB(htrunc(bfa))) X(hfloor, BF16, BB(hfloor(bfa))) X(hceil, BF16, BB(hceil(bfa))) \
    X(e4m3_sat, U8, bf2fp8(h16, 1, 0)) X(e5m2, U8, bf2fp8(h16, 0, 1)) X(bf2h, F16, HB(__float2half_rn(__bfloat162float(bfa))))

/* bf16 -> short/ushort: cuda_bf16.hpp implements these with inline PTX of its own ("{ .reg.f32 f; mov.b32 f, {0,%1}; ...}") */
#define OPS_CBS(X) \
    X(bf2s_rn, U16, __bfloat162short_rn(bfa)) X(bf2s_rz, U16, __bfloat162short_rz(bfa)) X(bf2s_rd, U16, __bfloat162short_rd(bfa)) \
    X(bf2us_rn, U16, __bfloat162ushort_rn(bfa)) X(bf2us_rz, U16, __bfloat162ushort_rz(bfa)) X(bf2us_ru, U16, __bfloat162ushort_ru(bfa))

#define OPS_C8(X) \
    X(e4m3_h, F16, fp8h(a, 0)) X(e5m2_h, F16, fp8h(a, 1)) X(e2m3_h, F16, fp6h(a, 0)) X(e3m2_h, F16, fp6h(a, 1)) X(e2m1_h, F16, fp4h(a)) \
    X(e8m0_bf, BF16, __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)a).x)

/* ------------------------------------------------------------------------------------------ */
/* group kernels                                                                               */
/* ------------------------------------------------------------------------------------------ */
#define ENUM_(n, k, e) op_##n,
#define CASE_(n, k, e) case op_##n: return (u64)(e);
#define INFO_(n, k, e) {#n, DK_##k},
#define LOCALS \
    uint32_t a = (uint32_t)A, b = (uint32_t)B, c = (uint32_t)C; int32_t sa = (int32_t)a, sb = (int32_t)b, sc = (int32_t)c; \
    s64 SA = (s64)A, SB = (s64)B; (void)SB; float fa = __uint_as_float(a), fb = __uint_as_float(b); \
    double da = __longlong_as_double(SA); uint16_t h16 = (uint16_t)a; __half ha = __ushort_as_half(h16); \
    __nv_bfloat16 bfa = __ushort_as_bfloat16(h16); \
    (void)sa; (void)sb; (void)sc; (void)fa; (void)fb; (void)da; (void)ha; (void)bfa; (void)s; (void)p;

struct OpInfo { const char *name; int kind; };

#define GROUP(G, LIST) \
    namespace G##_ops { enum { LIST(ENUM_) count }; } \
    static __device__ u64 eval_##G(int op, u64 A, u64 B, u64 C, uint32_t s, uint32_t p) \
    { \
        using namespace G##_ops; LOCALS \
        switch (op) { LIST(CASE_) default: return 0; } \
    } \
    __global__ void k_##G(int op, const int *ops, const u64 *A, const u64 *B, const u64 *C, const uint32_t *S, \
                          const uint32_t *P, void *out, int osz, int n) \
    { \
        int i = blockIdx.x * blockDim.x + threadIdx.x; \
        if (i >= n) return; \
        u64 r = eval_##G(op >= 0 ? op : ops[i], A[i], B[i], C[i], S[i], P[i]); \
        if (osz == 8) ((u64 *)out)[i] = r; \
        else if (osz == 4) ((uint32_t *)out)[i] = (uint32_t)r; \
        else if (osz == 2) ((uint16_t *)out)[i] = (uint16_t)r; \
        else ((uint8_t *)out)[i] = (uint8_t)r; \
    } \
    static const OpInfo info_##G[] = { LIST(INFO_) };

GROUP(i32, OPS_I32)
GROUP(i64, OPS_I64)
GROUP(n16, OPS_N16)
GROUP(n8, OPS_N8)
GROUP(simd, OPS_SIMD)
GROUP(simdv, OPS_SIMDV)
GROUP(vid, OPS_VID)
GROUP(szext, OPS_SZEXT)
GROUP(bmsk, OPS_BMSK)
GROUP(pack, OPS_PACK)
GROUP(cf, OPS_CF)
GROUP(cd, OPS_CD)
GROUP(ci, OPS_CI)
GROUP(cih, OPS_CIH)
GROUP(cih64, OPS_CIH64)
GROUP(ch, OPS_CH)
GROUP(cb, OPS_CB)
GROUP(cbs, OPS_CBS)
GROUP(c8, OPS_C8)

/* narrow loads and stores */
__global__ void k_ld(int op, const int8_t *s8, const uint8_t *u8, const int16_t *s16, const uint16_t *u16,
                     const char4 *c4, const short2 *sh2, uint32_t *o32, u64 *o64, int8_t *o8, int16_t *o16, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    switch (op) {
    case 0: o32[i] = (int)s8[i]; break;
    case 1: o32[i] = u8[i]; break;
    case 2: o32[i] = (int)s16[i]; break;
    case 3: o32[i] = u16[i]; break;
    case 4: o64[i] = (u64)(s64)s8[i]; break;
    case 5: o64[i] = (u64)(s64)s16[i]; break;
    case 6: o64[i] = (u64)u16[i] | ((u64)u8[i] << 40); break;
    case 7: { char4 v = c4[i]; o32[4 * i] = (int)v.x; o32[4 * i + 1] = (int)v.y; o32[4 * i + 2] = (int)v.z; o32[4 * i + 3] = (int)v.w; } break;
    case 8: { short2 v = sh2[i]; o32[2 * i] = (int)v.x; o32[2 * i + 1] = (int)v.y; } break;
    case 9: o8[i] = (int8_t)(s16[i] * 3 + s8[i]); break;                         /* narrow store of a 32-bit value */
    case 10: o16[i] = (int16_t)((int)s8[i] * (int)u16[i] - 7); break;
    case 11: o32[i] = (uint32_t)((int)s8[i] + (int)u8[i] * (int)s16[i]); break;   /* mixed-width arithmetic */
    }
}

/* values affine in the thread index: x = base + i*stride (uniform base/stride, a lane class of its own
 * in the translator), widened, multiplied, shifted, used as an index */
__global__ void k_aff(int op, uint32_t base, uint32_t stride, const uint32_t *tab, u64 *out)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t x = base + i * stride;
    u64 r;
    switch (op) {
    case 0: r = (u64)x; break;
    case 1: r = (u64)(s64)(int32_t)x; break;
    case 2: r = (u64)x * 3u; break;
    case 3: r = (u64)((s64)(int32_t)x * -5); break;
    case 4: r = (u64)(x << 4) | ((u64)(uint32_t)((int32_t)x >> 4) << 32); break;
    case 5: r = (u64)(x * 7u + base) ^ ((u64)(x >> 3) << 32); break;
    case 6: r = (u64)(uint32_t)((int32_t)x / 3) | ((u64)(x % 5u) << 32); break;
    case 7: r = tab[x & 255] + ((u64)tab[(x >> 8) & 255] << 32); break;
    case 8: { int32_t d = (int32_t)(x - base); r = (d >= -128 && d < 128) ? tab[128 + d] : (u64)(s64)d; } break;
    default: r = __umulhi(x, 0x9e3779b9u) ^ ((u64)__brev(x) << 32); break;
    }
    out[i] = r;
}
#define AFF_OPS 10
static const char *aff_names[AFF_OPS] = {"zext", "sext", "mulwide_u3", "mulwide_sm5", "shifts", "mad_shr", "div_rem", "index", "index_rel", "mulhi_brev"};

/* ------------------------------------------------------------------------------------------ */
/* host: inputs                                                                                */
/* ------------------------------------------------------------------------------------------ */
static uint64_t g_seed;
static inline u64 R(void) { return diff_rand(&g_seed); }

static const uint32_t sp32[28] = {0, 1, 2, 3, 7, 31, 32, 33, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x1000001,
    0xaaaaaaaa, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xffffff80, 0xffff8000,
    0x12345678, 0x55555555, 0xfffffff9, 0xff800000};   /* the first 24 are crossed with each other */
static const u64 sp64[24] = {0, 1, 2, 7, 63, 64, 0x7fffffffull, 0x80000000ull, 0xffffffffull, 0x100000000ull,
    0x20000000000001ull, 0xaaaaaaaaaaaaaaaaull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
    0xfffffffffffffffeull, 0xffffffffffffffffull, 0xffffffff00000000ull, 0xffffffff80000000ull, 0xfffffffffffffff9ull,
    0x100000001ull, 0x5555555555555555ull, 0x123456789abcdef0ull, 0xc000000000000000ull};   /* the first 20 are crossed */

static uint32_t r32(void)
{
    u64 r = R();
    switch (r % 10) {
    case 0: case 1: case 2: case 3: return (uint32_t)(r >> 16);
    case 4: case 5: return (uint32_t)((int)((r >> 8) % 141) - 70);
    case 6: case 7: { uint32_t v = (uint32_t)(r >> 32) >> ((r >> 8) % 32); return (r >> 16) & 1 ? 0u - v : v; }
    default: return sp32[(r >> 8) % 28] + (uint32_t)((int)((r >> 16) % 5) - 2);
    }
}
static u64 r64(void)
{
    u64 r = R(), x = R();
    switch (r % 10) {
    case 0: case 1: case 2: return x;
    case 3: return (u64)(s64)((int)((r >> 8) % 141) - 70);
    case 4: case 5: { u64 v = x >> ((r >> 8) % 64); return (r >> 16) & 1 ? 0ull - v : v; }
    case 6: return (u64)(s64)(int32_t)(uint32_t)x;
    case 7: return (uint32_t)x;
    default: return sp64[(r >> 8) % 24] + (u64)(s64)((int)((r >> 16) % 5) - 2);
    }
}
/* shift amounts / bit positions: mostly 0..wmax, sometimes huge */
static uint32_t ramt(uint32_t wmax)
{
    u64 r = R();
    switch (r % 8) {
    case 0: return (uint32_t)(r >> 32);
    case 1: return 256 + (uint32_t)((r >> 8) % 64);
    default: return (uint32_t)((r >> 8) % (wmax + 1));
    }
}

typedef struct { int n; u64 *A, *B, *C; uint32_t *S, *P; } Inputs;
static Inputs in_alloc(int n)
{
    Inputs in;
    in.n = n;
    in.A = (u64 *)calloc(n, 8); in.B = (u64 *)calloc(n, 8); in.C = (u64 *)calloc(n, 8);
    in.S = (uint32_t *)calloc(n, 4); in.P = (uint32_t *)calloc(n, 4);
    return in;
}
static void in_free(Inputs *in) { free(in->A); free(in->B); free(in->C); free(in->S); free(in->P); }

static Inputs gen_i32(void)
{
    Inputs in = in_alloc(N_I32);
    g_seed = 0x1320001;
    for (int i = 0; i < in.n; i++) {
        if (i < 24 * 24) { in.A[i] = sp32[i / 24]; in.B[i] = sp32[i % 24]; }
        else { in.A[i] = r32(); in.B[i] = r32(); }
        in.C[i] = r32();
        in.S[i] = i < 24 * 24 ? (uint32_t)in.B[i] : ramt(71);
        in.P[i] = ramt(40);
    }
    return in;
}
static Inputs gen_i64(void)
{
    Inputs in = in_alloc(N_I64);
    g_seed = 0x1640001;
    for (int i = 0; i < in.n; i++) {
        if (i < 20 * 20) { in.A[i] = sp64[i / 20]; in.B[i] = sp64[i % 20]; }
        else { in.A[i] = r64(); in.B[i] = r64(); }
        in.C[i] = r64();
        in.S[i] = i < 20 * 20 ? (uint32_t)in.B[i] : ramt(135);
        in.P[i] = ramt(72);
    }
    return in;
}
static Inputs gen_n16(void)
{
    static const uint16_t sp[24] = {0, 1, 2, 3, 7, 15, 16, 17, 0x7f, 0x80, 0xff, 0x100, 0x7ffe, 0x7fff, 0x8000, 0x8001,
        0xfffe, 0xffff, 0xfff9, 0xff80, 0x5555, 0xaaaa, 0x1234, 0xc000};
    Inputs in = in_alloc(N_N16);
    g_seed = 0x1160001;
    for (int i = 0; i < in.n; i++) {
        if (i < 24 * 24) { in.A[i] = sp[i / 24]; in.B[i] = sp[i % 24]; }
        else { in.A[i] = (uint16_t)r32(); in.B[i] = (uint16_t)r32(); }
        in.C[i] = r32();
        in.S[i] = i < 24 * 24 ? (uint32_t)in.B[i] : ramt(40);
        in.P[i] = 0;
    }
    return in;
}
static Inputs gen_n8(void)
{
    Inputs in = in_alloc(N_N8);
    g_seed = 0x1080001;
    static const uint8_t sp[16] = {0, 1, 2, 3, 7, 8, 9, 0x3f, 0x40, 0x7f, 0x80, 0x81, 0xc0, 0xf9, 0xfe, 0xff};
    for (int i = 0; i < in.n; i++) {
        if (i < 256) { in.A[i] = sp[i / 16]; in.B[i] = sp[i % 16]; }
        else { u64 r = R(); in.A[i] = (uint8_t)r; in.B[i] = (uint8_t)(r >> 8); }
        in.C[i] = 0;
        in.S[i] = i < 256 ? (uint32_t)in.B[i] : (uint32_t)(R() % 12);
        in.P[i] = 0;
    }
    return in;
}
/* SIMD inputs: lanes drawn from per-lane special values */
static uint32_t rsimd(int i)
{
    static const uint8_t b8[12] = {0x00, 0x01, 0x02, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40, 0x3f, 0xc0, 0x7e};
    static const uint16_t b16[12] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x4000, 0x3fff, 0xc000, 0x00ff, 0xff00};
    u64 r = R();
    switch (i % 3) {
    case 0: return b8[r % 12] | (uint32_t)b8[(r >> 8) % 12] << 8 | (uint32_t)b8[(r >> 16) % 12] << 16 | (uint32_t)b8[(r >> 24) % 12] << 24;
    case 1: return b16[r % 12] | (uint32_t)b16[(r >> 8) % 12] << 16;
    default: return (uint32_t)(r >> 32);
    }
}
static Inputs gen_simd(void)
{
    Inputs in = in_alloc(N_SIMD);
    g_seed = 0x5130001;
    for (int i = 0; i < in.n; i++) {
        in.A[i] = rsimd(i); in.B[i] = rsimd(i + (int)(R() % 3)); in.C[i] = rsimd(i + 1);
        in.S[i] = ramt(40); in.P[i] = ramt(40);
    }
    return in;
}
static Inputs gen_ext(void)
{
    Inputs in = in_alloc(N_SIMD);
    g_seed = 0xe070001;
    for (int i = 0; i < in.n; i++) {
        in.A[i] = i < 28 * 8 ? sp32[i % 28] : r32();
        in.B[i] = r32(); in.C[i] = r32();
        in.S[i] = i < 28 * 8 ? (uint32_t)(i / 28) * 5 : ramt(40); in.P[i] = ramt(40);
    }
    return in;
}

/* float inputs (bit patterns) */
static const uint32_t spf[] = {
    0x00000000, 0x80000000, 0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x3fc00000, 0xbfc00000,
    0x40200000, 0xc0200000, 0x40600000, 0xc0600000, 0x3effffff, 0x3f000001, 0xbeffffff, 0x3fbfffff,
    0x4afffffe, 0x4b000001, 0x4b7fffff, 0x4b800001, 0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001,
    0x4f7fffff, 0x4f800000, 0x5effffff, 0x5f000000, 0xdf000000, 0xdf000001, 0x5f7fffff, 0x5f800000,
    0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
    0x7fffffff, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x477fe000, 0x477fe001,
    0x477fefff, 0x477ff000, 0x477ff001, 0x387fc000, 0x38800000, 0x33800000, 0x33000000, 0x33000001,
    0x2edbe6ff, 0x7f7f8000, 0x7f7f7fff, 0x3f808000, 0x3f818000, 0x3f807fff, 0x3f808001, 0x42ff0000,
    0x43010000, 0x437f8000, 0x43800000, 0xc3008000, 0xc3010000, 0x46fffe00, 0x47000000, 0xc7000100,
    0x477fff80, 0x47800000, 0x3f7fffff, 0x3f800001, 0x43e00000, 0x43e80000, 0x43f00000, 0x44000000,
    0xc3e00000, 0xc3e80000, 0x3c000000, 0x3b800000, 0x3a800000, 0x3e800000, 0x40c00000, 0x40d00000,
    0x40e00000, 0x41000000, 0x41800000, 0x41880000, 0x47600000, 0x47700000, 0x7e800000, 0x01000000};
#define NSPF (int)(sizeof spf / sizeof spf[0])
static uint32_t rfloat(void)
{
    u64 r = R(), x = R();
    switch (r % 10) {
    case 0: case 1: case 2: return (uint32_t)x;
    case 3: case 4: case 5: {   /* integer + {0, .25, .5, .75, random} fraction, varied magnitude */
        double k = (double)(s64)(x >> (1 + (r >> 8) % 40));
        if ((r >> 16) & 1) k = -k;
        static const double fr[5] = {0, 0.25, 0.5, 0.75, 0.3};
        float f = (float)(k + fr[(r >> 20) % 5]);
        return diff_f2u(f);
    }
    case 6: case 7: {            /* random mantissa, exponent 2^-30 .. 2^70 */
        uint32_t e = 127 - 30 + (uint32_t)((r >> 8) % 101);
        return ((uint32_t)(r >> 20) & 0x80000000u) | e << 23 | ((uint32_t)x & 0x7fffff);
    }
    default: {                   /* +-2^k +- a few ulps */
        uint32_t e = 127 + (uint32_t)((r >> 8) % 70);
        uint32_t u = e << 23;
        u += (uint32_t)((int)((r >> 16) % 7) - 3);
        return u | ((uint32_t)(r >> 30) & 0x80000000u);
    }
    }
}
static Inputs gen_cf(void)
{
    Inputs in = in_alloc(N_CF);
    g_seed = 0xcf0001;
    for (int i = 0; i < in.n; i++) {
        in.A[i] = i < NSPF ? spf[i] : rfloat();
        in.B[i] = rfloat(); in.C[i] = 0;
        in.S[i] = (uint32_t)R(); in.P[i] = 0;
    }
    return in;
}
static const u64 spd[] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x3fe0000000000000ull, 0xbfe0000000000000ull, 0x3ff8000000000000ull,
    0xbff8000000000000ull, 0x4004000000000000ull, 0xc004000000000000ull, 0x3fdfffffffffffffull, 0x3fe0000000000001ull,
    0x41dfffffffc00000ull /* 2^31-1 */, 0x41dfffffffe00000ull /* 2^31-0.5 */, 0x41dffffffff00000ull /* 2^31-0.25 */,
    0x41e0000000000000ull, 0xc1e0000000000000ull, 0xc1e0000000100000ull /* -2^31-0.5 */, 0xc1e0000000200000ull,
    0xc1e0000000300000ull /* -2^31-1.5 */, 0x41efffffffe00000ull /* 2^32-1 */, 0x41effffffff00000ull /* 2^32-0.5 */,
    0x41f0000000000000ull, 0xbfefffffffffffffull, 0xbff0000000000000ull, 0xbff0000000000001ull,
    0x433fffffffffffffull, 0x4340000000000000ull, 0x4340000000000001ull, 0x432fffffffffffffull,
    0x43dfffffffffffffull, 0x43e0000000000000ull, 0xc3e0000000000000ull, 0xc3e0000000000001ull,
    0x43efffffffffffffull, 0x43f0000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull,
    0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull,
    0x47efffffe0000000ull /* FLT_MAX */, 0x47efffffefffffffull, 0x47effffff0000000ull /* FLT_MAX + half ulp */,
    0x47effffff0000001ull, 0x47f0000000000000ull, 0x3ff0000010000000ull /* 1 + 2^-24: tie */,
    0x3ff0000010000001ull, 0x3ff0000030000000ull, 0x3ff000000fffffffull, 0x36a0000000000000ull /* 2^-149 */,
    0x3690000000000000ull /* 2^-150 */, 0x3690000000000001ull, 0x36b8000000000000ull /* 1.5*2^-149 */,
    0x380fffffe0000000ull, 0x3810000000000000ull /* FLT_MIN */, 0x380ffffff0000000ull, 0xb6a0000000000000ull,
    0x40effc0000000000ull /* 65504 */, 0x40effe0000000000ull /* 65520 */, 0x40effdffffffffffull, 0x3e70000000000000ull,
    0x3e60000000000000ull, 0x3e68000000000000ull, 0x40dfffe000000000ull, 0x40e0000000000000ull, 0x405fe00000000000ull,
    0x4060100000000000ull, 0xc060100000000000ull, 0xc060200000000000ull, 0x406fe00000000000ull, 0x406ff00000000000ull,
    0x3ff0100000000000ull, 0x3ff0080000000000ull, 0x3ff0180000000000ull, 0x47efe00000000000ull, 0x407c000000000000ull};
#define NSPD (int)(sizeof spd / sizeof spd[0])
static u64 rdouble(void)
{
    u64 r = R(), x = R();
    switch (r % 10) {
    case 0: case 1: case 2: return x;
    case 3: case 4: case 5: {
        long double k = (long double)(s64)(x >> (1 + (r >> 8) % 62));
        if ((r >> 16) & 1) k = -k;
        static const double fr[5] = {0, 0.25, 0.5, 0.75, 0.3};
        double d = (double)(k + fr[(r >> 20) % 5]);
        return diff_d2u(d);
    }
    case 6: case 7: {
        u64 e = 1023 - 160 + (r >> 8) % 300;   /* 2^-160 .. 2^140: spans float's range and beyond */
        return (r & (1ull << 40) ? 0x8000000000000000ull : 0) | e << 52 | (x & 0xfffffffffffffull);
    }
    default: {
        u64 e = 1023 + (r >> 8) % 70;
        u64 u = e << 52;
        u += (u64)(s64)((int)((r >> 16) % 7) - 3);
        if ((r >> 24) % 3 == 0) u |= 0x8000000000000000ull;
        return u;
    }
    }
}
static Inputs gen_cd(void)
{
    Inputs in = in_alloc(N_CD);
    g_seed = 0xcd0001;
    for (int i = 0; i < in.n; i++) {
        in.A[i] = i < NSPD ? spd[i] : rdouble();
        in.B[i] = rdouble(); in.C[i] = 0;
        in.S[i] = (uint32_t)R(); in.P[i] = 0;
    }
    return in;
}
static Inputs gen_ci(void)
{
    static const u64 sp[] = {0x1000001ull, 0x1000003ull, 0x7fffffc0ull, 0x7fffffc1ull, 0x7fffff80ull, 0xffffffbfull,
        0x80000040ull, 0xffffff7full, 0xffffffffff000001ull, 0x20000000000001ull, 0x20000000000003ull,
        0x8000008000000000ull, 0x8000018000000000ull, 0x7fffffffffffffffull, 0x8000000000000001ull, 0xffffffffffffffffull,
        0x7ffffe0000000000ull, 0x7fffff0000000000ull, 0x7fffff8000000000ull, 0x7fffff8000000001ull, 0xfffffe0000000000ull,
        0xffffff0000000000ull, 0xffffff8000000000ull, 0x0000ffe000000000ull, 0x8800000000000000ull, 0x7ffffffffffffc00ull,
        0x7ffffffffffffdffull, 0x7ffffffffffffe00ull, 0xfffffffffffff800ull, 0xfffffffffffffc00ull, 0xfff0000000000001ull,
        0xffe0ull, 0xfff0ull, 0xffefull, 0xfff1ull, 0x10000ull, 0x7ff0ull, 0xffff8010ull, 0x801ull, 0x803ull, 0x1001ull,
        0x7fffull, 0x8000ull, 0xffff7fffull, 0xffffffffffff7fffull, 0x100ull, 0x17full, 0x80ull, 0xffffff81ull};
    const int nsp = (int)(sizeof sp / sizeof sp[0]);
    Inputs in = in_alloc(N_CI);
    g_seed = 0xc10001;
    for (int i = 0; i < in.n; i++) {
        u64 v;
        if (i < 28) v = (u64)(s64)(int32_t)sp32[i];
        else if (i < 28 + nsp) v = sp[i - 28];
        else if (i < 28 + nsp + 24) v = sp64[i - 28 - nsp];
        else {
            u64 r = R(), x = R();
            switch (r % 6) {
            case 0: v = x; break;
            case 1: v = x >> ((r >> 8) % 64); break;
            case 2: v = (u64)(s64)(int32_t)((uint32_t)x >> ((r >> 8) % 32)); if ((r >> 20) & 1) v = 0 - v; break;
            case 3: { u64 m = (x >> (64 - 26)) | 1; v = m << ((r >> 8) % 39); if ((r >> 20) & 1) v = 0 - v; break; }  /* ties for float */
            case 4: { u64 m = (x >> (64 - 55)) | 1; v = m << ((r >> 8) % 10); if ((r >> 20) & 1) v = 0 - v; break; }  /* ties for double */
            default: { u64 m = (x >> (64 - 13)) | 1; v = m << ((r >> 8) % 20); if ((r >> 20) & 1) v = 0 - v; break; }  /* ties for half */
            }
        }
        in.A[i] = v; in.B[i] = 0; in.C[i] = 0; in.S[i] = 0; in.P[i] = 0;
    }
    return in;
}
static Inputs gen_h16(int bf)
{
    static const uint16_t sph[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xb800, 0x3e00, 0xbe00, 0x4100, 0xc100,
        0x4300, 0xc300, 0x37ff, 0x3801, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff,
        0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x77ff, 0x7800, 0x7801, 0xf800, 0xf801, 0x5bf8, 0x5bfc, 0x57f8,
        0x5800, 0xd800, 0xd808, 0x7a00, 0x7bfe, 0x6400, 0x63ff, 0x3bff, 0x3c01, 0x5640, 0x5648, 0xd640, 0x4a00, 0x4a80};
    static const uint16_t spb[] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x3f00, 0xbf00, 0x3fc0, 0xbfc0, 0x4020, 0xc020,
        0x4060, 0xc060, 0x3eff, 0x3f01, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff81, 0x7fff,
        0x0001, 0x8001, 0x007f, 0x0080, 0x8080, 0x4eff, 0x4f00, 0x4f01, 0xcf00, 0xcf01, 0x5f00, 0xdf00, 0x5f7f,
        0x5f80, 0x4f80, 0x4f7f, 0x46ff, 0x4700, 0xc700, 0xc701, 0x4b00, 0x4b01, 0x42ff, 0x4301, 0x437f, 0x4380};
    const uint16_t *sp = bf ? spb : sph;
    int nsp = bf ? (int)(sizeof spb / 2) : (int)(sizeof sph / 2);
    Inputs in = in_alloc(bf ? N_CB : N_CH);
    g_seed = bf ? 0xcb0001 : 0xc80001;
    for (int i = 0; i < in.n; i++) {
        uint16_t v;
        if (i < nsp) v = sp[i];
        else {
            u64 r = R();
            if (r % 3) v = (uint16_t)(r >> 16);
            else if (bf) {   /* integer and half-integer values in the int conversion range */
                float f = (float)((int)((r >> 16) % 140000) - 70000) / (((r >> 40) & 1) ? 2.0f : 1.0f);
                v = (uint16_t)(diff_f2u(f) >> 16);
            } else {         /* magnitudes 1 .. 65504, inf, NaN */
                int e = 15 + (int)((r >> 8) % 17);
                v = (uint16_t)((((r >> 50) & 1) << 15) | (e << 10) | ((r >> 24) & 0x3ff));
            }
        }
        in.A[i] = v; in.B[i] = 0; in.C[i] = 0; in.S[i] = 0; in.P[i] = 0;
    }
    return in;
}
static Inputs gen_c8(void)
{
    Inputs in = in_alloc(N_C8);
    for (int i = 0; i < in.n; i++) { in.A[i] = (u64)i; in.B[i] = in.C[i] = 0; in.S[i] = in.P[i] = 0; }
    return in;
}

/* ------------------------------------------------------------------------------------------ */
/* host: running a group                                                                       */
/* ------------------------------------------------------------------------------------------ */
typedef void (*GroupKernel)(int, const int *, const u64 *, const u64 *, const u64 *, const uint32_t *, const uint32_t *, void *, int, int);

static void *dev_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    DCK(cudaMalloc(&d, bytes ? bytes : 1));
    if (d && bytes) DCK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

static int is_int_kind(int k) { return k < DK_F16; }

static void run_group(const char *prefix, GroupKernel k, const OpInfo *ops, int nops, const Inputs *in, int ikind, int mixed)
{
    int n = in->n;
    u64 *dA = (u64 *)dev_copy(in->A, (size_t)n * 8), *dB = (u64 *)dev_copy(in->B, (size_t)n * 8), *dC = (u64 *)dev_copy(in->C, (size_t)n * 8);
    uint32_t *dS = (uint32_t *)dev_copy(in->S, (size_t)n * 4), *dP = (uint32_t *)dev_copy(in->P, (size_t)n * 4);
    int nmax = n > N_MIX ? n : N_MIX;
    void *dout = NULL;
    DCK(cudaMalloc(&dout, (size_t)nmax * 8));
    unsigned char *hout = (unsigned char *)malloc((size_t)nmax * 8);
    size_t isz = diff_kind_size(ikind);
    unsigned char *hin = (unsigned char *)malloc((size_t)n * isz);
    for (int i = 0; i < n; i++) memcpy(hin + (size_t)i * isz, &in->A[i], isz);
    const int *nullops = NULL;
    char name[64];
    for (int o = 0; o < nops; o++) {
        int osz = (int)diff_kind_size(ops[o].kind);
        DCK(cudaMemset(dout, 0, (size_t)n * 8));
        void *args[] = {&o, &nullops, &dA, &dB, &dC, &dS, &dP, &dout, &osz, &n};
        DCK(cudaLaunchKernel((const void *)k, dim3(n / BLK), dim3(BLK), args, 0, 0));
        (void)cudaGetLastError();   /* a failed launch is counted once (above), not again by later checks */
        DCK(cudaDeviceSynchronize());
        memset(hout, 0, (size_t)n * osz);
        DCK(cudaMemcpy(hout, dout, (size_t)n * osz, cudaMemcpyDeviceToHost));
        snprintf(name, sizeof name, "%s.%s", prefix, ops[o].name);
        diff_section_in(name, ops[o].kind, 0, hout, n, ikind, hin);
    }
    /* divergent run: thread i runs integer op list[(i * 7 + i / 64) % count] on input i. Not in
     * the list: float results (NaN payloads are not compared) and the sections that record
     * where the GPU departs from PTX's pseudo-code (*_raw, *_pos32), which are kept apart. */
    int list[256], cnt = 0;
    for (int o = 0; o < nops && cnt < 256; o++)
        if (is_int_kind(ops[o].kind) && !strstr(ops[o].name, "_raw") && !strstr(ops[o].name, "_pos32")) list[cnt++] = o;
    if (mixed && cnt > 1) {
        int nm = n < N_MIX ? n : N_MIX;
        int *hops = (int *)malloc(sizeof(int) * nm);
        for (int i = 0; i < nm; i++) hops[i] = list[(i * 7 + i / 64) % cnt];
        int *dops = (int *)dev_copy(hops, sizeof(int) * nm);
        int neg = -1, osz = 8;
        DCK(cudaMemset(dout, 0, (size_t)nm * 8));
        void *args[] = {&neg, &dops, &dA, &dB, &dC, &dS, &dP, &dout, &osz, &nm};
        DCK(cudaLaunchKernel((const void *)k, dim3(nm / BLK), dim3(BLK), args, 0, 0));
        (void)cudaGetLastError();
        DCK(cudaDeviceSynchronize());
        memset(hout, 0, (size_t)nm * 8);
        DCK(cudaMemcpy(hout, dout, (size_t)nm * 8, cudaMemcpyDeviceToHost));
        snprintf(name, sizeof name, "%s.mixed", prefix);
        diff_section_in(name, DK_U64, 0, hout, nm, ikind, hin);
        DCK(cudaFree(dops));
        free(hops);
    }
    free(hin); free(hout);
    DCK(cudaFree(dA)); DCK(cudaFree(dB)); DCK(cudaFree(dC)); DCK(cudaFree(dS)); DCK(cudaFree(dP)); DCK(cudaFree(dout));
}
#define RUN(G, in, ikind, mixed) run_group(#G, (GroupKernel)k_##G, info_##G, (int)(sizeof info_##G / sizeof info_##G[0]), &(in), ikind, mixed)

static void run_ld(void)
{
    int n = N_LD;
    g_seed = 0x1d0001;
    unsigned char *raw = (unsigned char *)malloc((size_t)n * 4);
    for (int i = 0; i < n * 4; i += 8) { u64 r = R(); memcpy(raw + i, &r, 8); }
    static const unsigned char sp[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40};
    for (int i = 0; i < 64; i++) raw[i] = sp[i % 8];
    unsigned char *d = (unsigned char *)dev_copy(raw, (size_t)n * 4);
    uint32_t *o32; u64 *o64; int8_t *o8; int16_t *o16;
    DCK(cudaMalloc(&o32, (size_t)n * 16)); DCK(cudaMalloc(&o64, (size_t)n * 8));
    DCK(cudaMalloc(&o8, n)); DCK(cudaMalloc(&o16, (size_t)n * 2));
    unsigned char *h = (unsigned char *)malloc((size_t)n * 16);
    /* the same bytes seen as s8/u8 (first n bytes), s16/u16 (first 2n), char4/short2 (4n) */
    const int8_t *s8 = (const int8_t *)d; const uint8_t *u8 = d;
    const int16_t *s16 = (const int16_t *)d; const uint16_t *u16 = (const uint16_t *)d;
    const char4 *c4 = (const char4 *)d; const short2 *sh2 = (const short2 *)d;
    static const char *names[12] = {"s8_s32", "u8_u32", "s16_s32", "u16_u32", "s8_s64", "s16_s64", "u16_u8_u64",
        "char4", "short2", "st_s8", "st_s16", "mixed_width"};
    static const int kinds[12] = {DK_U32, DK_U32, DK_U32, DK_U32, DK_U64, DK_U64, DK_U64, DK_U32, DK_U32, DK_U8, DK_U16, DK_U32};
    static const int mult[12] = {1, 1, 1, 1, 1, 1, 1, 4, 2, 1, 1, 1};
    char name[64];
    for (int op = 0; op < 12; op++) {
        DCK(cudaMemset(o32, 0, (size_t)n * 16)); DCK(cudaMemset(o64, 0, (size_t)n * 8));
        DCK(cudaMemset(o8, 0, n)); DCK(cudaMemset(o16, 0, (size_t)n * 2));
        k_ld<<<n / BLK, BLK>>>(op, s8, u8, s16, u16, c4, sh2, o32, o64, o8, o16, n);
        DCK(cudaGetLastError());
        DCK(cudaDeviceSynchronize());
        size_t cnt = (size_t)n * mult[op], sz = diff_kind_size(kinds[op]);
        const void *src = kinds[op] == DK_U64 ? (const void *)o64 : kinds[op] == DK_U8 ? (const void *)o8 :
                          kinds[op] == DK_U16 ? (const void *)o16 : (const void *)o32;
        DCK(cudaMemcpy(h, src, cnt * sz, cudaMemcpyDeviceToHost));
        snprintf(name, sizeof name, "ld.%s", names[op]);
        diff_section(name, kinds[op], 0, h, cnt);
    }
    free(h); free(raw);
    DCK(cudaFree(d)); DCK(cudaFree(o32)); DCK(cudaFree(o64)); DCK(cudaFree(o8)); DCK(cudaFree(o16));
}

static void run_aff(void)
{
    static const uint32_t combos[8][2] = {{0, 1}, {0x7ffffff8u, 1}, {0xfffffff0u, 1}, {0x80000000u - 40, 3},
        {100, 0xffffffffu}, {0x40000000u, 0x01000000u}, {0xfffffff8u, 0x7fffffffu}, {5, 0}};
    const int per = 64, n = 8 * per;
    uint32_t tab[256];
    g_seed = 0xaff0001;
    for (int i = 0; i < 256; i++) tab[i] = (uint32_t)R();
    uint32_t *dtab = (uint32_t *)dev_copy(tab, sizeof tab);
    u64 *dout; DCK(cudaMalloc(&dout, (size_t)n * 8));
    u64 *h = (u64 *)malloc((size_t)n * 8);
    char name[64];
    for (int op = 0; op < AFF_OPS; op++) {
        DCK(cudaMemset(dout, 0, (size_t)n * 8));
        for (int c = 0; c < 8; c++) {
            k_aff<<<1, per>>>(op, combos[c][0], combos[c][1], dtab, dout + c * per);
            DCK(cudaGetLastError());
        }
        DCK(cudaDeviceSynchronize());
        DCK(cudaMemcpy(h, dout, (size_t)n * 8, cudaMemcpyDeviceToHost));
        snprintf(name, sizeof name, "aff.%s", aff_names[op]);
        diff_section(name, DK_U64, 0, h, n);
    }
    free(h);
    DCK(cudaFree(dtab)); DCK(cudaFree(dout));
}

int main(int argc, char **argv)
{
    diff_begin(argc, argv);
    Inputs in;
    in = gen_i32(); RUN(i32, in, DK_U32, 1); in_free(&in);
    in = gen_i64(); RUN(i64, in, DK_U64, 1); in_free(&in);
    in = gen_n16(); RUN(n16, in, DK_U16, 1); in_free(&in);
    in = gen_n8(); RUN(n8, in, DK_U8, 1); in_free(&in);
    in = gen_simd(); RUN(simd, in, DK_U32, 1); RUN(simdv, in, DK_U32, 0); RUN(vid, in, DK_U32, 0); in_free(&in);
    in = gen_ext(); RUN(szext, in, DK_U32, 0); RUN(bmsk, in, DK_U32, 0); RUN(pack, in, DK_U32, 0); in_free(&in);
    in = gen_cf(); RUN(cf, in, DK_F32, 1); in_free(&in);
    in = gen_cd(); RUN(cd, in, DK_F64, 1); in_free(&in);
    in = gen_ci(); RUN(ci, in, DK_U64, 1); RUN(cih, in, DK_U64, 0); RUN(cih64, in, DK_U64, 0); in_free(&in);
    in = gen_h16(0); RUN(ch, in, DK_F16, 1); in_free(&in);
    in = gen_h16(1); RUN(cb, in, DK_BF16, 1); RUN(cbs, in, DK_BF16, 0); in_free(&in);
    in = gen_c8(); RUN(c8, in, DK_U8, 0); in_free(&in);
    run_ld();
    run_aff();
    return diff_end();
}
