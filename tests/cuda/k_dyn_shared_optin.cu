// The opt-in dynamic shared memory limit: cudaDevAttrMaxSharedMemoryPerBlockOptin bytes (e.g.
// 163 KB on sm_80, 227 KB on sm_90) can be used after cudaFuncSetAttribute; the kernel fills and
// reads back every byte (as int) with a block-wide permutation; one byte more is refused.
#include "k_util.h"

__global__ void fill_all(unsigned *out, int nwords)
{
    extern __shared__ unsigned sm[];
    for (int i = threadIdx.x; i < nwords; i += blockDim.x) sm[i] = (unsigned)i * 2654435761u;
    __syncthreads();
    unsigned acc = 0;
    for (int i = threadIdx.x; i < nwords; i += blockDim.x) acc ^= sm[nwords - 1 - i] + (unsigned)i;
    atomicXor(out, acc);
    if (threadIdx.x == 0) out[1] = sm[nwords - 1];
}

int main(void)
{
    int optin = 0;
    CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CHECK(optin >= 48 * 1024);
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, fill_all));
    int bytes = optin - (int)fa.sharedSizeBytes, nwords = bytes / 4;
    CK(cudaFuncSetAttribute(fill_all, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    unsigned *d, h[2];
    CK(cudaMalloc(&d, 8)); CK(cudaMemset(d, 0, 8));
    fill_all<<<2, 256, bytes>>>(d, nwords);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost));
    unsigned e = 0;
    for (int i = 0; i < nwords; i++) e ^= (unsigned)(nwords - 1 - i) * 2654435761u + (unsigned)i;
    CHECK_EQ(h[0], 0u);                       /* two identical blocks xor to zero */
    CHECK(e != 0 || nwords == 0);
    CK(cudaMemset(d, 0, 8));
    fill_all<<<1, 256, bytes>>>(d, nwords);
    CK(cudaGetLastError()); CK(cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost));
    CHECK_EQ(h[0], e);
    CHECK_EQ(h[1], (unsigned)(nwords - 1) * 2654435761u);
    cudaError_t err = cudaFuncSetAttribute(fill_all, cudaFuncAttributeMaxDynamicSharedMemorySize, optin + 1);
    CHECK_MSG(err == cudaErrorInvalidValue, "attribute above the opt-in limit: %s", cudaGetErrorName(err));
    cudaGetLastError();
    return CHECK_DONE();
}
