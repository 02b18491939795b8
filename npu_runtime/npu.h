/*
 * npu.h - public API of the emulated NPU runtime (AscendCL-like semantics, no CUDA types).
 *
 * Everything interpose/ needs from the runtime is declared here; interpose/ never reaches
 * into a module's private state. Modules: device (device.c), memory (memory.c),
 * stream and event (stream.c, event.c), kernel (kernel/), cube (cube.c), log (log.c).
 *
 * Thread-safety: every function is callable from any host thread at any time unless its
 * comment says otherwise. No function exits or aborts the process on bad input: it returns
 * a status. The runtime starts lazily on the first call (npu_init), never in a constructor.
 *
 * Manual-migration table (CUDA -> NPU runtime) lives in README.md and follows these names:
 *   cudaMalloc -> npu_mem_alloc (aclrtMalloc), cudaMemcpyAsync -> npu_memcpy_async
 *   (aclrtMemcpyAsync), cudaStreamCreate -> npu_stream_create (aclrtCreateStream),
 *   cudaEventRecord -> npu_event_record (aclrtRecordEvent), cudaMemGetInfo -> npu_mem_info
 *   (aclrtGetMemInfo) ...
 */
#ifndef NPU_H
#define NPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- status ---- */
typedef enum npu_status {
#define NPU_STATUS(name, sticky, msg) name,
#include "npu_status.def"
#undef NPU_STATUS
    NPU_STATUS_COUNT
} npu_status_t;

const char *npu_status_name(npu_status_t s);    /* "NPU_EINVAL" */
const char *npu_status_message(npu_status_t s); /* "invalid argument" */
int npu_status_is_sticky(npu_status_t s);

/* ------------------------------------------------------------------- log ---- */
/* TRANSFER_TO_NPU_LOG=error|warn|info|debug, or ASCEND_GLOBAL_LOG_LEVEL 0(debug)..3(error),4(off).
 * One line per event on stderr: "[transfer_to_npu pid LEVEL] message". Default: warn. */
enum { NPU_LOG_OFF = 0, NPU_LOG_ERROR = 1, NPU_LOG_WARN = 2, NPU_LOG_INFO = 3, NPU_LOG_DEBUG = 4 };
int npu_log_level(void);
void npu_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define NPU_LOG(lvl, ...) do { if (npu_log_level() >= (lvl)) npu_log((lvl), __VA_ARGS__); } while (0)
/* Sinks that also receive every ERROR and WARN line logged (cuLogsRegisterCallback): msg
 * without the "[transfer_to_npu pid LEVEL] " prefix and newline. Called on the logging
 * thread; a line logged from inside a sink is not passed on again. 16 at most: add returns
 * NULL when full or fn is NULL; remove returns 0 (and the sink's data in *data when data is
 * not NULL), or -1 for a handle not registered. */
typedef void (*npu_log_sink_fn)(void *data, int level, const char *msg, size_t len);
void *npu_log_add_sink(npu_log_sink_fn fn, void *data);
int npu_log_remove_sink(void *handle, void **data);
/* One progress line on stderr, rewritten in place (log.c's header has the rules).
 * npu_progress_threshold: seconds of work after which to show it, or < 0 when it must not be
 * shown (stderr not a terminal, log level below warn, TRANSFER_TO_NPU_PROGRESS=0). */
