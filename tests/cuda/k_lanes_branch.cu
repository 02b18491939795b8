// k_lanes_branch.cu - branches on compares of scalar-affine values, which the lane-group copy
// decides from lanes 0 and 15 when neither side wraps between them (ptx_emit.c
// emit_lane_sa_branch), each case against a host computation, for block sizes that run as lane
// groups (multiples of 16) and one that does not:
//  1. grid-stride loops, forward (64-bit index) and backward (signed 32-bit index down to 0),
//     with trip counts that end inside a lane group;
//  2. compares of values that wrap inside a group while lanes 0 and 15 agree: u32 / s32 / u64 /
//     s64, start + tid * k with the compare true at both ends and false in between (or the
//     reverse), so a test of the two ends alone would be wrong;
//  3. the same compare whose predicate is also stored (two uses: the lane loop stays).
#include "check.h"
#include "k_util.h"

#include <stdint.h>

__global__ void k_loop_fwd(const float *a, float *out, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
        out[i] = a[i] * 3.0f - 1.0f;
}

__global__ void k_loop_rev(const int *a, int *out, int n)
{
    int stride = blockDim.x * gridDim.x;
    for (int i = n - 1 - (int)(blockIdx.x * blockDim.x + threadIdx.x); i >= 0; i -= stride)
        out[i] = a[i] * 5 + i;
}

// v = start + tid * k; counts the steps v += step (at most iters) while v compares with bound:
// the loop test right after the setp is a branch on the scalar-affine v
template <typename T, int GT>
__global__ void k_wrap(int *out, T start, T k, T bound, T step, int iters)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    T v = start + (T)t * k;
    int c = 0;
    while (GT ? v > bound : v < bound) {                  // one compare: GT is a template argument
        v += step;
        if (++c == iters) break;
    }
    out[t] = c;
}

// the predicate is read twice: by the branch and by the store of the flag
__global__ void k_two_uses(int *out, int *flag, long long start, long long k, long long bound, int reps)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = start + (long long)t * k;
    bool p = v < bound;
    int acc = 7;
    if (p) {
        acc = 0;
        for (int j = 0; j < reps; j++) acc += (int)(v >> j) & 3;
    }
    out[t] = acc;
    flag[t] = p;
}

template <typename T>
static int host_wrap(unsigned t, T start, T k, T bound, T step, int iters, int gt)
{
    T v = (T)(start + (T)t * k);
    int c = 0;
    while (gt ? v > bound : v < bound) {
        v = (T)(v + step);
        if (++c == iters) break;
    }
    return c;
}

template <typename T>
static void check_wrap(const char *what, unsigned bs, unsigned nthreads, T start, T k, T bound, int gt, int *d, int *h)
{
    const T step = (T)3;
    const int iters = 4;
    if (gt) k_wrap<T, 1><<<nthreads / bs, bs>>>(d, start, k, bound, step, iters);
    else k_wrap<T, 0><<<nthreads / bs, bs>>>(d, start, k, bound, step, iters);
    k_sync_ok(what);
    k_get(h, d, nthreads);
    int bad = 0, taken = 0;
    for (unsigned t = 0; t < nthreads; t++) {
        int w = host_wrap<T>(t, start, k, bound, step, iters, gt);
        taken += w != 0;
        if (h[t] != w && bad++ < 3)
            fprintf(stderr, "%s block %u thread %u: %d, host %d\n", what, bs, t, h[t], w);
    }
    CHECK_MSG(bad == 0, "%s (start %llx, k %llx, bound %llx, %s), block %u: %d wrong", what,
              (unsigned long long)start, (unsigned long long)k, (unsigned long long)bound, gt ? ">" : "<", bs, bad);
    CHECK_MSG(taken > 0 && taken < (int)nthreads, "%s: both sides taken (%d of %u)", what, taken, nthreads);
}


