// NVCC_FLAGS: -lnvrtc -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * nvrtc_saxpy.cu - run-time compilation, as CuPy / numba / cuda-python do it: NVRTC compiles
 * CUDA C++ to PTX while our libcuda.so.1 is loaded (NVRTC probes it through
 * cuGetExportTable), the PTX is loaded with cuModuleLoadDataEx and launched with
 * cuLaunchKernel; results against a host reference. A program with a compile error is
 * reported by NVRTC, and the process keeps working.
 */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

static const char *src =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, int n)\n"
    "{\n"
    "    __shared__ float s[128];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    s[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    if (i < n) y[i] = a * s[threadIdx.x] + y[i];\n"
    "}\n";

int main()
{
    nvrtcProgram prog;
    CHECK_EQ(nvrtcCreateProgram(&prog, src, "saxpy.cu", 0, NULL, NULL), NVRTC_SUCCESS);
    const char *opts[] = { "--gpu-architecture=compute_80" };
    nvrtcResult cr = nvrtcCompileProgram(prog, 1, opts);
    CHECK_EQ(cr, NVRTC_SUCCESS);
    if (cr != NVRTC_SUCCESS) {
        size_t ls = 0;
        nvrtcGetProgramLogSize(prog, &ls);
        char *log = (char *)malloc(ls + 1);
        nvrtcGetProgramLog(prog, log);
        fprintf(stderr, "%s\n", log);
        free(log);
        return CHECK_DONE();
    }
    size_t ptx_size = 0;
    CHECK_EQ(nvrtcGetPTXSize(prog, &ptx_size), NVRTC_SUCCESS);
    char *ptx = (char *)malloc(ptx_size);
    CHECK_EQ(nvrtcGetPTX(prog, ptx), NVRTC_SUCCESS);
    CHECK_EQ(nvrtcDestroyProgram(&prog), NVRTC_SUCCESS);

    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    CUmodule mod;
    char info[512] = {0};
    CUjit_option o[2] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES };
    void *ov[2] = { info, (void *)(uintptr_t)sizeof info };
    CHECK_EQ(cuModuleLoadDataEx(&mod, ptx, 2, o, ov), CUDA_SUCCESS);
    CUfunction f;
    CHECK_EQ(cuModuleGetFunction(&f, mod, "saxpy"), CUDA_SUCCESS);

    const int n = 10000;
    float *x = (float *)malloc(n * 4), *y = (float *)malloc(n * 4), *r = (float *)malloc(n * 4);
    for (int i = 0; i < n; i++) { x[i] = (float)(i % 101) * 0.25f; y[i] = (float)(i % 7); }
    CUdeviceptr dx, dy;
    CHECK_EQ(cuMemAlloc(&dx, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&dy, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(dx, x, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(dy, y, n * 4), CUDA_SUCCESS);
    float a = 2.5f;
    int nn = n;
    void *args[] = { &a, &dx, &dy, &nn };
    CHECK_EQ(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(r, dy, n * 4), CUDA_SUCCESS);
    int ok = 1;
    for (int i = 0; i < n; i++) ok &= r[i] == a * x[i] + y[i];
    CHECK(ok);

    /* A compile error is NVRTC's to report; the driver keeps working. */
    nvrtcProgram bad;
    CHECK_EQ(nvrtcCreateProgram(&bad, "__global__ void k() { undeclared(); }", "bad.cu", 0, NULL, NULL),
             NVRTC_SUCCESS);
    CHECK_EQ(nvrtcCompileProgram(bad, 1, opts), NVRTC_ERROR_COMPILATION);
    nvrtcDestroyProgram(&bad);
    CHECK_EQ(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(r, dy, n * 4), CUDA_SUCCESS);
    CHECK(r[n - 1] == a * x[n - 1] + a * x[n - 1] + y[n - 1]);

    CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS);
    cuMemFree(dx);
    cuMemFree(dy);
    CUcontext popped;
    CHECK_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    free(ptx); free(x); free(y); free(r);
    return CHECK_DONE();
}
