/*
 * ptx_webs.c - register webs for bodies the SASS front end lifted: every physical register
 * (R2, the lifter's temporaries %t0, %td1 ...) is split into webs, one new register per set
 * of definitions that reach a common use, so the translator's flow-insensitive analyses
 * (lane classes uniform/affine, block-invariant hoisting, lockstep address roots) see one
 * value per register, as they do on nvcc's SSA-style PTX.
 *
 * Algorithm (classic webs): definitions are numbered; reaching definitions are computed over
 * the basic blocks (split at labels and after bra/brx/ret/exit/trap; successors as in
 * ptx_regs.c: the branch target, every label for brx, the fall-through unless the transfer
 * is unguarded) to a fixed point; then one walk per block unions, with union-find, the
 * definitions that reach each use. Each register also has a pseudo-definition at entry (the
 * zero every C local starts with): the web holding it keeps the original name, the others get
 * "<name>_w<k>" declared with the register's type. A guarded definition (@p mov %r, x) keeps
 * the old value when the guard is false: it does not kill, so a later use it reaches is
 * reached by the older definitions too and joins their web; only a use under the same guard
 * (same predicate and sense, the predicate unwritten since, in the same block) sees it alone;
 * the guard's own read is not under the guard (k_carry's `@!%p0 setp %p0, ..` then `@!%p0 ..`
 * read a stale %p0 when the shortcut took the guard too).
 * A use reached by nothing (dead code) keeps the original name. Extra CFG edges only merge
 * webs (safe); so unknown control instructions are taken to fall through.
 *
 * Not renamed: registers declared in nested scopes, vector registers, and any register that
 * a call names (its return list is a definition the generic operand walk does not see).
 * Opt-in for now: NPU_SASS_WEBS=1. With it, the PTX-path tests and PyTorch's tests pass and
 * ATen's lane copies get their uniform/affine classes (vectorized add 27 -> 12-13 us per
 * launch), but in tests/sasslift k_lanes ("shfl in an asm scope + barrier", 64 of 512 wrong),
 * k_bitops (hangs: lanes + lockstep + phases together; each off alone passes), k_lop3_all
 * (hangs with lanes on, passes with NPU_PTX_NO_LANES=1) and k_bf16 /
 * k_half / k_fnptr (time out) still fail: the lane copy meets register classes it never met
 * on nvcc's PTX there. Two bugs found and fixed on the way: the guard's own read taking the
 * same-guard shortcut (k_carry), and a uniform unpack fused into a lane loop that a uniform
 * statement ran ahead of (nvrtc_cubin).
 */
#include "ptx_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wslot { char **name; int reg; int def; int guarded; } wslot_t;   /* guarded: insn + 1 */

typedef struct webs {
    /* registers: index into f->locals expanded (%t<4> -> 4 registers) */
    int nr;
    const char **rname;          /* register name */
    int *rvar;                   /* f->locals index it came from */
    int *ok;                     /* may be renamed */
    size_t hcap;
    int *hash;                   /* open addressing: register index or -1 */
    /* per instruction slots */
    wslot_t *slot; int nslot, capslot;
    int *first_slot;             /* per instruction: slots [first_slot[i], first_slot[i + 1]) */
    /* definitions: numbered per register contiguously */
    int ndef;
    int *def_first;              /* per register: its first def id (the entry pseudo-def) */
    int *def_count;
    int *slot_def;               /* per slot: def id or -1 */
    int *uf;                     /* union-find over def ids */
    int cur_insn;
} webs_t;

