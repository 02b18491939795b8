// Multi-precision integer arithmetic: the carry chain add.cc / addc.cc / addc, sub.cc / subc.cc /
// subc, and mad.lo.cc / madc.hi via inline PTX (256-bit add/sub, 128x128->256 multiply), plus
// unsigned __int128 arithmetic (mul.lo/mul.hi.u64, add with carry, 128-bit shifts and division).
// Host reference: unsigned __int128 and a schoolbook loop over 32-bit limbs.
#include "k_util.h"

#define N 256

__global__ void carry(const unsigned *a, const unsigned *b, unsigned *sum, unsigned *diff, unsigned *prod,
                      const unsigned __int128 *x, const unsigned __int128 *y, unsigned __int128 *o128, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned *A = a + i * 8, *B = b + i * 8;
    unsigned *S = sum + i * 9, *D = diff + i * 9;
    asm("add.cc.u32 %0, %9, %17;\n\t"
        "addc.cc.u32 %1, %10, %18;\n\taddc.cc.u32 %2, %11, %19;\n\taddc.cc.u32 %3, %12, %20;\n\t"
        "addc.cc.u32 %4, %13, %21;\n\taddc.cc.u32 %5, %14, %22;\n\taddc.cc.u32 %6, %15, %23;\n\t"
        "addc.cc.u32 %7, %16, %24;\n\taddc.u32 %8, 0, 0;"
        : "=r"(S[0]), "=r"(S[1]), "=r"(S[2]), "=r"(S[3]), "=r"(S[4]), "=r"(S[5]), "=r"(S[6]), "=r"(S[7]), "=r"(S[8])
        : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(A[4]), "r"(A[5]), "r"(A[6]), "r"(A[7]),
          "r"(B[0]), "r"(B[1]), "r"(B[2]), "r"(B[3]), "r"(B[4]), "r"(B[5]), "r"(B[6]), "r"(B[7]));
    asm("sub.cc.u32 %0, %9, %17;\n\t"
        "subc.cc.u32 %1, %10, %18;\n\tsubc.cc.u32 %2, %11, %19;\n\tsubc.cc.u32 %3, %12, %20;\n\t"
        "subc.cc.u32 %4, %13, %21;\n\tsubc.cc.u32 %5, %14, %22;\n\tsubc.cc.u32 %6, %15, %23;\n\t"
        "subc.cc.u32 %7, %16, %24;\n\tsubc.u32 %8, 0, 0;"
        : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3]), "=r"(D[4]), "=r"(D[5]), "=r"(D[6]), "=r"(D[7]), "=r"(D[8])
        : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(A[4]), "r"(A[5]), "r"(A[6]), "r"(A[7]),
          "r"(B[0]), "r"(B[1]), "r"(B[2]), "r"(B[3]), "r"(B[4]), "r"(B[5]), "r"(B[6]), "r"(B[7]));
    /* 128x128 -> 256 schoolbook product of the low 4 limbs, row by row with mad.lo.cc / madc.hi */
    unsigned r[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < 4; j++) {
        unsigned bj = B[j], c = 0;
        for (int k = 0; k < 4; k++) {
            unsigned lo, hi;
            asm("mad.lo.cc.u32 %0, %2, %3, %4;\n\tmadc.hi.u32 %1, %2, %3, 0;" : "=r"(lo), "=r"(hi) : "r"(A[k]), "r"(bj), "r"(r[j + k]));
            asm("add.cc.u32 %0, %0, %2;\n\taddc.u32 %1, %1, 0;" : "+r"(lo), "+r"(hi) : "r"(c));
            r[j + k] = lo; c = hi;
        }
        r[j + 4] = c;
    }
    for (int k = 0; k < 8; k++) prod[i * 8 + k] = r[k];
    unsigned __int128 X = x[i], Y = y[i] | 1;
    o128[i * 5 + 0] = X * Y;
    o128[i * 5 + 1] = X + Y;
    o128[i * 5 + 2] = (X << (i & 127)) ^ (Y >> ((i * 7) & 127));
    o128[i * 5 + 3] = X / (Y >> 64 | 1);
    o128[i * 5 + 4] = X % (Y >> 70 | 3);
}

int main(void)
{
    static unsigned a[N * 8], b[N * 8], s[N * 9], d[N * 9], p[N * 8]; static unsigned __int128 x[N], y[N], o[N * 5];
    for (int i = 0; i < N * 8; i++) { a[i] = k_rand32(); b[i] = k_rand32(); }
    for (int k = 0; k < 8; k++) { a[k] = 0xffffffffu; b[k] = k == 0 ? 1 : 0; a[8 + k] = 0; b[8 + k] = k == 0 ? 1 : 0; }  /* full ripple */
    for (int i = 0; i < N; i++) { x[i] = ((unsigned __int128)k_rand64() << 64) | k_rand64(); y[i] = ((unsigned __int128)k_rand64() << 64) | k_rand64(); }
    unsigned *da, *db, *ds, *dd, *dp; unsigned __int128 *dx, *dy, *dout;
    CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b)); CK(cudaMalloc(&ds, sizeof s)); CK(cudaMalloc(&dd, sizeof d));
    CK(cudaMalloc(&dp, sizeof p)); CK(cudaMalloc(&dx, sizeof x)); CK(cudaMalloc(&dy, sizeof y)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
    carry<<<N / 64, 64>>>(da, db, ds, dd, dp, dx, dy, dout, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(s, ds, sizeof s, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(p, dp, sizeof p, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const unsigned *A = a + i * 8, *B = b + i * 8;
        unsigned long long c = 0; long long br = 0;
        for (int k = 0; k <= 8; k++) {
            unsigned es, ed;
            if (k < 8) { unsigned long long t = (unsigned long long)A[k] + B[k] + c; es = (unsigned)t; c = t >> 32;
                         long long u = (long long)A[k] - B[k] - br; ed = (unsigned)u; br = u < 0; }
            else { es = (unsigned)c; ed = br ? 0xffffffffu : 0; }   /* subc 0 - 0 - borrow */
            if (s[i * 9 + k] != es && bad++ < 10) CHECK_MSG(0, "sum %d limb %d: %08x vs %08x", i, k, s[i * 9 + k], es);
            if (d[i * 9 + k] != ed && bad++ < 10) CHECK_MSG(0, "diff %d limb %d: %08x vs %08x", i, k, d[i * 9 + k], ed);
        }
        unsigned long long r[8] = {0};
        for (int j = 0; j < 4; j++) { unsigned long long cc = 0; for (int k = 0; k < 4; k++) { unsigned long long t = (unsigned long long)A[k] * B[j] + r[j + k] + cc; r[j + k] = (unsigned)t; cc = t >> 32; } r[j + 4] = cc; }
        for (int k = 0; k < 8; k++) if (p[i * 8 + k] != (unsigned)r[k] && bad++ < 10) CHECK_MSG(0, "prod %d limb %d", i, k);
        unsigned __int128 X = x[i], Y = y[i] | 1;
        unsigned __int128 e[5] = {X * Y, X + Y, (X << (i & 127)) ^ (Y >> ((i * 7) & 127)), X / (Y >> 64 | 1), X % (Y >> 70 | 3)};
        for (int k = 0; k < 5; k++) if (o[i * 5 + k] != e[k] && bad++ < 10) CHECK_MSG(0, "int128 %d op %d", i, k);
    }
    CHECK_EQ(s[8], 1u); CHECK_EQ(s[0], 0u);      /* 2^256-1 + 1 ripples into the carry limb */
    CHECK_EQ(d[9 + 8], 0xffffffffu);              /* 0 - 1 borrows out */
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
