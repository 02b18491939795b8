/*
 * ptx_regs.c - how many registers a GPU would give a kernel: the estimate that
 * CU_FUNC_ATTRIBUTE_NUM_REGS / cudaFuncAttributes::numRegs report (the NPU itself has no
 * register file to size; the number exists so that programs reading it, occupancy
 * calculators and tests of register limits see a plausible value that obeys the limits).
 *
 * PTX names virtual registers in SSA style (NVVM's output declares hundreds), so counting
 * declarations overstates wildly. ptxas allocates physical registers to the values that are
 * live at the same time; this file computes that peak on the PTX itself:
 *   - width of a register in 32-bit units: 1 for 8/16/32-bit types, 2 for 64-bit, 4 for
 *     .b128; predicates live in their own file and count 0;
 *   - basic blocks split at labels and after bra/brx/ret/exit; successors: the branch
 *     targets (brx: every label) and the fall-through unless the transfer is unguarded;
 *   - backward liveness to a fixed point; an instruction defines its first operand (its
 *     vector elements, both halves of "p|q") unless that operand is an address (stores,
 *     reductions, async copies) or the opcode has no destination (branches, barriers,
 *     fences, call, ...); a guarded definition does not end the old value's life;
 *   - the peak over all instructions of the units live across or defined at it, plus 2 for
 *     what PTX does not name (address arithmetic and temporaries ptxas introduces).
 * The entry's own body is measured (calls go through the ABI; NVVM and nvcc inline nearly
 * everything). Limits then apply as ptxas applies them, spilling to local memory beyond:
 * .maxnreg, the JIT option CU_JIT_MAX_REGISTERS (-maxrregcount; module.c passes it in), the
 * launch bounds (65536 registers per block over .maxntid x max(1, .minnctapersm) threads),
 * and 255.
 * Example: numba-cuda's test kernel with 15 float64 and 5 int64 accumulators in an unrolled
 * loop (test_linker.func_with_lots_of_registers, 293 %fd and 140 %rd declared) comes out
 * above the 57 that its GPU-written test expects to be exceeded, and at 57 / 38 with
 * max_registers=57 / 38.
 */
