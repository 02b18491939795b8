// NVCC_FLAGS: -arch=sm_80
// Less common PTX instructions through inline asm, each against a host model written from the
// PTX ISA: testp.{finite,infinite,number,notanumber,normal,subnormal}, slct, cnot, bfind (u32,
// s32, .shiftamt), fns, lop3.b32 with several truth tables, copysign, min/max.NaN (sm_80),
// setp with a combining predicate (setp.lt.and / .or / .xor), set.<cmp>.u32.s32 masks, predicate
// logic (and/or/xor/not.pred), mov.b64 pack/unpack and selp on predicates negated with '!'.
#include "k_util.h"

#define N 256
#define K 28

__global__ void misc(const float *f, const int *a, const int *b, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = f[i], y = f[(i + 1) % n];
    int p = a[i], q = b[i];
    unsigned *r = o + i * K, u;
    asm("{ .reg .pred t; testp.finite.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[0]) : "f"(x));
    asm("{ .reg .pred t; testp.infinite.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[1]) : "f"(x));
    asm("{ .reg .pred t; testp.number.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[2]) : "f"(x));
    asm("{ .reg .pred t; testp.notanumber.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[3]) : "f"(x));
    asm("{ .reg .pred t; testp.normal.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[4]) : "f"(x));
    asm("{ .reg .pred t; testp.subnormal.f32 t, %1; selp.u32 %0, 1, 0, t; }" : "=r"(r[5]) : "f"(x));
    asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r[6]) : "r"(p), "r"(q), "r"(p ^ q));      /* c >= 0 ? a : b */
    asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(p), "r"(q), "f"(x));           /* c >= 0.0 ? a : b */
    asm("cnot.b32 %0, %1;" : "=r"(r[8]) : "r"(p & 3));
    asm("bfind.u32 %0, %1;" : "=r"(r[9]) : "r"(p));
    asm("bfind.s32 %0, %1;" : "=r"(r[10]) : "r"(p));
    asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r[11]) : "r"(p));
    int off = 1 + (q >> 8 & 3); if (q & 0x400) off = -off;                              /* negative: search downwards */
    asm("fns.b32 %0, %1, %2, %3;" : "=r"(r[12]) : "r"(p), "r"((unsigned)q & 31), "r"(off));
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[13]) : "r"(p), "r"(q), "r"(p * 7));    /* a ^ b ^ c */
    asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(r[14]) : "r"(p), "r"(q), "r"(p * 7));    /* majority */
    asm("lop3.b32 %0, %1, %2, %3, 0xca;" : "=r"(r[15]) : "r"(p), "r"(q), "r"(p * 7));    /* a ? b : c bitwise */
    asm("lop3.b32 %0, %1, %2, %3, 0x1;" : "=r"(r[16]) : "r"(p), "r"(q), "r"(p * 7));     /* ~(a|b|c) */
    float cs; asm("copysign.f32 %0, %1, %2;" : "=f"(cs) : "f"(y), "f"(x)); r[17] = __float_as_uint(cs);  /* |x| with sign of y */
    float mn; asm("min.NaN.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(y)); r[18] = __float_as_uint(mn);
    float mx; asm("max.NaN.f32 %0, %1, %2;" : "=f"(mx) : "f"(x), "f"(y)); r[19] = __float_as_uint(mx);
    asm("{ .reg .pred c, d; setp.ne.s32 c, %3, 0; setp.lt.and.s32 d, %1, %2, c; selp.u32 %0, 1, 0, d; }" : "=r"(r[20]) : "r"(p), "r"(q), "r"(p & 4));
    asm("{ .reg .pred c, d, e; setp.ne.s32 c, %3, 0; setp.ge.or.s32 d|e, %1, %2, c; selp.u32 %0, 1, 0, d; }" : "=r"(r[21]) : "r"(p), "r"(q), "r"(p & 8));
    asm("{ .reg .pred c, d, e; setp.ne.s32 c, %3, 0; setp.ge.or.s32 d|e, %1, %2, c; selp.u32 %0, 1, 0, e; }" : "=r"(r[22]) : "r"(p), "r"(q), "r"(p & 8));
    asm("set.lt.u32.s32 %0, %1, %2;" : "=r"(r[23]) : "r"(p), "r"(q));                 /* 0xffffffff or 0 */
    asm("{ .reg .pred a1, a2, a3; setp.gt.s32 a1, %1, 0; setp.gt.s32 a2, %2, 0; xor.pred a3, a1, a2; not.pred a3, a3;"
        " or.pred a3, a3, a1; and.pred a3, a3, a2; selp.u32 %0, 1, 0, a3; }" : "=r"(r[24]) : "r"(p), "r"(q));
    unsigned long long pk; unsigned lo, hi;
    asm("mov.b64 %0, {%1, %2};" : "=l"(pk) : "r"(p), "r"(q));
    asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "l"(pk ^ 0xffff0000ffffull));
    r[25] = lo; r[26] = hi;
    asm("{ .reg .pred c; setp.eq.s32 c, %1, %2; @!c mov.u32 %0, 77; @c mov.u32 %0, 88; }" : "=r"(u) : "r"(p & 1), "r"(q & 1));
    r[27] = u;
}

