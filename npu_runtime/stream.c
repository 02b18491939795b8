/*
 * stream.c - in-order work queues (streams), the legacy / per-thread default streams,
 * host functions, async copies and sets, npu_device_sync and npu_device_reset.
 *
 * DESIGN
 *
 * Queues. Each stream owns a singly linked FIFO of work items (head/tail) guarded by
 * s->lock. Every item gets a sequence number at submit (s->submitted); when it has finished
 * (run, cleanup) s->completed is set to its number. Invariant, kept under s->lock: the queue
 * is empty exactly when submitted == completed. The head item stays in the queue while it
 * runs and is popped, under s->lock, together with the store to s->completed.
 *
 * Execution. At most one thread executes a stream's items at a time: whoever wins the CAS
 * on s->exec (0 -> 1) may run the head item. Two kinds of thread do that:
 *  - the stream's worker thread, created lazily on the stream's first submission (never in
 *    a constructor); it exits when its stream is destroyed and drained;
 *  - a host thread that waits on the stream (npu_stream_sync, npu_event_sync,
 *    npu_device_sync): it "helps" by running ready items itself, which needs no hand-off.
 * An item runs only when all its dependencies (stream, seq) are reached; a blocked head is
 * left in place (the exec flag is released) and its executor waits on the dependency.
 * Stream order holds because only the exec holder pops, and only the head.
 *
 * Waiting. A waiter first spins (bounded: WORKER_SPIN_NS for an idle worker, HOST_SPIN_NS for
 * a waiting host thread), then sleeps on the awaited stream's done_cv. Lost wake-ups are
 * excluded by a Dekker pair of seq_cst atomics: the sleeper increments s->waiters then
 * re-checks s->completed under s->lock; the completer stores s->completed then, if
 * s->waiters != 0, broadcasts under s->lock. An idle worker sleeps on work_cv with
 * s->worker_sleeping set under s->lock; a submitter signals it under s->lock. Nothing spins
 * once the program is idle: every spin ends after its budget.
 *
 * Legacy default stream. Each device slot has a mutex (dev->lock) that orders submissions
 * to the legacy stream and to blocking streams (user streams without NONBLOCKING and the
 * per-thread streams). Under it, a legacy item gets one dependency per blocking stream with
 * unfinished work (that stream's last number), and a blocking-stream item gets one on the
 * legacy stream's last number. Because all these numbers are taken under one lock, and event
 * waits only point at earlier submissions, the dependency graph has no cycle. Non-blocking
 * streams never take dev->lock. Lock order: dev->lock, then s->lock; registry locks are
 * never held while taking either. Synchronising the legacy stream (sync, query, an event
 * record or wait on it) is an action on it, so it also covers the blocking streams' earlier
 * work; synchronising a blocking stream covers only its own work.
 * Work items run on a worker or on a helping host thread: they must not depend on the
 * calling thread's current device, nor synchronise their own stream.
 *
 * Lifetime. Streams are reference counted: the handle (until destroy), the worker thread,
 * every dependency stored in an item and every event capture hold one. The handle registry
 * (a hash set of live pointers under reg_lock) makes npu_stream_valid safe on garbage and
 * lets each API call take a reference before touching the stream. The last unref unlinks
 * the stream from its device list and frees it.
 *
 * Priorities are recorded and reported, not used for scheduling: each stream has its own
 * worker and the OS schedules them.
 *
 * Errors. Before running an item (not INTERNAL ones), the executor reads the device's
 * sticky error; when set, the item's run is skipped and only its cleanup runs. A non-OK
 * status from run goes to npu_device_set_error. Synchronising calls return the sticky error,
 * else the pending non-sticky async error (once).
 *
 * Decision: one worker thread per stream, plus host helping. Measured on this 2-vCPU VM
 * (bench/bench_stream.c, medians of 20000): a round trip (host function + npu_stream_sync)
 * takes 0.20 us, an event round trip (host fn + record + npu_event_sync) 0.4 us, 100000
 * queued host functions 0.16-0.19 us each, because the syncing thread runs the item itself
 * or catches a spinning worker. After the worker went to sleep (2 ms pause) a round trip
 * costs 3-8 us, nearly all of it the futex wake in submit (2.8-4.3 us measured alone); the helping host does not wait for the wakee. The
 * same bench's condvar ping-pong (a design whose hand-offs sleep) takes 7-49 us. A shared
 * pool would need a ready-list of streams and a second hand-off per item for no gain at the
 * stream counts CUDA programs use (PyTorch: tens per device); a sleeping worker costs only
 * its stack (default size: host functions and kernels run on it). 64 MiB npu_memcpy_async + sync runs at 0.97-0.99 of memcpy.
 * Spin budgets: WORKER_SPIN_NS 100 us after the last item, HOST_SPIN_NS 200 us in a wait
 * (TRANSFER_TO_NPU_HOST_SPIN_US); both bounded, so an idle program burns no core. Measured
 * with examples/train_cupy.py (one sync per step, 2 vCPUs, 3-4 runs each): 0 us 807-876
 * steps/s, 20 us 844-888, 200 us 963-1034, 1000 or 5000 us no better than 200.
 */
