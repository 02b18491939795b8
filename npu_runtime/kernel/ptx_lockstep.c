/*
 * ptx_lockstep.c - pass "lockstep" of the PTX translator: finds the memory accesses of an entry
 * through which the threads of a warp may exchange data without a barrier, and marks where a
 * warp must step in lockstep (ptx_insn_t.lockstep).
 *
 * Why. Code written before CUDA 9 (and some after: CuPy's partition kernel, the classic
 * `if (tid < 32) { s[tid] += s[tid + 16]; ... }` tail of a reduction) relies on the threads of a
 * converged warp executing each instruction together: a value one lane stores is seen by
 * another lane's next load, and no lane runs ahead. Our executors run a block's threads one
 * after another between stop points (barriers, warp collectives), so such a thread ran its
 * whole loop before its neighbours started (cupy.partition returned wrong values for n >= 16384,
 * with lane groups, phases and fibers alike).
 *
 * What is marked. Accesses are ld/st (scalar or vector; not atomics, not ld.global.nc/ldu,
 * which read data no thread writes) to .shared, .global or generic memory. A pair (A, B) talks
 * across lanes when A reaches B along a control-flow path with no fence (a full or partial
 * bar.sync / barrier, bar.warp.sync, or any warp collective that is a stop point: all lanes of
 * its mask meet there, so stores before it are done before loads after it), one of them is a
 * store and the other a load, and their addresses may name another lane's element:
 *  - both are the same variable named directly ([s+8]): one address for all lanes -> may;
 *  - both go through the same register with the same offset ([%rd5+4] twice) -> each thread
 *    touches its own element -> no;
 *  - otherwise by the root of the address register (the kernel parameter field or the variable
 *    it was computed from, through adds, multiplies, shifts, cvta/cvt/mov): different roots ->
 *    assumed distinct objects (like __restrict__) -> no; the same root or an unknown one (a
 *    pointer loaded from memory) -> may.
 * Stores after loads of the same kind (write after read: a lane must not overwrite what
 * another lane of its warp still has to read in the same step) count too.
 * A stop is then placed, in program order, before every access B that a marked partner A still
 * reaches without crossing a fence or an earlier stop: one stop separates a whole group of
 * accesses (the two loads of a bitonic compare-exchange need one stop, its two stores one).
 * A lockstep point is a stop point of phase mode (ptx_emit.c): every thread of the block runs up
 * to its next stop point in one pass, so all lanes have done what precedes the point before any
 * lane does the access. That alone is not lockstep once a warp diverges: lanes that skip an
 * if-body holding stops would run on into the next loop iteration while the others are still
 * in the body (cupy.partition's compare-exchange stores; a min-PC schedule fails the same way
 * across a loop's back edge). So the warp reconverges where a GPU does, at the immediate
 * post-dominator of the branch (the IPDOM stack of pre-Volta GPUs, BSSY/BSYNC on Volta+): for
 * every conditional branch whose region (what it reaches before its post-dominator) holds a
 * stop point, "__rspush ID" before the branch puts the reconvergence point on the lane's own
 * small stack (not twice in a row, so loops do not grow it) and "__reconv" at the
 * post-dominator pops it and holds the lane until no other live lane of its warp still has
 * that point on its stack. Lanes that never entered the region are not waited for; lanes that
 * exit inside it are dead; a pass in which nobody ran releases everybody.
 * Elementwise kernels (in/out through different parameters, or the same register for load
 * and store), tiled GEMMs (barrier between the tile stores and loads) and shuffle reductions
 * mark nothing, so they run as before.
 * Limits: accesses inside called .funcs are not considered; a register reused for an unrelated
 * address later in the kernel can hide a pair (nvcc and NVVM give every value its own register);
 * kernels that phase mode refuses (ptx_emit.c: PHASE_MAX_SAVES, stops inside .funcs) run
 * without lockstep and say so.
 */
#include "ptx_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

enum { R_BOT = 0, R_TOP = -1 };   /* root lattice: no pointer < one root (> 0) < unknown */

typedef struct lsreg { const char *name; int idx; UT_hash_handle hh; } lsreg_t;
typedef struct lsroot { char *key; int id; UT_hash_handle hh; } lsroot_t;
typedef struct lslabel { const char *name; int idx; UT_hash_handle hh; } lslabel_t;

