/*
 * npu_obs.h - observability: the migration report (report.c), the timeline trace (trace.c)
 * and the per-process state npu-smi reads (smi.c). No CUDA types.
 *
 *   TRANSFER_TO_NPU_REPORT=path|1   at exit: API calls (count, time, status, NPU operation),
 *                                   unsupported calls with a suggestion, kernels (launches,
 *                                   run time, JIT time), NPU operations, peak memory per device;
 *                                   a human summary (path, or stderr for 1) plus CSV files
 *   TRANSFER_TO_NPU_TRACE=file.json at exit: Chrome trace-event JSON (Perfetto): one track per
 *                                   stream (kernels, copies, gemms), one per host thread (API)
 *   TRANSFER_TO_NPU_TRACE_RANGE=mark|profiler  events outside cudaProfilerStart/Stop ranges are
 *                                   marked (default) or left out
 *   TRANSFER_TO_NPU_SMI=0           do not publish this process's state for scripts/npu-smi
 *
 * Cost when report and trace are off: every hook below is one predictable branch on
 * npu_obs_flags, which is read-only after npu_obs_init (the environment is read once). Before
 * init the flag holds NPU_OBS_UNINIT, so the very first hook takes the slow path, reads the
 * environment, and records the call if the environment asks for it.
 *
 * Hooks (each a single line in another module's file, marked "observability"):
 *   NPU_API_SCOPE(__func__);                    first statement of every exported CUDA entry
 *   st = NPU_OBS_ITEM_RUN(dev, sid, it->run(it)); a stream work item runs (stream.c)
 *   NPU_OBS_KERNEL_SCOPE(info, grid, block);    a kernel grid runs (exec_launch.c)
 *   NPU_OBS_COPY_SCOPE(dst, src, bytes); NPU_OBS_SET_SCOPE(dst, bytes);  (stream.c)
 *   NPU_OBS_GEMM_SCOPE(g);                      a cube GEMM runs (cube.c; g: npu_cube_gemm_t*)
 *   NPU_OBS_HOSTFN_SCOPE(fn);                   a host function runs in stream order (stream.c)
 *   npu_report_unsupported(name);               an unsupported entry point was called
 *   npu_obs_api_error(code);                    the current API call failed with code
 * A scope records when its enclosing block ends (__attribute__((cleanup))), so spans nest.
 *
 * Thread-safety: every function is callable from any thread at any time, including while the
 * process exits. The exit handler (registered by npu_obs_init, never in a constructor)
 * takes no lock that a hook can hold across a call out of this module, so an exit from
 * inside a CUDA call, a host callback or a signal handler that calls exit() still writes
 * complete files.
 */
#ifndef NPU_OBS_H
#define NPU_OBS_H

#include <stdint.h>
#include "npu.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    NPU_OBS_REPORT = 1,         /* TRANSFER_TO_NPU_REPORT set */
    NPU_OBS_TRACE = 2,          /* TRANSFER_TO_NPU_TRACE set */
    NPU_OBS_UNINIT = 0x80       /* npu_obs_init has not run yet */
};
extern unsigned npu_obs_flags;

/* Reads the environment once, registers the exit handler, starts the npu-smi publisher.
 * Idempotent; called from npu_init (device.c). Never calls npu_init. A hook that runs before
 * it (registration from static constructors) only reads the environment. */
void npu_obs_init(void);
unsigned npu_obs_flags_now(void);      /* the flags, reading the environment if needed */

/* Kinds of spans and NPU operations. */
enum npu_obs_kind {
    NPU_OBS_K_API = 0, NPU_OBS_K_KERNEL, NPU_OBS_K_COPY, NPU_OBS_K_SET, NPU_OBS_K_GEMM,
    NPU_OBS_K_WORK, NPU_OBS_K_HOSTFN, NPU_OBS_K_COUNT
};

/* ------------------------------------------------------------- API scopes ---- */
typedef struct npu_api_scope {
    const char *name;           /* NULL: not recording */
    uint64_t t0;
    int prev_error;             /* the enclosing call's error, restored at the end */
} npu_api_scope_t;

npu_api_scope_t npu_api_scope_begin_slow(const char *name);
void npu_api_scope_end_slow(npu_api_scope_t *s);

static inline npu_api_scope_t npu_api_scope_begin(const char *name)
{
    if (__builtin_expect(npu_obs_flags != 0, 0))
        return npu_api_scope_begin_slow(name);
    npu_api_scope_t s = { 0, 0, 0 };
    return s;
}

static inline void npu_api_scope_end(npu_api_scope_t *s)
{
    if (__builtin_expect(s->name != 0, 0))
        npu_api_scope_end_slow(s);
}

#define NPU_API_SCOPE(name) \
    npu_api_scope_t npu_api_scope_ __attribute__((cleanup(npu_api_scope_end), unused)) = \
        npu_api_scope_begin(name)

/* The API call in progress on this thread failed with code (its library's error type).
 * Error 0 is ignored. */
void npu_obs_api_error_slow(int code);
static inline void npu_obs_api_error(int code)
{
    if (__builtin_expect(npu_obs_flags != 0, 0) && code != 0)
        npu_obs_api_error_slow(code);
}

/* An unsupported entry point was called (every call counts; the log line stays once). */
void npu_report_unsupported(const char *api_name);
/* ... with a name formatted at run time (kept for the process's life) */
void npu_report_unsupported_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cudaProfilerStart (start = 1) / cudaProfilerStop (0): the program's profiling range begins
 * or ends now. A Start while started and a Stop while stopped change nothing; collection
 * starts stopped. The trace marks (or, with TRANSFER_TO_NPU_TRACE_RANGE=profiler, leaves
 * out) the events outside the ranges (trace.c). Always callable; records even when no trace
 * is being taken (cheap: one lock, one timestamp). */
