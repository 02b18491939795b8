// Loads and stores with cache operators and the read-only path: __ldg (ld.global.nc) on scalars and
// vectors, __ldca/__ldcg/__ldcs/__ldlu/__ldcv, __stwb/__stcg/__stcs/__stwt, const __restrict__
// pointers, and volatile loads (ld.volatile). Semantics are plain loads/stores; only the hints differ.
#include "k_util.h"

__global__ void hints(const float *__restrict__ in, const float4 *__restrict__ in4, const int *ip, float *out, float4 *out4, int *iout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = __ldg(in + i), b = __ldca(in + (i + 1) % n), c = __ldcg(in + (i + 2) % n), d = __ldcs(in + (i + 3) % n);
    float e = __ldlu(in + (i + 4) % n), f = __ldcv(in + (i + 5) % n);
    float4 v = __ldg(in4 + i);
    int x = __ldg(ip + i);
    volatile const int *vp = ip;
    int y = vp[(i + 7) % n];
    __stwb(out + i * 4 + 0, a + b);
    __stcg(out + i * 4 + 1, c - d);
    __stcs(out + i * 4 + 2, e * f);
    __stwt(out + i * 4 + 3, v.x + v.y + v.z + v.w);
    __stcs(out4 + i, make_float4(v.w, v.z, v.y, v.x));
    iout[i] = x * 3 + y;
}

int main(void)
{
    const int n = 1000;
    static float in[1000], out[4000]; static float4 in4[1000], out4[1000]; static int ip[1000], iout[1000];
    for (int i = 0; i < n; i++) {
        in[i] = (float)(i % 50) * 0.5f; ip[i] = i * 7 - 300;
        in4[i] = make_float4((float)i, (float)(2 * i), 0.25f, -1.0f);
    }
    float *din, *dout; float4 *din4, *dout4; int *dip, *diout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out)); CK(cudaMalloc(&din4, sizeof in4));
    CK(cudaMalloc(&dout4, sizeof out4)); CK(cudaMalloc(&dip, sizeof ip)); CK(cudaMalloc(&diout, sizeof iout));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice)); CK(cudaMemcpy(din4, in4, sizeof in4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dip, ip, sizeof ip, cudaMemcpyHostToDevice));
    hints<<<(n + 127) / 128, 128>>>(din, din4, dip, dout, dout4, diout, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(out4, dout4, sizeof out4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(iout, diout, sizeof iout, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float e0 = in[i] + in[(i + 1) % n], e1 = in[(i + 2) % n] - in[(i + 3) % n], e2 = in[(i + 4) % n] * in[(i + 5) % n];
        float e3 = in4[i].x + in4[i].y + in4[i].z + in4[i].w;
        int ok = out[i * 4] == e0 && out[i * 4 + 1] == e1 && out[i * 4 + 2] == e2 && out[i * 4 + 3] == e3;
        ok &= out4[i].x == in4[i].w && out4[i].y == in4[i].z && out4[i].z == in4[i].y && out4[i].w == in4[i].x;
        ok &= iout[i] == ip[i] * 3 + ip[(i + 7) % n];
        if (!ok && bad++ < 10) CHECK_MSG(0, "element %d", i);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
