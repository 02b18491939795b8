/*
 * attrs_probe.cu - loads a PTX file through the driver API and prints each named kernel's
 * attributes, for tests/attrs/check_attrs.py to compare with ptxas -v.
 *   attrs_probe FILE.ptx MODE N KERNEL...
 *   MODE load     cuModuleLoadData
 *        loadex   cuModuleLoadDataEx with CU_JIT_MAX_REGISTERS = N
 *        link     cuLinkCreate(CU_JIT_MAX_REGISTERS = N) + cuLinkAddData + cuLinkComplete,
 *                 then cuModuleLoadData of the linked image
 *        library  cuLibraryLoadData with CU_JIT_MAX_REGISTERS = N, then cuLibraryGetModule
 * Prints "KERNEL name regs const local shared maxthreads" per kernel. A kernel named
 * bounded128 (.maxntid 128) is also launched with 128 threads (must work, results checked)
 * and with 129 (must give CUDA_ERROR_INVALID_VALUE): "LAUNCH ok" or "LAUNCH FAIL why".
 * Exit status 0 when every call that must succeed did.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)
#define OK(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) DIE("%s: %d", #call, (int)r_); } while (0)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        DIE("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = (char *)malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
        DIE("cannot read %s", path);
    b[n] = 0;
    fclose(f);
    return b;
}

static int attr(CUfunction f, CUfunction_attribute a)
{
    int v = -1;
    OK(cuFuncGetAttribute(&v, a, f));
    return v;
}

int main(int argc, char **argv)
{
    if (argc < 5)
        DIE("usage: attrs_probe FILE.ptx load|loadex|link|library N KERNEL...");
    char *ptx = slurp(argv[1]);
    const char *mode = argv[2];
    unsigned maxreg = (unsigned)atoi(argv[3]);
    OK(cuInit(0));
    CUcontext ctx;
    OK(cuDevicePrimaryCtxRetain(&ctx, 0));
    OK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CUjit_option opt[1] = { CU_JIT_MAX_REGISTERS };
    void *val[1] = { (void *)(uintptr_t)maxreg };
    if (!strcmp(mode, "load")) {
        OK(cuModuleLoadData(&mod, ptx));
    } else if (!strcmp(mode, "loadex")) {
        OK(cuModuleLoadDataEx(&mod, ptx, 1, opt, val));
    } else if (!strcmp(mode, "link")) {
        CUlinkState ls;
        OK(cuLinkCreate(1, opt, val, &ls));
        OK(cuLinkAddData(ls, CU_JIT_INPUT_PTX, ptx, strlen(ptx) + 1, "attrs", 0, NULL, NULL));
        void *img;
        size_t sz;
        OK(cuLinkComplete(ls, &img, &sz));
        OK(cuModuleLoadData(&mod, img));
        OK(cuLinkDestroy(ls));
    } else if (!strcmp(mode, "library")) {
        CUlibrary lib;
        OK(cuLibraryLoadData(&lib, ptx, opt, val, 1, NULL, NULL, 0));
        OK(cuLibraryGetModule(&mod, lib));
    } else {
        DIE("unknown mode %s", mode);
    }
    int bad = 0;
    for (int i = 4; i < argc; i++) {
        CUfunction f;
        OK(cuModuleGetFunction(&f, mod, argv[i]));
        printf("KERNEL %s %d %d %d %d %d\n", argv[i], attr(f, CU_FUNC_ATTRIBUTE_NUM_REGS),
               attr(f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES), attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
               attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES), attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
        if (strcmp(argv[i], "bounded128"))
            continue;
        CUdeviceptr d;
        float h[129];
        for (int k = 0; k < 129; k++) h[k] = (float)k;
        OK(cuMemAlloc(&d, sizeof h));
        OK(cuMemcpyHtoD(d, h, sizeof h));
        void *args[] = { &d };
        CUresult over = cuLaunchKernel(f, 1, 1, 1, 129, 1, 1, 0, NULL, args, NULL);
        CUresult fit = cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, NULL, args, NULL);
        OK(cuCtxSynchronize());
        OK(cuMemcpyDtoH(h, d, sizeof h));
        int wrong = 0;
        for (int k = 0; k < 129; k++)
            wrong += h[k] != (float)k + (k < 128 ? 1.0f : 0.0f);
        if (over == CUDA_ERROR_INVALID_VALUE && fit == CUDA_SUCCESS && !wrong) {
            printf("LAUNCH ok\n");
        } else {
            printf("LAUNCH FAIL 129 threads: %d (want %d), 128 threads: %d, %d wrong values\n",
                   (int)over, (int)CUDA_ERROR_INVALID_VALUE, (int)fit, wrong);
            bad = 1;
        }
        OK(cuMemFree(d));
    }
    return bad;
}
