/*
 * cudart_memory.c - memory management of the CUDA runtime API on the emulated NPU:
 * cudaMalloc/Free (device, pinned, registered, managed, pitched), cudaMemcpy/Memset (1D, 2D,
 * peer, sync and async, _ptds/_ptsz variants), cudaPointerGetAttributes, cudaMemGetInfo,
 * stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and cudaMemPool*.
 *
 * Copy semantics (CUDA "API synchronization behavior"):
 *  - cudaMemcpy is ordered on the legacy stream (the per-thread stream for _ptds) and returns
 *    after the copy completed.
 *  - cudaMemcpyAsync from pageable (unregistered) host memory: the source is copied into a
 *    staging buffer at call time, so the caller may reuse it when the call returns, and the
 *    copy proper runs in stream order (CUDA's "returns once the pageable buffer has been
 *    copied to staging memory"); beyond 64 MiB the call instead waits for the stream.
 *    Copies to pageable host memory, and host-to-host copies, return after completion.
 *  - cudaMemset is asynchronous for device memory and synchronous for pinned and managed
 *    memory, as documented.
 * Direction checks: a kind outside cudaMemcpyKind -> cudaErrorInvalidMemcpyDirection; a side
 * the kind calls "device" that is plain unregistered host memory -> cudaErrorInvalidValue; a
 * side the kind calls "host" may be any memory (with UVA the runtime infers the rest from
 * the pointer, as CUDA does). A range running past its allocation -> cudaErrorInvalidValue.
 * cudaFree and cudaFreeHost wait for the device(s) first, as on a GPU, so queued work never
 * touches freed memory.
 */
#include "interpose/cudart/cudart_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STAGE_MAX ((size_t)64 << 20)

/* ------------------------------------------------------------ allocation ---- */
NPU_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!devPtr, NPU_EINVAL);
    return shim_return(npu_mem_alloc(shim_device(), size, devPtr));
}

NPU_EXPORT cudaError_t cudaFree(void *devPtr)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    if (!devPtr)
        return shim_return(NPU_OK);
    npu_ptr_info_t info;
    npu_mem_lookup(devPtr, &info);
    SHIM_RETURN_IF(info.kind != NPU_MEM_DEVICE && info.kind != NPU_MEM_MANAGED, NPU_EINVAL);
    SHIM_RETURN_IF(info.base != devPtr, NPU_EINVAL);
    npu_status_t sync = npu_device_sync(info.device >= 0 ? info.device : shim_device());
    npu_status_t st = npu_mem_free(devPtr);
    if (st == NPU_EINVAL && info.kind == NPU_MEM_DEVICE) {
        /* Memory from cudaMallocAsync: the device is idle, free it in stream order now. */
        npu_stream_t *s = npu_stream_legacy(info.device >= 0 ? info.device : shim_device());
        if (s && npu_pool_free_async(devPtr, s) == NPU_OK)
            st = npu_stream_sync(s);
    }
    return shim_return(st != NPU_OK ? st : sync);
}

NPU_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!devPtr || size == 0, NPU_EINVAL);
    SHIM_RETURN_IF(flags != cudaMemAttachGlobal && flags != cudaMemAttachHost, NPU_EINVAL);
    return shim_return(npu_mem_alloc_managed(shim_device(), size, devPtr));
}

/* Rows are padded to 512 bytes (the texture alignment of sm_90), like the CUDA driver. */
NPU_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!devPtr || !pitch, NPU_EINVAL);
    SHIM_RETURN_IF(width > SIZE_MAX - 511, NPU_ENOMEM);
    size_t p = (width + 511) & ~(size_t)511;
    SHIM_RETURN_IF(height && p > SIZE_MAX / height, NPU_ENOMEM);
    npu_status_t st = npu_mem_alloc(shim_device(), p * height, devPtr);
    if (st == NPU_OK)
        *pitch = p;
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!ptr, NPU_EINVAL);
    return shim_return(npu_host_alloc(size, cudaHostAllocDefault, ptr));
}

