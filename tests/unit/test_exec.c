/*
 * test_exec.c - the grid executor (npu_exec_grid) with hand-written kernels that follow
 * npu_kabi.h, as the translator would emit them: block mode (one call per block) and thread
 * mode (one call per thread, on fibers). Every result is checked against a host computation
 * written from the CUDA-level semantics (not from the executor's own formulas).
 * Runs with 4 block runners on whatever cores there are, to exercise the pool.
 */
#include "npu_runtime/kernel/npu_kernel.h"
#include "npu_runtime/kernel/exec_internal.h"
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The test's own kernel objects: npu_kfunc_t is opaque to exec.c, which only asks
 * npu_kfunc_info() for the entry points and layout. */
struct npu_kfunc {
    npu_kfunc_info_t info;
};
npu_kfunc_info_t *npu_kfunc_info(npu_kfunc_t *f)
{
    return f ? &f->info : NULL;
}

static npu_kfunc_t kblock(const char *name, npu_kblock_fn fn)
{
    npu_kfunc_t k;
    memset(&k, 0, sizeof k);
    k.info.name = name;
    k.info.block_fn = fn;
    return k;
}

static npu_kfunc_t kthread(const char *name, npu_kthread_fn fn, uint32_t static_shared)
{
    npu_kfunc_t k;
    memset(&k, 0, sizeof k);
    k.info.name = name;
    k.info.thread_fn = fn;
    k.info.uses_sync = 1;
    k.info.static_shared = static_shared;
    return k;
}

static npu_status_t run(npu_kfunc_t *k, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                        uint32_t by, uint32_t bz, size_t dyn, const void *params)
{
    uint32_t g[3] = { gx, gy, gz }, b[3] = { bx, by, bz };
    return npu_exec_grid(k, g, b, dyn, params);
}

#define P(type, params, off) (*(type const *)((params) + (off)))

/* ------------------------------------------------------------ block mode ---- */
/* params: float *a, float *b, float *c, int n */
static void k_vadd(npu_bctx_t *b, const uint8_t *p)
{
    const float *x = P(float *, p, 0), *y = P(float *, p, 8);
    float *z = P(float *, p, 16);
    int n = P(int, p, 24);
    for (uint32_t tx = 0; tx < b->ntid[0]; tx++) {
        long i = (long)b->ctaid[0] * b->ntid[0] + tx;
        if (i < n)
            z[i] = x[i] + y[i];
    }
}

/* Block k waits for flag[k-1] (set by block k-1) then sets flag[k] = flag[k-1] + 1. */
static void k_chain(npu_bctx_t *b, const uint8_t *p)
{
    _Atomic int *flag = P(_Atomic int *, p, 0);
    uint32_t k = b->ctaid[0] + b->nctaid[0] * (b->ctaid[1] + b->nctaid[1] * b->ctaid[2]);
    int prev = 0;
    if (k > 0)
        while ((prev = atomic_load(&flag[k - 1])) == 0)
            ;
    atomic_store(&flag[k], prev + 1);
}

/* params: int *out; records ctaid and nctaid of each block, and block dims */
static void k_ids(npu_bctx_t *b, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    uint32_t k = b->ctaid[0] + b->nctaid[0] * (b->ctaid[1] + b->nctaid[1] * b->ctaid[2]);
    out[k * 4 + 0] = (int)b->ctaid[0];
    out[k * 4 + 1] = (int)b->ctaid[1];
    out[k * 4 + 2] = (int)b->ctaid[2];
    out[k * 4 + 3] = (int)(b->nthreads == b->ntid[0] * b->ntid[1] * b->ntid[2]);
}

/* block 3 traps (block mode); others count */
static void k_trap_block(npu_bctx_t *b, const uint8_t *p)
{
    _Atomic int *cnt = P(_Atomic int *, p, 0);
    if (b->ctaid[0] == 3) {
        npu_tctx_t t = { .b = b, .tid = { 7, 0, 0 } };
        b->rt->trap(&t);
    }
    atomic_fetch_add(cnt, 1);
}

static void k_fault_block(npu_bctx_t *b, const uint8_t *p)
{
    npu_tctx_t t = { .b = b, .tid = { 1, 0, 0 } };
    b->rt->fault(&t, NPU_FAULT_ILLEGAL_ADDRESS, 0xdead0, "st.global.u32");
}

static void k_assert_block(npu_bctx_t *b, const uint8_t *p)
{
    npu_tctx_t t = { .b = b, .tid = { 2, 0, 0 } };
    if (b->ctaid[0] == 1)
        b->rt->assertfail(&t, "x == 0", "k.cu", 12, "void k(int*)");
}

/* dynamic shared memory: each thread writes its id, then reads its neighbour's; no barrier
 * needed in block mode because the loop runs threads in order (two passes) */
static void k_shared_block(npu_bctx_t *b, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    int *sh = (int *)(b->shared + b->dyn_shared_offset);
    uint32_t n = b->ntid[0];
    for (uint32_t t = 0; t < n; t++)
        sh[t] = (int)(t * 3 + b->ctaid[0]);
    for (uint32_t t = 0; t < n; t++)
        out[b->ctaid[0] * n + t] = sh[(t + 1) % n];
}

