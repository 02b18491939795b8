/*
 * ptx_prelude.h - helpers pasted (with npu_kabi.h) at the top of every C file the PTX
 * translator generates. NOT included by the runtime: ptx_emit.c embeds this file's text with
 * .incbin. Every helper is a static inline with exact PTX ISA semantics; the instruction
 * emitter calls them with constant mode arguments, so gcc folds the switches away.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <fenv.h>

typedef unsigned __int128 u128_t;
typedef __int128 s128_t;
#define P_INL static inline __attribute__((always_inline, unused))
typedef uint8_t __attribute__((may_alias)) a_u8;
typedef uint16_t __attribute__((may_alias)) a_u16;
typedef uint32_t __attribute__((may_alias)) a_u32;
typedef uint64_t __attribute__((may_alias)) a_u64;
typedef u128_t __attribute__((may_alias, aligned(16))) a_u128;
typedef float __attribute__((may_alias)) a_f32;
typedef double __attribute__((may_alias)) a_f64;

/* lane groups (ptx_emit.c): NPU_LANES consecutive threads of a row run as vector lanes; 16 or
 * 32, chosen per kernel by the translator (which defines it before this text when it is 32) */
#ifndef NPU_LANES
#define NPU_LANES 16u
#endif
#define NPU_LANE_FULL ((uint32_t)(0xffffffffull >> (32u - NPU_LANES)))   /* __lane_mask of all lanes */
/* whether the lanes' addresses are p[0] + l*sz (__lane_contig) or all p[0] (__lane_same). With
 * AVX-512: one compare per 8 addresses into a mask register; gcc's vectorized and-reduction
 * loop ended in a shuffle chain (19% of CuPy's broadcast add with 32 lanes, 10% of cupy_take) */
#if defined(__AVX512F__)
typedef long long __v8di_t __attribute__((vector_size(64), aligned(8)));
P_INL int __lane_addr_is(uint8_t *const *p, uint64_t sz) {
    __v8di_t e = {0, 1, 2, 3, 4, 5, 6, 7}, v;
    e = e * (long long)sz + (long long)(uintptr_t)p[0];
    unsigned m = 0;
    for (uint32_t c = 0; c < NPU_LANES / 8u; c++) {
        memcpy(&v, p + 8u * c, sizeof v);
        __v8di_t x = v ^ e;
        m |= __builtin_ia32_ptestmq512(x, x, (unsigned char)0xff);
        e += (long long)(8u * sz);
    }
    return m == 0; }
P_INL int __lane_contig(uint8_t *const *p, uint32_t sz) { return __lane_addr_is(p, sz); }
P_INL int __lane_same(uint8_t *const *p) { return __lane_addr_is(p, 0); }
#else
P_INL int __lane_contig(uint8_t *const *p, uint32_t sz) {
    uint32_t ok = 1; for (uint32_t l = 0; l < NPU_LANES; l++) ok &= p[l] == p[0] + (size_t)l * sz; return (int)ok; }
P_INL int __lane_same(uint8_t *const *p) {
    uint32_t ok = 1; for (uint32_t l = 0; l < NPU_LANES; l++) ok &= p[l] == p[0]; return (int)ok; }
#endif
/* bit l set when lane l of a predicate array is true (a branch's lane test). With AVX-512 one
 * vptestmd: the count-of-true-lanes loop it replaces compiled to a 20-instruction permute and
 * horizontal-add chain, 15% of CuPy's elementwise add (one branch test per loop iteration). */
#if defined(__AVX512F__)
typedef int __v16si_t __attribute__((vector_size(64), aligned(4)));
P_INL uint32_t __lane_mask(const int *p) {
    uint32_t m = 0;
    for (uint32_t c = 0; c < NPU_LANES / 16u; c++) {
        __v16si_t v; memcpy(&v, p + 16u * c, sizeof v);
        m |= (uint32_t)__builtin_ia32_ptestmd512((__v16si_t)v, (__v16si_t)v, (unsigned short)0xffff) << (16u * c);
    }
    return m; }
#else
P_INL uint32_t __lane_mask(const int *p) {
    uint32_t m = 0; for (uint32_t l = 0; l < NPU_LANES; l++) m |= (uint32_t)(p[l] != 0) << l; return m; }
#endif
/* whether the NPU_LANES values at p are p[0] + l*s (s = 0: all equal), modulo the width: the
 * lane classes a group's saved registers must hold before it goes back to the lane copy
 * (ptx_emit.c, lane_reentry_check). AVX-512: one compare per vector into a mask register. */
#if defined(__AVX512F__)
typedef int __v16si_a_t __attribute__((vector_size(64), aligned(4)));
typedef long long __v8di_a_t __attribute__((vector_size(64), aligned(8)));
P_INL int __lane_aff32(const void *p, uint32_t s) {
    const uint32_t *q = (const uint32_t *)p;
    __v16si_a_t e = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, v;
    e = (__v16si_a_t)((__v16si_a_t)e * (int)s + (int)q[0]);
    unsigned m = 0;
    for (uint32_t c = 0; c < NPU_LANES / 16u; c++) {
        memcpy(&v, q + 16u * c, sizeof v);
        __v16si_a_t x = v ^ e;
        m |= __builtin_ia32_ptestmd512(x, x, (unsigned short)0xffff);
        e += (int)(16u * s);
    }
    return m == 0; }
P_INL int __lane_aff64(const void *p, uint64_t s) {
    const uint64_t *q = (const uint64_t *)p;
    __v8di_a_t e = {0, 1, 2, 3, 4, 5, 6, 7}, v;
    e = e * (long long)s + (long long)q[0];
    unsigned m = 0;
    for (uint32_t c = 0; c < NPU_LANES / 8u; c++) {
        memcpy(&v, q + 8u * c, sizeof v);
        __v8di_a_t x = v ^ e;
        m |= __builtin_ia32_ptestmq512(x, x, (unsigned char)0xff);
        e += (long long)(8u * s);
    }
    return m == 0; }
#else
P_INL int __lane_aff32(const void *p, uint32_t s) {
    const uint32_t *q = (const uint32_t *)p; uint32_t ok = 1;
    for (uint32_t l = 0; l < NPU_LANES; l++) ok &= q[l] == (uint32_t)(q[0] + l * s); return (int)ok; }
P_INL int __lane_aff64(const void *p, uint64_t s) {
    const uint64_t *q = (const uint64_t *)p; uint32_t ok = 1;
    for (uint32_t l = 0; l < NPU_LANES; l++) ok &= q[l] == (uint64_t)(q[0] + l * s); return (int)ok; }
#endif
P_INL int __lane_aff16(const void *p, uint16_t s) {
    const uint16_t *q = (const uint16_t *)p; uint32_t ok = 1;
    for (uint32_t l = 0; l < NPU_LANES; l++) ok &= q[l] == (uint16_t)(q[0] + l * s); return (int)ok; }
P_INL int __lane_aff8(const void *p, uint8_t s) {
    const uint8_t *q = (const uint8_t *)p; uint32_t ok = 1;
    for (uint32_t l = 0; l < NPU_LANES; l++) ok &= q[l] == (uint8_t)(q[0] + l * s); return (int)ok; }
P_INL uint32_t __f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
P_INL float __u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
P_INL uint64_t __d2u(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
P_INL double __u2d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }

/* ---- rounding modes: 0 rn, 1 rz, 2 rm, 3 rp (the emitter's numbering) ---- */
P_INL int __fe(int m) { return m == 1 ? FE_TOWARDZERO : m == 2 ? FE_DOWNWARD : m == 3 ? FE_UPWARD : FE_TONEAREST; }
#define P_RND_BIN(name, T, op) \
P_INL T name(T a, T b, int m) { if (m == 0) return a op b; \
    volatile T x = a, y = b; int o = fegetround(); fesetround(__fe(m)); volatile T r = x op y; \
    fesetround(o); return r; }