#include "npu.h"
#include "stream_internal.h"
#include "npu_obs.h"  /* observability (npu_obs.h) */
#include "kernel/exec_internal.h"   /* npu_exec_help */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uthash.h>

#define NPU_MAX_DEV 64
#define WORKER_SPIN_NS 100000ull
#define HOST_SPIN_NS host_spin_ns()
/* TRANSFER_TO_NPU_HOST_SPIN_US: how long a waiting host thread spins before it sleeps (read once) */
static uint64_t host_spin_ns(void)
{
    static _Atomic long long v = -1;
    long long x = atomic_load_explicit(&v, memory_order_relaxed);
    if (x < 0) {
        x = npu_env_ll("TRANSFER_TO_NPU_HOST_SPIN_US", 200);
        if (x < 0) x = 0;
        x *= 1000;
        atomic_store_explicit(&v, x, memory_order_relaxed);
    }
    return (uint64_t)x;
}

enum { KIND_USER = 0, KIND_LEGACY = 1, KIND_PER_THREAD = 2 };

struct npu_stream {
    const void *key;                 /* == self, the registry key */
    UT_hash_handle hh;
    pthread_mutex_t lock;            /* queue, worker state, destroyed */
    pthread_cond_t work_cv;          /* idle worker sleeps here */
    pthread_cond_t done_cv;          /* waiters for completion sleep here */
    npu_item_t *head, *tail;
    _Atomic uint64_t submitted;
    _Atomic uint64_t completed;
    atomic_int exec;                 /* 1 while some thread executes the head item */
    atomic_int waiters;              /* threads sleeping (or about to) on done_cv */
    atomic_int refs;
    int has_worker, worker_sleeping, destroyed, in_registry;
    int kind, dev, priority;
    unsigned flags;
    unsigned long long id;
    npu_stream_t *dnext, *dprev;     /* device list, under devs[dev].lock */
};

typedef struct dev_slot {
    pthread_mutex_t lock;            /* legacy ordering + the device's stream list */
    npu_stream_t *list;              /* every stream of the device not yet freed */
    npu_stream_t *_Atomic legacy;
} dev_slot_t;

static dev_slot_t devs[NPU_MAX_DEV];
static pthread_once_t devs_once = PTHREAD_ONCE_INIT;
static pthread_rwlock_t reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static npu_stream_t *registry;       /* live handles */
static atomic_ullong next_id = 1;
static pthread_key_t pts_key;

static void pts_release(void *arg);

static void devs_init(void)
{
    for (int i = 0; i < NPU_MAX_DEV; i++)
        pthread_mutex_init(&devs[i].lock, NULL);
    pthread_key_create(&pts_key, pts_release);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* One spin step; returns 0 once budget_ns has passed since *t0 (0 = not started). */
static int spin_step(uint64_t *t0, uint64_t budget_ns, unsigned *iter)
{
    cpu_relax();
    if ((++*iter & 63) != 0)
        return 1;
    uint64_t now = npu_now_ns();
    if (*t0 == 0)
        *t0 = now;
    if (now - *t0 >= budget_ns)
        return 0;
    if ((*iter & 1023) == 0)
        sched_yield();               /* let a descheduled executor run when oversubscribed */
    return 1;
}

static int dev_ok(int dev)
{
    if (dev < 0 || dev >= NPU_MAX_DEV)
        return 0;
    int n = npu_device_count();
    if (n <= 0 && npu_init() == NPU_OK)
        n = npu_device_count();
    return dev < n;
}

/* ------------------------------------------------------------- references ---- */
void npu_stream_ref(npu_stream_t *s)
{
    atomic_fetch_add(&s->refs, 1);
}

static int ref_not_zero(npu_stream_t *s)
{
    int r = atomic_load(&s->refs);
    while (r > 0)
        if (atomic_compare_exchange_weak(&s->refs, &r, r + 1))
            return 1;
    return 0;
}

void npu_stream_unref(npu_stream_t *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    dev_slot_t *d = &devs[s->dev];
    pthread_mutex_lock(&d->lock);
    if (s->dprev) s->dprev->dnext = s->dnext; else d->list = s->dnext;
    if (s->dnext) s->dnext->dprev = s->dprev;
    pthread_mutex_unlock(&d->lock);
    for (npu_item_t *it = s->head; it; ) {   /* cannot happen: the worker drains first */
        npu_item_t *n = it->next;
        free(it);
        it = n;
    }
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->work_cv);
    pthread_cond_destroy(&s->done_cv);
    free(s);
}

npu_stream_t *npu_stream_acquire(const npu_stream_t *p)
{
    npu_stream_t *s = NULL;
    if (!p)
        return NULL;
    pthread_rwlock_rdlock(&reg_lock);
    HASH_FIND_PTR(registry, &p, s);
    if (s)
        npu_stream_ref(s);
    pthread_rwlock_unlock(&reg_lock);
    return s;
}

int npu_stream_dev_of(const npu_stream_t *s)
{
    return s->dev;
}

int npu_stream_reached(npu_stream_t *s, uint64_t seq)
{
    return atomic_load(&s->completed) >= seq;
}

