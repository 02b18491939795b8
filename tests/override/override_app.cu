// override_app.cu - a CUDA program whose kernels a native plugin (override_plugin.c)
// overrides through TRANSFER_TO_NPU_KERNELS. Expects: saxpy and scale_struct give the right
// results (the plugin computes them), bad_sig fails at launch with
// cudaErrorInvalidDeviceFunction (the plugin declares the wrong parameters), and the
// process keeps working afterwards (a non-overridden kernel still runs).
#include <cstdio>
#include "check.h"

struct Affine { float mul; float add; int pad[4]; double extra; };

__global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void scale_struct(Affine f, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * f.mul + f.add + (float)f.extra;
}
__global__ void bad_sig(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}
__global__ void plain(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 2 * i;
}

int main()
{
    const int n = 1000;
    float *x, *y;
    int *p;
    cudaMallocManaged(&x, n * sizeof(float));
    cudaMallocManaged(&y, n * sizeof(float));
    cudaMallocManaged(&p, n * sizeof(int));
    for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1; }
    saxpy<<<(n + 127) / 128, 128>>>(2.f, x, y, n);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < n; i++) bad += y[i] != 2.f * i + 1;
    CHECK_EQ(bad, 0);

    Affine f = { 3.f, 0.5f, { 0, 0, 0, 0 }, 0.25 };
    scale_struct<<<(n + 127) / 128, 128>>>(f, y, n);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    bad = 0;
    for (int i = 0; i < n; i++) bad += y[i] != (2.f * i + 1) * 3.f + 0.75f;
    CHECK_EQ(bad, 0);

    bad_sig<<<(n + 127) / 128, 128>>>(p, n);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
    plain<<<(n + 127) / 128, 128>>>(p, n);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    bad = 0;
    for (int i = 0; i < n; i++) bad += p[i] != 2 * i;
    CHECK_EQ(bad, 0);
    cudaFree(x); cudaFree(y); cudaFree(p);
    return CHECK_DONE();
}
