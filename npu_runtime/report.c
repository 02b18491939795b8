/*
 * report.c - the migration report (TRANSFER_TO_NPU_REPORT=path, or 1 for stderr), written at
 * exit in the spirit of Ascend's msFmkTransplt reports: every CUDA / driver / cuBLAS / cuRAND
 * entry point the program called (count, total time, status, the NPU operation it maps to),
 * unsupported calls with a suggestion, kernels (launches, run time, JIT time), NPU
 * operations (copies by direction, memsets, cube GEMMs), peak memory per device.
 *
 * Files for TRANSFER_TO_NPU_REPORT=path ("%p" in path becomes the pid; a directory gets
 * transfer_to_npu_report.txt in it): the human summary at path, and next to it, with the
 * stem of path (path minus a .txt/.log extension):
 *   <stem>.api.csv          API,library,count,time_us,status,npu_operation,note
 *   <stem>.unsupported.csv  API,library,count,suggestion
 *   <stem>.kernels.csv      kernel,launches,time_us,avg_us,jit_us,from_cache,name (demangled)
 *   <stem>.ops.csv          operation,count,bytes_or_flop,time_us
 *   <stem>.memory.csv       device,peak_allocated,peak_reserved,allocated_at_exit,
 *                           live_allocations_at_exit,capacity   (bytes)
 *
 * DESIGN
 *
 * Tables. APIs: a fixed open-addressing table keyed by the name pointer (__func__ or the
 * stub's literal), claimed by CAS on the key; counters are relaxed atomics, so recording takes
 * no lock (two atomic adds per call). Names that reach the table through two pointers are
 * merged by name when the report is written; 4096 slots hold every entry point of the five
 * libraries (about 2,000). Kernels: keyed by the kernel's info pointer plus its name (a
 * module unloaded and another loaded at the same address is a different kernel), in a list
 * of open-addressing tables ("generations", newest first, never moved or freed): when the
 * newest is half full, the next insert adds one twice its size, so any number of kernels
 * fits (CuPy's test suite makes thousands, PyTorch tens of thousands; the single fixed
 * table of 2048 before this dropped the rest) and a lookup probes at most log2(n / 2048) + 1
 * tables, each at most half full. Inserts (first launch of a kernel) take kern_lock and
 * look again under it; lookups do not lock: a slot's key is stored last, with release,
 * after its name and JIT time, and a generation is published with release after it is
 * zeroed. Operations: fixed counters per (kind, sub-kind). Only when memory for a new
 * generation cannot be had are new kernels dropped, and the report says so.
 *
 * Exit. npu_obs_report_write runs from the exit handler (trace.c); it takes no lock shared
 * with the recording path, formats into a static buffer and writes with write(2), so an exit
 * from inside a CUDA call or a callback writes a complete report. The only runtime call is
 * npu_mem_get_stats per device (peak memory).
 */
#include "npu_obs.h"
#include "kernel/npu_kernel.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define API_SLOTS 4096
#define KERN_GEN0_SLOTS 4096u
#define OP_SUB 8

typedef struct api_ent {
    _Atomic(const char *) key;
    atomic_ullong count, ns, errors, unsup;
    atomic_int last_error;
} api_ent_t;

typedef struct kern_ent {
    _Atomic(const void *) key;
    char *name;
    uint64_t jit_ns;
    int from_cache;
    atomic_ullong launches, ns;
} kern_ent_t;

typedef struct kern_gen {
    struct kern_gen *older;
    size_t mask;                 /* slots - 1 (a power of two) */
    size_t used;                 /* guarded by kern_lock */
    kern_ent_t slot[];
} kern_gen_t;

static api_ent_t api_tab[API_SLOTS];
static _Atomic(kern_gen_t *) kern_gens;  /* newest first */
static pthread_mutex_t kern_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ullong op_count[NPU_OBS_K_COUNT][OP_SUB], op_bytes[NPU_OBS_K_COUNT][OP_SUB],
    op_ns[NPU_OBS_K_COUNT][OP_SUB];
static atomic_int api_full, kern_full;

/* ------------------------------------------------------------- recording ---- */
static inline size_t hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static api_ent_t *api_find(const char *name)
{
    size_t h = hash_ptr(name);
    for (size_t i = 0; i < API_SLOTS; i++) {
        api_ent_t *e = &api_tab[(h + i) & (API_SLOTS - 1)];
        const char *k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (k == name)
            return e;
        if (!k) {
            const char *z = NULL;
            if (atomic_compare_exchange_strong(&e->key, &z, name) || z == name)
                return e;
        }
    }
    atomic_store(&api_full, 1);
    return NULL;
}

void npu_obs_report_api(const char *name, uint64_t ns, int error_code)
{
    api_ent_t *e = api_find(name);
    if (!e)
        return;
    atomic_fetch_add_explicit(&e->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->ns, ns, memory_order_relaxed);
    if (error_code) {
        atomic_fetch_add_explicit(&e->errors, 1, memory_order_relaxed);
        atomic_store_explicit(&e->last_error, error_code, memory_order_relaxed);
    }
}

void npu_report_unsupported(const char *api_name)
{
    if (!api_name)
        return;
    if (!(npu_obs_flags_now() & NPU_OBS_REPORT))
        return;
    api_ent_t *e = api_find(api_name);
    if (e)
        atomic_fetch_add_explicit(&e->unsup, 1, memory_order_relaxed);
}

