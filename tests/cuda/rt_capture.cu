/*
 * rt_capture.cu - runtime API calls that tools and frameworks make around the work itself
 * (shared cudart):
 *  - stream capture queries answer "not capturing" on every kind of stream handle, in every
 *    ABI version (cudaStreamGetCaptureInfo: 7 arguments in CUDA 13; _v2, 6, and _v3, 7, in
 *    CUDA 12's libcudart.so.12), clear the capture-only outputs, and reject a NULL status,
 *    edge data without dependencies, and a destroyed stream with CUDA's errors;
 *  - cudaThreadExchangeStreamCaptureMode swaps a per-thread mode (starting at global);
 *  - cudaProfilerStart/Stop succeed (no profiler attached is not an error);
 *  - cudaGetDriverEntryPoint[ByVersion] resolve like cuGetProcAddress: implemented functions
 *    work, unimplemented ones are their not-supported stubs;
 *  - a call that fails as unsupported (a generated stub) leaves cudaErrorNotSupported for
 *    cudaGetLastError / cudaPeekAtLastError, as every failing runtime call does.
 */
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <string.h>
#include "check.h"

/* CUDA 12's exported ABIs, which CUDA 13's headers no longer declare: taken from
 * libcudart.so.12 (the drop-in, first on LD_LIBRARY_PATH), as a CUDA 12 program binds them. */
typedef cudaError_t (*info_v2_fn)(cudaStream_t, cudaStreamCaptureStatus *, unsigned long long *,
                                  cudaGraph_t *, const cudaGraphNode_t **, size_t *);
typedef cudaError_t (*info_v3_fn)(cudaStream_t, cudaStreamCaptureStatus *, unsigned long long *,
                                  cudaGraph_t *, const cudaGraphNode_t **,
                                  const cudaGraphEdgeData **, size_t *);
static info_v2_fn cudaStreamGetCaptureInfo_v2;
static info_v3_fn cudaStreamGetCaptureInfo_v3;

typedef CUresult (*mem_alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*mem_free_fn)(CUdeviceptr);
typedef CUresult (*begin_capture_fn)(CUstream, CUstreamCaptureMode);

static void *mode_thread(void *arg)
{
    /* another thread starts at the global mode, whatever this one set */
    cudaStreamCaptureMode m = cudaStreamCaptureModeThreadLocal;
    *(int *)arg = cudaThreadExchangeStreamCaptureMode(&m) == cudaSuccess &&
                  m == cudaStreamCaptureModeGlobal;
    return NULL;
}