P_RND_BIN(__div_f32, float, /)
P_RND_BIN(__add_f64, double, +) P_RND_BIN(__sub_f64, double, -)
P_RND_BIN(__mul_f64, double, *) P_RND_BIN(__div_f64, double, /)
P_INL double __fma_f64(double a, double b, double c, int m) { if (m == 0) return fma(a, b, c);
    volatile double x = a, y = b, z = c; int o = fegetround(); fesetround(__fe(m));
    volatile double r = fma(x, y, z); fesetround(o); return r; }
P_INL float __sqrt_f32(float a, int m) { if (m == 0) return sqrtf(a);
    volatile float x = a; int o = fegetround(); fesetround(__fe(m)); volatile float r = sqrtf(x);
    fesetround(o); return r; }
P_INL double __sqrt_f64(double a, int m) { if (m == 0) return sqrt(a);
    volatile double x = a; int o = fegetround(); fesetround(__fe(m)); volatile double r = sqrt(x);
    fesetround(o); return r; }
/* integer / double -> float or double with a rounding mode */
P_INL float __i2f(int64_t v, int m) { if (m == 0) return (float)v;
    volatile int64_t x = v; int o = fegetround(); fesetround(__fe(m)); volatile float r = (float)x; fesetround(o); return r; }
P_INL float __u2fr(uint64_t v, int m) { if (m == 0) return (float)v;
    volatile uint64_t x = v; int o = fegetround(); fesetround(__fe(m)); volatile float r = (float)x; fesetround(o); return r; }
P_INL double __i2d(int64_t v, int m) { if (m == 0) return (double)v;
    volatile int64_t x = v; int o = fegetround(); fesetround(__fe(m)); volatile double r = (double)x; fesetround(o); return r; }
P_INL double __u2dr(uint64_t v, int m) { if (m == 0) return (double)v;
    volatile uint64_t x = v; int o = fegetround(); fesetround(__fe(m)); volatile double r = (double)x; fesetround(o); return r; }
P_INL float __d2f(double v, int m) { if (m == 0) return (float)v;
    volatile double x = v; int o = fegetround(); fesetround(__fe(m)); volatile float r = (float)x; fesetround(o); return r; }
/* cvt.ftz.f32.f64: tininess after rounding. The value is rounded to 24 significant bits as if the
 * exponent were unbounded, and flushed to signed zero if that is below FLT_MIN. Recorded on an H200
 * (diff_int cd.d2f_ftz, .rn): 0x380fffffe0000000 = 2^-126 - 2^-150 (exactly 24 bits, a tie between the
 * largest subnormal and FLT_MIN in plain rounding) -> +0; 0x380ffffff0000000 = 2^-126 - 2^-151 (rounds
 * up to 2^-126 at 24 bits) -> FLT_MIN. Below 2^-126 the only unflushed result is +-FLT_MIN; scaling by
 * 2^64 (exact) moves the rounding out of the subnormal range. */
P_INL float __d2f_ftz(double v, int m) {
    if (!(fabs(v) < 0x1p-126)) return __d2f(v, m);
    float f = __d2f(v * 0x1p64, m);
    return copysignf(fabsf(f) >= 0x1p-62f ? 0x1p-126f : 0.0f, f); }

/* ex2.approx.f32 (the ISA allows 2 ulp from the correctly rounded result): branch-free, so
 * lane loops vectorize it (exp2f was a libm call per element: CuPy's exp, whose nvcc expf
 * ends in ex2.approx.ftz, ran at 18 ns/element). x = n + f, n = nearest integer (the
 * 1.5*2^52 trick, exact with -ffp-contract=off), f in [-0.5, 0.5]; 2^f by its Taylor
 * series in double to degree 8 (truncation below 2^-32 relative), scaled by 2^n built in the
 * exponent bits, rounded once to float (subnormal results rounded as such). Off the ends:
 * x >= 128 -> +inf, x < -150 -> +0 (below half the smallest subnormal), NaN -> NaN.
 * tests/ptx/prelude_round.c: 20M random inputs (uniform in [-151, 129] and random bit
 * patterns) plus the specials, against exp2 in double rounded to float: at most 1 ulp. */
P_INL float __ex2_f32(float x) {
    double xc = x != x ? 0.0 : (x > 130.0f ? 130.0 : (x < -160.0f ? -160.0 : (double)x));
    double n = (xc + 0x1.8p52) - 0x1.8p52, f = xc - n, t = f * 0x1.62e42fefa39efp-1;
    double p = 1.0 + t * (1.0 + t * (0.5 + t * (1.0 / 6 + t * (1.0 / 24 + t * (1.0 / 120 + t * (1.0 / 720 +
               t * (1.0 / 5040 + t * (1.0 / 40320))))))));
    double sc = __u2d((uint64_t)((int64_t)n + 1023) << 52);
    float r = (float)(p * sc);
    return x != x ? x : (x >= 128.0f ? __u2f(0x7f800000u) : (x < -150.0f ? 0.0f : r)); }

/* ---- ftz / sat / NaN ---- */
/* Branch-free forms (selects, not branches): lane-group loops vectorize them, and per-thread
 * code does not mispredict on data such as ReLU outputs (half exact zeros). CuPy compiles with
 * .ftz, so every f32 operand and result goes through __ftz32: measured on cupy_maximum
 * (256x128, one core) 3.3-8.1 ns/element with the branchy forms. */
