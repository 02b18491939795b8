/*
 * driver_memory.c - CUDA driver API memory: allocation (device, pitched, managed, pinned,
 * registered host, stream-ordered pools), copies (1D, 2D, 3D between linear memories, peer)
 * and sets (8/16/32-bit, 1D and 2D), sync and async, with the per-thread default stream
 * variants; pointer attributes, memory info, prefetch and advice.
 *
 * Memory is the runtime's (npu_mem_*, npu_host_*, npu_pool_*), so a cudaMalloc pointer works
 * with cuMemcpy and the other way round. CUdeviceptr is the pointer value itself (one address
 * space). The old 32-bit CUdeviceptr_v1 entry points (cuMemAlloc, cuMemcpyHtoD ...) cannot
 * carry these 64-bit addresses and stay not-supported stubs; the 3.2+ ABIs are implemented.
 *
 * Ordering: a synchronous copy or set is queued on the legacy default stream of the current
 * context (the per-thread stream for the _ptds entry points) and waited for, so it follows
 * earlier work there, as CUDA documents. An async copy whose host side is pageable memory
 * (not pinned, not device) completes before the call returns: CUDA makes those transfers
 * synchronous too, and the caller may reuse the buffer as soon as the call returns.
 * cuMemFree waits for the device's pending work first (the memory may still be in use there).
 */
#include "interpose/driver/driver_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ helpers ---- */
#define DPTR(x) ((void *)(uintptr_t)(x))

static int is_pageable(const void *p)
{
    npu_ptr_info_t in;
    npu_mem_lookup(p, &in);
    return in.kind == NPU_MEM_UNREGISTERED;
}

/* Resolves a stream handle for an entry point, with the current context checked. */
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

static CUresult finish(npu_status_t st, npu_stream_t *s, int wait)
{
    if (st == NPU_OK && wait)
        st = npu_stream_sync(s);
    return drv_result(st, npu_stream_device(s));
}

/* 2D copy core: every CUDA copy entry point ends here. */
static CUresult copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, CUstream h, int pt, int async)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (width == 0 || height == 0)
        return CUDA_SUCCESS;
    if (!dst || !src)
        return CUDA_ERROR_INVALID_VALUE;
    npu_status_t st = npu_memcpy2d_async(dst, dpitch, src, spitch, width, height, s);
    int wait = !async || is_pageable(dst) || is_pageable(src);
    return finish(st, s, wait);
}

static CUresult copy1d(void *dst, const void *src, size_t n, CUstream h, int pt, int async)
{
    return copy2d(dst, n, src, n, n, n ? 1 : 0, h, pt, async);
}

/* ----------------------------------------------------------- device memory ---- */
NPU_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    npu_status_t st = npu_mem_alloc(c->device, bytesize, &p);
    if (st == NPU_OK)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_map(st);
}

NPU_EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (dptr == 0)
        return CUDA_SUCCESS;
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(dptr), &in);
    if ((in.kind != NPU_MEM_DEVICE && in.kind != NPU_MEM_MANAGED) || in.base != DPTR(dptr))
        return CUDA_ERROR_INVALID_VALUE;
    npu_device_sync(in.device);
    return drv_map(npu_mem_free(DPTR(dptr)));
}

/* Pitch: rows aligned to 512 bytes (the texture alignment the device reports). */
NPU_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                       size_t Height, unsigned int ElementSizeBytes)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!dptr || !pPitch || WidthInBytes == 0 || Height == 0 ||
        (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16))
        return CUDA_ERROR_INVALID_VALUE;
    size_t pitch = (WidthInBytes + 511) & ~(size_t)511, bytes;
    if (pitch < WidthInBytes || __builtin_mul_overflow(pitch, Height, &bytes))
        return CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    npu_status_t st = npu_mem_alloc(c->device, bytes, &p);
    if (st == NPU_OK) {
        *dptr = (CUdeviceptr)(uintptr_t)p;
        *pPitch = pitch;
    }
    return drv_map(st);
}

NPU_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!dptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
        return CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    npu_status_t st = npu_mem_alloc_managed(c->device, bytesize, &p);
    if (st == NPU_OK)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_map(st);
}

NPU_EXPORT CUresult cuMemGetInfo_v2(size_t *free, size_t *total)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!free || !total)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_mem_info(c->device, free, total));
}

