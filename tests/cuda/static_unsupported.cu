// NVCC_FLAGS: -cudart static
/*
 * static_unsupported.cu - a program whose CUDA runtime is linked statically (nvcc's default)
 * reaches the driver only through cuGetProcAddress. A driver function we do not implement
 * must resolve to its not-supported stub, so that NVIDIA's cudart maps the driver's
 * CUDA_ERROR_NOT_SUPPORTED to cudaErrorNotSupported (801) and leaves it for
 * cudaGetLastError; it used to answer "not found" and cudart returned
 * cudaErrorCallRequiresNewerDriver (36). tests/obs/run_obs.sh runs this program with the
 * migration report on and checks that the report names cuGraphCreate (2 calls) and
 * cuIpcGetMemHandle (1 call).
 * Also through the static cudart: cudaProfilerStart/Stop succeed, cudaStreamIsCapturing and
 * cudaStreamGetCaptureInfo answer "not capturing" (and reject a destroyed stream),
 * cudaGetDriverEntryPointByVersion resolves like cuGetProcAddress (an unknown name: NVIDIA's
 * cudart passes our driver's CUDA_ERROR_NOT_FOUND on as cudaErrorSymbolNotFound, which the
 * shared path, rt_capture.cu, matches), and the program keeps working after all of it (a
 * kernel's results checked against the host).
 */
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <string.h>
#include "check.h"

__global__ void square(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * i;
}

typedef CUresult (*ipc_get_fn)(CUipcMemHandle *, CUdeviceptr);

int main(void)
{
    int *d;
    CHECK_EQ(cudaMalloc(&d, 256 * sizeof(int)), cudaSuccess);

    /* An unimplemented driver function behind a runtime call: 801, left for cudaGetLastError. */
    cudaGraph_t g = (cudaGraph_t)0;
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(cudaGraphCreate(&g, 0), cudaErrorNotSupported);
        CHECK_EQ(cudaPeekAtLastError(), cudaErrorNotSupported);
        CHECK_EQ(cudaGetLastError(), cudaErrorNotSupported);
        CHECK_EQ(cudaGetLastError(), cudaSuccess);
    }

    /* Profiler control: no profiler attached is not an error. */
    CHECK_EQ(cudaProfilerStart(), cudaSuccess);
    CHECK_EQ(cudaProfilerStart(), cudaSuccess);
    CHECK_EQ(cudaProfilerStop(), cudaSuccess);
    CHECK_EQ(cudaProfilerStop(), cudaSuccess);

    /* Capture queries on the legacy, per-thread and a created stream: never capturing. */
    cudaStream_t s;
    CHECK_EQ(cudaStreamCreate(&s), cudaSuccess);
    cudaStream_t streams[] = { 0, cudaStreamLegacy, cudaStreamPerThread, s };
    for (unsigned i = 0; i < sizeof streams / sizeof streams[0]; i++) {
        enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusActive;
        CHECK_EQ(cudaStreamIsCapturing(streams[i], &st), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);
        st = cudaStreamCaptureStatusActive;
        unsigned long long id = 0;
        CHECK_EQ(cudaStreamGetCaptureInfo(streams[i], &st, &id), cudaSuccess);
        CHECK_EQ(st, cudaStreamCaptureStatusNone);
    }
    CHECK_EQ(cudaStreamIsCapturing(s, NULL), cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK_EQ(cudaStreamDestroy(s), cudaSuccess);

    /* Driver entry points through the runtime: an implemented one works, an unimplemented one
     * is its stub, an unknown name is not found. */
    void *fn = (void *)1;
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuIpcGetMemHandle", &fn, 13000, cudaEnableDefault, &q),
             cudaSuccess);
    CHECK_EQ(q, cudaDriverEntryPointSuccess);
    CHECK(fn != NULL);
    if (fn) {
        CUipcMemHandle h;
        CHECK_EQ(((ipc_get_fn)fn)(&h, (CUdeviceptr)d), CUDA_ERROR_NOT_SUPPORTED);
    }
    fn = (void *)1;
    CHECK_EQ(cudaGetDriverEntryPointByVersion("cuNotAFunction", &fn, 13000, cudaEnableDefault, &q),
             cudaErrorSymbolNotFound);
    CHECK(fn == NULL);
    CHECK_EQ(q, cudaDriverEntryPointSymbolNotFound);
    cudaError_t last = cudaGetLastError();
    CHECK_EQ(last, cudaErrorSymbolNotFound);
    last = cudaGetLastError();
    CHECK_EQ(last, cudaSuccess);

    /* Still usable. */
    square<<<2, 128>>>(d, 256);
    CHECK_EQ(cudaGetLastError(), cudaSuccess);
    int h[256];
    CHECK_EQ(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < 256; i++)
        bad += h[i] != i * i;
    CHECK_EQ(bad, 0);
    CHECK_EQ(cudaFree(d), cudaSuccess);
    return CHECK_DONE();
}
