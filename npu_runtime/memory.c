/*
 * memory.c - device memory of the emulated NPU: one reserved address range per device, a
 * caching pool allocator on top of it, pointer lookup, statistics and stream-ordered pools.
 *
 * Address space. Each device reserves, on its first allocation, one range of virtual address
 * space of 4x its capacity (mmap PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|
 * MAP_NORESERVE, 2 MiB aligned; halved until the kernel accepts it), so "which device owns
 * this pointer" is a range compare. Nothing in it is touched until the program writes, so
 * an idle runtime stays small. The 4x slack lets address space fragment without capacity
 * being lost. `reserved` (bytes held by the pool, live or cached) never exceeds capacity;
 * past it an allocation first releases every cached block of the device and retries once,
 * then fails with NPU_ENOMEM, as a real device does.
 *
 * The range is cut in 2 MiB granules. A granule table (one pointer per granule, itself a
 * NORESERVE mapping) maps each granule to what occupies it:
 *   - a small segment (tagged pointer): a 2 MiB granule carved into blocks of 256-byte units
 *     for requests <= 1 MiB; a bitmap of block starts per segment finds the block holding an
 *     interior pointer (scan back to the previous set bit), a hash of live block bases
 *     (open addressing) finds its metadata;
 *   - a large block: requests > 1 MiB are rounded to whole granules, so every granule of the
 *     block points at it and an interior lookup is one table read.
 * Lookup is O(1) either way. Metadata lives outside device memory (a kernel that writes out
 * of bounds cannot corrupt the allocator).
 *
 * Caching. Freed blocks stay reserved in the heap that allocated them and are reused: free
 * blocks sit in TLSF-style segregated bins (16 sub-bins per power of two, a bitmap of
 * non-empty bins), so finding a fit, splitting and coalescing with address neighbours are
 * O(1). Fully free small segments and free large blocks go back to the OS
 * (madvise(MADV_DONTNEED) and their granules back to the address-space free list) on
 * npu_mem_empty_cache, on pool trims, and when an allocation needs room.
 *
 * Heaps. npu_mem_alloc/managed/module share the device's main heap; each stream-ordered pool
 * (npu_pool_*) has a heap of its own on the same address range, so pool statistics and
 * release thresholds are exact. A free into a pool above its release threshold gives back
 * what that free made releasable (CUDA releases at the next synchronisation; there is no sync
 * hook here, so we release at the free: same steady state, earlier).
 *
 * Memcheck (TRANSFER_TO_NPU_MEMCHECK=1): freed main-heap blocks wait in a per-device FIFO
 * quarantine (4096 blocks / 256 MiB, under the device lock) before they are really freed, so
 * a kernel touching one is named as a use after free; npu_mem_memcheck_classify finds the
 * allocation containing an address or the nearest live one of its segment.
 *
 * DESIGN (threads): one mutex per device (devmem_t.lock) protects everything of that device:
 * heaps, bins, segments, granule table, live hash, address-space free list, statistics and
 * its pools' heaps. It is never held while calling out of this file, except into libc
 * (madvise, malloc) and the logger.
 * g_pool_lock protects the list of live pools and is taken before a device lock, never after.
 * The device table (g_mem) and each device's range are published once with release stores
 * and read without a lock, so the "is this a device pointer" test of npu_mem_lookup costs two
 * compares for plain host memory; device pointers then take the device lock for the lookup.
 * npu_pool_free_async marks the block pending at once (a second free fails) and submits the
 * free as the cleanup of a stream work item, so it happens in stream order, even when the
 * stream's device is poisoned and the work itself is skipped.
 *
 * Measurements (2 vCPU Zen 4 guest; thread CPU time, bench/bench_memory.c):
 *   alloc+free pair, 256 B..1 MiB log-uniform: 32-36 ns vs glibc malloc+free 17-19 ns
 *     (1.9-2.0x; glibc skips its locks while the process has one thread) and 43 vs 36-40 ns
 *     (1.1-1.2x) once a second thread exists, as it always does under the runtime;
 *     sizes up to 64 MiB: 40 ns vs 520-550 ns (glibc mmaps the big ones); 64-live churn:
 *     60 ns vs 700 ns; npu_mem_lookup of interior pointers among 4096 allocations: 29 ns vs
 *     14 ns for an unlocked binary search. perf on the small pair: ~40% in the bins
 *     (take/insert/remove), ~13% in the two uncontended mutex round trips, the rest spread
 *     over split/coalesce/hash; no single hot spot, so one lock per device stays: per-thread
 *     caches would win little here and would complicate "reject freed pointers" lookups.
 *   MADV_HUGEPAGE on the range: first touch of 256 MiB took 2.3-3.8 us per 4 KiB without,
 *     0.5-0.8 us with (one run paid a 965 ms compaction stall once); a second pass 17 vs
 *     13 ms. The cost: touching any byte of a small segment backs its whole 2 MiB.
 *   Resident memory: +0.1 MiB after npu_init, +40 KiB after the first allocation (hash and
 *     metadata; the address range and granule table stay untouched until written).
 */
#include "npu.h"
#include "memory_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_DEV      64
#define GRAN_SHIFT   21
#define GRAN         ((size_t)1 << GRAN_SHIFT)
#define UNIT_SHIFT   8
#define UNIT         ((size_t)1 << UNIT_SHIFT)
#define SEG_UNITS    (GRAN >> UNIT_SHIFT)
#define SMALL_MAX    ((size_t)1 << 20)
#define NBINS        512
#define NBINW        (NBINS / 64)
#define POOL_MAGIC   0x4e50504cu

enum { B_FREE = 0, B_LIVE = 1 };
enum { BF_MODULE = 1, BF_PENDING = 2, BF_QUAR = 4 };   /* BF_QUAR: freed, in the memcheck quarantine */

typedef struct heap heap_t;
typedef struct seg seg_t;
typedef struct devmem devmem_t;

typedef struct blk {
    uintptr_t addr;
    size_t size;                 /* bytes held (rounded) */
    size_t req;                  /* bytes requested (live blocks) */
    struct blk *prev, *next;     /* small: address neighbours in the segment; large: heap list */
    struct blk *fprev, *fnext;   /* free bin list */
    seg_t *seg;                  /* small only */
    heap_t *heap;
    uint8_t state, large, mkind, flags;
    uint16_t bin;
} blk_t;

struct seg {
    uintptr_t addr;
    heap_t *heap;
    seg_t *prev, *next;          /* heap's segment list */
    size_t used;                 /* bytes of live blocks */
    blk_t *first;                /* block at unit 0 (its struct lives as long as the segment) */
    uint64_t starts[SEG_UNITS / 64];
};

typedef struct bins {
    blk_t *head[NBINS];
    uint64_t map[NBINW];
} bins_t;

struct heap {
    devmem_t *dm;
    npu_pool_t *pool;            /* NULL for the main heap */
    heap_t *hnext;               /* device's heap list */
    bins_t small, large;
    seg_t *segs;
    blk_t *larges;               /* every large block of this heap, live or cached */
    size_t allocated, reserved, peak_allocated, peak_reserved, nlive;
};

typedef struct varange { size_t g, n; } varange_t;
typedef struct hent { uintptr_t key; blk_t *val; } hent_t;   /* key and value share a line */

