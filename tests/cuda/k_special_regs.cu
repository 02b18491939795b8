// Special registers: threadIdx/blockIdx/blockDim/gridDim in 3D, %laneid (== linear tid % 32 for
// any block shape), %warpid < %nwarpid, %lanemask_eq/lt/le/gt/ge, %smid < %nsmid, and %ntid via
// blockDim. Host reference: the linearisation rules of the CUDA programming guide.
#include "k_util.h"

__device__ unsigned sreg_laneid() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ unsigned sreg_warpid() { unsigned r; asm volatile("mov.u32 %0, %%warpid;" : "=r"(r)); return r; }
__device__ unsigned sreg_nwarpid() { unsigned r; asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(r)); return r; }
__device__ unsigned sreg_smid() { unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }
__device__ unsigned sreg_nsmid() { unsigned r; asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r)); return r; }

__global__ void regs(unsigned *o)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned nthr = blockDim.x * blockDim.y * blockDim.z;
    unsigned *r = o + (bid * nthr + tid) * 16;
    r[0] = threadIdx.x; r[1] = threadIdx.y; r[2] = threadIdx.z;
    r[3] = blockIdx.x; r[4] = blockIdx.y; r[5] = blockIdx.z;
    r[6] = blockDim.x; r[7] = blockDim.y; r[8] = blockDim.z;
    r[9] = gridDim.x * 10000 + gridDim.y * 100 + gridDim.z;
    r[10] = sreg_laneid();
    r[11] = sreg_warpid() < sreg_nwarpid();
    r[12] = sreg_smid() < sreg_nsmid();
    unsigned eq, lt, le, gt, ge;
    asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq)); asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le)); asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    r[13] = eq; r[14] = lt;
    r[15] = (le == (lt | eq)) && (gt == ~le) && (ge == ~lt);
}

int main(void)
{
    const dim3 grid(2, 3, 2), block(5, 3, 4);   /* 60 threads: one full warp and one of 28 */
    const unsigned nthr = 60, nblk = 12, total = nthr * nblk;
    unsigned *d; static unsigned o[720 * 16];
    CK(cudaMalloc(&d, total * 16 * sizeof(unsigned)));
    CK(cudaMemset(d, 0xff, total * 16 * sizeof(unsigned)));
    regs<<<grid, block>>>(d);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, d, sizeof o, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (unsigned bz = 0; bz < 2; bz++) for (unsigned by = 0; by < 3; by++) for (unsigned bx = 0; bx < 2; bx++)
    for (unsigned tz = 0; tz < 4; tz++) for (unsigned ty = 0; ty < 3; ty++) for (unsigned tx = 0; tx < 5; tx++) {
        unsigned tid = tx + 5 * (ty + 3 * tz), bid = bx + 2 * (by + 3 * bz), lane = tid % 32;
        unsigned *r = o + (bid * nthr + tid) * 16;
        unsigned e[16] = {tx, ty, tz, bx, by, bz, 5, 3, 4, 2 * 10000 + 3 * 100 + 2, lane, 1, 1,
                          1u << lane, (1u << lane) - 1, 1};
        for (int k = 0; k < 16; k++)
            if (r[k] != e[k] && bad++ < 20) CHECK_MSG(0, "block %u thread %u reg %d: got %u want %u", bid, tid, k, r[k], e[k]);
    }
    CHECK_EQ(bad, 0);
    return CHECK_DONE();
}
