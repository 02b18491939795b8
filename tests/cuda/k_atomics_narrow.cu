// NVCC_FLAGS: -arch=sm_80
// 16-bit and reduced-precision atomics: atomicCAS on unsigned short (atom.cas.b16, sm_70+) used
// for a 16-bit counter loop, atomicAdd on __half and __nv_bfloat16 scalars and on __nv_bfloat162
// (sm_80), atomicExch/atomicCAS on neighbouring 16-bit halves of one word (no tearing). Integer-
// valued inputs keep every sum exact and order-independent.
#include "k_util.h"
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void narrow(unsigned short *cnt16, __half *hs, __nv_bfloat16 *bs, __nv_bfloat162 *b2, unsigned short *pair)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short old = *(volatile unsigned short *)cnt16, assumed;
    do { assumed = old; old = atomicCAS(cnt16, assumed, (unsigned short)(assumed + 3)); } while (old != assumed);
    atomicAdd(hs, __float2half((float)(t & 3)));
    atomicAdd(bs, __float2bfloat16((float)(t & 1)));
    atomicAdd(b2, __floats2bfloat162_rn(t < 256 ? 1.0f : 0.0f, (float)((t >> 3) & 1)));
    /* two 16-bit counters in one 32-bit word: increments of one must not clobber the other */
    unsigned short *mine = pair + (t & 1);
    unsigned short o2 = *(volatile unsigned short *)mine, a2;
    do { a2 = o2; o2 = atomicCAS(mine, a2, (unsigned short)(a2 + 1)); } while (o2 != a2);
}

int main(void)
{
    /* every partial sum is an integer <= 768 (half: exact to 2048) or <= 256 (bf16: exact to 256),
       so the totals do not depend on the order of the atomics */
    const int nb = 4, nt = 128, n = nb * nt;
    unsigned short *c16, *pair; __half *hs; __nv_bfloat16 *bs; __nv_bfloat162 *b2;
    CK(cudaMalloc(&c16, 2)); CK(cudaMalloc(&pair, 4)); CK(cudaMalloc(&hs, 2)); CK(cudaMalloc(&bs, 2)); CK(cudaMalloc(&b2, 4));
    CK(cudaMemset(c16, 0, 2)); CK(cudaMemset(pair, 0, 4)); CK(cudaMemset(hs, 0, 2)); CK(cudaMemset(bs, 0, 2)); CK(cudaMemset(b2, 0, 4));
    narrow<<<nb, nt>>>(c16, hs, bs, b2, pair);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    unsigned short g16, gp[2]; __half gh; __nv_bfloat16 gb; __nv_bfloat162 gb2;
    CK(cudaMemcpy(&g16, c16, 2, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(gp, pair, 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&gh, hs, 2, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&gb, bs, 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&gb2, b2, 4, cudaMemcpyDeviceToHost));
    CHECK_EQ(g16, (unsigned short)(3 * n));
    CHECK_EQ(gp[0], n / 2); CHECK_EQ(gp[1], n / 2);
    CHECK(__half2float(gh) == (float)(n / 4 * (0 + 1 + 2 + 3)));         /* 768 */
    CHECK(__bfloat162float(gb) == (float)(n / 2));                        /* 256: exact in bf16 */
    CHECK(__low2float(gb2) == 256.0f);
    CHECK(__high2float(gb2) == (float)(n / 2));
    return CHECK_DONE();
}