/* ------------------------------------------------------------------ items ---- */
npu_item_t *npu_item_new(void)
{
    npu_item_t *it = calloc(1, sizeof *it);
    if (it) {
        it->deps = it->dep_inline;
        it->cap = 2;
    }
    return it;
}

static int item_add_dep(npu_item_t *it, npu_stream_t *s, uint64_t seq)
{
    if (it->ndeps == it->cap) {
        unsigned ncap = it->cap * 2;
        npu_dep_t *nd = malloc(ncap * sizeof *nd);
        if (!nd)
            return 0;
        memcpy(nd, it->deps, it->ndeps * sizeof *nd);
        if (it->deps != it->dep_inline)
            free(it->deps);
        it->deps = nd;
        it->cap = ncap;
    }
    npu_stream_ref(s);
    it->deps[it->ndeps].s = s;
    it->deps[it->ndeps].seq = seq;
    it->ndeps++;
    return 1;
}

/* Appends a dependency whose reference the caller already took (ref_not_zero). */
static int item_add_dep_owned(npu_item_t *it, npu_stream_t *s, uint64_t seq)
{
    if (!item_add_dep(it, s, seq))
        return 0;
    atomic_fetch_sub(&s->refs, 1);   /* item_add_dep took a second one */
    return 1;
}

static void item_free(npu_item_t *it);

/* A submission that failed: the item's cleanup still runs (its run never does). */
static void item_fail(npu_item_t *it)
{
    if (it->done)
        it->done(it);
    item_free(it);
}

static void item_free(npu_item_t *it)
{
    for (unsigned i = it->ndone; i < it->ndeps; i++)
        npu_stream_unref(it->deps[i].s);
    if (it->deps != it->dep_inline)
        free(it->deps);
    free(it);
}

/* Runs an item's work (unless the device is poisoned) and its cleanup. */
static void item_execute(npu_stream_t *s, npu_item_t *it)
{
    if (it->run) {
        npu_status_t st;
        if (!(it->flags & NPU_ITEM_INTERNAL) && npu_status_is_sticky(npu_device_error(s->dev)))
            st = NPU_OK;             /* skipped: the device is poisoned */
        else
            st = NPU_OBS_ITEM_RUN(s->dev, s->id, it->run(it));  /* observability (npu_obs.h) */
        if (st != NPU_OK)
            npu_device_set_error(s->dev, st);
    }
    if (it->done)
        it->done(it);
}

static void notify_done(npu_stream_t *s)
{
    if (atomic_load(&s->waiters) > 0) {
        pthread_mutex_lock(&s->lock);
        pthread_cond_broadcast(&s->done_cv);
        pthread_mutex_unlock(&s->lock);
    }
}

enum { P_RAN, P_EMPTY, P_BUSY, P_BLOCKED };

/* Tries to run s's head item. P_BLOCKED: *blk receives the unreached dependency (with a
 * reference the caller drops). */
static int stream_progress(npu_stream_t *s, npu_dep_t *blk)
{
    int zero = 0;
    if (!__atomic_load_n(&s->head, __ATOMIC_ACQUIRE))
        return P_EMPTY;
    if (!atomic_compare_exchange_strong(&s->exec, &zero, 1))
        return P_BUSY;
    npu_item_t *it = __atomic_load_n(&s->head, __ATOMIC_ACQUIRE);
    if (!it) {
        atomic_store(&s->exec, 0);
        return P_EMPTY;
    }
    while (it->ndone < it->ndeps) {
        npu_dep_t *d = &it->deps[it->ndone];
        if (!npu_stream_reached(d->s, d->seq)) {
            blk->s = d->s;
            blk->seq = d->seq;
            npu_stream_ref(d->s);
            atomic_store(&s->exec, 0);
            return P_BLOCKED;
        }
        npu_stream_unref(d->s);
        it->ndone++;
    }
    item_execute(s, it);
    pthread_mutex_lock(&s->lock);
    __atomic_store_n(&s->head, it->next, __ATOMIC_RELEASE);
    if (!it->next)
        s->tail = NULL;
    atomic_store(&s->completed, it->seq);
    pthread_mutex_unlock(&s->lock);
    atomic_store(&s->exec, 0);
    notify_done(s);
    item_free(it);
    return P_RAN;
}

/* Sleeps until (s, seq) is reached. */
static void sleep_until(npu_stream_t *s, uint64_t seq)
{
    atomic_fetch_add(&s->waiters, 1);
    pthread_mutex_lock(&s->lock);
    while (atomic_load(&s->completed) < seq)
        pthread_cond_wait(&s->done_cv, &s->lock);
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_sub(&s->waiters, 1);
}

/* Sleeps until (s, seq) is reached or timeout_ns has passed. */
static void sleep_until_timed(npu_stream_t *s, uint64_t seq, uint64_t timeout_ns)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += (long)timeout_ns;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    atomic_fetch_add(&s->waiters, 1);
    pthread_mutex_lock(&s->lock);
    while (atomic_load(&s->completed) < seq)
        if (pthread_cond_timedwait(&s->done_cv, &s->lock, &ts) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_sub(&s->waiters, 1);
}