#include "ptx_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rmap {
    const char **name;           /* open addressing on name */
    int *id;
    size_t cap;
} rmap_t;

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int rmap_find(const rmap_t *m, const char *name)
{
    if (!name || !m->cap)
        return -1;
    for (size_t i = str_hash(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (!m->name[i])
            return -1;
        if (!strcmp(m->name[i], name))
            return m->id[i];
    }
}

static void rmap_put(rmap_t *m, const char *name, int id)
{
    size_t i = str_hash(name) & (m->cap - 1);
    while (m->name[i] && strcmp(m->name[i], name))
        i = (i + 1) & (m->cap - 1);
    m->name[i] = name;
    m->id[i] = id;
}

typedef struct est {
    rmap_t map;
    char **names;                /* owned strings of the expanded %r<N> names */
    int n;
    uint8_t *width;              /* 32-bit units per register */
    size_t words;                /* bitset words */
} est_t;

static int units_of(const char *type)
{
    if (!strcmp(type, "pred"))
        return 0;
    int s = ptx_type_size(type);
    return s <= 4 ? 1 : s <= 8 ? 2 : 4;
}

static int est_init(est_t *e, const ptx_func_t *f)
{
    memset(e, 0, sizeof *e);
    long long total = 0;
    for (int i = 0; i < f->nlocals; i++)
        if (f->locals[i].space == SP_REG)
            total += f->locals[i].nregs > 0 ? f->locals[i].nregs : 1;
    if (total > (1 << 22))
        return 0;
    e->n = (int)total;
    size_t cap = 16;
    while (cap < (size_t)total * 2 + 2)
        cap <<= 1;
    e->map.cap = cap;
    e->map.name = calloc(cap, sizeof *e->map.name);
    e->map.id = calloc(cap, sizeof *e->map.id);
    e->names = calloc((size_t)total + 1, sizeof *e->names);
    e->width = calloc((size_t)total + 1, 1);
    if (!e->map.name || !e->map.id || !e->names || !e->width)
        return 0;
    int k = 0;
    for (int i = 0; i < f->nlocals; i++) {
        const ptx_var_t *v = &f->locals[i];
        if (v->space != SP_REG)
            continue;
        int u = units_of(v->type) * (v->vec > 1 ? v->vec : 1);
        if (v->nregs > 0) {
            size_t l = strlen(v->name);
            for (int j = 0; j < v->nregs; j++, k++) {
                char *s = malloc(l + 12);
                if (!s)
                    return 0;
                memcpy(s, v->name, l);
                snprintf(s + l, 12, "%d", j);
                e->names[k] = s;
                e->width[k] = (uint8_t)(u > 255 ? 255 : u);
                rmap_put(&e->map, s, k);
            }
        } else {
            e->width[k] = (uint8_t)(u > 255 ? 255 : u);
            rmap_put(&e->map, v->name, k);
            k++;
        }
    }
    e->words = ((size_t)e->n + 63) / 64;
    return 1;
}

static void est_free(est_t *e)
{
    for (int i = 0; e->names && i < e->n; i++)
        free(e->names[i]);
    free(e->names);
    free(e->width);
    free(e->map.name);
    free(e->map.id);
}

/* Registers an operand names, by id, into out (at most max). */
static int opnd_regs(const est_t *e, const ptx_opnd_t *o, int *out, int n, int max)
{
    if (!o || n >= max)
        return n;
    switch (o->kind) {
    case OP_REG: case OP_SYM: case OP_ADDR: {
        int id = rmap_find(&e->map, o->name);
        if (id >= 0 && n < max)
            out[n++] = id;
        id = rmap_find(&e->map, o->name2);
        if (id >= 0 && n < max)
            out[n++] = id;
        break;
    }
    case OP_VEC: case OP_LIST:
        for (int i = 0; i < o->nelem; i++)
            n = opnd_regs(e, &o->elem[i], out, n, max);
        break;
    default:
        break;
    }
    return n;
}

int ptx_base_is(const ptx_insn_t *in, const char *const *set)
{
    const char *b = in->nmods > 0 ? in->mods[0] : in->opcode;
    for (; *set; set++)
        if (b && !strcmp(b, *set))
            return 1;
    return 0;
}

const char *const ptx_no_dest[] = { "st", "red", "bra", "brx", "bar", "barrier", "ret", "exit",
    "trap", "membar", "fence", "prefetch", "prefetchu", "call", "cp", "nanosleep", "pmevent",
    "griddepcontrol", "setmaxnreg", "discard", "brkpt", "stmatrix", "applypriority", NULL };
const char *const ptx_ends_block[] = { "bra", "brx", "ret", "exit", "trap", NULL };

#define MAXR 64

/* defs/uses of one instruction */
static void insn_regs(const est_t *e, const ptx_insn_t *in, int *def, int *nd, int *use, int *nu)
{
    *nd = *nu = 0;
    int first_is_dest = in->nops > 0 && !ptx_base_is(in, ptx_no_dest) && in->ops[0].kind != OP_ADDR;
    for (int i = 0; i < in->nops; i++) {
        if (i == 0 && first_is_dest)
            *nd = opnd_regs(e, &in->ops[0], def, *nd, MAXR);
        else
            *nu = opnd_regs(e, &in->ops[i], use, *nu, MAXR);
    }
    if (in->pred) {
        int id = rmap_find(&e->map, in->pred);
        if (id >= 0 && *nu < MAXR)
            use[(*nu)++] = id;
    }
}

typedef struct block {
    int first, last;             /* instruction range [first, last] */
    int nsucc;
    int *succ;
    uint64_t *in, *out;
} block_t;

static int label_block(const ptx_func_t *f, const int *block_of, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < f->ninsns; i++)
        if (f->insns[i].is_label == 1 && f->insns[i].label && !strcmp(f->insns[i].label, name))
            return block_of[i];
    return -1;
}

