// cudaFuncGetAttributes: maxThreadsPerBlock honours __launch_bounds__ (128) and is 1024 without;
// sharedSizeBytes reports the static __shared__ bytes (4096 + 1024); ptxVersion = the PTX's target arch; maxDynamicSharedSizeBytes
// tracks cudaFuncSetAttribute; an invalid function pointer is rejected with cudaErrorInvalidDeviceFunction.
// Then occupancy: cudaOccupancyMaxActiveBlocksPerMultiprocessor > 0 and bounded by the SM limits,
// 0 when the dynamic shared memory cannot fit; cudaOccupancyMaxPotentialBlockSize returns a block
// size in (0, 1024], a multiple of 32, <= 128 for the bounded kernel; a launch with it works.
#include "k_util.h"

__global__ void __launch_bounds__(128) bounded(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }
__global__ void plain(float *p) { p[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f; }
__global__ void with_shared(float *p)
{
    __shared__ float a[1024];
    __shared__ int b[256];
    a[threadIdx.x] = p[threadIdx.x]; b[threadIdx.x & 255] = (int)threadIdx.x;
    __syncthreads();
    p[threadIdx.x] = a[1023 - threadIdx.x] + b[threadIdx.x & 255];
}

int main(void)
{
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, bounded));
    CHECK_EQ(a.maxThreadsPerBlock, 128);
    CHECK(a.ptxVersion > 0);
#if defined(__CUDA_ARCH_LIST__) && __CUDA_ARCH_LIST__ < 1000
    /* ptxVersion is the virtual architecture the PTX targets (compute_75 -> 75), not the PTX ISA
       version; CUB compares ptxVersion * 10 with __CUDA_ARCH_LIST__ to pick its kernels */
    CHECK_EQ(a.ptxVersion, __CUDA_ARCH_LIST__ / 10);
#endif
    CK(cudaFuncGetAttributes(&a, plain));
    CHECK_EQ(a.maxThreadsPerBlock, 1024);
    CHECK_EQ(a.sharedSizeBytes, 0);
    CK(cudaFuncGetAttributes(&a, with_shared));
    CHECK_EQ(a.sharedSizeBytes, 4096 + 1024);
    CHECK(a.maxDynamicSharedSizeBytes > 0);
    CK(cudaFuncSetAttribute(plain, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192));
    CK(cudaFuncGetAttributes(&a, plain));
    CHECK_EQ(a.maxDynamicSharedSizeBytes, 8192);
    cudaError_t e = cudaFuncGetAttributes(&a, (const void *)main);
    CHECK_MSG(e == cudaErrorInvalidDeviceFunction, "host function: %s", cudaGetErrorName(e));
    cudaGetLastError();

    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    int nb = -1;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, plain, 256, 0));
    CHECK(nb > 0 && nb * 256 <= prop.maxThreadsPerMultiProcessor && nb <= prop.maxBlocksPerMultiProcessor);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, with_shared, 1024, 0));
    CHECK(nb >= 1 && (size_t)nb * 5120 <= prop.sharedMemPerMultiprocessor);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, plain, 64, prop.sharedMemPerMultiprocessor + 1024));
    CHECK_EQ(nb, 0);
    int minGrid = 0, bs = 0;
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, plain, 0, 0));
    CHECK(bs > 0 && bs <= 1024 && bs % 32 == 0 && minGrid > 0);
    CK(cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, bounded, 0, 0));
    CHECK(bs > 0 && bs <= 128 && bs % 32 == 0);
    float *d; int n = bs * 4; float h[512];
    CK(cudaMalloc(&d, n * sizeof(float))); CK(cudaMemset(d, 0, n * sizeof(float)));
    bounded<<<4, bs>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (h[i] != 1.0f) { CHECK_MSG(0, "h[%d] = %g", i, h[i]); break; }
    /* a launch above __launch_bounds__ is refused */
    bounded<<<1, 256>>>(d);
    e = cudaGetLastError();
    CHECK_MSG(e == cudaErrorInvalidValue || e == cudaErrorLaunchOutOfResources || e == cudaErrorInvalidConfiguration,
              "256 threads on a 128-bounded kernel: %s", cudaGetErrorName(e));
    return CHECK_DONE();
}