P_INL float __ftz32(float x) { uint32_t u = __f2u(x); return __u2f(u & ((u & 0x7f800000u) ? 0xffffffffu : 0x80000000u)); }
P_INL double __ftz64(double x) { uint64_t u = __d2u(x); return __u2d(u & ((u & 0x7ff0000000000000ull) ? ~0ull : 0x8000000000000000ull)); }
P_INL float __sat32(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
P_INL double __sat64(double x) { return x > 0.0 ? (x < 1.0 ? x : 1.0) : 0.0; }
#define P_CNAN32 __u2f(0x7fffffffu)
#define P_CNAN64 __u2d(0x7fffffffffffffffull)
/* min/max: -0 < +0 (equal operands: OR / AND of the bits picks the signed / unsigned zero);
 * one NaN operand gives the other operand, two (.NaN: any) give the canonical NaN. The NaN
 * cases are integer masks (all ones for a NaN), not compares: in a lane loop whose second
 * operand is uniform (CuPy's maximum(x, 0), ReLU), gcc turned the scalar `b != b` into a
 * 16-bit lane mask built bit by bit (~45 scalar shift/or instructions per group of 16, more
 * than the vector work), and branches kept the f64 forms out of lane loops entirely.
 * Measured on CuPy's maximum(x, 0) (32K floats, one core, 3 interleaved pairs): 1.16-1.44 ->
 * 0.76-0.90 ns/element. */
P_INL uint32_t __nanm32(uint32_t u) { return (uint32_t)((int32_t)(0x7f800000u - (u & 0x7fffffffu)) >> 31); }
P_INL uint64_t __nanm64(uint64_t u) {
    return (uint64_t)((int64_t)(0x7ff0000000000000ull - (u & 0x7fffffffffffffffull)) >> 63); }
P_INL float __mm_nan32(float a, float b, float r, int nan) {
    uint32_t au = __f2u(a), bu = __f2u(b), an = __nanm32(au), bn = __nanm32(bu);
    uint32_t un = an | bn, both = nan ? un : an & bn;
    uint32_t x = (au & ~an) | (bu & an);                 /* the operand that is not NaN */
    x = (x & ~both) | (0x7fffffffu & both);              /* or the canonical NaN */
    return __u2f((x & un) | (__f2u(r) & ~un)); }
P_INL double __mm_nan64(double a, double b, double r, int nan) {
    uint64_t au = __d2u(a), bu = __d2u(b), an = __nanm64(au), bn = __nanm64(bu);
    uint64_t un = an | bn, both = nan ? un : an & bn;
    uint64_t x = (au & ~an) | (bu & an);
    x = (x & ~both) | (0x7fffffffffffffffull & both);
    return __u2d((x & un) | (__d2u(r) & ~un)); }
P_INL float __min_f32(float a, float b, int nan) {
    float r = a < b ? a : b;
    r = a == b ? __u2f(__f2u(a) | __f2u(b)) : r;
    return __mm_nan32(a, b, r, nan); }
P_INL float __max_f32(float a, float b, int nan) {
    float r = a > b ? a : b;
    r = a == b ? __u2f(__f2u(a) & __f2u(b)) : r;
    return __mm_nan32(a, b, r, nan); }
P_INL double __min_f64(double a, double b, int nan) {
    double r = a < b ? a : b;
    r = a == b ? __u2d(__d2u(a) | __d2u(b)) : r;
    return __mm_nan64(a, b, r, nan); }
P_INL double __max_f64(double a, double b, int nan) {
    double r = a > b ? a : b;
    r = a == b ? __u2d(__d2u(a) & __d2u(b)) : r;
    return __mm_nan64(a, b, r, nan); }

/* ---- float -> integer: rounding 4 rni, 5 rzi, 6 rmi, 7 rpi (also 0..3); saturating ----
 * NaN (PTX ISA 9.0, cvt, paraphrased: in a float-to-integer conversion a NaN input gives zero if the
 * source is not .f64 and the destination is not .s64/.u64, otherwise 1 << (BitWidth(dst) - 1), i.e.
 * MININT for signed and (MAXINT >> 1) + 1 for unsigned types; .sat changes nothing).
 * Recorded on an H200 (tests/diff/diff_int.cu cf/cd/ch/cb sections): f64 -> s8 0x80 (sign-extended
 * in its 32-bit register), u8 0x80, s16/u16 0x8000, s32/u32 0x80000000, any -> s64/u64 1 << 63;
 * f32/f16/bf16 -> 8..32 bits 0. nanhi: the emitter passes (source is f64 || destination is 64-bit). */
P_INL double __rndi(double x, int m) {
    switch (m & 3) { case 1: return trunc(x); case 2: return floor(x); case 3: return ceil(x); default: return nearbyint(x); } }
P_INL int64_t __cvt_sat_s(double x, int m, int bits, int nanhi) {
    if (x != x) return nanhi ? (int64_t)(~0ull << (bits - 1)) : 0;
    x = __rndi(x, m);
    double hi = ldexp(1.0, bits - 1), lo = -hi;
    if (x >= hi) return (int64_t)((((uint64_t)1) << (bits - 1)) - 1);
    if (x <= lo) return bits == 64 ? INT64_MIN : -(int64_t)(((uint64_t)1) << (bits - 1));
    return (int64_t)x; }
P_INL uint64_t __cvt_sat_u(double x, int m, int bits, int nanhi) {
    if (x != x) return nanhi ? ((uint64_t)1) << (bits - 1) : 0;
    x = __rndi(x, m);
    double hi = ldexp(1.0, bits);
    if (x >= hi) return bits == 64 ? UINT64_MAX : ((((uint64_t)1) << bits) - 1);
    if (x <= 0.0) return 0;
    return (uint64_t)x; }
/* f32 sources keep their value in double exactly; a 64-bit integer result from a double that is
 * exactly representable only as long double needs nothing more. */
P_INL int64_t __sat_s(int64_t v, int bits) { int64_t hi = (int64_t)((((uint64_t)1) << (bits - 1)) - 1), lo = -hi - 1;
    return v > hi ? hi : v < lo ? lo : v; }
P_INL uint64_t __sat_u_from_s(int64_t v, int bits) { uint64_t hi = bits == 64 ? UINT64_MAX : ((((uint64_t)1) << bits) - 1);
    return v < 0 ? 0 : (uint64_t)v > hi ? hi : (uint64_t)v; }
P_INL uint64_t __sat_u(uint64_t v, int bits) { uint64_t hi = bits == 64 ? UINT64_MAX : ((((uint64_t)1) << bits) - 1); return v > hi ? hi : v; }
P_INL int64_t __sat_s_from_u(uint64_t v, int bits) { uint64_t hi = (((uint64_t)1) << (bits - 1)) - 1; return (int64_t)(v > hi ? hi : v); }

/* ---- f16 / bf16: exact decode, correctly rounded encode from double ---- */
P_INL double __h2d(uint16_t h) {
    int e = (h >> 10) & 31, m = h & 1023; double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 31) return m ? __u2d(0x7ff8000000000000ull) : s * INFINITY;
    if (e == 0) return s * ldexp((double)m, -24);
    return s * ldexp((double)(m + 1024), e - 25); }
P_INL double __b2d(uint16_t h) { return (double)__u2f((uint32_t)h << 16); }
/* mbits: stored mantissa bits, emax: max exponent (== bias). mode 0 rn 1 rz 2 rm 3 rp */
P_INL uint16_t __d2small(double x, int m, int mbits, int emax) {
    uint16_t sign = (__d2u(x) >> 63) ? (uint16_t)(1u << (mbits + (emax == 15 ? 5 : 8))) : 0;
    uint16_t inf = (uint16_t)((2 * emax + 1) << mbits);
    if (x != x) return 0x7fff;
    double a = fabs(x);
    if (isinf(a)) return sign | inf;
    if (a == 0.0) return sign;
    int e; frexp(a, &e);
    int E = e - 1, emin = 1 - emax;
    if (E < emin) E = emin;
    double q = ldexp(a, mbits - E), qi;
    switch (m) { case 1: qi = trunc(q); break; case 2: qi = sign ? ceil(q) : floor(q); break;
                 case 3: qi = sign ? floor(q) : ceil(q); break; default: qi = nearbyint(q); }
    uint32_t qq = (uint32_t)qi, one = 1u << mbits;
    if (qq >= 2 * one) { qq >>= 1; E++; }
    if (E > emax) {
        int to_inf = m == 0 || (m == 2 && sign) || (m == 3 && !sign);
        return sign | (to_inf ? inf : (uint16_t)(inf - 1));
    }
    if (qq < one) return sign | (uint16_t)qq;
    return sign | (uint16_t)(((uint32_t)(E + emax) << mbits) | (qq - one)); }
P_INL uint16_t __d2h(double x, int m) { return __d2small(x, m, 10, 15); }
P_INL uint16_t __d2b(double x, int m) { return __d2small(x, m, 7, 127); }
/* cvt .relu (negative and -0 -> +0; NaN stays NaN, encoded canonical) and .satfinite (an
 * infinite f16/bf16 result becomes the largest finite value of its sign) */
P_INL double __relu_d(double v) { return v != v ? v : (v <= 0 ? 0.0 : v); }
P_INL uint16_t __satfin16(uint16_t h, int bf) {
    uint16_t m = h & 0x7fff;
    return (bf ? m == 0x7f80 : m == 0x7c00) ? (uint16_t)((h & 0x8000) | (bf ? 0x7f7f : 0x7bff)) : h; }
/* min/max.xorsign.abs: the magnitude result m gets sign(a) ^ sign(b); a NaN result stays as is */
P_INL float __xorsign32(float m, float a, float b) {
    if (m != m) return m;
    return __u2f((__f2u(m) & 0x7fffffffu) | ((__f2u(a) ^ __f2u(b)) & 0x80000000u)); }
/* min/max{.relu} on .s16x2 / .u16x2: each half on its own */
P_INL uint32_t __mm16x2(uint32_t a, uint32_t b, int mx, int sg, int relu) {
    uint32_t r = 0;
    for (int h = 0; h < 32; h += 16) {
        uint32_t x = (a >> h) & 0xffffu, y = (b >> h) & 0xffffu, z;
        if (sg) { int32_t p = (int16_t)x, q = (int16_t)y, v = mx ? (p > q ? p : q) : (p < q ? p : q);
                  if (relu && v < 0) v = 0; z = (uint32_t)v & 0xffffu; }
        else z = mx ? (x > y ? x : y) : (x < y ? x : y);
        r |= z << h;
    }
    return r; }
