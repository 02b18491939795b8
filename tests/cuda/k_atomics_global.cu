// NVCC_FLAGS: -arch=sm_80
// Atomics on global memory, every type and op: atomicAdd int/unsigned/ull/float/double/__half2,
// atomicSub, atomicMin/Max signed, unsigned and 64-bit, atomicAnd/Or/Xor 32/64-bit, atomicExch
// 32/64/float, atomicCAS 32/64 (exactly one winner per slot). Checks: final values, and the values
// the atomics return (atomicAdd's old values form a permutation; exchanged values are all seen once).
// Inputs are integers so float/half sums are exact and order-independent.
#include "k_util.h"
#include <cuda_fp16.h>
#include <limits.h>

#define NT 1024

struct acc {
    int iadd; unsigned uadd; unsigned long long ulladd; float fadd; double dadd; __half2 hadd;
    int isub; int imin, imax; unsigned umin, umax; long long llmin, llmax; unsigned long long ullmin, ullmax;
    unsigned uand, uor, uxor; unsigned long long ulland, ullor, ullxor;
    int exch; unsigned long long exch64; float fexch;
    int cas[8]; unsigned long long cas64[8];
};

__global__ void atom(acc *a, const int *v, int *old_add, int *old_exch, int *cas_win, unsigned long long *old_exch64)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = v[t];
    old_add[t] = atomicAdd(&a->iadd, 1);
    atomicAdd(&a->uadd, (unsigned)x);
    atomicAdd(&a->ulladd, (unsigned long long)x << 20);
    atomicAdd(&a->fadd, (float)(x % 100));
    atomicAdd(&a->dadd, (double)x * 0.5);
    atomicAdd(&a->hadd, __halves2half2(__int2half_rn(t & 1), __int2half_rn((t & 3) == 0)));
    atomicSub(&a->isub, x);
    atomicMin(&a->imin, x - 5000);
    atomicMax(&a->imax, x - 5000);
    atomicMin(&a->umin, (unsigned)x * 2654435761u);
    atomicMax(&a->umax, (unsigned)x * 2654435761u);
    atomicMin(&a->llmin, ((long long)x - 5000) * 4294967296ll);
    atomicMax(&a->llmax, ((long long)x - 5000) * 4294967296ll);
    atomicMin(&a->ullmin, (unsigned long long)x * 0x9E3779B97F4A7C15ull);
    atomicMax(&a->ullmax, (unsigned long long)x * 0x9E3779B97F4A7C15ull);
    atomicAnd(&a->uand, ~(1u << (t & 31)) | (t < 512 ? 0u : 0xffffffffu));
    atomicOr(&a->uor, 1u << (x & 31));
    atomicXor(&a->uxor, (unsigned)x);
    atomicAnd(&a->ulland, ~(1ull << (t & 63)) | (t < 700 ? 0ull : ~0ull));
    atomicOr(&a->ullor, 1ull << (x & 63));
    atomicXor(&a->ullxor, (unsigned long long)x << 17);
    old_exch[t] = atomicExch(&a->exch, t);
    old_exch64[t] = atomicExch(&a->exch64, (unsigned long long)t << 40);
    atomicExch(&a->fexch, 2.5f);
    cas_win[t] = atomicCAS(&a->cas[t & 7], -1, t) == -1;
    atomicCAS(&a->cas64[t & 7], 0ull, ((unsigned long long)t << 33) | 1);
}

