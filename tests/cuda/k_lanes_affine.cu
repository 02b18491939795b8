// k_lanes_affine.cu - index arithmetic that the lane-group copy keeps as scalar-affine registers
// (lane l = lane 0's value + l * stride, ptx_emit.c lane_mark_sa), each case against a host
// computation, for block sizes that run as lane groups (multiples of 16) and one that does not:
//  1. storing affine values themselves (out[i] = i * k + c, 32- and 64-bit): the value array is
//     never materialised, so a store must not copy the lane array;
//  2. grid-stride loops with 64-bit offsets made by sign-extending 32-bit products (CuPy's
//     elementwise indexing: (i * stride) << 32 >> 32);
//  3. affine registers live across __syncthreads (phase mode saves and restores them);
//  4. an affine register defined under a uniform predicate, and one defined in a divergent
//     branch (that group continues per thread with the registers of its lanes);
//  5. right shifts and widenings of affine values that wrap or round between lanes (the
//     affinity check fails and the group continues per thread);
//  6. affine values feeding per-lane arithmetic and compares in the same fused loop;
//  8. block-invariant values (parameters, ctaid/ntid/nctaid arithmetic) that the lane copy
//     computes once per block, next to a uniform value with two definitions and an invariant
//     defined inside a divergent loop;
//  7. loads whose stride is known only at run time and is not the element size (a strided
//     view: the group leaves the lane copy at the load), also bytes and halves widened to 32
//     bits.
#include "check.h"
#include "k_util.h"

#include <stdint.h>


__global__ void k_store_affine(int *out32, long long *out64, int n, int k, int c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out32[i] = i * k + c;                                   // the affine value itself
    out64[i] = (long long)i * 3 - 7 + (long long)k * 1000000007ll;
}

// CuPy-like: for (ptrdiff_t i = tid; i < n; i += stride) with int offsets sign-extended
__global__ void k_grid_stride(const float *a, const float *b, float *out, long long n, int sa, int sb)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
        int ia = (int)(i * sa), ib = (int)(i * sb);         // 32-bit products, widened
        out[i] = a[ia] * 2.0f + b[ib];
    }
}

__global__ void k_across_barrier(const int *in, int *out, int n)
{
    __shared__ int tile[256];
    int t = threadIdx.x;
    long long g = blockIdx.x * (long long)blockDim.x + t;   // live across the barriers
    int idx = t * 3 + 1;
    tile[t] = g < n ? in[g] : 0;
    __syncthreads();
    int r = tile[(t + 1) % blockDim.x] + idx;
    __syncthreads();
    tile[t] = r;
    __syncthreads();
    if (g < n) out[g] = tile[blockDim.x - 1 - t] + (int)(g * 5) - idx;
}

__global__ void k_pred_and_diverge(const int *in, int *out, int n, int flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int j = i * 2;
    if (flag) j = i * 4 + 1;                                // uniform guard
    int v = in[i];
    int k = i + 100;
    if (v & 1) {                                            // divergent: per thread from here
        k = i * 7 - v;
        j += k;
    }
    out[(size_t)i * 2] = j;
    out[(size_t)i * 2 + 1] = k;
}

__global__ void k_shifts(int *out, int n, unsigned base, int step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned u = base + (unsigned)i * (unsigned)step;       // wraps within some groups
    long long w = (long long)(int)u;                        // widening of a wrapping value
    out[(size_t)i * 4 + 0] = (int)(u >> 5);                 // rounding steps
    out[(size_t)i * 4 + 1] = (int)(w >> 3);
    out[(size_t)i * 4 + 2] = (int)((unsigned long long)(unsigned)u * 3ull >> 1);
    out[(size_t)i * 4 + 3] = (int)((int)u >> 2) + i;
}

__global__ void k_mixed(const float *x, float *out, int n, int lim)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long off = (long long)i * 4 + 2;
    float v = x[i];
    out[i] = (off > lim ? v : -v) + (float)(off & 7) + (float)(i % 5);
}

__global__ void k_strided_loads(const unsigned char *b, const short *h, const float *f, float *out, int n, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long j = (long long)i * s;
    out[i] = (float)b[j] * 0.5f + (float)h[j] + f[j] * (b[j] & 1 ? 2.0f : 1.0f);
}

