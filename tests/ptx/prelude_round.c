/* tests/ptx/prelude_round.c - the f32 add/sub/mul/fma helpers of ptx_prelude.h with a directed
 * rounding (.rz/.rm/.rp), which round the exact result to odd in double and then once to float,
 * against the same operation done by the FPU in that rounding mode (fesetround around one
 * volatile operation: the *_fe reference helpers defined here). Random bit patterns, values with close
 * exponents (cancellation, ties), subnormals, exact zeros of both signs, infinities, NaN,
 * overflow. Also the lane copy's 32-bit div/rem (double division) against the scalar forms, and
 * min/max.f32/f64 (with and without .NaN) against a reference written from the PTX ISA, both
 * per call and in 16-lane loops with a uniform second operand (the shape that made gcc build
 * lane masks bit by bit); run_prelude.sh runs that part again built with the JIT's own flags
 * (vectorized, -march=native), selected by the argument "minmax".
 * Prints "PASS prelude_round" or FAIL lines; built with -ffp-contract=off like the
 * translator's kernels (run_prelude.sh). */
#include "npu_runtime/kernel/ptx_prelude.h"
#include <stdio.h>

/* the reference: the FPU in that rounding mode (the prelude's former implementation) */
P_RND_BIN(__add_f32_fe, float, +)
P_RND_BIN(__sub_f32_fe, float, -)
P_RND_BIN(__mul_f32_fe, float, *)
static float __fma_f32_fe(float a, float b, float c, int m)
{
    volatile float x = a, y = b, z = c;
    int o = fegetround();
    fesetround(__fe(m));
    volatile float r = fmaf(x, y, z);
    fesetround(o);
    return r;
}

static uint64_t rs = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (uint32_t)(rs >> 16);
}
static const uint32_t special[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x3f800000,
    0xbf800000, 0x3f800001, 0x33800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
    0x4b800000, 0x4b800001, 0x34000000, 0xb4000000, 0x0c000000, 0x1f800000, 0x5f800000, 0x3effffff};
#define NSPECIAL (sizeof special / sizeof special[0])

static float pick(int kind, float near)
{
    switch (kind) {
    case 0: return __u2f(rnd());
    case 1: return __u2f(special[rnd() % NSPECIAL]);
    case 2: return __u2f((__f2u(near) & 0xff800000u) ^ (rnd() & 0x807fffffu));   /* same exponent */
    case 3: return __u2f((__f2u(near) + (rnd() % 64) - 32) ^ (rnd() & 0x80000000u)); /* a few ulp off */
    case 4: return __u2f(rnd() & 0x80ffffffu);                                   /* tiny: subnormal results */
    default: return ldexpf((float)(int)(rnd() % 4096) - 2048.0f, (int)(rnd() % 40) - 20);
    }
}

static int same(float a, float b) { return (a != a && b != b) || __f2u(a) == __f2u(b); }

/* min/max.f32/f64 as the PTX ISA states them: a NaN operand gives the other operand, two NaN
 * (.NaN: any) the canonical NaN; -0 is less than +0 */
