/*
 * memory_host.c - pinned host memory (npu_host_alloc/free) and registered host ranges
 * (npu_host_register/unregister), kept in one registry so npu_mem_lookup and
 * npu_mem_check_range can tell pinned memory from plain host memory.
 *
 * DESIGN (threads): the registry is a sorted array of disjoint ranges guarded by one rwlock;
 * writers (alloc/free/register/unregister) are rare, readers (a lookup per memcpy) take the
 * read side only when the registry is non-empty (g_count, read without the lock, lets the
 * common "no pinned memory at all" case skip the lock). Lookups are a binary search, O(log n).
 * No other lock is taken while this one is held.
 *
 * Pinned memory here is page-aligned host memory (posix_memalign); the emulated device reaches
 * all host memory directly, so "pinning" is bookkeeping: the flags are recorded and reported.
 */
#include "memory_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_rwlock_t g_lock = PTHREAD_RWLOCK_INITIALIZER;
static npu_hostreg_entry_t *g_ent;
static size_t g_n, g_cap;
static _Atomic size_t g_count;

/* Index of the last entry with base <= p, or -1. Caller holds the lock. */
static long find_le_locked(uintptr_t p)
{
    long lo = 0, hi = (long)g_n - 1, r = -1;
    while (lo <= hi) {
        long mid = (lo + hi) / 2;
        if (g_ent[mid].base <= p) { r = mid; lo = mid + 1; }
        else hi = mid - 1;
    }
    return r;
}

/* 1 if [b, b+n) overlaps an entry. Caller holds the lock. */
static int overlaps_locked(uintptr_t b, size_t n, long *first)
{
    long i = find_le_locked(b);
    if (i >= 0 && b - g_ent[i].base < g_ent[i].size) { *first = i; return 1; }
    if ((size_t)(i + 1) < g_n && g_ent[i + 1].base - b < n) { *first = i + 1; return 1; }
    return 0;
}

static int insert_locked(const npu_hostreg_entry_t *e)
{
    if (g_n == g_cap) {
        size_t nc = g_cap ? g_cap * 2 : 16;
        npu_hostreg_entry_t *ne = realloc(g_ent, nc * sizeof *ne);
        if (!ne)
            return -1;
        g_ent = ne;
        g_cap = nc;
    }
    long i = find_le_locked(e->base) + 1;
    memmove(&g_ent[i + 1], &g_ent[i], (g_n - (size_t)i) * sizeof *g_ent);
    g_ent[i] = *e;
    g_n++;
    atomic_store(&g_count, g_n);
    return 0;
}

static void remove_locked(long i)
{
    memmove(&g_ent[i], &g_ent[i + 1], (g_n - (size_t)i - 1) * sizeof *g_ent);
    g_n--;
    atomic_store(&g_count, g_n);
}

int npu_hostreg_find(const void *p, npu_hostreg_entry_t *out)
{
    if (atomic_load_explicit(&g_count, memory_order_acquire) == 0)
        return 0;
    int found = 0;
    pthread_rwlock_rdlock(&g_lock);
    long i = find_le_locked((uintptr_t)p);
    if (i >= 0 && (uintptr_t)p - g_ent[i].base < g_ent[i].size) {
        *out = g_ent[i];
        found = 1;
    }
    pthread_rwlock_unlock(&g_lock);
    return found;
}

npu_status_t npu_host_alloc(size_t size, unsigned flags, void **out)
{
    if (!out)
        return NPU_EINVAL;
    *out = NULL;
    if (size == 0)
        return NPU_OK;
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (size > (SIZE_MAX >> 2))
        return NPU_EHOSTMEM;
    void *p = NULL;
    if (posix_memalign(&p, page, size) != 0 || !p)
        return NPU_EHOSTMEM;
    npu_hostreg_entry_t e = { (uintptr_t)p, size, flags, 1 };
    pthread_rwlock_wrlock(&g_lock);
    /* Fresh memory cannot be pinned already; an overlap is a registration the program left
     * behind before freeing that memory: it is stale, drop it. */
    long i;
    while (overlaps_locked(e.base, size, &i))
        remove_locked(i);
    int rc = insert_locked(&e);
    pthread_rwlock_unlock(&g_lock);
    if (rc) {
        free(p);
        return NPU_EHOSTMEM;
    }
    *out = p;
    return NPU_OK;
}

npu_status_t npu_host_free(void *p)
{
    if (!p)
        return NPU_OK;
    npu_status_t st = NPU_EINVAL;
    pthread_rwlock_wrlock(&g_lock);
    long i = find_le_locked((uintptr_t)p);
    if (i >= 0 && g_ent[i].base == (uintptr_t)p && g_ent[i].is_alloc) {
        remove_locked(i);
        st = NPU_OK;
    }
    pthread_rwlock_unlock(&g_lock);
    if (st == NPU_OK)
        free(p);
    return st;
}

npu_status_t npu_host_register(void *p, size_t size, unsigned flags)
{
    if (!p || size == 0 || (uintptr_t)p + size < (uintptr_t)p)
        return NPU_EINVAL;
    npu_ptr_info_t info;
    npu_mem_lookup(p, &info);
    if (info.kind == NPU_MEM_DEVICE || info.kind == NPU_MEM_MANAGED)
        return NPU_EINVAL;
    npu_hostreg_entry_t e = { (uintptr_t)p, size, flags, 0 };
    npu_status_t st = NPU_OK;
    long i;
    pthread_rwlock_wrlock(&g_lock);
    if (overlaps_locked(e.base, size, &i))
        st = NPU_EREGISTERED;
    else if (insert_locked(&e))
        st = NPU_EHOSTMEM;
    pthread_rwlock_unlock(&g_lock);
    return st;
}

npu_status_t npu_host_unregister(void *p)
{
    if (!p)
        return NPU_ENOTREGISTERED;
    npu_status_t st = NPU_ENOTREGISTERED;
    pthread_rwlock_wrlock(&g_lock);
    long i = find_le_locked((uintptr_t)p);
    if (i >= 0 && g_ent[i].base == (uintptr_t)p && !g_ent[i].is_alloc) {
        remove_locked(i);
        st = NPU_OK;
    }
    pthread_rwlock_unlock(&g_lock);
    return st;
}
