// Lane groups (ptx_emit.c, "lane groups"): block- and phase-mode kernels run 16 consecutive
// threads of a row as vector lanes when blockDim.x % 16 == 0, with lane classes (uniform /
// affine / unknown registers), one vector access for contiguous addresses, one scalar load for
// uniform ones, checked widenings and shifts, and a switch to per-thread code at the first
// divergent branch. Every kernel runs with block shapes that take the lane copy (x = 16, 32, 48,
// 256, 1024, 2D and 3D blocks) and shapes that do not (x = 24, 100), and is compared element by
// element with the same scalar code on the host: exactly for integers and for float code whose
// IEEE single/double operations are the same (explicit __f*_rn intrinsics, no contraction), by
// ULPs for libm-style functions. Cases: contiguous float/int/double/char/short/64-bit arrays,
// stride-2, reversed, gathered, broadcast, shifted (i >> 1), run-time-stride (i * s) and
// div/mod-computed indices, the tail block (n % 16 != 0), predicated loads/stores of inline PTX,
// vector types (float4, int2, double2), kernel-parameter arrays and __constant__ tables,
// divergent if/else in loops, divergent trip counts, early return and reconvergence (block mode
// and between barriers of a phase-mode kernel), 32-bit wrap-around in widenings to 64 bits
// (0x7FFFFFF8 / 0xFFFFFFF8 + threadIdx.x, negative strides, 8/16-bit sign extension, mul.wide),
// global and shared atomics under contention, per-lane integer ops (hash multiply, signed
// div/rem by negative divisors, shifts, min/max, selects), shuffles and votes, a block scan, tree
// reductions and a tiled dot product with __syncthreads in a loop (blockDim 128 and 256), a
// shared-memory transpose, local arrays (lanes hand over to per-thread code), registers of
// nested inline-PTX scopes (reused and shadowed names, shfl inside a scope) and a call,
// grid-stride loops, registers joined from definitions of different strides, and a long
// loop-carried register chain (the lane classes' fixpoint must converge, however long).
// The same program must pass with NPU_PTX_NO_LANES=1 (every kernel per thread).
#include "k_util.h"

/* ------------------------------------------------------------------ host helpers ---- */
static void show(char *b, size_t n, float v) { snprintf(b, n, "%.9g (0x%08x)", v, k_f2u(v)); }
static void show(char *b, size_t n, double v) { snprintf(b, n, "%.17g (0x%016llx)", v, (unsigned long long)k_d2u(v)); }
template <typename T> static void show(char *b, size_t n, T v) { snprintf(b, n, "%lld (0x%llx)", (long long)v, (unsigned long long)v); }

/* exact element-by-element comparison (bit patterns; any NaN equals any NaN, as the GPU's
 * canonical NaN need not be the host's); prints the first few differences */
template <typename T> static int same(T a, T b) { return !memcmp(&a, &b, sizeof a); }
static int same(float a, float b) { return (a != a && b != b) || k_f2u(a) == k_f2u(b); }
static int same(double a, double b) { return (a != a && b != b) || k_d2u(a) == k_d2u(b); }
template <typename T> static void cmp_exact(const char *what, const char *cfg, const T *got, const T *want, size_t n)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (same(got[i], want[i])) continue;
        if (bad++ < 6) {
            char g[64], w[64];
            show(g, sizeof g, got[i]);
            show(w, sizeof w, want[i]);
            fprintf(stderr, "  %s [%s] element %zu: got %s want %s\n", what, cfg, i, g, w);
        }
    }
    CHECK_MSG(bad == 0, "%s [%s]: %zu of %zu elements differ", what, cfg, bad, n);
}
static void cmp_ulp(const char *what, const char *cfg, const float *got, const float *want, size_t n, int64_t maxulp)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (k_ulpf(got[i], want[i]) <= maxulp) continue;
        if (bad++ < 6) fprintf(stderr, "  %s [%s] element %zu: got %.9g want %.9g\n", what, cfg, i, got[i], want[i]);
    }
    CHECK_MSG(bad == 0, "%s [%s]: %zu of %zu elements beyond %lld ulp", what, cfg, bad, n, (long long)maxulp);
}


/* block widths of the 1D cases: multiples of 16 take the lane copy, 24 and 100 do not */
static const int BDIMS[] = {16, 32, 48, 256, 1024, 24, 100};
#define NBDIMS (int)(sizeof BDIMS / sizeof BDIMS[0])

/* ------------------------------------------------------------------ 1. contiguous arrays ---- */
__global__ void k_contig(const float *af, const int *ai, const double *ad, const signed char *ac, const short *as,
                         const unsigned short *aus, const long long *al, float *of, int *oi, double *od,
                         signed char *oc, short *os, unsigned short *ous, long long *ol, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {                                            /* the tail block: some lanes idle */
        of[i] = __fadd_rn(__fmul_rn(af[i], 2.5f), 1.0f);
        oi[i] = (int)((unsigned)ai[i] * 3u - (unsigned)i);
        od[i] = __dadd_rn(__dmul_rn(ad[i], 0.5), (double)i);
        oc[i] = (signed char)(ac[i] + 1);
        os[i] = (short)(as[i] * 2 - 7);
        ous[i] = (unsigned short)(aus[i] ^ (unsigned short)i);
        ol[i] = (long long)((unsigned long long)al[i] * 3ull + (unsigned long long)i - 5ull);
    }
}

static void t_contig(void)
{
    const int n = 2000 + 7;
    float *hf = k_hnew<float>(n); int *hi = k_hnew<int>(n); double *hd = k_hnew<double>(n); signed char *hc = k_hnew<signed char>(n);
    short *hs = k_hnew<short>(n); unsigned short *hus = k_hnew<unsigned short>(n); long long *hl = k_hnew<long long>(n);
    for (int i = 0; i < n; i++) {
        hf[i] = (float)k_randu(-100, 100); hi[i] = (int)k_rand32(); hd[i] = k_randu(-1e6, 1e6);
        hc[i] = (signed char)k_rand32(); hs[i] = (short)k_rand32(); hus[i] = (unsigned short)k_rand32(); hl[i] = (long long)k_rand64();
    }
    float *df = k_dup(hf, n); int *di = k_dup(hi, n); double *dd = k_dup(hd, n); signed char *dc = k_dup(hc, n);
    short *ds = k_dup(hs, n); unsigned short *dus = k_dup(hus, n); long long *dl = k_dup(hl, n);
    float *rf = k_hnew<float>(n), *gf = k_hnew<float>(n); int *ri = k_hnew<int>(n), *gi = k_hnew<int>(n);
    double *rd = k_hnew<double>(n), *gd = k_hnew<double>(n); signed char *rc = k_hnew<signed char>(n), *gc = k_hnew<signed char>(n);
    short *rs = k_hnew<short>(n), *gs = k_hnew<short>(n); unsigned short *rus = k_hnew<unsigned short>(n), *gus = k_hnew<unsigned short>(n);
    long long *rl = k_hnew<long long>(n), *gl = k_hnew<long long>(n);
    for (int i = 0; i < n; i++) {
        volatile float m = hf[i] * 2.5f; rf[i] = m + 1.0f;
        ri[i] = (int)((unsigned)hi[i] * 3u - (unsigned)i);
        volatile double md = hd[i] * 0.5; rd[i] = md + (double)i;
        rc[i] = (signed char)(hc[i] + 1); rs[i] = (short)(hs[i] * 2 - 7); rus[i] = (unsigned short)(hus[i] ^ (unsigned short)i);
        rl[i] = (long long)((unsigned long long)hl[i] * 3ull + (unsigned long long)i - 5ull);
    }
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        float *of = k_dnew<float>(n); int *oi = k_dnew<int>(n); double *od = k_dnew<double>(n); signed char *oc = k_dnew<signed char>(n);
        short *os = k_dnew<short>(n); unsigned short *ous = k_dnew<unsigned short>(n); long long *ol = k_dnew<long long>(n);
        /* one element past n must stay untouched (a lane of the tail group stored nothing) */
        k_contig<<<(n + bd - 1) / bd, bd>>>(df, di, dd, dc, ds, dus, dl, of, oi, od, oc, os, ous, ol, n);
        k_sync_ok("k_contig");
        k_get(gf, of, n + 1); k_get(gi, oi, n + 1); k_get(gd, od, n + 1); k_get(gc, oc, n + 1); k_get(gs, os, n + 1); k_get(gus, ous, n + 1); k_get(gl, ol, n + 1);
        cmp_exact("contig float", cfg, gf, rf, n); cmp_exact("contig int", cfg, gi, ri, n); cmp_exact("contig double", cfg, gd, rd, n);
        cmp_exact("contig char", cfg, gc, rc, n); cmp_exact("contig short", cfg, gs, rs, n); cmp_exact("contig ushort", cfg, gus, rus, n);
        cmp_exact("contig int64", cfg, gl, rl, n);
        CHECK_MSG(k_f2u(gf[n]) == 0xA5A5A5A5u && (unsigned char)gc[n] == 0xA5 && (unsigned short)gs[n] == 0xA5A5 && (unsigned long long)gl[n] == 0xA5A5A5A5A5A5A5A5ull,
                  "contig [%s]: element n was written", cfg);
        cudaFree(of); cudaFree(oi); cudaFree(od); cudaFree(oc); cudaFree(os); cudaFree(ous); cudaFree(ol);
    }
    cudaFree(df); cudaFree(di); cudaFree(dd); cudaFree(dc); cudaFree(ds); cudaFree(dus); cudaFree(dl);
    free(hf); free(hi); free(hd); free(hc); free(hs); free(hus); free(hl); free(rf); free(gf); free(ri); free(gi); free(rd); free(gd);
    free(rc); free(gc); free(rs); free(gs); free(rus); free(gus); free(rl); free(gl);
}

