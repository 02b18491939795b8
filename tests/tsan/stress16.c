/*
 * stress16.c - 16 host threads hammer the runtime at once, for ThreadSanitizer
 * (tests/tsan/run_tsan.sh builds the runtime with -fsanitize=thread and runs this with
 * halt_on_error=1): allocation and free (device, pinned host), async copies and sets, kernel
 * launches (PTX kernels translated by the JIT: block mode, block mode with bar.sync phases,
 * warp-shuffle phases, and thread mode on fibers), stream create/destroy/sync/query, cross-stream event waits, events
 * record/query/sync/elapsed, host functions, per-thread and legacy default streams, and 16
 * threads racing the first npu_kmodule_get_function of each entry. Every result is checked
 * against a host computation.
 *
 * DESIGN (threads): the module is loaded once by main; worker threads share it and the
 * global counters (atomics only); each thread owns its streams, events and buffers, except
 * that thread t's second stream waits on an event recorded on its first (cross-stream
 * ordering), every 4th iteration runs on the shared legacy stream, each thread records a
 * shared event that other threads' streams wait on, and threads call npu_device_sync, which
 * waits for everyone's streams. Host functions bump a
 * per-thread counter read only after the stream was synchronised (the runtime's completion
 * signalling must order it: TSan checks that).
 * Usage: stress16 [ptx-file] ; STRESS_ITERS (default 12), STRESS_WSUM=0 skips the shuffle
 * kernel (block mode with warp phases), STRESS_FIBERS=0 skips csum, a counted-barrier
 * kernel that runs in thread mode (one fiber per GPU thread).
 */
#include "npu_runtime/kernel/npu_kernel.h"
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slurp.h"
#include <unistd.h>

#define NTHREADS 16

static npu_kmodule_t *g_mod;
static int g_iters = 12, g_wsum = 1, g_fibers = 1;
static pthread_barrier_t g_start;
static npu_event_t *g_shared_ev[NTHREADS];  /* recorded by their owner, waited on by others */
static int g_fail;                  /* atomic */

