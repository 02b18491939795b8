// Histogram with shared-memory atomics: each block builds a private 256-bin histogram of bytes in
// shared memory (atomicAdd on shared), then merges into the global one with global atomics.
// Skewed input (half the bytes are 0x41) makes many lanes of a warp hit the same shared address.
#include "k_util.h"

__global__ void hist256(const unsigned char *data, int n, unsigned *hist)
{
    __shared__ unsigned sh[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) sh[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&sh[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) if (sh[i]) atomicAdd(&hist[i], sh[i]);
}

int main(void)
{
    const int n = 1 << 20;
    unsigned char *h = (unsigned char *)malloc(n);
    unsigned ref[256] = {0}, got[256];
    for (int i = 0; i < n; i++) { h[i] = (i & 1) ? 0x41 : (unsigned char)k_rand32(); ref[h[i]]++; }
    unsigned char *d; unsigned *dh;
    CK(cudaMalloc(&d, n)); CK(cudaMalloc(&dh, sizeof got));
    CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice)); CK(cudaMemset(dh, 0, sizeof got));
    hist256<<<64, 256>>>(d, n, dh);
    CK(cudaGetLastError());
    CK(cudaMemcpy(got, dh, sizeof got, cudaMemcpyDeviceToHost));
    unsigned total = 0;
    for (int i = 0; i < 256; i++) { CHECK_MSG(got[i] == ref[i], "bin %d: %u vs %u", i, got[i], ref[i]); total += got[i]; }
    CHECK_EQ(total, (unsigned)n);
    free(h);
    return CHECK_DONE();
}
