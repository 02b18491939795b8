/*
 * test_event.c - events: query / sync before and after completion, elapsed time (a sleeping
 * host function gives at least its sleep), timing disabled, never-recorded events,
 * re-recording, destroy while pending, npu_stream_wait_event across streams and devices,
 * records on the legacy stream capturing blocking-stream work, invalid handles.
 * Gates (bounded waits) make cross-stream ordering checks independent of timing.
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
static void fn_open(void *arg) { atomic_store(&((gate_t *)arg)->open, 1); }
static void fn_block(void *arg) { gate_wait(arg, 5000); }
static void fn_sleep20(void *arg) { usleep(20000); }

static atomic_int ticket;
typedef struct stamp { int t; } stamp_t;
static void fn_stamp(void *arg) { ((stamp_t *)arg)->t = atomic_fetch_add(&ticket, 1); }
typedef struct blockstamp { gate_t *g; int t; } blockstamp_t;
static void fn_block_stamp(void *arg)
{
    blockstamp_t *b = arg;
    gate_wait(b->g, 5000);
    usleep(2000);
    b->t = atomic_fetch_add(&ticket, 1);
}

static void test_basic(void)
{
    npu_event_t *e, *f, *nt;
    npu_stream_t *s;
    float ms = -1;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s), NPU_OK);
    CHECK_EQ(npu_event_create(NPU_EVENT_DEFAULT, &e), NPU_OK);
    CHECK_EQ(npu_event_create(NPU_EVENT_BLOCKING_SYNC, &f), NPU_OK);
    CHECK_EQ(npu_event_create(NPU_EVENT_DISABLE_TIMING, &nt), NPU_OK);
    CHECK(npu_event_valid(e) && npu_event_valid(f) && npu_event_valid(nt));
    /* never recorded: complete, but no timing */
    CHECK_EQ(npu_event_query(e), NPU_OK);
    CHECK_EQ(npu_event_sync(e), NPU_OK);
    CHECK_EQ(npu_event_elapsed(e, f, &ms), NPU_EHANDLE);

    /* pending, then complete */
    gate_t g = { 0 };
    CHECK_EQ(npu_event_record(e, s), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(s, fn_block, &g), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(s, fn_sleep20, NULL), NPU_OK);
    CHECK_EQ(npu_event_record(f, s), NPU_OK);
    CHECK_EQ(npu_event_query(f), NPU_ENOTREADY);
    CHECK_EQ(npu_event_elapsed(e, f, &ms), NPU_ENOTREADY);
    atomic_store(&g.open, 1);
    CHECK_EQ(npu_event_sync(f), NPU_OK);
    CHECK_EQ(npu_event_query(f), NPU_OK);
    CHECK_EQ(npu_event_query(e), NPU_OK);
    CHECK_EQ(npu_event_elapsed(e, f, &ms), NPU_OK);
    CHECK_MSG(ms >= 19.0f, "elapsed %.3f ms over a 20 ms sleep", ms);
    CHECK_EQ(npu_event_elapsed(f, e, &ms), NPU_OK);
    CHECK(ms <= -19.0f);
    CHECK_EQ(npu_event_elapsed(e, e, &ms), NPU_OK);
    CHECK(ms == 0.0f);
    CHECK_EQ(npu_event_elapsed(e, f, NULL), NPU_EINVAL);

    /* timing disabled */
    CHECK_EQ(npu_event_record(nt, s), NPU_OK);
    CHECK_EQ(npu_event_sync(nt), NPU_OK);
    CHECK_EQ(npu_event_query(nt), NPU_OK);
    CHECK_EQ(npu_event_elapsed(e, nt, &ms), NPU_EHANDLE);
    CHECK_EQ(npu_event_elapsed(nt, e, &ms), NPU_EHANDLE);

    /* re-recording overwrites the capture */
    gate_t g2 = { 0 };
    npu_stream_t *idle;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &idle), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(s, fn_block, &g2), NPU_OK);
    CHECK_EQ(npu_event_record(e, s), NPU_OK);
    CHECK_EQ(npu_event_query(e), NPU_ENOTREADY);
    CHECK_EQ(npu_event_record(e, idle), NPU_OK);
    CHECK_EQ(npu_event_sync(e), NPU_OK);
    CHECK_EQ(npu_event_query(e), NPU_OK);
    CHECK_EQ(npu_stream_query(s), NPU_ENOTREADY);
    /* destroy while pending */
    CHECK_EQ(npu_event_record(f, s), NPU_OK);
    CHECK_EQ(npu_event_destroy(f), NPU_OK);
    CHECK_EQ(npu_event_valid(f), 0);
    CHECK_EQ(npu_event_destroy(f), NPU_EHANDLE);
    CHECK_EQ(npu_event_query(f), NPU_EHANDLE);
    atomic_store(&g2.open, 1);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);

    /* an event outlives the stream it captured */
    CHECK_EQ(npu_event_record(e, idle), NPU_OK);
    CHECK_EQ(npu_stream_destroy(idle), NPU_OK);
    CHECK_EQ(npu_event_sync(e), NPU_OK);
    CHECK_EQ(npu_event_query(e), NPU_OK);

    CHECK_EQ(npu_event_destroy(e), NPU_OK);
    CHECK_EQ(npu_event_destroy(nt), NPU_OK);
    npu_stream_destroy(s);
}

