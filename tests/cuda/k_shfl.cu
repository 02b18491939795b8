// Warp shuffles with the full mask: __shfl_sync (broadcast, rotation, arbitrary source incl.
// out-of-range lanes which wrap modulo width), __shfl_up_sync/__shfl_down_sync (lanes without a
// source keep their own value), __shfl_xor_sync butterfly sum, on int, float, double and 64-bit
// values (two 32-bit shuffles), and the same with width 16, 8 and 4 (segments of the warp).
#include "k_util.h"

#define NT 128
#define K 12

__global__ void shfl(const int *in, const int *src, long long *o)
{
    int t = threadIdx.x, lane = t & 31;
    int v = in[t];
    float f = (float)v * 0.5f;
    double d = (double)v * 1.25;
    long long l = ((long long)v << 32) | (unsigned)(v * 7);
    const unsigned full = 0xffffffffu;
    long long *r = o + t * K;
    r[0] = __shfl_sync(full, v, 5);
    r[1] = __shfl_sync(full, v, lane + 1);            /* 32 wraps to 0 */
    r[2] = __shfl_sync(full, v, src[t]);              /* arbitrary, may exceed 31 */
    r[3] = __shfl_up_sync(full, v, 3);
    r[4] = __shfl_down_sync(full, v, 5);
    int s = v; for (int m = 16; m; m >>= 1) s += __shfl_xor_sync(full, s, m);
    r[5] = s;
    r[6] = (long long)(__shfl_sync(full, f, 31 - lane) * 4.0f);
    r[7] = (long long)(__shfl_down_sync(full, d, 1) * 8.0);
    r[8] = __shfl_xor_sync(full, l, 7);
    r[9] = __shfl_sync(full, v, src[t], 16);
    r[10] = __shfl_up_sync(full, v, 2, 8) + 1000 * __shfl_down_sync(full, v, 3, 8);
    int q = v; for (int m = 2; m; m >>= 1) q += __shfl_xor_sync(full, q, m, 4);
    r[11] = q;
}

int main(void)
{
    int in[NT], src[NT]; static long long o[NT * K];
    for (int i = 0; i < NT; i++) { in[i] = (int)(k_rand32() % 100000) - 50000; src[i] = (int)(k_rand32() % 80); }
    int *din, *dsrc; long long *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dsrc, sizeof src)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dsrc, src, sizeof src, cudaMemcpyHostToDevice));
    shfl<<<1, NT>>>(din, dsrc, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < NT; t++) {
        int w = t & ~31, lane = t & 31;
        #define V(l) in[w + (l)]
        long long e[K];
        e[0] = V(5);
        e[1] = V((lane + 1) & 31);
        e[2] = V(src[t] & 31);
        e[3] = lane >= 3 ? V(lane - 3) : V(lane);
        e[4] = lane + 5 <= 31 ? V(lane + 5) : V(lane);
        long long s = 0; for (int k = 0; k < 32; k++) s += V(k);
        e[5] = (int)s;
        e[6] = (long long)((float)V(31 - lane) * 0.5f * 4.0f);
        e[7] = (long long)((lane + 1 <= 31 ? V(lane + 1) : V(lane)) * 1.25 * 8.0);
        int x = V(lane ^ 7); e[8] = ((long long)x << 32) | (unsigned)(x * 7);
        int seg16 = lane & ~15; e[9] = V(seg16 + (src[t] & 15));
        int seg8 = lane & ~7, l8 = lane & 7;
        e[10] = (l8 >= 2 ? V(seg8 + l8 - 2) : V(lane)) + 1000LL * (l8 + 3 <= 7 ? V(seg8 + l8 + 3) : V(lane));
        int seg4 = lane & ~3; e[11] = V(seg4) + V(seg4 + 1) + V(seg4 + 2) + V(seg4 + 3);
        for (int k = 0; k < K; k++)
            if (o[t * K + k] != e[k] && bad++ < 20) CHECK_MSG(0, "thread %d op %d: got %lld want %lld", t, k, o[t * K + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
