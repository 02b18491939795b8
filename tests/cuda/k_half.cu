// NVCC_FLAGS: -arch=sm_80
// fp16 scalar and packed: __hadd/__hsub/__hmul/__hfma/__hneg/__habs/__hmax/__hmin, comparisons,
// __hadd2/__hmul2/__hfma2 on half2, conversions __float2half_rn/rz/rd/ru, __half2float, overflow
// to inf, subnormal halves, NaN. Host reference: a bit-level binary16 encoder written here
// (round to nearest even / directed), operations done exactly in double then rounded once.
// Also: __hfma/__hfma_relu/__hfma_sat/__hfma2 on finite halves of every exponent (x*y + z is then
// not always exact in double: the reference keeps an addend far below the product as a sticky
// bit), and cvt.{rn,rz,rp,rm}.ftz.f16.f32 of subnormal floats, which .ftz does not flush (an H200
// gives 0x0001 for cvt.rp.ftz.f16.f32 of 0x00000001).
#include "k_util.h"
#include <cuda_fp16.h>

#define N 512

/* binary16 from an exact double value, mode 0 rn, 1 rz, 2 ru, 3 rd */
static uint16_t h_enc(double v, int m)
{
    if (v != v) return 0x7e00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    int up_to_inf = (m == 0) || (m == 2 && !sign) || (m == 3 && sign);
    if (a >= 65536.0) return sign | (up_to_inf ? 0x7c00 : 0x7bff);
    int e; frexp(a, &e);           /* a = f * 2^e, f in [0.5,1) */
    int ex = e - 1;                /* a in [2^ex, 2^(ex+1)) */
    if (ex < -14) ex = -14;        /* subnormal spacing */
    double q = ldexp(a, 10 - ex);  /* significand scaled to integer units */
    double fl = floor(q), r = q - fl;
    double n;
    if (r == 0) n = fl;
    else if (m == 0) n = (r > 0.5 || (r == 0.5 && fmod(fl, 2) != 0)) ? fl + 1 : fl;
    else if (m == 1) n = fl;
    else n = ((m == 2) != (sign != 0)) ? fl + 1 : fl;
    double res = ldexp(n, ex - 10);
    if (res >= 65536.0) return sign | 0x7c00;
    if (res > 65504.0) return sign | (up_to_inf ? 0x7c00 : 0x7bff);
    /* encode res exactly */
    if (res == 0) return sign;
    int e2; frexp(res, &e2); int x2 = e2 - 1;
    if (x2 < -14) return sign | (uint16_t)ldexp(res, 24);
    return sign | (uint16_t)((x2 + 15) << 10) | (uint16_t)(ldexp(res, 10 - x2) - 1024);
}
static double h_dec(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 1023; double s = (h & 0x8000) ? -1 : 1;
    if (e == 31) return f ? NAN : s * INFINITY;
    if (e == 0) return s * ldexp(f, -24);
    return s * ldexp(f + 1024, e - 25);
}

__global__ void halfk(const float *fin, const __half *a, const __half *b, const __half *c, __half *o, float *of, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i], z = c[i];
    __half *r = o + i * 16;
    r[0] = __hadd(x, y); r[1] = __hsub(x, y); r[2] = __hmul(x, y); r[3] = __hfma(x, y, z);
    r[4] = __hneg(x); r[5] = __habs(x); r[6] = __hmax(x, y); r[7] = __hmin(x, y);
    r[8] = __float2half_rn(fin[i]); r[9] = __float2half_rz(fin[i]); r[10] = __float2half_ru(fin[i]); r[11] = __float2half_rd(fin[i]);
    __half2 p = __halves2half2(x, y), q = __halves2half2(z, x), s = __halves2half2(y, z);
    __half2 t = __hfma2(p, q, s), u = __hadd2(p, q), v = __hmul2(p, s);
    r[12] = __low2half(t); r[13] = __high2half(t); r[14] = __low2half(u); r[15] = __high2half(v);
    of[i * 4 + 0] = __half2float(x);
    of[i * 4 + 1] = (float)__hlt(x, y) + 2.0f * (float)__heq(x, y) + 4.0f * (float)__hge(x, y);
    of[i * 4 + 2] = __low2float(u) + __high2float(u);
    of[i * 4 + 3] = (float)__hisnan(x);
}

