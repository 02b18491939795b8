// NVCC_FLAGS: -arch=sm_90
// cvt to f16/bf16 with .relu (negative and -0 -> +0, NaN -> canonical NaN) and .satfinite (an
// infinite result -> the largest finite value of its sign), scalar and packed; min/max{.relu}
// on .s16x2 / .u16x2 (each half on its own), min/max.xorsign.abs.f32 (of |a| and |b|, with the
// sign sign(a) ^ sign(b)), add on .u16x2/.s16x2, lop3 with a predicate output
// (p = (d != 0) BoolOp q), setp.ftz on f16 (subnormal inputs are zero). Expected values worked
// out from the PTX ISA text
// (found missing by tests/diff/diff_isa_extra.cu: .relu and .satfinite were ignored, and the
// 16x2 forms used only the low half).
#include "k_util.h"

struct cvt_case { float x; unsigned relu_h, satf_h, relu_b, satf_b; };

__global__ void cvts(const float *x, unsigned *o, int n)
{
    int i = threadIdx.x;
    if (i >= n) return;
    unsigned short a, b, c, d;
    asm("cvt.rn.relu.f16.f32 %0, %1;" : "=h"(a) : "f"(x[i]));
    asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(b) : "f"(x[i]));
    asm("cvt.rn.relu.bf16.f32 %0, %1;" : "=h"(c) : "f"(x[i]));
    asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(d) : "f"(x[i]));
    o[i * 4 + 0] = a; o[i * 4 + 1] = b; o[i * 4 + 2] = c; o[i * 4 + 3] = d;
}