struct devmem {
    pthread_mutex_t lock;
    int dev;
    uintptr_t base;              /* valid once `ready` is 1 */
    size_t span;
    _Atomic int ready;           /* 1: range reserved; -1: reservation failed */
    size_t capacity;
    void **gran;                 /* granule table */
    size_t ngran;
    varange_t *va;               /* free granule ranges, sorted by address */
    size_t nva, cva;
    hent_t *ht;                  /* live small blocks: base -> blk (open addressing) */
    size_t hcap, hn;
    blk_t *spare;                /* recycled block structs */
    heap_t main;
    size_t allocated, reserved, peak_allocated, peak_reserved, nlive;
    blk_t **quar;                /* memcheck: freed main-heap blocks kept unusable, FIFO ring */
    size_t qhead, qn, qbytes;
};

struct npu_pool {
    uint32_t magic;
    int dev;
    int is_default;
    int dead;                    /* destroyed with allocations outstanding */
    uint64_t threshold;
    uint64_t reuse[3];
    heap_t heap;
    npu_pool_t *next;            /* g_pools list */
};

static devmem_t *_Atomic g_mem[MAX_DEV];
static pthread_mutex_t g_mem_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uintptr_t g_lo = UINTPTR_MAX, g_hi;   /* union of reserved ranges */
static _Atomic int g_nmem;                           /* 1 + highest device with state */
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static npu_pool_t *g_pools;
static npu_pool_t *_Atomic g_default_pool[MAX_DEV];

/* ------------------------------------------------------------- bins (TLSF) ---- */
static inline unsigned ilog2(size_t x) { return 63u - (unsigned)__builtin_clzll(x); }

static inline unsigned bin_floor(size_t u)
{
    if (u < 16)
        return (unsigned)u;
    unsigned fl = ilog2(u);
    unsigned b = (fl - 3) * 16 + (unsigned)((u >> (fl - 4)) & 15);
    return b < NBINS ? b : NBINS - 1;
}

static inline unsigned bin_ceil(size_t u)
{
    if (u < 16)
        return (unsigned)u;
    return bin_floor(u + ((size_t)1 << (ilog2(u) - 4)) - 1);
}

static inline __attribute__((always_inline)) void bins_insert(bins_t *bs, blk_t *b, size_t units)
{
    unsigned i = bin_floor(units);
    b->bin = (uint16_t)i;
    b->fprev = NULL;
    b->fnext = bs->head[i];
    if (b->fnext)
        b->fnext->fprev = b;
    bs->head[i] = b;
    bs->map[i / 64] |= 1ull << (i % 64);
}

static inline __attribute__((always_inline)) void bins_remove(bins_t *bs, blk_t *b)
{
    unsigned i = b->bin;
    if (b->fprev)
        b->fprev->fnext = b->fnext;
    else
        bs->head[i] = b->fnext;
    if (b->fnext)
        b->fnext->fprev = b->fprev;
    if (!bs->head[i])
        bs->map[i / 64] &= ~(1ull << (i % 64));
    b->fprev = b->fnext = NULL;
}

/* A free block of at least `units` (unit = 1 << shift bytes), removed from the bins. */
static inline __attribute__((always_inline)) blk_t *bins_take(bins_t *bs, size_t units, unsigned shift)
{
    unsigned i = bin_ceil(units);
    unsigned w = i / 64;
    uint64_t m = i < NBINS ? bs->map[w] & (~0ull << (i % 64)) : 0;
    while (!m && ++w < NBINW)
        m = bs->map[w];
    blk_t *b = NULL;
    if (m) {
        b = bs->head[w * 64 + (unsigned)__builtin_ctzll(m)];
    } else {
        /* good fit failed: first fit among the first few of the block's own bin before
         * growing (bounded, so a bin full of slightly-too-small blocks stays O(1)) */
        int budget = 32;
        for (blk_t *c = bs->head[bin_floor(units)]; c && budget--; c = c->fnext)
            if ((c->size >> shift) >= units) { b = c; break; }
    }
    if (b)
        bins_remove(bs, b);
    return b;
}

/* ------------------------------------------------------------ block structs ---- */
static inline blk_t *blk_new_locked(devmem_t *dm)
{
    if (!dm->spare) {
        blk_t *chunk = calloc(128, sizeof *chunk);
        if (!chunk)
            return NULL;
        for (int i = 0; i < 128; i++) {
            chunk[i].next = dm->spare;
            dm->spare = &chunk[i];
        }
    }
    blk_t *b = dm->spare;
    dm->spare = b->next;
    memset(b, 0, sizeof *b);
    return b;
}

static inline void blk_del_locked(devmem_t *dm, blk_t *b)
{
    b->state = B_FREE;
    b->addr = 0;
    b->next = dm->spare;
    dm->spare = b;
}

