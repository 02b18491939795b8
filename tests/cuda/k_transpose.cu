// Matrix transpose through a padded shared-memory tile (32x33 floats: the padding avoids bank
// conflicts on a GPU), 32x8 threads each moving 4 elements, non-square size not a multiple of 32.
// Host reference: out[j][i] == in[i][j], exact.
#include "k_util.h"

#define TD 32
#define BR 8

__global__ void transpose(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x, y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x; y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
    const int rows = 300, cols = 173;
    float *h = (float *)malloc(rows * cols * 4), *o = (float *)malloc(rows * cols * 4);
    for (int i = 0; i < rows * cols; i++) h[i] = (float)i * 0.5f - 7.0f;
    float *din, *dout;
    CK(cudaMalloc(&din, rows * cols * 4)); CK(cudaMalloc(&dout, rows * cols * 4));
    CK(cudaMemcpy(din, h, rows * cols * 4, cudaMemcpyHostToDevice)); CK(cudaMemset(dout, 0xff, rows * cols * 4));
    transpose<<<dim3((cols + TD - 1) / TD, (rows + TD - 1) / TD), dim3(TD, BR)>>>(dout, din, rows, cols);
    CK(cudaGetLastError());
    CK(cudaMemcpy(o, dout, rows * cols * 4, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            if (o[j * rows + i] != h[i * cols + j] && bad++ < 10) CHECK_MSG(0, "out[%d][%d] = %g want %g", j, i, o[j * rows + i], h[i * cols + j]);
    CHECK_EQ(bad, 0);
    free(h); free(o);
    return CHECK_DONE();
}
