// Warp-synchronous code without __syncwarp (ptx_lockstep.c): the threads of a converged warp
// must behave as if they executed each instruction together, as NVIDIA GPUs run them.
//  - wsort: a bitonic sort of 64..512 floats per warp in global memory, one compare-exchange
//    per lane and step, no barrier (CuPy's partition kernel does this): lanes that skip a swap
//    must not run into the next step before the swapping lanes stored (reconvergence);
//  - wreduce: the pre-CUDA-9 reduction tail `if (t < 32) { v[t] += v[t+16]; ... }` on volatile
//    shared memory (each step reads what another lane wrote in the step before);
//  - wshift: `s[lane + 1] = s[lane]` style shifts and rotations through shared memory, where a
//    lane running ahead would read its neighbour's new value (all reads of a step come first);
//  - wdiverge: lanes split on data; one side writes, both sides then read the other's values.
// Each is compared with a host model of lockstep execution. k_warp_lockstep_fibers.cu and
// _nolanes.cu run the same with barrier kernels on fibers and without lane groups.
#include "k_util.h"
#include <algorithm>

__device__ void cmpx(float *a, int len, int i, int s, int w)
{
    for (int j = i; j < len / 2; j += 32) {
        int n = j + (j & -w);
        float v = a[n], u = a[n + w];
        if (n & s ? v < u : v > u) { a[n] = u; a[n + w] = v; }
    }
}
__global__ void wsort(float *a, int len)
{
    int lane = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    float *x = a + (size_t)warp * len;
    for (int s = 2; s <= len; s *= 2)
        for (int w = s / 2; w >= 1; w /= 2) cmpx(x, len, lane, s, w);
}

__global__ void wreduce(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 128 + t];
    __syncthreads();
    if (t < 64) s[t] += s[t + 64];
    __syncthreads();
    if (t < 32) {
        volatile int *v = s;
        v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8]; v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void wshift(const int *in, int *out, int rounds)
{
    __shared__ int s[64 + 1];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    volatile int *v = s + w * 32;   /* one 32-int window per warp; the +1 is the shift's spill slot */
    v[lane] = in[blockIdx.x * 64 + threadIdx.x];
    for (int r = 0; r < rounds; r++) {
        int x = v[lane];
        v[(lane + 1) & 31] = x + r;   /* rotate by one: every lane reads before any writes */
    }
    out[blockIdx.x * 64 + threadIdx.x] = v[lane];
}

__global__ void wdiverge(const int *in, int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    int x = in[blockIdx.x * 32 + lane];
    volatile int *v = s;
    v[lane] = -1;
    if (x & 1) v[lane] = x * 3;          /* odd lanes publish */
    else v[lane] = x / 2;                /* even lanes too, another value */
    int y = v[(lane + 5) & 31];          /* read a neighbour's after the if/else reconverged */
    if (y > 40) v[lane] = y - 40;        /* a second divergent write ... */
    out[blockIdx.x * 32 + lane] = v[(lane + 7) & 31] + 1000 * y;   /* ... read after reconvergence */
}

static int check_sort(int len, int nw, int bs)
{
    int n = len * nw, bad = 0;
    float *h = k_hnew<float>(n), *r = k_hnew<float>(n);
    for (int i = 0; i < n; i++) h[i] = (float)(k_rand32() % 100000) / 7.0f;
    float *d = k_dup(h, n);
    wsort<<<nw * 32 / bs, bs>>>(d, len);
    k_sync_ok("wsort");
    k_get(r, d, n);
    for (int w = 0; w < nw; w++) {
        std::sort(h + w * len, h + (w + 1) * len);
        for (int i = 0; i < len; i++) bad += r[w * len + i] != h[w * len + i];
    }
    CHECK_MSG(bad == 0, "wsort len %d, %d warps in blocks of %d: %d elements out of place", len, nw, bs, bad);
    CK(cudaFree(d)); free(h); free(r);
    return bad;
}

int main(void)
{
    for (int len : {64, 128, 512}) { check_sort(len, 4, 32); check_sort(len, 4, 64); check_sort(len, 8, 128); }

    const int nb = 5;
    int hin[nb * 128], hout[nb];
    for (int i = 0; i < nb * 128; i++) hin[i] = (int)(k_rand32() % 1000) - 500;
    int *din = k_dup(hin, nb * 128), *dout = k_dnew<int>(nb * 128);
    wreduce<<<nb, 128>>>(din, dout);
    k_sync_ok("wreduce");
    k_get(hout, dout, nb);
    for (int b = 0; b < nb; b++) { int s = 0; for (int i = 0; i < 128; i++) s += hin[b * 128 + i]; CHECK_MSG(hout[b] == s, "wreduce block %d: %d want %d", b, hout[b], s); }

    int got[nb * 128];
    for (int rounds : {1, 5, 31}) {
        wshift<<<nb, 64>>>(din, dout, rounds);
        k_sync_ok("wshift");
        k_get(got, dout, nb * 64);
        for (int b = 0; b < nb; b++)
            for (int w = 0; w < 2; w++) {
                int m[32];
                for (int l = 0; l < 32; l++) m[l] = hin[b * 64 + w * 32 + l];
                for (int r = 0; r < rounds; r++) { int x[32]; for (int l = 0; l < 32; l++) x[l] = m[l]; for (int l = 0; l < 32; l++) m[(l + 1) & 31] = x[l] + r; }
                for (int l = 0; l < 32; l++)
                    CHECK_MSG(got[b * 64 + w * 32 + l] == m[l], "wshift rounds %d block %d warp %d lane %d: %d want %d", rounds, b, w, l, got[b * 64 + w * 32 + l], m[l]);
            }
    }

    for (int i = 0; i < nb * 32; i++) hin[i] = (int)(k_rand32() % 100);
    CK(cudaMemcpy(din, hin, nb * 32 * sizeof(int), cudaMemcpyHostToDevice));
    wdiverge<<<nb, 32>>>(din, dout);
    k_sync_ok("wdiverge");
    k_get(got, dout, nb * 32);
    for (int b = 0; b < nb; b++) {
        int v[32], y[32];
        for (int l = 0; l < 32; l++) { int x = hin[b * 32 + l]; v[l] = (x & 1) ? x * 3 : x / 2; }
        for (int l = 0; l < 32; l++) y[l] = v[(l + 5) & 31];
        for (int l = 0; l < 32; l++) if (y[l] > 40) v[l] = y[l] - 40;
        for (int l = 0; l < 32; l++)
            CHECK_MSG(got[b * 32 + l] == v[(l + 7) & 31] + 1000 * y[l], "wdiverge block %d lane %d: %d want %d", b, l, got[b * 32 + l], v[(l + 7) & 31] + 1000 * y[l]);
    }
    return CHECK_DONE();
}