P_INL uint16_t __hftz(uint16_t h) { return (h & 0x7c00) == 0 ? (h & 0x8000) : h; }
P_INL uint16_t __bftz(uint16_t h) { return (h & 0x7f80) == 0 ? (h & 0x8000) : h; }
/* p + z (finite doubles) rounded to odd: truncated, last significand bit set if inexact. Rounding
 * that once more to a format of at most 51 significand bits (f16, bf16) gives the correctly rounded
 * p + z in every mode (Boldo-Melquiond), where rounding p + z to nearest in double first could round
 * twice: bf16 fma (0x64c0, 0xc093, 0xbd36) is 0xe5dd on an H200, 0xe5dc rounded twice (the product is
 * a bf16 tie, the addend 81 bits below it). The product of two f16/bf16 values is exact in double;
 * two-sum gives the exact error of the nearest sum (no overflow: |p| < 2^257). */
P_INL double __sum_rto(double p, double z) {   /* selects, no branches: lane loops vectorize it */
    double s = p + z;
    double bp = s - z, bz = s - bp, err = (p - bp) + (z - bz);
    uint64_t u = __d2u(s);
    uint64_t t = ((err < 0) != (s < 0)) ? u - 1 : u;    /* |p + z| < |s|: truncation is one below s */
    double o = __u2d(t | 1);
    return (err == 0 || err != err) ? s : o; }          /* exact, or an inf/NaN operand */
/* f32 add/sub/mul/fma with a directed rounding (.rz/.rm/.rp), without switching the FP
 * environment: the exact result rounded to odd in double (products of floats are exact in
 * double; sums go through __sum_rto), then one directed rounding to float (round-to-odd at 53
 * bits makes the second rounding exact for 24). tests/ptx/prelude_round.c compares them with
 * the FPU in that rounding mode (P_RND_BIN-style fesetround around one volatile op). Measured:
 * fesetround/fegetround per element were 1.4% of all CPU time of examples/train_cupy.py (nvcc's
 * expf uses fma.rm). x, y: the exact operands (for the sign of an exact zero). */
P_INL float __d2f_dir(double r, int m, double x, double y) {   /* selects only (m is a constant) */
    /* exact zero: IEEE gives -0 in rm unless both operands are +0, else as rn */
    float z = m == 2 ? ((x == 0 && y == 0 && !signbit(x) && !signbit(y)) ? 0.0f : -0.0f) : (float)(x + y);
    float f = (float)r;
    double fd = (double)f;
    uint32_t u = __f2u(f);
    /* one step by the bits (nextafterf is a libm call): toward 0 is u - 1 for any nonzero f;
     * down/up from a zero is the smallest subnormal of that sign; else the magnitude grows
     * when the step goes away from zero (u + 1) and shrinks otherwise (u - 1) */
    if (m == 1) u = fabs(fd) > fabs(r) ? u - 1 : u;
    else if (m == 2) u = fd > r ? ((u & 0x7fffffffu) == 0 ? 0x80000001u : (u >> 31) ? u + 1 : u - 1) : u;
    else if (m == 3) u = fd < r ? ((u & 0x7fffffffu) == 0 ? 0x00000001u : (u >> 31) ? u - 1 : u + 1) : u;
    return r == 0 ? z : __u2f(u); }
P_INL float __fma_f32(float a, float b, float c, int m) { if (m == 0) return fmaf(a, b, c);
    double p = (double)a * (double)b, z = (double)c;
    return __d2f_dir(__sum_rto(p, z), m, p, z); }
P_INL float __add_f32(float a, float b, int m) { if (m == 0) return a + b;
    return __d2f_dir(__sum_rto((double)a, (double)b), m, (double)a, (double)b); }
P_INL float __sub_f32(float a, float b, int m) { if (m == 0) return a - b;
    return __d2f_dir(__sum_rto((double)a, -(double)b), m, (double)a, -(double)b); }
P_INL float __mul_f32(float a, float b, int m) { if (m == 0) return a * b;
    double p = (double)a * (double)b;
    if (p == 0) return a * b;                /* the sign of a zero product does not depend on the mode */
    return __d2f_dir(p, m, p, 0.0); }
/* op: 0 add 1 sub 2 mul 3 min 4 max 5 neg 6 abs 7 fma; bf: 1 for bf16; fl: 1 ftz, 2 sat, 4 NaN, 8 relu */
P_INL uint16_t __hop(uint16_t a, uint16_t b, uint16_t c, int op, int bf, int fl, int m) {
    if (op == 5) return a ^ 0x8000;
    if (op == 6) return a & 0x7fff;
    if (fl & 1) { a = bf ? __bftz(a) : __hftz(a); b = bf ? __bftz(b) : __hftz(b); c = bf ? __bftz(c) : __hftz(c); }
    double x = bf ? __b2d(a) : __h2d(a), y = bf ? __b2d(b) : __h2d(b), z = bf ? __b2d(c) : __h2d(c), r;
    switch (op) {
    case 0: r = __sum_rto(x, y); break; case 1: r = __sum_rto(x, -y); break; case 2: r = x * y; break;
    case 3: case 4: {
            uint16_t res;
            if (x != x || y != y) {
                if ((fl & 4) || (x != x && y != y)) res = 0x7fff; else res = x != x ? b : a;
            } else if (x == y) res = (op == 3) == !!(a & 0x8000) ? a : b;
            else res = (op == 3) == (x < y) ? a : b;
            if (fl & 8) { int nan = bf ? ((res & 0x7f80) == 0x7f80 && (res & 0x7f)) : ((res & 0x7c00) == 0x7c00 && (res & 0x3ff));
                          if (nan) res = 0x7fff; else if (res & 0x8000) res = 0; }
            return res; }
    default: r = __sum_rto(x * y, z); break; }
    if (fl & 2) r = __sat64(r);
    if ((fl & 8) && r != r) return 0x7fff;              /* .relu: NaN -> canonical NaN */
    if ((fl & 8) && r < 0) r = 0.0;                     /* .relu: negative -> +0 */
    uint16_t h = bf ? __d2b(r, m) : __d2h(r, m);
    if (fl & 1) h = bf ? __bftz(h) : __hftz(h);
    return h; }
P_INL uint32_t __hop2(uint32_t a, uint32_t b, uint32_t c, int op, int bf, int fl, int m) {
    return (uint32_t)__hop((uint16_t)a, (uint16_t)b, (uint16_t)c, op, bf, fl, m)
         | ((uint32_t)__hop((uint16_t)(a >> 16), (uint16_t)(b >> 16), (uint16_t)(c >> 16), op, bf, fl, m) << 16); }

