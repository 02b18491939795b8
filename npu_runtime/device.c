/*
 * device.c - emulated NPU devices: how many there are, which are visible, their properties,
 * the current device of each host thread, and each device's error state.
 *
 * Start-up (npu_init) runs once per process under pthread_once, reads the environment and
 * fills a small static table; it starts no thread and touches no device memory, so calling it
 * from every API entry point costs one predictable branch after the first call.
 *
 *   TRANSFER_TO_NPU_DEVICES  physical devices (default 1, at most NPU_MAX_DEVICES)
 *   CUDA_VISIBLE_DEVICES     filters and renumbers them, then
 *   ASCEND_RT_VISIBLE_DEVICES filters and renumbers the result again.
 * A visibility list is comma-separated ordinals (or "GPU-"/"NPU-" + a prefix of a device's
 * uuid in hex); as in CUDA, the first invalid entry (not a number, out of range, a repeat)
 * ends the list, and a set-but-empty variable hides every device.
 *
 * Error state per visible device: `sticky` holds the first sticky async fault (kept until
 * npu_device_clear_error, i.e. until reset); `pending` holds the first non-sticky async error
 * not yet reported; peek(dev, clear=1) hands it out once, and otherwise returns the sticky
 * fault (never cleared by peek). Both are atomics: set from stream workers, read from any
 * host thread, no lock.
 */
#include "npu.h"
#include "npu_obs.h"  /* observability (npu_obs.h) */

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define NPU_MAX_DEVICES 64

static struct {
    int nphys;                      /* physical devices */
    int nvis;                       /* visible devices */
    int phys_of[NPU_MAX_DEVICES];   /* visible ordinal -> physical id */
    npu_device_props_t props[NPU_MAX_DEVICES];
} g_dev;

static _Atomic int g_sticky[NPU_MAX_DEVICES];
static _Atomic size_t g_stack_limit[NPU_MAX_DEVICES];   /* 0: CUDA's default, 1024 */
static _Atomic int g_pending[NPU_MAX_DEVICES];

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static _Atomic int g_ready;
static __thread int t_current;

/* Deterministic, distinct uuid per physical device (stable across runs, like real boards):
 * FNV-1a over a fixed namespace and the physical id, stamped as an RFC 4122 version-4 uuid. */
static void make_uuid(int phys, unsigned char out[16])
{
    uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
    const char *ns = "transfer_to_npu emulated NPU";
    for (const char *c = ns; *c; c++) {
        h1 = (h1 ^ (unsigned char)*c) * 1099511628211ull;
        h2 = (h2 ^ (unsigned char)*c) * 0x100000001b3ull + 0x7f4a7c15;
    }
    for (int i = 0; i < 4; i++) {
        h1 = (h1 ^ (unsigned)((phys >> (8 * i)) & 0xff)) * 1099511628211ull;
        h2 = (h2 ^ (unsigned)((phys >> (8 * i)) & 0xff)) * 0x100000001b3ull + 0x7f4a7c15;
    }
    h2 ^= h1 >> 29;
    memcpy(out, &h1, 8);
    memcpy(out + 8, &h2, 8);
    out[6] = (unsigned char)((out[6] & 0x0f) | 0x40);
    out[8] = (unsigned char)((out[8] & 0x3f) | 0x80);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    c = tolower(c);
    return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* "GPU-xxxxxxxx-..." : the physical device whose uuid starts with those hex digits (dashes
 * ignored), -1 if none or ambiguous. `cand` lists the candidate physical ids. */
static int match_uuid(const char *s, size_t len, const int *cand, int ncand)
{
    int found = -1;
    for (int k = 0; k < ncand; k++) {
        unsigned char u[16];
        make_uuid(cand[k], u);
        size_t nib = 0, i;
        int ok = 1;
        for (i = 0; i < len && ok; i++) {
            if (s[i] == '-')
                continue;
            int v = hexval((unsigned char)s[i]);
            if (v < 0 || nib >= 32) { ok = 0; break; }
            int want = (nib & 1) ? (u[nib / 2] & 0xf) : (u[nib / 2] >> 4);
            ok = (v == want);
            nib++;
        }
        if (ok && nib > 0) {
            if (found >= 0)
                return -1;
            found = k;
        }
    }
    return found;
}

/* Applies one visibility list to `ids` (n entries) in place; returns the new count. */
static int apply_visible(const char *list, int *ids, int n)
{
    int out[NPU_MAX_DEVICES], nout = 0;
    const char *p = list;
    while (*p && nout < NPU_MAX_DEVICES) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *e = p;
        while (*e && *e != ',')
            e++;
        const char *t = e;
        while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        size_t len = (size_t)(t - p);
        int idx = -1;
        if (len > 0 && isdigit((unsigned char)p[0])) {
            long v = 0;
            size_t i;
            for (i = 0; i < len && isdigit((unsigned char)p[i]) && v < 100000; i++)
                v = v * 10 + (p[i] - '0');
            if (i == len && v < n)
                idx = (int)v;
        } else if (len > 4 && (!strncasecmp(p, "GPU-", 4) || !strncasecmp(p, "NPU-", 4))) {
            idx = match_uuid(p + 4, len - 4, ids, n);
        }
        if (idx < 0)
            break;
        for (int k = 0; k < nout; k++)
            if (out[k] == ids[idx])
                idx = -1;
        if (idx < 0)
            break;
        out[nout++] = ids[idx];
        if (!*e)
            break;
        p = e + 1;
    }
    memcpy(ids, out, sizeof(int) * (size_t)nout);
    return nout;
}