/* Spins, then sleeps, until (s, seq) is reached; no helping. */
static void wait_reach(npu_stream_t *s, uint64_t seq, uint64_t spin_ns)
{
    uint64_t t0 = 0;
    unsigned iter = 0;
    while (!npu_stream_reached(s, seq)) {
        if (!spin_step(&t0, spin_ns, &iter)) {
            sleep_until(s, seq);
            return;
        }
    }
}

/* Runs one ready item of s, or of a stream s's head waits for. Returns 1 if it ran one. */
static int help(npu_stream_t *s, int depth)
{
    npu_dep_t blk;
    int r = stream_progress(s, &blk);
    if (r == P_RAN)
        return 1;
    if (r != P_BLOCKED)
        return 0;
    int ran = depth < 8 ? help(blk.s, depth + 1) : 0;
    npu_stream_unref(blk.s);
    return ran;
}

void npu_stream_wait_point(npu_stream_t *s, uint64_t seq, int spin)
{
    uint64_t t0 = 0;
    unsigned iter = 0;
    while (!npu_stream_reached(s, seq)) {
        if (help(s, 0) || npu_exec_help()) {   /* its next item, else blocks of a running grid */
            t0 = 0;
            continue;
        }
        if (!spin || !spin_step(&t0, HOST_SPIN_NS, &iter)) {
            sleep_until(s, seq);
            return;
        }
    }
}

/* ----------------------------------------------------------------- worker ---- */
static void *worker_main(void *arg)
{
    npu_stream_t *s = arg;
    uint64_t t0 = 0;
    unsigned iter = 0;
    for (;;) {
        npu_dep_t blk;
        uint64_t c;
        switch (stream_progress(s, &blk)) {
        case P_RAN:
            t0 = 0;
            continue;
        case P_BLOCKED:
            wait_reach(blk.s, blk.seq, WORKER_SPIN_NS);
            npu_stream_unref(blk.s);
            continue;
        case P_BUSY:                 /* a helping host thread runs the head: help with its blocks */
            if (npu_exec_help()) {
                t0 = 0;
                continue;
            }
            c = atomic_load(&s->completed);
            if (!spin_step(&t0, WORKER_SPIN_NS, &iter)) {
                sleep_until_timed(s, c + 1, 1000000);
                t0 = 0;
            }
            continue;
        default:
            break;
        }
        if (spin_step(&t0, WORKER_SPIN_NS, &iter))
            continue;
        pthread_mutex_lock(&s->lock);
        while (!s->head && !s->destroyed) {
            s->worker_sleeping = 1;
            pthread_cond_wait(&s->work_cv, &s->lock);
            s->worker_sleeping = 0;
        }
        if (!s->head && s->destroyed) {
            s->has_worker = 0;
            pthread_mutex_unlock(&s->lock);
            npu_stream_unref(s);
            return NULL;
        }
        pthread_mutex_unlock(&s->lock);
        t0 = 0;
    }
}

/* Starts s's worker; s->lock held. */
static npu_status_t start_worker_locked(npu_stream_t *s)
{
    pthread_attr_t attr;
    pthread_t tid;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    npu_stream_ref(s);
    int rc = pthread_create(&tid, &attr, worker_main, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        atomic_fetch_sub(&s->refs, 1);   /* the handle still holds one */
        NPU_ERR("cannot start a stream worker thread: %s", strerror(rc));
        return NPU_EHOSTMEM;
    }
    s->has_worker = 1;
    return NPU_OK;
}

/* ----------------------------------------------------------------- submit ---- */
static int syncs_with_legacy(const npu_stream_t *s)
{
    return s->kind == KIND_LEGACY || !(s->flags & NPU_STREAM_NONBLOCKING);
}

/* Adds to it the dependencies implied by the legacy-stream rules; dev->lock held. */
static int add_legacy_deps_locked(dev_slot_t *d, npu_stream_t *s, npu_item_t *it)
{
    if (s->kind == KIND_LEGACY) {
        for (npu_stream_t *b = d->list; b; b = b->dnext) {
            if (b == s || (b->flags & NPU_STREAM_NONBLOCKING))
                continue;
            uint64_t sub = atomic_load(&b->submitted);
            if (sub > atomic_load(&b->completed) && ref_not_zero(b) &&
                !item_add_dep_owned(it, b, sub)) {
                atomic_fetch_sub(&b->refs, 1); /* cannot reach 0: b is pending */
                return 0;
            }
        }
    } else if (!(s->flags & NPU_STREAM_NONBLOCKING)) {
        npu_stream_t *l = atomic_load(&d->legacy);
        if (l) {
            uint64_t sub = atomic_load(&l->submitted);
            if (sub > atomic_load(&l->completed))
                if (!item_add_dep(it, l, sub))
                    return 0;
        }
    }
    return 1;
}

