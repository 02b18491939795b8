// rt_ptsz.cu - built with --default-stream per-thread, so every call goes through the
// _ptsz/_ptds entry points and stream 0 is the calling thread's own default stream:
// copies, memsets (1D/2D), events, callbacks, host functions, stream queries and
// stream-ordered allocation on stream 0, checked against host references; two threads'
// default streams are independent of each other.
// NVCC_FLAGS: --default-stream per-thread
#include <cuda_runtime.h>
#include <atomic>
#include <string.h>
#include <thread>
#include <unistd.h>
#include "check.h"

#define CK(x) do { cudaError_t ck_ = (x); CHECK_MSG(ck_ == cudaSuccess, "%s", cudaGetErrorName(ck_)); } while (0)

static std::atomic<int> flag, seen, cbs;
static void set_flag(void *) { flag = 1; }
static void wait_flag_bounded(void *)
{
    for (int i = 0; i < 5000 && !flag; i++) usleep(1000);
    seen = flag.load();
}
static void CUDART_CB cb(cudaStream_t s, cudaError_t st, void *) { if (st == cudaSuccess && s == 0) cbs++; }

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int emulated = strstr(prop.name, "transfer_to_npu") != NULL;

    const size_t N = 100000;
    unsigned char *d = NULL, *h = NULL, *ref = (unsigned char *)malloc(N);
    CK(cudaMalloc((void **)&d, N));
    CK(cudaMallocHost((void **)&h, N));
    for (size_t i = 0; i < N; i++) ref[i] = (unsigned char)(i * 11);
    CK(cudaMemcpy(d, ref, N, cudaMemcpyHostToDevice));                   /* _ptds */
    CK(cudaMemset(d + 10, 0x99, 20));                                    /* _ptds */
    memset(ref + 10, 0x99, 20);
    CK(cudaMemcpyAsync(h, d, N, cudaMemcpyDeviceToHost, 0));             /* _ptsz */
    CK(cudaStreamSynchronize(0));                                        /* _ptsz */
    CHECK(memcmp(h, ref, N) == 0);
    CK(cudaStreamQuery(0));

    /* 2D */
    CK(cudaMemset2D(d, 100, 0x01, 50, 10));                              /* _ptds */
    CK(cudaMemset2DAsync(d + 1000, 100, 0x02, 50, 10, 0));               /* _ptsz */
    CK(cudaMemcpy2DAsync(h, 50, d, 100, 50, 10, cudaMemcpyDeviceToHost, 0));
    CK(cudaMemcpy2D(h + 500, 50, d + 1000, 100, 50, 10, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (int i = 0; i < 500; i++) ok &= h[i] == 1 && h[500 + i] == 2;
    CHECK(ok);

    /* queries on stream 0 */
    unsigned f = 99; int pr = 99, dev = -1; unsigned long long id = 0;
    CK(cudaStreamGetFlags(0, &f));
    CK(cudaStreamGetPriority(0, &pr));
    CK(cudaStreamGetDevice(0, &dev));
    CK(cudaStreamGetId(0, &id));
    CHECK_EQ(dev, 0);
    unsigned long long id_pt = 0;
    CK(cudaStreamGetId(cudaStreamPerThread, &id_pt));
    CHECK_EQ(id, id_pt);                                    /* 0 is the per-thread stream */

    /* events, waits, callbacks, host functions, stream-ordered allocation on stream 0 */
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0, 0));
    void *a = NULL;
    CK(cudaMallocAsync(&a, N, 0));
    CK(cudaMemsetAsync(a, 0x21, N, 0));
    CK(cudaMemcpyAsync(h, a, N, cudaMemcpyDeviceToHost, 0));
    CK(cudaFreeAsync(a, 0));
    cudaMemPool_t pool;
    CK(cudaDeviceGetDefaultMemPool(&pool, 0));
    void *b = NULL;
    CK(cudaMallocFromPoolAsync(&b, 4096, pool, 0));
    CK(cudaFreeAsync(b, 0));
    cbs = 0;
    CK(cudaStreamAddCallback(0, cb, NULL, 0));
    flag = 0;
    CK(cudaLaunchHostFunc(0, set_flag, NULL));
    CK(cudaEventRecordWithFlags(e1, 0, 0));
    CK(cudaStreamWaitEvent(0, e1, 0));
    CK(cudaEventSynchronize(e1));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 0);
    CHECK_EQ(cbs.load(), 1);
    CHECK_EQ(flag.load(), 1);
    ok = 1;
    for (size_t i = 0; i < N; i++) ok &= h[i] == 0x21;
    CHECK(ok);

    /* another thread's stream 0 is a different stream, not ordered with ours */
    unsigned long long other_id = 0;
    std::thread([&] { cudaStreamGetId(0, &other_id); }).join();
    CHECK(other_id != 0 && other_id != id);
    if (emulated) {
        flag = 0; seen = 0;
        CK(cudaLaunchHostFunc(0, wait_flag_bounded, NULL));
        std::thread([] { cudaLaunchHostFunc(0, set_flag, NULL); cudaStreamSynchronize(0); }).join();
        CK(cudaStreamSynchronize(0));
        CHECK_EQ(seen.load(), 1);
    }

    /* bad input through the per-thread entry points */
    CHECK_EQ(cudaMemcpy(d, ref, N + 1, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
    CHECK_EQ(cudaMemcpyAsync(d, ref, 16, (cudaMemcpyKind)42, 0), cudaErrorInvalidMemcpyDirection);
    CHECK_EQ(cudaMemset(d, 0, N + 1), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamGetFlags(0, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);

    CK(cudaMemcpy(h, d + 5000, 100, cudaMemcpyDeviceToHost));
    CHECK(memcmp(h, ref + 5000, 100) == 0);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaFree(d));
    CK(cudaFreeHost(h));
    free(ref);
    return CHECK_DONE();
}
