// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_module.cu - driver API modules from PTX text written here: cuModuleLoadData(Ex) and
 * cuModuleLoad, functions and globals (.const and .global), launches with kernelParams, with
 * `extra` and with cuLaunchKernelEx, function attributes, and bad inputs: corrupt PTX, a
 * function of an unloaded module, wrong kernelParams/extra combinations, bad block sizes,
 * unknown names. The process keeps working afterwards.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

static const char *ptx_src =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".const .align 4 .f32 coef[4] = {0f3F800000, 0f40000000, 0f40400000, 0f40800000};\n"
    ".global .align 4 .u32 counter;\n"
    "\n"
    ".visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 pn)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .f32 %f<4>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<11>;\n"
    "  ld.param.u64 %rd1, [pa];\n"
    "  ld.param.u64 %rd2, [pb];\n"
    "  ld.param.u64 %rd3, [pc];\n"
    "  ld.param.u32 %r2, [pn];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r1, %r3, %r4, %r5;\n"
    "  setp.ge.s32 %p1, %r1, %r2;\n"
    "  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n"
    "  mul.wide.s32 %rd5, %r1, 4;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  cvta.to.global.u64 %rd7, %rd2;\n"
    "  add.s64 %rd8, %rd7, %rd5;\n"
    "  ld.global.f32 %f1, [%rd8];\n"
    "  ld.global.f32 %f2, [%rd6];\n"
    "  add.f32 %f3, %f2, %f1;\n"
    "  cvta.to.global.u64 %rd9, %rd3;\n"
    "  add.s64 %rd10, %rd9, %rd5;\n"
    "  st.global.f32 [%rd10], %f3;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry revscale(.param .u64 pin, .param .u64 pout)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b32 %r<14>;\n"
    "  .reg .b64 %rd<13>;\n"
    "  .shared .align 4 .b8 tile[1024];\n"
    "  ld.param.u64 %rd1, [pin];\n"
    "  ld.param.u64 %rd2, [pout];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %ntid.x;\n"
    "  mov.u32 %r2, %ctaid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r1, %r3;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n"
    "  mul.wide.s32 %rd5, %r4, 4;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.f32 %f1, [%rd6];\n"
    "  shl.b32 %r5, %r3, 2;\n"
    "  mov.u32 %r6, tile;\n"
    "  add.s32 %r7, %r6, %r5;\n"
    "  st.shared.f32 [%r7], %f1;\n"
    "  bar.sync 0;\n"
    "  not.b32 %r8, %r3;\n"
    "  add.s32 %r9, %r1, %r8;\n"
    "  shl.b32 %r10, %r9, 2;\n"
    "  add.s32 %r11, %r6, %r10;\n"
    "  shl.b32 %r12, %r2, 2;\n"
    "  cvt.u64.u32 %rd7, %r12;\n"
    "  and.b64 %rd8, %rd7, 12;\n"
    "  mov.u64 %rd9, coef;\n"
    "  add.s64 %rd10, %rd9, %rd8;\n"
    "  ld.const.f32 %f2, [%rd10];\n"
    "  ld.shared.f32 %f3, [%r11];\n"
    "  mul.f32 %f4, %f3, %f2;\n"
    "  add.s64 %rd11, %rd3, %rd5;\n"
    "  st.global.f32 [%rd11], %f4;\n"
    "  setp.ne.s32 %p1, %r3, 0;\n"
    "  @%p1 bra SKIP;\n"
    "  mov.u64 %rd12, counter;\n"
    "  atom.global.add.u32 %r13, [%rd12], 1;\n"
    "SKIP:\n"
    "  ret;\n"
    "}\n";

static const char *bad_ptx =
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry broken(.param .u64 p)\n"
    "{\n"
    "  this is not an instruction;\n"
    "  ret;\n"
    "}\n";

