/*
 * cudart_tools.c - runtime calls that serve tools rather than computation: profiler control
 * (cudaProfilerStart/Stop) and driver entry points (cudaGetDriverEntryPoint[ByVersion]).
 *
 * Profiler: no profiler is attached, which is not an error on a GPU either (cudaSuccess);
 * the calls mark the program's profiling ranges in the trace (npu_obs_profiler, trace.c).
 *
 * Driver entry points resolve exactly as cuGetProcAddress_v2 does (driver_proc.c: the newest
 * ABI not newer than the version; a function we do not implement gives its not-supported
 * stub), so a program gets the same function through the runtime as through the driver.
 * A name that does not resolve gives *funcPtr NULL, the reason in driverStatus, and
 * cudaErrorSymbolNotFound, recorded as the last error. The reference says cudaSuccess there,
 * but NVIDIA's cudart passes the driver's answer through, and ours is CUDA_ERROR_NOT_FOUND
 * (driver_proc.c, tests/cuda/drv_procaddr.cu): a statically linked cudart, running on our
 * driver, returns cudaErrorSymbolNotFound (tests/cuda/static_unsupported.cu), and the shared
 * path must not answer differently. cudaEnableDefault means the per-thread flavour in the
 * _ptsz entry points (code built with --default-stream per-thread), the legacy one
 * otherwise. cudaGetDriverEntryPoint asks for the ABI of this runtime (CUDART_VERSION of the
 * headers we are built with, 13.0), also when reached through the libcudart.so.12 drop-in,
 * which cannot tell its caller's version.
 */
#include "interpose/common/shim.h"

#include <cuda_profiler_api.h>

NPU_EXPORT cudaError_t cudaProfilerStart(void)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_obs_profiler(1);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaProfilerStop(void)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_obs_profiler(0);
    return shim_return(NPU_OK);
}

static cudaError_t entry_point(const char *symbol, void **funcPtr, unsigned int cudaVersion,
                               unsigned long long flags, enum cudaDriverEntryPointQueryResult *st,
                               int ptsz)
{
    SHIM_ENTER();
    if (funcPtr)
        *funcPtr = NULL;
    if (!symbol || !funcPtr || (flags & ~(unsigned long long)(cudaEnableLegacyStream |
                                                               cudaEnablePerThreadDefaultStream)))
        return shim_fail(cudaErrorInvalidValue);
    cuuint64_t f = (flags & cudaEnablePerThreadDefaultStream) ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                   : (flags & cudaEnableLegacyStream) ? CU_GET_PROC_ADDRESS_LEGACY_STREAM
                   : ptsz ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
                          : CU_GET_PROC_ADDRESS_LEGACY_STREAM;
    CUdriverProcAddressQueryResult qs = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = cuGetProcAddress_v2(symbol, funcPtr, (int)cudaVersion, f, &qs);
    if (st)
        *st = qs == CU_GET_PROC_ADDRESS_SUCCESS ? cudaDriverEntryPointSuccess
              : qs == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT ? cudaDriverEntryPointVersionNotSufficent
              : cudaDriverEntryPointSymbolNotFound;
    if (r == CUDA_ERROR_NOT_FOUND)
        return shim_fail(cudaErrorSymbolNotFound);
    if (r != CUDA_SUCCESS)
        return shim_fail(cudaErrorInvalidValue);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                        unsigned int cudaVersion,
                                                        unsigned long long flags,
                                                        enum cudaDriverEntryPointQueryResult *driverStatus)
{
    NPU_API_SCOPE(__func__);
    return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, 0);
}

NPU_EXPORT cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                             unsigned int cudaVersion,
                                                             unsigned long long flags,
                                                             enum cudaDriverEntryPointQueryResult *driverStatus)
{
    NPU_API_SCOPE(__func__);
    return entry_point(symbol, funcPtr, cudaVersion, flags, driverStatus, 1);
}

NPU_EXPORT cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                               unsigned long long flags,
                                               enum cudaDriverEntryPointQueryResult *driverStatus)
{
    NPU_API_SCOPE(__func__);
    return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus, 0);
}

NPU_EXPORT cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                    unsigned long long flags,
                                                    enum cudaDriverEntryPointQueryResult *driverStatus)
{
    NPU_API_SCOPE(__func__);
    return entry_point(symbol, funcPtr, CUDART_VERSION, flags, driverStatus, 1);
}
