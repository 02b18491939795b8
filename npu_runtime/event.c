/*
 * event.c - events: capture a point of a stream, query / wait for it, time between two.
 *
 * DESIGN
 * An event points at its latest capture (ev->cap, swapped under ev->lock). A capture is a
 * reference-counted record {stream (referenced), seq, completion timestamp}. Recording
 * submits a marker item to the stream (INTERNAL: it runs even on a poisoned device, and
 * INLINE_OK: on an idle stream it completes at once inside the submit); the marker takes the
 * timestamp when the stream reaches it, before the stream's completed counter passes it, so
 * whoever sees the point reached also sees the timestamp (seq_cst atomics). Because the
 * marker goes through the normal submit path, a record on the legacy stream also captures
 * the earlier work of the device's blocking streams, as in CUDA.
 * Re-recording builds a new capture and drops the old one; a marker still pending for an
 * old capture writes into that capture only, so it can never corrupt the new one.
 * Threads: no thread of its own. Lock ownership: ev->lock guards ev->cap only and is never
 * held while submitting or waiting. Completion is signalled by the stream (stream.c).
 * Registry: a hash set of live event pointers makes npu_event_valid safe on garbage.
 */
#include "npu.h"
#include "stream_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <uthash.h>

typedef struct capture {
    atomic_int refs;
    npu_stream_t *s;            /* referenced */
    uint64_t seq;
    _Atomic uint64_t ts;        /* ns when the stream reached the point (0: not yet) */
} capture_t;

struct npu_event {
    const void *key;
    UT_hash_handle hh;
    pthread_mutex_t lock;
    atomic_int refs;
    unsigned flags;
    capture_t *cap;             /* NULL: never recorded */
};

static pthread_rwlock_t ev_reg_lock = PTHREAD_RWLOCK_INITIALIZER;
static npu_event_t *ev_registry;

