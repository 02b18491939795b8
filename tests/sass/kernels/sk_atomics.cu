// SASS decoder corpus: atomics and reductions of every kind and scope on global, shared and
// generic memory (ATOMG, ATOM, ATOMS, RED, CAS), compiled to cubins only, never run.
// Built per SM (PTX compute_75 for sm_75, compute_80 for the others).
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ int *generic_ptr(int *g, int *s, int k) { return (k & 1) ? g : s; }

__global__ void atomics(int *gi, unsigned *gu, unsigned long long *gl, long long *gs, float *gf,
                        double *gd, __half2 *gh, __nv_bfloat162 *gb, int k)
{
    __shared__ int si[64];
    __shared__ unsigned long long sl[8];
    int t = threadIdx.x;
    si[t & 63] = t;
    __syncthreads();
    int r = atomicAdd(gi, t) + atomicSub(gi + 1, 2) + atomicExch(gi + 2, t) +
            atomicMin(gi + 3, t) + atomicMax(gi + 4, -t) + atomicAnd(gi + 5, t) +
            atomicOr(gi + 6, t) + atomicXor(gi + 7, t) + atomicCAS(gi + 8, t, t + 1);
    r += (int)atomicInc(gu, 17u) + (int)atomicDec(gu + 1, 9u) + (int)atomicMin(gu + 2, (unsigned)t) +
         (int)atomicMax(gu + 3, (unsigned)t);
    r += (int)atomicAdd(gl, 1ull) + (int)atomicCAS(gl + 1, 0ull, 5ull) + (int)atomicExch(gl + 2, 3ull) +
         (int)atomicMin(gs, (long long)t) + (int)atomicMax(gs + 1, (long long)-t) +
         (int)atomicAnd(gl + 3, 7ull) + (int)atomicOr(gl + 4, 8ull) + (int)atomicXor(gl + 5, 9ull);
    r += (int)atomicAdd(gf, 1.5f) + (int)atomicAdd(gd, 2.5) + (int)atomicExch(gf + 1, 3.0f);
    atomicAdd(gh, __halves2half2(__float2half(1.0f), __float2half(2.0f)));
#if __CUDA_ARCH__ >= 800
    atomicAdd(gb, __floats2bfloat162_rn(1.0f, 2.0f));
#endif
    atomicAdd_block(gi + 9, 1); atomicAdd_system(gi + 10, 1); atomicExch_system(gu + 4, 2u);
    atomicCAS_block(gi + 11, 0, 1); atomicMax_system(gi + 12, t);
    atomicAdd(gi + 13, 1); atomicAnd(gi + 14, 3); atomicInc(gu + 5, 4u);     // results unused: RED
    atomicAdd(gf + 2, 1.0f); atomicAdd(gd + 1, 1.0); atomicMin(gs + 2, 4ll);
    r += atomicAdd(&si[t & 31], 1) + atomicMin(&si[(t + 1) & 63], t) + atomicMax(&si[2], t) +
         atomicInc((unsigned *)&si[3], 8u) + atomicDec((unsigned *)&si[4], 8u) + atomicAnd(&si[5], 1) +
         atomicOr(&si[6], 2) + atomicXor(&si[7], 3) + atomicExch(&si[8], t) + atomicCAS(&si[9], 1, t);
    r += (int)atomicCAS(&sl[t & 7], 1ull, 2ull) + (int)atomicExch(&sl[1], 5ull) + (int)atomicAdd(&sl[2], 1ull);
    int *p = generic_ptr(gi, si, k);
    r += atomicAdd(p + 20, 1) + atomicCAS(p + 21, 0, 1) + atomicMax(p + 22, t) + atomicExch(p + 23, 2);
    gi[64 + t] = r;
}
