// NVCC_FLAGS: -cudart static
// A program with the CUDA runtime linked statically (the nvcc default): it reaches the driver
// only through libcuda.so.1 (cuGetProcAddress_v2 and the private cuGetExportTable tables).
// Kernels, __constant__/__device__ symbols, memcpy, streams, events, host callbacks, error
// cases, and cudaDeviceReset then more work.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

__constant__ float c_scale[4];
__device__ int d_counter;

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i] * c_scale[i & 3];
}

__global__ void block_sum(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w >>= 1) {
        if ((int)threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s[0];
        atomicAdd(&d_counter, 1);
    }
}

static void CUDART_CB on_host(cudaStream_t s, cudaError_t st, void *p)
{
    *(int *)p = st == cudaSuccess ? 42 : -1;
}

static int run_saxpy(int n)
{
    float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
    float *out = (float *)malloc(n * sizeof(float));
    float scale[4] = { 1.0f, 0.5f, 2.0f, -1.0f };
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 97) * 0.25f;
        hy[i] = (float)(i % 13) - 6.0f;
    }
    float *x, *y;
    CHECK_EQ(cudaMalloc(&x, n * sizeof(float)), cudaSuccess);
    CHECK_EQ(cudaMalloc(&y, n * sizeof(float)), cudaSuccess);
    CHECK_EQ(cudaMemcpyToSymbol(c_scale, scale, sizeof scale), cudaSuccess);
    CHECK_EQ(cudaMemcpy(x, hx, n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    CHECK_EQ(cudaMemcpy(y, hy, n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
    saxpy<<<(n + 255) / 256, 256>>>(n, 3.0f, x, y);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaMemcpy(out, y, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (out[i] != 3.0f * hx[i] + hy[i] * scale[i & 3])
            bad++;
    CHECK_EQ(bad, 0);
    CHECK_EQ(cudaFree(x), cudaSuccess);
    CHECK_EQ(cudaFree(y), cudaSuccess);
    free(hx); free(hy); free(out);
    return bad;
}

int main(void)
{
    int count = 0;
    CHECK_EQ(cudaGetDeviceCount(&count), cudaSuccess);
    CHECK(count >= 1);
    int rv = 0, dv = 0;
    CHECK_EQ(cudaRuntimeGetVersion(&rv), cudaSuccess);
    CHECK_EQ(cudaDriverGetVersion(&dv), cudaSuccess);
    CHECK(rv >= 13000);
    CHECK(dv >= rv);

    run_saxpy(10000);

    /* streams, events, async copies, a host callback, __device__ symbol */
    const int n = 1 << 16, blocks = n / 256;
    int *hin, *hout;
    CHECK_EQ(cudaMallocHost(&hin, n * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMallocHost(&hout, blocks * sizeof(int)), cudaSuccess);
    for (int i = 0; i < n; i++)
        hin[i] = (i * 7919) % 1000 - 500;
    int *din, *dout;
    CHECK_EQ(cudaMalloc(&din, n * sizeof(int)), cudaSuccess);
    CHECK_EQ(cudaMalloc(&dout, blocks * sizeof(int)), cudaSuccess);
    int zero = 0;
    CHECK_EQ(cudaMemcpyToSymbol(d_counter, &zero, sizeof zero), cudaSuccess);
    cudaStream_t s1, s2;
    cudaEvent_t e0, e1, copied;
    CHECK_EQ(cudaStreamCreate(&s1), cudaSuccess);
    CHECK_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e0), cudaSuccess);
    CHECK_EQ(cudaEventCreate(&e1), cudaSuccess);
    CHECK_EQ(cudaEventCreateWithFlags(&copied, cudaEventDisableTiming), cudaSuccess);
    int cb = 0;
    CHECK_EQ(cudaEventRecord(e0, s1), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(din, hin, n * sizeof(int), cudaMemcpyHostToDevice, s1), cudaSuccess);
    CHECK_EQ(cudaEventRecord(copied, s1), cudaSuccess);
    CHECK_EQ(cudaStreamWaitEvent(s2, copied, 0), cudaSuccess);
    block_sum<<<blocks, 256, 0, s2>>>(din, dout, n);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaMemcpyAsync(hout, dout, blocks * sizeof(int), cudaMemcpyDeviceToHost, s2), cudaSuccess);
    CHECK_EQ(cudaStreamAddCallback(s2, on_host, &cb, 0), cudaSuccess);
    CHECK_EQ(cudaEventRecord(e1, s2), cudaSuccess);
    CHECK_EQ(cudaEventSynchronize(e1), cudaSuccess);
    CHECK_EQ(cudaStreamSynchronize(s2), cudaSuccess);
    float ms = -1.0f;
    CHECK_EQ(cudaEventElapsedTime(&ms, e0, e1), cudaSuccess);
    CHECK(ms >= 0.0f);
    CHECK_EQ(cudaEventElapsedTime(&ms, e0, copied), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cb, 42);
    int bad = 0;
    for (int b = 0; b < blocks; b++) {
        int ref = 0;
        for (int i = b * 256; i < (b + 1) * 256; i++)
            ref += hin[i];
        if (hout[b] != ref)
            bad++;
    }
    CHECK_EQ(bad, 0);
    int counter = -1;
    CHECK_EQ(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter), cudaSuccess);
    CHECK_EQ(counter, blocks);
    CHECK_EQ(cudaStreamQuery(s1), cudaSuccess);

    struct cudaFuncAttributes fa;
    CHECK_EQ(cudaFuncGetAttributes(&fa, block_sum), cudaSuccess);
    CHECK(fa.maxThreadsPerBlock >= 256);
    CHECK(fa.sharedSizeBytes >= 256 * sizeof(int));

    /* error cases the runtime itself catches (driver-side ones: static_errors.cu) */
    CHECK_EQ(cudaStreamSynchronize((cudaStream_t)0x1234), cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    CHECK_EQ(cudaMemcpy(hout, dout, 16, (cudaMemcpyKind)77), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
    CHECK(strlen(cudaGetErrorString(cudaErrorInvalidConfiguration)) > 0);

    CHECK_EQ(cudaStreamDestroy(s1), cudaSuccess);
    CHECK_EQ(cudaStreamDestroy(s2), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e0), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(e1), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(copied), cudaSuccess);
    CHECK_EQ(cudaFree(din), cudaSuccess);
    CHECK_EQ(cudaFree(dout), cudaSuccess);
    CHECK_EQ(cudaFreeHost(hin), cudaSuccess);
    CHECK_EQ(cudaFreeHost(hout), cudaSuccess);

    /* reset the device: the runtime rebuilds its context state, modules load again */
    CHECK_EQ(cudaDeviceReset(), cudaSuccess);
    run_saxpy(3000);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return CHECK_DONE();
}
