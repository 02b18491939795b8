/*
 * driver_stream.c - CUDA driver API streams, events and host callbacks.
 *
 * A CUstream is the runtime's npu_stream_t (the same handle a cudaStream_t is); 0,
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD map as in the runtime API (shim_stream), and the
 * _ptsz entry points read 0 as the per-thread stream. A CUevent is the npu_event_t. Both
 * handles are checked with the runtime's live-handle tests before use, so a destroyed or
 * garbage handle gives CUDA_ERROR_INVALID_HANDLE, never a crash.
 *
 * cuStreamAddCallback: the callback must run even when earlier work faulted (with that
 * error as its status), so it is a stream work item whose cleanup calls it when the work
 * itself was skipped; the work item and the cleanup both run on the stream's worker, in
 * stream order (npu.h), which is the ordering CUDA documents.
 */
#include "interpose/driver/driver_internal.h"

#include <stdlib.h>

#define PAIR(plain, pt, proto, impl, ...)                                              \
    NPU_EXPORT CUresult plain proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 0); }                  \
    NPU_EXPORT CUresult pt proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 1); }

static CUresult get_stream(CUstream h, int pt, npu_stream_t **out)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    npu_stream_t *s = drv_stream(h, pt);
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    *out = s;
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ streams ---- */
static CUresult stream_create(CUstream *phStream, unsigned int flags, int priority)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!phStream || (flags & ~(unsigned)CU_STREAM_NON_BLOCKING))
        return CUDA_ERROR_INVALID_VALUE;
    /* Priorities outside [greatest, least] = [-5, 0] are clamped, as CUDA documents. */
    if (priority < -5)
        priority = -5;
    if (priority > 0)
        priority = 0;
    npu_stream_t *s = NULL;
    npu_status_t st = npu_stream_create(c->device, flags, priority, &s);
    if (st != NPU_OK)
        return drv_map(st);
    drv_stream_ctx_set(s, c);
    *phStream = (CUstream)s;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    return stream_create(phStream, Flags, 0);
}

NPU_EXPORT CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags, int priority)
{
    NPU_API_SCOPE(__func__);
    return stream_create(phStream, flags, priority);
}

static CUresult stream_destroy(CUstream h)
{
    DRV_ENTER();
    npu_stream_t *s = (npu_stream_t *)h;
    if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD || !npu_stream_valid(s))
        return CUDA_ERROR_INVALID_HANDLE;
    npu_status_t st = npu_stream_destroy(s);
    if (st == NPU_OK)
        drv_stream_ctx_forget(s);
    return drv_map(st);
}

NPU_EXPORT CUresult cuStreamDestroy(CUstream hStream) { NPU_API_SCOPE(__func__); return stream_destroy(hStream); }
NPU_EXPORT CUresult cuStreamDestroy_v2(CUstream hStream) { NPU_API_SCOPE(__func__); return stream_destroy(hStream); }

static CUresult stream_sync(CUstream h, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    return drv_result(npu_stream_sync(s), npu_stream_device(s));
}

static CUresult stream_query(CUstream h, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    npu_status_t st = npu_stream_query(s);
    if (st == NPU_ENOTREADY)
        return CUDA_ERROR_NOT_READY;
    return drv_result(st, npu_stream_device(s));
}

static CUresult stream_wait_event(CUstream h, CUevent e, unsigned int flags, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!e || !npu_event_valid((npu_event_t *)e))
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & ~(unsigned)CU_EVENT_WAIT_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_stream_wait_event(s, (npu_event_t *)e));
}

static CUresult stream_get_flags(CUstream h, unsigned int *flags, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    *flags = npu_stream_flags(s);
    return CUDA_SUCCESS;
}

static CUresult stream_get_priority(CUstream h, int *priority, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!priority)
        return CUDA_ERROR_INVALID_VALUE;
    *priority = npu_stream_priority(s);
    return CUDA_SUCCESS;
}

