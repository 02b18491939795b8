// NVCC_FLAGS: -lcuda
// ENV: TRANSFER_TO_NPU_DEVICES=2 LD_LIBRARY_PATH=build/lib
/*
 * drv_multidev.cu - two devices through the driver API (skipped with fewer): each primary
 * context is bound to its device, the runtime follows cuCtxSetCurrent and the driver follows
 * cudaSetDevice, allocations report their device, created contexts on device 1, peer copies.
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    int n = 0;
    CHECK_EQ(cuDeviceGetCount(&n), CUDA_SUCCESS);
    if (n < 2) {
        printf("drv_multidev: %d device(s), skipped\n", n);
        return CHECK_DONE();
    }
    CUcontext p0, p1, cur;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&p0, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&p1, 1), CUDA_SUCCESS);
    CHECK(p0 != p1);

    CHECK_EQ(cuCtxSetCurrent(p1), CUDA_SUCCESS);
    int rdev = -1;
    CHECK_EQ(cudaGetDevice(&rdev), cudaSuccess);
    CHECK_EQ(rdev, 1);
    CUdevice d = -1;
    CHECK_EQ(cuCtxGetDevice(&d), CUDA_SUCCESS);
    CHECK_EQ(d, 1);
    CUdeviceptr b1;
    CHECK_EQ(cuMemAlloc(&b1, 4096), CUDA_SUCCESS);
    int ord = -1;
    CHECK_EQ(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, b1), CUDA_SUCCESS);
    CHECK_EQ(ord, 1);
    CUcontext owner = NULL;
    CHECK_EQ(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, b1), CUDA_SUCCESS);
    CHECK(owner == p1);

    /* The runtime switches device: the driver's current context follows. */
    CHECK_EQ(cudaSetDevice(0), cudaSuccess);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == p0);
    CUdeviceptr b0;
    CHECK_EQ(cuMemAlloc(&b0, 4096), CUDA_SUCCESS);
    CHECK_EQ(cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, b0), CUDA_SUCCESS);
    CHECK_EQ(ord, 0);

    /* Peer copy between the two devices. */
    int can = 0;
    CHECK_EQ(cuDeviceCanAccessPeer(&can, 0, 1), CUDA_SUCCESS);
    CHECK_EQ(can, 1);
    int h[1024], back[1024];
    for (int i = 0; i < 1024; i++) h[i] = 5 * i + 1;
    CHECK_EQ(cuMemcpyHtoD(b0, h, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyPeer(b1, p1, b0, p0, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(cuCtxPushCurrent(p1), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(back, b1, sizeof back), CUDA_SUCCESS);
    CHECK(memcmp(h, back, sizeof h) == 0);
    CUcontext popped;
    CHECK_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);

    /* A created context on device 1. */
    CUcontext c1;
    CHECK_EQ(cuCtxCreate(&c1, NULL, 0, 1), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetDevice(&d), CUDA_SUCCESS);
    CHECK_EQ(d, 1);
    CHECK_EQ(cudaGetDevice(&rdev), cudaSuccess);
    CHECK_EQ(rdev, 1);
    CUstream s;
    CHECK_EQ(cuStreamCreate(&s, 0), CUDA_SUCCESS);
    CUcontext sctx;
    CHECK_EQ(cuStreamGetCtx(s, &sctx), CUDA_SUCCESS);
    CHECK(sctx == c1);
    CUdevice sdev = -1;
    CHECK_EQ(cuStreamGetDevice(s, &sdev), CUDA_SUCCESS);
    CHECK_EQ(sdev, 1);
    CHECK_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
    CHECK_EQ(cuCtxDestroy(c1), CUDA_SUCCESS);

    CHECK_EQ(cuMemFree(b0), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(b1), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(1), CUDA_SUCCESS);
    return CHECK_DONE();
}