static int h_bfind_s(int v) { unsigned w = v < 0 ? ~(unsigned)v : (unsigned)v; if (!w) return -1; int k = 31; while (!((w >> k) & 1)) k--; return k; }
static int h_bfind_u(unsigned w) { if (!w) return -1; int k = 31; while (!((w >> k) & 1)) k--; return k; }
static unsigned h_fns(unsigned mask, unsigned base, int offset)
{   /* the |offset|-th set bit counting from base (inclusive), upwards for offset > 0, downwards for < 0 */
    int cnt = 0, inc = offset > 0 ? 1 : -1, want = offset > 0 ? offset : -offset;
    for (int k = (int)base; k >= 0 && k < 32; k += inc) if ((mask >> k) & 1) { if (++cnt == want) return (unsigned)k; }
    return 0xffffffffu;
}
static float h_minnan(float x, float y) { if (x != x || y != y) return NAN; if (x == 0 && y == 0) return signbit(x) ? x : y; return x < y ? x : y; }
static float h_maxnan(float x, float y) { if (x != x || y != y) return NAN; if (x == 0 && y == 0) return signbit(x) ? y : x; return x > y ? x : y; }

int main(void)
{
    static float f[N]; static int a[N], b[N]; static unsigned o[N * K];
    const float sp[] = {0.0f, -0.0f, 1.0f, -2.5f, INFINITY, -INFINITY, NAN, 1e-40f, -1e-42f, 1.17549435e-38f, 3.4e38f};
    for (int i = 0; i < N; i++) {
        f[i] = i < 11 ? sp[i] : (float)k_randu(-100, 100);
        a[i] = (int)k_rand32(); b[i] = (int)k_rand32();
        if (i % 9 == 0) a[i] = 0;
        if (i % 13 == 0) a[i] = -1;
        if (i % 7 == 0) a[i] >>= (i % 31);
    }
    float *df; int *da, *db; unsigned *dout;
    CK(cudaMalloc(&df, sizeof f)); CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(df, f, sizeof f, cudaMemcpyHostToDevice)); CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    misc<<<N / 64, 64>>>(df, da, db, dout, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float x = f[i], y = f[(i + 1) % N]; int p = a[i], q = b[i];
        int cls = fpclassify(x);
        unsigned e[K];
        e[0] = isfinite(x); e[1] = isinf(x) != 0; e[2] = !isnan(x); e[3] = isnan(x) != 0;
        e[4] = cls == FP_NORMAL || cls == FP_ZERO; e[5] = cls == FP_SUBNORMAL;   /* "zero is considered normal" (PTX ISA) */
        e[6] = (p ^ q) >= 0 ? p : q;
        e[7] = x >= 0.0f ? p : q;            /* NaN compares false -> b */
        e[8] = (p & 3) == 0;
        e[9] = (unsigned)h_bfind_u((unsigned)p); e[10] = (unsigned)h_bfind_s(p);
        e[11] = p == 0 ? 0xffffffffu : 31u - (unsigned)h_bfind_u((unsigned)p);
        int off = 1 + (q >> 8 & 3); if (q & 0x400) off = -off;
        e[12] = h_fns((unsigned)p, (unsigned)q & 31, off);
        unsigned c = (unsigned)p * 7u;
        e[13] = k_lop3(p, q, c, 0x96); e[14] = k_lop3(p, q, c, 0xe8); e[15] = k_lop3(p, q, c, 0xca); e[16] = k_lop3(p, q, c, 0x1);
        e[17] = k_f2u(copysignf(x, y));
        e[18] = k_f2u(h_minnan(x, y)); e[19] = k_f2u(h_maxnan(x, y));
        e[20] = (p < q) && ((p & 4) != 0);
        e[21] = (p >= q) || ((p & 8) != 0);
        e[22] = !(p >= q) || ((p & 8) != 0);
        e[23] = p < q ? 0xffffffffu : 0;
        int a1 = p > 0, a2 = q > 0; e[24] = ((!(a1 ^ a2)) || a1) && a2;
        unsigned long long pk = (((unsigned long long)(unsigned)q) << 32 | (unsigned)p) ^ 0xffff0000ffffull;
        e[25] = (unsigned)pk; e[26] = (unsigned)(pk >> 32);
        e[27] = (p & 1) == (q & 1) ? 88 : 77;
        for (int k = 0; k < K; k++) {
            unsigned g = o[i * K + k];
            /* any NaN encoding is accepted; min/max of +0 and -0 may return either zero */
            int nan_ok = (k >= 17 && k <= 19) && isnan(k_u2f(e[k])) && isnan(k_u2f(g));
            nan_ok |= (k == 18 || k == 19) && x == 0 && y == 0 && k_u2f(g) == 0;
            if (g != e[k] && !nan_ok && bad++ < 25) CHECK_MSG(0, "item %d (x=%a y=%a p=%08x q=%08x): got %08x want %08x", k, (double)x, (double)y, p, q, g, e[k]);
        }
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
