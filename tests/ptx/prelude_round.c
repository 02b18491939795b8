/* tests/ptx/prelude_round.c - the f32 add/sub/mul/fma helpers of ptx_prelude.h with a directed
 * rounding (.rz/.rm/.rp), which round the exact result to odd in double and then once to float,
 * against the same operation done by the FPU in that rounding mode (fesetround around one
 * volatile operation: the *_fe reference helpers defined here). Random bit patterns, values with close
 * exponents (cancellation, ties), subnormals, exact zeros of both signs, infinities, NaN,
 * overflow. Also the lane copy's 32-bit div/rem (double division) against the scalar forms.
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

int main(void)
{
    int bad = 0;
    long n = 0;
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