typedef struct ls {
    ptx_func_t *f;
    lsreg_t *regs; int nregs;
    lsroot_t *roots; int nroots;
    int *root;                    /* per register */
    char *ptr;                    /* per register: a pointer (from cvta, a variable's address, or
                                   * arithmetic on a pointer), so its root wins over integers' */
    long long *stride;            /* per register: value = tid.x * stride + (same for all lanes) */
    char *stk;                    /* ... 0 not defined yet, 1 stride known, 2 not affine */
    int oom;
} ls_t;

static int opm(const ptx_insn_t *in, const char *m)
{
    for (int i = 1; i < in->nmods; i++)
        if (!strcmp(in->mods[i], m)) return 1;
    return 0;
}

static int is_reg_name(const char *n) { return n && n[0] == '%'; }

static int reg_idx(ls_t *L, const char *name, int add)
{
    lsreg_t *r;
    HASH_FIND_STR(L->regs, name, r);
    if (r) return r->idx;
    if (!add) return -1;
    r = calloc(1, sizeof *r);
    if (!r) { L->oom = 1; return -1; }
    r->name = name;
    r->idx = L->nregs++;
    HASH_ADD_KEYPTR(hh, L->regs, r->name, strlen(r->name), r);
    return r->idx;
}

static int root_id(ls_t *L, const char *kind, const char *name, long long off)
{
    char key[320];
    snprintf(key, sizeof key, "%s:%s:%lld", kind, name, off);
    lsroot_t *r;
    HASH_FIND_STR(L->roots, key, r);
    if (r) return r->id;
    r = calloc(1, sizeof *r);
    if (!r || !(r->key = strdup(key))) { free(r); L->oom = 1; return R_TOP; }
    r->id = ++L->nroots;
    HASH_ADD_KEYPTR(hh, L->roots, r->key, strlen(r->key), r);
    return r->id;
}

static int join(int a, int b)
{
    if (a == R_BOT) return b;
    if (b == R_BOT || a == b) return a;
    return R_TOP;
}

static int opnd_root(ls_t *L, const ptx_opnd_t *o)
{
    if ((o->kind == OP_REG || o->kind == OP_SYM) && is_reg_name(o->name)) {
        int i = reg_idx(L, o->name, 0);
        return i >= 0 ? L->root[i] : R_BOT;
    }
    return R_BOT;
}

/* the root a definition gives its destination, and whether the value is a pointer (*isptr).
 * Parameter fields that hold sizes and strides get roots too (CuPy passes an array's data
 * pointer and its shape in one struct parameter; its indexer is another): when a source is a
 * known pointer, only pointers' roots count, so index arithmetic does not turn out[i]/in[i]
 * into "unknown". */
static int def_root(ls_t *L, ptx_prog_t *p, const ptx_insn_t *in, int *isptr)
{
    const char *op = in->mods[0];
    *isptr = 0;
    if (!strcmp(op, "ld") || !strcmp(op, "ldu")) {
        const ptx_opnd_t *a = &in->ops[1];
        if (opm(in, "param") && a->kind == OP_ADDR && a->name && !is_reg_name(a->name))
            return root_id(L, "p", a->name, a->off);
        return R_TOP;   /* a pointer loaded from memory */
    }
    int r = R_BOT, rp = R_BOT, anyp = 0;
    for (int k = 1; k < in->nops; k++) {
        const ptx_opnd_t *o = &in->ops[k];
        if ((o->kind == OP_SYM || o->kind == OP_ADDR) && o->name && !is_reg_name(o->name)) {
            ptx_var_t *v = ptx_find_var(p, o->name);
            int local = 0;
            for (int i = 0; !v && i < L->f->nlocals; i++)
                if (!strcmp(L->f->locals[i].name, o->name) && L->f->locals[i].space != SP_REG) local = 1;
            if (v || local) { int x = root_id(L, "s", o->name, 0); r = join(r, x); rp = join(rp, x); anyp = 1; }
            continue;
        }
        int x = opnd_root(L, o);
        r = join(r, x);
        if ((o->kind == OP_REG || o->kind == OP_SYM) && is_reg_name(o->name)) {
            int i = reg_idx(L, o->name, 0);
            if (i >= 0 && L->ptr[i]) { rp = join(rp, x); anyp = 1; }
        }
    }
    if (!strcmp(op, "cvta")) anyp = 1, rp = r;
    if (anyp && strcmp(op, "setp") && strcmp(op, "set")) { *isptr = 1; return rp; }
    return r;
}