/* ---------------------------------------------------------- live-block hash ---- */
static inline size_t hslot(uintptr_t k, size_t cap)
{
    return (size_t)(((uint64_t)(k >> UNIT_SHIFT) * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static int hash_grow_locked(devmem_t *dm)
{
    size_t nc = dm->hcap ? dm->hcap * 2 : 1024;
    hent_t *nt = calloc(nc, sizeof *nt);
    if (!nt)
        return -1;
    for (size_t i = 0; i < dm->hcap; i++) {
        if (!dm->ht[i].key)
            continue;
        size_t j = hslot(dm->ht[i].key, nc);
        while (nt[j].key)
            j = (j + 1) & (nc - 1);
        nt[j] = dm->ht[i];
    }
    free(dm->ht);
    dm->ht = nt;
    dm->hcap = nc;
    return 0;
}

static blk_t *hash_find_locked(devmem_t *dm, uintptr_t k)
{
    if (!dm->hcap)
        return NULL;
    for (size_t j = hslot(k, dm->hcap);; j = (j + 1) & (dm->hcap - 1)) {
        if (dm->ht[j].key == k)
            return dm->ht[j].val;
        if (!dm->ht[j].key)
            return NULL;
    }
}

/* The caller made room (hash_reserve_locked). */
static void hash_put_locked(devmem_t *dm, blk_t *b)
{
    size_t j = hslot(b->addr, dm->hcap);
    while (dm->ht[j].key)
        j = (j + 1) & (dm->hcap - 1);
    dm->ht[j].key = b->addr;
    dm->ht[j].val = b;
    dm->hn++;
}

static int hash_reserve_locked(devmem_t *dm)
{
    if ((dm->hn + 1) * 2 > dm->hcap && hash_grow_locked(dm))
        return dm->hn + 1 < dm->hcap ? 0 : -1;   /* still room, just fuller */
    return 0;
}

static void hash_del_locked(devmem_t *dm, uintptr_t k)
{
    if (!dm->hcap)
        return;
    size_t cap = dm->hcap, j = hslot(k, cap);
    while (dm->ht[j].key != k) {
        if (!dm->ht[j].key)
            return;
        j = (j + 1) & (cap - 1);
    }
    /* backward-shift deletion keeps probe chains intact without tombstones */
    size_t i = j;
    for (;;) {
        dm->ht[i].key = 0;
        dm->ht[i].val = NULL;
        for (;;) {
            j = (j + 1) & (cap - 1);
            if (!dm->ht[j].key) {
                dm->hn--;
                return;
            }
            size_t h = hslot(dm->ht[j].key, cap);
            /* move j back to i unless its home slot lies cyclically in (i, j] */
            if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
                continue;
            break;
        }
        dm->ht[i] = dm->ht[j];
        i = j;
    }
}

/* ------------------------------------------------------------ address space ---- */
static long va_take_locked(devmem_t *dm, size_t n)
{
    for (size_t i = 0; i < dm->nva; i++) {
        if (dm->va[i].n < n)
            continue;
        size_t g = dm->va[i].g;
        dm->va[i].g += n;
        dm->va[i].n -= n;
        if (!dm->va[i].n) {
            memmove(&dm->va[i], &dm->va[i + 1], (dm->nva - i - 1) * sizeof *dm->va);
            dm->nva--;
        }
        return (long)g;
    }
    return -1;
}

static void va_put_locked(devmem_t *dm, size_t g, size_t n)
{
    size_t lo = 0, hi = dm->nva;             /* first range with start > g */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (dm->va[mid].g > g) hi = mid; else lo = mid + 1;
    }
    size_t i = lo;
    int left = i > 0 && dm->va[i - 1].g + dm->va[i - 1].n == g;
    int right = i < dm->nva && g + n == dm->va[i].g;
    if (left && right) {
        dm->va[i - 1].n += n + dm->va[i].n;
        memmove(&dm->va[i], &dm->va[i + 1], (dm->nva - i - 1) * sizeof *dm->va);
        dm->nva--;
    } else if (left) {
        dm->va[i - 1].n += n;
    } else if (right) {
        dm->va[i].g = g;
        dm->va[i].n += n;
    } else {
        if (dm->nva == dm->cva) {
            size_t nc = dm->cva * 2 + 8;
            varange_t *nv = realloc(dm->va, nc * sizeof *nv);
            if (!nv) {
                NPU_WARN("device %d: lost %zu MiB of address space (out of host memory)",
                         dm->dev, n << (GRAN_SHIFT - 20));
                return;
            }
            dm->va = nv;
            dm->cva = nc;
        }
        memmove(&dm->va[i + 1], &dm->va[i], (dm->nva - i) * sizeof *dm->va);
        dm->va[i].g = g;
        dm->va[i].n = n;
        dm->nva++;
    }
}

static inline size_t gran_of(devmem_t *dm, uintptr_t a) { return (a - dm->base) >> GRAN_SHIFT; }

static void account_reserve_locked(heap_t *h, long long delta)
{
    devmem_t *dm = h->dm;
    h->reserved += (size_t)delta;
    dm->reserved += (size_t)delta;
    if (h->reserved > h->peak_reserved) h->peak_reserved = h->reserved;
    if (dm->reserved > dm->peak_reserved) dm->peak_reserved = dm->reserved;
}

static inline void account_alloc_locked(heap_t *h, long long delta)
{
    devmem_t *dm = h->dm;
    h->allocated += (size_t)delta;
    dm->allocated += (size_t)delta;
    if (delta > 0) { h->nlive++; dm->nlive++; }
    else { h->nlive--; dm->nlive--; }
    if (h->allocated > h->peak_allocated) h->peak_allocated = h->allocated;
    if (dm->allocated > dm->peak_allocated) dm->peak_allocated = dm->allocated;
}

/* ------------------------------------------------------------- releasing ---- */
static void release_range(devmem_t *dm, uintptr_t a, size_t bytes)
{
    madvise((void *)a, bytes, MADV_DONTNEED);
    size_t g = gran_of(dm, a), n = bytes >> GRAN_SHIFT;
    for (size_t i = 0; i < n; i++)
        dm->gran[g + i] = NULL;
    va_put_locked(dm, g, n);
}

/* Returns a free large block of h to the OS. */
static void release_large_locked(heap_t *h, blk_t *b)
{
    devmem_t *dm = h->dm;
    bins_remove(&h->large, b);
    if (b->prev) b->prev->next = b->next; else h->larges = b->next;
    if (b->next) b->next->prev = b->prev;
    release_range(dm, b->addr, b->size);
    account_reserve_locked(h, -(long long)b->size);
    blk_del_locked(dm, b);
}

/* Returns a small segment without live blocks to the OS: everything in it has coalesced
 * into the one free block at its start. */
static void release_seg_locked(heap_t *h, seg_t *s)
{
    devmem_t *dm = h->dm;
    bins_remove(&h->small, s->first);
    blk_del_locked(dm, s->first);
    if (s->prev) s->prev->next = s->next; else h->segs = s->next;
    if (s->next) s->next->prev = s->prev;
    release_range(dm, s->addr, GRAN);
    account_reserve_locked(h, -(long long)GRAN);
    free(s);
}

/* Releases fully free segments and free large blocks of h while h->reserved > keep.
 * Returns bytes released. */
static size_t heap_trim_locked(heap_t *h, size_t keep)
{
    size_t released = 0;
    for (blk_t *b = h->larges, *nx; b && h->reserved > keep; b = nx) {
        nx = b->next;
        if (b->state != B_FREE)
            continue;
        released += b->size;
        release_large_locked(h, b);
    }
    for (seg_t *s = h->segs, *nx; s && h->reserved > keep; s = nx) {
        nx = s->next;
        if (s->used)
            continue;
        released += GRAN;
        release_seg_locked(h, s);
    }
    return released;
}

static size_t device_trim_all_locked(devmem_t *dm)
{
    size_t r = 0;
    for (heap_t *h = &dm->main; h; h = h->hnext)
        r += heap_trim_locked(h, 0);
    return r;
}

/* --------------------------------------------------------------- devices ---- */
static void heap_init(heap_t *h, devmem_t *dm, npu_pool_t *pool)
{
    memset(h, 0, sizeof *h);
    h->dm = dm;
    h->pool = pool;
}

/* Reserves the device's range on first use. Caller holds dm->lock. */
static int reserve_locked(devmem_t *dm)
{
    int r = atomic_load_explicit(&dm->ready, memory_order_relaxed);
    if (r)
        return r > 0 ? 0 : -1;
    size_t cap = dm->capacity;
    if (cap > ((size_t)1 << 46))
        cap = (size_t)1 << 46;
    if (cap < GRAN)
        cap = GRAN;
    cap &= ~(GRAN - 1);
    size_t span = 0;
    void *m = MAP_FAILED;
    for (size_t mult = 4; mult >= 1 && m == MAP_FAILED; mult /= 2) {
        span = cap * mult;
        m = mmap(NULL, span + GRAN, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    void *gt = MAP_FAILED;
    if (m != MAP_FAILED) {
        gt = mmap(NULL, (span >> GRAN_SHIFT) * sizeof(void *), PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    dm->va = malloc(8 * sizeof *dm->va);
    if (m == MAP_FAILED || gt == MAP_FAILED || !dm->va) {
        if (m != MAP_FAILED) munmap(m, span + GRAN);
        if (gt != MAP_FAILED) munmap(gt, (span >> GRAN_SHIFT) * sizeof(void *));
        free(dm->va);
        dm->va = NULL;
        NPU_ERR("device %d: cannot reserve %zu MiB of address space for device memory",
                dm->dev, cap >> 20);
        atomic_store_explicit(&dm->ready, -1, memory_order_release);
        return -1;
    }
    uintptr_t a = ((uintptr_t)m + GRAN - 1) & ~(uintptr_t)(GRAN - 1);
    if (a > (uintptr_t)m)
        munmap(m, a - (uintptr_t)m);
    uintptr_t end = (uintptr_t)m + span + GRAN;
    if (end > a + span)
        munmap((void *)(a + span), end - (a + span));
    /* Large buffers stream through kernels: 2 MiB pages make first touch ~4x cheaper
     * (1.7 -> 0.4 us per 4 KiB, DESIGN.md); pages are still only backed when touched. */
    madvise((void *)a, span, MADV_HUGEPAGE);
    if (span < dm->capacity) {
        NPU_WARN("device %d: capacity lowered to %zu MiB (address space)", dm->dev, span >> 20);
        dm->capacity = span;
    }
    dm->base = a;
    dm->span = span;
    dm->gran = gt;
    dm->ngran = span >> GRAN_SHIFT;
    dm->cva = 8;
    dm->nva = 1;
    dm->va[0].g = 0;
    dm->va[0].n = dm->ngran;
    uintptr_t lo = atomic_load(&g_lo);
    while (a < lo && !atomic_compare_exchange_weak(&g_lo, &lo, a)) {}
    uintptr_t hi = atomic_load(&g_hi);
    while (a + span > hi && !atomic_compare_exchange_weak(&g_hi, &hi, a + span)) {}
    atomic_store_explicit(&dm->ready, 1, memory_order_release);
    return 0;
}

/* The memory state of device dev (created on first use), NULL for a bad ordinal. */
static devmem_t *devmem(int dev)
{
    if (dev < 0 || dev >= MAX_DEV)
        return NULL;
    devmem_t *dm = atomic_load_explicit(&g_mem[dev], memory_order_acquire);
    if (__builtin_expect(dm != NULL, 1))
        return dm;
    if (npu_init() != NPU_OK || dev >= npu_device_count())
        return NULL;
    npu_device_props_t props;
    if (npu_device_get_props(dev, &props) != NPU_OK)
        return NULL;
    pthread_mutex_lock(&g_mem_lock);
    dm = atomic_load(&g_mem[dev]);
    if (!dm && (dm = calloc(1, sizeof *dm)) != NULL) {
        pthread_mutex_init(&dm->lock, NULL);
        dm->dev = dev;
        dm->capacity = props.total_mem;
        heap_init(&dm->main, dm, NULL);
        atomic_store_explicit(&g_mem[dev], dm, memory_order_release);
        if (dev + 1 > atomic_load(&g_nmem))
            atomic_store(&g_nmem, dev + 1);
    }
    pthread_mutex_unlock(&g_mem_lock);
    return dm;
}

/* The device whose range holds p, without taking a lock; NULL for other memory. */
static devmem_t *devmem_of(uintptr_t p)
{
    if (p < atomic_load_explicit(&g_lo, memory_order_relaxed) ||
        p >= atomic_load_explicit(&g_hi, memory_order_relaxed))
        return NULL;
    int n = atomic_load_explicit(&g_nmem, memory_order_acquire);
    for (int d = 0; d < n; d++) {
        devmem_t *dm = atomic_load_explicit(&g_mem[d], memory_order_acquire);
        if (!dm)
            continue;
        if (atomic_load_explicit(&dm->ready, memory_order_acquire) == 1 && p - dm->base < dm->span)
            return dm;
    }
    return NULL;
}

/* n fresh granules for heap h, within capacity; -1 when the device is full. */
static long grab_locked(heap_t *h, size_t n)
{
    devmem_t *dm = h->dm;
    if (reserve_locked(dm))
        return -1;
    size_t bytes = n << GRAN_SHIFT;
    for (int attempt = 0;; attempt++) {
        if (bytes <= dm->capacity - dm->reserved) {
            long g = va_take_locked(dm, n);
            if (g >= 0) {
                account_reserve_locked(h, (long long)bytes);
                return g;
            }
        }
        if (attempt > 0 || device_trim_all_locked(dm) == 0)
            return -1;
    }
}

/* ------------------------------------------------------------ allocation ---- */
static inline void seg_set_start(seg_t *s, uintptr_t a)
{
    size_t u = (a - s->addr) >> UNIT_SHIFT;
    s->starts[u / 64] |= 1ull << (u % 64);
}

static inline void seg_clear_start(seg_t *s, uintptr_t a)
{
    size_t u = (a - s->addr) >> UNIT_SHIFT;
    s->starts[u / 64] &= ~(1ull << (u % 64));
}

static blk_t *small_alloc_locked(heap_t *h, size_t units)
{
    devmem_t *dm = h->dm;
    blk_t *b = bins_take(&h->small, units, UNIT_SHIFT);
    if (!b) {
        seg_t *s = calloc(1, sizeof *s);
        blk_t *fb = s ? blk_new_locked(dm) : NULL;
        long g = fb ? grab_locked(h, 1) : -1;
        if (g < 0) {
            if (fb) blk_del_locked(dm, fb);
            free(s);
            return NULL;
        }
        s->addr = dm->base + ((size_t)g << GRAN_SHIFT);
        s->heap = h;
        s->first = fb;
        s->next = h->segs;
        if (h->segs) h->segs->prev = s;
        h->segs = s;
        seg_set_start(s, s->addr);
        fb->addr = s->addr;
        fb->size = GRAN;
        fb->seg = s;
        fb->heap = h;
        dm->gran[g] = (void *)((uintptr_t)s | 1);
        b = fb;
    }
    size_t need = units << UNIT_SHIFT;
    if (b->size > need) {
        blk_t *t = blk_new_locked(dm);
        if (t) {
            t->addr = b->addr + need;
            t->size = b->size - need;
            t->seg = b->seg;
            t->heap = h;
            t->prev = b;
            t->next = b->next;
            if (b->next) b->next->prev = t;
            b->next = t;
            b->size = need;
            seg_set_start(b->seg, t->addr);
            bins_insert(&h->small, t, t->size >> UNIT_SHIFT);
        }
    }
    b->seg->used += b->size;
    return b;
}

static blk_t *large_alloc_locked(heap_t *h, size_t n)
{
    devmem_t *dm = h->dm;
    blk_t *b = bins_take(&h->large, n, GRAN_SHIFT);
    if (!b) {
        b = blk_new_locked(dm);
        if (!b)
            return NULL;
        long g = grab_locked(h, n);
        if (g < 0) {
            blk_del_locked(dm, b);
            return NULL;
        }
        b->addr = dm->base + ((size_t)g << GRAN_SHIFT);
        b->size = n << GRAN_SHIFT;
        b->heap = h;
        b->large = 1;
        b->next = h->larges;
        if (h->larges) h->larges->prev = b;
        h->larges = b;
        for (size_t i = 0; i < n; i++)
            dm->gran[g + i] = b;
    }
    size_t need = n << GRAN_SHIFT;
    if (b->size > need) {
        blk_t *t = blk_new_locked(dm);
        if (t) {
            t->addr = b->addr + need;
            t->size = b->size - need;
            t->heap = h;
            t->large = 1;
            t->next = h->larges;
            if (h->larges) h->larges->prev = t;
            h->larges = t;
            b->size = need;
            size_t g = gran_of(dm, t->addr), k = t->size >> GRAN_SHIFT;
            for (size_t i = 0; i < k; i++)
                dm->gran[g + i] = t;
            bins_insert(&h->large, t, k);
        }
    }
    return b;
}

static npu_status_t heap_alloc(heap_t *h, size_t size, int mkind, int flags, void **out)
{
    devmem_t *dm = h->dm;
    *out = NULL;
    if (size == 0)
        return NPU_OK;
    if (size > dm->capacity)
        return NPU_ENOMEM;
    pthread_mutex_lock(&dm->lock);
    blk_t *b = NULL;
    if (size <= SMALL_MAX) {
        if (hash_reserve_locked(dm) == 0)
            b = small_alloc_locked(h, (size + UNIT - 1) >> UNIT_SHIFT);
    } else {
        b = large_alloc_locked(h, (size + GRAN - 1) >> GRAN_SHIFT);
    }
    if (!b) {
        pthread_mutex_unlock(&dm->lock);
        NPU_INFO("device %d: out of memory allocating %zu bytes (%zu of %zu reserved)",
                 dm->dev, size, dm->reserved, dm->capacity);
        return NPU_ENOMEM;
    }
    b->state = B_LIVE;
    b->req = size;
    b->mkind = (uint8_t)mkind;
    b->flags = (uint8_t)flags;
    if (!b->large)
        hash_put_locked(dm, b);
    account_alloc_locked(h, (long long)b->size);
    pthread_mutex_unlock(&dm->lock);
    *out = (void *)b->addr;
    return NPU_OK;
}

/* ---------------------------------------------------------------- lookup ---- */
/* The block (live or free) whose range holds p, or NULL. Caller holds dm->lock. */
static blk_t *block_at_locked(devmem_t *dm, uintptr_t p)
{
    if (atomic_load_explicit(&dm->ready, memory_order_relaxed) != 1 || p - dm->base >= dm->span)
        return NULL;
    void *e = dm->gran[gran_of(dm, p)];
    if (!e)
        return NULL;
    if (!((uintptr_t)e & 1))
        return (blk_t *)e;
    seg_t *s = (seg_t *)((uintptr_t)e & ~(uintptr_t)1);
    size_t u = (p - s->addr) >> UNIT_SHIFT, w = u / 64;
    uint64_t m = s->starts[w] & (~0ull >> (63 - (u % 64)));
    while (!m) {
        if (w == 0)
            return NULL;
        m = s->starts[--w];
    }
    uintptr_t start = s->addr + ((w * 64 + 63 - (size_t)__builtin_clzll(m)) << UNIT_SHIFT);
    return hash_find_locked(dm, start);     /* NULL when that block is free */
}

/* The live block holding p within its requested size, or NULL. */
static blk_t *live_at_locked(devmem_t *dm, uintptr_t p)
{
    blk_t *b = block_at_locked(dm, p);
    if (!b || b->state != B_LIVE || (b->flags & BF_QUAR) || p - b->addr >= b->req)
        return NULL;
    return b;
}

npu_status_t npu_mem_lookup(const void *p, npu_ptr_info_t *out)
{
    if (!out)
        return NPU_EINVAL;
    memset(out, 0, sizeof *out);
    out->kind = NPU_MEM_UNREGISTERED;
    out->device = -1;
    if (!p)
        return NPU_OK;
    uintptr_t a = (uintptr_t)p;
    devmem_t *dm = devmem_of(a);
    if (dm) {
        pthread_mutex_lock(&dm->lock);
        blk_t *b = live_at_locked(dm, a);
        if (b) {
            out->kind = b->mkind == NPU_MEM_MANAGED ? NPU_MEM_MANAGED : NPU_MEM_DEVICE;
            out->device = dm->dev;
            out->base = (void *)b->addr;
            out->size = b->req;
            out->host_ptr = (void *)p;
            out->dev_ptr = (void *)p;
        }
        pthread_mutex_unlock(&dm->lock);
        return NPU_OK;
    }
    npu_hostreg_entry_t e;
    if (npu_hostreg_find(p, &e)) {
        out->kind = NPU_MEM_HOST;
        out->base = (void *)e.base;
        out->size = e.size;
        out->host_ptr = (void *)p;
        out->dev_ptr = (void *)p;
        out->flags = e.flags;
    }
    return NPU_OK;
}

npu_status_t npu_mem_check_range(const void *p, size_t n)
{
    if (n == 0)
        return NPU_OK;
    uintptr_t a = (uintptr_t)p;
    if (!p || a + n < a)
        return NPU_EINVAL;
    devmem_t *dm = devmem_of(a);
    if (dm) {
        pthread_mutex_lock(&dm->lock);
        blk_t *b = live_at_locked(dm, a);
        int ok = b && n <= b->req - (a - b->addr);
        pthread_mutex_unlock(&dm->lock);
        return ok ? NPU_OK : NPU_EINVAL;
    }
    npu_hostreg_entry_t e;
    if (npu_hostreg_find(p, &e))
        return n <= e.size - (a - e.base) ? NPU_OK : NPU_EINVAL;
    return NPU_OK;
}

/* ------------------------------------------------------------------ free ---- */
static void pool_reap_locked(npu_pool_t *pool);

/* Frees live block b; returns the free block it became part of. Caller holds dm->lock. */
static blk_t *block_free_locked(devmem_t *dm, blk_t *b)
{
    heap_t *h = b->heap;
    account_alloc_locked(h, -(long long)b->size);
    b->state = B_FREE;
    b->flags = 0;
    b->req = 0;
    if (!b->large) {
        hash_del_locked(dm, b->addr);
        seg_t *s = b->seg;
        s->used -= b->size;
        blk_t *nx = b->next, *pv = b->prev;
        if (nx && nx->state == B_FREE) {
            bins_remove(&h->small, nx);
            seg_clear_start(s, nx->addr);
            b->size += nx->size;
            b->next = nx->next;
            if (nx->next) nx->next->prev = b;
            blk_del_locked(dm, nx);
        }
        if (pv && pv->state == B_FREE) {
            bins_remove(&h->small, pv);
            seg_clear_start(s, b->addr);
            pv->size += b->size;
            pv->next = b->next;
            if (b->next) b->next->prev = pv;
            blk_del_locked(dm, b);
            b = pv;
        }
        bins_insert(&h->small, b, b->size >> UNIT_SHIFT);
    } else {
        size_t g = gran_of(dm, b->addr);
        size_t ge = g + (b->size >> GRAN_SHIFT);
        blk_t *r = ge < dm->ngran ? dm->gran[ge] : NULL;
        if (r && !((uintptr_t)r & 1) && r->state == B_FREE && r->heap == h) {
            bins_remove(&h->large, r);
            for (size_t i = ge; i < ge + (r->size >> GRAN_SHIFT); i++)
                dm->gran[i] = b;
            b->size += r->size;
            if (r->prev) r->prev->next = r->next; else h->larges = r->next;
            if (r->next) r->next->prev = r->prev;
            blk_del_locked(dm, r);
        }
        blk_t *l = g > 0 ? dm->gran[g - 1] : NULL;
        if (l && !((uintptr_t)l & 1) && l->state == B_FREE && l->heap == h) {
            bins_remove(&h->large, l);
            for (size_t i = g; i < g + (b->size >> GRAN_SHIFT); i++)
                dm->gran[i] = l;
            l->size += b->size;
            if (b->prev) b->prev->next = b->next; else h->larges = b->next;
            if (b->next) b->next->prev = b->prev;
            blk_del_locked(dm, b);
            b = l;
        }
        bins_insert(&h->large, b, b->size >> GRAN_SHIFT);
    }
    return b;
}

/* Pool policy after a free into heap h left free block fb: above the release threshold, give
 * back what this free made releasable (fb's segment if it is now empty, or fb if large). That
 * is all a trim could find: after every free the pool holds nothing releasable above its
 * threshold, so this stays O(1) however many segments the pool has. A pool destroyed while it
 * still had allocations is reclaimed when its last one goes. */
static void heap_after_free_locked(heap_t *h, blk_t *fb)
{
    if (!h->pool)
        return;
    if (h->pool->dead) {
        if (h->nlive == 0)
            pool_reap_locked(h->pool);
    } else if (h->reserved > h->pool->threshold) {
        if (fb->large)
            release_large_locked(h, fb);
        else if (fb->seg->used == 0)
            release_seg_locked(h, fb->seg);
    }
}

/* ------------------------------------------------------------ memcheck ---- */
/* TRANSFER_TO_NPU_MEMCHECK=1: npu_mem_free of a main-heap block does not make it reusable
 * at once: the block stays allocated, flagged BF_QUAR (invisible to lookups, a second free
 * is a double free), in a FIFO ring of at most QUAR_MAX blocks / QUAR_BYTES bytes; the
 * oldest is really freed when the ring overflows. A kernel access into a quarantined block
 * is reported as use-after-free. Statistics count quarantined blocks as allocated. */
#define QUAR_MAX   4096
#define QUAR_BYTES ((size_t)256 << 20)

static _Atomic uint64_t g_free_gen;

int npu_mem_memcheck_enabled(void)
{
    static _Atomic int on = -1;
    int v = atomic_load_explicit(&on, memory_order_relaxed);
    if (v < 0) {
        v = npu_env_ll("TRANSFER_TO_NPU_MEMCHECK", 0) != 0;
        atomic_store_explicit(&on, v, memory_order_relaxed);
    }
    return v;
}

uint64_t npu_mem_free_generation(void)
{
    return atomic_load_explicit(&g_free_gen, memory_order_acquire);
}

/* 1 when b went into the quarantine (caller holds dm->lock), 0 when it must be freed now. */
static int quarantine_locked(devmem_t *dm, blk_t *b)
{
    if (!dm->quar) {
        dm->quar = calloc(QUAR_MAX, sizeof *dm->quar);
        if (!dm->quar)
            return 0;
    }
    while (dm->qn > 0 && (dm->qn >= QUAR_MAX || dm->qbytes + b->size > QUAR_BYTES)) {
        blk_t *old = dm->quar[dm->qhead];
        dm->qhead = (dm->qhead + 1) % QUAR_MAX;
        dm->qn--;
        dm->qbytes -= old->size;
        old->flags &= (uint8_t)~BF_QUAR;
        heap_after_free_locked(old->heap, block_free_locked(dm, old));
    }
    b->flags |= BF_QUAR;
    dm->quar[(dm->qhead + dm->qn) % QUAR_MAX] = b;
    dm->qn++;
    dm->qbytes += b->size;
    return 1;
}

/* The nearest live block at or below address a in a small segment (scanning back over at
 * most 256 block starts), or NULL. Caller holds dm->lock. */
static blk_t *prev_live_small_locked(devmem_t *dm, seg_t *sg, uintptr_t a)
{
    size_t u = (a - sg->addr) >> UNIT_SHIFT;
    for (int k = 0; k < 256; k++) {
        size_t w = u / 64;
        uint64_t m = sg->starts[w] & (~0ull >> (63 - (u % 64)));
        while (!m) {
            if (w == 0)
                return NULL;
            m = sg->starts[--w];
        }
        size_t su = w * 64 + 63 - (size_t)__builtin_clzll(m);
        blk_t *b = hash_find_locked(dm, sg->addr + (su << UNIT_SHIFT));
        if (b && b->state == B_LIVE)
            return b;
        if (su == 0)
            return NULL;
        u = su - 1;
    }
    return NULL;
}

/* The first live block starting after address a in small segment sg (at most 256 block
 * starts ahead), or NULL. Caller holds dm->lock. */
static blk_t *next_live_small_locked(devmem_t *dm, seg_t *sg, uintptr_t a)
{
    size_t u = ((a - sg->addr) >> UNIT_SHIFT) + 1;
    for (int k = 0; k < 256 && u < SEG_UNITS; k++) {
        size_t w = u / 64;
        uint64_t m = sg->starts[w] & (~0ull << (u % 64));
        while (!m) {
            if (++w >= SEG_UNITS / 64)
                return NULL;
            m = sg->starts[w];
        }
        size_t su = w * 64 + (size_t)__builtin_ctzll(m);
        blk_t *b = hash_find_locked(dm, sg->addr + (su << UNIT_SHIFT));
        if (b && b->state == B_LIVE)
            return b;
        u = su + 1;
    }
    return NULL;
}

int npu_mem_memcheck_classify(const void *p, size_t n, void **base, size_t *size)
{
    uintptr_t a = (uintptr_t)p;
    *base = NULL;
    *size = 0;
    if (!p || a + n < a)
        return NPU_MC_NOALLOC;
    devmem_t *dm = devmem_of(a);
    if (!dm) {
        npu_hostreg_entry_t e;
        if (npu_hostreg_find(p, &e)) {
            *base = (void *)e.base;
            *size = e.size;
            return n <= e.size - (a - e.base) ? NPU_MC_OK : NPU_MC_OOB;
        }
        return NPU_MC_NOALLOC;
    }
    int r = NPU_MC_NOALLOC;
    pthread_mutex_lock(&dm->lock);
    blk_t *b = block_at_locked(dm, a);
    if ((!b || b->state != B_LIVE || a - b->addr >= b->req) && a - dm->base < dm->span) {
        /* not inside a live block: the nearest live one of the segment, before or after */
        void *e = dm->gran[gran_of(dm, a)];
        if ((uintptr_t)e & 1) {
            seg_t *sg = (seg_t *)((uintptr_t)e & ~(uintptr_t)1);
            blk_t *pv = (b && b->state == B_LIVE) ? b : prev_live_small_locked(dm, sg, a);
            blk_t *nx = next_live_small_locked(dm, sg, a);
            uintptr_t dp = pv ? a - (pv->addr + pv->req) : UINTPTR_MAX;
            uintptr_t dn = nx ? nx->addr - a : UINTPTR_MAX;
            b = dn < dp ? nx : pv;
        }
    }
    if (b && b->state == B_LIVE) {
        *base = (void *)b->addr;
        *size = b->req;
        if (b->flags & BF_QUAR)
            r = a >= b->addr && a - b->addr < b->req ? NPU_MC_FREED : NPU_MC_OOB;
        else
            r = (a >= b->addr && a - b->addr < b->req && n <= b->req - (a - b->addr)) ? NPU_MC_OK
                                                                               : NPU_MC_OOB;
    }
    pthread_mutex_unlock(&dm->lock);
    return r;
}

/* The live block whose base is p (and its device), or NULL. Takes dm->lock on success. */
static blk_t *live_base_lock(uintptr_t p, devmem_t **dmp)
{
    devmem_t *dm = devmem_of(p);
    if (!dm || (p & (UNIT - 1)))
        return NULL;
    pthread_mutex_lock(&dm->lock);
    /* a base needs no interior search: the granule entry, or the live hash for segments */
    void *e = dm->gran[gran_of(dm, p)];
    blk_t *b = ((uintptr_t)e & 1) ? hash_find_locked(dm, p) : (blk_t *)e;
    if (!b || b->state != B_LIVE || b->addr != p || (b->flags & BF_QUAR)) {
        pthread_mutex_unlock(&dm->lock);
        return NULL;
    }
    *dmp = dm;
    return b;
}

npu_status_t npu_mem_free(void *p)
{
    if (!p)
        return NPU_OK;
    devmem_t *dm;
    blk_t *b = live_base_lock((uintptr_t)p, &dm);
    if (!b)
        return NPU_EINVAL;
    if (b->flags & BF_PENDING) {
        pthread_mutex_unlock(&dm->lock);
        return NPU_EINVAL;
    }
    heap_t *h = b->heap;
    if (npu_mem_memcheck_enabled() && h == &dm->main && !(b->flags & BF_MODULE) &&
        quarantine_locked(dm, b)) {
        pthread_mutex_unlock(&dm->lock);
        atomic_fetch_add_explicit(&g_free_gen, 1, memory_order_release);
        return NPU_OK;
    }
    heap_after_free_locked(h, block_free_locked(dm, b));
    pthread_mutex_unlock(&dm->lock);
    atomic_fetch_add_explicit(&g_free_gen, 1, memory_order_release);
    return NPU_OK;
}

/* ------------------------------------------------------------ public API ---- */
npu_status_t npu_mem_alloc(int dev, size_t size, void **out)
{
    if (!out)
        return NPU_EINVAL;
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    return heap_alloc(&dm->main, size, NPU_MEM_DEVICE, 0, out);
}

npu_status_t npu_mem_alloc_managed(int dev, size_t size, void **out)
{
    if (!out)
        return NPU_EINVAL;
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    return heap_alloc(&dm->main, size, NPU_MEM_MANAGED, 0, out);
}

npu_status_t npu_mem_alloc_module(int dev, size_t size, void **out)
{
    if (!out)
        return NPU_EINVAL;
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    return heap_alloc(&dm->main, size, NPU_MEM_DEVICE, BF_MODULE, out);
}

npu_status_t npu_mem_info(int dev, size_t *free_bytes, size_t *total_bytes)
{
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    pthread_mutex_lock(&dm->lock);
    if (free_bytes) *free_bytes = dm->capacity - dm->reserved;
    if (total_bytes) *total_bytes = dm->capacity;
    pthread_mutex_unlock(&dm->lock);
    return NPU_OK;
}

/* Also called from the exit path, which may run in a signal handler that interrupted a
 * thread holding dm->lock (trace.c): the lock is taken with a timeout, after which the
 * counters (aligned words) are read without it; and a device whose memory was never used
 * is reported as empty without being set up. */
npu_status_t npu_mem_get_stats(int dev, npu_mem_stats_t *out)
{
    if (!out)
        return NPU_EINVAL;
    devmem_t *dm = dev >= 0 && dev < MAX_DEV ? atomic_load_explicit(&g_mem[dev], memory_order_acquire)
                                             : NULL;
    if (!dm) {
        npu_device_props_t props;
        if (dev < 0 || dev >= MAX_DEV || dev >= npu_device_count() ||
            npu_device_get_props(dev, &props) != NPU_OK)
            return NPU_EDEVICE;
        memset(out, 0, sizeof *out);
        out->capacity = props.total_mem;
        return NPU_OK;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    int locked = pthread_mutex_timedlock(&dm->lock, &ts) == 0;
    out->allocated = dm->allocated;
    out->reserved = dm->reserved;
    out->peak_allocated = dm->peak_allocated;
    out->peak_reserved = dm->peak_reserved;
    out->num_allocs = dm->nlive;
    out->capacity = dm->capacity;
    if (locked)
        pthread_mutex_unlock(&dm->lock);
    return NPU_OK;
}

npu_status_t npu_mem_reset_peak(int dev)
{
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    pthread_mutex_lock(&dm->lock);
    dm->peak_allocated = dm->allocated;
    dm->peak_reserved = dm->reserved;
    pthread_mutex_unlock(&dm->lock);
    return NPU_OK;
}

npu_status_t npu_mem_empty_cache(int dev)
{
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    pthread_mutex_lock(&dm->lock);
    heap_trim_locked(&dm->main, 0);
    for (heap_t *h = dm->main.hnext; h; h = h->hnext)
        heap_trim_locked(h, h->pool ? h->pool->threshold : 0);
    pthread_mutex_unlock(&dm->lock);
    return NPU_OK;
}

/* Frees every live non-module block of heap h. Caller holds dm->lock. */
static void heap_free_all_locked(heap_t *h)
{
    devmem_t *dm = h->dm;
    for (blk_t *b = h->larges, *nx; b; b = nx) {
        nx = b->next;
        if (b->state == B_LIVE && !(b->flags & BF_MODULE)) {
            block_free_locked(dm, b);
            nx = h->larges;          /* coalescing may have taken the next one: restart */
        }
    }
    for (seg_t *s = h->segs; s; s = s->next) {
        for (blk_t *b = s->first, *nx; b; b = nx) {
            nx = b->next;
            if (b->state == B_LIVE && !(b->flags & BF_MODULE)) {
                blk_t *pv = b->prev;
                int merged_left = pv && pv->state == B_FREE;
                block_free_locked(dm, b);
                /* the freed range now ends a free block whose next neighbour is live */
                nx = merged_left ? pv->next : b->next;
            }
        }
    }
}

void npu_mem_release_device(int dev)
{
    devmem_t *dm = devmem(dev);
    if (!dm)
        return;
    pthread_mutex_lock(&dm->lock);
    for (heap_t *h = &dm->main; h; h = h->hnext)
        heap_free_all_locked(h);
    dm->qhead = dm->qn = dm->qbytes = 0;     /* quarantined blocks were live: freed above */
    device_trim_all_locked(dm);
    for (heap_t *h = dm->main.hnext, *nx; h; h = nx) {
        nx = h->hnext;
        if (h->pool && h->pool->dead && h->nlive == 0)
            pool_reap_locked(h->pool);
    }
    pthread_mutex_unlock(&dm->lock);
}

/* ----------------------------------------------------------------- pools ---- */
/* Releases a destroyed pool whose last allocation is gone. Caller holds dm->lock; the pool
 * is already off g_pools. */
static void pool_reap_locked(npu_pool_t *pool)
{
    heap_t *h = &pool->heap;
    devmem_t *dm = h->dm;
    heap_trim_locked(h, 0);
    for (heap_t **pp = &dm->main.hnext; *pp; pp = &(*pp)->hnext) {
        if (*pp == h) {
            *pp = h->hnext;
            break;
        }
    }
    pool->magic = 0;
    free(pool);
}

/* Caller holds g_pool_lock. */
static int pool_live_locked(const npu_pool_t *p)
{
    for (npu_pool_t *q = g_pools; q; q = q->next)
        if (q == p)
            return 1;
    return 0;
}

static npu_pool_t *pool_new_locked(devmem_t *dm, int is_default)
{
    npu_pool_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->magic = POOL_MAGIC;
    p->dev = dm->dev;
    p->is_default = is_default;
    p->reuse[0] = p->reuse[1] = p->reuse[2] = 1;
    heap_init(&p->heap, dm, p);
    pthread_mutex_lock(&dm->lock);
    p->heap.hnext = dm->main.hnext;
    dm->main.hnext = &p->heap;
    pthread_mutex_unlock(&dm->lock);
    p->next = g_pools;
    g_pools = p;
    return p;
}

npu_pool_t *npu_pool_default(int dev)
{
    if (dev < 0 || dev >= MAX_DEV)
        return NULL;
    npu_pool_t *p = atomic_load_explicit(&g_default_pool[dev], memory_order_acquire);
    if (p)
        return p;
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NULL;
    pthread_mutex_lock(&g_pool_lock);
    p = atomic_load(&g_default_pool[dev]);
    if (!p) {
        p = pool_new_locked(dm, 1);
        atomic_store_explicit(&g_default_pool[dev], p, memory_order_release);
    }
    pthread_mutex_unlock(&g_pool_lock);
    return p;
}

npu_status_t npu_pool_create(int dev, npu_pool_t **out)
{
    if (!out)
        return NPU_EINVAL;
    *out = NULL;
    devmem_t *dm = devmem(dev);
    if (!dm)
        return NPU_EDEVICE;
    pthread_mutex_lock(&g_pool_lock);
    npu_pool_t *p = pool_new_locked(dm, 0);
    pthread_mutex_unlock(&g_pool_lock);
    if (!p)
        return NPU_EHOSTMEM;
    *out = p;
    return NPU_OK;
}

npu_status_t npu_pool_destroy(npu_pool_t *p)
{
    pthread_mutex_lock(&g_pool_lock);
    if (!p || !pool_live_locked(p) || p->is_default) {
        pthread_mutex_unlock(&g_pool_lock);
        return NPU_EINVAL;
    }
    for (npu_pool_t **pp = &g_pools; *pp; pp = &(*pp)->next) {
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    }
    devmem_t *dm = p->heap.dm;
    pthread_mutex_lock(&dm->lock);
    /* As CUDA documents: outstanding allocations keep the pool's memory until freed. */
    p->dead = 1;
    if (p->heap.nlive == 0)
        pool_reap_locked(p);
    else
        heap_trim_locked(&p->heap, 0);
    pthread_mutex_unlock(&dm->lock);
    pthread_mutex_unlock(&g_pool_lock);
    return NPU_OK;
}

int npu_pool_valid(const npu_pool_t *p)
{
    if (!p)
        return 0;
    pthread_mutex_lock(&g_pool_lock);
    int ok = pool_live_locked(p);
    pthread_mutex_unlock(&g_pool_lock);
    return ok;
}

int npu_pool_device(const npu_pool_t *p)
{
    return npu_pool_valid(p) ? p->dev : -1;
}

npu_status_t npu_pool_alloc_async(npu_pool_t *p, size_t size, npu_stream_t *s, void **out)
{
    if (!out)
        return NPU_EINVAL;
    *out = NULL;
    if (!npu_pool_valid(p))
        return NPU_EINVAL;
    return heap_alloc(&p->heap, size, NPU_MEM_DEVICE, 0, out);
}

static npu_status_t pool_free_noop(void *arg)
{
    (void)arg;
    return NPU_OK;
}

/* Runs in stream order (also when the stream's work is skipped on a poisoned device). */
static void pool_free_cleanup(void *arg)
{
    devmem_t *dm;
    blk_t *b = live_base_lock((uintptr_t)arg, &dm);
    if (!b)
        return;
    if (b->flags & BF_PENDING) {
        heap_t *h = b->heap;
        heap_after_free_locked(h, block_free_locked(dm, b));
    }
    pthread_mutex_unlock(&dm->lock);
}

npu_status_t npu_pool_free_async(void *ptr, npu_stream_t *s)
{
    if (!ptr)
        return NPU_OK;
    devmem_t *dm;
    blk_t *b = live_base_lock((uintptr_t)ptr, &dm);
    if (!b)
        return NPU_EINVAL;
    if (b->flags & BF_PENDING) {
        pthread_mutex_unlock(&dm->lock);
        return NPU_EINVAL;
    }
    b->flags |= BF_PENDING;
    pthread_mutex_unlock(&dm->lock);
    if (!s) {
        pool_free_cleanup(ptr);
        return NPU_OK;
    }
    npu_status_t st = npu_stream_submit(s, pool_free_noop, pool_free_cleanup, ptr);
    if (st != NPU_OK && (b = live_base_lock((uintptr_t)ptr, &dm)) != NULL) {
        b->flags &= (uint8_t)~BF_PENDING;
        pthread_mutex_unlock(&dm->lock);
    }
    return st;
}

npu_status_t npu_pool_trim(npu_pool_t *p, size_t min_bytes_to_keep)
{
    if (!npu_pool_valid(p))
        return NPU_EINVAL;
    devmem_t *dm = p->heap.dm;
    pthread_mutex_lock(&dm->lock);
    heap_trim_locked(&p->heap, min_bytes_to_keep);
    pthread_mutex_unlock(&dm->lock);
    return NPU_OK;
}

npu_status_t npu_pool_get_attr(npu_pool_t *p, int attr, uint64_t *value)
{
    if (!value || !npu_pool_valid(p))
        return NPU_EINVAL;
    devmem_t *dm = p->heap.dm;
    npu_status_t st = NPU_OK;
    pthread_mutex_lock(&dm->lock);
    switch (attr) {
    case NPU_POOL_REUSE_FOLLOW_EVENT:
    case NPU_POOL_REUSE_ALLOW_OPPORTUNISTIC:
    case NPU_POOL_REUSE_ALLOW_INTERNAL: *value = p->reuse[attr - 1]; break;
    case NPU_POOL_RELEASE_THRESHOLD: *value = p->threshold; break;
    case NPU_POOL_RESERVED_CURRENT: *value = p->heap.reserved; break;
    case NPU_POOL_RESERVED_HIGH: *value = p->heap.peak_reserved; break;
    case NPU_POOL_USED_CURRENT: *value = p->heap.allocated; break;
    case NPU_POOL_USED_HIGH: *value = p->heap.peak_allocated; break;
    default: st = NPU_EINVAL; break;
    }
    pthread_mutex_unlock(&dm->lock);
    return st;
}

npu_status_t npu_pool_set_attr(npu_pool_t *p, int attr, uint64_t value)
{
    if (!npu_pool_valid(p))
        return NPU_EINVAL;
    devmem_t *dm = p->heap.dm;
    npu_status_t st = NPU_OK;
    pthread_mutex_lock(&dm->lock);
    switch (attr) {
    case NPU_POOL_REUSE_FOLLOW_EVENT:
    case NPU_POOL_REUSE_ALLOW_OPPORTUNISTIC:
    case NPU_POOL_REUSE_ALLOW_INTERNAL: p->reuse[attr - 1] = value != 0; break;
    case NPU_POOL_RELEASE_THRESHOLD:
        p->threshold = value;
        if (p->heap.reserved > value)
            heap_trim_locked(&p->heap, value);
        break;
    case NPU_POOL_RESERVED_HIGH:
        if (value) st = NPU_EINVAL; else p->heap.peak_reserved = p->heap.reserved;
        break;
    case NPU_POOL_USED_HIGH:
        if (value) st = NPU_EINVAL; else p->heap.peak_allocated = p->heap.allocated;
        break;
    default: st = NPU_EINVAL; break;
    }
    pthread_mutex_unlock(&dm->lock);
    return st;
}
