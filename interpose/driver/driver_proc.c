/*
 * driver_proc.c - cuGetProcAddress / cuGetProcAddress_v2 and cuGetExportTable.
 *
 * A statically linked cudart (the nvcc default) and the CUDA Python bindings reach the driver
 * only through cuGetProcAddress_v2(name, &fn, cudaVersion, flags, &status), with the base
 * name ("cuMemAlloc") and the CUDA version they were built for. Resolution is two tables:
 *   driver_versions.def  (name, ABI version, flavour) -> exported symbol, from cudaTypedefs.h
 *   driver_api.def       exported symbols we implement -> address
 * The newest ABI not newer than cudaVersion wins; CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM
 * picks the _ptsz/_ptds flavour where one exists (functions without stream semantics have
 * none and resolve to their plain symbol). CU_GET_PROC_ADDRESS_DEFAULT means the legacy
 * stream: the driver cannot know how the caller was compiled.
 *
 * A name whose only ABIs are newer than cudaVersion answers VERSION_NOT_SUFFICIENT. A name
 * CUDA has but we do not implement resolves to its generated not-supported stub (the same
 * function the shared-cudart path and a direct call of the libcuda.so.1 symbol reach:
 * shim_driver_stubs, scripts/gen_stubs.py): it logs its name once, is counted in the
 * migration report and returns CUDA_ERROR_NOT_SUPPORTED. Decision and evidence: answering
 * "not found" made NVIDIA's static cudart turn every such call into
 * cudaErrorCallRequiresNewerDriver (36) with nothing in the report (40 of the 44 failing
 * cuda-samples of issue 12), and cuda-python raise FunctionNotFoundError. A resolved stub is
 * what a real driver without the feature gives (NOT_SUPPORTED), and static cudart maps it to
 * cudaErrorNotSupported. What this costs feature probes, checked when it changed: cudart's
 * initialisation calls none of the stubs (tests/cuda/static_*.cu run with the report on and
 * list no unsupported call); CuPy, numba-cuda and cuda-python probe by calling, and take
 * their fallbacks on NOT_SUPPORTED as they do on a GPU that lacks the feature
 * (tests/python). Only a name CUDA does not have at all answers SYMBOL_NOT_FOUND.
 * Lookups are a linear scan of the ~680 version rows and of the ~260 implemented names, then
 * a binary search of the sorted stubs: measured on the 2-vCPU VM, resolving all 448 base
 * names once took 1.4 ms (3.1 us a name) with the linear scans, paid once at start-up by a
 * program that resolves everything, so a hash table would save nothing visible.
 *
 * cuGetExportTable serves NVIDIA's private interfaces (undocumented UUID-keyed tables): the
 * ones a statically linked cudart needs are in dark_api.c; any other UUID answers
 * CUDA_ERROR_NOT_SUPPORTED. NVRTC calls it when a libcuda.so.1 is loaded and carries on
 * without the tables it asks for (tests/cuda/nvrtc_*.cu).
 */
#include "interpose/driver/driver_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct ver_row {
    const char *name;
    int version;
    int per_thread;
    const char *symbol;
} ver_row_t;

static const ver_row_t ver_rows[] = {
#define DRV_VERSION(name, version, pt, symbol) { #name, version, pt, #symbol },
#include "interpose/driver/driver_versions.def"
#undef DRV_VERSION
};

typedef struct api_row {
    const char *symbol;
    void *fn;
} api_row_t;

static const api_row_t api_rows[] = {
#define DRV(symbol) { #symbol, (void *)&symbol },
#include "interpose/driver/driver_api.def"
#undef DRV
};

/* The generated not-supported stubs of the driver symbols we do not implement (sorted). */
typedef struct shim_stub_row { const char *name; void *fn; } shim_stub_row_t;
extern const shim_stub_row_t shim_driver_stubs[];
extern const unsigned shim_driver_stub_count;

static void *implemented(const char *symbol)
{
    for (size_t i = 0; i < sizeof api_rows / sizeof api_rows[0]; i++)
        if (strcmp(api_rows[i].symbol, symbol) == 0)
            return api_rows[i].fn;
    return NULL;
}

