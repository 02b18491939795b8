// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_context.cu - driver API contexts: primary context retain/release/state/flags, created
 * contexts and the per-thread stack (create, push, pop, set, get), per-context queries and
 * limits, a destroyed context used afterwards (this thread and another thread), and NULL /
 * stale handles. The process keeps working after every bad call.
 */
#include <cuda.h>
#include <pthread.h>
#include "check.h"

static CUcontext shared_ctx;
static pthread_barrier_t bar;
static CUresult thread_result;

static void *other_thread(void *arg)
{
    cuCtxPushCurrent(shared_ctx);
    pthread_barrier_wait(&bar);     /* main destroys the context now */
    pthread_barrier_wait(&bar);
    thread_result = cuCtxSynchronize();
    return NULL;
}

int main()
{
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    CHECK_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);

    /* Primary context. */
    CUcontext prim = NULL, prim2 = NULL;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&prim, dev), CUDA_SUCCESS);
    CHECK(prim != NULL);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&prim2, dev), CUDA_SUCCESS);
    CHECK(prim == prim2);
    unsigned flags = 99;
    int active = 0;
    CHECK_EQ(cuDevicePrimaryCtxGetState(dev, &flags, &active), CUDA_SUCCESS);
    CHECK_EQ(active, 1);
    CHECK_EQ(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_BLOCKING_SYNC), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxGetState(dev, &flags, &active), CUDA_SUCCESS);
    CHECK_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_BLOCKING_SYNC);
    CHECK_EQ(cuDevicePrimaryCtxSetFlags(dev, 0x1000), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuDevicePrimaryCtxRetain(NULL, dev), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&prim2, 1000), CUDA_ERROR_INVALID_DEVICE);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);   /* one reference left */

    CHECK_EQ(cuCtxSetCurrent(prim), CUDA_SUCCESS);
    CUcontext cur = NULL;
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == prim);
    CUdevice d = -1;
    CHECK_EQ(cuCtxGetDevice(&d), CUDA_SUCCESS);
    CHECK_EQ(d, dev);
    CHECK_EQ(cuCtxGetCurrent(NULL), CUDA_ERROR_INVALID_VALUE);

    /* Created context: current after creation, usable, stacked. */
    CUcontext c2 = NULL;
    CHECK_EQ(cuCtxCreate(&c2, NULL, 0, dev), CUDA_SUCCESS);
    CHECK(c2 != NULL && c2 != prim);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == c2);
    unsigned api = 0;
    CHECK_EQ(cuCtxGetApiVersion(c2, &api), CUDA_SUCCESS);
    CHECK(api >= 3020);
    unsigned long long id1 = 0, id2 = 0;
    CHECK_EQ(cuCtxGetId(c2, &id1), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetId(prim, &id2), CUDA_SUCCESS);
    CHECK(id1 != id2);
    CUdeviceptr p = 0;
    CHECK_EQ(cuMemAlloc(&p, 4096), CUDA_SUCCESS);
    CHECK_EQ(cuMemsetD32(p, 7, 1024), CUDA_SUCCESS);
    unsigned host[4] = {0};
    CHECK_EQ(cuMemcpyDtoH(host, p, sizeof host), CUDA_SUCCESS);
    CHECK_EQ(host[3], 7);
    CHECK_EQ(cuMemFree(p), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSynchronize(), CUDA_SUCCESS);

    CHECK_EQ(cuCtxPushCurrent(prim), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == prim);
    CUcontext popped = NULL;
    CHECK_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
    CHECK(popped == prim);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == c2);
    CHECK_EQ(cuCtxPushCurrent(NULL), CUDA_ERROR_INVALID_VALUE);

    /* Context queries and settings on c2. */
    CHECK_EQ(cuCtxSetFlags(CU_CTX_SCHED_YIELD), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetFlags(&flags), CUDA_SUCCESS);
    CHECK_EQ(flags & CU_CTX_SCHED_MASK, CU_CTX_SCHED_YIELD);
    int least = 1, greatest = 1;
    CHECK_EQ(cuCtxGetStreamPriorityRange(&least, &greatest), CUDA_SUCCESS);
    CHECK(greatest <= least);
    size_t lim = 0;
    CHECK_EQ(cuCtxGetLimit(&lim, CU_LIMIT_STACK_SIZE), CUDA_SUCCESS);
    CHECK(lim > 0);
    CHECK_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16u << 20), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE), CUDA_SUCCESS);
    CHECK(lim >= (16u << 20));
    CHECK_EQ(cuCtxGetLimit(&lim, (CUlimit)0x77), CUDA_ERROR_UNSUPPORTED_LIMIT);
    CHECK_EQ(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE), CUDA_ERROR_INVALID_VALUE);
    CUfunc_cache cc;
    CHECK_EQ(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetCacheConfig(&cc), CUDA_SUCCESS);

    /* Destroy c2: popped from this thread's stack, stale afterwards. */
    CHECK_EQ(cuCtxDestroy(c2), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == prim);
    CHECK_EQ(cuCtxPushCurrent(c2), CUDA_ERROR_INVALID_CONTEXT);
    CUresult r = cuCtxGetApiVersion(c2, &api);
    CHECK_MSG(r == CUDA_ERROR_INVALID_CONTEXT || r == CUDA_ERROR_CONTEXT_IS_DESTROYED, "%d", (int)r);
    r = cuCtxDestroy(c2);
    CHECK_MSG(r == CUDA_ERROR_INVALID_CONTEXT || r == CUDA_ERROR_CONTEXT_IS_DESTROYED, "%d", (int)r);

    /* A context destroyed while current on another thread. */
    CHECK_EQ(cuCtxCreate(&shared_ctx, NULL, 0, dev), CUDA_SUCCESS);
    CHECK_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
    CHECK(popped == shared_ctx);
    pthread_barrier_init(&bar, NULL, 2);
    pthread_t t;
    pthread_create(&t, NULL, other_thread, NULL);
    pthread_barrier_wait(&bar);
    CHECK_EQ(cuCtxDestroy(shared_ctx), CUDA_SUCCESS);
    pthread_barrier_wait(&bar);
    pthread_join(t, NULL);
    CHECK_MSG(thread_result == CUDA_ERROR_CONTEXT_IS_DESTROYED || thread_result == CUDA_ERROR_INVALID_CONTEXT,
              "%d", (int)thread_result);

    /* The process keeps working in the primary context. */
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == prim);
    CHECK_EQ(cuMemAlloc(&p, 256), CUDA_SUCCESS);
    CHECK_EQ(cuMemFree(p), CUDA_SUCCESS);

    /* No context: context-bound calls fail, context-free ones still work. */
    CHECK_EQ(cuCtxSetCurrent(NULL), CUDA_SUCCESS);
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur == NULL);
    CHECK_EQ(cuMemAlloc(&p, 256), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_EQ(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_EQ(cuCtxPopCurrent(&popped), CUDA_ERROR_INVALID_CONTEXT);
    int n;
    CHECK_EQ(cuDeviceGetCount(&n), CUDA_SUCCESS);

    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_SUCCESS);
    CHECK_EQ(cuDevicePrimaryCtxRelease(dev), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_EQ(cuDevicePrimaryCtxRelease(1000), CUDA_ERROR_INVALID_DEVICE);
    return CHECK_DONE();
}