double npu_progress_threshold(void);
void npu_progress(int final, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void npu_progress_clear(void);
#define NPU_ERR(...)   NPU_LOG(NPU_LOG_ERROR, __VA_ARGS__)
#define NPU_WARN(...)  NPU_LOG(NPU_LOG_WARN, __VA_ARGS__)
#define NPU_INFO(...)  NPU_LOG(NPU_LOG_INFO, __VA_ARGS__)
#define NPU_DEBUG(...) NPU_LOG(NPU_LOG_DEBUG, __VA_ARGS__)

/* Environment configuration, read once. */
const char *npu_env(const char *name);                  /* getenv, NULL when unset/empty */
long long npu_env_ll(const char *name, long long dflt); /* accepts K/M/G suffixes */

/* ---------------------------------------------------------------- device ---- */
/* TRANSFER_TO_NPU_DEVICES (default 1) physical devices; CUDA_VISIBLE_DEVICES, then
 * ASCEND_RT_VISIBLE_DEVICES, filter and renumber them (comma-separated ordinals; an invalid
 * entry ends the list, as in CUDA). Device ordinals in this API are the visible ordinals. */
typedef struct npu_device_props {
    char name[256];               /* "Ascend910B (transfer_to_npu emulated NPU)" */
    unsigned char uuid[16];
    int physical_id;              /* ordinal before visibility filtering */
    size_t total_mem;             /* capacity: TRANSFER_TO_NPU_MEMORY or default share of RAM */
    int multiprocessor_count;     /* "AI cores": number of block workers (cores) */
    int max_threads_per_block;    /* 1024 */
    int max_block_dim[3];         /* 1024, 1024, 64 */
    int max_grid_dim[3];          /* 2^31-1, 65535, 65535 */
    size_t shared_mem_per_block;  /* 48 KiB default, opt-in up to shared_mem_per_block_optin */
    size_t shared_mem_per_block_optin; /* 227 KiB */
    size_t shared_mem_per_sm;
    int regs_per_block;
    int warp_size;                /* 32 */
    int clock_rate_khz;
    int memory_clock_rate_khz;
    int memory_bus_width;
    int l2_cache_size;
    int max_threads_per_sm;
    int compute_major, compute_minor; /* the compute capability we claim: 8.0 */
    size_t total_const_mem;       /* 64 KiB */
    int pci_bus_id, pci_device_id, pci_domain_id;
} npu_device_props_t;

npu_status_t npu_init(void);                 /* idempotent; NPU_ENODEVICE when none visible */
int npu_runtime_started(void);               /* has npu_init run (cuInit or any runtime call)? */
int npu_forked(void);                        /* this process was forked after npu_init ran:
                                                every entry point fails (NPU_EFORKED) */
int npu_device_count(void);                  /* visible devices (0 if none) */
npu_status_t npu_device_get_props(int dev, npu_device_props_t *out);
npu_status_t npu_device_set_current(int dev);/* per host thread; default 0 */
int npu_device_current(void);
/* npu_device_sync and npu_device_reset live in stream.c (they walk the device's streams). */
npu_status_t npu_device_sync(int dev);       /* waits for all streams of dev; returns the
                                              * first pending async error (sticky stays) */
npu_status_t npu_device_reset(int dev);      /* syncs, destroys the device's streams, frees its
                                              * allocations (npu_mem_release_device), clears the
                                              * sticky error */
npu_status_t npu_device_error(int dev);      /* the sticky error of dev, NPU_OK if none */
void npu_device_set_error(int dev, npu_status_t s); /* records an async fault (sticky ones stick) */
void npu_device_clear_error(int dev);        /* used by npu_device_reset */
npu_status_t npu_device_peek_async_error(int dev, int clear); /* non-sticky async error, if any */
/* cudaLimitStackSize / CU_LIMIT_STACK_SIZE of dev (bytes per thread; 1024 until set): the
 * stack a kernel with recursion or indirect calls gets, which only the program can bound.
 * The SASS front end reads it when it lifts such a kernel (at its first launch). */
void npu_device_set_stack_limit(int dev, size_t bytes);
size_t npu_device_stack_limit(int dev);

/* ---------------------------------------------------------------- memory ---- */
/* Each device's memory is one reserved range of virtual address space, so the device and
 * allocation of any pointer are found in O(log n). Device memory is host memory: the host
 * may touch it directly (the emulation shares one address space, like UVA). */
typedef enum npu_mem_kind {
    NPU_MEM_UNREGISTERED = 0,     /* plain host memory the runtime knows nothing about */
    NPU_MEM_HOST = 1,             /* pinned host memory (npu_host_alloc / npu_host_register) */
    NPU_MEM_DEVICE = 2,           /* npu_mem_alloc / npu_mem_alloc_async / module globals */
    NPU_MEM_MANAGED = 3           /* npu_mem_alloc_managed */
} npu_mem_kind_t;

typedef struct npu_ptr_info {
    npu_mem_kind_t kind;
    int device;                   /* -1 for host memory */
    void *base;                   /* start of the allocation containing the pointer */
    size_t size;                  /* its requested size */
    void *host_ptr;               /* address the host uses (== pointer, shared address space) */
    void *dev_ptr;                /* address kernels use (== pointer) */
    unsigned flags;               /* host-alloc / register flags */
} npu_ptr_info_t;

typedef struct npu_mem_stats {
    size_t allocated;             /* bytes in live allocations (requested sizes rounded to class) */
    size_t reserved;              /* bytes the pool holds (allocated + cached) */
    size_t peak_allocated;
    size_t peak_reserved;
    size_t num_allocs;            /* live allocations */
    size_t capacity;
} npu_mem_stats_t;

npu_status_t npu_mem_alloc(int dev, size_t size, void **out);   /* 256-byte aligned; size 0 -> *out NULL, OK */
npu_status_t npu_mem_free(void *p);          /* NULL -> OK; not the start of a live device
                                              * allocation -> NPU_EINVAL (double free too) */
npu_status_t npu_mem_alloc_managed(int dev, size_t size, void **out);
/* Device memory for kernel-module variables (.global/.const): like npu_mem_alloc, but
 * survives npu_device_reset / npu_mem_release_device (modules outlive a reset here). */
npu_status_t npu_mem_alloc_module(int dev, size_t size, void **out);
npu_status_t npu_host_alloc(size_t size, unsigned flags, void **out); /* pinned; flags recorded */
npu_status_t npu_host_free(void *p);         /* not from npu_host_alloc -> NPU_EINVAL */
npu_status_t npu_host_register(void *p, size_t size, unsigned flags); /* NPU_EREGISTERED if overlapping */
npu_status_t npu_host_unregister(void *p);   /* NPU_ENOTREGISTERED if not a registered base */
npu_status_t npu_mem_lookup(const void *p, npu_ptr_info_t *out); /* never fails for a non-NULL
                                              * out: unknown pointers give kind UNREGISTERED */
/* Checks that [p, p+n) lies inside one live allocation when p points into device/managed/
 * pinned memory; plain host memory passes. NPU_EINVAL when the range runs past the end of
 * the allocation or p is in a device range but not in a live allocation. */
npu_status_t npu_mem_check_range(const void *p, size_t n);
npu_status_t npu_mem_info(int dev, size_t *free_bytes, size_t *total_bytes);
npu_status_t npu_mem_get_stats(int dev, npu_mem_stats_t *out);
npu_status_t npu_mem_reset_peak(int dev);
npu_status_t npu_mem_empty_cache(int dev);   /* returns cached blocks to the OS */
void npu_mem_release_device(int dev);        /* device reset: frees every allocation of dev */
/* Memcheck (TRANSFER_TO_NPU_MEMCHECK=1, read once): freed device blocks go through a bounded
 * quarantine before reuse, and kernels check their accesses with npu_mem_memcheck_classify:
 * NPU_MC_OK when [p, p+n) lies in one live device/managed/pinned/registered allocation;
 * else *base and *size name the allocation involved (the one containing or preceding p; NULL if
 * none). npu_mem_free_generation() changes at every free (invalidates callers' caches). */
enum { NPU_MC_OK = 0, NPU_MC_OOB = 1, NPU_MC_FREED = 2, NPU_MC_NOALLOC = 3 };
int npu_mem_memcheck_enabled(void);
int npu_mem_memcheck_classify(const void *p, size_t n, void **base, size_t *size);
uint64_t npu_mem_free_generation(void);

/* Stream-ordered memory pools (cudaMallocAsync, cudaMemPool*). Allocation is immediate;
 * npu_pool_free_async frees when the stream reaches that point. */
typedef struct npu_pool npu_pool_t;
typedef struct npu_stream npu_stream_t;
npu_pool_t *npu_pool_default(int dev);
npu_status_t npu_pool_create(int dev, npu_pool_t **out);
npu_status_t npu_pool_destroy(npu_pool_t *p);     /* the default pool -> NPU_EINVAL */
int npu_pool_valid(const npu_pool_t *p);
int npu_pool_device(const npu_pool_t *p);
npu_status_t npu_pool_alloc_async(npu_pool_t *p, size_t size, npu_stream_t *s, void **out);
npu_status_t npu_pool_free_async(void *ptr, npu_stream_t *s);  /* any pool's pointer */
npu_status_t npu_pool_trim(npu_pool_t *p, size_t min_bytes_to_keep);
enum {                                           /* attributes, as cudaMemPoolAttr */
    NPU_POOL_REUSE_FOLLOW_EVENT = 1, NPU_POOL_REUSE_ALLOW_OPPORTUNISTIC, NPU_POOL_REUSE_ALLOW_INTERNAL,
    NPU_POOL_RELEASE_THRESHOLD, NPU_POOL_RESERVED_CURRENT, NPU_POOL_RESERVED_HIGH,
    NPU_POOL_USED_CURRENT, NPU_POOL_USED_HIGH
};
npu_status_t npu_pool_get_attr(npu_pool_t *p, int attr, uint64_t *value);
npu_status_t npu_pool_set_attr(npu_pool_t *p, int attr, uint64_t value); /* only resettable ones */

/* ------------------------------------------------------- streams, events ---- */
/* Streams are in-order queues drained by worker threads. The legacy default stream of a
 * device (npu_stream_legacy) synchronizes with every blocking stream of that device: work
 * on it waits for all earlier work on blocking streams, and work on a blocking stream waits
 * for all earlier work on the legacy stream. Non-blocking streams and per-thread default
 * streams do not synchronize with the legacy stream (the per-thread stream behaves as a
 * blocking stream towards the legacy one, as CUDA documents). */
enum { NPU_STREAM_DEFAULT = 0, NPU_STREAM_NONBLOCKING = 1 };
typedef struct npu_event npu_event_t;

/* A unit of stream work. It runs on a worker (or a helping host thread), in stream order;
 * returns a status: a non-OK one is recorded as the device's async error (sticky ones
 * poison the device; once poisoned, later work on the device is skipped, its cleanup still
 * runs). cleanup (may be NULL) runs after fn, or instead of it when skipped. */
typedef npu_status_t (*npu_work_fn)(void *arg);
typedef void (*npu_cleanup_fn)(void *arg);

npu_stream_t *npu_stream_legacy(int dev);        /* created on first use */
npu_stream_t *npu_stream_per_thread(int dev);    /* this host thread's default stream */
npu_status_t npu_stream_create(int dev, unsigned flags, int priority, npu_stream_t **out);
npu_status_t npu_stream_destroy(npu_stream_t *s);/* pending work still completes; NPU_EHANDLE
                                                  * for built-in or invalid streams */
int npu_stream_valid(const npu_stream_t *s);     /* live handle? (safe on garbage pointers) */
int npu_stream_device(const npu_stream_t *s);
unsigned npu_stream_flags(const npu_stream_t *s);
int npu_stream_priority(const npu_stream_t *s);
unsigned long long npu_stream_id(const npu_stream_t *s);
npu_status_t npu_stream_submit(npu_stream_t *s, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg);
npu_status_t npu_stream_sync(npu_stream_t *s);   /* waits; returns the async error if any */
npu_status_t npu_stream_query(npu_stream_t *s);  /* NPU_OK when all done, else NPU_ENOTREADY */
npu_status_t npu_stream_wait_event(npu_stream_t *s, npu_event_t *e); /* later work on s waits
                                                  * for the work e captured; cross-device ok */
/* Host function (cudaLaunchHostFunc): fn(arg) runs in stream order on a runtime thread. */
npu_status_t npu_stream_host_fn(npu_stream_t *s, void (*fn)(void *), void *arg);
/* Convenience: async copy / set on a stream (plain memcpy/memset in stream order). */
npu_status_t npu_memcpy_async(void *dst, const void *src, size_t n, npu_stream_t *s);
npu_status_t npu_memset_async(void *dst, int value, size_t n, npu_stream_t *s);
/* 2D: height rows of width bytes. */
npu_status_t npu_memcpy2d_async(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, npu_stream_t *s);
npu_status_t npu_memset2d_async(void *dst, size_t pitch, int value, size_t width,
                                size_t height, npu_stream_t *s);

enum { NPU_EVENT_DEFAULT = 0, NPU_EVENT_BLOCKING_SYNC = 1, NPU_EVENT_DISABLE_TIMING = 2,
       NPU_EVENT_INTERPROCESS = 4 };
npu_status_t npu_event_create(unsigned flags, npu_event_t **out);
npu_status_t npu_event_destroy(npu_event_t *e);
int npu_event_valid(const npu_event_t *e);       /* safe on garbage pointers */
npu_status_t npu_event_record(npu_event_t *e, npu_stream_t *s); /* captures all work so far on s */
npu_status_t npu_event_query(npu_event_t *e);    /* OK if complete (or never recorded), else ENOTREADY */
npu_status_t npu_event_sync(npu_event_t *e);
/* ms between two completed timing events; NPU_ENOTREADY if either is pending, NPU_EHANDLE
 * (cudaErrorInvalidResourceHandle) if either disables timing or was never recorded. */
npu_status_t npu_event_elapsed(npu_event_t *start, npu_event_t *end, float *ms);

/* ----------------------------------------------------------------- clock ---- */
uint64_t npu_now_ns(void);                       /* CLOCK_MONOTONIC */

#ifdef __cplusplus
}
#endif
#endif /* NPU_H */
