/*
 * cudart_stream.c - streams, events, stream callbacks and host functions of the CUDA runtime
 * API, with the _ptsz variants (stream 0 = the calling thread's default stream).
 *
 * DESIGN: this file owns no thread and no lock. cudaStream_t / cudaEvent_t values are the
 * runtime's npu_stream_t / npu_event_t pointers, validated on every call with
 * npu_stream_valid / npu_event_valid (safe on garbage), so a destroyed or invented handle
 * gets cudaErrorInvalidResourceHandle instead of a crash. Ordering, the legacy-stream
 * barrier and completion signalling are the runtime's (npu.h, stream.c): work submitted
 * here runs in stream order on a runtime worker. A stream callback is one stream work item:
 * it runs in order with cudaSuccess; if the device was poisoned by an earlier fault the
 * runtime skips the item and its cleanup calls the callback with the error instead, as
 * CUDA documents ("called with an error code indicating an error has occurred"). The
 * callback record is freed by that cleanup, exactly once.
 */
#include "interpose/cudart/cudart_internal.h"

#include <stdlib.h>

static npu_event_t *event_of(cudaEvent_t e)
{
    npu_event_t *ne = (npu_event_t *)e;
    return ne && npu_event_valid(ne) ? ne : NULL;
}

/* ---------------------------------------------------------------- streams ---- */
static cudaError_t stream_create(cudaStream_t *pStream, unsigned flags, int priority)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!pStream, NPU_EINVAL);
    SHIM_RETURN_IF(flags & ~(unsigned)cudaStreamNonBlocking, NPU_EINVAL);
    /* Out-of-range priorities are clamped to [greatest -5, least 0], as CUDA does. */
    if (priority < -5)
        priority = -5;
    if (priority > 0)
        priority = 0;
    npu_stream_t *s = NULL;
    npu_status_t st = npu_stream_create(shim_device(),
                                        (flags & cudaStreamNonBlocking) ? NPU_STREAM_NONBLOCKING
                                                                        : NPU_STREAM_DEFAULT,
                                        priority, &s);
    if (st == NPU_OK)
        *pStream = (cudaStream_t)s;
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *pStream)
{
    NPU_API_SCOPE(__func__);
    return stream_create(pStream, cudaStreamDefault, 0);
}

NPU_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return stream_create(pStream, flags, 0);
}

NPU_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority)
{
    NPU_API_SCOPE(__func__);
    return stream_create(pStream, flags, priority);
}

/* Built-in streams (0, cudaStreamLegacy, cudaStreamPerThread) cannot be destroyed. */
NPU_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(stream == NULL || stream == cudaStreamLegacy || stream == cudaStreamPerThread,
                   NPU_EHANDLE);
    npu_stream_t *s = shim_stream(stream, 0);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    return shim_return(npu_stream_destroy(s));
}

static cudaError_t stream_sync(cudaStream_t stream, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    return shim_return(npu_stream_sync(s));
}

NPU_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream) { NPU_API_SCOPE(__func__); return stream_sync(stream, 0); }
NPU_EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) { NPU_API_SCOPE(__func__); return stream_sync(stream, 1); }

static cudaError_t stream_query(cudaStream_t stream, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    return shim_return(npu_stream_query(s));
}

NPU_EXPORT cudaError_t cudaStreamQuery(cudaStream_t stream) { NPU_API_SCOPE(__func__); return stream_query(stream, 0); }
NPU_EXPORT cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream) { NPU_API_SCOPE(__func__); return stream_query(stream, 1); }

static cudaError_t stream_wait_event(cudaStream_t stream, cudaEvent_t event, unsigned flags, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    npu_event_t *e = event_of(event);
    SHIM_RETURN_IF(!e, NPU_EHANDLE);
    SHIM_RETURN_IF(flags & ~(unsigned)cudaEventWaitExternal, NPU_EINVAL);
    return shim_return(npu_stream_wait_event(s, e));
}

NPU_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return stream_wait_event(stream, event, flags, 0);
}

NPU_EXPORT cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return stream_wait_event(stream, event, flags, 1);
}