/* Work after npu_stream_wait_event on `b` must wait for work `a` did before the record. */
static void check_wait(npu_stream_t *a, npu_stream_t *b)
{
    npu_event_t *e;
    gate_t g = { 0 };
    blockstamp_t first = { &g, -1 };
    stamp_t second = { -1 };
    CHECK_EQ(npu_event_create(NPU_EVENT_DISABLE_TIMING, &e), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(a, fn_block_stamp, &first), NPU_OK);
    CHECK_EQ(npu_event_record(e, a), NPU_OK);
    CHECK_EQ(npu_stream_wait_event(b, e), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(b, fn_stamp, &second), NPU_OK);
    usleep(3000);
    CHECK_EQ(npu_stream_query(b), NPU_ENOTREADY);
    CHECK_EQ(second.t, -1);
    atomic_store(&g.open, 1);
    CHECK_EQ(npu_stream_sync(b), NPU_OK);
    CHECK(first.t >= 0 && second.t > first.t);
    /* later work on a does not hold b back */
    gate_t g3 = { 0 };
    CHECK_EQ(npu_stream_host_fn(a, fn_block, &g3), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(b, fn_open, &g3), NPU_OK);
    CHECK_EQ(npu_stream_sync(b), NPU_OK);
    CHECK_EQ(npu_stream_sync(a), NPU_OK);
    CHECK_EQ(npu_event_destroy(e), NPU_OK);
}

static void test_wait_event(void)
{
    npu_stream_t *a, *b, *c1;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &a), NPU_OK);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &b), NPU_OK);
    CHECK_EQ(npu_stream_create(1, NPU_STREAM_DEFAULT, 0, &c1), NPU_OK);
    check_wait(a, b);                      /* same device */
    check_wait(a, c1);                     /* device 0 -> device 1 */
    check_wait(c1, a);                     /* device 1 -> device 0 */
    check_wait(a, npu_stream_legacy(1));
    check_wait(npu_stream_per_thread(1), a);

    /* a never-recorded event imposes nothing; an invalid one is an error */
    npu_event_t *e;
    CHECK_EQ(npu_event_create(0, &e), NPU_OK);
    CHECK_EQ(npu_stream_wait_event(a, e), NPU_OK);
    stamp_t st = { -1 };
    CHECK_EQ(npu_stream_host_fn(a, fn_stamp, &st), NPU_OK);
    CHECK_EQ(npu_stream_sync(a), NPU_OK);
    CHECK(st.t >= 0);
    CHECK_EQ(npu_stream_wait_event(a, (npu_event_t *)&st), NPU_EHANDLE);
    CHECK_EQ(npu_stream_wait_event((npu_stream_t *)&st, e), NPU_EHANDLE);
    /* waiting on an event recorded on the same stream */
    CHECK_EQ(npu_event_record(e, a), NPU_OK);
    CHECK_EQ(npu_stream_wait_event(a, e), NPU_OK);
    CHECK_EQ(npu_stream_sync(a), NPU_OK);

    /* a wait on the legacy stream is an action there even for a complete event: work on a
     * blocking stream queued after it waits for earlier work of the other blocking streams */
    {
        npu_stream_t *b1, *b2;
        gate_t gg = { 0 };
        blockstamp_t first = { &gg, -1 };
        stamp_t after = { -1 };
        CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &b1), NPU_OK);
        CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &b2), NPU_OK);
        CHECK_EQ(npu_event_record(e, a), NPU_OK);
        CHECK_EQ(npu_event_sync(e), NPU_OK);
        CHECK_EQ(npu_stream_host_fn(b1, fn_block_stamp, &first), NPU_OK);
        CHECK_EQ(npu_stream_wait_event(npu_stream_legacy(0), e), NPU_OK);
        CHECK_EQ(npu_stream_host_fn(b2, fn_stamp, &after), NPU_OK);
        usleep(2000);
        CHECK_EQ(after.t, -1);
        atomic_store(&gg.open, 1);
        CHECK_EQ(npu_stream_sync(b2), NPU_OK);
        CHECK(first.t >= 0 && after.t > first.t);
        npu_stream_destroy(b1);
        npu_stream_destroy(b2);
    }

    /* a record on the legacy stream captures earlier blocking-stream work */
    npu_stream_t *blk;
    gate_t g = { 0 };
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_DEFAULT, 0, &blk), NPU_OK);
    CHECK_EQ(npu_stream_host_fn(blk, fn_block, &g), NPU_OK);
    CHECK_EQ(npu_event_record(e, npu_stream_legacy(0)), NPU_OK);
    CHECK_EQ(npu_event_query(e), NPU_ENOTREADY);
    atomic_store(&g.open, 1);
    CHECK_EQ(npu_event_sync(e), NPU_OK);
    CHECK_EQ(npu_stream_query(blk), NPU_OK);
    /* ...but a record on a non-blocking stream does not */
    gate_t g2 = { 0 };
    CHECK_EQ(npu_stream_host_fn(blk, fn_block, &g2), NPU_OK);
    CHECK_EQ(npu_event_record(e, a), NPU_OK);
    CHECK_EQ(npu_event_sync(e), NPU_OK);
    CHECK_EQ(npu_stream_query(blk), NPU_ENOTREADY);
    atomic_store(&g2.open, 1);
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    CHECK_EQ(npu_device_sync(1), NPU_OK);

    npu_event_destroy(e);
    npu_stream_destroy(blk);
    npu_stream_destroy(a);
    npu_stream_destroy(b);
    npu_stream_destroy(c1);
}

