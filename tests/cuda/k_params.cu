// Kernel parameters: a struct with mixed types and padding passed by value, a 1 KB struct, 16 KB and
// 32752-byte structs (CUDA 12.1+ allows up to 32764 bytes of parameters on Volta and later), 24 scalar
// parameters of every width interleaved to force alignment padding, a struct holding pointers,
// and by-value arrays of float4. Host reference: the values passed.
#include "k_util.h"

struct mixed { char c; double d; short s; int i; float f; char tail[3]; long long ll; unsigned char u8; };
struct big1k { int a[256]; };
struct big16k { double d[2048]; };
struct big32k { int v[8188]; };                 /* 32752 bytes + an 8-byte pointer = 32760 of the 32764 allowed */
struct ptrs { int *out; const int *in; int n; float scale; };
struct vecs { float4 v[4]; int2 w; };

__global__ void k_mixed(mixed m, long long *o)
{
    o[0] = m.c; o[1] = (long long)(m.d * 1000); o[2] = m.s; o[3] = m.i; o[4] = (long long)(m.f * 1000);
    o[5] = m.tail[0] + 10 * m.tail[1] + 100 * m.tail[2]; o[6] = m.ll; o[7] = m.u8;
}
__global__ void k_big(big1k b, long long *o)
{
    __shared__ long long part[256];
    int t = threadIdx.x;
    part[t] = (long long)b.a[t] * (t + 1);
    __syncthreads();
    if (t == 0) { long long s = 0; for (int k = 0; k < 256; k++) s += part[k]; o[0] = s; }
}
__global__ void k_max(big32k b, long long *o)
{
    __shared__ long long part[256];
    long long s = 0;
    for (int k = threadIdx.x; k < 8188; k += blockDim.x) s += (long long)b.v[k] * (k % 13 + 1);
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) { long long t = 0; for (int k = 0; k < (int)blockDim.x; k++) t += part[k]; o[0] = t; }
}
__global__ void k_huge(big16k b, double *o) { int t = threadIdx.x; double s = 0; for (int k = t; k < 2048; k += blockDim.x) s += b.d[k]; o[t] = s; }
__global__ void k_many(char a, short b, int c, long long d, float e, double f, unsigned char g, unsigned short h,
                       unsigned i, unsigned long long j, char k, double l, short m, float n, long long o_, int p,
                       char q, float r, double s, int *t_, unsigned char u, long long v, short w, double *out)
{
    out[0] = a + b + c + (double)d + e + f + g + h + i + (double)j + k + l + m + n + (double)o_ + p + q + r + s + u + (double)v + w;
    out[1] = (double)(t_ != NULL);
    if (t_) *t_ = 12345;
}
__global__ void k_ptrs(ptrs p) { int t = threadIdx.x; if (t < p.n) p.out[t] = (int)(p.in[t] * p.scale); }
__global__ void k_vecs(vecs v, float *o)
{
    int t = threadIdx.x;
    if (t < 4) o[t] = v.v[t].x + 2 * v.v[t].y + 3 * v.v[t].z + 4 * v.v[t].w;
    if (t == 4) o[4] = (float)(v.w.x - v.w.y);
}

