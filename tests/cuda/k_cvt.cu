// Conversions with every rounding mode: __float2int_rn/rz/rd/ru, __float2uint_*, __float2ll_*,
// __double2int_*, __double2float_rn/rz/ru/rd, __int2float_*, __uint2float_*, __ll2float_*,
// __ll2double_*, __saturatef; float->int of out-of-range values and NaN (PTX cvt saturates to the
// destination range; NaN gives 1 << (w-1) for an f64 source or a 64-bit destination, else 0, as
// the PTX ISA says and an H200 recorded). Host reference: libm rint/trunc/floor/ceil plus explicit
// saturation, and exact comparisons (long double) to pick the directed-rounding neighbour.
// Inline PTX: NaN into every integer width from f16/f32/f64 (with and without .sat), and
// cvt.{rn,rz,rp,rm}.ftz.f32.f64 around FLT_MIN (tininess after rounding, recorded on an H200:
// 2^-126 - 2^-150 -> +0, 2^-126 - 2^-151 -> FLT_MIN in .rn), reference from the bits.
#include "k_util.h"
#include <limits.h>
#include <float.h>

#define N 256
#define KI 16
#define KF 16

__global__ void cvt(const float *f, const double *d, const long long *l, int *oi, long long *ol, float *of, double *od, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i]; double y = d[i]; long long z = l[i];
    int *ri = oi + i * KI;
    ri[0] = __float2int_rn(x); ri[1] = __float2int_rz(x); ri[2] = __float2int_rd(x); ri[3] = __float2int_ru(x);
    ri[4] = (int)__float2uint_rn(x); ri[5] = (int)__float2uint_rz(x); ri[6] = (int)__float2uint_rd(x); ri[7] = (int)__float2uint_ru(x);
    ri[8] = __double2int_rn(y); ri[9] = __double2int_rz(y); ri[10] = __double2int_rd(y); ri[11] = __double2int_ru(y);
    ri[12] = (int)__double2uint_rn(y); ri[13] = (int)__double2uint_rz(y); ri[14] = (int)__double2uint_rd(y); ri[15] = (int)__double2uint_ru(y);
    long long *rl = ol + i * 4;
    rl[0] = __float2ll_rn(x); rl[1] = __float2ll_rz(x); rl[2] = __float2ll_rd(x); rl[3] = __float2ll_ru(x);
    float *rf = of + i * KF;
    rf[0] = __double2float_rn(y); rf[1] = __double2float_rz(y); rf[2] = __double2float_ru(y); rf[3] = __double2float_rd(y);
    rf[4] = __int2float_rn((int)z); rf[5] = __int2float_rz((int)z); rf[6] = __int2float_ru((int)z); rf[7] = __int2float_rd((int)z);
    rf[8] = __uint2float_rn((unsigned)z); rf[9] = __uint2float_rz((unsigned)z); rf[10] = __uint2float_ru((unsigned)z); rf[11] = __uint2float_rd((unsigned)z);
    rf[12] = __ll2float_rn(z); rf[13] = __ll2float_rz(z); rf[14] = __saturatef(x); rf[15] = __ll2float_rd(z);
    double *rd = od + i * 4;
    rd[0] = __ll2double_rn(z); rd[1] = __ll2double_rz(z); rd[2] = __ll2double_ru(z); rd[3] = __ll2double_rd(z);
}

/* NaN into every integer width: one 64-bit slot per conversion (8/16/32-bit results as the 32-bit
   register holds them: s8/s16 sign-extended). Sources: f32 (slots 0..9), f64 (10..19), f16 (20..25). */