/* ---- integer helpers ---- */
P_INL uint32_t __div_u32(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
P_INL uint64_t __div_u64(uint64_t a, uint64_t b) { return b ? a / b : ~0ull; }
P_INL int32_t __div_s32(int32_t a, int32_t b) { return b == 0 ? -1 : (b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b); }
P_INL int64_t __div_s64(int64_t a, int64_t b) { return b == 0 ? -1 : (b == -1 ? (int64_t)(0ull - (uint64_t)a) : a / b); }
P_INL uint32_t __rem_u32(uint32_t a, uint32_t b) { return b ? a % b : a; }
P_INL uint64_t __rem_u64(uint64_t a, uint64_t b) { return b ? a % b : a; }
P_INL int32_t __rem_s32(int32_t a, int32_t b) { return b == 0 ? a : (b == -1 ? 0 : a % b); }
P_INL int64_t __rem_s64(int64_t a, int64_t b) { return b == 0 ? a : (b == -1 ? 0 : a % b); }
/* Lane-group forms of 32-bit div/rem (ptx_emit.c uses them in the lane copy): x86 has no
 * vector integer division, so a lane loop of a / b was 16 scalar divides (CuPy's take and
 * broadcasting index math: index / extent and index % extent per element). Here the quotient
 * is the truncated double quotient, which vectorizes (vdivpd) and is exact for every 32-bit
 * a, b: a true quotient that is not an integer lies at least 1/|b| from the next integer
 * toward larger magnitude, a relative gap over 2^-33, and double division is correctly
 * rounded (relative error under 2^-53), so truncating cannot cross it. Division by zero and
 * INT_MIN / -1 as the scalar forms above (tests/ptx/prelude_round.c compares them on edge
 * cases and 10M random pairs). */
P_INL uint32_t __div_u32v(uint32_t a, uint32_t b) {
    uint32_t q = (uint32_t)(int64_t)((double)a / (double)(b ? b : 1u)); return b ? q : 0xffffffffu; }
P_INL uint32_t __rem_u32v(uint32_t a, uint32_t b) { return b ? a - __div_u32v(a, b) * b : a; }
P_INL int32_t __div_s32v(int32_t a, int32_t b) {
    int64_t q = (int64_t)((double)a / (double)(b ? b : 1)); return b ? (int32_t)(uint32_t)(uint64_t)q : -1; }
P_INL int32_t __rem_s32v(int32_t a, int32_t b) {   /* mod 2^32, so INT_MIN / -1 wrapping to INT_MIN still gives 0 */
    return b ? (int32_t)((uint32_t)a - (uint32_t)__div_s32v(a, b) * (uint32_t)b) : a; }
P_INL uint16_t __div_u16(uint16_t a, uint16_t b) { return b ? a / b : 0xffff; }
P_INL int16_t __div_s16(int16_t a, int16_t b) { return b == 0 ? -1 : (int16_t)(a / b); }
P_INL uint16_t __rem_u16(uint16_t a, uint16_t b) { return b ? a % b : a; }
P_INL int16_t __rem_s16(int16_t a, int16_t b) { return b == 0 ? a : (int16_t)(a % b); }
P_INL uint32_t __brev32(uint32_t x) { x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2); x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x); }
P_INL uint64_t __brev64(uint64_t x) { return ((uint64_t)__brev32((uint32_t)x) << 32) | __brev32((uint32_t)(x >> 32)); }
P_INL uint32_t __bfind(uint64_t v, int bits, int sgn, int shiftamt) {
    if (sgn && (v >> (bits - 1) & 1)) v = ~v;
    if (bits == 32) v &= 0xffffffffu;
    if (sgn) v &= (bits == 64) ? 0x7fffffffffffffffull : 0x7fffffffull;
    if (v == 0) return 0xffffffffu;
    uint32_t p = 63u - (uint32_t)__builtin_clzll(v);
    return shiftamt ? (uint32_t)(bits - 1) - p : p; }
P_INL uint64_t __bfe(uint64_t a, uint32_t pos, uint32_t len, int bits, int sgn) {
    pos &= 0xff; len &= 0xff;
    uint32_t msb = (uint32_t)bits - 1;
    uint64_t sbit = 0;
    if (sgn) { if (len == 0) sbit = 0; else { uint32_t i = pos + len - 1; if (i > msb) i = msb; sbit = (a >> i) & 1; } }
    uint64_t d = 0;
    for (uint32_t i = 0; i <= msb; i++) {
        uint64_t bit = (i < len && pos + i <= msb) ? ((a >> (pos + i)) & 1) : sbit;
        d |= bit << i;
    }
    return d; }
P_INL uint64_t __bfi(uint64_t f, uint64_t b, uint32_t pos, uint32_t len, int bits) {
    pos &= 0xff; len &= 0xff;
    uint32_t msb = (uint32_t)bits - 1;
    uint64_t d = b;
    for (uint32_t i = 0; i < len && pos + i <= msb; i++)
        d = (d & ~(1ull << (pos + i))) | (((f >> i) & 1) << (pos + i));
    return d; }
/* prmt: mode 0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16 */
P_INL uint32_t __prmt(uint32_t a, uint32_t b, uint32_t c, int mode) {
    uint64_t x = ((uint64_t)b << 32) | a;
    uint32_t sel[4], d = 0, s = c & 3;
    static const uint8_t tab[7][4][4] = {
        {{0}}, /* generic: unused */
        {{0,1,2,3},{1,2,3,4},{2,3,4,5},{3,4,5,6}},  /* f4e */
        {{0,7,6,5},{1,0,7,6},{2,1,0,7},{3,2,1,0}},  /* b4e */
        {{0,0,0,0},{1,1,1,1},{2,2,2,2},{3,3,3,3}},  /* rc8 */
        {{0,1,2,3},{1,1,2,3},{2,2,2,3},{3,3,3,3}},  /* ecl */
        {{0,0,0,0},{0,1,1,1},{0,1,2,2},{0,1,2,3}},  /* ecr */
        {{0,1,0,1},{2,3,2,3},{0,1,0,1},{2,3,2,3}},  /* rc16 */
    };
    if (mode == 0) {
        for (int i = 0; i < 4; i++) {
            uint32_t n = (c >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(x >> (8 * (n & 7))) & 0xff;
            if (n & 8) byte = (byte & 0x80) ? 0xff : 0;
            sel[i] = byte;
        }
    } else {
        for (int i = 0; i < 4; i++) sel[i] = (uint32_t)(x >> (8 * tab[mode][s][i])) & 0xff;
    }
    for (int i = 0; i < 4; i++) d |= sel[i] << (8 * i);
    return d; }
P_INL uint32_t __shf(uint32_t a, uint32_t b, uint32_t c, int left, int wrap) {
    uint32_t n = wrap ? (c & 31) : (c > 32 ? 32 : c);
    uint64_t v = ((uint64_t)b << 32) | a;
    return left ? (uint32_t)((v << n) >> 32) : (uint32_t)(v >> n); }
P_INL int32_t __dp4a(uint32_t a, uint32_t b, int32_t c, int sa, int sb) {
    int32_t s = c;
    for (int i = 0; i < 4; i++) {
        int32_t x = sa ? (int8_t)(a >> (8 * i)) : (int32_t)((a >> (8 * i)) & 0xff);
        int32_t y = sb ? (int8_t)(b >> (8 * i)) : (int32_t)((b >> (8 * i)) & 0xff);
        s = (int32_t)((uint32_t)s + (uint32_t)(x * y));
    }
    return s; }
P_INL int32_t __dp2a(uint32_t a, uint32_t b, int32_t c, int sa, int sb, int hi) {
    int32_t s = c;
    for (int i = 0; i < 2; i++) {
        int32_t x = sa ? (int16_t)(a >> (16 * i)) : (int32_t)((a >> (16 * i)) & 0xffff);
        int32_t y = sb ? (int8_t)(b >> (8 * (i + 2 * hi))) : (int32_t)((b >> (8 * (i + 2 * hi))) & 0xff);
        s = (int32_t)((uint32_t)s + (uint32_t)(x * y));
    }
    return s; }
P_INL int __testp32(float x, int k) {
    switch (k) { case 0: return isfinite(x); case 1: return isinf(x); case 2: return !isnan(x);
                 case 3: return isnan(x); case 4: return isnormal(x) || x == 0; default: return fpclassify(x) == FP_SUBNORMAL; } }
P_INL int __testp64(double x, int k) {
    switch (k) { case 0: return isfinite(x); case 1: return isinf(x); case 2: return !isnan(x);
                 case 3: return isnan(x); case 4: return isnormal(x) || x == 0; default: return fpclassify(x) == FP_SUBNORMAL; } }

/* ---- atomics (sequentially consistent: x86 locked ops are full barriers anyway) ---- */
#define P_SC __ATOMIC_SEQ_CST
#define P_CAS_OP(name, T, UT, EXPR) \
P_INL T name(void *p, T b) { UT *q = (UT *)p; UT o = __atomic_load_n(q, __ATOMIC_RELAXED), n; T a; \
    do { memcpy(&a, &o, sizeof a); T r = (EXPR); memcpy(&n, &r, sizeof n); } \
    while (!__atomic_compare_exchange_n(q, &o, n, 1, P_SC, __ATOMIC_RELAXED)); memcpy(&a, &o, sizeof a); return a; }
P_CAS_OP(__atom_add_f32, float, uint32_t, __ftz32(__ftz32(a) + __ftz32(b)))
P_CAS_OP(__atom_add_f32_noftz, float, uint32_t, a + b)
P_CAS_OP(__atom_add_f64, double, uint64_t, a + b)
P_CAS_OP(__atom_min_f32, float, uint32_t, __min_f32(a, b, 0))
P_CAS_OP(__atom_max_f32, float, uint32_t, __max_f32(a, b, 0))
P_CAS_OP(__atom_min_s32, int32_t, uint32_t, a < b ? a : b)
P_CAS_OP(__atom_max_s32, int32_t, uint32_t, a > b ? a : b)
P_CAS_OP(__atom_min_u32, uint32_t, uint32_t, a < b ? a : b)
P_CAS_OP(__atom_max_u32, uint32_t, uint32_t, a > b ? a : b)
P_CAS_OP(__atom_min_s64, int64_t, uint64_t, a < b ? a : b)
P_CAS_OP(__atom_max_s64, int64_t, uint64_t, a > b ? a : b)
P_CAS_OP(__atom_min_u64, uint64_t, uint64_t, a < b ? a : b)
P_CAS_OP(__atom_max_u64, uint64_t, uint64_t, a > b ? a : b)
P_CAS_OP(__atom_inc_u32, uint32_t, uint32_t, a >= b ? 0u : a + 1u)
P_CAS_OP(__atom_dec_u32, uint32_t, uint32_t, (a == 0 || a > b) ? b : a - 1u)
P_CAS_OP(__atom_add_f16x2, uint32_t, uint32_t, __hop2(a, b, 0, 0, 0, 0, 0))
P_CAS_OP(__atom_add_bf16x2, uint32_t, uint32_t, __hop2(a, b, 0, 0, 1, 0, 0))
P_CAS_OP(__atom_min_f16x2, uint32_t, uint32_t, __hop2(a, b, 0, 3, 0, 0, 0))
P_CAS_OP(__atom_max_f16x2, uint32_t, uint32_t, __hop2(a, b, 0, 4, 0, 0, 0))
P_INL uint16_t __atom_add_f16(void *p, uint16_t b) { uint16_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED), n;
    do { n = __hop(o, b, 0, 0, 0, 0, 0); } while (!__atomic_compare_exchange_n(q, &o, n, 1, P_SC, __ATOMIC_RELAXED)); return o; }
