// EXPECT_EXIT: 0
// NVCC_FLAGS: -Xptxas -suppress-stack-size-warning
// Stack overflow: a fiber (thread-mode kernel: __syncwarp inside a device function) whose
// recursion runs past its stack hits the guard page below the fiber stack, and a block-mode
// kernel's recursion runs past the runner thread's own stack; both faults are caught on the
// runner's alternate signal stack and the launch fails with cudaErrorLaunchFailure (the log says
// "stack overflow"), sticky until cudaDeviceReset. Shallow recursions work before and after.
#include "k_util.h"
#include <stdio.h>

__device__ __noinline__ int deep(volatile int *scratch, int n, int sync)
{
    int local[64];
    for (int i = 0; i < 64; i++) local[i] = scratch[i & 7] + n + i;
    if (sync) __syncwarp();
    if (n == 0) return local[n & 63];
    int r = deep(scratch, n - 1, sync);
    return r + local[(n * 7) & 63];
}

__global__ void rec(int *out, int depth, int sync)
{
    out[threadIdx.x] = deep(out + 32, depth, sync);
}

static int host_deep(const int *s, int n)
{
    int local[64];
    for (int i = 0; i < 64; i++) local[i] = s[i & 7] + n + i;
    if (n == 0) return local[0];
    return host_deep(s, n - 1) + local[(n * 7) & 63];
}

static void run_ok(const char *what, int sync)
{
    int *d, h[40];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemset(d, 0, sizeof h));
    rec<<<1, 32>>>(d, 10, sync);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    int zeros[8] = {0};
    int want = host_deep(zeros, 10);
    for (int i = 0; i < 32; i++) if (h[i] != want) { CHECK_MSG(0, "%s: h[%d] = %d, want %d", what, i, h[i], want); break; }
    CK(cudaFree(d));
}

int main(void)
{
    for (int sync = 1; sync >= 0; sync--) {
        const char *mode = sync ? "fiber" : "block mode";
        run_ok(mode, sync);
        int *d;
        CK(cudaMalloc(&d, 40 * 4));
        CK(cudaMemset(d, 0, 40 * 4));
        rec<<<1, 32>>>(d, 1 << 20, sync);
        cudaError_t e = cudaDeviceSynchronize();
        CHECK_MSG(e == cudaErrorLaunchFailure, "%s: stack overflow -> %s", mode, cudaGetErrorName(e));
        e = cudaDeviceSynchronize();
        CHECK_MSG(e == cudaErrorLaunchFailure, "%s: sticky -> %s", mode, cudaGetErrorName(e));
        CK(cudaDeviceReset());
        run_ok(mode, sync);
    }
    return CHECK_DONE();
}
