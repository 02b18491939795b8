// NVCC_FLAGS: -arch=sm_80
// lop3.b32 with every one of the 256 immediate truth tables (the emitter expands an immediate
// LUT into a plain C expression, lop3_expr in ptx_emit.c), against a host model written from the
// PTX ISA (bit i of d = bit (a_i<<2 | b_i<<1 | c_i) of the LUT). Two kernels: `all` runs the 256
// LUTs in one thread (a long body: the per-thread copy), `one` runs 8 LUTs per launch in small
// kernels of 32-thread blocks (the lane-group copy). (A register LUT, __lop3 in
// the prelude, is not valid PTX for ptxas; tests/ptx/int_ops.ptx covers it.)
#include "k_util.h"

#include <utility>

#define N 64

template <int L> __device__ __forceinline__ unsigned lop3i(unsigned a, unsigned b, unsigned c)
{
    unsigned d;
    asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(L));
    return d;
}
template <int... L> __device__ __forceinline__ void run(unsigned a, unsigned b, unsigned c, unsigned *r,
                                                         std::integer_sequence<int, L...>)
{
    ((r[L] = lop3i<L>(a, b, c)), ...);
}

__global__ void all(const unsigned *x, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    run(x[3 * i], x[3 * i + 1], x[3 * i + 2], o + 256 * i, std::make_integer_sequence<int, 256>());
}

/* 8 LUTs L0..L0+7, one element per thread, arithmetic around them so the lane loop has work */
template <int L0> __global__ void one(const unsigned *x, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = x[3 * i], b = x[3 * i + 1], c = x[3 * i + 2];
    o[8 * i + 0] = lop3i<L0 + 0>(a, b, c); o[8 * i + 1] = lop3i<L0 + 1>(a, b, c);
    o[8 * i + 2] = lop3i<L0 + 2>(a, b, c); o[8 * i + 3] = lop3i<L0 + 3>(a, b, c);
    o[8 * i + 4] = lop3i<L0 + 4>(a, b, c); o[8 * i + 5] = lop3i<L0 + 5>(a, b, c);
    o[8 * i + 6] = lop3i<L0 + 6>(a, b, c); o[8 * i + 7] = lop3i<L0 + 7>(a, b, c);
}

template <int L0> static void launch_one(const unsigned *dx, unsigned *dout)
{
    one<L0><<<N / 32, 32>>>(dx, dout + (L0 / 8) * 8 * N, N);
    if constexpr (L0 + 8 < 256) launch_one<L0 + 8>(dx, dout);
}

int main(void)
{
    static unsigned x[3 * N], o[256 * N], o2[256 * N];
    for (int i = 0; i < 3 * N; i++) x[i] = k_rand32();
    x[0] = 0; x[1] = 0xffffffffu; x[2] = 0x0f0f0f0fu;      /* all 8 minterms appear in a few bits */
    unsigned *dx, *dout, *dout2;
    CK(cudaMalloc(&dx, sizeof x)); CK(cudaMalloc(&dout, sizeof o)); CK(cudaMalloc(&dout2, sizeof o2));
    CK(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice));
    all<<<N / 32, 32>>>(dx, dout, N);
    CK(cudaGetLastError());
    launch_one<0>(dx, dout2);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(o2, dout2, sizeof o2, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) {
        unsigned a = x[3 * i], b = x[3 * i + 1], c = x[3 * i + 2];
        for (int L = 0; L < 256; L++) {
            unsigned e = k_lop3(a, b, c, (unsigned)L);
            unsigned g1 = o[256 * i + L], g2 = o2[(L / 8) * 8 * N + 8 * i + L % 8];
            if (g1 != e && bad++ < 20) CHECK_MSG(0, "all: lut %02x a=%08x b=%08x c=%08x: got %08x want %08x", L, a, b, c, g1, e);
            if (g2 != e && bad++ < 20) CHECK_MSG(0, "one: lut %02x a=%08x b=%08x c=%08x: got %08x want %08x", L, a, b, c, g2, e);
        }
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
