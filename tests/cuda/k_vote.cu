// Warp votes: __ballot_sync, __all_sync, __any_sync with the full mask and in a partial warp
// (block of 50), vote.sync.uni via inline PTX with the mask from __activemask(), __activemask inside
// a divergent branch (a subset of the lanes that took the branch, containing the caller), __syncwarp(mask)
// ordering shared-memory writes between lanes, and __popc of a ballot.
#include "k_util.h"

__global__ void vote(const int *in, unsigned *o)
{
    __shared__ int sh[64];
    int t = threadIdx.x, lane = t & 31, w = t >> 5;
    int nwl = min(32, (int)blockDim.x - w * 32);
    unsigned mask = nwl == 32 ? 0xffffffffu : ((1u << nwl) - 1);
    int v = in[t];
    unsigned *r = o + t * 8;
    r[0] = __ballot_sync(mask, v > 0);
    r[1] = __all_sync(mask, v > -1000) != 0;
    r[2] = __any_sync(mask, v == 42) != 0;
    r[3] = __all_sync(mask, v > 0) != 0;
    r[4] = __popc(__ballot_sync(mask, lane < 5));
    unsigned am = __activemask();
    int uni, uni2;
    asm volatile("{ .reg .pred p, q; setp.ne.s32 p, %2, 0; vote.sync.uni.pred q, p, %3; selp.s32 %0, 1, 0, q;\n"
                 "  setp.ge.s32 p, %4, 0; vote.sync.uni.pred q, p, %3; selp.s32 %1, 1, 0, q; }"
                 : "=r"(uni), "=r"(uni2) : "r"(v & 1), "r"(am), "r"(w));
    r[5] = (unsigned)uni | ((unsigned)uni2 << 1);
    r[6] = 0;
    if (v & 1) r[6] = __activemask();                 /* only lanes that took this branch can be active here */
    sh[t] = v * 2;
    __syncwarp(mask);
    r[7] = (unsigned)sh[w * 32 + (lane + 1) % nwl];
}

int main(void)
{
    int in[50]; static unsigned o[50 * 8];
    for (int i = 0; i < 50; i++) in[i] = (int)(k_rand32() % 200) - 50;
    in[7] = 42; for (int i = 32; i < 50; i++) in[i] = 1 + 2 * i;  /* warp 1: all positive, all odd */
    int *din; unsigned *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    vote<<<1, 50>>>(din, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    for (int w = 0; w < 2; w++) {
        int nwl = w ? 18 : 32, base = w * 32;
        unsigned bal = 0; int all = 1, any = 0, allpos = 1, allsame = 1;
        for (int k = 0; k < nwl; k++) {
            int v = in[base + k];
            if (v > 0) bal |= 1u << k;
            all &= v > -1000; any |= v == 42; allpos &= v > 0;
            allsame &= ((v & 1) != 0) == ((in[base] & 1) != 0);
        }
        for (int l = 0; l < nwl; l++) {
            unsigned *r = o + (base + l) * 8;
            CHECK_EQ(r[0], bal); CHECK_EQ(r[1], (unsigned)all); CHECK_EQ(r[2], (unsigned)any); CHECK_EQ(r[3], (unsigned)allpos);
            CHECK_EQ(r[4], 5u);
            CHECK_EQ(r[5] & 2, 2u);                                 /* warp index is uniform */
            if (allsame) CHECK_EQ(r[5] & 1, 1u);
            /* bit 0 of r[5] for a non-uniform predicate is only defined when the mask covers the warp */
            if (in[base + l] & 1) {
                unsigned odd = 0; for (int k = 0; k < nwl; k++) if (in[base + k] & 1) odd |= 1u << k;
                CHECK_MSG(((r[6] >> l) & 1) && (r[6] & ~odd) == 0, "lane %d: activemask %08x in a branch of lanes %08x", base + l, r[6], odd);
            } else CHECK_EQ(r[6], 0u);
            CHECK_EQ(r[7], (unsigned)(2 * in[base + (l + 1) % nwl]));
        }
    }
    return CHECK_DONE();
}