NPU_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pHost, NPU_EINVAL);
    SHIM_RETURN_IF(flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped |
                                       cudaHostAllocWriteCombined), NPU_EINVAL);
    return shim_return(npu_host_alloc(size, flags, pHost));
}

static npu_status_t sync_all_devices(void)
{
    npu_status_t first = NPU_OK;
    for (int d = 0; d < npu_device_count(); d++) {
        npu_status_t st = npu_device_sync(d);
        if (first == NPU_OK)
            first = st;
    }
    return first;
}

NPU_EXPORT cudaError_t cudaFreeHost(void *ptr)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    if (!ptr)
        return shim_return(NPU_OK);
    npu_ptr_info_t info;
    npu_mem_lookup(ptr, &info);
    SHIM_RETURN_IF(info.kind != NPU_MEM_HOST || info.base != ptr, NPU_EINVAL);
    npu_status_t sync = sync_all_devices();
    npu_status_t st = npu_host_free(ptr);
    return shim_return(st != NPU_OK ? st : sync);
}

NPU_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!ptr || size == 0, NPU_EINVAL);
    SHIM_RETURN_IF(flags & ~(unsigned)(cudaHostRegisterPortable | cudaHostRegisterMapped |
                                       cudaHostRegisterIoMemory | cudaHostRegisterReadOnly), NPU_EINVAL);
    /* There is no PCIe BAR to map: I/O memory cannot be registered. */
    SHIM_RETURN_IF(flags & cudaHostRegisterIoMemory, NPU_ENOTSUP);
    return shim_return(npu_host_register(ptr, size, flags));
}

NPU_EXPORT cudaError_t cudaHostUnregister(void *ptr)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!ptr, NPU_EINVAL);
    return shim_return(npu_host_unregister(ptr));
}

/* One address space: the device address of pinned memory is its host address. */
NPU_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pDevice || !pHost || flags != 0, NPU_EINVAL);
    npu_ptr_info_t info;
    npu_mem_lookup(pHost, &info);
    SHIM_RETURN_IF(info.kind != NPU_MEM_HOST, NPU_EINVAL);
    *pDevice = info.dev_ptr ? info.dev_ptr : pHost;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!pFlags || !pHost, NPU_EINVAL);
    npu_ptr_info_t info;
    npu_mem_lookup(pHost, &info);
    SHIM_RETURN_IF(info.kind != NPU_MEM_HOST, NPU_EINVAL);
    *pFlags = info.flags;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!free || !total, NPU_EINVAL);
    return shim_return(npu_mem_info(shim_device(), free, total));
}

NPU_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes, const void *ptr)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!attributes, NPU_EINVAL);
    npu_ptr_info_t info;
    npu_mem_lookup(ptr, &info);
    memset(attributes, 0, sizeof *attributes);
    void *p = (void *)(uintptr_t)ptr;
    switch (info.kind) {
    case NPU_MEM_DEVICE:
        attributes->type = cudaMemoryTypeDevice;
        attributes->device = info.device;
        attributes->devicePointer = p;
        attributes->hostPointer = NULL;     /* device memory has no host mapping in CUDA */
        break;
    case NPU_MEM_MANAGED:
        attributes->type = cudaMemoryTypeManaged;
        attributes->device = info.device >= 0 ? info.device : shim_device();
        attributes->devicePointer = p;
        attributes->hostPointer = p;
        break;
    case NPU_MEM_HOST:
        attributes->type = cudaMemoryTypeHost;
        attributes->device = info.device >= 0 ? info.device : shim_device();
        attributes->devicePointer = p;
        attributes->hostPointer = p;
        break;
    default:                                /* CUDA >= 11: success, type unregistered */
        attributes->type = cudaMemoryTypeUnregistered;
        attributes->device = -2;
        attributes->devicePointer = NULL;
        attributes->hostPointer = p;
        break;
    }
    return shim_return(NPU_OK);
}

