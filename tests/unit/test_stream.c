/*
 * test_stream.c - streams of the NPU runtime: in-stream order, legacy / blocking /
 * non-blocking / per-thread synchronisation, async copies and sets (with their argument
 * errors), async and sticky errors with recovery by npu_device_reset, destroy with pending
 * work, invalid handles.
 *
 * Ordering between streams is tested without timing: a host function on one stream waits
 * (bounded, 5 s) for a gate that a host function on another stream opens. If the runtime
 * serialised the two streams, the gate never opens in time and the check fails instead of
 * hanging.
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ helpers ---- */
typedef struct gate { atomic_int open; } gate_t;

static int gate_wait(gate_t *g, int timeout_ms)
{
    for (int i = 0; i < timeout_ms * 10; i++) {
        if (atomic_load(&g->open))
            return 1;
        usleep(100);
    }
    return atomic_load(&g->open);
}

static void fn_open_gate(void *arg) { atomic_store(&((gate_t *)arg)->open, 1); }

typedef struct waiter { gate_t *g; int saw; } waiter_t;
static void fn_wait_gate(void *arg)
{
    waiter_t *w = arg;
    w->saw = gate_wait(w->g, 5000);
}

static atomic_int ticket;
typedef struct stamp { int t; int sleep_ms; } stamp_t;
static void fn_stamp(void *arg)
{
    stamp_t *s = arg;
    if (s->sleep_ms)
        usleep((useconds_t)s->sleep_ms * 1000);
    s->t = atomic_fetch_add(&ticket, 1);
}

static int order_log[2000];
static int order_n;
static void fn_append(void *arg) { order_log[order_n++] = (int)(intptr_t)arg; }

static atomic_int cleanups, runs;
static npu_status_t work_ok(void *arg) { atomic_fetch_add(&runs, 1); return NPU_OK; }
static npu_status_t work_fail(void *arg) { atomic_fetch_add(&runs, 1); return (npu_status_t)(intptr_t)arg; }
static void cleanup_count(void *arg) { atomic_fetch_add(&cleanups, 1); }

/* ------------------------------------------------------------------- tests ---- */
static void test_order(void)
{
    npu_stream_t *s;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &s), NPU_OK);
    order_n = 0;
    for (int i = 0; i < 1000; i++) {
        CHECK_EQ(npu_stream_host_fn(s, fn_append, (void *)(intptr_t)i), NPU_OK);
        if (i % 97 == 0)
            usleep(50);          /* let the worker go idle and come back */
    }
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    CHECK_EQ(order_n, 1000);
    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= order_log[i] == i;
    CHECK(ok);
    CHECK_EQ(npu_stream_query(s), NPU_OK);

    /* work items with cleanups */
    atomic_store(&runs, 0);
    atomic_store(&cleanups, 0);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(npu_stream_submit(s, work_ok, cleanup_count, NULL), NPU_OK);
    CHECK_EQ(npu_stream_submit(s, work_ok, NULL, NULL), NPU_OK);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    CHECK_EQ(atomic_load(&runs), 101);
    CHECK_EQ(atomic_load(&cleanups), 100);
    CHECK_EQ(npu_stream_submit(s, NULL, NULL, NULL), NPU_EINVAL);
    /* cleanup contract: runs once when the handle was accepted, never for a bad handle */
    CHECK_EQ(npu_stream_submit(s, NULL, cleanup_count, NULL), NPU_EINVAL);
    CHECK_EQ(atomic_load(&cleanups), 101);
    CHECK_EQ(npu_stream_submit((npu_stream_t *)order_log, work_ok, cleanup_count, NULL), NPU_EHANDLE);
    CHECK_EQ(atomic_load(&cleanups), 101);
    CHECK_EQ(npu_stream_host_fn(s, NULL, NULL), NPU_EINVAL);

    /* query sees pending work */
    gate_t g = { 0 };
    waiter_t w = { &g, 0 };
    CHECK_EQ(npu_stream_host_fn(s, fn_wait_gate, &w), NPU_OK);
    CHECK_EQ(npu_stream_query(s), NPU_ENOTREADY);
    atomic_store(&g.open, 1);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    CHECK_EQ(w.saw, 1);
    CHECK_EQ(npu_stream_query(s), NPU_OK);
    CHECK_EQ(npu_stream_destroy(s), NPU_OK);
}

