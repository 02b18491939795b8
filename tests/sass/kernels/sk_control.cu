// SASS decoder corpus: memory ordering, fences, barriers, async copies, cache hints,
// special registers, traps and system calls, indirect branches; compiled, never run.
// Built per SM (PTX compute_75 for sm_75, compute_80 for the others).
#include <cstdio>
#include <cassert>
#include <cuda_pipeline.h>

__device__ int dev_fn_a(int x) { return x * 3 + 1; }
__device__ int dev_fn_b(int x) { return x ^ 0x55; }
__device__ __noinline__ int recurse(int n) { return n < 2 ? n : recurse(n - 1) + recurse(n - 2); }

__global__ void control(int *g, const int *ro, float *f, int sel, unsigned long long *t)
{
    __shared__ float tile[256];
    __shared__ int flags[32];
    int i = threadIdx.x;
    int v = __ldg(ro + i) + __ldcg(ro + i + 1) + __ldca(ro + i + 2) + __ldcs(ro + i + 3) +
            __ldlu(ro + i + 4) + __ldcv(ro + i + 5);
    __stcg(g + i, v); __stcs(g + i + 32, v); __stwb(g + i + 64, v); __stwt(g + i + 96, v);
    int r;
    asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(r) : "l"(g));
    asm volatile("st.release.sys.global.b32 [%0], %1;" :: "l"(g + 1), "r"(r));
    asm volatile("ld.relaxed.cta.global.b32 %0, [%1];" : "=r"(r) : "l"(g + 2));
    asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(r) : "l"(g + 3));
    asm volatile("prefetch.global.L2 [%0];" :: "l"(g + 4));
    asm volatile("prefetch.global.L1 [%0];" :: "l"(g + 5));
    __threadfence_block(); __threadfence(); __threadfence_system();
    asm volatile("fence.acq_rel.gpu;"); asm volatile("fence.sc.cta;");
    __nanosleep(100 + i);
#if __CUDA_ARCH__ >= 800
    __pipeline_memcpy_async(&tile[i], f + i, sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
#else
    tile[i] = f[i];
#endif
    asm volatile("bar.sync 1, 64;");
    asm volatile("bar.arrive 2, 64;");
    int cnt = __syncthreads_count(v > 0), any = __syncthreads_or(v & 1), all = __syncthreads_and(v);
    asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 3, p; }" : "=r"(r) : "r"(v));
    flags[i & 31] = cnt + any + all + r;
    __syncwarp();
    unsigned long long c0 = clock64(), gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    unsigned smid, nsmid, warpid, gridid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(gridid));
    t[i] = c0 + gt + smid + nsmid + warpid + gridid + clock();
    int (*fn)(int) = (sel & 1) ? dev_fn_a : dev_fn_b;
    int w = fn(v);
    switch (sel & 7) {
    case 0: w += 3; break; case 1: w *= 5; break; case 2: w -= 7; break; case 3: w ^= 11; break;
    case 4: w |= 13; break; case 5: w &= 17; break; case 6: w <<= 1; break; default: w = 0;
    }
    if (sel > 100) printf("thread %d value %d %f\n", i, w, tile[i]);
    assert(w != 12345);
    if (sel == 999) __trap();
    if (sel == 998) __brkpt();
    int *m = (int *)malloc(16);
    if (m) { m[0] = w; w += m[0]; free(m); }
    g[i + 128] = w + flags[(i + 1) & 31] + recurse(sel & 15) + __isShared(g) + __isGlobal(f);
}