static cudaError_t stream_get_flags(cudaStream_t stream, unsigned *flags, int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!flags, NPU_EINVAL);
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    *flags = (npu_stream_flags(s) & NPU_STREAM_NONBLOCKING) ? cudaStreamNonBlocking : cudaStreamDefault;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int *flags)
{
    NPU_API_SCOPE(__func__);
    return stream_get_flags(hStream, flags, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int *flags)
{
    NPU_API_SCOPE(__func__);
    return stream_get_flags(hStream, flags, 1);
}

static cudaError_t stream_get_priority(cudaStream_t stream, int *priority, int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!priority, NPU_EINVAL);
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    *priority = npu_stream_priority(s);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int *priority)
{
    NPU_API_SCOPE(__func__);
    return stream_get_priority(hStream, priority, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int *priority)
{
    NPU_API_SCOPE(__func__);
    return stream_get_priority(hStream, priority, 1);
}

static cudaError_t stream_get_device(cudaStream_t stream, int *device, int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!device, NPU_EINVAL);
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    *device = npu_stream_device(s);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device)
{
    NPU_API_SCOPE(__func__);
    return stream_get_device(hStream, device, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device)
{
    NPU_API_SCOPE(__func__);
    return stream_get_device(hStream, device, 1);
}

static cudaError_t stream_get_id(cudaStream_t stream, unsigned long long *id, int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!id, NPU_EINVAL);
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    *id = npu_stream_id(s);
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId)
{
    NPU_API_SCOPE(__func__);
    return stream_get_id(hStream, streamId, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId)
{
    NPU_API_SCOPE(__func__);
    return stream_get_id(hStream, streamId, 1);
}

/* ------------------------------------------------------------ stream capture ---- */
/* Stream capture (CUDA graphs) is not emulated: cudaStreamBeginCapture is a not-supported
 * stub, so no stream is ever capturing and these queries answer "none" for every live
 * stream, which is exactly what CUDA answers outside a capture (PyTorch's allocator asks on
 * every allocation and copy). Outputs other than the status are documented as valid only
 * while a capture is active; the versions whose arity is unambiguous (_v2: CUDA 11.3-12.x,
 * 6 arguments; _v3: CUDA 12.3+, 7) clear them. The plain cudaStreamGetCaptureInfo is the
 * CUDA 13 7-argument call but was the 3-argument one before CUDA 11.3, and a program linked
 * against libcudart.so.12 may still bind it: it writes the status only. */
static cudaError_t capture_query(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                 int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!status, NPU_EINVAL);
    SHIM_RETURN_IF(!shim_stream(stream, ptd), NPU_EHANDLE);
    *status = cudaStreamCaptureStatusNone;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    NPU_API_SCOPE(__func__);
    return capture_query(stream, pCaptureStatus, 0);
}

NPU_EXPORT cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, enum cudaStreamCaptureStatus *pCaptureStatus)
{
    NPU_API_SCOPE(__func__);
    return capture_query(stream, pCaptureStatus, 1);
}

/* edge: the call has an edgeData_out argument (it needs dependencies_out when given). */
static cudaError_t capture_info(cudaStream_t stream, enum cudaStreamCaptureStatus *status,
                                cudaGraph_t *graph, const cudaGraphNode_t **deps,
                                const cudaGraphEdgeData **edge, size_t *ndeps, int ptd)
{
    if (edge && !deps)
        return shim_fail(cudaErrorInvalidValue);
    cudaError_t e = capture_query(stream, status, ptd);
    if (e != cudaSuccess)
        return e;
    if (graph)
        *graph = NULL;
    if (deps)
        *deps = NULL;
    if (edge)
        *edge = NULL;
    if (ndeps)
        *ndeps = 0;
    return cudaSuccess;
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, NULL, NULL, NULL, NULL, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, NULL, NULL, NULL, NULL, 1);
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, graph_out, dependencies_out, NULL,
                        numDependencies_out, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo_v2_ptsz(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, graph_out, dependencies_out, NULL,
                        numDependencies_out, 1);
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out, 0);
}

NPU_EXPORT cudaError_t cudaStreamGetCaptureInfo_v3_ptsz(cudaStream_t stream,
    enum cudaStreamCaptureStatus *captureStatus_out, unsigned long long *id_out,
    cudaGraph_t *graph_out, const cudaGraphNode_t **dependencies_out,
    const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out)
{
    NPU_API_SCOPE(__func__);
    return capture_info(stream, captureStatus_out, graph_out, dependencies_out, edgeData_out,
                        numDependencies_out, 1);
}

/* The thread's capture interaction mode: which unsafe calls a capture in progress would
 * forbid. It is kept and exchanged exactly (capture itself never starts here). */
NPU_EXPORT cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *mode)
{
    NPU_API_SCOPE(__func__);
    if (!mode || (unsigned)*mode > (unsigned)cudaStreamCaptureModeRelaxed)
        return shim_fail(cudaErrorInvalidValue);
    *mode = (enum cudaStreamCaptureMode)shim_capture_mode_exchange((int)*mode);
    return cudaSuccess;
}

/* ----------------------------------------------------- callbacks, host fns ---- */
typedef struct stream_callback {
    cudaStreamCallback_t fn;
    cudaStream_t handle;          /* the handle the caller passed, given back to fn */
    void *user;
    int device;
    int ran;
} stream_callback_t;