P_INL uint16_t __atom_add_bf16(void *p, uint16_t b) { uint16_t *q = p, o = __atomic_load_n(q, __ATOMIC_RELAXED), n;
    do { n = __hop(o, b, 0, 0, 1, 0, 0); } while (!__atomic_compare_exchange_n(q, &o, n, 1, P_SC, __ATOMIC_RELAXED)); return o; }
#define __atom_cas(T, p, c, v) ({ T __e = (c); __atomic_compare_exchange_n((T *)(p), &__e, (T)(v), 0, P_SC, P_SC); __e; })

/* lop3: bit i of the result is bit ((a_i << 2) | (b_i << 1) | c_i) of lut. Loop-free (each
 * minterm selected by a mask): a loop here stayed a loop at -O1 and kept lane loops from
 * vectorizing. An immediate lut is expanded by the emitter instead (lop3_expr). */
P_INL uint32_t __lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut) {
#define P_LOP3_T(k) ((0u - ((lut >> (k)) & 1u)) & (((k) & 4) ? a : ~a) & (((k) & 2) ? b : ~b) & (((k) & 1) ? c : ~c))
    return P_LOP3_T(0) | P_LOP3_T(1) | P_LOP3_T(2) | P_LOP3_T(3) | P_LOP3_T(4) | P_LOP3_T(5) | P_LOP3_T(6) | P_LOP3_T(7);
#undef P_LOP3_T
}
/* f16/bf16 unary approximations through double: 0 sin 1 cos 2 ex2 3 lg2 4 tanh 5 sqrt 6 rsqrt 7 rcp */
P_INL uint16_t __hun(uint16_t a, int op, int bf, int fl) {
    if (fl & 1) a = bf ? __bftz(a) : __hftz(a);
    double x = bf ? __b2d(a) : __h2d(a), r;
    switch (op) { case 0: r = sin(x); break; case 1: r = cos(x); break; case 2: r = exp2(x); break;
                  case 3: r = log2(x); break; case 4: r = tanh(x); break; case 5: r = sqrt(x); break;
                  case 6: r = 1.0 / sqrt(x); break; default: r = 1.0 / x; }
    uint16_t h = bf ? __d2b(r, 0) : __d2h(r, 0);
    if (fl & 1) h = bf ? __bftz(h) : __hftz(h);
    return h; }
P_INL uint32_t __hun2(uint32_t a, int op, int bf, int fl) {
    return (uint32_t)__hun((uint16_t)a, op, bf, fl) | ((uint32_t)__hun((uint16_t)(a >> 16), op, bf, fl) << 16); }
/* fns.b32: position of the |offset|-th set bit of mask counting up (offset > 0) or down
 * (offset < 0) from base inclusive; offset 0: base if that bit is set; 0xffffffff if none */
