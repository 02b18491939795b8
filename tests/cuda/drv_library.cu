// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_library.cu - context-independent loading: cuLibraryLoadData from PTX text,
 * cuLibraryGetKernel, cuKernelGetFunction, a CUkernel launched directly, cuLibraryGetGlobal
 * and cuLibraryGetModule, kernel names and attributes, unload; unknown names and unloaded
 * libraries are rejected.
 */
#include <cuda.h>
#include <string.h>
#include "check.h"

static const char *ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 bias = 5;\n"
    ".visible .entry addbias(.param .u64 p, .param .u32 n)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<9>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  ld.param.u32 %r2, [n];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "  setp.ge.s32 %p1, %r1, %r2;\n"
    "  @%p1 bra END;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.u32 %r6, [%rd4];\n"
    "  mov.u64 %rd5, bias;\n"
    "  ld.global.u32 %r7, [%rd5];\n"
    "  add.s32 %r8, %r6, %r7;\n"
    "  st.global.u32 [%rd4], %r8;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);

    CUlibrary lib = NULL;
    CHECK_EQ(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
    CUkernel k = NULL, none = NULL;
    CHECK_EQ(cuLibraryGetKernel(&k, lib, "addbias"), CUDA_SUCCESS);
    CHECK_EQ(cuLibraryGetKernel(&none, lib, "missing"), CUDA_ERROR_NOT_FOUND);
    const char *name = NULL;
    CHECK_EQ(cuKernelGetName(&name, k), CUDA_SUCCESS);
    CHECK(name && strcmp(name, "addbias") == 0);
    CUlibrary back = NULL;
    CHECK_EQ(cuKernelGetLibrary(&back, k), CUDA_SUCCESS);
    CHECK(back == lib);
    unsigned count = 0;
    CHECK_EQ(cuLibraryGetKernelCount(&count, lib), CUDA_SUCCESS);
    CHECK_EQ(count, 1);

    CUfunction f = NULL;
    CHECK_EQ(cuKernelGetFunction(&f, k), CUDA_SUCCESS);
    CHECK(f != NULL);

    CUdeviceptr dbias = 0;
    size_t bsz = 0;
    CHECK_EQ(cuLibraryGetGlobal(&dbias, &bsz, lib, "bias"), CUDA_SUCCESS);
    CHECK_EQ(bsz, 4);
    unsigned bias = 0;
    CHECK_EQ(cuMemcpyDtoH(&bias, dbias, 4), CUDA_SUCCESS);
    CHECK_EQ(bias, 5);

    const int n = 500;
    unsigned h[500], out[500];
    for (int i = 0; i < n; i++) h[i] = (unsigned)(i * 3);
    CUdeviceptr d;
    CHECK_EQ(cuMemAlloc(&d, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(d, h, sizeof h), CUDA_SUCCESS);
    int nn = n;
    void *params[] = { &d, &nn };
    CHECK_EQ(cuLaunchKernel(f, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= out[i] == h[i] + 5;
    CHECK(ok);

    /* A CUkernel passed as a CUfunction, with a new bias. */
    bias = 100;
    CHECK_EQ(cuMemcpyHtoD(dbias, &bias, 4), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernel((CUfunction)k, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= out[i] == h[i] + 105;
    CHECK(ok);

    CUmodule mod = NULL;
    CHECK_EQ(cuLibraryGetModule(&mod, lib), CUDA_SUCCESS);
    CUfunction f2 = NULL;
    CHECK_EQ(cuModuleGetFunction(&f2, mod, "addbias"), CUDA_SUCCESS);
    int v = 0;
    CHECK_EQ(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, dev), CUDA_SUCCESS);
    CHECK(v >= 128);
    CHECK_EQ(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, 1000), CUDA_ERROR_INVALID_DEVICE);

    CHECK_EQ(cuLibraryUnload(lib), CUDA_SUCCESS);
    CHECK_EQ(cuLibraryLoadData(&lib, NULL, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_VALUE);
    const char *bad =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry broken()\n{\n  frobnicate.u32 %r1;\n  ret;\n}\n";
    CHECK_EQ(cuLibraryLoadData(&lib, bad, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_PTX);
    CHECK_EQ(cuLibraryLoadData(NULL, ptx, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_VALUE);

    /* Still working after the unload. */
    CHECK_EQ(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
    CHECK_EQ(cuLibraryGetKernel(&k, lib, "addbias"), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernel((CUfunction)k, 4, 1, 1, 128, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
    CHECK_EQ(out[7], h[7] + 110);
    CHECK_EQ(cuLibraryUnload(lib), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(d), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    return CHECK_DONE();
}