/* Work on `later` must wait for work on `first` (when expect_wait) or not. */
static void check_pair(npu_stream_t *first, npu_stream_t *later, int expect_wait)
{
    if (expect_wait) {
        stamp_t a = { 0, 30 }, b = { 0, 0 };
        CHECK_EQ(npu_stream_host_fn(first, fn_stamp, &a), NPU_OK);
        CHECK_EQ(npu_stream_host_fn(later, fn_stamp, &b), NPU_OK);
        CHECK_EQ(npu_stream_sync(later), NPU_OK);
        CHECK_EQ(npu_stream_sync(first), NPU_OK);
        CHECK_MSG(a.t < b.t, "later ran before first (%d vs %d)", a.t, b.t);
    } else {
        gate_t g = { 0 };
        waiter_t w = { &g, 0 };
        CHECK_EQ(npu_stream_host_fn(first, fn_wait_gate, &w), NPU_OK);
        CHECK_EQ(npu_stream_host_fn(later, fn_open_gate, &g), NPU_OK);
        CHECK_EQ(npu_stream_sync(later), NPU_OK);
        CHECK_EQ(npu_stream_sync(first), NPU_OK);
        CHECK_MSG(w.saw == 1, "streams were serialised");
    }
}

typedef struct pt_arg { npu_stream_t *pts; int valid_inside; } pt_arg_t;
static void *pt_thread(void *arg)
{
    pt_arg_t *a = arg;
    a->pts = npu_stream_per_thread(0);
    a->valid_inside = npu_stream_valid(a->pts);
    stamp_t st = { 0, 0 };
    npu_stream_host_fn(a->pts, fn_stamp, &st);
    npu_stream_sync(a->pts);
    return NULL;
}

typedef struct pt_block { gate_t *g; int saw; } pt_block_t;
static void *pt_waiter_thread(void *arg)
{
    pt_block_t *b = arg;
    waiter_t w = { b->g, 0 };
    npu_stream_t *s = npu_stream_per_thread(0);
    npu_stream_host_fn(s, fn_wait_gate, &w);
    npu_stream_sync(s);
    b->saw = w.saw;
    return NULL;
}