/* device printf, malloc, clock64 */
static void k_lib(npu_bctx_t *b, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    npu_tctx_t t = { .b = b };
    struct { int i; double d; const char *s; } args = { (int)b->ctaid[0], 2.5, "xy" };
    if (b->rt->vprintf(&t, "blk %d %.2f %s\n", &args) != 3)
        out[0] = -1;
    int *m = b->rt->malloc(&t, 64);
    if (m) {
        m[15] = 7;
        out[1] = m[15];
        b->rt->free(&t, m);
    }
    uint64_t c0 = b->rt->clock64(&t), c1 = b->rt->clock64(&t);
    out[2] = c1 >= c0;
    uint64_t g0 = b->rt->globaltimer(&t);
    out[3] = g0 > 1000000000ull * 1600000000ull / 1000000000ull;
}

/* ----------------------------------------------------------- thread mode ---- */
/* Shared-memory tree reduction with a barrier inside a loop. params: float *in, float *out.
 * Dynamic shared: ntid floats. */
static void t_reduce(npu_tctx_t *t, const uint8_t *p)
{
    const float *in = P(float *, p, 0);
    float *out = P(float *, p, 8);
    npu_bctx_t *b = t->b;
    float *sh = (float *)(b->shared + b->dyn_shared_offset);
    uint32_t n = b->nthreads, i = t->linear;
    sh[i] = in[b->ctaid[0] * n + i];
    b->rt->bar_sync(t, 0, 0);
    for (uint32_t s = 1; s < n; s *= 2) {
        float v = (i % (2 * s) == 0 && i + s < n) ? sh[i + s] : 0.0f;
        b->rt->bar_sync(t, 0, 0);
        sh[i] += v;
        b->rt->bar_sync(t, 0, 0);
    }
    if (i == 0)
        out[b->ctaid[0]] = sh[0];
}

/* shfl in all modes and widths. params: int *out (per thread 16 results + 16 preds) */
static const uint32_t widths[4] = { 32, 16, 8, 4 };
static void t_shfl(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    const npu_krt_t *rt = t->b->rt;
    uint32_t v = 1000 + t->linear;
    int *o = out + t->linear * 32;
    for (int wi = 0; wi < 4; wi++) {
        uint32_t w = widths[wi], seg = (32 - w) << 8;
        uint32_t pr;
        o[wi * 4 + 0] = (int)rt->shfl(t, NPU_SHFL_UP, v, 3, seg, 0xffffffffu, &pr);
        o[16 + wi * 4 + 0] = (int)pr;
        o[wi * 4 + 1] = (int)rt->shfl(t, NPU_SHFL_DOWN, v, 2, seg | 0x1f, 0xffffffffu, &pr);
        o[16 + wi * 4 + 1] = (int)pr;
        o[wi * 4 + 2] = (int)rt->shfl(t, NPU_SHFL_BFLY, v, 5 % w, seg | 0x1f, 0xffffffffu, &pr);
        o[16 + wi * 4 + 2] = (int)pr;
        o[wi * 4 + 3] = (int)rt->shfl(t, NPU_SHFL_IDX, v, 6, seg | 0x1f, 0xffffffffu, &pr);
        o[16 + wi * 4 + 3] = (int)pr;
    }
}

/* Reference from CUDA's documented __shfl_*_sync(mask, v, x, width) behaviour. */
static void ref_shfl(uint32_t lin, uint32_t nthreads, int *o)
{
    uint32_t lane = lin % 32, warp_base = lin - lane;
    for (int wi = 0; wi < 4; wi++) {
        uint32_t w = widths[wi];
        uint32_t seg_start = lane / w * w;
        int src[4], ok[4];
        /* up by 3: source lane - 3 if still in the segment, else own value */
        src[0] = (int)lane - 3 >= (int)seg_start ? (int)lane - 3 : (int)lane;
        ok[0] = (int)lane - 3 >= (int)seg_start;
        /* down by 2 */
        src[1] = lane + 2 < seg_start + w ? (int)lane + 2 : (int)lane;
        ok[1] = lane + 2 < seg_start + w;
        /* xor 5 % w: stays in the segment */
        src[2] = (int)(lane ^ (5 % w));
        ok[2] = 1;
        /* idx 6: lane 6 % w of the segment */
        src[3] = (int)(seg_start + 6 % w);
        ok[3] = 1;
        for (int m = 0; m < 4; m++) {
            uint32_t s = warp_base + (uint32_t)src[m];
            /* a source past the end of a partial warp is inactive: undefined, marked -1 */
            o[wi * 4 + m] = s < nthreads ? (int)(1000 + s) : -1;
            o[16 + wi * 4 + m] = ok[m];
        }
    }
}

