/*
 * shim.c - helpers shared by every interposed API: the status mapping (status.def), the
 * per-thread last runtime error, once-per-name "not supported" logging, cudaStream_t
 * translation.
 *
 * Sticky errors: shim_return(NPU_OK) reports the current device's sticky error
 * (npu_device_error) instead of success, so once a kernel has faulted every later runtime
 * call returns that error until cudaDeviceReset, as CUDA documents for
 * cudaErrorIllegalAddress/LaunchFailure/Assert. cudaErrorNotReady is a result, not an error:
 * it is returned but never recorded as the thread's last error (cudaStreamQuery and
 * cudaEventQuery do not disturb cudaGetLastError on a GPU either).
 */
#include "interpose/common/shim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* ------------------------------------------------------------- status map ---- */
static const cudaError_t cuda_map[NPU_STATUS_COUNT] = {
#define ST(npu, cu, drv, blas) [npu] = cu,
#include "interpose/common/status.def"
#undef ST
};
static const CUresult cu_map[NPU_STATUS_COUNT] = {
#define ST(npu, cu, drv, blas) [npu] = drv,
#include "interpose/common/status.def"
#undef ST
};
static const cublasStatus_t blas_map[NPU_STATUS_COUNT] = {
#define ST(npu, cu, drv, blas) [npu] = blas,
#include "interpose/common/status.def"
#undef ST
};
/* A status row missing from status.def would map to 0 (success) silently: count the rows. */
enum {
#define ST(npu, cu, drv, blas) shim_row_##npu,
#include "interpose/common/status.def"
#undef ST
    SHIM_STATUS_ROWS
};
_Static_assert((int)SHIM_STATUS_ROWS == (int)NPU_STATUS_COUNT, "status.def needs one row per npu_status_t");

cudaError_t shim_cuda_error(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT ? cuda_map[s] : cudaErrorUnknown;
}

CUresult shim_cu_result(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT ? cu_map[s] : CUDA_ERROR_UNKNOWN;
}

cublasStatus_t shim_cublas_status(npu_status_t s)
{
    return (unsigned)s < NPU_STATUS_COUNT ? blas_map[s] : CUBLAS_STATUS_INTERNAL_ERROR;
}

/* ------------------------------------------------------------- last error ---- */
static __thread cudaError_t last_error;

void shim_set_last_error(cudaError_t e)
{
    if (e != cudaErrorNotReady) npu_obs_api_error((int)e);  /* observability (npu_obs.h) */
    if (e != cudaSuccess && e != cudaErrorNotReady)
        last_error = e;
}

/* The thread's recorded error first; otherwise the sticky error of the current device
 * (never cleared here: only cudaDeviceReset clears it). */
cudaError_t shim_get_last_error(int clear)
{
    cudaError_t e = last_error;
    if (clear)
        last_error = cudaSuccess;
    if (e == cudaSuccess) {
        npu_status_t st = npu_device_error(npu_device_current());
        if (st != NPU_OK)
            e = shim_cuda_error(st);
    }
    return e;
}

cudaError_t shim_return(npu_status_t s)
{
    if (s == NPU_OK) {
        npu_status_t sticky = npu_device_error(npu_device_current());
        if (sticky == NPU_OK)
            return cudaSuccess;
        s = sticky;
    }
    cudaError_t e = shim_cuda_error(s);
    shim_set_last_error(e);
    return e;
}

/* --------------------------------------------------------- unsupported log ---- */
typedef struct unsupported_name {
    UT_hash_handle hh;
    char name[];
} unsupported_name_t;

static pthread_mutex_t unsupported_lock = PTHREAD_MUTEX_INITIALIZER;
static unsupported_name_t *unsupported_seen; /* guarded by unsupported_lock */

void shim_unsupported_once(const char *api_name)
{
    if (!api_name)
        api_name = "(unnamed API)";
    npu_report_unsupported(api_name);  /* observability (npu_obs.h) */
    int first = 0;
    pthread_mutex_lock(&unsupported_lock);
    unsupported_name_t *e;
    HASH_FIND_STR(unsupported_seen, api_name, e);
    if (!e) {
        size_t n = strlen(api_name) + 1;
        e = malloc(sizeof *e + n);
        first = 1;
        if (e) {
            memcpy(e->name, api_name, n);
            HASH_ADD_STR(unsupported_seen, name, e);
        }
    }
    pthread_mutex_unlock(&unsupported_lock);
    if (first)
        NPU_WARN("%s is not supported by transfer_to_npu; returning not-supported", api_name);
}

int shim_unsupported_runtime(const char *api_name)
{
    shim_unsupported_once(api_name);
    return shim_fail(cudaErrorNotSupported);
}

static __thread int capture_mode;   /* cudaStreamCaptureModeGlobal */

int shim_capture_mode_exchange(int mode)
{
    int old = capture_mode;
    capture_mode = mode;
    return old;
}

/* ----------------------------------------------------------------- streams ---- */
npu_stream_t *shim_stream(cudaStream_t s, int per_thread_default)
{
    if (s == NULL)
        return per_thread_default ? npu_stream_per_thread(shim_device())
                                  : npu_stream_legacy(shim_device());
    if (s == cudaStreamLegacy)
        return npu_stream_legacy(shim_device());
    if (s == cudaStreamPerThread)
        return npu_stream_per_thread(shim_device());
    npu_stream_t *ns = (npu_stream_t *)s;
    return npu_stream_valid(ns) ? ns : NULL;
}
