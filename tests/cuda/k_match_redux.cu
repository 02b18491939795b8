// NVCC_FLAGS: -arch=sm_80
// __match_any_sync / __match_all_sync (32- and 64-bit keys, full and partial masks) and the sm_80
// warp reductions __reduce_add_sync / _min_ / _max_ (signed and unsigned) / _and_ / _or_ / _xor_
// (redux.sync) with the full mask and with the lanes of a branch. Host reference: loops over lanes.
#include "k_util.h"

__global__ void mr(const int *in, const long long *lk, unsigned *o)
{
    int t = threadIdx.x, lane = t & 31;
    const unsigned full = 0xffffffffu;
    int v = in[t];
    unsigned *r = o + t * 16;
    r[0] = __match_any_sync(full, v % 5);
    r[1] = __match_any_sync(full, lk[t]);
    int pred = -1;
    r[2] = __match_all_sync(full, v % 5, &pred); r[3] = pred;
    r[4] = __match_all_sync(full, t >> 5, &pred); r[5] = pred;
    r[6] = __reduce_add_sync(full, (unsigned)v);
    r[7] = (unsigned)__reduce_min_sync(full, v - 500);
    r[8] = (unsigned)__reduce_max_sync(full, v - 500);
    r[9] = __reduce_min_sync(full, (unsigned)v * 2654435761u);
    r[10] = __reduce_max_sync(full, (unsigned)v * 2654435761u);
    r[11] = __reduce_and_sync(full, (unsigned)v | 0xf000u);
    r[12] = __reduce_or_sync(full, 1u << (v & 31));
    r[13] = __reduce_xor_sync(full, (unsigned)v * 77u);
    r[14] = 0; r[15] = 0;
    if (lane < 20) {                                        /* branch: lanes 0..19 */
        unsigned m = (1u << 20) - 1;
        r[14] = __reduce_add_sync(m, (unsigned)v);
        r[15] = __match_any_sync(m, v & 3);
    }
}

int main(void)
{
    int in[64]; long long lk[64]; static unsigned o[64 * 16];
    for (int i = 0; i < 64; i++) { in[i] = (int)(k_rand32() % 1000); lk[i] = (long long)(k_rand32() % 4) << 40 | 5; }
    for (int i = 32; i < 64; i++) in[i] = 5 * (int)(k_rand32() % 100) + 3;   /* warp 1: all v % 5 == 3 */
    int *din; long long *dlk; unsigned *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dlk, sizeof lk)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dlk, lk, sizeof lk, cudaMemcpyHostToDevice));
    mr<<<1, 64>>>(din, dlk, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        int b = t & ~31, lane = t & 31;
        unsigned e[16] = {0};
        int allsame = 1;
        for (int k = 0; k < 32; k++) {
            if (in[b + k] % 5 == in[t] % 5) e[0] |= 1u << k;
            if (lk[b + k] == lk[t]) e[1] |= 1u << k;
            allsame &= in[b + k] % 5 == in[b] % 5;
        }
        e[2] = allsame ? 0xffffffffu : 0; e[3] = allsame; e[4] = 0xffffffffu; e[5] = 1;
        unsigned add = 0, umin = ~0u, umax = 0, an = ~0u, orr = 0, xr = 0; int smin = 1 << 30, smax = -(1 << 30);
        for (int k = 0; k < 32; k++) {
            int v = in[b + k]; unsigned h = (unsigned)v * 2654435761u;
            add += v; smin = v - 500 < smin ? v - 500 : smin; smax = v - 500 > smax ? v - 500 : smax;
            umin = h < umin ? h : umin; umax = h > umax ? h : umax; an &= (unsigned)v | 0xf000u; orr |= 1u << (v & 31); xr ^= (unsigned)v * 77u;
        }
        e[6] = add; e[7] = (unsigned)smin; e[8] = (unsigned)smax; e[9] = umin; e[10] = umax; e[11] = an; e[12] = orr; e[13] = xr;
        if (lane < 20) {
            for (int k = 0; k < 20; k++) { e[14] += in[b + k]; if ((in[b + k] & 3) == (in[t] & 3)) e[15] |= 1u << k; }
        }
        for (int k = 0; k < 16; k++)
            if (o[t * 16 + k] != e[k] && bad++ < 20) CHECK_MSG(0, "thread %d item %d: got %08x want %08x", t, k, o[t * 16 + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(o[32 * 16 + 3], 1u);   /* warp 1 keys all equal */
    return CHECK_DONE();
}