static size_t wh(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int reg_find(const webs_t *w, const char *n)
{
    if (!n || n[0] != '%' || !w->hcap) return -1;
    for (size_t i = wh(n) & (w->hcap - 1);; i = (i + 1) & (w->hcap - 1)) {
        int x = w->hash[i];
        if (x < 0) return -1;
        if (!strcmp(w->rname[x], n)) return x;
    }
}

static int uf_find(int *uf, int x)
{
    while (uf[x] != x) { uf[x] = uf[uf[x]]; x = uf[x]; }
    return x;
}
static void uf_union(int *uf, int a, int b)
{
    a = uf_find(uf, a); b = uf_find(uf, b);
    if (a != b) uf[a < b ? b : a] = a < b ? a : b;   /* the smaller id (the entry def) is the root */
}

static int add_slot(webs_t *w, char **name, int def, int guarded)
{
    int r = reg_find(w, *name);
    if (r < 0) return 0;
    if (w->nslot == w->capslot) {
        int nc = w->capslot ? w->capslot * 2 : 1024;
        wslot_t *s = realloc(w->slot, (size_t)nc * sizeof *s);
        if (!s) return -1;
        w->slot = s;
        w->capslot = nc;
    }
    w->slot[w->nslot++] = (wslot_t){ name, r, def, guarded };
    return 0;
}

static int opnd_slots(webs_t *w, ptx_opnd_t *o, int def, int guarded)
{
    switch (o->kind) {
    case OP_REG: case OP_SYM: case OP_ADDR:
        if (o->name && add_slot(w, &o->name, def, guarded) < 0) return -1;
        if (o->name2 && add_slot(w, &o->name2, def, guarded) < 0) return -1;
        return 0;
    case OP_VEC: case OP_LIST:
        for (int e = 0; e < o->nelem; e++)
            if (opnd_slots(w, &o->elem[e], def, guarded) < 0) return -1;
        return 0;
    default:
        return 0;
    }
}

/* uses before definitions within an instruction (its sources are read first) */
static int insn_slots(webs_t *w, ptx_insn_t *in)
{
    if (in->is_label) return 0;
    int first_is_dest = in->nops > 0 && !ptx_base_is(in, ptx_no_dest) && in->ops[0].kind != OP_ADDR;
    if (in->pred && add_slot(w, &in->pred, 0, 0) < 0) return -1;
    for (int i = first_is_dest ? 1 : 0; i < in->nops; i++)
        if (opnd_slots(w, &in->ops[i], 0, 0) < 0) return -1;
    if (first_is_dest && opnd_slots(w, &in->ops[0], 1, in->pred ? w->cur_insn + 1 : 0) < 0) return -1;
    return 0;
}

static void mark_not_ok(webs_t *w, ptx_opnd_t *o)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int e = 0; e < o->nelem; e++) mark_not_ok(w, &o->elem[e]);
        return;
    }
    int r = reg_find(w, o->name);
    if (r >= 0) w->ok[r] = 0;
    r = reg_find(w, o->name2);
    if (r >= 0) w->ok[r] = 0;
}

/* clears bits [a, z) */
static void bclr_range(uint64_t *s, int a, int z)
{
    while (a < z && (a % 64)) { s[a / 64] &= ~(1ull << (a % 64)); a++; }
    while (a + 64 <= z) { s[a / 64] = 0; a += 64; }
    while (a < z) { s[a / 64] &= ~(1ull << (a % 64)); a++; }
}

static int label_index(const ptx_func_t *f, const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < f->ninsns; i++)
        if (f->insns[i].is_label == 1 && f->insns[i].label && !strcmp(f->insns[i].label, name)) return i;
    return -1;
}

static int opnd_names(const ptx_opnd_t *o, const char *n)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int e = 0; e < o->nelem; e++)
            if (opnd_names(&o->elem[e], n)) return 1;
        return 0;
    }
    return (o->kind == OP_REG || o->kind == OP_SYM) && ((o->name && !strcmp(o->name, n)) || (o->name2 && !strcmp(o->name2, n)));
}
static int insn_defines(const ptx_insn_t *in, const char *n)
{
    if (in->is_label) return 0;
    if (ptx_base_is(in, (const char *const[]){ "call", NULL })) return 1;   /* its return list: maybe */
    if (in->nops < 1 || ptx_base_is(in, ptx_no_dest) || in->ops[0].kind == OP_ADDR) return 0;
    return opnd_names(&in->ops[0], n);
}
static int is_64(const ptx_insn_t *in)
{
    return in->nmods >= 2 && (!strcmp(in->mods[in->nmods - 1], "b64") || !strcmp(in->mods[in->nmods - 1], "u64") ||
                              !strcmp(in->mods[in->nmods - 1], "s64"));
}

