// NVCC_FLAGS: -arch=sm_80
// Warp-level matrix multiply-accumulate (tensor cores) through nvcuda::wmma: 16x16x16 tiles of
// half inputs with float accumulation (wmma.load / wmma.mma / wmma.store in PTX), row- and
// column-major operands, an accumulator loaded from memory, and a 64x64x64 product built from
// tiles by 4 warps; then all four layout combinations of a and b with a column-major store.
// Inputs are small integers: every product and sum is exact in float.
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

// every combination of a and b layouts (row-major a is M x K rows, column-major a K columns of
// M; row-major b is K x N rows, column-major b N columns of K), one warp per 16x16 output tile
template <typename LA, typename LB>
__global__ void tile_gemm_layouts(const half *A, const half *B, float *D, int M, int N, int K)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles_n = N / 16, tm = warp / tiles_n, tn = warp % tiles_n;
    if (tm >= M / 16) return;
    const bool arow = __is_same(LA, wmma::row_major);
    const bool brow = __is_same(LB, wmma::row_major);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, LA> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, LB> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(a, arow ? A + tm * 16 * K + k : A + k * M + tm * 16, arow ? K : M);
        wmma::load_matrix_sync(b, brow ? B + k * N + tn * 16 : B + tn * 16 * K + k, brow ? N : K);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(D + tn * 16 * M + tm * 16, acc, M, wmma::mem_col_major);   /* D column-major */
}

template <typename LA, typename LB>
static int check_layouts(const char *name, const float *fA, const float *fB, const half *dA, const half *dB, float *dD, int M, int N, int K)
{
    const bool arow = __is_same(LA, wmma::row_major), brow = __is_same(LB, wmma::row_major);
    tile_gemm_layouts<LA, LB><<<(M / 16) * (N / 16) / 4, 128>>>(dA, dB, dD, M, N, K);
    CK(cudaGetLastError());
    static float D[64 * 64];
    CK(cudaMemcpy(D, dD, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int k = 0; k < K; k++) s += (arow ? fA[i * K + k] : fA[k * M + i]) * (brow ? fB[k * N + j] : fB[j * K + k]);
            if (D[j * M + i] != s && bad++ < 5) CHECK_MSG(0, "%s: D[%d][%d] = %g want %g", name, i, j, D[j * M + i], s);
        }
    return bad;
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
    /* the same data read as each combination of layouts (the products differ, each is exact) */
    CHECK_EQ((check_layouts<wmma::row_major, wmma::row_major>("a row, b row", fA, fB, dA, dB, dD, M, N, K)), 0);
    CHECK_EQ((check_layouts<wmma::col_major, wmma::row_major>("a col, b row", fA, fB, dA, dB, dD, M, N, K)), 0);
    CHECK_EQ((check_layouts<wmma::row_major, wmma::col_major>("a row, b col", fA, fB, dA, dB, dD, M, N, K)), 0);
    CHECK_EQ((check_layouts<wmma::col_major, wmma::col_major>("a col, b col", fA, fB, dA, dB, dD, M, N, K)), 0);
    return CHECK_DONE();
}
