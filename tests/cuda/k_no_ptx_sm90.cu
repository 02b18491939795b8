// NVCC_FLAGS: -gencode arch=compute_90,code=sm_90
// A binary that embeds only sm_90 machine code, which the SASS decoder does not read (Hopper's
// encoding: sass_decode.c takes sm_75..sm_89): the launch is refused with
// cudaErrorNoKernelImageForDevice instead of crashing, the error is not sticky, the kernel did
// not run, and the process stays usable.
#include "k_util.h"

__global__ void twice(int *p) { p[threadIdx.x] *= 2; }

int main(void)
{
    int *d, h[32];
    for (int i = 0; i < 32; i++) h[i] = i;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    twice<<<1, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    CHECK_MSG(e == cudaErrorNoKernelImageForDevice, "launch without a usable image: %s", cudaGetErrorName(e));
    CK(cudaDeviceSynchronize());                        /* not sticky */
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) CHECK_EQ(h[i], i);      /* the kernel did not run */
    return CHECK_DONE();
}
