// Block barriers: __syncthreads inside loops (odd-even transposition sort of 256 keys in shared
// memory, one barrier per phase; a shared-memory stencil iterated 20 times), barriers in a loop
// with a uniform data-dependent trip count, and __syncthreads_count / _and / _or.
// Host reference: qsort and a scalar stencil; predicate counts computed on the host.
#include "k_util.h"

#define B 256

__global__ void oddeven(int *data)
{
    __shared__ int s[B];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * B + t];
    __syncthreads();
    for (int phase = 0; phase < B; phase++) {
        int i = 2 * t + (phase & 1);
        if (t < B / 2 && i + 1 < B && s[i] > s[i + 1]) { int x = s[i]; s[i] = s[i + 1]; s[i + 1] = x; }
        __syncthreads();
    }
    data[blockIdx.x * B + t] = s[t];
}

__global__ void stencil(float *data, const int *iters)
{
    __shared__ float s[B + 2];
    int t = threadIdx.x;
    s[t + 1] = data[t];
    if (t == 0) { s[0] = 0; s[B + 1] = 0; }
    __syncthreads();
    int n = iters[0];                      /* uniform, known only at run time */
    for (int k = 0; k < n; k++) {
        float v = 0.25f * s[t] + 0.5f * s[t + 1] + 0.25f * s[t + 2];
        __syncthreads();
        s[t + 1] = v;
        __syncthreads();
    }
    data[t] = s[t + 1];
}

__global__ void votes(const int *in, int *out)
{
    int t = threadIdx.x, v = in[blockIdx.x * blockDim.x + t];
    int c = __syncthreads_count(v > 50);
    int a = __syncthreads_and(v >= 0);
    int o = __syncthreads_or(v == 77);
    int a2 = __syncthreads_and(v > 50);
    if (t == 0) { out[blockIdx.x * 4 + 0] = c; out[blockIdx.x * 4 + 1] = a != 0; out[blockIdx.x * 4 + 2] = o != 0; out[blockIdx.x * 4 + 3] = a2 != 0; }
}

static int cmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }

int main(void)
{
    static int keys[4 * B], sorted[4 * B], vin[8 * 200], vout[8 * 4];
    static float st[B], st_out[B];
    for (int i = 0; i < 4 * B; i++) keys[i] = (int)(k_rand32() % 2000) - 1000;
    for (int i = 0; i < B; i++) st[i] = (float)(k_rand32() % 100);
    for (int i = 0; i < 8 * 200; i++) vin[i] = (int)(k_rand32() % 100);
    for (int i = 0; i < 200; i++) { vin[3 * 200 + i] = 60 + i % 30; vin[5 * 200 + i] = i == 199 ? -1 : 77; }
    int *dk, *dit, *dvin, *dvout; float *dst; int iters = 20;
    CK(cudaMalloc(&dk, sizeof keys)); CK(cudaMalloc(&dst, sizeof st)); CK(cudaMalloc(&dit, sizeof iters));
    CK(cudaMalloc(&dvin, sizeof vin)); CK(cudaMalloc(&dvout, sizeof vout));
    CK(cudaMemcpy(dk, keys, sizeof keys, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dst, st, sizeof st, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dit, &iters, sizeof iters, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dvin, vin, sizeof vin, cudaMemcpyHostToDevice));
    oddeven<<<4, B>>>(dk);
    stencil<<<1, B>>>(dst, dit);
    votes<<<8, 200>>>(dvin, dvout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(sorted, dk, sizeof sorted, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(st_out, dst, sizeof st_out, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vout, dvout, sizeof vout, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 4; b++) qsort(keys + b * B, B, sizeof(int), cmp);
    int bad = 0;
    for (int i = 0; i < 4 * B; i++) if (sorted[i] != keys[i] && bad++ < 10) CHECK_MSG(0, "sort[%d] %d vs %d", i, sorted[i], keys[i]);
    float s[B + 2] = {0};
    for (int i = 0; i < B; i++) s[i + 1] = st[i];
    for (int k = 0; k < iters; k++) {
        float n[B];
        for (int t = 0; t < B; t++) n[t] = 0.25f * s[t] + 0.5f * s[t + 1] + 0.25f * s[t + 2];
        for (int t = 0; t < B; t++) s[t + 1] = n[t];
    }
    /* device may contract into fma: allow a few ulps of values <= 100 after 20 steps */
    for (int i = 0; i < B; i++) if (fabsf(st_out[i] - s[i + 1]) > 1e-4f && bad++ < 10) CHECK_MSG(0, "stencil[%d] %g vs %g", i, st_out[i], s[i + 1]);
    for (int b = 0; b < 8; b++) {
        int c = 0, a = 1, o = 0, a2 = 1;
        for (int i = 0; i < 200; i++) { int v = vin[b * 200 + i]; c += v > 50; a &= v >= 0; o |= v == 77; a2 &= v > 50; }
        CHECK_EQ(vout[b * 4 + 0], c); CHECK_EQ(vout[b * 4 + 1], a); CHECK_EQ(vout[b * 4 + 2], o); CHECK_EQ(vout[b * 4 + 3], a2);
    }
    CHECK_EQ(vout[3 * 4 + 3], 1);   /* block 3: all > 50 */
    CHECK_EQ(vout[5 * 4 + 1], 0);   /* block 5: one negative */
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
