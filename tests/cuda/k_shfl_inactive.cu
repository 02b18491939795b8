// Shuffles whose source lane does not take part (see exec.c, "Shuffles from lanes that do not
// take part"): an in-range source lane that is not executing the shfl reads as 0, as on NVIDIA
// GPUs (cuda-samples reduction's last step depends on it); out-of-range sources keep the ISA's
// own-value rule with p = false.
//  - reduce_tail: cuda-samples reduce7's tail, `if (tid < k) { v = sdata[tid]; v +=
//    __shfl_down_sync(ballot(tid < k), v, 16, 8, 4, 2, 1) }` for every k in 1..32, int and float;
//    the sum must be exactly the sum of sdata[0..k) (a lane reading its own value instead, as
//    before, multiplies the inactive contributions in).
//  - partial: a block of 48 threads, full mask: lanes 0..15 of warp 1 read lanes 16..31, which do
//    not exist (0), and up/down/idx reads inside the warp; the predicate output of the
//    out-of-range case.
// k_shfl_inactive_fibers.cu runs the same kernels on fibers (NPU_PTX_NO_PHASES=1).
#include "k_util.h"

template <typename T>
__global__ void reduce_tail(const T *in, T *out, unsigned k)
{
    __shared__ T sdata[32];
    unsigned tid = threadIdx.x;
    if (tid < 32) sdata[tid] = in[blockIdx.x * 32 + tid];
    __syncthreads();
    unsigned ballot = __ballot_sync(0xffffffffu, tid < k);
    T v = 0;
    if (tid < k) {
        v = sdata[tid];
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(ballot, v, off);
    }
    if (tid == 0) out[blockIdx.x] = v;
}

__global__ void partial(const int *in, int *o)
{
    int t = threadIdx.x, lane = t & 31;
    int v = in[t];
    int *r = o + t * 5;
    r[0] = __shfl_down_sync(0xffffffffu, v, 16);   /* warp 1: lanes 0..15 read lanes that do not exist */
    r[1] = __shfl_up_sync(0xffffffffu, v, 3);      /* lanes 0..2: out of range, own value */
    r[2] = __shfl_sync(0xffffffffu, v, 20);        /* warp 1: lane 20 does not exist */
    int p;
    asm volatile("{ .reg .pred q; .reg .b32 x; shfl.sync.down.b32 x|q, %1, 8, 0x1f, 0xffffffff; mov.b32 %0, x; selp.b32 %2, 1, 0, q; }"
                 : "=r"(r[3]), "+r"(v), "=r"(p));
    r[4] = p;
    (void)lane;
}

int main(void)
{
    const int nb = 33;
    int *hi = k_hnew<int>(nb * 32);
    float *hf = k_hnew<float>(nb * 32);
    for (int i = 0; i < nb * 32; i++) { hi[i] = (int)(k_rand32() % 2001) - 1000; hf[i] = (float)((int)(k_rand32() % 512) - 256) * 0.25f; }
    int *di = k_dup(hi, nb * 32), *doi = k_dnew<int>(nb);
    float *df = k_dup(hf, nb * 32), *dof = k_dnew<float>(nb);
    for (unsigned k = 1; k <= 32; k++) {
        for (unsigned bs : {32u, 64u, 256u}) {
            reduce_tail<int><<<nb, bs>>>(di, doi, k);
            reduce_tail<float><<<nb, bs>>>(df, dof, k);
            k_sync_ok("reduce_tail");
            int oi[nb]; float of[nb];
            k_get(oi, doi, nb); k_get(of, dof, nb);
            for (int b = 0; b < nb; b++) {
                int si = 0; float sf = 0;   /* the values are multiples of 0.25: float sums are exact */
                for (unsigned j = 0; j < k; j++) { si += hi[b * 32 + j]; sf += hf[b * 32 + j]; }
                CHECK_MSG(oi[b] == si, "int k=%u block %d of %u threads: got %d want %d", k, b, bs, oi[b], si);
                CHECK_MSG(of[b] == sf, "float k=%u block %d of %u threads: got %g want %g", k, b, bs, of[b], sf);
            }
        }
    }
    int *po = k_dnew<int>(48 * 5);
    partial<<<1, 48>>>(di, po);
    k_sync_ok("partial");
    int o[48 * 5];
    k_get(o, po, 48 * 5);
    for (int t = 0; t < 48; t++) {
        int lane = t & 31, w = t >> 5, nwl = w ? 16 : 32, base = w * 32;
        int e0 = lane + 16 < nwl ? hi[base + lane + 16] : lane + 16 < 32 ? 0 : hi[t];
        int e1 = lane >= 3 ? hi[t - 3] : hi[t];
        int e2 = 20 < nwl ? hi[base + 20] : 0;
        int e3 = lane + 8 < 32 ? (lane + 8 < nwl ? hi[base + lane + 8] : 0) : hi[t];
        int e4 = lane + 8 < 32;
        int e[5] = {e0, e1, e2, e3, e4};
        for (int j = 0; j < 5; j++)
            CHECK_MSG(o[t * 5 + j] == e[j], "partial thread %d item %d: got %d want %d", t, j, o[t * 5 + j], e[j]);
    }
    return CHECK_DONE();
}
