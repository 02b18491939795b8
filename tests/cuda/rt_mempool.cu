// rt_mempool.cu - stream-ordered allocation: cudaMallocAsync/cudaFreeAsync on streams,
// data through async copies, default and created pools, cudaDeviceSetMemPool/GetMemPool,
// cudaMallocFromPoolAsync, pool attributes (release threshold, used/reserved counters and
// high-water resets), cudaMemPoolTrimTo. Bad input: invalid pools, wrong attributes, freed
// pointers, invalid streams.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    int supported = 0;
    CK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    CHECK_EQ(supported, 1);
    cudaStream_t s;
    CK(cudaStreamCreate(&s));

    /* allocate, use, free in stream order */
    const size_t N = 1 << 20;
    unsigned char *h = NULL;
    CK(cudaMallocHost((void **)&h, N));
    for (int round = 0; round < 20; round++) {
        unsigned char *a = NULL;
        CK(cudaMallocAsync((void **)&a, N, s));
        CHECK(a != NULL);
        CK(cudaMemsetAsync(a, round, N, s));
        CK(cudaMemcpyAsync(h, a, N, cudaMemcpyDeviceToHost, s));
        CK(cudaFreeAsync(a, s));
        CK(cudaStreamSynchronize(s));
        int ok = 1;
        for (size_t i = 0; i < N; i += 4097) ok &= h[i] == round;
        CHECK(ok);
    }
    void *z = NULL;
    CK(cudaMallocAsync(&z, 256, 0));
    cudaPointerAttributes at;
    CK(cudaPointerGetAttributes(&at, z));
    CHECK_EQ(at.type, cudaMemoryTypeDevice);
    CK(cudaFreeAsync(z, 0));
    CK(cudaStreamSynchronize(0));

    /* cudaFree accepts stream-ordered allocations (it synchronizes first) */
    void *y = NULL;
    CK(cudaMallocAsync(&y, 1 << 16, s));
    CK(cudaMemsetAsync(y, 1, 1 << 16, s));
    CK(cudaFree(y));
    CK(cudaStreamSynchronize(s));

    /* default pool and attributes */
    cudaMemPool_t def = NULL, cur = NULL;
    CK(cudaDeviceGetDefaultMemPool(&def, 0));
    CK(cudaDeviceGetMemPool(&cur, 0));
    CHECK(def != NULL && cur == def);
    uint64_t thr = 1 << 20, v = 0;
    CK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr));
    CK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &v));
    CHECK_EQ(v, thr);
    int reuse = 0;
    CK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    CHECK(reuse == 0 || reuse == 1);
    reuse = 0;
    CK(cudaMemPoolSetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    CK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    CHECK_EQ(reuse, 0);

    /* a created pool: used counters follow allocations */
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t pool = NULL;
    CK(cudaMemPoolCreate(&pool, &props));
    CHECK(pool != NULL && pool != def);
    void *p1 = NULL, *p2 = NULL;
    CK(cudaMallocFromPoolAsync(&p1, 3 << 20, pool, s));
    CK(cudaMallocFromPoolAsync(&p2, 1 << 20, pool, s));
    CK(cudaStreamSynchronize(s));
    uint64_t used = 0, used_high = 0, reserved = 0;
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    CHECK(used >= (4u << 20));
    CHECK(reserved >= used);
    CK(cudaMemsetAsync(p1, 1, 3 << 20, s));
    CK(cudaFreeAsync(p1, s));
    CK(cudaFreeAsync(p2, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK_EQ(used, 0);
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used_high));
    CHECK(used_high >= (4u << 20));
    uint64_t zero = 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used_high));
    CHECK_EQ(used_high, 0);
    CK(cudaMemPoolTrimTo(pool, 0));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    CHECK_EQ(reserved, 0);

    /* the device's current pool serves cudaMallocAsync */
    CK(cudaDeviceSetMemPool(0, pool));
    CK(cudaDeviceGetMemPool(&cur, 0));
    CHECK(cur == pool);
    void *p3 = NULL;
    CK(cudaMallocAsync(&p3, 1 << 20, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK(used >= (1u << 20));
    CK(cudaFreeAsync(p3, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaDeviceSetMemPool(0, def));

    /* bad input */
    CHECK_EQ(cudaMallocAsync(NULL, 16, s), cudaErrorInvalidValue);
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    void *q = NULL;
    CHECK_EQ(cudaMallocAsync(&q, 16, gone), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaMemPoolGetAttribute(pool, (cudaMemPoolAttr)99, &v), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero), cudaErrorInvalidValue);
    uint64_t nonzero = 5;
    CHECK_EQ(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &nonzero), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemPoolCreate(NULL, &props), cudaErrorInvalidValue);
    cudaMemPoolProps badp = props;
    badp.allocType = cudaMemAllocationTypeInvalid;
    cudaMemPool_t bp;
    CHECK_EQ(cudaMemPoolCreate(&bp, &badp), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetDefaultMemPool(NULL, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceGetDefaultMemPool(&cur, 1 << 16), cudaErrorInvalidDevice);
    CHECK_EQ(cudaDeviceSetMemPool(1 << 16, def), cudaErrorInvalidDevice);
    CHECK_EQ(cudaMemPoolDestroy(def), cudaErrorInvalidValue);       /* the default pool */
    CK(cudaMemPoolDestroy(pool));
    (void)cudaGetLastError();

    /* still working */
    unsigned char *a = NULL;
    CK(cudaMallocAsync((void **)&a, 4096, s));
    CK(cudaMemsetAsync(a, 0x4e, 4096, s));
    CK(cudaMemcpyAsync(h, a, 4096, cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(a, s));
    CK(cudaStreamSynchronize(s));
    int ok = 1;
    for (int i = 0; i < 4096; i++) ok &= h[i] == 0x4e;
    CHECK(ok);
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(h));
    return CHECK_DONE();
}
