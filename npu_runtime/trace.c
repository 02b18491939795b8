/*
 * trace.c - observability switchboard (npu_obs_flags, npu_obs_init, the exit handler), the
 * hooks' slow paths (API scopes, work spans, stream items), and the timeline writer:
 * TRANSFER_TO_NPU_TRACE=file.json gets Chrome trace-event JSON that opens in Perfetto.
 *
 * DESIGN
 *
 * Queues. Each thread that records appends complete ("X") events to its own buffer: an
 * array of fixed-size chunks (mmap'ed, never freed, never moved). A buffer is created on the
 * thread's first event and pushed on a global lock-free list (CAS on the head); it outlives
 * its thread, so events of exited threads are written too. Only the owning thread writes a
 * buffer; it fills the event, then publishes it by a release store of the buffer's count.
 * A global atomic counter caps the total (TRANSFER_TO_NPU_TRACE_MAX events, default 1M,
 * 88 bytes each); events past the cap are counted and reported in the file's metadata.
 *
 * Locks. None on the recording path. The exit handler takes no lock: it walks the list and
 * reads each buffer up to its acquired count, so a thread still recording while the process
 * exits (a worker running a kernel, a host callback that called exit()) cannot block it or
 * be seen half-written. Memory for sorting is mmap'ed (not malloc), so a process exiting
 * from a signal handler that interrupted malloc still writes its trace.
 *
 * Ordering. An event is recorded when its span ends, with its start time and duration from
 * npu_now_ns (CLOCK_MONOTONIC, one clock for every thread). Spans on one track nest because
 * a scope ends before its enclosing scope (cleanup attribute, innermost first). Streams run
 * one item at a time, so spans on a stream track never overlap. The writer sorts events by
 * (track, start, longer first) so each track reads in order and parents precede children.
 *
 * Tracks. Host threads: pid = the process, tid = the thread id (API calls). Streams: one
 * "process" per device (pid 100000000 + device, named "NPU n") with one thread per stream
 * (tid = stream id): kernels (grid, block), copies (bytes, direction), memsets, gemms (m, n,
 * k, batch, type), and "work" for items without a labelled span. The track of a span is the
 * stream item running on the thread (a thread-local set by NPU_OBS_ITEM_RUN), else the host
 * thread.
 *
 * Completion. Hooks that run before npu_init (registration calls from a program's static
 * constructors) only read the environment. npu_obs_init, called by npu_init, registers one
 * atexit handler (never from a constructor); it removes the npu-smi entry, writes the
 * trace, then the report. A forked child inherits the handler and does nothing in it (pid
 * check).
 *
 * Signals. A program killed by SIGTERM or SIGINT (timeout, Ctrl-C, a batch scheduler) runs
 * no atexit handler, so when a report or trace is asked for, npu_obs_init also installs a
 * handler for the two, but only where the disposition is still the default: a program that
 * handles them itself keeps its handler (and one that installs its own later replaces
 * ours); its exit() then runs the exit handler as usual. Ours writes both files from the
 * signal handler itself, then restores the default action and re-raises, so the process
 * still dies by the signal (exit status 128 + n in a shell). Writing from the handler, not
 * from a thread woken by it, because a program killed for hanging (a kernel that never
 * ends, a deadlock) may never let another thread finish. That is why the writers take no
 * lock the interrupted thread can hold (the memory statistics take theirs with a timeout,
 * memory.c) and allocate nothing (mmap, static buffers, write(2)); they do use snprintf,
 * which POSIX does not list as async-signal-safe but which, for these integer, string and
 * short %f conversions, takes no lock and allocates nothing in glibc.
 *
 * Profiler ranges. cudaProfilerStart/Stop (cuProfilerStart/Stop) succeed, as on a GPU with no
 * profiler attached, and record when the program's profiling range begins and ends
 * (npu_obs_profiler: a transition log; Start while started and Stop while stopped change
 * nothing, and collection starts stopped, as with nsys --capture-range=cudaProfilerApi or
 * nvprof --profile-from-start off). A program that never calls Start gets its trace as
 * always. Otherwise, by default, every event is kept and the ones that begin outside every
 * range are marked: their category gains "outside_profiler_range" (chrome://tracing filters
 * by category; Perfetto shows it on the slice), each range is a slice "profiler range N" on
 * a track of its own, and the metadata counts both. TRANSFER_TO_NPU_TRACE_RANGE=profiler
 * leaves the events outside the ranges out instead, as those capture-range options do (a
 * program that never calls Start then gets no events). Marking by default, because a trace
 * taken for another reason should not lose what the program did before its first Start.
 * An event is inside when it overlaps a range, so the cudaProfilerStart call itself and a
 * kernel running across a boundary are kept.
 *
 * Decision: complete events written at span end, per-thread buffers, no lock. Measured on
 * this 2-vCPU VM (bench/bench_obs.c, thread CPU time, best of 5): an API entry point with
 * NPU_API_SCOPE costs 1.04-1.13 ns per call with everything off against 1.03-1.22 ns without
 * the hook (ratio 0.90-1.03: the branch is lost in the call), and 95-100 ns with the trace
 * and the report both on (two clock reads, TLS, one 88-byte event, relaxed atomic counters),
 * about 5% of a ~2 us cudaLaunchKernel.
 */
