// Tiled SGEMM through shared memory (16x16 tiles, __syncthreads twice per tile step) for
// C = alpha*A*B + beta*C with M, N, K not multiples of the tile (boundary predication), row-major.
// Host reference: a double-precision triple loop; tolerance: K * 2^-24 * sum|a*b| (fp32 accumulation
// error bound, with fma contraction allowed).
#include "k_util.h"

#define TS 16

__global__ void sgemm(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C)
{
    __shared__ float As[TS][TS], Bs[TS][TS + 1];
    int row = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TS) {
        As[threadIdx.y][threadIdx.x] = (row < M && k0 + threadIdx.x < K) ? A[row * K + k0 + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < N && k0 + threadIdx.y < K) ? B[(k0 + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        #pragma unroll
        for (int k = 0; k < TS; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

int main(void)
{
    const int M = 131, N = 77, K = 203;
    float *A = (float *)malloc(M * K * 4), *B = (float *)malloc(K * N * 4), *C = (float *)malloc(M * N * 4), *R = (float *)malloc(M * N * 4);
    for (int i = 0; i < M * K; i++) A[i] = (float)k_randu(-1, 1);
    for (int i = 0; i < K * N; i++) B[i] = (float)k_randu(-1, 1);
    for (int i = 0; i < M * N; i++) C[i] = (float)k_randu(-1, 1);
    float *dA, *dB, *dC;
    CK(cudaMalloc(&dA, M * K * 4)); CK(cudaMalloc(&dB, K * N * 4)); CK(cudaMalloc(&dC, M * N * 4));
    CK(cudaMemcpy(dA, A, M * K * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B, K * N * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dC, C, M * N * 4, cudaMemcpyHostToDevice));
    const float alpha = 1.5f, beta = -0.5f;
    sgemm<<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS)>>>(M, N, K, alpha, dA, dB, beta, dC);
    CK(cudaGetLastError());
    CK(cudaMemcpy(R, dC, M * N * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0, sa = 0;
            for (int k = 0; k < K; k++) { s += (double)A[i * K + k] * B[k * N + j]; sa += fabs((double)A[i * K + k] * B[k * N + j]); }
            double e = alpha * s + beta * C[i * N + j];
            double tol = (K + 2) * ldexp(1.0, -24) * (alpha * sa + fabs(beta * C[i * N + j])) + 1e-6;
            if (fabs(R[i * N + j] - e) > tol && bad++ < 10) CHECK_MSG(0, "C[%d][%d] = %g want %g (tol %g)", i, j, R[i * N + j], e, tol);
        }
    CHECK_EQ(bad, 0);
    free(A); free(B); free(C); free(R);
    return CHECK_DONE();
}
