/*
 * test_memory.c - device memory: caching pool (reuse, splitting, coalescing), capacity and
 * OOM recovery, pointer lookup (interior, end, freed), bad frees, absurd sizes, statistics,
 * managed/module memory, release of a device, pinned and registered host memory.
 * Runs with a 64 MiB device (TRANSFER_TO_NPU_MEMORY set before the runtime starts).
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MiB ((size_t)1 << 20)

/* memory.c's npu_pool_free_async submits to a stream; this test uses no pools, so a
 * synchronous stand-in keeps it independent of stream.c. */
npu_status_t npu_stream_submit(npu_stream_t *s, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg)
{
    (void)s;
    npu_status_t st = fn ? fn(arg) : NPU_OK;
    if (cleanup)
        cleanup(arg);
    return st;
}

static void test_basic(void)
{
    void *p = (void *)1;
    CHECK_EQ(npu_mem_alloc(0, 0, &p), NPU_OK);
    CHECK(p == NULL);
    CHECK_EQ(npu_mem_alloc(0, 100, NULL), NPU_EINVAL);
    CHECK_EQ(npu_mem_alloc(7, 100, &p), NPU_EDEVICE);
    CHECK_EQ(npu_mem_alloc(-1, 100, &p), NPU_EDEVICE);
    CHECK_EQ(npu_mem_free(NULL), NPU_OK);

    /* alignment, distinct non-overlapping ranges, data survives */
    enum { N = 64 };
    unsigned char *q[N];
    size_t sz[N];
    for (int i = 0; i < N; i++) {
        sz[i] = (size_t)(i * 977 % 5000) + 1 + (i % 7 == 0 ? 3 * MiB : 0);
        CHECK_EQ(npu_mem_alloc(0, sz[i], (void **)&q[i]), NPU_OK);
        CHECK(q[i] && ((uintptr_t)q[i] & 255) == 0);
        memset(q[i], i, sz[i]);
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            if (i != j)
                CHECK(q[i] + sz[i] <= q[j] || q[j] + sz[j] <= q[i]);
    for (int i = 0; i < N; i++) {
        int ok = 1;
        for (size_t k = 0; k < sz[i]; k++)
            ok &= q[i][k] == (unsigned char)i;
        CHECK_MSG(ok, "allocation %d corrupted", i);
        CHECK_EQ(npu_mem_free(q[i]), NPU_OK);
    }
}

static void test_reuse_split(void)
{
    npu_mem_empty_cache(0);
    npu_mem_stats_t st0, st;
    CHECK_EQ(npu_mem_get_stats(0, &st0), NPU_OK);
    void *a, *b, *c;
    CHECK_EQ(npu_mem_alloc(0, 1000, &a), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.reserved, st0.reserved + 2 * MiB);     /* one small segment */
    CHECK_EQ(st.allocated, st0.allocated + 1024);      /* rounded to 256 */
    /* splitting: the next small allocation comes from the same segment, right after */
    CHECK_EQ(npu_mem_alloc(0, 3000, &b), NPU_OK);
    CHECK((char *)b == (char *)a + 1024);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.reserved, st0.reserved + 2 * MiB);
    /* reuse: a freed block is handed out again, no new reservation */
    CHECK_EQ(npu_mem_free(a), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 900, &c), NPU_OK);
    CHECK(c == a);
    CHECK_EQ(npu_mem_free(c), NPU_OK);
    CHECK_EQ(npu_mem_free(b), NPU_OK);
    /* coalescing: after freeing both, a 1 MiB request fits at the segment start again */
    CHECK_EQ(npu_mem_alloc(0, MiB, &c), NPU_OK);
    CHECK(c == a);
    CHECK_EQ(npu_mem_free(c), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.allocated, st0.allocated);
    CHECK_EQ(st.reserved, st0.reserved + 2 * MiB);     /* cached */

    /* large blocks: rounded to 2 MiB, cached, split and coalesced */
    void *l1, *l2, *l3;
    CHECK_EQ(npu_mem_alloc(0, 5 * MiB + 1, &l1), NPU_OK);   /* 6 MiB */
    CHECK(((uintptr_t)l1 & (2 * MiB - 1)) == 0);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.allocated, st0.allocated + 6 * MiB);
    CHECK_EQ(npu_mem_free(l1), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 2 * MiB, &l2), NPU_OK);      /* split of the cached 6 MiB */
    CHECK(l2 == l1);
    CHECK_EQ(npu_mem_alloc(0, 4 * MiB, &l3), NPU_OK);      /* the rest of it */
    CHECK((char *)l3 == (char *)l1 + 2 * MiB);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.reserved, st0.reserved + 8 * MiB);
    CHECK_EQ(npu_mem_free(l2), NPU_OK);
    CHECK_EQ(npu_mem_free(l3), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 6 * MiB, &l1), NPU_OK);      /* coalesced again */
    CHECK(l1 == l2);
    CHECK_EQ(npu_mem_free(l1), NPU_OK);

    /* empty_cache gives everything back */
    CHECK_EQ(npu_mem_empty_cache(0), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.reserved, 0);
    CHECK_EQ(st.allocated, 0);
    CHECK_EQ(st.num_allocs, 0);
    size_t fr, tot;
    CHECK_EQ(npu_mem_info(0, &fr, &tot), NPU_OK);
    CHECK_EQ(tot, 64 * MiB);
    CHECK_EQ(fr, tot - st.reserved);
}

