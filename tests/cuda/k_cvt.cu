// Conversions with every rounding mode: __float2int_rn/rz/rd/ru, __float2uint_*, __float2ll_*,
// __double2int_*, __double2float_rn/rz/ru/rd, __int2float_*, __uint2float_*, __ll2float_*,
// __ll2double_*, __saturatef; float->int of out-of-range values and NaN (PTX cvt saturates to the
// destination range, NaN -> 0). Host reference: libm rint/trunc/floor/ceil plus explicit
// saturation, and exact comparisons (long double) to pick the directed-rounding neighbour.
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

/* saturating float->integer conversion after rounding r = round(x) (long double holds it exactly) */
static long long sat(long double r, long double lo, long double hi, int isnan_)
{
    if (isnan_) return 0;
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
            long long e[6] = {sat(rnd(x, m), INT_MIN, INT_MAX, xn), (long long)(unsigned)sat(rnd(x, m), 0, UINT_MAX, xn),
                              sat(rnd(y, m), INT_MIN, INT_MAX, yn), (long long)(unsigned)sat(rnd(y, m), 0, UINT_MAX, yn),
                              sat(rnd(x, m), LLONG_MIN, LLONG_MAX, xn), 0};
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
    return CHECK_DONE();
}