/* A name made at run time ("SASS HMMA (sm_80)", "cuGetExportTable {uuid}"): formatted and
 * kept for the process's life (the table holds names by pointer); 256 distinct names at most,
 * later ones are logged but not counted. */
void npu_report_unsupported_fmt(const char *fmt, ...)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char names[256][96];
    static int nnames;
    char nm[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(nm, sizeof nm, fmt, ap);
    va_end(ap);
    const char *key = NULL;
    pthread_mutex_lock(&mu);
    for (int i = 0; i < nnames && !key; i++)
        if (!strcmp(names[i], nm)) key = names[i];
    if (!key && nnames < 256) { memcpy(names[nnames], nm, sizeof nm); key = names[nnames++]; }
    pthread_mutex_unlock(&mu);
    if (key) npu_report_unsupported(key);
}

static const char null_kernel_key;    /* stands for a NULL info (a NULL key marks a free slot) */

static kern_ent_t *kern_probe(kern_gen_t *g, const void *info, const char *nm, size_t h,
                              kern_ent_t **free_slot)
{
    for (size_t i = 0; i <= g->mask; i++) {
        kern_ent_t *e = &g->slot[(h + i) & g->mask];
        const void *k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (!k) {
            if (free_slot)
                *free_slot = e;
            return NULL;
        }
        if (k == info && strcmp(e->name, nm) == 0)
            return e;
    }
    return NULL;
}

static kern_ent_t *kern_lookup(const void *info, const char *nm, size_t h)
{
    for (kern_gen_t *g = atomic_load_explicit(&kern_gens, memory_order_acquire); g; g = g->older) {
        kern_ent_t *e = kern_probe(g, info, nm, h, NULL);
        if (e)
            return e;
    }
    return NULL;
}

/* A new, larger generation in front of the others (kern_lock held). */
static kern_gen_t *kern_grow_locked(kern_gen_t *newest)
{
    size_t slots = newest ? 2 * (newest->mask + 1) : KERN_GEN0_SLOTS;
    size_t bytes = sizeof(kern_gen_t) + slots * sizeof(kern_ent_t);
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    kern_gen_t *g = m;                    /* zero-filled: every key is NULL */
    g->older = newest;
    g->mask = slots - 1;
    atomic_store_explicit(&kern_gens, g, memory_order_release);
    return g;
}

static kern_ent_t *kern_find(const void *info, int insert)
{
    if (!info)
        info = &null_kernel_key;
    const npu_kfunc_info_t *ki = info == &null_kernel_key ? NULL : info;
    const char *nm = ki && ki->name ? ki->name : "(unnamed kernel)";
    size_t h = hash_ptr(info);
    kern_ent_t *r = kern_lookup(info, nm, h);
    if (r || !insert)
        return r;
    pthread_mutex_lock(&kern_lock);
    r = kern_lookup(info, nm, h);
    kern_gen_t *g = atomic_load_explicit(&kern_gens, memory_order_relaxed);
    if (!r && (!g || 2 * (g->used + 1) > g->mask + 1))
        g = kern_grow_locked(g);
    kern_ent_t *e = NULL;
    if (!r && g && !kern_probe(g, info, nm, h, &e) && e) {
        /* "mangled\0demangled\0": readable names are made here, never in the exit path */
        char dm[512];
        const char *pretty = npu_obs_demangle(nm, dm, sizeof dm);
        size_t ln = strlen(nm) + 1, lp = strlen(pretty) + 1;
        e->name = malloc(ln + lp);
        if (e->name) {
            memcpy(e->name, nm, ln);
            memcpy(e->name + ln, pretty, lp);
            e->jit_ns = ki ? ki->jit_ns : 0;
            e->from_cache = ki ? ki->from_cache : 0;
            atomic_store_explicit(&e->key, info, memory_order_release);
            g->used++;
            r = e;
        }
    }
    pthread_mutex_unlock(&kern_lock);
    if (!r)
        atomic_store(&kern_full, 1);
    return r;
}

void npu_obs_report_kernel(const void *info, uint64_t ns)
{
    kern_ent_t *e = kern_find(info, 1);
    if (!e)
        return;
    atomic_fetch_add_explicit(&e->launches, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&e->ns, ns, memory_order_relaxed);
}

const char *npu_obs_kernel_pretty(const char *interned)
{
    return interned + strlen(interned) + 1;
}

const char *npu_obs_kernel_name(const void *info)
{
    kern_ent_t *e = kern_find(info, 1);
    return e ? e->name : "kernel\0kernel";
}

void npu_obs_report_op(int kind, int sub, uint64_t bytes, uint64_t ns)
{
    if (kind < 0 || kind >= NPU_OBS_K_COUNT)
        return;
    if (sub < 0 || sub >= OP_SUB)
        sub = OP_SUB - 1;
    atomic_fetch_add_explicit(&op_count[kind][sub], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&op_bytes[kind][sub], bytes, memory_order_relaxed);
    atomic_fetch_add_explicit(&op_ns[kind][sub], ns, memory_order_relaxed);
}

