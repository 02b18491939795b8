/*
 * driver_ctx.c - CUDA driver API: initialisation, versions, devices, primary and created
 * contexts, the per-thread context stack, error names and strings.
 *
 * DESIGN
 *  One state with the runtime API: CUdevice is the visible ordinal; the primary context of
 *  device d is the context the runtime API uses (the runtime here keeps no context of its
 *  own, so a thread that never bound a context through the driver API sees its runtime
 *  device's primary context as current, which is what a real driver reports once cudart has
 *  initialised that thread). Binding a context (cuCtxSetCurrent/Push/Pop/Create) also sets
 *  the runtime's current device (npu_device_set_current), so runtime calls follow it.
 *  Contexts created with cuCtxCreate map to the same device, memory, streams and modules as
 *  its primary context (an accepted simplification: the NPU has one address space per
 *  device).
 *
 *  Locks: ctx_lock guards the registry of created contexts and every context record's
 *  mutable fields (refcount, flags). Records are never freed: a destroyed context keeps its
 *  record with magic cleared, so a stale handle on another thread's stack or passed back by
 *  the user is answered with CUDA_ERROR_CONTEXT_IS_DESTROYED / CUDA_ERROR_INVALID_CONTEXT and
 *  never aliases a newer context. The context stack is thread-local (no lock).
 *
 *  Primary contexts are never torn down when their retain count reaches zero: the runtime API
 *  holds them implicitly (as cudart does on a GPU). cuDevicePrimaryCtxReset is the explicit
 *  teardown: it resets the device like cudaDeviceReset (memory, streams, sticky error).
 *
 *  Device attributes come from the runtime API's cudaDeviceGetAttribute (the two enums share
 *  their values), so both APIs always agree; the few driver-only attributes are answered here.
 */
#include "interpose/driver/driver_internal.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* ----------------------------------------------------------------- init gate ---- */
static atomic_int drv_inited;

/* Optional runtime hook: reports whether the NPU runtime has been started (by the runtime
 * API, which on a GPU calls cuInit itself). Until npu_runtime provides it, any started use of
 * the library counts as initialised, so runtime/driver interop never sees NOT_INITIALIZED. */
extern int npu_runtime_started(void) __attribute__((weak, visibility("hidden")));

CUresult drv_check_init(void)
{
    if (__builtin_expect(npu_forked(), 0))    /* see device.c: CUDA's answer in a forked child */
        return CUDA_ERROR_NOT_INITIALIZED;
    if (atomic_load_explicit(&drv_inited, memory_order_acquire))
        return CUDA_SUCCESS;
    if (npu_runtime_started && !npu_runtime_started())
        return CUDA_ERROR_NOT_INITIALIZED;
    npu_status_t st = npu_init();
    if (st != NPU_OK)
        return drv_map(st);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuInit(unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    npu_status_t st = npu_init();
    if (st != NPU_OK)
        return drv_map(st);
    atomic_store_explicit(&drv_inited, 1, memory_order_release);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDriverGetVersion(int *driverVersion)
{
    NPU_API_SCOPE(__func__);
    if (!driverVersion)
        return CUDA_ERROR_INVALID_VALUE;
    *driverVersion = 13000;
    return CUDA_SUCCESS;
}

CUresult drv_result(npu_status_t st, int dev)
{
    if (st == NPU_OK && dev >= 0 && dev < npu_device_count()) {
        npu_status_t sticky = npu_device_error(dev);
        if (sticky != NPU_OK)
            st = sticky;
    }
    npu_obs_api_error((int)drv_map(st));  /* observability (npu_obs.h) */
    return drv_map(st);
}

static CUresult from_cuda(cudaError_t e);

static int dev_valid(CUdevice d)
{
    return d >= 0 && d < npu_device_count() && d < DRV_MAX_DEVICES;
}

/* ------------------------------------------------------------------- devices ---- */
NPU_EXPORT CUresult cuDeviceGetCount(int *count)
{
    NPU_API_SCOPE(__func__);
    if (!count)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER();
    *count = npu_device_count();
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(ordinal))
        return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st == NPU_OK)
        snprintf(name, (size_t)len, "%s", p.name);
    return drv_map(st);
}

