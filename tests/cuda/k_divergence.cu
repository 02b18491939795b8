// Predication, select and divergent control flow inside warps: selp/predicated ops, if/else chains
// by lane, data-dependent loop trip counts, break/continue, early return of some lanes, a switch
// (possibly a jump table), nested divergence with re-convergence, and a warp-level op after the
// branches re-join (__syncwarp). Host reference: the same scalar code per thread.
#include "k_util.h"

#define N 1000

__host__ __device__ int work(int t, int v)
{
    int r;
    if (t % 3 == 0) r = v * 3;
    else if (t % 3 == 1) { r = 0; for (int k = 0; k < (v & 15); k++) { if (k == 11) break; if (k & 1) continue; r += k * v; } }
    else {
        r = v;
        while (r > 1 && r < 1000000) r = (r & 1) ? 3 * r + 1 : r / 2;   /* Collatz-like, data dependent */
    }
    switch (v & 7) {
    case 0: r += 1; break;
    case 1: r ^= 0x55; break;
    case 2: r -= 7; /* fall through */
    case 3: r *= 2; break;
    case 5: r = r > 100 ? r - 100 : r + 100; break;
    default: r = -r; break;
    }
    r = (v > 500) ? r + v : r - v;          /* select */
    r = min(max(r, -100000), 100000);
    return r;
}

__global__ void div_kernel(const int *in, int *out, int *early, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;                      /* last block has a partial warp */
    int v = in[t];
    if (v % 11 == 0) { early[t] = 1; return; }   /* some lanes leave early */
    early[t] = 0;
    out[t] = work(t, v);
}

__global__ void reconverge(const int *in, int *out)
{
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane < 16) { if (lane & 1) v += 100; else v -= 100; }
    else { for (int k = 0; k < lane; k++) v += k; }
    __syncwarp();
    int s = v;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    out[threadIdx.x] = s;
}

int main(void)
{
    static int in[N], out[N], early[N];
    for (int i = 0; i < N; i++) in[i] = (int)(k_rand32() % 1000);
    int *din, *dout, *dearly;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out)); CK(cudaMalloc(&dearly, sizeof early));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    CK(cudaMemset(dout, 0xff, sizeof out));
    div_kernel<<<(N + 127) / 128, 128>>>(din, dout, dearly, N);
    CK(cudaGetLastError());
    int *dr; CK(cudaMalloc(&dr, 64 * sizeof(int)));
    reconverge<<<1, 64>>>(din, dr);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(early, dearly, sizeof early, cudaMemcpyDeviceToHost));
    int r[64]; CK(cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < N; t++) {
        int e = in[t] % 11 == 0;
        if (early[t] != e && bad++ < 20) CHECK_MSG(0, "early[%d]", t);
        if (!e && out[t] != work(t, in[t]) && bad++ < 20) CHECK_MSG(0, "t=%d v=%d: got %d want %d", t, in[t], out[t], work(t, in[t]));
        if (e && out[t] != -1 && bad++ < 20) CHECK_MSG(0, "t=%d returned early but wrote %d", t, out[t]);
    }
    for (int w = 0; w < 2; w++) {
        int s = 0;
        for (int l = 0; l < 32; l++) {
            int v = in[w * 32 + l];
            if (l < 16) v += (l & 1) ? 100 : -100; else for (int k = 0; k < l; k++) v += k;
            s += v;
        }
        for (int l = 0; l < 32; l++) if (r[w * 32 + l] != s && bad++ < 20) CHECK_MSG(0, "warp %d lane %d: %d vs %d", w, l, r[w * 32 + l], s);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