const char *npu_obs_copy_dir_name(int dir)
{
    static const char *n[] = { "H2D", "D2H", "D2D", "H2H" };
    return dir >= 0 && dir < 4 ? n[dir] : "?";
}

int npu_obs_copy_dir(const void *dst, const void *src)
{
    npu_ptr_info_t di, si;
    npu_mem_lookup(dst, &di);
    npu_mem_lookup(src, &si);
    int dd = di.kind == NPU_MEM_DEVICE || di.kind == NPU_MEM_MANAGED;
    int sd = si.kind == NPU_MEM_DEVICE || si.kind == NPU_MEM_MANAGED;
    return sd ? (dd ? NPU_OBS_D2D : NPU_OBS_D2H) : (dd ? NPU_OBS_H2D : NPU_OBS_H2H);
}

/* ------------------------------------------------- mapping and suggestions ---- */
typedef struct rule { const char *prefix, *text; } rule_t;

/* First matching prefix wins: more specific prefixes first. */
static const rule_t npu_ops[] = {
    { "cudaMallocHost", "npu_host_alloc (aclrtMallocHost)" },
    { "cudaHostAlloc", "npu_host_alloc (aclrtMallocHost)" },
    { "cudaFreeHost", "npu_host_free (aclrtFreeHost)" },
    { "cudaHostRegister", "npu_host_register (aclrtHostRegister)" },
    { "cudaHostUnregister", "npu_host_unregister" },
    { "cudaMallocManaged", "npu_mem_alloc_managed" },
    { "cudaMallocAsync", "npu_pool_alloc_async" },
    { "cudaMallocFromPoolAsync", "npu_pool_alloc_async" },
    { "cudaFreeAsync", "npu_pool_free_async" },
    { "cudaMemPool", "npu_pool_* (stream-ordered pool)" },
    { "cudaMalloc", "npu_mem_alloc (aclrtMalloc)" },
    { "cudaFree", "npu_mem_free (aclrtFree)" },
    { "cudaMemGetInfo", "npu_mem_info (aclrtGetMemInfo)" },
    { "cudaPointerGetAttributes", "npu_mem_lookup (aclrtPointerGetAttributes)" },
    { "cudaMemcpy2D", "npu_memcpy2d_async (aclrtMemcpy2d)" },
    { "cudaMemcpyPeer", "npu_memcpy_async (aclrtMemcpy, device to device)" },
    { "cudaMemcpyToSymbol", "npu_memcpy_async to a module variable" },
    { "cudaMemcpyFromSymbol", "npu_memcpy_async from a module variable" },
    { "cudaMemcpyAsync", "npu_memcpy_async (aclrtMemcpyAsync)" },
    { "cudaMemcpy", "npu_memcpy_async + npu_stream_sync (aclrtMemcpy)" },
    { "cudaMemset2D", "npu_memset2d_async" },
    { "cudaMemsetAsync", "npu_memset_async (aclrtMemsetAsync)" },
    { "cudaMemset", "npu_memset_async + sync (aclrtMemset)" },
    { "cudaLaunchHostFunc", "npu_stream_host_fn (aclrtLaunchCallback)" },
    { "cudaStreamAddCallback", "npu_stream_host_fn (aclrtLaunchCallback)" },
    { "cudaLaunch", "npu_kfunc_launch (kernel launch on the NPU)" },
    { "__cudaLaunchKernel", "npu_kfunc_launch (kernel launch on the NPU)" },
    { "__cudaRegister", "kernel registry (recorded; translated on first launch)" },
    { "__cudaUnregister", "kernel registry" },
    { "__cudaPushCallConfiguration", "launch configuration" },
    { "__cudaPopCallConfiguration", "launch configuration" },
    { "__cudaGetKernel", "kernel registry lookup" },
    { "cudaFuncGetAttributes", "npu_kfunc_info (PTX attributes)" },
    { "cudaFuncSetAttribute", "npu_kfunc_info" },
    { "cudaOccupancy", "npu_kfunc_max_active_blocks" },
    { "cudaStreamCreate", "npu_stream_create (aclrtCreateStream)" },
    { "cudaStreamDestroy", "npu_stream_destroy (aclrtDestroyStream)" },
    { "cudaStreamSynchronize", "npu_stream_sync (aclrtSynchronizeStream)" },
    { "cudaStreamQuery", "npu_stream_query" },
    { "cudaStreamWaitEvent", "npu_stream_wait_event (aclrtStreamWaitEvent)" },
    { "cudaStream", "npu_stream_* (stream attributes)" },
    { "cudaEventCreate", "npu_event_create (aclrtCreateEvent)" },
    { "cudaEventDestroy", "npu_event_destroy (aclrtDestroyEvent)" },
    { "cudaEventRecord", "npu_event_record (aclrtRecordEvent)" },
    { "cudaEventSynchronize", "npu_event_sync (aclrtSynchronizeEvent)" },
    { "cudaEventQuery", "npu_event_query (aclrtQueryEventStatus)" },
    { "cudaEventElapsedTime", "npu_event_elapsed (aclrtEventElapsedTime)" },
    { "cudaDeviceSynchronize", "npu_device_sync (aclrtSynchronizeDevice)" },
    { "cudaDeviceReset", "npu_device_reset (aclrtResetDevice)" },
    { "cudaSetDevice", "npu_device_set_current (aclrtSetDevice)" },
    { "cudaGetDeviceCount", "npu_device_count (aclrtGetDeviceCount)" },
    { "cudaGetDeviceProperties", "npu_device_get_props (aclrtGetDeviceInfo)" },
    { "cudaDeviceGetAttribute", "npu_device_get_props (aclrtGetDeviceInfo)" },
    { "cudaGetDevice", "npu_device_current (aclrtGetDevice)" },
    { "cudaGetLastError", "per-thread last error" },
    { "cudaPeekAtLastError", "per-thread last error" },
    { "cudaGetError", "error strings" },
    { "cudaDevice", "npu_device_* (device state)" },
    { "cuda", "runtime (cudart)" },
    { "cuMemAllocHost", "npu_host_alloc (aclrtMallocHost)" },
    { "cuMemHostAlloc", "npu_host_alloc (aclrtMallocHost)" },
    { "cuMemFreeHost", "npu_host_free (aclrtFreeHost)" },
    { "cuMemAllocManaged", "npu_mem_alloc_managed" },
    { "cuMemAlloc", "npu_mem_alloc (aclrtMalloc)" },
    { "cuMemFree", "npu_mem_free (aclrtFree)" },
    { "cuMemcpy", "npu_memcpy_async (aclrtMemcpy)" },
    { "cuMemset", "npu_memset_async (aclrtMemset)" },
    { "cuMemGetInfo", "npu_mem_info (aclrtGetMemInfo)" },
    { "cuModuleLoad", "npu_kmodule_load_ptx (PTX -> C -> native, cached)" },
    { "cuLibraryLoad", "npu_kmodule_load_ptx (PTX -> C -> native, cached)" },
    { "cuLink", "npu_kmodule_link_ptx" },
    { "cuModuleGetFunction", "npu_kmodule_get_function (JIT on first use)" },
    { "cuLaunch", "npu_kfunc_launch (kernel launch on the NPU)" },
    { "cuStream", "npu_stream_* (aclrtCreateStream ...)" },
    { "cuEvent", "npu_event_* (aclrtCreateEvent ...)" },
    { "cuCtx", "per-thread current device (aclrtSetCurrentContext)" },
    { "cuDevicePrimaryCtx", "device context (aclrtSetDevice)" },
    { "cuDevice", "npu_device_* (aclrtGetDeviceInfo)" },
    { "cuGetProcAddress", "driver entry point table" },
    { "cuGetExportTable", "driver export table" },
    { "cuInit", "npu_init (aclInit)" },
    { "cublasLt", "npu_cube_gemm_run (cube GEMM with epilogue, aclnnMatmul)" },
    { "cublasGemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasSgemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasDgemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasHgemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasCgemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasZgemm", "npu_cube_gemm_run (cube GEMM, aclnnMatmul)" },
    { "cublasCreate", "cuBLAS handle (aclblas handle)" },
    { "cublasDestroy", "cuBLAS handle" },
    { "cublasSet", "cuBLAS handle state" },
    { "cublasGet", "cuBLAS handle state" },
    { "cublas", "BLAS level 1/2 on the stream (OpenBLAS)" },
    { "curand", "host/device random generators on the stream" },
    { "cu", "driver API" },
};