/* Pack of an unpack: `mov.b64 {A, B}, Y` ... `mov.b64 X, {A, B}` in one basic block, with no
 * definition of A, B or Y in between, is `mov.b64 X, Y` (the lifter carries 64-bit values in
 * register pairs and rebuilds them for each address: the lane classes see the 64-bit value's
 * stride only through the rebuilt form). Returns the number rewritten. */
static int pack_of_unpack(ptx_func_t *f)
{
    int n = 0;
    for (int i = 0; i < f->ninsns; i++) {
        ptx_insn_t *pk = &f->insns[i];
        if (pk->is_label || pk->nops != 2 || !pk->mods[0] || strcmp(pk->mods[0], "mov") || !is_64(pk)) continue;
        ptx_opnd_t *v = &pk->ops[1];
        if (pk->ops[0].kind != OP_REG || v->kind != OP_VEC || v->nelem != 2 || v->elem[0].kind != OP_REG ||
            v->elem[1].kind != OP_REG || !v->elem[0].name || !v->elem[1].name || v->elem[0].name2 || v->elem[1].name2 ||
            !strcmp(v->elem[0].name, v->elem[1].name))
            continue;
        const char *A = v->elem[0].name, *B = v->elem[1].name;
        for (int j = i - 1; j >= 0; j--) {
            ptx_insn_t *u = &f->insns[j];
            if (u->is_label == 1 || (!u->is_label && ptx_base_is(u, ptx_ends_block))) break;
            if (u->is_label) continue;
            int da = insn_defines(u, A), db = insn_defines(u, B);
            if (!da && !db) continue;
            /* the latest definition of A and B: is it the unpack of one register Y? */
            if (u->pred || u->nops != 2 || strcmp(u->mods[0], "mov") || !is_64(u) || u->ops[0].kind != OP_VEC ||
                u->ops[0].nelem != 2 || u->ops[1].kind != OP_REG || !u->ops[1].name || u->ops[1].name2 ||
                u->ops[0].elem[0].kind != OP_REG || u->ops[0].elem[1].kind != OP_REG ||
                !u->ops[0].elem[0].name || !u->ops[0].elem[1].name ||
                strcmp(u->ops[0].elem[0].name, A) || strcmp(u->ops[0].elem[1].name, B))
                break;
            const char *Y = u->ops[1].name;
            int clobbered = !strcmp(Y, A) || !strcmp(Y, B);
            for (int q = j + 1; q < i && !clobbered; q++) clobbered = insn_defines(&f->insns[q], Y);
            if (!clobbered) {
                pk->ops[1].kind = OP_REG;
                pk->ops[1].name = u->ops[1].name;
                pk->ops[1].name2 = NULL;
                pk->ops[1].nelem = 0;
                pk->ops[1].elem = NULL;
                n++;
            }
            break;
        }
    }
    return n;
}