static int check_vadd(CUdeviceptr dc, const float *a, const float *b, int n)
{
    float *c = (float *)malloc(n * sizeof(float));
    cuMemcpyDtoH(c, dc, n * sizeof(float));
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= c[i] == a[i] + b[i];
    free(c);
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

    CUmodule mod = NULL;
    CHECK_EQ(cuModuleLoadData(&mod, ptx_src), CUDA_SUCCESS);
    CUfunction vadd = NULL, revscale = NULL, again = NULL, none = NULL;
    CHECK_EQ(cuModuleGetFunction(&vadd, mod, "vadd"), CUDA_SUCCESS);
    CHECK_EQ(cuModuleGetFunction(&revscale, mod, "revscale"), CUDA_SUCCESS);
    CHECK_EQ(cuModuleGetFunction(&again, mod, "vadd"), CUDA_SUCCESS);
    CHECK(again == vadd);
    CHECK_EQ(cuModuleGetFunction(&none, mod, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
    CHECK_EQ(cuModuleGetFunction(&none, mod, NULL), CUDA_ERROR_INVALID_VALUE);

    /* .const with an initialiser, read back and rewritten. */
    CUdeviceptr dcoef = 0;
    size_t csz = 0;
    CHECK_EQ(cuModuleGetGlobal(&dcoef, &csz, mod, "coef"), CUDA_SUCCESS);
    CHECK_EQ(csz, 16);
    float coef[4] = {0};
    CHECK_EQ(cuMemcpyDtoH(coef, dcoef, 16), CUDA_SUCCESS);
    CHECK(coef[0] == 1.0f && coef[1] == 2.0f && coef[2] == 3.0f && coef[3] == 4.0f);
    CHECK_EQ(cuModuleGetGlobal(&dcoef, &csz, mod, "nothing"), CUDA_ERROR_NOT_FOUND);

    /* vadd with kernelParams. */
    const int n = 1000;
    float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { a[i] = (float)i * 0.5f; b[i] = (float)(n - i); }
    CUdeviceptr da, db, dc;
    CHECK_EQ(cuMemAlloc(&da, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&db, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&dc, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(da, a, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(db, b, n * 4), CUDA_SUCCESS);
    int nn = n;
    void *params[] = { &da, &db, &dc, &nn };
    CHECK_EQ(cuMemsetD32(dc, 0, n), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernel(vadd, (n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK(check_vadd(dc, a, b, n));

    /* vadd with a packed buffer in `extra`. */
    struct { CUdeviceptr a, b, c; int n; int pad; } pack = { da, db, dc, n, 0 };
    size_t pack_size = sizeof pack;
    void *extra[] = { CU_LAUNCH_PARAM_BUFFER_POINTER, &pack, CU_LAUNCH_PARAM_BUFFER_SIZE, &pack_size,
                      CU_LAUNCH_PARAM_END };
    CUstream st;
    CHECK_EQ(cuStreamCreate(&st, 0), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD32(dc, 0, n), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernel(vadd, 4, 1, 1, 256, 1, 1, 0, st, NULL, extra), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK(check_vadd(dc, a, b, n));

    /* cuLaunchKernelEx. */
    CUlaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = 8; cfg.gridDimY = 1; cfg.gridDimZ = 1;
    cfg.blockDimX = 128; cfg.blockDimY = 1; cfg.blockDimZ = 1;
    cfg.hStream = st;
    CHECK_EQ(cuMemsetD32(dc, 0, n), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernelEx(&cfg, vadd, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK(check_vadd(dc, a, b, n));

    /* Shared memory, bar.sync, .const and an atomic on a .global. */
    const int blocks = 8, threads = 256, m = blocks * threads;
    float *in = (float *)malloc(m * 4), *out = (float *)malloc(m * 4);
    for (int i = 0; i < m; i++) in[i] = (float)(i % 97) - 40.0f;
    float newcoef[4] = { 0.5f, 1.0f, 2.0f, 4.0f };
    CHECK_EQ(cuMemcpyHtoD(dcoef, newcoef, 16), CUDA_SUCCESS);
    CUdeviceptr din, dout, dcnt;
    size_t cnt_size = 0;
    CHECK_EQ(cuModuleGetGlobal(&dcnt, &cnt_size, mod, "counter"), CUDA_SUCCESS);
    CHECK_EQ(cnt_size, 4);
    CHECK_EQ(cuMemsetD32(dcnt, 0, 1), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&din, m * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&dout, m * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(din, in, m * 4), CUDA_SUCCESS);
    void *rparams[] = { &din, &dout };
    CHECK_EQ(cuLaunchKernel(revscale, blocks, 1, 1, threads, 1, 1, 0, NULL, rparams, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(out, dout, m * 4), CUDA_SUCCESS);
    int ok = 1;
    for (int bl = 0; bl < blocks; bl++)
        for (int t = 0; t < threads; t++)
            ok &= out[bl * threads + t] == in[bl * threads + threads - 1 - t] * newcoef[bl & 3];
    CHECK(ok);
    unsigned cnt = 0;
    CHECK_EQ(cuMemcpyDtoH(&cnt, dcnt, 4), CUDA_SUCCESS);
    CHECK_EQ(cnt, blocks);

    /* Function attributes. */
    int v = -1;
    CHECK_EQ(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, revscale), CUDA_SUCCESS);
    CHECK_EQ(v, 1024);
    CHECK_EQ(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, vadd), CUDA_SUCCESS);
    CHECK(v >= 256 && v <= 1024);
    CHECK_EQ(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, vadd), CUDA_SUCCESS);
    CHECK(v > 0);
    CHECK_EQ(cuFuncGetAttribute(&v, (CUfunction_attribute)999, vadd), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuFuncSetAttribute(vadd, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024), CUDA_SUCCESS);
    CHECK_EQ(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, vadd), CUDA_SUCCESS);
    CHECK_EQ(v, 64 * 1024);
    CHECK_EQ(cuFuncSetCacheConfig(vadd, CU_FUNC_CACHE_PREFER_L1), CUDA_SUCCESS);
    const char *fname = NULL;
    CHECK_EQ(cuFuncGetName(&fname, vadd), CUDA_SUCCESS);
    CHECK(fname && strcmp(fname, "vadd") == 0);
    int nb = 0;
    CHECK_EQ(cuOccupancyMaxActiveBlocksPerMultiprocessor(&nb, vadd, 256, 0), CUDA_SUCCESS);
    CHECK(nb >= 1);
    int mg = 0, bs = 0;
    CHECK_EQ(cuOccupancyMaxPotentialBlockSize(&mg, &bs, vadd, NULL, 0, 0), CUDA_SUCCESS);
    CHECK(bs >= 32 && bs <= 1024 && mg >= 1);
    unsigned count = 0;
    CHECK_EQ(cuModuleGetFunctionCount(&count, mod), CUDA_SUCCESS);
    CHECK_EQ(count, 2);
    size_t poff = 99, psz = 99;
    CHECK_EQ(cuFuncGetParamInfo(vadd, 3, &poff, &psz), CUDA_SUCCESS);
    CHECK_EQ(poff, 24);
    CHECK_EQ(psz, 4);
    CHECK_EQ(cuFuncGetParamInfo(vadd, 4, &poff, &psz), CUDA_ERROR_INVALID_VALUE);

    /* Bad launches: CUDA's codes, nothing runs. */
    CHECK_EQ(cuLaunchKernel(vadd, 1, 1, 1, 32, 1, 1, 0, NULL, params, extra), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLaunchKernel(vadd, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLaunchKernel(vadd, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLaunchKernel(vadd, 0, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);

    /* Corrupt PTX: CUDA_ERROR_INVALID_PTX, with the reason in the error log. */
    CUmodule badmod = NULL;
    CHECK_EQ(cuModuleLoadData(&badmod, bad_ptx), CUDA_ERROR_INVALID_PTX);
    char log[1024] = {0};
    CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
    void *vals[2] = { log, (void *)(uintptr_t)sizeof log };
    CHECK_EQ(cuModuleLoadDataEx(&badmod, bad_ptx, 2, opts, vals), CUDA_ERROR_INVALID_PTX);
    CHECK(strlen(log) > 0);
    CHECK(cuModuleLoadData(&badmod, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0") != CUDA_SUCCESS);
    CHECK(cuModuleLoadData(&badmod, NULL) == CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuModuleLoad(&badmod, "/nonexistent/file.ptx"), CUDA_ERROR_FILE_NOT_FOUND);

    /* A function of an unloaded module is rejected. */
    CUmodule m2 = NULL;
    CUfunction f2 = NULL;
    CHECK_EQ(cuModuleLoadData(&m2, ptx_src), CUDA_SUCCESS);
    CHECK_EQ(cuModuleGetFunction(&f2, m2, "vadd"), CUDA_SUCCESS);
    CHECK_EQ(cuModuleUnload(m2), CUDA_SUCCESS);
    CUresult r = cuLaunchKernel(f2, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL);
    CHECK_MSG(r != CUDA_SUCCESS, "launch of an unloaded module's function returned %d", (int)r);

    /* The process keeps working: a module from a file, launched. */
    const char *path = "/tmp/drv_module_test.ptx";
    FILE *fp = fopen(path, "w");
    CHECK(fp != NULL);
    if (fp) { fputs(ptx_src, fp); fclose(fp); }
    CUmodule m3 = NULL;
    CUfunction f3 = NULL;
    CHECK_EQ(cuModuleLoad(&m3, path), CUDA_SUCCESS);
    CHECK_EQ(cuModuleGetFunction(&f3, m3, "vadd"), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD32(dc, 0, n), CUDA_SUCCESS);
    CHECK_EQ(cuLaunchKernel(f3, (n + 127) / 128, 1, 1, 128, 1, 1, 0, st, params, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(st), CUDA_SUCCESS);
    CHECK(check_vadd(dc, a, b, n));
    CHECK_EQ(cuModuleUnload(m3), CUDA_SUCCESS);
    remove(path);

    /* Stale and garbage handles: undefined behaviour on a GPU, so checked only on the NPU,
     * where every handle is validated before use. */
    char devname[256] = {0};
    cuDeviceGetName(devname, sizeof devname, dev);
    if (strstr(devname, "transfer_to_npu")) {
        void *garbage = (void *)(uintptr_t)0xdeadbeef000ull;
        CUfunction gf;
        CHECK_EQ(cuModuleGetFunction(&gf, (CUmodule)garbage, "vadd"), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuModuleGetFunction(&gf, m2, "vadd"), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuModuleUnload(m2), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuModuleUnload((CUmodule)garbage), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(r, CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuLaunchKernel((CUfunction)garbage, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL),
                 CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f2), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuStreamSynchronize((CUstream)garbage), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuEventQuery((CUevent)garbage), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuLinkDestroy((CUlinkState)garbage), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuLibraryUnload((CUlibrary)garbage), CUDA_ERROR_INVALID_HANDLE);
        CUkernel gk;
        CHECK_EQ(cuKernelGetFunction(&gf, (CUkernel)garbage), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuLibraryGetKernel(&gk, (CUlibrary)garbage, "vadd"), CUDA_ERROR_INVALID_HANDLE);
        CHECK_EQ(cuCtxPushCurrent((CUcontext)garbage), CUDA_ERROR_INVALID_CONTEXT);
    }

    CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS);
    CHECK_EQ(cuStreamDestroy(st), CUDA_SUCCESS);
    cuMemFree(da); cuMemFree(db); cuMemFree(dc); cuMemFree(din); cuMemFree(dout);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    free(a); free(b); free(in); free(out);
    return CHECK_DONE();
}
