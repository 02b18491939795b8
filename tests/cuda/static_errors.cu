// NVCC_FLAGS: -cudart static
// XFAIL: with a static cudart, a block of 4096 threads gives cudaErrorInvalidValue (the driver's CUDA_ERROR_INVALID_VALUE mapped by NVIDIA's cudart), not cudaErrorInvalidConfiguration; which one a GPU gives is unverified here
// Errors seen by a program whose CUDA runtime is linked statically: each must come back as
// the documented cudaError_t, and the program must keep working afterwards.
#include <cuda_runtime.h>
#include "check.h"

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

int main(void)
{
    int *d, h[64];
    CHECK_EQ(cudaMalloc(&d, sizeof h), cudaSuccess);
    /* more threads per block than any device allows */
    fill<<<1, 4096>>>(d, 1, 64);
    cudaError_t e = cudaGetLastError();
    CHECK_EQ(e, cudaErrorInvalidConfiguration);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    /* a device address that was never allocated */
    CHECK(cudaMemcpy(h, (void *)0x10, 16, cudaMemcpyDeviceToHost) != cudaSuccess);
    cudaGetLastError();
    /* freeing something that is not an allocation */
    CHECK_EQ(cudaFree((void *)0x1234), cudaErrorInvalidValue);
    cudaGetLastError();
    /* still usable */
    fill<<<1, 64>>>(d, 7, 64);
    CHECK_EQ(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < 64; i++)
        bad += h[i] != 7;
    CHECK_EQ(bad, 0);
    CHECK_EQ(cudaFree(d), cudaSuccess);
    return CHECK_DONE();
}
