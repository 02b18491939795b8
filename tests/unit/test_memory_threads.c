/*
 * test_memory_threads.c - 8 host threads allocate, fill, look up, verify and free device
 * memory concurrently (small and large sizes, two devices, managed and pinned memory too);
 * every allocation keeps its own fill pattern until freed, lookups from any thread find the
 * right allocation, and the statistics return to zero at the end.
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

npu_status_t npu_stream_submit(npu_stream_t *s, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg)
{
    (void)s;
    npu_status_t st = fn ? fn(arg) : NPU_OK;
    if (cleanup)
        cleanup(arg);
    return st;
}

#ifndef THREADS
#define THREADS 8
#endif
#ifndef SLOTS
#define SLOTS 48
#endif
#ifndef ITERS
#define ITERS 4000
#endif

/* Shared table: other threads look up pointers published here while their owner lives. */
static _Atomic(uintptr_t) g_pub[THREADS][SLOTS];
static _Atomic size_t g_pubsz[THREADS][SLOTS];
static _Atomic int g_errors;

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

static int verify(const unsigned char *p, size_t n, unsigned char v)
{
    /* check the ends and a stride through the middle (full check is too slow for 8 MiB) */
    size_t step = n > 4096 ? 509 : 1;
    for (size_t k = 0; k < n; k += step)
        if (p[k] != v) return 0;
    return p[n - 1] == v;
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    uint64_t seed = 0x9e3779b97f4a7c15ull * (uint64_t)(id + 1);
    unsigned char *ptr[SLOTS] = { 0 };
    size_t sz[SLOTS] = { 0 };
    int dev[SLOTS], managed[SLOTS];
    for (int it = 0; it < ITERS; it++) {
        int s = (int)(rnd(&seed) % SLOTS);
        if (ptr[s]) {
            if (!verify(ptr[s], sz[s], (unsigned char)(s + id * SLOTS))) {
                atomic_fetch_add(&g_errors, 1);
                fprintf(stderr, "thread %d slot %d: data corrupted (%p, %zu bytes)\n", id, s, (void *)ptr[s], sz[s]);
            }
            npu_ptr_info_t in;
            size_t off = (size_t)(rnd(&seed) % sz[s]);
            npu_mem_lookup(ptr[s] + off, &in);
            if (in.base != ptr[s] || in.size != sz[s] || in.device != dev[s] ||
                in.kind != (managed[s] ? NPU_MEM_MANAGED : NPU_MEM_DEVICE)) {
                atomic_fetch_add(&g_errors, 1);
                fprintf(stderr, "thread %d slot %d: lookup mismatch\n", id, s);
            }
            if (npu_mem_check_range(ptr[s], sz[s]) != NPU_OK ||
                npu_mem_check_range(ptr[s], sz[s] + 1) != NPU_EINVAL)
                atomic_fetch_add(&g_errors, 1);
            atomic_store(&g_pub[id][s], 0);
            if (npu_mem_free(ptr[s]) != NPU_OK)
                atomic_fetch_add(&g_errors, 1);
            /* no double-free probe here: another thread may own that address by now */
            ptr[s] = NULL;
        } else {
            uint64_t r = rnd(&seed);
            size_t n = (r % 16 == 0) ? (size_t)(1 << 20) + (size_t)(r >> 8) % (7u << 20)
                                     : 1 + (size_t)(r >> 8) % 20000;
            dev[s] = (int)((r >> 40) & 1);
            managed[s] = (r >> 41) % 8 == 0;
            npu_status_t st = managed[s] ? npu_mem_alloc_managed(dev[s], n, (void **)&ptr[s])
                                         : npu_mem_alloc(dev[s], n, (void **)&ptr[s]);
            if (st != NPU_OK) {
                atomic_fetch_add(&g_errors, 1);
                fprintf(stderr, "thread %d: alloc %zu failed: %s\n", id, n, npu_status_name(st));
                ptr[s] = NULL;
                continue;
            }
            sz[s] = n;
            memset(ptr[s], (unsigned char)(s + id * SLOTS), n);
            atomic_store(&g_pubsz[id][s], n);
            atomic_store(&g_pub[id][s], (uintptr_t)ptr[s]);
        }
        /* look up a neighbour's pointer: it is live or just being freed; if the lookup
         * finds an allocation it must be a consistent one (base <= p < base + size) */
        int o = (int)(rnd(&seed) % THREADS), os = (int)(rnd(&seed) % SLOTS);
        uintptr_t q = atomic_load(&g_pub[o][os]);
        if (q) {
            npu_ptr_info_t in;
            npu_mem_lookup((void *)q, &in);
            if (in.kind != NPU_MEM_UNREGISTERED &&
                ((uintptr_t)in.base > q || q >= (uintptr_t)in.base + in.size))
                atomic_fetch_add(&g_errors, 1);
        }
        if (it % 500 == 0) {
            void *h;
            if (npu_host_alloc(4096, 0, &h) == NPU_OK) {
                npu_ptr_info_t in;
                npu_mem_lookup((char *)h + 100, &in);
                if (in.kind != NPU_MEM_HOST || in.base != h)
                    atomic_fetch_add(&g_errors, 1);
                npu_host_free(h);
            }
        }
        if (it % 1000 == 999 && id == 0)
            npu_mem_empty_cache(it % 2000 == 999 ? 0 : 1);
    }
    for (int s = 0; s < SLOTS; s++) {
        if (ptr[s]) {
            if (!verify(ptr[s], sz[s], (unsigned char)(s + id * SLOTS)))
                atomic_fetch_add(&g_errors, 1);
            atomic_store(&g_pub[id][s], 0);
            npu_mem_free(ptr[s]);
        }
    }
    return NULL;
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_DEVICES", "2", 1);
    setenv("TRANSFER_TO_NPU_MEMORY", "2G", 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    CHECK_EQ(npu_init(), NPU_OK);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ(atomic_load(&g_errors), 0);
    for (int d = 0; d < 2; d++) {
        npu_mem_stats_t st;
        CHECK_EQ(npu_mem_get_stats(d, &st), NPU_OK);
        CHECK_EQ(st.num_allocs, 0);
        CHECK_EQ(st.allocated, 0);
        CHECK(st.peak_allocated > 0);
        CHECK_EQ(npu_mem_empty_cache(d), NPU_OK);
        CHECK_EQ(npu_mem_get_stats(d, &st), NPU_OK);
        CHECK_EQ(st.reserved, 0);
    }
    return CHECK_DONE();
}