void npu_obs_profiler(int start);
int npu_obs_profiler_active(void);     /* 1 between a Start and the next Stop */

/* ------------------------------------------------------------ work spans ---- */
typedef struct npu_obs_span {
    uint64_t t0;                /* 0: not recording */
    const void *p;              /* kernel info, gemm descriptor, dst */
    uint64_t a[6];
    int kind;
} npu_obs_span_t;

npu_obs_span_t npu_obs_span_begin_slow(int kind, const void *p, uint64_t a0, uint64_t a1,
                                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5);
void npu_obs_span_end_slow(npu_obs_span_t *s);

static inline npu_obs_span_t npu_obs_span_begin(int kind, const void *p, uint64_t a0,
                                                uint64_t a1, uint64_t a2, uint64_t a3,
                                                uint64_t a4, uint64_t a5)
{
    if (__builtin_expect(npu_obs_flags != 0, 0))
        return npu_obs_span_begin_slow(kind, p, a0, a1, a2, a3, a4, a5);
    npu_obs_span_t s;
    s.t0 = 0;
    return s;
}

static inline void npu_obs_span_end(npu_obs_span_t *s)
{
    if (__builtin_expect(s->t0 != 0, 0))
        npu_obs_span_end_slow(s);
}

#define NPU_OBS_SPAN_(kind, p, a0, a1, a2, a3, a4, a5) \
    npu_obs_span_t npu_obs_span_ __attribute__((cleanup(npu_obs_span_end), unused)) = \
        npu_obs_span_begin((kind), (p), (a0), (a1), (a2), (a3), (a4), (a5))
/* info: npu_kfunc_info_t *; grid, block: uint32_t[3] */
#define NPU_OBS_KERNEL_SCOPE(info, grid, block) \
    NPU_OBS_SPAN_(NPU_OBS_K_KERNEL, (info), (grid)[0], (grid)[1], (grid)[2], \
                  (block)[0], (block)[1], (block)[2])
#define NPU_OBS_COPY_SCOPE(dst, src, bytes) \
    NPU_OBS_SPAN_(NPU_OBS_K_COPY, (dst), (uint64_t)(uintptr_t)(src), (bytes), 0, 0, 0, 0)
#define NPU_OBS_SET_SCOPE(dst, bytes) \
    NPU_OBS_SPAN_(NPU_OBS_K_SET, (dst), (bytes), 0, 0, 0, 0, 0)
#define NPU_OBS_GEMM_SCOPE(g) NPU_OBS_SPAN_(NPU_OBS_K_GEMM, (g), 0, 0, 0, 0, 0, 0)
/* fn: the host function (cudaLaunchHostFunc / cudaStreamAddCallback) */
#define NPU_OBS_HOSTFN_SCOPE(fn) \
    NPU_OBS_SPAN_(NPU_OBS_K_HOSTFN, NULL, (uint64_t)(uintptr_t)(fn), 0, 0, 0, 0, 0)

/* A stream work item: spans recorded while it runs go to the stream's track; when none is,
 * the item itself becomes a "work" span. Evaluates to call's value. */
typedef struct npu_obs_item {
    uint64_t t0;                /* 0: not recording */
    int dev;
    unsigned long long sid;
    int prev_dev, prev_inner;
    unsigned long long prev_sid;
} npu_obs_item_t;
void npu_obs_item_begin_slow(npu_obs_item_t *o, int dev, unsigned long long sid);
void npu_obs_item_end_slow(npu_obs_item_t *o);
#define NPU_OBS_ITEM_RUN(dev, sid, call) __extension__({ \
        npu_obs_item_t npu_obs_it_; npu_obs_it_.t0 = 0; \
        if (__builtin_expect(npu_obs_flags != 0, 0)) \
            npu_obs_item_begin_slow(&npu_obs_it_, (dev), (sid)); \
        __typeof__(call) npu_obs_r_ = (call); \
        if (__builtin_expect(npu_obs_it_.t0 != 0, 0)) npu_obs_item_end_slow(&npu_obs_it_); \
        npu_obs_r_; })

/* ----------------------------------------------------- module internals ---- */
/* Shared by report.c, trace.c and smi.c only. */
extern char npu_obs_cwd[4096];         /* working directory when the environment was read */
void npu_obs_report_api(const char *name, uint64_t ns, int error_code);
void npu_obs_report_kernel(const void *info, uint64_t ns);
void npu_obs_report_op(int kind, int subkind, uint64_t bytes, uint64_t ns);
void npu_obs_report_write(void);       /* exit handler part */
void npu_obs_trace_write(void);        /* exit handler part */
void npu_obs_smi_start(void);
void npu_obs_smi_stop(void);           /* exit handler part: removes this process's entry */
const char *npu_obs_kernel_name(const void *info); /* interned "mangled\0demangled" */
const char *npu_obs_kernel_pretty(const char *interned); /* its demangled half */
const char *npu_obs_demangle(const char *mangled, char *buf, size_t n); /* or mangled itself */
/* Copy directions for NPU_OBS_K_COPY sub-kinds. */
enum { NPU_OBS_H2D = 0, NPU_OBS_D2H, NPU_OBS_D2D, NPU_OBS_H2H };
const char *npu_obs_copy_dir_name(int dir);
int npu_obs_copy_dir(const void *dst, const void *src);

#ifdef __cplusplus
}
#endif
#endif /* NPU_OBS_H */
