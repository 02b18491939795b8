// rt_ptr_attr.cu - cudaPointerGetAttributes for every kind of memory: device (base and
// interior), pinned, registered, managed, plain host (success, cudaMemoryTypeUnregistered),
// freed device memory; NULL attributes -> cudaErrorInvalidValue.
// ENV: TRANSFER_TO_NPU_DEVICES=2
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    cudaPointerAttributes a;

    char *d = NULL;
    CK(cudaMalloc((void **)&d, 1 << 16));
    CK(cudaMemset(d, 0x42, 1 << 16));
    memset(&a, 0x7f, sizeof a);
    CK(cudaPointerGetAttributes(&a, d));
    CHECK_EQ(a.type, cudaMemoryTypeDevice);
    CHECK_EQ(a.device, 0);
    CHECK(a.devicePointer == d);
    CHECK(a.hostPointer == NULL);
    CK(cudaPointerGetAttributes(&a, d + 1000));
    CHECK_EQ(a.type, cudaMemoryTypeDevice);
    CHECK(a.devicePointer == d + 1000);

    if (ndev > 1) {                                   /* allocation on another device */
        char *d1 = NULL;
        CK(cudaSetDevice(1));
        CK(cudaMalloc((void **)&d1, 4096));
        CK(cudaSetDevice(0));
        CK(cudaPointerGetAttributes(&a, d1));
        CHECK_EQ(a.type, cudaMemoryTypeDevice);
        CHECK_EQ(a.device, 1);
        CK(cudaFree(d1));
    }

    char *pin = NULL;
    CK(cudaMallocHost((void **)&pin, 4096));
    CK(cudaPointerGetAttributes(&a, pin + 8));
    CHECK_EQ(a.type, cudaMemoryTypeHost);
    CHECK(a.hostPointer == pin + 8);
    CHECK(a.devicePointer != NULL);

    char *man = NULL;
    CK(cudaMallocManaged((void **)&man, 4096));
    CK(cudaPointerGetAttributes(&a, man));
    CHECK_EQ(a.type, cudaMemoryTypeManaged);
    CHECK(a.hostPointer == man);
    CHECK(a.devicePointer == man);

    char *reg = (char *)aligned_alloc(4096, 8192);
    CK(cudaHostRegister(reg, 8192, 0));
    CK(cudaPointerGetAttributes(&a, reg + 4096));
    CHECK_EQ(a.type, cudaMemoryTypeHost);
    CHECK(a.hostPointer == reg + 4096);
    CK(cudaHostUnregister(reg));

    char *plain = (char *)malloc(100);
    CK(cudaPointerGetAttributes(&a, plain));
    CHECK_EQ(a.type, cudaMemoryTypeUnregistered);
    CHECK(a.devicePointer == NULL);
    int local = 0;
    CK(cudaPointerGetAttributes(&a, &local));
    CHECK_EQ(a.type, cudaMemoryTypeUnregistered);

    char *dead = NULL;
    CK(cudaMalloc((void **)&dead, 1 << 20));
    CK(cudaFree(dead));
    cudaError_t e = cudaPointerGetAttributes(&a, dead);
    CHECK(e == cudaErrorInvalidValue || e == cudaSuccess);       /* answers, never crashes */
    (void)cudaGetLastError();

    CHECK_EQ(cudaPointerGetAttributes(NULL, d), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    char h[16];
    CK(cudaMemcpy(h, d + 5, 16, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < 16; i++) ok &= h[i] == 0x42;
    CHECK(ok);
    CK(cudaFree(d));
    CK(cudaFreeHost(pin));
    CK(cudaFree(man));
    free(reg);
    free(plain);
    return CHECK_DONE();
}