NPU_EXPORT CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize, CUdeviceptr dptr)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(dptr), &in);
    /* Pinned and registered host memory is mapped at the same address in the unified address
     * space (cuMemHostGetDevicePointer hands out the host pointer), so it is an allocation
     * here too, as on a GPU with unified addressing. */
    if (in.kind != NPU_MEM_DEVICE && in.kind != NPU_MEM_MANAGED && in.kind != NPU_MEM_HOST)
        return CUDA_ERROR_NOT_FOUND;
    if (pbase)
        *pbase = (CUdeviceptr)(uintptr_t)in.base;
    if (psize)
        *psize = in.size;
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------- host memory ---- */
static CUresult host_alloc(void **pp, size_t bytesize, unsigned int flags)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!pp || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(unsigned)(CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                            CU_MEMHOSTALLOC_WRITECOMBINED))
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_host_alloc(bytesize, flags, pp));
}

NPU_EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize) { NPU_API_SCOPE(__func__); return host_alloc(pp, bytesize, 0); }
NPU_EXPORT CUresult cuMemAllocHost(void **pp, unsigned int bytesize) { NPU_API_SCOPE(__func__); return host_alloc(pp, bytesize, 0); }
NPU_EXPORT CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    return host_alloc(pp, bytesize, Flags);
}

NPU_EXPORT CUresult cuMemFreeHost(void *p)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    npu_status_t st = npu_host_free(p);
    return st == NPU_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

NPU_EXPORT CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!pdptr || !p || Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup(p, &in);
    if (in.kind != NPU_MEM_HOST && in.kind != NPU_MEM_MANAGED)
        return CUDA_ERROR_INVALID_VALUE;
    *pdptr = (CUdeviceptr)(uintptr_t)p;   /* one address space: the device uses the same address */
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!pFlags || !p)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup(p, &in);
    if (in.kind != NPU_MEM_HOST)
        return CUDA_ERROR_INVALID_VALUE;
    *pFlags = in.flags;
    return CUDA_SUCCESS;
}

static CUresult host_register(void *p, size_t bytesize, unsigned int flags)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!p || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & ~(unsigned)(CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                            CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY))
        return CUDA_ERROR_INVALID_VALUE;
    if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
        return CUDA_ERROR_NOT_SUPPORTED;   /* no PCIe I/O space to map */
    return drv_map(npu_host_register(p, bytesize, flags));
}

NPU_EXPORT CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags) { NPU_API_SCOPE(__func__); return host_register(p, bytesize, Flags); }
NPU_EXPORT CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags) { NPU_API_SCOPE(__func__); return host_register(p, bytesize, Flags); }

NPU_EXPORT CUresult cuMemHostUnregister(void *p)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_host_unregister(p));
}

/* ------------------------------------------------------------------- copies ---- */
/* Each pair: the legacy-stream entry point and its _ptds/_ptsz twin. */
#define PAIR(plain, pt, proto, impl, ...)                                              \
    NPU_EXPORT CUresult plain proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 0); }                  \
    NPU_EXPORT CUresult pt proto { NPU_API_SCOPE(__func__); return impl(__VA_ARGS__, 1); }

/* A CUdeviceptr argument must name memory the runtime knows (device, managed, or pinned /
 * registered host memory mapped into the device's address space); anything else is
 * CUDA_ERROR_INVALID_VALUE, as on a GPU, instead of a host-side fault in the copy. */
static int dev_ptr_ok(CUdeviceptr p, size_t n)
{
    if (n == 0)
        return 1;
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(p), &in);
    return in.kind != NPU_MEM_UNREGISTERED;
}