/* vote with divergent predicates and masks. params: int *out (8 per thread) */
static void t_vote(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0) + t->linear * 8;
    const npu_krt_t *rt = t->b->rt;
    uint32_t lane = t->lane;
    uint32_t pred = (t->linear % 3) == 0;
    out[0] = (int)rt->vote(t, NPU_VOTE_BALLOT, pred, 0xffffffffu);
    out[1] = (int)rt->vote(t, NPU_VOTE_ALL, lane < 40, 0xffffffffu);
    out[2] = (int)rt->vote(t, NPU_VOTE_ANY, lane == 7, 0xffffffffu);
    out[3] = (int)rt->vote(t, NPU_VOTE_UNI, pred, 0xffffffffu);
    if (lane < 20) {            /* divergent: two groups with their own masks */
        out[4] = (int)rt->vote(t, NPU_VOTE_BALLOT, lane & 1, 0x000fffffu);
        out[5] = (int)rt->vote(t, NPU_VOTE_ALL, lane < 19, 0x000fffffu);
    } else {
        out[4] = (int)rt->vote(t, NPU_VOTE_BALLOT, lane % 4 == 0, 0xfff00000u);
        out[5] = (int)rt->vote(t, NPU_VOTE_ANY, lane == 31, 0xfff00000u);
    }
    /* activemask names the lanes that have not exited: all of them until the barrier */
    rt->warp_sync(t, 0xffffffffu);
    out[6] = (int)rt->activemask(t, 1);
    rt->bar_sync(t, 0, 0);
}

/* match.any / match.all and redux. params: int *out (8 per thread) */
static void t_match_redux(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0) + t->linear * 12;
    const npu_krt_t *rt = t->b->rt;
    uint32_t lane = t->lane, pr = 9;
    uint64_t key = (uint64_t)(lane % 5) << 40 | 17;
    out[0] = (int)rt->match_any(t, key, 0xffffffffu);
    out[1] = (int)rt->match_all(t, key, 0xffffffffu, &pr);
    out[2] = (int)pr;
    out[3] = (int)rt->match_all(t, 42, 0xffffffffu, &pr);
    out[4] = (int)pr;
    int32_t v = (int32_t)(lane * 7 % 11) - 5;
    for (int op = 0; op < 8; op++)
        out[4 + op] = (int)rt->redux(t, op, (uint32_t)v, 0xffffffffu);
}

/* bar.red popc/and/or and bar.arrive producer/consumer. params: int *out (4 per block) */
static void t_barred(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    const npu_krt_t *rt = t->b->rt;
    uint32_t i = t->linear;
    uint32_t c = rt->bar_red(t, 0, 0, NPU_BARRED_POPC, i % 5 == 0);
    uint32_t a = rt->bar_red(t, 0, 0, NPU_BARRED_AND, i < 1000);
    uint32_t o = rt->bar_red(t, 0, 0, NPU_BARRED_OR, i == 77);
    uint32_t a2 = rt->bar_red(t, 0, 0, NPU_BARRED_AND, i != 77);
    int *r = out + 32 + 4 * i;          /* every thread must see the same results */
    r[0] = (int)c; r[1] = (int)a; r[2] = (int)o; r[3] = (int)a2;
    /* producer/consumer on barrier 1 with a count of 64: warp 0 produces, warp 1 consumes */
    int *sh = (int *)t->b->shared;
    if (t->warp == 0) {
        sh[t->lane] = (int)(t->lane * t->lane);
        rt->bar_arrive(t, 1, 64);
    } else if (t->warp == 1) {
        rt->bar_sync(t, 1, 64);
        out[t->lane] = sh[31 - t->lane];
    }
}

/* activemask after early exits: lanes < 10 leave, the rest sync and ask */
static void t_active(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    if (t->lane < 10)
        return;
    t->b->rt->warp_sync(t, 0xffffffffu);
    out[t->linear] = (int)t->b->rt->activemask(t, 1);
    /* exited threads count as arrived at a block-wide barrier */
    t->b->rt->bar_sync(t, 0, 0);
    out[t->linear] |= 0;
}

/* activemask in divergent code: the lanes of each branch (two sites), then again after
 * the branches join (every live lane); lanes with lane % 5 == 4 exit first. The site is the
 * id the translator passes, not the call's address: the last call is reached at one site
 * from either branch, and a call gcc duplicated onto two paths keeps one site. */
static void t_active_div(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0) + t->linear * 2;
    const npu_krt_t *rt = t->b->rt;
    if (t->lane % 5 == 4)
        return;
    if (t->lane % 3 == 0)
        out[0] = (int)rt->activemask(t, 10);
    else if (t->lane % 3 == 1)
        out[0] = (int)(rt->activemask(t, 11) ^ 0x5a5a5a5au);
    rt->warp_sync(t, 0xffffffffu);
    if (t->lane & 1)            /* one site reached through two call instructions */
        out[1] = (int)rt->activemask(t, 12);
    else
        out[1] = (int)rt->activemask(t, 12);
    rt->bar_sync(t, 0, 0);
}

/* device printf from many threads of many blocks, with a barrier in between */
static void t_printf(npu_tctx_t *t, const uint8_t *p)
{
    /* CUDA's packing: the pointer at 0, two u32 at 8 and 12, the double at 16 */
    struct { const char *s; uint32_t b, t; double x; } a = { "line", t->b->ctaid[0], t->linear,
                                                             t->linear * 0.5 };
    t->b->rt->vprintf(t, "%s block %u thread %u value %.1f\n", &a);
    t->b->rt->bar_sync(t, 0, 0);
}

/* deadlocks: thread 0 waits on barrier 0, the others on barrier 1 */
static void t_deadlock_bar(npu_tctx_t *t, const uint8_t *p)
{
    t->b->rt->bar_sync(t, t->linear == 0 ? 0 : 1, 0);
}