static const rule_t suggestions[] = {
    { "cuGetExportTable ", "a private CUDA driver interface that NVIDIA libraries with a static cudart "
                           "inside (cuDNN 9, cuFFT, NCCL ...) ask for; it is not provided, so that library "
                           "fails at its first call (PyTorch: torch.backends.cudnn.enabled = False runs "
                           "convolutions and batch norm on ATen's own kernels)" },
    { "SASS ", "a GPU machine-code instruction the SASS front end does not run yet: its kernel fails "
               "with cudaErrorNoKernelImageForDevice; the log names kernel, offset and words (PTX in "
               "the fatbin, nvcc -gencode ...,code=compute_NN, runs instead)" },
    { "cudaGraph", "CUDA graphs are not emulated: launch the captured work directly on a stream" },
    { "cuGraph", "CUDA graphs are not emulated: launch the captured work directly on a stream" },
    { "cudaStreamBeginCapture", "stream capture is not emulated: run the work directly" },
    { "cudaStreamEndCapture", "stream capture is not emulated: run the work directly" },
    { "cuStreamBeginCapture", "stream capture is not emulated: run the work directly" },
    { "cudaCreateTextureObject", "textures are not emulated: read linear device memory (__ldg) instead" },
    { "cudaCreateSurfaceObject", "surfaces are not emulated: write linear device memory instead" },
    { "cudaMallocArray", "CUDA arrays are not emulated: use cudaMalloc / cudaMallocPitch" },
    { "cudaMalloc3DArray", "CUDA arrays are not emulated: use cudaMalloc3D-free pitched buffers" },
    { "cudaArray", "CUDA arrays are not emulated: use linear device memory" },
    { "cuTex", "textures are not emulated: read linear device memory instead" },
    { "cuSurf", "surfaces are not emulated: write linear device memory instead" },
    { "cuArray", "CUDA arrays are not emulated: use linear device memory" },
    { "cudaIpc", "inter-process memory handles are not supported: share data through host memory or files" },
    { "cuIpc", "inter-process memory handles are not supported: share data through host memory or files" },
    { "cudaGraphics", "graphics interop has no NPU equivalent: copy through host memory" },
    { "cuGraphics", "graphics interop has no NPU equivalent: copy through host memory" },
    { "cudaImportExternal", "external memory/semaphores have no NPU equivalent" },
    { "cuImportExternal", "external memory/semaphores have no NPU equivalent" },
    { "cuMemCreate", "virtual memory management is not emulated: use cuMemAlloc / cudaMalloc" },
    { "cuMemMap", "virtual memory management is not emulated: use cuMemAlloc / cudaMalloc" },
    { "cuMemAddressReserve", "virtual memory management is not emulated: use cuMemAlloc / cudaMalloc" },
    { "cuMulticast", "multicast objects are not emulated" },
    { "cublasLt", "this cuBLASLt call is not implemented: use cublasLtMatmul with a plain layout or cublasGemmEx" },
    { "cublas", "this cuBLAS routine is not implemented: express it with cublasGemmEx / cublasSgemm or a kernel" },
    { "curand", "this cuRAND call is not implemented: use curandGenerateUniform/Normal or the device API" },
    { "", "not implemented by transfer_to_npu: see the manual-migration table in README.md for an equivalent" },
};