static CUresult dtod_sync(CUdeviceptr dst, CUdeviceptr src, size_t n, int pt)
{
    if (!dev_ptr_ok(dst, n) || !dev_ptr_ok(src, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(DPTR(dst), DPTR(src), n, NULL, pt, 0);
}
static CUresult dtod_async(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h, int pt)
{
    if (!dev_ptr_ok(dst, n) || !dev_ptr_ok(src, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(DPTR(dst), DPTR(src), n, h, pt, 1);
}
static CUresult memcpy_sync(CUdeviceptr dst, CUdeviceptr src, size_t n, int pt)
{
    return copy1d(DPTR(dst), DPTR(src), n, NULL, pt, 0);
}
static CUresult memcpy_async(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream h, int pt)
{
    return copy1d(DPTR(dst), DPTR(src), n, h, pt, 1);
}
static CUresult htod_sync(CUdeviceptr dst, const void *src, size_t n, int pt)
{
    if (!dev_ptr_ok(dst, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(DPTR(dst), src, n, NULL, pt, 0);
}
static CUresult dtoh_sync(void *dst, CUdeviceptr src, size_t n, int pt)
{
    if (!dev_ptr_ok(src, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(dst, DPTR(src), n, NULL, pt, 0);
}
static CUresult htod_async(CUdeviceptr dst, const void *src, size_t n, CUstream h, int pt)
{
    if (!dev_ptr_ok(dst, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(DPTR(dst), src, n, h, pt, 1);
}
static CUresult dtoh_async(void *dst, CUdeviceptr src, size_t n, CUstream h, int pt)
{
    if (!dev_ptr_ok(src, n))
        return CUDA_ERROR_INVALID_VALUE;
    return copy1d(dst, DPTR(src), n, h, pt, 1);
}

PAIR(cuMemcpy, cuMemcpy_ptds, (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount),
     memcpy_sync, dst, src, ByteCount)
PAIR(cuMemcpyAsync, cuMemcpyAsync_ptsz,
     (CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream),
     memcpy_async, dst, src, ByteCount, hStream)
PAIR(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds,
     (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount),
     htod_sync, dstDevice, srcHost, ByteCount)
PAIR(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds,
     (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount),
     dtoh_sync, dstHost, srcDevice, ByteCount)
PAIR(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds,
     (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount),
     dtod_sync, dstDevice, srcDevice, ByteCount)
PAIR(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz,
     (CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream),
     htod_async, dstDevice, srcHost, ByteCount, hStream)
PAIR(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz,
     (void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
     dtoh_async, dstHost, srcDevice, ByteCount, hStream)
PAIR(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz,
     (CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream),
     dtod_async, dstDevice, srcDevice, ByteCount, hStream)

/* Peer copies: every device shares the one address space, so they are plain copies once
 * both contexts are checked. */
static CUresult peer_check(CUcontext a, CUcontext b)
{
    DRV_ENTER();
    if (!drv_ctx_valid((drv_ctx_t *)a) || !drv_ctx_valid((drv_ctx_t *)b))
        return CUDA_ERROR_INVALID_CONTEXT;
    return CUDA_SUCCESS;
}
static CUresult peer_sync(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n, int pt)
{
    CUresult r = peer_check(dc, sc);
    return r != CUDA_SUCCESS ? r : copy1d(DPTR(d), DPTR(s), n, NULL, pt, 0);
}
static CUresult peer_async(CUdeviceptr d, CUcontext dc, CUdeviceptr s, CUcontext sc, size_t n,
                           CUstream h, int pt)
{
    CUresult r = peer_check(dc, sc);
    return r != CUDA_SUCCESS ? r : copy1d(DPTR(d), DPTR(s), n, h, pt, 1);
}
PAIR(cuMemcpyPeer, cuMemcpyPeer_ptds,
     (CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
      size_t ByteCount),
     peer_sync, dstDevice, dstContext, srcDevice, srcContext, ByteCount)
PAIR(cuMemcpyPeerAsync, cuMemcpyPeerAsync_ptsz,
     (CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext,
      size_t ByteCount, CUstream hStream),
     peer_async, dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream)

/* CUDA_MEMCPY2D: memory types HOST, DEVICE and UNIFIED (all one address space here);
 * CUDA arrays do not exist on the NPU. */
static CUresult side_of(CUmemorytype t, const void *host, CUdeviceptr dev, CUarray arr,
                        size_t x, size_t y, size_t pitch, const char **base)
{
    const char *p;
    switch (t) {
    case CU_MEMORYTYPE_HOST: p = host; break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: p = DPTR(dev); break;
    case CU_MEMORYTYPE_ARRAY:
        shim_unsupported_once("cuMemcpy2D with CUDA arrays");
        return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    size_t off;
    if (__builtin_mul_overflow(y, pitch, &off) || __builtin_add_overflow(off, x, &off))
        return CUDA_ERROR_INVALID_VALUE;
    *base = p + off;
    return CUDA_SUCCESS;
}

static CUresult memcpy2d(const CUDA_MEMCPY2D *c, CUstream h, int pt, int async)
{
    DRV_ENTER();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    if (c->WidthInBytes == 0 || c->Height == 0)
        return get_stream(h, pt, &(npu_stream_t *){ NULL });
    size_t sp = c->srcPitch ? c->srcPitch : c->WidthInBytes;
    size_t dp = c->dstPitch ? c->dstPitch : c->WidthInBytes;
    if (c->Height > 1 && (sp < c->WidthInBytes || dp < c->WidthInBytes))
        return CUDA_ERROR_INVALID_VALUE;
    const char *src, *dst;
    CUresult r = side_of(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes,
                         c->srcY, sp, &src);
    if (r == CUDA_SUCCESS)
        r = side_of(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes,
                    c->dstY, dp, &dst);
    if (r != CUDA_SUCCESS)
        return r;
    if (c->Height == 1) {
        sp = dp = c->WidthInBytes;
    }
    return copy2d((void *)dst, dp, src, sp, c->WidthInBytes, c->Height, h, pt, async);
}

static CUresult memcpy2d_sync(const CUDA_MEMCPY2D *c, int pt) { return memcpy2d(c, NULL, pt, 0); }
static CUresult memcpy2d_async(const CUDA_MEMCPY2D *c, CUstream h, int pt) { return memcpy2d(c, h, pt, 1); }
PAIR(cuMemcpy2D_v2, cuMemcpy2D_v2_ptds, (const CUDA_MEMCPY2D *pCopy), memcpy2d_sync, pCopy)
PAIR(cuMemcpy2DUnaligned_v2, cuMemcpy2DUnaligned_v2_ptds, (const CUDA_MEMCPY2D *pCopy),
     memcpy2d_sync, pCopy)
PAIR(cuMemcpy2DAsync_v2, cuMemcpy2DAsync_v2_ptsz, (const CUDA_MEMCPY2D *pCopy, CUstream hStream),
     memcpy2d_async, pCopy, hStream)

/* ------------------------------------------------------------------- memset ---- */
typedef struct fill {
    char *dst;
    size_t pitch, width, height;   /* width in elements */
    uint32_t value;
    int esize;
} fill_t;

static npu_status_t run_fill(void *arg)
{
    fill_t *f = arg;
    for (size_t r = 0; r < f->height; r++) {
        char *row = f->dst + r * f->pitch;
        if (f->esize == 2) {
            uint16_t *p = (uint16_t *)row, v = (uint16_t)f->value;
            for (size_t i = 0; i < f->width; i++)
                p[i] = v;
        } else {
            uint32_t *p = (uint32_t *)row, v = f->value;
            for (size_t i = 0; i < f->width; i++)
                p[i] = v;
        }
    }
    return NPU_OK;
}

/* Sets height rows of width elements of esize bytes at pitch bytes. */
static CUresult memset2d(CUdeviceptr dstDevice, size_t pitch, uint32_t value, int esize,
                         size_t width, size_t height, CUstream h, int pt, int async)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (width == 0 || height == 0)
        return CUDA_SUCCESS;
    char *dst = DPTR(dstDevice);
    size_t wbytes;
    if (!dst || ((uintptr_t)dst % (size_t)esize) != 0 ||
        __builtin_mul_overflow(width, (size_t)esize, &wbytes))
        return CUDA_ERROR_INVALID_VALUE;
    if (height == 1)
        pitch = wbytes;
    if (pitch < wbytes || (height > 1 && pitch % (size_t)esize != 0 && esize > 1))
        return CUDA_ERROR_INVALID_VALUE;
    uint32_t v = esize == 1 ? (value & 0xff) : esize == 2 ? (value & 0xffff) : value;
    int bytewise = esize == 1 || (esize == 2 && (v & 0xff) == (v >> 8)) ||
                   (esize == 4 && v == (v & 0xff) * 0x01010101u);
    npu_status_t st;
    if (bytewise) {
        st = npu_memset2d_async(dst, pitch, (int)(v & 0xff), wbytes, height, s);
    } else {
        size_t span;
        if (__builtin_mul_overflow(pitch, height - 1, &span) ||
            __builtin_add_overflow(span, wbytes, &span))
            return CUDA_ERROR_INVALID_VALUE;
        if (npu_mem_check_range(dst, span) != NPU_OK)
            return CUDA_ERROR_INVALID_VALUE;
        fill_t *f = malloc(sizeof *f);
        if (!f)
            return CUDA_ERROR_OUT_OF_MEMORY;
        *f = (fill_t){ dst, pitch, width, height, v, esize };
        st = npu_stream_submit(s, run_fill, free, f);
    }
    return finish(st, s, !async || is_pageable(dst));
}

static CUresult d8(CUdeviceptr d, unsigned char v, size_t n, int pt) { return memset2d(d, 0, v, 1, n, 1, NULL, pt, 0); }
static CUresult d16(CUdeviceptr d, unsigned short v, size_t n, int pt) { return memset2d(d, 0, v, 2, n, 1, NULL, pt, 0); }
static CUresult d32(CUdeviceptr d, unsigned int v, size_t n, int pt) { return memset2d(d, 0, v, 4, n, 1, NULL, pt, 0); }
static CUresult d8a(CUdeviceptr d, unsigned char v, size_t n, CUstream h, int pt) { return memset2d(d, 0, v, 1, n, 1, h, pt, 1); }
static CUresult d16a(CUdeviceptr d, unsigned short v, size_t n, CUstream h, int pt) { return memset2d(d, 0, v, 2, n, 1, h, pt, 1); }
static CUresult d32a(CUdeviceptr d, unsigned int v, size_t n, CUstream h, int pt) { return memset2d(d, 0, v, 4, n, 1, h, pt, 1); }
static CUresult d2d8(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t hgt, int pt) { return memset2d(d, p, v, 1, w, hgt, NULL, pt, 0); }
static CUresult d2d16(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t hgt, int pt) { return memset2d(d, p, v, 2, w, hgt, NULL, pt, 0); }
static CUresult d2d32(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t hgt, int pt) { return memset2d(d, p, v, 4, w, hgt, NULL, pt, 0); }
static CUresult d2d8a(CUdeviceptr d, size_t p, unsigned char v, size_t w, size_t hgt, CUstream h, int pt) { return memset2d(d, p, v, 1, w, hgt, h, pt, 1); }
static CUresult d2d16a(CUdeviceptr d, size_t p, unsigned short v, size_t w, size_t hgt, CUstream h, int pt) { return memset2d(d, p, v, 2, w, hgt, h, pt, 1); }
static CUresult d2d32a(CUdeviceptr d, size_t p, unsigned int v, size_t w, size_t hgt, CUstream h, int pt) { return memset2d(d, p, v, 4, w, hgt, h, pt, 1); }

PAIR(cuMemsetD8_v2, cuMemsetD8_v2_ptds, (CUdeviceptr dstDevice, unsigned char uc, size_t N), d8, dstDevice, uc, N)
PAIR(cuMemsetD16_v2, cuMemsetD16_v2_ptds, (CUdeviceptr dstDevice, unsigned short us, size_t N), d16, dstDevice, us, N)
PAIR(cuMemsetD32_v2, cuMemsetD32_v2_ptds, (CUdeviceptr dstDevice, unsigned int ui, size_t N), d32, dstDevice, ui, N)
PAIR(cuMemsetD8Async, cuMemsetD8Async_ptsz, (CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream), d8a, dstDevice, uc, N, hStream)
PAIR(cuMemsetD16Async, cuMemsetD16Async_ptsz, (CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream), d16a, dstDevice, us, N, hStream)
PAIR(cuMemsetD32Async, cuMemsetD32Async_ptsz, (CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream), d32a, dstDevice, ui, N, hStream)
PAIR(cuMemsetD2D8_v2, cuMemsetD2D8_v2_ptds, (CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height), d2d8, dstDevice, dstPitch, uc, Width, Height)
PAIR(cuMemsetD2D16_v2, cuMemsetD2D16_v2_ptds, (CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height), d2d16, dstDevice, dstPitch, us, Width, Height)
PAIR(cuMemsetD2D32_v2, cuMemsetD2D32_v2_ptds, (CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height), d2d32, dstDevice, dstPitch, ui, Width, Height)
PAIR(cuMemsetD2D8Async, cuMemsetD2D8Async_ptsz, (CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream), d2d8a, dstDevice, dstPitch, uc, Width, Height, hStream)
PAIR(cuMemsetD2D16Async, cuMemsetD2D16Async_ptsz, (CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream), d2d16a, dstDevice, dstPitch, us, Width, Height, hStream)
PAIR(cuMemsetD2D32Async, cuMemsetD2D32Async_ptsz, (CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream), d2d32a, dstDevice, dstPitch, ui, Width, Height, hStream)

/* ------------------------------------------------------- pointer attributes ---- */
/* One attribute of a pointer. known: whether the runtime knows the memory. Unknown memory
 * gives CUDA_ERROR_INVALID_VALUE here; cuPointerGetAttributes turns that into zeros. */
static CUresult ptr_attr(void *data, CUpointer_attribute a, CUdeviceptr ptr,
                         const npu_ptr_info_t *in)
{
    int known = in->kind != NPU_MEM_UNREGISTERED;
    int dev = in->device >= 0 ? in->device : npu_device_current();
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUcontext *)data = (CUcontext)drv_ctx_primary(dev);
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUmemorytype *)data = in->kind == NPU_MEM_HOST ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = ptr;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
        if (in->kind != NPU_MEM_HOST && in->kind != NPU_MEM_MANAGED) return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = DPTR(ptr);
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:   /* synchronous copies and sets always synchronize */
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = 1;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned long long *)data = (unsigned long long)(uintptr_t)in->base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = in->kind == NPU_MEM_MANAGED;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = dev;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
    case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUdeviceptr *)data = (CUdeviceptr)(uintptr_t)in->base;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(size_t *)data = in->size;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPED:
        *(int *)data = known;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned long long *)data = CU_MEM_HANDLE_TYPE_NONE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(int *)data = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
        /* The runtime does not say which pool an allocation came from. */
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(CUmemoryPool *)data = NULL;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
        /* Only cuMemMap'ed virtual memory has these; none exists here. */
        if (!known) return CUDA_ERROR_INVALID_VALUE;
        *(unsigned long long *)data = 0;
        return CUDA_SUCCESS;
    case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

NPU_EXPORT CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!data || !ptr)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(ptr), &in);
    return ptr_attr(data, attribute, ptr, &in);
}

/* Size of each attribute's value, for zeroing the ones an unknown pointer has none of. */
static size_t attr_size(CUpointer_attribute a)
{
    switch (a) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: return sizeof(CUcontext);
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: return sizeof(CUmemorytype);
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: return sizeof(CUdeviceptr);
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: return sizeof(void *);
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: return sizeof(size_t);
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
    case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
    case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
    case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID: return sizeof(unsigned long long);
    default: return sizeof(int);
    }
}

/* Unlike cuPointerGetAttribute, an unknown pointer is not an error: its attributes read as
 * zero (DEVICE_ORDINAL as -2, as CUDA documents). */
NPU_EXPORT CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute *attributes,
                                           void **data, CUdeviceptr ptr)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (numAttributes == 0 || !attributes || !data)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(ptr), &in);
    for (unsigned i = 0; i < numAttributes; i++) {
        if (!data[i])
            continue;
        CUpointer_attribute a = attributes[i];
        if ((int)a < CU_POINTER_ATTRIBUTE_CONTEXT || (int)a > CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE)
            return CUDA_ERROR_INVALID_VALUE;
        if (a == CU_POINTER_ATTRIBUTE_P2P_TOKENS)
            return CUDA_ERROR_NOT_SUPPORTED;
        CUresult r = ptr_attr(data[i], a, ptr, &in);
        if (r == CUDA_ERROR_INVALID_VALUE) {
            memset(data[i], 0, attr_size(a));
            if (a == CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
                *(int *)data[i] = -2;
        } else if (r != CUDA_SUCCESS) {
            return r;
        }
    }
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!value || !ptr)
        return CUDA_ERROR_INVALID_VALUE;
    if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
        return CUDA_ERROR_INVALID_VALUE;
    npu_ptr_info_t in;
    npu_mem_lookup(DPTR(ptr), &in);
    if (in.kind != NPU_MEM_DEVICE && in.kind != NPU_MEM_MANAGED)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;   /* synchronous operations already synchronize (see SYNC_MEMOPS) */
}

