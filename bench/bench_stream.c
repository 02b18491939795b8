/*
 * bench_stream.c - stream round trips and async copies against their references.
 *   stream_roundtrip: npu_stream_host_fn + npu_stream_sync, median of many, vs the 10 us target
 *   stream_roundtrip_idle: the same after the worker went to sleep (2 ms pause), vs 10 us
 *   stream_roundtrip_legacy: on the legacy default stream, vs 10 us
 *   event_roundtrip: host fn + npu_event_record + npu_event_sync, vs 10 us
 *   condvar_pingpong: reference only - a round trip that wakes a sleeping thread both ways
 *   stream_throughput: per-item cost of 100000 host functions then one sync
 *   memcpy_async_64MiB: npu_memcpy_async + sync vs memcpy of the same buffers (ratio =
 *       memcpy time / ours, target >= 0.9)
 */
#include "npu_runtime/npu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_us(uint64_t *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_u64);
    return v[n / 2] / 1000.0;
}

static volatile int sink;
static void noop(void *arg) { (void)arg; sink++; }

static double roundtrip(npu_stream_t *s, int n, int pause_us)
{
    uint64_t *t = malloc(sizeof *t * (size_t)n);
    for (int i = 0; i < 200; i++) {            /* warm up: worker thread started */
        npu_stream_host_fn(s, noop, NULL);
        npu_stream_sync(s);
    }
    for (int i = 0; i < n; i++) {
        if (pause_us)
            usleep((useconds_t)pause_us);
        uint64_t t0 = npu_now_ns();
        npu_stream_host_fn(s, noop, NULL);
        npu_stream_sync(s);
        t[i] = npu_now_ns() - t0;
    }
    double m = median_us(t, n);
    free(t);
    return m;
}

static double event_roundtrip(npu_stream_t *s, int n)
{
    npu_event_t *e;
    npu_event_create(0, &e);
    uint64_t *t = malloc(sizeof *t * (size_t)n);
    for (int i = 0; i < n; i++) {
        uint64_t t0 = npu_now_ns();
        npu_stream_host_fn(s, noop, NULL);
        npu_event_record(e, s);
        npu_event_sync(e);
        t[i] = npu_now_ns() - t0;
    }
    double m = median_us(t, n);
    free(t);
    npu_event_destroy(e);
    return m;
}

/* Reference: a hand-off that sleeps (mutex + condvar ping-pong between two threads). */
static pthread_mutex_t pp_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pp_cv = PTHREAD_COND_INITIALIZER;
static int pp_turn, pp_stop;
static void *pp_thread(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&pp_lock);
    while (!pp_stop) {
        while (pp_turn != 1 && !pp_stop)
            pthread_cond_wait(&pp_cv, &pp_lock);
        pp_turn = 0;
        pthread_cond_broadcast(&pp_cv);
    }
    pthread_mutex_unlock(&pp_lock);
    return NULL;
}

static double condvar_pingpong(int n)
{
    pthread_t th;
    pthread_create(&th, NULL, pp_thread, NULL);
    uint64_t *t = malloc(sizeof *t * (size_t)n);
    for (int i = 0; i < n; i++) {
        uint64_t t0 = npu_now_ns();
        pthread_mutex_lock(&pp_lock);
        pp_turn = 1;
        pthread_cond_broadcast(&pp_cv);
        while (pp_turn != 0)
            pthread_cond_wait(&pp_cv, &pp_lock);
        pthread_mutex_unlock(&pp_lock);
        t[i] = npu_now_ns() - t0;
    }
    pthread_mutex_lock(&pp_lock);
    pp_stop = 1;
    pthread_cond_broadcast(&pp_cv);
    pthread_mutex_unlock(&pp_lock);
    pthread_join(th, NULL);
    double m = median_us(t, n);
    free(t);
    return m;
}

int main(void)
{
    if (npu_init() != NPU_OK) {
        fprintf(stderr, "npu_init failed\n");
        return 1;
    }
    npu_stream_t *s;
    npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s);

    double rt = roundtrip(s, 20000, 0);
    printf("BENCH stream_roundtrip_us: %.2f vs 10.00 ratio %.3f (target <= 10 us)\n", rt, rt / 10.0);
    double rti = roundtrip(s, 300, 2000);
    printf("BENCH stream_roundtrip_idle_us: %.2f vs 10.00 ratio %.3f (target <= 10 us; worker asleep before each)\n",
           rti, rti / 10.0);
    double rtl = roundtrip(npu_stream_legacy(0), 20000, 0);
    printf("BENCH stream_roundtrip_legacy_us: %.2f vs 10.00 ratio %.3f (target <= 10 us)\n", rtl, rtl / 10.0);
    double ert = event_roundtrip(s, 20000);
    printf("BENCH event_roundtrip_us: %.2f vs 10.00 ratio %.3f (target <= 10 us)\n", ert, ert / 10.0);
    double pp = condvar_pingpong(2000);
    printf("BENCH condvar_pingpong_us: %.2f vs stream round trip %.2f ratio %.1f (reference: a sleeping hand-off)\n",
           pp, rt, pp / (rt > 0 ? rt : 1));

    enum { NT = 100000 };
    uint64_t t0 = npu_now_ns();
    for (int i = 0; i < NT; i++)
        npu_stream_host_fn(s, noop, NULL);
    npu_stream_sync(s);
    double per = (npu_now_ns() - t0) / 1000.0 / NT;
    printf("BENCH stream_throughput_us_per_item: %.3f vs 10.00 ratio %.3f (target <= 10 us)\n", per, per / 10.0);

    size_t n = 64u << 20;
    char *src = malloc(n), *dst = NULL;
    void *dv = NULL;
    if (npu_mem_alloc(0, n, &dv) == NPU_OK && dv)
        dst = dv;
    else
        dst = malloc(n);
    memset(src, 1, n);
    memset(dst, 2, n);
    uint64_t a[9], b[9];
    for (int r = 0; r < 9; r++) {
        uint64_t t1 = npu_now_ns();
        npu_memcpy_async(dst, src, n, s);
        npu_stream_sync(s);
        a[r] = npu_now_ns() - t1;
        t1 = npu_now_ns();
        memcpy(dst, src, n);         /* same buffers: only the stream path differs */
        __asm__ __volatile__("" ::: "memory");
        b[r] = npu_now_ns() - t1;
    }
    double ours = median_us(a, 9) / 1000.0, theirs = median_us(b, 9) / 1000.0;
    printf("BENCH memcpy_async_64MiB_ms: %.2f vs memcpy %.2f ratio %.3f (target >= 0.9)\n",
           ours, theirs, theirs / ours);
    memset(dst, 0, n);
    npu_memcpy_async(dst, src, n, s);
    npu_stream_sync(s);
    int ok = memcmp(dst, src, n) == 0;
    if (dv)
        npu_mem_free(dv);
    else
        free(dst);
    free(src);
    npu_stream_destroy(s);
    return ok ? 0 : 1;
}