#define TCHECK(cond) do { if (!(cond)) { __atomic_fetch_add(&g_fail, 1, __ATOMIC_RELAXED); \
    fprintf(stderr, "thread check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); } } while (0)

typedef struct tstate {
    int id;
    int hostfn_count;               /* written by host functions, read after sync */
    unsigned seed;
} tstate_t;

static void host_fn(void *arg)
{
    tstate_t *t = arg;
    t->hostfn_count++;
}

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static npu_kfunc_t *get_fn(const char *name)
{
    npu_kfunc_t *f = NULL;
    npu_status_t st = npu_kmodule_get_function(g_mod, name, &f);
    TCHECK(st == NPU_OK && f);
    return st == NPU_OK ? f : NULL;
}

static npu_status_t launch(npu_kfunc_t *f, unsigned nblocks, unsigned bs, npu_stream_t *s, void **args)
{
    uint32_t grid[3] = { nblocks, 1, 1 }, block[3] = { bs, 1, 1 };
    return npu_kfunc_launch(f, grid, block, 0, s, args);
}

static void one_iteration(tstate_t *t, int it, npu_kfunc_t *axpb, npu_kfunc_t *bsum, npu_kfunc_t *wsum,
                          npu_kfunc_t *csum)
{
    unsigned n = 1 + rnd(&t->seed) % 20000;
    unsigned a = 1 + rnd(&t->seed) % 7, b = rnd(&t->seed) % 100;
    size_t bytes = (size_t)n * 4;
    unsigned nb = (n + 255) / 256;

    npu_stream_t *s1 = NULL, *s2 = NULL;
    int legacy = it % 4 == 3, pts = it % 4 == 2;
    if (legacy)
        s1 = npu_stream_legacy(0);
    else if (pts)
        s1 = npu_stream_per_thread(0);
    else
        TCHECK(npu_stream_create(0, it % 2 ? NPU_STREAM_NONBLOCKING : NPU_STREAM_DEFAULT, 0, &s1) == NPU_OK);
    TCHECK(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s2) == NPU_OK);
    npu_event_t *e0 = NULL, *e1 = NULL, *e2 = NULL;
    TCHECK(npu_event_create(NPU_EVENT_DEFAULT, &e0) == NPU_OK);
    TCHECK(npu_event_create(NPU_EVENT_DEFAULT, &e1) == NPU_OK);
    TCHECK(npu_event_create(NPU_EVENT_DISABLE_TIMING, &e2) == NPU_OK);
    if (!s1 || !s2 || !e0 || !e1 || !e2)
        goto out;

    unsigned *h_in = NULL, *h_out = malloc(bytes), *h_sum = malloc(nb * 4), *h_sum2 = malloc(nb * 4);
    unsigned *h_w = malloc(4);
    TCHECK(npu_host_alloc(bytes, 0, (void **)&h_in) == NPU_OK);
    unsigned *d_in = NULL, *d_out = NULL, *d_sum = NULL, *d_sum2 = NULL, *d_w = NULL;
    TCHECK(npu_mem_alloc(0, bytes, (void **)&d_in) == NPU_OK);
    TCHECK(npu_mem_alloc(0, bytes, (void **)&d_out) == NPU_OK);
    TCHECK(npu_mem_alloc(0, nb * 4, (void **)&d_sum) == NPU_OK);
    TCHECK(npu_mem_alloc(0, nb * 4, (void **)&d_sum2) == NPU_OK);
    TCHECK(npu_mem_alloc(0, 4, (void **)&d_w) == NPU_OK);
    if (!h_in || !h_out || !h_sum || !h_sum2 || !h_w || !d_in || !d_out || !d_sum || !d_sum2 || !d_w)
        goto freeall;
    for (unsigned i = 0; i < n; i++)
        h_in[i] = rnd(&t->seed) % 1000;
    int hf_before = t->hostfn_count;

    /* s1: in -> d_in; out = in * a + b; e1; host fn; sums of blocks */
    TCHECK(npu_event_record(e0, s1) == NPU_OK);
    TCHECK(npu_memcpy_async(d_in, h_in, bytes, s1) == NPU_OK);
    TCHECK(npu_memset_async(d_out, 0xff, bytes, s1) == NPU_OK);
    void *a1[] = { &d_out, &d_in, &n, &a, &b };
    TCHECK(launch(axpb, nb, 256, s1, a1) == NPU_OK);
    TCHECK(npu_stream_host_fn(s1, host_fn, t) == NPU_OK);
    void *a2[] = { &d_sum, &d_out, &n };
    TCHECK(launch(bsum, nb, 256, s1, a2) == NPU_OK);
    void *a2b[] = { &d_sum2, &d_out, &n };
    if (csum)                                 /* thread mode: fibers */
        TCHECK(launch(csum, nb, 256, s1, a2b) == NPU_OK);
    TCHECK(npu_event_record(e1, s1) == NPU_OK);
    npu_status_t q = npu_event_query(e1);
    TCHECK(q == NPU_OK || q == NPU_ENOTREADY);
    /* s2 waits for s1's work, then reads the results back and runs the shuffle kernel */
    TCHECK(npu_stream_wait_event(s2, e1) == NPU_OK);
    TCHECK(npu_memcpy_async(h_out, d_out, bytes, s2) == NPU_OK);
    TCHECK(npu_memcpy_async(h_sum, d_sum, nb * 4, s2) == NPU_OK);
    if (csum)
        TCHECK(npu_memcpy_async(h_sum2, d_sum2, nb * 4, s2) == NPU_OK);
    TCHECK(npu_memset_async(d_w, 0, 4, s2) == NPU_OK);
    if (wsum) {
        void *a3[] = { &d_w, &d_in, &n };
        TCHECK(launch(wsum, nb, 256, s2, a3) == NPU_OK);
    }
    TCHECK(npu_memcpy_async(h_w, d_w, 4, s2) == NPU_OK);
    /* stream-ordered pool memory: allocated for s2, used, freed in s2's order */
    unsigned *d_tmp = NULL;
    TCHECK(npu_pool_alloc_async(npu_pool_default(0), bytes, s2, (void **)&d_tmp) == NPU_OK);
    if (d_tmp) {
        TCHECK(npu_memcpy_async(d_tmp, d_out, bytes, s2) == NPU_OK);
        TCHECK(npu_memcpy_async(h_out, d_tmp, bytes, s2) == NPU_OK);
        TCHECK(npu_pool_free_async(d_tmp, s2) == NPU_OK);
    }
    /* another thread's event: waiting on whatever it captured last is always legal */
    TCHECK(npu_stream_wait_event(s2, g_shared_ev[(t->id + 1 + it) % NTHREADS]) == NPU_OK);
    q = npu_event_query(g_shared_ev[(t->id + 3) % NTHREADS]);
    TCHECK(q == NPU_OK || q == NPU_ENOTREADY);
    TCHECK(npu_stream_host_fn(s2, host_fn, t) == NPU_OK);
    TCHECK(npu_event_record(e2, s2) == NPU_OK);
    TCHECK(npu_event_record(g_shared_ev[t->id], s1) == NPU_OK);
    if (it % 3 == 0) {
        TCHECK(npu_event_sync(e2) == NPU_OK);
    } else if (it % 3 == 1) {
        TCHECK(npu_stream_sync(s2) == NPU_OK);
    } else {
        while (npu_stream_query(s2) == NPU_ENOTREADY)
            ;
        TCHECK(npu_stream_query(s2) == NPU_OK);
    }
    TCHECK(npu_event_query(e2) == NPU_OK);
    TCHECK(npu_event_query(e1) == NPU_OK);
    float ms = -1;
    TCHECK(npu_event_elapsed(e0, e1, &ms) == NPU_OK && ms >= 0);
    TCHECK(npu_event_elapsed(e0, e2, &ms) == NPU_EHANDLE);   /* e2 has no timing */
    TCHECK(t->hostfn_count == hf_before + 2);

    unsigned long long total = 0;
    int bad = 0;
    for (unsigned i = 0; i < n; i++) {
        bad += h_out[i] != h_in[i] * a + b;
        total += h_in[i];
    }
    TCHECK(bad == 0);
    for (unsigned k = 0; k < nb; k++) {
        unsigned ref = 0;
        for (unsigned i = k * 256; i < n && i < (k + 1) * 256; i++)
            ref += h_in[i] * a + b;
        bad += h_sum[k] != ref;
        if (csum)
            bad += h_sum2[k] != ref;
    }
    TCHECK(bad == 0);
    if (wsum)
        TCHECK(*h_w == (unsigned)total);
    else
        TCHECK(*h_w == 0);

freeall:
    TCHECK(npu_mem_free(d_in) == NPU_OK);
    TCHECK(npu_mem_free(d_out) == NPU_OK);
    TCHECK(npu_mem_free(d_sum) == NPU_OK);
    TCHECK(npu_mem_free(d_sum2) == NPU_OK);
    TCHECK(npu_mem_free(d_w) == NPU_OK);
    TCHECK(npu_mem_free(d_w) == NPU_EINVAL);                /* double free is refused */
    TCHECK(npu_host_free(h_in) == NPU_OK);
    free(h_out);
    free(h_sum);
    free(h_sum2);
    free(h_w);
out:
    if (s1 && !legacy && !pts)
        TCHECK(npu_stream_destroy(s1) == NPU_OK);
    if (s2)
        TCHECK(npu_stream_destroy(s2) == NPU_OK);
    if (e0) TCHECK(npu_event_destroy(e0) == NPU_OK);
    if (e1) TCHECK(npu_event_destroy(e1) == NPU_OK);
    if (e2) TCHECK(npu_event_destroy(e2) == NPU_OK);
}