int main()
{
    const long long m = 3001;
    float *ha = k_hnew<float>(m), *ho = k_hnew<float>(m);
    for (long long i = 0; i < m; i++) ha[i] = (float)(i % 53) - 20.0f;
    float *da = k_dup(ha, m), *dout = k_dnew<float>(m);
    int *hi = k_hnew<int>(m), *hoi = k_hnew<int>(m);
    for (long long i = 0; i < m; i++) hi[i] = (int)(i * 7 % 101) - 50;
    int *dai = k_dup(hi, m), *douti = k_dnew<int>(m);
    static const long long ns[] = {1, 15, 17, 1000, 3001};
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++)
        for (int grid = 1; grid <= 7; grid += 3)
            for (unsigned x = 0; x < sizeof ns / sizeof ns[0]; x++) {
                unsigned bs = K_LANE_BLOCKS[b];
                long long n = ns[x];
                CK(cudaMemset(dout, 0, m * sizeof(float)));
                CK(cudaMemset(douti, 0, m * sizeof(int)));
                k_loop_fwd<<<grid, bs>>>(da, dout, n);
                k_loop_rev<<<grid, bs>>>(dai, douti, (int)n);
                k_sync_ok("k_loop_fwd / k_loop_rev");
                k_get(ho, dout, m);
                k_get(hoi, douti, m);
                int bad = 0;
                for (long long i = 0; i < m; i++) {
                    bad += ho[i] != (i < n ? ha[i] * 3.0f - 1.0f : 0.0f);
                    bad += hoi[i] != (i < n ? hi[i] * 5 + (int)i : 0);
                }
                CHECK_MSG(bad == 0, "grid-stride loops, block %u grid %d n %lld: %d wrong", bs, grid, n, bad);
            }

    const unsigned nt = 3840;   // a multiple of every block size above
    int *h = k_hnew<int>(nt), *d = k_dnew<int>(nt), *hf = k_hnew<int>(nt), *df = k_dnew<int>(nt);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b];
        // u32: 0xfffffff8 + t wraps to 0..7 at lane 8; lanes 0 and 15 (0xfffffff8, 7) are both > 5
        check_wrap<unsigned>("u32 wrap", bs, nt, 0xfffffff8u, 1u, 5u, 1, d, h);
        check_wrap<unsigned>("u32 plain", bs, nt, 100u, 3u, 4000u, 0, d, h);
        // s32: 1 + t * 0x12000000: lanes 0 and 15 positive, lanes 8..14 negative
        check_wrap<int>("s32 wrap", bs, nt, 1, 0x12000000, 0, 1, d, h);
        check_wrap<int>("s32 descending", bs, nt, 5000, -3, 1234, 0, d, h);
        // u64 and s64, the same shapes
        check_wrap<unsigned long long>("u64 wrap", bs, nt, 0xfffffffffffffff8ull, 1ull, 5ull, 1, d, h);
        check_wrap<long long>("s64 wrap", bs, nt, 1ll, 0x1200000000000000ll, 0ll, 1, d, h);
        check_wrap<long long>("s64 plain", bs, nt, -1000000000000ll, 777777777ll, -999000000000ll, 0, d, h);

        k_two_uses<<<nt / bs, bs>>>(d, df, 0, 1, 1000, 4);
        k_sync_ok("k_two_uses");
        k_get(h, d, nt);
        k_get(hf, df, nt);
        int bad = 0;
        for (unsigned t = 0; t < nt; t++) {
            long long v = t;
            int acc = 7;
            if (v < 1000) { acc = 0; for (int j = 0; j < 4; j++) acc += (int)(v >> j) & 3; }
            bad += h[t] != acc || hf[t] != (v < 1000);
        }
        CHECK_MSG(bad == 0, "predicate with two uses, block %u: %d wrong", bs, bad);
    }
    cudaFree(da); cudaFree(dout); cudaFree(dai); cudaFree(douti); cudaFree(d); cudaFree(df);
    free(ha); free(ho); free(hi); free(hoi); free(h); free(hf);
    return CHECK_DONE();
}
