// Launch-time errors, reported by cudaGetLastError right after the launch and not sticky (a valid
// launch afterwards works): 1025 threads per block, a grid dimension of 0, blockDim.z of 65,
// gridDim.y of 65536 -> cudaErrorInvalidConfiguration; dynamic shared memory above the limit ->
// cudaErrorInvalidValue; 64 KB of dynamic shared memory fails by default and works after
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 65536), using all of it.
#include "k_util.h"

__global__ void noop(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void bigshm(int *out, int n)
{
    extern __shared__ int s[];
    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = i * 3;
    __syncthreads();
    int acc = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) acc += s[n - 1 - i];
    atomicAdd(out, acc);
}

int main(void)
{
    int *d; CK(cudaMalloc(&d, 4096 * sizeof(int)));
    cudaError_t e;
    noop<<<1, 1025>>>(d);
    e = cudaGetLastError(); CHECK_MSG(e == cudaErrorInvalidConfiguration, "1025 threads: %s", cudaGetErrorName(e));
    CHECK_EQ(cudaGetLastError(), cudaSuccess);                 /* reading it cleared it */
    noop<<<dim3(0, 1, 1), 32>>>(d);
    e = cudaGetLastError(); CHECK_MSG(e == cudaErrorInvalidConfiguration, "grid 0: %s", cudaGetErrorName(e));
    noop<<<1, dim3(1, 1, 65)>>>(d);
    e = cudaGetLastError(); CHECK_MSG(e == cudaErrorInvalidConfiguration, "blockDim.z 65: %s", cudaGetErrorName(e));
    noop<<<dim3(1, 65536, 1), 1>>>(d);
    e = cudaGetLastError(); CHECK_MSG(e == cudaErrorInvalidConfiguration, "gridDim.y 65536: %s", cudaGetErrorName(e));
    noop<<<1, 32, 1 << 20>>>(d);
    e = cudaGetLastError(); CHECK_MSG(e == cudaErrorInvalidValue, "1 MB dynamic shared: %s", cudaGetErrorName(e));
    /* not sticky: a valid launch still works */
    noop<<<1, 1024>>>(d);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    int h[1024]; CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK_EQ(h[1023], 1);
    /* 64 KB dynamic shared memory: refused by default, allowed after opting in */
    const int n = 65536 / 4;
    CK(cudaMemset(d, 0, 4));
    bigshm<<<1, 256, 65536>>>(d, n);
    e = cudaGetLastError(); CHECK_MSG(e != cudaSuccess, "64 KB without the attribute launched");
    CK(cudaFuncSetAttribute(bigshm, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536));
    cudaFuncAttributes a; CK(cudaFuncGetAttributes(&a, bigshm));
    CHECK_EQ(a.maxDynamicSharedSizeBytes, 65536);
    bigshm<<<1, 256, 65536>>>(d, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    int sum; CK(cudaMemcpy(&sum, d, 4, cudaMemcpyDeviceToHost));
    CHECK_EQ(sum, 3 * (n - 1) * n / 2);
    /* an invalid attribute value is rejected */
    e = cudaFuncSetAttribute(bigshm, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 30);
    CHECK_MSG(e == cudaErrorInvalidValue, "1 GB attribute: %s", cudaGetErrorName(e));
    cudaGetLastError();
    return CHECK_DONE();
}