/* ---------------------------------------------------------------- checks ---- */
typedef struct side {
    npu_ptr_info_t info;
    int pageable;                 /* plain host memory the runtime does not know */
} side_t;

/* Classifies dst/src and validates a copy of `span` bytes on each side for `kind`. */
static npu_status_t check_copy(void *dst, size_t dspan, const void *src, size_t sspan,
                               enum cudaMemcpyKind kind, side_t *d, side_t *s)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return NPU_EDIR;
    if (!dst || !src)
        return NPU_EINVAL;
    npu_mem_lookup(dst, &d->info);
    npu_mem_lookup(src, &s->info);
    d->pageable = d->info.kind == NPU_MEM_UNREGISTERED;
    s->pageable = s->info.kind == NPU_MEM_UNREGISTERED;
    int dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((dst_dev && d->pageable) || (src_dev && s->pageable))
        return NPU_EINVAL;
    if (npu_mem_check_range(dst, dspan) != NPU_OK || npu_mem_check_range(src, sspan) != NPU_OK)
        return NPU_EINVAL;
    return NPU_OK;
}

/* Extent of a 2D region: pitch*(height-1)+width, 0 on overflow. */
static size_t span2d(size_t pitch, size_t width, size_t height)
{
    if (height > 1 && pitch > (SIZE_MAX - width) / (height - 1))
        return 0;
    return pitch * (height - 1) + width;
}

typedef struct staged_copy {
    struct staged_copy *next;       /* free-list link while cached */
    int cls;                        /* size class: capacity 4 KiB << cls */
    void *dst;
    size_t dpitch, width, height;   /* data is packed: rows of width bytes */
    unsigned char data[];
} staged_copy_t;

/* Staging buffers are recycled. Measured (bench_cudart, 200 back-to-back 64 KiB pageable
 * cudaMemcpyAsync): a fresh malloc per call cost 5.9 us per call, 11-24 us with a 4-buffer
 * cache (the backlog needs 12.8 MB of fresh, faulting pages every round), against 0.5 us
 * for the copy itself; keeping up to STAGE_KEEP_BYTES cached removes the faults in steady
 * state. Power-of-two classes from 4 KiB to STAGE_MAX. */
#define STAGE_CLASSES 15            /* 4 KiB << 14 = 64 MiB */
#define STAGE_KEEP_BYTES ((size_t)32 << 20)
static pthread_mutex_t stage_lock = PTHREAD_MUTEX_INITIALIZER;
static staged_copy_t *stage_free[STAGE_CLASSES]; /* guarded by stage_lock */
static size_t stage_cached;                      /* bytes on the free lists; stage_lock */

static staged_copy_t *stage_get(size_t bytes)
{
    int cls = 0;
    while (((size_t)4096 << cls) < bytes)
        cls++;
    staged_copy_t *c = NULL;
    pthread_mutex_lock(&stage_lock);
    if (stage_free[cls]) {
        c = stage_free[cls];
        stage_free[cls] = c->next;
        stage_cached -= (size_t)4096 << cls;
    }
    pthread_mutex_unlock(&stage_lock);
    if (!c) {
        c = malloc(sizeof *c + ((size_t)4096 << cls));
        if (c)
            c->cls = cls;
    }
    return c;
}

static void stage_put(void *arg)
{
    staged_copy_t *c = arg;
    pthread_mutex_lock(&stage_lock);
    size_t cap = (size_t)4096 << c->cls;
    if (stage_cached + cap <= STAGE_KEEP_BYTES) {
        c->next = stage_free[c->cls];
        stage_free[c->cls] = c;
        stage_cached += cap;
        c = NULL;
    }
    pthread_mutex_unlock(&stage_lock);
    free(c);
}

