// __trap() in a kernel aborts the grid: the synchronisation returns cudaErrorLaunchFailure
// ("unspecified launch failure", a sticky error), the launch itself reported success, and work
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
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorLaunchFailure, "sync after __trap returned %s", cudaGetErrorName(e));
    e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    CHECK_MSG(e == cudaErrorLaunchFailure, "memcpy after __trap returned %s (sticky)", cudaGetErrorName(e));
    return CHECK_DONE();
}