P_INL uint32_t __fns(uint32_t mask, uint32_t base, int32_t off) {
    if (base > 31) return 0xffffffffu;
    if (off == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
    int step = off > 0 ? 1 : -1, n = off > 0 ? off : -off;
    for (int i = (int)base; i >= 0 && i < 32; i += step)
        if ((mask >> i) & 1 && --n == 0) return (uint32_t)i;
    return 0xffffffffu; }

/* szext.{clamp,wrap}.{s32,u32}: the low N = b bits of a (b & 31 with .wrap; b >= 32 with .clamp:
 * all of a), sign- or zero-extended; N == 0 gives 0 */
P_INL uint32_t __szext(uint32_t a, uint32_t b, int clamp, int sgn) {
    uint32_t n = b & 31u;
    if (clamp && b >= 32) return a;
    if (n == 0) return 0;
    uint32_t mask = ~0u << n;
    return (sgn && (a >> (n - 1) & 1)) ? (a | mask) : (a & ~mask); }
/* bmsk.{clamp,wrap}.b32: b ones from bit a (positions and widths >= 32: see the ISA pseudo-code) */
P_INL uint32_t __bmsk(uint32_t a, uint32_t b, int clamp) {
    uint32_t a1 = a & 31u, b1 = b & 31u, sum = a1 + b1;
    uint32_t mask0 = (clamp && a >= 32) ? 0u : ~0u << a1;
    int over = sum >= 32 || (clamp && (a >= 32 || b >= 32));
    uint32_t mask1 = over ? 0u : b1 == 0 ? ~0u : ~0u << sum;
    return mask0 & ~mask1; }
/* cvt.pack.sat.{u16,s16,u8,s8,u4,s4,u2,s2}.s32: a saturated into bits [2w-1:w], b into [w-1:0],
 * the low bits of c above them (c is 0 for the 16-bit forms) */
P_INL uint32_t __pack_sat(int32_t a, int32_t b, uint32_t c, int w, int sgn) {
    int32_t hi = sgn ? (1 << (w - 1)) - 1 : (int32_t)((1u << w) - 1), lo = sgn ? -(1 << (w - 1)) : 0;
    uint32_t m = (1u << w) - 1;
    uint32_t ta = (uint32_t)(a > hi ? hi : a < lo ? lo : a) & m, tb = (uint32_t)(b > hi ? hi : b < lo ? lo : b) & m;
    return (2 * w >= 32 ? 0u : c << (2 * w)) | (ta << w) | tb; }
/* A 64-bit integer (magnitude u) as a double rounded to odd: exact when it fits in 53 bits, else
 * truncated with the last significand bit set if bits were lost. Rounding that to f16/bf16 (__d2h,
 * __d2b) in any mode gives the correctly rounded conversion of the integer (no double rounding). */
P_INL double __u64_rto(uint64_t u, int neg) {
    int sh = u >> 53 ? 11 - __builtin_clzll(u) : 0;
    uint64_t m = u >> sh;
    if (sh && (u & ((1ull << sh) - 1))) m |= 1;
    double d = ldexp((double)m, sh);
    return neg ? -d : d; }
P_INL double __s64_rto(int64_t v) { return __u64_rto(v < 0 ? 0ull - (uint64_t)v : (uint64_t)v, v < 0); }

/* ---- video instructions (PTX ISA "Video Instructions"): operands extended to 33 bits, the
 * operation in 34 or more, then saturation, a secondary operation or a merge into c ----
 * scalar selector sel: 0 the word, 1..4 byte b0..b3, 5..6 half-word h0..h1 */
P_INL s128_t __vpart(uint32_t x, int sel, int sgn) {
    if (sel >= 1 && sel <= 4) { uint32_t v = (x >> (8 * (sel - 1))) & 0xffu; return sgn ? (s128_t)(int8_t)v : (s128_t)v; }
    if (sel >= 5) { uint32_t v = (x >> (16 * (sel - 5))) & 0xffffu; return sgn ? (s128_t)(int16_t)v : (s128_t)v; }
    return sgn ? (s128_t)(int32_t)x : (s128_t)x; }
P_INL s128_t __vclamp(s128_t v, int bits, int sgn) {
    s128_t hi = sgn ? ((s128_t)1 << (bits - 1)) - 1 : ((s128_t)1 << bits) - 1, lo = sgn ? -((s128_t)1 << (bits - 1)) : 0;
    return v < lo ? lo : v > hi ? hi : v; }
/* op: 0 add 1 sub 2 absdiff 3 min 4 max 5 shl 6 shr 7 avrg (SIMD only) 8..13 set eq ne lt le gt ge.
 * fl: 1 a signed, 2 b signed, 4 d (and c) signed, 8 .sat, 16 .clamp (shifts; else .wrap). */
P_INL s128_t __vcalc(s128_t x, s128_t y, int op, int fl) {
    switch (op) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x > y ? x - y : y - x;
    case 3: return x < y ? x : y;
    case 4: return x > y ? x : y;
    case 5: case 6: {   /* the shift count is always .u32 */
        uint32_t n = (uint32_t)y;
        if (fl & 16) { if (n > 32) n = 32; } else n &= 31u;
        return op == 5 ? (s128_t)((u128_t)x << n) : x >> n; }
    case 7: return (x + y) >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1;
    case 8: return x == y; case 9: return x != y; case 10: return x < y;
    case 11: return x <= y; case 12: return x > y; default: return x >= y; } }
/* vadd vsub vabsdiff vmin vmax vshl vshr vset. dsel: merge into c (selector as above, 0: none);
 * op2: 0 none 1 .add 2 .min 3 .max */
P_INL uint32_t __vop(uint32_t a, uint32_t b, uint32_t c, int op, int asel, int bsel, int dsel, int fl, int op2) {
    s128_t t = __vcalc(__vpart(a, asel, fl & 1), __vpart(b, bsel, (fl >> 1) & 1), op, fl);
    if (fl & 8) t = __vclamp(t, dsel >= 5 ? 16 : dsel >= 1 ? 8 : 32, (fl >> 2) & 1);
    s128_t tc = (fl & 4) ? (s128_t)(int32_t)c : (s128_t)c;
    if (op2 == 1) t = t + tc;
    else if (op2 == 2) t = t < tc ? t : tc;
    else if (op2 == 3) t = t > tc ? t : tc;
    uint32_t r = (uint32_t)t;
    if (dsel >= 1 && dsel <= 4) { int sh = 8 * (dsel - 1); r = ((r & 0xffu) << sh) | (c & ~(0xffu << sh)); }
    else if (dsel >= 5) { int sh = 16 * (dsel - 5); r = ((r & 0xffffu) << sh) | (c & ~(0xffffu << sh)); }
    return r; }
/* vmad: (+-a * +-b) + +-c (+1 with .po), >> shift (0, 7, 15), .sat to the final type.
 * fl: 1 a signed, 2 b signed, 4 product negated, 8 c negated, 16 .po, 32 .sat */
P_INL uint32_t __vmad(uint32_t a, uint32_t b, uint32_t c, int asel, int bsel, int fl, int shift) {
    int sf = (fl & 15) != 0;   /* the final result is signed */
    s128_t t = __vpart(a, asel, fl & 1) * __vpart(b, bsel, (fl >> 1) & 1), lsb = 0;
    s128_t tc = sf ? (s128_t)(int32_t)c : (s128_t)c;
    if (fl & 16) lsb = 1;
    else if (fl & 4) { t = ~t; lsb = 1; }
    else if (fl & 8) { tc = ~tc; lsb = 1; }
    t = (t + tc + lsb) >> shift;
    if (fl & 32) t = __vclamp(t, 32, sf);
    return (uint32_t)t; }
/* SIMD video (vadd2 ... vset2, vadd4 ... vset4): n lanes of 32/n bits. asel/bsel: nibble i is the
 * element of the 64-bit {b, a} that lane i takes; mask: bit i set = lane i written (else c's lane),
 * or added with .add (fl 32: d = c + the sum of the masked lanes). op and fl as __vcalc. */
P_INL uint32_t __vsimd(uint32_t a, uint32_t b, uint32_t c, int n, int op, int asel, int bsel, int mask, int fl) {
    int w = 32 / n;
    uint64_t ab = ((uint64_t)b << 32) | a;
    uint32_t lm = (1u << w) - 1, d = (fl & 32) ? c : 0;
    for (int i = 0; i < n; i++) {
        uint32_t ea = (uint32_t)(ab >> (w * ((asel >> (4 * i)) & 15))) & lm, eb = (uint32_t)(ab >> (w * ((bsel >> (4 * i)) & 15))) & lm;
        s128_t x = (fl & 1) && (ea >> (w - 1)) ? (s128_t)ea - ((s128_t)1 << w) : (s128_t)ea;
        s128_t y = (fl & 2) && (eb >> (w - 1)) ? (s128_t)eb - ((s128_t)1 << w) : (s128_t)eb;
        s128_t t = __vcalc(x, y, op, fl);
        if (fl & 8) t = __vclamp(t, w, (fl >> 2) & 1);
        if (fl & 32) { if (mask >> i & 1) d += (uint32_t)t; }
        else d |= ((mask >> i & 1) ? ((uint32_t)t & lm) : ((c >> (w * i)) & lm)) << (w * i);
    }
    return d; }

/* ---- wmma m16n16k16: fragments are opaque in PTX; here lane l holds the tile's elements
 * 8l .. 8l+7 in row-major order of the logical matrix (A: m x k, B: k x n, C/D: m x n).
 * f16/bf16 fragments pack two elements per b32 register (registers 4..7 unused), f32
 * fragments hold one element per register. ---- */
P_INL const uint8_t *__wmma_at(const uint8_t *p, uint32_t e, uint32_t stride, int col, int esz) {
    uint32_t r = e >> 4, c = e & 15u;
    return p + (size_t)(col ? (c * stride + r) : (r * stride + c)) * (size_t)esz; }
/* lane l's elements 8l..8l+7 lie in row l/2, columns 8(l&1).. of the logical tile: one 16- or
 * 32-byte copy when the memory layout is row-major, a strided gather when column-major */
