/*
 * test_threads.c - 8, then 16 host threads using streams, events, host functions and copies
 * at once, on two devices: each thread drives its own stream, its per-thread default stream,
 * a stream shared by all threads and the legacy streams; events are re-recorded by one
 * thread while others wait on them; temporary streams are created and destroyed. Checks:
 * per-stream order of each thread's log, copied data against a host reference, exact counts
 * of host-function runs, and no deadlock (the test runner's timeout).
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAXT = 16, ITERS = 300, BUF = 64 * 1024 };

static npu_stream_t *shared[2];
static npu_event_t *ev[MAXT];
static atomic_int shared_count, legacy_count, temp_count;
static int nthreads;

typedef struct tstate {
    int id, dev;
    int log[ITERS];
    int nlog;
    int pt_count;
    int errors;
    int data_bad;
} tstate_t;

typedef struct logent { tstate_t *t; int v; } logent_t;

static void fn_log(void *arg)
{
    logent_t *l = arg;
    l->t->log[l->t->nlog++] = l->v;
}
static void fn_shared(void *arg) { atomic_fetch_add(&shared_count, 1); }
static void fn_legacy(void *arg) { atomic_fetch_add(&legacy_count, 1); }
static void fn_pt(void *arg) { ((tstate_t *)arg)->pt_count++; }
static npu_status_t work_temp(void *arg) { atomic_fetch_add(&temp_count, 1); return NPU_OK; }
static atomic_int exit_count;
static void fn_exit_late(void *arg) { usleep(1000); atomic_fetch_add(&exit_count, 1); }

static void *thread_main(void *arg)
{
    tstate_t *t = arg;
    npu_stream_t *own, *pts = npu_stream_per_thread(t->dev);
    if (npu_stream_create(t->dev, (t->id & 1) ? NPU_STREAM_NONBLOCKING : 0, 0, &own) != NPU_OK || !pts) {
        t->errors++;
        return NULL;
    }
    logent_t *ents = malloc(sizeof *ents * ITERS);
    unsigned char *src = malloc(BUF), *mid = malloc(BUF), *dst = malloc(BUF);
    for (int i = 0; i < ITERS; i++) {
        ents[i].t = t;
        ents[i].v = i;
        t->errors += npu_stream_host_fn(own, fn_log, &ents[i]) != NPU_OK;
        if (i % 10 == 0) {
            memset(src, (t->id * 31 + i) & 0xFF, BUF);
            src[i] = 0x77;
            t->errors += npu_memcpy_async(mid, src, BUF, own) != NPU_OK;
            t->errors += npu_memset_async(mid + BUF / 2, i & 0xFF, 100, own) != NPU_OK;
            t->errors += npu_memcpy_async(dst, mid, BUF, own) != NPU_OK;
            t->errors += npu_stream_sync(own) != NPU_OK;
            int bad = dst[i] != 0x77;
            for (int k = 0; k < BUF; k += 997) {
                unsigned char want = (k >= BUF / 2 && k < BUF / 2 + 100) ? (i & 0xFF)
                                   : k == i ? 0x77 : ((t->id * 31 + i) & 0xFF);
                bad |= dst[k] != want;
            }
            t->data_bad += bad;
        }
        t->errors += npu_stream_host_fn(shared[t->dev], fn_shared, NULL) != NPU_OK;
        t->errors += npu_stream_host_fn(pts, fn_pt, t) != NPU_OK;
        t->errors += npu_event_record(ev[t->id], own) != NPU_OK;
        t->errors += npu_stream_wait_event(own, ev[(t->id + 1) % nthreads]) != NPU_OK;
        npu_status_t q = npu_event_query(ev[(t->id + 3) % nthreads]);
        t->errors += q != NPU_OK && q != NPU_ENOTREADY;
        if (i % 50 == 0) {
            t->errors += npu_stream_host_fn(npu_stream_legacy(t->dev), fn_legacy, NULL) != NPU_OK;
            npu_stream_t *tmp;
            if (npu_stream_create(t->dev, 0, 0, &tmp) == NPU_OK) {
                t->errors += npu_stream_submit(tmp, work_temp, NULL, NULL) != NPU_OK;
                t->errors += npu_stream_destroy(tmp) != NPU_OK;
            } else {
                t->errors++;
            }
        }
        if (i % 37 == 0)
            t->errors += npu_event_sync(ev[(t->id + 2) % nthreads]) != NPU_OK;
        if (i % 64 == 0)
            t->errors += npu_stream_sync(pts) != NPU_OK;
    }
    t->errors += npu_stream_sync(own) != NPU_OK;
    t->errors += npu_stream_sync(pts) != NPU_OK;
    t->errors += npu_stream_destroy(own) != NPU_OK;
    /* pending work on the per-thread stream outlives the thread (the stream is released) */
    t->errors += npu_stream_host_fn(pts, fn_exit_late, NULL) != NPU_OK;
    free(ents);
    free(src);
    free(mid);
    free(dst);
    return NULL;
}