static CUresult stream_get_ctx(CUstream h, CUcontext *pctx, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)drv_stream_ctx(s);
    return CUDA_SUCCESS;
}

static CUresult stream_get_ctx2(CUstream h, CUcontext *pctx, CUgreenCtx *pgreen, int pt)
{
    if (!pctx || !pgreen)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = stream_get_ctx(h, pctx, pt);
    if (r == CUDA_SUCCESS)
        *pgreen = NULL;      /* no green contexts exist here */
    return r;
}

static CUresult stream_get_id(CUstream h, unsigned long long *id, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!id)
        return CUDA_ERROR_INVALID_VALUE;
    *id = npu_stream_id(s);
    return CUDA_SUCCESS;
}

static CUresult stream_get_device(CUstream h, CUdevice *dev, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dev)
        return CUDA_ERROR_INVALID_VALUE;
    *dev = npu_stream_device(s);
    return CUDA_SUCCESS;
}

/* Stream capture never starts here (cuStreamBeginCapture is not supported), so every stream
 * reports that it is not capturing. */
static CUresult stream_is_capturing(CUstream h, CUstreamCaptureStatus *status, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    *status = CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
}

/* Capture is not emulated (cuStreamBeginCapture is a not-supported stub): every live stream
 * answers "none"; the outputs documented as valid only during a capture are cleared. */
static CUresult capture_info(CUstream h, CUstreamCaptureStatus *status, CUgraph *graph,
                             const CUgraphNode **deps, const CUgraphEdgeData **edge,
                             size_t *ndeps, int pt)
{
    CUresult r = stream_is_capturing(h, status, pt);
    if (r != CUDA_SUCCESS)
        return r;
    if (edge && !deps)
        return CUDA_ERROR_INVALID_VALUE;
    if (graph)
        *graph = NULL;
    if (deps)
        *deps = NULL;
    if (edge)
        *edge = NULL;
    if (ndeps)
        *ndeps = 0;
    return CUDA_SUCCESS;
}

static CUresult capture_info1(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id, int pt)
{
    return capture_info(h, status, NULL, NULL, NULL, NULL, pt);
}

static CUresult capture_info2(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id,
                              CUgraph *graph, const CUgraphNode **deps, size_t *ndeps, int pt)
{
    return capture_info(h, status, graph, deps, NULL, ndeps, pt);
}

static CUresult capture_info3(CUstream h, CUstreamCaptureStatus *status, cuuint64_t *id,
                              CUgraph *graph, const CUgraphNode **deps,
                              const CUgraphEdgeData **edge, size_t *ndeps, int pt)
{
    return capture_info(h, status, graph, deps, edge, ndeps, pt);
}

NPU_EXPORT CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!mode || (unsigned)*mode > (unsigned)CU_STREAM_CAPTURE_MODE_RELAXED)
        return CUDA_ERROR_INVALID_VALUE;
    *mode = (CUstreamCaptureMode)shim_capture_mode_exchange((int)*mode);
    return CUDA_SUCCESS;
}

typedef struct callback {
    CUstreamCallback fn;
    CUstream handle;
    void *user;
    int dev;
    int called;
} callback_t;

static npu_status_t run_callback(void *arg)
{
    callback_t *cb = arg;
    cb->called = 1;
    cb->fn(cb->handle, CUDA_SUCCESS, cb->user);
    return NPU_OK;
}

static void end_callback(void *arg)
{
    callback_t *cb = arg;
    if (!cb->called) {       /* skipped after a fault: report it */
        npu_status_t st = npu_device_error(cb->dev);
        cb->fn(cb->handle, st != NPU_OK ? drv_map(st) : CUDA_ERROR_LAUNCH_FAILED, cb->user);
    }
    free(cb);
}

