// Integer arithmetic in 32 and 64 bits: add/sub/mul/mad (wrapping, done unsigned), mul.hi
// (__mulhi/__umulhi/__mul64hi/__umul64hi), mul.wide, div/rem with negative operands,
// min/max (signed and unsigned), abs, logic and shifts, mad.wide, __mul24/__umul24, __sad/__usad,
// __rhadd/__uhadd. Host reference in plain C++.
#include "k_util.h"
#include <limits.h>

#define N 512
#define K32 20
#define K64 16

__global__ void int32_ops(const int *a, const int *b, const int *c, int *o, long long *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i];
    unsigned ux = (unsigned)x, uy = (unsigned)y, uz = (unsigned)z;
    int *r = o + i * K32;
    r[0] = (int)(ux + uy);
    r[1] = (int)(ux - uy);
    r[2] = (int)(ux * uy);
    r[3] = (int)(ux * uy + uz);                      /* mad.lo */
    r[4] = __mulhi(x, y);
    r[5] = (int)__umulhi(ux, uy);
    r[6] = (y != 0 && !(x == INT_MIN && y == -1)) ? x / y : 0;
    r[7] = (y != 0 && !(x == INT_MIN && y == -1)) ? x % y : 0;
    r[8] = uy != 0 ? (int)(ux / uy) : 0;
    r[9] = uy != 0 ? (int)(ux % uy) : 0;
    r[10] = min(x, y);
    r[11] = max(x, y);
    r[12] = (int)min(ux, uy);
    r[13] = (int)max(ux, uy);
    r[14] = x == INT_MIN ? 0 : abs(x);
    r[15] = (x & y) ^ (~z | x);
    r[16] = (int)(ux << (uy & 31));
    r[17] = x >> (uy & 31);                         /* arithmetic */
    r[18] = (int)(ux >> (uy & 31));                 /* logical */
    r[19] = (int)((ux << 7) | (ux >> 25));          /* rotate */
    w[2 * i] = (long long)x * y;                    /* mul.wide.s32 */
    w[2 * i + 1] = (long long)((unsigned long long)ux * uy); /* mul.wide.u32 */
}

__global__ void int64_ops(const long long *a, const long long *b, long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    long long *r = o + i * K64;
    r[0] = (long long)(ux + uy);
    r[1] = (long long)(ux - uy);
    r[2] = (long long)(ux * uy);
    r[3] = __mul64hi(x, y);
    r[4] = (long long)__umul64hi(ux, uy);
    r[5] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? x / y : 0;
    r[6] = (y != 0 && !(x == LLONG_MIN && y == -1)) ? x % y : 0;
    r[7] = uy != 0 ? (long long)(ux / uy) : 0;
    r[8] = uy != 0 ? (long long)(ux % uy) : 0;
    r[9] = llmin(x, y);
    r[10] = llmax(x, y);
    r[11] = (long long)ullmin(ux, uy);
    r[12] = (long long)ullmax(ux, uy);
    r[13] = x == LLONG_MIN ? 0 : llabs(x);
    r[14] = (long long)((ux << (uy & 63)) ^ (ux >> ((uy >> 8) & 63)));
    r[15] = (x >> (uy & 63)) | (x & ~y);
}

/* Instructions the optimiser may otherwise rewrite (min/max/abs into setp+selp, mul.wide into
   cvt + mul.lo.s64) are spelled out in inline PTX; plus the 24-bit and averaging intrinsics. */
