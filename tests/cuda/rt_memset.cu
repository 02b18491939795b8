// rt_memset.cu - cudaMemset/MemsetAsync/Memset2D/Memset2DAsync: values (only the low byte
// counts), offsets, odd sizes, pinned and managed targets, stream order with copies. Bad
// input: host pointers, ranges past an allocation, freed memory, width > pitch, bad stream.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    const size_t N = 100003;
    unsigned char *d = NULL, *h = (unsigned char *)malloc(N), *ref = (unsigned char *)malloc(N);
    CK(cudaMalloc((void **)&d, N));

    CK(cudaMemset(d, 0, N));
    CK(cudaMemset(d + 7, 0x1ab, 1000));              /* value is converted to unsigned char */
    CK(cudaMemset(d + 5000, -1, 3));
    CK(cudaMemcpy(h, d, N, cudaMemcpyDeviceToHost));
    memset(ref, 0, N);
    memset(ref + 7, 0xab, 1000);
    memset(ref + 5000, 0xff, 3);
    CHECK(memcmp(h, ref, N) == 0);

    /* async memset ordered with copies on one stream */
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    for (int i = 0; i < 20; i++) CK(cudaMemsetAsync(d, i, N, s));
    CK(cudaMemsetAsync(d + 10, 0x77, 10, s));
    CK(cudaMemcpyAsync(h, d, N, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    memset(ref, 19, N);
    memset(ref + 10, 0x77, 10);
    CHECK(memcmp(h, ref, N) == 0);

    /* 2D */
    unsigned char *p = NULL;
    size_t pitch = 0;
    const size_t W = 123, H = 45;
    CK(cudaMallocPitch((void **)&p, &pitch, W, H));
    CK(cudaMemset2D(p, pitch, 0x11, pitch, H));
    CK(cudaMemset2D(p + pitch * 3 + 5, pitch, 0x22, 40, 10));
    CK(cudaDeviceSynchronize());                     /* s is non-blocking: order by hand */
    CK(cudaMemset2DAsync(p + pitch * 20, pitch, 0x33, W, 2, s));
    CK(cudaStreamSynchronize(s));
    unsigned char *img = (unsigned char *)malloc(pitch * H), *iref = (unsigned char *)malloc(pitch * H);
    CK(cudaMemcpy(img, p, pitch * H, cudaMemcpyDeviceToHost));
    memset(iref, 0x11, pitch * H);
    for (size_t r = 0; r < 10; r++) memset(iref + (3 + r) * pitch + 5, 0x22, 40);
    for (size_t r = 0; r < 2; r++) memset(iref + (20 + r) * pitch, 0x33, W);
    CHECK(memcmp(img, iref, pitch * H) == 0);

    /* pinned and managed targets, used from the host right after the synchronous call */
    unsigned char *pin = NULL, *man = NULL;
    CK(cudaMallocHost((void **)&pin, 4096));
    CK(cudaMemset(pin, 0x5c, 4096));
    int ok = 1;
    for (int i = 0; i < 4096; i++) ok &= pin[i] == 0x5c;
    CHECK(ok);
    CK(cudaMallocManaged((void **)&man, 4096));
    CK(cudaMemset(man, 0x6d, 4096));
    ok = 1;
    for (int i = 0; i < 4096; i++) ok &= man[i] == 0x6d;
    CHECK(ok);

    /* size 0 */
    CK(cudaMemset(d, 1, 0));
    CK(cudaMemset2D(p, pitch, 1, 0, H));

    /* bad input */
    CHECK_EQ(cudaMemset(d, 0, N + 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemset(d + N - 1, 0, 2), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemset(NULL, 0, 16), cudaErrorInvalidValue);
    int pageable = 1;
    CK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    if (!pageable) CHECK_EQ(cudaMemset(h, 0, 16), cudaErrorInvalidValue);
    unsigned char *dead = NULL;
    CK(cudaMalloc((void **)&dead, 512));
    CK(cudaFree(dead));
    CHECK_EQ(cudaMemset(dead, 0, 16), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemset2D(p, pitch, 0, pitch + 1, 2), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemset2D(p, pitch, 0, W, H + 1), cudaErrorInvalidValue);
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    CHECK_EQ(cudaMemsetAsync(d, 0, 16, gone), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    /* live data untouched */
    CK(cudaMemcpy(h, d, N, cudaMemcpyDeviceToHost));
    memset(ref, 19, N);
    memset(ref + 10, 0x77, 10);
    CHECK(memcmp(h, ref, N) == 0);
    CK(cudaMemcpy(img, p, pitch * H, cudaMemcpyDeviceToHost));
    CHECK(memcmp(img, iref, pitch * H) == 0);

    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFree(p));
    CK(cudaFreeHost(pin));
    CK(cudaFree(man));
    free(h); free(ref); free(img); free(iref);
    return CHECK_DONE();
}
