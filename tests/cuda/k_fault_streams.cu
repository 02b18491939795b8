// EXPECT_EXIT: 0
// A fault on one stream while another stream works: the other stream keeps working until the fault
// and its host thread is not disturbed; its synchronisation then reports the sticky
// cudaErrorIllegalAddress (as on a GPU, where the context is lost for every stream), without a
// hang. Results live in mapped pinned host memory, which the host reads directly even in the
// sticky state: work completed before the fault is intact, and work of the good stream that ran
// around the fault is either complete or not done (never corrupted). After cudaDeviceReset
// everything works again.
#include "k_util.h"
#include <stdio.h>

__global__ void slow_fill(int *out, int n, int reps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = 0;
    for (int r = 0; r < reps; r++) v = v * 1664525 + 1013904223 + i;
    out[i] = v;
}

__global__ void wild(int *p) { p[threadIdx.x] = 7; }

int main(void)
{
    const int n = 1 << 16, reps = 200;
    int *h;
    CK(cudaHostAlloc((void **)&h, n * sizeof(int), cudaHostAllocMapped));
    memset(h, 0, n * sizeof(int));
    int *dh;
    CK(cudaHostGetDevicePointer((void **)&dh, h, 0));
    cudaStream_t good, bad;
    CK(cudaStreamCreateWithFlags(&good, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&bad, cudaStreamNonBlocking));
    int *h2;
    CK(cudaHostAlloc((void **)&h2, n * sizeof(int), cudaHostAllocMapped));
    memset(h2, 0, n * sizeof(int));
    int *dh2;
    CK(cudaHostGetDevicePointer((void **)&dh2, h2, 0));
    slow_fill<<<n / 256, 256, 0, good>>>(dh, n, reps);
    CK(cudaStreamSynchronize(good));
    for (int k = 0; k < 4; k++)
        slow_fill<<<n / 256, 256, 0, good>>>(dh2, n, reps);
    wild<<<1, 32, 0, bad>>>((int *)0x1000);
    cudaError_t e = cudaStreamSynchronize(bad);
    CHECK_MSG(e == cudaErrorIllegalAddress, "faulting stream sync -> %s", cudaGetErrorName(e));
    e = cudaStreamSynchronize(good);
    CHECK_MSG(e == cudaErrorIllegalAddress, "other stream sync after the fault -> %s (sticky)", cudaGetErrorName(e));
    int wrong = 0, wrong2 = 0, done2 = 0;
    for (int i = 0; i < n; i++) {
        int v = 0;
        for (int r = 0; r < reps; r++) v = v * 1664525 + 1013904223 + i;
        if (h[i] != v) wrong++;
        if (h2[i] == v) done2++;
        else if (h2[i] != 0) wrong2++;
    }
    CHECK_MSG(wrong == 0, "%d of %d results of the good stream's first kernel lost", wrong, n);
    CHECK_MSG(wrong2 == 0, "%d of %d results of the good stream's later kernels corrupted", wrong2, n);
    printf("good stream: %d of %d results of the kernels queued around the fault were computed\n", done2, n);
    CK(cudaDeviceReset());
    int *d, hv[32];
    CK(cudaMalloc(&d, 128));
    wild<<<1, 32>>>(d);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(hv, d, sizeof hv, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) if (hv[i] != 7) { CHECK_MSG(0, "after reset hv[%d] = %d", i, hv[i]); break; }
    return CHECK_DONE();
}
