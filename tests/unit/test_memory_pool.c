/*
 * test_memory_pool.c - stream-ordered pools (cudaMallocAsync / cudaMemPool*): default and
 * created pools, allocation accounting, free in stream order (a fake stream queues work until
 * "synchronised", so the test sees the free happen at that point and not before), release
 * threshold and trim, attributes (get, set, reset of the high-water marks), destroy with
 * outstanding allocations, bad arguments.
 */
#include "npu_runtime/npu.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MiB ((size_t)1 << 20)

/* A fake stream: submitted work waits in a queue until fake_sync() runs it in order.
 * Poisoned streams skip fn but still run cleanup, as npu.h documents. */
struct npu_stream { int poisoned; };
static struct { npu_work_fn fn; npu_cleanup_fn cleanup; void *arg; npu_stream_t *s; } q[64];
static int nq, fail_submit;

npu_status_t npu_stream_submit(npu_stream_t *s, npu_work_fn fn, npu_cleanup_fn cleanup, void *arg)
{
    if (fail_submit || nq == 64)
        return NPU_EHANDLE;
    q[nq].fn = fn; q[nq].cleanup = cleanup; q[nq].arg = arg; q[nq].s = s;
    nq++;
    return NPU_OK;
}

static void fake_sync(void)
{
    for (int i = 0; i < nq; i++) {
        if (!q[i].s->poisoned && q[i].fn)
            q[i].fn(q[i].arg);
        if (q[i].cleanup)
            q[i].cleanup(q[i].arg);
    }
    nq = 0;
}

static uint64_t attr(npu_pool_t *p, int a)
{
    uint64_t v = ~0ull;
    CHECK_EQ(npu_pool_get_attr(p, a, &v), NPU_OK);
    return v;
}

static void test_default_pool(void)
{
    npu_stream_t st = { 0 };
    npu_pool_t *dp = npu_pool_default(0);
    CHECK(dp != NULL);
    CHECK(npu_pool_default(0) == dp);
    CHECK(npu_pool_default(1) != NULL && npu_pool_default(1) != dp);
    CHECK(npu_pool_default(5) == NULL);
    CHECK(npu_pool_default(-1) == NULL);
    CHECK(npu_pool_valid(dp));
    CHECK_EQ(npu_pool_device(dp), 0);
    CHECK_EQ(npu_pool_device(npu_pool_default(1)), 1);
    CHECK_EQ(npu_pool_destroy(dp), NPU_EINVAL);
    CHECK(npu_pool_valid(dp));

    CHECK_EQ(attr(dp, NPU_POOL_RELEASE_THRESHOLD), 0);
    CHECK_EQ(attr(dp, NPU_POOL_USED_CURRENT), 0);
    CHECK_EQ(attr(dp, NPU_POOL_REUSE_FOLLOW_EVENT), 1);

    void *a, *b;
    CHECK_EQ(npu_pool_alloc_async(dp, 1000, &st, &a), NPU_OK);
    CHECK_EQ(npu_pool_alloc_async(dp, 3 * MiB, &st, &b), NPU_OK);
    CHECK(((uintptr_t)a & 255) == 0);
    memset(a, 1, 1000);
    memset(b, 2, 3 * MiB);
    CHECK_EQ(attr(dp, NPU_POOL_USED_CURRENT), 1024 + 4 * MiB);
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 2 * MiB + 4 * MiB);
    npu_ptr_info_t in;
    CHECK_EQ(npu_mem_lookup((char *)b + 5, &in), NPU_OK);
    CHECK(in.kind == NPU_MEM_DEVICE && in.base == b && in.device == 0);
    /* pool memory counts in the device's statistics too */
    npu_mem_stats_t ms;
    CHECK_EQ(npu_mem_get_stats(0, &ms), NPU_OK);
    CHECK_EQ(ms.num_allocs, 2);
    CHECK_EQ(ms.allocated, 1024 + 4 * MiB);

    /* free in stream order: nothing happens until the stream reaches it */
    CHECK_EQ(npu_pool_free_async(b, &st), NPU_OK);
    CHECK_EQ(npu_pool_free_async(b, &st), NPU_EINVAL);     /* already being freed */
    CHECK_EQ(npu_mem_free(b), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(b, 3 * MiB), NPU_OK);     /* still usable by earlier work */
    CHECK_EQ(attr(dp, NPU_POOL_USED_CURRENT), 1024 + 4 * MiB);
    fake_sync();
    CHECK_EQ(attr(dp, NPU_POOL_USED_CURRENT), 1024);
    CHECK_EQ(npu_mem_check_range(b, 1), NPU_EINVAL);
    /* threshold 0: the freed large block went back to the OS */
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 2 * MiB);
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_HIGH), 6 * MiB);
    CHECK_EQ(attr(dp, NPU_POOL_USED_HIGH), 1024 + 4 * MiB);

    /* a higher threshold keeps memory for reuse */
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_RELEASE_THRESHOLD, 64 * MiB), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_RELEASE_THRESHOLD), 64 * MiB);
    CHECK_EQ(npu_pool_alloc_async(dp, 3 * MiB, &st, &b), NPU_OK);
    void *b_first = b;
    CHECK_EQ(npu_pool_free_async(b, &st), NPU_OK);
    fake_sync();
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 6 * MiB);
    CHECK_EQ(npu_pool_alloc_async(dp, 4 * MiB, &st, &b), NPU_OK);
    CHECK(b == b_first);                                   /* reused */
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 6 * MiB);
    CHECK_EQ(npu_pool_free_async(b, &st), NPU_OK);
    fake_sync();
    /* trim keeps at least the requested amount, releases the rest */
    CHECK_EQ(npu_pool_trim(dp, 0), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 2 * MiB); /* the live 1000-byte block's segment */

    /* high-water marks reset to the current value, only with 0 */
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_USED_HIGH, 5), NPU_EINVAL);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_USED_HIGH, 0), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_USED_HIGH), 1024);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_RESERVED_HIGH, 0), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_HIGH), 2 * MiB);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_USED_CURRENT, 0), NPU_EINVAL);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_RESERVED_CURRENT, 0), NPU_EINVAL);
    CHECK_EQ(npu_pool_set_attr(dp, 99, 0), NPU_EINVAL);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_REUSE_ALLOW_INTERNAL, 0), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_REUSE_ALLOW_INTERNAL), 0);
    uint64_t v;
    CHECK_EQ(npu_pool_get_attr(dp, 0, &v), NPU_EINVAL);
    CHECK_EQ(npu_pool_get_attr(dp, NPU_POOL_USED_HIGH, NULL), NPU_EINVAL);

    /* a pool allocation may also be freed with npu_mem_free (cudaFree) */
    CHECK_EQ(npu_mem_free(a), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_USED_CURRENT), 0);
    CHECK_EQ(npu_pool_set_attr(dp, NPU_POOL_RELEASE_THRESHOLD, 0), NPU_OK);
    CHECK_EQ(attr(dp, NPU_POOL_RESERVED_CURRENT), 0);
}