/* ------------------------------------------------------------------ 2. address patterns ---- */
#define NIDX 12
__host__ __device__ static int idx_val(const int *a, const int *ix, int i, int n, int k, int s, int blk, int o)
{
    switch (o) {
    case 0: return a[2 * i] - a[2 * i + 1];                      /* stride-2 loads */
    case 1: return a[n - 1 - i] + 1;                             /* reversed load */
    case 2: return a[ix[i]];                                     /* gather */
    case 3: return a[k] + a[blk] * 2 + i;                        /* all lanes read one element */
    case 4: return a[i >> 1] ^ a[(unsigned)i / 4u];              /* shifted: affine only when it is */
    case 5: return a[i * s];                                     /* stride known at run time */
    case 6: return a[(i / 4) * 4 + i % 4];                       /* div/mod math that is contiguous */
    case 7: return a[i % 20] - a[i % 16];                        /* div/mod math that is not */
    case 8: return a[n - 1 + i * (s - 2)];                       /* run-time stride -1 or 0 */
    case 9: return a[(i * 4) >> 2] + a[(i << 3) >> 2];           /* shifts that stay affine */
    case 10: return a[(i & ~15) + 15 - (i & 15)];                /* reversed within each 16 */
    default: return a[i / 16];                                   /* uniform per group, not constant */
    }
}

__global__ void k_index(const int *a, const int *ix, int *out, int *o_rev, int *o_s2, int n, int k, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int o = 0; o < NIDX; o++) out[(size_t)o * n + i] = idx_val(a, ix, i, n, k, s, blockIdx.x, o);
    o_rev[n - 1 - i] = a[i] * 5;                                 /* reversed store */
    o_s2[2 * i] = i;                                             /* interleaved stride-2 stores */
    o_s2[2 * i + 1] = -a[i];
}

static void t_index(void)
{
    const int n = 1000 + 3, na = 2 * n + 8;
    int *ha = k_hnew<int>(na), *hix = k_hnew<int>(n);
    for (int i = 0; i < na; i++) ha[i] = (int)(k_rand32() % 100000) - 50000;
    for (int i = 0; i < n; i++) hix[i] = (int)(k_rand32() % (unsigned)na);
    for (int i = 0; i < 40; i++) hix[i] = 7;                     /* some groups gather one element */
    int *da = k_dup(ha, na), *dix = k_dup(hix, n);
    int *want = k_hnew<int>((size_t)NIDX * n), *got = k_hnew<int>((size_t)NIDX * n);
    int *wrev = k_hnew<int>(n), *grev = k_hnew<int>(n), *ws2 = k_hnew<int>(2 * n), *gs2 = k_hnew<int>(2 * n);
    for (int s = 1; s <= 2; s++) {
        for (int b = 0; b < NBDIMS; b++) {
            int bd = BDIMS[b], k = 5 + s;
            char cfg[48]; snprintf(cfg, sizeof cfg, "block %d, s %d", bd, s);
            for (int i = 0; i < n; i++) {
                for (int o = 0; o < NIDX; o++) want[(size_t)o * n + i] = idx_val(ha, hix, i, n, k, s, i / bd, o);
                wrev[n - 1 - i] = ha[i] * 5; ws2[2 * i] = i; ws2[2 * i + 1] = -ha[i];
            }
            int *dout = k_dnew<int>((size_t)NIDX * n), *drev = k_dnew<int>(n), *ds2 = k_dnew<int>(2 * n);
            k_index<<<(n + bd - 1) / bd, bd>>>(da, dix, dout, drev, ds2, n, k, s);
            k_sync_ok("k_index");
            k_get(got, dout, (size_t)NIDX * n); k_get(grev, drev, n); k_get(gs2, ds2, 2 * n);
            static const char *names[NIDX] = {"stride-2 load", "reversed load", "gather", "broadcast", "shifted index",
                "run-time stride", "div/mod contiguous", "div/mod wrapping", "run-time stride -1 / 0", "affine shifts",
                "reversed in 16", "i/16"};
            for (int o = 0; o < NIDX; o++) cmp_exact(names[o], cfg, got + (size_t)o * n, want + (size_t)o * n, n);
            cmp_exact("reversed store", cfg, grev, wrev, n);
            cmp_exact("stride-2 stores", cfg, gs2, ws2, 2 * n);
            cudaFree(dout); cudaFree(drev); cudaFree(ds2);
        }
    }
    cudaFree(da); cudaFree(dix);
    free(ha); free(hix); free(want); free(got); free(wrev); free(grev); free(ws2); free(gs2);
}

/* predicated loads and stores (inline PTX guards: only some lanes of a group active) */
__global__ void k_pred(const float *a, float *o, float *last, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float *pa = a + i;
    float *po = o + i;
    float v = -1.0f, w = 0.0f;
    int st = (i < n) & ((unsigned)i % 3u != 0u), islast = i == n - 1;   /* branch-free */
    asm volatile(".reg .pred %%klp1, %%klp2, %%klp3;\n\t"
                 "setp.lt.s32 %%klp1, %2, %3;\n\t"
                 "setp.ne.s32 %%klp2, %4, 0;\n\t"
                 "setp.ne.s32 %%klp3, %5, 0;\n\t"
                 "@%%klp1 ld.f32 %0, [%6];\n\t"           /* lanes i < n */
                 "@%%klp2 ld.f32 %1, [%7];\n\t"           /* one address, some lanes */
                 "@%%klp2 st.f32 [%8], %0;\n\t"           /* lanes i < n, i % 3 != 0 */
                 "@%%klp3 st.f32 [%9], %0;\n\t"           /* one address, one lane */
                 : "+f"(v), "+f"(w) : "r"(i), "r"(n), "r"(st), "r"(islast), "l"(pa), "l"(a), "l"(po), "l"(last) : "memory");
    if (i < n) o[n + i] = __fadd_rn(v, w);
}

static void t_pred(void)
{
    const int n = 700 + 5;
    float *ha = k_hnew<float>(n + 1024);
    for (int i = 0; i < n + 1024; i++) ha[i] = (float)i * 0.5f - 100.0f;
    float *da = k_dup(ha, n + 1024);
    float *want = k_hnew<float>(2 * n), *got = k_hnew<float>(2 * n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        float *d = k_dnew<float>(2 * n, 0), *dl = k_dnew<float>(1, 0);
        k_pred<<<(n + bd - 1) / bd, bd>>>(da, d, dl, n);
        k_sync_ok("k_pred");
        k_get(got, d, 2 * n);
        float gl; k_get(&gl, dl, 1);
        for (int i = 0; i < n; i++) {
            int st = i % 3 != 0;
            want[i] = st ? ha[i] : 0.0f;
            want[n + i] = ha[i] + (st ? ha[0] : 0.0f);
        }
        cmp_exact("predicated ld/st", cfg, got, want, 2 * n);
        CHECK_MSG(gl == ha[n - 1], "predicated store of one lane [%s]: %g vs %g", cfg, gl, ha[n - 1]);
        cudaFree(d); cudaFree(dl);
    }
    cudaFree(da); free(ha); free(want); free(got);
}