#define KX 14
__global__ void int32_explicit(const int *a, const int *b, const int *c, long long *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i], z = c[i], r; unsigned u; long long w;
    long long *q = o + i * KX;
    asm("min.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); q[0] = r;
    asm("max.s32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y)); q[1] = r;
    asm("min.u32 %0, %1, %2;" : "=r"(u) : "r"(x), "r"(y)); q[2] = u;
    asm("max.u32 %0, %1, %2;" : "=r"(u) : "r"(x), "r"(y)); q[3] = u;
    asm("abs.s32 %0, %1;" : "=r"(r) : "r"(x)); q[4] = r;                     /* abs(INT_MIN) = INT_MIN */
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(w) : "r"(x), "r"(y)); q[5] = w;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(x), "r"(y)); q[6] = w;
    asm("mad.wide.s32 %0, %1, %2, %3;" : "=l"(w) : "r"(x), "r"(y), "l"((long long)z)); q[7] = w;
    q[8] = __mul24(x, y);               /* low 32 bits of the 48-bit product of the low 24 bits */
    q[9] = __umul24((unsigned)x, (unsigned)y);
    q[10] = __sad(x, y, (unsigned)z);   /* |x - y| + z */
    q[11] = __usad((unsigned)x, (unsigned)y, (unsigned)z);
    q[12] = __rhadd(x, y);              /* (x + y + 1) >> 1 without overflow */
    q[13] = __uhadd((unsigned)x, (unsigned)y);
}

static long long h_s24(int v) { return (long long)((int)((unsigned)v << 8) >> 8); }
static long long h_u24(int v) { return (long long)((unsigned)v & 0xffffff); }

static int h_mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static unsigned h_umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }

