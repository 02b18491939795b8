// NVCC_FLAGS: -arch=sm_80
// Warp-level matrix multiply-accumulate (tensor cores) through nvcuda::wmma: 16x16x16 tiles of
// half inputs with float accumulation (wmma.load / wmma.mma / wmma.store in PTX), row- and
// column-major operands, an accumulator loaded from memory, and a 64x64x64 product built from
// tiles by 4 warps. Inputs are small integers: every product and sum is exact in float.
#include "k_util.h"
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

__global__ void tile_gemm(const half *A, const half *B, const float *C, float *D, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = N / 16, tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16) return;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::load_matrix_sync(acc, C + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, A + tm * 16 * K + k, K);          /* A row-major M x K */
        wmma::load_matrix_sync(b, B + tn * 16 * K + k, K);          /* B column-major K x N (= N x K rows) */
        wmma::mma_sync(acc, a, b, acc);
    }
    for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;   /* element-wise on the fragment */
    wmma::store_matrix_sync(D + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

int main(void)
{
    const int M = 64, N = 64, K = 64;
    static half hA[64 * 64], hB[64 * 64]; static float fA[64 * 64], fB[64 * 64], C[64 * 64], D[64 * 64];
    for (int i = 0; i < M * K; i++) { fA[i] = (float)((int)(k_rand32() % 9) - 4); hA[i] = __float2half(fA[i]); }
    for (int i = 0; i < N * K; i++) { fB[i] = (float)((int)(k_rand32() % 9) - 4); hB[i] = __float2half(fB[i]); }
    for (int i = 0; i < M * N; i++) C[i] = (float)((int)(k_rand32() % 100) - 50);
    half *dA, *dB; float *dC, *dD;
    CK(cudaMalloc(&dA, sizeof hA)); CK(cudaMalloc(&dB, sizeof hB)); CK(cudaMalloc(&dC, sizeof C)); CK(cudaMalloc(&dD, sizeof D));
    CK(cudaMemcpy(dA, hA, sizeof hA, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, hB, sizeof hB, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice));
    tile_gemm<<<4, 128>>>(dA, dB, dC, dD, M, N, K);                 /* 16 warps = 16 output tiles */
    CK(cudaGetLastError());
    CK(cudaMemcpy(D, dD, sizeof D, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = C[i * N + j];
            for (int k = 0; k < K; k++) s += fA[i * K + k] * fB[j * K + k];    /* B stored column-major */
            if (D[i * N + j] != 2.0f * s && bad++ < 10) CHECK_MSG(0, "D[%d][%d] = %g want %g", i, j, D[i * N + j], 2.0f * s);
        }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
