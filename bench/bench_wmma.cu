// NVCC_FLAGS: -lopenblas
// bench_wmma.cu - a tensor-core GEMM through nvcuda::wmma (16x16x16 f16 tiles, f32 accumulators),
// shaped like the GEMMs people write for tensor cores (and cuda-samples' cudaTensorCoreGemm):
// 128x128 block tiles, 8 warps of 4x2 tiles each, 64-wide K chunks staged in shared memory,
// sizes compile-time constants (nvcc unrolls the chunk loop). Against OpenBLAS cblas_sgemm on
// the same matrices converted to float, in ONE run; the result is checked against it. Times are
// medians after a warm-up (which includes the JIT, reported as "first launch").
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>
extern "C" void cblas_sgemm(int order, int ta, int tb, int m, int n, int k, float alpha, const float *a, int lda,
                            const float *b, int ldb, float beta, float *c, int ldc);
using namespace nvcuda;

static double now_ms()
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
static double median_ms(int reps, const std::function<void()> &fn)
{
    std::vector<double> t;
    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        fn();
        t.push_back(now_ms() - t0);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

#define BT 128          /* block tile (M and N) */
#define KC 64           /* K chunk staged in shared memory */
#define SK (KC + 8)     /* shared row length in halves (padding against bank conflicts) */

// A: M x K row-major; B: N x K row-major (= K x N column-major); C: M x N row-major
template <int M, int N, int K>
__global__ void __launch_bounds__(256) wmma_gemm(const half *A, const half *B, float *C)
{
    __shared__ half sa[BT * SK], sb[BT * SK];
    const int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;   /* 4 x 2 warps: 32 x 64 each */
    const int m0 = blockIdx.y * BT, n0 = blockIdx.x * BT;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][4];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[i][j], 0.0f);
#pragma unroll
    for (int k0 = 0; k0 < K; k0 += KC) {
        for (int q = threadIdx.x; q < BT * KC / 8; q += 256) {           /* 16-byte copies */
            int r = q / (KC / 8), c = (q % (KC / 8)) * 8;
            *(int4 *)&sa[r * SK + c] = *(const int4 *)&A[(size_t)(m0 + r) * K + k0 + c];
            *(int4 *)&sb[r * SK + c] = *(const int4 *)&B[(size_t)(n0 + r) * K + k0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < KC; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[4];
#pragma unroll
            for (int i = 0; i < 2; i++) wmma::load_matrix_sync(a[i], &sa[(wm * 32 + i * 16) * SK + kk], SK);
#pragma unroll
            for (int j = 0; j < 4; j++) wmma::load_matrix_sync(b[j], &sb[(wn * 64 + j * 16) * SK + kk], SK);
#pragma unroll
            for (int i = 0; i < 2; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            wmma::store_matrix_sync(&C[(size_t)(m0 + wm * 32 + i * 16) * N + n0 + wn * 64 + j * 16], acc[i][j], N,
                                    wmma::mem_row_major);
}

template <int S>
static void run(int reps)
{
    const int M = S, N = S, K = S;
    std::vector<half> hA((size_t)M * K), hB((size_t)N * K);
    std::vector<float> fA((size_t)M * K), fB((size_t)N * K), ref((size_t)M * N), got((size_t)M * N);
    unsigned s = 1;
    for (size_t i = 0; i < hA.size(); i++) { s = s * 1664525u + 1013904223u; hA[i] = __float2half((float)((int)(s >> 24) - 128) / 64.0f); fA[i] = __half2float(hA[i]); }
    for (size_t i = 0; i < hB.size(); i++) { s = s * 1664525u + 1013904223u; hB[i] = __float2half((float)((int)(s >> 24) - 128) / 64.0f); fB[i] = __half2float(hB[i]); }
    half *dA, *dB; float *dC;
    CK(cudaMalloc(&dA, hA.size() * 2)); CK(cudaMalloc(&dB, hB.size() * 2)); CK(cudaMalloc(&dC, got.size() * 4));
    CK(cudaMemcpy(dA, hA.data(), hA.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB.data(), hB.size() * 2, cudaMemcpyHostToDevice));
    dim3 grid(N / BT, M / BT);
    double t0 = now_ms();
    wmma_gemm<S, S, S><<<grid, 256>>>(dA, dB, dC);
    CK(cudaDeviceSynchronize());
    double first = now_ms() - t0;
    double ours = median_ms(reps, [&] { wmma_gemm<S, S, S><<<grid, 256>>>(dA, dB, dC); cudaDeviceSynchronize(); });
    CK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
    /* C = A * B^T with B stored N x K: row-major, B transposed */
    double blas = median_ms(reps, [&] { cblas_sgemm(101, 111, 112, M, N, K, 1.0f, fA.data(), K, fB.data(), K, 0.0f, ref.data(), N); });
    double maxerr = 0;
    for (size_t i = 0; i < got.size(); i++) maxerr = std::max(maxerr, (double)fabsf(got[i] - ref[i]));
    printf("BENCH wmma GEMM %d^3 (f16 tiles, f32 accumulate): ours %.1f ms, cblas_sgemm %.1f ms; ours/cblas %.2fx "
           "(%.2f GFLOP/s; first launch incl. JIT %.0f ms)%s\n",
           S, ours, blas, ours / blas, 2.0 * M * N * K / ours / 1e6, first, maxerr > 1e-2 ? " WRONG RESULT" : "");
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    run<1024>(reps);
    return 0;
}
