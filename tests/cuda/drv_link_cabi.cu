// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_link_cabi.cu - C-ABI device functions linked from another module whose return list differs
 * from the caller's declaration, as numba's declare_device(..., abi="c") produces and the CUDA
 * linker accepts: a `void consume(int *)` definition called through a declaration with a b32
 * result; an `int const42()` definition called without taking its result and, in the same
 * kernel, with it. The linked kernel's stores are compared with the host's expectation; an
 * argument-count mismatch still fails (CUDA_ERROR_INVALID_PTX at cuModuleGetFunction), and the
 * process goes on.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

static const char *ptx_defs =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func consume(.param .b64 consume_param_0)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [consume_param_0];\n"
    "  ld.u32 %r1, [%rd1];\n"
    "  add.s32 %r2, %r1, 42;\n"
    "  st.u32 [%rd1], %r2;\n"
    "  ret;\n"
    "}\n"
    ".visible .func (.param .b32 func_retval0) const42()\n"
    "{\n"
    "  st.param.b32 [func_retval0+0], 42;\n"
    "  ret;\n"
    "}\n";

/* out[i] = in[i] + 42 via consume (declared with a result it never writes), then
 * out[i] += const42() (called once ignoring the result, once taking it) */
static const char *ptx_kernel =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) consume(.param .b64 consume_param_0);\n"
    ".extern .func const42();\n"
    ".extern .func (.param .b32 func_retval0) const42b();\n"
    ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n"
    "{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<9>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [k_param_0];\n"
    "  ld.param.u32 %r1, [k_param_1];\n"
    "  mov.u32 %r2, %tid.x;\n  mov.u32 %r3, %ctaid.x;\n  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra DONE;\n"
    "  mul.wide.s32 %rd2, %r5, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  {\n"
    "  .param .b64 param0;\n"
    "  st.param.b64 [param0+0], %rd3;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), consume, (param0);\n"
    "  }\n"
    "  call.uni const42, ();\n"
    "  {\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), const42b, ();\n"
    "  ld.param.b32 %r6, [retval0+0];\n"
    "  }\n"
    "  ld.global.u32 %r7, [%rd3];\n"
    "  add.s32 %r8, %r7, %r6;\n"
    "  st.global.u32 [%rd3], %r8;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

/* const42b: the same function under the name the kernel takes a result from */
static const char *ptx_defs_b =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func (.param .b32 func_retval0) const42b()\n"
    "{\n"
    "  st.param.b32 [func_retval0+0], 42;\n"
    "  ret;\n"
    "}\n";

/* argument-count mismatch: consume declared with two parameters */
static const char *ptx_bad =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func consume(.param .b64 a, .param .b64 b);\n"
    ".visible .entry bad(.param .u64 p)\n"
    "{\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  {\n"
    "  .param .b64 param0;\n  .param .b64 param1;\n"
    "  st.param.b64 [param0+0], %rd1;\n  st.param.b64 [param1+0], %rd1;\n"
    "  call.uni consume, (param0, param1);\n"
    "  }\n"
    "  ret;\n"
    "}\n";

static CUmodule link3(const char *a, const char *b, const char *c)
{
    CUlinkState link = NULL;
    CUmodule mod = NULL;
    void *cubin = NULL;
    size_t sz = 0;
    if (cuLinkCreate(0, NULL, NULL, &link) != CUDA_SUCCESS) return NULL;
    const char *t[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (t[i]) CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)t[i], strlen(t[i]) + 1, "m.ptx", 0, NULL, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuLinkComplete(link, &cubin, &sz), CUDA_SUCCESS);
    if (cubin) CHECK_EQ(cuModuleLoadData(&mod, cubin), CUDA_SUCCESS);
    cuLinkDestroy(link);
    return mod;
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CUcontext ctx;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);

    CUmodule mod = link3(ptx_kernel, ptx_defs, ptx_defs_b);
    CUfunction f = NULL;
    CHECK(mod != NULL);
    if (mod) CHECK_EQ(cuModuleGetFunction(&f, mod, "k"), CUDA_SUCCESS);
    const int n = 300;
    int h[300], out[300];
    for (int i = 0; i < n; i++) h[i] = i * 3 - 50;
    CUdeviceptr d;
    CHECK_EQ(cuMemAlloc(&d, sizeof h), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(d, h, sizeof h), CUDA_SUCCESS);
    int nn = n;
    void *params[] = { &d, &nn };
    if (f) {
        CHECK_EQ(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
        CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
        CHECK_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
        for (int i = 0; i < n; i++) CHECK_MSG(out[i] == h[i] + 84, "element %d: got %d want %d", i, out[i], h[i] + 84);
    }

    /* an argument-count mismatch is still an error, and the process and its data survive */
    CUmodule bad = link3(ptx_bad, ptx_defs, NULL);
    CUfunction fb = NULL;
    if (bad) {   /* refused when the kernel is fetched or, at the latest, launched */
        CUresult r = cuModuleGetFunction(&fb, bad, "bad");
        if (r == CUDA_SUCCESS) {
            void *bp[] = { &d };
            r = cuLaunchKernel(fb, 1, 1, 1, 1, 1, 1, 0, NULL, bp, NULL);
            if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
        }
        CHECK_EQ(r, CUDA_ERROR_INVALID_PTX);
    }
    CHECK_EQ(cuMemcpyDtoH(out, d, sizeof out), CUDA_SUCCESS);
    CHECK_EQ(out[7], h[7] + 84);
    if (bad) cuModuleUnload(bad);
    if (mod) cuModuleUnload(mod);
    cuMemFree(d);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    return CHECK_DONE();
}