/* ------------------------------------------------------------------ 3. divergence (block mode) ---- */
__host__ __device__ static int div_work(int v, int tx, int i)
{
    int acc = 0;
    for (int k = 0; k < 6; k++) {                                /* uniform loop, divergent if/else */
        if ((v + k) & 1) acc += v * k;
        else acc -= k + (tx & 3);
    }
    for (int k = 0; k < tx % 5; k++) acc = (int)((unsigned)acc ^ (((unsigned)acc << 1) + (unsigned)k));   /* divergent trip count */
    while (v > 1 && v < 100000) v = (v & 1) ? 3 * v + 1 : v / 2; /* data-dependent */
    return acc + v + i;
}

__global__ void k_div(const int *in, int *out, int *out2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if ((threadIdx.x & 7) == 5 || v % 11 == 0) return;          /* some lanes leave early */
    if ((i >> 4) % 7 == 3) return;                               /* whole groups leave */
    int r = div_work(v, threadIdx.x, i);
    out[i] = r;                                                  /* reconverged: contiguous stores */
    out2[i] = r * 2 + v;
}

static void t_div(void)
{
    const int n = 1500 + 9;
    int *hin = k_hnew<int>(n);
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 5000) + 1;
    for (int i = 256; i < 512; i++) hin[i] = 64;                 /* a uniform stretch */
    int *din = k_dup(hin, n);
    int *w1 = k_hnew<int>(n), *w2 = k_hnew<int>(n), *g1 = k_hnew<int>(n), *g2 = k_hnew<int>(n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        for (int i = 0; i < n; i++) {
            int tx = i % bd, v = hin[i];
            if ((tx & 7) == 5 || v % 11 == 0 || (i >> 4) % 7 == 3) { w1[i] = w2[i] = (int)0xA5A5A5A5; continue; }
            w1[i] = div_work(v, tx, i); w2[i] = w1[i] * 2 + v;
        }
        int *d1 = k_dnew<int>(n), *d2 = k_dnew<int>(n);
        k_div<<<(n + bd - 1) / bd, bd>>>(din, d1, d2, n);
        k_sync_ok("k_div");
        k_get(g1, d1, n); k_get(g2, d2, n);
        cmp_exact("divergence", cfg, g1, w1, n);
        cmp_exact("after reconvergence", cfg, g2, w2, n);
        cudaFree(d1); cudaFree(d2);
    }
    cudaFree(din); free(hin); free(w1); free(w2); free(g1); free(g2);
}

/* ------------------------------------------------------------------ 4. widening wrap-around ---- */
#define NWIDE 8
__global__ void k_widen(long long *out, unsigned base, unsigned nbase, int s, int cb, int sb)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
    unsigned u = base + threadIdx.x;
    out[g] = (long long)(int)u;                                  /* cvt.s64.s32 */
    out[nt + g] = (long long)(unsigned long long)u;              /* cvt.u64.u32 */
    out[2 * nt + g] = (long long)(int)u * 3;                     /* mul.wide.s32 */
    unsigned v = nbase - threadIdx.x;                            /* negative stride */
    out[3 * nt + g] = (long long)(int)v;
    out[4 * nt + g] = (long long)(int)(threadIdx.x * (unsigned)s);   /* run-time stride */
    out[5 * nt + g] = (long long)(signed char)(cb + (int)threadIdx.x);   /* 8-bit sign extension */
    out[6 * nt + g] = (long long)(short)(sb + (int)threadIdx.x);         /* 16-bit */
    out[7 * nt + g] = (long long)(u >> 1) + (long long)((int)u >> 3);    /* shifts of wrapping values */
}

static void t_widen(void)
{
    struct { unsigned base, nbase; int s, cb, sb; } cs[] = {
        {0x7FFFFFF8u, 0x80000007u, 0x08000001, 120, 0x7FF8},
        {0xFFFFFFF8u, 7u, 0x10000003, -8, -8},
        {0x7FFFFFF0u, 0x80000010u, 1, 112, 0x7FF0},
        {0u, 0xFFFFFFFFu, -1, 0, 0},
        {0x7FFFFFE9u, 0x80000021u, 0x7FFFFFFF, 100, 32700},
    };
    const int bds[] = {16, 32, 256, 24, 100};
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++)
        for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
            int bd = bds[b], nb = 2, nt = nb * bd;
            char cfg[64]; snprintf(cfg, sizeof cfg, "base 0x%08x, block %d", cs[c].base, bd);
            long long *d = k_dnew<long long>((size_t)NWIDE * nt);
            k_widen<<<nb, bd>>>(d, cs[c].base, cs[c].nbase, cs[c].s, cs[c].cb, cs[c].sb);
            k_sync_ok("k_widen");
            long long *got = k_hnew<long long>((size_t)NWIDE * nt), *want = k_hnew<long long>((size_t)NWIDE * nt);
            k_get(got, d, (size_t)NWIDE * nt);
            for (int g = 0; g < nt; g++) {
                unsigned tx = (unsigned)(g % bd), u = cs[c].base + tx, v = cs[c].nbase - tx;
                want[g] = (long long)(int)u;
                want[nt + g] = (long long)(unsigned long long)u;
                want[2 * nt + g] = (long long)(int)u * 3;
                want[3 * nt + g] = (long long)(int)v;
                want[4 * nt + g] = (long long)(int)(tx * (unsigned)cs[c].s);
                want[5 * nt + g] = (long long)(signed char)(cs[c].cb + (int)tx);
                want[6 * nt + g] = (long long)(short)(cs[c].sb + (int)tx);
                want[7 * nt + g] = (long long)(u >> 1) + (long long)((int)u >> 3);
            }
            static const char *names[NWIDE] = {"(long long)(int)u", "(unsigned long long)u", "mul.wide (int)u * 3",
                "negative stride widened", "run-time stride widened", "signed char widened", "short widened", "shifts widened"};
            for (int o = 0; o < NWIDE; o++) cmp_exact(names[o], cfg, got + (size_t)o * nt, want + (size_t)o * nt, nt);
            cudaFree(d); free(got); free(want);
        }
}

/* ------------------------------------------------------------------ 5. 2D / 3D blocks ---- */
__global__ void k_dims(const int *in, int *out, int *out2)
{
    int nt = blockDim.x * blockDim.y * blockDim.z;
    int blk = blockIdx.y * gridDim.x + blockIdx.x;
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int lin = (z * blockDim.y + y) * blockDim.x + x;
    int g = blk * nt + lin;
    out[g] = in[g] * (y + 1) + x * 1000 - z * 5 + (int)blockIdx.y;
    /* the transposed element: stride blockDim.y * blockDim.z between lanes */
    int tr = blk * nt + (x * blockDim.y + y) * blockDim.z + z;
    out2[g] = in[tr] - y * z + (x < 8 ? x : -x);
}

static void t_dims(void)
{
    const int shapes[][3] = {{16, 16, 1}, {32, 8, 1}, {16, 2, 2}, {48, 2, 3}, {24, 4, 1}, {100, 1, 2}, {64, 1, 1}};
    const int gx = 3, gy = 2;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int nx = shapes[s][0], ny = shapes[s][1], nz = shapes[s][2], nt = nx * ny * nz, tot = nt * gx * gy;
        char cfg[48]; snprintf(cfg, sizeof cfg, "block %dx%dx%d", nx, ny, nz);
        int *hin = k_hnew<int>(tot), *w1 = k_hnew<int>(tot), *w2 = k_hnew<int>(tot), *g1 = k_hnew<int>(tot), *g2 = k_hnew<int>(tot);
        for (int i = 0; i < tot; i++) hin[i] = (int)(k_rand32() % 20001) - 10000;
        for (int by = 0; by < gy; by++) for (int bx = 0; bx < gx; bx++)
            for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++) {
                int blk = by * gx + bx, g = blk * nt + (z * ny + y) * nx + x, tr = blk * nt + (x * ny + y) * nz + z;
                w1[g] = hin[g] * (y + 1) + x * 1000 - z * 5 + by;
                w2[g] = hin[tr] - y * z + (x < 8 ? x : -x);
            }
        int *din = k_dup(hin, tot), *d1 = k_dnew<int>(tot), *d2 = k_dnew<int>(tot);
        k_dims<<<dim3(gx, gy), dim3(nx, ny, nz)>>>(din, d1, d2);
        k_sync_ok("k_dims");
        k_get(g1, d1, tot); k_get(g2, d2, tot);
        cmp_exact("2D/3D block", cfg, g1, w1, tot);
        cmp_exact("2D/3D transposed load", cfg, g2, w2, tot);
        cudaFree(din); cudaFree(d1); cudaFree(d2);
        free(hin); free(w1); free(w2); free(g1); free(g2);
    }
}