uint32_t ptx_reg_estimate(const ptx_func_t *f)
{
    if (!f || !f->parsed || f->ninsns <= 0)
        return 2;
    est_t e;
    uint32_t result = 2;
    int *block_of = NULL, nb = 0;
    block_t *bl = NULL;
    uint64_t *bits = NULL;
    if (!est_init(&e, f) || e.n == 0)
        goto done;
    block_of = malloc(sizeof *block_of * (size_t)f->ninsns);
    bl = calloc((size_t)f->ninsns + 1, sizeof *bl);
    if (!block_of || !bl)
        goto done;
    /* blocks */
    int cur = -1;
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (cur < 0 || in->is_label == 1) {
            cur = nb++;
            bl[cur].first = i;
        }
        block_of[i] = cur;
        bl[cur].last = i;
        if (!in->is_label && ptx_base_is(in, ptx_ends_block))
            cur = -1;
    }
    bits = calloc((size_t)nb * 2 * e.words + e.words * 3 + 1, sizeof *bits);
    if (!bits)
        goto done;
    int nlabels = 0;
    for (int i = 0; i < f->ninsns; i++)
        nlabels += f->insns[i].is_label == 1;
    for (int b = 0; b < nb; b++) {
        bl[b].in = bits + (size_t)b * 2 * e.words;
        bl[b].out = bl[b].in + e.words;
        const ptx_insn_t *t = &f->insns[bl[b].last];
        int brx = !t->is_label && ptx_base_is(t, (const char *const[]){ "brx", NULL });
        bl[b].succ = malloc(sizeof(int) * (size_t)(2 + (brx ? nlabels : 0)));
        if (!bl[b].succ)
            goto done;
        int uncond = !t->is_label && !t->pred && ptx_base_is(t, ptx_ends_block);
        if (!uncond && b + 1 < nb)
            bl[b].succ[bl[b].nsucc++] = b + 1;
        if (!t->is_label && ptx_base_is(t, (const char *const[]){ "bra", NULL })) {
            const ptx_opnd_t *o = t->nops > 0 ? &t->ops[t->nops - 1] : NULL;
            int tb = o ? label_block(f, block_of, o->name) : -1;
            if (tb >= 0)
                bl[b].succ[bl[b].nsucc++] = tb;
        } else if (brx) {
            for (int i = 0; i < f->ninsns; i++)
                if (f->insns[i].is_label == 1)
                    bl[b].succ[bl[b].nsucc++] = block_of[i];
        }
    }
    /* liveness to a fixed point */
    uint64_t *live = bits + (size_t)nb * 2 * e.words;
    int def[MAXR], use[MAXR], nd, nu;
    for (int changed = 1, rounds = 0; changed && rounds < 1000; rounds++) {
        changed = 0;
        for (int b = nb - 1; b >= 0; b--) {
            memset(live, 0, e.words * sizeof *live);
            for (int s = 0; s < bl[b].nsucc; s++)
                for (size_t w = 0; w < e.words; w++)
                    live[w] |= bl[bl[b].succ[s]].in[w];
            memcpy(bl[b].out, live, e.words * sizeof *live);
            for (int i = bl[b].last; i >= bl[b].first; i--) {
                const ptx_insn_t *in = &f->insns[i];
                if (in->is_label)
                    continue;
                insn_regs(&e, in, def, &nd, use, &nu);
                if (!in->pred)
                    for (int k = 0; k < nd; k++)
                        live[def[k] / 64] &= ~(1ull << (def[k] % 64));
                for (int k = 0; k < nu; k++)
                    live[use[k] / 64] |= 1ull << (use[k] % 64);
            }
            if (memcmp(live, bl[b].in, e.words * sizeof *live)) {
                memcpy(bl[b].in, live, e.words * sizeof *live);
                changed = 1;
            }
        }
    }
    /* peak pressure */
    uint32_t peak = 0;
    for (int b = 0; b < nb; b++) {
        memcpy(live, bl[b].out, e.words * sizeof *live);
        uint32_t units = 0;
        for (int r = 0; r < e.n; r++)
            if (live[r / 64] >> (r % 64) & 1)
                units += e.width[r];
        if (units > peak)
            peak = units;
        for (int i = bl[b].last; i >= bl[b].first; i--) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label)
                continue;
            insn_regs(&e, in, def, &nd, use, &nu);
            uint32_t with_defs = units;
            for (int k = 0; k < nd; k++)
                if (!(live[def[k] / 64] >> (def[k] % 64) & 1))
                    with_defs += e.width[def[k]];
            if (with_defs > peak)
                peak = with_defs;
            if (!in->pred)
                for (int k = 0; k < nd; k++)
                    if (live[def[k] / 64] >> (def[k] % 64) & 1) {
                        live[def[k] / 64] &= ~(1ull << (def[k] % 64));
                        units -= e.width[def[k]];
                    }
            for (int k = 0; k < nu; k++)
                if (!(live[use[k] / 64] >> (use[k] % 64) & 1)) {
                    live[use[k] / 64] |= 1ull << (use[k] % 64);
                    units += e.width[use[k]];
                }
            if (units > peak)
                peak = units;
        }
    }
    result = peak + 2;
done:
    if (bl)
        for (int b = 0; b < nb; b++)
            free(bl[b].succ);
    free(bl);
    free(bits);
    free(block_of);
    est_free(&e);
    return result > 255 ? 255 : result;
}

uint32_t ptx_reg_limit(uint32_t estimate, uint32_t maxnreg, uint32_t jit_max,
                       const uint32_t maxntid[3], uint32_t minnctapersm)
{
    uint32_t r = estimate;
    if (maxnreg && r > maxnreg)
        r = maxnreg;
    if (jit_max && r > jit_max && !(maxntid && maxntid[0]))
        r = jit_max;
    if (maxntid && maxntid[0]) {
        uint64_t threads = (uint64_t)maxntid[0] * (maxntid[1] ? maxntid[1] : 1) *
                           (maxntid[2] ? maxntid[2] : 1) * (minnctapersm ? minnctapersm : 1);
        uint64_t cap = threads ? 65536 / threads : 255;
        if (cap < 1)
            cap = 1;
        if (r > cap)
            r = (uint32_t)cap;
    }
    return r > 255 ? 255 : r ? r : 1;
}
