// Bit manipulation: funnel shifts (shf.l/r wrap and clamp), bfe/bfi via inline PTX (signed and
// unsigned, positions/lengths past the word), __byte_perm and prmt with sign replication,
// __popc/__clz/__brev/__ffs in 32 and 64 bits, __dp4a signed and unsigned.
// Host reference: bit-by-bit loops written from the PTX ISA definitions.
#include "k_util.h"

#define N 600
#define K 24

__global__ void bits(const unsigned *a, const unsigned *b, const unsigned *c,
                     const unsigned long long *l, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], s = c[i];
    unsigned pos = s & 63, len = (s >> 8) & 63;     /* may run past bit 31 */
    unsigned long long L = l[i];
    unsigned *r = o + i * K;
    r[0] = __funnelshift_l(x, y, s);
    r[1] = __funnelshift_r(x, y, s);
    r[2] = __funnelshift_lc(x, y, s & 63);
    r[3] = __funnelshift_rc(x, y, s & 63);
    unsigned u; int sv;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(x), "r"(pos), "r"(len));
    r[4] = u;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(sv) : "r"((int)x), "r"(pos), "r"(len));
    r[5] = (unsigned)sv;
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(u) : "r"(x), "r"(y), "r"(pos), "r"(len));
    r[6] = u;
    r[7] = __byte_perm(x, y, s & 0x7777);
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(u) : "r"(x), "r"(y), "r"(s & 0xffff));
    r[8] = u;
    r[9] = __popc(x);
    r[10] = __popcll(L);
    r[11] = __clz(x);
    r[12] = __clzll(L);
    r[13] = __brev(x);
    unsigned long long rb = __brevll(L);
    r[14] = (unsigned)rb; r[15] = (unsigned)(rb >> 32);
    r[16] = __ffs(x);
    r[17] = __ffsll(L);
    r[18] = __dp4a((int)x, (int)y, (int)s);
    r[19] = __dp4a(x, y, s);
    unsigned long long v64;
    asm("bfe.u64 %0, %1, %2, %3;" : "=l"(v64) : "l"(L), "r"(pos), "r"(len));
    r[20] = (unsigned)v64; r[21] = (unsigned)(v64 >> 32);
    long long s64;
    asm("bfe.s64 %0, %1, %2, %3;" : "=l"(s64) : "l"((long long)L), "r"(pos), "r"(len));
    r[22] = (unsigned)s64; r[23] = (unsigned)((unsigned long long)s64 >> 32);
}

static unsigned long long h_bfe(unsigned long long a, unsigned pos, unsigned len, int msb, int sgn)
{
    unsigned long long d = 0;
    int sbit = 0;
    if (sgn && len != 0) { unsigned p = pos + len - 1; if (p > (unsigned)msb) p = msb; sbit = (a >> p) & 1; }
    for (int i = 0; i <= msb; i++) {
        int bit = ((unsigned)i < len && pos + i <= (unsigned)msb) ? (int)((a >> (pos + i)) & 1) : sbit;
        d |= (unsigned long long)bit << i;
    }
    return d;
}
static unsigned h_bfi(unsigned a, unsigned b, unsigned pos, unsigned len)
{
    unsigned f = b;
    for (unsigned i = 0; i < len && pos + i <= 31; i++) f = (f & ~(1u << (pos + i))) | (((a >> i) & 1u) << (pos + i));
    return f;
}
static unsigned h_prmt(unsigned x, unsigned y, unsigned s, int sign_mode)
{
    unsigned long long in = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int n = 0; n < 4; n++) {
        unsigned sel = (s >> (4 * n)) & 0xf;
        unsigned byte = (unsigned)(in >> (8 * (sel & 7))) & 0xff;
        if (sign_mode && (sel & 8)) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * n);
    }
    return r;
}
static int h_popc64(unsigned long long v) { int c = 0; while (v) { c += v & 1; v >>= 1; } return c; }
static int h_clz(unsigned long long v, int bits) { int c = 0; for (int i = bits - 1; i >= 0 && !((v >> i) & 1); i--) c++; return c; }
static unsigned long long h_brev(unsigned long long v, int bits) { unsigned long long r = 0; for (int i = 0; i < bits; i++) if ((v >> i) & 1) r |= 1ull << (bits - 1 - i); return r; }
static int h_ffs(unsigned long long v, int bits) { for (int i = 0; i < bits; i++) if ((v >> i) & 1) return i + 1; return 0; }

int main(void)
{
    static unsigned a[N], b[N], c[N], o[N * K]; static unsigned long long l[N];
    for (int i = 0; i < N; i++) {
        a[i] = k_rand32(); b[i] = k_rand32(); c[i] = k_rand32(); l[i] = k_rand64();
        if (i % 5 == 0) a[i] >>= (i % 32);
        if (i % 7 == 0) l[i] >>= (i % 64);
    }
    a[0] = 0; l[0] = 0; a[1] = 0xffffffffu; l[1] = ~0ull; a[2] = 0x80000000u; l[2] = 1ull << 63;
    c[3] = 32; c[4] = 33 | (40 << 8); c[5] = 0x1f | (0 << 8); c[6] = 0xffffffffu;
    unsigned *da, *db, *dc, *dout; unsigned long long *dl;
    CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b)); CK(cudaMalloc(&dc, sizeof c));
    CK(cudaMalloc(&dl, sizeof l)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dl, l, sizeof l, cudaMemcpyHostToDevice));
    bits<<<(N + 127) / 128, 128>>>(da, db, dc, dl, dout, N);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        unsigned x = a[i], y = b[i], s = c[i], pos = s & 63, len = (s >> 8) & 63;
        unsigned long long L = l[i], hl = ((unsigned long long)y << 32) | x;
        unsigned sc = (s & 63) > 32 ? 32 : (s & 63);
        int dps = 0; unsigned dpu = 0;
        for (int k = 0; k < 4; k++) {
            dps += (int)(int8_t)(x >> (8 * k)) * (int)(int8_t)(y >> (8 * k));
            dpu += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
        }
        unsigned long long rb = h_brev(L, 64), e64 = h_bfe(L, pos, len, 63, 0), s64 = h_bfe(L, pos, len, 63, 1);
        unsigned e[K] = {
            (unsigned)((hl << (s & 31)) >> 32), (unsigned)(hl >> (s & 31)),
            (unsigned)((hl << sc) >> 32), (unsigned)(hl >> sc),   /* clamp: shift 32 gives lo / hi */
            (unsigned)h_bfe(x, pos, len, 31, 0), (unsigned)h_bfe(x, pos, len, 31, 1), h_bfi(x, y, pos, len),
            h_prmt(x, y, s & 0x7777, 0), h_prmt(x, y, s & 0xffff, 1),
            (unsigned)h_popc64(x), (unsigned)h_popc64(L), (unsigned)h_clz(x, 32), (unsigned)h_clz(L, 64),
            (unsigned)h_brev(x, 32), (unsigned)rb, (unsigned)(rb >> 32), (unsigned)h_ffs(x, 32), (unsigned)h_ffs(L, 64),
            (unsigned)(dps + (int)s), dpu + s, (unsigned)e64, (unsigned)(e64 >> 32), (unsigned)s64, (unsigned)(s64 >> 32) };
        for (int k = 0; k < K; k++)
            if (o[i * K + k] != e[k] && bad++ < 25)
                CHECK_MSG(0, "op %d x=%08x y=%08x s=%08x L=%016llx: got %08x want %08x", k, x, y, s, L, o[i * K + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