/* ------------------------------------------------------- stream-ordered pools ---- */
/* The device's current pool is the runtime's (cudaDeviceGetMemPool / SetMemPool), so both
 * APIs allocate from the same pool. */
static npu_pool_t *current_pool(int dev)
{
    cudaMemPool_t p = NULL;
    int saved = npu_device_current();
    if (saved != dev)
        npu_device_set_current(dev);
    cudaError_t e = cudaDeviceGetMemPool(&p, dev);
    if (saved != dev)
        npu_device_set_current(saved);
    if (e == cudaSuccess && p && npu_pool_valid((npu_pool_t *)p))
        return (npu_pool_t *)p;
    return npu_pool_default(dev);
}

static CUresult alloc_async(CUdeviceptr *dptr, size_t bytesize, npu_pool_t *pool, CUstream h, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr || bytesize == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!pool)
        pool = current_pool(npu_stream_device(s));
    if (!pool || !npu_pool_valid(pool))
        return CUDA_ERROR_INVALID_VALUE;
    void *p = NULL;
    npu_status_t st = npu_pool_alloc_async(pool, bytesize, s, &p);
    if (st == NPU_OK)
        *dptr = (CUdeviceptr)(uintptr_t)p;
    return drv_map(st);
}

static CUresult alloc_async_default(CUdeviceptr *dptr, size_t bytesize, CUstream h, int pt)
{
    return alloc_async(dptr, bytesize, NULL, h, pt);
}

