// blas_util.h - helpers shared by tests/cuda/blas_*.cu: device buffers, a deterministic RNG,
// a double-precision host reference GEMM (complex-capable, all ops), element conversions.
// The tests must also pass on a real GPU, so tolerances accept tensor-core numerics.
#ifndef BLAS_UTIL_H
#define BLAS_UTIL_H
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <complex>
#include <vector>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>
#include "check.h"

typedef std::complex<double> cd;

#define CK(x) do { cudaError_t e_ = (x); CHECK_MSG(e_ == cudaSuccess, "%s -> %s", #x, cudaGetErrorName(e_)); } while (0)
#define BK(x) do { cublasStatus_t s_ = (x); CHECK_MSG(s_ == CUBLAS_STATUS_SUCCESS, "%s -> %d", #x, (int)s_); } while (0)
#define BKS(x, want) do { cublasStatus_t s_ = (x); CHECK_MSG(s_ == (want), "%s -> %d, want %d", #x, (int)s_, (int)(want)); } while (0)

static uint64_t blas_rng_ = 0x2545f4914f6cdd1dull;
static inline double rnd()    // uniform in [-1, 1)
{
    blas_rng_ ^= blas_rng_ << 13; blas_rng_ ^= blas_rng_ >> 7; blas_rng_ ^= blas_rng_ << 17;
    return (double)(blas_rng_ >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

template <typename T> static T *dalloc(size_t n)
{
    T *p = NULL;
    CK(cudaMalloc((void **)&p, n * sizeof(T) + 16));
    return p;
}
template <typename T> static T *upload(const std::vector<T> &h)
{
    T *p = dalloc<T>(h.size());
    CK(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return p;
}
template <typename T> static std::vector<T> download(const T *d, size_t n)
{
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

// op(X)(i, j) for X stored column-major with ld; op 0 = N, 1 = T, 2 = C
static inline cd opel(const std::vector<cd> &x, long ld, int op, long i, long j)
{
    cd v = op == 0 ? x[i + j * ld] : x[j + i * ld];
    return op == 2 ? std::conj(v) : v;
}

// reference: returns m x n (ld = m) of alpha op(A) op(B) + beta C
static std::vector<cd> ref_gemm(int opa, int opb, long m, long n, long k, cd alpha,
                                const std::vector<cd> &A, long lda, const std::vector<cd> &B, long ldb,
                                cd beta, const std::vector<cd> &C, long ldc)
{
    std::vector<cd> R(m * n);
    for (long j = 0; j < n; j++)
        for (long i = 0; i < m; i++) {
            cd s = 0;
            for (long p = 0; p < k; p++) s += opel(A, lda, opa, i, p) * opel(B, ldb, opb, p, j);
            R[i + j * m] = alpha * s + (beta != cd(0) ? beta * C[i + j * ldc] : cd(0));
        }
    return R;
}

// sum over p of |op(A)(i,p)| |op(B)(p,j)|: scale for error bounds
static std::vector<double> ref_absgemm(int opa, int opb, long m, long n, long k,
                                       const std::vector<cd> &A, long lda, const std::vector<cd> &B, long ldb)
{
    std::vector<double> R(m * n);
    for (long j = 0; j < n; j++)
        for (long i = 0; i < m; i++) {
            double s = 0;
            for (long p = 0; p < k; p++) s += std::abs(opel(A, lda, opa, i, p)) * std::abs(opel(B, ldb, opb, p, j));
            R[i + j * m] = s;
        }
    return R;
}

// true when running on the emulated NPU (checks of undefined-on-GPU behaviour only run there)
static inline bool on_npu()
{
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "transfer_to_npu");
}

static inline double h2d(__half h) { return (double)__half2float(h); }
static inline double b2d(__nv_bfloat16 h) { return (double)__bfloat162float(h); }
#endif