static uint64_t ref_minmax(uint64_t au, uint64_t bu, int w64, int mx, int nan)
{
    uint64_t cn = w64 ? 0x7fffffffffffffffull : 0x7fffffffull, sg = w64 ? 1ull << 63 : 1ull << 31;
    double a = w64 ? __u2d(au) : (double)__u2f((uint32_t)au), b = w64 ? __u2d(bu) : (double)__u2f((uint32_t)bu);
    int an = a != a, bn = b != b;
    if (an || bn) return (nan || (an && bn)) ? cn : an ? bu : au;
    if (a == b) {                                   /* equal: differ only for zeros of both signs */
        int as = (au & sg) != 0, bs = (bu & sg) != 0;
        return mx ? (as ? bu : au) : (as ? au : bu);
    }
    return (mx ? a > b : a < b) ? au : bu;
}
static uint64_t got_minmax(uint64_t au, uint64_t bu, int w64, int mx, int nan)
{
    if (w64) {
        double a = __u2d(au), b = __u2d(bu);
        return __d2u(mx ? (nan ? __max_f64(a, b, 1) : __max_f64(a, b, 0)) : (nan ? __min_f64(a, b, 1) : __min_f64(a, b, 0)));
    }
    float a = __u2f((uint32_t)au), b = __u2f((uint32_t)bu);
    return __f2u(mx ? (nan ? __max_f32(a, b, 1) : __max_f32(a, b, 0)) : (nan ? __min_f32(a, b, 1) : __min_f32(a, b, 0)));
}
/* the lane-loop shape: 16 lanes against one uniform operand (vectorized under the JIT flags) */
static void lanes_max32(float *restrict o, const float *restrict a, const float *bp)
{
    float b = *bp;
    for (uint32_t l = 0; l < 16u; l++) o[l] = __max_f32(a[l], b, 0);
}
static void lanes_min64n(double *restrict o, const double *restrict a, const double *bp)
{
    double b = *bp;
    for (uint32_t l = 0; l < 16u; l++) o[l] = __min_f64(a[l], b, 1);
}
static uint64_t pick_minmax(int w64)
{
    static const uint64_t sp32[] = {0, 0x80000000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u,
                                    0x3f800000u, 0xbf800000u, 0x00000001u, 0x80000001u, 0x7fffffffu};
    static const uint64_t sp64[] = {0, 1ull << 63, 0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull,
                                    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x3ff0000000000000ull,
                                    0xbff0000000000000ull, 1, (1ull << 63) | 1, 0x7fffffffffffffffull};
    uint64_t r = ((uint64_t)rnd() << 32) | rnd();
    if (rnd() % 2) return w64 ? sp64[rnd() % 12] : sp32[rnd() % 12];
    return w64 ? r : (uint32_t)r;
}
static int check_minmax(long *n)
{
    int bad = 0;
    for (long i = 0; i < 2000000 && bad < 10; i++) {
        int w64 = (int)(rnd() % 2), mx = (int)(rnd() % 2), nan = (int)(rnd() % 2);
        uint64_t a = pick_minmax(w64), b = rnd() % 8 ? pick_minmax(w64) : a ^ (w64 ? 1ull << 63 : 1ull << 31);
        uint64_t g = got_minmax(a, b, w64, mx, nan), w = ref_minmax(a, b, w64, mx, nan);
        ++*n;
        if (g != w && bad++ < 10)
            printf("FAIL prelude_round: %s%s.f%d(%llx, %llx) = %llx, ISA %llx\n", mx ? "max" : "min", nan ? ".NaN" : "",
                   w64 ? 64 : 32, (unsigned long long)a, (unsigned long long)b, (unsigned long long)g, (unsigned long long)w);
    }
    for (long i = 0; i < 200000 && bad < 10; i++) {
        float a[16], o[16], b = __u2f((uint32_t)pick_minmax(0));
        double ad[16], od[16], bd = __u2d(pick_minmax(1));
        for (int l = 0; l < 16; l++) { a[l] = __u2f((uint32_t)pick_minmax(0)); ad[l] = __u2d(pick_minmax(1)); }
        lanes_max32(o, a, &b);
        lanes_min64n(od, ad, &bd);
        for (int l = 0; l < 16; l++, *n += 2) {
            uint64_t w = ref_minmax(__f2u(a[l]), __f2u(b), 0, 1, 0), wd = ref_minmax(__d2u(ad[l]), __d2u(bd), 1, 0, 1);
            if ((__f2u(o[l]) != w || __d2u(od[l]) != wd) && bad++ < 10)
                printf("FAIL prelude_round: lane loop max.f32(%08x, %08x) = %08x (ISA %08llx), min.NaN.f64 -> %llx (ISA %llx)\n",
                       __f2u(a[l]), __f2u(b), __f2u(o[l]), (unsigned long long)w, (unsigned long long)__d2u(od[l]),
                       (unsigned long long)wd);
        }
    }
    return bad;
}

/* the lane-group helpers: __lane_contig / __lane_same on NPU_LANES addresses, every lane moved
 * off in turn, and __lane_mask of every single-lane and random pattern (AVX-512 forms under
 * the JIT's flags; run_prelude.sh builds that binary with 32 lanes) */