static void dump_opnd(const ptx_opnd_t *o)
{
    switch (o->kind) {
    case OP_REG: case OP_SYM:
        fprintf(stderr, "%s%s%s%s", o->neg ? "!" : "", o->name ? o->name : "_", o->name2 ? "|" : "", o->name2 ? o->name2 : "");
        if (o->off) fprintf(stderr, "%+lld", o->off);
        break;
    case OP_ADDR: fprintf(stderr, "[%s%+lld]", o->name ? o->name : "", o->off); break;
    case OP_IMM: fprintf(stderr, "0x%llx", (unsigned long long)o->imm); break;
    case OP_VEC: case OP_LIST:
        fprintf(stderr, o->kind == OP_VEC ? "{" : "(");
        for (int e = 0; e < o->nelem; e++) { if (e) fprintf(stderr, ", "); dump_opnd(&o->elem[e]); }
        fprintf(stderr, o->kind == OP_VEC ? "}" : ")");
        break;
    default: fprintf(stderr, "?"); break;
    }
}
static void dump_body(const ptx_func_t *f)
{
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label == 1) { fprintf(stderr, "%s:\n", in->label); continue; }
        if (in->is_label) continue;
        fprintf(stderr, "%d\t%s%s%s%s ", i, in->pred ? "@" : "", in->pred && in->pred_neg ? "!" : "", in->pred ? in->pred : "",
                in->pred ? " " : "");
        fprintf(stderr, "%s ", in->opcode);
        for (int o = 0; o < in->nops; o++) { if (o) fprintf(stderr, ", "); dump_opnd(&in->ops[o]); }
        fprintf(stderr, ";\n");
    }
}

