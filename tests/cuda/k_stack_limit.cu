// cudaLimitStackSize sizes the stack of kernels whose depth only the program knows: recursion
// 1..120 frames deep (each frame a 24-int local array, ~112 bytes of SASS stack) with a
// 4 KiB local array in the kernel, after the program raised the limit to 32 KiB as CUDA
// requires. On the SASS path the lifter gave such a kernel 1024 bytes above its frame; deeper
// recursion took R1 below 0 and its stores landed 4 GiB past the stack array, which crashed
// (k_local_stack failed in CI one run in two) or, worse, wrote other memory silently. The
// limit is also read back, and cudaDeviceReset returns it to its default, 1024.
#include "k_util.h"

__device__ __noinline__ int deep(int depth, int seed)
{
    int frame[24];
    for (int k = 0; k < 24; k++) frame[k] = seed * 7 + k * depth;
    int below = depth > 0 ? deep(depth - 1, frame[(seed + depth) % 24] & 1023) : 0;
    int s = 0; for (int k = 0; k < 24; k++) s ^= frame[k] + k;
    return s + below;
}

__global__ void recurse(const int *depth, int *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int big[1024];                                  /* 4 KiB: the kernel's own frame */
    for (int k = 0; k < 1024; k++) big[k] = k ^ t;
    out[t] = deep(depth[t], t) + big[(t * 37) & 1023];
}

static int h_deep(int depth, int seed)
{
    int frame[24];
    for (int k = 0; k < 24; k++) frame[k] = seed * 7 + k * depth;
    int below = depth > 0 ? h_deep(depth - 1, frame[(seed + depth) % 24] & 1023) : 0;
    int s = 0; for (int k = 0; k < 24; k++) s ^= frame[k] + k;
    return s + below;
}

int main(void)
{
    enum { N = 96 };
    static int depth[N], out[N];
    for (int i = 0; i < N; i++) depth[i] = 1 + (int)(k_rand32() % 120);
    depth[5] = 120;
    size_t st = 0;
    CK(cudaDeviceGetLimit(&st, cudaLimitStackSize)); CHECK_EQ(st, (size_t)1024);
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 32768));
    CK(cudaDeviceGetLimit(&st, cudaLimitStackSize)); CHECK_EQ(st, (size_t)32768);
    int *dd, *dout;
    CK(cudaMalloc(&dd, sizeof depth)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(dd, depth, sizeof depth, cudaMemcpyHostToDevice));
    recurse<<<3, 32>>>(dd, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < N; t++) {
        int e = h_deep(depth[t], t) + ((((t * 37) & 1023)) ^ t);
        if (out[t] != e && bad++ < 8) CHECK_MSG(0, "thread %d depth %d: %d vs %d", t, depth[t], out[t], e);
    }
    CHECK_EQ(bad, 0);
    CK(cudaFree(dd)); CK(cudaFree(dout));
    CK(cudaDeviceReset());
    CK(cudaDeviceGetLimit(&st, cudaLimitStackSize)); CHECK_EQ(st, (size_t)1024);
    return CHECK_DONE();
}
