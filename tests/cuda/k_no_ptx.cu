// NVCC_FLAGS: -gencode arch=compute_86,code=sm_86
// EXPECT_EXIT: 0
// A binary that embeds only SASS for sm_86 and no PTX: a device that cannot run that SASS (other
// architectures; the NPU, which can only translate PTX, whatever compute capability it reports)
// must refuse the launch with cudaErrorNoKernelImageForDevice instead of crashing; the process stays
// usable (the error is not sticky). On an sm_86/sm_89 GPU the kernel runs and is checked instead.
#include "k_util.h"

__global__ void twice(int *p) { p[threadIdx.x] *= 2; }

int main(void)
{
    int *d, h[32];
    for (int i = 0; i < 32; i++) h[i] = i;
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    twice<<<1, 32>>>(d);
    cudaError_t e = cudaGetLastError();
    if (prop.major == 8 && prop.minor >= 6) {
        CK(e); CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 32; i++) CHECK_EQ(h[i], 2 * i);
    } else {
        CHECK_MSG(e == cudaErrorNoKernelImageForDevice, "launch without a usable image: %s", cudaGetErrorName(e));
        CK(cudaDeviceSynchronize());                        /* not sticky */
        CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 32; i++) CHECK_EQ(h[i], i);      /* the kernel did not run */
    }
    return CHECK_DONE();
}
