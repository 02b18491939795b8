// NVCC_FLAGS: -arch=sm_90
// PTX modifiers spelled with "::" (cache hints .L1::no_allocate, .L2::128B, .L2::cache_hint with
// its policy operand, .shared::cta state spaces, fence.proxy.async.shared::cta) and cp.async's
// optional operands: src-size (the rest zero-filled), the ignore-src predicate (true: zeros are
// copied), a cache policy. Expected values from the PTX ISA text.
#include "k_util.h"

__global__ void k(const unsigned *g, unsigned *o)
{
    __shared__ unsigned sh[16];
    unsigned a, b, c, d;
    unsigned long long pol;
    asm volatile("ld.global.L1::no_allocate.u32 %0, [%1];" : "=r"(a) : "l"(g));
    asm volatile("ld.global.nc.L2::128B.u32 %0, [%1+4];" : "=r"(b) : "l"(g));
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    asm volatile("ld.global.L2::cache_hint.u32 %0, [%1+8], %2;" : "=r"(c) : "l"(g), "l"(pol));
    unsigned sa = (unsigned)__cvta_generic_to_shared(sh);
    for (int i = 0; i < 16; i++) sh[i] = 0xdeadbeefu;
    int t = 1, f = 0;
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 16, p; }" :: "r"(sa), "l"(g), "r"(t));
    asm volatile("{ .reg .pred p; setp.ne.s32 p, %2, 0; cp.async.ca.shared.global [%0], [%1], 16, p; }" :: "r"(sa + 16), "l"(g), "r"(f));
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" :: "r"(sa + 32), "l"(g + 4), "l"(pol));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, 4;" :: "r"(sa + 48), "l"(g));
    asm volatile("cp.async.wait_all;");
    asm volatile("fence.proxy.async.shared::cta;");
    unsigned long long gen;
    asm volatile("cvta.shared::cta.u64 %0, %1;" : "=l"(gen) : "l"((unsigned long long)(sa + 16)));
    d = *(unsigned *)gen;
    o[0] = a; o[1] = b; o[2] = c; o[3] = d;
    for (int i = 0; i < 16; i++) o[4 + i] = sh[i];
}

int main()
{
    const unsigned h[8] = {11, 22, 33, 44, 55, 66, 77, 88};
    unsigned *g, *o, r[20];
    CK(cudaMalloc(&g, sizeof h)); CK(cudaMalloc(&o, sizeof r));
    CK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
    k<<<1, 1>>>(g, o);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost));
    const unsigned want[20] = {11, 22, 33, 11,
                               0, 0, 0, 0,                 // ignore-src true: zeros
                               11, 22, 33, 44,             // ignore-src false: copied
                               55, 66, 77, 88,             // with a cache policy
                               11, 0,                      // cp-size 8, src-size 4: the rest zero-filled
                               0xdeadbeefu, 0xdeadbeefu};  // untouched
    for (int i = 0; i < 20; i++) CHECK_MSG(r[i] == want[i], "word %d: %u (0x%x), want %u", i, r[i], r[i], want[i]);
    CK(cudaFree(g)); CK(cudaFree(o));
    return CHECK_DONE();
}
