// Device-side heap: malloc/free from kernels (every thread allocates, fills and frees its own
// buffer; allocations are distinct and 16-byte aligned), a buffer allocated in one kernel and freed
// in a later one, malloc(0) and a too-large request returning NULL, and cudaDeviceSetLimit /
// cudaDeviceGetLimit(cudaLimitMallocHeapSize).
#include "k_util.h"

__global__ void per_thread(unsigned long long *addrs, int *sums)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, n = 8 + t % 24;
    int *p = (int *)malloc(n * sizeof(int));
    addrs[t] = (unsigned long long)p;
    if (!p) { sums[t] = -1; return; }
    for (int k = 0; k < n; k++) p[k] = t + k;
    int s = 0; for (int k = 0; k < n; k++) s += p[k];
    sums[t] = s;
    free(p);
}
__global__ void keep(int **slot) { int *p = (int *)malloc(100 * sizeof(int)); if (p) for (int k = 0; k < 100; k++) p[k] = k * 2; *slot = p; }
__global__ void use_and_free(int **slot, int *out) { int *p = *slot; int s = 0; if (p) { for (int k = 0; k < 100; k++) s += p[k]; free(p); } *out = s; }
__global__ void edge(unsigned long long *o) { void *z = malloc(0); void *huge = malloc((size_t)1 << 50); o[0] = (unsigned long long)huge; if (z) free(z); }

int main(void)
{
    size_t lim = 0;
    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
    CK(cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize));
    CHECK(lim >= (64u << 20));
    const int nt = 512;
    unsigned long long *da; int *ds;
    CK(cudaMalloc(&da, nt * 8)); CK(cudaMalloc(&ds, nt * 4));
    per_thread<<<4, 128>>>(da, ds);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    static unsigned long long a[512]; static int s[512];
    CK(cudaMemcpy(a, da, sizeof a, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(s, ds, sizeof s, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < nt; t++) {
        int n = 8 + t % 24, e = n * t + n * (n - 1) / 2;
        if ((s[t] != e || a[t] == 0 || (a[t] & 15)) && bad++ < 5) CHECK_MSG(0, "thread %d: sum %d want %d, ptr %llx", t, s[t], e, a[t]);
    }
    CHECK_EQ(bad, 0);
    int **slot; int *dout, out = -1;
    CK(cudaMalloc(&slot, sizeof(int *))); CK(cudaMalloc(&dout, 4));
    keep<<<1, 1>>>(slot);
    use_and_free<<<1, 1>>>(slot, dout);
    CK(cudaGetLastError()); CK(cudaMemcpy(&out, dout, 4, cudaMemcpyDeviceToHost));
    CHECK_EQ(out, 9900);                 /* 2 * (0 + ... + 99) */
    edge<<<1, 1>>>(da);
    CK(cudaGetLastError()); CK(cudaMemcpy(a, da, 8, cudaMemcpyDeviceToHost));
    CHECK_EQ(a[0], 0ull);                /* 1 PiB cannot be satisfied: NULL, not a crash */
    return CHECK_DONE();
}