static npu_status_t stream_callback_run(void *arg)
{
    stream_callback_t *c = arg;
    c->ran = 1;
    c->fn(c->handle, cudaSuccess, c->user);
    return NPU_OK;
}

static void stream_callback_cleanup(void *arg)
{
    stream_callback_t *c = arg;
    if (!c->ran) {
        npu_status_t st = npu_device_error(c->device);
        c->fn(c->handle, st != NPU_OK ? shim_cuda_error(st) : cudaErrorUnknown, c->user);
    }
    free(c);
}

static cudaError_t stream_add_callback(cudaStream_t stream, cudaStreamCallback_t callback,
                                       void *userData, unsigned flags, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    SHIM_RETURN_IF(!callback || flags != 0, NPU_EINVAL);
    stream_callback_t *c = malloc(sizeof *c);
    SHIM_RETURN_IF(!c, NPU_EHOSTMEM);
    c->fn = callback;
    c->handle = stream;
    c->user = userData;
    c->device = npu_stream_device(s);
    c->ran = 0;
    npu_status_t st = npu_stream_submit(s, stream_callback_run, stream_callback_cleanup, c);
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                             void *userData, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return stream_add_callback(stream, callback, userData, flags, 0);
}

NPU_EXPORT cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream, cudaStreamCallback_t callback,
                                                  void *userData, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return stream_add_callback(stream, callback, userData, flags, 1);
}

static cudaError_t launch_host_func(cudaStream_t stream, cudaHostFn_t fn, void *userData, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    SHIM_RETURN_IF(!fn, NPU_EINVAL);
    return shim_return(npu_stream_host_fn(s, fn, userData));
}

NPU_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    NPU_API_SCOPE(__func__);
    return launch_host_func(stream, fn, userData, 0);
}

NPU_EXPORT cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void *userData)
{
    NPU_API_SCOPE(__func__);
    return launch_host_func(stream, fn, userData, 1);
}

/* ----------------------------------------------------------------- events ---- */
NPU_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!event, NPU_EINVAL);
    SHIM_RETURN_IF(flags & ~(unsigned)(cudaEventBlockingSync | cudaEventDisableTiming |
                                       cudaEventInterprocess), NPU_EINVAL);
    /* An interprocess event must also disable timing. */
    SHIM_RETURN_IF((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming), NPU_EINVAL);
    unsigned nf = ((flags & cudaEventBlockingSync) ? NPU_EVENT_BLOCKING_SYNC : 0) |
                  ((flags & cudaEventDisableTiming) ? NPU_EVENT_DISABLE_TIMING : 0) |
                  ((flags & cudaEventInterprocess) ? NPU_EVENT_INTERPROCESS : 0);
    npu_event_t *e = NULL;
    npu_status_t st = npu_event_create(nf, &e);
    if (st == NPU_OK)
        *event = (cudaEvent_t)e;
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    NPU_API_SCOPE(__func__);
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

NPU_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_event_t *e = event_of(event);
    SHIM_RETURN_IF(!e, NPU_EHANDLE);
    return shim_return(npu_event_destroy(e));
}

static cudaError_t event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags, int ptd)
{
    SHIM_ENTER();
    npu_event_t *e = event_of(event);
    SHIM_RETURN_IF(!e, NPU_EHANDLE);
    npu_stream_t *s = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!s, NPU_EHANDLE);
    /* cudaEventRecordExternal only matters inside graph capture, which is not supported:
     * outside capture it records like the default. */
    SHIM_RETURN_IF(flags & ~(unsigned)cudaEventRecordExternal, NPU_EINVAL);
    return shim_return(npu_event_record(e, s));
}

NPU_EXPORT cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return event_record(event, stream, 0, 0);
}

NPU_EXPORT cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return event_record(event, stream, 0, 1);
}

NPU_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return event_record(event, stream, flags, 0);
}

NPU_EXPORT cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    return event_record(event, stream, flags, 1);
}

NPU_EXPORT cudaError_t cudaEventQuery(cudaEvent_t event)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_event_t *e = event_of(event);
    SHIM_RETURN_IF(!e, NPU_EHANDLE);
    return shim_return(npu_event_query(e));
}

NPU_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_event_t *e = event_of(event);
    SHIM_RETURN_IF(!e, NPU_EHANDLE);
    return shim_return(npu_event_sync(e));
}

NPU_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!ms, NPU_EINVAL);
    npu_event_t *a = event_of(start), *b = event_of(end);
    SHIM_RETURN_IF(!a || !b, NPU_EHANDLE);
    return shim_return(npu_event_elapsed(a, b, ms));
}
