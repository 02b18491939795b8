// SASS decoder corpus: half and bfloat16 arithmetic, comparisons, conversions (HADD2, HMUL2,
// HFMA2, HSET2, HSETP2, HMNMX2, F2F, F2FP, I2F.F16 ...). Compiled to cubins only, never run.
// Built per SM (PTX compute_75 for sm_75, compute_80 for the others): sm_80-only parts are
// guarded by __CUDA_ARCH__.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void half_math(const __half2 *a, const __half2 *b, __half2 *c, __half *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half2 x = a[i], y = b[i];
    __half2 s = __hadd2(x, y), m = __hmul2(x, y), f = __hfma2(x, y, s);
    __half2 sat = __hadd2_sat(x, y), fs = __hfma2_sat(x, y, m), r = f;
    __half2 mx = x, mn = y;
#if __CUDA_ARCH__ >= 800
    r = __hfma2_relu(x, y, f);
    mx = __hmax2(x, y); mn = __hmin2_nan(x, y);
#endif
    __half2 cmp = __hle2(x, y), neg = __hneg2(x), ab = __habs2(y);
    bool all = __hbgt2(x, y);
    c[i] = __hadd2(__hadd2(s, m), __hadd2(__hadd2(f, sat), __hadd2(fs, r)));
    c[i + n] = __hadd2(__hadd2(mx, mn), __hadd2(cmp, __hadd2(neg, ab)));
    __half lo = __low2half(x), hi = __high2half(y);
    float fl = __half2float(lo) + __half2float(hi) * 0.5f;
    h[i] = all ? __float2half_rz(fl) : __float2half_rn(fl * 3.0f);
    h[i + n] = __int2half_rn(i) + __uint2half_rd((unsigned)n) + __short2half_rn((short)i);
    h[i + 2 * n] = __float2half(__half2float(hsqrt(lo)) + __half2float(hrcp(hi)) +
                                __half2float(hexp2(lo)) + __half2float(hlog2(hi)));
}

#if __CUDA_ARCH__ >= 800
__global__ void bf16_math(const __nv_bfloat162 *a, const __nv_bfloat162 *b, __nv_bfloat162 *c,
                          __nv_bfloat16 *h, const float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat162 x = a[i], y = b[i];
    c[i] = __hfma2(x, y, __hmul2(x, y)) + __hadd2(x, y) + __hmax2(x, y) + __hfma2_relu(x, y, x);
    h[i] = __float2bfloat16(f[i]) + __float2bfloat16_rz(f[i] * 2.0f) + __float2bfloat16_rd(f[i + 1]);
    c[i + n] = __floats2bfloat162_rn(f[i], f[i + n]);
    h[i + n] = __int2bfloat16_rn(i) + __hmin(__low2bfloat16(x), __high2bfloat16(y));
}
#endif
