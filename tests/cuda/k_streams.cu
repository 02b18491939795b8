// Ordering on streams: pinned H2D copy -> kernel -> cudaLaunchHostFunc -> kernel -> D2H on one
// stream, checked by a host function that records the order it ran in; a second stream waits on
// an event recorded in the first (cudaStreamWaitEvent) before consuming its result; events report
// completion (cudaEventQuery/Synchronize) and a non-negative cudaEventElapsedTime; two streams run
// independent kernel chains concurrently and are joined; cudaStreamQuery after sync is cudaSuccess.
#include "k_util.h"

__global__ void add(int *p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += v; }
__global__ void mul(int *p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= v; }
__global__ void spin_add(int *p, int n, int v, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = p[i];
    for (int k = 0; k < iters; k++) x = (x * 3 + v) % 1000003;
    p[i] = x;
}

static int order[8], norder;
static int *g_host;
static void CUDART_CB host_fn(void *arg) { order[norder++] = (int)(size_t)arg; if ((size_t)arg == 1) order[7] = g_host[0]; }

int main(void)
{
    const int n = 4096;
    int *h, *h2, *d, *d2;
    CK(cudaMallocHost(&h, n * sizeof(int))); CK(cudaMallocHost(&h2, n * sizeof(int)));
    CK(cudaMalloc(&d, n * sizeof(int))); CK(cudaMalloc(&d2, n * sizeof(int)));
    g_host = h;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaStream_t s1, s2; cudaEvent_t e0, e1;
    CK(cudaStreamCreate(&s1)); CK(cudaStreamCreate(&s2));
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, s1));
    CK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s1));
    add<<<n / 256, 256, 0, s1>>>(d, n, 10);
    CK(cudaLaunchHostFunc(s1, host_fn, (void *)1));      /* runs after add, before mul */
    mul<<<n / 256, 256, 0, s1>>>(d, n, 3);
    CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s1));
    CK(cudaLaunchHostFunc(s1, host_fn, (void *)2));
    CK(cudaEventRecord(e1, s1));
    /* stream 2 waits for e1, then copies d (final values) to d2 and adds 1 */
    CK(cudaStreamWaitEvent(s2, e1, 0));
    CK(cudaMemcpyAsync(d2, d, n * sizeof(int), cudaMemcpyDeviceToDevice, s2));
    add<<<n / 256, 256, 0, s2>>>(d2, n, 1);
    CK(cudaMemcpyAsync(h2, d2, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CK(cudaStreamSynchronize(s2));
    CK(cudaEventSynchronize(e1));
    CHECK_EQ(cudaEventQuery(e1), cudaSuccess);
    CHECK_EQ(cudaStreamQuery(s1), cudaSuccess);
    float ms = -1; CK(cudaEventElapsedTime(&ms, e0, e1)); CHECK(ms >= 0);
    CHECK_EQ(norder, 2); CHECK_EQ(order[0], 1); CHECK_EQ(order[1], 2);
    CHECK_EQ(order[7], 0);   /* host memory untouched when the first host function ran (D2H comes later) */
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (h[i] != (i + 10) * 3 && bad++ < 5) CHECK_MSG(0, "h[%d] = %d", i, h[i]);
        if (h2[i] != (i + 10) * 3 + 1 && bad++ < 5) CHECK_MSG(0, "h2[%d] = %d", i, h2[i]);
    }
    /* two independent chains on two streams, joined by the device */
    for (int i = 0; i < n; i++) h[i] = i;
    CK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice)); CK(cudaMemcpy(d2, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int r = 0; r < 5; r++) { spin_add<<<n / 256, 256, 0, s1>>>(d, n, r, 100); spin_add<<<n / 256, 256, 0, s2>>>(d2, n, r + 7, 50); }
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(h2, d2, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        long long x = i, y = i;
        for (int r = 0; r < 5; r++) { for (int k = 0; k < 100; k++) x = (x * 3 + r) % 1000003; for (int k = 0; k < 50; k++) y = (y * 3 + r + 7) % 1000003; }
        if ((h[i] != x || h2[i] != y) && bad++ < 5) CHECK_MSG(0, "chain %d: %d %d vs %lld %lld", i, h[i], h2[i], x, y);
    }
    CHECK_EQ(bad, 0);
    CK(cudaStreamDestroy(s1)); CK(cudaStreamDestroy(s2)); CK(cudaEventDestroy(e0)); CK(cudaEventDestroy(e1));
    CK(cudaFreeHost(h)); CK(cudaFreeHost(h2));
    return CHECK_DONE();
}