NPU_EXPORT CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st == NPU_OK)
        *bytes = p.total_mem;
    return drv_map(st);
}

/* The CUDA 2.0 ABI reports a 32-bit size: saturate rather than wrap. */
NPU_EXPORT CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    size_t b = 0;
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cuDeviceTotalMem_v2(&b, dev);
    if (r == CUDA_SUCCESS)
        *bytes = b > UINT_MAX ? UINT_MAX : (unsigned int)b;
    return r;
}

static CUresult get_uuid(CUuuid *uuid, CUdevice dev)
{
    DRV_ENTER();
    if (!uuid)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st == NPU_OK)
        memcpy(uuid->bytes, p.uuid, sizeof uuid->bytes);
    return drv_map(st);
}

NPU_EXPORT CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) { NPU_API_SCOPE(__func__); return get_uuid(uuid, dev); }
NPU_EXPORT CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) { NPU_API_SCOPE(__func__); return get_uuid(uuid, dev); }

NPU_EXPORT CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    return CUDA_ERROR_NOT_SUPPORTED;   /* LUIDs exist on Windows only, as on a GPU */
}

/* Driver-only attributes first; the rest are the runtime's cudaDeviceGetAttribute values. */
CUresult drv_device_attr(int *v, int attr, int dev)
{
    switch (attr) {
    case CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER: *v = 1; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:   /* cuMem{Create,Map}: absent */
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
    case CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED:          /* cuTensorMapEncode*: absent */
    case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK:
    case CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH:
    case CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED:
        *v = 0;
        return CUDA_SUCCESS;
    default:
        break;
    }
    if (attr <= 0 || attr >= CU_DEVICE_ATTRIBUTE_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    /* The runtime reports a faulted device's sticky error even after filling the value:
     * a value written means the attribute exists. */
    int val = INT_MIN;
    cudaError_t e = cudaDeviceGetAttribute(&val, (enum cudaDeviceAttr)attr, dev);
    if (val == INT_MIN && e != cudaSuccess)
        return e == cudaErrorInvalidDevice ? CUDA_ERROR_INVALID_DEVICE : CUDA_ERROR_INVALID_VALUE;
    *v = val;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pi)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    return drv_device_attr(pi, (int)attrib, dev);
}

NPU_EXPORT CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st == NPU_OK) {
        *major = p.compute_major;
        *minor = p.compute_minor;
    }
    return drv_map(st);
}

NPU_EXPORT CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!prop)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st != NPU_OK)
        return drv_map(st);
    memset(prop, 0, sizeof *prop);
    prop->maxThreadsPerBlock = p.max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = p.max_block_dim[i];
        prop->maxGridSize[i] = p.max_grid_dim[i];
    }
    prop->sharedMemPerBlock = (int)p.shared_mem_per_block;
    prop->totalConstantMemory = (int)p.total_const_mem;
    prop->SIMDWidth = p.warp_size;
    prop->memPitch = INT_MAX;
    prop->regsPerBlock = p.regs_per_block;
    prop->clockRate = p.clock_rate_khz;
    prop->textureAlign = 512;
    return CUDA_SUCCESS;
}

static int parse_hex(const char **s, unsigned *out)
{
    char *end;
    unsigned long v = strtoul(*s, &end, 16);
    if (end == *s || v > 0xffffffffUL)
        return 0;
    *out = (unsigned)v;
    *s = end;
    return 1;
}

