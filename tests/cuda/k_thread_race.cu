// Host-thread races on the kernel engine: 8 threads released together by a barrier each make the
// first launch of the same never-launched kernels (so translation/JIT of one entry races) on their
// own streams, with different arguments, and verify their own results; then all threads launch
// into one shared buffer with atomics on the legacy default stream.
#include "k_util.h"
#include <pthread.h>

__global__ void poly(int *out, int n, int a, int b) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = a * i * i + b * i + a - b; }
template <int K> __global__ void shifted(int *out, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = (i << K) ^ K; }
__global__ void bump(unsigned long long *c, int v) { atomicAdd(c, (unsigned long long)v); }

static pthread_barrier_t bar;
static unsigned long long *g_counter;
struct job { int id, ok; };

static void *worker(void *arg)
{
    job *j = (job *)arg;
    const int n = 3000;
    int *d = NULL, *h = (int *)malloc(n * sizeof(int));
    cudaStream_t s;
    j->ok = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess;
    j->ok &= cudaMalloc(&d, n * sizeof(int)) == cudaSuccess;
    pthread_barrier_wait(&bar);                               /* everyone launches at once */
    poly<<<(n + 127) / 128, 128, 0, s>>>(d, n, j->id, 3 * j->id);
    shifted<3><<<(n + 127) / 128, 128, 0, s>>>(d + n / 2, n / 2);
    j->ok &= cudaGetLastError() == cudaSuccess;
    j->ok &= cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess;
    j->ok &= cudaStreamSynchronize(s) == cudaSuccess;
    for (int i = 0; i < n; i++) {
        int e = i < n / 2 ? j->id * i * i + 3 * j->id * i + j->id - 3 * j->id : ((i - n / 2) << 3) ^ 3;
        if (h[i] != e) { j->ok = 0; break; }
    }
    pthread_barrier_wait(&bar);
    for (int r = 0; r < 20; r++) bump<<<4, 64>>>(g_counter, j->id);
    j->ok &= cudaDeviceSynchronize() == cudaSuccess;
    cudaFree(d); cudaStreamDestroy(s); free(h);
    return NULL;
}

int main(void)
{
    const int nth = 8;
    CK(cudaMalloc(&g_counter, 8)); CK(cudaMemset(g_counter, 0, 8));
    pthread_barrier_init(&bar, NULL, nth);
    pthread_t th[8]; job jobs[8];
    for (int k = 0; k < nth; k++) { jobs[k].id = k + 1; jobs[k].ok = 0; pthread_create(&th[k], NULL, worker, &jobs[k]); }
    for (int k = 0; k < nth; k++) pthread_join(th[k], NULL);
    for (int k = 0; k < nth; k++) CHECK_MSG(jobs[k].ok, "thread %d failed", k + 1);
    unsigned long long c = 0; CK(cudaMemcpy(&c, g_counter, 8, cudaMemcpyDeviceToHost));
    CHECK_EQ(c, 20ull * 256 * (nth * (nth + 1) / 2));
    pthread_barrier_destroy(&bar);
    return CHECK_DONE();
}