static size_t default_capacity(int nphys)
{
    long long mem = npu_env_ll("TRANSFER_TO_NPU_MEMORY", 0);
    if (mem > 0)    /* at least one 2 MiB granule of the allocator */
        return (size_t)mem < ((size_t)2 << 20) ? (size_t)2 << 20 : (size_t)mem;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    size_t ram = (pages > 0 && psz > 0) ? (size_t)pages * (size_t)psz : (size_t)8 << 30;
    return ram / 2 / (size_t)(nphys > 0 ? nphys : 1);
}

static void fill_props(npu_device_props_t *p, int phys, size_t capacity, int sms)
{
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "Ascend910B (transfer_to_npu emulated NPU)");
    make_uuid(phys, p->uuid);
    p->physical_id = phys;
    p->total_mem = capacity;
    p->multiprocessor_count = sms;
    p->max_threads_per_block = 1024;
    p->max_block_dim[0] = 1024; p->max_block_dim[1] = 1024; p->max_block_dim[2] = 64;
    p->max_grid_dim[0] = 2147483647; p->max_grid_dim[1] = 65535; p->max_grid_dim[2] = 65535;
    p->shared_mem_per_block = 48 * 1024;
    p->shared_mem_per_block_optin = 232448;     /* 227 KiB */
    p->shared_mem_per_sm = 233472;              /* 228 KiB: opt-in + 1 KiB reserved */
    p->regs_per_block = 65536;
    p->warp_size = 32;
    p->clock_rate_khz = 1410000;
    p->memory_clock_rate_khz = 1593000;
    p->memory_bus_width = 5120;
    p->l2_cache_size = 40 * 1024 * 1024;
    p->max_threads_per_sm = 2048;
    p->compute_major = 8;
    p->compute_minor = 0;
    p->total_const_mem = 65536;
    p->pci_bus_id = phys + 1;
    p->pci_device_id = 0;
    p->pci_domain_id = 0;
}

/* fork() after the runtime started: the child has none of the worker threads (streams, block
 * workers, the JIT, npu-smi), locks they held at the fork stay held forever, and device
 * memory is a copy the parent no longer shares. CUDA answers every call in such a child with
 * CUDA_ERROR_NOT_INITIALIZED, cuInit included (cudaErrorInitializationError from the
 * runtime), and programs rely on it to detect the fork (numba raises "CUDA initialized before
 * forking"); so does npu_init here, and the API layers check npu_forked() before touching
 * any state. A child forked before the runtime started has nothing to inherit and starts its
 * own. */
static volatile sig_atomic_t g_forked;

static void fork_child(void)
{
    g_forked = 1;
}

int npu_forked(void)
{
    return g_forked != 0;
}

