/*
 * test_cube.c - the cube's numerics against independent host references.
 *   - fp16 / bf16 / hf32 rounding: bit patterns checked against an arithmetic reference
 *     (nearbyint on a scaled double, round-half-even) and, for fp16, the compiler's _Float16.
 *   - GEMMs whose fp32 accumulation is exact (small dyadic inputs, or k = 1) so the result
 *     must match the reference bit for bit; int8 -> int32 exact; fp32/fp64/complex against a
 *     double reference with tolerances; epilogues; C != D; padding untouched; bad input.
 */
#include "npu_runtime/npu_cube.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static float rndf(void) { return (float)((double)rnd32() / 4294967296.0 * 2.0 - 1.0); }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Round x to `sig` significant bits, quantum never below `minq`, ties to even. */
static double ref_round(double x, int sig, double minq)
{
    if (x == 0 || isinf(x) || isnan(x))
        return x;
    int e;
    frexp(x, &e);                               /* |x| in [2^(e-1), 2^e) */
    double q = ldexp(1.0, e - sig);
    if (q < minq) q = minq;
    return nearbyint(x / q) * q;
}

static int same_bits_f(float a, float b) { return f2u(a) == f2u(b) || (isnan(a) && isnan(b)); }

static void test_f16_conversions(void)
{
    int bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {       /* every half converts exactly and back */
        float f = npu_f16_to_f32((uint16_t)h);
        _Float16 cf; uint16_t hb = (uint16_t)h; memcpy(&cf, &hb, 2);
        if (!same_bits_f(f, (float)cf)) bad++;
        if (!isnan(f) && npu_f32_to_f16(f) != h) bad++;
        if (isnan(f) && (npu_f32_to_f16(f) & 0x7c00) != 0x7c00) bad++;
    }
    CHECK_EQ(bad, 0);
    bad = 0;
    for (uint32_t h = 0; h < 0x7c00; h++) {      /* midpoints and their neighbours */
        double lo = npu_f16_to_f32((uint16_t)h), hi = h == 0x7bff ? 65536.0 : npu_f16_to_f32((uint16_t)(h + 1));
        float mid = (float)((lo + hi) / 2);
        float probes[3] = { mid, nextafterf(mid, 0), nextafterf(mid, INFINITY) };
        for (int i = 0; i < 3; i++) for (int s = 0; s < 2; s++) {
            float x = s ? -probes[i] : probes[i];
            double r = ref_round(x, 11, ldexp(1.0, -24));
            uint16_t got = npu_f32_to_f16(x);
            float gotf = npu_f16_to_f32(got);
            float want = fabs(r) >= 65536.0 ? (float)copysign(INFINITY, x) : (float)r;
            if (!same_bits_f(gotf, want) && !(gotf == 0 && want == 0 && signbit(gotf) == signbit(x))) bad++;
            if ((_Float16)x != (_Float16)gotf) bad++;
        }
    }
    CHECK_EQ(bad, 0);
    bad = 0;
    for (int i = 0; i < 2000000; i++) {          /* random bit patterns */
        float x = u2f(rnd32() | (rnd32() & 1u) << 31);
        uint16_t got = npu_f32_to_f16(x);
        _Float16 c = (_Float16)x; uint16_t cb; memcpy(&cb, &c, 2);
        if (isnan(x)) { if ((got & 0x7c00) != 0x7c00 || !(got & 0x3ff)) bad++; }
        else if (got != cb) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(npu_f32_to_f16(65519.0f), 0x7bff);
    CHECK_EQ(npu_f32_to_f16(65520.0f), 0x7c00);
    CHECK_EQ(npu_f32_to_f16(-INFINITY), 0xfc00);
    CHECK_EQ(npu_f32_to_f16(-0.0f), 0x8000);
    /* bulk (vectorized) path equals the scalar one */
    enum { N = 1003 };
    static float src[N], back[N]; static uint16_t h1[N];
    for (int i = 0; i < N; i++) src[i] = u2f(rnd32()) ;
    npu_cvt_f32_to_f16(src, h1, N);
    npu_cvt_f16_to_f32(h1, back, N);
    bad = 0;
    for (int i = 0; i < N; i++) {
        if (!isnan(src[i]) && h1[i] != npu_f32_to_f16(src[i])) bad++;
        if (!same_bits_f(back[i], npu_f16_to_f32(h1[i]))) bad++;
    }
    CHECK_EQ(bad, 0);
}

static void test_bf16_hf32(void)
{
    int bad = 0;
    for (int i = 0; i < 3000000; i++) {
        uint32_t u = rnd32() | (rnd32() & 1u) << 31;
        if (i < 1000) u = (u & 0xffff0000u) | 0x8000u;   /* exact bf16 ties */
        if (i >= 1000 && i < 2000) u = (u & 0xffffe000u) | 0x1000u; /* exact hf32 ties */
        float x = u2f(u);
        if (isnan(x)) {
            if (!isnan(npu_bf16_to_f32(npu_f32_to_bf16(x)))) bad++;
            if (!isnan(npu_f32_round_hf32(x))) bad++;
            continue;
        }
        float wb = (float)ref_round(x, 8, ldexp(1.0, -133));
        float wh = (float)ref_round(x, 11, ldexp(1.0, -136));
        if (!same_bits_f(npu_bf16_to_f32(npu_f32_to_bf16(x)), wb) &&
            !(wb == 0 && npu_bf16_to_f32(npu_f32_to_bf16(x)) == 0)) bad++;
        if (!same_bits_f(npu_f32_round_hf32(x), wh) && !(wh == 0 && npu_f32_round_hf32(x) == 0)) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK(isinf(npu_f32_round_hf32(FLT_MAX)));
    CHECK(npu_f32_round_hf32(1.0f + 0x1p-11f) == 1.0f);            /* tie to even */
    CHECK(npu_f32_round_hf32(1.0f + 0x1p-10f + 0x1p-11f) == 1.0f + 0x1p-9f);
}

static npu_cube_gemm_t base(int64_t m, int64_t n, int64_t k, npu_dtype_t ab, npu_dtype_t cd)
{
    npu_cube_gemm_t g;
    memset(&g, 0, sizeof g);
    g.m = m; g.n = n; g.k = k; g.atype = g.btype = ab; g.ctype = g.dtype = cd;
    g.batch = 1; g.alpha[0] = 1;
    return g;
}

/* element (i, j) of op(X) where X is stored column-major with ld */
static double opel(const double *x, int64_t ld, npu_cube_op_t op, int64_t i, int64_t j)
{
    return op == NPU_OP_N ? x[i + j * ld] : x[j + i * ld];
}

/* fp16 in, exact fp32 accumulation, fp16 / fp32 out, bit-exact; all transposes; padding. */
static void test_f16_gemm_exact(void)
{
    const int64_t m = 37, n = 29, k = 64, ld = 70;
    uint16_t *a = malloc(ld * 80 * 2), *b = malloc(ld * 80 * 2), *c = malloc(ld * n * 2), *d = malloc(ld * n * 2);
    double *ad = malloc(ld * 80 * 8), *bd = malloc(ld * 80 * 8), *cdd = malloc(ld * n * 8);
    for (int64_t i = 0; i < ld * 80; i++) {
        ad[i] = (double)((int)(rnd32() % 17) - 8) / 8; a[i] = npu_f32_to_f16((float)ad[i]);
        bd[i] = (double)((int)(rnd32() % 33) - 16) / 4; b[i] = npu_f32_to_f16((float)bd[i]);
    }
    for (int64_t i = 0; i < ld * n; i++) { cdd[i] = (double)((int)(rnd32() % 9) - 4) / 2; c[i] = npu_f32_to_f16((float)cdd[i]); }
    for (int opa = 0; opa < 2; opa++) for (int opb = 0; opb < 2; opb++) for (int out = 0; out < 2; out++) {
        npu_cube_gemm_t g = base(m, n, k, NPU_DT_F16, out ? NPU_DT_F32 : NPU_DT_F16);
        g.opa = opa; g.opb = opb; g.ctype = NPU_DT_F16;
        if (out) g.ctype = NPU_DT_F32;
        g.a = a; g.b = b; g.lda = ld; g.ldb = ld; g.ldc = ld; g.ldd = ld;
        g.alpha[0] = 1.5; g.beta[0] = out ? 0 : -0.5;
        g.c = c; g.d = d;
        memset(d, 0x5a, ld * n * 2);
        float *df = (float *)d;
        if (out) { free(d); d = malloc(ld * n * 4); df = (float *)d; g.d = d; for (int64_t i = 0; i < ld * n; i++) df[i] = -7.25f; g.c = d; }
        CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
        int bad = 0, padbad = 0;
        for (int64_t j = 0; j < n; j++) for (int64_t i = 0; i < ld; i++) {
            if (i >= m) {
                if (out ? df[i + j * ld] != -7.25f : ((uint16_t *)d)[i + j * ld] != 0x5a5a) padbad++;
                continue;
            }
            double s = 0;
            for (int64_t p = 0; p < k; p++) s += opel(ad, ld, opa, i, p) * opel(bd, ld, opb, p, j);
            s *= 1.5;
            if (!out) s += -0.5 * cdd[i + j * ld];
            if (out) { if (df[i + j * ld] != (float)s) bad++; }
            else if (((uint16_t *)d)[i + j * ld] != npu_f32_to_f16((float)s)) bad++;
        }
        CHECK_MSG(bad == 0 && padbad == 0, "opa %d opb %d out %d: %d wrong, %d padding", opa, opb, out, bad, padbad);
        if (out) { free(d); d = malloc(ld * n * 2); }
    }
    free(a); free(b); free(c); free(d); free(ad); free(bd); free(cdd);
}

/* k = 1: every product is exact in fp32, so input rounding is visible bit for bit. */
static void test_rounded_inputs_exact(void)
{
    const int64_t m = 64, n = 48;
    float a[64], b[48], d[64 * 48];
    uint16_t ab[64], bb[48], dh[64 * 48];
    for (int i = 0; i < m; i++) a[i] = rndf() * 100;
    for (int i = 0; i < n; i++) b[i] = rndf();
    static const npu_cube_round_t modes[] = { NPU_CUBE_ROUND_NONE, NPU_CUBE_ROUND_HF32, NPU_CUBE_ROUND_BF16, NPU_CUBE_ROUND_F16 };
    for (int r = 0; r < 4; r++) {
        npu_cube_gemm_t g = base(m, n, 1, NPU_DT_F32, NPU_DT_F32);
        g.round = modes[r]; g.a = a; g.b = b; g.d = d; g.lda = m; g.ldb = 1; g.ldc = g.ldd = m;
        CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
        int bad = 0;
        for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) {
            double x = a[i], y = b[j];
            if (r == 1) { x = ref_round(x, 11, 0x1p-136); y = ref_round(y, 11, 0x1p-136); }
            if (r == 2) { x = ref_round(x, 8, 0x1p-133); y = ref_round(y, 8, 0x1p-133); }
            if (r == 3) { x = ref_round(x, 11, 0x1p-24); y = ref_round(y, 11, 0x1p-24); }
            if (d[i + j * m] != (float)(x * y)) bad++;
        }
        CHECK_MSG(bad == 0, "round mode %d: %d wrong", r, bad);
    }
    /* bf16 in, bf16 out: exact product rounded once (RNE) */
    for (int i = 0; i < m; i++) ab[i] = npu_f32_to_bf16(a[i]);
    for (int i = 0; i < n; i++) bb[i] = npu_f32_to_bf16(b[i]);
    npu_cube_gemm_t g = base(m, n, 1, NPU_DT_BF16, NPU_DT_BF16);
    g.a = ab; g.b = bb; g.d = dh; g.lda = m; g.ldb = 1; g.ldc = g.ldd = m;
    CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
    int bad = 0;
    for (int j = 0; j < n; j++) for (int i = 0; i < m; i++) {
        double p = (double)npu_bf16_to_f32(ab[i]) * npu_bf16_to_f32(bb[j]);
        if (dh[i + j * m] != npu_f32_to_bf16((float)ref_round(p, 8, 0x1p-133)) &&
            npu_bf16_to_f32(dh[i + j * m]) != (float)ref_round(p, 8, 0x1p-133)) bad++;
    }
    CHECK_EQ(bad, 0);
}

/* complex fp32 with HF32 inputs (k = 1: each real product is exact, one rounding per part),
 * and int8 inputs with fp32 compute and output (small integers: exact) */
static void test_complex_hf32_and_i8_f32(void)
{
    enum { M = 8, N = 6 };
    float a[2 * M], b[2 * N], d[2 * M * N];
    for (int i = 0; i < 2 * M; i++) a[i] = rndf() * 3;
    for (int i = 0; i < 2 * N; i++) b[i] = rndf();
    npu_cube_gemm_t g = base(M, N, 1, NPU_DT_C32, NPU_DT_C32);
    g.round = NPU_CUBE_ROUND_HF32; g.a = a; g.b = b; g.d = d; g.lda = M; g.ldb = 1; g.ldc = g.ldd = M;
    CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
    int bad = 0;
    for (int j = 0; j < N; j++) for (int i = 0; i < M; i++) {
        double ar = ref_round(a[2 * i], 11, 0x1p-136), ai = ref_round(a[2 * i + 1], 11, 0x1p-136);
        double br = ref_round(b[2 * j], 11, 0x1p-136), bi = ref_round(b[2 * j + 1], 11, 0x1p-136);
        if (d[2 * (i + j * M)] != (float)(ar * br - ai * bi) || d[2 * (i + j * M) + 1] != (float)(ar * bi + ai * br)) bad++;
    }
    CHECK_EQ(bad, 0);
    int8_t ia[6 * 40], ib[40 * 5];
    float id[6 * 5];
    for (int i = 0; i < 240; i++) ia[i] = (int8_t)rnd32();
    for (int i = 0; i < 200; i++) ib[i] = (int8_t)rnd32();
    g = base(6, 5, 40, NPU_DT_I8, NPU_DT_F32);
    g.a = ia; g.b = ib; g.d = id; g.lda = 6; g.ldb = 40; g.ldc = g.ldd = 6; g.alpha[0] = 2;
    CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
    bad = 0;
    for (int j = 0; j < 5; j++) for (int i = 0; i < 6; i++) {
        long s = 0;
        for (int p = 0; p < 40; p++) s += (long)ia[i + p * 6] * ib[p + j * 40];
        if (id[i + j * 6] != (float)(2 * s)) bad++;
    }
    CHECK_EQ(bad, 0);
}

static void test_int8(void)
{
    const int64_t m = 33, n = 20, k = 300, lda = 40, ldb = 310, ldc = 35;
    int8_t *a = malloc(lda * k), *b = malloc(ldb * n);
    int32_t *c = malloc(ldc * n * 4), *d = malloc(ldc * n * 4);
    for (int64_t i = 0; i < lda * k; i++) a[i] = (int8_t)rnd32();
    for (int64_t i = 0; i < ldb * n; i++) b[i] = (int8_t)rnd32();
    for (int64_t i = 0; i < ldc * n; i++) { c[i] = (int32_t)rnd32(); d[i] = 12345; }
    npu_cube_gemm_t g = base(m, n, k, NPU_DT_I8, NPU_DT_I32);
    g.compute = NPU_CUBE_COMPUTE_I32; g.a = a; g.b = b; g.c = c; g.d = d;
    g.lda = lda; g.ldb = ldb; g.ldc = ldc; g.ldd = ldc; g.alpha[0] = 3; g.beta[0] = -2;
    CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
    int bad = 0;
    for (int64_t j = 0; j < n; j++) for (int64_t i = 0; i < ldc; i++) {
        if (i >= m) { if (d[i + j * ldc] != 12345) bad++; continue; }
        int64_t s = 0;
        for (int64_t p = 0; p < k; p++) s += (int64_t)a[i + p * lda] * b[p + j * ldb];
        int32_t want = (int32_t)(uint32_t)(3 * s - 2 * (int64_t)c[i + j * ldc]);
        if (d[i + j * ldc] != want) bad++;
    }
    CHECK_EQ(bad, 0);
    free(a); free(b); free(c); free(d);
}

/* fp32 / fp64 / complex, all ops, batched strided and pointer arrays, C != D, epilogues */
static void test_float_paths(void)
{
    const int64_t m = 23, n = 17, k = 31, ld = 40, batch = 3;
    const int64_t sa = ld * 40 + 5;
    double *ad = malloc(sa * batch * 16), *bd = malloc(sa * batch * 16), *cdd = malloc(sa * batch * 16);
    for (int64_t i = 0; i < sa * batch * 2; i++) { ad[i] = rndf(); bd[i] = rndf(); cdd[i] = rndf(); }
    float *af = malloc(sa * batch * 8), *bf = malloc(sa * batch * 8), *cf = malloc(sa * batch * 8), *df = malloc(sa * batch * 8);
    for (int64_t i = 0; i < sa * batch * 2; i++) { af[i] = (float)ad[i]; bf[i] = (float)bd[i]; cf[i] = (float)cdd[i]; }
    double *dd = malloc(sa * batch * 16);
    for (int ty = 0; ty < 4; ty++) for (int opa = 0; opa < 3; opa++) for (int opb = 0; opb < 3; opb++) {
        int cplx = ty >= 2, dbl = ty & 1;
        if (!cplx && (opa == 2 || opb == 2)) continue;
        npu_dtype_t t = ty == 0 ? NPU_DT_F32 : ty == 1 ? NPU_DT_F64 : ty == 2 ? NPU_DT_C32 : NPU_DT_C64;
        npu_cube_gemm_t g = base(m, n, k, t, t);
        g.compute = dbl ? NPU_CUBE_COMPUTE_F64 : NPU_CUBE_COMPUTE_F32;
        g.opa = opa; g.opb = opb; g.lda = g.ldb = g.ldc = g.ldd = ld;
        g.stride_a = g.stride_b = g.stride_c = g.stride_d = sa; g.batch = batch;
        g.alpha[0] = 0.75; g.alpha[1] = cplx ? -0.25 : 0; g.beta[0] = -1.25; g.beta[1] = cplx ? 0.5 : 0;
        if (dbl) { g.a = ad; g.b = bd; g.c = cdd; g.d = dd; for (int64_t i = 0; i < sa * batch * 2; i++) dd[i] = 99; }
        else { g.a = af; g.b = bf; g.c = cf; g.d = df; for (int64_t i = 0; i < sa * batch * 2; i++) df[i] = 99; }
        CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
        int w = cplx ? 2 : 1, bad = 0;
        double tol = dbl ? 1e-12 : 1e-5;
        for (int64_t bi = 0; bi < batch; bi++) for (int64_t j = 0; j < n; j++) for (int64_t i = 0; i < ld; i++) {
            int64_t o = bi * sa + i + j * ld;
            double gr = dbl ? dd[o * w] : df[o * w], gi = cplx ? (dbl ? dd[o * w + 1] : df[o * w + 1]) : 0;
            if (i >= m) { if (gr != 99) bad++; continue; }
            double sr = 0, si = 0;
            for (int64_t p = 0; p < k; p++) {
                int64_t ia = opa == 0 ? i + p * ld : p + i * ld, ib = opb == 0 ? p + j * ld : j + p * ld;
                const double *A = ad + (bi * sa) * w, *B = bd + (bi * sa) * w;
                double xr = A[ia * w], xi = cplx ? A[ia * w + 1] : 0, yr = B[ib * w], yi = cplx ? B[ib * w + 1] : 0;
                if (opa == 2) xi = -xi;
                if (opb == 2) yi = -yi;
                if (!dbl) { xr = (float)xr; xi = (float)xi; yr = (float)yr; yi = (float)yi; }
                sr += xr * yr - xi * yi; si += xr * yi + xi * yr;
            }
            double cr = cdd[o * w], ci = cplx ? cdd[o * w + 1] : 0;
            if (!dbl) { cr = (float)cr; ci = (float)ci; }
            double wr = g.alpha[0] * sr - g.alpha[1] * si + g.beta[0] * cr - g.beta[1] * ci;
            double wi = g.alpha[0] * si + g.alpha[1] * sr + g.beta[0] * ci + g.beta[1] * cr;
            if (fabs(gr - wr) > tol * 8 || fabs(gi - wi) > tol * 8) bad++;
        }
        CHECK_MSG(bad == 0, "type %d opa %d opb %d: %d wrong", ty, opa, opb, bad);
    }
    /* pointer arrays, C != D, fp16 out with bias + gelu, bias per column */
    for (int epi = 0; epi < 4; epi++) {
        const void *pa[3], *pb[3], *pc[3]; void *pd[3];
        uint16_t *dh = malloc(ld * n * batch * 2);
        uint16_t bias16[64];
        for (int i = 0; i < 64; i++) bias16[i] = npu_f32_to_f16(rndf());
        for (int bi = 0; bi < 3; bi++) { pa[bi] = af + bi * sa; pb[bi] = bf + bi * sa; pc[bi] = cf + bi * sa; pd[bi] = dh + bi * ld * n; }
        npu_cube_gemm_t g = base(m, n, k, NPU_DT_F32, NPU_DT_F32);
        g.dtype = NPU_DT_F16; g.batch = 3; g.a_array = pa; g.b_array = pb; g.c_array = pc; g.d_array = pd;
        g.lda = g.ldb = g.ldc = g.ldd = ld; g.alpha[0] = 1; g.beta[0] = 0.5;
        g.epilogue = epi == 0 ? NPU_CUBE_EPI_BIAS | NPU_CUBE_EPI_GELU : epi == 1 ? NPU_CUBE_EPI_RELU :
                     epi == 2 ? NPU_CUBE_EPI_BIAS | NPU_CUBE_EPI_RELU : NPU_CUBE_EPI_GELU;
        g.bias = bias16; g.bias_type = NPU_DT_F16; g.bias_per_col = epi == 2;
        memset(dh, 0, ld * n * batch * 2);
        CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
        int bad = 0;
        for (int bi = 0; bi < 3; bi++) for (int64_t j = 0; j < n; j++) for (int64_t i = 0; i < ld; i++) {
            uint16_t got = dh[bi * ld * n + i + j * ld];
            if (i >= m) { if (got != 0) bad++; continue; }
            double s = 0;
            for (int64_t p = 0; p < k; p++) s += (double)af[bi * sa + i + p * ld] * bf[bi * sa + p + j * ld];
            s += 0.5 * cf[bi * sa + i + j * ld];
            if (g.epilogue & NPU_CUBE_EPI_BIAS) s += npu_f16_to_f32(bias16[g.bias_per_col ? j : i]);
            if (g.epilogue & NPU_CUBE_EPI_RELU) s = s > 0 ? s : 0;
            if (g.epilogue & NPU_CUBE_EPI_GELU) s = 0.5 * s * (1 + tanh(0.7978845608028654 * (s + 0.044715 * s * s * s)));
            if (fabs(npu_f16_to_f32(got) - s) > 2e-3 * (1 + fabs(s))) bad++;
        }
        CHECK_MSG(bad == 0, "epilogue case %d: %d wrong", epi, bad);
        free(dh);
    }
    free(ad); free(bd); free(cdd); free(af); free(bf); free(cf); free(df); free(dd);
}

static void test_bad_input(void)
{
    float x[16] = { 0 };
    npu_cube_gemm_t g = base(2, 2, 2, NPU_DT_F32, NPU_DT_F32);
    g.a = g.b = g.c = x; g.d = x; g.lda = g.ldb = g.ldc = g.ldd = 2;
    CHECK_EQ(npu_cube_gemm_check(&g), NPU_OK);
    CHECK_EQ(npu_cube_gemm_check(NULL), NPU_EINVAL);
    npu_cube_gemm_t h = g; h.m = -1; CHECK_EQ(npu_cube_gemm_run(&h), NPU_EINVAL);
    h = g; h.lda = 1; CHECK_EQ(npu_cube_gemm_run(&h), NPU_EINVAL);
    h = g; h.opa = NPU_OP_T; h.m = 3; h.ldc = h.ldd = 3; CHECK_EQ(npu_cube_gemm_check(&h), NPU_OK);
    h = g; h.ldc = 1; CHECK_EQ(npu_cube_gemm_run(&h), NPU_EINVAL);
    h = g; h.d = NULL; CHECK_EQ(npu_cube_gemm_run(&h), NPU_EINVAL);
    h = g; h.atype = NPU_DT_F16; CHECK_EQ(npu_cube_gemm_run(&h), NPU_ENOTSUP);   /* A != B type */
    h = g; h.compute = NPU_CUBE_COMPUTE_F64; CHECK_EQ(npu_cube_gemm_run(&h), NPU_ENOTSUP);
    h = g; h.compute = NPU_CUBE_COMPUTE_I32; CHECK_EQ(npu_cube_gemm_run(&h), NPU_ENOTSUP);
    h = g; h.atype = h.btype = NPU_DT_I8; CHECK_EQ(npu_cube_gemm_check(&h), NPU_OK); /* 8I -> 32F */
    h.ctype = h.dtype = NPU_DT_F16; CHECK_EQ(npu_cube_gemm_check(&h), NPU_ENOTSUP);
    h = g; h.atype = (npu_dtype_t)77; CHECK_EQ(npu_cube_gemm_run(&h), NPU_ENOTSUP);
    h = g; h.epilogue = 0x100; CHECK_EQ(npu_cube_gemm_run(&h), NPU_ENOTSUP);
    /* m == 0 / batch == 0: nothing to do, nothing touched */
    h = g; h.m = 0; h.d = NULL; CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    /* beta == 0: C (NaN) is not read; k == 0: D = beta * C */
    float c[4] = { NAN, NAN, NAN, NAN }, d[4];
    h = g; h.c = c; h.d = d; h.beta[0] = 0; x[0] = 1; x[1] = 2; x[2] = 3; x[3] = 4;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    CHECK(!isnan(d[0]) && d[0] == 1 * 1 + 3 * 2);
    float c2[4] = { 1, 2, 3, 4 };
    h = g; h.k = 0; h.c = c2; h.d = d; h.beta[0] = 2;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    CHECK(d[0] == 2 && d[3] == 8);
    CHECK_EQ(npu_dtype_size(NPU_DT_C64), 16);
    /* alpha == 0: A and B are not read (NULL is fine), D = beta C, for each path */
    float c3[4] = { 1, 2, 3, 4 }, d3[4] = { 0 };
    h = g; h.a = h.b = NULL; h.alpha[0] = 0; h.beta[0] = 2; h.c = c3; h.d = d3;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    CHECK(d3[0] == 2 && d3[3] == 8);
    uint16_t h3[4];
    h.atype = h.btype = NPU_DT_F16; h.ctype = NPU_DT_F32; h.dtype = NPU_DT_F16; h.d = h3;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    CHECK(npu_f16_to_f32(h3[1]) == 4 && npu_f16_to_f32(h3[2]) == 6);
    double c4[4] = { 1, 2, 3, 4 }, d4[4] = { 0 };
    h = g; h.a = h.b = NULL; h.alpha[0] = 0; h.beta[0] = -1; h.c = c4; h.d = d4;
    h.atype = h.btype = h.ctype = h.dtype = NPU_DT_F64; h.compute = NPU_CUBE_COMPUTE_F64;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_OK);
    CHECK(d4[0] == -1 && d4[3] == -4);
    /* a NULL entry in a pointer array stops the GEMM (no fault); earlier entries are done */
    const void *pa[2] = { x, NULL }, *pb[2] = { x, x };
    void *pd[2] = { d, d };
    h = g; h.a = h.b = h.c = NULL; h.d = NULL; h.a_array = pa; h.b_array = pb; h.d_array = pd; h.batch = 2;
    CHECK_EQ(npu_cube_gemm_run(&h), NPU_EINVAL);
}

int main(void)
{
    test_f16_conversions();
    test_bf16_hf32();
    test_f16_gemm_exact();
    test_rounded_inputs_exact();
    test_int8();
    test_complex_hf32_and_i8_f32();
    test_float_paths();
    test_bad_input();
    return CHECK_DONE();
}
