// NVCC_FLAGS: -arch=sm_90
/*
 * diff_isa_extra.cu - differential test (diff.h) of PTX semantics that the translator implements
 * from the PTX ISA text alone: the corners of the video instructions, cvt.pack.sat with a c
 * operand, .relu forms, and directed rounding / .ftz on zero, subnormal and tie results.
 * Every result is computed on the device by inline PTX; the host only makes the inputs (fixed
 * seeds, diff_rand), launches, copies back and hands sections to diff_section_in.
 * Built for sm_90 (the recording GPU): fma.relu and .bf16 need sm_80, min/max.relu sm_90.
 *
 * Each family has a kernel of its own (a switch on a uniform section index), so that one
 * instruction the translator cannot take does not take the other families down with it.
 * In the video families thread i also uses k = i & 7 to pick one of 8 operand-selector /
 * destination-selector / mask variants of the section's instruction (a divergent switch), so
 * every selector is seen with every kind of input:
 *   scalar (a, b) selectors      ("", ""), (b0, b3), (b1, h0), (b2, b1), (b3, h1), (h0, b2),
 *                                (h1, b0), (b1, "")
 *   scalar merges (d, a, b)      (b0, "", b1), (b1, b3, h0), (b2, h1, b2), (b3, b0, ""),
 *                                (h0, b2, h1), (h1, "", b3), (h0, h1, h0), (h1, b1, b0)
 *   2-lane (mask, a, b)          defaults, (h10, h10, h32) spelled out, ("", h32, h10),
 *                                (h0, h01, h03), (h1, h23, h12), ("", h00, h33), (h0, h21, h30),
 *                                (h1, h13, h11)
 *   4-lane (mask, a, b)          defaults, (b3210, b3210, b7654) spelled out, ("", b2301, b0123),
 *                                (b0, b7654, b3210), (b31, b4567, b0000), (b20, b1111, b7351),
 *                                (b321, b7531, b2640), (b210, b6420, b5555)
 * Section names: the instruction, then its types as d_a_b (vset/vshl/vshr: a_b), then the
 * modifiers; ".merge" = the d.dsel forms.
 *   vadd/vsub/vabsdiff/vmin/vmax   x {u_u_u, s_s_s.sat, u_s_u.sat, s_u_s.sat.add, u_u_s.min,
 *                                s_s_u.max, u_s_s.add, s_s_s.sat.merge, u_u_s.sat.merge,
 *                                s_u_u.merge}  (768 values each)
 *   vshl/vshr     .clamp/.wrap with .sat, .add/.min/.max and merges, on shift-amount inputs
 *   vset          every compare on each type pair, .add/.min/.max, merges
 *   vmad          selectors on u/s mixes, .sat, .shr7/.shr15, negated operands (vmad.neg and
 *                 vmad.neg.sat_scale: -a / -b / -a -b / -c on signed and unsigned types), .po
 *   vadd2 ... vmax2, vadd4 ... vmax4   x {u_u_u, s_s_s.sat, u_s_u.sat, s_u_s.add}
 *   vset2/vset4   every compare (type pairs rotating), plain and .add
 *   irelu         min/max.relu.s32 and .s16x2; plain min.s16x2 / max.u16x2 beside them
 *   pack          cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c (a, b around every bound)
 *   f2h           cvt.{rn,rz,rm,rp}{.ftz}.{f16,bf16}.f32 on ties, ties +-1 ulp, f16 subnormals
 *                 and f32 subnormals; .relu/.satfinite scalar and x2 forms (bits, canonical NaN)
 *   f2i           .ftz float -> integer (s32 u32 s64 u16 s8) and float -> integral float on
 *                 subnormals, halves, bounds; the same without .ftz for contrast
 *   fa            add/sub/mul/fma/div/sqrt/rcp .f32 with .rz/.rm/.rp (and .rn) {.ftz}{.sat} on
 *                 triples built to give exact zeros (x + -x, a*b - a*b), subnormal results,
 *                 results straddling the smallest normal, ties and overflow (1024 each)
 *   h16 / b16     fma.rn{.ftz}.relu.{f16,f16x2}, fma.rn.sat.f16, min/max{.ftz}{.NaN}.{f16,f16x2},
 *                 and the bf16 counterparts, on triples giving exact -0 and NaN (1024 each)
 * Integer and 16-bit results that have canonical-NaN rules are recorded as DK_U32/DK_U16;
 * f32 and plain f16/bf16 conversion results as DK_F32/DK_F16/DK_BF16 with tolerance 0 (bit for
 * bit, any NaN matching any NaN). 279 sections, ~870 KB recorded; ~11 s under the NPU library
 * with an empty JIT cache, well under 1 s with a warm one.
 */
#include "diff.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "diff_isa_extra.cu needs -arch=sm_90 (its NVCC_FLAGS line; run_diff.sh and gpu_diff.sh pass it)"
#endif

typedef unsigned long long u64;
#define BLK 128
#define N_VID 768
#define N_PACK 768
#define N_F2H 1024
#define N_F2I 512
#define N_FA 1024
#define N_H16 1024

#define DEV static __device__ __forceinline__

/* ------------------------------------------------------------------------------------------ */
/* video instructions                                                                           */
/* ------------------------------------------------------------------------------------------ */
#define V3(OPC, D, AS, BS) asm(OPC " %0" D ", %1" AS ", %2" BS ";" : "=r"(d) : "r"(a), "r"(b))
#define V4(OPC, D, AS, BS) asm(OPC " %0" D ", %1" AS ", %2" BS ", %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

#define SEL8(M, OPC) \
    case 0: M(OPC, "", "", ""); break;       case 1: M(OPC, "", ".b0", ".b3"); break; \
    case 2: M(OPC, "", ".b1", ".h0"); break; case 3: M(OPC, "", ".b2", ".b1"); break; \
    case 4: M(OPC, "", ".b3", ".h1"); break; case 5: M(OPC, "", ".h0", ".b2"); break; \
    case 6: M(OPC, "", ".h1", ".b0"); break; default: M(OPC, "", ".b1", ""); break;
#define MRG8(M, OPC) \
    case 0: M(OPC, ".b0", "", ".b1"); break;    case 1: M(OPC, ".b1", ".b3", ".h0"); break; \
    case 2: M(OPC, ".b2", ".h1", ".b2"); break; case 3: M(OPC, ".b3", ".b0", ""); break; \
    case 4: M(OPC, ".h0", ".b2", ".h1"); break; case 5: M(OPC, ".h1", "", ".b3"); break; \
    case 6: M(OPC, ".h0", ".h1", ".h0"); break; default: M(OPC, ".h1", ".b1", ".b0"); break;
#define S2SEL8(M, OPC) \
    case 0: M(OPC, "", "", ""); break;             case 1: M(OPC, ".h10", ".h10", ".h32"); break; \
    case 2: M(OPC, "", ".h32", ".h10"); break;     case 3: M(OPC, ".h0", ".h01", ".h03"); break; \
    case 4: M(OPC, ".h1", ".h23", ".h12"); break;  case 5: M(OPC, "", ".h00", ".h33"); break; \
    case 6: M(OPC, ".h0", ".h21", ".h30"); break;  default: M(OPC, ".h1", ".h13", ".h11"); break;
#define S4SEL8(M, OPC) \
    case 0: M(OPC, "", "", ""); break;                    case 1: M(OPC, ".b3210", ".b3210", ".b7654"); break; \
    case 2: M(OPC, "", ".b2301", ".b0123"); break;        case 3: M(OPC, ".b0", ".b7654", ".b3210"); break; \
    case 4: M(OPC, ".b31", ".b4567", ".b0000"); break;    case 5: M(OPC, ".b20", ".b1111", ".b7351"); break; \
    case 6: M(OPC, ".b321", ".b7531", ".b2640"); break;   default: M(OPC, ".b210", ".b6420", ".b5555"); break;

/* one section = one device function of (a, b, c, k) */
#define VFN(name, CASES, M, OPC) \
    DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t d; (void)c; switch (k) { CASES(M, OPC) } return d; }

struct Sec { const char *name; int kind; };

