// rt_memcpy.cu - cudaMemcpy/cudaMemcpyAsync in every direction (explicit kinds and
// cudaMemcpyDefault), offsets and odd sizes against host references; pageable source reuse
// right after cudaMemcpyAsync; bad input: invalid kind, NULL, host pointers as device
// pointers, copies past an allocation, freed pointers, invalid streams.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static void pattern(unsigned char *h, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) h[i] = (unsigned char)((i * 131 + seed * 17) ^ (i >> 8));
}

int main()
{
    const size_t N = (1 << 20) + 37;
    unsigned char *h0 = (unsigned char *)malloc(N), *h1 = (unsigned char *)malloc(N);
    unsigned char *ref = (unsigned char *)malloc(N);
    pattern(h0, N, 1);
    unsigned char *a = NULL, *b = NULL;
    CK(cudaMalloc((void **)&a, N));
    CK(cudaMalloc((void **)&b, N));

    /* explicit kinds */
    CK(cudaMemcpy(a, h0, N, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(b, a, N, cudaMemcpyDeviceToDevice));
    memset(h1, 0, N);
    CK(cudaMemcpy(h1, b, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h0, h1, N) == 0);
    CK(cudaMemcpy(h1, h0, 1000, cudaMemcpyHostToHost));
    CHECK(memcmp(h0, h1, 1000) == 0);

    /* cudaMemcpyDefault infers directions; unaligned offsets and odd sizes */
    memcpy(ref, h0, N);
    pattern(h1, N, 9);
    CK(cudaMemcpy(a + 3, h1 + 5, 4097, cudaMemcpyDefault));
    memcpy(ref + 3, h1 + 5, 4097);
    CK(cudaMemcpy(b + 1001, a + 1, 777, cudaMemcpyDefault));
    CK(cudaMemcpy(h1, a, N, cudaMemcpyDefault));
    CHECK(memcmp(h1, ref, N) == 0);
    memcpy(ref, h0, N);
    memcpy(ref + 1001, h1 + 1, 777);
    CK(cudaMemcpy(h1, b, N, cudaMemcpyDefault));
    CHECK(memcmp(h1, ref, N) == 0);

    /* async on a stream; pageable source may be overwritten right after the call */
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    unsigned char *src = (unsigned char *)malloc(N);
    pattern(src, N, 4);
    memcpy(ref, src, N);
    CK(cudaMemcpyAsync(a, src, N, cudaMemcpyHostToDevice, s));
    memset(src, 0xee, N);
    CK(cudaMemcpyAsync(b, a, N, cudaMemcpyDeviceToDevice, s));
    memset(h1, 0, N);
    CK(cudaMemcpyAsync(h1, b, N, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    CHECK(memcmp(h1, ref, N) == 0);
    /* many small dependent async copies keep their order */
    for (int i = 0; i < 100; i++) {
        unsigned char v[16];
        memset(v, i, sizeof v);
        CK(cudaMemcpyAsync(a + i * 16, v, 16, cudaMemcpyHostToDevice, s));
    }
    CK(cudaMemcpyAsync(h1, a, 1600, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    int ok = 1;
    for (int i = 0; i < 1600; i++) ok &= h1[i] == i / 16;
    CHECK(ok);

    /* a kind that contradicts the pointers is undefined behaviour in CUDA; with one
     * address space the emulated runtime follows the pointers */
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (strstr(prop.name, "transfer_to_npu")) {
        CK(cudaMemcpy(b, h0, 64, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(a, b, 64, cudaMemcpyHostToDevice));       /* really device to device */
        CK(cudaMemcpy(h1, a, 64, cudaMemcpyHostToHost));        /* really device to host */
        CHECK(memcmp(h1, h0, 64) == 0);
    }

    /* size 0 is a no-op */
    CK(cudaMemcpy(a, h0, 0, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(NULL, NULL, 0, cudaMemcpyDeviceToDevice));

    /* restore a known state for the survival check */
    CK(cudaMemcpy(b, h0, N, cudaMemcpyHostToDevice));

    /* bad input */
    CHECK_EQ(cudaMemcpy(a, h0, 16, (cudaMemcpyKind)42), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaMemcpyAsync(a, h0, 16, (cudaMemcpyKind)-1, s), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaMemcpy(NULL, h0, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpy(h1, NULL, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    /* plain host memory passed where the kind says device (GPUs with pageable memory
     * access, e.g. HMM systems, may accept it) */
    int pageable = 1;
    CK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    if (!pageable) {
        CHECK_EQ(cudaMemcpy(h1, h0, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
        CHECK_EQ(cudaMemcpy(h1, h0, 16, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
        CHECK_EQ(cudaMemcpy(h1, h0, 16, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    }
    /* past the end of an allocation */
    CHECK_EQ(cudaMemcpy(a, h0, N + 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpy(h1, a + N - 8, 9, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpy(a + 10, b, N, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
    /* a freed allocation */
    unsigned char *dead = NULL;
    CK(cudaMalloc((void **)&dead, 4096));
    CK(cudaFree(dead));
    CHECK_EQ(cudaMemcpy(dead, h0, 16, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    /* invalid / destroyed streams */
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    CHECK_EQ(cudaMemcpyAsync(a, h0, 16, cudaMemcpyHostToDevice, gone), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaMemcpyAsync(a, h0, 16, cudaMemcpyHostToDevice, (cudaStream_t)(void *)h1),
             cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    /* live allocations were not touched by the failed calls */
    memset(h1, 0, N);
    CK(cudaMemcpy(h1, b, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h1, h0, N) == 0);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(a));
    CK(cudaFree(b));
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    free(h0); free(h1); free(ref); free(src);
    return CHECK_DONE();
}
