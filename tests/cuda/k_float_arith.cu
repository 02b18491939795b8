// IEEE float and double arithmetic in round-to-nearest: add, sub, mul, div (-prec-div=true: 0 ulp),
// fma, sqrt (0 ulp), fmin/fmax with NaN operands, fabs/copysign/floor/ceil/trunc/rint/round,
// subnormal results kept (no FTZ without -use_fast_math), infinities and NaN propagation.
// The host (SSE, round-to-nearest) computes the same correctly rounded results, so compare bits.
#include "k_util.h"
#include <float.h>

#define N 400
#define KF 16

__global__ void fops(const float *a, const float *b, const float *c, float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    float *r = o + i * KF;
    r[0] = __fadd_rn(x, y); r[1] = __fsub_rn(x, y); r[2] = __fmul_rn(x, y); r[3] = x / y;
    r[4] = fmaf(x, y, z); r[5] = sqrtf(fabsf(x)); r[6] = fminf(x, y); r[7] = fmaxf(x, y);
    r[8] = copysignf(x, y); r[9] = floorf(x); r[10] = ceilf(x); r[11] = truncf(x);
    r[12] = rintf(x); r[13] = roundf(x); r[14] = 1.0f / x; r[15] = __fmul_rn(x, 0.5f);
}
__global__ void dops(const double *a, const double *b, const double *c, double *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = a[i], y = b[i], z = c[i];
    double *r = o + i * KF;
    r[0] = __dadd_rn(x, y); r[1] = __dsub_rn(x, y); r[2] = __dmul_rn(x, y); r[3] = x / y;
    r[4] = fma(x, y, z); r[5] = sqrt(fabs(x)); r[6] = fmin(x, y); r[7] = fmax(x, y);
    r[8] = copysign(x, y); r[9] = floor(x); r[10] = ceil(x); r[11] = trunc(x);
    r[12] = rint(x); r[13] = round(x); r[14] = 1.0 / x; r[15] = __dmul_rn(x, 0.5);
}

static int same_f(float a, float b) { return (a != a && b != b) || k_f2u(a) == k_f2u(b) || (a == 0 && b == 0 && a == b); }
static int same_d(double a, double b) { return (a != a && b != b) || k_d2u(a) == k_d2u(b); }

int main(void)
{
    static float fa[N], fb[N], fc[N], fo[N * KF];
    static double da[N], db[N], dc[N], dout[N * KF];
    const float fsp[] = {0.f, -0.f, 1.f, -1.f, INFINITY, -INFINITY, NAN, FLT_MAX, FLT_MIN, 1e-40f, -3e-42f, 2.5f, -2.5f, 0.5f, 3.5f};
    const int ns = sizeof fsp / sizeof fsp[0];
    for (int i = 0; i < N; i++) {
        if (i < ns * ns) { fa[i] = fsp[i / ns]; fb[i] = fsp[i % ns]; }
        else { fa[i] = (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 60) - 30));
               fb[i] = (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 60) - 30)); }
        fc[i] = (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 40) - 20));
        da[i] = (i < ns * ns) ? (double)fa[i] : k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 200) - 100);
        db[i] = (i < ns * ns) ? (double)fb[i] : k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 200) - 100);
        dc[i] = k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 100) - 50);
    }
    da[0] = 4.9e-324; db[0] = 0.5; da[1] = DBL_MIN; db[1] = 0.25; /* subnormal results */
    float *pfa, *pfb, *pfc, *pfo; double *pda, *pdb, *pdc, *pdo;
    CK(cudaMalloc(&pfa, sizeof fa)); CK(cudaMalloc(&pfb, sizeof fb)); CK(cudaMalloc(&pfc, sizeof fc)); CK(cudaMalloc(&pfo, sizeof fo));
    CK(cudaMalloc(&pda, sizeof da)); CK(cudaMalloc(&pdb, sizeof db)); CK(cudaMalloc(&pdc, sizeof dc)); CK(cudaMalloc(&pdo, sizeof dout));
    CK(cudaMemcpy(pfa, fa, sizeof fa, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pfb, fb, sizeof fb, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pfc, fc, sizeof fc, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pda, da, sizeof da, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pdb, db, sizeof db, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pdc, dc, sizeof dc, cudaMemcpyHostToDevice));
    fops<<<(N + 63) / 64, 64>>>(pfa, pfb, pfc, pfo, N);
    dops<<<(N + 63) / 64, 64>>>(pda, pdb, pdc, pdo, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(fo, pfo, sizeof fo, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(dout, pdo, sizeof dout, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        volatile float x = fa[i], y = fb[i], z = fc[i];
        float ef[KF] = {x + y, x - y, x * y, x / y, fmaf(x, y, z), sqrtf(fabsf(x)), fminf(x, y), fmaxf(x, y),
                        copysignf(x, y), floorf(x), ceilf(x), truncf(x), rintf(x), roundf(x), 1.0f / x, x * 0.5f};
        for (int k = 0; k < KF; k++)
            if (!same_f(fo[i * KF + k], ef[k]) && bad++ < 25)
                CHECK_MSG(0, "float op %d (%a, %a, %a): got %a want %a", k, (double)x, (double)y, (double)z, (double)fo[i * KF + k], (double)ef[k]);
        volatile double X = da[i], Y = db[i], Z = dc[i];
        double ed[KF] = {X + Y, X - Y, X * Y, X / Y, fma(X, Y, Z), sqrt(fabs(X)), fmin(X, Y), fmax(X, Y),
                         copysign(X, Y), floor(X), ceil(X), trunc(X), rint(X), round(X), 1.0 / X, X * 0.5};
        for (int k = 0; k < KF; k++) {
            int ok = same_d(dout[i * KF + k], ed[k]) || ((k == 6 || k == 7) && dout[i * KF + k] == ed[k]);
            if (!ok && bad++ < 25)
                CHECK_MSG(0, "double op %d (%a, %a, %a): got %a want %a", k, (double)X, (double)Y, (double)Z, dout[i * KF + k], ed[k]);
        }
    }
    CHECK_EQ(bad, 0);
    /* hand-written facts: round half away from zero, rint half to even, FLT_MIN*0.5 stays subnormal */
    CHECK(fo[(13 * ns + 0) * KF + 13] == 1.0f);   /* roundf(0.5) */
    CHECK(fo[(13 * ns + 0) * KF + 12] == 0.0f);   /* rintf(0.5) */
    CHECK(fo[(8 * ns + 0) * KF + 15] == FLT_MIN * 0.5f && FLT_MIN * 0.5f > 0);
    return CHECK_DONE();
}