/* scalar vadd vsub vabsdiff vmin vmax */
#define VS_DEFS(V) \
    VFN(V##_uuu, SEL8, V3, #V ".u32.u32.u32") \
    VFN(V##_sss_sat, SEL8, V3, #V ".s32.s32.s32.sat") \
    VFN(V##_usu_sat, SEL8, V3, #V ".u32.s32.u32.sat") \
    VFN(V##_sus_sat_add, SEL8, V4, #V ".s32.u32.s32.sat.add") \
    VFN(V##_uus_min, SEL8, V4, #V ".u32.u32.s32.min") \
    VFN(V##_ssu_max, SEL8, V4, #V ".s32.s32.u32.max") \
    VFN(V##_uss_add, SEL8, V4, #V ".u32.s32.s32.add") \
    VFN(V##_sss_sat_mrg, MRG8, V4, #V ".s32.s32.s32.sat") \
    VFN(V##_uus_sat_mrg, MRG8, V4, #V ".u32.u32.s32.sat") \
    VFN(V##_suu_mrg, MRG8, V4, #V ".s32.u32.u32")
#define VS_LIST1(X, V) \
    X(V##_uuu, #V ".u_u_u") X(V##_sss_sat, #V ".s_s_s.sat") X(V##_usu_sat, #V ".u_s_u.sat") \
    X(V##_sus_sat_add, #V ".s_u_s.sat.add") X(V##_uus_min, #V ".u_u_s.min") X(V##_ssu_max, #V ".s_s_u.max") \
    X(V##_uss_add, #V ".u_s_s.add") X(V##_sss_sat_mrg, #V ".s_s_s.sat.merge") \
    X(V##_uus_sat_mrg, #V ".u_u_s.sat.merge") X(V##_suu_mrg, #V ".s_u_u.merge")
VS_DEFS(vadd)
VS_DEFS(vsub)
VS_DEFS(vabsdiff)
VS_DEFS(vmin)
VS_DEFS(vmax)
#define VS_LIST(X) VS_LIST1(X, vadd) VS_LIST1(X, vsub) VS_LIST1(X, vabsdiff) VS_LIST1(X, vmin) VS_LIST1(X, vmax)

/* vshl / vshr: b is always .u32 */
VFN(vshl_uu_clamp, SEL8, V3, "vshl.u32.u32.u32.clamp")
VFN(vshl_ss_wrap, SEL8, V3, "vshl.s32.s32.u32.wrap")
VFN(vshl_ss_sat_clamp, SEL8, V3, "vshl.s32.s32.u32.sat.clamp")
VFN(vshl_us_sat_wrap_add, SEL8, V4, "vshl.u32.s32.u32.sat.wrap.add")
VFN(vshl_su_clamp_min, SEL8, V4, "vshl.s32.u32.u32.clamp.min")
VFN(vshl_uu_sat_wrap_max, SEL8, V4, "vshl.u32.u32.u32.sat.wrap.max")
VFN(vshl_ss_sat_clamp_mrg, MRG8, V4, "vshl.s32.s32.u32.sat.clamp")
VFN(vshl_uu_wrap_mrg, MRG8, V4, "vshl.u32.u32.u32.wrap")
VFN(vshr_uu_wrap, SEL8, V3, "vshr.u32.u32.u32.wrap")
VFN(vshr_ss_clamp, SEL8, V3, "vshr.s32.s32.u32.clamp")
VFN(vshr_us_sat_clamp, SEL8, V3, "vshr.u32.s32.u32.sat.clamp")
VFN(vshr_su_wrap_add, SEL8, V4, "vshr.s32.u32.u32.wrap.add")
VFN(vshr_ss_clamp_max, SEL8, V4, "vshr.s32.s32.u32.clamp.max")
VFN(vshr_us_sat_wrap_min, SEL8, V4, "vshr.u32.s32.u32.sat.wrap.min")
VFN(vshr_ss_sat_wrap_mrg, MRG8, V4, "vshr.s32.s32.u32.sat.wrap")
VFN(vshr_uu_clamp_mrg, MRG8, V4, "vshr.u32.u32.u32.clamp")
#define VSH_LIST(X) \
    X(vshl_uu_clamp, "vshl.u_u.clamp") X(vshl_ss_wrap, "vshl.s_s.wrap") X(vshl_ss_sat_clamp, "vshl.s_s.sat.clamp") \
    X(vshl_us_sat_wrap_add, "vshl.u_s.sat.wrap.add") X(vshl_su_clamp_min, "vshl.s_u.clamp.min") \
    X(vshl_uu_sat_wrap_max, "vshl.u_u.sat.wrap.max") X(vshl_ss_sat_clamp_mrg, "vshl.s_s.sat.clamp.merge") \
    X(vshl_uu_wrap_mrg, "vshl.u_u.wrap.merge") \
    X(vshr_uu_wrap, "vshr.u_u.wrap") X(vshr_ss_clamp, "vshr.s_s.clamp") X(vshr_us_sat_clamp, "vshr.u_s.sat.clamp") \
    X(vshr_su_wrap_add, "vshr.s_u.wrap.add") X(vshr_ss_clamp_max, "vshr.s_s.clamp.max") \
    X(vshr_us_sat_wrap_min, "vshr.u_s.sat.wrap.min") X(vshr_ss_sat_wrap_mrg, "vshr.s_s.sat.wrap.merge") \
    X(vshr_uu_clamp_mrg, "vshr.u_u.clamp.merge")

/* vset (d and c unsigned; .atype.btype.cmp) */
VFN(vset_eq_uu, SEL8, V3, "vset.u32.u32.eq")
VFN(vset_ne_ss, SEL8, V3, "vset.s32.s32.ne")
VFN(vset_lt_us, SEL8, V3, "vset.u32.s32.lt")
VFN(vset_le_su, SEL8, V3, "vset.s32.u32.le")
VFN(vset_gt_ss, SEL8, V3, "vset.s32.s32.gt")
VFN(vset_ge_uu, SEL8, V3, "vset.u32.u32.ge")
VFN(vset_eq_ss, SEL8, V3, "vset.s32.s32.eq")
VFN(vset_ne_us, SEL8, V3, "vset.u32.s32.ne")
VFN(vset_lt_su, SEL8, V3, "vset.s32.u32.lt")
VFN(vset_le_uu, SEL8, V3, "vset.u32.u32.le")
VFN(vset_gt_us, SEL8, V3, "vset.u32.s32.gt")
VFN(vset_ge_su, SEL8, V3, "vset.s32.u32.ge")
VFN(vset_lt_su_add, SEL8, V4, "vset.s32.u32.lt.add")
VFN(vset_ge_us_min, SEL8, V4, "vset.u32.s32.ge.min")
VFN(vset_ne_ss_max, SEL8, V4, "vset.s32.s32.ne.max")
VFN(vset_gt_uu_add, SEL8, V4, "vset.u32.u32.gt.add")
VFN(vset_le_ss_mrg, MRG8, V4, "vset.s32.s32.le")
VFN(vset_eq_us_mrg, MRG8, V4, "vset.u32.s32.eq")
#define VSET_LIST(X) \
    X(vset_eq_uu, "vset.eq.u_u") X(vset_ne_ss, "vset.ne.s_s") X(vset_lt_us, "vset.lt.u_s") X(vset_le_su, "vset.le.s_u") \
    X(vset_gt_ss, "vset.gt.s_s") X(vset_ge_uu, "vset.ge.u_u") X(vset_eq_ss, "vset.eq.s_s") X(vset_ne_us, "vset.ne.u_s") \
    X(vset_lt_su, "vset.lt.s_u") X(vset_le_uu, "vset.le.u_u") X(vset_gt_us, "vset.gt.u_s") X(vset_ge_su, "vset.ge.s_u") \
    X(vset_lt_su_add, "vset.lt.s_u.add") X(vset_ge_us_min, "vset.ge.u_s.min") X(vset_ne_ss_max, "vset.ne.s_s.max") \
    X(vset_gt_uu_add, "vset.gt.u_u.add") X(vset_le_ss_mrg, "vset.le.s_s.merge") X(vset_eq_us_mrg, "vset.eq.u_s.merge")

/* vmad */
VFN(vmad_uuu, SEL8, V4, "vmad.u32.u32.u32")
VFN(vmad_sss, SEL8, V4, "vmad.s32.s32.s32")
VFN(vmad_sus_sat, SEL8, V4, "vmad.s32.u32.s32.sat")
VFN(vmad_usu_sat, SEL8, V4, "vmad.u32.s32.u32.sat")
VFN(vmad_uuu_sat, SEL8, V4, "vmad.u32.u32.u32.sat")
VFN(vmad_sss_shr7, SEL8, V4, "vmad.s32.s32.s32.shr7")
VFN(vmad_uuu_sat_shr15, SEL8, V4, "vmad.u32.u32.u32.sat.shr15")
VFN(vmad_suu_sat_shr7, SEL8, V4, "vmad.s32.u32.u32.sat.shr7")
#define VM(s) asm(s : "=r"(d) : "r"(a), "r"(b), "r"(c))
DEV uint32_t vmad_neg(uint32_t a, uint32_t b, uint32_t c, int k)
{
    uint32_t d;
    switch (k) {
    case 0: VM("vmad.s32.s32.s32 %0, -%1, %2, %3;"); break;
    case 1: VM("vmad.s32.s32.s32 %0, %1, -%2, %3;"); break;
    case 2: VM("vmad.s32.s32.s32 %0, -%1, -%2, %3;"); break;
    case 3: VM("vmad.s32.s32.s32 %0, %1, %2, -%3;"); break;
    case 4: VM("vmad.u32.u32.u32 %0, -%1.b1, %2.h0, %3;"); break;
    case 5: VM("vmad.u32.u32.u32 %0, %1.h1, %2.b2, -%3;"); break;
    case 6: VM("vmad.s32.u32.s32 %0, %1.b3, -%2.h1, %3;"); break;
    default: VM("vmad.u32.s32.u32 %0, -%1.h0, -%2.b0, %3;"); break;
    }
    return d;
}
DEV uint32_t vmad_neg_scale(uint32_t a, uint32_t b, uint32_t c, int k)
{
    uint32_t d;
    switch (k) {
    case 0: VM("vmad.s32.s32.s32.sat %0, -%1, %2, %3;"); break;
    case 1: VM("vmad.s32.s32.s32.sat %0, %1, %2, -%3;"); break;
    case 2: VM("vmad.u32.u32.u32.sat %0, -%1, %2.h1, %3;"); break;
    case 3: VM("vmad.u32.u32.u32.sat.shr7 %0, %1.b2, %2, -%3;"); break;
    case 4: VM("vmad.s32.s32.s32.shr15 %0, -%1.h1, %2.h0, %3;"); break;
    case 5: VM("vmad.s32.u32.u32.sat.shr15 %0, %1, -%2, %3;"); break;
    case 6: VM("vmad.s32.s32.u32.shr7 %0, %1.h0, %2.b1, -%3;"); break;
    default: VM("vmad.u32.s32.s32.sat.shr7 %0, -%1.b0, -%2.b3, %3;"); break;
    }
    return d;
}
DEV uint32_t vmad_po(uint32_t a, uint32_t b, uint32_t c, int k)
{
    uint32_t d;
    switch (k) {
    case 0: VM("vmad.u32.u32.u32.po %0, %1, %2, %3;"); break;
    case 1: VM("vmad.s32.s32.s32.po %0, %1, %2, %3;"); break;
    case 2: VM("vmad.s32.u32.s32.po.sat %0, %1.b1, %2.h0, %3;"); break;
    case 3: VM("vmad.u32.u32.u32.po.shr7 %0, %1.h1, %2.b0, %3;"); break;
    case 4: VM("vmad.s32.s32.s32.po.shr15 %0, %1.h0, %2.h1, %3;"); break;
    case 5: VM("vmad.u32.s32.u32.po.sat.shr15 %0, %1.h1, %2, %3;"); break;
    case 6: VM("vmad.u32.u32.u32.po.sat %0, %1, %2, %3;"); break;
    default: VM("vmad.s32.s32.u32.po.sat.shr7 %0, %1.b3, %2.b2, %3;"); break;
    }
    return d;
}
#define VMAD_LIST(X) \
    X(vmad_uuu, "vmad.u_u_u") X(vmad_sss, "vmad.s_s_s") X(vmad_sus_sat, "vmad.s_u_s.sat") X(vmad_usu_sat, "vmad.u_s_u.sat") \
    X(vmad_uuu_sat, "vmad.u_u_u.sat") X(vmad_sss_shr7, "vmad.s_s_s.shr7") X(vmad_uuu_sat_shr15, "vmad.u_u_u.sat.shr15") \
    X(vmad_suu_sat_shr7, "vmad.s_u_u.sat.shr7") X(vmad_neg, "vmad.neg") X(vmad_neg_scale, "vmad.neg.sat_scale") \
    X(vmad_po, "vmad.po")

/* SIMD video */
#define VSIMD_DEFS(V, SELS) \
    VFN(V##_uuu, SELS, V4, #V ".u32.u32.u32") \
    VFN(V##_sss_sat, SELS, V4, #V ".s32.s32.s32.sat") \
    VFN(V##_usu_sat, SELS, V4, #V ".u32.s32.u32.sat") \
    VFN(V##_sus_add, SELS, V4, #V ".s32.u32.s32.add")
#define VSIMD_LIST1(X, V) \
    X(V##_uuu, #V ".u_u_u") X(V##_sss_sat, #V ".s_s_s.sat") X(V##_usu_sat, #V ".u_s_u.sat") X(V##_sus_add, #V ".s_u_s.add")
VSIMD_DEFS(vadd2, S2SEL8)
VSIMD_DEFS(vsub2, S2SEL8)
VSIMD_DEFS(vavrg2, S2SEL8)
VSIMD_DEFS(vabsdiff2, S2SEL8)
VSIMD_DEFS(vmin2, S2SEL8)
VSIMD_DEFS(vmax2, S2SEL8)
VSIMD_DEFS(vadd4, S4SEL8)
VSIMD_DEFS(vsub4, S4SEL8)
VSIMD_DEFS(vavrg4, S4SEL8)
VSIMD_DEFS(vabsdiff4, S4SEL8)
VSIMD_DEFS(vmin4, S4SEL8)
VSIMD_DEFS(vmax4, S4SEL8)
#define VSET_SIMD_DEFS(N, SELS) \
    VFN(vset##N##_eq, SELS, V4, "vset" #N ".u32.u32.eq")  VFN(vset##N##_ne, SELS, V4, "vset" #N ".s32.s32.ne") \
    VFN(vset##N##_lt, SELS, V4, "vset" #N ".u32.s32.lt")  VFN(vset##N##_le, SELS, V4, "vset" #N ".s32.u32.le") \
    VFN(vset##N##_gt, SELS, V4, "vset" #N ".s32.s32.gt")  VFN(vset##N##_ge, SELS, V4, "vset" #N ".u32.u32.ge") \
    VFN(vset##N##_eq_add, SELS, V4, "vset" #N ".s32.s32.eq.add")  VFN(vset##N##_ne_add, SELS, V4, "vset" #N ".u32.u32.ne.add") \
    VFN(vset##N##_lt_add, SELS, V4, "vset" #N ".s32.u32.lt.add")  VFN(vset##N##_le_add, SELS, V4, "vset" #N ".u32.s32.le.add") \
    VFN(vset##N##_gt_add, SELS, V4, "vset" #N ".u32.u32.gt.add")  VFN(vset##N##_ge_add, SELS, V4, "vset" #N ".s32.s32.ge.add")
#define VSET_SIMD_LIST1(X, N) \
    X(vset##N##_eq, "vset" #N ".eq.u_u") X(vset##N##_ne, "vset" #N ".ne.s_s") X(vset##N##_lt, "vset" #N ".lt.u_s") \
    X(vset##N##_le, "vset" #N ".le.s_u") X(vset##N##_gt, "vset" #N ".gt.s_s") X(vset##N##_ge, "vset" #N ".ge.u_u") \
    X(vset##N##_eq_add, "vset" #N ".eq.s_s.add") X(vset##N##_ne_add, "vset" #N ".ne.u_u.add") \
    X(vset##N##_lt_add, "vset" #N ".lt.s_u.add") X(vset##N##_le_add, "vset" #N ".le.u_s.add") \
    X(vset##N##_gt_add, "vset" #N ".gt.u_u.add") X(vset##N##_ge_add, "vset" #N ".ge.s_s.add")
VSET_SIMD_DEFS(2, S2SEL8)
VSET_SIMD_DEFS(4, S4SEL8)
#define VS2_LIST(X) VSIMD_LIST1(X, vadd2) VSIMD_LIST1(X, vsub2) VSIMD_LIST1(X, vavrg2) VSIMD_LIST1(X, vabsdiff2) \
    VSIMD_LIST1(X, vmin2) VSIMD_LIST1(X, vmax2) VSET_SIMD_LIST1(X, 2)
#define VS4_LIST(X) VSIMD_LIST1(X, vadd4) VSIMD_LIST1(X, vsub4) VSIMD_LIST1(X, vavrg4) VSIMD_LIST1(X, vabsdiff4) \
    VSIMD_LIST1(X, vmin4) VSIMD_LIST1(X, vmax4) VSET_SIMD_LIST1(X, 4)

/* integer .relu (sm_90) */
#define I2(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) \
    { uint32_t d; (void)c; (void)k; asm(ins " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
I2(min_relu_s32, "min.relu.s32")
I2(max_relu_s32, "max.relu.s32")
I2(min_relu_s16x2, "min.relu.s16x2")
I2(max_relu_s16x2, "max.relu.s16x2")
I2(min_s16x2, "min.s16x2")
I2(max_u16x2, "max.u16x2")
#define IRELU_LIST(X) X(min_relu_s32, "irelu.min_s32") X(max_relu_s32, "irelu.max_s32") \
    X(min_relu_s16x2, "irelu.min_s16x2") X(max_relu_s16x2, "irelu.max_s16x2") \
    X(min_s16x2, "irelu.plain_min_s16x2") X(max_u16x2, "irelu.plain_max_u16x2")

/* cvt.pack.sat with the c operand */
#define PK(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) \
    { uint32_t d; (void)k; asm(ins " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
PK(pack_u8, "cvt.pack.sat.u8.s32.b32")
PK(pack_s8, "cvt.pack.sat.s8.s32.b32")
PK(pack_u4, "cvt.pack.sat.u4.s32.b32")
PK(pack_s4, "cvt.pack.sat.s4.s32.b32")
PK(pack_u2, "cvt.pack.sat.u2.s32.b32")
PK(pack_s2, "cvt.pack.sat.s2.s32.b32")
#define PACK_LIST(X) X(pack_u8, "pack.u8") X(pack_s8, "pack.s8") X(pack_u4, "pack.u4") X(pack_s4, "pack.s4") \
    X(pack_u2, "pack.u2") X(pack_s2, "pack.s2")

/* ------------------------------------------------------------------------------------------ */
/* floating point                                                                              */
/* ------------------------------------------------------------------------------------------ */
/* every section function: (a, b, c, k) of 32-bit patterns -> result bits */
#define FA(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { float d; (void)b; (void)c; (void)k; \
    asm(ins " %0, %1;" : "=f"(d) : "f"(__uint_as_float(a))); return __float_as_uint(d); }
#define FAB(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { float d; (void)c; (void)k; \
    asm(ins " %0, %1, %2;" : "=f"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); return __float_as_uint(d); }
#define FABC(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { float d; (void)k; \
    asm(ins " %0, %1, %2, %3;" : "=f"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b)), "f"(__uint_as_float(c))); \
    return __float_as_uint(d); }
#define HF(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { unsigned short d; (void)b; (void)c; (void)k; \
    asm(ins " %0, %1;" : "=h"(d) : "f"(__uint_as_float(a))); return d; }
#define RFF(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t d; (void)c; (void)k; \
    asm(ins " %0, %1, %2;" : "=r"(d) : "f"(__uint_as_float(a)), "f"(__uint_as_float(b))); return d; }
#define RF(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t d; (void)b; (void)c; (void)k; \
    asm(ins " %0, %1;" : "=r"(d) : "f"(__uint_as_float(a))); return d; }
#define HF16(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { unsigned short d; (void)b; (void)c; (void)k; \
    asm(ins " %0, %1;" : "=h"(d) : "f"(__uint_as_float(a))); return d; }
#define LF(name, ins) DEV u64 name(uint32_t a, uint32_t b, uint32_t c, int k) { u64 d; (void)b; (void)c; (void)k; \
    asm(ins " %0, %1;" : "=l"(d) : "f"(__uint_as_float(a))); return d; }

/* f32 -> f16 / bf16 */
HF(f2h_rz, "cvt.rz.f16.f32")
HF(f2h_rm, "cvt.rm.f16.f32")
HF(f2h_rp, "cvt.rp.f16.f32")
HF(f2h_rn_ftz, "cvt.rn.ftz.f16.f32")
HF(f2h_rz_ftz, "cvt.rz.ftz.f16.f32")
HF(f2h_rm_ftz, "cvt.rm.ftz.f16.f32")
HF(f2h_rp_ftz, "cvt.rp.ftz.f16.f32")
HF(f2h_rn_sat, "cvt.rn.sat.f16.f32")
HF(f2bf_rz, "cvt.rz.bf16.f32")
HF(f2bf_rm, "cvt.rm.bf16.f32")
HF(f2bf_rp, "cvt.rp.bf16.f32")
HF(f2bf_rn_ftz, "cvt.rn.ftz.bf16.f32")
HF(f2bf_rz_ftz, "cvt.rz.ftz.bf16.f32")
HF(f2bf_rm_ftz, "cvt.rm.ftz.bf16.f32")
HF(f2bf_rp_ftz, "cvt.rp.ftz.bf16.f32")
/* bit results: .relu / .satfinite (canonical NaN) */
HF(f2h_rn_relu, "cvt.rn.relu.f16.f32")
HF(f2h_rz_relu, "cvt.rz.relu.f16.f32")
HF(f2h_rn_satf, "cvt.rn.satfinite.f16.f32")
HF(f2h_rz_relu_satf, "cvt.rz.relu.satfinite.f16.f32")
HF(f2bf_rn_relu, "cvt.rn.relu.bf16.f32")
HF(f2bf_rz_relu, "cvt.rz.relu.bf16.f32")
HF(f2bf_rn_satf, "cvt.rn.satfinite.bf16.f32")
HF(f2bf_rz_relu_satf, "cvt.rz.relu.satfinite.bf16.f32")
RFF(f2h2_rz, "cvt.rz.f16x2.f32")
RFF(f2h2_rn_relu, "cvt.rn.relu.f16x2.f32")
RFF(f2h2_rz_relu_satf, "cvt.rz.relu.satfinite.f16x2.f32")
RFF(f2bf2_rz, "cvt.rz.bf16x2.f32")
RFF(f2bf2_rn_relu, "cvt.rn.relu.bf16x2.f32")
RFF(f2bf2_rn_satf, "cvt.rn.satfinite.bf16x2.f32")
#define F2H_LIST(X) \
    X(f2h_rz, "f2h.rz", DK_F16) X(f2h_rm, "f2h.rm", DK_F16) X(f2h_rp, "f2h.rp", DK_F16) \
    X(f2h_rn_ftz, "f2h.rn_ftz", DK_F16) X(f2h_rz_ftz, "f2h.rz_ftz", DK_F16) X(f2h_rm_ftz, "f2h.rm_ftz", DK_F16) \
    X(f2h_rp_ftz, "f2h.rp_ftz", DK_F16) X(f2h_rn_sat, "f2h.rn_sat", DK_F16) \
    X(f2bf_rz, "f2bf.rz", DK_BF16) X(f2bf_rm, "f2bf.rm", DK_BF16) X(f2bf_rp, "f2bf.rp", DK_BF16) \
    X(f2bf_rn_ftz, "f2bf.rn_ftz", DK_BF16) X(f2bf_rz_ftz, "f2bf.rz_ftz", DK_BF16) X(f2bf_rm_ftz, "f2bf.rm_ftz", DK_BF16) \
    X(f2bf_rp_ftz, "f2bf.rp_ftz", DK_BF16) \
    X(f2h_rn_relu, "f2h.rn_relu", DK_U16) X(f2h_rz_relu, "f2h.rz_relu", DK_U16) X(f2h_rn_satf, "f2h.rn_satfinite", DK_U16) \
    X(f2h_rz_relu_satf, "f2h.rz_relu_satfinite", DK_U16) X(f2bf_rn_relu, "f2bf.rn_relu", DK_U16) \
    X(f2bf_rz_relu, "f2bf.rz_relu", DK_U16) X(f2bf_rn_satf, "f2bf.rn_satfinite", DK_U16) \
    X(f2bf_rz_relu_satf, "f2bf.rz_relu_satfinite", DK_U16) \
    X(f2h2_rz, "f2h2.rz", DK_U32) X(f2h2_rn_relu, "f2h2.rn_relu", DK_U32) X(f2h2_rz_relu_satf, "f2h2.rz_relu_satfinite", DK_U32) \
    X(f2bf2_rz, "f2bf2.rz", DK_U32) X(f2bf2_rn_relu, "f2bf2.rn_relu", DK_U32) X(f2bf2_rn_satf, "f2bf2.rn_satfinite", DK_U32)

/* float -> integer / integral float, .ftz and without */
RF(f2i_rzi_ftz_s32, "cvt.rzi.ftz.s32.f32")
RF(f2i_rmi_ftz_s32, "cvt.rmi.ftz.s32.f32")
RF(f2i_rpi_ftz_s32, "cvt.rpi.ftz.s32.f32")
RF(f2i_rni_ftz_s32, "cvt.rni.ftz.s32.f32")
RF(f2i_rmi_s32, "cvt.rmi.s32.f32")
RF(f2i_rpi_s32, "cvt.rpi.s32.f32")
RF(f2i_rpi_ftz_u32, "cvt.rpi.ftz.u32.f32")
RF(f2i_rmi_ftz_u32, "cvt.rmi.ftz.u32.f32")
RF(f2i_rpi_u32, "cvt.rpi.u32.f32")
LF(f2i_rmi_ftz_s64, "cvt.rmi.ftz.s64.f32")
LF(f2i_rpi_ftz_u64, "cvt.rpi.ftz.u64.f32")
LF(f2i_rmi_s64, "cvt.rmi.s64.f32")
HF16(f2i_rpi_ftz_u16, "cvt.rpi.ftz.u16.f32")
HF16(f2i_rmi_ftz_s16, "cvt.rmi.ftz.s16.f32")
RF(f2i_rmi_ftz_sat_s8, "cvt.rmi.ftz.sat.s8.f32")
FA(f2i_rzi_ftz_f32, "cvt.rzi.ftz.f32.f32")
FA(f2i_rmi_ftz_f32, "cvt.rmi.ftz.f32.f32")
FA(f2i_rpi_ftz_f32, "cvt.rpi.ftz.f32.f32")
FA(f2i_rni_ftz_f32, "cvt.rni.ftz.f32.f32")
FA(f2i_rpi_f32, "cvt.rpi.f32.f32")
FA(f2i_rmi_ftz_sat_f32, "cvt.rmi.ftz.sat.f32.f32")
#define F2I_LIST(X) \
    X(f2i_rzi_ftz_s32, "f2i.rzi_ftz_s32", DK_U32) X(f2i_rmi_ftz_s32, "f2i.rmi_ftz_s32", DK_U32) \
    X(f2i_rpi_ftz_s32, "f2i.rpi_ftz_s32", DK_U32) X(f2i_rni_ftz_s32, "f2i.rni_ftz_s32", DK_U32) \
    X(f2i_rmi_s32, "f2i.rmi_s32", DK_U32) X(f2i_rpi_s32, "f2i.rpi_s32", DK_U32) \
    X(f2i_rpi_ftz_u32, "f2i.rpi_ftz_u32", DK_U32) X(f2i_rmi_ftz_u32, "f2i.rmi_ftz_u32", DK_U32) \
    X(f2i_rpi_u32, "f2i.rpi_u32", DK_U32) X(f2i_rmi_ftz_s64, "f2i.rmi_ftz_s64", DK_U64) \
    X(f2i_rpi_ftz_u64, "f2i.rpi_ftz_u64", DK_U64) X(f2i_rmi_s64, "f2i.rmi_s64", DK_U64) \
    X(f2i_rpi_ftz_u16, "f2i.rpi_ftz_u16", DK_U16) X(f2i_rmi_ftz_s16, "f2i.rmi_ftz_s16", DK_U16) \
    X(f2i_rmi_ftz_sat_s8, "f2i.rmi_ftz_sat_s8", DK_U32) \
    X(f2i_rzi_ftz_f32, "f2i.rzi_ftz_f32", DK_F32) X(f2i_rmi_ftz_f32, "f2i.rmi_ftz_f32", DK_F32) \
    X(f2i_rpi_ftz_f32, "f2i.rpi_ftz_f32", DK_F32) X(f2i_rni_ftz_f32, "f2i.rni_ftz_f32", DK_F32) \
    X(f2i_rpi_f32, "f2i.rpi_f32", DK_F32) X(f2i_rmi_ftz_sat_f32, "f2i.rmi_ftz_sat_f32", DK_F32)

/* f32 arithmetic with directed rounding */
FAB(fa_add_rz, "add.rz.f32")
FAB(fa_add_rm, "add.rm.f32")
FAB(fa_add_rp, "add.rp.f32")
FAB(fa_add_rn_ftz, "add.rn.ftz.f32")
FAB(fa_add_rz_ftz, "add.rz.ftz.f32")
FAB(fa_add_rm_ftz, "add.rm.ftz.f32")
FAB(fa_add_rp_ftz, "add.rp.ftz.f32")
FAB(fa_add_rm_sat, "add.rm.sat.f32")
FAB(fa_sub_rm, "sub.rm.f32")
FAB(fa_sub_rp_ftz, "sub.rp.ftz.f32")
FAB(fa_mul_rz, "mul.rz.f32")
FAB(fa_mul_rm, "mul.rm.f32")
FAB(fa_mul_rp, "mul.rp.f32")
FAB(fa_mul_rn_ftz, "mul.rn.ftz.f32")
FAB(fa_mul_rz_ftz, "mul.rz.ftz.f32")
FAB(fa_mul_rm_ftz, "mul.rm.ftz.f32")
FAB(fa_mul_rp_ftz, "mul.rp.ftz.f32")
FABC(fa_fma_rz, "fma.rz.f32")
FABC(fa_fma_rm, "fma.rm.f32")
FABC(fa_fma_rp, "fma.rp.f32")
FABC(fa_fma_rn_ftz, "fma.rn.ftz.f32")
FABC(fa_fma_rz_ftz, "fma.rz.ftz.f32")
FABC(fa_fma_rm_ftz, "fma.rm.ftz.f32")
FABC(fa_fma_rp_ftz, "fma.rp.ftz.f32")
FABC(fa_fma_rp_ftz_sat, "fma.rp.ftz.sat.f32")
FAB(fa_div_rz, "div.rz.f32")
FAB(fa_div_rm_ftz, "div.rm.ftz.f32")
FAB(fa_div_rp, "div.rp.f32")
FA(fa_sqrt_rz, "sqrt.rz.f32")
FA(fa_sqrt_rp_ftz, "sqrt.rp.ftz.f32")
FA(fa_rcp_rm, "rcp.rm.f32")
FA(fa_rcp_rp_ftz, "rcp.rp.ftz.f32")
#define FA_LIST(X) \
    X(fa_add_rz, "fa.add_rz", DK_F32) X(fa_add_rm, "fa.add_rm", DK_F32) X(fa_add_rp, "fa.add_rp", DK_F32) \
    X(fa_add_rn_ftz, "fa.add_rn_ftz", DK_F32) X(fa_add_rz_ftz, "fa.add_rz_ftz", DK_F32) \
    X(fa_add_rm_ftz, "fa.add_rm_ftz", DK_F32) X(fa_add_rp_ftz, "fa.add_rp_ftz", DK_F32) \
    X(fa_add_rm_sat, "fa.add_rm_sat", DK_F32) X(fa_sub_rm, "fa.sub_rm", DK_F32) X(fa_sub_rp_ftz, "fa.sub_rp_ftz", DK_F32) \
    X(fa_mul_rz, "fa.mul_rz", DK_F32) X(fa_mul_rm, "fa.mul_rm", DK_F32) X(fa_mul_rp, "fa.mul_rp", DK_F32) \
    X(fa_mul_rn_ftz, "fa.mul_rn_ftz", DK_F32) X(fa_mul_rz_ftz, "fa.mul_rz_ftz", DK_F32) \
    X(fa_mul_rm_ftz, "fa.mul_rm_ftz", DK_F32) X(fa_mul_rp_ftz, "fa.mul_rp_ftz", DK_F32) \
    X(fa_fma_rz, "fa.fma_rz", DK_F32) X(fa_fma_rm, "fa.fma_rm", DK_F32) X(fa_fma_rp, "fa.fma_rp", DK_F32) \
    X(fa_fma_rn_ftz, "fa.fma_rn_ftz", DK_F32) X(fa_fma_rz_ftz, "fa.fma_rz_ftz", DK_F32) \
    X(fa_fma_rm_ftz, "fa.fma_rm_ftz", DK_F32) X(fa_fma_rp_ftz, "fa.fma_rp_ftz", DK_F32) \
    X(fa_fma_rp_ftz_sat, "fa.fma_rp_ftz_sat", DK_F32) \
    X(fa_div_rz, "fa.div_rz", DK_F32) X(fa_div_rm_ftz, "fa.div_rm_ftz", DK_F32) X(fa_div_rp, "fa.div_rp", DK_F32) \
    X(fa_sqrt_rz, "fa.sqrt_rz", DK_F32) X(fa_sqrt_rp_ftz, "fa.sqrt_rp_ftz", DK_F32) \
    X(fa_rcp_rm, "fa.rcp_rm", DK_F32) X(fa_rcp_rp_ftz, "fa.rcp_rp_ftz", DK_F32)

/* f16 / bf16 triples (the low 16 bits of a, b, c; x2 forms: a second element from the inputs
 * 517 places on, in the upper half) */
#define H3(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { unsigned short d; (void)k; \
    asm(ins " %0, %1, %2, %3;" : "=h"(d) : "h"((unsigned short)a), "h"((unsigned short)b), "h"((unsigned short)c)); return d; }
#define H2(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { unsigned short d; (void)c; (void)k; \
    asm(ins " %0, %1, %2;" : "=h"(d) : "h"((unsigned short)a), "h"((unsigned short)b)); return d; }
#define P3(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t d; (void)k; \
    asm(ins " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
#define P2(name, ins) DEV uint32_t name(uint32_t a, uint32_t b, uint32_t c, int k) { uint32_t d; (void)c; (void)k; \
    asm(ins " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
H3(h_fma_relu, "fma.rn.relu.f16")
H3(h_fma_ftz_relu, "fma.rn.ftz.relu.f16")
H3(h_fma_sat, "fma.rn.sat.f16")
H3(h_fma_ftz, "fma.rn.ftz.f16")
H2(h_min, "min.f16")
H2(h_max_nan, "max.NaN.f16")
H2(h_min_ftz, "min.ftz.f16")
H2(h_max_ftz_nan, "max.ftz.NaN.f16")
P3(h2_fma_relu, "fma.rn.relu.f16x2")
P3(h2_fma_ftz_relu, "fma.rn.ftz.relu.f16x2")
P2(h2_min_ftz_nan, "min.ftz.NaN.f16x2")
P2(h2_max, "max.f16x2")
H3(b_fma_relu, "fma.rn.relu.bf16")
H2(b_min, "min.bf16")
H2(b_max_nan, "max.NaN.bf16")
P3(b2_fma_relu, "fma.rn.relu.bf16x2")
P2(b2_min_nan, "min.NaN.bf16x2")
P2(b2_max, "max.bf16x2")
#define H16_LIST(X) \
    X(h_fma_relu, "h16.fma_relu", DK_U16) X(h_fma_ftz_relu, "h16.fma_ftz_relu", DK_U16) X(h_fma_sat, "h16.fma_sat", DK_F16) \
    X(h_fma_ftz, "h16.fma_ftz", DK_F16) X(h_min, "h16.min", DK_U16) X(h_max_nan, "h16.max_nan", DK_U16) \
    X(h_min_ftz, "h16.min_ftz", DK_U16) X(h_max_ftz_nan, "h16.max_ftz_nan", DK_U16) \
    X(h2_fma_relu, "h16.x2_fma_relu", DK_U32) X(h2_fma_ftz_relu, "h16.x2_fma_ftz_relu", DK_U32) \
    X(h2_min_ftz_nan, "h16.x2_min_ftz_nan", DK_U32) X(h2_max, "h16.x2_max", DK_U32)
#define B16_LIST(X) \
    X(b_fma_relu, "b16.fma_relu", DK_U16) X(b_min, "b16.min", DK_U16) X(b_max_nan, "b16.max_nan", DK_U16) \
    X(b2_fma_relu, "b16.x2_fma_relu", DK_U32) X(b2_min_nan, "b16.x2_min_nan", DK_U32) X(b2_max, "b16.x2_max", DK_U32)

/* ------------------------------------------------------------------------------------------ */
/* kernels: one per family; op is uniform, k = i & 7 picks the selector variant               */
/* ------------------------------------------------------------------------------------------ */
#define CASE2_(fn, nm) case op_##fn: r = fn(a, b, c, k); break;
#define CASE3_(fn, nm, kind) case op_##fn: r = fn(a, b, c, k); break;
#define ENUM2_(fn, nm) op_##fn,
#define ENUM3_(fn, nm, kind) op_##fn,
#define INFO2_(fn, nm) {nm, DK_U32},
#define INFO3_(fn, nm, kind) {nm, kind},

/* pair: the x2 forms take a second element from index (i + 517) % n in the upper half */
#define FAMILY(G, LIST, CASE, ENUM, INFO, PAIR) \
    namespace G##_ops { enum { LIST(ENUM) count }; } \
    __global__ void k_##G(int op, const uint32_t *A, const uint32_t *B, const uint32_t *C, u64 *out, int n) \
    { \
        using namespace G##_ops; \
        int i = blockIdx.x * blockDim.x + threadIdx.x; \
        if (i >= n) return; \
        uint32_t a = A[i], b = B[i], c = C[i]; \
        if (PAIR) { int j = (i + 517) % n; a = (a & 0xffffu) | (A[j] << 16); b = (b & 0xffffu) | (B[j] << 16); \
                    c = (c & 0xffffu) | (C[j] << 16); } \
        int k = i & 7; \
        u64 r = 0; \
        switch (op) { LIST(CASE) default: break; } \
        out[i] = r; \
    } \
    static const Sec info_##G[] = { LIST(INFO) };

FAMILY(vs, VS_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(vsh, VSH_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(vset, VSET_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(vmad, VMAD_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(vs2, VS2_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(vs4, VS4_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(irelu, IRELU_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(pack, PACK_LIST, CASE2_, ENUM2_, INFO2_, 0)
FAMILY(f2h, F2H_LIST, CASE3_, ENUM3_, INFO3_, 0)
FAMILY(f2i, F2I_LIST, CASE3_, ENUM3_, INFO3_, 0)
FAMILY(fa, FA_LIST, CASE3_, ENUM3_, INFO3_, 0)
FAMILY(h16, H16_LIST, CASE3_, ENUM3_, INFO3_, 0)
FAMILY(b16, B16_LIST, CASE3_, ENUM3_, INFO3_, 0)
/* the packed f16x2 / bf16x2 sections of h16/b16 read pairs: kernels of their own over the same lists */
FAMILY(h16p, H16_LIST, CASE3_, ENUM3_, INFO3_, 1)
FAMILY(b16p, B16_LIST, CASE3_, ENUM3_, INFO3_, 1)

/* ------------------------------------------------------------------------------------------ */
/* host                                                                                         */
/* ------------------------------------------------------------------------------------------ */
static uint64_t g_seed;
static inline uint64_t R(void) { return diff_rand(&g_seed); }

typedef void (*Kern)(int, const uint32_t *, const uint32_t *, const uint32_t *, u64 *, int);
typedef struct { int n; uint32_t *A, *B, *C; } In;
static In in_alloc(int n) { In in; in.n = n; in.A = (uint32_t *)calloc(n, 4); in.B = (uint32_t *)calloc(n, 4); in.C = (uint32_t *)calloc(n, 4); return in; }
static void in_free(In *in) { free(in->A); free(in->B); free(in->C); }

static void *dev_copy(const void *h, size_t bytes)
{
    void *d = NULL;
    DCK(cudaMalloc(&d, bytes));
    DCK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* runs every section of a family; x2only: 1 = only the names holding ".x2_", 0 = only the
 * others, -1 = all */
static void run_family(Kern kern, const Sec *secs, int nsec, const In *in, int ikind, int x2only)
{
    int n = in->n;
    uint32_t *dA = (uint32_t *)dev_copy(in->A, (size_t)n * 4), *dB = (uint32_t *)dev_copy(in->B, (size_t)n * 4),
             *dC = (uint32_t *)dev_copy(in->C, (size_t)n * 4);
    u64 *dout = NULL;
    DCK(cudaMalloc(&dout, (size_t)n * 8));
    u64 *hout = (u64 *)malloc((size_t)n * 8);
    unsigned char *buf = (unsigned char *)malloc((size_t)n * 8);
    for (int op = 0; op < nsec; op++) {
        int isx2 = strstr(secs[op].name, ".x2_") != NULL;
        if (x2only >= 0 && isx2 != x2only) continue;
        DCK(cudaMemset(dout, 0, (size_t)n * 8));
        void *args[] = {&op, &dA, &dB, &dC, &dout, &n};
        DCK(cudaLaunchKernel((const void *)kern, dim3(n / BLK), dim3(BLK), args, 0, 0));
        DCK(cudaDeviceSynchronize());
        memset(hout, 0, (size_t)n * 8);
        DCK(cudaMemcpy(hout, dout, (size_t)n * 8, cudaMemcpyDeviceToHost));
        size_t sz = diff_kind_size(secs[op].kind);
        for (int i = 0; i < n; i++) memcpy(buf + (size_t)i * sz, &hout[i], sz);   /* little endian: the low bytes */
        diff_section_in(secs[op].name, secs[op].kind, 0, buf, n, ikind, in->A);
    }
    free(hout); free(buf);
    DCK(cudaFree(dA)); DCK(cudaFree(dB)); DCK(cudaFree(dC)); DCK(cudaFree(dout));
}
#define RUN(G, in, ikind, x2) run_family((Kern)k_##G, info_##G, (int)(sizeof info_##G / sizeof info_##G[0]), &(in), ikind, x2)

/* ---- video inputs ---- */
/* special words: bytes 00 01 7f 80 fe ff and half-words 0000 ffff 7fff 8000 01ff 807f fe01 7f80 */
static const uint32_t sp_word[6] = {0x00000000u, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x807f01ffu, 0x7f80fe01u};
/* shift amounts: 0 1 31 32 33 255 in bytes and half-words */
static const uint32_t sp_shift[6] = {0x00000000u, 0x00000001u, 0x0000001fu, 0x00000020u, 0x21201f01u, 0xffffffffu};
static const uint32_t sp_c[8] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x12345678u, 0xfffffff0u, 0x0000ff00u};
static const uint8_t sp_byte[8] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x02};

static uint32_t rbytes(void)
{
    uint64_t r = R();
    uint32_t v = 0;
    for (int j = 0; j < 4; j++) {
        uint32_t x = (uint32_t)(r >> (16 * j)) & 0xffffu;
        v |= (uint32_t)((x & 1) ? sp_byte[(x >> 1) & 7] : (x >> 8)) << (8 * j);
    }
    return v;
}
static uint32_t rword(void)
{
    uint64_t r = R();
    switch (r % 8) {
    case 0: case 1: return (uint32_t)(r >> 24);
    case 2: return (uint32_t)((int)((r >> 8) % 301) - 150);        /* small signed */
    case 3: { uint32_t v = (uint32_t)(r >> 32) >> ((r >> 8) % 32); return (r >> 16) & 1 ? 0u - v : v; }
    default: return rbytes();
    }
}
static uint32_t rshift(void)
{
    uint64_t r = R();
    uint32_t v = 0;
    for (int j = 0; j < 4; j++) {
        uint32_t x = (uint32_t)(r >> (12 * j)) & 0xfffu;
        v |= (x % 8 == 0 ? (x >> 4) & 0xff : (x >> 4) % 41) << (8 * j);   /* mostly 0..40, sometimes any byte */
    }
    if (r >> 60 == 0) v = (uint32_t)(R() >> 32);
    return v;
}
static uint32_t rcop(void)
{
    uint64_t r = R();
    if (r % 4 == 0) return sp_c[(r >> 8) % 8] + (uint32_t)((int)((r >> 16) % 5) - 2);
    return rword();
}
/* 288 special pairs (36 pairs x the 8 selector variants), then random; b equal or close to a
 * now and then (compares, min/max, absdiff) */
static In gen_vid(uint64_t seed, int shift)
{
    In in = in_alloc(N_VID);
    g_seed = seed;
    for (int i = 0; i < in.n; i++) {
        if (i < 288) {
            int p = i >> 3;
            in.A[i] = sp_word[p / 6];
            in.B[i] = shift ? sp_shift[p % 6] : sp_word[p % 6];
            in.C[i] = sp_c[(p + i) & 7];
            continue;
        }
        in.A[i] = rword();
        uint64_t r = R();
        if (shift) in.B[i] = rshift();
        else if (r % 8 == 0) in.B[i] = in.A[i];
        else if (r % 8 == 1) { int j = (int)(r >> 8) % 4; in.B[i] = (in.A[i] & ~(0xffu << (8 * j))) | ((uint32_t)(r >> 16) & 0xffu) << (8 * j); }
        else if (r % 8 == 2) in.B[i] = (in.A[i] << 16) | (in.A[i] >> 16);
        else in.B[i] = rword();
        in.C[i] = rcop();
    }
    return in;
}
static In gen_pack(void)
{
    static const int32_t sp[24] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 127, 128, 255, 256, -1, -2, -3, -8, -9, -128, -129,
                                   -256, 0x7fffffff, (int32_t)0x80000000, 65535};
    In in = in_alloc(N_PACK);
    g_seed = 0xa5c0001;
    for (int i = 0; i < in.n; i++) {
        uint64_t r = R();
        if (i < 576) { in.A[i] = (uint32_t)sp[i / 24]; in.B[i] = (uint32_t)sp[i % 24]; }
        else {
            in.A[i] = (r & 1) ? (uint32_t)((int)((r >> 8) % 601) - 300) : rword();
            in.B[i] = (r & 2) ? (uint32_t)((int)((r >> 20) % 41) - 20) : rword();
        }
        in.C[i] = (r >> 40) % 3 ? (uint32_t)(R() >> 32) : sp_c[(r >> 32) % 8];
    }
    return in;
}

/* ---- float inputs ---- */
static float p2(int e)   /* 2^e, -149 <= e <= 127 */
{
    return diff_u2f(e >= -126 ? (uint32_t)(e + 127) << 23 : 1u << (e + 149));
}
/* m (an odd integer of nb bits, top bit set) times 2^e, as f32 bits; normal results only */
static uint32_t fsm(uint32_t m, int nb, int e, int neg)
{
    int E = e + nb - 1 + 127;
    if (E < 1) E = 1;
    if (E > 254) E = 254;
    return (neg ? 0x80000000u : 0u) | ((uint32_t)E << 23) | ((m << (24 - nb)) & 0x7fffffu);
}
static uint32_t rmant(int nb) { return (uint32_t)(R() >> (64 - nb)) | 1u << (nb - 1) | 1u; }

/* f32 values near f16 / bf16 rounding boundaries */
static In gen_f2h(void)
{
    static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
        0x7f800001u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u, 0x80800000u, 0x7f7fffffu,
        0xff7fffffu, 0x7f7f8000u, 0x7f7f7fffu, 0x7f7f8001u, 0xff7f8000u, 0x477fe000u, 0xc77fe000u, 0x477fefffu,
        0x477ff000u, 0x477ff001u, 0xc77ff000u, 0x47800000u, 0x33800000u, 0xb3800000u, 0x33000000u, 0xb3000000u,
        0x33000001u, 0xb3000001u, 0x32800000u, 0x33c00000u, 0x38800000u, 0x387fc000u, 0x387fe000u, 0xb87fe000u,
        0x3f800000u, 0xbf800000u, 0x3f801000u, 0x3f803000u, 0xbf801000u, 0x3f808000u, 0x3f818000u, 0xbf808000u,
        0x00008000u, 0x00018000u, 0x80008000u, 0x0000ffffu, 0x3effffffu, 0x3f000000u, 0x40490fdbu, 0xc0490fdbu};
    const int nsp = (int)(sizeof sp / sizeof sp[0]);
    In in = in_alloc(N_F2H);
    g_seed = 0xf2b0001;
    for (int i = 0; i < in.n; i++) {
        uint64_t r = R();
        uint32_t v, sign = (uint32_t)(r >> 63) << 31;
        if (i < nsp) v = sp[i];
        else switch (r % 6) {
        case 0: case 1: {   /* f16: a random f16 quantum, the f32 bits below it a tie, tie +-1, 0, all ones, 1 */
            int e = (int)((r >> 8) % 43) - 26;                    /* -26 .. 16 */
            int s = e >= -14 ? 13 : 13 + (-14 - e);
            uint32_t m = (uint32_t)(r >> 20) & 0x7fffffu;
            if (s <= 23) {
                int k = (int)((r >> 44) % 6);
                uint32_t h = 1u << (s - 1), pat = k == 0 ? h : k == 1 ? h - 1 : k == 2 ? h + 1 : k == 3 ? 0 : k == 4 ? 2 * h - 1 : 1;
                m = (m & ~(2 * h - 1)) | pat;
            } else if ((r >> 44) & 1) m = 0;
            v = sign | (uint32_t)(e + 127) << 23 | m;
            break; }
        case 2: case 3: {   /* bf16: a tie, tie +-1, 0, all ones, 1 in the low 16 bits; any exponent, subnormals often */
            static const uint32_t lo[7] = {0x8000u, 0x7fffu, 0x8001u, 0u, 0xffffu, 1u, 0x4000u};
            uint32_t E = (r >> 8) % 4 == 0 ? 0u : (r >> 8) % 4 == 1 ? (uint32_t)(r >> 12) % 3 + 252 : (uint32_t)(r >> 12) % 255;
            uint32_t hi = (uint32_t)(r >> 24) & 0x7fu;
            v = sign | E << 23 | hi << 16 | lo[(r >> 40) % 7];
            break; }
        case 4: v = sign | ((uint32_t)(r >> 16) & 0x7fffffu); break;   /* f32 subnormals */
        default: v = (uint32_t)(r >> 16); break;
        }
        in.A[i] = v;
    }
    /* the x2 forms: b = another value of the set */
    for (int i = 0; i < in.n; i++) { in.B[i] = in.A[(i * 7 + 3) % in.n]; in.C[i] = 0; }
    return in;
}

/* f32 values around integers: subnormals, halves, bounds */
static In gen_f2i(void)
{
    static const uint32_t sp[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu,
        0x00800000u, 0x80800000u, 0x3f000000u, 0xbf000000u, 0x3fc00000u, 0xbfc00000u, 0x40200000u, 0xc0200000u,
        0x3effffffu, 0xbeffffffu, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
        0x4f000000u, 0xcf000000u, 0x4effffffu, 0xcf000001u, 0x4f800000u, 0x4f7fffffu, 0x5f000000u, 0xdf000000u,
        0x5effffffu, 0x5f800000u, 0x477fff00u, 0x477fff80u, 0x47800000u, 0xc7000000u, 0xc7000080u, 0x42fe0000u,
        0x43000000u, 0xc3000000u, 0xc3010000u, 0x3f7fffffu, 0xbf7fffffu, 0x34000000u, 0xb4000000u};
    const int nsp = (int)(sizeof sp / sizeof sp[0]);
    In in = in_alloc(N_F2I);
    g_seed = 0xf210001;
    for (int i = 0; i < in.n; i++) {
        uint64_t r = R();
        uint32_t sign = (uint32_t)(r >> 63) << 31, v;
        if (i < nsp) v = sp[i];
        else switch (r % 4) {
        case 0: case 1: v = sign | ((uint32_t)(r >> 16) & 0x7fffffu) >> ((r >> 40) % 23); break;   /* subnormals */
        case 2: { float f = (float)((int)((r >> 8) % 2001) - 1000) * 0.5f; v = diff_f2u(f); break; } /* halves */
        default: v = sign | (uint32_t)((r >> 8) % 40 + 110) << 23 | ((uint32_t)(r >> 32) & 0x7fffffu); break;
        }
        in.A[i] = v;
    }
    return in;
}

/* (a, b, c) triples for add/mul/fma/div: exact zeros, subnormal results, results around the
 * smallest normal, ties, overflow */
static In gen_fa(void)
{
    static const uint32_t sp[12] = {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu, 0x00800000u,
                                    0x80800000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u};
    static const uint32_t pairs[][3] = {
        {0x3f7fffffu, 0x00800000u, 0u}, {0x3f7fffffu, 0x80800000u, 0u}, {0x3f800001u, 0x00800000u, 0u},
        {0x3f7fffffu, 0x00800001u, 0x80000001u}, {0x00800000u, 0x80000001u, 0x00000001u},
        {0x00800001u, 0x80800000u, 0x80000000u}, {0x3effffffu, 0x01000000u, 0u}, {0x3f000000u, 0x00000003u, 0u},
        {0x3f000000u, 0x80000003u, 0x80000000u}, {0x3f000000u, 0x00000001u, 0x00000001u},
        {0x7f7fffffu, 0x7f7fffffu, 0xff7fffffu}, {0x7f7fffffu, 0x73800000u, 0x7f7fffffu},
        {0x7f7fffffu, 0x3f800001u, 0u}, {0xff7fffffu, 0x3f800001u, 0u}, {0x3f800000u, 0x33800000u, 0x3f800000u},
        {0x3f800001u, 0x33800000u, 0x33800000u}, {0x3f800000u, 0xb3800000u, 0xbf800000u}, {0x1f800000u, 0x1f800000u, 0u},
        {0x20000000u, 0x1f000000u, 0x80000000u}, {0x1f800000u, 0x9f800000u, 0x00000001u}};
    const int np = (int)(sizeof pairs / sizeof pairs[0]);
    In in = in_alloc(N_FA);
    g_seed = 0xfa0001;
    for (int i = 0; i < in.n; i++) {
        uint64_t r = R();
        int neg = (int)(r >> 63), neg2 = (int)(r >> 62) & 1;
        uint32_t a, b, c;
        if (i < 144) { a = sp[i / 12]; b = sp[i % 12]; c = sp[(i / 12 + i) % 12]; }
        else if (i < 144 + np) { a = pairs[i - 144][0]; b = pairs[i - 144][1]; c = pairs[i - 144][2]; }
        else switch (r % 8) {
        case 0: {   /* exact cancellation: b = -a; c = -(a * b) exactly (12-bit mantissas) */
            int ea = (int)((r >> 8) % 120) - 60, eb = (int)((r >> 16) % 120) - 60;
            a = fsm(rmant(12), 12, ea, neg); b = fsm(rmant(12), 12, eb, neg2);
            c = diff_f2u(-(diff_u2f(a) * diff_u2f(b)));
            if ((r >> 24) & 1) b = a ^ 0x80000000u;
            break; }
        case 1: {   /* mul ties: (1 + i 2^-12)(1 + j 2^-12), scaled; c a multiple of the result's ulp or 0 */
            uint32_t ia = (uint32_t)(r >> 8) & 0xfffu | 1u, ib = (uint32_t)(r >> 20) & 0xfffu | 1u;
            int ea = (int)((r >> 32) % 200) - 100, eb = (int)((r >> 40) % 200) - 100;
            if (ea + eb < -150) eb = -150 - ea + (int)((r >> 48) % 30);
            if (ea < -126) ea = -126;
            if (eb < -126) eb = -126;
            a = (neg ? 0x80000000u : 0u) | (uint32_t)(ea + 127) << 23 | ia << 11;
            b = (neg2 ? 0x80000000u : 0u) | (uint32_t)(eb + 127) << 23 | ib << 11;
            int ce = ea + eb - 23;
            c = (r >> 52) % 3 == 0 ? 0u : (ce >= -149 && ce <= 100) ? diff_f2u((float)((int)((r >> 54) % 9) - 4) * p2(ce)) : 0u;
            break; }
        case 2: {   /* subnormal products (inexact), c a subnormal or zero */
            int ea = -(int)((r >> 8) % 40) - 50;
            int eb = -126 - ea - (int)((r >> 16) % 26);
            a = fsm(rmant(24), 24, ea - 23, neg); b = fsm(rmant(24), 24, eb - 23, neg2);
            c = (r >> 24) % 3 == 0 ? 0x80000000u * ((r >> 26) & 1) : ((uint32_t)(r >> 28) & 0x7fffffu) >> ((r >> 52) % 23) | ((uint32_t)(r >> 57) & 1) << 31;
            break; }
        case 3: {   /* products straddling 2^-126: (1 + x) 2^-64 * 2^-62-k */
            a = (neg ? 0x80000000u : 0u) | (uint32_t)(127 - 64) << 23 | ((uint32_t)(r >> 8) & 0x7fffffu);
            b = (neg2 ? 0x80000000u : 0u) | (uint32_t)(127 - 62 - (int)((r >> 32) % 3)) << 23 |
                ((r >> 34) & 1 ? 0x7fffffu - ((uint32_t)(r >> 40) & 0xfu) : ((uint32_t)(r >> 40) & 0xfu));
            c = (r >> 48) % 2 ? 0u : ((uint32_t)(r >> 50) & 0xffu) | ((uint32_t)(r >> 60) & 1) << 31;
            break; }
        case 4: {   /* subnormal / tiny operands for add: exact subnormal sums and differences */
            a = ((uint32_t)(r >> 8) & 0xffffffu) >> ((r >> 32) % 2) | (neg ? 0x80000000u : 0u);   /* up to 2 * 2^-126 */
            b = ((uint32_t)(r >> 36) & 0xffffffu) >> ((r >> 60) % 3) | (neg2 ? 0x80000000u : 0u);
            c = a ^ 0x80000000u;
            break; }
        case 5: {   /* add ties: 1.x + odd multiples of the half ulp, scaled */
            int e = (int)((r >> 8) % 250) - 125;
            a = (neg ? 0x80000000u : 0u) | (uint32_t)(e + 127) << 23 | ((uint32_t)(r >> 16) & 0x7fffffu);
            int eb = e - 24 - (int)((r >> 40) % 3);
            float bv = (float)(((r >> 44) & 0xff) | 1) * (eb >= -149 ? p2(eb) : p2(-149));
            b = diff_f2u(bv) ^ (neg2 ? 0x80000000u : 0u);
            c = diff_f2u(-diff_u2f(a));
            break; }
        case 6: {   /* near overflow */
            a = (neg ? 0x80000000u : 0u) | (uint32_t)(254 - (r >> 8) % 2) << 23 | ((uint32_t)(r >> 16) & 0x7fffffu);
            b = (neg2 ? 0x80000000u : 0u) | (uint32_t)(127 + (r >> 40) % 3 - (r >> 42) % 25) << 23 | ((uint32_t)(r >> 44) & 0xfu);
            c = (r >> 50) & 1 ? a ^ 0x80000000u : 0u;
            break; }
        default: a = (uint32_t)(r >> 16); b = (uint32_t)R(); c = (uint32_t)(R() >> 8); break;
        }
        in.A[i] = a; in.B[i] = b; in.C[i] = c;
    }
    return in;
}

/* 16-bit triples (f16 when bf = 0, bf16 when 1): 16 x 16 specials (c rotating), then
 * cancellations (a*b + c exactly 0 or -0), negative results, underflow to -0, random */
static In gen_h16(int bf)
{
    static const uint16_t sph[16] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x0001,
                                     0x8001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x3555};
    static const uint16_t spb[16] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0, 0x0001,
                                     0x8001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x3eab};
    const uint16_t *sp = bf ? spb : sph;
    uint16_t one = bf ? 0x3f80 : 0x3c00;
    In in = in_alloc(N_H16);
    g_seed = bf ? 0xb160001 : 0x4160001;
    for (int i = 0; i < in.n; i++) {
        uint64_t r = R();
        uint16_t a, b, c, x = (uint16_t)(r >> 16), y = (uint16_t)(r >> 32);
        if (i < 256) { a = sp[i / 16]; b = sp[i % 16]; c = sp[(i / 16 + i) & 15]; }
        else switch (r % 6) {
        case 0: a = one; b = x; c = x ^ 0x8000; if ((r >> 8) & 1) { a ^= 0x8000; c ^= 0x8000; } break;   /* +0 under rn */
        case 1: a = 0x8000 | (x & 0x7fff) * ((r >> 8) & 1); b = (uint16_t)(y & 0x7fff); c = 0x8000; break; /* -0 * y + -0 */
        case 2: a = 0x8001; b = (uint16_t)((y & 0x3ff) | (bf ? 0x0100 : 0x0400)); c = 0x8000 * ((r >> 8) & 1); break; /* underflow */
        case 3: a = x; b = y; c = (uint16_t)(r >> 48) | 0x8000; break;                 /* often negative */
        case 4: a = x; b = y; c = (uint16_t)(r >> 48); if ((r >> 8) % 4 == 0) c = bf ? 0x7fc0 : 0x7e00; break;
        default: a = x; b = x ^ 0x8000; c = y; if ((r >> 8) & 1) a = 0x8000, b = y; break;   /* min/max of +-x, -0 */
        }
        in.A[i] = a; in.B[i] = b; in.C[i] = c;
    }
    return in;
}

int main(int argc, char **argv)
{
    diff_begin(argc, argv);
    In in;
    in = gen_vid(0x51d0001, 0);
    RUN(vs, in, DK_U32, -1); RUN(vset, in, DK_U32, -1); RUN(vmad, in, DK_U32, -1);
    RUN(vs2, in, DK_U32, -1); RUN(vs4, in, DK_U32, -1); RUN(irelu, in, DK_U32, -1);
    in_free(&in);
    in = gen_vid(0x5140001, 1); RUN(vsh, in, DK_U32, -1); in_free(&in);
    in = gen_pack(); RUN(pack, in, DK_U32, -1); in_free(&in);
    in = gen_f2h(); RUN(f2h, in, DK_F32, -1); in_free(&in);
    in = gen_f2i(); RUN(f2i, in, DK_F32, -1); in_free(&in);
    in = gen_fa(); RUN(fa, in, DK_F32, -1); in_free(&in);
    in = gen_h16(0); RUN(h16, in, DK_U32, 0); RUN(h16p, in, DK_U32, 1); in_free(&in);
    in = gen_h16(1); RUN(b16, in, DK_U32, 0); RUN(b16p, in, DK_U32, 1); in_free(&in);
    return diff_end();
}
