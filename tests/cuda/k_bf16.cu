// NVCC_FLAGS: -arch=sm_80
// bfloat16 scalar and packed: __float2bfloat16 (rn), __float2bfloat16_rz/rd/ru, __bfloat162float,
// __hadd/__hsub/__hmul/__hfma/__hmax/__hmin on __nv_bfloat16 (fma.rn.bf16 on sm_80) and
// __hadd2/__hmul2/__hfma2 on __nv_bfloat162. Host reference: bf16 is the top half of a binary32,
// rounded here from the exact double result (sums and products of these inputs are exact in double).
// Also: fma.rn.bf16 / fma.rn.relu.bf16 / fma.rn.bf16x2 on finite bf16 values of every exponent, with
// products that are exact ties of the format and addends far below them, where rounding x*y + z to
// double first and then to bf16 rounds twice (an H200 gives 0xe5dd for (0x64c0, 0xc093, 0xbd36) and
// 0xd6b9 for (0xbee0, 0x5754, 0x1e77)); the reference keeps such an addend as a sticky bit. And
// cvt.{rn,rz,rp,rm}.ftz.bf16.f32 of subnormal floats: not flushed (recorded on an H200 for .f16;
// bf16 assumed to follow the same rule).
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

__global__ void bfma(const __nv_bfloat16 *a, const __nv_bfloat16 *b, const __nv_bfloat16 *c, __nv_bfloat16 *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 x = a[i], y = b[i], z = c[i];
    o[i * 4 + 0] = __hfma(x, y, z); o[i * 4 + 1] = __hfma_relu(x, y, z);
    __nv_bfloat162 t = __hfma2(__halves2bfloat162(x, z), __halves2bfloat162(y, y), __halves2bfloat162(z, x));
    o[i * 4 + 2] = __low2bfloat16(t); o[i * 4 + 3] = __high2bfloat16(t);
}
__global__ void f2bf_ftz(const float *f, unsigned short *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i]; unsigned short r;
    asm("cvt.rn.ftz.bf16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 0] = r;
    asm("cvt.rz.ftz.bf16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 1] = r;
    asm("cvt.rp.ftz.bf16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 2] = r;
    asm("cvt.rm.ftz.bf16.f32 %0, %1;" : "=h"(r) : "f"(x)); o[4 * i + 3] = r;
}

/* exact double -> bf16, round to nearest even, subnormals (spacing 2^-133) and overflow */
static uint16_t b_rne(double v)
{
    uint16_t s = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (a == 0) return s;
    int e; frexp(a, &e);
    int ex = e - 1 < -126 ? -126 : e - 1;
    double q = ldexp(a, 7 - ex), fl = floor(q), r = q - fl;
    double nn = (r > 0.5 || (r == 0.5 && fmod(fl, 2) != 0)) ? fl + 1 : fl;
    double res = ldexp(nn, ex - 7);
    if (res >= 0x1p128) return s | 0x7f80;
    return s | (uint16_t)((k_f2u((float)res) >> 16) & 0x7fff);   /* res is a bf16 value: exact in float */
}
static uint16_t rand_finite_bf(void) { uint16_t h; do h = (uint16_t)k_rand32(); while ((h & 0x7f80) == 0x7f80); return h; }

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
    /* fma over the whole finite range */
    {
        enum { NF = 8192 };
        static uint16_t fa[NF], fb[NF], fc[NF], fo[NF * 4];
        for (int i = 0; i < NF; i++) {
            fa[i] = rand_finite_bf(); fb[i] = rand_finite_bf(); fc[i] = rand_finite_bf();
            if (i % 4 == 1 || i % 4 == 3) {   /* product a tie of bf16 (exactly half an ulp), addend far below */
                int ma, mb, ea, eb, d; uint32_t P;
                do {
                    fa[i] = rand_finite_bf(); fb[i] = rand_finite_bf();
                    ea = (fa[i] >> 7) & 255; eb = (fb[i] >> 7) & 255;
                    ma = (fa[i] & 127) | (ea ? 128 : 0); mb = (fb[i] & 127) | (eb ? 128 : 0);
                    P = (uint32_t)ma * (uint32_t)mb; d = 32 - __builtin_clz(P | 1) - 8;
                } while (!ma || !mb || d <= 0 || (P & ((1u << d) - 1)) != 1u << (d - 1));
                double p = b_dec(fa[i]) * b_dec(fb[i]);
                int k = ilogb(p) - 10 - (int)(k_rand32() % 90);
                fc[i] = b_rne(copysign(ldexp(1.0 + (k_rand32() & 7) / 8.0, k < -133 ? -133 : k), (k_rand32() & 1) ? 1.0 : -1.0));
                if ((fc[i] & 0x7fff) == 0 || (fc[i] & 0x7f80) == 0x7f80) fc[i] = 0x0001;
            } else if (i % 4 == 2) {           /* near cancellation */
                double p = b_dec(fa[i]) * b_dec(fb[i]);
                fc[i] = b_rne(-p * (1 + ldexp(k_randu(-1, 1), -6)));
                if ((fc[i] & 0x7f80) == 0x7f80) fc[i] = rand_finite_bf();
            }
        }
        fa[0] = 0x64c0; fb[0] = 0xc093; fc[0] = 0xbd36;   /* recorded on an H200 */
        fa[1] = 0xbee0; fb[1] = 0x5754; fc[1] = 0x1e77;
        __nv_bfloat16 *qa, *qb, *qc, *qo;
        CK(cudaMalloc(&qa, sizeof fa)); CK(cudaMalloc(&qb, sizeof fb)); CK(cudaMalloc(&qc, sizeof fc)); CK(cudaMalloc(&qo, sizeof fo));
        CK(cudaMemcpy(qa, fa, sizeof fa, cudaMemcpyHostToDevice)); CK(cudaMemcpy(qb, fb, sizeof fb, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(qc, fc, sizeof fc, cudaMemcpyHostToDevice));
        bfma<<<NF / 128, 128>>>(qa, qb, qc, qo, NF);
        CK(cudaGetLastError()); CK(cudaMemcpy(fo, qo, sizeof fo, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NF; i++) {
            double x = b_dec(fa[i]), y = b_dec(fb[i]), z = b_dec(fc[i]);
            double v = k_fma_exact(x * y, z), v2 = k_fma_exact(z * y, x);
            uint16_t e[4] = {b_rne(v), (uint16_t)(v < 0 ? 0 : b_rne(v)), b_rne(v), b_rne(v2)};
            for (int k = 0; k < 4; k++) {
                if (k == 1 && v == 0) continue;      /* relu of an exact zero: sign not recorded */
                if (fo[i * 4 + k] != e[k] && bad++ < 25)
                    CHECK_MSG(0, "bf16 fma form %d (%04x, %04x, %04x): got %04x want %04x", k, fa[i], fb[i], fc[i], fo[i * 4 + k], e[k]);
            }
        }
        CHECK_EQ(fo[0 * 4 + 0], 0xe5dd);   /* H200; rounded twice: 0xe5dc */
        CHECK_EQ(fo[1 * 4 + 0], 0xd6b9);   /* H200; rounded twice: 0xd6ba */
        CHECK_EQ(fo[0 * 4 + 2], 0xe5dd);   /* the same through fma.rn.bf16x2 */
        CK(cudaFree(qa)); CK(cudaFree(qb)); CK(cudaFree(qc)); CK(cudaFree(qo));
    }
    /* cvt.*.ftz.bf16.f32 keeps subnormal f32 inputs */
    {
        enum { NZ = 512 };
        static float zf[NZ]; static unsigned short zo[NZ * 4];
        for (int i = 0; i < NZ; i++)
            zf[i] = k_u2f(i == 0 ? 0x00000001u : i == 1 ? 0x007fffffu : i == 2 ? 0x80008001u
                        : (i & 1) ? (k_rand32() & 0x807fffffu) : (k_rand32() & 0x80000000u) | ((k_rand32() % 4) << 23) | (k_rand32() & 0x7fffff));
        float *qf; unsigned short *qo;
        CK(cudaMalloc(&qf, sizeof zf)); CK(cudaMalloc(&qo, sizeof zo));
        CK(cudaMemcpy(qf, zf, sizeof zf, cudaMemcpyHostToDevice));
        f2bf_ftz<<<NZ / 128, 128>>>(qf, qo, NZ);
        CK(cudaGetLastError()); CK(cudaMemcpy(zo, qo, sizeof zo, cudaMemcpyDeviceToHost));
        for (int i = 0; i < NZ; i++)
            for (int m = 0; m < 4; m++) {
                uint16_t want = b_enc(zf[i], m);   /* b_enc: 0 rn 1 rz 2 ru 3 rd, exact from a float */
                if (zo[i * 4 + m] != want && bad++ < 25)
                    CHECK_MSG(0, "cvt mode %d .ftz.bf16.f32 of %08x: got %04x want %04x", m, k_f2u(zf[i]), zo[i * 4 + m], want);
            }
        CHECK_EQ(zo[0 * 4 + 2], 0x0001);   /* rp of 2^-149 */
        CK(cudaFree(qf)); CK(cudaFree(qo));
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