static npu_status_t staged_copy_run(void *arg)
{
    staged_copy_t *c = arg;
    NPU_OBS_COPY_SCOPE(c->dst, c->data, c->width * c->height);  /* observability (npu_obs.h) */
    for (size_t r = 0; r < c->height; r++)
        memcpy((char *)c->dst + r * c->dpitch, c->data + r * c->width, c->width);
    return NPU_OK;
}

/* Issues a (2D) copy on stream s following the pageable-memory rules above; `sync` forces
 * completion before returning (cudaMemcpy). */
static npu_status_t issue_copy(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, const side_t *d, const side_t *s,
                               npu_stream_t *st, int sync)
{
    npu_status_t rc;
    size_t bytes = width * height;
    if (!sync && s->pageable && !d->pageable && bytes <= STAGE_MAX) {
        staged_copy_t *c = stage_get(bytes);
        if (!c)
            return NPU_EHOSTMEM;
        c->dst = dst;
        c->dpitch = dpitch;
        c->width = width;
        c->height = height;
        for (size_t r = 0; r < height; r++)
            memcpy(c->data + r * width, (const char *)src + r * spitch, width);
        rc = npu_stream_submit(st, staged_copy_run, stage_put, c);
        return rc;
    }
    if (height == 1)
        rc = npu_memcpy_async(dst, src, width, st);
    else
        rc = npu_memcpy2d_async(dst, dpitch, src, spitch, width, height, st);
    if (rc == NPU_OK && (sync || s->pageable || d->pageable))
        rc = npu_stream_sync(st);
    return rc;
}

/* ---------------------------------------------------------------- memcpy ---- */
static cudaError_t memcpy_common(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                                 cudaStream_t stream, int ptd, int sync)
{
    SHIM_ENTER();
    npu_stream_t *st = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    SHIM_RETURN_IF((unsigned)kind > cudaMemcpyDefault, NPU_EDIR);
    if (count == 0)
        return shim_return(NPU_OK);
    side_t d, s;
    npu_status_t rc = check_copy(dst, count, src, count, kind, &d, &s);
    if (rc == NPU_OK)
        rc = issue_copy(dst, count, src, count, count, 1, &d, &s, st, sync);
    return shim_return(rc);
}

NPU_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return memcpy_common(dst, src, count, kind, NULL, 0, 1);
}

NPU_EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return memcpy_common(dst, src, count, kind, NULL, 1, 1);
}

NPU_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                       enum cudaMemcpyKind kind, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memcpy_common(dst, src, count, kind, stream, 0, 0);
}

NPU_EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                            enum cudaMemcpyKind kind, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memcpy_common(dst, src, count, kind, stream, 1, 0);
}

static cudaError_t memcpy2d_common(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind,
                                   cudaStream_t stream, int ptd, int sync)
{
    SHIM_ENTER();
    npu_stream_t *st = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    SHIM_RETURN_IF((unsigned)kind > cudaMemcpyDefault, NPU_EDIR);
    if (width == 0 || height == 0)
        return shim_return(NPU_OK);
    SHIM_RETURN_IF(width > dpitch || width > spitch, NPU_EPITCH);
    size_t dspan = span2d(dpitch, width, height), sspan = span2d(spitch, width, height);
    SHIM_RETURN_IF(dspan == 0 || sspan == 0, NPU_EINVAL);
    side_t d, s;
    npu_status_t rc = check_copy(dst, dspan, src, sspan, kind, &d, &s);
    if (rc == NPU_OK)
        rc = issue_copy(dst, dpitch, src, spitch, width, height, &d, &s, st, sync);
    return shim_return(rc);
}

NPU_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, NULL, 0, 1);
}

NPU_EXPORT cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, enum cudaMemcpyKind kind)
{
    NPU_API_SCOPE(__func__);
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, NULL, 1, 1);
}

NPU_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, enum cudaMemcpyKind kind,
                                         cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, stream, 0, 0);
}

