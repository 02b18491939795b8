// Warp operations in partial warps and with partial masks: blocks of 40 and 50 threads (the last
// warp has 8 / 18 lanes), mask = the lanes that exist; shuffles only read lanes inside the mask
// (reading an inactive lane is undefined in CUDA, so the test never does). Also lanes of a full
// warp that take one branch (even lanes, mask 0x55555555) shuffling among themselves, and
// __ballot_sync / __activemask in the partial warp.
#include "k_util.h"

__global__ void partial(const int *in, int *o)
{
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int nwl = min(32, (int)blockDim.x - w * 32);                 /* lanes in this warp */
    unsigned mask = nwl == 32 ? 0xffffffffu : ((1u << nwl) - 1);
    int v = in[blockIdx.x * 64 + t];
    int *r = o + (blockIdx.x * 64 + t) * 6;
    r[0] = __shfl_sync(mask, v, (lane + 1) % nwl);               /* rotate within existing lanes */
    int s = v;                                                   /* tree sum over existing lanes via idx */
    for (int k = 1; k < nwl; k++) s += __shfl_sync(mask, v, (lane + k) % nwl);
    r[1] = s;
    r[2] = __ballot_sync(mask, v & 1);
    unsigned am = __activemask();                                /* a subset of the existing lanes holding our own */
    r[3] = (am & ~mask) == 0 && ((am >> lane) & 1);
    r[4] = -1; r[5] = -1;
    if ((lane & 1) == 0) {
        unsigned even = 0x55555555u & mask;
        int nxt = (lane + 2) < nwl ? lane + 2 : 0;               /* next even lane that exists, wrapping */
        r[4] = __shfl_sync(even, v, nxt);
        int x = v;
        if (nwl == 32) for (int m = 16; m >= 2; m >>= 1) x += __shfl_xor_sync(even, x, m);   /* xor with even m stays even */
        r[5] = x;
    }
}

int main(void)
{
    static int in[2 * 64], o[2 * 64 * 6];
    for (int i = 0; i < 128; i++) in[i] = (int)(k_rand32() % 1000);
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice)); CK(cudaMemset(dout, 0x80, sizeof o));
    partial<<<1, 40>>>(din, dout);
    CK(cudaGetLastError());
    partial<<<2, 50>>>(din, dout);     /* overwrites block 0 with the 50-thread layout; block 1 too */
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < 50; t++) {
            int lane = t & 31, w = t >> 5, nwl = w == 0 ? 32 : 18, base = b * 64 + w * 32;
            int e[6]; unsigned bal = 0; int s = 0;
            for (int k = 0; k < nwl; k++) { s += in[base + k]; if (in[base + k] & 1) bal |= 1u << k; }
            e[0] = in[base + (lane + 1) % nwl]; e[1] = s; e[2] = (int)bal; e[3] = 1; e[4] = -1; e[5] = -1;
            if (!(lane & 1)) {
                e[4] = in[base + ((lane + 2) < nwl ? lane + 2 : 0)];
                if (nwl == 32) { int x = 0; for (int k = 0; k < 32; k += 2) x += in[base + k]; e[5] = x; } else e[5] = in[base + lane];
            }
            for (int k = 0; k < 6; k++)
                if (o[(b * 64 + t) * 6 + k] != e[k] && bad++ < 20)
                    CHECK_MSG(0, "block %d thread %d item %d: got %d want %d", b, t, k, o[(b * 64 + t) * 6 + k], e[k]);
        }
    CHECK_EQ(bad, 0);
    /* the 40-thread launch was overwritten; run it alone into a fresh buffer and check warp 1 (8 lanes) */
    CK(cudaMemset(dout, 0, sizeof o));
    partial<<<1, 40>>>(din, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int s8 = 0; unsigned bal8 = 0;
    for (int k = 0; k < 8; k++) { s8 += in[32 + k]; if (in[32 + k] & 1) bal8 |= 1u << k; }
    for (int t = 32; t < 40; t++) {
        CHECK_EQ(o[t * 6 + 0], in[32 + (t - 32 + 1) % 8]);
        CHECK_EQ(o[t * 6 + 1], s8);
        CHECK_EQ((unsigned)o[t * 6 + 2], bal8);
        CHECK_EQ(o[t * 6 + 3], 1);
    }
    return CHECK_DONE();
}
