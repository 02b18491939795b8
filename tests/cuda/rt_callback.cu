// rt_callback.cu - cudaStreamAddCallback (gets its stream handle, cudaSuccess and userData;
// runs after the copies queued before it, before the work queued after it) and
// cudaLaunchHostFunc on user streams and the default streams; many callbacks all run once.
// Bad input: flags != 0, NULL callback, destroyed stream.
#include <cuda_runtime.h>
#include <atomic>
#include <string.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

struct probe {
    cudaStream_t expect_stream;
    const int *pinned;                /* filled by a D2H copy queued before the callback */
    int n, expect_value;
    std::atomic<int> calls, bad_status, bad_stream, bad_data;
};

static void CUDART_CB cb(cudaStream_t s, cudaError_t status, void *user)
{
    probe *p = (probe *)user;
    if (status != cudaSuccess) p->bad_status++;
    if (s != p->expect_stream) p->bad_stream++;
    for (int i = 0; i < p->n; i++)
        if (p->pinned[i] != p->expect_value + i) { p->bad_data++; break; }
    p->calls++;
}

static std::atomic<int> counter;
static std::atomic<int> sequence_ok;
static void CUDART_CB count_cb(cudaStream_t, cudaError_t status, void *user)
{
    if (status == cudaSuccess) {
        int want = (int)(long)user;
        if (counter.load() != want) sequence_ok = 0;
        counter++;
    }
}
static void host_count(void *user)
{
    int want = (int)(long)user;
    if (counter.load() != want) sequence_ok = 0;
    counter++;
}

int main()
{
    const int N = 4096;
    int *d = NULL, *pin = NULL, *src = NULL;
    CK(cudaMalloc((void **)&d, N * sizeof(int)));
    CK(cudaMallocHost((void **)&pin, N * sizeof(int)));
    CK(cudaMallocHost((void **)&src, N * sizeof(int)));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));

    /* the callback sees the data of the copies queued before it */
    for (int round = 0; round < 10; round++) {
        probe p;
        p.expect_stream = s; p.pinned = pin; p.n = N; p.expect_value = round * 100;
        p.calls = 0; p.bad_status = 0; p.bad_stream = 0; p.bad_data = 0;
        for (int i = 0; i < N; i++) src[i] = round * 100 + i;
        CK(cudaMemcpyAsync(d, src, N * sizeof(int), cudaMemcpyHostToDevice, s));
        CK(cudaMemcpyAsync(pin, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
        CK(cudaStreamAddCallback(s, cb, &p, 0));
        CK(cudaStreamSynchronize(s));
        CHECK_EQ(p.calls.load(), 1);
        CHECK_EQ(p.bad_status.load(), 0);
        CHECK_EQ(p.bad_stream.load(), 0);
        CHECK_EQ(p.bad_data.load(), 0);
    }
    /* on the legacy stream the callback receives stream 0 */
    {
        probe p;
        p.expect_stream = 0; p.pinned = pin; p.n = N; p.expect_value = 900;
        p.calls = 0; p.bad_status = 0; p.bad_stream = 0; p.bad_data = 0;
        CK(cudaMemcpy(pin, src, N * sizeof(int), cudaMemcpyHostToHost));
        CK(cudaStreamAddCallback(0, cb, &p, 0));
        CK(cudaDeviceSynchronize());
        CHECK_EQ(p.calls.load(), 1);
        CHECK_EQ(p.bad_stream.load(), 0);
        CHECK_EQ(p.bad_data.load(), 0);
    }

    /* callbacks and host functions interleaved: all run, once each, in order */
    counter = 0; sequence_ok = 1;
    for (long i = 0; i < 2000; i++) {
        if (i % 2) CK(cudaStreamAddCallback(s, count_cb, (void *)i, 0));
        else CK(cudaLaunchHostFunc(s, host_count, (void *)i));
    }
    CK(cudaStreamSynchronize(s));
    CHECK_EQ(counter.load(), 2000);
    CHECK_EQ(sequence_ok.load(), 1);
    counter = 0; sequence_ok = 1;
    for (long i = 0; i < 100; i++) CK(cudaLaunchHostFunc(cudaStreamPerThread, host_count, (void *)i));
    CK(cudaStreamSynchronize(cudaStreamPerThread));
    CHECK_EQ(counter.load(), 100);
    CHECK_EQ(sequence_ok.load(), 1);

    /* bad input */
    probe dummy;
    CHECK_EQ(cudaStreamAddCallback(s, cb, &dummy, 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamAddCallback(s, NULL, &dummy, 0), cudaErrorInvalidValue);
    cudaStream_t gone;
    CK(cudaStreamCreate(&gone));
    CK(cudaStreamDestroy(gone));
    CHECK_EQ(cudaStreamAddCallback(gone, cb, &dummy, 0), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaLaunchHostFunc(gone, host_count, NULL), cudaErrorInvalidResourceHandle);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);

    /* still working */
    memset(pin, 0, N * sizeof(int));
    CK(cudaMemcpyAsync(pin, d, N * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    int ok = 1;
    for (int i = 0; i < N; i++) ok &= pin[i] == 900 + i;
    CHECK(ok);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFreeHost(pin));
    CK(cudaFreeHost(src));
    return CHECK_DONE();
}