static void run_round(int n)
{
    pthread_t th[MAXT];
    static tstate_t st[MAXT];
    nthreads = n;
    atomic_store(&shared_count, 0);
    atomic_store(&legacy_count, 0);
    atomic_store(&temp_count, 0);
    atomic_store(&exit_count, 0);
    for (int i = 0; i < n; i++)
        CHECK_EQ(npu_event_create(i % 3 == 0 ? NPU_EVENT_DISABLE_TIMING : 0, &ev[i]), NPU_OK);
    for (int i = 0; i < n; i++) {
        memset(&st[i], 0, sizeof st[i]);
        st[i].id = i;
        st[i].dev = i % 2;
        pthread_create(&th[i], NULL, thread_main, &st[i]);
    }
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    CHECK_EQ(npu_device_sync(1), NPU_OK);
    CHECK_EQ(atomic_load(&exit_count), n);
    int order_ok = 1;
    for (int i = 0; i < n; i++) {
        CHECK_EQ(st[i].errors, 0);
        CHECK_EQ(st[i].data_bad, 0);
        CHECK_EQ(st[i].nlog, ITERS);
        CHECK_EQ(st[i].pt_count, ITERS);
        for (int k = 0; k < ITERS; k++)
            order_ok &= st[i].log[k] == k;
    }
    CHECK(order_ok);
    CHECK_EQ(atomic_load(&shared_count), n * ITERS);
    CHECK_EQ(atomic_load(&legacy_count), n * ((ITERS + 49) / 50));
    CHECK_EQ(atomic_load(&temp_count), n * ((ITERS + 49) / 50));
    for (int i = 0; i < n; i++)
        CHECK_EQ(npu_event_destroy(ev[i]), NPU_OK);
}

/* Handles used by one thread while another destroys them: calls either work or return
 * NPU_EHANDLE; nothing crashes, no work is lost. */
static npu_stream_t *_Atomic race_stream;
static npu_event_t *_Atomic race_event;
static atomic_int race_stop, race_bad, race_runs;
static void fn_race(void *arg) { atomic_fetch_add(&race_runs, 1); }
static void *race_user(void *arg)
{
    long accepted = 0;
    while (!atomic_load(&race_stop)) {
        npu_stream_t *s = race_stream;
        npu_event_t *e = race_event;
        npu_status_t a = npu_stream_host_fn(s, fn_race, NULL);
        npu_status_t b = npu_event_record(e, s);
        npu_status_t c = npu_stream_wait_event(s, e);
        npu_status_t d = npu_event_query(e);
        accepted += a == NPU_OK;
        race_bad += (a != NPU_OK && a != NPU_EHANDLE) || (b != NPU_OK && b != NPU_EHANDLE) ||
                    (c != NPU_OK && c != NPU_EHANDLE) ||
                    (d != NPU_OK && d != NPU_EHANDLE && d != NPU_ENOTREADY);
    }
    return (void *)accepted;
}

static void test_destroy_race(void)
{
    pthread_t th[4];
    npu_stream_t *s;
    npu_event_t *e;
    npu_stream_create(0, 0, 0, &s);
    npu_event_create(0, &e);
    race_stream = s;
    race_event = e;
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, race_user, NULL);
    for (int k = 0; k < 300; k++) {
        npu_stream_t *ns;
        npu_event_t *ne;
        CHECK_EQ(npu_stream_create(k & 1, k & 2 ? NPU_STREAM_NONBLOCKING : 0, 0, &ns), NPU_OK);
        CHECK_EQ(npu_event_create(k & 4 ? NPU_EVENT_DISABLE_TIMING : 0, &ne), NPU_OK);
        npu_stream_t *old = race_stream;
        npu_event_t *olde = race_event;
        race_stream = ns;
        race_event = ne;
        CHECK_EQ(npu_stream_destroy(old), NPU_OK);
        CHECK_EQ(npu_event_destroy(olde), NPU_OK);
        if (k % 50 == 0)
            usleep(200);
    }
    atomic_store(&race_stop, 1);
    long accepted = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        accepted += (long)r;
    }
    npu_stream_destroy(race_stream);
    npu_event_destroy(race_event);
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    CHECK_EQ(npu_device_sync(1), NPU_OK);
    CHECK_EQ(atomic_load(&race_bad), 0);
    CHECK_EQ(atomic_load(&race_runs), accepted);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_DEVICES", "2", 1);
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &shared[0]), NPU_OK);
    CHECK_EQ(npu_stream_create(1, NPU_STREAM_DEFAULT, 0, &shared[1]), NPU_OK);
    run_round(8);
    run_round(16);
    run_round(16);
    test_destroy_race();
    npu_stream_destroy(shared[0]);
    npu_stream_destroy(shared[1]);
    return CHECK_DONE();
}