__global__ void packed(const unsigned *in, unsigned *o)
{
    unsigned r;
    float inf = __int_as_float(0x7f800000), one = 1.0f, neg = -3.0f;
    asm("cvt.rn.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(inf), "f"(one)); o[0] = r;
    asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(neg), "f"(one)); o[1] = r;
    asm("cvt.rn.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(-inf), "f"(neg)); o[2] = r;
    asm("min.s16x2 %0, %1, %2;" : "=r"(r) : "r"(in[0]), "r"(in[1])); o[3] = r;
    asm("max.s16x2 %0, %1, %2;" : "=r"(r) : "r"(in[0]), "r"(in[1])); o[4] = r;
    asm("max.u16x2 %0, %1, %2;" : "=r"(r) : "r"(in[2]), "r"(in[3])); o[5] = r;
    asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(in[2]), "r"(in[3])); o[6] = r;
    asm("min.relu.s16x2 %0, %1, %2;" : "=r"(r) : "r"(in[4]), "r"(in[5])); o[7] = r;
    asm("max.relu.s16x2 %0, %1, %2;" : "=r"(r) : "r"(in[4]), "r"(in[5])); o[8] = r;
    const float xa[3] = {-2.0f, 3.0f, -1.0f}, xb[3] = {1.0f, -5.0f, -4.0f};
    for (int k = 0; k < 3; k++) {
        float lo, hi;
        asm("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(lo) : "f"(xa[k]), "f"(xb[k]));
        asm("max.xorsign.abs.f32 %0, %1, %2;" : "=f"(hi) : "f"(xa[k]), "f"(xb[k]));
        o[9 + 2 * k] = __float_as_uint(lo); o[10 + 2 * k] = __float_as_uint(hi);
    }
    asm("add.u16x2 %0, %1, %2;" : "=r"(r) : "r"(0x0001ffffu), "r"(0x00010001u)); o[15] = r;
    asm("add.s16x2 %0, %1, %2;" : "=r"(r) : "r"(0x7fff8000u), "r"(0x00010001u)); o[16] = r;
    asm("add.u16x2 %0, %1, %2;" : "=r"(r) : "r"(0x1234fff8u), "r"(0x11110010u)); o[17] = r;
    unsigned p1, p2, p3, d2;
    asm("{ .reg .pred p, q; setp.ne.u32 q, %2, 0; lop3.or.b32 %1|p, %3, %3, %3, 0xF0, q; selp.u32 %0, 1, 0, p; }"
        : "=r"(p1), "=r"(r) : "r"(1u), "r"(0u));
    asm("{ .reg .pred p, q; setp.ne.u32 q, %2, 0; lop3.and.b32 %1|p, %3, %4, %4, 0xF0, q; selp.u32 %0, 1, 0, p; }"
        : "=r"(p2), "=r"(d2) : "r"(1u), "r"(5u), "r"(0u));
    asm("{ .reg .pred p, q; setp.ne.u32 q, %2, 0; lop3.and.b32 %1|p, %3, %4, %4, 0xF0, q; selp.u32 %0, 1, 0, p; }"
        : "=r"(p3), "=r"(r) : "r"(0u), "r"(5u), "r"(0u));
    o[18] = p1 | p2 << 1 | p3 << 2; o[19] = d2;
    unsigned short hs = 0x0001, hz = 0x0000;
    unsigned e1, e2;
    asm("{ .reg .pred p; setp.eq.ftz.f16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(e1) : "h"(hs), "h"(hz));
    asm("{ .reg .pred p; setp.eq.f16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(e2) : "h"(hs), "h"(hz));
    o[20] = e1 | e2 << 1;
}

int main()
{
    const float inf = k_u2f(0x7f800000), nan = k_u2f(0x7fc00000);
    // x, relu f16, satfinite f16, relu bf16, satfinite bf16
    const cvt_case C[] = {
        {1.0f, 0x3c00, 0x3c00, 0x3f80, 0x3f80},
        {-1.0f, 0x0000, 0xbc00, 0x0000, 0xbf80},
        {-0.0f, 0x0000, 0x8000, 0x0000, 0x8000},
        {70000.0f, 0x7c00, 0x7bff, 0x4789, 0x4789},      // f16 overflows (rn); bf16 0x4788.b8 rounds up
        {-70000.0f, 0x0000, 0xfbff, 0x0000, 0xc789},
        {inf, 0x7c00, 0x7bff, 0x7f80, 0x7f7f},
        {-inf, 0x0000, 0xfbff, 0x0000, 0xff7f},
        {nan, 0x7fff, 0x7fff, 0x7fff, 0x7fff},
        {-1e-30f, 0x0000, 0x8000, 0x0000, 0x8da2},       // f16 underflows to -0; bf16 keeps it: 0x8da2 (rn)
        {3.0e38f, 0x7c00, 0x7bff, 0x7f62, 0x7f62},
    };
    const int n = sizeof C / sizeof C[0];
    float hx[16]; for (int i = 0; i < n; i++) hx[i] = C[i].x;
    float *dx; unsigned *dout;
    CK(cudaMalloc(&dx, sizeof hx)); CK(cudaMalloc(&dout, 64 * 4));
    CK(cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice));
    cvts<<<1, 32>>>(dx, dout, n);
    CK(cudaGetLastError());
    unsigned got[64];
    CK(cudaMemcpy(got, dout, n * 4 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned want[4] = {C[i].relu_h, C[i].satf_h, C[i].relu_b, C[i].satf_b};
        static const char *nm[4] = {"relu.f16", "satfinite.f16", "relu.bf16", "satfinite.bf16"};
        for (int k = 0; k < 4; k++)
            CHECK_MSG(got[i * 4 + k] == want[k], "cvt.rn.%s.f32(%a) = 0x%04x, want 0x%04x", nm[k], (double)C[i].x, got[i * 4 + k], want[k]);
    }
    const unsigned pin[6] = {0x016b0170u, 0x02000100u, 0xffff0001u, 0x0002fffeu, 0xfff00005u, 0x00010003u};
    unsigned *din;
    CK(cudaMalloc(&din, sizeof pin));
    CK(cudaMemcpy(din, pin, sizeof pin, cudaMemcpyHostToDevice));
    packed<<<1, 1>>>(din, dout);
    CK(cudaGetLastError());
    CK(cudaMemcpy(got, dout, 21 * 4, cudaMemcpyDeviceToHost));
    const unsigned want[21] = {
        0x7bff3c00u,   // satfinite f16x2 (inf, 1): upper = max finite
        0x00003c00u,   // relu f16x2 (-3, 1)
        0xff7fc040u,   // satfinite bf16x2 (-inf, -3): -max finite, -3
        0x016b0100u,   // min.s16x2: 0x016b vs 0x0200 -> 0x016b; 0x0170 vs 0x0100 -> 0x0100
        0x02000170u,   // max.s16x2
        0xfffffffeu,   // max.u16x2: 0xffff vs 0x0002, 0x0001 vs 0xfffe
        0x00020001u,   // min.u16x2
        0x00000003u,   // min.relu.s16x2: min(-16, 1) = -16 -> 0; min(5, 3) = 3
        0x00010005u,   // max.relu.s16x2: max(-16, 1) = 1; max(5, 3) = 5
        0xbf800000u, 0xc0000000u,   // xorsign.abs (-2, 1): min -1, max -2
        0xc0400000u, 0xc0a00000u,   // (3, -5): -3, -5
        0x3f800000u, 0x40800000u,   // (-1, -4): +1, +4
        0x00020000u,   // add.u16x2: 0xffff + 1 wraps in the low half only
        0x80008001u,   // add.s16x2: 0x7fff + 1 and 0x8000 + 1, per half
        0x23450008u,   // add.u16x2: 0x1234 + 0x1111, 0xfff8 + 0x0010 wraps to 0x0008
        0x3u,          // lop3 p: (0 != 0) | true = 1; (5 != 0) & true = 1; (5 != 0) & false = 0
        0x5u,          // lop3.and d with lut 0xF0 = a
        0x1u,          // setp.eq.ftz.f16 (subnormal 1, 0) = 1; without .ftz = 0
    };
    for (int k = 0; k < 21; k++) CHECK_MSG(got[k] == want[k], "packed case %d: 0x%08x, want 0x%08x", k, got[k], want[k]);
    CK(cudaFree(dx)); CK(cudaFree(dout)); CK(cudaFree(din));
    return CHECK_DONE();
}
