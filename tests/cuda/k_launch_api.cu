// Launch paths: cudaLaunchKernel called explicitly (args array, 3D grid/block, dynamic shared
// memory, a created stream), <<<grid, block, shmem, stream>>> with dynamic shared memory on a
// non-default stream, cudaLaunchKernelExC with a launch config (no attributes), and a kernel
// launched twice on different streams with results checked after cudaStreamSynchronize.
#include "k_util.h"

__global__ void scale3d(const float *in, float *out, float s, int nx, int ny)
{
    extern __shared__ float tile[];
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
    int lt = threadIdx.y * blockDim.x + threadIdx.x;
    tile[lt] = (x < nx && y < ny) ? in[(z * ny + y) * nx + x] : 0.0f;
    __syncthreads();
    int rev = blockDim.x * blockDim.y - 1 - lt;              /* read another thread's slot */
    int rx = blockIdx.x * blockDim.x + rev % blockDim.x, ry = blockIdx.y * blockDim.y + rev / blockDim.x;
    if (x < nx && y < ny && rx < nx && ry < ny) out[(z * ny + y) * nx + x] = tile[rev] * s;
    else if (x < nx && y < ny) out[(z * ny + y) * nx + x] = -1.0f;
}

int main(void)
{
    const int nx = 37, ny = 19, nz = 3, n = nx * ny * nz;
    static float in[37 * 19 * 3], out[37 * 19 * 3];
    for (int i = 0; i < n; i++) in[i] = (float)(i % 113);
    float *din, *dout;
    CK(cudaMalloc(&din, sizeof in)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    cudaStream_t st, st2;
    CK(cudaStreamCreate(&st)); CK(cudaStreamCreateWithFlags(&st2, cudaStreamNonBlocking));
    dim3 block(8, 4, 1), grid((nx + 7) / 8, (ny + 3) / 4, nz);
    size_t shm = 8 * 4 * sizeof(float);
    /* how the expected output looks for scale s */
    auto expect = [&](float s, int i) {
        int x = i % nx, y = (i / nx) % ny;
        int bx = x / 8, by = y / 4, lt = (y % 4) * 8 + x % 8, rev = 31 - lt;
        int rx = bx * 8 + rev % 8, ry = by * 4 + rev / 8, z = i / (nx * ny);
        return (rx < nx && ry < ny) ? in[(z * ny + ry) * nx + rx] * s : -1.0f;
    };
    /* 1: explicit cudaLaunchKernel */
    float s1 = 2.0f; int ix = nx, iy = ny;
    void *args[] = {&din, &dout, &s1, &ix, &iy};
    CK(cudaLaunchKernel((const void *)scale3d, grid, block, args, shm, st));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) if (out[i] != expect(2.0f, i) && bad++ < 10) CHECK_MSG(0, "cudaLaunchKernel: out[%d] %g vs %g", i, out[i], expect(2.0f, i));
    /* 2: triple chevrons with dynamic shared memory on a non-blocking stream */
    CK(cudaMemsetAsync(dout, 0, sizeof out, st2));
    scale3d<<<grid, block, shm, st2>>>(din, dout, 0.5f, nx, ny);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st2));
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (out[i] != expect(0.5f, i) && bad++ < 10) CHECK_MSG(0, "<<<>>>: out[%d] %g vs %g", i, out[i], expect(0.5f, i));
    /* 3: cudaLaunchKernelExC */
    cudaLaunchConfig_t cfg; memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = grid; cfg.blockDim = block; cfg.dynamicSmemBytes = shm; cfg.stream = st; cfg.attrs = NULL; cfg.numAttrs = 0;
    float s3 = -3.0f;
    void *args3[] = {&din, &dout, &s3, &ix, &iy};
    CK(cudaLaunchKernelExC(&cfg, (const void *)scale3d, args3));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (out[i] != expect(-3.0f, i) && bad++ < 10) CHECK_MSG(0, "ExC: out[%d] %g vs %g", i, out[i], expect(-3.0f, i));
    CHECK_EQ(bad, 0);
    CK(cudaStreamDestroy(st)); CK(cudaStreamDestroy(st2));
    return CHECK_DONE();
}
