// NVCC_FLAGS: -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=compute_90 -gencode arch=compute_80,code=compute_80
// A fat binary with SASS for sm_75 and PTX for compute_80 and compute_90: the device runs one of
// the embedded images (a GPU newer than sm_75 JIT-compiles the newest suitable PTX); __CUDA_ARCH__
// seen by the kernel must be one of the compiled architectures, and every image computes the same
// result (arch-specific code paths agree).
#include "k_util.h"

__global__ void which(int *arch, unsigned *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
    if (i == 0) *arch = __CUDA_ARCH__;
#endif
    if (i >= n) return;
    unsigned x = (unsigned)i * 2654435761u;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    v[i] = __reduce_add_sync(0xffffffffu, x & 0xff) + __brev(x);   /* redux exists from sm_80 */
#else
    unsigned s = x & 0xff;
    for (int m = 16; m; m >>= 1) s += __shfl_xor_sync(0xffffffffu, s, m);
    v[i] = s + __brev(x);
#endif
}

int main(void)
{
    const int n = 256;
    int *darch, arch = -1; unsigned *dv, v[256];
    CK(cudaMalloc(&darch, 4)); CK(cudaMalloc(&dv, sizeof v));
    which<<<n / 64, 64>>>(darch, dv, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&arch, darch, 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(v, dv, sizeof v, cudaMemcpyDeviceToHost));
    CHECK_MSG(arch == 750 || arch == 800 || arch == 900, "__CUDA_ARCH__ = %d", arch);
    printf("kernel ran the image for __CUDA_ARCH__ %d\n", arch);
    for (int w = 0; w < n / 32; w++) {
        unsigned s = 0;
        for (int l = 0; l < 32; l++) s += ((unsigned)(w * 32 + l) * 2654435761u) & 0xff;
        for (int l = 0; l < 32; l++) {
            unsigned x = (unsigned)(w * 32 + l) * 2654435761u, r = 0;
            for (int k = 0; k < 32; k++) if ((x >> k) & 1) r |= 1u << (31 - k);
            CHECK_EQ(v[w * 32 + l], s + r);
        }
    }
    return CHECK_DONE();
}