int main(void)
{
    long long *dl; double *dd; int *di, *dj; float *df;
    CK(cudaMalloc(&dl, 16 * sizeof(long long))); CK(cudaMalloc(&dd, 256 * sizeof(double)));
    CK(cudaMalloc(&di, 64 * sizeof(int))); CK(cudaMalloc(&dj, 64 * sizeof(int))); CK(cudaMalloc(&df, 8 * sizeof(float)));

    mixed m; memset(&m, 0, sizeof m);
    m.c = -5; m.d = 3.25; m.s = -1234; m.i = 987654321; m.f = -2.5f; m.tail[0] = 1; m.tail[1] = 2; m.tail[2] = 3;
    m.ll = -1234567890123456789ll; m.u8 = 250;
    k_mixed<<<1, 1>>>(m, dl);
    long long o[8];
    CK(cudaGetLastError()); CK(cudaMemcpy(o, dl, sizeof o, cudaMemcpyDeviceToHost));
    CHECK_EQ(o[0], -5); CHECK_EQ(o[1], 3250); CHECK_EQ(o[2], -1234); CHECK_EQ(o[3], 987654321); CHECK_EQ(o[4], -2500);
    CHECK_EQ(o[5], 321); CHECK_EQ(o[6], -1234567890123456789ll); CHECK_EQ(o[7], 250);

    static big1k b; long long eb = 0;
    for (int k = 0; k < 256; k++) { b.a[k] = (int)(k_rand32() % 100000) - 50000; eb += (long long)b.a[k] * (k + 1); }
    k_big<<<1, 256>>>(b, dl);
    CK(cudaGetLastError()); CK(cudaMemcpy(o, dl, 8, cudaMemcpyDeviceToHost));
    CHECK_EQ(o[0], eb);

    static big16k h; double eh[64] = {0};
    for (int k = 0; k < 2048; k++) { h.d[k] = (double)(k % 97) - 40.0; eh[k % 64] += h.d[k]; }
    k_huge<<<1, 64>>>(h, dd);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    double gh[64]; CK(cudaMemcpy(gh, dd, sizeof gh, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) CHECK(gh[t] == eh[t]);     /* integers: exact */

    static big32k m32; long long e32 = 0;
    for (int k = 0; k < 8188; k++) { m32.v[k] = (int)(k_rand32() % 20001) - 10000; e32 += (long long)m32.v[k] * (k % 13 + 1); }
    k_max<<<1, 256>>>(m32, dl);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CK(cudaMemcpy(o, dl, 8, cudaMemcpyDeviceToHost));
    CHECK_EQ(o[0], e32);

    k_many<<<1, 1>>>(1, -2, 3, -4000000000ll, 0.5f, 0.25, 200, 60000, 4000000000u, 1ull << 40, -7, 1e10, -300, -0.75f,
                     -5, 6, 8, 1.5f, -2.125, dj, 9, 1ll << 35, -11, dd);
    CK(cudaGetLastError());
    double gm[2]; int tv;
    CK(cudaMemcpy(gm, dd, sizeof gm, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&tv, dj, 4, cudaMemcpyDeviceToHost));
    double em = 1 - 2 + 3 - 4000000000.0 + 0.5 + 0.25 + 200 + 60000 + 4000000000.0 + 1099511627776.0 - 7 + 1e10 - 300 - 0.75
              - 5 + 6 + 8 + 1.5 - 2.125 + 9 + 34359738368.0 - 11;
    CHECK(gm[0] == em);                                      /* every term is a dyadic rational: exact */
    CHECK(gm[1] == 1.0); CHECK_EQ(tv, 12345);

    int in[64], out[64]; for (int k = 0; k < 64; k++) in[k] = k * 3 - 50;
    CK(cudaMemcpy(di, in, sizeof in, cudaMemcpyHostToDevice));
    ptrs p = {dj, di, 50, 2.0f};
    CK(cudaMemset(dj, 0, 64 * sizeof(int)));
    k_ptrs<<<1, 64>>>(p);
    CK(cudaGetLastError()); CK(cudaMemcpy(out, dj, sizeof out, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 64; k++) CHECK_EQ(out[k], k < 50 ? in[k] * 2 : 0);

    vecs v; for (int k = 0; k < 4; k++) v.v[k] = make_float4(k, k + 1, k + 2, k + 3); v.w = make_int2(100, 58);
    k_vecs<<<1, 8>>>(v, df);
    CK(cudaGetLastError());
    float gv[5]; CK(cudaMemcpy(gv, df, sizeof gv, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++) CHECK(gv[k] == (float)(k + 2 * (k + 1) + 3 * (k + 2) + 4 * (k + 3)));
    CHECK(gv[4] == 42.0f);
    return CHECK_DONE();
}
