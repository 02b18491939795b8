// NVCC_FLAGS: -arch=sm_80
// Warp collectives met at different sites (PTX: a *.sync op waits for every non-exited lane of
// its mask to execute one "with the same qualifiers and same membermask value"): a ballot /
// reduce / shuffle loop with per-lane trip counts (nvcc unrolls it, so lanes of one iteration
// sit in different copies of the vote), a while(__any_sync) loop, and __syncwarp(mask) in
// branches with half-warp and odd/even masks ordering shared-memory exchanges. Blocks of 64 and
// 48 threads (a partial last warp). Checked against a host model of the warp.
#include "k_util.h"
#include <vector>

__host__ __device__ static unsigned hsh(unsigned x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}
__device__ static unsigned pmask()
{
    int n = blockDim.x - (threadIdx.x & ~31);
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

__global__ void loops(unsigned *o)
{
    int t = threadIdx.x;
    unsigned pm = pmask(), x = hsh(t + 8080);
    int n = (x >> 4) % 9, k = 0;
    unsigned acc = 0, hist = 0, m = __ballot_sync(pm, k < n);
    while (k < n) {
        acc += __reduce_add_sync(m, x + k);
        acc ^= __shfl_sync(m, acc, __ffs(m) - 1);
        hist = hist * 3u + __popc(m);
        k++;
        m = __ballot_sync(m, k < n);
    }
    int j = 0;
    unsigned s = 0;
    while (__any_sync(pm, j < n)) {
        if (j < n) s += (unsigned)j * x;
        else s ^= 1u << j;
        j++;
    }
    o[t * 4 + 0] = acc; o[t * 4 + 1] = hist; o[t * 4 + 2] = s; o[t * 4 + 3] = (unsigned)j;
}

__global__ void syncs(unsigned *o)
{
    __shared__ unsigned sh[64];
    int t = threadIdx.x, lane = t & 31, base = t & ~31;
    unsigned pm = pmask(), x = hsh(t + 99);
    int n = __popc(pm);                      /* 32 or 16: powers of two */
    sh[t] = x;
    __syncwarp(pm);
    o[t * 5 + 0] = sh[base + ((lane + 1) & (n - 1))];
    __syncwarp(pm);
    if (lane < 16) {
        sh[t] = x * 3u;
        __syncwarp(pm & 0xffffu);
        o[t * 5 + 1] = sh[base + (lane ^ 5)];
        __syncwarp(pm & 0xffffu);
    }
    __syncwarp(pm);
    if (lane & 1) {
        sh[t] = x + 7u;
        __syncwarp(pm & 0xaaaaaaaau);
        o[t * 5 + 2] = sh[base + ((lane + 2) & (n - 1))];
    } else {
        sh[t] = x ^ 0x5555u;
        __syncwarp(pm & 0x55555555u);
        o[t * 5 + 3] = sh[base + ((lane + 4) & (n - 1))];
    }
    __syncwarp(pm);
    unsigned acc = x;
    for (int k = 0; k < 4; k++) {
        sh[t] = acc;
        __syncwarp(pm);
        acc = acc * 5u + sh[base + ((lane + 3) & (n - 1))];
        __syncwarp(pm);
    }
    o[t * 5 + 4] = acc;
}

static void host_loops(int nt, std::vector<unsigned> &e)
{
    e.assign(nt * 4, 0);
    for (int w = 0; w < nt; w += 32) {
        int nl = nt - w < 32 ? nt - w : 32;
        unsigned x[32], acc[32] = {0}, hist[32] = {0}, s[32] = {0};
        int n[32], maxn = 0;
        for (int l = 0; l < nl; l++) { x[l] = hsh(w + l + 8080); n[l] = (x[l] >> 4) % 9; if (n[l] > maxn) maxn = n[l]; }
        for (int k = 0; k < maxn; k++) {
            unsigned m = 0, sum = 0;
            for (int l = 0; l < nl; l++) if (k < n[l]) { m |= 1u << l; sum += x[l] + k; }
            int first = __builtin_ctz(m);
            unsigned a0 = acc[first] + sum;          /* the source lane's acc after its add */
            for (int l = 0; l < nl; l++) if (m >> l & 1) { acc[l] += sum; acc[l] ^= a0; hist[l] = hist[l] * 3u + __builtin_popcount(m); }
        }
        for (int j = 0; j < maxn; j++)
            for (int l = 0; l < nl; l++) { if (j < n[l]) s[l] += (unsigned)j * x[l]; else s[l] ^= 1u << j; }
        for (int l = 0; l < nl; l++) {
            unsigned *r = &e[(w + l) * 4];
            r[0] = acc[l]; r[1] = hist[l]; r[2] = s[l]; r[3] = (unsigned)maxn;
        }
    }
}

static void host_syncs(int nt, std::vector<unsigned> &e)
{
    e.assign(nt * 5, 0);
    for (int w = 0; w < nt; w += 32) {
        int n = nt - w < 32 ? 16 : 32;           /* the shapes used: 64 and 48 threads */
        unsigned x[32], acc[32], nx[32];
        for (int l = 0; l < n; l++) x[l] = hsh(w + l + 99);
        for (int l = 0; l < n; l++) {
            unsigned *r = &e[(w + l) * 5];
            r[0] = x[(l + 1) & (n - 1)];
            if (l < 16) r[1] = x[l ^ 5] * 3u;
            if (l & 1) r[2] = x[(l + 2) & (n - 1)] + 7u;
            else r[3] = x[(l + 4) & (n - 1)] ^ 0x5555u;
            acc[l] = x[l];
        }
        for (int k = 0; k < 4; k++) {
            for (int l = 0; l < n; l++) nx[l] = acc[l] * 5u + acc[(l + 3) & (n - 1)];
            memcpy(acc, nx, sizeof acc);
        }
        for (int l = 0; l < n; l++) e[(w + l) * 5 + 4] = acc[l];
    }
}

int main()
{
    unsigned *o;
    CK(cudaMalloc(&o, 64 * 5 * 4));
    const int shapes[2] = {64, 48};
    for (int si = 0; si < 2; si++) {
        int nt = shapes[si];
        std::vector<unsigned> got(nt * 5), want;
        CK(cudaMemset(o, 0, 64 * 5 * 4));
        loops<<<1, nt>>>(o);
        CK(cudaGetLastError());
        CK(cudaMemcpy(got.data(), o, nt * 4 * 4, cudaMemcpyDeviceToHost));
        host_loops(nt, want);
        int bad = 0;
        for (int i = 0; i < nt * 4; i++) if (got[i] != want[i] && bad++ < 6)
            fprintf(stderr, "loops(%d) thread %d out %d: %08x want %08x\n", nt, i / 4, i % 4, got[i], want[i]);
        CHECK_MSG(bad == 0, "loops with %d threads: %d wrong", nt, bad);
        CK(cudaMemset(o, 0, 64 * 5 * 4));
        syncs<<<1, nt>>>(o);
        CK(cudaGetLastError());
        CK(cudaMemcpy(got.data(), o, nt * 5 * 4, cudaMemcpyDeviceToHost));
        host_syncs(nt, want);
        bad = 0;
        for (int i = 0; i < nt * 5; i++) if (got[i] != want[i] && bad++ < 6)
            fprintf(stderr, "syncs(%d) thread %d out %d: %08x want %08x\n", nt, i / 5, i % 5, got[i], want[i]);
        CHECK_MSG(bad == 0, "syncs with %d threads: %d wrong", nt, bad);
    }
    CK(cudaFree(o));
    return CHECK_DONE();
}