static void test_created_pools(void)
{
    npu_stream_t st = { 0 }, poisoned = { 1 };
    npu_pool_t *p = NULL, *p2 = NULL;
    CHECK_EQ(npu_pool_create(0, NULL), NPU_EINVAL);
    CHECK_EQ(npu_pool_create(9, &p), NPU_EDEVICE);
    CHECK(p == NULL);
    CHECK_EQ(npu_pool_create(1, &p), NPU_OK);
    CHECK_EQ(npu_pool_create(1, &p2), NPU_OK);
    CHECK(p && p2 && p != p2 && p != npu_pool_default(1));
    CHECK_EQ(npu_pool_device(p), 1);
    void *x, *y, *z;
    CHECK_EQ(npu_pool_alloc_async(p, 5000, &st, &x), NPU_OK);
    CHECK_EQ(npu_pool_alloc_async(p2, 7000, &st, &y), NPU_OK);
    CHECK_EQ(attr(p, NPU_POOL_USED_CURRENT), 5120);
    CHECK_EQ(attr(p2, NPU_POOL_USED_CURRENT), 7168);
    CHECK_EQ(attr(npu_pool_default(1), NPU_POOL_USED_CURRENT), 0);
    /* pools do not share cached memory: separate segments */
    CHECK((uintptr_t)x >> 21 != (uintptr_t)y >> 21);
    /* free_async of another pool's pointer is fine (frees into its own pool) */
    CHECK_EQ(npu_pool_free_async(y, &st), NPU_OK);
    fake_sync();
    CHECK_EQ(attr(p2, NPU_POOL_USED_CURRENT), 0);
    /* a poisoned stream skips work but the free still happens (cleanup) */
    CHECK_EQ(npu_pool_alloc_async(p2, 100, &st, &y), NPU_OK);
    CHECK_EQ(npu_pool_free_async(y, &poisoned), NPU_OK);
    fake_sync();
    CHECK_EQ(attr(p2, NPU_POOL_USED_CURRENT), 0);
    CHECK_EQ(attr(p2, NPU_POOL_RESERVED_CURRENT), 0);     /* threshold 0: empty segment released */
    CHECK_EQ(attr(p2, NPU_POOL_RESERVED_HIGH), 2 * MiB);
    /* a failed submission leaves the allocation live and freeable */
    CHECK_EQ(npu_pool_alloc_async(p2, 100, &st, &y), NPU_OK);
    fail_submit = 1;
    CHECK_EQ(npu_pool_free_async(y, &st), NPU_EHANDLE);
    fail_submit = 0;
    CHECK_EQ(npu_pool_free_async(y, &st), NPU_OK);
    fake_sync();
    /* NULL stream: immediate */
    CHECK_EQ(npu_pool_alloc_async(p2, 100, &st, &y), NPU_OK);
    CHECK_EQ(npu_pool_free_async(y, NULL), NPU_OK);
    CHECK_EQ(npu_mem_check_range(y, 1), NPU_EINVAL);

    /* bad arguments */
    int junk[16] = { 0 };
    CHECK(!npu_pool_valid((npu_pool_t *)junk));
    CHECK(!npu_pool_valid(NULL));
    CHECK_EQ(npu_pool_device((npu_pool_t *)junk), -1);
    CHECK_EQ(npu_pool_alloc_async((npu_pool_t *)junk, 10, &st, &z), NPU_EINVAL);
    CHECK_EQ(npu_pool_alloc_async(p, 10, &st, NULL), NPU_EINVAL);
    CHECK_EQ(npu_pool_alloc_async(p, SIZE_MAX, &st, &z), NPU_ENOMEM);
    CHECK_EQ(npu_pool_free_async(junk, &st), NPU_EINVAL);
    CHECK_EQ(npu_pool_free_async((char *)x + 256, &st), NPU_EINVAL);
    CHECK_EQ(npu_pool_free_async(NULL, &st), NPU_OK);
    CHECK_EQ(npu_pool_trim((npu_pool_t *)junk, 0), NPU_EINVAL);
    CHECK_EQ(npu_pool_destroy((npu_pool_t *)junk), NPU_EINVAL);
    CHECK_EQ(npu_pool_destroy(NULL), NPU_EINVAL);

    /* destroy with an outstanding allocation: the handle dies now, the memory when freed */
    CHECK_EQ(npu_pool_destroy(p2), NPU_OK);
    CHECK(!npu_pool_valid(p2));
    CHECK_EQ(npu_pool_destroy(p2), NPU_EINVAL);
    CHECK_EQ(npu_pool_destroy(p), NPU_OK);
    CHECK(!npu_pool_valid(p));
    memset(x, 3, 5000);                                    /* still valid memory */
    CHECK_EQ(npu_mem_check_range(x, 5000), NPU_OK);
    npu_mem_stats_t ms;
    CHECK_EQ(npu_mem_get_stats(1, &ms), NPU_OK);
    CHECK_EQ(ms.num_allocs, 1);
    CHECK_EQ(npu_pool_free_async(x, &st), NPU_OK);
    fake_sync();
    CHECK_EQ(npu_mem_get_stats(1, &ms), NPU_OK);
    CHECK_EQ(ms.num_allocs, 0);
    CHECK_EQ(ms.reserved, 0);

    /* device release frees pool allocations too; pools stay usable */
    npu_pool_t *p3;
    CHECK_EQ(npu_pool_create(1, &p3), NPU_OK);
    CHECK_EQ(npu_pool_alloc_async(p3, 3 * MiB, &st, &z), NPU_OK);
    CHECK_EQ(npu_pool_alloc_async(npu_pool_default(1), 300, &st, &y), NPU_OK);
    npu_mem_release_device(1);
    CHECK_EQ(npu_mem_check_range(z, 1), NPU_EINVAL);
    CHECK_EQ(npu_mem_check_range(y, 1), NPU_EINVAL);
    CHECK_EQ(attr(p3, NPU_POOL_USED_CURRENT), 0);
    CHECK_EQ(attr(p3, NPU_POOL_RESERVED_CURRENT), 0);
    CHECK_EQ(npu_pool_alloc_async(p3, 100, &st, &z), NPU_OK);
    CHECK_EQ(npu_mem_free(z), NPU_OK);
    CHECK_EQ(npu_pool_destroy(p3), NPU_OK);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_DEVICES", "2", 1);
    setenv("TRANSFER_TO_NPU_MEMORY", "256M", 1);
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("ASCEND_RT_VISIBLE_DEVICES");
    CHECK_EQ(npu_init(), NPU_OK);
    test_default_pool();
    test_created_pools();
    return CHECK_DONE();
}