static void test_legacy(void)
{
    npu_stream_t *leg = npu_stream_legacy(0), *b1, *b2, *nb;
    CHECK(leg != NULL);
    CHECK(npu_stream_valid(leg));
    CHECK(npu_stream_legacy(0) == leg);
    CHECK(npu_stream_legacy(1) != leg);
    CHECK(npu_stream_legacy(99) == NULL);
    CHECK(npu_stream_legacy(-1) == NULL);
    CHECK_EQ(npu_stream_device(leg), 0);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &b1), NPU_OK);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &b2), NPU_OK);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &nb), NPU_OK);
    CHECK_EQ(npu_stream_flags(nb), NPU_STREAM_NONBLOCKING);
    CHECK_EQ(npu_stream_flags(b1), NPU_STREAM_DEFAULT);

    check_pair(b1, leg, 1);      /* legacy waits for blocking streams */
    check_pair(leg, b1, 1);      /* blocking streams wait for legacy */
    check_pair(b1, b2, 0);       /* blocking streams are independent */
    check_pair(nb, leg, 0);      /* legacy does not wait for non-blocking */
    check_pair(leg, nb, 0);      /* non-blocking does not wait for legacy */
    npu_stream_t *leg1 = npu_stream_legacy(1);
    check_pair(b1, leg1, 0);     /* another device's legacy stream */

    /* legacy waits for every blocking stream, not only the last one used */
    stamp_t a = { 0, 20 }, b = { 0, 20 }, c = { 0, 0 };
    npu_stream_host_fn(b1, fn_stamp, &a);
    npu_stream_host_fn(b2, fn_stamp, &b);
    npu_stream_host_fn(leg, fn_stamp, &c);
    CHECK_EQ(npu_stream_sync(leg), NPU_OK);
    CHECK(a.t < c.t && b.t < c.t);
    /* syncing the legacy stream waits for blocking-stream work submitted before it */
    stamp_t d = { -1, 20 };
    npu_stream_host_fn(b1, fn_stamp, &d);
    CHECK_EQ(npu_stream_sync(leg), NPU_OK);
    CHECK(d.t >= 0);

    /* per-thread streams: blocking towards legacy, independent of each other */
    npu_stream_t *pts = npu_stream_per_thread(0);
    CHECK(pts != NULL && pts != leg);
    CHECK(npu_stream_per_thread(0) == pts);
    CHECK(npu_stream_valid(pts));
    check_pair(pts, leg, 1);
    check_pair(leg, pts, 1);
    check_pair(pts, nb, 0);
    pt_arg_t pa = { 0 };
    pthread_t th;
    pthread_create(&th, NULL, pt_thread, &pa);
    pthread_join(th, NULL);
    CHECK(pa.pts != NULL && pa.pts != pts);
    CHECK_EQ(pa.valid_inside, 1);
    CHECK_EQ(npu_stream_valid(pa.pts), 0);      /* released when its thread exited */
    /* two threads' per-thread streams do not wait for each other */
    gate_t g = { 0 };
    pt_block_t blk = { &g, 0 };
    pthread_create(&th, NULL, pt_waiter_thread, &blk);
    usleep(2000);
    CHECK_EQ(npu_stream_host_fn(pts, fn_open_gate, &g), NPU_OK);
    CHECK_EQ(npu_stream_sync(pts), NPU_OK);
    pthread_join(th, NULL);
    CHECK_EQ(blk.saw, 1);
    /* built-in streams cannot be destroyed */
    CHECK_EQ(npu_stream_destroy(leg), NPU_EHANDLE);
    CHECK_EQ(npu_stream_destroy(pts), NPU_EHANDLE);
    CHECK(npu_stream_valid(leg) && npu_stream_valid(pts));

    CHECK_EQ(npu_device_sync(0), NPU_OK);
    npu_stream_destroy(b1);
    npu_stream_destroy(b2);
    npu_stream_destroy(nb);
}