#include "npu_obs.h"
#include "npu_cube.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned npu_obs_flags = NPU_OBS_UNINIT;
char npu_obs_cwd[4096];

#define CHUNK_EV 4096u
#define MAX_CHUNKS 4096u
#define STREAM_PID_BASE 100000000

typedef struct ev {
    uint64_t ts, dur;
    const char *name;           /* API name (static) or interned kernel name */
    uint64_t a[6];
    uint32_t tid;               /* host thread id, or stream id */
    int16_t dev;                /* -1: host thread track */
    uint8_t kind, sub;
} ev_t;

typedef struct tbuf {
    struct tbuf *next;
    uint32_t tid;
    _Atomic uint64_t n;         /* published events */
    ev_t *chunk[MAX_CHUNKS];
} tbuf_t;

static pthread_once_t obs_once = PTHREAD_ONCE_INIT, env_once = PTHREAD_ONCE_INIT;
static pid_t obs_pid;
static char trace_path[4096];
static _Atomic(tbuf_t *) tbufs;
static atomic_ullong ev_total, ev_dropped;
static uint64_t ev_cap = 1000000;
static atomic_int obs_exiting;

/* Profiler range transitions: even index = a Start, odd = a Stop, in time order. Appended
 * under prof_lock (rare calls); the writer reads up to the acquired count without it. */
#define PROF_MAX 65536u
static uint64_t prof_ts[PROF_MAX];
static atomic_uint prof_n;
static atomic_int prof_lost;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static int prof_only;                      /* TRANSFER_TO_NPU_TRACE_RANGE=profiler */

static __thread tbuf_t *my_buf;
static __thread uint32_t my_tid;
static __thread int cur_dev = -1;          /* stream item running on this thread */
static __thread unsigned long long cur_sid;
static __thread int cur_inner;             /* a span was recorded inside the item */
static __thread int api_depth;
static __thread int api_error;

/* ------------------------------------------------------------------- init ---- */
static void obs_atexit(void)
{
    if (getpid() != obs_pid || atomic_exchange(&obs_exiting, 1))
        return;
    npu_obs_smi_stop();
    if (npu_obs_flags & NPU_OBS_TRACE)
        npu_obs_trace_write();
    if (npu_obs_flags & NPU_OBS_REPORT)
        npu_obs_report_write();
}

/* SIGTERM / SIGINT with their default action (death): write what the exit handler writes,
 * then let the default action proceed, so the exit status is still death by that signal.
 * Installed with SA_RESETHAND | SA_NODEFER: the disposition is back to default on entry, so
 * a second signal while the files are written (Ctrl-C twice) kills at once. */
static void obs_signal(int sig)
{
    int saved = errno;
    if (getpid() == obs_pid)
        obs_atexit();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    errno = saved;               /* reached only if the signal is ignored or blocked now */
}