npu_status_t npu_stream_submit_item(npu_stream_t *s, npu_item_t *it, const npu_dep_t *extra,
                                    uint64_t *seq_out)
{
    npu_status_t st = NPU_OK;
    dev_slot_t *d = &devs[s->dev];
    int leg = syncs_with_legacy(s);
    if (extra && extra->s && !npu_stream_reached(extra->s, extra->seq) &&
        !item_add_dep(it, extra->s, extra->seq)) {
        item_fail(it);
        return NPU_EHOSTMEM;
    }
    if (leg)
        pthread_mutex_lock(&d->lock);
    if (leg && !add_legacy_deps_locked(d, s, it)) {
        pthread_mutex_unlock(&d->lock);
        item_fail(it);
        return NPU_EHOSTMEM;
    }
    pthread_mutex_lock(&s->lock);
    if (s->destroyed) {
        st = NPU_EHANDLE;
    } else if (!s->head && it->ndeps == 0 && (it->flags & NPU_ITEM_INLINE_OK)) {
        /* idle stream, cheap internal item: complete it now, nothing can run meanwhile */
        it->seq = atomic_load(&s->submitted) + 1;
        atomic_store(&s->submitted, it->seq);
        item_execute(s, it);
        atomic_store(&s->completed, it->seq);
        if (seq_out)
            *seq_out = it->seq;
        pthread_mutex_unlock(&s->lock);
        if (leg)
            pthread_mutex_unlock(&d->lock);
        item_free(it);
        return NPU_OK;
    } else if (!s->has_worker) {
        st = start_worker_locked(s);
    }
    if (st == NPU_OK) {
        it->seq = atomic_load(&s->submitted) + 1;
        it->next = NULL;
        if (s->tail)
            s->tail->next = it;
        else
            __atomic_store_n(&s->head, it, __ATOMIC_RELEASE);
        s->tail = it;
        atomic_store(&s->submitted, it->seq);
        if (seq_out)
            *seq_out = it->seq;
        if (s->worker_sleeping)
            pthread_cond_signal(&s->work_cv);
    }
    pthread_mutex_unlock(&s->lock);
    if (leg)
        pthread_mutex_unlock(&d->lock);
    if (st != NPU_OK)
        item_fail(it);
    return st;
}

/* The points a synchronisation of s waits for: s's last item and, for the legacy stream,
 * the last item of every blocking stream (what a new legacy item would wait for; a blocking
 * stream's own sync waits only for its own work, since only its operations wait for the
 * legacy stream). Returns the count (refs held), -1 on no memory. */
static int gather_points(npu_stream_t *s, npu_item_t *tmp)
{
    dev_slot_t *d = &devs[s->dev];
    uint64_t sub = atomic_load(&s->submitted);
    if (sub > atomic_load(&s->completed) && !item_add_dep(tmp, s, sub))
        return -1;
    if (s->kind == KIND_LEGACY) {
        pthread_mutex_lock(&d->lock);
        int ok = add_legacy_deps_locked(d, s, tmp);
        pthread_mutex_unlock(&d->lock);
        if (!ok)
            return -1;
    }
    return (int)tmp->ndeps;
}

/* ---------------------------------------------------------------- streams ---- */
static npu_stream_t *stream_new(int dev, int kind, unsigned flags, int priority)
{
    npu_stream_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work_cv, NULL);
    pthread_cond_init(&s->done_cv, NULL);
    s->key = s;
    s->kind = kind;
    s->dev = dev;
    s->flags = flags;
    s->priority = priority;
    s->id = atomic_fetch_add(&next_id, 1);
    atomic_init(&s->refs, 1);
    dev_slot_t *d = &devs[dev];
    pthread_mutex_lock(&d->lock);
    s->dnext = d->list;
    if (d->list)
        d->list->dprev = s;
    d->list = s;
    pthread_mutex_unlock(&d->lock);
    pthread_rwlock_wrlock(&reg_lock);
    HASH_ADD_PTR(registry, key, s);
    s->in_registry = 1;
    pthread_rwlock_unlock(&reg_lock);
    return s;
}

/* Drops the handle: no new work; pending work completes, then the stream is freed. */
static void stream_destroy_internal(npu_stream_t *s)
{
    pthread_rwlock_wrlock(&reg_lock);
    int was = s->in_registry;
    if (was) {
        HASH_DEL(registry, s);
        s->in_registry = 0;
    }
    pthread_rwlock_unlock(&reg_lock);
    if (!was)
        return;
    pthread_mutex_lock(&s->lock);
    s->destroyed = 1;
    if (s->worker_sleeping)
        pthread_cond_signal(&s->work_cv);
    pthread_mutex_unlock(&s->lock);
    npu_stream_unref(s);
}

npu_stream_t *npu_stream_legacy(int dev)
{
    if (dev >= 0 && dev < NPU_MAX_DEV) {
        npu_stream_t *l0 = atomic_load(&devs[dev].legacy);
        if (l0)
            return l0;
    }
    pthread_once(&devs_once, devs_init);
    if (!dev_ok(dev))
        return NULL;
    dev_slot_t *d = &devs[dev];
    npu_stream_t *l = atomic_load(&d->legacy);
    static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&create_lock);
    l = atomic_load(&d->legacy);
    if (!l) {
        l = stream_new(dev, KIND_LEGACY, NPU_STREAM_DEFAULT, 0);
        atomic_store(&d->legacy, l);
    }
    pthread_mutex_unlock(&create_lock);
    return l;
}

