/*
 * ptx_run_cuda.c - the PTX tier's runner over the CUDA driver API, for a real GPU
 * (scripts/gpu_diff.sh): same input, launch shape and output format as ptx_run.c, so a real
 * GPU's output can be compared with NAME.expected. Build: cc -I$CUDA/include ptx_run_cuda.c -lcuda
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../slurp.h"

#define DRV(call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; \
    cuGetErrorName(r_, &s_); printf("STATUS %s\n", s_); fprintf(stderr, "%s -> %s\n", #call, s_); \
    if (log[0]) fprintf(stderr, "%s\n", log); \
    return 0; } } while (0)

int main(int argc, char **argv)
{
    static char log[8192];
    if (argc < 2) { fprintf(stderr, "usage: ptx_run_cuda file.ptx [file.in]\n"); return 2; }
    char *ptx = slurp(argv[1], NULL);
    if (!ptx) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }
    unsigned threads = 32, nin = 0, nout = 0;
    const char *h = strstr(ptx, "PTX-TEST:");
    if (h) sscanf(h, "PTX-TEST: threads=%u in=%u out=%u", &threads, &nin, &nout);
    uint32_t *in = calloc(nin + 1, 4), *out = calloc(nout + 1, 4);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "r");
        for (unsigned i = 0; f && i < nin; i++)
            if (fscanf(f, "%x", &in[i]) != 1) break;
        if (f) fclose(f);
    }
    CUdevice dev; CUcontext ctx; CUmodule m; CUfunction k;
    DRV(cuInit(0));
    DRV(cuDeviceGet(&dev, 0));
    DRV(cuDevicePrimaryCtxRetain(&ctx, dev));
    DRV(cuCtxSetCurrent(ctx));
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(uintptr_t)sizeof log};
    DRV(cuModuleLoadDataEx(&m, ptx, 2, opt, val));
    DRV(cuModuleGetFunction(&k, m, "test"));
    CUdeviceptr din, dout;
    DRV(cuMemAlloc(&din, (nin + 1) * 4));
    DRV(cuMemAlloc(&dout, (nout + 1) * 4));
    DRV(cuMemcpyHtoD(din, in, (nin + 1) * 4));
    DRV(cuMemsetD8(dout, 0, (nout + 1) * 4));
    void *params[2] = {&din, &dout};
    DRV(cuLaunchKernel(k, 1, 1, 1, threads, 1, 1, 0, 0, params, NULL));
    DRV(cuCtxSynchronize());
    DRV(cuMemcpyDtoH(out, dout, nout * 4));
    for (unsigned i = 0; i < nout; i++) printf("0x%08x\n", out[i]);
    return 0;
}
