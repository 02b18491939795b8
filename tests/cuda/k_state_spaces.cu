// Every state space: static __shared__ and dynamic extern __shared__ (two typed views at offsets),
// a local array indexed with run-time indices (forced to .local), __constant__ memory written with
// cudaMemcpyToSymbol (also at an offset), __device__ globals with initialisers read back with
// cudaMemcpyFromSymbol, cudaGetSymbolAddress/Size, and generic pointers into shared, local and
// global memory passed to one __noinline__ device function (cvta / generic ld/st).
#include "k_util.h"

#define T 128
__constant__ float c_coef[16];
__constant__ int c_off[4];
__device__ int g_init[4] = {11, 22, 33, 44};
__device__ unsigned long long g_sum;
__device__ float g_arr[T];

__device__ __noinline__ int touch(int *p, int n, int add)   /* generic pointer: shared, local or global */
{
    int s = 0;
    for (int i = 0; i < n; i++) { p[i] += add; s += p[i]; }
    return s;
}

__global__ void spaces(const int *idx, int *gout, int *out)
{
    __shared__ int s_static[T];
    extern __shared__ unsigned char dyn[];
    float *d_f = (float *)dyn;                 /* first T floats */
    int *d_i = (int *)(dyn + T * sizeof(float)); /* then T ints */
    int local[32];
    int t = threadIdx.x;
    for (int k = 0; k < 32; k++) local[k] = k * t + c_off[k & 3];
    s_static[t] = t * 2;
    d_f[t] = c_coef[t & 15] * t;
    d_i[t] = g_init[t & 3] + t;
    __syncthreads();
    int j = idx[t];                           /* run-time index into local memory */
    out[t * 8 + 0] = local[j & 31] + local[(j >> 5) & 31];
    out[t * 8 + 1] = s_static[(t + 5) % T];
    out[t * 8 + 2] = (int)d_f[(t + 7) % T];
    out[t * 8 + 3] = d_i[T - 1 - t];
    __syncthreads();
    int gen_s = 0, gen_l = 0, gen_g = 0;
    if (t == 0) gen_s = touch(s_static, 4, 1000);            /* shared through a generic pointer */
    gen_l = touch(local + (j & 7), 4, t);                    /* local */
    gen_g = touch(gout + t * 4, 4, 7);                       /* global */
    __syncthreads();
    out[t * 8 + 4] = gen_s;
    out[t * 8 + 5] = gen_l;
    out[t * 8 + 6] = gen_g + s_static[t & 3];
    out[t * 8 + 7] = __isShared(s_static) * 1 + __isLocal(local) * 2 + __isGlobal(gout) * 4 + __isShared(gout) * 8;
    g_arr[t] = d_f[t] + 1.0f;
    atomicAdd(&g_sum, (unsigned long long)t);
    if (t == 0) g_init[0] = -1;
}

int main(void)
{
    float coef[16]; int off[4] = {5, -3, 100, 7}, idx[T];
    for (int i = 0; i < 16; i++) coef[i] = 0.5f * i - 2;
    for (int t = 0; t < T; t++) idx[t] = (int)(k_rand32() & 0x3ff);
    CK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
    CK(cudaMemcpyToSymbol(c_off, off, 2 * sizeof(int)));
    CK(cudaMemcpyToSymbol(c_off, off + 2, 2 * sizeof(int), 2 * sizeof(int)));   /* offset write */
    unsigned long long zero = 0;
    CK(cudaMemcpyToSymbol(g_sum, &zero, sizeof zero));
    int init_back[4];
    CK(cudaMemcpyFromSymbol(init_back, g_init, sizeof init_back));
    for (int k = 0; k < 4; k++) CHECK_EQ(init_back[k], 11 * (k + 1));      /* initialisers reach the device */
    size_t sz = 0; void *addr = NULL;
    CK(cudaGetSymbolSize(&sz, g_arr)); CHECK_EQ(sz, T * sizeof(float));
    CK(cudaGetSymbolAddress(&addr, g_arr)); CHECK(addr != NULL);
    int *didx, *dg, *dout; static int out[T * 8], gin[T * 4];
    for (int i = 0; i < T * 4; i++) gin[i] = i;
    CK(cudaMalloc(&didx, sizeof idx)); CK(cudaMalloc(&dg, sizeof gin)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(didx, idx, sizeof idx, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dg, gin, sizeof gin, cudaMemcpyHostToDevice));
    spaces<<<1, T, T * (sizeof(float) + sizeof(int))>>>(didx, dg, dout);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < T; t++) {
        int j = idx[t], local[32];
        for (int k = 0; k < 32; k++) local[k] = k * t + off[k & 3];
        int e[8];
        e[0] = local[j & 31] + local[(j >> 5) & 31];
        e[1] = ((t + 5) % T) * 2;
        e[2] = (int)(coef[((t + 7) % T) & 15] * ((t + 7) % T));
        e[3] = 11 * (((T - 1 - t) & 3) + 1) + (T - 1 - t);
        e[4] = t == 0 ? (0 + 1000) + (2 + 1000) + (4 + 1000) + (6 + 1000) : 0;
        int s = 0; for (int k = 0; k < 4; k++) s += local[(j & 7) + k] + t;
        e[5] = s;
        int sg = 0; for (int k = 0; k < 4; k++) sg += t * 4 + k + 7;
        e[6] = sg + (t & 3) * 2 + 1000;
        e[7] = 1 + 2 + 4;
        for (int k = 0; k < 8; k++)
            if (out[t * 8 + k] != e[k] && bad++ < 20) CHECK_MSG(0, "thread %d item %d: got %d want %d", t, k, out[t * 8 + k], e[k]);
    }
    CHECK_EQ(bad, 0);
    float arr[T]; unsigned long long sum = 0; int init_after[4];
    CK(cudaMemcpyFromSymbol(arr, g_arr, sizeof arr));
    CK(cudaMemcpyFromSymbol(&sum, g_sum, sizeof sum));
    CK(cudaMemcpyFromSymbol(init_after, g_init, sizeof(int), 0));
    CK(cudaMemcpyFromSymbol(init_after + 1, g_init, sizeof(int), 3 * sizeof(int)));   /* offset read */
    for (int t = 0; t < T; t++) if (arr[t] != coef[t & 15] * t + 1.0f && bad++ < 20) CHECK_MSG(0, "g_arr[%d]", t);
    CHECK_EQ(sum, (unsigned long long)T * (T - 1) / 2);
    CHECK_EQ(init_after[0], -1);
    CHECK_EQ(init_after[1], 44);
    /* the symbol address is usable as an ordinary device pointer */
    float first;
    CK(cudaMemcpy(&first, addr, sizeof first, cudaMemcpyDeviceToHost));
    CHECK(first == coef[0] * 0 + 1.0f);
    return CHECK_DONE();
}
