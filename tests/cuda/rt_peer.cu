// rt_peer.cu - two devices: per-device allocations and streams, peer access queries and
// enable/disable state with its errors, cudaMemcpyPeer/PeerAsync against host references,
// and cudaDeviceReset of one device leaving the other's allocations intact.
// Needs two devices (skips its multi-device part with one).
// ENV: TRANSFER_TO_NPU_DEVICES=2
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

int main()
{
    int n = 0;
    CK(cudaGetDeviceCount(&n));
    int can = -1;
    CK(cudaDeviceCanAccessPeer(&can, 0, 0));
    CHECK_EQ(can, 0);                                   /* a device is not its own peer */
    CHECK_EQ(cudaDeviceCanAccessPeer(&can, 0, n), cudaErrorInvalidDevice);
    CHECK_EQ(cudaDeviceCanAccessPeer(NULL, 0, 0), cudaErrorInvalidValue);
    CHECK_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
    CHECK_EQ(cudaDeviceEnablePeerAccess(n, 0), cudaErrorInvalidDevice);
    (void)cudaGetLastError();
    if (n < 2) {
        printf("rt_peer: one device, multi-device checks skipped\n");
        return CHECK_DONE();
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int emulated = strstr(prop.name, "transfer_to_npu") != NULL;

    const size_t N = 1 << 20;
    unsigned char *ref = (unsigned char *)malloc(N), *h = (unsigned char *)malloc(N);
    for (size_t i = 0; i < N; i++) ref[i] = (unsigned char)(i * 13 + 1);
    unsigned char *d0 = NULL, *d1 = NULL;
    CK(cudaSetDevice(0));
    CK(cudaMalloc((void **)&d0, N));
    CK(cudaMemcpy(d0, ref, N, cudaMemcpyHostToDevice));
    CK(cudaSetDevice(1));
    CK(cudaMalloc((void **)&d1, N));
    cudaPointerAttributes at;
    CK(cudaPointerGetAttributes(&at, d1));
    CHECK_EQ(at.device, 1);
    cudaStream_t s1;
    CK(cudaStreamCreate(&s1));
    int sd = -1;
    CK(cudaStreamGetDevice(s1, &sd));
    CHECK_EQ(sd, 1);

    /* peer access state */
    CK(cudaDeviceCanAccessPeer(&can, 1, 0));
    if (can) {
        CK(cudaDeviceEnablePeerAccess(0, 0));           /* current device 1 -> peer 0 */
        CHECK_EQ(cudaDeviceEnablePeerAccess(0, 0), cudaErrorPeerAccessAlreadyEnabled);
        CHECK_EQ(cudaGetLastError(), cudaErrorPeerAccessAlreadyEnabled);
        CK(cudaDeviceDisablePeerAccess(0));
        CHECK_EQ(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
        CHECK_EQ(cudaGetLastError(), cudaErrorPeerAccessNotEnabled);
        CHECK_EQ(cudaDeviceEnablePeerAccess(0, 1), cudaErrorInvalidValue);
        (void)cudaGetLastError();
        CK(cudaDeviceEnablePeerAccess(0, 0));
    }

    /* peer copies */
    CK(cudaMemcpyPeer(d1, 1, d0, 0, N));
    CK(cudaMemcpy(h, d1, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h, ref, N) == 0);
    CK(cudaMemsetAsync(d1, 0, N, s1));
    CK(cudaMemcpyPeerAsync(d1 + 5, 1, d0 + 7, 0, 1000, s1));
    CK(cudaMemcpyAsync(h, d1, N, cudaMemcpyDeviceToHost, s1));
    CK(cudaStreamSynchronize(s1));
    int ok = 1;
    for (size_t i = 0; i < N; i++)
        ok &= h[i] == ((i >= 5 && i < 1005) ? ref[i + 2] : 0);
    CHECK(ok);
    CHECK_EQ(cudaMemcpyPeer(d1, 1, d0, 7, 16), cudaErrorInvalidDevice);
    CHECK_EQ(cudaMemcpyPeer(d1, 1, d0, 0, N + 1), cudaErrorInvalidValue);
    (void)cudaGetLastError();

    /* resetting device 1 leaves device 0 alone */
    CK(cudaSetDevice(1));
    CK(cudaDeviceReset());
    if (emulated) {
        CHECK_EQ(cudaStreamSynchronize(s1), cudaErrorInvalidResourceHandle);
        CHECK_EQ(cudaFree(d1), cudaErrorInvalidValue);
        (void)cudaGetLastError();
    }
    unsigned char *again = NULL;
    CK(cudaMalloc((void **)&again, 4096));              /* device 1 usable after reset */
    CK(cudaFree(again));
    CK(cudaSetDevice(0));
    memset(h, 0, N);
    CK(cudaMemcpy(h, d0, N, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h, ref, N) == 0);
    CK(cudaFree(d0));
    free(ref);
    free(h);
    return CHECK_DONE();
}
