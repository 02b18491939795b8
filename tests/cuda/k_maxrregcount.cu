// NVCC_FLAGS: -maxrregcount=24
/*
 * k_maxrregcount.cu - cudaFuncGetAttributes through the runtime for a program built with
 * nvcc -maxrregcount=24 (nvcc records the option in the fatbin's PTX entry for the driver's
 * JIT): numRegs of a kernel with 48 values live at once stays within 24, as ptxas keeps it
 * (tests/attrs checks the counts against ptxas); a kernel with __launch_bounds__ keeps its
 * launch-bounds limit instead (ptxas ignores -maxrregcount there); constSizeBytes is the
 * module's __constant__ bytes (400 + 24, ptxas's cmem[3]) for every kernel of the module;
 * and the kernels still compute what the host computes.
 */
#include "k_util.h"

__constant__ float c1[100];
__constant__ double c2[3];

__global__ void heavy(const float *in, float *out, int n)
{
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++) v[k] = in[k * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += v[k] * v[47 - k] + c1[k];
    out[threadIdx.x] = s + (float)c2[threadIdx.x % 3];
}

__global__ void __launch_bounds__(256, 4) heavy_bounded(const float *in, float *out, int n)
{
    float v[48];
#pragma unroll
    for (int k = 0; k < 48; k++) v[k] = in[k * n + threadIdx.x];
    float s = 0;
#pragma unroll
    for (int k = 0; k < 48; k++) s += v[k] * v[47 - k];
    out[threadIdx.x] = s;
}

int main(void)
{
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, heavy));
    CHECK_MSG(a.numRegs > 0 && a.numRegs <= 24, "heavy: %d registers under -maxrregcount=24", a.numRegs);
    CHECK_EQ(a.constSizeBytes, 424);
    CHECK_EQ(a.localSizeBytes, 0);
    CK(cudaFuncGetAttributes(&a, heavy_bounded));
    CHECK_MSG(a.numRegs > 24 && a.numRegs <= 64, "heavy_bounded: %d registers (launch bounds 256 x 4: 64)", a.numRegs);
    CHECK_EQ(a.constSizeBytes, 424);
    CHECK_EQ(a.maxThreadsPerBlock, 256);

    const int n = 64;
    float hin[48 * n], hc1[100], hout[n], ref[n];
    double hc2[3] = { 0.5, -1.25, 2.0 };
    for (int i = 0; i < 48 * n; i++) hin[i] = (float)((i * 7) % 13) - 6.0f;
    for (int i = 0; i < 100; i++) hc1[i] = 0.25f * (float)(i % 9);
    CK(cudaMemcpyToSymbol(c1, hc1, sizeof hc1));
    CK(cudaMemcpyToSymbol(c2, hc2, sizeof hc2));
    float *din, *dout;
    CK(cudaMalloc(&din, sizeof hin));
    CK(cudaMalloc(&dout, sizeof hout));
    CK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    heavy<<<1, n>>>(din, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        float s = 0;
        for (int k = 0; k < 48; k++) s += hin[k * n + t] * hin[(47 - k) * n + t] + hc1[k];
        ref[t] = s + (float)hc2[t % 3];
        CHECK_NEAR(hout[t], ref[t], 1e-3 * (fabs(ref[t]) + 1));
    }
    heavy_bounded<<<1, n>>>(din, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        float s = 0;
        for (int k = 0; k < 48; k++) s += hin[k * n + t] * hin[(47 - k) * n + t];
        CHECK_NEAR(hout[t], s, 1e-3 * (fabs(s) + 1));
    }
    CK(cudaFree(din));
    CK(cudaFree(dout));
    return CHECK_DONE();
}
