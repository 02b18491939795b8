// k_lanes_masked.cu - divergent branches that the lane-group copy runs as masked regions
// (ptx_emit.c lane_regions): the lanes that do not branch run the region's code under a mask,
// the others wait at its join. Each kernel against a host computation, for block sizes that run
// as lane groups and one that does not, with data-dependent conditions (each group mixes lanes
// that take the branch and lanes that do not):
//  1. a store under the branch (lanes that skip must not store: the output holds a sentinel);
//  2. a register written in the region and read after the join (lanes that skip keep theirs);
//  3. nested regions, the inner one ending at the outer one's join and before it;
//  4. an instruction the lanes cannot run (a call) inside a region: the group leaves the lanes
//     there, each lane that skipped the region continuing at its join;
//  5. shared-memory atomics under the branch;
//  6. phase mode: warp-synchronous shared-memory exchange inside the region (a lockstep stop
//     inside the masked region: its mask is saved and restored), then a barrier, in a loop;
//     again with a call in the region, so that a group taken whole by the branch comes back
//     to the lanes at the lockstep stop from per-thread execution (all lanes active there).
//  7. a register of uniform class written under a divergent branch before barriers: no masked
//     region (the lanes would disagree after the join); the group leaves the lanes and must
//     stay per thread at the barrier (lane_reentry_check finds its lanes disagree).
// NPU_PTX_NO_MASKED=1 runs the same with the regions off (the lane copy leaves the lanes at
// such a branch), see k_lanes_masked_off.cu.
#include "check.h"
#include "k_util.h"

#include <stdint.h>

#define SENT 0x5a5a5a5a

__global__ void k_store(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = a[i];
        if (v & 1) {
            out[i] = v * 3 + 1;
            out[n + i] = v ^ 0x55;
        }
    }
}

__global__ void k_join(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i];
    if (v % 3 != 0) {
#pragma unroll
        for (int k = 0; k < 4; k++) v = v * 5 + b[(i + 7 * k) % n];
    }
    out[i] = v;
}

__global__ void k_nested(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i], w = b[i];
    if (v & 1) {
        w += b[(i + 3) % n];
        if (v & 2) {
            w = w * 7 + a[(i + 5) % n];
            out[n + i] = w;
        }
        w -= v;
        if (v & 4) w ^= b[(i * 11) % n];
    }
    out[i] = w;
}

__device__ __noinline__ int k_mix(int v, int k) { return (v >> (k & 7)) * 2 + k; }

__global__ void k_call(const int *a, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = a[i];
    if (v & 1) {
        v += 3;
        v = k_mix(v, i) + 1;
    }
    out[i] = v + 1;
}

__global__ void k_atomic(const int *a, int *hist, int n)
{
    __shared__ int h[8];
    if (threadIdx.x < 8) h[threadIdx.x] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = a[i];
        if (v % 3 == 0) {
            atomicAdd(&h[v & 7], 1);
            atomicAdd(&h[(v >> 3) & 7], 2);
        }
    }
    __syncthreads();
    if (threadIdx.x < 8) atomicAdd(&hist[threadIdx.x], h[threadIdx.x]);
}

// even lanes of a warp (taken by a data-dependent pattern per round) read their neighbour two
// lanes up and write their own slot, with no __syncwarp: a warp in lockstep reads before it
// writes, so each active lane gets the old value (lane 30 reads lane 0's old slot)
__global__ void k_lockstep(const int *a, const int *mask, int *out, int rounds)
{
    __shared__ int s[256];
    int t = threadIdx.x, base = t & ~31, l = t & 31;
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        if ((mask[r] >> l) & 1) {
            int x = s[base + ((l + 2) & 31)];
            s[t] = x * 3 + r;
        }
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = s[t];
}

// the same with a call in the region between the read and the write (the group leaves the lanes
// at the call and comes back at the lockstep stop when every lane took the branch)
__global__ void k_lockstep_call(const int *a, const int *mask, int *out, int rounds)
{
    __shared__ int s[256];
    int t = threadIdx.x, base = t & ~31, l = t & 31;
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int r = 0; r < rounds; r++) {
        if ((mask[r] >> l) & 1) {
            int x = s[base + ((l + 2) & 31)];
            x = k_mix(x, r);
            s[t] = x * 3 + r;
        }
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = s[t];
}

