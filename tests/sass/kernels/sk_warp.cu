// SASS decoder corpus: warp-level operations (SHFL in every mode and operand form, VOTE,
// MATCH, REDUX, WARPSYNC, activemask), compiled to cubins only, never run.
// Built per SM (PTX compute_75 for sm_75, compute_80 for the others).
__global__ void warp_ops(const int *in, int *out, const long long *l, unsigned mask)
{
    int t = threadIdx.x, v = in[t];
    int s0 = __shfl_sync(0xffffffff, v, 3), s1 = __shfl_sync(0xffffffff, v, t & 7, 16);
    int s2 = __shfl_up_sync(mask, v, 2, 8), s3 = __shfl_down_sync(0xffffffff, v, in[t + 1]);
    int s4 = __shfl_xor_sync(0xffffffff, v, 5), s5 = __shfl_sync(mask, v, in[t + 2], in[t + 3]);
    unsigned b = __ballot_sync(0xffffffff, v > 3);
    int any = __any_sync(mask, v == 0), all = __all_sync(0xffffffff, v != 1);
    unsigned eq = __match_any_sync(0xffffffff, v);
    int pred;
    unsigned m2 = __match_all_sync(0xffffffff, l[t], &pred);
    unsigned m3 = __match_any_sync(mask, l[t + 1]);
    int r = 0;
#if __CUDA_ARCH__ >= 800
    r = __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(0xffffffff, v) +
        (int)__reduce_max_sync(mask, (unsigned)v) + (int)__reduce_and_sync(0xffffffff, (unsigned)v) +
        (int)__reduce_or_sync(0xffffffff, (unsigned)v) + (int)__reduce_xor_sync(0xffffffff, (unsigned)v);
#endif
    __syncwarp(mask);
    unsigned act = __activemask();
    int lane, lt, le, gt, ge;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    out[t] = s0 + s1 + s2 + s3 + s4 + s5 + (int)b + any + all + (int)eq + (int)m2 + pred +
             (int)m3 + r + (int)act + lane + lt + le + gt + ge;
}
