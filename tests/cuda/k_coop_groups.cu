// Cooperative groups: thread_block (sync, thread_rank, size, group_index), tiled_partition<32> and
// <16> with shfl / shfl_down / shfl_xor / ballot / any, cg::reduce with plus / greater / bit_xor
// (cooperative_groups/reduce.h), cg::inclusive_scan / exclusive_scan (scan.h), a dynamic
// tiled_partition(block, 8), and coalesced_threads() inside a divergent branch (size, rank).
#include "k_util.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define NT 128

__global__ void cgk(const int *in, int *o)
{
    cg::thread_block blk = cg::this_thread_block();
    __shared__ int sh[NT];
    int r0 = blk.thread_rank(), v = in[blockIdx.x * NT + r0];
    int *r = o + (blockIdx.x * NT + r0) * 14;
    sh[r0] = v;
    blk.sync();
    r[0] = sh[NT - 1 - r0] + (int)blk.size() * 1000 + (int)blk.group_index().x * 1000000;
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
    cg::thread_block_tile<16> h = cg::tiled_partition<16>(blk);
    r[1] = w.shfl(v, 3);
    r[2] = w.shfl_down(v, 1);
    r[3] = h.shfl_xor(v, 5);
    r[4] = cg::reduce(w, v, cg::plus<int>());
    r[5] = cg::reduce(h, v, cg::greater<int>());
    r[6] = cg::reduce(w, v, cg::bit_xor<int>());
    r[7] = cg::inclusive_scan(h, v);
    r[8] = cg::exclusive_scan(w, v);
    r[9] = (int)w.ballot(v & 1);
    r[10] = w.meta_group_rank() * 100 + (int)h.meta_group_rank();
    cg::thread_group e = cg::tiled_partition(blk, 8);
    int s = v; for (int k = 0; k < 8; k++) { e.sync(); }          /* dynamic group sync */
    r[11] = s + (int)e.size() * 10000 + (int)e.thread_rank() * 100000;
    r[12] = -1; r[13] = -1;
    if (v % 3 == 0) {
        cg::coalesced_group c = cg::coalesced_threads();
        r[12] = (int)c.size();
        r[13] = (int)c.thread_rank();
    }
}

int main(void)
{
    static int in[2 * NT], o[2 * NT * 14];
    for (int i = 0; i < 2 * NT; i++) in[i] = (int)(k_rand32() % 1000);
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    cgk<<<2, NT>>>(din, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < NT; t++) {
            const int *V = in + b * NT;
            int w = t & ~31, l = t & 31, hb = t & ~15, hl = t & 15, e[14];
            e[0] = V[NT - 1 - t] + NT * 1000 + b * 1000000;
            e[1] = V[w + 3];
            e[2] = l + 1 < 32 ? V[t + 1] : V[t];
            e[3] = V[hb + (hl ^ 5)];
            int sum = 0, x = 0, mx = -1, inc = 0, exc = 0; unsigned bal = 0;
            for (int k = 0; k < 32; k++) { sum += V[w + k]; x ^= V[w + k]; if (V[w + k] & 1) bal |= 1u << k; if (k < l) exc += V[w + k]; }
            for (int k = 0; k < 16; k++) { if (V[hb + k] > mx) mx = V[hb + k]; if (k <= hl) inc += V[hb + k]; }
            e[4] = sum; e[5] = mx; e[6] = x; e[7] = inc; e[8] = exc; e[9] = (int)bal;
            e[10] = (t / 32) * 100 + t / 16;
            e[11] = V[t] + 8 * 10000 + (t & 7) * 100000;
            e[12] = o[(b * NT + t) * 14 + 12]; e[13] = o[(b * NT + t) * 14 + 13];
            if (V[t] % 3 == 0) {
                /* coalesced_threads() = the lanes active together at that point: CUDA does not promise that
                   every lane taking the branch is converged, so 1 <= size <= cnt; when the group is all of
                   them (the usual case) the rank is the number of branch lanes below this one */
                int cnt = 0, rank = 0;
                for (int k = 0; k < 32; k++) if (V[w + k] % 3 == 0) { if (k < l) rank++; cnt++; }
                int sz = e[12], rk = e[13];
                if (!(sz >= 1 && sz <= cnt && rk >= 0 && rk < sz && (sz != cnt || rk == rank)) && bad++ < 20)
                    CHECK_MSG(0, "coalesced group of thread %d: size %d rank %d (branch lanes %d, rank %d)", t, sz, rk, cnt, rank);
            } else if ((e[12] != -1 || e[13] != -1) && bad++ < 20) CHECK_MSG(0, "thread %d outside the branch wrote", t);
            for (int k = 0; k < 14; k++)
                if (o[(b * NT + t) * 14 + k] != e[k] && bad++ < 20)
                    CHECK_MSG(0, "block %d thread %d item %d: got %d want %d", b, t, k, o[(b * NT + t) * 14 + k], e[k]);
        }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
