// NVCC_FLAGS: -gencode arch=compute_86,code=sm_86
// A binary that embeds only machine code (SASS) for sm_86 and no PTX: the SASS front end
// (sass_decode.c, sass_lift.c) runs it, as it runs every architecture its decoder reads
// (sm_75, sm_80, sm_86, sm_87, sm_88, sm_89), although the device reports compute capability 8.0
// (an sm_80 GPU would refuse this binary; an emulator is not bound to the silicon's binary
// compatibility, and refusing code it can run would help nobody). Machine code it cannot read
// is refused with cudaErrorNoKernelImageForDevice: k_no_ptx_sm90.cu.
#include "k_util.h"

__global__ void twice(int *p) { p[threadIdx.x] = p[threadIdx.x] * 2 + (int)threadIdx.x; }

int main(void)
{
    int *d, h[32];
    for (int i = 0; i < 32; i++) h[i] = i * 7 - 100;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    twice<<<1, 32>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) CHECK_EQ(h[i], (i * 7 - 100) * 2 + i);
    cudaFuncAttributes a;
    CK(cudaFuncGetAttributes(&a, twice));
    CHECK_MSG(a.binaryVersion == 86, "binaryVersion %d", a.binaryVersion);   /* the image that runs */
    CHECK_EQ(a.ptxVersion, 86);   /* the virtual architecture it was compiled from (CUB reads it) */
    return CHECK_DONE();
}
