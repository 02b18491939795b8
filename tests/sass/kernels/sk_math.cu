// SASS decoder corpus (built per SM): integer and float arithmetic in its rarer forms (64-bit integer ops,
// funnel shifts, dp4a/dp2a, byte permutes, bit fields, double math, rounding modes,
// saturation, conversions of every width); compiled to cubins only, never run.
#include <cstdint>

__global__ void int_math(const uint32_t *a, const int64_t *l, uint32_t *o, int64_t *lo)
{
    int i = threadIdx.x;
    uint32_t x = a[i], y = a[i + 1], z = a[i + 2];
    uint32_t r = __funnelshift_l(x, y, z) + __funnelshift_rc(x, y, z) + __brev(x) + __clz(y) +
                 __ffs(z) + __popc(x) + __byte_perm(x, y, 0x3210 + (z & 7)) + __byte_perm(x, y, 0x5410) +
                 (uint32_t)__dp4a((int)x, (int)y, (int)z) + __dp4a(x, y, z) +
                 (uint32_t)__dp2a_lo((int)x, (int)y, (int)z) + __dp2a_hi(x, y, z) +
                 __umulhi(x, y) + (uint32_t)__mulhi((int)x, (int)y) + __sad(x, y, z) + __usad(x, y, z) +
                 (uint32_t)abs((int)x) + min(x, y) + (uint32_t)max((int)x, (int)z) + __vabsdiffu4(x, y) +
                 __vadd2(x, y) + __vsetgtu4(x, z) + (x >> (z & 31)) + ((int)y >> (x & 31));
    uint32_t bf;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(bf) : "r"(x), "r"(y & 31), "r"(z & 15));
    uint32_t bi;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(bi) : "r"(x), "r"(y), "r"(z & 31), "r"(7));
    int32_t sb;
    asm("bfe.s32 %0, %1, 4, 12;" : "=r"(sb) : "r"((int)x));
    uint32_t bfd;
    asm("bfind.u32 %0, %1;" : "=r"(bfd) : "r"(x));
    o[i] = r + bf + bi + (uint32_t)sb + bfd;
    int64_t p = l[i], q = l[i + 1];
    lo[i] = p * q + p / (q | 1) + p % 7 + (p >> 13) + (int64_t)((uint64_t)q >> 9) + __mul64hi(p, q) +
            (int64_t)__umul64hi((uint64_t)p, (uint64_t)q) + __clzll(p) + __popcll(q) + __ffsll(p) +
            (int64_t)__brevll((uint64_t)q) + llabs(p) + llmin(p, q) + (int64_t)(x * (uint64_t)y);
}

__global__ void float_math(const float *a, const double *d, float *o, double *od, int *oi,
                           long long *ol, unsigned short *oh)
{
    int i = threadIdx.x;
    float x = a[i], y = a[i + 1], z = a[i + 2];
    o[i] = __fadd_rz(x, y) + __fadd_rd(x, z) + __fadd_ru(y, z) + __fmul_rn(x, y) + __fmul_rz(y, z) +
           __fmaf_rd(x, y, z) + __fmaf_ru(x, z, y) + __fmaf_rz(z, y, x) + __saturatef(x * y) +
           __fdividef(x, y) + x / z + sqrtf(y) + rsqrtf(z) + __expf(x) + __logf(y) + __sinf(z) +
           __cosf(x) + tanhf(y) + exp2f(z) + log2f(x) + fminf(x, y) + fmaxf(y, z) + copysignf(x, z) +
           truncf(x) + floorf(y) + ceilf(z) + rintf(x) + roundf(y) + fabsf(z) + __frcp_rn(x) +
           __fsqrt_rd(y) + __int_as_float(__float_as_int(z) & 0x7fffffff) + (float)(x < y) + (float)isnan(z);
    double p = d[i], q = d[i + 1];
    od[i] = __dadd_rz(p, q) + __dmul_ru(p, q) + __fma_rd(p, q, p) + p / q + sqrt(q) + rsqrt(p) +
            exp(p) + log(q) + sin(p) + cos(q) + fmin(p, q) + fmax(p, q) + trunc(p) + floor(q) + ceil(p) +
            rint(q) + fabs(p) + __drcp_rn(q) + (double)x + (double)(p < q) + copysign(p, q);
    oi[i] = __float2int_rz(x) + __float2int_rd(y) + __float2int_ru(z) + (int)__float2uint_rn(x) +
            __double2int_rz(p) + (int)__double2uint_rd(q) + (int)(signed char)x + (int)(short)y +
            (int)(unsigned char)z + (int)__double2float_rz(p) + __float2int_rn(x * 2);
    ol[i] = __float2ll_rz(x) + (long long)__float2ull_rd(y) + __double2ll_ru(p) + (long long)__double2ull_rn(q) +
            (long long)__ll2float_rz((long long)p) + (long long)__ull2double_rd((unsigned long long)q) +
            (long long)__int2double_rn(i) + (long long)__uint2float_rz((unsigned)i) + (long long)(p * 2);
    oh[i] = (unsigned short)(__float_as_uint(__int2float_rd(i)) >> 16);
}
