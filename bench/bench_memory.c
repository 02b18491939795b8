/*
 * bench_memory.c - device allocator cost against glibc malloc on the same size sequences,
 * measured side by side in one run (median of 7 rounds each; ratio = ours / malloc, target
 * <= 2x):
 *   mem_pair_small:   alloc then free at once, sizes log-uniform in 256 B .. 1 MiB
 *   mem_pair_tensor:  alloc then free at once, sizes log-uniform in 256 B .. 64 MiB
 *   mem_churn_tensor: 64 live allocations, each step frees a random one and allocates a new
 *                     size (log-uniform 256 B .. 64 MiB): a training step's tensor churn
 *   mem_pair_small_mt: mem_pair_small again once the process has a second thread, as it
 *                     always has under the runtime (stream and block workers): glibc then
 *                     takes its arena lock too (single-threaded it skips it)
 *   mem_lookup:       npu_mem_lookup of interior device pointers vs a binary search over
 *                     the same allocation table (what a sorted map would cost)
 * Neither side touches the memory it gets, so this is the bookkeeping cost only. Times are
 * the thread's CPU time (user + system, CLOCK_THREAD_CPUTIME_ID): on these shared 2-vCPU
 * guests wall time includes steal, which made the same run vary 2x between repeats.
 */
#include "npu_runtime/npu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { N = 200000, ROUNDS = 7, LIVE = 64 };

static size_t sizes[N];
static int slots[N];

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

static void gen_sizes(size_t maxlog2, uint64_t seed)
{
    for (int i = 0; i < N; i++) {
        double l = 8.0 + (double)(rnd(&seed) % 10000) / 10000.0 * (double)(maxlog2 - 8);
        sizes[i] = (size_t)__builtin_exp2(l);
        slots[i] = (int)(rnd(&seed) % LIVE);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median(uint64_t *v)
{
    qsort(v, ROUNDS, sizeof *v, cmp_u64);
    return (double)v[ROUNDS / 2];
}

static volatile uintptr_t sink;

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t run_pair(int ours)
{
    uint64_t t0 = cpu_ns();
    for (int i = 0; i < N; i++) {
        void *p;
        if (ours) {
            npu_mem_alloc(0, sizes[i], &p);
            sink += (uintptr_t)p;
            npu_mem_free(p);
        } else {
            p = malloc(sizes[i]);
            sink += (uintptr_t)p;
            free(p);
        }
    }
    return cpu_ns() - t0;
}

static uint64_t run_churn(int ours)
{
    void *live[LIVE];
    for (int i = 0; i < LIVE; i++) {
        if (ours) npu_mem_alloc(0, sizes[i], &live[i]);
        else live[i] = malloc(sizes[i]);
    }
    uint64_t t0 = cpu_ns();
    for (int i = 0; i < N; i++) {
        int s = slots[i];
        if (ours) {
            npu_mem_free(live[s]);
            npu_mem_alloc(0, sizes[i], &live[s]);
        } else {
            free(live[s]);
            live[s] = malloc(sizes[i]);
        }
        sink += (uintptr_t)live[s];
    }
    uint64_t t = cpu_ns() - t0;
    for (int i = 0; i < LIVE; i++) {
        if (ours) npu_mem_free(live[i]);
        else free(live[i]);
    }
    return t;
}

static void bench(const char *name, uint64_t (*fn)(int), double ops)
{
    uint64_t a[ROUNDS], b[ROUNDS];
    fn(1);
    fn(0);                                  /* warm both allocators */
    for (int r = 0; r < ROUNDS; r++) {
        a[r] = fn(1);
        b[r] = fn(0);
    }
    double ours = median(a) / ops, ref = median(b) / ops;
    printf("BENCH %s: %.1f ns vs %.1f ns (malloc+free) ratio %.2f (target <= 2)\n", name, ours,
           ref, ours / ref);
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static void bench_lookup(void)
{
    enum { M = 4096, Q = 1000000 };
    static uintptr_t base[M], sorted[M], query[Q];
    static size_t len[M];
    uint64_t seed = 7;
    for (int i = 0; i < M; i++) {
        len[i] = 256 + (size_t)(rnd(&seed) % 100000);
        void *p;
        npu_mem_alloc(0, len[i], &p);
        base[i] = sorted[i] = (uintptr_t)p;
    }
    for (int i = 0; i < Q; i++) {
        int k = (int)(rnd(&seed) % M);
        query[i] = base[k] + (size_t)(rnd(&seed) % len[k]);
    }
    qsort(sorted, M, sizeof *sorted, cmp_ptr);
    uint64_t a[ROUNDS], b[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = cpu_ns();
        for (int i = 0; i < Q; i++) {
            npu_ptr_info_t in;
            npu_mem_lookup((void *)query[i], &in);
            sink += (uintptr_t)in.base;
        }
        a[r] = cpu_ns() - t0;
        t0 = cpu_ns();
        for (int i = 0; i < Q; i++) {
            size_t lo = 0, hi = M;
            while (hi - lo > 1) {
                size_t mid = (lo + hi) / 2;
                if (sorted[mid] <= query[i]) lo = mid; else hi = mid;
            }
            sink += sorted[lo];
        }
        b[r] = cpu_ns() - t0;
    }
    double ours = median(a) / Q, ref = median(b) / Q;
    printf("BENCH mem_lookup: %.1f ns vs %.1f ns (unlocked binary search, %d allocations) "
           "ratio %.2f (target <= 2)\n", ours, ref, M, ours / ref);
    for (int i = 0; i < M; i++)
        npu_mem_free((void *)base[i]);
}

static void *idle_thread(void *arg)
{
    return arg;
}

int main(void)
{
    if (npu_init() != NPU_OK) {
        fprintf(stderr, "no NPU device\n");
        return 1;
    }
    gen_sizes(20, 1);
    bench("mem_pair_small", run_pair, N);
    gen_sizes(26, 2);
    bench("mem_pair_tensor", run_pair, N);
    bench("mem_churn_tensor", run_churn, N);
    gen_sizes(20, 1);
    pthread_t t;
    if (pthread_create(&t, NULL, idle_thread, NULL) == 0)
        pthread_join(t, NULL);                  /* glibc stays in multi-thread mode after */
    bench("mem_pair_small_mt", run_pair, N);
    bench_lookup();
    return 0;
}
