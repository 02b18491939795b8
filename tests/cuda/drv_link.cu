// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_link.cu - the driver JIT linker: two PTX files, one calling an .extern .func the other
 * defines, linked with cuLinkCreate/AddFile/AddData/Complete, the result loaded with
 * cuModuleLoadData and launched; bad link inputs get CUDA's codes.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

static const char *ptx_func =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func (.param .b32 func_retval0) _Z6scale3f(.param .b32 _Z6scale3f_param_0)\n"
    "{\n"
    "  .reg .f32 %f<3>;\n"
    "  ld.param.f32 %f1, [_Z6scale3f_param_0];\n"
    "  fma.rn.f32 %f2, %f1, 0f40400000, 0f3F800000;\n"
    "  st.param.f32 [func_retval0+0], %f2;\n"
    "  ret;\n"
    "}\n";

static const char *ptx_entry =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) _Z6scale3f(.param .b32 _Z6scale3f_param_0);\n"
    ".visible .entry apply(.param .u64 apply_param_0, .param .u32 apply_param_1)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .f32 %f<3>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [apply_param_0];\n"
    "  ld.param.u32 %r2, [apply_param_1];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "  setp.ge.s32 %p1, %r1, %r2;\n"
    "  @%p1 bra END;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  {\n"
    "  .param .b32 param0;\n"
    "  st.param.f32 [param0+0], %f1;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), _Z6scale3f, (param0);\n"
    "  ld.param.f32 %f2, [retval0+0];\n"
    "  }\n"
    "  st.global.f32 [%rd4], %f2;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    fputs(text, f);
    fclose(f);
    return 1;
}

static int run_linked(void *cubin, CUstream st)
{
    CUmodule mod = NULL;
    CUfunction f = NULL;
    if (cuModuleLoadData(&mod, cubin) != CUDA_SUCCESS) return 0;
    if (cuModuleGetFunction(&f, mod, "apply") != CUDA_SUCCESS) return 0;
    const int n = 777;
    float h[777], out[777];
    for (int i = 0; i < n; i++) h[i] = (float)i - 100.0f;
    CUdeviceptr d;
    cuMemAlloc(&d, sizeof h);
    cuMemcpyHtoD(d, h, sizeof h);
    int nn = n;
    void *params[] = { &d, &nn };
    CUresult r = cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, st, params, NULL);
    cuStreamSynchronize(st);
    cuMemcpyDtoH(out, d, sizeof out);
    cuMemFree(d);
    cuModuleUnload(mod);
    int ok = r == CUDA_SUCCESS;
    for (int i = 0; i < n; i++) ok &= out[i] == fmaf(h[i], 3.0f, 1.0f);
    return ok;
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    CUstream st;
    CHECK_EQ(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);

    /* Two PTX files. */
    const char *fa = "/tmp/drv_link_func.ptx", *fb = "/tmp/drv_link_entry.ptx";
    CHECK(write_file(fa, ptx_func));
    CHECK(write_file(fb, ptx_entry));
    char err_log[2048] = {0}, info_log[2048] = {0};
    CUjit_option opts[4] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                             CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *vals[4] = { err_log, (void *)(uintptr_t)sizeof err_log, info_log, (void *)(uintptr_t)sizeof info_log };
    CUlinkState link = NULL;
    CHECK_EQ(cuLinkCreate(4, opts, vals, &link), CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddFile(link, CU_JIT_INPUT_PTX, fb, 0, NULL, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddFile(link, CU_JIT_INPUT_PTX, fa, 0, NULL, NULL), CUDA_SUCCESS);
    void *cubin = NULL;
    size_t cubin_size = 0;
    CHECK_EQ(cuLinkComplete(link, &cubin, &cubin_size), CUDA_SUCCESS);
    CHECK(cubin != NULL && cubin_size > 0);
    if (cubin)
        CHECK(run_linked(cubin, st));
    CHECK_EQ(cuLinkDestroy(link), CUDA_SUCCESS);

    /* The same from memory, the function first this time. */
    CHECK_EQ(cuLinkCreate(0, NULL, NULL, &link), CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx_func, strlen(ptx_func) + 1, "func.ptx", 0, NULL, NULL),
             CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx_entry, strlen(ptx_entry) + 1, "entry.ptx", 0, NULL, NULL),
             CUDA_SUCCESS);
    cubin = NULL;
    CHECK_EQ(cuLinkComplete(link, &cubin, &cubin_size), CUDA_SUCCESS);
    if (cubin)
        CHECK(run_linked(cubin, st));
    /* bad inputs */
    CHECK_EQ(cuLinkAddData(link, (CUjitInputType)99, (void *)ptx_func, strlen(ptx_func), "x", 0, NULL, NULL),
             CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, NULL, 10, "x", 0, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLinkAddFile(link, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL, NULL), CUDA_ERROR_FILE_NOT_FOUND);
    CHECK_EQ(cuLinkComplete(link, NULL, &cubin_size), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLinkDestroy(link), CUDA_SUCCESS);
    CHECK_EQ(cuLinkCreate(0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);

    /* The device runtime archive numba adds to every link does not get in the way. */
    const char *devrt = "/usr/local/cuda/lib64/libcudadevrt.a";
    FILE *probe = fopen(devrt, "rb");
    if (probe) {
        fclose(probe);
        CHECK_EQ(cuLinkCreate(0, NULL, NULL, &link), CUDA_SUCCESS);
        CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx_func, strlen(ptx_func) + 1, "f", 0, NULL, NULL),
                 CUDA_SUCCESS);
        CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx_entry, strlen(ptx_entry) + 1, "e", 0, NULL, NULL),
                 CUDA_SUCCESS);
        CHECK_EQ(cuLinkAddFile(link, CU_JIT_INPUT_LIBRARY, devrt, 0, NULL, NULL), CUDA_SUCCESS);
        cubin = NULL;
        CHECK_EQ(cuLinkComplete(link, &cubin, &cubin_size), CUDA_SUCCESS);
        if (cubin)
            CHECK(run_linked(cubin, st));
        CHECK_EQ(cuLinkDestroy(link), CUDA_SUCCESS);
    }

    remove(fa);
    remove(fb);
    CHECK_EQ(cuStreamDestroy(st), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    return CHECK_DONE();
}
