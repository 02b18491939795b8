// rt_malloc.cu - cudaMalloc/cudaFree and cudaMallocPitch, with bad input: NULL out-pointers,
// size 0, absurd sizes, double free, interior/host/stack pointers passed to cudaFree. After
// each failure the live allocations keep their data.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static int verify(const void *d, size_t n, unsigned char seed)
{
    unsigned char *h = (unsigned char *)malloc(n);
    if (cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost) != cudaSuccess) { free(h); return 0; }
    int ok = 1;
    for (size_t i = 0; i < n; i++) ok &= h[i] == (unsigned char)(seed + i * 7);
    free(h);
    return ok;
}

static void fill(void *d, size_t n, unsigned char seed)
{
    unsigned char *h = (unsigned char *)malloc(n);
    for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(seed + i * 7);
    CK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice));
    free(h);
}

int main()
{
    const size_t N = 1 << 20;
    void *live = NULL;
    CK(cudaMalloc(&live, N));
    CHECK(live != NULL);
    CHECK_EQ((uintptr_t)live % 256, 0);
    fill(live, N, 3);

    /* many allocations of varied sizes, distinct and aligned, freed in mixed order */
    void *ptrs[64];
    for (int i = 0; i < 64; i++) {
        size_t sz = (size_t)1 + (size_t)i * 4099;
        CK(cudaMalloc(&ptrs[i], sz));
        CHECK_EQ((uintptr_t)ptrs[i] % 256, 0);
        CK(cudaMemset(ptrs[i], i, sz));
    }
    for (int i = 0; i < 64; i++)
        for (int j = i + 1; j < 64; j++)
            CHECK(ptrs[i] != ptrs[j]);
    for (int i = 0; i < 64; i += 2) CK(cudaFree(ptrs[i]));
    for (int i = 1; i < 64; i += 2) {
        unsigned char b[2];
        CK(cudaMemcpy(b, ptrs[i], 1, cudaMemcpyDeviceToHost));
        CHECK_EQ(b[0], i);
        CK(cudaFree(ptrs[i]));
    }

    /* NULL out-pointer */
    CHECK_EQ(cudaMalloc(NULL, 128), cudaErrorInvalidValue);
    /* size 0 succeeds */
    void *z = (void *)1;
    CK(cudaMalloc(&z, 0));
    CK(cudaFree(z));
    /* absurd sizes */
    void *big = NULL;
    CHECK_EQ(cudaMalloc(&big, (size_t)1 << 62), cudaErrorMemoryAllocation);
    CHECK_EQ(cudaMalloc(&big, SIZE_MAX), cudaErrorMemoryAllocation);
    CHECK_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);

    /* frees */
    CK(cudaFree(NULL));
    void *d = NULL;
    CK(cudaMalloc(&d, 4096));
    CHECK_EQ(cudaFree((char *)d + 16), cudaErrorInvalidValue);     /* interior */
    CK(cudaFree(d));
    CHECK_EQ(cudaFree(d), cudaErrorInvalidValue);                  /* double free */
    int on_stack = 0;
    CHECK_EQ(cudaFree(&on_stack), cudaErrorInvalidValue);          /* host pointers */
    void *heap = malloc(64);
    CHECK_EQ(cudaFree(heap), cudaErrorInvalidValue);
    free(heap);
    void *pinned = NULL;
    CK(cudaMallocHost(&pinned, 64));
    CHECK_EQ(cudaFree(pinned), cudaErrorInvalidValue);             /* pinned host memory */
    CK(cudaFreeHost(pinned));
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);

    /* pitched allocation */
    void *pp = NULL;
    size_t pitch = 0;
    CK(cudaMallocPitch(&pp, &pitch, 1000, 33));
    CHECK(pitch >= 1000);
    CHECK_EQ(pitch % 128, 0);
    CHECK_EQ((uintptr_t)pp % 256, 0);
    CK(cudaMemset(pp, 1, pitch * 33));                             /* whole extent is usable */
    CHECK_EQ(cudaMallocPitch(NULL, &pitch, 10, 10), cudaErrorInvalidValue);
    CHECK_EQ(cudaMallocPitch(&pp, NULL, 10, 10), cudaErrorInvalidValue);
    void *pp2 = NULL;
    CHECK_EQ(cudaMallocPitch(&pp2, &pitch, (size_t)1 << 40, (size_t)1 << 30), cudaErrorMemoryAllocation);
    CK(cudaFree(pp));
    (void)cudaGetLastError();

    CHECK(verify(live, N, 3));
    CK(cudaFree(live));
    return CHECK_DONE();
}