// a register the lane classes call uniform (every definition is) written under a divergent
// branch: the region is not masked (the lanes would disagree after its join), the group leaves
// the lanes, and at the barrier its lanes hold different values, so it must stay per thread
// (lane_reentry_check)
__global__ void k_uniform_split(const int *a, int *out, int rounds)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    unsigned u = blockIdx.x * 3u + 1u;
    s[t] = t;
    for (int r = 0; r < rounds; r++) {
        if ((a[blockIdx.x * blockDim.x + t] >> r) & 1)
            for (int k = 0; k <= r; k++) u = u * 5u + 7u;
        __syncthreads();
        s[t] = s[t] * 3 + (int)u;
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[(t + 1) % blockDim.x];
}

static int h_nested(const int *a, const int *b, int i, int n, int *o2)
{
    int v = a[i], w = b[i];
    if (v & 1) {
        w += b[(i + 3) % n];
        if (v & 2) {
            w = w * 7 + a[(i + 5) % n];
            *o2 = w;
        }
        w -= v;
        if (v & 4) w ^= b[(i * 11) % n];
    }
    return w;
}

int main()
{
    for (unsigned bi = 0; bi < K_NLANE_BLOCKS; bi++) {
        int bs = (int)K_LANE_BLOCKS[bi], n = 37 * bs + 5, nb = (n + bs - 1) / bs, na = nb * bs;
        int *ha = (int *)malloc(na * sizeof(int)), *hb = (int *)malloc(na * sizeof(int));
        int *ho = (int *)malloc(2 * na * sizeof(int));
        for (int i = 0; i < na; i++) { ha[i] = (int)(k_rand32() & 0x7fffffff); hb[i] = (int)(k_rand32() >> 3); }
        int *da = k_dup(ha, na), *db = k_dup(hb, na), *dout = k_dnew<int>(2 * na);

        // 1. stores under the branch
        CK(cudaMemset(dout, 0x5a, 2 * n * sizeof(int)));
        k_store<<<nb, bs>>>(da, dout, n);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ho, dout, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < n; i++) {
            int e0 = (ha[i] & 1) ? ha[i] * 3 + 1 : SENT, e1 = (ha[i] & 1) ? (ha[i] ^ 0x55) : SENT;
            if (ho[i] != e0 || ho[n + i] != e1) bad++;
        }
        CHECK_MSG(bad == 0, "block %d: store under a branch: %d wrong", bs, bad);

        // 2. a register written in the region, read after the join
        k_join<<<nb, bs>>>(da, db, dout, n);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ho, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < n; i++) {
            int v = ha[i];
            if (v % 3 != 0)
                for (int k = 0; k < 4; k++) v = (int)((unsigned)v * 5u + (unsigned)hb[(i + 7 * k) % n]);
            if (ho[i] != v) bad++;
        }
        CHECK_MSG(bad == 0, "block %d: register live at the join: %d wrong", bs, bad);

        // 3. nested regions
        CK(cudaMemset(dout, 0x5a, 2 * n * sizeof(int)));
        k_nested<<<nb, bs>>>(da, db, dout, n);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ho, dout, 2 * n * sizeof(int), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < n; i++) {
            int o2 = SENT;
            int w = h_nested(ha, hb, i, n, &o2);
            if (ho[i] != w || ho[n + i] != o2) bad++;
        }
        CHECK_MSG(bad == 0, "block %d: nested regions: %d wrong", bs, bad);

        // 4. leaving the lanes inside a region
        k_call<<<nb, bs>>>(da, dout, n);
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(ho, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
        bad = 0;
        for (int i = 0; i < n; i++) {
            int v = ha[i];
            if (v & 1) { v += 3; v = (v >> (i & 7)) * 2 + i + 1; }
            if (ho[i] != v + 1) bad++;
        }
        CHECK_MSG(bad == 0, "block %d: exit inside a region: %d wrong", bs, bad);

        // 5. shared atomics under the branch
        int *dh = k_dnew<int>(8, 0);
        k_atomic<<<nb, bs>>>(da, dh, n);
        CK(cudaDeviceSynchronize());
        int hh[8], eh[8] = {0};
        CK(cudaMemcpy(hh, dh, sizeof hh, cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            if (ha[i] % 3 == 0) { eh[ha[i] & 7] += 1; eh[(ha[i] >> 3) & 7] += 2; }
        for (int k = 0; k < 8; k++) CHECK_MSG(hh[k] == eh[k], "block %d: atomics bin %d: %d, want %d", bs, k, hh[k], eh[k]);
        CK(cudaFree(dh));

        // 6. lockstep exchange inside a masked region (block sizes that are whole warps), then
        //    with a call in the region and some rounds taken by every lane
        for (int withcall = 0; withcall < 2 && bs % 32 == 0 && bs <= 256; withcall++) {
            const int rounds = 6;
            int hm[rounds];
            for (int r = 0; r < rounds; r++) hm[r] = (int)(k_rand32() & 0x55555555u) | 1;   // even lanes, lane 0 always
            if (withcall) hm[0] = hm[3] = -1;
            int *dm = k_dup(hm, rounds);
            if (withcall) k_lockstep_call<<<nb, bs>>>(da, dm, dout, rounds);
            else k_lockstep<<<nb, bs>>>(da, dm, dout, rounds);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(ho, dout, nb * bs * sizeof(int), cudaMemcpyDeviceToHost));
            bad = 0;
            int *s = (int *)malloc(bs * sizeof(int)), *old = (int *)malloc(bs * sizeof(int));
            for (int b = 0; b < nb; b++) {
                for (int t = 0; t < bs; t++) s[t] = ha[b * bs + t];
                for (int r = 0; r < rounds; r++) {
                    memcpy(old, s, bs * sizeof(int));
                    for (int t = 0; t < bs; t++) {
                        int base = t & ~31, l = t & 31;
                        if ((hm[r] >> l) & 1) {
                            int x = old[base + ((l + 2) & 31)];
                            if (withcall) x = (x >> (r & 7)) * 2 + r;
                            s[t] = x * 3 + r;
                        }
                    }
                }
                for (int t = 0; t < bs; t++)
                    if (ho[b * bs + t] != s[t]) bad++;
            }
            free(s); free(old);
            CHECK_MSG(bad == 0, "block %d: lockstep inside a region%s: %d wrong", bs, withcall ? " with a call" : "", bad);
            CK(cudaFree(dm));
        }
        // 7. a uniform-class register split by a divergent branch, then barriers
        {
            const int rounds = 5;
            k_uniform_split<<<nb, bs>>>(da, dout, rounds);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(ho, dout, na * sizeof(int), cudaMemcpyDeviceToHost));
            unsigned *u = (unsigned *)malloc(bs * sizeof(unsigned)), *sh = (unsigned *)malloc(bs * sizeof(unsigned));
            bad = 0;
            for (int b = 0; b < nb; b++) {
                for (int t = 0; t < bs; t++) { u[t] = b * 3u + 1u; sh[t] = (unsigned)t; }
                for (int r = 0; r < rounds; r++)
                    for (int t = 0; t < bs; t++) {
                        if ((ha[b * bs + t] >> r) & 1)
                            for (int k = 0; k <= r; k++) u[t] = u[t] * 5u + 7u;
                        sh[t] = sh[t] * 3u + u[t];
                    }
                for (int t = 0; t < bs; t++) bad += ho[b * bs + t] != (int)sh[(t + 1) % bs];
            }
            free(u); free(sh);
            CHECK_MSG(bad == 0, "block %d: uniform register split before a barrier: %d wrong", bs, bad);
        }
        CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dout));
        free(ha); free(hb); free(ho);
    }
    return CHECK_DONE();
}