/* lane 0 waits in a shuffle for lanes that wait at a barrier */
static void t_deadlock_warp(npu_tctx_t *t, const uint8_t *p)
{
    if (t->lane == 0)
        t->b->rt->shfl(t, NPU_SHFL_IDX, 1, 0, 0x1f, 0xffffffffu, NULL);
    else
        t->b->rt->bar_sync(t, 0, 0);
}

/* thread 5 of block 2 traps while the others wait at a barrier */
static void t_trap(npu_tctx_t *t, const uint8_t *p)
{
    _Atomic int *cnt = P(_Atomic int *, p, 0);
    if (t->b->ctaid[0] == 2 && t->linear == 5)
        t->b->rt->trap(t);
    t->b->rt->bar_sync(t, 0, 0);
    atomic_fetch_add(cnt, 1);
}

static void t_assert(npu_tctx_t *t, const uint8_t *p)
{
    if (t->linear == 33)
        t->b->rt->assertfail(t, "i < n", "t.cu", 5, "kern");
    t->b->rt->bar_sync(t, 0, 0);
}

/* thread-mode chain: thread 0 of block k spins on block k-1's flag, then a barrier */
static void t_chain(npu_tctx_t *t, const uint8_t *p)
{
    _Atomic int *flag = P(_Atomic int *, p, 0);
    uint32_t k = t->b->ctaid[0];
    if (t->linear == 0 && k > 0)
        while (atomic_load(&flag[k - 1]) == 0)
            ;
    t->b->rt->bar_sync(t, 0, 0);
    if (t->linear == t->b->nthreads - 1)
        atomic_store(&flag[k], 1);
}

/* 3D block ids in thread mode. params: int *out (4 per thread) */
static void t_ids(npu_tctx_t *t, const uint8_t *p)
{
    int *out = P(int *, p, 0) + t->linear * 4;
    out[0] = (int)t->tid[0];
    out[1] = (int)t->tid[1];
    out[2] = (int)t->tid[2];
    out[3] = (int)(t->lane + 32 * t->warp);
    t->b->rt->bar_sync(t, 0, 0);
}

/* a deep local frame on the fiber stack */
static void t_stack(npu_tctx_t *t, const uint8_t *p)
{
    volatile char buf[40000];
    for (size_t i = 0; i < sizeof buf; i += 512)
        buf[i] = (char)i;
    t->b->rt->bar_sync(t, 0, 0);
    int *out = P(int *, p, 0);
    out[t->linear] = buf[512 * 3] == (char)(512 * 3);
}

/* ------------------------------------------------- concurrent grids, nesting ---- */
static _Atomic int conc_bad;

static void *conc_thread(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int it = 0; it < 30; it++) {
        if ((it + id) % 2 == 0) {
            int n = 5000 + id * 101 + it;
            float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = calloc(n, sizeof *c);
            for (int i = 0; i < n; i++) { a[i] = (float)(i + id); b[i] = (float)it; }
            uint8_t params[32];
            memcpy(params, &a, 8); memcpy(params + 8, &b, 8); memcpy(params + 16, &c, 8);
            memcpy(params + 24, &n, 4);
            npu_kfunc_t k = kblock("vadd", k_vadd);
            if (run(&k, (n + 63) / 64, 1, 1, 64, 1, 1, 0, params) != NPU_OK)
                atomic_fetch_add(&conc_bad, 1);
            for (int i = 0; i < n; i++)
                if (c[i] != (float)(i + id + it)) { atomic_fetch_add(&conc_bad, 1); break; }
            free(a); free(b); free(c);
        } else {
            uint32_t nt = 96, nb = 17;
            float *in = malloc(nt * nb * sizeof *in), *out = calloc(nb, sizeof *out);
            for (uint32_t i = 0; i < nt * nb; i++)
                in[i] = (float)((i + (uint32_t)id) % 13);
            uint8_t params[16];
            memcpy(params, &in, 8); memcpy(params + 8, &out, 8);
            npu_kfunc_t k = kthread("reduce", t_reduce, 0);
            if (run(&k, nb, 1, 1, nt, 1, 1, nt * sizeof(float), params) != NPU_OK)
                atomic_fetch_add(&conc_bad, 1);
            for (uint32_t b = 0; b < nb; b++) {
                float ref = 0;
                for (uint32_t i = 0; i < nt; i++)
                    ref += in[b * nt + i];
                if (out[b] != ref) { atomic_fetch_add(&conc_bad, 1); break; }
            }
            free(in); free(out);
        }
    }
    return NULL;
}

