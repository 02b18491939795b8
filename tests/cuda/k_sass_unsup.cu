// A kernel whose machine code holds an instruction the SASS front end does not run yet is
// never run wrongly: its launch fails with cudaErrorNoKernelImageForDevice (what a GPU says to
// code of another architecture), the error is left for cudaGetLastError and is not sticky, the
// process goes on, device data survives, and a kernel of the same module still runs. The
// instruction here is IMMA (mma.sync m16n8k16 s8, integer tensor cores), not lifted yet; when
// it is, pick another (tests/sasslift/run_sasslift.sh checks the report's line for it).
// NVCC_FLAGS: -gencode arch=compute_80,code=sm_80
#include "k_util.h"

__global__ void imma(const int *a, const int *b, int *d)
{
    int l = threadIdx.x;
    int acc[4] = {0, 0, 0, 0};
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3]) : "r"(a[l]), "r"(a[32 + l]), "r"(b[l]));
    for (int i = 0; i < 4; i++) d[l * 4 + i] = acc[i];
}

__global__ void scale(int *x, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= k;
}

int main(void)
{
    enum { N = 1000 };
    static int h[N], back[N];
    for (int i = 0; i < N; i++) h[i] = (int)(k_rand32() % 1000) - 500;
    int *x, *a, *b, *d;
    CK(cudaMalloc(&x, sizeof h)); CK(cudaMalloc(&a, 256)); CK(cudaMalloc(&b, 128)); CK(cudaMalloc(&d, 512));
    CK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    imma<<<1, 32>>>(a, b, d);
    CHECK_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);        /* not sticky: read once, then cleared */
    CK(cudaDeviceSynchronize());
    cudaFuncAttributes fa;
    CHECK_EQ(cudaFuncGetAttributes(&fa, imma), cudaErrorNoKernelImageForDevice);
    (void)cudaGetLastError();
    scale<<<(N + 255) / 256, 256>>>(x, N, 3);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(back, x, sizeof back, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) if (back[i] != 3 * h[i] && bad++ < 4) CHECK_MSG(0, "x[%d] = %d, want %d", i, back[i], 3 * h[i]);
    CHECK_EQ(bad, 0);
    imma<<<1, 32>>>(a, b, d);                          /* again: the same answer, no crash */
    CHECK_EQ(cudaGetLastError(), cudaErrorNoKernelImageForDevice);
    CK(cudaFree(x)); CK(cudaFree(a)); CK(cudaFree(b)); CK(cudaFree(d));
    return CHECK_DONE();
}