int ptx_webs(ptx_prog_t *p, ptx_func_t *f)
{
    if (!npu_env("NPU_SASS_WEBS") || !f->parsed || f->parse_status != NPU_OK || f->ninsns <= 0) return 0;
    webs_t w;
    memset(&w, 0, sizeof w);
    int rc = -1, nb = 0, renamed = 0;
    int *block_of = NULL, *bfirst = NULL, *blast = NULL, *nsucc = NULL, **succ = NULL;
    uint64_t *bits = NULL;
    /* registers */
    for (int i = 0; i < f->nlocals; i++)
        if (f->locals[i].space == SP_REG) w.nr += f->locals[i].nregs ? f->locals[i].nregs : 1;
    if (!w.nr) return 0;
    w.rname = calloc((size_t)w.nr, sizeof *w.rname);
    w.rvar = calloc((size_t)w.nr, sizeof *w.rvar);
    w.ok = calloc((size_t)w.nr, sizeof *w.ok);
    for (w.hcap = 16; w.hcap < (size_t)w.nr * 2; w.hcap *= 2) {}
    w.hash = malloc(w.hcap * sizeof *w.hash);
    if (!w.rname || !w.rvar || !w.ok || !w.hash) goto out;
    memset(w.hash, 0xff, w.hcap * sizeof *w.hash);
    int r = 0;
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->space != SP_REG) continue;
        int n = v->nregs ? v->nregs : 1;
        for (int k = 0; k < n; k++, r++) {
            if (v->nregs) {
                char buf[160];
                snprintf(buf, sizeof buf, "%s%d", v->name, k);
                w.rname[r] = ptx_strndup(p, buf, strlen(buf));
                if (!w.rname[r]) goto out;
            } else w.rname[r] = v->name;
            w.rvar[r] = i;
            w.ok[r] = v->scope == 0 && v->vec <= 1;
            size_t h = wh(w.rname[r]) & (w.hcap - 1);
            while (w.hash[h] >= 0) {
                if (!strcmp(w.rname[w.hash[h]], w.rname[r])) { w.ok[w.hash[h]] = 0; break; }   /* declared twice */
                h = (h + 1) & (w.hcap - 1);
            }
            if (w.hash[h] < 0) w.hash[h] = r;
        }
    }
    /* calls: their registers stay as they are */
    for (int i = 0; i < f->ninsns; i++) {
        ptx_insn_t *in = &f->insns[i];
        if (!in->is_label && ptx_base_is(in, (const char *const[]){ "call", NULL }))
            for (int o = 0; o < in->nops; o++) mark_not_ok(&w, &in->ops[o]);
    }
    /* slots */
    w.first_slot = malloc(((size_t)f->ninsns + 1) * sizeof *w.first_slot);
    if (!w.first_slot) goto out;
    for (int i = 0; i < f->ninsns; i++) {
        w.first_slot[i] = w.nslot;
        w.cur_insn = i;
        if (insn_slots(&w, &f->insns[i]) < 0) goto out;
    }
    w.first_slot[f->ninsns] = w.nslot;
    /* definitions, contiguous per register; id def_first[r] is r's entry pseudo-def */
    w.def_first = calloc((size_t)w.nr + 1, sizeof *w.def_first);
    w.def_count = calloc((size_t)w.nr, sizeof *w.def_count);
    w.slot_def = malloc(((size_t)w.nslot + 1) * sizeof *w.slot_def);
    if (!w.def_first || !w.def_count || !w.slot_def) goto out;
    for (int s = 0; s < w.nslot; s++)
        if (w.slot[s].def) w.def_count[w.slot[s].reg]++;
    for (int k = 0; k < w.nr; k++) {
        w.def_first[k + 1] = w.def_first[k] + 1 + w.def_count[k];
        w.def_count[k] = 1;             /* now: next free id offset */
    }
    w.ndef = w.def_first[w.nr];
    for (int s = 0; s < w.nslot; s++)
        w.slot_def[s] = w.slot[s].def ? w.def_first[w.slot[s].reg] + w.def_count[w.slot[s].reg]++ : -1;
    w.uf = malloc((size_t)w.ndef * sizeof *w.uf);
    if (!w.uf) goto out;
    for (int d = 0; d < w.ndef; d++) w.uf[d] = d;
    /* blocks */
    block_of = malloc((size_t)f->ninsns * sizeof *block_of);
    bfirst = malloc(((size_t)f->ninsns + 1) * sizeof *bfirst);
    blast = malloc(((size_t)f->ninsns + 1) * sizeof *blast);
    if (!block_of || !bfirst || !blast) goto out;
    int cur = -1;
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (cur < 0 || in->is_label == 1) { cur = nb++; bfirst[cur] = i; }
        block_of[i] = cur;
        blast[cur] = i;
        if (!in->is_label && ptx_base_is(in, ptx_ends_block)) cur = -1;
    }
    int nlabels = 0;
    for (int i = 0; i < f->ninsns; i++) nlabels += f->insns[i].is_label == 1;
    nsucc = calloc((size_t)nb, sizeof *nsucc);
    succ = calloc((size_t)nb, sizeof *succ);
    if (!nsucc || !succ) goto out;
    for (int b = 0; b < nb; b++) {
        const ptx_insn_t *t = &f->insns[blast[b]];
        int brx = !t->is_label && ptx_base_is(t, (const char *const[]){ "brx", NULL });
        succ[b] = malloc(sizeof(int) * (size_t)(2 + (brx ? nlabels : 0)));
        if (!succ[b]) goto out;
        int uncond = !t->is_label && !t->pred && ptx_base_is(t, ptx_ends_block);
        if (!uncond && b + 1 < nb) succ[b][nsucc[b]++] = b + 1;
        if (!t->is_label && ptx_base_is(t, (const char *const[]){ "bra", NULL })) {
            const ptx_opnd_t *o = t->nops > 0 ? &t->ops[t->nops - 1] : NULL;
            int li = o ? label_index(f, o->name) : -1;
            if (li >= 0) succ[b][nsucc[b]++] = block_of[li];
            else if (uncond && b + 1 < nb) succ[b][nsucc[b]++] = b + 1;   /* unknown target: be safe */
        } else if (brx) {
            for (int i = 0; i < f->ninsns; i++)
                if (f->insns[i].is_label == 1) succ[b][nsucc[b]++] = block_of[i];
        }
    }
    /* reaching definitions: IN/OUT bitsets over def ids */
    size_t words = ((size_t)w.ndef + 63) / 64;
    if ((size_t)nb * 2 * words > (size_t)64 << 20) goto out;      /* 1 GiB of bits: give up */
    bits = calloc((size_t)nb * 2 * words + words, sizeof *bits);
    if (!bits) goto out;
    uint64_t *cur_set = bits + (size_t)nb * 2 * words;
