/*
 * driver_internal.h - hidden state shared by the driver API files (driver_*.c): contexts,
 * the "initialised" gate, status mapping, stream translation, and the module/function
 * handle registries used by the launch and proc files. Nothing here is exported.
 *
 * Every driver_*.c includes this header first: it defines __CUDA_API_VERSION_INTERNAL so
 * that cuda.h declares each entry point under its real exported name (cuMemAlloc_v2,
 * cuMemcpyHtoD_v2_ptds, the old cuCtxCreate ...), as libcuda itself is built.
 *
 * Thread-safety: every function is callable from any host thread.
 */
#ifndef DRIVER_INTERNAL_H
#define DRIVER_INTERNAL_H
#ifndef __CUDA_API_VERSION_INTERNAL
#define __CUDA_API_VERSION_INTERNAL 1
#endif
#include "interpose/common/shim.h"
#include <cudaProfiler.h>
#include "npu_runtime/kernel/npu_kernel.h"

#define DRV_MAX_DEVICES 64

/* ------------------------------------------------------------------ contexts ---- */
/* A CUcontext points at one of these. Primary contexts (one per device) live in a static
 * table for the whole process; cuCtxCreate contexts are malloc'ed and registered, and a
 * destroyed one is unregistered, so a stale handle is recognised (drv_ctx_valid) instead of
 * being dereferenced. All contexts of a device share its memory, streams and modules. */
typedef struct drv_ctx {
    uint32_t magic;              /* DRV_CTX_MAGIC while live */
    int device;
    int primary;
    unsigned flags;              /* CU_CTX_* scheduling / map-host / lmem flags */
    int refcount;                /* primary: cuDevicePrimaryCtxRetain count */
    unsigned long long id;       /* cuCtxGetId: unique per process, never reused */
    size_t limit[8];             /* indexed by CUlimit */
    int cache_config;            /* CUfunc_cache */
} drv_ctx_t;
#define DRV_CTX_MAGIC 0x4e505543u /* "NPUC" */

/* 1 when ctx is a live context handle (primary or created); safe on garbage pointers. */
int drv_ctx_valid(const drv_ctx_t *ctx);
/* The primary context record of a visible device (NULL for a bad ordinal). */
drv_ctx_t *drv_ctx_primary(int dev);
/* This thread's current context: the top of its stack, or (runtime interop) the primary
 * context of the runtime's current device when the thread never bound one through the
 * driver API. NULL when the thread explicitly has none. May be a destroyed handle. */
drv_ctx_t *drv_ctx_current(void);
/* Context of a stream created through either API (the primary one when unknown). */
drv_ctx_t *drv_stream_ctx(npu_stream_t *s);
void drv_stream_ctx_set(npu_stream_t *s, drv_ctx_t *ctx);
void drv_stream_ctx_forget(npu_stream_t *s);

/* ------------------------------------------------------------ entry and exit ---- */
/* CUDA_SUCCESS once the driver is initialised: cuInit succeeded, or the runtime API has
 * started the NPU runtime in this process (the CUDA runtime calls cuInit itself). */
CUresult drv_check_init(void);
/* drv_check_init, then the current context must exist and be live: CUDA_ERROR_INVALID_CONTEXT
 * (CONTEXT_IS_DESTROYED for a destroyed one) otherwise, and must not have faulted: its sticky
 * error otherwise. *ctx receives it. */
CUresult drv_enter_ctx(drv_ctx_t **ctx);
#define DRV_ENTER() do { CUresult _r = drv_check_init(); if (_r != CUDA_SUCCESS) return _r; } while (0)
#define DRV_ENTER_CTX(c) do { CUresult _r = drv_enter_ctx(&(c)); if (_r != CUDA_SUCCESS) return _r; } while (0)

/* npu status -> CUresult; CUDA_SUCCESS becomes the device's sticky error if it has one
 * (a faulted context keeps failing until it is reset, as CUDA documents). */
CUresult drv_result(npu_status_t st, int dev);
static inline CUresult drv_map(npu_status_t st) { return shim_cu_result(st); }

/* CUstream -> runtime stream (0, CU_STREAM_LEGACY, CU_STREAM_PER_THREAD as the runtime maps
 * them; ptsz: the _ptsz/_ptds entry point, where 0 means the per-thread stream). NULL when the
 * handle is not a live stream. */
static inline npu_stream_t *drv_stream(CUstream s, int ptsz)
{
    return shim_stream((cudaStream_t)s, ptsz);
}

/* ------------------------------------------------------------ module handles ---- */
/* driver_module.c: a CUfunction or CUkernel handle -> the compiled function (resolving it
 * lazily); NPU_EHANDLE for an unknown, unloaded or garbage handle. */
npu_status_t drv_func_resolve(CUfunction f, npu_kfunc_t **out);

/* driver_ctx.c: device attribute, shared with cuDeviceGetProperties / occupancy. */
CUresult drv_device_attr(int *v, int attr, int dev);

/* dark_api.c: the private table cuGetExportTable hands out for a UUID (NULL: none). */
const void *drv_export_table(const unsigned char uuid[16]);
/* dark_api.c: calls the context-local-storage destructors of a context being destroyed or
 * reset (primary), and forgets its entries. */
void drv_cls_context_gone(drv_ctx_t *c);

#endif
