// NVCC_FLAGS: -arch=sm_80
// bfloat16 scalar and packed: __float2bfloat16 (rn), __float2bfloat16_rz/rd/ru, __bfloat162float,
// __hadd/__hsub/__hmul/__hfma/__hmax/__hmin on __nv_bfloat16 (fma.rn.bf16 on sm_80) and
// __hadd2/__hmul2/__hfma2 on __nv_bfloat162. Host reference: bf16 is the top half of a binary32,
// rounded here from the exact double result (sums and products of these inputs are exact in double).
#include "k_util.h"
#include <cuda_bf16.h>

#define N 512

static uint16_t b_enc(double v, int m)   /* 0 rn, 1 rz, 2 ru, 3 rd; v exact */
{
    float f = (float)v;   /* exact for our inputs except where noted: products/sums have <= 24 bits */
    uint32_t u = k_f2u(f);
    if (f != f) return 0x7fc0;
    uint32_t lo = u & 0xffff, hi = u >> 16;
    int neg = u >> 31;
    if (lo == 0) return (uint16_t)hi;
    if (m == 0) { if (lo > 0x8000 || (lo == 0x8000 && (hi & 1))) hi++; }
    else if (m == 2 && !neg) hi++;
    else if (m == 3 && neg) hi++;
    return (uint16_t)hi;
}
static double b_dec(uint16_t b) { return (double)k_u2f((uint32_t)b << 16); }

__global__ void bf(const float *fin, const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c,
                   __nv_bfloat16 *o, float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    __nv_bfloat16 *r = o + i * 14;
    r[0] = __hadd(x, y); r[1] = __hsub(x, y); r[2] = __hmul(x, y); r[3] = __hfma(x, y, z);
    r[4] = __hmax(x, y); r[5] = __hmin(x, y);
    r[6] = __float2bfloat16(fin[i]); r[7] = __float2bfloat16_rz(fin[i]); r[8] = __float2bfloat16_ru(fin[i]); r[9] = __float2bfloat16_rd(fin[i]);
    __nv_bfloat162 p = __halves2bfloat162(x, y), q = __halves2bfloat162(z, x);
    __nv_bfloat162 t = __hfma2(p, q, p), u = __hadd2(p, q), v = __hmul2(p, q);
    r[10] = __low2bfloat16(t); r[11] = __high2bfloat16(t); r[12] = __low2bfloat16(u); r[13] = __high2bfloat16(v);
    of[i] = __bfloat162float(x);
}

int main(void)
{
    static float fin[N], of[N]; static uint16_t a[N], b[N], c[N], o[N * 14];
    for (int i = 0; i < N; i++) {
        /* magnitudes 2^-20..2^20 keep every sum/product (<= 16 significant bits + exponent span) exact in float/double */
        a[i] = b_enc(ldexp(k_randu(-1, 1), (int)(k_rand32() % 16) - 8), 0);
        b[i] = b_enc(ldexp(k_randu(-1, 1), (int)(k_rand32() % 16) - 8), 0);
        c[i] = b_enc(ldexp(k_randu(-1, 1), (int)(k_rand32() % 16) - 8), 0);
        fin[i] = (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 200) - 100));
    }
    fin[0] = 1.00390625f; fin[1] = 1.01171875f; fin[2] = 3.4e38f; fin[3] = NAN; fin[4] = -1e-39f;
    a[0] = 0x7fc0; a[1] = 0x7f80; b[1] = 0xff80;
    float *pfin, *pof; __nv_bfloat16 *pa, *pb, *pc, *po;
    CK(cudaMalloc(&pfin, sizeof fin)); CK(cudaMalloc(&pof, sizeof of)); CK(cudaMalloc(&pa, sizeof a));
    CK(cudaMalloc(&pb, sizeof b)); CK(cudaMalloc(&pc, sizeof c)); CK(cudaMalloc(&po, sizeof o));
    CK(cudaMemcpy(pfin, fin, sizeof fin, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pa, a, sizeof a, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pb, b, sizeof b, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pc, c, sizeof c, cudaMemcpyHostToDevice));
    bf<<<N / 128, 128>>>(pfin, pa, pb, pc, po, pof, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, po, sizeof o, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(of, pof, sizeof of, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = b_dec(a[i]), y = b_dec(b[i]), z = b_dec(c[i]);
        int xn = x != x, yn = y != y;
        /* each exact result (exact in double for these inputs) is rounded to bf16 nearest-even
           directly from double: going through float first could round twice */
        uint16_t e[14];
        double ex[14] = {x + y, x - y, x * y, x * y + z, 0, 0, fin[i], fin[i], fin[i], fin[i], x * z + x, y * x + y, x + z, y * x};
        for (int k = 0; k < 14; k++) {
            double v = ex[k];
            if (k >= 6 && k <= 9) { e[k] = b_enc(v, k == 6 ? 0 : k == 7 ? 1 : k == 8 ? 2 : 3); continue; }
            if (k == 4 || k == 5) continue;
            /* round v (exact double) to bf16 nearest-even directly */
            if (v != v) { e[k] = 0x7fc0; continue; }
            if (isinf(v)) { e[k] = v > 0 ? 0x7f80 : 0xff80; continue; }
            int ee; frexp(v, &ee);
            double q = ldexp(fabs(v), 8 - ee), fl = floor(q), rr = q - fl;
            double nn = (rr > 0.5 || (rr == 0.5 && fmod(fl, 2) != 0)) ? fl + 1 : fl;
            e[k] = b_enc(copysign(ldexp(nn, ee - 8), v), 1);
        }
        e[4] = xn ? b[i] : yn ? a[i] : (x > y ? a[i] : b[i]);
        e[5] = xn ? b[i] : yn ? a[i] : (x < y ? a[i] : b[i]);
        for (int k = 0; k < 14; k++) {
            uint16_t g = o[i * 14 + k];
            int gn = (g & 0x7f80) == 0x7f80 && (g & 0x7f), en = (e[k] & 0x7f80) == 0x7f80 && (e[k] & 0x7f);
            int zero_eq = (k == 4 || k == 5) && !(g & 0x7fff) && !(e[k] & 0x7fff);
            if (g != e[k] && !(gn && en) && !zero_eq && bad++ < 25)
                CHECK_MSG(0, "bf16 op %d (x=%04x y=%04x z=%04x f=%a): got %04x want %04x", k, a[i], b[i], c[i], (double)fin[i], g, e[k]);
        }
        if (!(of[i] == (float)x || (xn && of[i] != of[i])) && bad++ < 25) CHECK_MSG(0, "bfloat162float %04x", a[i]);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(o[0 * 14 + 6], 0x3f80);   /* 1 + 2^-8 ties to even -> 1.0 */
    CHECK_EQ(o[1 * 14 + 6], 0x3f82);   /* 1 + 3*2^-8 ties to even -> 1 + 2^-6 */
    CHECK_EQ(o[2 * 14 + 6], 0x7f80);   /* 3.4e38 rounds to inf */
    CHECK_EQ(o[2 * 14 + 7], 0x7f7f);   /* rz keeps the largest finite */
    return CHECK_DONE();
}
