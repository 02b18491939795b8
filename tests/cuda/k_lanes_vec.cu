// Vector loads and stores (ld/st .v2/.v4) and aligned aggregate copies in the lane-group copy,
// the shapes of cuda-samples alignedTypes: grid-stride copies of an __align__(8) {uint, uint}
// struct (ld/st.global.v2.u32), an __align__(16) RGBA {uint x4} (v4.u32), a 32-byte struct of two
// __align__(16) members (two v4 per element), float2/float4/double2/longlong2, through the loop
// nvcc unrolls by 4 (the address register is advanced after the store: a store whose address
// operand was not counted as read let the advance run ahead of it). Also a vector copy through
// shared memory with a barrier, a strided (non-contiguous) vector gather, and guarded tails.
// Every element is compared with the host's copy; block sizes from K_LANE_BLOCKS.
#include "k_util.h"

struct __align__(8) LA32 { unsigned l, a; };
struct __align__(16) RGBA32 { unsigned r, g, b, a; };
struct RGBA32_2 { RGBA32 c1, c2; };

template <class T> __global__ void gcopy(T *o, const T *i, int n)
{
    int tid = blockDim.x * blockIdx.x + threadIdx.x, nt = blockDim.x * gridDim.x;
    for (int p = tid; p < n; p += nt) o[p] = i[p];
}

template <class T> __global__ void scopy(T *o, const T *i, int n)   /* through shared memory, reversed in the block */
{
    __shared__ T s[256];
    int t = threadIdx.x, p = blockIdx.x * blockDim.x + t;
    if (p < n) s[t] = i[p];
    __syncthreads();
    int q = blockIdx.x * blockDim.x + (blockDim.x - 1 - t);
    if (q < n) o[p < n ? p : q] = s[blockDim.x - 1 - t];
}

template <class T> __global__ void gather(T *o, const T *i, int n, int stride)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) o[p] = i[(p * stride) % n];
}

template <class T> static void fill(T *h, size_t n)
{
    unsigned *u = (unsigned *)h;
    for (size_t k = 0; k < n * sizeof(T) / 4; k++) u[k] = k_rand32();
}

template <class T> static void run(const char *name, int n)
{
    T *h = k_hnew<T>(n), *r = k_hnew<T>(n), *e = k_hnew<T>(n);
    fill(h, n);
    T *di = k_dup(h, n), *dout = k_dnew<T>(n);
    for (unsigned bi = 0; bi < K_NLANE_BLOCKS; bi++) {
        unsigned bs = K_LANE_BLOCKS[bi];
        for (int grid : {1, 7, 64}) {
            CK(cudaMemset(dout, 0, n * sizeof(T)));
            gcopy<T><<<grid, bs>>>(dout, di, n);
            k_sync_ok(name);
            k_get(r, dout, n);
            int bad = 0;
            for (int k = 0; k < n; k++)
                if (memcmp(&r[k], &h[k], sizeof(T)) && bad++ < 3)
                    CHECK_MSG(0, "%s gcopy grid %d block %u: element %d differs", name, grid, bs, k);
            CHECK_MSG(bad == 0, "%s gcopy grid %d block %u: %d elements differ", name, grid, bs, bad);
        }
        if (bs <= 256) {
            int nb = (n + bs - 1) / bs;
            CK(cudaMemset(dout, 0, n * sizeof(T)));
            scopy<T><<<nb, bs>>>(dout, di, n);
            k_sync_ok(name);
            k_get(r, dout, n);
            for (int p = 0; p < n; p++) {   /* host model of scopy */
                int b = p / bs, t = p % bs, q = b * bs + (bs - 1 - t);
                if (q < n) e[p] = h[q];
            }
            int bad = 0;
            for (int p = 0; p < n; p++) {
                int b = p / bs, t = p % bs, q = b * bs + (bs - 1 - t);
                if (q < n && memcmp(&r[p], &e[p], sizeof(T))) bad++;
            }
            CHECK_MSG(bad == 0, "%s scopy block %u: %d elements differ", name, bs, bad);
        }
        for (int stride : {1, 3}) {
            CK(cudaMemset(dout, 0, n * sizeof(T)));
            gather<T><<<(n + bs - 1) / bs, bs>>>(dout, di, n, stride);
            k_sync_ok(name);
            k_get(r, dout, n);
            int bad = 0;
            for (int p = 0; p < n; p++)
                if (memcmp(&r[p], &h[(int)(((long long)p * stride) % n)], sizeof(T))) bad++;
            CHECK_MSG(bad == 0, "%s gather stride %d block %u: %d elements differ", name, stride, bs, bad);
        }
    }
    CK(cudaFree(di)); CK(cudaFree(dout));
    free(h); free(r); free(e);
}

int main(void)
{
    const int n = 10007;   /* not a multiple of any block size or of the unroll factor */
    run<LA32>("LA32", n);
    run<RGBA32>("RGBA32", n);
    run<RGBA32_2>("RGBA32_2", n);
    run<float2>("float2", n);
    run<float4>("float4", n);
    run<double2>("double2", n);
    run<longlong2>("longlong2", n);
    run<ushort4>("ushort4", n);
    return CHECK_DONE();
}