NPU_EXPORT cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src, size_t spitch,
                                              size_t width, size_t height, enum cudaMemcpyKind kind,
                                              cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memcpy2d_common(dst, dpitch, src, spitch, width, height, kind, stream, 1, 0);
}

/* Peer copies: the emulated devices share one address space, so a peer copy is a copy
 * between two device allocations; the device arguments are validated. */
static npu_status_t check_peer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    if (cudart_check_device(dstDevice) != NPU_OK || cudart_check_device(srcDevice) != NPU_OK)
        return NPU_EDEVICE;
    if (count == 0)
        return NPU_OK;
    side_t d, s;
    return check_copy(dst, count, src, count, cudaMemcpyDeviceToDevice, &d, &s);
}

/* Serialized with all work on the current, source and destination devices, as documented:
 * waits for both devices, then copies. */
NPU_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_status_t rc = check_peer(dst, dstDevice, src, srcDevice, count);
    if (rc != NPU_OK || count == 0)
        return shim_return(rc);
    npu_stream_t *st = npu_stream_legacy(shim_device());
    SHIM_RETURN_IF(!st, NPU_EINTERNAL);
    npu_status_t a = npu_device_sync(srcDevice);
    npu_status_t b = dstDevice != srcDevice ? npu_device_sync(dstDevice) : NPU_OK;
    rc = npu_memcpy_async(dst, src, count, st);
    if (rc == NPU_OK)
        rc = npu_stream_sync(st);
    return shim_return(rc != NPU_OK ? rc : a != NPU_OK ? a : b);
}

NPU_EXPORT cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                           size_t count, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_stream_t *st = shim_stream(stream, 0);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    npu_status_t rc = check_peer(dst, dstDevice, src, srcDevice, count);
    if (rc != NPU_OK || count == 0)
        return shim_return(rc);
    return shim_return(npu_memcpy_async(dst, src, count, st));
}

/* ---------------------------------------------------------------- memset ---- */
static cudaError_t memset_common(void *p, size_t pitch, int value, size_t width, size_t height,
                                 cudaStream_t stream, int ptd, int sync_api)
{
    SHIM_ENTER();
    npu_stream_t *st = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    if (width == 0 || height == 0)
        return shim_return(NPU_OK);
    SHIM_RETURN_IF(!p, NPU_EINVAL);
    SHIM_RETURN_IF(height > 1 && width > pitch, NPU_EINVAL);
    size_t span = height > 1 ? span2d(pitch, width, height) : width;
    SHIM_RETURN_IF(span == 0, NPU_EINVAL);
    npu_ptr_info_t info;
    npu_mem_lookup(p, &info);
    SHIM_RETURN_IF(info.kind == NPU_MEM_UNREGISTERED, NPU_EINVAL);
    SHIM_RETURN_IF(npu_mem_check_range(p, span) != NPU_OK, NPU_EINVAL);
    npu_status_t rc = height > 1 ? npu_memset2d_async(p, pitch, value, width, height, st)
                                 : npu_memset_async(p, value, width, st);
    /* The synchronous memsets are synchronous for pinned and managed targets. */
    if (rc == NPU_OK && sync_api && (info.kind == NPU_MEM_HOST || info.kind == NPU_MEM_MANAGED))
        rc = npu_stream_sync(st);
    return shim_return(rc);
}

NPU_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, count, value, count, 1, NULL, 0, 1);
}

NPU_EXPORT cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, count, value, count, 1, NULL, 1, 1);
}

NPU_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, count, value, count, 1, stream, 0, 0);
}

NPU_EXPORT cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, count, value, count, 1, stream, 1, 0);
}

NPU_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, pitch, value, width, height, NULL, 0, 1);
}

NPU_EXPORT cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width, size_t height)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, pitch, value, width, height, NULL, 1, 1);
}

NPU_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, pitch, value, width, height, stream, 0, 0);
}