#define NNAN 26
#define R32(ins, C, v) { uint32_t r_; asm(ins " %0, %1;" : "=r"(r_) : C(v)); o[k++] = r_; }
#define R64(ins, C, v) { unsigned long long r_; asm(ins " %0, %1;" : "=l"(r_) : C(v)); o[k++] = r_; }
__global__ void cvt_nan(const float *f, const double *d, const unsigned short *h, unsigned long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i]; double y = d[i]; unsigned short z = h[i];
    unsigned long long *o = out + i * NNAN; int k = 0;
    R32("cvt.rni.s8.f32", "f", x) R32("cvt.rzi.u8.f32", "f", x) R32("cvt.rmi.s16.f32", "f", x) R32("cvt.rpi.u16.f32", "f", x)
    R32("cvt.rni.s32.f32", "f", x) R32("cvt.rzi.u32.f32", "f", x) R32("cvt.rzi.sat.s32.f32", "f", x)
    R64("cvt.rzi.s64.f32", "f", x) R64("cvt.rni.u64.f32", "f", x) R64("cvt.rpi.sat.s64.f32", "f", x)
    R32("cvt.rni.s8.f64", "d", y) R32("cvt.rmi.u8.f64", "d", y) R32("cvt.rpi.s16.f64", "d", y) R32("cvt.rzi.u16.f64", "d", y)
    R32("cvt.rni.s32.f64", "d", y) R32("cvt.rzi.u32.f64", "d", y) R32("cvt.rzi.sat.s16.f64", "d", y)
    R64("cvt.rmi.s64.f64", "d", y) R64("cvt.rpi.u64.f64", "d", y) R64("cvt.rni.sat.u64.f64", "d", y)
    R32("cvt.rni.s8.f16", "h", z) R32("cvt.rzi.u16.f16", "h", z) R32("cvt.rni.s32.f16", "h", z) R32("cvt.rpi.u32.f16", "h", z)
    R64("cvt.rzi.s64.f16", "h", z) R64("cvt.rmi.u64.f16", "h", z)
}
/* expected NaN result of slot k: {destination bits, signed, source is f64} */
static const unsigned char nan_slot[NNAN][3] = {
    {8, 1, 0}, {8, 0, 0}, {16, 1, 0}, {16, 0, 0}, {32, 1, 0}, {32, 0, 0}, {32, 1, 0}, {64, 1, 0}, {64, 0, 0}, {64, 1, 0},
    {8, 1, 1}, {8, 0, 1}, {16, 1, 1}, {16, 0, 1}, {32, 1, 1}, {32, 0, 1}, {16, 1, 1}, {64, 1, 1}, {64, 0, 1}, {64, 0, 1},
    {8, 1, 0}, {16, 0, 0}, {32, 1, 0}, {32, 0, 0}, {64, 1, 0}, {64, 0, 0}};

/* cvt.{rn,rz,rp,rm}.ftz.f32.f64 */
__global__ void d2f_ftz(const double *d, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double y = d[i]; float r;
    asm("cvt.rn.ftz.f32.f64 %0, %1;" : "=f"(r) : "d"(y)); o[4 * i + 0] = r;
    asm("cvt.rz.ftz.f32.f64 %0, %1;" : "=f"(r) : "d"(y)); o[4 * i + 1] = r;
    asm("cvt.rp.ftz.f32.f64 %0, %1;" : "=f"(r) : "d"(y)); o[4 * i + 2] = r;
    asm("cvt.rm.ftz.f32.f64 %0, %1;" : "=f"(r) : "d"(y)); o[4 * i + 3] = r;
}

/* saturating float->integer conversion after rounding r = round(x) (long double holds it exactly);
   NaN gives nanv */
static long long sat(long double r, long double lo, long double hi, int isnan_, long long nanv)
{
    if (isnan_) return nanv;
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return (long long)r;
}
static long double rnd(long double x, int m) { return m == 0 ? rintl(x) : m == 1 ? truncl(x) : m == 2 ? floorl(x) : ceill(x); }
/* float nearest to exact value v in mode m (0 rn, 1 rz, 2 ru, 3 rd); v given exactly as long double */
static float tofloat(long double v, int m)
{
    float f = (float)v;   /* round to nearest */
    if (m == 0 || (long double)f == v) return f;
    if (m == 1) { if (fabsl((long double)f) > fabsl(v)) f = nextafterf(f, 0.0f); }
    else if (m == 2) { if ((long double)f < v) f = nextafterf(f, INFINITY); }
    else { if ((long double)f > v) f = nextafterf(f, -INFINITY); }
    return f;
}
static double todouble(long double v, int m)
{
    double f = (double)v;
    if (m == 0 || (long double)f == v) return f;
    if (m == 1) { if (fabsl((long double)f) > fabsl(v)) f = nextafter(f, 0.0); }
    else if (m == 2) { if ((long double)f < v) f = nextafter(f, INFINITY); }
    else { if ((long double)f > v) f = nextafter(f, -INFINITY); }
    return f;
}

/* cvt.ftz.f32.f64 in mode m (0 rn, 1 rz, 2 ru, 3 rd): below 2^-126 the value is rounded to 24 bits
   with an unbounded exponent (integer arithmetic on the double's significand) and flushed to a
   signed zero unless that reaches 2^-126 */