static __thread npu_stream_t **pts_tab;  /* this thread's per-thread streams, by device */

static void pts_release(void *arg)
{
    npu_stream_t **tab = arg;
    pts_tab = NULL;                  /* a later call in this thread's exit path starts over */
    for (int i = 0; i < NPU_MAX_DEV; i++)
        if (tab[i])
            stream_destroy_internal(tab[i]);
    free(tab);
}

npu_stream_t *npu_stream_per_thread(int dev)
{
    npu_stream_t **tab = pts_tab;
    if (tab && dev >= 0 && dev < NPU_MAX_DEV && tab[dev])
        return tab[dev];
    pthread_once(&devs_once, devs_init);
    if (!dev_ok(dev))
        return NULL;
    if (!tab) {
        tab = calloc(NPU_MAX_DEV, sizeof *tab);
        if (!tab)
            return NULL;
        pts_tab = tab;
        pthread_setspecific(pts_key, tab);
    }
    tab[dev] = stream_new(dev, KIND_PER_THREAD, NPU_STREAM_DEFAULT, 0);
    return tab[dev];
}

npu_status_t npu_stream_create(int dev, unsigned flags, int priority, npu_stream_t **out)
{
    pthread_once(&devs_once, devs_init);
    if (!out || (flags & ~(unsigned)NPU_STREAM_NONBLOCKING))
        return NPU_EINVAL;
    if (!dev_ok(dev))
        return NPU_EDEVICE;
    /* CUDA clamps priorities to the device range [greatest, least] = [-5, 0] */
    if (priority < -5) priority = -5;
    if (priority > 0) priority = 0;
    npu_stream_t *s = stream_new(dev, KIND_USER, flags, priority);
    if (!s)
        return NPU_EHOSTMEM;
    *out = s;
    return NPU_OK;
}

npu_status_t npu_stream_destroy(npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;
    npu_status_t st = NPU_EHANDLE;
    if (s->kind == KIND_USER) {
        stream_destroy_internal(s);
        st = NPU_OK;
    }
    npu_stream_unref(s);
    return st;
}

int npu_stream_valid(const npu_stream_t *p)
{
    npu_stream_t *s = NULL;
    if (!p)
        return 0;
    pthread_rwlock_rdlock(&reg_lock);
    HASH_FIND_PTR(registry, &p, s);
    pthread_rwlock_unlock(&reg_lock);
    return s != NULL;
}

int npu_stream_device(const npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return -1;
    int dev = s->dev;
    npu_stream_unref(s);
    return dev;
}

unsigned npu_stream_flags(const npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return 0;
    unsigned f = s->flags;
    npu_stream_unref(s);
    return f;
}

int npu_stream_priority(const npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return 0;
    int pr = s->priority;
    npu_stream_unref(s);
    return pr;
}

unsigned long long npu_stream_id(const npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return 0;
    unsigned long long id = s->id;
    npu_stream_unref(s);
    return id;
}

/* ------------------------------------------------------------ submissions ---- */
/* npu_stream_submit contract for callers that own arg: with an invalid handle it returns
 * NPU_EHANDLE and does not touch arg; once the handle is accepted, cleanup(arg) runs exactly
 * once whatever happens (after fn, instead of fn on a poisoned device, or on a failure). */
static npu_status_t run_user(npu_item_t *it)
{
    npu_work_fn fn = (npu_work_fn)it->a[0].p;
    return fn(it->a[2].p);
}

static void done_user(npu_item_t *it)
{
    npu_cleanup_fn cl = (npu_cleanup_fn)it->a[1].p;
    if (cl)
        cl(it->a[2].p);
}

npu_status_t npu_stream_submit(npu_stream_t *p, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;          /* the only failure that does not run cleanup */
    npu_item_t *it = fn ? npu_item_new() : NULL;
    if (!it) {
        npu_stream_unref(s);
        if (cleanup)
            cleanup(arg);
        return fn ? NPU_EHOSTMEM : NPU_EINVAL;
    }
    it->run = run_user;
    it->done = cleanup ? done_user : NULL;
    it->a[0].p = (void *)fn;
    it->a[1].p = (void *)cleanup;
    it->a[2].p = arg;
    npu_status_t st = npu_stream_submit_item(s, it, NULL, NULL);
    npu_stream_unref(s);
    return st;
}

static npu_status_t run_host_fn(npu_item_t *it)
{
    void (*fn)(void *) = (void (*)(void *))it->a[0].p;
    NPU_OBS_HOSTFN_SCOPE(fn);  /* observability (npu_obs.h) */
    fn(it->a[1].p);
    return NPU_OK;
}

npu_status_t npu_stream_host_fn(npu_stream_t *p, void (*fn)(void *), void *arg)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;
    npu_item_t *it = fn ? npu_item_new() : NULL;
    if (!it) {
        npu_stream_unref(s);
        return fn ? NPU_EHOSTMEM : NPU_EINVAL;
    }
    it->run = run_host_fn;
    it->a[0].p = (void *)fn;
    it->a[1].p = arg;
    npu_status_t st = npu_stream_submit_item(s, it, NULL, NULL);
    npu_stream_unref(s);
    return st;
}

