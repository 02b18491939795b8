// NVCC_FLAGS: -G
// A device-debug build (-G): unoptimised PTX full of .loc/.file directives, DWARF .section blocks,
// every variable in local memory and no inlining. The same reduction / call / shared-memory code
// as the optimised tests must give the same results.
#include "k_util.h"

__device__ int weight(int x, int k) { int w = 0; for (int j = 0; j < k; j++) w += (x >> j) & 1; return w; }

__global__ void dbg(const int *in, int *out, int n)
{
    __shared__ int s[128];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    int v = i < n ? in[i] : 0;
    s[t] = weight(v, 16) * (v & 0xff);
    __syncthreads();
    for (int k = 64; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
    if (t == 0) out[blockIdx.x] = s[0];
}

int main(void)
{
    const int n = 1000, nb = 8;
    int in[1000], out[8];
    for (int i = 0; i < n; i++) in[i] = (int)(k_rand32() & 0xffff);
    int *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    dbg<<<nb, 128>>>(din, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < nb; b++) {
        int e = 0;
        for (int t = 0; t < 128; t++) { int i = b * 128 + t; if (i < n) e += __builtin_popcount(in[i] & 0xffff) * (in[i] & 0xff); }
        CHECK_EQ(out[b], e);
    }
    return CHECK_DONE();
}