static void test_copies(void)
{
    npu_stream_t *s;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s), NPU_OK);
    enum { N = 1 << 20 };
    unsigned char *a = malloc(N), *b = malloc(N), *ref = malloc(N);
    void *dv = NULL;
    CHECK_EQ(npu_mem_alloc(0, N, &dv), NPU_OK);
    unsigned char *d = dv;
    for (int i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7 + 3);
    memset(b, 0, N);
    /* host -> device -> host, plus a set in between, in stream order */
    CHECK_EQ(npu_memcpy_async(d, a, N, s), NPU_OK);
    CHECK_EQ(npu_memset_async(d + 100, 0xAB, 1000, s), NPU_OK);
    CHECK_EQ(npu_memcpy_async(b, d, N, s), NPU_OK);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    memcpy(ref, a, N);
    memset(ref + 100, 0xAB, 1000);
    CHECK(memcmp(b, ref, N) == 0);

    /* 2D: copy a 37 x 50 window between pitches 64 and 100 */
    memset(b, 0, N);
    CHECK_EQ(npu_memcpy2d_async(b + 5, 100, a + 3, 64, 37, 50, s), NPU_OK);
    CHECK_EQ(npu_memset2d_async(d, 80, 0x5C, 70, 20, s), NPU_OK);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    memset(ref, 0, N);
    for (int r = 0; r < 50; r++)
        memcpy(ref + 5 + r * 100, a + 3 + r * 64, 37);
    CHECK(memcmp(b, ref, N) == 0);
    int ok = 1;
    for (int i = 0; i < 20 * 80; i++) {
        unsigned char want = i % 80 < 70 ? 0x5C : (i >= 100 && i < 1100) ? 0xAB : a[i];
        ok &= d[i] == want;
    }
    CHECK(ok);

    /* argument errors, reported at submit */
    CHECK_EQ(npu_memcpy2d_async(b, 10, a, 64, 37, 5, s), NPU_EPITCH);   /* width > dpitch */
    CHECK_EQ(npu_memcpy2d_async(b, 64, a, 10, 37, 5, s), NPU_EPITCH);   /* width > spitch */
    CHECK_EQ(npu_memset2d_async(d, 10, 0, 11, 2, s), NPU_EPITCH);
    CHECK_EQ(npu_memcpy_async(d, a, N + 1, s), NPU_EINVAL);           /* dst range past end */
    CHECK_EQ(npu_memcpy_async(b, d + 16, N, s), NPU_EINVAL);          /* src range past end */
    CHECK_EQ(npu_memset_async(d + N - 10, 0, 11, s), NPU_EINVAL);
    CHECK_EQ(npu_memcpy2d_async(d, N / 4, a, N / 4, 16, 5, s), NPU_EINVAL); /* rows past end */
    CHECK_EQ(npu_memcpy2d_async(d, (size_t)1 << 62, a, (size_t)1 << 62, 16, 8, s), NPU_EINVAL);
    CHECK_EQ(npu_memcpy_async(NULL, a, 16, s), NPU_EINVAL);
    CHECK_EQ(npu_memcpy_async(b, NULL, 16, s), NPU_EINVAL);
    CHECK_EQ(npu_memset_async(NULL, 0, 16, s), NPU_EINVAL);
    CHECK_EQ(npu_memcpy_async(b, a, 0, s), NPU_OK);                  /* empty copy */
    CHECK_EQ(npu_memcpy2d_async(b, 8, a, 8, 8, 0, s), NPU_OK);
    CHECK_EQ(npu_memcpy_async(b, a, 16, NULL), NPU_EHANDLE);
    CHECK_EQ(npu_memcpy_async(b, a, 16, (npu_stream_t *)a), NPU_EHANDLE);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);                          /* errors were not async */
    /* copies on the legacy stream */
    CHECK_EQ(npu_memset_async(b, 0x11, 4096, npu_stream_legacy(0)), NPU_OK);
    CHECK_EQ(npu_stream_sync(npu_stream_legacy(0)), NPU_OK);
    CHECK(b[0] == 0x11 && b[4095] == 0x11);
    npu_mem_free(dv);
    free(a);
    free(b);
    free(ref);
    npu_stream_destroy(s);
}

static atomic_int after_fault;
static void fn_after_fault(void *arg) { atomic_fetch_add(&after_fault, 1); }

