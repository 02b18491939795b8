// NVCC_FLAGS: -arch=sm_80
// Asynchronous global->shared copies (sm_80 cp.async): the __pipeline_memcpy_async /
// __pipeline_commit / __pipeline_wait_prior primitives in a double-buffered loop, and
// cooperative_groups::memcpy_async + cg::wait for a whole tile. Host reference: plain sums.
#include "k_util.h"
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

#define TILE 128

__global__ void pipelined(const float4 *in, float *out, int ntiles)
{
    __shared__ float4 buf[2][TILE];
    int t = threadIdx.x;
    float acc = 0;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float4));
    __pipeline_commit();
    for (int k = 0; k < ntiles; k++) {
        if (k + 1 < ntiles) __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * TILE + t], sizeof(float4));
        __pipeline_commit();
        __pipeline_wait_prior(1);                        /* tile k has landed (tile k+1 may be in flight) */
        __syncthreads();
        float4 v = buf[k & 1][(t + 1) % TILE];           /* read a neighbour's copy: needs the barrier */
        acc += v.x + v.y + v.z + v.w;
        __syncthreads();
    }
    out[t] = acc;
}

__global__ void cg_copy(const int *in, int *out, int n)
{
    __shared__ int tile[1024];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, tile, in + blockIdx.x * n, sizeof(int) * n);
    cg::wait(b);
    int s = 0;
    for (int k = b.thread_rank(); k < n; k += b.size()) s += tile[n - 1 - k];
    atomicAdd(&out[blockIdx.x], s);
}

int main(void)
{
    const int ntiles = 16;
    static float4 in[16 * TILE]; float out[TILE];
    for (int i = 0; i < ntiles * TILE; i++) in[i] = make_float4((float)(i % 7), (float)(i % 5), 1.0f, -(float)(i % 3));
    float4 *din; float *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    pipelined<<<1, TILE>>>(din, dout, ntiles);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < TILE; t++) {
        float e = 0;
        for (int k = 0; k < ntiles; k++) { float4 v = in[k * TILE + (t + 1) % TILE]; e += v.x + v.y + v.z + v.w; }
        CHECK_MSG(out[t] == e, "pipelined[%d] = %g want %g", t, out[t], e);
    }
    const int n = 1000, nb = 3;
    static int hi[3 * 1000]; int ho[3];
    for (int i = 0; i < nb * n; i++) hi[i] = (int)(k_rand32() % 1000);
    int *di, *dio;
    CK(cudaMalloc(&di, sizeof hi)); CK(cudaMalloc(&dio, sizeof ho));
    CK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice)); CK(cudaMemset(dio, 0, sizeof ho));
    cg_copy<<<nb, 256>>>(di, dio, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(ho, dio, sizeof ho, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) { int e = 0; for (int k = 0; k < n; k++) e += hi[b * n + k]; CHECK_EQ(ho[b], e); }
    return CHECK_DONE();
}
