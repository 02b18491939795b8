// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_logs.cu - cuLogsRegisterCallback / cuLogsUnregisterCallback (PyTorch registers one at
 * start-up): a registered callback receives the driver's warnings and errors as they are
 * logged (here: the warning an unsupported entry point logs when first called), with
 * CU_LOG_LEVEL_WARNING and the message without the stderr prefix; two callbacks both receive;
 * after unregistering, nothing more arrives. Bad arguments: a NULL callback, a NULL or unknown
 * handle, a second unregister -> CUDA_ERROR_INVALID_VALUE; a bad module image in between.
 */
#include <cuda.h>
#include <string.h>
#include <stdio.h>
#include "check.h"

typedef struct { int n, warnings, errors; char last[512]; } seen_t;

static void CUDA_CB on_log(void *data, CUlogLevel level, char *msg, size_t len)
{
    seen_t *s = (seen_t *)data;
    s->n++;
    if (level == CU_LOG_LEVEL_WARNING) s->warnings++;
    if (level == CU_LOG_LEVEL_ERROR) s->errors++;
    snprintf(s->last, sizeof s->last, "%.*s", (int)len, msg);
}

int main(void)
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    seen_t a = {0}, b = {0};
    CUlogsCallbackHandle ha = NULL, hb = NULL;
    CHECK_EQ(cuLogsRegisterCallback(NULL, &a, &ha), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLogsRegisterCallback(on_log, &a, &ha), CUDA_SUCCESS);
    CHECK(ha != NULL);
    CHECK_EQ(cuLogsRegisterCallback(on_log, &b, &hb), CUDA_SUCCESS);
    CHECK(hb != NULL && hb != ha);

    /* an unsupported entry point warns by name when first called */
    CUlogIterator it = 0;
    CHECK_EQ(cuLogsCurrent(&it, 0), CUDA_ERROR_NOT_SUPPORTED);
    CHECK(a.warnings >= 1 && b.warnings >= 1);
    CHECK_MSG(strstr(a.last, "cuLogsCurrent") != NULL, "last message: %s", a.last);
    CHECK(strstr(a.last, "[transfer_to_npu") == NULL);      /* the message, not the stderr prefix */

    /* bad input on the way: a module image that is neither PTX, cubin nor fatbin */
    CUdevice dev; CUcontext ctx; CUmodule mod;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
    static const char junk[] = "\x7f" "ELF this is not a cubin at all, just bytes";
    CHECK(cuModuleLoadData(&mod, junk) != CUDA_SUCCESS);

    /* unregistered: nothing more reaches a; b still hears */
    CHECK_EQ(cuLogsUnregisterCallback(ha), CUDA_SUCCESS);
    CHECK_EQ(cuLogsUnregisterCallback(ha), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLogsUnregisterCallback(NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuLogsUnregisterCallback((CUlogsCallbackHandle)&a), CUDA_ERROR_INVALID_VALUE);
    int na = a.n, nb = b.n;
    char buf[16]; size_t sz = sizeof buf;
    CHECK_EQ(cuLogsDumpToMemory(&it, buf, &sz, 0), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_EQ(a.n, na);
    CHECK(b.n > nb);
    CHECK_MSG(strstr(b.last, "cuLogsDumpToMemory") != NULL, "last message: %s", b.last);
    CHECK_EQ(cuLogsUnregisterCallback(hb), CUDA_SUCCESS);

    /* the device still works */
    CUdeviceptr p;
    CHECK_EQ(cuMemAlloc(&p, 256), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD8(p, 7, 256), CUDA_SUCCESS);
    unsigned char h[256];
    CHECK_EQ(cuMemcpyDtoH(h, p, 256), CUDA_SUCCESS);
    CHECK(h[0] == 7 && h[255] == 7);
    CHECK_EQ(cuMemFree(p), CUDA_SUCCESS);
    return CHECK_DONE();
}
