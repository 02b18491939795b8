// rt_host_mem.cu - pinned memory (cudaMallocHost, cudaHostAlloc flags, cudaFreeHost),
// registered memory (cudaHostRegister/Unregister), mapped device pointers and flags,
// managed memory written and read from the host around device copies. Bad input: freeing
// non-pinned memory, double registration, unregistering unknown memory, bad flags.
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    const size_t N = 1 << 18;
    unsigned char *d = NULL;
    CK(cudaMalloc((void **)&d, N));

    /* cudaMallocHost: usable from the host, async copies through it */
    unsigned char *pin = NULL;
    CK(cudaMallocHost((void **)&pin, N));
    for (size_t i = 0; i < N; i++) pin[i] = (unsigned char)(i * 5);
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaMemcpyAsync(d, pin, N, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    memset(pin, 0, N);
    CK(cudaMemcpyAsync(pin, d, N, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    int ok = 1;
    for (size_t i = 0; i < N; i++) ok &= pin[i] == (unsigned char)(i * 5);
    CHECK(ok);

    /* cudaHostAlloc flags and the mapped device pointer */
    unsigned char *mapped = NULL;
    CK(cudaHostAlloc((void **)&mapped, 4096, cudaHostAllocMapped | cudaHostAllocPortable));
    unsigned flags = 0;
    CK(cudaHostGetFlags(&flags, mapped));
    CHECK_EQ(flags & (cudaHostAllocMapped | cudaHostAllocPortable), cudaHostAllocMapped | cudaHostAllocPortable);
    void *dev_alias = NULL;
    CK(cudaHostGetDevicePointer(&dev_alias, mapped, 0));
    CHECK(dev_alias != NULL);
    memset(mapped, 0x3c, 4096);
    CK(cudaMemcpy(d, dev_alias, 4096, cudaMemcpyDeviceToDevice));   /* device view of it */
    unsigned char back[4096];
    CK(cudaMemcpy(back, d, 4096, cudaMemcpyDeviceToHost));
    ok = 1;
    for (int i = 0; i < 4096; i++) ok &= back[i] == 0x3c;
    CHECK(ok);
    CHECK_EQ(cudaHostGetDevicePointer(&dev_alias, mapped, 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaHostGetDevicePointer(NULL, mapped, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaHostAlloc((void **)&mapped, 64, 0x100), cudaErrorInvalidValue);
    CHECK_EQ(cudaHostAlloc(NULL, 64, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaMallocHost(NULL, 64), cudaErrorInvalidValue);

    /* cudaHostRegister on malloc'ed memory */
    size_t rn = 3 * 4096;
    unsigned char *reg = (unsigned char *)aligned_alloc(4096, rn);
    for (size_t i = 0; i < rn; i++) reg[i] = (unsigned char)(i ^ 0x5a);
    CK(cudaHostRegister(reg, rn, cudaHostRegisterDefault));
    cudaPointerAttributes at;
    CK(cudaPointerGetAttributes(&at, reg + 100));
    CHECK_EQ(at.type, cudaMemoryTypeHost);
    CK(cudaMemcpyAsync(d, reg, rn, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    CHECK_EQ(cudaHostRegister(reg, rn, cudaHostRegisterDefault), cudaErrorHostMemoryAlreadyRegistered);
    CHECK_EQ(cudaHostRegister(reg, rn, 0x100), cudaErrorInvalidValue);
    CHECK_EQ(cudaHostRegister(NULL, rn, 0), cudaErrorInvalidValue);
    CK(cudaHostUnregister(reg));
    CHECK_EQ(cudaHostUnregister(reg), cudaErrorHostMemoryNotRegistered);
    CK(cudaPointerGetAttributes(&at, reg));
    CHECK_EQ(at.type, cudaMemoryTypeUnregistered);
    memset(reg, 0, rn);
    CK(cudaMemcpy(reg, d, rn, cudaMemcpyDeviceToHost));
    ok = 1;
    for (size_t i = 0; i < rn; i++) ok &= reg[i] == (unsigned char)(i ^ 0x5a);
    CHECK(ok);

    /* cudaFreeHost errors */
    CK(cudaFreeHost(NULL));
    void *plain = malloc(128);
    CHECK_EQ(cudaFreeHost(plain), cudaErrorInvalidValue);
    free(plain);
    CHECK_EQ(cudaFreeHost(d), cudaErrorInvalidValue);               /* device memory */
    CHECK_EQ(cudaFreeHost(pin + 64), cudaErrorInvalidValue);        /* interior */
    unsigned char *once = NULL;
    CK(cudaMallocHost((void **)&once, 64));
    CK(cudaFreeHost(once));
    CHECK_EQ(cudaFreeHost(once), cudaErrorInvalidValue);            /* double free */
    CHECK_EQ(cudaHostGetFlags(&flags, reg), cudaErrorInvalidValue); /* not pinned any more */
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    /* managed memory: host writes, device copies, host reads */
    int *m = NULL;
    const int M = 10000;
    CK(cudaMallocManaged((void **)&m, M * sizeof(int)));
    for (int i = 0; i < M; i++) m[i] = i * 3;
    int *m2 = NULL;
    CK(cudaMallocManaged((void **)&m2, M * sizeof(int), cudaMemAttachHost));
    CK(cudaMemcpy(m2, m, M * sizeof(int), cudaMemcpyDefault));
    CK(cudaDeviceSynchronize());
    ok = 1;
    for (int i = 0; i < M; i++) ok &= m2[i] == i * 3;
    CHECK(ok);
    CHECK_EQ(cudaMallocManaged((void **)&m, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaMallocManaged((void **)&m, 16, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaMallocManaged((void **)&m, 16, 7), cudaErrorInvalidValue);
    CHECK_EQ(cudaMallocManaged(NULL, 16), cudaErrorInvalidValue);
    ok = 1;
    for (int i = 0; i < M; i++) ok &= m2[i] == i * 3;             /* still there */
    CHECK(ok);

    /* pinned data survived every failure */
    ok = 1;
    for (size_t i = 0; i < N; i++) ok &= pin[i] == (unsigned char)(i * 5);
    CHECK(ok);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(m2));
    CK(cudaFreeHost(mapped));
    CK(cudaFreeHost(pin));
    CK(cudaFree(d));
    free(reg);
    (void)cudaGetLastError();
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    return CHECK_DONE();
}