__global__ void k_hoist(const int *in, int *out, int n, int a, int b, int flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int acc = 0;
    for (int k = 0; k < (v & 3); k++) {                     // per-thread trip count
        int s = a * (int)blockIdx.x + b;                    // invariant, inside the loop
        acc += s ^ k;
    }
    int t;
    if (flag) t = a * 3; else t = b - 1;                    // uniform, two definitions
    long long big = (long long)a * gridDim.x * blockDim.x + b;
    out[i] = acc + t * (int)gridDim.x + (int)blockDim.x + (int)(big >> 3);
}


int main()
{
    const int n = 3001;
    int *h32 = k_hnew<int>(n), *d32 = k_dnew<int>(n);
    long long *h64 = k_hnew<long long>(n), *d64 = k_dnew<long long>(n);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b];
        k_store_affine<<<(n + bs - 1) / bs, bs>>>(d32, d64, n, 7, -3);
        k_sync_ok("k_store_affine");
        k_get(h32, d32, n);
        k_get(h64, d64, n);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += h32[i] != i * 7 - 3 || h64[i] != (long long)i * 3 - 7 + 7ll * 1000000007ll;
        CHECK_MSG(bad == 0, "store of affine values, block %u: %d wrong", bs, bad);
    }

    const long long m = 5000;
    float *ha = k_hnew<float>(3 * m), *hb = k_hnew<float>(2 * m), *ho = k_hnew<float>(m);
    for (long long i = 0; i < 3 * m; i++) ha[i] = (float)(i % 97) - 40.0f;
    for (long long i = 0; i < 2 * m; i++) hb[i] = (float)(i % 31) * 0.5f;
    float *da = k_dup(ha, 3 * m), *db = k_dup(hb, 2 * m), *dout = k_dnew<float>(m);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b];
        for (int grid = 1; grid <= 7; grid += 3) {
            k_grid_stride<<<grid, bs>>>(da, db, dout, m, 3, 2);
            k_sync_ok("k_grid_stride");
            k_get(ho, dout, m);
            int bad = 0;
            for (long long i = 0; i < m; i++) bad += ho[i] != ha[i * 3] * 2.0f + hb[i * 2];
            CHECK_MSG(bad == 0, "grid-stride, block %u grid %d: %d wrong", bs, grid, bad);
        }
    }

    int *hin = k_hnew<int>(n), *hout = k_hnew<int>(2 * n);
    for (int i = 0; i < n; i++) hin[i] = (i * 37) % 101 - 50;
    int *din = k_dup(hin, n), *dout2 = k_dnew<int>(2 * n);
    for (unsigned b = 0; b < 3; b++) {                        // 16, 128, 256 (the tile size)
        unsigned bs = K_LANE_BLOCKS[b];
        k_across_barrier<<<(n + bs - 1) / bs, bs>>>(din, dout2, n);
        k_sync_ok("k_across_barrier");
        k_get(hout, dout2, n);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            int blk = i / (int)bs, t = i % (int)bs, tt = (int)bs - 1 - t;   // the thread whose r we read
            int nb = (tt + 1) % (int)bs;
            long long gn = (long long)blk * bs + nb;
            int r = (gn < n ? hin[gn] : 0) + tt * 3 + 1;
            bad += hout[i] != r + (int)((long long)i * 5) - (t * 3 + 1);
        }
        CHECK_MSG(bad == 0, "affine registers across barriers, block %u: %d wrong", bs, bad);
    }

    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b];
        for (int flag = 0; flag < 2; flag++) {
            k_pred_and_diverge<<<(n + bs - 1) / bs, bs>>>(din, dout2, n, flag);
            k_sync_ok("k_pred_and_diverge");
            k_get(hout, dout2, 2 * n);
            int bad = 0;
            for (int i = 0; i < n; i++) {
                int j = flag ? i * 4 + 1 : i * 2, k = i + 100;
                if (hin[i] & 1) { k = i * 7 - hin[i]; j += k; }
                bad += hout[2 * i] != j || hout[2 * i + 1] != k;
            }
            CHECK_MSG(bad == 0, "uniform guard / divergent definition, block %u flag %d: %d wrong", bs, flag, bad);
        }
    }

    int *hs = k_hnew<int>(4 * n), *ds = k_dnew<int>(4 * n);
    static const unsigned bases[] = {0u, 0x7ffffff0u, 0xfffffff0u, 12345u};
    static const int steps[] = {1, 3, -5, 0x10000001, 64};
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++)
        for (int x = 0; x < 4; x++)
            for (int y = 0; y < 5; y++) {
                unsigned bs = K_LANE_BLOCKS[b];
                k_shifts<<<(n + bs - 1) / bs, bs>>>(ds, n, bases[x], steps[y]);
                k_sync_ok("k_shifts");
                k_get(hs, ds, 4 * n);
                int bad = 0;
                for (int i = 0; i < n; i++) {
                    unsigned u = bases[x] + (unsigned)i * (unsigned)steps[y];
                    long long w = (long long)(int)u;
                    bad += hs[4 * i] != (int)(u >> 5) || hs[4 * i + 1] != (int)(w >> 3) ||
                           hs[4 * i + 2] != (int)((unsigned long long)u * 3ull >> 1) || hs[4 * i + 3] != ((int)u >> 2) + i;
                }
                CHECK_MSG(bad == 0, "shifts/widenings of wrapping affine values, block %u base %08x step %d: %d wrong",
                          bs, bases[x], steps[y], bad);
            }

    float *hx = k_hnew<float>(n), *hy = k_hnew<float>(n);
    for (int i = 0; i < n; i++) hx[i] = (float)(i % 13) - 6.0f;
    float *dx = k_dup(hx, n), *dy = k_dnew<float>(n);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b];
        k_mixed<<<(n + bs - 1) / bs, bs>>>(dx, dy, n, 5000);
        k_sync_ok("k_mixed");
        k_get(hy, dy, n);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            long long off = (long long)i * 4 + 2;
            bad += hy[i] != (off > 5000 ? hx[i] : -hx[i]) + (float)(off & 7) + (float)(i % 5);
        }
        CHECK_MSG(bad == 0, "affine values in fused per-lane statements, block %u: %d wrong", bs, bad);
    }
    for (unsigned bi = 0; bi < K_NLANE_BLOCKS; bi++)
        for (int flag = 0; flag < 2; flag++) {
            unsigned bs = K_LANE_BLOCKS[bi];
            unsigned nblk = (n + bs - 1) / bs;
            int a = 1000003 + flag, bb = -77 * (flag + 1);
            k_hoist<<<nblk, bs>>>(din, dout2, n, a, bb, flag);
            k_sync_ok("k_hoist");
            k_get(hout, dout2, n);
            int bad = 0;
            for (int i = 0; i < n; i++) {
                int acc = 0, blk = i / (int)bs;
                for (int k = 0; k < (hin[i] & 3); k++) acc += (int)((unsigned)a * (unsigned)blk + (unsigned)bb) ^ k;
                int t = flag ? a * 3 : bb - 1;
                long long big = (long long)a * nblk * bs + bb;
                bad += hout[i] != (int)((unsigned)acc + (unsigned)t * nblk + bs + (unsigned)(int)(big >> 3));
            }
            CHECK_MSG(bad == 0, "block-invariant values, block %u flag %d: %d wrong", bs, flag, bad);
        }
    for (int str = 1; str <= 3; str++) {
        int m2 = n * str;
        unsigned char *hb8 = k_hnew<unsigned char>(m2);
        short *hh = k_hnew<short>(m2);
        float *hf = k_hnew<float>(m2), *hr = k_hnew<float>(n);
        for (int i = 0; i < m2; i++) { hb8[i] = (unsigned char)(i * 7); hh[i] = (short)(i * 13 - 500); hf[i] = (float)(i % 11) - 5.0f; }
        unsigned char *db8 = k_dup(hb8, m2);
        short *dh = k_dup(hh, m2);
        float *df = k_dup(hf, m2), *dr = k_dnew<float>(n);
        for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
            unsigned bs = K_LANE_BLOCKS[b];
            k_strided_loads<<<(n + bs - 1) / bs, bs>>>(db8, dh, df, dr, n, str);
            k_sync_ok("k_strided_loads");
            k_get(hr, dr, n);
            int bad = 0;
            for (int i = 0; i < n; i++) {
                long long j = (long long)i * str;
                bad += hr[i] != (float)hb8[j] * 0.5f + (float)hh[j] + hf[j] * (hb8[j] & 1 ? 2.0f : 1.0f);
            }
            CHECK_MSG(bad == 0, "loads with a run-time stride %d, block %u: %d wrong", str, bs, bad);
        }
        cudaFree(db8); cudaFree(dh); cudaFree(df); cudaFree(dr);
        free(hb8); free(hh); free(hf); free(hr);
    }
    return CHECK_DONE();
}