NPU_EXPORT CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pciBusId || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    npu_device_props_t p;
    npu_status_t st = npu_device_get_props(dev, &p);
    if (st == NPU_OK)
        snprintf(pciBusId, (size_t)len, "%04x:%02x:%02x.0", (unsigned)p.pci_domain_id,
                 (unsigned)p.pci_bus_id, (unsigned)p.pci_device_id);
    return drv_map(st);
}

/* [domain:]bus:device[.function], hexadecimal, as cudaDeviceGetByPCIBusId accepts. */
NPU_EXPORT CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!dev || !pciBusId)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned f[3], n = 0, fn = 0;
    const char *s = pciBusId;
    while (n < 3 && parse_hex(&s, &f[n])) {
        n++;
        if (*s != ':')
            break;
        s++;
    }
    if (n < 2)
        return CUDA_ERROR_INVALID_VALUE;
    if (*s == '.') {
        s++;
        if (!parse_hex(&s, &fn))
            return CUDA_ERROR_INVALID_VALUE;
    }
    if (*s != '\0')
        return CUDA_ERROR_INVALID_VALUE;
    unsigned domain = n == 3 ? f[0] : 0, bus = f[n - 2], slot = f[n - 1];
    for (int i = 0; i < npu_device_count(); i++) {
        npu_device_props_t p;
        if (npu_device_get_props(i, &p) == NPU_OK && (unsigned)p.pci_domain_id == domain &&
            (unsigned)p.pci_bus_id == bus && (unsigned)p.pci_device_id == slot && fn == 0) {
            *dev = i;
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_INVALID_DEVICE;
}

/* Emulated devices share the host address space: each reaches every other one. */
NPU_EXPORT CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!canAccessPeer)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev) || !dev_valid(peerDev))
        return CUDA_ERROR_INVALID_DEVICE;
    *canAccessPeer = dev != peerDev;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib,
                                            CUdevice srcDevice, CUdevice dstDevice)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(srcDevice) || !dev_valid(dstDevice) || srcDevice == dstDevice)
        return CUDA_ERROR_INVALID_DEVICE;
    switch (attrib) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK: *value = 0; break;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED: *value = 1; break;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: *value = 1; break;
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED: *value = 0; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------------ contexts ---- */
typedef struct ctx_entry {
    drv_ctx_t *ctx;
    UT_hash_handle hh;
} ctx_entry_t;

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static ctx_entry_t *ctx_registry;                  /* every created context, ever; ctx_lock */
static drv_ctx_t primary_ctx[DRV_MAX_DEVICES];     /* ctx_lock for refcount/flags */
static atomic_ullong next_ctx_id = 1;

#define CTX_STACK_MAX 128
static __thread drv_ctx_t *t_stack[CTX_STACK_MAX];
static __thread int t_depth;
static __thread int t_bound;   /* the thread bound/unbound a context through the driver API */

static void ctx_init_record(drv_ctx_t *c, int dev, int primary, unsigned flags)
{
    memset(c, 0, sizeof *c);
    c->device = dev;
    c->primary = primary;
    c->flags = flags;
    c->id = atomic_fetch_add(&next_ctx_id, 1);
    c->cache_config = CU_FUNC_CACHE_PREFER_NONE;
    atomic_thread_fence(memory_order_release);
    c->magic = DRV_CTX_MAGIC;
}

drv_ctx_t *drv_ctx_primary(int dev)
{
    if (!dev_valid(dev))
        return NULL;
    drv_ctx_t *c = &primary_ctx[dev];
    if (__atomic_load_n(&c->magic, __ATOMIC_ACQUIRE) != DRV_CTX_MAGIC) {
        pthread_mutex_lock(&ctx_lock);
        if (c->magic != DRV_CTX_MAGIC)
            ctx_init_record(c, dev, 1, 0);
        pthread_mutex_unlock(&ctx_lock);
    }
    return c;
}

static int is_primary_ptr(const drv_ctx_t *c)
{
    uintptr_t p = (uintptr_t)c, b = (uintptr_t)primary_ctx;
    return p >= b && p < b + sizeof primary_ctx && (p - b) % sizeof(drv_ctx_t) == 0;
}

