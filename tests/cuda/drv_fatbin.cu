// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_fatbin.cu - loading real nvcc output through the driver API: the fatbin nvcc embedded
 * in this very program (found in /proc/self/exe) is loaded with cuModuleLoadData,
 * cuModuleLoadFatBinary, as a fatbin wrapper, from a file with cuModuleLoad, and linked with
 * cuLinkAddData(CU_JIT_INPUT_FATBINARY); its kernel is launched and checked each time.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "check.h"

extern "C" __global__ void triple_plus(int *p, int n, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 3 + add;
}

/* The first fatbin (magic 0xBA55ED50, 8-byte aligned) in this executable, copied out. */
static void *own_fatbin(size_t *size)
{
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = (unsigned char *)malloc(n);
    if (fread(buf, 1, n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    fclose(f);
    void *out = NULL;
    for (long off = 0; off + 16 <= n; off += 8) {
        uint32_t magic;
        memcpy(&magic, buf + off, 4);
        if (magic != 0xBA55ED50u) continue;
        uint16_t hsize;
        uint64_t fsize;
        memcpy(&hsize, buf + off + 6, 2);
        memcpy(&fsize, buf + off + 8, 8);
        if (hsize != 16 || fsize == 0 || (long)(off + hsize + fsize) > n) continue;
        /* nvcc may embed more than one fatbin: take the one with a PTX entry (kind 1) */
        int has_ptx = 0;
        for (uint64_t p = off + hsize; p + 16 <= (uint64_t)(off + hsize + fsize);) {
            uint16_t kind;
            uint32_t ehs;
            uint64_t psize;
            memcpy(&kind, buf + p, 2);
            memcpy(&ehs, buf + p + 4, 4);
            memcpy(&psize, buf + p + 8, 8);
            has_ptx |= kind == 1;
            if (ehs == 0) break;
            p += ehs + psize;
        }
        if (!has_ptx) continue;
        *size = hsize + fsize;
        out = aligned_alloc(64, (*size + 63) & ~(size_t)63);
        memcpy(out, buf + off, *size);
        break;
    }
    free(buf);
    return out;
}

static int run(CUmodule mod)
{
    CUfunction f = NULL;
    if (cuModuleGetFunction(&f, mod, "triple_plus") != CUDA_SUCCESS) return 0;
    const int n = 300;
    int h[300], out[300];
    for (int i = 0; i < n; i++) h[i] = i - 150;
    CUdeviceptr d;
    cuMemAlloc(&d, sizeof h);
    cuMemcpyHtoD(d, h, sizeof h);
    int nn = n, add = 7;
    void *args[] = { &d, &nn, &add };
    CUresult r = cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, NULL, args, NULL);
    cuMemcpyDtoH(out, d, sizeof out);
    cuMemFree(d);
    int ok = r == CUDA_SUCCESS;
    for (int i = 0; i < n; i++) ok &= out[i] == h[i] * 3 + 7;
    return ok;
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    size_t size = 0;
    void *fat = own_fatbin(&size);
    CHECK(fat != NULL);
    if (!fat) return CHECK_DONE();

    CUmodule mod = NULL;
    CHECK_EQ(cuModuleLoadData(&mod, fat), CUDA_SUCCESS);
    if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }

    mod = NULL;
    CHECK_EQ(cuModuleLoadFatBinary(&mod, fat), CUDA_SUCCESS);
    if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }

    struct { int magic, version; const void *data; void *unused; } wrapper = { 0x466243B1, 1, fat, NULL };
    mod = NULL;
    CHECK_EQ(cuModuleLoadData(&mod, &wrapper), CUDA_SUCCESS);
    if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }

    const char *path = "/tmp/drv_fatbin_test.fatbin";
    FILE *fp = fopen(path, "wb");
    CHECK(fp != NULL);
    if (fp) { fwrite(fat, 1, size, fp); fclose(fp); }
    mod = NULL;
    CHECK_EQ(cuModuleLoad(&mod, path), CUDA_SUCCESS);
    if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }
    /* the same file cut short */
    fp = fopen(path, "wb");
    if (fp) { fwrite(fat, 1, size / 2, fp); fclose(fp); }
    mod = NULL;
    CHECK(cuModuleLoad(&mod, path) != CUDA_SUCCESS);
    remove(path);

    CUlinkState link;
    CHECK_EQ(cuLinkCreate(0, NULL, NULL, &link), CUDA_SUCCESS);
    CHECK_EQ(cuLinkAddData(link, CU_JIT_INPUT_FATBINARY, fat, size, "self.fatbin", 0, NULL, NULL), CUDA_SUCCESS);
    void *cubin = NULL;
    size_t cubin_size = 0;
    CHECK_EQ(cuLinkComplete(link, &cubin, &cubin_size), CUDA_SUCCESS);
    mod = NULL;
    if (cubin) {
        CHECK_EQ(cuModuleLoadData(&mod, cubin), CUDA_SUCCESS);
        if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }
    }
    CHECK_EQ(cuLinkDestroy(link), CUDA_SUCCESS);

    /* A damaged fatbin is refused and nothing breaks. */
    unsigned char *bad = (unsigned char *)aligned_alloc(64, (size + 63) & ~(size_t)63);
    memcpy(bad, fat, size);
    uint64_t tiny = 8;                   /* too small for even one entry header */
    memcpy(bad + 8, &tiny, 8);
    mod = NULL;
    CHECK(cuModuleLoadData(&mod, bad) != CUDA_SUCCESS);
    free(bad);
    CHECK_EQ(cuModuleLoadData(&mod, fat), CUDA_SUCCESS);
    if (mod) { CHECK(run(mod)); CHECK_EQ(cuModuleUnload(mod), CUDA_SUCCESS); }

    free(fat);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
