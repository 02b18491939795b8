// NVCC_FLAGS: -lnvrtc -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * nvrtc_cubin.cu - machine code handed to the driver, as NVIDIA's *_nvrtc samples, jitLto and
 * CuPy with a cubin cache do it: NVRTC compiles to a cubin (--gpu-architecture=sm_80 and
 * sm_75, nvrtcGetCUBIN), which carries no PTX. cuModuleLoadData (no size given: the ELF's
 * extent comes from its headers), cuModuleLoadDataEx and cuLibraryLoadData load it through the
 * SASS front end. Checked against host computation: a grid-stride kernel with a shared-memory
 * block reduction and an atomic, a __constant__ table and a __device__ variable reached with
 * cuModuleGetGlobal (written before the launch, read back after). Bad input: a cubin cut
 * short (a file: its size is known), a cubin with its section table pointed out of range, a bare ELF identification
 * string, a cubin given to the JIT linker (it links PTX) - each CUDA's error, and the loaded
 * module keeps working afterwards.
 */
#include <cuda.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <vector>
#include "check.h"

static const char *src =
    "__constant__ float coef[4];\n"
    "__device__ unsigned counter;\n"
    "extern \"C\" __global__ void poly_sum(const float *x, float *y, float *blocksum, int n)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    float acc = 0.0f;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {\n"
    "        float v = x[i];\n"
    "        float p = ((coef[3] * v + coef[2]) * v + coef[1]) * v + coef[0];\n"
    "        y[i] = p;\n"
    "        acc += p;\n"
    "        if (v < 0.0f) atomicAdd(&counter, 1u);\n"
    "    }\n"
    "    s[threadIdx.x] = acc;\n"
    "    __syncthreads();\n"
    "    for (int k = blockDim.x / 2; k > 0; k /= 2) {\n"
    "        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0) blocksum[blockIdx.x] = s[0];\n"
    "}\n";

static std::vector<char> compile(const char *arch)
{
    std::vector<char> out;
    nvrtcProgram prog;
    CHECK_EQ(nvrtcCreateProgram(&prog, src, "poly.cu", 0, NULL, NULL), NVRTC_SUCCESS);
    const char *opts[] = { arch };
    nvrtcResult cr = nvrtcCompileProgram(prog, 1, opts);
    CHECK_EQ(cr, NVRTC_SUCCESS);
    if (cr == NVRTC_SUCCESS) {
        size_t n = 0;
        CHECK_EQ(nvrtcGetCUBINSize(prog, &n), NVRTC_SUCCESS);
        out.resize(n);
        CHECK_EQ(nvrtcGetCUBIN(prog, out.data()), NVRTC_SUCCESS);
    }
    nvrtcDestroyProgram(&prog);
    return out;
}

static float host_poly(const float *c, float v) { return ((c[3] * v + c[2]) * v + c[1]) * v + c[0]; }

