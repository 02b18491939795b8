// EXPECT_EXIT: 0
// A kernel that stores through a wild pointer (NULL plus an offset) must not take the process down:
// the launch is accepted, the synchronisation returns cudaErrorIllegalAddress (700, "an illegal
// memory access was encountered"), and the error is sticky for later calls. The program checks
// this itself and exits 0.
#include "k_util.h"

__global__ void wild(int *p, int off) { p[off + threadIdx.x] = 42; }

int main(void)
{
    int *d;
    CK(cudaMalloc(&d, 256));
    wild<<<1, 32>>>(d, 0);                      /* a valid launch first */
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    wild<<<1, 32>>>((int *)NULL, 16);
    cudaError_t le = cudaGetLastError();
    CHECK_MSG(le == cudaSuccess || le == cudaErrorIllegalAddress, "launch: %s", cudaGetErrorName(le));
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorIllegalAddress, "sync after a wild store: %s", cudaGetErrorName(e));
    int h;
    e = cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
    CHECK_MSG(e == cudaErrorIllegalAddress, "memcpy after the fault: %s (sticky)", cudaGetErrorName(e));
    return CHECK_DONE();
}
