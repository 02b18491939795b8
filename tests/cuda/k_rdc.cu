// NVCC_FLAGS: -rdc=true -x cu tests/cuda/k_rdc_b.cu.inc
// Separate compilation (-rdc=true): this unit calls rdc_poly() and reads rdc_table / rdc_counter,
// all defined in tests/cuda/k_rdc_b.cu.inc, and launches rdc_kernel_b from that unit. The fatbin
// wrapper is version 2 with one PTX per object; their .extern .func / .extern .global must link.
#include "k_util.h"

extern __device__ int rdc_table[8];
extern __device__ int rdc_counter;
extern __device__ int rdc_poly(int x);
__global__ void rdc_kernel_b(int *out, int n);

__global__ void rdc_kernel_a(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n) out[t] = rdc_poly(t) * 2 + rdc_table[(t + 1) & 7];
    if (t == 0) atomicAdd(&rdc_counter, 1);
}

static int h_poly(int x) { static const int tab[8] = {1, 1, 2, 3, 5, 8, 13, 21}; return 3 * x * x - 2 * x + tab[x & 7]; }

int main(void)
{
    const int n = 200; static const int tab[8] = {1, 1, 2, 3, 5, 8, 13, 21};
    int *d, h[200], zero = 0;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpyToSymbol(rdc_counter, &zero, sizeof zero));
    rdc_kernel_a<<<(n + 63) / 64, 64>>>(d, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) if (h[t] != h_poly(t) * 2 + tab[(t + 1) & 7]) { CHECK_MSG(0, "a: h[%d] = %d", t, h[t]); break; }
    rdc_kernel_b<<<(n + 63) / 64, 64>>>(d, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) if (h[t] != h_poly(t) + 1000) { CHECK_MSG(0, "b: h[%d] = %d", t, h[t]); break; }
    int c; CK(cudaMemcpyFromSymbol(&c, rdc_counter, sizeof c));
    CHECK_EQ(c, 101);   /* both units see the same variable */
    int t2[8]; CK(cudaMemcpyFromSymbol(t2, rdc_table, sizeof t2));
    for (int k = 0; k < 8; k++) CHECK_EQ(t2[k], tab[k]);
    return CHECK_DONE();
}