#define IN(b) (bits + (size_t)(b) * 2 * words)
#define OUT(b) (IN(b) + words)
#define BSET(s, d) ((s)[(d) / 64] |= 1ull << ((d) % 64))
#define BCLR(s, d) ((s)[(d) / 64] &= ~(1ull << ((d) % 64)))
#define BGET(s, d) (((s)[(d) / 64] >> ((d) % 64)) & 1)
#define BCLR_RANGE(s, a, z) bclr_range((s), (a), (z))
    for (int k = 0; k < w.nr; k++) BSET(IN(0), w.def_first[k]);   /* entry pseudo-defs */
    for (int changed = 1, rounds = 0; changed; rounds++) {
        if (rounds > 10000) goto out;
        changed = 0;
        for (int b = 0; b < nb; b++) {
            memcpy(cur_set, IN(b), words * sizeof *cur_set);
            for (int i = bfirst[b]; i <= blast[b]; i++)
                for (int s = w.first_slot[i]; s < w.first_slot[i + 1]; s++) {
                    if (!w.slot[s].def) continue;
                    int rg = w.slot[s].reg;
                    if (!w.slot[s].guarded)
                        BCLR_RANGE(cur_set, w.def_first[rg], w.def_first[rg + 1]);
                    BSET(cur_set, w.slot_def[s]);
                }
            if (memcmp(cur_set, OUT(b), words * sizeof *cur_set)) {
                memcpy(OUT(b), cur_set, words * sizeof *cur_set);
                changed = 1;
            }
            for (int q = 0; q < nsucc[b]; q++) {
                uint64_t *in = IN(succ[b][q]);
                for (size_t x = 0; x < words; x++)
                    if (cur_set[x] & ~in[x]) { in[x] |= cur_set[x]; changed = 1; }
            }
        }
    }
    /* unions: the defs reaching each use. A use guarded like the register's latest definition
     * in the block (same predicate and sense, the predicate not written since) sees only that
     * definition: the lifter's @!P0 chains (`@!%p0 mov %td0, ..; @!%p0 st [%td0]`) would
     * otherwise merge every temporary of the kernel into one web. */
    int *use_web = malloc(((size_t)w.nslot + 1) * sizeof *use_web);
    int *last = malloc((size_t)w.nr * sizeof *last), *ver = calloc((size_t)w.nr, sizeof *ver);
    int *last_ver = malloc((size_t)w.nr * sizeof *last_ver);
    if (!use_web || !last || !ver || !last_ver) { free(use_web); free(last); free(ver); free(last_ver); goto out; }
    for (int b = 0; b < nb; b++) {
        memcpy(cur_set, IN(b), words * sizeof *cur_set);
        for (int k = 0; k < w.nr; k++) last[k] = -1;
        for (int i = bfirst[b]; i <= blast[b]; i++) {
            const ptx_insn_t *in = &f->insns[i];
            int g = !in->is_label && in->pred ? reg_find(&w, in->pred) : -1;
            for (int s = w.first_slot[i]; s < w.first_slot[i + 1]; s++) {
                int rg = w.slot[s].reg, any = -1;
                if (!w.slot[s].def) {
                    int ls = last[rg];
                    /* (not the guard itself: it is read whatever its value) */
                    if (g >= 0 && ls >= 0 && w.slot[ls].guarded && w.slot[s].name != (char **)&in->pred) {
                        const ptx_insn_t *di = &f->insns[w.slot[ls].guarded - 1];
                        int dg = reg_find(&w, di->pred);
                        if (dg == g && di->pred_neg == in->pred_neg && ver[g] == last_ver[rg]) any = w.slot_def[ls];
                    }
                    if (any < 0)
                        for (int d = w.def_first[rg]; d < w.def_first[rg + 1]; d++)
                            if (BGET(cur_set, d)) {
                                if (any < 0) any = d;
                                else uf_union(w.uf, any, d);
                            }
                    use_web[s] = any;
                    continue;
                }
                if (!w.slot[s].guarded) BCLR_RANGE(cur_set, w.def_first[rg], w.def_first[rg + 1]);
                BSET(cur_set, w.slot_def[s]);
                use_web[s] = w.slot_def[s];
                last[rg] = s;
                last_ver[rg] = g >= 0 ? ver[g] + (g == rg) : 0;
            }
            for (int s = w.first_slot[i]; s < w.first_slot[i + 1]; s++)
                if (w.slot[s].def) ver[w.slot[s].reg]++;
            if (g >= 0)
                for (int s = w.first_slot[i]; s < w.first_slot[i + 1]; s++)
                    if (w.slot[s].def && last[w.slot[s].reg] == s) last_ver[w.slot[s].reg] = ver[g];
        }
    }
    free(last); free(ver); free(last_ver);
    /* names: the web with the entry def keeps the register's name */
    int *web_name = malloc((size_t)w.ndef * sizeof *web_name);   /* root -> new local index, -1 */
    int nnew = 0;
    if (!web_name) { free(use_web); goto out; }
    for (int d = 0; d < w.ndef; d++) web_name[d] = -1;
    for (int s = 0; s < w.nslot; s++) {
        int rg = w.slot[s].reg;
        if (!w.ok[rg] || use_web[s] < 0) continue;
        int root = uf_find(w.uf, use_web[s]);
        if (root == w.def_first[rg] || web_name[root] != -1) continue;
        web_name[root] = -2 - nnew++;              /* numbered, made below */
    }
    if (nnew) {
        ptx_var_t *nl = ptx_alloc(p, (size_t)(f->nlocals + nnew) * sizeof *nl);
        if (!nl) { free(use_web); free(web_name); goto out; }
        memcpy(nl, f->locals, (size_t)f->nlocals * sizeof *nl);
        int base = f->nlocals;
        char **names = calloc((size_t)nnew, sizeof *names);
        if (!names) { free(use_web); free(web_name); goto out; }
        int kk = 0;
        for (int s = 0; s < w.nslot; s++) {
            int rg = w.slot[s].reg;
            if (!w.ok[rg] || use_web[s] < 0) continue;
            int root = uf_find(w.uf, use_web[s]);
            if (web_name[root] > -2) continue;
            int idx = -2 - web_name[root];
            if (!names[idx]) {
                char buf[192];
                snprintf(buf, sizeof buf, "%s_w%d", w.rname[rg], kk++);
                names[idx] = ptx_strndup(p, buf, strlen(buf));
                if (!names[idx]) { free(names); free(use_web); free(web_name); goto out; }
                ptx_var_t *v = &nl[base + idx];
                *v = f->locals[w.rvar[rg]];
                v->name = names[idx];
                v->nregs = 0;
                v->count = 1;
                v->is_array = 0;
            }
            *w.slot[s].name = names[idx];
            renamed++;
        }
        free(names);
        f->locals = nl;
        f->nlocals = base + nnew;
    }
    free(use_web);
    free(web_name);
    int npk = pack_of_unpack(f);
    if (ptx_dump_enabled("webs"))
        fprintf(stderr, "== ptx webs: %s: %d registers, %d definitions, %d new registers, %d operands renamed, %d packs of unpacks\n",
                f->name, w.nr, w.ndef - w.nr, nnew, renamed, npk);
    if (ptx_dump_enabled("webs")) dump_body(f);
    rc = nnew;
out:
    if (rc < 0) NPU_DEBUG("ptx: %s: register webs skipped (out of memory or too large)", f->name);
    free(bits);
    if (succ) for (int b = 0; b < nb; b++) free(succ[b]);
    free(succ); free(nsucc); free(block_of); free(bfirst); free(blast);
    free(w.rname); free(w.rvar); free(w.ok); free(w.hash); free(w.slot); free(w.first_slot);
    free(w.def_first); free(w.def_count); free(w.slot_def); free(w.uf);
    return rc;
}