/* stride of a definition (see ls_t.stride): 1 known (*st), 2 not affine in tid.x */
static int opnd_stride(ls_t *L, const ptx_opnd_t *o, long long *st)
{
    *st = 0;
    if (o->kind == OP_IMM || o->kind == OP_FIMM || o->kind == OP_DIMM) return 1;
    if ((o->kind == OP_REG || o->kind == OP_SYM) && o->name) {
        if (!strcmp(o->name, "%tid.x")) { *st = 1; return 1; }
        if (!strncmp(o->name, "%ntid", 5) || !strncmp(o->name, "%ctaid", 6) || !strncmp(o->name, "%nctaid", 7)) return 1;
        if (!is_reg_name(o->name)) return 1;   /* a variable's address */
        if (o->name[1] && strchr(o->name, '.')) return 2;   /* other special registers (%tid.y, %laneid ...) */
        int i = reg_idx(L, o->name, 0);
        if (i < 0) return 1;                   /* never defined here: a parameter or undefined, uniform */
        if (L->stk[i] == 1) { *st = L->stride[i]; return 1; }
        return L->stk[i] == 0 ? 0 : 2;
    }
    return 2;
}

static int def_stride(ls_t *L, const ptx_insn_t *in, long long *st)
{
    const char *op = in->mods[0];
    long long a, b, c;
    int ka, kb, kc;
    *st = 0;
    if (!strcmp(op, "ld")) return opm(in, "param") || opm(in, "const") ? 1 : 2;
    /* results every lane of the mask gets alike (a branch on them does not diverge) */
    if ((!strcmp(op, "vote") && !opm(in, "ballot")) || !strcmp(op, "redux") || !strcmp(op, "activemask") ||
        (!strcmp(op, "vote") && opm(in, "ballot")))
        return 1;
    if (in->nops < 2) return 2;
    ka = opnd_stride(L, &in->ops[1], &a);
    if (!strcmp(op, "mov") || !strcmp(op, "cvta") || !strcmp(op, "cvt")) { *st = a; return ka; }
    if (in->nops < 3) return 2;
    kb = opnd_stride(L, &in->ops[2], &b);
    if (ka == 2 || kb == 2) return 2;
    if (ka == 0 || kb == 0) return 0;
    if (!strcmp(op, "add")) { *st = a + b; return 1; }
    if (!strcmp(op, "sub")) { *st = a - b; return 1; }
    int immb = in->ops[2].kind == OP_IMM, imma = in->ops[1].kind == OP_IMM;
    if (!strcmp(op, "mul") && !opm(in, "hi")) {
        if (a && b) return 2;
        if (a && immb) { *st = a * (long long)in->ops[2].imm; return 1; }
        if (b && imma) { *st = b * (long long)in->ops[1].imm; return 1; }
        return a || b ? 2 : 1;
    }
    if (!strcmp(op, "shl") && immb && in->ops[2].imm < 32) { *st = a << in->ops[2].imm; return 1; }
    if (!strcmp(op, "mad") && !opm(in, "hi") && in->nops >= 4) {
        kc = opnd_stride(L, &in->ops[3], &c);
        if (kc != 1) return kc;
        if (a && b) return 2;
        if (a && immb) { *st = a * (long long)in->ops[2].imm + c; return 1; }
        if (b && imma) { *st = b * (long long)in->ops[1].imm + c; return 1; }
        if (!a && !b) { *st = c; return 1; }
        return 2;
    }
    return a || b ? 2 : 1;   /* other operations of values the same in all lanes stay the same */
}

typedef struct acc {
    int insn, store, space;       /* SP_SHARED / SP_GLOBAL / SP_NONE (generic) */
    int size;                     /* bytes accessed (vector included) */
    int sk; long long stride;     /* the base register's stride class (stk/stride) */
    const char *base;             /* register or symbol */
    int direct;                   /* base is a symbol */
    long long off;
    int root;
} acc_t;

