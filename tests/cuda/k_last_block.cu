// The "last block" pattern of the CUDA threadFenceReduction sample: every block writes its partial
// sum, __threadfence(), then takes a ticket with atomicInc; the block that draws the last ticket
// sums all partials (read through volatile) in the same launch. Plus a flag hand-off between two
// blocks with __nanosleep back-off in the spin loop (as CUB's look-back does on sm_70+).
#include "k_util.h"

__device__ unsigned int g_ticket;

__global__ void last_block_sum(const int *in, int n, volatile long long *partial, long long *total, int *is_last)
{
    __shared__ long long s[256];
    __shared__ bool am_last;
    int t = threadIdx.x;
    long long acc = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += in[i];
    s[t] = acc;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();                                  /* partial visible before the ticket */
        unsigned ticket = atomicInc(&g_ticket, gridDim.x);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last) {
        long long v = 0;
        for (unsigned k = t; k < gridDim.x; k += blockDim.x) v += partial[k];
        s[t] = v;
        __syncthreads();
        for (int k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
        if (t == 0) { *total = s[0]; g_ticket = 0; is_last[blockIdx.x] = 1; }
    }
}

__global__ void handoff(volatile int *flag, volatile int *data, int *seen)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        for (int k = 0; k < 8; k++) data[k] = 1000 + k;
        __threadfence();
        atomicExch((int *)flag, 1);
    } else {
        unsigned ns = 32;
        while (atomicAdd((int *)flag, 0) == 0) { __nanosleep(ns); if (ns < 4096) ns *= 2; }
        __threadfence();
        for (int k = 0; k < 8; k++) seen[k] = data[k];
    }
}

int main(void)
{
    const int n = 500000, nb = 96;
    int *h = (int *)malloc(n * 4); long long e = 0;
    for (int i = 0; i < n; i++) { h[i] = (int)(k_rand32() % 20001) - 10000; e += h[i]; }
    int *din, *dlast; long long *dpart, *dtot;
    CK(cudaMalloc(&din, n * 4)); CK(cudaMalloc(&dpart, nb * 8)); CK(cudaMalloc(&dtot, 8)); CK(cudaMalloc(&dlast, nb * 4));
    CK(cudaMemcpy(din, h, n * 4, cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 3; rep++) {                   /* the ticket resets itself for the next launch */
        CK(cudaMemset(dtot, 0, 8)); CK(cudaMemset(dlast, 0, nb * 4));
        last_block_sum<<<nb, 256>>>(din, n, dpart, dtot, dlast);
        CK(cudaGetLastError());
        long long got; int last[96];
        CK(cudaMemcpy(&got, dtot, 8, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(last, dlast, sizeof last, cudaMemcpyDeviceToHost));
        CHECK_EQ(got, e);
        int nl = 0; for (int b = 0; b < nb; b++) nl += last[b];
        CHECK_EQ(nl, 1);                                  /* exactly one block saw itself last */
    }
    int *flag, *data, *seen, hs[8];
    CK(cudaMalloc(&flag, 4)); CK(cudaMalloc(&data, 32)); CK(cudaMalloc(&seen, 32));
    CK(cudaMemset(flag, 0, 4)); CK(cudaMemset(data, 0, 32)); CK(cudaMemset(seen, 0xff, 32));
    handoff<<<2, 32>>>(flag, data, seen);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hs, seen, sizeof hs, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 8; k++) CHECK_EQ(hs[k], 1000 + k);
    free(h);
    return CHECK_DONE();
}