/* ------------------------------------------------------------------ 6. atomics ---- */
/* block mode: global atomics only */
__global__ void k_atom_block(const int *in, int *cnt, int *tickets, int *bins, int *grp, unsigned long long *sum64, int *mx, int *mn, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    tickets[i] = atomicAdd(cnt, 1);                              /* returned values: a permutation */
    atomicAdd(&bins[v % 5], 1);                                  /* per-lane addresses, collisions */
    atomicAdd(&grp[i / 16], v);                                  /* one address for a whole group */
    atomicAdd(sum64, (unsigned long long)v * 1000003ull);
    atomicMax(mx, v ^ i);
    atomicMin(mn, v - 3 * i);
}

/* phase mode: shared atomics between barriers, then global ones */
__global__ void k_atom_shared(const int *in, int *hist, int *bsum, int n)
{
    __shared__ int sh[8];
    __shared__ unsigned smax;
    __shared__ int ssum;
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 8) sh[t] = 0;
    if (t == 0) { smax = 0; ssum = 0; }
    __syncthreads();
    if (i < n) {
        int v = in[i];
        atomicAdd(&sh[v & 7], 1);
        atomicAdd(&ssum, v);
        atomicMax(&smax, (unsigned)v);
    }
    __syncthreads();
    if (t < 8) atomicAdd(&hist[t], sh[t]);
    if (t == 0) { atomicMax(&hist[8], (int)smax); bsum[blockIdx.x] = ssum; }
}

static void t_atomics(void)
{
    const int n = 4096 + 11;
    int *hin = k_hnew<int>(n);
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 100000);
    int *din = k_dup(hin, n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b], nb = (n + bd - 1) / bd, ng = (n + 15) / 16;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *cnt = k_dnew<int>(1, 0), *tk = k_dnew<int>(n), *bins = k_dnew<int>(5, 0), *grp = k_dnew<int>(ng, 0), *mx = k_dnew<int>(1, 0x80), *mn = k_dnew<int>(1, 0x7f);
        unsigned long long *s64 = k_dnew<unsigned long long>(1, 0);
        k_atom_block<<<nb, bd>>>(din, cnt, tk, bins, grp, s64, mx, mn, n);
        k_sync_ok("k_atom_block");
        int hc, hb[5], hmx, hmn; unsigned long long hs;
        int *htk = k_hnew<int>(n), *hg = k_hnew<int>(ng), *wg = k_hnew<int>(ng, 0);
        k_get(&hc, cnt, 1); k_get(hb, bins, 5); k_get(&hmx, mx, 1); k_get(&hmn, mn, 1); k_get(&hs, s64, 1); k_get(htk, tk, n); k_get(hg, grp, ng);
        int wb[5] = {0}, wmx = (int)0x80808080, wmn = 0x7f7f7f7f; unsigned long long ws = 0;
        char *seen = (char *)calloc(n, 1); int perm = 1;
        for (int i = 0; i < n; i++) {
            int v = hin[i];
            wb[v % 5]++; wg[i / 16] += v; ws += (unsigned long long)v * 1000003ull;
            if ((v ^ i) > wmx) wmx = v ^ i;
            if (v - 3 * i < wmn) wmn = v - 3 * i;
            if (htk[i] < 0 || htk[i] >= n || seen[htk[i]]++) perm = 0;
        }
        CHECK_MSG(hc == n, "atomic counter [%s]: %d vs %d", cfg, hc, n);
        CHECK_MSG(perm, "atomicAdd tickets [%s] are not a permutation", cfg);
        cmp_exact("atomic bins", cfg, hb, wb, 5);
        cmp_exact("atomic one address per group", cfg, hg, wg, ng);
        CHECK_MSG(hs == ws, "atomic 64-bit sum [%s]", cfg);
        CHECK_MSG(hmx == wmx && hmn == wmn, "atomicMax/Min [%s]: %d %d vs %d %d", cfg, hmx, hmn, wmx, wmn);
        free(seen); free(htk); free(hg); free(wg);
        cudaFree(cnt); cudaFree(tk); cudaFree(bins); cudaFree(grp); cudaFree(mx); cudaFree(mn); cudaFree(s64);

        int *hist = k_dnew<int>(9, 0), *bsum = k_dnew<int>(nb);
        k_atom_shared<<<nb, bd>>>(din, hist, bsum, n);
        k_sync_ok("k_atom_shared");
        int hh[9], wh[9] = {0}; int *hbs = k_hnew<int>(nb), *wbs = k_hnew<int>(nb, 0);
        k_get(hh, hist, 9); k_get(hbs, bsum, nb);
        for (int i = 0; i < n; i++) { wh[hin[i] & 7]++; if (hin[i] > wh[8]) wh[8] = hin[i]; wbs[i / bd] += hin[i]; }
        cmp_exact("shared atomics histogram", cfg, hh, wh, 9);
        cmp_exact("shared atomic sums", cfg, hbs, wbs, nb);
        cudaFree(hist); cudaFree(bsum); free(hbs); free(wbs);
    }
    cudaFree(din); free(hin);
}

/* ------------------------------------------------------------------ 7. per-lane integer ops ---- */
#define NINT 9
__host__ __device__ static int int_val(int a, int d, int i, int o)
{
    unsigned x;
    switch (o) {
    case 0: x = (unsigned)i * 2654435761u; x ^= x >> 13; x *= 0x85ebca6bu; return (int)(x ^ (x >> 16));
    case 1: return a / d;                                        /* signed, negative divisors */
    case 2: return a % d;
    case 3: return (int)((unsigned)min(a, d) * 3u + (unsigned)max(a, -d));
    case 4: return (a & 1) ? (int)((unsigned)a - (unsigned)d) : (d < 0 ? d * 2 : a);   /* selects */
    case 5: return (int)((unsigned)a / (unsigned)(i % 13 + 1) + ((unsigned)a >> (i & 31)));
    case 6: return (int)((unsigned)(a >> (i % 31)) + ((unsigned)a << (i % 29)));
    case 7: return (int)((unsigned)(((long long)a * d) >> 7) + (unsigned)abs(d) - (unsigned)(a < d));
    default: return (int)((unsigned)(a - i) * (unsigned)(d + i));
    }
}

__global__ void k_int(const int *a, const int *d, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int av = a[i], dv = d[i];
    for (int o = 0; o < NINT; o++) out[(size_t)o * n + i] = int_val(av, dv, i, o);
}

static void t_int(void)
{
    const int n = 2000 + 1;
    int *ha = k_hnew<int>(n), *hd = k_hnew<int>(n);
    for (int i = 0; i < n; i++) {
        ha[i] = (int)k_rand32();
        if (ha[i] == (int)0x80000000) ha[i] = 1;
        int d = (int)(k_rand32() % 201) - 100;
        if (i % 7 == 3) d = (int)k_rand32() >> (1 + k_rand32() % 30);   /* never INT_MIN */
        hd[i] = d ? d : -3;
    }
    int *da = k_dup(ha, n), *dd = k_dup(hd, n);
    int *want = k_hnew<int>((size_t)NINT * n), *got = k_hnew<int>((size_t)NINT * n);
    for (int i = 0; i < n; i++) for (int o = 0; o < NINT; o++) want[(size_t)o * n + i] = int_val(ha[i], hd[i], i, o);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *dout = k_dnew<int>((size_t)NINT * n);
        k_int<<<(n + bd - 1) / bd, bd>>>(da, dd, dout, n);
        k_sync_ok("k_int");
        k_get(got, dout, (size_t)NINT * n);
        static const char *names[NINT] = {"hash multiply", "signed div", "signed rem", "min/max", "selects",
            "unsigned div + shifts", "per-lane shift amounts", "64-bit product", "wrapping product"};
        for (int o = 0; o < NINT; o++) cmp_exact(names[o], cfg, got + (size_t)o * n, want + (size_t)o * n, n);
        cudaFree(dout);
    }
    cudaFree(da); cudaFree(dd); free(ha); free(hd); free(want); free(got);
}

