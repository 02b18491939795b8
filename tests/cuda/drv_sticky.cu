// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_sticky.cu - a kernel that executes `trap` through the driver API: the launch is
 * accepted, cuCtxSynchronize returns CUDA_ERROR_LAUNCH_FAILED, the context keeps failing
 * (sticky) until cuDevicePrimaryCtxReset, after which new work runs normally.
 */
#include <cuda.h>
#include "check.h"

static const char *ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry maybe_trap(.param .u64 p, .param .u32 bad)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r1, [bad];\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  setp.ne.u32 %p1, %r2, %r1;\n"
    "  @%p1 bra OK;\n"
    "  trap;\n"
    "OK:\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r2;\n"
    "  ret;\n"
    "}\n";

static CUresult launch(CUmodule mod, CUdeviceptr d, unsigned bad)
{
    CUfunction f;
    CUresult r = cuModuleGetFunction(&f, mod, "maybe_trap");
    if (r != CUDA_SUCCESS) return r;
    void *args[] = { &d, &bad };
    return cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, NULL, args, NULL);
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    CUmodule mod;
    CHECK_EQ(cuModuleLoadData(&mod, ptx), CUDA_SUCCESS);
    CUdeviceptr d;
    CHECK_EQ(cuMemAlloc(&d, 256), CUDA_SUCCESS);
    CHECK_EQ(launch(mod, d, 1000), CUDA_SUCCESS);         /* no thread traps */
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    unsigned h[64];
    CHECK_EQ(cuMemcpyDtoH(h, d, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(h[63], 63);

    CUresult r = launch(mod, d, 13);
    CHECK_MSG(r == CUDA_SUCCESS || r == CUDA_ERROR_LAUNCH_FAILED, "launch: %d", (int)r);
    CHECK_EQ(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED);
    CHECK_EQ(cuMemcpyDtoH(h, d, sizeof h), CUDA_ERROR_LAUNCH_FAILED);   /* sticky */
    CUdeviceptr d2;
    CHECK_EQ(cuMemAlloc(&d2, 256), CUDA_ERROR_LAUNCH_FAILED);
    /* context-free calls still answer */
    int n = 0;
    CHECK_EQ(cuDeviceGetCount(&n), CUDA_SUCCESS);

    CHECK_EQ(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS);
    CUcontext ctx2;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx2, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx2), CUDA_SUCCESS);
    CUmodule mod2;
    CHECK_EQ(cuModuleLoadData(&mod2, ptx), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&d2, 256), CUDA_SUCCESS);
    CHECK_EQ(launch(mod2, d2, 1000), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(h, d2, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(h[17], 17);
    CHECK_EQ(cuModuleUnload(mod2), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(d2), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