NPU_EXPORT cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                              size_t height, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    return memset_common(devPtr, pitch, value, width, height, stream, 1, 0);
}

/* ----------------------------------------------------------- memory pools ---- */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static npu_pool_t *current_pool[CUDART_MAX_DEVICES]; /* NULL = the default pool; pool_lock */

npu_pool_t *cudart_current_pool(int dev)
{
    npu_pool_t *p = NULL;
    pthread_mutex_lock(&pool_lock);
    if (dev >= 0 && dev < CUDART_MAX_DEVICES)
        p = current_pool[dev];
    pthread_mutex_unlock(&pool_lock);
    if (p && !npu_pool_valid(p))
        p = NULL;
    return p ? p : npu_pool_default(dev);
}

void cudart_memory_device_reset(int dev)
{
    pthread_mutex_lock(&pool_lock);
    if (dev >= 0 && dev < CUDART_MAX_DEVICES)
        current_pool[dev] = NULL;
    pthread_mutex_unlock(&pool_lock);
}

static cudaError_t malloc_async_common(void **ptr, size_t size, npu_pool_t *pool, cudaStream_t stream, int ptd)
{
    SHIM_ENTER();
    SHIM_RETURN_IF(!ptr, NPU_EINVAL);
    npu_stream_t *st = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    if (!pool)
        pool = cudart_current_pool(npu_stream_device(st));
    SHIM_RETURN_IF(!pool || !npu_pool_valid(pool), NPU_EINVAL);
    return shim_return(npu_pool_alloc_async(pool, size, st, ptr));
}

NPU_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream)
{
    NPU_API_SCOPE(__func__);
    return malloc_async_common(devPtr, size, NULL, hStream, 0);
}

NPU_EXPORT cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t hStream)
{
    NPU_API_SCOPE(__func__);
    return malloc_async_common(devPtr, size, NULL, hStream, 1);
}

NPU_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!memPool || !npu_pool_valid((npu_pool_t *)memPool), NPU_EINVAL);
    return malloc_async_common(ptr, size, (npu_pool_t *)memPool, stream, 0);
}

NPU_EXPORT cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!memPool || !npu_pool_valid((npu_pool_t *)memPool), NPU_EINVAL);
    return malloc_async_common(ptr, size, (npu_pool_t *)memPool, stream, 1);
}

static cudaError_t free_async_common(void *devPtr, cudaStream_t stream, int ptd)
{
    SHIM_ENTER();
    npu_stream_t *st = shim_stream(stream, ptd);
    SHIM_RETURN_IF(!st, NPU_EHANDLE);
    SHIM_RETURN_IF(!devPtr, NPU_EINVAL);
    return shim_return(npu_pool_free_async(devPtr, st));
}

NPU_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream)
{
    NPU_API_SCOPE(__func__);
    return free_async_common(devPtr, hStream, 0);
}

NPU_EXPORT cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t hStream)
{
    NPU_API_SCOPE(__func__);
    return free_async_common(devPtr, hStream, 1);
}

NPU_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const struct cudaMemPoolProps *poolProps)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!memPool || !poolProps, NPU_EINVAL);
    SHIM_RETURN_IF(poolProps->allocType != cudaMemAllocationTypePinned, NPU_EINVAL);
    /* Host-located pools and exportable (IPC) pools are not available on the NPU. */
    SHIM_RETURN_IF(poolProps->location.type != cudaMemLocationTypeDevice, NPU_ENOTSUP);
    SHIM_RETURN_IF(poolProps->handleTypes != cudaMemHandleTypeNone, NPU_ENOTSUP);
    SHIM_RETURN_IF(cudart_check_device(poolProps->location.id) != NPU_OK, NPU_EINVAL);
    npu_pool_t *p = NULL;
    npu_status_t st = npu_pool_create(poolProps->location.id, &p);
    if (st == NPU_OK)
        *memPool = (cudaMemPool_t)p;
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_pool_t *p = (npu_pool_t *)memPool;
    SHIM_RETURN_IF(!p || !npu_pool_valid(p), NPU_EINVAL);
    int dev = npu_pool_device(p);
    SHIM_RETURN_IF(p == npu_pool_default(dev), NPU_EINVAL);
    /* A destroyed current pool makes the device's default pool current again. */
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < CUDART_MAX_DEVICES; i++)
        if (current_pool[i] == p)
            current_pool[i] = NULL;
    pthread_mutex_unlock(&pool_lock);
    return shim_return(npu_pool_destroy(p));
}