/* float ops: exact where IEEE (sqrt, div, add/mul with _rn, min/max with NaNs), by ULPs for expf/sinf */
__global__ void k_float(const float *a, const float *b, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i];
    out[i] = __fadd_rn(sqrtf(fabsf(x)), x / y);
    out[n + i] = fminf(x, y) - fmaxf(x * 0.5f, y);               /* NaN inputs in some lanes */
    out[2 * n + i] = (x > y) ? __fmul_rn(x, y) : __fsub_rn(x, y);
    out[3 * n + i] = expf(x * 0.01f);
    out[4 * n + i] = sinf(y);
}

static void t_float(void)
{
    const int n = 1000 + 13;
    float *ha = k_hnew<float>(n), *hb = k_hnew<float>(n);
    for (int i = 0; i < n; i++) { ha[i] = (float)k_randu(-500, 500); hb[i] = (float)k_randu(-50, 50); if (hb[i] == 0.0f) hb[i] = 1.0f; }
    for (int i = 0; i < n; i += 37) ha[i] = k_u2f(0x7fc00000u);  /* NaN */
    for (int i = 5; i < n; i += 41) hb[i] = k_u2f(0x7fc00000u);
    float *da = k_dup(ha, n), *db = k_dup(hb, n);
    float *want = k_hnew<float>(5 * n), *got = k_hnew<float>(5 * n);
    for (int i = 0; i < n; i++) {
        float x = ha[i], y = hb[i];
        volatile float s = sqrtf(fabsf(x)), q = x / y; want[i] = s + q;
        volatile float h = x * 0.5f; want[n + i] = fminf(x, y) - fmaxf(h, y);
        want[2 * n + i] = (x > y) ? x * y : x - y;
        volatile float e = x * 0.01f; want[3 * n + i] = expf(e); want[4 * n + i] = sinf(y);
    }
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        float *dout = k_dnew<float>(5 * n);
        k_float<<<(n + bd - 1) / bd, bd>>>(da, db, dout, n);
        k_sync_ok("k_float");
        k_get(got, dout, 5 * n);
        cmp_exact("sqrt + div", cfg, got, want, n);
        cmp_exact("fminf/fmaxf", cfg, got + n, want + n, n);
        cmp_exact("float select", cfg, got + 2 * n, want + 2 * n, n);
        cmp_ulp("expf", cfg, got + 3 * n, want + 3 * n, n, 4);
        cmp_ulp("sinf", cfg, got + 4 * n, want + 4 * n, n, 4);
        cudaFree(dout);
    }
    cudaFree(da); cudaFree(db); free(ha); free(hb); free(want); free(got);
}

/* ------------------------------------------------------------------ 8. phase mode with divergence ---- */
__host__ __device__ static int ph1(int v, int t)
{
    int w = v;
    if (t >= 32 && t < 48) { for (int k = 0; k < t % 5; k++) w = w * 3 + k; }   /* one group diverges */
    else if (v % 7 == 0) w = -w;                                 /* data-dependent groups */
    return w;
}
__host__ __device__ static int ph2(int r, int t, int v)
{
    if ((t & 63) >= 16 && (t & 63) < 32 && (v & 1)) r = r * 5 - t;   /* divergence in phase 2 */
    return r;
}

__global__ void k_phase(const int *in, int *out, int *out2)
{
    __shared__ int s[1024], s2[1024];
    int t = threadIdx.x, bd = blockDim.x, g = blockIdx.x * bd + t;
    int v = in[g];
    s[t] = ph1(v, t);
    __syncthreads();
    int r = s[(t + 1) % bd] + s[0] * 2 + s[bd - 1 - t];          /* rotation, broadcast, reversed */
    r = ph2(r, t, v);
    s2[t] = r;
    __syncthreads();
    int u = s2[t] - s2[t ^ 1] + s2[(t * 7) % bd];
    __syncthreads();
    s[t] = u;
    __syncthreads();
    u += s[bd - 1 - t];
    if ((t & 15) == 3) { out2[g] = u; return; }                  /* early return after the last barrier */
    out[g] = u + s[t];
    out2[g] = -u;
}

static void t_phase(void)
{
    const int bds[] = {64, 128, 48, 256, 1024, 96, 24, 100};
    const int nb = 3;
    for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
        int bd = bds[b], n = nb * bd;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *hin = k_hnew<int>(n), *w1 = k_hnew<int>(n), *w2 = k_hnew<int>(n), *g1 = k_hnew<int>(n), *g2 = k_hnew<int>(n);
        for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 2001) - 1000;
        int *s = k_hnew<int>(bd), *s2 = k_hnew<int>(bd), *u = k_hnew<int>(bd);
        for (int blk = 0; blk < nb; blk++) {
            const int *v = hin + blk * bd;
            for (int t = 0; t < bd; t++) s[t] = ph1(v[t], t);
            for (int t = 0; t < bd; t++) s2[t] = ph2(s[(t + 1) % bd] + s[0] * 2 + s[bd - 1 - t], t, v[t]);
            for (int t = 0; t < bd; t++) u[t] = s2[t] - s2[t ^ 1] + s2[(t * 7) % bd];
            for (int t = 0; t < bd; t++) {
                int g = blk * bd + t, x = u[t] + u[bd - 1 - t];
                if ((t & 15) == 3) { w2[g] = x; w1[g] = (int)0xA5A5A5A5; continue; }
                w1[g] = x + u[t]; w2[g] = -x;
            }
        }
        int *din = k_dup(hin, n), *d1 = k_dnew<int>(n), *d2 = k_dnew<int>(n);
        k_phase<<<nb, bd>>>(din, d1, d2);
        k_sync_ok("k_phase");
        k_get(g1, d1, n); k_get(g2, d2, n);
        cmp_exact("phase mode out", cfg, g1, w1, n);
        cmp_exact("phase mode out2", cfg, g2, w2, n);
        cudaFree(din); cudaFree(d1); cudaFree(d2);
        free(hin); free(w1); free(w2); free(g1); free(g2); free(s); free(s2); free(u);
    }
}

/* ------------------------------------------------------------------ 9. barriers in loops ---- */
extern __shared__ int dyn_sh[];

/* inclusive scan (Hillis-Steele) + interleaved tree sum of ints + sequential tree sum of floats */
__global__ void k_scan(const int *in, const float *fin, int *out, int *isum, float *fsum)
{
    int *s = dyn_sh;
    float *f = (float *)(dyn_sh + blockDim.x);
    int t = threadIdx.x, bd = blockDim.x, g = blockIdx.x * bd + t;
    s[t] = in[g];
    f[t] = fin[g];
    __syncthreads();
    for (int off = 1; off < bd; off <<= 1) {
        int x = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += x;
        __syncthreads();
    }
    out[g] = s[t];
    __syncthreads();
    s[t] = in[g];
    __syncthreads();
    for (int st = 1; st < bd; st <<= 1) {
        if (t % (2 * st) == 0 && t + st < bd) s[t] += s[t + st];
        __syncthreads();
    }
    for (int st = bd / 2; st > 0; st >>= 1) {                    /* bd is a power of two here */
        if (t < st) f[t] = __fadd_rn(f[t], f[t + st]);
        __syncthreads();
    }
    if (t == 0) { isum[blockIdx.x] = s[0]; fsum[blockIdx.x] = f[0]; }
}

/* tiled dot products: x staged through shared memory tile by tile */
__global__ void k_tiled(const int *A, const int *x, int *y, int ncols)
{
    int t = threadIdx.x, bd = blockDim.x, g = blockIdx.x * bd + t;
    int acc = 0;
    for (int base = 0; base < ncols; base += bd) {
        dyn_sh[t] = base + t < ncols ? x[base + t] : 0;
        __syncthreads();
        int lim = min(bd, ncols - base);
        for (int j = 0; j < lim; j++) acc += A[(size_t)g * ncols + base + j] * dyn_sh[j];   /* broadcast */
        __syncthreads();
    }
    y[g] = acc;
}