static int acc_kind(const ptx_insn_t *in, int *store, int *space)
{
    const char *op = in->mods[0];
    int ld = !strcmp(op, "ld"), st = !strcmp(op, "st");
    if (!ld && !st) return 0;
    if (opm(in, "nc")) return 0;
    int sp = SP_NONE;
    for (int i = 1; i < in->nmods; i++) {
        const char *m = in->mods[i];
        if (!strncmp(m, "global", 6)) sp = SP_GLOBAL;
        else if (!strncmp(m, "shared", 6)) sp = SP_SHARED;
        else if (!strcmp(m, "local") || !strcmp(m, "const") || !strncmp(m, "param", 5)) return 0;
    }
    const ptx_opnd_t *a = &in->ops[st ? 0 : 1];
    if (in->nops < 2 || a->kind != OP_ADDR) return 0;
    *store = st;
    *space = sp;
    return 1;
}

static int acc_size(const ptx_insn_t *in)
{
    int vec = 1, sz = 4;
    for (int i = 1; i < in->nmods; i++) {
        const char *m = in->mods[i];
        if (!strcmp(m, "v2")) vec = 2;
        else if (!strcmp(m, "v4")) vec = 4;
        else if (!strcmp(m, "v8")) vec = 8;
        else if (ptx_type_size(m) > 0) sz = ptx_type_size(m);
    }
    return vec * sz;
}

static int may_talk(const acc_t *a, const acc_t *b)
{
    if (a->space != SP_NONE && b->space != SP_NONE && a->space != b->space) return 0;
    if (a->direct && b->direct) return a->base && b->base && !strcmp(a->base, b->base);
    if (!a->direct && !b->direct && a->base && b->base && !strcmp(a->base, b->base)) {
        if (a->off == b->off && a->sk != 1) return 0;   /* the same address expression: the thread's own element */
        if (a->sk == 1 && a->stride != 0) {   /* lanes k * stride apart, 0 < |k| < 32 (a warp along tid.x) */
            long long d = b->off - a->off;
            int hit = 0;
            for (long long k = -31; k <= 31 && !hit; k++)
                if (k && d + k * a->stride > -(long long)b->size && d + k * a->stride < (long long)a->size) hit = 1;
            if (!hit) return 0;
        }
        if (a->off == b->off && a->sk == 1 && a->stride == 0) return 1;   /* one address for all lanes */
        if (a->off == b->off) return 0;
    }
    if (a->root > 0 && b->root > 0 && a->root != b->root) return 0;
    return 1;
}

/* fences: where every lane of the warp meets (so earlier accesses are done before later ones) */
static int is_fence(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    if (!strcmp(op, "bar") || !strcmp(op, "barrier")) return !opm(in, "arrive");
    if (in->pred) return 0;   /* a predicated collective is not met by every lane */
    if (!opm(in, "sync")) return 0;
    return !strcmp(op, "shfl") || !strcmp(op, "vote") || !strcmp(op, "match") || !strcmp(op, "redux");
}

/* immediate post-dominators (Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm", on
 * the reverse CFG); node n is the exit every ret/exit/last instruction flows to. ipdom[i] = -1
 * when i cannot reach the exit (an endless loop). */
static int *postdominators(int n, const int *succ, const int *nsucc, const int *pred, const int *npred,
                           const int *predoff)
{
    int *ipd = malloc((size_t)(n + 1) * sizeof *ipd), *po = malloc((size_t)(n + 1) * sizeof *po);
    int *order = malloc((size_t)(n + 1) * sizeof *order), *stk = malloc((size_t)(n + 1) * 2 * sizeof *stk);
    if (!ipd || !po || !order || !stk) { free(ipd); free(po); free(order); free(stk); return NULL; }
    for (int i = 0; i <= n; i++) { ipd[i] = -1; po[i] = -1; }
    /* DFS from the exit over reverse edges (exit -> instructions without successors -> their
     * predecessors ...), postorder numbers in po[] */
    int npo = 0, sp = 0;
    char *seen = calloc((size_t)n + 1, 1);
    if (!seen) { free(ipd); free(po); free(order); free(stk); return NULL; }
    seen[n] = 1;
    stk[sp++] = n; stk[sp++] = 0;
    while (sp) {
        int x = stk[sp - 2], k = stk[sp - 1];
        int next = -1;
        if (x == n) {
            for (; k < n && next < 0; k++) if (!nsucc[k] && !seen[k]) next = k;
        } else {
            for (; k < npred[x] && next < 0; k++) { int q = pred[predoff[x] + k]; if (!seen[q]) next = q; }
        }
        stk[sp - 1] = k;
        if (next >= 0) { seen[next] = 1; stk[sp++] = next; stk[sp++] = 0; }
        else { po[x] = npo; order[npo++] = x; sp -= 2; }
    }
    free(seen); free(stk);
    ipd[n] = n;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int oi = npo - 2; oi >= 0; oi--) {   /* reverse postorder, the exit (last) skipped */
            int b = order[oi], nw = -1;
            int ns = nsucc[b] ? nsucc[b] : 1;
            for (int k = 0; k < ns; k++) {
                int sx = nsucc[b] ? succ[2 * b + k] : n;
                if (ipd[sx] < 0) continue;
                if (nw < 0) { nw = sx; continue; }
                int a = sx, c = nw;
                while (a != c) {
                    while (po[a] < po[c]) a = ipd[a];
                    while (po[c] < po[a]) c = ipd[c];
                }
                nw = a;
            }
            if (nw >= 0 && ipd[b] != nw) { ipd[b] = nw; changed = 1; }
        }
    }
    free(po); free(order);
    return ipd;
}