static CUresult stream_add_callback(CUstream h, CUstreamCallback fn, void *user, unsigned int flags, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn || flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    callback_t *cb = malloc(sizeof *cb);
    if (!cb)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *cb = (callback_t){ fn, h, user, npu_stream_device(s), 0 };
    npu_status_t st = npu_stream_submit(s, run_callback, end_callback, cb);
    return drv_map(st);
}

static CUresult launch_host_func(CUstream h, CUhostFn fn, void *user, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!fn)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_result(npu_stream_host_fn(s, fn, user), npu_stream_device(s));
}

PAIR(cuStreamSynchronize, cuStreamSynchronize_ptsz, (CUstream hStream), stream_sync, hStream)
PAIR(cuStreamQuery, cuStreamQuery_ptsz, (CUstream hStream), stream_query, hStream)
PAIR(cuStreamWaitEvent, cuStreamWaitEvent_ptsz, (CUstream hStream, CUevent hEvent, unsigned int Flags),
     stream_wait_event, hStream, hEvent, Flags)
PAIR(cuStreamGetFlags, cuStreamGetFlags_ptsz, (CUstream hStream, unsigned int *flags),
     stream_get_flags, hStream, flags)
PAIR(cuStreamGetPriority, cuStreamGetPriority_ptsz, (CUstream hStream, int *priority),
     stream_get_priority, hStream, priority)
PAIR(cuStreamGetCtx, cuStreamGetCtx_ptsz, (CUstream hStream, CUcontext *pctx), stream_get_ctx, hStream, pctx)
PAIR(cuStreamGetCtx_v2, cuStreamGetCtx_v2_ptsz, (CUstream hStream, CUcontext *pCtx, CUgreenCtx *pGreenCtx),
     stream_get_ctx2, hStream, pCtx, pGreenCtx)
PAIR(cuStreamGetId, cuStreamGetId_ptsz, (CUstream hStream, unsigned long long *streamId),
     stream_get_id, hStream, streamId)
PAIR(cuStreamGetDevice, cuStreamGetDevice_ptsz, (CUstream hStream, CUdevice *device),
     stream_get_device, hStream, device)
PAIR(cuStreamIsCapturing, cuStreamIsCapturing_ptsz, (CUstream hStream, CUstreamCaptureStatus *captureStatus),
     stream_is_capturing, hStream, captureStatus)
PAIR(cuStreamGetCaptureInfo, cuStreamGetCaptureInfo_ptsz,
     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out),
     capture_info1, hStream, captureStatus_out, id_out)
PAIR(cuStreamGetCaptureInfo_v2, cuStreamGetCaptureInfo_v2_ptsz,
     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
      CUgraph *graph_out, const CUgraphNode **dependencies_out, size_t *numDependencies_out),
     capture_info2, hStream, captureStatus_out, id_out, graph_out, dependencies_out,
     numDependencies_out)
PAIR(cuStreamGetCaptureInfo_v3, cuStreamGetCaptureInfo_v3_ptsz,
     (CUstream hStream, CUstreamCaptureStatus *captureStatus_out, cuuint64_t *id_out,
      CUgraph *graph_out, const CUgraphNode **dependencies_out,
      const CUgraphEdgeData **edgeData_out, size_t *numDependencies_out),
     capture_info3, hStream, captureStatus_out, id_out, graph_out, dependencies_out,
     edgeData_out, numDependencies_out)
PAIR(cuStreamAddCallback, cuStreamAddCallback_ptsz,
     (CUstream hStream, CUstreamCallback callback, void *userData, unsigned int flags),
     stream_add_callback, hStream, callback, userData, flags)
PAIR(cuLaunchHostFunc, cuLaunchHostFunc_ptsz, (CUstream hStream, CUhostFn fn, void *userData),
     launch_host_func, hStream, fn, userData)

/* ------------------------------------------------------------------- events ---- */
NPU_EXPORT CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!phEvent)
        return CUDA_ERROR_INVALID_VALUE;
    if (Flags & ~(unsigned)(CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS))
        return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING))
        return CUDA_ERROR_INVALID_VALUE;
    npu_event_t *e = NULL;
    npu_status_t st = npu_event_create(Flags, &e);
    if (st == NPU_OK)
        *phEvent = (CUevent)e;
    return drv_map(st);
}