/* 1: live; 0: never a context; -1: a destroyed context. */
static int ctx_state(const drv_ctx_t *c)
{
    if (!c)
        return 0;
    if (is_primary_ptr(c))
        return __atomic_load_n(&c->magic, __ATOMIC_ACQUIRE) == DRV_CTX_MAGIC ? 1 : 0;
    ctx_entry_t *e;
    pthread_mutex_lock(&ctx_lock);
    HASH_FIND_PTR(ctx_registry, &c, e);
    int st = e ? (c->magic == DRV_CTX_MAGIC ? 1 : -1) : 0;
    pthread_mutex_unlock(&ctx_lock);
    return st;
}

int drv_ctx_valid(const drv_ctx_t *ctx)
{
    return ctx_state(ctx) == 1;
}

drv_ctx_t *drv_ctx_current(void)
{
    if (t_depth > 0) {
        /* cudaSetDevice to another device binds that device's primary context in place of
         * the top of the stack, as cudart does on a GPU (records are never freed, so reading
         * a destroyed one's device is safe). */
        drv_ctx_t *top = t_stack[t_depth - 1];
        int dev = npu_device_current();
        if (top->device != dev && dev_valid(dev))
            t_stack[t_depth - 1] = top = drv_ctx_primary(dev);
        return top;
    }
    if (t_bound)
        return NULL;
    return drv_ctx_primary(npu_device_current());
}

