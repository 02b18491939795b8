// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_interop.cu - one state shared by the runtime and driver APIs: cudaMalloc memory with
 * cuMemcpy*, cuMemAlloc memory with cudaMemcpy, a cudaStream_t used as a CUstream, a
 * cudaEvent_t as a CUevent, the runtime's current context (the primary context), driver
 * streams and events (priorities, flags, callbacks, host functions, elapsed time).
 */
#include <cuda.h>
#include <cuda_runtime.h>
#include <string.h>
#include "check.h"

static int host_fn_ran, callback_ran;
static CUresult callback_status = (CUresult)-1;
static void CUDA_CB host_fn(void *arg) { host_fn_ran = *(int *)arg; }
static void CUDA_CB stream_cb(CUstream s, CUresult status, void *arg)
{
    callback_status = status;
    callback_ran = *(int *)arg;
}

int main()
{
    /* The runtime first, as a runtime program that also calls the driver does. */
    int *rbuf = NULL;
    CHECK_EQ(cudaMalloc(&rbuf, 4096), cudaSuccess);
    CHECK_EQ(cudaMemset(rbuf, 0x11, 4096), cudaSuccess);
    CHECK_EQ(cuInit(0), CUDA_SUCCESS);
    CUcontext cur = NULL, prim = NULL;
    CHECK_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    CHECK(cur != NULL);
    CHECK_EQ(cuDevicePrimaryCtxRetain(&prim, 0), CUDA_SUCCESS);
    CHECK(cur == prim);

    int h[1024];
    CHECK_EQ(cuMemcpyDtoH(h, (CUdeviceptr)rbuf, sizeof h), CUDA_SUCCESS);
    CHECK_EQ((unsigned)h[1023], 0x11111111u);
    CUcontext pctx = NULL;
    CHECK_EQ(cuPointerGetAttribute(&pctx, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)rbuf), CUDA_SUCCESS);
    CHECK(pctx == prim);

    CUdeviceptr dbuf = 0;
    CHECK_EQ(cuMemAlloc(&dbuf, 4096), CUDA_SUCCESS);
    for (int i = 0; i < 1024; i++) h[i] = i * i;
    CHECK_EQ(cudaMemcpy((void *)dbuf, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
    int back[1024];
    CHECK_EQ(cuMemcpyDtoH(back, dbuf, sizeof back), CUDA_SUCCESS);
    CHECK(memcmp(back, h, sizeof h) == 0);
    cudaPointerAttributes pa;
    CHECK_EQ(cudaPointerGetAttributes(&pa, (void *)dbuf), cudaSuccess);
    CHECK_EQ(pa.type, cudaMemoryTypeDevice);

    /* A runtime stream and event used through the driver. */
    cudaStream_t rs;
    CHECK_EQ(cudaStreamCreate(&rs), cudaSuccess);
    CHECK_EQ(cuMemsetD32Async(dbuf, 42, 1024, (CUstream)rs), CUDA_SUCCESS);
    cudaEvent_t ev;
    CHECK_EQ(cudaEventCreate(&ev), cudaSuccess);
    CHECK_EQ(cuEventRecord((CUevent)ev, (CUstream)rs), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize((CUstream)rs), CUDA_SUCCESS);
    CHECK_EQ(cudaEventSynchronize(ev), cudaSuccess);
    CHECK_EQ(cudaMemcpy(back, (void *)dbuf, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
    CHECK_EQ(back[500], 42);
    CUcontext sctx = NULL;
    CHECK_EQ(cuStreamGetCtx((CUstream)rs, &sctx), CUDA_SUCCESS);
    CHECK(sctx == prim);
    CHECK_EQ(cuStreamQuery((CUstream)rs), CUDA_SUCCESS);

    /* Driver streams and events seen by the runtime. */
    CUstream ds;
    CHECK_EQ(cuStreamCreateWithPriority(&ds, CU_STREAM_NON_BLOCKING, -1), CUDA_SUCCESS);
    int prio = 0;
    unsigned flags = 0;
    CHECK_EQ(cuStreamGetPriority(ds, &prio), CUDA_SUCCESS);
    CHECK_EQ(prio, -1);
    CHECK_EQ(cuStreamGetFlags(ds, &flags), CUDA_SUCCESS);
    CHECK_EQ(flags, CU_STREAM_NON_BLOCKING);
    CHECK_EQ(cudaStreamGetPriority((cudaStream_t)ds, &prio), cudaSuccess);
    CHECK_EQ(prio, -1);
    CUevent e1, e2;
    CHECK_EQ(cuEventCreate(&e1, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    CHECK_EQ(cuEventCreate(&e2, CU_EVENT_DEFAULT), CUDA_SUCCESS);
    CHECK_EQ(cuEventRecord(e1, ds), CUDA_SUCCESS);
    CHECK_EQ(cudaMemcpyAsync((void *)dbuf, h, sizeof h, cudaMemcpyHostToDevice, (cudaStream_t)ds), cudaSuccess);
    int arg1 = 7, arg2 = 9;
    CHECK_EQ(cuLaunchHostFunc(ds, host_fn, &arg1), CUDA_SUCCESS);
    CHECK_EQ(cuStreamAddCallback(ds, stream_cb, &arg2, 0), CUDA_SUCCESS);
    CHECK_EQ(cuEventRecord(e2, ds), CUDA_SUCCESS);
    CHECK_EQ(cuStreamWaitEvent((CUstream)rs, e2, 0), CUDA_SUCCESS);
    CHECK_EQ(cuEventSynchronize(e2), CUDA_SUCCESS);
    CHECK_EQ(cuEventQuery(e2), CUDA_SUCCESS);
    float ms = -1;
    CHECK_EQ(cuEventElapsedTime(&ms, e1, e2), CUDA_SUCCESS);
    CHECK(ms >= 0);
    CHECK_EQ(host_fn_ran, 7);
    CHECK_EQ(callback_ran, 9);
    CHECK_EQ(callback_status, CUDA_SUCCESS);
    CHECK_EQ(cudaStreamSynchronize((cudaStream_t)ds), cudaSuccess);
    CUevent nt;
    CHECK_EQ(cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
    CHECK_EQ(cuEventRecord(nt, ds), CUDA_SUCCESS);
    CHECK_EQ(cuEventSynchronize(nt), CUDA_SUCCESS);
    CHECK_EQ(cuEventElapsedTime(&ms, e1, nt), CUDA_ERROR_INVALID_HANDLE);

    /* Legacy and per-thread handles. */
    CHECK_EQ(cuStreamSynchronize(CU_STREAM_LEGACY), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(CU_STREAM_PER_THREAD), CUDA_SUCCESS);
    CHECK_EQ(cuStreamSynchronize(NULL), CUDA_SUCCESS);
    unsigned long long id1 = 0, id2 = 0;
    CHECK_EQ(cuStreamGetId(ds, &id1), CUDA_SUCCESS);
    CHECK_EQ(cuStreamGetId((CUstream)rs, &id2), CUDA_SUCCESS);
    CHECK(id1 != id2);

    /* Bad handles, then everything still works. */
    CHECK_EQ(cuEventCreate(&nt, 0x80), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuStreamCreate(&ds, 0x80), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuStreamAddCallback((CUstream)rs, stream_cb, &arg2, 1), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuEventDestroy(e1), CUDA_SUCCESS);
    CHECK_EQ(cuEventDestroy(e2), CUDA_SUCCESS);
    CHECK_EQ(cuStreamDestroy(ds), CUDA_SUCCESS);
    CHECK_EQ(cudaStreamDestroy(rs), cudaSuccess);
    CHECK_EQ(cudaEventDestroy(ev), cudaSuccess);
    CHECK_EQ(cuMemFree(dbuf), CUDA_SUCCESS);
    CHECK_EQ(cudaFree(rbuf), cudaSuccess);
    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    CHECK_EQ(cudaDeviceSynchronize(), cudaSuccess);
    return CHECK_DONE();
}