/* runs poly_sum of module/function f and checks everything against the host */
static void run_and_check(CUmodule mod, CUfunction f, const char *what)
{
    const int n = 10000, blocks = 7, threads = 256;
    std::vector<float> x(n), y(n), bs(blocks);
    const float c[4] = { 0.5f, -1.25f, 0.75f, 0.125f };
    unsigned neg = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (float)((i * 37) % 201 - 100) / 50.0f;
        neg += x[i] < 0.0f;
    }
    CUdeviceptr dc, dcnt, dx, dy, db;
    size_t sz = 0;
    CHECK_EQ(cuModuleGetGlobal(&dc, &sz, mod, "coef"), CUDA_SUCCESS);
    CHECK_EQ(sz, sizeof c);
    CHECK_EQ(cuModuleGetGlobal(&dcnt, &sz, mod, "counter"), CUDA_SUCCESS);
    CHECK_EQ(sz, 4);
    unsigned start = 1000;
    CHECK_EQ(cuMemcpyHtoD(dc, c, sizeof c), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(dcnt, &start, 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&dx, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&dy, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemAlloc(&db, blocks * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyHtoD(dx, x.data(), n * 4), CUDA_SUCCESS);
    int nn = n;
    void *args[] = { &dx, &dy, &db, &nn };
    CHECK_EQ(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, 0, args, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(y.data(), dy, n * 4), CUDA_SUCCESS);
    CHECK_EQ(cuMemcpyDtoH(bs.data(), db, blocks * 4), CUDA_SUCCESS);
    unsigned cnt = 0;
    CHECK_EQ(cuMemcpyDtoH(&cnt, dcnt, 4), CUDA_SUCCESS);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += y[i] != host_poly(c, x[i]);        /* same operation order: exact (FMA aside) */
    if (bad) {
        /* nvcc contracts a*b+c into FMA: compare with fmaf then */
        bad = 0;
        for (int i = 0; i < n; i++)
            bad += y[i] != fmaf(fmaf(fmaf(c[3], x[i], c[2]), x[i], c[1]), x[i], c[0]);
    }
    CHECK_EQ(bad, 0);
    for (int b = 0; b < blocks; b++) {
        double ref = 0;
        for (int i = b * threads; i < n; i += blocks * threads)
            for (int t = 0; t < threads && i + t < n; t++)
                ref += fmaf(fmaf(fmaf(c[3], x[i + t], c[2]), x[i + t], c[1]), x[i + t], c[0]);
        CHECK_NEAR(bs[b], ref, 1e-3 * (1 + fabs(ref)));
    }
    CHECK_EQ(cnt, start + neg);
    cuMemFree(dx);
    cuMemFree(dy);
    cuMemFree(db);
    printf("%s: %d values, %d block sums, counter %u\n", what, n, blocks, cnt);
}

int main()
{
    std::vector<char> c80 = compile("--gpu-architecture=sm_80");
    std::vector<char> c75 = compile("--gpu-architecture=sm_75");
    if (c80.empty() || c75.empty())
        return CHECK_DONE();
    CHECK(memcmp(c80.data(), "\177ELF", 4) == 0);

    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);

    /* cuModuleLoadData: no size, the copy handed over is freed right after the load */
    CUmodule m80, m75;
    {
        std::vector<char> tmp = c80;
        CHECK_EQ(cuModuleLoadData(&m80, tmp.data()), CUDA_SUCCESS);
        memset(tmp.data(), 0xcd, tmp.size());
    }
    CUfunction f80, f75;
    CHECK_EQ(cuModuleGetFunction(&f80, m80, "poly_sum"), CUDA_SUCCESS);
    int nregs = 0;
    CHECK_EQ(cuFuncGetAttribute(&nregs, CU_FUNC_ATTRIBUTE_NUM_REGS, f80), CUDA_SUCCESS);
    CHECK(nregs > 0 && nregs <= 255);
    run_and_check(m80, f80, "sm_80 cuModuleLoadData");

    CHECK_EQ(cuModuleLoadDataEx(&m75, c75.data(), 0, NULL, NULL), CUDA_SUCCESS);
    CHECK_EQ(cuModuleGetFunction(&f75, m75, "poly_sum"), CUDA_SUCCESS);
    run_and_check(m75, f75, "sm_75 cuModuleLoadDataEx");
    CUfunction nf;
    CHECK_EQ(cuModuleGetFunction(&nf, m75, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);

    /* a library from the cubin */
    CUlibrary lib;
    CHECK_EQ(cuLibraryLoadData(&lib, c80.data(), NULL, NULL, 0, NULL, NULL, 0), CUDA_SUCCESS);
    CUkernel k;
    CHECK_EQ(cuLibraryGetKernel(&k, lib, "poly_sum"), CUDA_SUCCESS);
    CUmodule lm;
    CHECK_EQ(cuLibraryGetModule(&lm, lib), CUDA_SUCCESS);
    CUfunction lf;
    CHECK_EQ(cuKernelGetFunction(&lf, k), CUDA_SUCCESS);
    run_and_check(lm, lf, "sm_80 cuLibraryLoadData");
    CHECK_EQ(cuLibraryUnload(lib), CUDA_SUCCESS);

    /* bad images: each refused with CUDA's error, nothing crashes */
    CUmodule bad;
    std::vector<char> cut(c80.begin(), c80.begin() + c80.size() / 3);
    std::vector<char> wild = c80;
    uint64_t far = (uint64_t)1 << 40;
    memcpy(wild.data() + 0x28, &far, 8);
    CHECK_EQ(cuModuleLoadData(&bad, wild.data()), CUDA_ERROR_INVALID_IMAGE);
    CHECK(cuModuleLoadData(&bad, "\177ELF\2\1\1") != CUDA_SUCCESS);
    std::vector<char> mach = c80;
    mach[18] = 62;   /* EM_X86_64: an ELF, but not a cubin */
    CHECK(cuModuleLoadData(&bad, mach.data()) != CUDA_SUCCESS);
    /* a cut file with its size: refused */
    const char *path = "/tmp/nvrtc_cubin_cut.cubin";
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (fp) {
        fwrite(cut.data(), 1, cut.size(), fp);
        fclose(fp);
        CHECK_EQ(cuModuleLoad(&bad, path), CUDA_ERROR_INVALID_IMAGE);
        CUlibrary bl;
        CHECK_EQ(cuLibraryLoadFromFile(&bl, path, NULL, NULL, 0, NULL, NULL, 0), CUDA_ERROR_INVALID_IMAGE);
        remove(path);
    }
    /* the JIT linker links PTX: a cubin is refused, named in the log */
    CUlinkState ls;
    CHECK_EQ(cuLinkCreate(0, NULL, NULL, &ls), CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddData(ls, CU_JIT_INPUT_CUBIN, c80.data(), c80.size(), "poly.cubin", 0, NULL, NULL),
             CUDA_ERROR_NO_BINARY_FOR_GPU);
    CHECK_EQ(cuLinkDestroy(ls), CUDA_SUCCESS);

    /* the modules loaded before still work, and unload */
    run_and_check(m80, f80, "sm_80 again after bad input");
    CHECK_EQ(cuModuleUnload(m75), CUDA_SUCCESS);
    CHECK_EQ(cuModuleUnload(m80), CUDA_SUCCESS);
    CHECK_EQ(cuModuleUnload(m80), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