CUresult drv_enter_ctx(drv_ctx_t **out)
{
    DRV_ENTER();
    drv_ctx_t *c = drv_ctx_current();
    int st = ctx_state(c);
    if (st == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (st < 0)
        return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    /* A faulted context (sticky error) fails every call made in it until it is reset. */
    npu_status_t sticky = npu_device_error(c->device);
    if (sticky != NPU_OK)
        return drv_map(sticky);
    *out = c;
    return CUDA_SUCCESS;
}

/* Makes the runtime follow the thread's bound context. */
static void follow(drv_ctx_t *c)
{
    if (c && ctx_state(c) == 1)
        npu_device_set_current(c->device);
}

static CUresult check_ctx_flags(unsigned flags)
{
    unsigned sched = flags & CU_CTX_SCHED_MASK;
    if (flags & ~(unsigned)CU_CTX_FLAGS_MASK)
        return CUDA_ERROR_INVALID_VALUE;
    if (sched != 0 && sched != CU_CTX_SCHED_SPIN && sched != CU_CTX_SCHED_YIELD &&
        sched != CU_CTX_SCHED_BLOCKING_SYNC)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

static CUresult ctx_create(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    DRV_ENTER();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    CUresult r = check_ctx_flags(flags);
    if (r != CUDA_SUCCESS)
        return r;
    if (t_depth >= CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    drv_ctx_t *c = malloc(sizeof *c);
    ctx_entry_t *e = malloc(sizeof *e);
    if (!c || !e) {
        free(c);
        free(e);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    ctx_init_record(c, dev, 0, flags);
    e->ctx = c;
    pthread_mutex_lock(&ctx_lock);
    HASH_ADD_PTR(ctx_registry, ctx, e);
    pthread_mutex_unlock(&ctx_lock);
    t_stack[t_depth++] = c;
    t_bound = 1;
    follow(c);
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    return ctx_create(pctx, flags, dev);
}

NPU_EXPORT CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    return ctx_create(pctx, flags, dev);
}

/* Execution affinity (SM count limits) partitions nothing on the NPU: refuse it. */
NPU_EXPORT CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *paramsArray,
                                   int numParams, unsigned int flags, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    if (numParams < 0 || (numParams > 0 && !paramsArray))
        return CUDA_ERROR_INVALID_VALUE;
    if (numParams > 0)
        return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
    return ctx_create(pctx, flags, dev);
}

NPU_EXPORT CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                   unsigned int flags, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    if (ctxCreateParams) {
        if (ctxCreateParams->numExecAffinityParams > 0)
            return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
        if (ctxCreateParams->cigParams)
            return CUDA_ERROR_NOT_SUPPORTED;
    }
    return ctx_create(pctx, flags, dev);
}

static CUresult ctx_destroy(CUcontext ctx)
{
    DRV_ENTER();
    drv_ctx_t *c = (drv_ctx_t *)ctx;
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    if (is_primary_ptr(c) || ctx_state(c) != 1)
        return CUDA_ERROR_INVALID_CONTEXT;
    /* Work queued from this context completes before its resources go. */
    npu_device_sync(c->device);
    drv_cls_context_gone(c);    /* run the context-local storage destructors (dark_api.c) */
    pthread_mutex_lock(&ctx_lock);
    c->magic = 0;
    pthread_mutex_unlock(&ctx_lock);
    if (t_depth > 0 && t_stack[t_depth - 1] == c) {
        t_depth--;
        follow(t_depth > 0 ? t_stack[t_depth - 1] : NULL);
    }
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxDestroy(CUcontext ctx) { NPU_API_SCOPE(__func__); return ctx_destroy(ctx); }
NPU_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) { NPU_API_SCOPE(__func__); return ctx_destroy(ctx); }

static CUresult ctx_push(CUcontext ctx)
{
    DRV_ENTER();
    drv_ctx_t *c = (drv_ctx_t *)ctx;
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    if (ctx_state(c) != 1)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (t_depth >= CTX_STACK_MAX)
        return CUDA_ERROR_OUT_OF_MEMORY;
    t_stack[t_depth++] = c;
    t_bound = 1;
    follow(c);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxPushCurrent(CUcontext ctx) { NPU_API_SCOPE(__func__); return ctx_push(ctx); }
NPU_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) { NPU_API_SCOPE(__func__); return ctx_push(ctx); }

static CUresult ctx_pop(CUcontext *pctx)
{
    DRV_ENTER();
    if (t_depth == 0)
        return CUDA_ERROR_INVALID_CONTEXT;
    drv_ctx_current();               /* applies a pending cudaSetDevice rebinding first */
    drv_ctx_t *c = t_stack[--t_depth];
    t_bound = 1;
    if (pctx)
        *pctx = (CUcontext)c;
    follow(t_depth > 0 ? t_stack[t_depth - 1] : NULL);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxPopCurrent(CUcontext *pctx) { NPU_API_SCOPE(__func__); return ctx_pop(pctx); }
NPU_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext *pctx) { NPU_API_SCOPE(__func__); return ctx_pop(pctx); }

NPU_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    drv_ctx_t *c = (drv_ctx_t *)ctx;
    t_bound = 1;
    if (!c) {
        if (t_depth > 0)
            t_depth--;
        follow(t_depth > 0 ? t_stack[t_depth - 1] : NULL);
        return CUDA_SUCCESS;
    }
    if (ctx_state(c) != 1)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (t_depth == 0)
        t_depth = 1;
    t_stack[t_depth - 1] = c;
    follow(c);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxGetCurrent(CUcontext *pctx)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    *pctx = (CUcontext)drv_ctx_current();
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxGetDevice(CUdevice *device)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER_CTX(c);
    *device = c->device;
    return CUDA_SUCCESS;
}

/* CUDA 13: ctx NULL means the current context. */
static CUresult ctx_or_current(CUcontext ctx, drv_ctx_t **out)
{
    if (!ctx)
        return drv_enter_ctx(out);
    DRV_ENTER();
    int st = ctx_state((drv_ctx_t *)ctx);
    if (st != 1)
        return st < 0 ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_ERROR_INVALID_CONTEXT;
    *out = (drv_ctx_t *)ctx;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!device)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS)
        *device = c->device;
    return r;
}

