// cp.async with a run-time source size of 0 or 16 and with ignore-src: the copy writes zeros
// instead of reading (CUTLASS's predicated tile iterators zero a tile's out-of-bounds part
// this way). In sm_80 machine code both are `LDGSTS [s], [g], !P0`: the copy reads only when
// the predicate operand holds. The SASS lift ignored the operand and read the source anyway:
// PyTorch's memory-efficient attention (head dim 16 in a 64-wide tile) gave errors of 1.6.
// The sources past n hold nonzero values, so a read shows.
// NVCC_FLAGS: -arch=sm_80
#include "k_util.h"

__global__ void by_size(const int4 *g, int4 *o, int n)
{
    __shared__ int4 s[128];
    int t = threadIdx.x;
    s[t] = make_int4(-1, -1, -1, -1);
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[t]);
    int sz = t < n ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" :: "r"(sa), "l"(g + t), "r"(sz));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    o[t] = s[127 - t];
}

__global__ void by_ignore(const int4 *g, int4 *o, int n)
{
    __shared__ int4 s[128];
    int t = threadIdx.x;
    s[t] = make_int4(-1, -1, -1, -1);
    __syncthreads();
    unsigned sa = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("{ .reg .pred p; setp.ge.s32 p, %2, %3; cp.async.ca.shared.global [%0], [%1], 16, p; }"
                 :: "r"(sa), "l"(g + t), "r"(t), "r"(n));
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    o[t] = s[127 - t];
}

int main(void)
{
    static int h[128 * 4], out[128 * 4];
    for (int i = 0; i < 128 * 4; i++) h[i] = (int)(k_rand32() & 0x7fffffff) | 1;   /* never 0 */
    int4 *g, *o;
    CK(cudaMalloc(&g, sizeof h)); CK(cudaMalloc(&o, sizeof out));
    CK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
    for (int which = 0; which < 2; which++)
        for (int n = 0; n <= 128; n += 37) {
            CK(cudaMemset(o, 0x55, sizeof out));
            if (which) by_ignore<<<1, 128>>>(g, o, n);
            else by_size<<<1, 128>>>(g, o, n);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
            int bad = 0;
            for (int t = 0; t < 128; t++) {
                int src = 127 - t;
                for (int c = 0; c < 4; c++) {
                    int e = src < n ? h[src * 4 + c] : 0;
                    if (out[t * 4 + c] != e && bad++ < 4)
                        CHECK_MSG(0, "%s n=%d: s[%d].%d = %d, want %d", which ? "ignore-src" : "src-size", n, src, c, out[t * 4 + c], e);
                }
            }
            CHECK_EQ(bad, 0);
        }
    CK(cudaFree(g)); CK(cudaFree(o));
    return CHECK_DONE();
}