P_INL void __wmma_ld16(const uint8_t *p, uint32_t stride, int col, uint32_t lane, uint32_t *o) {
    if (!col) memcpy(o, __wmma_at(p, 8u * lane, stride, 0, 2), 16);
    else for (int j = 0; j < 4; j++) {
        uint32_t e = 8u * lane + 2u * (uint32_t)j;
        uint16_t h0, h1; memcpy(&h0, __wmma_at(p, e, stride, col, 2), 2); memcpy(&h1, __wmma_at(p, e + 1, stride, col, 2), 2);
        o[j] = (uint32_t)h0 | ((uint32_t)h1 << 16);
    }
    for (int j = 4; j < 8; j++) o[j] = 0; }
P_INL void __wmma_ld32(const uint8_t *p, uint32_t stride, int col, uint32_t lane, uint32_t *o) {
    if (!col) { memcpy(o, __wmma_at(p, 8u * lane, stride, 0, 4), 32); return; }
    for (int i = 0; i < 8; i++) memcpy(&o[i], __wmma_at(p, 8u * lane + (uint32_t)i, stride, col, 4), 4); }
P_INL void __wmma_st32(uint8_t *p, uint32_t stride, int col, uint32_t lane, const uint32_t *v) {
    if (!col) { memcpy((uint8_t *)__wmma_at(p, 8u * lane, stride, 0, 4), v, 32); return; }
    for (int i = 0; i < 8; i++) memcpy((uint8_t *)__wmma_at(p, 8u * lane + (uint32_t)i, stride, col, 4), &v[i], 4); }
P_INL void __wmma_st16(uint8_t *p, uint32_t stride, int col, uint32_t lane, const uint32_t *v) {
    if (!col) { memcpy((uint8_t *)__wmma_at(p, 8u * lane, stride, 0, 2), v, 16); return; }
    for (int j = 0; j < 4; j++) {
        uint32_t e = 8u * lane + 2u * (uint32_t)j;
        uint16_t h0 = (uint16_t)v[j], h1 = (uint16_t)(v[j] >> 16);
        memcpy((uint8_t *)__wmma_at(p, e, stride, col, 2), &h0, 2); memcpy((uint8_t *)__wmma_at(p, e + 1, stride, col, 2), &h1, 2);
    } }
/* f16 bits -> float, exactly (NaNs stay NaN, quieted). With _Float16 gcc uses F16C's
 * vcvtph2ps; the fallback is the IEEE bit layout. */
P_INL float __h2f(uint16_t h) {
#if defined(__FLT16_MAX__)
    _Float16 x; memcpy(&x, &h, 2); return (float)x;
#else
    uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 1023u;
    if (e == 31u) return __u2f(s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u));
    if (e == 0u) { float f = (float)m * 0x1p-24f; return s ? -f : f; }
    return __u2f(s | ((e + 112u) << 23) | (m << 13));
#endif
}
/* w: 32 lanes x {a[8], b[8], c[8]}; r: 32 lanes x d[8]. mode: 1 c is f16, 2 d is f16, 4 a/b bf16,
 * 8 a column-major, 16 b column-major. Lane l's fragment words hold elements 8l.. of the tile in
 * its layout's element order (c and d: row-major), so the 32 lanes' words in order are the tile
 * (f16: two per word, low half first); a column-major a or b is transposed first. Each d[m][n] = c[m][n] + sum over k of
 * a[m][k] * b[k][n], fused multiply-adds in k order. With AVX-512: the 16 rows' accumulators in
 * 16 zmm registers, one broadcast FMA per row and k (16 independent chains, not one chain of 16
 * per row), f16 inputs converted 16 at a time (vcvtph2ps). Measured on cuda-samples
 * cudaTensorCoreGemm (4096^3, 16.8M MMAs): see exec.c's rt_wmma_mma. The first version went
 * through __h2d (an ldexp call per element). */
#if defined(__AVX512F__)
typedef float __v16sf_w __attribute__((vector_size(64), aligned(64)));
typedef short __v16hi_w __attribute__((vector_size(32), aligned(32)));
P_INL void __wmma_cvt16(const uint16_t *h, float *f, int bf) {
    if (bf) { for (int i = 0; i < 16; i++) f[i] = __u2f((uint32_t)h[i] << 16); return; }
    __v16hi_w x; memcpy(&x, h, 32);
    __v16sf_w y = __builtin_ia32_vcvtph2ps512_mask(x, (__v16sf_w){0}, (unsigned short)0xffff, 4);
    memcpy(f, &y, 64); }
#endif
P_INL void __wmma_tr16(uint16_t *h) {   /* a 16x16 tile transposed in place */
    for (int i = 0; i < 16; i++)
        for (int j = i + 1; j < 16; j++) { uint16_t x = h[16 * i + j]; h[16 * i + j] = h[16 * j + i]; h[16 * j + i] = x; } }
static void __attribute__((unused, noinline)) __wmma_mma(const uint32_t *w, uint32_t *r, int mode) {
    float A[256] __attribute__((aligned(64))), B[256] __attribute__((aligned(64))), C[256] __attribute__((aligned(64)));
    float D[256] __attribute__((aligned(64)));
    uint16_t ha[256] __attribute__((aligned(64))), hb[256] __attribute__((aligned(64))), hc[256] __attribute__((aligned(64)));
    for (int l = 0; l < 32; l++) {
        memcpy(ha + 8 * l, w + 24 * l, 16);
        memcpy(hb + 8 * l, w + 24 * l + 8, 16);
        if (mode & 1) memcpy(hc + 8 * l, w + 24 * l + 16, 16);
        else memcpy(C + 8 * l, w + 24 * l + 16, 32);
    }
    if (mode & 8) __wmma_tr16(ha);
    if (mode & 16) __wmma_tr16(hb);
#if defined(__AVX512F__)
    for (int q = 0; q < 16; q++) {
        __wmma_cvt16(ha + 16 * q, A + 16 * q, mode & 4);
        __wmma_cvt16(hb + 16 * q, B + 16 * q, mode & 4);
        if (mode & 1) __wmma_cvt16(hc + 16 * q, C + 16 * q, 0);
    }
    __v16sf_w acc[16];
#pragma GCC unroll 16
    for (int m = 0; m < 16; m++) memcpy(&acc[m], C + 16 * m, 64);
    for (int k = 0; k < 16; k++) {
        __v16sf_w b;
        memcpy(&b, B + 16 * k, 64);
#pragma GCC unroll 16
        for (int m = 0; m < 16; m++)
            acc[m] = __builtin_ia32_vfmaddps512_mask((__v16sf_w){0} + A[16 * m + k], b, acc[m], (unsigned short)0xffff, 4);
    }
#pragma GCC unroll 16
    for (int m = 0; m < 16; m++) memcpy(D + 16 * m, &acc[m], 64);
#else
    if (mode & 4)
        for (int e = 0; e < 256; e++) { A[e] = __u2f((uint32_t)ha[e] << 16); B[e] = __u2f((uint32_t)hb[e] << 16); }
    else
        for (int e = 0; e < 256; e++) { A[e] = __h2f(ha[e]); B[e] = __h2f(hb[e]); }
    if (mode & 1)
        for (int e = 0; e < 256; e++) C[e] = __h2f(hc[e]);
    for (int m = 0; m < 16; m++) {
        float acc[16];
        memcpy(acc, C + 16 * m, sizeof acc);
        for (int k = 0; k < 16; k++) {
            const float a = A[16 * m + k];
            for (int n = 0; n < 16; n++) acc[n] = fmaf(a, B[16 * k + n], acc[n]);
        }
        memcpy(D + 16 * m, acc, sizeof acc);
    }
#endif
    if (mode & 2) {
        for (uint32_t e = 0; e < 256; e++) {
            uint32_t *o = &r[8u * (e >> 3) + ((e & 7u) >> 1)];
            uint16_t h = __d2h((double)D[e], 0);
            if (e & 1u) *o |= (uint32_t)h << 16; else *o = h;
        }
    } else memcpy(r, D, sizeof D);
}
