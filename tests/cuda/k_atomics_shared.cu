// Atomics on shared memory (atom.shared.*): add int/float/ull, min/max signed and unsigned, inc/dec
// with wrap, and/or/xor, exch, CAS; per-block results copied out and checked against a host
// simulation. Also returns of shared atomicAdd form a permutation within each block.
#include "k_util.h"

#define BT 256
#define NB 6

__global__ void satom(const int *v, int *out, int *olds)
{
    __shared__ int s_add, s_min, s_max, s_exch, s_cas; __shared__ unsigned s_umin, s_umax, s_and, s_or, s_xor, s_inc, s_dec;
    __shared__ float s_f; __shared__ unsigned long long s_ull;
    int t = threadIdx.x, x = v[blockIdx.x * BT + t];
    if (t == 0) {
        s_add = 0; s_min = 1 << 30; s_max = -(1 << 30); s_exch = -1; s_cas = 0; s_umin = ~0u; s_umax = 0;
        s_and = ~0u; s_or = 0; s_xor = 0; s_inc = 0; s_dec = 0; s_f = 0; s_ull = 0;
    }
    __syncthreads();
    olds[blockIdx.x * BT + t] = atomicAdd(&s_add, 1);
    atomicMin(&s_min, x - 500); atomicMax(&s_max, x - 500);
    atomicMin(&s_umin, (unsigned)x * 40503u); atomicMax(&s_umax, (unsigned)x * 40503u);
    atomicAnd(&s_and, ~(1u << (x & 31))); atomicOr(&s_or, 1u << (x & 31)); atomicXor(&s_xor, (unsigned)x << 3);
    atomicInc(&s_inc, 9u);          /* counts modulo 10 */
    atomicDec(&s_dec, 6u);          /* from 0 wraps to 6, then counts down */
    atomicAdd(&s_f, (float)(x & 15));
    atomicAdd(&s_ull, (unsigned long long)x << 34);
    atomicExch(&s_exch, t);
    atomicCAS(&s_cas, t, t + 1);    /* succeeds for the thread whose id equals the current value: a chain */
    __syncthreads();
    if (t == 0) {
        int *o = out + blockIdx.x * 16;
        o[0] = s_add; o[1] = s_min; o[2] = s_max; o[3] = (int)s_umin; o[4] = (int)s_umax; o[5] = (int)s_and;
        o[6] = (int)s_or; o[7] = (int)s_xor; o[8] = (int)s_inc; o[9] = (int)s_dec; o[10] = (int)s_f;
        o[11] = (int)(s_ull >> 34); o[12] = (int)(s_ull & ((1ull << 34) - 1)); o[13] = s_exch; o[14] = s_cas; o[15] = 0;
    }
}

int main(void)
{
    static int v[NB * BT], out[NB * 16], olds[NB * BT];
    for (int i = 0; i < NB * BT; i++) v[i] = (int)(k_rand32() % 1000);
    int *dv, *dout, *dolds;
    CK(cudaMalloc(&dv, sizeof v)); CK(cudaMalloc(&dout, sizeof out)); CK(cudaMalloc(&dolds, sizeof olds));
    CK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
    satom<<<NB, BT>>>(dv, dout, dolds);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(olds, dolds, sizeof olds, cudaMemcpyDeviceToHost));
    for (int b = 0; b < NB; b++) {
        int mn = 1 << 30, mx = -(1 << 30); unsigned umn = ~0u, umx = 0, an = ~0u, orr = 0, xr = 0, inc = 0, dec = 0; float f = 0;
        unsigned long long ull = 0;
        for (int t = 0; t < BT; t++) {
            int x = v[b * BT + t];
            mn = x - 500 < mn ? x - 500 : mn; mx = x - 500 > mx ? x - 500 : mx;
            unsigned h = (unsigned)x * 40503u; umn = h < umn ? h : umn; umx = h > umx ? h : umx;
            an &= ~(1u << (x & 31)); orr |= 1u << (x & 31); xr ^= (unsigned)x << 3;
            inc = inc >= 9u ? 0 : inc + 1;                      /* atomicInc definition */
            dec = (dec == 0 || dec > 6u) ? 6u : dec - 1;         /* atomicDec definition */
            f += (float)(x & 15); ull += (unsigned long long)x << 34;
        }
        int *o = out + b * 16;
        CHECK_EQ(o[0], BT); CHECK_EQ(o[1], mn); CHECK_EQ(o[2], mx); CHECK_EQ((unsigned)o[3], umn); CHECK_EQ((unsigned)o[4], umx);
        CHECK_EQ((unsigned)o[5], an); CHECK_EQ((unsigned)o[6], orr); CHECK_EQ((unsigned)o[7], xr);
        CHECK_EQ(o[8], inc); CHECK_EQ(o[9], dec); CHECK_EQ(BT % 10, inc); CHECK_EQ(o[10], (int)f);
        CHECK_EQ(o[11], (int)(ull >> 34)); CHECK_EQ(o[12], 0);
        CHECK(o[13] >= 0 && o[13] < BT);
        /* the CAS chain: value v is replaced only by thread v, which may run before or after thread v-1:
           the final value is the length of the chain that happened in order, between 1 and BT */
        CHECK(o[14] >= 1 && o[14] <= BT);   /* thread 0 always succeeds */
        static char seen[BT]; memset(seen, 0, sizeof seen);
        int perm = 1;
        for (int t = 0; t < BT; t++) { int ol = olds[b * BT + t]; if (ol < 0 || ol >= BT || seen[ol]++) perm = 0; }
        CHECK_MSG(perm, "block %d: shared atomicAdd old values not a permutation", b);
    }
    return CHECK_DONE();
}