static CUresult event_destroy(CUevent e)
{
    DRV_ENTER();
    if (!e || !npu_event_valid((npu_event_t *)e))
        return CUDA_ERROR_INVALID_HANDLE;
    return drv_map(npu_event_destroy((npu_event_t *)e));
}

NPU_EXPORT CUresult cuEventDestroy(CUevent hEvent) { NPU_API_SCOPE(__func__); return event_destroy(hEvent); }
NPU_EXPORT CUresult cuEventDestroy_v2(CUevent hEvent) { NPU_API_SCOPE(__func__); return event_destroy(hEvent); }

static CUresult event_record(CUevent e, CUstream h, unsigned int flags, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!e || !npu_event_valid((npu_event_t *)e))
        return CUDA_ERROR_INVALID_HANDLE;
    if (flags & ~(unsigned)CU_EVENT_RECORD_EXTERNAL)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_event_record((npu_event_t *)e, s));
}

static CUresult event_record0(CUevent e, CUstream h, int pt) { return event_record(e, h, 0, pt); }
PAIR(cuEventRecord, cuEventRecord_ptsz, (CUevent hEvent, CUstream hStream), event_record0, hEvent, hStream)
PAIR(cuEventRecordWithFlags, cuEventRecordWithFlags_ptsz,
     (CUevent hEvent, CUstream hStream, unsigned int flags), event_record, hEvent, hStream, flags)

NPU_EXPORT CUresult cuEventQuery(CUevent hEvent)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!hEvent || !npu_event_valid((npu_event_t *)hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    return drv_map(npu_event_query((npu_event_t *)hEvent));
}

NPU_EXPORT CUresult cuEventSynchronize(CUevent hEvent)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!hEvent || !npu_event_valid((npu_event_t *)hEvent))
        return CUDA_ERROR_INVALID_HANDLE;
    return drv_map(npu_event_sync((npu_event_t *)hEvent));
}

static CUresult elapsed(float *ms, CUevent a, CUevent b)
{
    DRV_ENTER();
    if (!ms)
        return CUDA_ERROR_INVALID_VALUE;
    if (!a || !b || !npu_event_valid((npu_event_t *)a) || !npu_event_valid((npu_event_t *)b))
        return CUDA_ERROR_INVALID_HANDLE;
    return drv_map(npu_event_elapsed((npu_event_t *)a, (npu_event_t *)b, ms));
}

NPU_EXPORT CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    NPU_API_SCOPE(__func__);
    return elapsed(pMilliseconds, hStart, hEnd);
}

NPU_EXPORT CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd)
{
    NPU_API_SCOPE(__func__);
    return elapsed(pMilliseconds, hStart, hEnd);
}

/* Managed memory is coherent for every stream and the host here (one address space, kernels
 * run on host threads), so attaching it to a stream changes no visibility; the arguments are
 * still checked as CUDA checks them. */
static CUresult attach_mem(CUstream h, CUdeviceptr dptr, size_t length, unsigned int flags, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST && flags != CU_MEM_ATTACH_SINGLE)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup((void *)(uintptr_t)dptr, &in);
    if (in.kind != NPU_MEM_MANAGED)
        return CUDA_ERROR_INVALID_VALUE;
    if (length != 0 && ((void *)(uintptr_t)dptr != in.base || length != in.size))
        return CUDA_ERROR_INVALID_VALUE;   /* the whole allocation, or 0 for all of it */
    return CUDA_SUCCESS;
}

PAIR(cuStreamAttachMemAsync, cuStreamAttachMemAsync_ptsz,
     (CUstream hStream, CUdeviceptr dptr, size_t length, unsigned int flags),
     attach_mem, hStream, dptr, length, flags)