/* a kernel that runs a grid itself (a native-override fallback does this) */
static void k_nested(npu_bctx_t *b, const uint8_t *p)
{
    int *out = P(int *, p, 0);
    int n = 300;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = calloc(n, sizeof *z);
    for (int i = 0; i < n; i++) { x[i] = (float)i; y[i] = 1; }
    uint8_t params[32];
    memcpy(params, &x, 8); memcpy(params + 8, &y, 8); memcpy(params + 16, &z, 8);
    memcpy(params + 24, &n, 4);
    npu_kfunc_t k = kblock("vadd_inner", k_vadd);
    out[b->ctaid[0]] = run(&k, 10, 1, 1, 32, 1, 1, 0, params) == NPU_OK && z[n - 1] == (float)n;
    free(x); free(y); free(z);
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_THREADS", "4", 0);
    setenv("TRANSFER_TO_NPU_LOG", "off", 0);

    /* --- block mode: vector add over many blocks --- */
    {
        int n = 100003;
        float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = calloc(n, sizeof *c);
        for (int i = 0; i < n; i++) { a[i] = (float)i; b[i] = (float)(2 * i + 1); }
        uint8_t params[32];
        memcpy(params, &a, 8); memcpy(params + 8, &b, 8); memcpy(params + 16, &c, 8);
        memcpy(params + 24, &n, 4);
        npu_kfunc_t k = kblock("vadd", k_vadd);
        CHECK_EQ(run(&k, (n + 255) / 256, 1, 1, 256, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += c[i] != (float)(3 * i + 1);
        CHECK_EQ(bad, 0);
        free(a); free(b); free(c);
    }
    /* --- block ids in a 3D grid --- */
    {
        int nb = 5 * 3 * 2, *out = calloc(nb * 4, sizeof *out);
        npu_kfunc_t k = kblock("ids", k_ids);
        uint8_t params[8];
        memcpy(params, &out, 8);
        CHECK_EQ(run(&k, 5, 3, 2, 4, 2, 3, 0, params), NPU_OK);
        int bad = 0;
        for (int z = 0; z < 2; z++) for (int y = 0; y < 3; y++) for (int x = 0; x < 5; x++) {
            int *o = out + ((z * 3 + y) * 5 + x) * 4;
            bad += o[0] != x || o[1] != y || o[2] != z || o[3] != 1;
        }
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- blocks start in increasing order: a chain of spin-waits completes --- */
    for (int rep = 0; rep < 3; rep++) {
        int nb = 3000;
        _Atomic int *flag = calloc(nb, sizeof *flag);
        uint8_t params[8];
        memcpy(params, &flag, 8);
        npu_kfunc_t k = kblock("chain", k_chain);
        CHECK_EQ(run(&k, nb / 10, 5, 2, 32, 1, 1, 0, params), NPU_OK);
        CHECK_EQ(atomic_load(&flag[nb - 1]), nb);
        free(flag);
    }
    /* --- dynamic shared memory in block mode --- */
    {
        int nb = 7, nt = 100, *out = calloc(nb * nt, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kblock("shared", k_shared_block);
        k.info.static_shared = 20;
        CHECK_EQ(run(&k, nb, 1, 1, nt, 1, 1, nt * 4, params), NPU_OK);
        int bad = 0;
        for (int b = 0; b < nb; b++)
            for (int t = 0; t < nt; t++)
                bad += out[b * nt + t] != ((t + 1) % nt) * 3 + b;
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- trap, illegal address and assert abandon the grid; the next launch works --- */
    {
        _Atomic int cnt = 0;
        _Atomic int *pc = &cnt;
        uint8_t params[8];
        memcpy(params, &pc, 8);
        npu_kfunc_t k = kblock("trapper", k_trap_block);
        CHECK_EQ(run(&k, 64, 1, 1, 1, 1, 1, 0, params), NPU_ELAUNCHFAIL);
        CHECK(atomic_load(&cnt) < 64);
        npu_kfunc_t kf = kblock("faulter", k_fault_block);
        CHECK_EQ(run(&kf, 3, 1, 1, 1, 1, 1, 0, params), NPU_EILLEGALADDR);
        npu_kfunc_t ka = kblock("asserter", k_assert_block);
        CHECK_EQ(run(&ka, 3, 1, 1, 1, 1, 1, 0, params), NPU_EASSERT);
        atomic_store(&cnt, 0);
        CHECK_EQ(run(&k, 3, 1, 1, 1, 1, 1, 0, params), NPU_OK);     /* no block 3: no trap */
        CHECK_EQ(atomic_load(&cnt), 3);
    }
    /* --- the device printf formatter against the host printf --- */
    {
        uint8_t buf[256];
        size_t off = 0;
#define PUT(v) do { __typeof__(v) v_ = (v); off = (off + sizeof v_ - 1) & ~(sizeof v_ - 1); \
                    memcpy(buf + off, &v_, sizeof v_); off += sizeof v_; } while (0)
        const char *str = "hello";
        void *ptr = (void *)0x1234;
        PUT((int)-42); PUT((int)7); PUT((unsigned)3000000000u); PUT((int)255); PUT((int)255);
        PUT((int)8); PUT((int)'Z'); PUT(str); PUT(3.14159); PUT(1e-5); PUT(0.0001234);
        PUT((long)-5000000000l); PUT((long long)123456789012ll); PUT((unsigned long long)~0ull);
        PUT((long)0xabcdef12345l); PUT(2.5); PUT((int)9); PUT((int)6); PUT((int)33);
        PUT((int)3); PUT(str); PUT(ptr); PUT((int)(short)-3);
        const char *fmt = "%d|%5i|%-11u|%x|%X|%o|%c|%s|%.3f|%e|%g|%ld|%lld|%llu|%lx|%08.3f|%+d|"
                          "%%|%*d|%.*s|%p|%hd|end\n";
        char *got;
        size_t len;
        int32_t nargs = npu_exec_format(fmt, buf, &got, &len);
        char want[512];
        snprintf(want, sizeof want, fmt, -42, 7, 3000000000u, 255, 255, 8, 'Z', str, 3.14159,
                 1e-5, 0.0001234, -5000000000l, 123456789012ll, ~0ull, 0xabcdef12345l, 2.5, 9,
                 6, 33, 3, str, ptr, (short)-3);
        CHECK_EQ(nargs, 23);
        CHECK_MSG(got && strcmp(got, want) == 0, "got '%s' want '%s'", got, want);
        CHECK_EQ(len, strlen(want));
        free(got);
        CHECK_EQ(npu_exec_format(NULL, buf, &got, &len), -1);
        CHECK_EQ(npu_exec_format("plain %% text", NULL, &got, &len), 0);
        CHECK(got && strcmp(got, "plain % text") == 0);
        free(got);
        CHECK_EQ(npu_exec_format("dangling %", NULL, &got, &len), 0);
        CHECK(got && strcmp(got, "dangling %") == 0);
        free(got);
        CHECK_EQ(npu_exec_format("%s|%q", (const uint8_t[8]){ 0 }, &got, &len), 1);
        CHECK(got && strncmp(got, "(null)|", 7) == 0);
        free(got);
#undef PUT
    }
    /* --- device library calls: printf (checked through the formatter), malloc, clocks --- */
    {
        int out[4] = { 0 }, *po = out;
        uint8_t params[8];
        memcpy(params, &po, 8);
        npu_kfunc_t k = kblock("lib", k_lib);
        fflush(stdout);
        CHECK_EQ(run(&k, 1, 1, 1, 1, 1, 1, 0, params), NPU_OK);
        fflush(stdout);
        CHECK_EQ(out[0], 0);
        CHECK_EQ(out[1], 7);
        CHECK_EQ(out[2], 1);
        CHECK_EQ(out[3], 1);
    }
    /* --- thread mode: reduction with a barrier in a loop, odd sizes --- */
    {
        uint32_t sizes[] = { 1, 31, 48, 128, 1000, 1024 };
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            uint32_t nt = sizes[si], nb = 9;
            float *in = malloc(nt * nb * sizeof *in), *out = calloc(nb, sizeof *out);
            for (uint32_t i = 0; i < nt * nb; i++)
                in[i] = (float)((i * 37) % 101) - 50.0f;
            uint8_t params[16];
            memcpy(params, &in, 8); memcpy(params + 8, &out, 8);
            npu_kfunc_t k = kthread("reduce", t_reduce, 0);
            CHECK_EQ(run(&k, nb, 1, 1, nt, 1, 1, nt * sizeof(float), params), NPU_OK);
            for (uint32_t b = 0; b < nb; b++) {
                double ref = 0;
                for (uint32_t i = 0; i < nt; i++)
                    ref += in[b * nt + i];
                CHECK_NEAR(out[b], ref, 1e-3);
            }
            free(in); free(out);
        }
    }
    /* --- 3D thread ids --- */
    {
        uint32_t n = 8 * 4 * 3;
        int *out = calloc(n * 4, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("tids", t_ids, 0);
        CHECK_EQ(run(&k, 2, 1, 1, 8, 4, 3, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < n; i++)
            bad += out[i * 4] != (int)(i % 8) || out[i * 4 + 1] != (int)(i / 8 % 4) ||
                   out[i * 4 + 2] != (int)(i / 32) || out[i * 4 + 3] != (int)i;
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- shfl, full and partial warps (blockDim 48 and 64) --- */
    {
        uint32_t dims[] = { 48, 64 };
        for (int di = 0; di < 2; di++) {
            uint32_t nt = dims[di];
            int *out = calloc(nt * 32, sizeof *out), ref[32];
            uint8_t params[8];
            memcpy(params, &out, 8);
            npu_kfunc_t k = kthread("shfl", t_shfl, 0);
            CHECK_EQ(run(&k, 2, 1, 1, nt, 1, 1, 0, params), NPU_OK);
            int bad = 0;
            for (uint32_t i = 0; i < nt; i++) {
                ref_shfl(i, nt, ref);
                for (int m = 0; m < 32; m++)
                    if (ref[m] != -1 && out[i * 32 + m] != ref[m]) {
                        if (bad < 5)
                            fprintf(stderr, "shfl thread %u item %d: %d, want %d\n", i, m,
                                    out[i * 32 + m], ref[m]);
                        bad++;
                    }
            }
            CHECK_EQ(bad, 0);
            free(out);
        }
    }
    /* --- vote and activemask, partial warp (48 threads) --- */
    {
        uint32_t nt = 48;
        int *out = calloc(nt * 8, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("vote", t_vote, 0);
        CHECK_EQ(run(&k, 1, 1, 1, nt, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t lane = i % 32, base = i - lane, ballot = 0, active = 0;
            for (uint32_t l = 0; l < 32 && base + l < nt; l++) {
                active |= 1u << l;
                if ((base + l) % 3 == 0)
                    ballot |= 1u << l;
            }
            uint32_t want[7];
            want[0] = ballot;
            want[1] = 1;                               /* every lane < 40 */
            want[2] = (active >> 7) & 1;
            want[3] = ballot == 0 || ballot == active;
            if (lane < 20) {
                uint32_t g = active & 0x000fffffu, bl = 0;
                for (uint32_t l = 0; l < 20; l++)
                    if ((g >> l & 1) && (l & 1))
                        bl |= 1u << l;
                want[4] = bl;
                int all = 1;
                for (uint32_t l = 0; l < 20; l++)
                    if ((g >> l & 1) && !(l < 19))
                        all = 0;
                want[5] = (uint32_t)all;
            } else {
                uint32_t g = active & 0xfff00000u, bl = 0;
                for (uint32_t l = 20; l < 32; l++)
                    if ((g >> l & 1) && l % 4 == 0)
                        bl |= 1u << l;
                want[4] = bl;
                want[5] = (g >> 31) & 1;
            }
            want[6] = active;
            for (int m = 0; m < 7; m++)
                if ((uint32_t)out[i * 8 + m] != want[m]) {
                    if (bad < 5)
                        fprintf(stderr, "vote thread %u item %d: %x, want %x\n", i, m,
                                out[i * 8 + m], want[m]);
                    bad++;
                }
        }
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- match and redux, full warps --- */
    {
        uint32_t nt = 64;
        int *out = calloc(nt * 12, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("match", t_match_redux, 0);
        CHECK_EQ(run(&k, 1, 1, 1, nt, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t lane = i % 32, same = 0;
            for (uint32_t l = 0; l < 32; l++)
                if (l % 5 == lane % 5)
                    same |= 1u << l;
            int32_t sum = 0, mn = INT32_MAX, mx = INT32_MIN;
            uint32_t umn = ~0u, umx = 0, an = ~0u, orr = 0, xr = 0;
            for (uint32_t l = 0; l < 32; l++) {
                int32_t v = (int32_t)(l * 7 % 11) - 5;
                sum += v; mn = v < mn ? v : mn; mx = v > mx ? v : mx;
                umn = (uint32_t)v < umn ? (uint32_t)v : umn;
                umx = (uint32_t)v > umx ? (uint32_t)v : umx;
                an &= (uint32_t)v; orr |= (uint32_t)v; xr ^= (uint32_t)v;
            }
            int *o = out + i * 12;
            bad += (uint32_t)o[0] != same;
            bad += o[1] != 0 || o[2] != 0;             /* keys differ: no match.all */
            bad += (uint32_t)o[3] != 0xffffffffu;      /* pred of match.all(42) overwritten */
            bad += o[4] != sum || o[5] != mn || o[6] != mx || (uint32_t)o[7] != umn ||
                   (uint32_t)o[8] != umx || (uint32_t)o[9] != an || (uint32_t)o[10] != orr ||
                   (uint32_t)o[11] != xr;
        }
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- bar.red and bar.arrive --- */
    {
        uint32_t nt = 200;
        int *out = calloc(32 + 4 * nt, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("barred", t_barred, 256);
        CHECK_EQ(run(&k, 1, 1, 1, nt, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < nt; i++) {
            int *r = out + 32 + 4 * i;
            bad += r[0] != 40 || r[1] != 1 || r[2] != 1 || r[3] != 0;  /* 40: i % 5 == 0 */
        }
        CHECK_EQ(bad, 0);
        bad = 0;
        for (int l = 0; l < 32; l++)
            bad += out[l] != (31 - l) * (31 - l);
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- activemask after early exits; exited threads count at a barrier --- */
    {
        uint32_t nt = 64;
        int *out = calloc(nt, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("active", t_active, 0);
        CHECK_EQ(run(&k, 1, 1, 1, nt, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < nt; i++)
            if (i % 32 >= 10)
                bad += (uint32_t)out[i] != 0xfffffc00u;
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- activemask in divergent branches (48 threads: a partial warp) --- */
    {
        uint32_t nt = 48;
        int *out = calloc(nt * 2, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("active_div", t_active_div, 0);
        CHECK_EQ(run(&k, 2, 1, 1, nt, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (uint32_t i = 0; i < nt; i++) {
            uint32_t lane = i % 32, base = i - lane, live = 0, br[3] = { 0, 0, 0 };
            for (uint32_t l = 0; l < 32 && base + l < nt; l++)
                if (l % 5 != 4) {
                    live |= 1u << l;
                    br[l % 3] |= 1u << l;
                }
            if (lane % 5 == 4)
                continue;
            if (lane % 3 == 1)
                out[i * 2] ^= 0x5a5a5a5a;
            if (lane % 3 != 2 && (uint32_t)out[i * 2] != br[lane % 3] && bad++ < 4)
                fprintf(stderr, "activemask in branch, thread %u: %x, want %x\n", i,
                        out[i * 2], br[lane % 3]);
            if ((uint32_t)out[i * 2 + 1] != live && bad++ < 4)
                fprintf(stderr, "activemask after the join, thread %u: %x, want %x\n", i,
                        out[i * 2 + 1], live);
        }
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- printf lines from 8 blocks x 64 threads arrive whole, each exactly once --- */
    {
        char path[] = "/tmp/test_exec_printf_XXXXXX";
        int fd = mkstemp(path);
        fflush(stdout);
        int saved = dup(1);
        dup2(fd, 1);
        npu_kfunc_t k = kthread("printf", t_printf, 0);
        CHECK_EQ(run(&k, 8, 1, 1, 64, 1, 1, 0, NULL), NPU_OK);
        fflush(stdout);
        dup2(saved, 1);
        close(saved);
        FILE *f = fdopen(fd, "r");
        rewind(f);
        char line[256];
        int seen[8][64] = { { 0 } }, bad = 0, n = 0;
        while (fgets(line, sizeof line, f)) {
            unsigned b, t;
            double x;
            if (sscanf(line, "line block %u thread %u value %lf", &b, &t, &x) != 3 || b >= 8 ||
                t >= 64 || x != t * 0.5)
                bad++;
            else
                seen[b][t]++;
            n++;
        }
        fclose(f);
        unlink(path);
        for (int b = 0; b < 8; b++)
            for (int t = 0; t < 64; t++)
                bad += seen[b][t] != 1;
        CHECK_EQ(n, 8 * 64);
        CHECK_EQ(bad, 0);
    }
    /* --- deadlocks are detected and the next launch works --- */
    {
        npu_kfunc_t k = kthread("deadlock_bar", t_deadlock_bar, 0);
        CHECK_EQ(run(&k, 2, 1, 1, 64, 1, 1, 0, NULL), NPU_EDEADLOCK);
        npu_kfunc_t k2 = kthread("deadlock_warp", t_deadlock_warp, 0);
        CHECK_EQ(run(&k2, 1, 1, 1, 40, 1, 1, 0, NULL), NPU_EDEADLOCK);
    }
    /* --- trap and assert in thread mode --- */
    {
        _Atomic int cnt = 0;
        _Atomic int *pc = &cnt;
        uint8_t params[8];
        memcpy(params, &pc, 8);
        npu_kfunc_t k = kthread("trap_t", t_trap, 0);
        CHECK_EQ(run(&k, 8, 1, 1, 32, 1, 1, 0, params), NPU_ELAUNCHFAIL);
        CHECK(atomic_load(&cnt) < 8 * 32);
        npu_kfunc_t ka = kthread("assert_t", t_assert, 0);
        CHECK_EQ(run(&ka, 2, 1, 1, 64, 1, 1, 0, params), NPU_EASSERT);
        atomic_store(&cnt, 0);
        CHECK_EQ(run(&k, 2, 1, 1, 32, 1, 1, 0, params), NPU_OK);   /* block 2 absent */
        CHECK_EQ(atomic_load(&cnt), 64);
    }
    /* --- thread-mode spin chain over many blocks --- */
    {
        int nb = 500;
        _Atomic int *flag = calloc(nb, sizeof *flag);
        uint8_t params[8];
        memcpy(params, &flag, 8);
        npu_kfunc_t k = kthread("chain_t", t_chain, 0);
        CHECK_EQ(run(&k, nb, 1, 1, 64, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (int i = 0; i < nb; i++)
            bad += atomic_load(&flag[i]) != 1;
        CHECK_EQ(bad, 0);
        free(flag);
    }
    /* --- big local frames on fiber stacks --- */
    {
        int *out = calloc(256, sizeof *out);
        uint8_t params[8];
        memcpy(params, &out, 8);
        npu_kfunc_t k = kthread("stack", t_stack, 0);
        k.info.local_size = 40000;
        CHECK_EQ(run(&k, 3, 1, 1, 256, 1, 1, 0, params), NPU_OK);
        int bad = 0;
        for (int i = 0; i < 256; i++)
            bad += out[i] != 1;
        CHECK_EQ(bad, 0);
        free(out);
    }
    /* --- several host threads run grids at the same time (streams do) --- */
    {
        pthread_t th[3];
        for (int i = 0; i < 3; i++)
            pthread_create(&th[i], NULL, conc_thread, (void *)(intptr_t)i);
        for (int i = 0; i < 3; i++)
            pthread_join(th[i], NULL);
        CHECK_EQ(atomic_load(&conc_bad), 0);
    }
    /* --- a grid launched from inside a block --- */
    {
        int out[4] = { 0 }, *po = out;
        uint8_t params[8];
        memcpy(params, &po, 8);
        npu_kfunc_t k = kblock("nested", k_nested);
        CHECK_EQ(run(&k, 4, 1, 1, 1, 1, 1, 0, params), NPU_OK);
        CHECK(out[0] == 1 && out[1] == 1 && out[2] == 1 && out[3] == 1);
    }
    /* --- bad inputs to npu_exec_grid --- */
    {
        npu_kfunc_t k = kblock("vadd", k_vadd);
        uint32_t g[3] = { 1, 1, 1 }, b[3] = { 1, 1, 1 };
        CHECK_EQ(npu_exec_grid(NULL, g, b, 0, NULL), NPU_EINVAL);
        CHECK_EQ(npu_exec_grid(&k, NULL, b, 0, NULL), NPU_EINVAL);
        npu_kfunc_t none = kblock("none", NULL);
        CHECK_EQ(npu_exec_grid(&none, g, b, 0, NULL), NPU_EFUNC);
        npu_kfunc_t tnone = kthread("tnone", NULL, 0);
        CHECK_EQ(npu_exec_grid(&tnone, g, b, 0, NULL), NPU_EFUNC);
        CHECK_EQ(run(&k, 0, 1, 1, 1, 1, 1, 0, NULL), NPU_ECONFIG);
        CHECK_EQ(run(&k, 1, 1, 1, 1025, 1, 1, 0, NULL), NPU_ECONFIG);
    }
    return CHECK_DONE();
}
