// Local arrays keep their declared alignment (`.local .align 64/256`, what numba's
// cuda.local.array(..., alignment=N) and alignas(N) on a local array produce): the frame of every
// thread is aligned to the largest .align of the function, in block mode, in barrier-phase mode
// (frames of all threads live side by side in the block state: the stride must keep each one
// aligned) and in thread mode (fibers, via k_local_align_fibers.cu); a .func's own frame too.
// Each thread reports its array's address modulo the alignment (must be 0) and a value read back
// through a dynamic index (the array really lives in local memory).
#include "k_util.h"

/* the address as the hardware sees it: an opaque move, so that nvcc cannot fold `addr % A` to 0
 * from the declared alignment */
__device__ __forceinline__ unsigned long long addr_of(const void *p)
{
    unsigned long long a;
    asm volatile("mov.b64 %0, %1;" : "=l"(a) : "l"(p));
    return a;
}

template <int A>
__device__ __noinline__ unsigned long long in_func(int j)
{
    alignas(A) float buf[24];
    for (int i = 0; i < 24; i++) buf[i] = (float)(i * j);
    return addr_of(&buf[0]) % A + 1000ull * (unsigned long long)buf[(j * 7) % 24];
}

template <int A>
__global__ void plain(unsigned long long *o, int j)
{
    alignas(A) float buf[40];
    for (int i = 0; i < 40; i++) buf[i] = (float)(i * j + threadIdx.x);
    int t = threadIdx.x;
    o[3 * t] = addr_of(&buf[0]) % A;
    o[3 * t + 1] = (unsigned long long)buf[(t * 7 + j) % 40];
    o[3 * t + 2] = in_func<A>(j + t);
}

template <int A>
__global__ void phased(unsigned long long *o, int j)
{
    __shared__ int s[256];
    alignas(A) int buf[33];
    int t = threadIdx.x;
    for (int i = 0; i < 33; i++) buf[i] = i * j + t;
    s[t] = buf[(t + j) % 33];
    __syncthreads();
    o[3 * t] = addr_of(&buf[0]) % A;
    o[3 * t + 1] = (unsigned long long)(s[(t + 1) % blockDim.x] + buf[(t * 3) % 33]);
    o[3 * t + 2] = 0;
}

template <int A> static void run(int nt)
{
    unsigned long long *d = k_dnew<unsigned long long>(3 * nt), h[3 * 256];
    const int j = 5;
    plain<A><<<1, nt>>>(d, j);
    k_sync_ok("plain");
    k_get(h, d, 3 * nt);
    for (int t = 0; t < nt; t++) {
        CHECK_MSG(h[3 * t] == 0, "plain<%d> thread %d: array at offset %llu from a %d-byte boundary", A, t, h[3 * t], A);
        CHECK_EQ(h[3 * t + 1], (unsigned long long)(((t * 7 + j) % 40) * j + t));
        CHECK_EQ(h[3 * t + 2], 1000ull * (unsigned long long)((((j + t) * 7) % 24) * (j + t)));
    }
    phased<A><<<1, nt>>>(d, j);
    k_sync_ok("phased");
    k_get(h, d, 3 * nt);
    for (int t = 0; t < nt; t++) {
        int u = (t + 1) % nt;
        CHECK_MSG(h[3 * t] == 0, "phased<%d> thread %d: array at offset %llu from a %d-byte boundary", A, t, h[3 * t], A);
        CHECK_EQ(h[3 * t + 1], (unsigned long long)(((u + j) % 33) * j + u + ((t * 3) % 33) * j + t));
    }
    CK(cudaFree(d));
}

int main(void)
{
    for (int nt : {1, 3, 32, 100}) {
        run<16>(nt);
        run<64>(nt);
        run<256>(nt);
        run<1024>(nt);
    }
    return CHECK_DONE();
}
