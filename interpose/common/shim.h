/*
 * shim.h - helpers shared by every interposed API (cudart, driver, cuBLAS).
 * A shim is thin: check, translate, call the runtime, map the status (status.def).
 * Thread-safety: all helpers are thread-safe; the last-error slot is per host thread.
 */
#ifndef SHIM_H
#define SHIM_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_api.h>
#include "npu_runtime/npu.h"
#include "npu_runtime/npu_obs.h"  /* observability (npu_obs.h) */

#define NPU_EXPORT __attribute__((visibility("default")))

/* status mapping (status.def) */
cudaError_t shim_cuda_error(npu_status_t s);
CUresult shim_cu_result(npu_status_t s);
cublasStatus_t shim_cublas_status(npu_status_t s);

/* Per-thread last runtime error (cudaGetLastError / cudaPeekAtLastError). */
void shim_set_last_error(cudaError_t e);
cudaError_t shim_get_last_error(int clear);

/* Maps a status to cudaError_t, records a failure as the thread's last error, returns it. */
cudaError_t shim_return(npu_status_t s);
static inline cudaError_t shim_fail(cudaError_t e) { shim_set_last_error(e); return e; }

/* Starts the runtime (cheap after the first call); on failure returns its cudaError_t. */
#define SHIM_ENTER() do { npu_status_t _st = npu_init(); \
        if (_st != NPU_OK) return shim_return(_st); } while (0)
#define SHIM_RETURN_IF(cond, st) do { if (cond) return shim_return(st); } while (0)

/* Logs "NAME is not supported by transfer_to_npu" once per name (thread-safe) and counts the
 * call in the migration report. */
void shim_unsupported_once(const char *api_name);
/* A runtime (cudart) entry point we do not implement: shim_unsupported_once, then
 * cudaErrorNotSupported, recorded as the thread's last error as for any failing runtime call
 * (the generated stubs of scripts/gen_stubs.py call this). */
int shim_unsupported_runtime(const char *api_name);

/* Swaps this thread's stream-capture interaction mode (cudaStreamCaptureMode ==
 * CUstreamCaptureMode values, shared by cudaThreadExchangeStreamCaptureMode and
 * cuThreadExchangeStreamCaptureMode) and returns the previous one (initially global, 0). */
int shim_capture_mode_exchange(int mode);

/* Current device of this host thread (after SHIM_ENTER). */
static inline int shim_device(void) { return npu_device_current(); }

/* cudaStream_t -> runtime stream: 0 and cudaStreamLegacy (0x1) are the legacy stream of the
 * current device, cudaStreamPerThread (0x2) this thread's default stream; under
 * --default-stream per-thread (ptsz entry points) 0 means the per-thread stream.
 * NULL result: an invalid or destroyed handle. */
npu_stream_t *shim_stream(cudaStream_t s, int per_thread_default);

#endif