static int check_lanes(long *n)
{
    int bad = 0;
    static uint8_t buf[4096];
    uint8_t *p[NPU_LANES];
    for (uint32_t sz = 0; sz <= 8; sz += 4)
        for (int off = -1; off < (int)NPU_LANES; off++) {
            for (uint32_t l = 0; l < NPU_LANES; l++) p[l] = buf + 64 + l * sz;
            if (off >= 0) p[off] += 1;                   /* one lane moved: neither shape */
            int wc = off < 0, ws = off < 0 && sz == 0;
            ++*n;
            if ((__lane_contig(p, sz) != 0) != wc || (__lane_same(p) != 0) != ws) {
                if (bad++ < 10)
                    printf("FAIL prelude_round: lane addresses (stride %u, lane %d moved): contig %d same %d\n", sz, off,
                           __lane_contig(p, sz), __lane_same(p));
            }
        }
    int v[NPU_LANES];
    for (int k = 0; k < 2000; k++) {
        uint32_t want = 0;
        for (uint32_t l = 0; l < NPU_LANES; l++) {
            int on = k < (int)NPU_LANES ? (int)l == k : (int)(rnd() & 1);
            v[l] = on ? (int)(rnd() | 1u) : 0;
            want |= (uint32_t)on << l;
        }
        ++*n;
        if (__lane_mask(v) != want && bad++ < 10) printf("FAIL prelude_round: __lane_mask %08x, want %08x\n", __lane_mask(v), want);
    }
    /* __lane_aff8/16/32/64 (lane_reentry_check): v0 + l*s modulo the width, wrapping ones
     * included, then every lane moved off by one in turn (and by the width's top bit) */
    static const uint64_t strides[] = {0, 1, 4, 16, 0xfffffffcull, 0x7fffffffull, 0xffffffffffffff00ull, 0x100000001ull};
    for (unsigned si = 0; si < sizeof strides / sizeof *strides; si++)
        for (int w = 1; w <= 8; w *= 2)
            for (int off = -2; off < (int)NPU_LANES; off++) {
                uint64_t s = strides[si], v0 = ((uint64_t)rnd() << 32 | rnd()), mask = w == 8 ? ~0ull : (1ull << (8 * w)) - 1;
                union { uint8_t b[NPU_LANES]; uint16_t h[NPU_LANES]; uint32_t u[NPU_LANES]; uint64_t d[NPU_LANES]; } q;
                for (uint32_t l = 0; l < NPU_LANES; l++) {
                    uint64_t x = (v0 + l * s) & mask;
                    if ((int)l == off) x = (x + 1) & mask;
                    if (off == -2 && l == NPU_LANES - 1) x ^= 1ull << (8 * w - 1);
                    if (w == 1) q.b[l] = (uint8_t)x; else if (w == 2) q.h[l] = (uint16_t)x;
                    else if (w == 4) q.u[l] = (uint32_t)x; else q.d[l] = x;
                }
                int got = w == 1 ? __lane_aff8(q.b, (uint8_t)s) : w == 2 ? __lane_aff16(q.h, (uint16_t)s)
                        : w == 4 ? __lane_aff32(q.u, (uint32_t)s) : __lane_aff64(q.d, s);
                ++*n;
                if ((got != 0) != (off == -1) && bad++ < 10)
                    printf("FAIL prelude_round: __lane_aff%d stride %llx, lane %d moved: %d\n", 8 * w, (unsigned long long)s, off, got);
            }
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    long n = 0;
    if (argc > 1 && !strcmp(argv[1], "minmax")) {   /* built with the JIT's flags (run_prelude.sh) */
        bad = check_minmax(&n) + check_lanes(&n);
        if (!bad) printf("PASS prelude_minmax_jit_flags (%ld operations, %u lanes)\n", n, NPU_LANES);
        return bad != 0;
    }
    bad += check_lanes(&n);
    bad += check_minmax(&n);
    for (long i = 0; i < 3000000 && bad < 10; i++) {
        int m = 1 + (int)(rnd() % 3);
        float a = pick((int)(rnd() % 6), 1.0f), b = pick((int)(rnd() % 6), a), c = pick((int)(rnd() % 6), a * b);
        float g[4] = {__add_f32(a, b, m), __sub_f32(a, b, m), __mul_f32(a, b, m), __fma_f32(a, b, c, m)};
        float w[4] = {__add_f32_fe(a, b, m), __sub_f32_fe(a, b, m), __mul_f32_fe(a, b, m), __fma_f32_fe(a, b, c, m)};
        static const char *nm[4] = {"add", "sub", "mul", "fma"};
        for (int k = 0; k < 4; k++, n++)
            if (!same(g[k], w[k]) && bad++ < 10)
                printf("FAIL prelude_round: %s mode %d (%08x, %08x, %08x) -> %08x, FPU %08x\n", nm[k], m,
                       __f2u(a), __f2u(b), __f2u(c), __f2u(g[k]), __f2u(w[k]));
    }
    /* 32-bit div/rem of the lane copy (double division) against the scalar forms */
    static const uint32_t edge[] = {0, 1, 2, 3, 7, 10, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu,
                                    0xffffffffu, 0x10000u, 0xffffu, 0x55555555u, 0xaaaaaaabu, 1000000007u};
    int ne = (int)(sizeof edge / sizeof edge[0]);
    for (long i = 0; i < 10000000 + ne * ne && bad < 10; i++, n += 4) {
        uint32_t a, b;
        if (i < ne * ne) { a = edge[i / ne]; b = edge[i % ne]; }
        else {
            a = rnd(); b = rnd();
            int sh = (int)(rnd() % 40);
            if (sh < 32) b >>= sh;                          /* small divisors too */
            if (rnd() % 4 == 0) a = (a / (b ? b : 1)) * b - (rnd() % 2);   /* at or just below a multiple */
        }
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        if (__div_u32v(a, b) != __div_u32(a, b) || __rem_u32v(a, b) != __rem_u32(a, b) ||
            __div_s32v(sa, sb) != __div_s32(sa, sb) || __rem_s32v(sa, sb) != __rem_s32(sa, sb)) {
            if (bad++ < 10)
                printf("FAIL prelude_round: 32-bit div/rem of %08x, %08x: u %u %u (scalar %u %u) s %d %d (scalar %d %d)\n",
                       a, b, __div_u32v(a, b), __rem_u32v(a, b), __div_u32(a, b), __rem_u32(a, b),
                       __div_s32v(sa, sb), __rem_s32v(sa, sb), __div_s32(sa, sb), __rem_s32(sa, sb));
        }
    }
    /* ex2.approx.f32 (__ex2_f32) against exp2 in double rounded to float: the ISA allows 2 ulp */
    static const uint32_t ex2_special[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
        0x00000001u, 0x80000001u, 0x007fffffu, 0x43000000u, 0x42ffffffu, 0xc3160000u, 0xc3158000u,
        0xc3150000u, 0xc2fc0000u, 0xc2fe0000u, 0x3f800000u, 0xbf800000u, 0x3f000000u, 0xc3200000u};
    int ns = (int)(sizeof ex2_special / sizeof ex2_special[0]);
    for (long i = 0; i < 20000000 + ns && bad < 10; i++, n++) {
        float x = i < ns ? __u2f(ex2_special[i]) : (float)(-151.0 + 280.0 * (double)rnd() / 4294967296.0);
        if (i >= ns && rnd() % 4 == 0) x = __u2f(rnd());             /* any bit pattern */
        float g = __ex2_f32(x), w = (float)exp2((double)x);
        int ok = (g != g && w != w) || __f2u(g) == __f2u(w) ||
                 (g == g && w == w && (__f2u(g) ^ __f2u(w)) < 0x80000000u &&
                  (__f2u(g) > __f2u(w) ? __f2u(g) - __f2u(w) : __f2u(w) - __f2u(g)) <= 1u && !isinf(w));
        if (!ok && bad++ < 10)
            printf("FAIL prelude_round: ex2.approx.f32(%a) = %a, exp2 rounded %a\n", (double)x, (double)g, (double)w);
    }
    if (!bad) printf("PASS prelude_round (%ld operations)\n", n);
    return bad != 0;
}