NPU_EXPORT CUresult cuCtxSynchronize(void)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    return drv_result(npu_device_sync(c->device), c->device);
}

NPU_EXPORT CUresult cuCtxSynchronize_v2(CUcontext ctx)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    CUresult r = ctx_or_current(ctx, &c);
    if (r != CUDA_SUCCESS)
        return r;
    return drv_result(npu_device_sync(c->device), c->device);
}

NPU_EXPORT CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS)
        *version = 13000;
    return r;
}

NPU_EXPORT CUresult cuCtxGetFlags(unsigned int *flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER_CTX(c);
    pthread_mutex_lock(&ctx_lock);
    *flags = c->flags;
    pthread_mutex_unlock(&ctx_lock);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxSetFlags(unsigned int flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    CUresult r = check_ctx_flags(flags);
    if (r != CUDA_SUCCESS)
        return r;
    pthread_mutex_lock(&ctx_lock);
    c->flags = flags;
    pthread_mutex_unlock(&ctx_lock);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!ctxId)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = ctx_or_current(ctx, &c);
    if (r == CUDA_SUCCESS)
        *ctxId = c->id;
    return r;
}

NPU_EXPORT CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if (leastPriority)
        *leastPriority = 0;
    if (greatestPriority)
        *greatestPriority = -5;     /* as cudaDeviceGetStreamPriorityRange */
    return CUDA_SUCCESS;
}

/* Limits and the cache preference are per device, shared with the runtime API (all contexts
 * of a device share its state); the runtime call runs on the context's device. */
static CUresult from_cuda(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return CUDA_SUCCESS;
    case cudaErrorUnsupportedLimit: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    case cudaErrorInvalidDevice: return CUDA_ERROR_INVALID_DEVICE;
    case cudaErrorMemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorNotSupported: return CUDA_ERROR_NOT_SUPPORTED;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
}

NPU_EXPORT CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!pvalue)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER_CTX(c);
    if (limit == CU_LIMIT_SHMEM_SIZE || limit == CU_LIMIT_CIG_ENABLED ||
        limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED) {
        /* No CIG contexts exist here. */
        *pvalue = 0;
        return limit == CU_LIMIT_SHMEM_SIZE ? CUDA_ERROR_UNSUPPORTED_LIMIT : CUDA_SUCCESS;
    }
    if ((unsigned)limit > CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    size_t v = 0;
    cudaError_t e = cudaDeviceGetLimit(&v, (enum cudaLimit)limit);
    if (e == cudaSuccess || v != 0)
        *pvalue = v;
    return e == cudaSuccess ? CUDA_SUCCESS : from_cuda(e);
}

NPU_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if ((unsigned)limit > CU_LIMIT_PERSISTING_L2_CACHE_SIZE)
        return CUDA_ERROR_UNSUPPORTED_LIMIT;
    return from_cuda(cudaDeviceSetLimit((enum cudaLimit)limit, value));
}

NPU_EXPORT CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!pconfig)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER_CTX(c);
    enum cudaFuncCache fc = cudaFuncCachePreferNone;
    cudaDeviceGetCacheConfig(&fc);
    *pconfig = (CUfunc_cache)fc;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if ((unsigned)config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    return from_cuda(cudaDeviceSetCacheConfig((enum cudaFuncCache)config));
}

NPU_EXPORT CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    if (!pConfig)
        return CUDA_ERROR_INVALID_VALUE;
    DRV_ENTER_CTX(c);
    *pConfig = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
    return CUDA_SUCCESS;
}

/* Bank width is fixed on sm_50 and later: the setting is accepted and has no effect there too. */
NPU_EXPORT CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    if ((unsigned)config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
        return CUDA_ERROR_INVALID_VALUE;
    return CUDA_SUCCESS;
}