/* Copy rows: a[0] dst, a[1] dpitch, a[2] src, a[3] spitch, a[4] width, a[5] height. */
static npu_status_t run_copy2d(npu_item_t *it)
{
    NPU_OBS_COPY_SCOPE(it->a[0].p, it->a[2].p, it->a[4].u * it->a[5].u);  /* observability (npu_obs.h) */
    char *dst = it->a[0].p;
    const char *src = it->a[2].p;
    size_t dp = it->a[1].u, sp = it->a[3].u, w = it->a[4].u, h = it->a[5].u;
    if (h == 1 || (dp == w && sp == w)) {
        size_t n = w * h;
        if ((uintptr_t)dst < (uintptr_t)src + n && (uintptr_t)src < (uintptr_t)dst + n)
            memmove(dst, src, n);
        else
            memcpy(dst, src, n);
        return NPU_OK;
    }
    for (size_t r = 0; r < h; r++)
        memmove(dst + r * dp, src + r * sp, w);
    return NPU_OK;
}

/* Set rows: a[0] dst, a[1] pitch, a[2] value, a[4] width, a[5] height. */
static npu_status_t run_set2d(npu_item_t *it)
{
    NPU_OBS_SET_SCOPE(it->a[0].p, it->a[4].u * it->a[5].u);  /* observability (npu_obs.h) */
    char *dst = it->a[0].p;
    size_t p = it->a[1].u, w = it->a[4].u, h = it->a[5].u;
    int v = it->a[2].i;
    if (h == 1 || p == w) {
        memset(dst, v, w * h);
        return NPU_OK;
    }
    for (size_t r = 0; r < h; r++)
        memset(dst + r * p, v, w);
    return NPU_OK;
}

/* Bytes spanned by height rows of width bytes at pitch; 0 on overflow. */
static int span_2d(size_t pitch, size_t width, size_t height, size_t *out)
{
    size_t rows;
    if (__builtin_mul_overflow(pitch, height - 1, &rows) ||
        __builtin_add_overflow(rows, width, out))
        return 0;
    return 1;
}

static npu_status_t submit_rows(npu_stream_t *p, npu_status_t (*run)(npu_item_t *),
                                void *dst, size_t dp, const void *src, size_t sp,
                                int value, size_t w, size_t h)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;
    npu_item_t *it = npu_item_new();
    if (!it) {
        npu_stream_unref(s);
        return NPU_EHOSTMEM;
    }
    it->run = run;
    it->a[0].p = dst;
    it->a[1].u = dp;
    if (run == run_copy2d)
        it->a[2].p = (void *)src;
    else
        it->a[2].i = value;
    it->a[3].u = sp;
    it->a[4].u = w;
    it->a[5].u = h;
    npu_status_t st = npu_stream_submit_item(s, it, NULL, NULL);
    npu_stream_unref(s);
    return st;
}

static npu_status_t check_stream_arg(npu_stream_t *p)
{
    return npu_stream_valid(p) ? NPU_OK : NPU_EHANDLE;
}

npu_status_t npu_memcpy2d_async(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, npu_stream_t *s)
{
    npu_status_t st = check_stream_arg(s);
    if (st != NPU_OK)
        return st;
    if (width > dpitch || width > spitch)
        return NPU_EPITCH;
    if (width == 0 || height == 0)
        return NPU_OK;
    if (!dst || !src)
        return NPU_EINVAL;
    size_t dn, sn;
    if (!span_2d(dpitch, width, height, &dn) || !span_2d(spitch, width, height, &sn))
        return NPU_EINVAL;
    if ((uintptr_t)dst + dn < (uintptr_t)dst || (uintptr_t)src + sn < (uintptr_t)src)
        return NPU_EINVAL;
    if (npu_mem_check_range(dst, dn) != NPU_OK || npu_mem_check_range(src, sn) != NPU_OK)
        return NPU_EINVAL;
    return submit_rows(s, run_copy2d, dst, dpitch, src, spitch, 0, width, height);
}

npu_status_t npu_memcpy_async(void *dst, const void *src, size_t n, npu_stream_t *s)
{
    return npu_memcpy2d_async(dst, n, src, n, n, 1, s);
}

npu_status_t npu_memset2d_async(void *dst, size_t pitch, int value, size_t width,
                                size_t height, npu_stream_t *s)
{
    npu_status_t st = check_stream_arg(s);
    if (st != NPU_OK)
        return st;
    if (width > pitch)
        return NPU_EPITCH;
    if (width == 0 || height == 0)
        return NPU_OK;
    if (!dst)
        return NPU_EINVAL;
    size_t dn;
    if (!span_2d(pitch, width, height, &dn) || (uintptr_t)dst + dn < (uintptr_t)dst)
        return NPU_EINVAL;
    if (npu_mem_check_range(dst, dn) != NPU_OK)
        return NPU_EINVAL;
    return submit_rows(s, run_set2d, dst, pitch, NULL, 0, (unsigned char)value, width, height);
}