static ptx_insn_t pseudo(ptx_prog_t *p, const char *op, int line, long long id, int *oom)
{
    ptx_insn_t x;
    memset(&x, 0, sizeof x);
    x.line = line;
    x.opcode = ptx_strndup(p, op, strlen(op));
    x.mods[0] = x.opcode;
    x.nmods = 1;
    if (!x.opcode) *oom = 1;
    if (id >= 0) { x.nops = 1; x.ops[0].kind = OP_IMM; x.ops[0].imm = (uint64_t)id; }
    return x;
}

/* "__rspush ID" before every conditional branch whose region holds a stop point, "__reconv" at
 * its immediate post-dominator (after a label, before an instruction); 0 or -1 (out of memory) */
static int insert_reconvergence(ls_t *L, ptx_prog_t *p, ptx_func_t *f, const int *succ, const int *nsucc, const int *pred,
                                const int *npred, const int *predoff)
{
    int n = f->ninsns;
    int *ipd = postdominators(n, succ, nsucc, pred, npred, predoff);
    int *need = calloc((size_t)n + 1, sizeof *need), *isr = calloc((size_t)n + 1, sizeof *isr);
    int *stk = malloc((size_t)(n + 1) * sizeof *stk), *newpos = malloc((size_t)(n + 1) * sizeof *newpos);
    char *vis = malloc((size_t)n + 1);
    int rc = -1, nb = 0, nr = 0;
    if (!ipd || !need || !isr || !stk || !newpos || !vis) goto out;
    for (int b = 0; b < n; b++) {
        const ptx_insn_t *in = &f->insns[b];
        need[b] = -1;
        if (in->is_label || !in->pred || strcmp(in->mods[0], "bra")) continue;
        int pi = reg_idx(L, in->pred, 0);
        if (pi >= 0 && L->stk[pi] == 1 && L->stride[pi] == 0) continue;   /* the same in all lanes: no divergence */
        int r = ipd[b];
        if (r < 0 || r >= n) continue;
        /* the region: reachable from the branch's successors without passing r */
        memset(vis, 0, (size_t)n + 1);
        int sp = 0, stops = 0;
        for (int k = 0; k < nsucc[b]; k++) if (succ[2 * b + k] != r && !vis[succ[2 * b + k]]) { vis[succ[2 * b + k]] = 1; stk[sp++] = succ[2 * b + k]; }
        while (sp && !stops) {
            int x = stk[--sp];
            const ptx_insn_t *xi = &f->insns[x];
            if (!xi->is_label && (xi->lockstep || is_fence(xi))) stops = 1;
            for (int k = 0; k < nsucc[x]; k++) { int y = succ[2 * x + k]; if (y != r && !vis[y]) { vis[y] = 1; stk[sp++] = y; } }
        }
        if (!stops) continue;
        if (ptx_dump_enabled("lockstep"))
            fprintf(stderr, "  reconverge: branch at line %d -> line %d%s\n", in->line, f->insns[r].line, f->insns[r].is_label ? " (label)" : "");
        need[b] = r;
        if (!isr[r]) { isr[r] = 1; nr++; }
        nb++;
    }
    if (!nb) { rc = 0; goto out; }
    /* new positions: a push before each such branch, a __reconv after a label node r or before an
     * instruction r */
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (need[i] >= 0) m++;                        /* push */
        if (isr[i] && !f->insns[i].is_label) m++;      /* __reconv before the instruction */
        newpos[i] = m;                                 /* position of the original insn */
        m++;
        if (isr[i] && f->insns[i].is_label) m++;       /* __reconv after the label */
    }
    ptx_insn_t *ni = ptx_alloc(p, (size_t)m * sizeof *ni);
    if (!ni) goto out;
    int oom = 0, w = 0;
    for (int i = 0; i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (need[i] >= 0) {
            int r = need[i];
            long long rid = f->insns[r].is_label ? newpos[r] + 1 : newpos[r] - 1;
            ni[w++] = pseudo(p, "__rspush", in->line, rid, &oom);
        }
        if (isr[i] && !in->is_label) ni[w++] = pseudo(p, "__reconv", in->line, -1, &oom);
        ni[w++] = *in;
        if (isr[i] && in->is_label) ni[w++] = pseudo(p, "__reconv", in->line, -1, &oom);
    }
    if (oom || w != m) goto out;
    f->insns = ni;
    f->ninsns = m;
    rc = nr;