static void test_errors(void)
{
    npu_stream_t *s, *s1, *other;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &s), NPU_OK);
    CHECK_EQ(npu_stream_create(1, NPU_STREAM_DEFAULT, 0, &s1), NPU_OK);
    /* a non-sticky async error is returned once */
    CHECK_EQ(npu_stream_submit(s, work_fail, NULL, (void *)(intptr_t)NPU_EINVAL), NPU_OK);
    CHECK_EQ(npu_stream_sync(s), NPU_EINVAL);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    CHECK_EQ(npu_stream_submit(s, work_fail, NULL, (void *)(intptr_t)NPU_ENOMEM), NPU_OK);
    CHECK_EQ(npu_device_sync(0), NPU_ENOMEM);
    CHECK_EQ(npu_device_sync(0), NPU_OK);

    /* a sticky fault poisons the device: later work is skipped, cleanups still run */
    void *mem = NULL;
    CHECK_EQ(npu_mem_alloc(0, 4096, &mem), NPU_OK);
    atomic_store(&after_fault, 0);
    atomic_store(&cleanups, 0);
    atomic_store(&runs, 0);
    CHECK_EQ(npu_stream_submit(s, work_fail, NULL, (void *)(intptr_t)NPU_EILLEGALADDR), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(s, fn_after_fault, NULL), NPU_OK);
    CHECK_EQ(npu_stream_submit(s, work_ok, cleanup_count, NULL), NPU_OK);
    CHECK_EQ(npu_stream_sync(s), NPU_EILLEGALADDR);
    CHECK_EQ(atomic_load(&after_fault), 0);
    CHECK_EQ(atomic_load(&runs), 1);
    CHECK_EQ(atomic_load(&cleanups), 1);
    CHECK_EQ(npu_stream_sync(s), NPU_EILLEGALADDR);        /* sticky */
    CHECK_EQ(npu_stream_query(s), NPU_EILLEGALADDR);
    CHECK_EQ(npu_device_sync(0), NPU_EILLEGALADDR);
    CHECK_EQ(npu_stream_sync(npu_stream_legacy(0)), NPU_EILLEGALADDR);
    npu_event_t *e;
    CHECK_EQ(npu_event_create(0, &e), NPU_OK);
    CHECK_EQ(npu_event_record(e, s), NPU_OK);
    CHECK_EQ(npu_event_sync(e), NPU_EILLEGALADDR);
    /* the other device is unaffected */
    CHECK_EQ(npu_stream_host_fn(s1, fn_after_fault, NULL), NPU_OK);
    CHECK_EQ(npu_stream_sync(s1), NPU_OK);
    CHECK_EQ(atomic_load(&after_fault), 1);

    /* reset recovers: user streams of the device are gone, built-in ones work again */
    CHECK_EQ(npu_device_reset(0), NPU_OK);
    CHECK_EQ(npu_stream_valid(s), 0);
    CHECK_EQ(npu_stream_sync(s), NPU_EHANDLE);
    CHECK_EQ(npu_stream_valid(s1), 1);                    /* device 1 untouched */
    CHECK_EQ(npu_device_error(0), NPU_OK);
    CHECK_EQ(npu_mem_check_range(mem, 16), NPU_EINVAL);  /* allocations released */
    CHECK(npu_event_valid(e));
    CHECK_EQ(npu_event_query(e), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(npu_stream_legacy(0), fn_after_fault, NULL), NPU_OK);
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    CHECK_EQ(atomic_load(&after_fault), 2);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &other), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(other, fn_after_fault, NULL), NPU_OK);
    CHECK_EQ(npu_stream_sync(other), NPU_OK);
    CHECK_EQ(atomic_load(&after_fault), 3);
    CHECK_EQ(npu_device_reset(7), NPU_EDEVICE);
    CHECK_EQ(npu_device_sync(-1), NPU_EDEVICE);
    npu_event_destroy(e);
    npu_stream_destroy(other);
    npu_stream_destroy(s1);
}