static void test_invalid(void)
{
    int local;
    void *junk = malloc(128);
    memset(junk, 0xEE, 128);
    npu_event_t *bad[] = { NULL, (npu_event_t *)&local, (npu_event_t *)junk,
                           (npu_event_t *)(uintptr_t)0x10, (npu_event_t *)(uintptr_t)0xfffffffffff0 };
    npu_event_t *ok;
    float ms;
    CHECK_EQ(npu_event_create(0, &ok), NPU_OK);
    CHECK_EQ(npu_event_record(ok, npu_stream_legacy(0)), NPU_OK);
    CHECK_EQ(npu_event_sync(ok), NPU_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(npu_event_valid(bad[i]), 0);
        CHECK_EQ(npu_event_query(bad[i]), NPU_EHANDLE);
        CHECK_EQ(npu_event_sync(bad[i]), NPU_EHANDLE);
        CHECK_EQ(npu_event_destroy(bad[i]), NPU_EHANDLE);
        CHECK_EQ(npu_event_record(bad[i], npu_stream_legacy(0)), NPU_EHANDLE);
        CHECK_EQ(npu_event_elapsed(bad[i], ok, &ms), NPU_EHANDLE);
        CHECK_EQ(npu_event_elapsed(ok, bad[i], &ms), NPU_EHANDLE);
    }
    CHECK_EQ(npu_event_record(ok, (npu_stream_t *)junk), NPU_EHANDLE);
    CHECK_EQ(npu_event_record(ok, NULL), NPU_EHANDLE);
    CHECK_EQ(npu_event_create(0x40, &ok), NPU_EINVAL);
    CHECK_EQ(npu_event_create(NPU_EVENT_INTERPROCESS, &ok), NPU_EINVAL);
    CHECK_EQ(npu_event_create(0, NULL), NPU_EINVAL);
    npu_event_t *ipc;
    CHECK_EQ(npu_event_create(NPU_EVENT_INTERPROCESS | NPU_EVENT_DISABLE_TIMING, &ipc), NPU_OK);
    npu_event_destroy(ipc);
    npu_event_destroy(ok);
    free(junk);
}

static void test_many_records(void)
{
    /* events recorded over and over on a busy stream: each sync sees its own point */
    npu_stream_t *s;
    npu_event_t *ev[4];
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s), NPU_OK);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(npu_event_create(0, &ev[i]), NPU_OK);
    stamp_t st[400];
    int ok = 1;
    for (int i = 0; i < 400; i++) {
        st[i].t = -1;
        npu_stream_host_fn(s, fn_stamp, &st[i]);
        npu_event_record(ev[i & 3], s);
        if (i % 4 == 3) {
            CHECK_EQ(npu_event_sync(ev[(i + 1) & 3]), NPU_OK);
            ok &= st[i - 3].t >= 0;
        }
    }
    CHECK(ok);
    CHECK_EQ(npu_stream_sync(s), NPU_OK);
    float ms;
    CHECK_EQ(npu_event_elapsed(ev[0], ev[3], &ms), NPU_OK);
    CHECK(ms >= 0.0f);
    for (int i = 0; i < 4; i++)
        npu_event_destroy(ev[i]);
    npu_stream_destroy(s);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_DEVICES", "2", 1);
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_device_count(), 2);
    test_basic();
    test_wait_event();
    test_invalid();
    test_many_records();
    return CHECK_DONE();
}