int main(void)
{
    static int v[NT], old_add[NT], old_exch[NT], cas_win[NT]; static unsigned long long old_exch64[NT];
    for (int i = 0; i < NT; i++) v[i] = (int)(k_rand32() % 10000);
    acc h; memset(&h, 0, sizeof h);
    h.isub = 1000000; h.imin = 1 << 30; h.imax = -(1 << 30); h.umin = ~0u; h.umax = 0; h.llmin = LLONG_MAX; h.llmax = LLONG_MIN;
    h.ullmin = ~0ull; h.ullmax = 0; h.uand = ~0u; h.ulland = ~0ull; h.exch = -7; h.exch64 = 12345; h.fexch = 0;
    for (int k = 0; k < 8; k++) { h.cas[k] = -1; h.cas64[k] = 0; }
    h.hadd = __halves2half2(__float2half(0.0f), __float2half(0.0f));
    acc *da; int *dv, *dold, *dex, *dwin; unsigned long long *dex64;
    CK(cudaMalloc(&da, sizeof h)); CK(cudaMalloc(&dv, sizeof v)); CK(cudaMalloc(&dold, sizeof old_add));
    CK(cudaMalloc(&dex, sizeof old_exch)); CK(cudaMalloc(&dwin, sizeof cas_win)); CK(cudaMalloc(&dex64, sizeof old_exch64));
    CK(cudaMemcpy(da, &h, sizeof h, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dv, v, sizeof v, cudaMemcpyHostToDevice));
    atom<<<NT / 128, 128>>>(da, dv, dold, dex, dwin, dex64);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    acc g; CK(cudaMemcpy(&g, da, sizeof g, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(old_add, dold, sizeof old_add, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(old_exch, dex, sizeof old_exch, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cas_win, dwin, sizeof cas_win, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(old_exch64, dex64, sizeof old_exch64, cudaMemcpyDeviceToHost));

    unsigned uadd = 0, umin = ~0u, umax = 0, uand = ~0u, uor = 0, uxor = 0;
    unsigned long long ulladd = 0, ullmin = ~0ull, ullmax = 0, ulland = ~0ull, ullor = 0, ullxor = 0;
    float fadd = 0; double dadd = 0; int isub = 1000000, imin = 1 << 30, imax = -(1 << 30); long long llmin = LLONG_MAX, llmax = LLONG_MIN;
    for (int t = 0; t < NT; t++) {
        int x = v[t];
        uadd += x; ulladd += (unsigned long long)x << 20; fadd += (float)(x % 100); dadd += x * 0.5; isub -= x;
        imin = x - 5000 < imin ? x - 5000 : imin; imax = x - 5000 > imax ? x - 5000 : imax;
        unsigned hx = (unsigned)x * 2654435761u; umin = hx < umin ? hx : umin; umax = hx > umax ? hx : umax;
        long long lx = ((long long)x - 5000) * 4294967296ll; llmin = lx < llmin ? lx : llmin; llmax = lx > llmax ? lx : llmax;
        unsigned long long ux = (unsigned long long)x * 0x9E3779B97F4A7C15ull; ullmin = ux < ullmin ? ux : ullmin; ullmax = ux > ullmax ? ux : ullmax;
        uand &= ~(1u << (t & 31)) | (t < 512 ? 0u : 0xffffffffu); uor |= 1u << (x & 31); uxor ^= (unsigned)x;
        ulland &= ~(1ull << (t & 63)) | (t < 700 ? 0ull : ~0ull); ullor |= 1ull << (x & 63); ullxor ^= (unsigned long long)x << 17;
    }
    CHECK_EQ(g.iadd, NT); CHECK_EQ(g.uadd, uadd); CHECK_EQ(g.ulladd, ulladd);
    CHECK(g.fadd == fadd); CHECK(g.dadd == dadd);
    CHECK(__half2float(__low2half(g.hadd)) == NT / 2.0f); CHECK(__half2float(__high2half(g.hadd)) == NT / 4.0f);
    CHECK_EQ(g.isub, isub); CHECK_EQ(g.imin, imin); CHECK_EQ(g.imax, imax); CHECK_EQ(g.umin, umin); CHECK_EQ(g.umax, umax);
    CHECK_EQ(g.llmin, llmin); CHECK_EQ(g.llmax, llmax); CHECK(g.ullmin == ullmin); CHECK(g.ullmax == ullmax);
    CHECK_EQ(g.uand, uand); CHECK_EQ(g.uor, uor); CHECK_EQ(g.uxor, uxor);
    CHECK(g.ulland == ulland); CHECK(g.ullor == ullor); CHECK(g.ullxor == ullxor);
    CHECK(g.fexch == 2.5f);
    /* atomicAdd returns every old value 0..NT-1 exactly once */
    static char seen[NT + 1]; memset(seen, 0, sizeof seen);
    for (int t = 0; t < NT; t++) if (old_add[t] >= 0 && old_add[t] < NT) seen[old_add[t]]++;
    int perm = 1; for (int t = 0; t < NT; t++) perm &= seen[t] == 1;
    CHECK_MSG(perm, "atomicAdd old values are not a permutation");
    /* atomicExch: the returned values plus the final value are {-7} U {0..NT-1}, each once */
    memset(seen, 0, sizeof seen);
    int okx = 1;
    for (int t = 0; t <= NT; t++) {
        int val = t < NT ? old_exch[t] : g.exch;
        if (val == -7) seen[NT]++; else if (val >= 0 && val < NT) seen[val]++; else okx = 0;
    }
    for (int t = 0; t <= NT; t++) okx &= seen[t] == 1;
    CHECK_MSG(okx, "atomicExch chain broken");
    memset(seen, 0, sizeof seen); okx = 1;
    for (int t = 0; t <= NT; t++) {
        unsigned long long val = t < NT ? old_exch64[t] : g.exch64;
        if (val == 12345) seen[NT]++; else if ((val & ((1ull << 40) - 1)) == 0 && (val >> 40) < NT) seen[val >> 40]++; else okx = 0;
    }
    for (int t = 0; t <= NT; t++) okx &= seen[t] == 1;
    CHECK_MSG(okx, "atomicExch 64-bit chain broken");
    /* atomicCAS: exactly one winner per slot, and the slot holds the winner's id */
    for (int k = 0; k < 8; k++) {
        int wins = 0, who = -1;
        for (int t = k; t < NT; t += 8) if (cas_win[t]) { wins++; who = t; }
        CHECK_EQ(wins, 1); CHECK_EQ(g.cas[k], who);
        CHECK((g.cas64[k] & 1) && ((g.cas64[k] >> 33) & 7) == (unsigned long long)k);
    }
    return CHECK_DONE();
}