/* No persisting L2 lines exist (the persisting-L2 limit is 0), so there is nothing to reset. */
NPU_EXPORT CUresult cuCtxResetPersistingL2Cache(void)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    drv_ctx_t *p = (drv_ctx_t *)peerContext;
    if (ctx_state(p) != 1)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (Flags != 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (p->device == c->device)
        return CUDA_ERROR_INVALID_DEVICE;
    cudaError_t e = cudaDeviceEnablePeerAccess(p->device, 0);
    return e == cudaErrorPeerAccessAlreadyEnabled ? CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED : from_cuda(e);
}

NPU_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peerContext)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    drv_ctx_t *p = (drv_ctx_t *)peerContext;
    if (ctx_state(p) != 1)
        return CUDA_ERROR_INVALID_CONTEXT;
    cudaError_t e = cudaDeviceDisablePeerAccess(p->device);
    return e == cudaErrorPeerAccessNotEnabled ? CUDA_ERROR_PEER_ACCESS_NOT_ENABLED : from_cuda(e);
}

/* ---------------------------------------------------------- primary contexts ---- */
NPU_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    drv_ctx_t *c = drv_ctx_primary(dev);
    pthread_mutex_lock(&ctx_lock);
    c->refcount++;
    pthread_mutex_unlock(&ctx_lock);
    *pctx = (CUcontext)c;
    return CUDA_SUCCESS;
}

static CUresult primary_release(CUdevice dev)
{
    DRV_ENTER();
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    drv_ctx_t *c = drv_ctx_primary(dev);
    CUresult r = CUDA_SUCCESS;
    pthread_mutex_lock(&ctx_lock);
    if (c->refcount <= 0)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else
        c->refcount--;
    pthread_mutex_unlock(&ctx_lock);
    return r;
}

NPU_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { NPU_API_SCOPE(__func__); return primary_release(dev); }
NPU_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { NPU_API_SCOPE(__func__); return primary_release(dev); }

static CUresult primary_reset(CUdevice dev)
{
    DRV_ENTER();
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    drv_ctx_t *c = drv_ctx_primary(dev);
    drv_cls_context_gone(c);        /* static cudart re-creates its per-context state */
    /* Exactly what cudaDeviceReset does to the device (memory, streams, sticky error, limits,
     * flags, pools), so both APIs leave the same state behind. */
    int saved = npu_device_current();
    npu_device_set_current(dev);
    cudaError_t e = cudaDeviceReset();
    npu_device_set_current(saved);
    pthread_mutex_lock(&ctx_lock);
    c->flags = 0;
    pthread_mutex_unlock(&ctx_lock);
    return e == cudaSuccess ? CUDA_SUCCESS : from_cuda(e);
}

NPU_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev) { NPU_API_SCOPE(__func__); return primary_reset(dev); }
NPU_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) { NPU_API_SCOPE(__func__); return primary_reset(dev); }

/* Active: retained through the driver API, or in use by the runtime (it holds memory). */
NPU_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active)
{
    NPU_API_SCOPE(__func__);
    DRV_ENTER();
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    drv_ctx_t *c = drv_ctx_primary(dev);
    npu_mem_stats_t ms;
    int used = npu_mem_get_stats(dev, &ms) == NPU_OK && ms.reserved > 0;
    pthread_mutex_lock(&ctx_lock);
    *flags = c->flags;
    *active = c->refcount > 0 || used;
    pthread_mutex_unlock(&ctx_lock);
    return CUDA_SUCCESS;
}

/* CUDA 11+ lets the flags change while the context is active. */
static CUresult primary_set_flags(CUdevice dev, unsigned int flags)
{
    DRV_ENTER();
    if (!dev_valid(dev))
        return CUDA_ERROR_INVALID_DEVICE;
    CUresult r = check_ctx_flags(flags);
    if (r != CUDA_SUCCESS)
        return r;
    drv_ctx_t *c = drv_ctx_primary(dev);
    pthread_mutex_lock(&ctx_lock);
    c->flags = flags;
    pthread_mutex_unlock(&ctx_lock);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) { NPU_API_SCOPE(__func__); return primary_set_flags(dev, flags); }