out:
    free(ipd); free(need); free(isr); free(stk); free(newpos); free(vis);
    return rc;
}

int ptx_lockstep_mark(ptx_prog_t *p, ptx_func_t *f)
{
    if (f->lockstep_done) return f->nlockstep;
    int n = f->ninsns, nstops = 0, nreconv = 0;
    for (int i = 0; i < n; i++) f->insns[i].lockstep = 0;
    ls_t L;
    memset(&L, 0, sizeof L);
    L.f = f;
    acc_t *acc = NULL;
    int nacc = 0;
    int *accof = NULL, *succ = NULL, *nsucc = NULL, *pred = NULL, *npred = NULL, *predoff = NULL;
    uint64_t *in_set = NULL, *pairs = NULL;
    lslabel_t *labels = NULL;
    int words = 0;

    /* accesses; bail out on what this pass does not model */
    for (int i = 0; i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label) continue;
        if (!strcmp(in->mods[0], "brx")) goto out;   /* jump tables: no CFG here */
        int st, sp;
        if (acc_kind(in, &st, &sp)) nacc++;
    }
    if (nacc < 2) goto out;
    acc = calloc((size_t)nacc, sizeof *acc);
    accof = malloc((size_t)n * sizeof *accof);
    if (!acc || !accof) goto out;

    /* register roots: a fixpoint over all definitions (each root only rises) */
    for (int i = 0; i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || in->nops < 1) continue;
        const ptx_opnd_t *d = &in->ops[0];
        if ((d->kind == OP_REG || d->kind == OP_SYM) && is_reg_name(d->name)) reg_idx(&L, d->name, 1);
    }
    if (L.oom) goto out;
    L.root = calloc((size_t)L.nregs + 1, sizeof *L.root);
    L.ptr = calloc((size_t)L.nregs + 1, 1);
    if (!L.root || !L.ptr) goto out;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < n; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || in->nops < 1) continue;
            const char *op = in->mods[0];
            if (!strcmp(op, "st") || !strcmp(op, "bra") || !strcmp(op, "call") || !strcmp(op, "ret")) continue;
            const ptx_opnd_t *d = &in->ops[0];
            if ((d->kind != OP_REG && d->kind != OP_SYM) || !is_reg_name(d->name)) continue;
            int ri = reg_idx(&L, d->name, 0);
            if (ri < 0) continue;
            int isptr = 0, dr = def_root(&L, p, in, &isptr);
            if (L.oom) goto out;
            if (isptr && !L.ptr[ri]) { L.ptr[ri] = 1; L.root[ri] = dr; changed = 1; continue; }   /* a pointer's root replaces an integer's */
            if (L.ptr[ri] && !isptr) continue;   /* integer definitions of a pointer register (NULL, selects) */
            int nr = join(L.root[ri], dr);
            if (nr != L.root[ri]) { L.root[ri] = nr; changed = 1; }
        }
    }

    L.stride = calloc((size_t)L.nregs + 1, sizeof *L.stride);
    L.stk = calloc((size_t)L.nregs + 1, 1);
    if (!L.stride || !L.stk) goto out;
    for (int changed = 1; changed;) {   /* each class only rises: undefined -> a stride -> not affine */
        changed = 0;
        for (int i = 0; i < n; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || in->nops < 1) continue;
            const char *op = in->mods[0];
            if (!strcmp(op, "st") || !strcmp(op, "bra") || !strcmp(op, "call") || !strcmp(op, "ret")) continue;
            const ptx_opnd_t *d = &in->ops[0];
            if ((d->kind != OP_REG && d->kind != OP_SYM) || !is_reg_name(d->name)) continue;
            int ri = reg_idx(&L, d->name, 0);
            if (ri < 0 || L.stk[ri] == 2) continue;
            long long v;
            int k = d->name2 ? 2 : def_stride(&L, in, &v);
            if (in->pred && k == 1 && L.stk[ri] == 0) continue;   /* a guarded definition alone decides nothing */
            if (k == 0) continue;
            if (k == 2 || (L.stk[ri] == 1 && L.stride[ri] != v)) { L.stk[ri] = 2; changed = 1; }
            else if (L.stk[ri] == 0) { L.stk[ri] = 1; L.stride[ri] = v; changed = 1; }
        }
    }

    nacc = 0;
    for (int i = 0; i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        accof[i] = -1;
        int st, sp;
        if (in->is_label || !acc_kind(in, &st, &sp)) continue;
        const ptx_opnd_t *a = &in->ops[st ? 0 : 1];
        acc_t *x = &acc[nacc];
        x->insn = i; x->store = st; x->space = sp; x->off = a->off;
        x->base = a->name;
        x->direct = a->name && !is_reg_name(a->name);
        if (!a->name) x->root = R_TOP;
        else if (x->direct) x->root = root_id(&L, "s", a->name, 0);
        else {
            int ri = reg_idx(&L, a->name, 0);
            x->root = ri >= 0 ? L.root[ri] : R_BOT;
            x->sk = ri >= 0 ? L.stk[ri] : 1;
            x->stride = ri >= 0 ? L.stride[ri] : 0;
        }
        x->size = acc_size(in);
        if (x->root == R_BOT) x->root = R_TOP;   /* an address with no known pointer in it */
        accof[i] = nacc++;
    }
    if (L.oom) goto out;

    /* CFG */
    for (int i = 0; i < n; i++)
        if (f->insns[i].is_label == 1 && f->insns[i].label) {
            lslabel_t *lb = calloc(1, sizeof *lb);
            if (!lb) goto out;
            lb->name = f->insns[i].label;
            lb->idx = i;
            HASH_ADD_KEYPTR(hh, labels, lb->name, strlen(lb->name), lb);
        }
    succ = malloc((size_t)n * 2 * sizeof *succ);
    nsucc = calloc((size_t)n, sizeof *nsucc);
    npred = calloc((size_t)n + 1, sizeof *npred);
    predoff = calloc((size_t)n + 1, sizeof *predoff);
    if (!succ || !nsucc || !npred || !predoff) goto out;
    for (int i = 0; i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        int fall = i + 1 < n, tgt = -1;
        if (!in->is_label) {
            const char *op = in->mods[0];
            if (!strcmp(op, "bra") && in->nops >= 1 && in->ops[0].name) {
                lslabel_t *lb;
                HASH_FIND_STR(labels, in->ops[0].name, lb);
                if (lb) tgt = lb->idx;
                if (!in->pred) fall = 0;
            } else if ((!strcmp(op, "ret") || !strcmp(op, "exit") || !strcmp(op, "trap")) && !in->pred) fall = 0;
        }
        if (fall) succ[2 * i + nsucc[i]++] = i + 1;
        if (tgt >= 0) succ[2 * i + nsucc[i]++] = tgt;
        for (int k = 0; k < nsucc[i]; k++) npred[succ[2 * i + k]]++;
    }
    int tot = 0;
    for (int i = 0; i < n; i++) { predoff[i] = tot; tot += npred[i]; npred[i] = 0; }
    pred = malloc((size_t)(tot + 1) * sizeof *pred);
    if (!pred) goto out;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nsucc[i]; k++) { int s = succ[2 * i + k]; pred[predoff[s] + npred[s]++] = i; }

    /* talking pairs: may_talk, one store and one load (either order) */
    words = (nacc + 63) / 64;
    pairs = calloc((size_t)nacc * words, sizeof *pairs);
    in_set = calloc((size_t)n * words, sizeof *in_set);
    uint64_t *tmp = calloc((size_t)words, sizeof *tmp);
    if (!pairs || !in_set || !tmp) { free(tmp); goto out; }
    for (int a = 0; a < nacc; a++)
        for (int b = 0; b < nacc; b++)
            if (acc[a].store != acc[b].store && may_talk(&acc[a], &acc[b])) pairs[(size_t)b * words + a / 64] |= 1ull << (a % 64);

    int any = 0;
    for (size_t w = 0; w < (size_t)nacc * words; w++) any |= pairs[w] != 0;
    if (!any) { free(tmp); goto out; }

    /* place stops in program order: before access B when a partner A reaches it without a fence
     * or a stop in between; reaching sets are recomputed after each new stop (forward dataflow:
     * out = fence or stop ? {} : in + {own access}) */
    for (int placed = 1; placed;) {
        placed = 0;
        for (int changed = 1; changed;) {
            changed = 0;
            for (int i = 0; i < n; i++) {
                memset(tmp, 0, (size_t)words * sizeof *tmp);
                for (int k = 0; k < npred[i]; k++) {
                    int q = pred[predoff[i] + k];
                    const ptx_insn_t *qi = &f->insns[q];
                    if (!qi->is_label && (is_fence(qi) || qi->lockstep)) {
                        if (qi->lockstep && accof[q] >= 0) tmp[accof[q] / 64] |= 1ull << (accof[q] % 64);
                        continue;
                    }
                    uint64_t *qs = in_set + (size_t)q * words;
                    for (int w = 0; w < words; w++) tmp[w] |= qs[w];
                    if (accof[q] >= 0) tmp[accof[q] / 64] |= 1ull << (accof[q] % 64);
                }
                uint64_t *is = in_set + (size_t)i * words;
                if (memcmp(is, tmp, (size_t)words * sizeof *tmp)) { memcpy(is, tmp, (size_t)words * sizeof *tmp); changed = 1; }
            }
        }
        for (int b = 0; b < nacc && !placed; b++) {
            ptx_insn_t *bi = &f->insns[acc[b].insn];
            if (bi->lockstep) continue;
            const uint64_t *is = in_set + (size_t)acc[b].insn * words, *pb = pairs + (size_t)b * words;
            for (int w = 0; w < words; w++)
                if (is[w] & pb[w]) {
                    bi->lockstep = 1; nstops++; placed = 1;
                    if (ptx_dump_enabled("lockstep")) {
                        int a = w * 64 + __builtin_ctzll(is[w] & pb[w]);
                        fprintf(stderr, "  lockstep line %d (%s %s%+lld root %d stride %d/%lld) <- line %d (%s %s%+lld root %d stride %d/%lld)\n",
                                bi->line, acc[b].store ? "st" : "ld", acc[b].base ? acc[b].base : "?", acc[b].off, acc[b].root, acc[b].sk, acc[b].stride,
                                f->insns[acc[a].insn].line, acc[a].store ? "st" : "ld", acc[a].base ? acc[a].base : "?", acc[a].off, acc[a].root, acc[a].sk, acc[a].stride);
                    }
                    break;
                }
        }
    }
    free(tmp);
    if (nstops) {
        nreconv = insert_reconvergence(&L, p, f, succ, nsucc, pred, npred, predoff);
        if (nreconv < 0) L.oom = 1;
    }