static void test_oom(void)
{
    npu_mem_empty_cache(0);
    /* fill the 64 MiB device with 4 MiB blocks */
    void *blk[32];
    int n = 0;
    while (n < 32 && npu_mem_alloc(0, 4 * MiB, &blk[n]) == NPU_OK)
        n++;
    CHECK_EQ(n, 16);
    void *x;
    CHECK_EQ(npu_mem_alloc(0, 4 * MiB, &x), NPU_ENOMEM);
    CHECK_EQ(npu_mem_alloc(0, 256, &x), NPU_ENOMEM);       /* no room for a segment */
    size_t fr, tot;
    CHECK_EQ(npu_mem_info(0, &fr, &tot), NPU_OK);
    CHECK_EQ(fr, 0);
    /* free every other block: 32 MiB cached but fragmented into 4 MiB holes */
    for (int i = 0; i < n; i += 2)
        CHECK_EQ(npu_mem_free(blk[i]), NPU_OK);
    /* an 8 MiB request does not fit a hole: the cache is released and it succeeds */
    CHECK_EQ(npu_mem_alloc(0, 8 * MiB, &x), NPU_OK);
    memset(x, 0x5a, 8 * MiB);
    /* small allocations work again too (recovery) */
    void *s;
    CHECK_EQ(npu_mem_alloc(0, 100, &s), NPU_OK);
    CHECK_EQ(npu_mem_free(s), NPU_OK);
    CHECK_EQ(npu_mem_free(x), NPU_OK);
    for (int i = 1; i < n; i += 2)
        CHECK_EQ(npu_mem_free(blk[i]), NPU_OK);
    /* whole capacity in one block, then one byte more */
    CHECK_EQ(npu_mem_alloc(0, 64 * MiB, &x), NPU_OK);
    CHECK_EQ(npu_mem_free(x), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 64 * MiB + 1, &x), NPU_ENOMEM);
    /* absurd sizes */
    CHECK_EQ(npu_mem_alloc(0, SIZE_MAX, &x), NPU_ENOMEM);
    CHECK_EQ(npu_mem_alloc(0, (size_t)1 << 62, &x), NPU_ENOMEM);
    CHECK_EQ(npu_mem_alloc(0, SIZE_MAX - 100, &x), NPU_ENOMEM);
    CHECK_EQ(npu_mem_alloc_managed(0, SIZE_MAX, &x), NPU_ENOMEM);
    CHECK_EQ(npu_mem_alloc(0, 1000, &x), NPU_OK);
    CHECK_EQ(npu_mem_free(x), NPU_OK);
}