static void t_loops(void)
{
    const int bds[] = {128, 256, 64, 32};
    const int nb = 3;
    for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
        int bd = bds[b], n = nb * bd;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *hin = k_hnew<int>(n), *wout = k_hnew<int>(n), *gout = k_hnew<int>(n), wis[nb], gis[nb];
        float *hf = k_hnew<float>(n), wfs[nb], gfs[nb];
        for (int i = 0; i < n; i++) { hin[i] = (int)(k_rand32() % 1999) - 999; hf[i] = (float)k_randu(-1, 1); }
        float *tmp = k_hnew<float>(bd);
        for (int blk = 0; blk < nb; blk++) {
            int acc = 0, sum = 0;
            for (int t = 0; t < bd; t++) { acc += hin[blk * bd + t]; wout[blk * bd + t] = acc; }
            /* the interleaved tree adds the same integers: the total */
            for (int t = 0; t < bd; t++) sum += hin[blk * bd + t];
            wis[blk] = sum;
            for (int t = 0; t < bd; t++) tmp[t] = hf[blk * bd + t];
            for (int st = bd / 2; st > 0; st >>= 1) for (int t = 0; t < st; t++) tmp[t] = tmp[t] + tmp[t + st];
            wfs[blk] = tmp[0];
        }
        int *din = k_dup(hin, n), *dout = k_dnew<int>(n), *dis = k_dnew<int>(nb); float *dfin = k_dup(hf, n), *dfs = k_dnew<float>(nb);
        k_scan<<<nb, bd, 2 * bd * sizeof(int)>>>(din, dfin, dout, dis, dfs);
        k_sync_ok("k_scan");
        k_get(gout, dout, n); k_get(gis, dis, nb); k_get(gfs, dfs, nb);
        cmp_exact("block scan", cfg, gout, wout, n);
        cmp_exact("tree sum (int)", cfg, gis, wis, nb);
        cmp_exact("tree sum (float)", cfg, gfs, wfs, nb);
        cudaFree(din); cudaFree(dout); cudaFree(dis); cudaFree(dfin); cudaFree(dfs);
        free(hin); free(wout); free(gout); free(hf); free(tmp);

        int ncols = bd + bd / 2 + 5;                              /* the last tile is partial */
        int *hA = k_hnew<int>((size_t)n * ncols), *hx = k_hnew<int>(ncols), *wy = k_hnew<int>(n), *gy = k_hnew<int>(n);
        for (size_t i = 0; i < (size_t)n * ncols; i++) hA[i] = (int)(k_rand32() % 200) - 100;
        for (int j = 0; j < ncols; j++) hx[j] = (int)(k_rand32() % 200) - 100;
        for (int r = 0; r < n; r++) { int acc = 0; for (int j = 0; j < ncols; j++) acc += hA[(size_t)r * ncols + j] * hx[j]; wy[r] = acc; }
        int *dA = k_dup(hA, (size_t)n * ncols), *dx = k_dup(hx, ncols), *dy = k_dnew<int>(n);
        k_tiled<<<nb, bd, bd * sizeof(int)>>>(dA, dx, dy, ncols);
        k_sync_ok("k_tiled");
        k_get(gy, dy, n);
        cmp_exact("tiled dot product", cfg, gy, wy, n);
        cudaFree(dA); cudaFree(dx); cudaFree(dy); free(hA); free(hx); free(wy); free(gy);
    }
}

/* shared-memory transpose: row-major writes, column reads of the tile (stride TD + 1) */
template <int TD, int RW> __global__ void k_transpose(const float *in, float *out, int W, int H)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += RW)
        if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += RW)
        if (x < H && y + j < W) out[(size_t)(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <int TD, int RW> static void t_transpose1(void)
{
    const int W = 80, H = 56;
    char cfg[32]; snprintf(cfg, sizeof cfg, "tile %d, block %dx%d", TD, TD, RW);
    float *h = k_hnew<float>(W * H), *w = k_hnew<float>(W * H), *g = k_hnew<float>(W * H);
    for (int i = 0; i < W * H; i++) h[i] = (float)i + 0.25f;
    for (int r = 0; r < H; r++) for (int c = 0; c < W; c++) w[(size_t)c * H + r] = h[(size_t)r * W + c];
    float *din = k_dup(h, W * H), *dout = k_dnew<float>(W * H);
    k_transpose<TD, RW><<<dim3((W + TD - 1) / TD, (H + TD - 1) / TD), dim3(TD, RW)>>>(din, dout, W, H);
    k_sync_ok("k_transpose");
    k_get(g, dout, W * H);
    cmp_exact("transpose", cfg, g, w, W * H);
    cudaFree(din); cudaFree(dout); free(h); free(w); free(g);
}

/* ------------------------------------------------------------------ 10. shuffles and votes ---- */
#define NWARP 7
__global__ void k_warp(const int *in, int *out, int n)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[g];
    /* divergence before the collectives: in the upper half-warp by data, in the lower one by
     * warp (so a warp can hold one group still in lanes and one gone per thread) */
    if (lane >= 16 ? (v & 1) : threadIdx.x >= 64) v = v * 2 - 1;
    int s = v;
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    unsigned bal = __ballot_sync(0xffffffffu, v & 1);
    int an = __any_sync(0xffffffffu, v > 990), al = __all_sync(0xffffffffu, v >= -990);
    int up = __shfl_up_sync(0xffffffffu, v, 1);
    int dn = __shfl_down_sync(0xffffffffu, v, 3);
    int ix = __shfl_sync(0xffffffffu, v, (lane * 7) & 31);
    out[g] = s;
    out[n + g] = (int)bal;
    out[2 * n + g] = an * 2 + al;
    out[3 * n + g] = up;
    out[4 * n + g] = dn;
    out[5 * n + g] = ix;
    out[6 * n + g] = (v & 1) ? __popc(bal & ((1u << lane) - 1u)) : -1;   /* rank among the odd lanes */
}

static void t_warp(void)
{
    const int bds[] = {32, 64, 256, 96};
    const int nb = 2;
    for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
        int bd = bds[b], n = nb * bd;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *hin = k_hnew<int>(n), *want = k_hnew<int>(NWARP * n), *got = k_hnew<int>(NWARP * n), *v = k_hnew<int>(n);
        for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 1001) - 500 + (i % 64 == 0 ? 495 : 0);
        for (int i = 0; i < n; i++) v[i] = ((i % 32) >= 16 ? (hin[i] & 1) : (i % bd) >= 64) ? hin[i] * 2 - 1 : hin[i];
        for (int w0 = 0; w0 < n; w0 += 32) {
            int s = 0, an = 0, al = 1; unsigned bal = 0;
            for (int l = 0; l < 32; l++) { s += v[w0 + l]; if (v[w0 + l] & 1) bal |= 1u << l; an |= v[w0 + l] > 990; al &= v[w0 + l] >= -990; }
            for (int l = 0; l < 32; l++) {
                int g = w0 + l;
                want[g] = s; want[n + g] = (int)bal; want[2 * n + g] = an * 2 + al;
                want[3 * n + g] = l >= 1 ? v[g - 1] : v[g];
                want[4 * n + g] = l + 3 < 32 ? v[g + 3] : v[g];
                want[5 * n + g] = v[w0 + ((l * 7) & 31)];
                int r = 0; for (int k = 0; k < l; k++) r += (bal >> k) & 1;
                want[6 * n + g] = (v[g] & 1) ? r : -1;
            }
        }
        int *din = k_dup(hin, n), *dout = k_dnew<int>(NWARP * n);
        k_warp<<<nb, bd>>>(din, dout, n);
        k_sync_ok("k_warp");
        k_get(got, dout, NWARP * n);
        static const char *names[NWARP] = {"shfl_xor sum", "ballot", "any/all", "shfl_up", "shfl_down", "shfl idx", "ballot rank"};
        for (int o = 0; o < NWARP; o++) cmp_exact(names[o], cfg, got + (size_t)o * n, want + (size_t)o * n, n);
        cudaFree(din); cudaFree(dout); free(hin); free(want); free(got); free(v);
    }
}

