// Single-pass chained scan (the pattern of CUB's decoupled look-back): block k scans its tile in
// shared memory, then thread 0 spin-waits until block k-1 has published its inclusive prefix
// (flag written with atomicExch after __threadfence, read through volatile), adds it, publishes its
// own, and the block adds the prefix to its tile. Correct only if blocks start in increasing order
// and a waiting block does not starve the one it waits for: 48 blocks, all co-resident on any GPU
// of the last decade. Host reference: a sequential inclusive scan.
#include "k_util.h"

#define TILE 256

__global__ void chained_scan(const int *in, long long *out, volatile long long *prefix, int *flag)
{
    __shared__ long long s[TILE];
    __shared__ long long carry;
    int t = threadIdx.x, b = blockIdx.x;
    s[t] = in[b * TILE + t];
    __syncthreads();
    for (int off = 1; off < TILE; off <<= 1) {              /* Hillis-Steele inclusive scan */
        long long v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (t == 0) {
        long long before = 0;
        if (b > 0) {
            while (atomicAdd(&flag[b - 1], 0) == 0) { }     /* spin on the predecessor */
            __threadfence();
            before = prefix[b - 1];
        }
        prefix[b] = before + s[TILE - 1];
        __threadfence();                                    /* prefix visible before the flag */
        atomicExch(&flag[b], 1);
        carry = before;
    }
    __syncthreads();
    out[b * TILE + t] = s[t] + carry;
}

int main(void)
{
    const int nb = 48, n = nb * TILE;
    static int in[48 * TILE]; static long long out[48 * TILE];
    for (int i = 0; i < n; i++) in[i] = (int)(k_rand32() % 2001) - 1000;
    int *din, *dflag; long long *dout, *dprefix;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMalloc(&dprefix, nb * sizeof(long long))); CK(cudaMalloc(&dflag, nb * sizeof(int)));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 3; rep++) {
        CK(cudaMemset(dflag, 0, nb * sizeof(int)));
        CK(cudaMemset(dout, 0, sizeof out));
        chained_scan<<<nb, TILE>>>(din, dout, dprefix, dflag);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
        long long acc = 0; int bad = 0;
        for (int i = 0; i < n; i++) { acc += in[i]; if (out[i] != acc && bad++ < 5) CHECK_MSG(0, "rep %d out[%d] = %lld want %lld", rep, i, out[i], acc); }
        CHECK_EQ(bad, 0);
    }
    return CHECK_DONE();
}