npu_status_t npu_memset_async(void *dst, int value, size_t n, npu_stream_t *s)
{
    return npu_memset2d_async(dst, n, value, n, 1, s);
}

/* ---------------------------------------------------------- synchronising ---- */
npu_status_t npu_stream_sync_status(int dev)
{
    npu_status_t st = npu_device_error(dev);
    if (st != NPU_OK)
        return st;
    return npu_device_peek_async_error(dev, 1);
}

/* Waits for every point of tmp's dependency list, then frees tmp. */
static void wait_points(npu_item_t *tmp, int spin)
{
    for (unsigned i = 0; i < tmp->ndeps; i++)
        npu_stream_wait_point(tmp->deps[i].s, tmp->deps[i].seq, spin);
    item_free(tmp);
}

npu_status_t npu_stream_sync(npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;
    /* fast path: only s itself matters (non-blocking, or nothing pending elsewhere) */
    npu_item_t *tmp = npu_item_new();
    npu_status_t st = NPU_OK;
    if (!tmp || gather_points(s, tmp) < 0) {
        /* no memory for the list: wait for s alone, that is still correct for s's own work */
        if (tmp)
            item_free(tmp);
        npu_stream_wait_point(s, atomic_load(&s->submitted), 1);
    } else {
        wait_points(tmp, 1);
    }
    st = npu_stream_sync_status(s->dev);
    npu_stream_unref(s);
    return st;
}

npu_status_t npu_stream_query(npu_stream_t *p)
{
    npu_stream_t *s = npu_stream_acquire(p);
    if (!s)
        return NPU_EHANDLE;
    npu_status_t st = npu_device_error(s->dev);
    if (st == NPU_OK) {
        int done = npu_stream_reached(s, atomic_load(&s->submitted));
        if (done && s->kind == KIND_LEGACY) {
            npu_item_t *tmp = npu_item_new();
            if (tmp && gather_points(s, tmp) >= 0) {
                for (unsigned i = 0; i < tmp->ndeps && done; i++)
                    done = npu_stream_reached(tmp->deps[i].s, tmp->deps[i].seq);
            }
            if (tmp)
                item_free(tmp);
        }
        st = done ? npu_device_peek_async_error(s->dev, 1) : NPU_ENOTREADY;
    }
    npu_stream_unref(s);
    return st;
}

/* Barrier item: nothing to run; its dependency does the work. On the legacy stream a wait
 * is an action even when the point is reached (CUDA: the legacy stream first waits for the
 * blocking streams, and they then wait for it), so the barrier is always queued there. */
npu_status_t npu_stream_wait_event_point(npu_stream_t *s, const npu_dep_t *point)
{
    int reached = !point->s || npu_stream_reached(point->s, point->seq);
    if (reached && s->kind != KIND_LEGACY)
        return NPU_OK;
    npu_item_t *it = npu_item_new();
    if (!it)
        return NPU_EHOSTMEM;
    it->flags = NPU_ITEM_INTERNAL | NPU_ITEM_INLINE_OK;
    return npu_stream_submit_item(s, it, reached ? NULL : point, NULL);
}

npu_status_t npu_device_sync(int dev)
{
    pthread_once(&devs_once, devs_init);
    if (!dev_ok(dev))
        return NPU_EDEVICE;
    dev_slot_t *d = &devs[dev];
    npu_item_t *tmp = npu_item_new();
    if (!tmp)
        return NPU_EHOSTMEM;
    pthread_mutex_lock(&d->lock);
    for (npu_stream_t *s = d->list; s; s = s->dnext) {
        uint64_t sub = atomic_load(&s->submitted);
        if (sub > atomic_load(&s->completed) && ref_not_zero(s) &&
            !item_add_dep_owned(tmp, s, sub)) {
            atomic_fetch_sub(&s->refs, 1);  /* cannot reach 0: s is pending */
            break;
        }
    }
    pthread_mutex_unlock(&d->lock);
    wait_points(tmp, 1);
    return npu_stream_sync_status(dev);
}

npu_status_t npu_device_reset(int dev)
{
    pthread_once(&devs_once, devs_init);
    if (!dev_ok(dev))
        return NPU_EDEVICE;
    npu_device_sync(dev);
    /* destroy the user streams of dev (built-in streams survive, as in CUDA) */
    for (;;) {
        npu_stream_t *victim = NULL, *s, *t;
        pthread_rwlock_rdlock(&reg_lock);
        HASH_ITER(hh, registry, s, t) {
            if (s->dev == dev && s->kind == KIND_USER) {
                victim = s;
                npu_stream_ref(s);
                break;
            }
        }
        pthread_rwlock_unlock(&reg_lock);
        if (!victim)
            break;
        stream_destroy_internal(victim);
        npu_stream_unref(victim);
    }
    npu_device_sync(dev);            /* work that raced with the destruction */
    npu_mem_release_device(dev);
    npu_device_clear_error(dev);
    npu_device_peek_async_error(dev, 1);
    return NPU_OK;
}
