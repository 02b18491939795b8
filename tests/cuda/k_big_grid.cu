// Large and odd grids: 100000 blocks of 32 threads in x (blockIdx.x above 65535), a 2D grid with
// gridDim.y = 65535, a 3D grid of single-thread blocks, and 1024-thread blocks; every thread marks
// its own slot once (atomicAdd) so a block run twice or skipped shows up.
#include "k_util.h"

__global__ void mark_x(unsigned *hits) { atomicAdd(&hits[blockIdx.x * blockDim.x + threadIdx.x], 1u); }
__global__ void mark_y(unsigned *hits) { atomicAdd(&hits[blockIdx.y * gridDim.x + blockIdx.x], 1u + threadIdx.x * 0); }
__global__ void mark_3d(unsigned *hits)
{
    unsigned id = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    atomicAdd(&hits[id], id + 1);
}
__global__ void mark_1024(unsigned *hits) { hits[blockIdx.x * 1024 + threadIdx.x] += threadIdx.x + 1; }

static int all_equal(const unsigned *h, size_t n, unsigned v, const char *what)
{
    for (size_t i = 0; i < n; i++) if (h[i] != v) { CHECK_MSG(0, "%s: slot %zu = %u", what, i, h[i]); return 0; }
    return 1;
}

int main(void)
{
    const size_t nx = 100000 * 32;
    unsigned *d, *h = (unsigned *)malloc(nx * 4);
    CK(cudaMalloc(&d, nx * 4));
    CK(cudaMemset(d, 0, nx * 4));
    mark_x<<<100000, 32>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, nx * 4, cudaMemcpyDeviceToHost));
    CHECK(all_equal(h, nx, 1, "x grid"));
    CK(cudaMemset(d, 0, 2 * 65535 * 4));
    mark_y<<<dim3(2, 65535), 2>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, 2 * 65535 * 4, cudaMemcpyDeviceToHost));
    CHECK(all_equal(h, 2 * 65535, 2, "y grid"));
    CK(cudaMemset(d, 0, 7 * 5 * 3 * 4));
    mark_3d<<<dim3(7, 5, 3), 1>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, 7 * 5 * 3 * 4, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 105; i++) CHECK_EQ(h[i], i + 1);
    CK(cudaMemset(d, 0, 8 * 1024 * 4));
    mark_1024<<<8, 1024>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, 8 * 1024 * 4, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < 8 * 1024; i++) if (h[i] != (i % 1024) + 1) { CHECK_MSG(0, "1024 block slot %u", i); break; }
    free(h);
    return CHECK_DONE();
}