/* ------------------------------------------------------------------ 11. vector types ---- */
__global__ void k_vec(const float4 *a, float4 *o, const int2 *b, int2 *ob, const double2 *c, double2 *oc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 x = a[i], z = a[0];                                   /* contiguous and uniform */
    o[i] = make_float4(x.w, __fadd_rn(x.z, z.x), __fmul_rn(x.y, 2.0f), x.x);
    int2 y = b[n - 1 - i];                                       /* reversed */
    ob[i] = make_int2((int)((unsigned)y.y - (unsigned)i), y.x ^ i);
    double2 w = c[i];
    oc[i] = make_double2(__dadd_rn(w.y, 1.0), __dmul_rn(w.x, -3.0));
}

static void t_vec(void)
{
    const int n = 600 + 7;
    float4 *ha = k_hnew<float4>(n), *wa = k_hnew<float4>(n), *ga = k_hnew<float4>(n);
    int2 *hb = k_hnew<int2>(n), *wb = k_hnew<int2>(n), *gb = k_hnew<int2>(n);
    double2 *hc = k_hnew<double2>(n), *wc = k_hnew<double2>(n), *gc = k_hnew<double2>(n);
    for (int i = 0; i < n; i++) {
        ha[i] = make_float4((float)k_randu(-9, 9), (float)k_randu(-9, 9), (float)k_randu(-9, 9), (float)k_randu(-9, 9));
        hb[i] = make_int2((int)k_rand32(), (int)k_rand32());
        hc[i] = make_double2(k_randu(-1e3, 1e3), k_randu(-1e3, 1e3));
    }
    for (int i = 0; i < n; i++) {
        wa[i] = make_float4(ha[i].w, ha[i].z + ha[0].x, ha[i].y * 2.0f, ha[i].x);
        int2 y = hb[n - 1 - i]; wb[i] = make_int2((int)((unsigned)y.y - (unsigned)i), y.x ^ i);
        wc[i] = make_double2(hc[i].y + 1.0, hc[i].x * -3.0);
    }
    float4 *da = k_dup(ha, n); int2 *db = k_dup(hb, n); double2 *dc = k_dup(hc, n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        float4 *oa = k_dnew<float4>(n); int2 *ob = k_dnew<int2>(n); double2 *oc = k_dnew<double2>(n);
        k_vec<<<(n + bd - 1) / bd, bd>>>(da, oa, db, ob, dc, oc, n);
        k_sync_ok("k_vec");
        k_get(ga, oa, n); k_get(gb, ob, n); k_get(gc, oc, n);
        cmp_exact("float4", cfg, (const float *)ga, (const float *)wa, 4 * (size_t)n);
        cmp_exact("int2 reversed", cfg, (const int *)gb, (const int *)wb, 2 * (size_t)n);
        cmp_exact("double2", cfg, (const double *)gc, (const double *)wc, 2 * (size_t)n);
        cudaFree(oa); cudaFree(ob); cudaFree(oc);
    }
    cudaFree(da); cudaFree(db); cudaFree(dc);
    free(ha); free(wa); free(ga); free(hb); free(wb); free(gb); free(hc); free(wc); free(gc);
}

/* ------------------------------------------------------------------ 12. params, constants, local arrays ---- */
struct PArr { int v[64]; int k; };
__constant__ int ctab[128];

__global__ void k_param(PArr p, int *out, int n)
{
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    out[i] = p.v[t & 63] + ctab[t & 127] * 3;                   /* t & 63 == t for blocks of up to 64 */
    out[n + i] = p.v[p.k] + ctab[p.k + 1] + ctab[(i * 7) & 127]; /* uniform and gathered */
    out[2 * n + i] = ctab[t % 128] - p.v[63 - (t & 63)];
    if (blockDim.x <= 64) out[3 * n + i] = p.v[t] * 2 + ctab[t + 64];   /* affine indices */
}

__global__ void k_local(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int loc[8];
    int v = in[i];
    for (int k = 0; k < 8; k++) loc[k] = in[(i + k * 3) % n] + k;
    int r = loc[v & 7] + loc[(v >> 3) & 7];                      /* dynamic index: local memory */
    out[i] = r + i * v;
    out[n + i] = v * 2 + i;                                      /* after the hand-over */
}

static void t_param_local(void)
{
    const int n = 500 + 3;
    PArr p; for (int k = 0; k < 64; k++) p.v[k] = k * k - 100; p.k = 17;
    int hc[128]; for (int k = 0; k < 128; k++) hc[k] = (int)(k_rand32() % 1000);
    CK(cudaMemcpyToSymbol(ctab, hc, sizeof hc));
    int *hin = k_hnew<int>(n); for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 100000);
    int *din = k_dup(hin, n);
    int *want = k_hnew<int>(4 * n), *got = k_hnew<int>(4 * n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *d = k_dnew<int>(4 * n);
        k_param<<<(n + bd - 1) / bd, bd>>>(p, d, n);
        k_sync_ok("k_param");
        k_get(got, d, 4 * n);
        for (int i = 0; i < n; i++) {
            int t = i % bd;
            want[i] = p.v[t & 63] + hc[t & 127] * 3;
            want[n + i] = p.v[p.k] + hc[p.k + 1] + hc[(i * 7) & 127];
            want[2 * n + i] = hc[t % 128] - p.v[63 - (t & 63)];
            want[3 * n + i] = bd <= 64 ? p.v[t] * 2 + hc[t + 64] : (int)0xA5A5A5A5;
        }
        cmp_exact("kernel parameter array + __constant__", cfg, got, want, 4 * n);
        CK(cudaMemset(d, 0xA5, 3 * n * sizeof(int)));
        k_local<<<(n + bd - 1) / bd, bd>>>(din, d, n);
        k_sync_ok("k_local");
        k_get(got, d, 2 * n);
        for (int i = 0; i < n; i++) {
            int loc[8], v = hin[i];
            for (int k = 0; k < 8; k++) loc[k] = hin[(i + k * 3) % n] + k;
            want[i] = loc[v & 7] + loc[(v >> 3) & 7] + (int)((unsigned)i * (unsigned)v);
            want[n + i] = v * 2 + i;
        }
        cmp_exact("local array", cfg, got, want, 2 * n);
        cudaFree(d);
    }
    cudaFree(din); free(hin); free(want); free(got);
}

/* registers declared in nested { } scopes of inline PTX (two scopes reusing one name, an inner
 * scope shadowing an outer one, CUB-style shfl inside a scope) and a call sequence */
__host__ __device__ __noinline__ int dev_mix(int a, int b) { return (int)((unsigned)a * (unsigned)b + (unsigned)(a ^ (b << 3))); }

__global__ void k_scoped(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i], r, q, z;
    asm("{\n\t.reg .pred %%sp;\n\t.reg .b32 %%t;\n\tsetp.lt.s32 %%sp, %1, 500;\n\tselp.b32 %%t, %1, %2, %%sp;\n\tadd.s32 %0, %%t, 7;\n\t}"
        : "=r"(r) : "r"(v), "r"(i));                             /* r = (v < 500 ? v : i) + 7 */
    asm("{\n\t.reg .b32 %%t;\n\tmul.lo.s32 %%t, %1, 3;\n\tsub.s32 %0, %%t, %2;\n\t}" : "=r"(q) : "r"(v), "r"(i));   /* 3v - i */
    asm("{\n\t.reg .b32 %%t;\n\tadd.s32 %%t, %1, 1;\n\t{\n\t.reg .b32 %%t;\n\tmul.lo.s32 %%t, %1, 5;\n\tadd.s32 %0, %%t, %2;\n\t}\n\t"
        "add.s32 %0, %0, %%t;\n\t}" : "=r"(z) : "r"(v), "r"(i)); /* (5v + i) + (v + 1) */
    out[i] = r + q;
    out[n + i] = z;
    out[2 * n + i] = dev_mix(i, v) + r;                          /* a real call */
}