static CUresult alloc_from_pool(CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream h, int pt)
{
    if (!pool || !npu_pool_valid((npu_pool_t *)pool))
        return CUDA_ERROR_INVALID_VALUE;
    return alloc_async(dptr, bytesize, (npu_pool_t *)pool, h, pt);
}

static CUresult free_async(CUdeviceptr dptr, CUstream h, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!dptr)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_pool_free_async(DPTR(dptr), s));
}

PAIR(cuMemAllocAsync, cuMemAllocAsync_ptsz, (CUdeviceptr *dptr, size_t bytesize, CUstream hStream),
     alloc_async_default, dptr, bytesize, hStream)
PAIR(cuMemAllocFromPoolAsync, cuMemAllocFromPoolAsync_ptsz,
     (CUdeviceptr *dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream),
     alloc_from_pool, dptr, bytesize, pool, hStream)
PAIR(cuMemFreeAsync, cuMemFreeAsync_ptsz, (CUdeviceptr dptr, CUstream hStream), free_async, dptr, hStream)

NPU_EXPORT CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool_out, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool_out)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev < 0 || dev >= npu_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    npu_pool_t *p = npu_pool_default(dev);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *pool_out = (CUmemoryPool)p;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool)
        return CUDA_ERROR_INVALID_VALUE;
    if (dev < 0 || dev >= npu_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    npu_pool_t *p = current_pool(dev);
    if (!p)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *pool = (CUmemoryPool)p;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (dev < 0 || dev >= npu_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pool || !npu_pool_valid((npu_pool_t *)pool) || npu_pool_device((npu_pool_t *)pool) != dev)
        return CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = cudaDeviceSetMemPool(dev, (cudaMemPool_t)pool);
    return e == cudaSuccess ? CUDA_SUCCESS : e == cudaErrorNotSupported ? CUDA_ERROR_NOT_SUPPORTED
                                                                        : CUDA_ERROR_INVALID_VALUE;
}

