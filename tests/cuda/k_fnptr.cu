// Device function pointers crossing the host boundary: the address of a __device__ function is
// stored in a __device__ variable, read back with cudaMemcpyFromSymbol, passed to a kernel as an
// ordinary parameter (and inside a struct) and called there; a table of pointers in __constant__
// memory indexed per thread; and a pointer selected at run time on the device.
#include "k_util.h"

typedef float (*unary)(float);
__device__ float f_sq(float x) { return x * x; }
__device__ float f_neg(float x) { return -x; }
__device__ float f_half(float x) { return x * 0.5f; }
__device__ unary d_sq = f_sq;
__device__ unary d_neg = f_neg;
__constant__ unary c_tab[3] = {f_sq, f_neg, f_half};

struct op_pack { unary f; float bias; };

__global__ void apply(unary f, op_pack pk, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    out[i * 4 + 0] = f(x);
    out[i * 4 + 1] = pk.f(x) + pk.bias;
    out[i * 4 + 2] = c_tab[i % 3](x);
    unary g = (x > 0) ? f_half : f_neg;
    out[i * 4 + 3] = g(x);
}

int main(void)
{
    const int n = 100;
    float in[100], out[400];
    for (int i = 0; i < n; i++) in[i] = (float)(i - 50) * 0.25f;
    unary h_sq = NULL, h_neg = NULL;
    CK(cudaMemcpyFromSymbol(&h_sq, d_sq, sizeof h_sq));
    CK(cudaMemcpyFromSymbol(&h_neg, d_neg, sizeof h_neg));
    CHECK(h_sq != NULL && h_neg != NULL && h_sq != h_neg);
    float *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    op_pack pk = {h_neg, 10.0f};
    apply<<<2, 64>>>(h_sq, pk, din, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) {
        float x = in[i];
        float e[4] = {x * x, -x + 10.0f, i % 3 == 0 ? x * x : i % 3 == 1 ? -x : x * 0.5f, x > 0 ? x * 0.5f : -x};
        for (int k = 0; k < 4; k++) if (out[i * 4 + k] != e[k] && bad++ < 10) CHECK_MSG(0, "i=%d item %d: %g vs %g", i, k, out[i * 4 + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