/* Only over the default disposition: a program (or interpreter: Python's SIGINT handler
 * raises KeyboardInterrupt and exits through atexit) that handles the signal itself keeps
 * its handler, and one that installs its own later replaces ours; either way its exit()
 * runs the exit handler. */
static void obs_install_signals(void)
{
    static const int sigs[] = { SIGTERM, SIGINT };
    for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = obs_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_RESTART;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Reads the environment (no side effect: safe from a static constructor's registration
 * call, before npu_init). */
static void obs_env_once(void)
{
    unsigned f = 0;
    obs_pid = getpid();
    const char *r = npu_env("TRANSFER_TO_NPU_REPORT");
    if (r && strcmp(r, "0") != 0)
        f |= NPU_OBS_REPORT;
    if (!getcwd(npu_obs_cwd, sizeof npu_obs_cwd))
        npu_obs_cwd[0] = 0;
    const char *t = npu_env("TRANSFER_TO_NPU_TRACE");
    if (t && strcmp(t, "0") != 0 && strlen(t) + strlen(npu_obs_cwd) + 2 < sizeof trace_path) {
        /* relative to the directory the program started in, even if it changes directory */
        char rel[2048];
        size_t k = 0;
        for (; *t && k + 12 < sizeof rel; t++) {          /* "%p" -> pid */
            if (t[0] == '%' && t[1] == 'p') {
                k += (size_t)snprintf(rel + k, sizeof rel - k, "%d", (int)obs_pid);
                t++;
            } else {
                rel[k++] = *t;
            }
        }
        rel[k] = 0;
        if (rel[0] != '/' && npu_obs_cwd[0])
            snprintf(trace_path, sizeof trace_path, "%.2000s/%s", npu_obs_cwd, rel);
        else
            snprintf(trace_path, sizeof trace_path, "%s", rel);
        f |= NPU_OBS_TRACE;
    }
    const char *range = npu_env("TRANSFER_TO_NPU_TRACE_RANGE");
    if (range && strcmp(range, "profiler") == 0)
        prof_only = 1;
    else if (range && strcmp(range, "mark") != 0)
        NPU_WARN("TRANSFER_TO_NPU_TRACE_RANGE=%s: expected 'mark' or 'profiler'; marking", range);
    long long cap = npu_env_ll("TRANSFER_TO_NPU_TRACE_MAX", 1000000);
    if (cap > 0)
        ev_cap = (uint64_t)cap;
    __atomic_store_n(&npu_obs_flags, f, __ATOMIC_RELEASE);
}

/* The runtime starts: the exit handler and the npu-smi publisher. */
static void obs_init_once(void)
{
    pthread_once(&env_once, obs_env_once);
    atexit(obs_atexit);
    if (npu_obs_flags & (NPU_OBS_REPORT | NPU_OBS_TRACE))
        obs_install_signals();
    npu_obs_smi_start();
}

void npu_obs_init(void)
{
    pthread_once(&obs_once, obs_init_once);
}

static inline unsigned flags_now(void)
{
    unsigned f = __atomic_load_n(&npu_obs_flags, __ATOMIC_ACQUIRE);
    if (__builtin_expect(f & NPU_OBS_UNINIT, 0)) {
        pthread_once(&env_once, obs_env_once);
        f = __atomic_load_n(&npu_obs_flags, __ATOMIC_ACQUIRE);
    }
    return f;
}

unsigned npu_obs_flags_now(void)
{
    return flags_now();
}

/* -------------------------------------------------------------- recording ---- */
static uint32_t thread_id(void)
{
    if (!my_tid)
        my_tid = (uint32_t)syscall(SYS_gettid);
    return my_tid;
}

static tbuf_t *buf_get(void)
{
    if (my_buf)
        return my_buf;
    void *m = mmap(NULL, sizeof(tbuf_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    tbuf_t *b = m;
    b->tid = thread_id();
    tbuf_t *h = atomic_load(&tbufs);
    do
        b->next = h;
    while (!atomic_compare_exchange_weak(&tbufs, &h, b));
    my_buf = b;
    return b;
}

static ev_t *ev_slot(void)
{
    if (atomic_load_explicit(&obs_exiting, memory_order_relaxed))
        return NULL;
    if (atomic_fetch_add_explicit(&ev_total, 1, memory_order_relaxed) >= ev_cap) {
        atomic_fetch_add_explicit(&ev_dropped, 1, memory_order_relaxed);
        return NULL;
    }
    tbuf_t *b = buf_get();
    if (!b)
        return NULL;
    uint64_t n = atomic_load_explicit(&b->n, memory_order_relaxed);
    uint64_t c = n / CHUNK_EV;
    if (c >= MAX_CHUNKS)
        return NULL;
    if (!b->chunk[c]) {
        void *m = mmap(NULL, CHUNK_EV * sizeof(ev_t), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return NULL;
        __atomic_store_n(&b->chunk[c], (ev_t *)m, __ATOMIC_RELEASE);
    }
    return &b->chunk[c][n % CHUNK_EV];
}

static void ev_commit(void)
{
    atomic_fetch_add_explicit(&my_buf->n, 1, memory_order_release);
}

static void emit(int kind, int sub, const char *name, uint64_t t0, uint64_t t1,
                 const uint64_t *a, int on_stream)
{
    ev_t *e = ev_slot();
    if (!e)
        return;
    e->ts = t0;
    e->dur = t1 > t0 ? t1 - t0 : 0;
    e->name = name;
    if (a)
        memcpy(e->a, a, sizeof e->a);
    else
        memset(e->a, 0, sizeof e->a);
    e->kind = (uint8_t)kind;
    e->sub = (uint8_t)sub;
    if (on_stream && cur_dev >= 0) {
        e->dev = (int16_t)cur_dev;
        e->tid = (uint32_t)cur_sid;
    } else {
        e->dev = -1;
        e->tid = thread_id();
    }
    ev_commit();
}

/* ------------------------------------------------------------- API scopes ---- */
npu_api_scope_t npu_api_scope_begin_slow(const char *name)
{
    npu_api_scope_t s = { 0, 0, 0 };
    if (!flags_now() || !name)
        return s;
    s.name = name;
    s.prev_error = api_error;
    api_error = 0;
    api_depth++;
    s.t0 = npu_now_ns();
    return s;
}

void npu_api_scope_end_slow(npu_api_scope_t *s)
{
    uint64_t t1 = npu_now_ns();
    unsigned f = npu_obs_flags;
    int depth = --api_depth;
    if ((f & NPU_OBS_REPORT) && depth == 0)   /* calls the program made, not our own nesting */
        npu_obs_report_api(s->name, t1 - s->t0, api_error);
    if (f & NPU_OBS_TRACE) {
        uint64_t a[6] = { (uint64_t)(int64_t)api_error, 0, 0, 0, 0, 0 };
        emit(NPU_OBS_K_API, 0, s->name, s->t0, t1, a, 0);
    }
    api_error = s->prev_error;
}

void npu_obs_api_error_slow(int code)
{
    if (api_depth > 0)
        api_error = code;
}

/* -------------------------------------------------------- profiler ranges ---- */
void npu_obs_profiler(int start)
{
    uint64_t t = npu_now_ns();
    pthread_mutex_lock(&prof_lock);
    unsigned n = atomic_load_explicit(&prof_n, memory_order_relaxed);
    if ((n & 1u) == (start ? 0u : 1u)) {   /* a Start while stopped, a Stop while started */
        if (n < PROF_MAX) {
            prof_ts[n] = t;
            atomic_store_explicit(&prof_n, n + 1, memory_order_release);
        } else {
            atomic_store(&prof_lost, 1);
        }
    }
    pthread_mutex_unlock(&prof_lock);
}

int npu_obs_profiler_active(void)
{
    return (atomic_load(&prof_n) & 1u) != 0;
}

/* 1 when the span [t, t + dur] overlaps a profiler range (n transitions recorded). */
static int in_profiler_range(uint64_t t, uint64_t dur, unsigned n)
{
    unsigned lo = 0, hi = n;                /* count the transitions at or before t */
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (prof_ts[mid] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo & 1u)                            /* begins inside a range */
        return 1;
    return lo < n && prof_ts[lo] <= t + dur; /* the next Start comes before it ends */
}

/* ------------------------------------------------------------- work spans ---- */
npu_obs_span_t npu_obs_span_begin_slow(int kind, const void *p, uint64_t a0, uint64_t a1,
                                       uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5)
{
    npu_obs_span_t s;
    s.t0 = 0;
    if (!flags_now())
        return s;
    s.kind = kind;
    s.p = p;
    s.a[0] = a0; s.a[1] = a1; s.a[2] = a2; s.a[3] = a3; s.a[4] = a4; s.a[5] = a5;
    s.t0 = npu_now_ns();
    return s;
}

static const char *dtype_name(int t)
{
    static const char *n[] = { "f16", "bf16", "f32", "f64", "c32", "c64", "i8", "i32" };
    return t >= 0 && t < (int)(sizeof n / sizeof n[0]) ? n[t] : "?";
}

void npu_obs_span_end_slow(npu_obs_span_t *s)
{
    uint64_t t1 = npu_now_ns(), ns = t1 - s->t0;
    unsigned f = npu_obs_flags;
    const char *name = "work";
    uint64_t a[6];
    int sub = 0;
    memcpy(a, s->a, sizeof a);
    switch (s->kind) {
    case NPU_OBS_K_KERNEL:
        if (f & NPU_OBS_REPORT)
            npu_obs_report_kernel(s->p, ns);
        name = npu_obs_kernel_name(s->p);
        break;
    case NPU_OBS_K_COPY:
        sub = npu_obs_copy_dir(s->p, (const void *)(uintptr_t)s->a[0]);
        a[0] = s->a[1];                       /* bytes */
        if (f & NPU_OBS_REPORT)
            npu_obs_report_op(NPU_OBS_K_COPY, sub, a[0], ns);
        name = npu_obs_copy_dir_name(sub);
        break;
    case NPU_OBS_K_SET:
        if (f & NPU_OBS_REPORT)
            npu_obs_report_op(NPU_OBS_K_SET, 0, a[0], ns);
        name = "memset";
        break;
    case NPU_OBS_K_GEMM: {
        const npu_cube_gemm_t *g = s->p;
        if (g) {
            a[0] = (uint64_t)g->m; a[1] = (uint64_t)g->n; a[2] = (uint64_t)g->k;
            a[3] = (uint64_t)g->batch; a[4] = (uint64_t)g->atype; a[5] = (uint64_t)g->dtype;
        }
        uint64_t flop = g ? 2ull * a[0] * a[1] * a[2] * (a[3] ? a[3] : 1) : 0;
        if (f & NPU_OBS_REPORT)
            npu_obs_report_op(NPU_OBS_K_GEMM, g ? (int)g->atype : 0, flop, ns);
        name = g ? dtype_name((int)g->atype) : "gemm";
        sub = 1;
        break;
    }
    case NPU_OBS_K_HOSTFN:
        if (f & NPU_OBS_REPORT)
            npu_obs_report_op(NPU_OBS_K_HOSTFN, 0, 0, ns);
        name = "host function";
        break;
    default:
        break;
    }
    if (f & NPU_OBS_TRACE) {
        emit(s->kind, sub, name, s->t0, t1, a, 1);
        cur_inner = 1;
    }
}

void npu_obs_item_begin_slow(npu_obs_item_t *o, int dev, unsigned long long sid)
{
    o->t0 = 0;
    if (!(flags_now() & NPU_OBS_TRACE))
        return;
    o->dev = dev;
    o->sid = sid;
    o->prev_dev = cur_dev;
    o->prev_sid = cur_sid;
    o->prev_inner = cur_inner;
    cur_dev = dev;
    cur_sid = sid;
    cur_inner = 0;
    o->t0 = npu_now_ns();
}

void npu_obs_item_end_slow(npu_obs_item_t *o)
{
    uint64_t t1 = npu_now_ns();
    if (!cur_inner)
        emit(NPU_OBS_K_WORK, 0, "work", o->t0, t1, NULL, 1);
    cur_dev = o->prev_dev;
    cur_sid = o->prev_sid;
    cur_inner = o->prev_inner;
}

/* ----------------------------------------------------------------- writer ---- */
typedef struct wbuf {
    int fd;
    size_t n;
    int err;
    char b[65536];
} wbuf_t;

static wbuf_t wb;

static void wflush(wbuf_t *w)
{
    size_t off = 0;
    while (off < w->n && !w->err) {
        ssize_t r = write(w->fd, w->b + off, w->n - off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            w->err = 1;
        else
            off += (size_t)r;
    }
    w->n = 0;
}

static void wprintf(wbuf_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wprintf(wbuf_t *w, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k >= sizeof tmp)
        k = sizeof tmp - 1;
    if (w->n + (size_t)k > sizeof w->b)
        wflush(w);
    memcpy(w->b + w->n, tmp, (size_t)k);
    w->n += (size_t)k;
}

/* A JSON string body (no quotes), escaped. */
static void wjson_str(wbuf_t *w, const char *s)
{
    char tmp[512];
    size_t k = 0;
    for (; s && *s && k < sizeof tmp - 8; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            tmp[k++] = '\\';
            tmp[k++] = (char)c;
        } else if (c < 0x20) {
            k += (size_t)snprintf(tmp + k, 8, "\\u%04x", c);
        } else {
            tmp[k++] = (char)c;
        }
    }
    tmp[k] = 0;
    wprintf(w, "%s", tmp);
}

static int64_t track_pid(const ev_t *e)
{
    return e->dev < 0 ? (int64_t)obs_pid : (int64_t)STREAM_PID_BASE + e->dev;
}

static int ev_less(const ev_t *x, const ev_t *y)
{
    int64_t px = track_pid(x), py = track_pid(y);
    if (px != py) return px < py;
    if (x->tid != y->tid) return x->tid < y->tid;
    if (x->ts != y->ts) return x->ts < y->ts;
    return x->dur > y->dur;
}

static void sift(ev_t **v, size_t i, size_t n)
{
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            return;
        if (c + 1 < n && ev_less(v[c], v[c + 1]))
            c++;
        if (!ev_less(v[i], v[c]))
            return;
        ev_t *t = v[i]; v[i] = v[c]; v[c] = t;
        i = c;
    }
}

static void heapsort_ev(ev_t **v, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift(v, i, n);
    for (size_t e = n; e-- > 1;) {
        ev_t *t = v[0]; v[0] = v[e]; v[e] = t;
        sift(v, 0, e);
    }
}

static void write_args(wbuf_t *w, const ev_t *e)
{
    switch (e->kind) {
    case NPU_OBS_K_API:
        if (e->a[0])
            wprintf(w, ",\"args\":{\"error\":%lld}", (long long)(int64_t)e->a[0]);
        break;
    case NPU_OBS_K_KERNEL:
        wprintf(w, ",\"args\":{\"grid\":\"(%llu,%llu,%llu)\",\"block\":\"(%llu,%llu,%llu)\",\"mangled\":\"",
                (unsigned long long)e->a[0], (unsigned long long)e->a[1],
                (unsigned long long)e->a[2], (unsigned long long)e->a[3],
                (unsigned long long)e->a[4], (unsigned long long)e->a[5]);
        wjson_str(w, e->name ? e->name : "");
        wprintf(w, "\"}");
        break;
    case NPU_OBS_K_COPY:
        wprintf(w, ",\"args\":{\"bytes\":%llu,\"kind\":\"%s\"}", (unsigned long long)e->a[0],
                npu_obs_copy_dir_name(e->sub));
        break;
    case NPU_OBS_K_SET:
        wprintf(w, ",\"args\":{\"bytes\":%llu}", (unsigned long long)e->a[0]);
        break;
    case NPU_OBS_K_HOSTFN:
        wprintf(w, ",\"args\":{\"fn\":\"0x%llx\"}", (unsigned long long)e->a[0]);
        break;
    case NPU_OBS_K_GEMM:
        wprintf(w, ",\"args\":{\"m\":%llu,\"n\":%llu,\"k\":%llu,\"batch\":%llu,\"type\":\"%s\",\"out\":\"%s\"}",
                (unsigned long long)e->a[0], (unsigned long long)e->a[1],
                (unsigned long long)e->a[2], (unsigned long long)e->a[3],
                dtype_name((int)e->a[4]), dtype_name((int)e->a[5]));
        break;
    default:
        break;
    }
}

static const char *cat_name(int kind)
{
    static const char *n[] = { "api", "kernel", "memcpy", "memset", "gemm", "work", "hostfn" };
    return kind >= 0 && kind < NPU_OBS_K_COUNT ? n[kind] : "work";
}

static void write_meta(wbuf_t *w, int *first, int64_t pid, int64_t tid, const char *what,
                       const char *name)
{
    wprintf(w, "%s\n{\"ph\":\"M\",\"pid\":%lld,\"tid\":%lld,\"name\":\"%s\",\"args\":{\"name\":\"",
            *first ? "" : ",", (long long)pid, (long long)tid, what);
    wjson_str(w, name);
    wprintf(w, "\"}}");
    *first = 0;
}

void npu_obs_trace_write(void)
{
    if (!trace_path[0])
        return;
    size_t total = 0;
    for (tbuf_t *b = atomic_load(&tbufs); b; b = b->next)
        total += atomic_load_explicit(&b->n, memory_order_acquire);
    ev_t **v = NULL;
    size_t vbytes = (total ? total : 1) * sizeof *v, n = 0;
    void *m = mmap(NULL, vbytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED)
        v = m;
    else
        total = 0;
    for (tbuf_t *b = atomic_load(&tbufs); b && n < total; b = b->next) {
        uint64_t bn = atomic_load_explicit(&b->n, memory_order_acquire);
        for (uint64_t i = 0; i < bn && n < total; i++)
            v[n++] = &b->chunk[i / CHUNK_EV][i % CHUNK_EV];
    }
    /* Profiler ranges: mark the events outside them, or leave them out. */
    unsigned np = atomic_load_explicit(&prof_n, memory_order_acquire);
    size_t outside = 0, left_out = 0;
    if (np || prof_only) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            int in = np && in_profiler_range(v[i]->ts, v[i]->dur, np);
            if (!in && prof_only) {
                left_out++;
                continue;
            }
            outside += !in;
            v[k++] = v[i];
        }
        n = k;
    }
    heapsort_ev(v, n);

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%d", trace_path, (int)getpid());
    wbuf_t *w = &wb;
    w->fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    w->n = 0;
    w->err = 0;
    if (w->fd < 0) {
        NPU_WARN("cannot write the trace %s: %s", trace_path, strerror(errno));
        if (v)
            munmap(v, vbytes);
        return;
    }
    uint64_t base = n ? v[0]->ts : np ? prof_ts[0] : 0;
    for (size_t i = 0; i < n; i++)
        if (v[i]->ts < base)
            base = v[i]->ts;
    for (unsigned i = 0; i < np; i++)
        if (prof_ts[i] < base)
            base = prof_ts[i];
    wprintf(w, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"transfer_to_npu\","
               "\"events\":%zu,\"dropped\":%llu", n,
            (unsigned long long)atomic_load(&ev_dropped));
    if (np || prof_only)
        wprintf(w, ",\"profiler_ranges\":%u,\"profiler_range_mode\":\"%s\","
                   "\"outside_profiler_range\":%zu,\"left_out_outside_profiler_range\":%zu%s",
                (np + 1) / 2, prof_only ? "profiler" : "mark", outside, left_out,
                atomic_load(&prof_lost) ? ",\"profiler_transitions_lost\":1" : "");
    wprintf(w, "},\"traceEvents\":[");
    int first = 1;
    /* Track names: the process, its host threads, then each device and stream. */
    char nm[128];
    write_meta(w, &first, obs_pid, 0, "process_name", "host (CUDA API calls)");
    int64_t lp = -1, lt = -1;
    for (size_t i = 0; i < n; i++) {
        const ev_t *e = v[i];
        int64_t p = track_pid(e);
        if (p != lp && e->dev >= 0) {
            snprintf(nm, sizeof nm, "NPU %d (emulated)", e->dev);
            write_meta(w, &first, p, 0, "process_name", nm);
            wprintf(w, ",\n{\"ph\":\"M\",\"pid\":%lld,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}",
                    (long long)p, 10 + e->dev);
        }
        if (p != lp || (int64_t)e->tid != lt) {
            if (e->dev >= 0)
                snprintf(nm, sizeof nm, "Stream %u", e->tid);
            else
                snprintf(nm, sizeof nm, "host thread %u%s", e->tid,
                         (pid_t)e->tid == obs_pid ? " (main)" : "");
            write_meta(w, &first, p, e->tid, "thread_name", nm);
        }
        lp = p;
        lt = e->tid;
    }
    if (np) {                 /* the ranges themselves, on a track of their own (tid 0) */
        write_meta(w, &first, obs_pid, 0, "thread_name", "profiler ranges (cudaProfilerStart/Stop)");
        uint64_t end = base;
        for (size_t i = 0; i < n; i++)
            if (v[i]->ts + v[i]->dur > end)
                end = v[i]->ts + v[i]->dur;
        for (unsigned r = 0; r < np; r += 2) {
            uint64_t t0 = prof_ts[r], t1 = r + 1 < np ? prof_ts[r + 1] : end;
            uint64_t ts = t0 - base, dur = t1 > t0 ? t1 - t0 : 0;
            wprintf(w, ",\n{\"ph\":\"X\",\"pid\":%lld,\"tid\":0,\"ts\":%llu.%03u,\"dur\":%llu.%03u,"
                       "\"cat\":\"profiler_range\",\"name\":\"profiler range %u\"}",
                    (long long)obs_pid, (unsigned long long)(ts / 1000), (unsigned)(ts % 1000),
                    (unsigned long long)(dur / 1000), (unsigned)(dur % 1000), r / 2 + 1);
        }
    }
    for (size_t i = 0; i < n; i++) {
        const ev_t *e = v[i];
        uint64_t ts = e->ts - base;
        wprintf(w, "%s\n{\"ph\":\"X\",\"pid\":%lld,\"tid\":%u,\"ts\":%llu.%03u,\"dur\":%llu.%03u,\"cat\":\"%s%s\",\"name\":\"",
                first ? "" : ",", (long long)track_pid(e), e->tid,
                (unsigned long long)(ts / 1000), (unsigned)(ts % 1000),
                (unsigned long long)(e->dur / 1000), (unsigned)(e->dur % 1000),
                cat_name(e->kind),
                np && !in_profiler_range(e->ts, e->dur, np) ? ",outside_profiler_range" : "");
        first = 0;
        if (e->kind == NPU_OBS_K_COPY)
            wprintf(w, "memcpy %s", e->name ? e->name : "");
        else if (e->kind == NPU_OBS_K_GEMM)
            wprintf(w, "gemm %llux%llux%llu %s", (unsigned long long)e->a[0],
                    (unsigned long long)e->a[1], (unsigned long long)e->a[2],
                    e->name ? e->name : "");
        else if (e->kind == NPU_OBS_K_KERNEL)
            wjson_str(w, e->name ? npu_obs_kernel_pretty(e->name) : "?");
        else
            wjson_str(w, e->name ? e->name : "?");
        wprintf(w, "\"");
        write_args(w, e);
        wprintf(w, "}");
    }
    wprintf(w, "\n]}\n");
    wflush(w);
    int bad = w->err;
    close(w->fd);
    if (v)
        munmap(v, vbytes);
    if (bad || rename(tmp, trace_path) != 0) {
        NPU_WARN("cannot write the trace %s", trace_path);
        unlink(tmp);
        return;
    }
    NPU_INFO("trace: %zu events written to %s", n, trace_path);
}