static const char *rule_find(const rule_t *r, size_t n, const char *name, const char *dflt)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(name, r[i].prefix, strlen(r[i].prefix)) == 0)
            return r[i].text;
    return dflt;
}

static const char *api_library(const char *n)
{
    if (!strncmp(n, "SASS ", 5)) return "machine code";
    if (!strncmp(n, "cuGetExportTable ", 17)) return "driver (private)";
    if (!strncmp(n, "cublasLt", 8)) return "cublasLt";
    if (!strncmp(n, "cublas", 6)) return "cublas";
    if (!strncmp(n, "curand", 6)) return "curand";
    if (!strncmp(n, "cuda", 4) || !strncmp(n, "__cuda", 6)) return "cudart";
    if (!strncmp(n, "cu", 2)) return "driver";
    return "other";
}

/* ----------------------------------------------------------------- output ---- */
typedef struct out {
    int fd;
    size_t n;
    int err;
    char b[32768];
} out_t;

static out_t ob;

static void oflush(out_t *o)
{
    size_t off = 0;
    while (off < o->n && !o->err) {
        ssize_t r = write(o->fd, o->b + off, o->n - off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            o->err = 1;
        else
            off += (size_t)r;
    }
    o->n = 0;
}

static void oprintf(out_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void oprintf(out_t *o, const char *fmt, ...)
{
    char tmp[2048];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k >= sizeof tmp)
        k = sizeof tmp - 1;
    if (o->n + (size_t)k > sizeof o->b)
        oflush(o);
    memcpy(o->b + o->n, tmp, (size_t)k);
    o->n += (size_t)k;
}

static int oopen(out_t *o, const char *path)
{
    o->n = 0;
    o->err = 0;
    o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (o->fd < 0) {
        NPU_WARN("report: cannot write %s: %s", path, strerror(errno));
        return 0;
    }
    return 1;
}

static void oclose(out_t *o)
{
    oflush(o);
    if (o->fd > 2)
        close(o->fd);
}

/* A CSV field: quoted, with quotes doubled. */
static void ocsv(out_t *o, const char *s)
{
    char tmp[600];
    size_t k = 0;
    tmp[k++] = '"';
    for (; s && *s && k < sizeof tmp - 4; s++) {
        if (*s == '"')
            tmp[k++] = '"';
        tmp[k++] = (*s == '\n' || *s == '\r') ? ' ' : *s;
    }
    tmp[k++] = '"';
    tmp[k] = 0;
    oprintf(o, "%s", tmp);
}

/* -------------------------------------------------------------- collecting ---- */
typedef struct api_row {
    const char *name;
    uint64_t count, ns, errors, unsup;
    int last_error;
} api_row_t;

static api_row_t rows[API_SLOTS];
static kern_ent_t **krows;                 /* mmap'ed by collect_kernels */

static void shell_sort(void *base, size_t n, size_t size, int (*less)(const void *, const void *))
{
    char *b = base, tmp[sizeof(api_row_t) > sizeof(void *) ? sizeof(api_row_t) : sizeof(void *)];
    if (size > sizeof tmp)
        return;
    for (size_t gap = n / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < n; i++) {
            memcpy(tmp, b + i * size, size);
            size_t j = i;
            while (j >= gap && less(tmp, b + (j - gap) * size)) {
                memcpy(b + j * size, b + (j - gap) * size, size);
                j -= gap;
            }
            memcpy(b + j * size, tmp, size);
        }
}

static int row_name_less(const void *a, const void *b)
{
    return strcmp(((const api_row_t *)a)->name, ((const api_row_t *)b)->name) < 0;
}

static int row_time_less(const void *a, const void *b)
{
    const api_row_t *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns > y->ns;
    if (x->count != y->count)
        return x->count > y->count;
    return strcmp(x->name, y->name) < 0;
}

static int kern_time_less(const void *a, const void *b)
{
    const kern_ent_t *x = *(kern_ent_t *const *)a, *y = *(kern_ent_t *const *)b;
    uint64_t xn = atomic_load(&((kern_ent_t *)x)->ns), yn = atomic_load(&((kern_ent_t *)y)->ns);
    if (xn != yn)
        return xn > yn;
    return strcmp(x->name, y->name) < 0;
}

static size_t collect_apis(void)
{
    size_t n = 0;
    for (size_t i = 0; i < API_SLOTS; i++) {
        api_ent_t *e = &api_tab[i];
        const char *k = atomic_load_explicit(&e->key, memory_order_acquire);
        if (!k)
            continue;
        api_row_t r = { k, atomic_load(&e->count), atomic_load(&e->ns), atomic_load(&e->errors),
                        atomic_load(&e->unsup), atomic_load(&e->last_error) };
        if (r.count == 0 && r.unsup == 0)
            continue;
        rows[n++] = r;
    }
    shell_sort(rows, n, sizeof rows[0], row_name_less);
    size_t m = 0;                 /* merge rows of the same name (different pointers) */
    for (size_t i = 0; i < n; i++) {
        if (m && strcmp(rows[m - 1].name, rows[i].name) == 0) {
            rows[m - 1].count += rows[i].count;
            rows[m - 1].ns += rows[i].ns;
            rows[m - 1].errors += rows[i].errors;
            rows[m - 1].unsup += rows[i].unsup;
            if (rows[i].last_error)
                rows[m - 1].last_error = rows[i].last_error;
        } else {
            rows[m++] = rows[i];
        }
    }
    shell_sort(rows, m, sizeof rows[0], row_time_less);
    return m;
}

/* Memory from mmap, not malloc: the exit path may run in a signal handler (trace.c). */
static size_t collect_kernels(void)
{
    size_t cap = 0, n = 0;
    kern_gen_t *newest = atomic_load_explicit(&kern_gens, memory_order_acquire);
    for (kern_gen_t *g = newest; g; g = g->older)
        cap += g->mask + 1;
    if (!cap)
        return 0;
    void *m = mmap(NULL, cap * sizeof *krows, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 0;
    krows = m;
    for (kern_gen_t *g = newest; g; g = g->older)
        for (size_t i = 0; i <= g->mask && n < cap; i++)
            if (atomic_load_explicit(&g->slot[i].key, memory_order_acquire) &&
                atomic_load(&g->slot[i].launches))
                krows[n++] = &g->slot[i];
    shell_sort(krows, n, sizeof krows[0], kern_time_less);
    return n;
}

static void status_text(const api_row_t *r, char *buf, size_t n)
{
    if (r->unsup)
        snprintf(buf, n, "unsupported");
    else if (r->errors)
        snprintf(buf, n, "errors %llu (last %d)", (unsigned long long)r->errors, r->last_error);
    else
        snprintf(buf, n, "ok");
}

static const char *op_name(int kind, int sub, char *buf, size_t n)
{
    static const char *dt[] = { "f16", "bf16", "f32", "f64", "c32", "c64", "i8", "i32" };
    switch (kind) {
    case NPU_OBS_K_COPY: snprintf(buf, n, "memcpy %s", npu_obs_copy_dir_name(sub)); break;
    case NPU_OBS_K_SET: snprintf(buf, n, "memset"); break;
    case NPU_OBS_K_GEMM: snprintf(buf, n, "cube gemm %s", sub < 8 ? dt[sub] : "?"); break;
    case NPU_OBS_K_HOSTFN: snprintf(buf, n, "host function"); break;
    default: snprintf(buf, n, "work"); break;
    }
    return buf;
}

/* ----------------------------------------------------------------- writing ---- */
/* Readable kernel name: the C++ runtime's demangler when the program has one loaded (nvcc
 * programs link libstdc++), else the mangled name. */
const char *npu_obs_demangle(const char *m, char *buf, size_t n)
{
    typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);
    static demangle_fn fn;
    static int looked;
    if (!looked) {
        fn = (demangle_fn)dlsym(RTLD_DEFAULT, "__cxa_demangle");
        looked = 1;
    }
    if (!fn || !m || m[0] != '_' || m[1] != 'Z')
        return m;
    int st = -1;
    char *r = fn(m, NULL, NULL, &st);
    if (r && st == 0) {
        snprintf(buf, n, "%s", r);
        free(r);
        return buf;
    }
    free(r);
    return m;
}

/* Seconds since the process started (its start time in /proc/self/stat, CLOCK_BOOTTIME). */
static double process_age_s(void)
{
    char buf[1024];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t k = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (k <= 0)
        return 0;
    buf[k] = 0;
    char *p = strrchr(buf, ')');
    unsigned long long start = 0;
    for (int field = 2; p && *p && field < 22; p++)
        if (*p == ' ' && ++field == 22)
            start = strtoull(p + 1, NULL, 10);
    long hz = sysconf(_SC_CLK_TCK);
    struct timespec ts;
    if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
        return 0;
    double now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
    double age = now - (double)start / (double)hz;
    return age > 0 ? age : 0;
}

static void write_summary(out_t *o, size_t na, size_t nk, int ndev)
{
    char cmd[512] = "?", st[64], nm[64];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t k = read(fd, cmd, sizeof cmd - 1);
        close(fd);
        if (k > 0) {
            for (ssize_t i = 0; i < k - 1; i++)
                if (!cmd[i]) cmd[i] = ' ';
            cmd[k] = 0;
        }
    }
    uint64_t calls = 0, unsup_calls = 0, nunsup = 0, errs = 0;
    for (size_t i = 0; i < na; i++) {
        calls += rows[i].count;
        errs += rows[i].errors;
        if (rows[i].unsup) {
            nunsup++;
            unsup_calls += rows[i].unsup;
        }
    }
    oprintf(o, "==== transfer_to_npu migration report ====\n");
    oprintf(o, "program: %s\npid: %d   wall time: %.3f s\n", cmd, (int)getpid(),
            process_age_s());
    oprintf(o, "\n-- CUDA API calls: %zu distinct APIs, %llu calls, %llu failed, %llu unsupported APIs --\n",
            na, (unsigned long long)calls, (unsigned long long)errs, (unsigned long long)nunsup);
    oprintf(o, "%-40s %10s %12s  %-20s %s\n", "API", "count", "time(ms)", "status", "NPU operation");
    for (size_t i = 0; i < na; i++) {
        status_text(&rows[i], st, sizeof st);
        oprintf(o, "%-40s %10llu %12.3f  %-20s %s\n", rows[i].name,
                (unsigned long long)(rows[i].count + rows[i].unsup), (double)rows[i].ns / 1e6, st,
                rows[i].unsup ? "(none)" : rule_find(npu_ops, sizeof npu_ops / sizeof npu_ops[0],
                                                    rows[i].name, "runtime"));
    }
    if (atomic_load(&api_full))
        oprintf(o, "(the API table was full: some APIs are missing)\n");
    if (nunsup) {
        oprintf(o, "\n-- Unsupported calls: %llu APIs, %llu calls --\n",
                (unsigned long long)nunsup, (unsigned long long)unsup_calls);
        for (size_t i = 0; i < na; i++)
            if (rows[i].unsup)
                oprintf(o, "%-40s %10llu  suggestion: %s\n", rows[i].name,
                        (unsigned long long)rows[i].unsup,
                        rule_find(suggestions, sizeof suggestions / sizeof suggestions[0],
                                  rows[i].name, ""));
    }
    uint64_t launches = 0;
    for (size_t i = 0; i < nk; i++)
        launches += atomic_load(&krows[i]->launches);
    oprintf(o, "\n-- Kernels: %zu distinct, %llu launches --\n", nk, (unsigned long long)launches);
    oprintf(o, "%-48s %10s %12s %10s %10s %s\n", "kernel", "launches", "time(ms)", "avg(us)",
            "JIT(ms)", "cache");
    for (size_t i = 0; i < nk; i++) {
        kern_ent_t *e = krows[i];
        uint64_t l = atomic_load(&e->launches), ns = atomic_load(&e->ns);
        oprintf(o, "%-48s %10llu %12.3f %10.1f %10.1f %s\n", npu_obs_kernel_pretty(e->name),
                (unsigned long long)l,
                (double)ns / 1e6, l ? (double)ns / 1e3 / (double)l : 0.0,
                (double)e->jit_ns / 1e6, e->from_cache ? "hit" : "compiled");
    }
    if (atomic_load(&kern_full))
        oprintf(o, "(out of memory for the kernel table: some kernels are missing)\n");
    oprintf(o, "\n-- NPU operations --\n%-24s %10s %16s %12s %12s\n", "operation", "count",
            "bytes/flop", "time(ms)", "rate");
    for (int k = 0; k < NPU_OBS_K_COUNT; k++)
        for (int s = 0; s < OP_SUB; s++) {
            uint64_t c = atomic_load(&op_count[k][s]);
            if (!c)
                continue;
            uint64_t b = atomic_load(&op_bytes[k][s]), ns = atomic_load(&op_ns[k][s]);
            double rate = ns ? (double)b / (double)ns : 0; /* bytes/ns = GB/s */
            oprintf(o, "%-24s %10llu %16llu %12.3f %8.2f %s\n", op_name(k, s, nm, sizeof nm),
                    (unsigned long long)c, (unsigned long long)b, (double)ns / 1e6, rate,
                    k == NPU_OBS_K_GEMM ? "GFLOP/s" : "GB/s");
        }
    oprintf(o, "\n-- Peak memory per device --\n");
    for (int d = 0; d < ndev; d++) {
        npu_mem_stats_t ms;
        if (npu_mem_get_stats(d, &ms) != NPU_OK)
            continue;
        oprintf(o, "NPU %d: peak allocated %.1f MiB, peak reserved %.1f MiB, capacity %.1f MiB; "
                   "at exit %zu live allocations (%.1f MiB)\n", d,
                (double)ms.peak_allocated / 1048576.0, (double)ms.peak_reserved / 1048576.0,
                (double)ms.capacity / 1048576.0, ms.num_allocs, (double)ms.allocated / 1048576.0);
    }
}