static void *unsupported_stub(const char *symbol)
{
    size_t lo = 0, hi = shim_driver_stub_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(shim_driver_stubs[mid].name, symbol);
        if (c == 0)
            return shim_driver_stubs[mid].fn;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static CUresult proc_address(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *status)
{
    CUdriverProcAddressQueryResult qs = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    CUresult r = CUDA_ERROR_NOT_FOUND;
    if (!symbol || !pfn ||
        (flags & ~(cuuint64_t)(CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                               CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM))) {
        if (pfn)
            *pfn = NULL;
        return CUDA_ERROR_INVALID_VALUE;
    }
    *pfn = NULL;
    int want_pt = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    int known = 0, has_pt = 0;
    for (size_t i = 0; i < sizeof ver_rows / sizeof ver_rows[0]; i++)
        if (strcmp(ver_rows[i].name, symbol) == 0) {
            known = 1;
            has_pt |= ver_rows[i].per_thread;
        }
    if (known) {
        int flavour = want_pt && has_pt;
        const ver_row_t *best = NULL;
        for (size_t i = 0; i < sizeof ver_rows / sizeof ver_rows[0]; i++) {
            const ver_row_t *v = &ver_rows[i];
            if (v->per_thread == flavour && v->version <= cudaVersion &&
                strcmp(v->name, symbol) == 0 && (!best || v->version > best->version))
                best = v;
        }
        if (!best) {
            qs = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
        } else if ((*pfn = implemented(best->symbol)) != NULL) {
            qs = CU_GET_PROC_ADDRESS_SUCCESS;
            r = CUDA_SUCCESS;
        } else if ((*pfn = unsupported_stub(best->symbol)) != NULL) {
            NPU_DEBUG("cuGetProcAddress: %s (%s) resolves to its not-supported stub", symbol,
                      best->symbol);
            qs = CU_GET_PROC_ADDRESS_SUCCESS;
            r = CUDA_SUCCESS;
        } else {
            NPU_WARN("cuGetProcAddress: %s (%s) has neither an implementation nor a stub",
                     symbol, best->symbol);
        }
    }
    if (status)
        *status = qs;
    return r;
}

NPU_EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                        cuuint64_t flags, CUdriverProcAddressQueryResult *symbolStatus)
{
    NPU_API_SCOPE(__func__);
    return proc_address(symbol, pfn, cudaVersion, flags, symbolStatus);
}

NPU_EXPORT CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    NPU_API_SCOPE(__func__);
    return proc_address(symbol, pfn, cudaVersion, flags, NULL);
}

NPU_EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    NPU_API_SCOPE(__func__);
    if (ppExportTable)
        *ppExportTable = NULL;
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    const unsigned char *u = (const unsigned char *)pExportTableId->bytes;
    if ((*ppExportTable = drv_export_table(u)) != NULL)
        return CUDA_SUCCESS;
    char id[40];
    snprintf(id, sizeof id, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
             u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    /* Static cudart 13 asks for f8cff951-... and NVRTC 13 for da9151d3-... and both carry on
     * without them (dark_api.c). Any other refusal makes the asking library fail (cuDNN 9's
     * static cudart: 21318c60-..., then CUDNN_STATUS_NOT_INITIALIZED): name the library in the
     * log and the migration report, so that the user learns what failed and why. */
    if (!strcmp(id, "f8cff951-2146-8b4e-b9e2-fb469e7c0dd9") || !strcmp(id, "da9151d3-3ae6-cc41-a5c0-4f26d533e328")) {
        NPU_DEBUG("cuGetExportTable: no table %s (optional)", id);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    Dl_info di;
    const char *who = "?";
    if (dladdr(__builtin_return_address(0), &di) && di.dli_fname) {
        who = strrchr(di.dli_fname, '/');
        who = who ? who + 1 : di.dli_fname;
    }
    NPU_WARN("cuGetExportTable: %s asked for the private driver interface {%s}, which transfer_to_npu does not "
              "provide; that library will fail (for PyTorch's cuDNN: torch.backends.cudnn.enabled = False)", who, id);
    npu_report_unsupported_fmt("cuGetExportTable {%s} (%s)", id, who);
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* cuLogsRegisterCallback / cuLogsUnregisterCallback: the callback receives every error and
 * warning the runtime logs (the lines TRANSFER_TO_NPU_LOG=warn prints), as the driver's
 * callbacks receive its error log. PyTorch registers one at start-up. cuLogsCurrent and the
 * dump calls (a log buffer to replay) are not provided. */
typedef struct { CUlogsCallback fn; void *data; } logs_cb_t;

static void logs_sink(void *data, int level, const char *msg, size_t len)
{
    const logs_cb_t *c = (const logs_cb_t *)data;
    c->fn(c->data, level == NPU_LOG_ERROR ? CU_LOG_LEVEL_ERROR : CU_LOG_LEVEL_WARNING, (char *)msg, len);
}

static logs_cb_t logs_cbs[16];

NPU_EXPORT CUresult cuLogsRegisterCallback(CUlogsCallback callbackFunc, void *userData, CUlogsCallbackHandle *callback_out)
{
    NPU_API_SCOPE(__func__);
    if (!callbackFunc)
        return CUDA_ERROR_INVALID_VALUE;
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&mu);
    logs_cb_t *slot = NULL;
    for (int i = 0; i < 16 && !slot; i++)
        if (!logs_cbs[i].fn) slot = &logs_cbs[i];
    if (slot) *slot = (logs_cb_t){ callbackFunc, userData };
    pthread_mutex_unlock(&mu);
    void *h = slot ? npu_log_add_sink(logs_sink, slot) : NULL;
    if (!h) {
        if (slot) slot->fn = NULL;
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    if (callback_out)
        *callback_out = (CUlogsCallbackHandle)h;
    return CUDA_SUCCESS;
}

NPU_EXPORT CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle callback)
{
    NPU_API_SCOPE(__func__);
    if (!callback)
        return CUDA_ERROR_INVALID_VALUE;
    void *data = NULL;   /* the sink's data is its slot: freed once the sink is gone */
    if (npu_log_remove_sink((void *)callback, &data) != 0 || data < (void *)logs_cbs ||
        data >= (void *)(logs_cbs + 16))
        return CUDA_ERROR_INVALID_VALUE;
    ((logs_cb_t *)data)->fn = NULL;
    return CUDA_SUCCESS;
}