__global__ void k_scoped_shfl(const int *in, int *out)
{
    __shared__ int warp_sum[32];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int s = in[g];
    for (int o = 16; o; o >>= 1) {
        int x;
        asm volatile("{\n\t.reg .pred %%sp;\n\t.reg .b32 %%sv;\n\tshfl.sync.bfly.b32 %%sv|%%sp, %1, %2, 0x1f, 0xffffffff;\n\tmov.b32 %0, %%sv;\n\t}"
                     : "=r"(x) : "r"(s), "r"(o));
        s += x;
    }
    if ((t & 31) == 0) warp_sum[t >> 5] = s;
    __syncthreads();
    int tot = 0;
    for (int w = 0; w < (int)(blockDim.x >> 5); w++) tot += warp_sum[w];
    out[g] = tot - in[g];
}

static void t_scoped(void)
{
    const int n = 700 + 9;
    int *hin = k_hnew<int>(n), *want = k_hnew<int>(3 * n), *got = k_hnew<int>(3 * n);
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 1000);
    for (int i = 0; i < n; i++) {
        int v = hin[i], r = (v < 500 ? v : i) + 7;
        want[i] = r + 3 * v - i;
        want[n + i] = 5 * v + i + v + 1;
        want[2 * n + i] = dev_mix(i, v) + r;
    }
    int *din = k_dup(hin, n);
    for (int b = 0; b < NBDIMS; b++) {
        int bd = BDIMS[b];
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *d = k_dnew<int>(3 * n);
        k_scoped<<<(n + bd - 1) / bd, bd>>>(din, d, n);
        k_sync_ok("k_scoped");
        k_get(got, d, 3 * n);
        cmp_exact("nested-scope registers + call", cfg, got, want, 3 * n);
        cudaFree(d);
    }
    const int bds[] = {32, 128, 256, 96};
    for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
        int bd = bds[b], nb = 2, nt = nb * bd;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *d = k_dnew<int>(nt), *w = k_hnew<int>(nt);
        k_scoped_shfl<<<nb, bd>>>(din, d);
        k_sync_ok("k_scoped_shfl");
        k_get(got, d, nt);
        for (int blk = 0; blk < nb; blk++) {
            int tot = 0;
            for (int t = 0; t < bd; t++) tot += hin[blk * bd + t];
            for (int t = 0; t < bd; t++) w[blk * bd + t] = tot - hin[blk * bd + t];
        }
        cmp_exact("shfl in an asm scope + barrier", cfg, got, w, nt);
        cudaFree(d); free(w);
    }
    cudaFree(din); free(hin); free(want); free(got);
}

/* ------------------------------------------------------------------ 13. loops and joins ---- */
__global__ void k_gridstride(const int *in, int *out, int n, int mode)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int x;
        if (mode) x = 2 * (int)threadIdx.x;                      /* one register, two strides: */
        else x = 3 * (int)threadIdx.x;                           /* affine either way */
        out[i] = in[i] * 2 + 1 + in[x];
        out[n + i] = in[(i * (mode + 1)) % n];
    }
}

static void t_gridstride(void)
{
    const int n = 3100 + 7;                                     /* > 3 * 1023: in[x] stays inside */
    int *hin = k_hnew<int>(n), *want = k_hnew<int>(2 * n), *got = k_hnew<int>(2 * n);
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 100000) - 50000;
    int *din = k_dup(hin, n);
    for (int mode = 0; mode < 2; mode++)
        for (int b = 0; b < NBDIMS; b++) {
            int bd = BDIMS[b];
            char cfg[48]; snprintf(cfg, sizeof cfg, "block %d, mode %d", bd, mode);
            for (int i = 0; i < n; i++) {
                int tx = (i % (3 * bd)) % bd;
                want[i] = hin[i] * 2 + 1 + hin[(mode ? 2 : 3) * tx];
                want[n + i] = hin[(i * (mode + 1)) % n];
            }
            int *d = k_dnew<int>(2 * n);
            k_gridstride<<<3, bd>>>(din, d, n, mode);
            k_sync_ok("k_gridstride");
            k_get(got, d, 2 * n);
            cmp_exact("grid-stride loop", cfg, got, want, 2 * n);
            cudaFree(d);
        }
    cudaFree(din); free(hin); free(want); free(got);
}

/* A register chain longer than 64 links, carried around a loop: v0 takes threadIdx.x's value
 * only after CHAIN iterations of the lane classes' fixpoint. v0 must not be taken for uniform
 * (it indexes a table: a uniform address would be one load for all 16 lanes). */
#define CHAIN 70
__global__ void k_chain(const int *tab, int *out, int n)
{
    int v0 = 0, v1 = 0, v2 = 0, v3 = 0, v4 = 0, v5 = 0, v6 = 0, v7 = 0, v8 = 0, v9 = 0, v10 = 0, v11 = 0, v12 = 0, v13 = 0,
        v14 = 0, v15 = 0, v16 = 0, v17 = 0, v18 = 0, v19 = 0, v20 = 0, v21 = 0, v22 = 0, v23 = 0, v24 = 0, v25 = 0, v26 = 0,
        v27 = 0, v28 = 0, v29 = 0, v30 = 0, v31 = 0, v32 = 0, v33 = 0, v34 = 0, v35 = 0, v36 = 0, v37 = 0, v38 = 0, v39 = 0,
        v40 = 0, v41 = 0, v42 = 0, v43 = 0, v44 = 0, v45 = 0, v46 = 0, v47 = 0, v48 = 0, v49 = 0, v50 = 0, v51 = 0, v52 = 0,
        v53 = 0, v54 = 0, v55 = 0, v56 = 0, v57 = 0, v58 = 0, v59 = 0, v60 = 0, v61 = 0, v62 = 0, v63 = 0, v64 = 0, v65 = 0,
        v66 = 0, v67 = 0, v68 = 0, v69 = 0;
#pragma unroll 1
    for (int it = 0; it < n; it++) {
        v0 = v1; v1 = v2; v2 = v3; v3 = v4; v4 = v5; v5 = v6; v6 = v7; v7 = v8; v8 = v9; v9 = v10; v10 = v11; v11 = v12;
        v12 = v13; v13 = v14; v14 = v15; v15 = v16; v16 = v17; v17 = v18; v18 = v19; v19 = v20; v20 = v21; v21 = v22;
        v22 = v23; v23 = v24; v24 = v25; v25 = v26; v26 = v27; v27 = v28; v28 = v29; v29 = v30; v30 = v31; v31 = v32;
        v32 = v33; v33 = v34; v34 = v35; v35 = v36; v36 = v37; v37 = v38; v38 = v39; v39 = v40; v40 = v41; v41 = v42;
        v42 = v43; v43 = v44; v44 = v45; v45 = v46; v46 = v47; v47 = v48; v48 = v49; v49 = v50; v50 = v51; v51 = v52;
        v52 = v53; v53 = v54; v54 = v55; v55 = v56; v56 = v57; v57 = v58; v58 = v59; v59 = v60; v60 = v61; v61 = v62;
        v62 = v63; v63 = v64; v64 = v65; v65 = v66; v66 = v67; v67 = v68; v68 = v69; v69 = (int)threadIdx.x + it;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = tab[v0 & 255];
}

static void t_chain(void)
{
    int h[256]; for (int k = 0; k < 256; k++) h[k] = k * 3 + 1;
    int *dt = k_dup(h, 256);
    const int bds[] = {64, 16, 24};
    for (size_t b = 0; b < sizeof bds / sizeof bds[0]; b++) {
        int bd = bds[b], nt = 2 * bd, iters = CHAIN + 5;
        char cfg[32]; snprintf(cfg, sizeof cfg, "block %d", bd);
        int *d = k_dnew<int>(nt), *got = k_hnew<int>(nt), *want = k_hnew<int>(nt);
        k_chain<<<2, bd>>>(dt, d, iters);
        k_sync_ok("k_chain");
        k_get(got, d, nt);
        for (int g = 0; g < nt; g++) want[g] = h[(g % bd + iters - CHAIN) & 255];
        cmp_exact("70-register loop-carried chain", cfg, got, want, nt);
        cudaFree(d); free(got); free(want);
    }
    cudaFree(dt);
}

int main(void)
{
    t_contig();
    t_index();
    t_pred();
    t_div();
    t_widen();
    t_dims();
    t_atomics();
    t_int();
    t_float();
    t_phase();
    t_loops();
    t_transpose1<32, 8>();
    t_transpose1<16, 16>();
    t_transpose1<16, 4>();
    t_warp();
    t_vec();
    t_param_local();
    t_scoped();
    t_gridstride();
    t_chain();
    return CHECK_DONE();
}