int main(void)
{
    void *rt12 = dlopen("libcudart.so.12", RTLD_NOW | RTLD_LOCAL);
    CHECK(rt12 != NULL);
    if (!rt12)
        return CHECK_DONE();
    cudaStreamGetCaptureInfo_v2 = (info_v2_fn)dlsym(rt12, "cudaStreamGetCaptureInfo_v2");
    cudaStreamGetCaptureInfo_v3 = (info_v3_fn)dlsym(rt12, "cudaStreamGetCaptureInfo_v3");
    CHECK(cudaStreamGetCaptureInfo_v2 && cudaStreamGetCaptureInfo_v3 &&
          dlsym(rt12, "cudaStreamGetCaptureInfo_v2_ptsz") && dlsym(rt12, "cudaStreamGetCaptureInfo_v3_ptsz"));
    if (!cudaStreamGetCaptureInfo_v2 || !cudaStreamGetCaptureInfo_v3)
        return CHECK_DONE();
    cudaStream_t s, nb;
    CHECK_EQ(cudaStreamCreate(&s), cudaSuccess);
    CHECK_EQ(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking), cudaSuccess);
    cudaStream_t streams[] = { 0, cudaStreamLegacy, cudaStreamPerThread, s, nb };
    for (unsigned i = 0; i < sizeof streams / sizeof streams[0]; i++) {
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
        CHECK_EQ(cudaStreamIsCapturing(streams[i], &st), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);

        st = cudaStreamCaptureStatusInvalidated;
        CHECK_EQ(cudaStreamGetCaptureInfo(streams[i], &st), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);

        cudaGraph_t g = (cudaGraph_t)1;
        const cudaGraphNode_t *deps = (const cudaGraphNode_t *)1;
        const cudaGraphEdgeData *edges = (const cudaGraphEdgeData *)1;
        size_t nd = 7;
        unsigned long long id = 0;
        st = cudaStreamCaptureStatusActive;
        CHECK_EQ(cudaStreamGetCaptureInfo_v2(streams[i], &st, &id, &g, &deps, &nd), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);
        CHECK(g == NULL && deps == NULL && nd == 0);

        g = (cudaGraph_t)1; deps = (const cudaGraphNode_t *)1; nd = 7;
        st = cudaStreamCaptureStatusActive;
        CHECK_EQ(cudaStreamGetCaptureInfo_v3(streams[i], &st, &id, &g, &deps, &edges, &nd), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);
        CHECK(g == NULL && deps == NULL && edges == NULL && nd == 0);
    }
    CHECK_EQ(cudaGetLastError(), cudaSuccess);

    /* bad input: CUDA's errors, each left for cudaGetLastError */
    CHECK_EQ(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetLastError(), cudaErrorInvalidValue);
    CHECK_EQ(cudaStreamGetCaptureInfo(s, NULL), cudaErrorInvalidValue);
    cudaGetLastError();
    {
        cudaStreamCaptureStatus st;
        const cudaGraphEdgeData *edges;
        CHECK_EQ(cudaStreamGetCaptureInfo_v3(s, &st, NULL, NULL, NULL, &edges, NULL), cudaErrorInvalidValue);
        cudaGetLastError();
    }
    CHECK_EQ(cudaStreamDestroy(nb), cudaSuccess);
    {
        cudaStreamCaptureStatus st;
        CHECK_EQ(cudaStreamIsCapturing(nb, &st), cudaErrorInvalidResourceHandle);
        CHECK_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
        CHECK_EQ(cudaStreamGetCaptureInfo(nb, &st), cudaErrorInvalidResourceHandle);
        cudaGetLastError();
    }

    /* capture interaction mode: per thread, exchanged */
    cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
    CHECK_EQ(cudaThreadExchangeStreamCaptureMode(&m), cudaSuccess);
    CHECK_EQ(m, cudaStreamCaptureModeGlobal);
    int other_ok = 0;
    pthread_t t;
    pthread_create(&t, NULL, mode_thread, &other_ok);
    pthread_join(t, NULL);
    CHECK(other_ok);
    m = cudaStreamCaptureModeGlobal;
    CHECK_EQ(cudaThreadExchangeStreamCaptureMode(&m), cudaSuccess);
    CHECK_EQ(m, cudaStreamCaptureModeRelaxed);
    m = (cudaStreamCaptureMode)7;
    CHECK_EQ(cudaThreadExchangeStreamCaptureMode(&m), cudaErrorInvalidValue);
    CHECK_EQ(cudaThreadExchangeStreamCaptureMode(NULL), cudaErrorInvalidValue);
    cudaGetLastError();

    /* profiler control */
    CHECK_EQ(cudaProfilerStart(), cudaSuccess);
    CHECK_EQ(cudaProfilerStart(), cudaSuccess);
    CHECK_EQ(cudaProfilerStop(), cudaSuccess);
    CHECK_EQ(cudaProfilerStop(), cudaSuccess);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);

    /* driver entry points: an implemented pair works end to end */
    void *fa = NULL, *ff = NULL;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fa, 12000, cudaEnableDefault, &q), cudaSuccess);
    CHECK_EQ(q, cudaDriverEntryPointSuccess);
    CHECK_EQ(cudaGetDriverEntryPoint("cuMemFree", &ff, cudaEnableLegacyStream, &q), cudaSuccess);
    CHECK_EQ(q, cudaDriverEntryPointSuccess);
    if (fa && ff) {
        CUdeviceptr p = 0;
        CHECK_EQ(((mem_alloc_fn)fa)(&p, 4096), CUDA_SUCCESS);
        CHECK(p != 0);
        CHECK_EQ(cudaMemset((void *)p, 0x5a, 4096), cudaSuccess);
        unsigned char h[4096];
        CHECK_EQ(cudaMemcpy(h, (void *)p, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
        int bad = 0;
        for (int i = 0; i < 4096; i++)
            bad += h[i] != 0x5a;
        CHECK_EQ(bad, 0);
        CHECK_EQ(((mem_free_fn)ff)(p), CUDA_SUCCESS);
    }
    /* the per-thread flavour of a stream function, and an unimplemented one: its stub */
    void *fn = NULL;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuStreamSynchronize", &fn, 13000, cudaEnablePerThreadDefaultStream, &q),
             cudaSuccess);
    CHECK(fn != NULL && q == cudaDriverEntryPointSuccess);
    fn = NULL;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuStreamBeginCapture", &fn, 13000, cudaEnableDefault, &q), cudaSuccess);
    CHECK(fn != NULL && q == cudaDriverEntryPointSuccess);
    if (fn)
        CHECK_EQ(((begin_capture_fn)fn)((CUstream)s, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_NOT_SUPPORTED);
    /* too old a version, an unknown name, bad arguments */
    fn = (void *)1;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuLibraryLoadData", &fn, 11000, cudaEnableDefault, &q),
             cudaErrorSymbolNotFound);
    CHECK(fn == NULL && q == cudaDriverEntryPointVersionNotSufficent);
    CHECK_EQ(cudaGetLastError(), cudaErrorSymbolNotFound);
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuNotAFunction", &fn, 13000, cudaEnableDefault, &q),
             cudaErrorSymbolNotFound);
    CHECK(fn == NULL && q == cudaDriverEntryPointSymbolNotFound);
    cudaGetLastError();
    CHECK_EQ(cudaGetDriverEntryPointByVersion(NULL, &fn, 13000, 0, &q), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuInit", NULL, 13000, 0, &q), cudaErrorInvalidValue);
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuInit", &fn, 13000, 0x10, &q), cudaErrorInvalidValue);
    cudaGetLastError();

    /* an unsupported runtime call (a generated stub) leaves its error like any failing call */
    cudaGraph_t g;
    CHECK_EQ(cudaGraphCreate(&g, 0), cudaErrorNotSupported);
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorNotSupported);
    CHECK_EQ(cudaPeekAtLastError(), cudaErrorNotSupported);
    CHECK_EQ(cudaGetLastError(), cudaErrorNotSupported);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    CHECK_EQ(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal), cudaErrorNotSupported);
    CHECK_EQ(cudaGetLastError(), cudaErrorNotSupported);

    CHECK_EQ(cudaStreamDestroy(s), cudaSuccess);
    return CHECK_DONE();
}