__global__ void hfma_full(const __half *a, const __half *b, const __half *c, __half *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half x = a[i], y = b[i], z = c[i];
    o[i * 5 + 0] = __hfma(x, y, z); o[i * 5 + 1] = __hfma_relu(x, y, z); o[i * 5 + 2] = __hfma_sat(x, y, z);
    __half2 t = __hfma2(__halves2half2(x, z), __halves2half2(y, y), __halves2half2(z, x));
    o[i * 5 + 3] = __low2half(t); o[i * 5 + 4] = __high2half(t);
}
__global__ void f2h_ftz(const float *f, unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i]; unsigned short r;
    asm("cvt.rn.ftz.f16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 0] = r;
    asm("cvt.rz.ftz.f16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 1] = r;
    asm("cvt.rp.ftz.f16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 2] = r;
    asm("cvt.rm.ftz.f16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 3] = r;
}

static uint16_t rand_finite_half(void) { uint16_t h; do h = (uint16_t)k_rand32(); while ((h & 0x7c00) == 0x7c00); return h; }

int main(void)
{
    static float fin[N], of[N * 4]; static uint16_t a[N], b[N], c[N], o[N * 16];
    for (int i = 0; i < N; i++) {
        double m = (i % 8 == 0) ? 1e-6 : (i % 8 == 1 ? 1e4 : 8);
        a[i] = h_enc(k_randu(-m, m), 0); b[i] = h_enc(k_randu(-m, m), 0); c[i] = h_enc(k_randu(-8, 8), 0);
        fin[i] = (float)(k_randu(-1, 1) * ldexp(1.0, (int)(k_rand32() % 50) - 30));
    }
    a[0] = 0x7e00; a[1] = 0x7c00; b[1] = 0xfc00; a[2] = 0x8000; b[2] = 0x0000; a[3] = 0x0001; b[3] = 0x3800;
    fin[0] = 65520.0f; fin[1] = 65519.99f; fin[2] = -70000.0f; fin[3] = 5.9604645e-8f; fin[4] = 2.9802322e-8f;
    fin[5] = 2.98023259e-8f; fin[6] = NAN; fin[7] = 1.00048828125f; fin[8] = 1.00146484375f; fin[9] = -1e-10f;
    float *pfin, *pof; __half *pa, *pb, *pc, *po;
    CK(cudaMalloc(&pfin, sizeof fin)); CK(cudaMalloc(&pof, sizeof of)); CK(cudaMalloc(&pa, sizeof a));
    CK(cudaMalloc(&pb, sizeof b)); CK(cudaMalloc(&pc, sizeof c)); CK(cudaMalloc(&po, sizeof o));
    CK(cudaMemcpy(pfin, fin, sizeof fin, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pa, a, sizeof a, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(pb, b, sizeof b, cudaMemcpyHostToDevice)); CK(cudaMemcpy(pc, c, sizeof c, cudaMemcpyHostToDevice));
    halfk<<<N / 128, 128>>>(pfin, pa, pb, pc, po, pof, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, po, sizeof o, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(of, pof, sizeof of, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        double x = h_dec(a[i]), y = h_dec(b[i]), z = h_dec(c[i]);
        int xn = x != x, yn = y != y;
        uint16_t e[16] = {
            h_enc(x + y, 0), h_enc(x - y, 0), h_enc(x * y, 0), h_enc(x * y + z, 0),   /* exact in double for these ranges */
            (uint16_t)(a[i] ^ 0x8000), (uint16_t)(a[i] & 0x7fff),
            (uint16_t)(xn ? b[i] : yn ? a[i] : (x > y ? a[i] : b[i])), (uint16_t)(xn ? b[i] : yn ? a[i] : (x < y ? a[i] : b[i])),
            h_enc(fin[i], 0), h_enc(fin[i], 1), h_enc(fin[i], 2), h_enc(fin[i], 3),
            h_enc(x * z + y, 0), h_enc(y * x + z, 0), h_enc(x + z, 0), h_enc(z * y, 0)};
        for (int k = 0; k < 16; k++) {
            uint16_t g = o[i * 16 + k];
            int both_nan = ((g & 0x7c00) == 0x7c00 && (g & 0x3ff)) && ((e[k] & 0x7c00) == 0x7c00 && (e[k] & 0x3ff));
            int zero_eq = (k == 6 || k == 7) && !(g & 0x7fff) && !(e[k] & 0x7fff);   /* max/min of +-0: either zero */
            if (g != e[k] && !both_nan && !zero_eq && bad++ < 25)
                CHECK_MSG(0, "half op %d (x=%04x y=%04x z=%04x f=%a): got %04x want %04x", k, a[i], b[i], c[i], (double)fin[i], g, e[k]);
        }
        float ecmp = (float)(x < y) + 2.0f * (float)(x == y) + 4.0f * (float)(x >= y);
        double su = h_dec(h_enc(x + z, 0)) + h_dec(h_enc(y + x, 0));
        if (!(of[i * 4] == (float)x || (xn && of[i * 4] != of[i * 4])) && bad++ < 25) CHECK_MSG(0, "half2float %04x", a[i]);
        if (of[i * 4 + 1] != ecmp && bad++ < 25) CHECK_MSG(0, "compare %04x %04x: %g vs %g", a[i], b[i], of[i * 4 + 1], ecmp);
        if (!((float)su == of[i * 4 + 2] || (su != su && of[i * 4 + 2] != of[i * 4 + 2])) && bad++ < 25)
            CHECK_MSG(0, "low2float+high2float %g vs %g", of[i * 4 + 2], su);
        if (of[i * 4 + 3] != (float)xn && bad++ < 25) CHECK_MSG(0, "__hisnan %04x", a[i]);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(o[0 * 16 + 8], 0x7c00);   /* 65520 rounds to inf */
    CHECK_EQ(o[1 * 16 + 8], 0x7bff);   /* 65519.99 -> 65504 */
    CHECK_EQ(o[3 * 16 + 8], 0x0001);   /* 2^-24, smallest subnormal */
    CHECK_EQ(o[4 * 16 + 8], 0x0000);   /* 2^-25 ties to even -> 0 */
    CHECK_EQ(o[7 * 16 + 8], 0x3c00);   /* 1 + 2^-11 ties to even -> 1 */
    CHECK_EQ(o[8 * 16 + 8], 0x3c02);   /* 1 + 3*2^-11 ties to even -> 1 + 2^-9 */
    /* fma over the whole finite range */
    {
        enum { NF = 8192 };
        static uint16_t fa[NF], fb[NF], fc[NF], fo[NF * 5];
        for (int i = 0; i < NF; i++) {
            fa[i] = rand_finite_half(); fb[i] = rand_finite_half(); fc[i] = rand_finite_half();
            if (i % 4 == 1) {      /* product a tie of the format (exactly half an ulp), addend below it */
                int ma, mb, ea, eb; uint32_t P; int d;
                do {
                    fa[i] = rand_finite_half() & 0x3fff; fb[i] = rand_finite_half() & 0x3fff;   /* no overflow */
                    ea = (fa[i] >> 10) & 31; eb = (fb[i] >> 10) & 31;
                    ma = (fa[i] & 1023) | (ea ? 1024 : 0); mb = (fb[i] & 1023) | (eb ? 1024 : 0);
                    P = (uint32_t)ma * (uint32_t)mb; d = 32 - __builtin_clz(P | 1) - 11;
                } while (!ma || !mb || d <= 0 || (P & ((1u << d) - 1)) != 1u << (d - 1));
                fc[i] = (uint16_t)((k_rand32() & 0x8000) | (k_rand32() & 0x3ff));       /* subnormal */
            } else if (i % 4 == 2) {   /* near cancellation */
                fc[i] = h_enc(-(h_dec(fa[i]) * h_dec(fb[i])), (int)(k_rand32() & 3));
                if ((fc[i] & 0x7c00) == 0x7c00) fc[i] = rand_finite_half();
            }
        }
        __half *qa, *qb, *qc, *qo;
        CK(cudaMalloc(&qa, sizeof fa)); CK(cudaMalloc(&qb, sizeof fb)); CK(cudaMalloc(&qc, sizeof fc)); CK(cudaMalloc(&qo, sizeof fo));
        CK(cudaMemcpy(qa, fa, sizeof fa, cudaMemcpyHostToDevice)); CK(cudaMemcpy(qb, fb, sizeof fb, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(qc, fc, sizeof fc, cudaMemcpyHostToDevice));
        hfma_full<<<NF / 128, 128>>>(qa, qb, qc, qo, NF);
        CK(cudaGetLastError()); CK(cudaMemcpy(fo, qo, sizeof fo, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NF; i++) {
            double x = h_dec(fa[i]), y = h_dec(fb[i]), z = h_dec(fc[i]);
            double v = k_fma_exact(x * y, z), v2 = k_fma_exact(z * y, x);
            uint16_t e[5] = {h_enc(v, 0), (uint16_t)(v < 0 ? 0 : h_enc(v, 0)), h_enc(v < 0 ? 0.0 : v > 1 ? 1.0 : v, 0), h_enc(v, 0), h_enc(v2, 0)};
            for (int k = 0; k < 5; k++) {
                if (k == 1 && v == 0) continue;      /* relu of an exact zero: sign not recorded */
                if (fo[i * 5 + k] != e[k] && bad++ < 25)
                    CHECK_MSG(0, "fma form %d (%04x, %04x, %04x): got %04x want %04x", k, fa[i], fb[i], fc[i], fo[i * 5 + k], e[k]);
            }
        }
        CK(cudaFree(qa)); CK(cudaFree(qb)); CK(cudaFree(qc)); CK(cudaFree(qo));
    }
    /* cvt.*.ftz.f16.f32 keeps subnormal f32 inputs */
    {
        enum { NZ = 1024 };
        static float zf[NZ]; static unsigned short zo[NZ * 4];
        const uint32_t zs[] = {0x00000001u, 0x007fffffu, 0x80000001u, 0x807fffffu, 0x33000000u, 0x33000001u, 0x387fc000u, 0x38800000u};
        for (int i = 0; i < NZ; i++) {
            uint32_t u = i < 8 ? zs[i] : (i & 1) ? (k_rand32() & 0x807fffffu)                     /* f32 subnormals */
                                                 : (k_rand32() & 0x80000000u) | ((uint32_t)(0x60 + k_rand32() % 0x20) << 23) | (k_rand32() & 0x7fffff);
            zf[i] = k_u2f(u);
        }
        float *qf; unsigned short *qo;
        CK(cudaMalloc(&qf, sizeof zf)); CK(cudaMalloc(&qo, sizeof zo));
        CK(cudaMemcpy(qf, zf, sizeof zf, cudaMemcpyHostToDevice));
        f2h_ftz<<<NZ / 128, 128>>>(qf, qo, NZ);
        CK(cudaGetLastError()); CK(cudaMemcpy(zo, qo, sizeof zo, cudaMemcpyDeviceToHost));
        const int hm[4] = {0, 1, 2, 3};   /* rn rz rp(ru) rm(rd) */
        for (int i = 0; i < NZ; i++)
            for (int m = 0; m < 4; m++) {
                uint16_t want = h_enc((double)zf[i], hm[m]);
                if (zo[i * 4 + m] != want && bad++ < 25)
                    CHECK_MSG(0, "cvt mode %d .ftz.f16.f32 of %08x: got %04x want %04x", m, k_f2u(zf[i]), zo[i * 4 + m], want);
            }
        CHECK_EQ(zo[0 * 4 + 2], 0x0001);   /* cvt.rp.ftz.f16.f32 of 0x00000001 (H200) */
        CHECK_EQ(zo[1 * 4 + 2], 0x0001);   /* ... of 0x007fffff (H200) */
        CHECK_EQ(zo[2 * 4 + 3], 0x8001);   /* rm of -2^-149 */
        CK(cudaFree(qf)); CK(cudaFree(qo));
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
