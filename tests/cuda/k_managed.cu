// Managed memory: cudaMallocManaged buffers written by the host, updated by kernels, read by the
// host after cudaDeviceSynchronize; a __managed__ global variable used by both sides; a managed
// buffer handed to cudaMemcpy and cudaMemPrefetchAsync-free paths; cudaPointerGetAttributes type.
#include "k_util.h"

__managed__ int m_total;
__managed__ float m_coef[4] = {1.0f, 0.5f, 0.25f, 0.125f};

__global__ void update(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { v[i] = v[i] * m_coef[i & 3] + 1.0f; atomicAdd(&m_total, 1); }
}

int main(void)
{
    const int n = 3000;
    float *v;
    CK(cudaMallocManaged(&v, n * sizeof(float)));
    for (int i = 0; i < n; i++) v[i] = (float)i;                  /* host writes directly */
    m_total = 5;
    m_coef[3] = 2.0f;                                             /* host changes a managed global */
    update<<<(n + 255) / 256, 256>>>(v, n);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    const float coef[4] = {1.0f, 0.5f, 0.25f, 2.0f};
    int bad = 0;
    for (int i = 0; i < n; i++) if (v[i] != (float)i * coef[i & 3] + 1.0f && bad++ < 10) CHECK_MSG(0, "v[%d] = %g", i, v[i]);
    CHECK_EQ(m_total, 5 + n);
    update<<<(n + 255) / 256, 256>>>(v, n);                     /* second round on the same pages */
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        float e = ((float)i * coef[i & 3] + 1.0f) * coef[i & 3] + 1.0f;
        if (v[i] != e && bad++ < 10) CHECK_MSG(0, "round 2 v[%d] = %g want %g", i, v[i], e);
    }
    float h[16];
    CK(cudaMemcpy(h, v, sizeof h, cudaMemcpyDefault));
    CHECK(h[3] == v[3]);
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, v));
    CHECK_EQ(pa.type, cudaMemoryTypeManaged);
    CK(cudaFree(v));
    return CHECK_DONE();
}
