// NVCC_FLAGS: -Xcompiler -frounding-math
// Directed rounding of IEEE operations: __fadd/__fmul/__fdiv/__fmaf/__fsqrt/__frcp _rn/_rz/_ru/_rd
// and the double __dadd/__dmul/__ddiv/__fma/__dsqrt/__drcp variants (PTX add.rz.f32, fma.rm.f64...).
// Host reference: the same operation on the host FPU under fesetround() (host built with
// -frounding-math, operands volatile, so the compiler neither folds nor moves them).
#include "k_util.h"
#include <fenv.h>
#include <float.h>

#define N 256
#define NOPS 6

template <int M> __device__ float fop(int k, float x, float y, float z);
#define FOPS(M, S) template <> __device__ float fop<M>(int k, float x, float y, float z) { \
    switch (k) { case 0: return __fadd_##S(x, y); case 1: return __fmul_##S(x, y); case 2: return __fdiv_##S(x, y); \
    case 3: return __fmaf_##S(x, y, z); case 4: return __fsqrt_##S(fabsf(x)); default: return __frcp_##S(x); } }
FOPS(0, rn) FOPS(1, rz) FOPS(2, ru) FOPS(3, rd)
template <int M> __device__ double dop(int k, double x, double y, double z);
#define DOPS(M, S) template <> __device__ double dop<M>(int k, double x, double y, double z) { \
    switch (k) { case 0: return __dadd_##S(x, y); case 1: return __dmul_##S(x, y); case 2: return __ddiv_##S(x, y); \
    case 3: return __fma_##S(x, y, z); case 4: return __dsqrt_##S(fabs(x)); default: return __drcp_##S(x); } }
DOPS(0, rn) DOPS(1, rz) DOPS(2, ru) DOPS(3, rd)

__global__ void rounding(const float *a, const float *b, const float *c, const double *A, const double *B,
                         const double *C, float *fo, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int k = 0; k < NOPS; k++) {
        fo[(i * NOPS + k) * 4 + 0] = fop<0>(k, a[i], b[i], c[i]);
        fo[(i * NOPS + k) * 4 + 1] = fop<1>(k, a[i], b[i], c[i]);
        fo[(i * NOPS + k) * 4 + 2] = fop<2>(k, a[i], b[i], c[i]);
        fo[(i * NOPS + k) * 4 + 3] = fop<3>(k, a[i], b[i], c[i]);
        dout[(i * NOPS + k) * 4 + 0] = dop<0>(k, A[i], B[i], C[i]);
        dout[(i * NOPS + k) * 4 + 1] = dop<1>(k, A[i], B[i], C[i]);
        dout[(i * NOPS + k) * 4 + 2] = dop<2>(k, A[i], B[i], C[i]);
        dout[(i * NOPS + k) * 4 + 3] = dop<3>(k, A[i], B[i], C[i]);
    }
}

static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
__attribute__((noinline)) static float h_fop(int k, int m, float x0, float y0, float z0)
{
    volatile float x = x0, y = y0, z = z0; volatile float r;
    fesetround(modes[m]);
    switch (k) { case 0: r = x + y; break; case 1: r = x * y; break; case 2: r = x / y; break;
                 case 3: r = fmaf(x, y, z); break; case 4: r = sqrtf(fabsf(x)); break; default: r = 1.0f / x; }
    fesetround(FE_TONEAREST);
    return r;
}
__attribute__((noinline)) static double h_dop(int k, int m, double x0, double y0, double z0)
{
    volatile double x = x0, y = y0, z = z0; volatile double r;
    fesetround(modes[m]);
    switch (k) { case 0: r = x + y; break; case 1: r = x * y; break; case 2: r = x / y; break;
                 case 3: r = fma(x, y, z); break; case 4: r = sqrt(fabs(x)); break; default: r = 1.0 / x; }
    fesetround(FE_TONEAREST);
    return r;
}

int main(void)
{
    static float a[N], b[N], c[N], fo[N * NOPS * 4];
    static double A[N], B[N], C[N], dout[N * NOPS * 4];
    for (int i = 0; i < N; i++) {
        a[i] = (float)k_randu(-4, 4); b[i] = (float)k_randu(-4, 4); c[i] = (float)k_randu(-4, 4);
        A[i] = k_randu(-4, 4); B[i] = k_randu(-4, 4); C[i] = k_randu(-4, 4);
        if (i % 4 == 1) { a[i] *= 1e30f; b[i] *= 1e15f; A[i] *= 1e300; B[i] *= 1e10; }  /* overflow */
        if (i % 4 == 2) { a[i] *= 1e-30f; b[i] *= 1e-12f; A[i] *= 1e-300; B[i] *= 1e-20; } /* subnormal */
    }
    a[0] = 3.0f; b[0] = 1.0f / 3.0f; A[0] = 3.0; B[0] = 1.0 / 3.0;
    float *pa, *pb, *pc, *pfo; double *pA, *pB, *pC, *pdo;
    CK(cudaMalloc(&pa, sizeof a)); CK(cudaMalloc(&pb, sizeof b)); CK(cudaMalloc(&pc, sizeof c)); CK(cudaMalloc(&pfo, sizeof fo));
    CK(cudaMalloc(&pA, sizeof A)); CK(cudaMalloc(&pB, sizeof B)); CK(cudaMalloc(&pC, sizeof C)); CK(cudaMalloc(&pdo, sizeof dout));
    CK(cudaMemcpy(pa, a, sizeof a, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pb, b, sizeof b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pc, c, sizeof c, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pA, A, sizeof A, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pB, B, sizeof B, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pC, C, sizeof C, cudaMemcpyHostToDevice));
    rounding<<<N / 64, 64>>>(pa, pb, pc, pA, pB, pC, pfo, pdo, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(fo, pfo, sizeof fo, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(dout, pdo, sizeof dout, cudaMemcpyDeviceToHost));
    int bad = 0, differ = 0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < NOPS; k++) {
            for (int m = 0; m < 4; m++) {
                float ef = h_fop(k, m, a[i], b[i], c[i]); float gf = fo[(i * NOPS + k) * 4 + m];
                if (k_f2u(ef) != k_f2u(gf) && bad++ < 25)
                    CHECK_MSG(0, "float op %d mode %d (%a,%a,%a): got %a want %a", k, m, (double)a[i], (double)b[i], (double)c[i], (double)gf, (double)ef);
                double ed = h_dop(k, m, A[i], B[i], C[i]); double gd = dout[(i * NOPS + k) * 4 + m];
                if (k_d2u(ed) != k_d2u(gd) && bad++ < 25)
                    CHECK_MSG(0, "double op %d mode %d (%a,%a,%a): got %a want %a", k, m, A[i], B[i], C[i], gd, ed);
            }
            differ += fo[(i * NOPS + k) * 4 + 2] != fo[(i * NOPS + k) * 4 + 3];
        }
    CHECK_EQ(bad, 0);
    CHECK(differ > N);   /* the inputs really exercise rounding: ru and rd disagree on most inexact results */
    return CHECK_DONE();
}