out:
    if (ptx_dump_enabled("lower") && nstops)
    {
        fprintf(stderr, "== ptx lockstep: %s: %d of %d memory accesses are warp lockstep points, %d reconvergence points; at lines",
                f->name, nstops, nacc, nreconv);
        for (int i = 0; i < f->ninsns; i++) if (f->insns[i].lockstep) fprintf(stderr, " %d", f->insns[i].line);
        fprintf(stderr, "\n");
    }
    {
        lsreg_t *r, *rt;
        HASH_ITER(hh, L.regs, r, rt) { HASH_DEL(L.regs, r); free(r); }
        lsroot_t *o, *ot;
        HASH_ITER(hh, L.roots, o, ot) { HASH_DEL(L.roots, o); free(o->key); free(o); }
        lslabel_t *lb, *lt;
        HASH_ITER(hh, labels, lb, lt) { HASH_DEL(labels, lb); free(lb); }
    }
    free(L.root); free(L.ptr); free(L.stride); free(L.stk); free(acc); free(accof); free(succ); free(nsucc); free(pred); free(npred); free(predoff);
    free(in_set); free(pairs);
    if (L.oom) {
        for (int i = 0; i < f->ninsns; i++) f->insns[i].lockstep = 0;
        return -1;
    }
    f->lockstep_done = 1;
    f->nlockstep = nstops;
    return nstops;
}
