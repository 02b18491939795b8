// Guarded exits with a condition (SASS `@P0 EXIT P1`: the thread exits when the guard and the
// condition both hold). ptxas makes that form of chains of `if (a && b) return;`, as in ATen's
// reduce_kernel before its store (ReduceConfig::should_store: output_idx < num_outputs,
// (!block_x_reduce || threadIdx.x == 0), (!block_y_reduce || threadIdx.y == 0)). An exit that
// ignored the condition made torch.sum give 0 on the SASS path. Checked against a host model of
// the same conditions, for every combination of the two flags and 2-D blocks.
#include "k_util.h"

struct cfg { int n, bx, by, neg; };

__global__ void store_guard(cfg c, const int *in, int *out)
{
    int i = blockIdx.x * blockDim.y + threadIdx.y;
    if (i >= c.n) return;
    if (c.bx && threadIdx.x != 0) return;
    if (c.by && threadIdx.y != 0) return;
    if (c.neg && !(threadIdx.x & 1)) return;
    atomicAdd(&out[i], in[i] + (int)threadIdx.x);
}

int main(void)
{
    const int n = 37, bxd = 4, byd = 3;
    int *hin = k_hnew<int>(n);
    for (int i = 0; i < n; i++) hin[i] = (int)(k_rand32() % 1000);
    int *din = k_dup(hin, n), *dout = k_dnew<int>(n);
    for (int f = 0; f < 8; f++) {
        cfg c = {n - (f & 3), f & 1, (f >> 1) & 1, (f >> 2) & 1};
        CK(cudaMemset(dout, 0, n * sizeof(int)));
        int nb = (n + byd - 1) / byd;
        store_guard<<<nb, dim3(bxd, byd)>>>(c, din, dout);
        k_sync_ok("store_guard");
        int got[n], want[n];
        k_get(got, dout, n);
        memset(want, 0, sizeof want);
        for (int b = 0; b < nb; b++)
            for (int ty = 0; ty < byd; ty++)
                for (int tx = 0; tx < bxd; tx++) {
                    int i = b * byd + ty;
                    if (i >= c.n || (c.bx && tx != 0) || (c.by && ty != 0) || (c.neg && !(tx & 1))) continue;
                    want[i] += hin[i] + tx;
                }
        for (int i = 0; i < n; i++)
            CHECK_MSG(got[i] == want[i], "flags %d: out[%d] = %d, want %d", f, i, got[i], want[i]);
    }
    return CHECK_DONE();
}