NPU_EXPORT CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) { NPU_API_SCOPE(__func__); return primary_set_flags(dev, flags); }

/* ---------------------------------------------------------------- profiler ---- */
/* No profiler is attached, which is not an error on a GPU either; the calls mark the
 * program's profiling ranges in the trace (npu_obs_profiler, trace.c). They act on the
 * current context, so they need one. */
NPU_EXPORT CUresult cuProfilerStart(void)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    npu_obs_profiler(1);
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuProfilerStop(void)
{
    NPU_API_SCOPE(__func__);
    drv_ctx_t *c;
    DRV_ENTER_CTX(c);
    npu_obs_profiler(0);
    return CUDA_SUCCESS;
}

/* ------------------------------------------------------------ error strings ---- */
typedef struct err_row { int code; const char *name, *str; } err_row_t;
static const err_row_t err_rows[] = {
#define CU_ERROR_STRING(code, name, str) { code, name, str },
#include "interpose/driver/driver_errors.def"
#undef CU_ERROR_STRING
};

static const err_row_t *err_find(CUresult e)
{
    for (size_t i = 0; i < sizeof err_rows / sizeof err_rows[0]; i++)
        if (err_rows[i].code == (int)e)
            return &err_rows[i];
    return NULL;
}

/* Both work without cuInit, as on a GPU; an unknown code gives NULL and INVALID_VALUE. */
NPU_EXPORT CUresult cuGetErrorName(CUresult error, const char **pStr)
{
    NPU_API_SCOPE(__func__);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    const err_row_t *r = err_find(error);
    *pStr = r ? r->name : NULL;
    return r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

NPU_EXPORT CUresult cuGetErrorString(CUresult error, const char **pStr)
{
    NPU_API_SCOPE(__func__);
    if (!pStr)
        return CUDA_ERROR_INVALID_VALUE;
    const err_row_t *r = err_find(error);
    *pStr = r ? r->str : NULL;
    return r ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* ---------------------------------------------------------- stream contexts ---- */
/* Streams created through the driver API remember their context (cuStreamGetCtx); others
 * belong to their device's primary context. Guarded by ctx_lock. */
typedef struct stream_ctx {
    npu_stream_t *s;
    drv_ctx_t *ctx;
    UT_hash_handle hh;
} stream_ctx_t;
static stream_ctx_t *stream_ctxs;

void drv_stream_ctx_set(npu_stream_t *s, drv_ctx_t *ctx)
{
    stream_ctx_t *e = malloc(sizeof *e);
    if (!e)
        return;
    e->s = s;
    e->ctx = ctx;
    pthread_mutex_lock(&ctx_lock);
    stream_ctx_t *old;
    HASH_FIND_PTR(stream_ctxs, &s, old);
    if (old) {
        HASH_DEL(stream_ctxs, old);
        free(old);
    }
    HASH_ADD_PTR(stream_ctxs, s, e);
    pthread_mutex_unlock(&ctx_lock);
}

void drv_stream_ctx_forget(npu_stream_t *s)
{
    pthread_mutex_lock(&ctx_lock);
    stream_ctx_t *e;
    HASH_FIND_PTR(stream_ctxs, &s, e);
    if (e)
        HASH_DEL(stream_ctxs, e);
    pthread_mutex_unlock(&ctx_lock);
    free(e);
}

drv_ctx_t *drv_stream_ctx(npu_stream_t *s)
{
    pthread_mutex_lock(&ctx_lock);
    stream_ctx_t *e;
    HASH_FIND_PTR(stream_ctxs, &s, e);
    drv_ctx_t *c = e ? e->ctx : NULL;
    pthread_mutex_unlock(&ctx_lock);
    return c ? c : drv_ctx_primary(npu_stream_device(s));
}