static void test_destroy_pending(void)
{
    npu_stream_t *s;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, -3, &s), NPU_OK);
    CHECK_EQ(npu_stream_priority(s), -3);
    gate_t g = { 0 };
    waiter_t w = { &g, 0 };
    stamp_t after = { -1, 0 };
    atomic_store(&cleanups, 0);
    CHECK_EQ(npu_stream_host_fn(s, fn_wait_gate, &w), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(s, fn_stamp, &after), NPU_OK);
    CHECK_EQ(npu_stream_submit(s, work_ok, cleanup_count, NULL), NPU_OK);
    CHECK_EQ(npu_stream_destroy(s), NPU_OK);              /* returns at once */
    CHECK_EQ(npu_stream_valid(s), 0);
    CHECK_EQ(npu_stream_destroy(s), NPU_EHANDLE);
    CHECK_EQ(npu_stream_host_fn(s, fn_stamp, &after), NPU_EHANDLE);
    CHECK_EQ(after.t, -1);
    atomic_store(&g.open, 1);
    CHECK_EQ(npu_device_sync(0), NPU_OK);                 /* waits for the destroyed stream */
    CHECK_EQ(w.saw, 1);
    CHECK(after.t >= 0);
    CHECK_EQ(atomic_load(&cleanups), 1);
    /* destroy of a stream that never had work */
    CHECK_EQ(npu_stream_create(1, NPU_STREAM_DEFAULT, 0, &s), NPU_OK);
    CHECK_EQ(npu_stream_destroy(s), NPU_OK);
    /* many create/destroy cycles with work */
    for (int i = 0; i < 200; i++) {
        CHECK_EQ(npu_stream_create(0, i & 1, 0, &s), NPU_OK);
        npu_stream_submit(s, work_ok, cleanup_count, NULL);
        CHECK_EQ(npu_stream_destroy(s), NPU_OK);
    }
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    CHECK_EQ(atomic_load(&cleanups), 201);
}

static void test_invalid(void)
{
    int local = 0;
    void *junk = malloc(256);
    memset(junk, 0x5A, 256);
    npu_stream_t *bad[] = { NULL, (npu_stream_t *)(uintptr_t)0x1, (npu_stream_t *)(uintptr_t)0x2,
                            (npu_stream_t *)&local, (npu_stream_t *)junk,
                            (npu_stream_t *)(uintptr_t)0xdeadbeefcafe };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        npu_stream_t *s = bad[i];
        CHECK_EQ(npu_stream_valid(s), 0);
        CHECK_EQ(npu_stream_sync(s), NPU_EHANDLE);
        CHECK_EQ(npu_stream_query(s), NPU_EHANDLE);
        CHECK_EQ(npu_stream_destroy(s), NPU_EHANDLE);
        CHECK_EQ(npu_stream_host_fn(s, fn_after_fault, NULL), NPU_EHANDLE);
        CHECK_EQ(npu_stream_submit(s, work_ok, NULL, NULL), NPU_EHANDLE);
        CHECK_EQ(npu_stream_device(s), -1);
        CHECK_EQ(npu_stream_id(s), 0);
        CHECK_EQ(npu_memset_async(junk, 0, 8, s), NPU_EHANDLE);
        CHECK_EQ(npu_stream_wait_event(s, NULL), NPU_EHANDLE);
    }
    npu_stream_t *s = NULL;
    CHECK_EQ(npu_stream_create(0, 0x80, 0, &s), NPU_EINVAL);
    CHECK_EQ(npu_stream_create(5, 0, 0, &s), NPU_EDEVICE);
    CHECK_EQ(npu_stream_create(-1, 0, 0, &s), NPU_EDEVICE);
    CHECK_EQ(npu_stream_create(0, 0, 0, NULL), NPU_EINVAL);
    CHECK_EQ(npu_stream_create(0, 0, 100, &s), NPU_OK);   /* priority clamped */
    CHECK_EQ(npu_stream_priority(s), 0);
    npu_stream_t *s2;
    CHECK_EQ(npu_stream_create(0, 0, -100, &s2), NPU_OK);
    CHECK_EQ(npu_stream_priority(s2), -5);
    CHECK(npu_stream_id(s) != 0 && npu_stream_id(s) != npu_stream_id(s2));
    npu_stream_destroy(s);
    npu_stream_destroy(s2);
    CHECK(npu_stream_per_thread(64) == NULL);
    free(junk);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_DEVICES", "2", 1);
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_device_count(), 2);
    test_order();
    test_legacy();
    test_copies();
    test_errors();
    test_destroy_pending();
    test_invalid();
    return CHECK_DONE();
}
