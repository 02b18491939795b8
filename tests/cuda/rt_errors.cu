// rt_errors.cu - cudaGetErrorName/String give CUDA 13's exact text; last-error semantics:
// cudaPeekAtLastError keeps it, cudaGetLastError returns and clears it, success never
// overwrites it, cudaErrorNotReady is not recorded; a failing call leaves the rest working.
#include <cuda_runtime.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)
#define STREQ(a, b) CHECK_MSG(strcmp((a), (b)) == 0, "\"%s\" != \"%s\"", (a), (b))

static void slow(void *) { usleep(100 * 1000); }

int main()
{
    STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
    STREQ(cudaGetErrorString(cudaSuccess), "no error");
    STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
    STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
    STREQ(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
    STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
    STREQ(cudaGetErrorName(cudaErrorInvalidDevice), "cudaErrorInvalidDevice");
    STREQ(cudaGetErrorString(cudaErrorInvalidDevice), "invalid device ordinal");
    STREQ(cudaGetErrorString(cudaErrorInvalidResourceHandle), "invalid resource handle");
    STREQ(cudaGetErrorString(cudaErrorInvalidMemcpyDirection), "invalid copy direction for memcpy");
    STREQ(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered");
    STREQ(cudaGetErrorName(cudaErrorNotReady), "cudaErrorNotReady");
    STREQ(cudaGetErrorString(cudaErrorNotReady), "device not ready");
    STREQ(cudaGetErrorString(cudaErrorNoKernelImageForDevice), "no kernel image is available for execution on the device");
    STREQ(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported");
    STREQ(cudaGetErrorString(cudaErrorNotSupported), "operation not supported");
    STREQ(cudaGetErrorName(cudaErrorUnknown), "cudaErrorUnknown");
    STREQ(cudaGetErrorString(cudaErrorUnknown), "unknown error");
    STREQ(cudaGetErrorString(cudaErrorPeerAccessAlreadyEnabled), "peer access is already enabled");
    STREQ(cudaGetErrorString(cudaErrorHostMemoryNotRegistered), "pointer does not correspond to a registered memory region");
    /* values that are not enumerators */
    STREQ(cudaGetErrorName((cudaError_t)12345), "unrecognized error code");
    STREQ(cudaGetErrorString((cudaError_t)12345), "unrecognized error code");
    STREQ(cudaGetErrorName((cudaError_t)-1), "unrecognized error code");

    /* an entry point the NPU does not provide answers cudaErrorNotSupported (emulated) */
    cudaDeviceProp prop;
    CHECK_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
    if (strstr(prop.name, "transfer_to_npu")) {
        CHECK_EQ(cudaGraphicsUnregisterResource(NULL), cudaErrorNotSupported);
        CHECK_EQ(cudaGraphicsUnregisterResource(NULL), cudaErrorNotSupported);
        (void)cudaGetLastError();
    }

    /* last error */
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    void *p = NULL;
    CHECK_EQ(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    CK(cudaMalloc(&p, 64));                             /* success does not reset it */
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaPeekAtLastError(), cudaSuccess);
    /* the latest failure wins */
    CHECK_EQ(cudaMalloc(NULL, 16), cudaErrorInvalidValue);
    CHECK_EQ(cudaSetDevice(1 << 20), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);

    /* cudaErrorNotReady is a result, not an error */
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaLaunchHostFunc(s, slow, NULL));
    CHECK_EQ(cudaStreamQuery(s), cudaErrorNotReady);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CK(cudaStreamSynchronize(s));
    CK(cudaStreamQuery(s));
    CK(cudaStreamDestroy(s));

    /* the allocation made between the failures still works */
    CK(cudaMemset(p, 0x5a, 64));
    unsigned char h[64];
    CK(cudaMemcpy(h, p, 64, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < 64; i++) ok &= h[i] == 0x5a;
    CHECK(ok);
    CK(cudaFree(p));
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    return CHECK_DONE();
}