static void test_lookup(void)
{
    char *p, *l;
    npu_ptr_info_t in;
    CHECK_EQ(npu_mem_alloc(0, 1000, (void **)&p), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 3 * MiB, (void **)&l), NPU_OK);
    CHECK_EQ(npu_mem_lookup(p + 999, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_DEVICE);
    CHECK_EQ(in.device, 0);
    CHECK(in.base == p && in.size == 1000 && in.dev_ptr == p + 999 && in.host_ptr == p + 999);
    CHECK_EQ(npu_mem_lookup(p + 1000, &in), NPU_OK);           /* one past the end */
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    CHECK_EQ(npu_mem_lookup(l + 3 * MiB - 1, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_DEVICE && in.base == l && in.size == 3 * MiB);
    CHECK_EQ(npu_mem_lookup(l + 3 * MiB, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    CHECK_EQ(npu_mem_lookup(NULL, NULL), NPU_EINVAL);
    CHECK_EQ(npu_mem_lookup(NULL, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    int local;
    CHECK_EQ(npu_mem_lookup(&local, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_UNREGISTERED && in.device == -1);

    CHECK_EQ(npu_mem_check_range(p, 1000), NPU_OK);
    CHECK_EQ(npu_mem_check_range(p + 500, 500), NPU_OK);
    CHECK_EQ(npu_mem_check_range(p + 500, 501), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(p + 1000, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(p, SIZE_MAX), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(l + MiB, 2 * MiB), NPU_OK);
    CHECK_EQ(npu_mem_check_range(l + MiB, 2 * MiB + 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(&local, sizeof local), NPU_OK);  /* plain host memory */

    /* bad frees change nothing */
    CHECK_EQ(npu_mem_free(p + 256), NPU_EINVAL);                  /* interior */
    CHECK_EQ(npu_mem_free(p + 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(l + 2 * MiB), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(&local), NPU_EINVAL);                   /* host pointer */
    void *h = malloc(64);
    CHECK_EQ(npu_mem_free(h), NPU_EINVAL);
    free(h);
    CHECK_EQ(npu_mem_lookup(p, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_DEVICE);

    /* freed pointers are rejected everywhere */
    CHECK_EQ(npu_mem_free(p), NPU_OK);
    CHECK_EQ(npu_mem_free(p), NPU_EINVAL);                        /* double free */
    CHECK_EQ(npu_mem_lookup(p, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    CHECK_EQ(npu_mem_check_range(p, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(p + 10, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(l), NPU_OK);
    CHECK_EQ(npu_mem_free(l), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(l + 5, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_lookup(l + 5, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    npu_mem_empty_cache(0);                                       /* released range too */
    CHECK_EQ(npu_mem_check_range(l, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(l), NPU_EINVAL);

    /* many neighbours in one segment: every interior pointer finds its own block */
    enum { K = 300 };
    char *q[K];
    size_t qs[K];
    int ok = 1;
    for (int i = 0; i < K; i++) {
        qs[i] = 1 + (size_t)(i * 7919 % 3000);
        CHECK_EQ(npu_mem_alloc(0, qs[i], (void **)&q[i]), NPU_OK);
    }
    for (int i = 0; i < K; i += 2)
        npu_mem_free(q[i]);
    for (int i = 0; i < K; i++) {
        size_t off = (size_t)(i * 31) % qs[i];
        npu_mem_lookup(q[i] + off, &in);
        if (i % 2) ok &= in.kind == NPU_MEM_DEVICE && in.base == q[i] && in.size == qs[i];
        else ok &= in.kind == NPU_MEM_UNREGISTERED ||
                   (in.base != q[i] || in.size != qs[i]);
    }
    CHECK_MSG(ok, "interior lookups in a crowded segment");
    for (int i = 1; i < K; i += 2)
        CHECK_EQ(npu_mem_free(q[i]), NPU_OK);
}

static void test_stats(void)
{
    npu_mem_empty_cache(0);
    npu_mem_stats_t st;
    CHECK_EQ(npu_mem_get_stats(0, NULL), NPU_EINVAL);
    CHECK_EQ(npu_mem_get_stats(3, &st), NPU_EDEVICE);
    CHECK_EQ(npu_mem_reset_peak(0), NPU_OK);
    void *a, *b;
    CHECK_EQ(npu_mem_alloc(0, 10 * MiB, &a), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 512, &b), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.allocated, 10 * MiB + 512);
    CHECK_EQ(st.reserved, 12 * MiB);
    CHECK_EQ(st.num_allocs, 2);
    CHECK_EQ(st.capacity, 64 * MiB);
    CHECK_EQ(npu_mem_free(a), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.allocated, 512);
    CHECK_EQ(st.peak_allocated, 10 * MiB + 512);
    CHECK_EQ(st.peak_reserved, 12 * MiB);
    CHECK_EQ(st.num_allocs, 1);
    CHECK_EQ(npu_mem_reset_peak(0), NPU_OK);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.peak_allocated, 512);
    CHECK_EQ(st.peak_reserved, 12 * MiB);
    npu_mem_empty_cache(0);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.reserved, 2 * MiB);
    CHECK_EQ(npu_mem_free(b), NPU_OK);
}

static void test_managed_module_release(void)
{
    void *m, *mod, *d, *big;
    npu_ptr_info_t in;
    CHECK_EQ(npu_mem_alloc_managed(0, 4096, &m), NPU_OK);
    CHECK_EQ(npu_mem_lookup((char *)m + 4095, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_MANAGED && in.base == m && in.device == 0);
    CHECK_EQ(npu_mem_alloc_module(0, 128, &mod), NPU_OK);
    memset(mod, 7, 128);
    CHECK_EQ(npu_mem_alloc(0, 5000, &d), NPU_OK);
    CHECK_EQ(npu_mem_alloc(0, 3 * MiB, &big), NPU_OK);
    npu_mem_stats_t st;
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.num_allocs, 4);
    npu_mem_release_device(0);
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.num_allocs, 1);
    CHECK_EQ(st.allocated, 256);
    CHECK_EQ(npu_mem_check_range(mod, 128), NPU_OK);
    CHECK(((unsigned char *)mod)[127] == 7);
    CHECK_EQ(npu_mem_free(m), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(d), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(big), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(mod), NPU_OK);
    npu_mem_release_device(0);
    npu_mem_release_device(99);                                   /* bad ordinal: no-op */
    CHECK_EQ(npu_mem_get_stats(0, &st), NPU_OK);
    CHECK_EQ(st.num_allocs, 0);
    CHECK_EQ(st.reserved, 0);
}

static void test_host(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    void *h;
    npu_ptr_info_t in;
    CHECK_EQ(npu_host_alloc(10000, 3, &h), NPU_OK);
    CHECK(h && ((uintptr_t)h % (uintptr_t)pg) == 0);
    memset(h, 1, 10000);
    CHECK_EQ(npu_mem_lookup((char *)h + 9999, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_HOST && in.base == h && in.size == 10000 && in.flags == 3);
    CHECK_EQ(in.device, -1);
    CHECK_EQ(npu_mem_lookup((char *)h + 10000, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    CHECK_EQ(npu_mem_check_range((char *)h + 5000, 5000), NPU_OK);
    CHECK_EQ(npu_mem_check_range((char *)h + 5000, 5001), NPU_EINVAL);
    CHECK_EQ(npu_host_free((char *)h + 8), NPU_EINVAL);
    CHECK_EQ(npu_host_register(h, 100, 0), NPU_EREGISTERED);     /* already pinned */
    CHECK_EQ(npu_host_unregister(h), NPU_ENOTREGISTERED);
    CHECK_EQ(npu_mem_free(h), NPU_EINVAL);
    CHECK_EQ(npu_host_free(h), NPU_OK);
    CHECK_EQ(npu_host_free(h), NPU_EINVAL);
    CHECK_EQ(npu_host_free(NULL), NPU_OK);
    CHECK_EQ(npu_host_alloc(100, 0, NULL), NPU_EINVAL);
    CHECK_EQ(npu_host_alloc(SIZE_MAX, 0, &h), NPU_EHOSTMEM);

    char *buf = malloc(1 << 16);
    CHECK_EQ(npu_host_register(buf + 1024, 4096, 5), NPU_OK);
    CHECK_EQ(npu_host_register(buf + 4096, 100, 0), NPU_EREGISTERED);   /* overlaps */
    CHECK_EQ(npu_host_register(buf, 1025, 0), NPU_EREGISTERED);         /* overlaps start */
    CHECK_EQ(npu_host_register(buf, 1024, 0), NPU_OK);                  /* adjacent is fine */
    CHECK_EQ(npu_host_register(buf + 5120, 10, 0), NPU_OK);
    CHECK_EQ(npu_host_register(NULL, 10, 0), NPU_EINVAL);
    CHECK_EQ(npu_host_register(buf, 0, 0), NPU_EINVAL);
    CHECK_EQ(npu_mem_lookup(buf + 2000, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_HOST && in.base == buf + 1024 && in.size == 4096 && in.flags == 5);
    CHECK_EQ(npu_mem_check_range(buf + 1024, 4097), NPU_EINVAL);
    CHECK_EQ(npu_host_unregister(buf + 1025), NPU_ENOTREGISTERED);
    CHECK_EQ(npu_host_free(buf + 1024), NPU_EINVAL);                    /* registered, not allocated */
    CHECK_EQ(npu_host_unregister(buf + 1024), NPU_OK);
    CHECK_EQ(npu_host_unregister(buf + 1024), NPU_ENOTREGISTERED);
    CHECK_EQ(npu_mem_lookup(buf + 2000, &in), NPU_OK);
    CHECK_EQ(in.kind, NPU_MEM_UNREGISTERED);
    CHECK_EQ(npu_host_unregister(buf), NPU_OK);
    CHECK_EQ(npu_host_unregister(buf + 5120), NPU_OK);
    free(buf);
    /* device memory cannot be registered */
    void *d;
    CHECK_EQ(npu_mem_alloc(0, 4096, &d), NPU_OK);
    CHECK_EQ(npu_host_register(d, 4096, 0), NPU_EINVAL);
    CHECK_EQ(npu_mem_free(d), NPU_OK);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_MEMORY", "64M", 1);
    setenv("TRANSFER_TO_NPU_DEVICES", "1", 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    CHECK_EQ(npu_init(), NPU_OK);
    test_basic();
    test_reuse_split();
    test_oom();
    test_lookup();
    test_stats();
    test_managed_module_release();
    test_host();
    return CHECK_DONE();
}
