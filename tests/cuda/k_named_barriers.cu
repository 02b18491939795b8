// Named barriers with thread counts (the producer/consumer pattern of warp-specialised kernels):
// warps 0-1 produce a tile in shared memory and signal with bar.arrive 1, 128; warps 2-3 wait with
// bar.sync 1, 128 and consume it; then roles swap on barrier 2. Also __syncwarp from two different
// branches of a diverged warp (legal on sm_70+: the mask names the lanes, not a program point), and
// barrier.sync with an explicit count equal to the block size.
#include "k_util.h"

__global__ void named(const int *in, int *out)
{
    __shared__ int tile[64], tile2[64], xch[32];
    int t = threadIdx.x, w = t >> 5, lane = t & 31;
    for (int round = 0; round < 3; round++) {
        if (w < 2) {                                   /* producers of tile, consumers of tile2 */
            tile[t] = in[round * 64 + t] * 3;
            __threadfence_block();
            asm volatile("bar.arrive 1, 128;" ::: "memory");
            asm volatile("bar.sync 2, 128;" ::: "memory");
            out[round * 128 + t] = tile2[t] + 1;
        } else {                                       /* consumers of tile, producers of tile2 */
            asm volatile("bar.sync 1, 128;" ::: "memory");
            int v = tile[(t - 64) ^ 1];
            tile2[t - 64] = v - 7;
            __threadfence_block();
            asm volatile("bar.arrive 2, 128;" ::: "memory");
            out[round * 128 + t] = v;
        }
        asm volatile("barrier.sync 0, 128;" ::: "memory");   /* everyone, before the next round reuses the tiles */
    }
    /* diverged warp: the two halves reach different __syncwarp() calls */
    if (w == 0) {
        if (lane < 16) { xch[lane] = lane * 100; __syncwarp(); out[384 + lane] = xch[lane + 16]; }
        else { xch[lane] = -lane; __syncwarp(); out[384 + lane] = xch[lane - 16]; }
    }
}

int main(void)
{
    int in[192], out[416];
    for (int i = 0; i < 192; i++) in[i] = (int)(k_rand32() % 1000);
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice)); CK(cudaMemset(dout, 0xff, sizeof out));
    named<<<1, 128>>>(din, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < 3; r++)
        for (int t = 0; t < 128; t++) {
            int e;
            if (t < 64) e = in[r * 64 + (t ^ 1)] * 3 - 7 + 1;   /* tile2[t] = tile[t ^ 1] - 7 */
            else e = in[r * 64 + ((t - 64) ^ 1)] * 3;
            if (out[r * 128 + t] != e && bad++ < 10) CHECK_MSG(0, "round %d thread %d: %d vs %d", r, t, out[r * 128 + t], e);
        }
    for (int l = 0; l < 32; l++) {
        int e = l < 16 ? -(l + 16) : (l - 16) * 100;
        if (out[384 + l] != e && bad++ < 10) CHECK_MSG(0, "syncwarp lane %d: %d vs %d", l, out[384 + l], e);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
