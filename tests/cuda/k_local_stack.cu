// Local memory and call frames: an 8 KB per-thread local array indexed at run time, a recursive
// __noinline__ function whose every frame holds its own local array (frames must not alias), a
// struct returned through local memory, and a local array whose address escapes to a callee.
#include "k_util.h"

struct big { int v[40]; };

__device__ __noinline__ int rec(int depth, int seed)
{
    int frame[16];
    for (int k = 0; k < 16; k++) frame[k] = (seed * 31 + k + depth) & 0xffff;
    int below = depth > 0 ? rec(depth - 1, frame[(seed + depth) & 15]) : 0;
    int s = 0; for (int k = 0; k < 16; k++) s += frame[k];       /* frame survives the inner calls */
    return s + below;
}
__device__ __noinline__ big make_big(int x) { big b; for (int k = 0; k < 40; k++) b.v[k] = x * k; return b; }
__device__ __noinline__ void fill(int *p, int n, int x) { for (int k = 0; k < n; k++) p[k] = x ^ k; }

__global__ void locals(const int *idx, int *out)
{
    int t = threadIdx.x;
    int arr[2048];                                   /* 8 KB */
    for (int k = 0; k < 2048; k++) arr[k] = k * t;
    int s = 0;
    for (int k = 0; k < 64; k++) s += arr[idx[(t * 64 + k) % 4096] & 2047];
    out[t * 4 + 0] = s;
    out[t * 4 + 1] = rec(6 + t % 4, t);
    big b = make_big(t + 1);
    out[t * 4 + 2] = b.v[idx[t] % 40];
    int esc[24];
    fill(esc, 24, t);
    out[t * 4 + 3] = esc[idx[t + 1] % 24];
}

static int h_rec(int depth, int seed)
{
    int frame[16];
    for (int k = 0; k < 16; k++) frame[k] = (seed * 31 + k + depth) & 0xffff;
    int below = depth > 0 ? h_rec(depth - 1, frame[(seed + depth) & 15]) : 0;
    int s = 0; for (int k = 0; k < 16; k++) s += frame[k];
    return s + below;
}

int main(void)
{
    static int idx[4096], out[64 * 4];
    for (int i = 0; i < 4096; i++) idx[i] = (int)(k_rand32() & 0x7fffffff);
    int *didx, *dout;
    CK(cudaMalloc(&didx, sizeof idx)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(didx, idx, sizeof idx, cudaMemcpyHostToDevice));
    /* recursion sizes its stack at run time: the 1 KB default per thread is too small for 10 frames
       plus an 8 KB array, so raise it as a CUDA program must */
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
    size_t st = 0; CK(cudaDeviceGetLimit(&st, cudaLimitStackSize)); CHECK(st >= 16384);
    locals<<<1, 64>>>(didx, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < 64; t++) {
        int s = 0; for (int k = 0; k < 64; k++) s += (idx[(t * 64 + k) % 4096] & 2047) * t;
        int e[4] = {s, h_rec(6 + t % 4, t), (t + 1) * (idx[t] % 40), t ^ (idx[t + 1] % 24)};
        for (int k = 0; k < 4; k++) if (out[t * 4 + k] != e[k] && bad++ < 10) CHECK_MSG(0, "thread %d item %d: %d vs %d", t, k, out[t * 4 + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
