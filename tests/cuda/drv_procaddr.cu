// NVCC_FLAGS: -lcuda
// ENV: LD_LIBRARY_PATH=build/lib
/*
 * drv_procaddr.cu - cuGetProcAddress: base names resolve to working entry points (legacy and
 * per-thread flavours); names CUDA 13's libcuda has but we do not implement (graphs, IPC,
 * graphics interop, the 32-bit cuMemAlloc ABI) resolve to a stub that returns
 * CUDA_ERROR_NOT_SUPPORTED, as the shared-cudart path's stubs do; unknown names and too-old
 * versions get CUDA_ERROR_NOT_FOUND with the right symbolStatus, bad arguments get
 * CUDA_ERROR_INVALID_VALUE, and cuGetExportTable does not crash.
 */
#include <cuda.h>
#include <cudaProfiler.h>
#include <string.h>
#include "check.h"

typedef CUresult (*alloc_fn)(CUdeviceptr *, size_t);
typedef CUresult (*free_fn)(CUdeviceptr);
typedef CUresult (*htod_fn)(CUdeviceptr, const void *, size_t);
typedef CUresult (*dtoh_fn)(void *, CUdeviceptr, size_t);
typedef CUresult (*sync_fn)(CUstream);

int main()
{
    void *fn = NULL;
    CUdriverProcAddressQueryResult qs = (CUdriverProcAddressQueryResult)-1;
    /* cuInit itself is found before initialisation. */
    CHECK_EQ(cuGetProcAddress("cuInit", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    CHECK(fn != NULL);
    CHECK_EQ(qs, CU_GET_PROC_ADDRESS_SUCCESS);
    CHECK_EQ(((CUresult (*)(unsigned))fn)(0), CUDA_SUCCESS);

    CUcontext ctx;
    CHECK_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_SUCCESS);
    CHECK_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);

    alloc_fn my_alloc = NULL;
    CHECK_EQ(cuGetProcAddress("cuMemAlloc", (void **)&my_alloc, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs),
             CUDA_SUCCESS);
    free_fn my_free = NULL;
    CHECK_EQ(cuGetProcAddress("cuMemFree", (void **)&my_free, 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &qs),
             CUDA_SUCCESS);
    htod_fn my_htod = NULL;
    CHECK_EQ(cuGetProcAddress("cuMemcpyHtoD", (void **)&my_htod, 13000,
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &qs), CUDA_SUCCESS);
    dtoh_fn my_dtoh = NULL;
    CHECK_EQ(cuGetProcAddress("cuMemcpyDtoH", (void **)&my_dtoh, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs),
             CUDA_SUCCESS);
    sync_fn my_sync = NULL;
    CHECK_EQ(cuGetProcAddress("cuStreamSynchronize", (void **)&my_sync, 13000,
                              CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &qs), CUDA_SUCCESS);
    if (my_alloc && my_free && my_htod && my_dtoh && my_sync) {
        CUdeviceptr d = 0;
        CHECK_EQ(my_alloc(&d, 64), CUDA_SUCCESS);
        int in[16], out[16];
        for (int i = 0; i < 16; i++) in[i] = 100 - i;
        CHECK_EQ(my_htod(d, in, sizeof in), CUDA_SUCCESS);
        CHECK_EQ(my_sync(NULL), CUDA_SUCCESS);
        CHECK_EQ(my_dtoh(out, d, sizeof out), CUDA_SUCCESS);
        CHECK(memcmp(in, out, sizeof in) == 0);
        CHECK_EQ(my_free(d), CUDA_SUCCESS);
    }

    /* Names the driver API implements resolve, whatever the flavour. */
    const char *names[] = { "cuDeviceGet", "cuDeviceGetAttribute", "cuCtxCreate", "cuCtxPushCurrent",
                            "cuModuleLoadData", "cuModuleGetFunction", "cuLaunchKernel", "cuLaunchKernelEx",
                            "cuStreamCreate", "cuEventRecord", "cuMemsetD32Async", "cuMemcpy2D",
                            "cuGetErrorString", "cuLinkCreate", "cuLibraryLoadData", "cuKernelGetFunction",
                            "cuPointerGetAttribute", "cuMemAllocAsync", "cuGetProcAddress", "cuDevicePrimaryCtxRetain",
                            "cuMemPrefetchAsync", "cuMemAdvise", "cuStreamAddCallback", "cuOccupancyMaxPotentialBlockSize" };
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        for (int flag = 0; flag < 3; flag++) {
            fn = NULL;
            CUresult r = cuGetProcAddress(names[i], &fn, 13000, (cuuint64_t)flag, &qs);
            CHECK_MSG(r == CUDA_SUCCESS && fn && qs == CU_GET_PROC_ADDRESS_SUCCESS,
                      "%s flag %d: %d", names[i], flag, (int)r);
        }

    /* Names CUDA has and we do not implement: a stub that fails as not supported (cuda-python
     * raised FunctionNotFoundError for these when they were "not found"). */
    typedef CUresult (*ipc_fn)(CUipcMemHandle *, CUdeviceptr);
    typedef CUresult (*capture_fn)(CUstream, CUstreamCaptureMode);
    typedef CUresult (*void_fn)(void);
    typedef CUresult (*alloc32_fn)(unsigned *, unsigned);
    fn = NULL;
    CHECK_EQ(cuGetProcAddress("cuIpcGetMemHandle", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    CHECK(fn != NULL && qs == CU_GET_PROC_ADDRESS_SUCCESS);
    if (fn) {
        CUipcMemHandle h;
        CHECK_EQ(((ipc_fn)fn)(&h, 0), CUDA_ERROR_NOT_SUPPORTED);
    }
    for (int ver = 10000; ver <= 13000; ver += 3000) {     /* cuStreamBeginCapture, then _v2 */
        fn = NULL;
        CHECK_EQ(cuGetProcAddress("cuStreamBeginCapture", &fn, ver, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
        CHECK(fn != NULL && qs == CU_GET_PROC_ADDRESS_SUCCESS);
        if (fn)
            CHECK_EQ(((capture_fn)fn)(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_NOT_SUPPORTED);
    }
    const char *stubbed[] = { "cuGraphCreate", "cuGraphLaunch", "cuGLInit", "cuGraphicsGLRegisterBuffer",
                              "cuVDPAUGetDevice", "cuEGLStreamConsumerConnect", "cuProfilerInitialize",
                              "cuTexObjectCreate", "cuMemCreate", "cuArrayCreate" };
    for (unsigned i = 0; i < sizeof stubbed / sizeof stubbed[0]; i++)
        for (int flag = 0; flag < 3; flag++) {
            fn = NULL;
            CUresult r = cuGetProcAddress(stubbed[i], &fn, 13000, (cuuint64_t)flag, &qs);
            CHECK_MSG(r == CUDA_SUCCESS && fn && qs == CU_GET_PROC_ADDRESS_SUCCESS,
                      "%s flag %d: %d", stubbed[i], flag, (int)r);
        }
    fn = NULL;
    CHECK_EQ(cuGetProcAddress("cuGLInit", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    if (fn)
        CHECK_EQ(((void_fn)fn)(), CUDA_ERROR_NOT_SUPPORTED);
    /* the 32-bit ABI of CUDA 2.0 is not implemented: its stub, not the 64-bit entry point */
    fn = NULL;
    CHECK_EQ(cuGetProcAddress("cuMemAlloc", &fn, 3000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    CHECK(fn != NULL && fn != (void *)my_alloc);
    if (fn) {
        unsigned p32 = 0;
        CHECK_EQ(((alloc32_fn)fn)(&p32, 64), CUDA_ERROR_NOT_SUPPORTED);
    }
    /* the profiler entry points are implemented (no profiler attached is not an error) */
    fn = NULL;
    CHECK_EQ(cuGetProcAddress("cuProfilerStart", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    CHECK(fn == (void *)&cuProfilerStart);
    if (fn)
        CHECK_EQ(((void_fn)fn)(), CUDA_SUCCESS);
    fn = NULL;
    CHECK_EQ(cuGetProcAddress("cuProfilerStop", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_SUCCESS);
    if (fn)
        CHECK_EQ(((void_fn)fn)(), CUDA_SUCCESS);

    /* Unknown names and versions older than the function. */
    fn = (void *)1;
    CHECK_EQ(cuGetProcAddress("cuNotAFunction", &fn, 13000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_ERROR_NOT_FOUND);
    CHECK(fn == NULL);
    CHECK_EQ(qs, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    CHECK_EQ(cuGetProcAddress("cuLibraryLoadData", &fn, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &qs), CUDA_ERROR_NOT_FOUND);
    CHECK_EQ(qs, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    CHECK_EQ(cuGetProcAddress(NULL, &fn, 13000, 0, &qs), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuGetProcAddress("cuInit", NULL, 13000, 0, &qs), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(cuGetProcAddress("cuInit", &fn, 13000, 0x40, &qs), CUDA_ERROR_INVALID_VALUE);

    /* cuGetExportTable: an unknown table id is refused without crashing. */
    const void *table = (const void *)1;
    CUuuid id;
    memset(&id, 0x5a, sizeof id);
    CHECK(cuGetExportTable(&table, &id) != CUDA_SUCCESS);

    CHECK_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
    return CHECK_DONE();
}
