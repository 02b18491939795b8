// k_lanes_gather.cu - loads whose addresses the lane-group copy cannot predict (they come from
// loaded indices or division), each case against a host computation, for block sizes that run
// as lane groups (multiples of 16) and one that does not. The copy checks each group's 16
// addresses at run time: contiguous (one vector load), all equal (one load, broadcast: the
// row index of CuPy's take, idx[i / width]) or neither (a load per lane).
//  1. take along rows, out[i] = x[idx[i / w] * w + i % w], for widths that put 1, 2 or many
//     groups in a row (w = 8, 16, 32, 48): the idx load is uniform per group only for some;
//  2. the same with 8-bit, 16-bit and 64-bit elements and a double table;
//  3. a guarded broadcast load (only lanes with i % 3 != 0 load), and a table read at one
//     address by every thread of the block;
//  4. addresses that agree in all lanes but one (lane 15, or lane 0) or repeat with period 8
//     (lanes 0 and 8 agree): any shortcut in the "all equal" test loads wrong values.
#include "check.h"
#include "k_util.h"

#include <stdint.h>

template <typename T>
__global__ void k_take(const T *x, const long long *idx, T *out, int n, int w)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
        long long r = idx[i / w];                          // one address for a whole row
        out[i] = x[r * w + i % w];
    }
}

__global__ void k_guarded(const float *tab, const int *sel, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = -1.0f;
    if (i % 3 != 0) v = tab[sel[blockIdx.x]];           // the same address for the block's loaders
    out[i] = v + tab[(i / 64) % 7];
}

__global__ void k_pattern(const int *tab, const int *which, int *out, int n, int mode)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int l = i & 15, j = mode == 0 ? (l == 15) : mode == 1 ? (l == 0) : (i & 7);
    out[i] = tab[which[j]];                               // which[] hides the pattern from the compiler
}

template <typename T>
static int check_take(unsigned bs, int w, int rows, const char *what)
{
    const int src_rows = 97, n = rows * w;
    T *hx = k_hnew<T>((size_t)src_rows * w), *ho = k_hnew<T>(n);
    long long *hidx = k_hnew<long long>(rows);
    for (int i = 0; i < src_rows * w; i++) hx[i] = (T)((i * 37 + 11) % 251);
    for (int r = 0; r < rows; r++) hidx[r] = (r * 53 + 5) % src_rows;
    T *dx = k_dup(hx, (size_t)src_rows * w), *dout = k_dnew<T>(n);
    long long *didx = k_dup(hidx, rows);
    k_take<T><<<(n + bs - 1) / bs > 8 ? 8 : (n + bs - 1) / bs, bs>>>(dx, didx, dout, n, w);
    k_sync_ok(what);
    k_get(ho, dout, n);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += ho[i] != hx[hidx[i / w] * w + i % w];
    CHECK_MSG(bad == 0, "%s, block %u, width %d: %d wrong", what, bs, w, bad);
    cudaFree(dx); cudaFree(dout); cudaFree(didx);
    free(hx); free(ho); free(hidx);
    return bad;
}


int main()
{
    static const int widths[] = {8, 16, 32, 48, 5};
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++)
        for (unsigned x = 0; x < sizeof widths / sizeof widths[0]; x++) {
            check_take<float>(K_LANE_BLOCKS[b], widths[x], 211, "take f32");
            if (x == 2) {
                check_take<unsigned char>(K_LANE_BLOCKS[b], widths[x], 211, "take u8");
                check_take<short>(K_LANE_BLOCKS[b], widths[x], 211, "take s16");
                check_take<long long>(K_LANE_BLOCKS[b], widths[x], 211, "take s64");
                check_take<double>(K_LANE_BLOCKS[b], widths[x], 211, "take f64");
            }
        }

    const int n = 4000;
    float htab[7] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};
    float *dtab = k_dup(htab, 7), *dout = k_dnew<float>(n), *hout = k_hnew<float>(n);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++) {
        unsigned bs = K_LANE_BLOCKS[b], nblk = (n + bs - 1) / bs;
        int *hsel = k_hnew<int>(nblk);
        for (unsigned k = 0; k < nblk; k++) hsel[k] = (int)(k * 5 % 7);
        int *dsel = k_dup(hsel, nblk);
        k_guarded<<<nblk, bs>>>(dtab, dsel, dout, n);
        k_sync_ok("k_guarded");
        k_get(hout, dout, n);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            float v = i % 3 != 0 ? htab[hsel[i / bs]] : -1.0f;
            bad += hout[i] != v + htab[(i / 64) % 7];
        }
        CHECK_MSG(bad == 0, "guarded one-address loads, block %u: %d wrong", bs, bad);
        cudaFree(dsel);
        free(hsel);
    }
    int htab2[8] = {10, 11, 12, 13, 14, 15, 16, 17}, hwhich[8] = {3, 6, 1, 0, 7, 2, 5, 4};
    int *dtab2 = k_dup(htab2, 8), *dwhich = k_dup(hwhich, 8), *dpo = k_dnew<int>(n), *hpo = k_hnew<int>(n);
    for (unsigned b = 0; b < K_NLANE_BLOCKS; b++)
        for (int mode = 0; mode < 3; mode++) {
            unsigned bs = K_LANE_BLOCKS[b];
            k_pattern<<<(n + bs - 1) / bs, bs>>>(dtab2, dwhich, dpo, n, mode);
            k_sync_ok("k_pattern");
            k_get(hpo, dpo, n);
            int bad = 0;
            for (int i = 0; i < n; i++) {
                int l = i & 15, j = mode == 0 ? (l == 15) : mode == 1 ? (l == 0) : (i & 7);
                bad += hpo[i] != htab2[hwhich[j]];
            }
            CHECK_MSG(bad == 0, "address patterns (mode %d), block %u: %d wrong", mode, bs, bad);
        }
    cudaFree(dtab2); cudaFree(dwhich); cudaFree(dpo);
    cudaFree(dtab); cudaFree(dout);
    free(hout); free(hpo);
    return CHECK_DONE();
}