int main(void)
{
    static int a[N], b[N], c[N], o[N * K32];
    static long long w[2 * N], la[N], lb[N], lo[N * K64];
    const int edge[] = {0, 1, -1, 2, -2, 7, -7, INT_MAX, INT_MIN, 3, -3, 100, -100, 65536, -65536, 31, 32};
    const int ne = sizeof edge / sizeof edge[0];
    for (int i = 0; i < N; i++) {
        if (i < ne * ne) { a[i] = edge[i / ne]; b[i] = edge[i % ne]; }
        else { a[i] = (int)k_rand32(); b[i] = (i & 1) ? (int)k_rand32() : (int)(k_rand32() % 200) - 100; }
        c[i] = (int)k_rand32();
        la[i] = (i < ne * ne) ? (long long)edge[i / ne] * ((i & 2) ? 1 : 0x100000001ll) : (long long)k_rand64();
        lb[i] = (i < ne * ne) ? (long long)edge[i % ne] : ((i & 1) ? (long long)k_rand64() : (long long)(k_rand64() % 2000) - 1000);
    }
    la[0] = LLONG_MIN; lb[0] = -1; la[1] = LLONG_MIN; lb[1] = 3; la[2] = LLONG_MAX; lb[2] = -2;
    int *da, *db, *dc, *dout; long long *dw, *dla, *dlb, *dlo;
    CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b)); CK(cudaMalloc(&dc, sizeof c));
    CK(cudaMalloc(&dout, sizeof o)); CK(cudaMalloc(&dw, sizeof w));
    CK(cudaMalloc(&dla, sizeof la)); CK(cudaMalloc(&dlb, sizeof lb)); CK(cudaMalloc(&dlo, sizeof lo));
    CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dla, la, sizeof la, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dlb, lb, sizeof lb, cudaMemcpyHostToDevice));
    int32_ops<<<(N + 127) / 128, 128>>>(da, db, dc, dout, dw, N);
    CK(cudaGetLastError());
    int64_ops<<<(N + 63) / 64, 64>>>(dla, dlb, dlo, N);
    CK(cudaGetLastError());
    static long long xo[N * KX]; long long *dxo;
    CK(cudaMalloc(&dxo, sizeof xo));
    int32_explicit<<<(N + 127) / 128, 128>>>(da, db, dc, dxo, N);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(xo, dxo, sizeof xo, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(w, dw, sizeof w, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lo, dlo, sizeof lo, cudaMemcpyDeviceToHost));

    int bad = 0;
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i], z = c[i];
        unsigned ux = x, uy = y, uz = z;
        int ok_div = y != 0 && !(x == INT_MIN && y == -1);
        int e[K32] = {
            (int)(ux + uy), (int)(ux - uy), (int)(ux * uy), (int)(ux * uy + uz), h_mulhi(x, y),
            (int)h_umulhi(ux, uy), ok_div ? x / y : 0, ok_div ? x % y : 0,
            uy ? (int)(ux / uy) : 0, uy ? (int)(ux % uy) : 0, x < y ? x : y, x > y ? x : y,
            (int)(ux < uy ? ux : uy), (int)(ux > uy ? ux : uy), x == INT_MIN ? 0 : (x < 0 ? -x : x),
            (x & y) ^ (~z | x), (int)(ux << (uy & 31)), x >> (uy & 31), (int)(ux >> (uy & 31)),
            (int)((ux << 7) | (ux >> 25)) };
        for (int k = 0; k < K32; k++)
            if (o[i * K32 + k] != e[k] && bad++ < 20)
                CHECK_MSG(0, "int32 op %d on (%d,%d,%d): got %d want %d", k, x, y, z, o[i * K32 + k], e[k]);
        if (w[2 * i] != (long long)x * y && bad++ < 20) CHECK_MSG(0, "mul.wide.s32 %d*%d", x, y);
        if (w[2 * i + 1] != (long long)((unsigned long long)ux * uy) && bad++ < 20) CHECK_MSG(0, "mul.wide.u32 %u*%u", ux, uy);

        long long X = la[i], Y = lb[i];
        unsigned long long UX = X, UY = Y;
        int ok = Y != 0 && !(X == LLONG_MIN && Y == -1);
        long long f[K64] = {
            (long long)(UX + UY), (long long)(UX - UY), (long long)(UX * UY),
            (long long)(((__int128)X * Y) >> 64), (long long)(((unsigned __int128)UX * UY) >> 64),
            ok ? X / Y : 0, ok ? X % Y : 0, UY ? (long long)(UX / UY) : 0, UY ? (long long)(UX % UY) : 0,
            X < Y ? X : Y, X > Y ? X : Y, (long long)(UX < UY ? UX : UY), (long long)(UX > UY ? UX : UY),
            X == LLONG_MIN ? 0 : (X < 0 ? -X : X),
            (long long)((UX << (UY & 63)) ^ (UX >> ((UY >> 8) & 63))), (X >> (UY & 63)) | (X & ~Y) };
        for (int k = 0; k < K64; k++)
            if (lo[i * K64 + k] != f[k] && bad++ < 20)
                CHECK_MSG(0, "int64 op %d on (%lld,%lld): got %lld want %lld", k, X, Y, lo[i * K64 + k], f[k]);
    }
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i], z = c[i]; unsigned ux = x, uy = y, uz = z;
        long long sad = (long long)x - y; if (sad < 0) sad = -sad;
        long long e[KX] = {x < y ? x : y, x > y ? x : y, (long long)(ux < uy ? ux : uy), (long long)(ux > uy ? ux : uy),
                           x == INT_MIN ? (long long)INT_MIN : (x < 0 ? -(long long)x : x), (long long)x * y,
                           (long long)((unsigned long long)ux * uy), (long long)x * y + z,
                           (long long)(int)(unsigned)(h_s24(x) * h_s24(y)), (long long)(unsigned)(h_u24(x) * h_u24(y)),
                           (long long)(unsigned)(sad + uz), (long long)(unsigned)((ux > uy ? ux - uy : uy - ux) + uz),
                           (long long)(int)(((long long)x + y + 1) >> 1), (long long)(unsigned)(((unsigned long long)ux + uy) >> 1)};
        for (int k = 0; k < KX; k++)
            if (xo[i * KX + k] != e[k] && bad++ < 20)
                CHECK_MSG(0, "explicit op %d on (%d,%d,%d): got %lld want %lld", k, x, y, z, xo[i * KX + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    /* spot checks written out by hand: C semantics of negative division */
    CHECK_EQ(-7 / 2, -3); CHECK_EQ(-7 % 2, -1);
    return CHECK_DONE();
}
