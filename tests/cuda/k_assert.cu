// EXPECT_EXIT: 0
// assert() in a kernel: a kernel whose assertions hold completes with cudaSuccess; a kernel where
// one thread's assertion fails makes the synchronisation return cudaErrorAssert (710), and the
// error is sticky: later calls (another sync, a malloc) keep reporting it. The program checks this
// itself and exits 0.
#undef NDEBUG
#include "k_util.h"
#include <assert.h>

__global__ void checked(const int *v, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    assert(v[t] != 42);
    out[t] = v[t] * 2;
}

int main(void)
{
    int v[256], out[256];
    for (int i = 0; i < 256; i++) v[i] = i + 100;
    int *dv, *dout;
    CK(cudaMalloc(&dv, sizeof v)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
    checked<<<2, 128>>>(dv, dout, 256);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 256; i++) if (out[i] != v[i] * 2) { CHECK_MSG(0, "out[%d]", i); break; }
    v[77] = 42;
    CK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
    checked<<<2, 128>>>(dv, dout, 256);
    cudaError_t le = cudaGetLastError();                 /* the launch is valid; may already see the fault */
    CHECK_MSG(le == cudaSuccess || le == cudaErrorAssert, "launch: %s", cudaGetErrorName(le));
    cudaError_t e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorAssert, "sync returned %s", cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    CHECK_MSG(e == cudaErrorAssert, "second sync returned %s (sticky)", cudaGetErrorName(e));
    void *p = NULL;
    e = cudaMalloc(&p, 16);
    CHECK_MSG(e == cudaErrorAssert, "malloc after the assert returned %s (sticky)", cudaGetErrorName(e));
    return CHECK_DONE();
}
