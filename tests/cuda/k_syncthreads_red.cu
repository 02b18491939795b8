// __syncthreads_count / _and / _or (bar.red.popc.u32, bar.red.and.pred, bar.red.or.pred): every
// thread gets the block-wide count / all / any of its predicate, and the call is a full barrier
// (shared-memory writes before it are seen after it). In barrier-phase mode the reduction is
// computed once every thread waits at the barrier; also mixed with warp shuffles and votes in the
// same kernel (threads held at a collective must not let the barrier go early), over 1-D and 2-D
// blocks whose sizes take the lane-group path (multiples of 16) and the per-thread one.
// k_syncthreads_red_fibers.cu runs the same on fibers. Host reference per block.
#include "k_util.h"

__global__ void red(const int *in, int *out, int rounds)
{
    extern __shared__ int s[];
    int nt = blockDim.x * blockDim.y, t = threadIdx.y * blockDim.x + threadIdx.x, b = blockIdx.x;
    int v = in[b * nt + t];
    int *o = out + (size_t)(b * nt + t) * 8;
    for (int r = 0; r < rounds; r++) {
        s[t] = v + r;
        int c = __syncthreads_count((v + r) & 1);
        int a = __syncthreads_and(v + r > -3);
        int any = __syncthreads_or(v + r == 7);
        int nb = s[(t + 1) % nt];                               /* written before the barriers */
        unsigned bal = __ballot_sync(0xffffffffu, (v + r) & 2);   /* warps: blocks are multiples of 32 */
        int sh = __shfl_down_sync(0xffffffffu, v, 1);
        __syncthreads();
        if (r == rounds - 1) { o[0] = c; o[1] = a; o[2] = any; o[3] = nb; o[4] = (int)bal; o[5] = sh; }
        v = v * 3 + c;
    }
    o[6] = v;
}

int main(void)
{
    const int nb = 3;
    struct { unsigned x, y; } shapes[] = {{32, 1}, {64, 1}, {256, 1}, {96, 1}, {32, 4}, {1024, 1}};
    for (auto sh : shapes) {
        int nt = (int)(sh.x * sh.y), n = nb * nt;
        int *h = k_hnew<int>(n), *got = k_hnew<int>(8 * n);
        for (int i = 0; i < n; i++) h[i] = (int)(k_rand32() % 21) - 4;
        int *din = k_dup(h, n), *dout = k_dnew<int>(8 * n);
        for (int rounds : {1, 3}) {
            red<<<nb, dim3(sh.x, sh.y), nt * sizeof(int)>>>(din, dout, rounds);
            k_sync_ok("red");
            k_get(got, dout, 8 * n);
            for (int b = 0; b < nb; b++) {
                int *v = (int *)malloc(nt * sizeof(int));
                for (int t = 0; t < nt; t++) v[t] = h[b * nt + t];
                int c = 0, a = 1, any = 0;
                int *nbv = (int *)malloc(nt * sizeof(int));
                for (int r = 0; r < rounds; r++) {
                    c = 0; a = 1; any = 0;
                    for (int t = 0; t < nt; t++) { c += (v[t] + r) & 1; a &= v[t] + r > -3; any |= v[t] + r == 7; }
                    for (int t = 0; t < nt; t++) nbv[t] = v[(t + 1) % nt] + r;
                    if (r < rounds - 1) for (int t = 0; t < nt; t++) v[t] = v[t] * 3 + c;
                }
                int bad = 0;
                for (int t = 0; t < nt; t++) {
                    const int *o = got + (size_t)(b * nt + t) * 8;
                    int r = rounds - 1, w = t / 32, lane = t % 32;
                    unsigned bal = 0;
                    for (int j = 0; j < 32; j++) if ((v[w * 32 + j] + r) & 2) bal |= 1u << j;
                    int shv = lane < 31 ? v[t + 1] : v[t];
                    int fin = v[t] * 3 + c;
                    if (o[0] != c || (o[1] != 0) != a || (o[2] != 0) != any || o[3] != nbv[t] || (unsigned)o[4] != bal || o[5] != shv || o[6] != fin) {
                        if (bad++ < 3)
                            CHECK_MSG(0, "block %ux%u rounds %d block %d thread %d: got c=%d a=%d o=%d nb=%d bal=%x sh=%d v=%d want %d %d %d %d %x %d %d",
                                      sh.x, sh.y, rounds, b, t, o[0], o[1], o[2], o[3], o[4], o[5], o[6], c, a, any, nbv[t], bal, shv, fin);
                    }
                }
                CHECK_MSG(bad == 0, "block %ux%u rounds %d block %d: %d threads wrong", sh.x, sh.y, rounds, b, bad);
                free(v); free(nbv);
            }
        }
        CK(cudaFree(din)); CK(cudaFree(dout));
        free(h); free(got);
    }
    return CHECK_DONE();
}