static void device_init_once(void)
{
    long long n = npu_env_ll("TRANSFER_TO_NPU_DEVICES", 1);
    if (n < 0) n = 1;
    if (n > NPU_MAX_DEVICES) n = NPU_MAX_DEVICES;
    g_dev.nphys = (int)n;

    int ids[NPU_MAX_DEVICES], nids = g_dev.nphys;
    for (int i = 0; i < nids; i++)
        ids[i] = i;
    /* getenv, not npu_env: a set-but-empty list means "no devices". */
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    if (cvd)
        nids = apply_visible(cvd, ids, nids);
    const char *avd = getenv("ASCEND_RT_VISIBLE_DEVICES");
    if (avd)
        nids = apply_visible(avd, ids, nids);
    g_dev.nvis = nids;

    long long sms = npu_env_ll("TRANSFER_TO_NPU_THREADS", 0);
    if (sms <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        sms = c > 0 ? c : 1;
    }
    if (sms > 4096) sms = 4096;
    size_t cap = default_capacity(g_dev.nphys);
    for (int i = 0; i < nids; i++) {
        g_dev.phys_of[i] = ids[i];
        fill_props(&g_dev.props[i], ids[i], cap, (int)sms);
    }
    NPU_INFO("%d NPU device(s) visible of %d, %zu MiB each, %lld cores", g_dev.nvis,
             g_dev.nphys, cap >> 20, sms);
    pthread_atfork(NULL, NULL, fork_child);
    atomic_store_explicit(&g_ready, 1, memory_order_release);
    npu_obs_init();  /* observability (npu_obs.h) */
}

npu_status_t npu_init(void)
{
    if (__builtin_expect(g_forked, 0))
        return NPU_EFORKED;
    if (__builtin_expect(!atomic_load_explicit(&g_ready, memory_order_acquire), 0))
        pthread_once(&g_once, device_init_once);
    return g_dev.nvis > 0 ? NPU_OK : NPU_ENODEVICE;
}

int npu_runtime_started(void)
{
    return atomic_load_explicit(&g_ready, memory_order_acquire) != 0;
}

int npu_device_count(void)
{
    npu_init();
    return g_dev.nvis;
}

static inline int dev_ok(int dev)
{
    npu_init();
    return dev >= 0 && dev < g_dev.nvis;
}

npu_status_t npu_device_get_props(int dev, npu_device_props_t *out)
{
    if (!out)
        return NPU_EINVAL;
    if (!dev_ok(dev))
        return g_dev.nvis ? NPU_EDEVICE : NPU_ENODEVICE;
    *out = g_dev.props[dev];
    return NPU_OK;
}

npu_status_t npu_device_set_current(int dev)
{
    if (!dev_ok(dev))
        return g_dev.nvis ? NPU_EDEVICE : NPU_ENODEVICE;
    t_current = dev;
    return NPU_OK;
}

int npu_device_current(void)
{
    return t_current;
}

void npu_device_set_stack_limit(int dev, size_t bytes)
{
    if (dev_ok(dev))
        atomic_store_explicit(&g_stack_limit[dev], bytes, memory_order_release);
}

size_t npu_device_stack_limit(int dev)
{
    size_t v = dev_ok(dev) ? atomic_load_explicit(&g_stack_limit[dev], memory_order_acquire) : 0;
    return v ? v : 1024;
}

npu_status_t npu_device_error(int dev)
{
    if (!dev_ok(dev))
        return NPU_EDEVICE;
    return (npu_status_t)atomic_load_explicit(&g_sticky[dev], memory_order_acquire);
}

void npu_device_set_error(int dev, npu_status_t s)
{
    if (!dev_ok(dev) || s == NPU_OK || (unsigned)s >= NPU_STATUS_COUNT)
        return;
    int expect = NPU_OK;
    if (npu_status_is_sticky(s)) {
        if (atomic_compare_exchange_strong(&g_sticky[dev], &expect, (int)s))
            NPU_ERR("device %d: %s (%s); the device stays unusable until reset", dev,
                    npu_status_name(s), npu_status_message(s));
    } else {
        atomic_compare_exchange_strong(&g_pending[dev], &expect, (int)s);
    }
}

void npu_device_clear_error(int dev)
{
    if (!dev_ok(dev))
        return;
    atomic_store(&g_sticky[dev], NPU_OK);
    atomic_store(&g_pending[dev], NPU_OK);
}

npu_status_t npu_device_peek_async_error(int dev, int clear)
{
    if (!dev_ok(dev))
        return NPU_EDEVICE;
    npu_status_t st = clear ? (npu_status_t)atomic_exchange(&g_pending[dev], NPU_OK)
                            : (npu_status_t)atomic_load(&g_pending[dev]);
    if (st != NPU_OK)
        return st;
    /* A sticky fault is reported by every later call, as cudaGetLastError does on a GPU. */
    return (npu_status_t)atomic_load_explicit(&g_sticky[dev], memory_order_acquire);
}