static float d2f_ftz_ref(double x, int m)
{
    if (!(fabs(x) < 0x1p-126)) return tofloat(x, m);
    int neg = signbit(x) != 0, e;
    double fr = frexp(fabs(x), &e);           /* |x| = fr * 2^e, fr in [0.5, 1) */
    if (x == 0 || e != -126) return neg ? -0.0f : 0.0f;   /* below 2^-127: cannot reach 2^-126 */
    uint64_t sig = (uint64_t)ldexp(fr, 53), keep = sig >> 29, rem = sig & ((1ull << 29) - 1), half = 1ull << 28;
    int up = rem && (m == 0 ? (rem > half || (rem == half && (keep & 1))) : m == 2 ? !neg : m == 3 ? neg : 0);
    float r = keep + (uint64_t)up == (1ull << 24) ? 0x1p-126f : 0.0f;
    return neg ? -r : r;
}

int main(void)
{
    static float f[N], of[N * KF]; static double d[N], od[N * 4]; static long long l[N], ol[N * 4]; static int oi[N * KI];
    const float fs[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, -0.0f, 3e9f, -3e9f, 5e9f, 1e20f, -1e20f,
                        NAN, INFINITY, -INFINITY, 2147483520.0f, 2147483648.0f, -2147483648.0f, 4294967040.0f,
                        4294967296.0f, 9.3e18f, -9.3e18f, 1.0f, -1.0f, 0.99f, 1.01f, -0.01f, 16777217.0f};
    const double ds[] = {0.5, 1.5, 2.5, -0.5, -2.5, 2147483647.5, 2147483647.4, -2147483648.5, -2147483648.6, 4294967295.5,
                         4294967296.0, -1.0, 1e300, -1e300, NAN, 1e-50, -1e-50, 3.4028235677973366e38, 3.5e38, -3.5e38,
                         1e-46, -1e-46, 1.0000000000000002, 0.1};
    const long long ls[] = {0, 1, -1, 16777217, -16777217, 16777219, 2147483647, -2147483647 - 1, 4294967295ll,
                            9007199254740993ll, -9007199254740993ll, LLONG_MAX, LLONG_MIN, 123456789012345ll};
    const int nf = sizeof fs / sizeof fs[0], nd = sizeof ds / sizeof ds[0], nl = sizeof ls / sizeof ls[0];
    for (int i = 0; i < N; i++) {
        f[i] = i < nf ? fs[i] : (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 40)));
        d[i] = i < nd ? ds[i] : k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 300) - 150);
        l[i] = i < nl ? ls[i] : (long long)(k_rand64() >> (k_rand32() % 64));
        if (i >= nl && (i & 1)) l[i] = -l[i];
    }
    float *pf, *pof; double *pd, *pod; long long *pl, *pol; int *poi;
    CK(cudaMalloc(&pf, sizeof f)); CK(cudaMalloc(&pd, sizeof d)); CK(cudaMalloc(&pl, sizeof l));
    CK(cudaMalloc(&poi, sizeof oi)); CK(cudaMalloc(&pol, sizeof ol)); CK(cudaMalloc(&pof, sizeof of)); CK(cudaMalloc(&pod, sizeof od));
    CK(cudaMemcpy(pf, f, sizeof f, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pd, d, sizeof d, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pl, l, sizeof l, cudaMemcpyHostToDevice));
    cvt<<<N / 64, 64>>>(pf, pd, pl, poi, pol, pof, pod, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(oi, poi, sizeof oi, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(ol, pol, sizeof ol, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(of, pof, sizeof of, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(od, pod, sizeof od, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        long double x = f[i], y = d[i]; int xn = f[i] != f[i], yn = d[i] != d[i];
        for (int m = 0; m < 4; m++) {
            /* NaN: f32 -> 32 bits 0; f64 -> 32 bits 0x80000000; f32 -> 64 bits 1 << 63 */
            long long e[6] = {sat(rnd(x, m), INT_MIN, INT_MAX, xn, 0), (long long)(unsigned)sat(rnd(x, m), 0, UINT_MAX, xn, 0),
                              sat(rnd(y, m), INT_MIN, INT_MAX, yn, INT_MIN), (long long)(unsigned)sat(rnd(y, m), 0, UINT_MAX, yn, 0x80000000ll),
                              sat(rnd(x, m), LLONG_MIN, LLONG_MAX, xn, LLONG_MIN), 0};
            long long g[5] = {oi[i * KI + m], (unsigned)oi[i * KI + 4 + m], oi[i * KI + 8 + m], (unsigned)oi[i * KI + 12 + m], ol[i * 4 + m]};
            for (int k = 0; k < 5; k++)
                if (g[k] != e[k] && bad++ < 25)
                    CHECK_MSG(0, "to-int kind %d mode %d of f=%a d=%a: got %lld want %lld", k, m, (double)f[i], d[i], g[k], e[k]);
        }
        const int fm[4] = {0, 1, 2, 3};   /* rn rz ru rd */
        for (int m = 0; m < 4; m++) {
            float e1 = yn ? NAN : tofloat(y, fm[m]);
            if (k_f2u(of[i * KF + m]) != k_f2u(e1) && !(yn && of[i * KF + m] != of[i * KF + m]) && bad++ < 25)
                CHECK_MSG(0, "double2float mode %d of %a: got %a want %a", m, d[i], (double)of[i * KF + m], (double)e1);
            float e2 = tofloat((long double)(int)l[i], fm[m]), e3 = tofloat((long double)(unsigned)l[i], fm[m]);
            if (k_f2u(of[i * KF + 4 + m]) != k_f2u(e2) && bad++ < 25)
                CHECK_MSG(0, "int2float mode %d of %d: got %a want %a", m, (int)l[i], (double)of[i * KF + 4 + m], (double)e2);
            if (k_f2u(of[i * KF + 8 + m]) != k_f2u(e3) && bad++ < 25)
                CHECK_MSG(0, "uint2float mode %d of %u: got %a want %a", m, (unsigned)l[i], (double)of[i * KF + 8 + m], (double)e3);
            double e4 = todouble((long double)l[i], fm[m]);
            if (k_d2u(od[i * 4 + m]) != k_d2u(e4) && bad++ < 25)
                CHECK_MSG(0, "ll2double mode %d of %lld: got %a want %a", m, l[i], od[i * 4 + m], e4);
        }
        float e5[4] = {tofloat((long double)l[i], 0), tofloat((long double)l[i], 1), 0, tofloat((long double)l[i], 3)};
        for (int m = 0; m < 4; m++) {
            if (m == 2) continue;
            if (k_f2u(of[i * KF + 12 + m]) != k_f2u(e5[m]) && bad++ < 25)
                CHECK_MSG(0, "ll2float slot %d of %lld: got %a want %a", m, l[i], (double)of[i * KF + 12 + m], (double)e5[m]);
        }
        float sf = f[i] != f[i] ? 0.0f : f[i] < 0 ? 0.0f : f[i] > 1 ? 1.0f : f[i];
        if (of[i * KF + 14] != sf && bad++ < 25) CHECK_MSG(0, "__saturatef(%a) = %a", (double)f[i], (double)of[i * KF + 14]);
    }
    CHECK_EQ(bad, 0);
    /* spelled-out expectations for the edge cases (index into fs[]) */
    CHECK_EQ(oi[2 * KI + 0], 2);            /* rn(2.5) = 2, ties to even */
    CHECK_EQ(oi[5 * KI + 0], -2);           /* rn(-2.5) = -2 */
    CHECK_EQ(oi[8 * KI + 1], INT_MAX);      /* 3e9 saturates */
    CHECK_EQ(oi[9 * KI + 1], INT_MIN);
    CHECK_EQ(oi[13 * KI + 1], 0);           /* NaN -> 0 */
    CHECK_EQ((unsigned)oi[3 * KI + 5], 0u); /* uint of -0.5 */
    CHECK_EQ((unsigned)oi[10 * KI + 5], UINT_MAX);
    /* NaN into integers */
    {
        enum { NN = 64 };
        static float nf[NN]; static double nd[NN]; static unsigned short nh[NN]; static unsigned long long no[NN * NNAN];
        const uint32_t fn[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu};
        const uint64_t dn[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0x7ff0000000000001ull, 0x7ffb2d577f64d431ull};
        const unsigned short hn[] = {0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0x7ec5};
        for (int i = 0; i < NN; i++) {
            nf[i] = k_u2f(fn[i % 5] ^ (i >= 5 ? (k_rand32() & 0x3fffffu) : 0));
            nd[i] = k_u2d(dn[i % 4] ^ (i >= 4 ? (k_rand64() & 0x7ffffffffffffull) : 0));
            nh[i] = (unsigned short)(hn[i % 6] ^ (i >= 6 ? (k_rand32() & 0x1ff) : 0));
        }
        float *qf; double *qd; unsigned short *qh; unsigned long long *qo;
        CK(cudaMalloc(&qf, sizeof nf)); CK(cudaMalloc(&qd, sizeof nd)); CK(cudaMalloc(&qh, sizeof nh)); CK(cudaMalloc(&qo, sizeof no));
        CK(cudaMemcpy(qf, nf, sizeof nf, cudaMemcpyHostToDevice)); CK(cudaMemcpy(qd, nd, sizeof nd, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(qh, nh, sizeof nh, cudaMemcpyHostToDevice));
        cvt_nan<<<1, NN>>>(qf, qd, qh, qo, NN);
        CK(cudaGetLastError()); CK(cudaMemcpy(no, qo, sizeof no, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NN; i++)
            for (int k = 0; k < NNAN; k++) {
                int w = nan_slot[k][0], sg = nan_slot[k][1], hi = nan_slot[k][2] || w == 64;
                unsigned long long want = 0;
                if (hi) want = w == 64 ? 1ull << 63 : sg ? (unsigned long long)(uint32_t)(0xffffffffu << (w - 1)) : 1ull << (w - 1);
                if (no[i * NNAN + k] != want && bad++ < 25)
                    CHECK_MSG(0, "NaN cvt slot %d (f32 %08x f64 %016llx f16 %04x): got %llx want %llx", k, k_f2u(nf[i]),
                              (unsigned long long)k_d2u(nd[i]), nh[i], no[i * NNAN + k], want);
            }
        CHECK_EQ(no[10], 0xffffff80ull);   /* cvt.rni.s8.f64 of NaN, spelled out */
        CHECK_EQ(no[4], 0ull);             /* cvt.rni.s32.f32 of NaN */
        CK(cudaFree(qf)); CK(cudaFree(qd)); CK(cudaFree(qh)); CK(cudaFree(qo));
    }
    /* cvt.ftz.f32.f64 around FLT_MIN */
    {
        enum { NZ = 1024 };
        static double zd[NZ]; static float zo[NZ * 4];
        const uint64_t zs[] = {0x380fffffe0000000ull, 0x380ffffff0000000ull, 0x3810000000000000ull, 0x380fffffefffffffull,
                               0x380fffffd0000000ull, 0x380fffffc0000001ull, 0x36a0000000000000ull, 0x3690000000000000ull,
                               0x0000000000000001ull, 0x0000000000000000ull, 0x3800000000000000ull, 0x3810000000000001ull};
        for (int i = 0; i < NZ; i++) {
            uint64_t b = i < 12 ? zs[i]
                       : (i & 3) == 0 ? 0x3810000000000000ull - ((uint64_t)(k_rand32() & 0xff) << 24) - (k_rand32() & 1 ? k_rand32() & 0xffffff : 0)
                       : (i & 3) == 1 ? ((uint64_t)(0x3ff - 160 + k_rand32() % 40) << 52) | (k_rand64() & 0xfffffffffffffull)
                       : (i & 3) == 2 ? ((uint64_t)(0x37f + k_rand32() % 4) << 52) | (k_rand64() & 0xfffffffffffffull)
                       : k_d2u(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 300) - 150));
            if (i >= 12 && (k_rand32() & 1)) b ^= 1ull << 63;
            zd[i] = k_u2d(b);
        }
        double *qd; float *qo;
        CK(cudaMalloc(&qd, sizeof zd)); CK(cudaMalloc(&qo, sizeof zo));
        CK(cudaMemcpy(qd, zd, sizeof zd, cudaMemcpyHostToDevice));
        d2f_ftz<<<NZ / 128, 128>>>(qd, qo, NZ);
        CK(cudaGetLastError()); CK(cudaMemcpy(zo, qo, sizeof zo, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NZ; i++)
            for (int m = 0; m < 4; m++) {
                float want = d2f_ftz_ref(zd[i], m);
                if (k_f2u(zo[i * 4 + m]) != k_f2u(want) && bad++ < 25)
                    CHECK_MSG(0, "cvt.ftz.f32.f64 mode %d of %a (%016llx): got %a want %a", m, zd[i],
                              (unsigned long long)k_d2u(zd[i]), (double)zo[i * 4 + m], (double)want);
            }
        CHECK_EQ(k_f2u(zo[0 * 4 + 0]), 0u);          /* 2^-126 - 2^-150, .rn: +0 (H200) */
        CHECK_EQ(k_f2u(zo[1 * 4 + 0]), 0x00800000u); /* 2^-126 - 2^-151, .rn: FLT_MIN (H200) */
        CHECK_EQ(k_f2u(zo[0 * 4 + 2]), 0u);          /* 2^-126 - 2^-150 has 24 bits: flushed in .rp too */
        CHECK_EQ(k_f2u(zo[1 * 4 + 2]), 0x00800000u); /* 2^-126 - 2^-151, .rp: FLT_MIN */
        CHECK_EQ(k_f2u(zo[1 * 4 + 1]), 0u);          /* .rz never reaches FLT_MIN from below */
        CK(cudaFree(qd)); CK(cudaFree(qo));
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
