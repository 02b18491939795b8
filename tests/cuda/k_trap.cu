// __trap() in a kernel aborts the grid: the synchronisation returns cudaErrorLaunchFailure
// ("unspecified launch failure", a sticky error), the launch itself is accepted, and work
// submitted before the trapping kernel on the same stream had completed normally.
#include "k_util.h"

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void trapper(int *p, int bad)
{
    if ((int)threadIdx.x == bad) __trap();
    p[threadIdx.x] = 1;
}

int main(void)
{
    int *d, h[64];
    CK(cudaMalloc(&d, sizeof h));
    fill<<<1, 64>>>(d, 7);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK_EQ(h[63], 7);
    trapper<<<1, 64>>>(d, 13);
    /* the launch is valid; cudaGetLastError may already report the asynchronous fault if the kernel
       has finished (CUDA documents that it can return errors of earlier asynchronous launches) */
    cudaError_t le = cudaGetLastError();
    CHECK_MSG(le == cudaSuccess || le == cudaErrorLaunchFailure, "launch: %s", cudaGetErrorName(le));
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorLaunchFailure, "sync after __trap returned %s", cudaGetErrorName(e));
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    CHECK_MSG(e == cudaErrorLaunchFailure, "memcpy after __trap returned %s (sticky)", cudaGetErrorName(e));
    return CHECK_DONE();
}