static void write_csvs(const char *stem, size_t na, size_t nk, int ndev)
{
    char path[4200], st[64], nm[64];
    out_t *o = &ob;
    snprintf(path, sizeof path, "%s.api.csv", stem);
    if (oopen(o, path)) {
        oprintf(o, "API,library,count,time_us,status,npu_operation,note\n");
        for (size_t i = 0; i < na; i++) {
            const api_row_t *r = &rows[i];
            status_text(r, st, sizeof st);
            ocsv(o, r->name);
            oprintf(o, ",%s,%llu,%.3f,", api_library(r->name),
                    (unsigned long long)(r->count + r->unsup), (double)r->ns / 1e3);
            ocsv(o, st);
            oprintf(o, ",");
            ocsv(o, r->unsup ? "" : rule_find(npu_ops, sizeof npu_ops / sizeof npu_ops[0], r->name,
                                              "runtime"));
            oprintf(o, ",");
            ocsv(o, r->unsup ? rule_find(suggestions, sizeof suggestions / sizeof suggestions[0],
                                         r->name, "") : "");
            oprintf(o, "\n");
        }
        oclose(o);
    }
    snprintf(path, sizeof path, "%s.unsupported.csv", stem);
    if (oopen(o, path)) {
        oprintf(o, "API,library,count,suggestion\n");
        for (size_t i = 0; i < na; i++)
            if (rows[i].unsup) {
                ocsv(o, rows[i].name);
                oprintf(o, ",%s,%llu,", api_library(rows[i].name),
                        (unsigned long long)rows[i].unsup);
                ocsv(o, rule_find(suggestions, sizeof suggestions / sizeof suggestions[0],
                                  rows[i].name, ""));
                oprintf(o, "\n");
            }
        oclose(o);
    }
    snprintf(path, sizeof path, "%s.kernels.csv", stem);
    if (oopen(o, path)) {
        oprintf(o, "kernel,launches,time_us,avg_us,jit_us,from_cache,name\n");
        for (size_t i = 0; i < nk; i++) {
            kern_ent_t *e = krows[i];
            uint64_t l = atomic_load(&e->launches), ns = atomic_load(&e->ns);
            ocsv(o, e->name);
            oprintf(o, ",%llu,%.3f,%.3f,%.3f,%d,", (unsigned long long)l, (double)ns / 1e3,
                    l ? (double)ns / 1e3 / (double)l : 0.0, (double)e->jit_ns / 1e3, e->from_cache);
            ocsv(o, npu_obs_kernel_pretty(e->name));
            oprintf(o, "\n");
        }
        oclose(o);
    }
    snprintf(path, sizeof path, "%s.ops.csv", stem);
    if (oopen(o, path)) {
        oprintf(o, "operation,count,bytes_or_flop,time_us\n");
        for (int k = 0; k < NPU_OBS_K_COUNT; k++)
            for (int s = 0; s < OP_SUB; s++) {
                uint64_t c = atomic_load(&op_count[k][s]);
                if (c)
                    oprintf(o, "%s,%llu,%llu,%.3f\n", op_name(k, s, nm, sizeof nm),
                            (unsigned long long)c,
                            (unsigned long long)atomic_load(&op_bytes[k][s]),
                            (double)atomic_load(&op_ns[k][s]) / 1e3);
            }
        oclose(o);
    }
    snprintf(path, sizeof path, "%s.memory.csv", stem);
    if (oopen(o, path)) {
        oprintf(o, "device,peak_allocated,peak_reserved,allocated_at_exit,live_allocations_at_exit,capacity\n");
        for (int d = 0; d < ndev; d++) {
            npu_mem_stats_t ms;
            if (npu_mem_get_stats(d, &ms) == NPU_OK)
                oprintf(o, "%d,%zu,%zu,%zu,%zu,%zu\n", d, ms.peak_allocated, ms.peak_reserved,
                        ms.allocated, ms.num_allocs, ms.capacity);
        }
        oclose(o);
    }
}