NPU_EXPORT CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *poolProps)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool || !poolProps)
        return CUDA_ERROR_INVALID_VALUE;
    if (poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
        return poolProps->location.type == CU_MEM_LOCATION_TYPE_HOST ||
               poolProps->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA
                   ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
    if (poolProps->location.id < 0 || poolProps->location.id >= npu_device_count())
        return CUDA_ERROR_INVALID_DEVICE;
    if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
        shim_unsupported_once("cuMemPoolCreate with shareable handle types");
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    npu_pool_t *p = NULL;
    npu_status_t st = npu_pool_create(poolProps->location.id, &p);
    if (st == NPU_OK)
        *pool = (CUmemoryPool)p;
    return drv_map(st);
}

NPU_EXPORT CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool || !npu_pool_valid((npu_pool_t *)pool))
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_pool_destroy((npu_pool_t *)pool));
}

NPU_EXPORT CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool || !npu_pool_valid((npu_pool_t *)pool))
        return CUDA_ERROR_INVALID_VALUE;
    return drv_map(npu_pool_trim((npu_pool_t *)pool, minBytesToKeep));
}

static int pool_attr_is_int(CUmemPool_attribute a)
{
    return a == CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES ||
           a == CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC ||
           a == CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES;
}

NPU_EXPORT CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool || !value || !npu_pool_valid((npu_pool_t *)pool) ||
        attr < CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES || attr > CU_MEMPOOL_ATTR_USED_MEM_HIGH)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t v = 0;
    npu_status_t st = npu_pool_get_attr((npu_pool_t *)pool, (int)attr, &v);
    if (st == NPU_OK) {
        if (pool_attr_is_int(attr))
            *(int *)value = (int)v;
        else
            *(cuuint64_t *)value = v;
    }
    return drv_map(st);
}

