// clock(), clock64() and %globaltimer: monotonic within a thread, strictly advancing across a
// dependent loop of work (clock64), globaltimer non-decreasing and nonzero, and later kernels read
// later globaltimer values than earlier ones (host synchronises in between).
#include "k_util.h"

__device__ unsigned long long gtimer() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__global__ void timers(const int *in, unsigned long long *o, int *sink, int iters)
{
    int t = threadIdx.x;
    unsigned long long c0 = clock64(), g0 = gtimer();
    unsigned k0 = (unsigned)clock();
    int acc = in[t];
    for (int i = 0; i < iters; i++) acc = acc * 1103515245 + 12345 + (acc >> 7);
    sink[t] = acc;                               /* keeps the loop */
    unsigned long long c1 = clock64(), g1 = gtimer();
    unsigned k1 = (unsigned)clock();
    o[t * 4 + 0] = c1 - c0;
    o[t * 4 + 1] = (g1 >= g0) && g0 != 0;
    o[t * 4 + 2] = g1;
    o[t * 4 + 3] = (k1 - k0) != 0;             /* the 32-bit clock advances too */
}

int main(void)
{
    int *din, *sink; unsigned long long *d; static unsigned long long o1[64 * 4], o2[64 * 4];
    int in[64]; for (int i = 0; i < 64; i++) in[i] = i;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&sink, sizeof in)); CK(cudaMalloc(&d, sizeof o1));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    timers<<<1, 64>>>(din, d, sink, 10000);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o1, d, sizeof o1, cudaMemcpyDeviceToHost));
    timers<<<1, 64>>>(din, d, sink, 10);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o2, d, sizeof o2, cudaMemcpyDeviceToHost));
    unsigned long long max1 = 0, min2 = ~0ull;
    for (int t = 0; t < 64; t++) {
        CHECK_MSG(o1[t * 4] > 0 && o1[t * 4] < (1ull << 62), "clock64 delta %llu", o1[t * 4]);
        CHECK(o1[t * 4 + 1] == 1); CHECK(o2[t * 4 + 1] == 1);
        CHECK(o1[t * 4 + 3] == 1);
        if (o1[t * 4 + 2] > max1) max1 = o1[t * 4 + 2];
        if (o2[t * 4 + 2] < min2) min2 = o2[t * 4 + 2];
    }
    CHECK_MSG(min2 >= max1, "globaltimer went backwards across kernels: %llu then %llu", max1, min2);
    return CHECK_DONE();
}