/* Expands "%p" to the pid. */
static void expand_path(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 12 < n; in++) {
        if (in[0] == '%' && in[1] == 'p') {
            k += (size_t)snprintf(out + k, n - k, "%d", (int)getpid());
            in++;
        } else {
            out[k++] = *in;
        }
    }
    out[k] = 0;
}

void npu_obs_report_write(void)
{
    const char *spec = npu_env("TRANSFER_TO_NPU_REPORT");
    if (!spec)
        return;
    size_t na = collect_apis(), nk = collect_kernels();
    int ndev = npu_device_count();
    out_t *o = &ob;
    if (strcmp(spec, "1") == 0 || strcmp(spec, "stderr") == 0) {
        o->fd = 2;
        o->n = 0;
        o->err = 0;
        write_summary(o, na, nk, ndev);
        oflush(o);
        return;
    }
    char path[4096], stem[4096], rel[4096];
    expand_path(spec, rel, sizeof rel);
    if (rel[0] != '/' && npu_obs_cwd[0])   /* relative to where the program started */
        snprintf(path, sizeof path, "%.2000s/%.2000s", npu_obs_cwd, rel);
    else
        snprintf(path, sizeof path, "%s", rel);
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        size_t l = strlen(path);
        snprintf(path + l, sizeof path - l, "/transfer_to_npu_report.txt");
    }
    snprintf(stem, sizeof stem, "%s", path);
    size_t sl = strlen(stem);
    if (sl > 4 && (!strcmp(stem + sl - 4, ".txt") || !strcmp(stem + sl - 4, ".log")))
        stem[sl - 4] = 0;
    if (oopen(o, path)) {
        write_summary(o, na, nk, ndev);
        oclose(o);
    }
    write_csvs(stem, na, nk, ndev);
    NPU_INFO("migration report written to %s", path);
}