NPU_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_pool_t *p = (npu_pool_t *)memPool;
    SHIM_RETURN_IF(!p || !npu_pool_valid(p), NPU_EINVAL);
    return shim_return(npu_pool_trim(p, minBytesToKeep));
}

static int pool_attr_is_int(enum cudaMemPoolAttr attr)
{
    return attr == cudaMemPoolReuseFollowEventDependencies ||
           attr == cudaMemPoolReuseAllowOpportunistic ||
           attr == cudaMemPoolReuseAllowInternalDependencies;
}

NPU_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_pool_t *p = (npu_pool_t *)memPool;
    SHIM_RETURN_IF(!p || !npu_pool_valid(p) || !value, NPU_EINVAL);
    uint64_t v;
    if (pool_attr_is_int(attr))
        v = (uint64_t)(*(int *)value != 0);
    else if (attr == cudaMemPoolAttrReleaseThreshold)
        v = *(uint64_t *)value;
    else if (attr == cudaMemPoolAttrReservedMemHigh || attr == cudaMemPoolAttrUsedMemHigh) {
        v = *(uint64_t *)value;           /* high-water marks can only be reset to 0 */
        SHIM_RETURN_IF(v != 0, NPU_EINVAL);
    } else
        return shim_return(NPU_EINVAL);
    return shim_return(npu_pool_set_attr(p, (int)attr, v));
}

NPU_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, enum cudaMemPoolAttr attr, void *value)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    npu_pool_t *p = (npu_pool_t *)memPool;
    SHIM_RETURN_IF(!p || !npu_pool_valid(p) || !value, NPU_EINVAL);
    SHIM_RETURN_IF((int)attr < cudaMemPoolReuseFollowEventDependencies ||
                   (int)attr > cudaMemPoolAttrUsedMemHigh, NPU_EINVAL);
    uint64_t v = 0;
    npu_status_t st = npu_pool_get_attr(p, (int)attr, &v);
    if (st == NPU_OK) {
        if (pool_attr_is_int(attr))
            *(int *)value = (int)v;
        else
            *(uint64_t *)value = v;
    }
    return shim_return(st);
}

NPU_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!memPool, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_pool_t *p = npu_pool_default(device);
    SHIM_RETURN_IF(!p, NPU_EINTERNAL);
    *memPool = (cudaMemPool_t)p;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(!memPool, NPU_EINVAL);
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_pool_t *p = cudart_current_pool(device);
    SHIM_RETURN_IF(!p, NPU_EINTERNAL);
    *memPool = (cudaMemPool_t)p;
    return shim_return(NPU_OK);
}

NPU_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool)
{
    NPU_API_SCOPE(__func__);
    SHIM_ENTER();
    SHIM_RETURN_IF(cudart_check_device(device) != NPU_OK, NPU_EDEVICE);
    npu_pool_t *p = (npu_pool_t *)memPool;
    SHIM_RETURN_IF(!p || !npu_pool_valid(p) || npu_pool_device(p) != device, NPU_EINVAL);
    pthread_mutex_lock(&pool_lock);
    if (device < CUDART_MAX_DEVICES)
        current_pool[device] = p == npu_pool_default(device) ? NULL : p;
    pthread_mutex_unlock(&pool_lock);
    return shim_return(NPU_OK);
}
