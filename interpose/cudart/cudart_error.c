/*
 * cudart_error.c - cudaGetLastError / cudaPeekAtLastError, cudaGetErrorName /
 * cudaGetErrorString with CUDA 13's exact strings (error_strings.def, generated from the real
 * libcudart.so.13 by scripts/gen_error_strings.sh), and the version queries.
 *
 * Last error = the calling thread's last failed runtime call, else a non-sticky asynchronous
 * error of the current device (consumed by cudaGetLastError), else the device's sticky error
 * (never cleared here, only by cudaDeviceReset).
 */
#include "interpose/common/shim.h"

static const struct { int code; const char *name, *str; } error_strings[] = {
#define CUDA_ERROR_STRING(code, name, str) { code, name, str },
#define CUDA_ERROR_UNKNOWN_CODE(name, str)
#include "interpose/cudart/error_strings.def"
#undef CUDA_ERROR_STRING
#undef CUDA_ERROR_UNKNOWN_CODE
};
static const struct { const char *name, *str; } unknown_error_string = {
#define CUDA_ERROR_STRING(code, name, str)
#define CUDA_ERROR_UNKNOWN_CODE(name, str) name, str
#include "interpose/cudart/error_strings.def"
#undef CUDA_ERROR_STRING
#undef CUDA_ERROR_UNKNOWN_CODE
};

/* The table is sorted by code (driver_types.h order): binary search. */
static int error_index(int code)
{
    int lo = 0, hi = (int)(sizeof error_strings / sizeof error_strings[0]) - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (error_strings[mid].code == code)
            return mid;
        if (error_strings[mid].code < code)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

NPU_EXPORT const char *cudaGetErrorName(cudaError_t error)
{
    NPU_API_SCOPE(__func__);
    int i = error_index((int)error);
    return i < 0 ? unknown_error_string.name : error_strings[i].name;
}

NPU_EXPORT const char *cudaGetErrorString(cudaError_t error)
{
    NPU_API_SCOPE(__func__);
    int i = error_index((int)error);
    return i < 0 ? unknown_error_string.str : error_strings[i].str;
}

static cudaError_t last_error(int clear)
{
    cudaError_t e = shim_get_last_error(clear);
    if (e != cudaSuccess)
        return e;
    if (npu_init() != NPU_OK)
        return cudaSuccess;
    npu_status_t st = npu_device_peek_async_error(npu_device_current(), clear);
    return st == NPU_OK ? cudaSuccess : shim_cuda_error(st);
}

NPU_EXPORT cudaError_t cudaGetLastError(void)
{
    NPU_API_SCOPE(__func__);
    return last_error(1);
}

NPU_EXPORT cudaError_t cudaPeekAtLastError(void)
{
    NPU_API_SCOPE(__func__);
    return last_error(0);
}

/* The emulated driver and this runtime both implement the CUDA 13.0 API. */
#define SHIM_CUDA_VERSION 13000

NPU_EXPORT cudaError_t cudaDriverGetVersion(int *driverVersion)
{
    NPU_API_SCOPE(__func__);
    if (!driverVersion)
        return shim_fail(cudaErrorInvalidValue);
    *driverVersion = SHIM_CUDA_VERSION;
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaRuntimeGetVersion(int *runtimeVersion)
{
    NPU_API_SCOPE(__func__);
    if (!runtimeVersion)
        return shim_fail(cudaErrorInvalidValue);
    *runtimeVersion = SHIM_CUDA_VERSION;
    return cudaSuccess;
}