static void cap_unref(capture_t *c)
{
    if (!c || atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    if (c->s)
        npu_stream_unref(c->s);
    free(c);
}

static npu_event_t *ev_acquire(const npu_event_t *p)
{
    npu_event_t *e = NULL;
    if (!p)
        return NULL;
    pthread_rwlock_rdlock(&ev_reg_lock);
    HASH_FIND_PTR(ev_registry, &p, e);
    if (e)
        atomic_fetch_add(&e->refs, 1);
    pthread_rwlock_unlock(&ev_reg_lock);
    return e;
}

static void ev_unref(npu_event_t *e)
{
    if (atomic_fetch_sub(&e->refs, 1) != 1)
        return;
    cap_unref(e->cap);
    pthread_mutex_destroy(&e->lock);
    free(e);
}

/* The current capture of e with a reference (NULL: never recorded). */
static capture_t *ev_capture(npu_event_t *e)
{
    pthread_mutex_lock(&e->lock);
    capture_t *c = e->cap;
    if (c)
        atomic_fetch_add(&c->refs, 1);
    pthread_mutex_unlock(&e->lock);
    return c;
}

npu_status_t npu_event_create(unsigned flags, npu_event_t **out)
{
    if (!out || (flags & ~(unsigned)(NPU_EVENT_BLOCKING_SYNC | NPU_EVENT_DISABLE_TIMING |
                                     NPU_EVENT_INTERPROCESS)))
        return NPU_EINVAL;
    /* CUDA: an interprocess event must also disable timing */
    if ((flags & NPU_EVENT_INTERPROCESS) && !(flags & NPU_EVENT_DISABLE_TIMING))
        return NPU_EINVAL;
    npu_event_t *e = calloc(1, sizeof *e);
    if (!e)
        return NPU_EHOSTMEM;
    pthread_mutex_init(&e->lock, NULL);
    atomic_init(&e->refs, 1);
    e->flags = flags;
    e->key = e;
    pthread_rwlock_wrlock(&ev_reg_lock);
    HASH_ADD_PTR(ev_registry, key, e);
    pthread_rwlock_unlock(&ev_reg_lock);
    *out = e;
    return NPU_OK;
}

npu_status_t npu_event_destroy(npu_event_t *p)
{
    npu_event_t *e = NULL;
    if (!p)
        return NPU_EHANDLE;
    pthread_rwlock_wrlock(&ev_reg_lock);
    HASH_FIND_PTR(ev_registry, &p, e);
    if (e)
        HASH_DEL(ev_registry, e);
    pthread_rwlock_unlock(&ev_reg_lock);
    if (!e)
        return NPU_EHANDLE;
    ev_unref(e);                /* a pending marker holds only its capture, not e */
    return NPU_OK;
}

int npu_event_valid(const npu_event_t *p)
{
    npu_event_t *e = NULL;
    if (!p)
        return 0;
    pthread_rwlock_rdlock(&ev_reg_lock);
    HASH_FIND_PTR(ev_registry, &p, e);
    pthread_rwlock_unlock(&ev_reg_lock);
    return e != NULL;
}

static npu_status_t marker_run(npu_item_t *it)
{
    capture_t *c = it->a[0].p;
    atomic_store(&c->ts, npu_now_ns());
    return NPU_OK;
}

static void marker_done(npu_item_t *it)
{
    cap_unref(it->a[0].p);
}

npu_status_t npu_event_record(npu_event_t *pe, npu_stream_t *ps)
{
    npu_event_t *e = ev_acquire(pe);
    if (!e)
        return NPU_EHANDLE;
    npu_stream_t *s = npu_stream_acquire(ps);
    if (!s) {
        ev_unref(e);
        return NPU_EHANDLE;
    }
    npu_status_t st = NPU_EHOSTMEM;
    capture_t *c = calloc(1, sizeof *c);
    npu_item_t *it = c ? npu_item_new() : NULL;
    if (c && it) {
        atomic_init(&c->refs, 2);                   /* the event's and the marker's */
        it->flags = NPU_ITEM_INTERNAL | NPU_ITEM_INLINE_OK;
        it->run = (e->flags & NPU_EVENT_DISABLE_TIMING) ? NULL : marker_run;
        it->done = marker_done;
        it->a[0].p = c;
        uint64_t seq = 0;
        st = npu_stream_submit_item(s, it, NULL, &seq);   /* on failure it calls done */
        if (st == NPU_OK) {
            npu_stream_ref(s);
            c->s = s;
            c->seq = seq;
            pthread_mutex_lock(&e->lock);
            capture_t *old = e->cap;
            e->cap = c;
            pthread_mutex_unlock(&e->lock);
            cap_unref(old);
        } else {
            cap_unref(c);
        }
    } else {
        free(c);
    }
    npu_stream_unref(s);
    ev_unref(e);
    return st;
}

npu_status_t npu_event_query(npu_event_t *pe)
{
    npu_event_t *e = ev_acquire(pe);
    if (!e)
        return NPU_EHANDLE;
    capture_t *c = ev_capture(e);
    npu_status_t st = NPU_OK;
    if (c) {
        st = npu_device_error(npu_stream_dev_of(c->s));
        if (st == NPU_OK && !npu_stream_reached(c->s, c->seq))
            st = NPU_ENOTREADY;
        cap_unref(c);
    }
    ev_unref(e);
    return st;
}

npu_status_t npu_event_sync(npu_event_t *pe)
{
    npu_event_t *e = ev_acquire(pe);
    if (!e)
        return NPU_EHANDLE;
    capture_t *c = ev_capture(e);
    npu_status_t st = NPU_OK;
    if (c) {
        npu_stream_wait_point(c->s, c->seq, !(e->flags & NPU_EVENT_BLOCKING_SYNC));
        st = npu_stream_sync_status(npu_stream_dev_of(c->s));
        cap_unref(c);
    }
    ev_unref(e);
    return st;
}

npu_status_t npu_event_elapsed(npu_event_t *pstart, npu_event_t *pend, float *ms)
{
    if (!ms)
        return NPU_EINVAL;
    npu_event_t *a = ev_acquire(pstart);
    npu_event_t *b = ev_acquire(pend);
    npu_status_t st = NPU_OK;
    capture_t *ca = NULL, *cb = NULL;
    if (!a || !b) {
        st = NPU_EHANDLE;
        goto out;
    }
    if ((a->flags | b->flags) & NPU_EVENT_DISABLE_TIMING) {
        st = NPU_EHANDLE;
        goto out;
    }
    ca = ev_capture(a);
    cb = ev_capture(b);
    if (!ca || !cb) {
        st = NPU_EHANDLE;
        goto out;
    }
    if (!npu_stream_reached(ca->s, ca->seq) || !npu_stream_reached(cb->s, cb->seq)) {
        st = NPU_ENOTREADY;
        goto out;
    }
    uint64_t ta = atomic_load(&ca->ts), tb = atomic_load(&cb->ts);
    *ms = (float)((double)((int64_t)(tb - ta)) / 1e6);
out:
    cap_unref(ca);
    cap_unref(cb);
    if (a)
        ev_unref(a);
    if (b)
        ev_unref(b);
    return st;
}

npu_status_t npu_stream_wait_event(npu_stream_t *ps, npu_event_t *pe)
{
    npu_stream_t *s = npu_stream_acquire(ps);
    if (!s)
        return NPU_EHANDLE;
    npu_event_t *e = ev_acquire(pe);
    if (!e) {
        npu_stream_unref(s);
        return NPU_EHANDLE;
    }
    npu_status_t st = NPU_OK;
    capture_t *c = ev_capture(e);
    if (c) {
        npu_dep_t point = { c->s, c->seq };
        st = npu_stream_wait_event_point(s, &point);
        cap_unref(c);
    }
    ev_unref(e);
    npu_stream_unref(s);
    return st;
}