/* Allocation churn without streams: many sizes, interleaved frees, pool allocations. */
static void churn(tstate_t *t)
{
    void *p[32] = { 0 };
    for (int r = 0; r < 400; r++) {
        int k = (int)(rnd(&t->seed) % 32);
        if (p[k]) {
            TCHECK(((unsigned char *)p[k])[0] == (unsigned char)k);
            TCHECK(npu_mem_free(p[k]) == NPU_OK);
            p[k] = NULL;
        } else {
            size_t sz = 1 + rnd(&t->seed) % (r % 8 ? 4096 : 3u << 20);
            if (npu_mem_alloc(0, sz, &p[k]) == NPU_OK && p[k]) {
                memset(p[k], k, sz < 64 ? sz : 64);
                npu_ptr_info_t info;
                TCHECK(npu_mem_lookup((char *)p[k] + sz - 1, &info) == NPU_OK);
                TCHECK(info.kind == NPU_MEM_DEVICE && info.base == p[k] && info.size == sz);
            } else {
                TCHECK(0);
            }
        }
    }
    for (int k = 0; k < 32; k++)
        if (p[k])
            TCHECK(npu_mem_free(p[k]) == NPU_OK);
}

static void *worker(void *arg)
{
    tstate_t *t = arg;
    pthread_barrier_wait(&g_start);
    /* all 16 race the first translation + compilation of each entry */
    npu_kfunc_t *axpb = get_fn("axpb"), *bsum = get_fn("bsum");
    npu_kfunc_t *wsum = g_wsum ? get_fn("wsum") : NULL;
    npu_kfunc_t *csum = g_fibers ? get_fn("csum") : NULL;
    if (!axpb || !bsum || (g_wsum && !wsum) || (g_fibers && !csum))
        return NULL;
    for (int it = 0; it < g_iters; it++) {
        one_iteration(t, it, axpb, bsum, wsum, it % 2 ? csum : NULL);
        if (it % 4 == 0)
            churn(t);
        if (it % 5 == 4)
            TCHECK(npu_device_sync(0) == NPU_OK);
        size_t fr = 0, tot = 0;
        TCHECK(npu_mem_info(0, &fr, &tot) == NPU_OK && fr <= tot);
    }
    TCHECK(npu_stream_sync(npu_stream_per_thread(0)) == NPU_OK);
    return NULL;
}

