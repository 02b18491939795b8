// NVCC_FLAGS: --default-stream per-thread
// --default-stream per-thread: four host threads each use their own default stream (the _ptsz entry
// points, handle cudaStreamPerThread) for memcpy + kernel + memcpy without synchronising with each
// other, plus an explicit launch on cudaStreamPerThread and cudaStreamSynchronize(cudaStreamPerThread).
#include "k_util.h"
#include <pthread.h>

__global__ void affine(int *p, int n, int a, int b) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = p[i] * a + b; }

struct job { int id; int ok; };
static void *worker(void *arg)
{
    job *j = (job *)arg;
    const int n = 5000;
    int *h = (int *)malloc(n * sizeof(int)), *d = NULL;
    for (int i = 0; i < n; i++) h[i] = i + j->id;
    j->ok = cudaMalloc(&d, n * sizeof(int)) == cudaSuccess;
    j->ok &= cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, 0) == cudaSuccess;   /* stream 0 = per-thread */
    for (int r = 0; r < 10; r++) affine<<<(n + 255) / 256, 256>>>(d, n, 1, j->id);               /* default stream */
    affine<<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(d, n, 2, 0);
    j->ok &= cudaGetLastError() == cudaSuccess;
    j->ok &= cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread) == cudaSuccess;
    j->ok &= cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess;
    for (int i = 0; i < n; i++) if (h[i] != 2 * (i + j->id + 10 * j->id)) { j->ok = 0; break; }
    cudaFree(d); free(h);
    return NULL;
}

int main(void)
{
    pthread_t th[4]; job jobs[4];
    for (int k = 0; k < 4; k++) { jobs[k].id = k + 1; jobs[k].ok = 0; pthread_create(&th[k], NULL, worker, &jobs[k]); }
    for (int k = 0; k < 4; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < 4; k++) CHECK_MSG(jobs[k].ok, "thread %d failed", k);
    /* main thread: default (per-thread) stream orders memset -> kernel -> copy */
    int *d, h[100];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemsetAsync(d, 0, sizeof h));
    affine<<<1, 100>>>(d, 100, 5, 7);
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 100; i++) CHECK_EQ(h[i], 7);
    return CHECK_DONE();
}