NPU_EXPORT CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void *value)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pool || !value || !npu_pool_valid((npu_pool_t *)pool) ||
        attr < CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES || attr > CU_MEMPOOL_ATTR_USED_MEM_HIGH)
        return CUDA_ERROR_INVALID_VALUE;
    uint64_t v = pool_attr_is_int(attr) ? (uint64_t)(*(int *)value != 0) : *(cuuint64_t *)value;
    return drv_map(npu_pool_set_attr((npu_pool_t *)pool, (int)attr, v));
}

/* ------------------------------------------------------ prefetch and advice ---- */
/* Managed, device and (the device reports pageable memory access) plain host memory all live
 * in the one host address space every emulated device executes in: a prefetch has no
 * migration to perform and advice has no page placement to steer. The arguments are still
 * checked as CUDA checks them, and a prefetch is ordered in its stream like any work. */
static CUresult check_location(CUmemLocation loc)
{
    switch (loc.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE:
        return loc.id >= 0 && loc.id < npu_device_count() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
    case CU_MEM_LOCATION_TYPE_HOST:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA:
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
        return CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

static CUresult check_range(CUdeviceptr p, size_t count)
{
    if (!p || count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    return npu_mem_check_range(DPTR(p), count) == NPU_OK ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult prefetch(CUdeviceptr p, size_t count, CUmemLocation loc, unsigned int flags, CUstream h, int pt)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r == CUDA_SUCCESS)
        r = check_range(p, count);
    if (r == CUDA_SUCCESS && flags != 0)
        r = CUDA_ERROR_INVALID_VALUE;
    return r == CUDA_SUCCESS ? check_location(loc) : r;
}

static CUresult prefetch_dev(CUdeviceptr p, size_t count, CUdevice dst, CUstream h, int pt)
{
    CUmemLocation loc = { dst == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE, dst };
    return prefetch(p, count, loc, 0, h, pt);
}

PAIR(cuMemPrefetchAsync_v2, cuMemPrefetchAsync_v2_ptsz,
     (CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned int flags, CUstream hStream),
     prefetch, devPtr, count, location, flags, hStream)
PAIR(cuMemPrefetchAsync, cuMemPrefetchAsync_ptsz,
     (CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream),
     prefetch_dev, devPtr, count, dstDevice, hStream)

static CUresult advise(CUdeviceptr p, size_t count, CUmem_advise advice, CUmemLocation loc)
{
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    CUresult r = check_range(p, count);
    if (r != CUDA_SUCCESS)
        return r;
    if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY || advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
        return CUDA_ERROR_INVALID_VALUE;
    if (advice == CU_MEM_ADVISE_SET_READ_MOSTLY || advice == CU_MEM_ADVISE_UNSET_READ_MOSTLY)
        return CUDA_SUCCESS;           /* the location is ignored for these, as documented */
    return check_location(loc);
}

NPU_EXPORT CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)
{
    NPU_API_SCOPE(__func__);
    return advise(devPtr, count, advice, location);
}

NPU_EXPORT CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)
{
    NPU_API_SCOPE(__func__);
    CUmemLocation loc = { device == CU_DEVICE_CPU ? CU_MEM_LOCATION_TYPE_HOST : CU_MEM_LOCATION_TYPE_DEVICE, device };
    return advise(devPtr, count, advice, loc);
}

