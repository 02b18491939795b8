// rt_threads.cu - 8 host threads (std::thread) use the runtime at once: each allocates,
// copies through its own streams and the shared default streams, records events, adds
// callbacks, provokes errors and checks that its last error is its own (per-thread), and
// verifies its data against a host reference. One shared allocation is read by all.
#include <cuda_runtime.h>
#include <atomic>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>
#include "check.h"

static std::atomic<int> failures, callbacks;
#define T_CHECK(c) do { if (!(c)) { failures++; fprintf(stderr, "thread check failed: %s (line %d)\n", #c, __LINE__); } } while (0)
#define T_CK(x) T_CHECK((x) == cudaSuccess)

static void CUDART_CB on_done(cudaStream_t, cudaError_t st, void *) { if (st == cudaSuccess) callbacks++; }

static void worker(int id, const unsigned char *shared, size_t shared_n)
{
    T_CK(cudaSetDevice(0));
    const size_t N = 256 * 1024 + id * 131;
    unsigned char *ref = (unsigned char *)malloc(N), *out = (unsigned char *)malloc(N);
    cudaStream_t s;
    T_CK(cudaStreamCreateWithFlags(&s, id % 2 ? cudaStreamNonBlocking : cudaStreamDefault));
    cudaEvent_t e;
    T_CK(cudaEventCreate(&e));
    for (int it = 0; it < 25; it++) {
        for (size_t i = 0; i < N; i++) ref[i] = (unsigned char)(i * (id + 3) + it);
        unsigned char *a = NULL, *b = NULL;
        T_CK(cudaMalloc((void **)&a, N));
        if (it % 2) T_CK(cudaMallocAsync((void **)&b, N, s));
        else T_CK(cudaMalloc((void **)&b, N));
        T_CK(cudaMemcpyAsync(a, ref, N, cudaMemcpyHostToDevice, s));
        T_CK(cudaMemsetAsync(b, 0, N, s));
        T_CK(cudaMemcpyAsync(b + 1, a + 1, N - 1, cudaMemcpyDeviceToDevice, s));
        T_CK(cudaEventRecord(e, s));
        T_CK(cudaStreamAddCallback(s, on_done, NULL, 0));
        T_CK(cudaEventSynchronize(e));
        memset(out, 0xff, N);
        T_CK(cudaMemcpy(out, b, N, cudaMemcpyDeviceToHost));       /* legacy stream */
        T_CHECK(out[0] == 0);
        T_CHECK(memcmp(out + 1, ref + 1, N - 1) == 0);
        /* errors are per thread */
        T_CHECK(cudaMemcpy(a, ref, N + 1, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
        if (id % 3 == 0) T_CHECK(cudaSetDevice(1 << 20) == cudaErrorInvalidDevice);
        T_CHECK(cudaGetLastError() == (id % 3 == 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue));
        T_CHECK(cudaGetLastError() == cudaSuccess);
        /* everyone reads the shared buffer on the per-thread stream */
        unsigned char probe[64];
        size_t off = (size_t)(id * 977 + it * 131) % (shared_n - 64);
        T_CK(cudaMemcpyAsync(probe, shared + off, 64, cudaMemcpyDeviceToHost, cudaStreamPerThread));
        T_CK(cudaStreamSynchronize(cudaStreamPerThread));
        for (int i = 0; i < 64; i++) T_CHECK(probe[i] == (unsigned char)((off + i) * 7));
        T_CK(cudaFree(a));
        if (it % 2) { T_CK(cudaFreeAsync(b, s)); T_CK(cudaStreamSynchronize(s)); }
        else T_CK(cudaFree(b));
    }
    T_CK(cudaEventDestroy(e));
    T_CK(cudaStreamDestroy(s));
    free(ref);
    free(out);
}

int main()
{
    const size_t SN = 1 << 20;
    unsigned char *shared = NULL, *h = (unsigned char *)malloc(SN);
    for (size_t i = 0; i < SN; i++) h[i] = (unsigned char)(i * 7);
    CHECK_EQ(cudaMalloc((void **)&shared, SN), cudaSuccess);
    CHECK_EQ(cudaMemcpy(shared, h, SN, cudaMemcpyHostToDevice), cudaSuccess);
    std::vector<std::thread> ts;
    for (int i = 0; i < 8; i++) ts.emplace_back(worker, i, shared, SN);
    for (auto &t : ts) t.join();
    CHECK_EQ(failures.load(), 0);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    CHECK_EQ(callbacks.load(), 8 * 25);
    /* the main thread saw none of the workers' errors */
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    memset(h, 0, SN);
    CHECK_EQ(cudaMemcpy(h, shared, SN, cudaMemcpyDeviceToHost), cudaSuccess);
    int ok = 1;
    for (size_t i = 0; i < SN; i++) ok &= h[i] == (unsigned char)(i * 7);
    CHECK(ok);
    CHECK_EQ(cudaFree(shared), cudaSuccess);
    free(h);
    return CHECK_DONE();
}