/* Memory mappings of the process, sampled while the threads run: the runtime must stay far
 * below vm.max_map_count (65530 by default), or thread creation and mmap fail. Fiber stack
 * sets of 1024 guarded stacks per runner took this program to 47.6K (EAGAIN from
 * pthread_create about 1 run in 10). */
static volatile int g_running = 1;
static int g_max_maps;

static int count_maps(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    int n = 0, c;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static void *maps_watch(void *arg)
{
    (void)arg;
    while (__atomic_load_n(&g_running, __ATOMIC_ACQUIRE)) {
        int n = count_maps();
        if (n > g_max_maps)
            g_max_maps = n;
        usleep(20000);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    setenv("TRANSFER_TO_NPU_LOG", "error", 0);
    const char *path = argc > 1 ? argv[1] : "tests/tsan/stress16.ptx";
    if (getenv("STRESS_ITERS"))
        g_iters = atoi(getenv("STRESS_ITERS"));
    if (getenv("STRESS_WSUM"))
        g_wsum = atoi(getenv("STRESS_WSUM"));
    if (getenv("STRESS_FIBERS"))
        g_fibers = atoi(getenv("STRESS_FIBERS"));
    size_t len = 0;
    char *ptx = slurp(path, &len);
    CHECK(ptx != NULL);
    if (!ptx)
        return CHECK_DONE();
    CHECK_EQ(npu_init(), NPU_OK);
    CHECK_EQ(npu_kmodule_load_ptx(0, ptx, len, &g_mod), NPU_OK);
    free(ptx);
    if (!g_mod)
        return CHECK_DONE();
    pthread_barrier_init(&g_start, NULL, NTHREADS);
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(npu_event_create(NPU_EVENT_DISABLE_TIMING, &g_shared_ev[i]), NPU_OK);
    pthread_t th[NTHREADS];
    tstate_t ts[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        ts[i].id = i;
        ts[i].hostfn_count = 0;
        ts[i].seed = 1234u + 77u * (unsigned)i;
        CHECK_EQ(pthread_create(&th[i], NULL, worker, &ts[i]), 0);
    }
    pthread_t watch;
    int watching = pthread_create(&watch, NULL, maps_watch, NULL) == 0;
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(th[i], NULL);
    if (watching) {
        __atomic_store_n(&g_running, 0, __ATOMIC_RELEASE);
        pthread_join(watch, NULL);
        fprintf(stderr, "stress16: at most %d memory mappings\n", g_max_maps);
        CHECK(g_max_maps < 32768);
    }
    int expect_hf = 2 * g_iters;
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(ts[i].hostfn_count, expect_hf);
    CHECK_EQ(__atomic_load_n(&g_fail, __ATOMIC_RELAXED), 0);
    CHECK_EQ(npu_device_sync(0), NPU_OK);
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(npu_event_destroy(g_shared_ev[i]), NPU_OK);
    npu_mem_stats_t ms;
    CHECK_EQ(npu_mem_get_stats(0, &ms), NPU_OK);
    CHECK_EQ(npu_kmodule_unload(g_mod), NPU_OK);
    return CHECK_DONE();
}