/* ------------------------------------------------------------------ 3D copies ---- */
/* CUDA_MEMCPY3D between linear memories (host, device, unified): one 2D copy per plane, all
 * on the same stream, so the planes complete in order; CUDA arrays do not exist here. */
static CUresult memcpy3d(const CUDA_MEMCPY3D *c, CUstream h, int pt, int async)
{
    npu_stream_t *s;
    CUresult r = get_stream(h, pt, &s);
    if (r != CUDA_SUCCESS)
        return r;
    if (!c || c->reserved0 || c->reserved1 || c->srcLOD || c->dstLOD)
        return CUDA_ERROR_INVALID_VALUE;
    size_t w = c->WidthInBytes, hgt = c->Height, d = c->Depth;
    if (w == 0 || hgt == 0 || d == 0)
        return CUDA_SUCCESS;
    size_t sp = c->srcPitch ? c->srcPitch : w, dp = c->dstPitch ? c->dstPitch : w;
    size_t sh = c->srcHeight ? c->srcHeight : hgt, dh = c->dstHeight ? c->dstHeight : hgt;
    if ((hgt > 1 || d > 1) && (sp < w || dp < w))
        return CUDA_ERROR_INVALID_VALUE;
    if (d > 1 && (sh < hgt || dh < hgt))
        return CUDA_ERROR_INVALID_VALUE;
    size_t splane, dplane;
    if (__builtin_mul_overflow(sp, sh, &splane) || __builtin_mul_overflow(dp, dh, &dplane))
        return CUDA_ERROR_INVALID_VALUE;
    const char *src, *dst;
    r = side_of(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes,
                c->srcY + (size_t)c->srcZ * sh, sp, &src);
    if (r == CUDA_SUCCESS)
        r = side_of(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes,
                    c->dstY + (size_t)c->dstZ * dh, dp, &dst);
    if (r != CUDA_SUCCESS)
        return r;
    if (hgt == 1)
        sp = dp = w;
    npu_status_t st = NPU_OK;
    for (size_t z = 0; z < d && st == NPU_OK; z++)
        st = npu_memcpy2d_async((void *)(dst + z * dplane), dp, src + z * splane, sp, w, hgt, s);
    return finish(st, s, !async || is_pageable(dst) || is_pageable(src));
}

static CUresult memcpy3d_sync(const CUDA_MEMCPY3D *c, int pt) { return memcpy3d(c, NULL, pt, 0); }
static CUresult memcpy3d_async(const CUDA_MEMCPY3D *c, CUstream h, int pt) { return memcpy3d(c, h, pt, 1); }
PAIR(cuMemcpy3D_v2, cuMemcpy3D_v2_ptds, (const CUDA_MEMCPY3D *pCopy), memcpy3d_sync, pCopy)
PAIR(cuMemcpy3DAsync_v2, cuMemcpy3DAsync_v2_ptsz, (const CUDA_MEMCPY3D *pCopy, CUstream hStream),
     memcpy3d_async, pCopy, hStream)
