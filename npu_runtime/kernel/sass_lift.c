/*
 * sass_lift.c - decoded SASS (sass_decode.c) of a cubin (cubin.c) -> PTX text for the one
 * translator. Each kernel becomes one .entry, the cubin's data objects module variables, so
 * cuModuleGetGlobal / cudaMemcpyToSymbol / __managed__ work as for PTX modules.
 *
 * DESIGN
 *  Registers. R0..R254 -> .b32 %r<n>, UR0..UR62 -> %ur<n>, P0..P6 -> %p<n>, UP0..UP6 ->
 *  %up<n>; RZ/URZ read as 0 and writes to them are dropped, PT/UPT read as %pt (true). Values
 *  wider than 32 bits are pairs (R2.64 = {R2, R3}) formed with mov.b64 {lo, hi}. Floats live in
 *  the same .b32 registers (PTX relaxed typing: the translator reinterprets bits). Temporaries
 *  of one instruction are %t<n> (.b32), %td<n> (.b64), %tq<n> (.pred): every SASS instruction
 *  reads all its sources before writing a destination, so each is lifted as "compute into
 *  temporaries, then write", which keeps `IMAD.WIDE R4, R4, R5, R4` right.
 *  Guards: @P / @!P becomes the PTX guard of every line the instruction emits.
 *  Constant bank 0 (npu_cubin_cbank0_layout): blockDim/gridDim -> %ntid/%nctaid, the shared
 *  window -> the generic address of shared offset 0 (cvta.shared), the local window -> the
 *  address of the kernel's stack array, the initial stack pointer -> the stack's size (R1
 *  counts down from there; LDL/STL [R1+x] -> ld/st.local at stack + R1 + x), the global
 *  memory descriptor -> 0 (we have one flat address space), parameters -> ld.param of the
 *  entry's parameters (declared from EIATTR_KPARAM_INFO at exactly its offsets). Bank 2
 *  (compiler constants, jump tables) -> a .const array per kernel; bank 3 (__constant__) ->
 *  the named module variables; bank 4 (addresses the driver patches in) -> a .const .u64
 *  array whose slots name the variables (initialiser) or hold a call token for externs.
 *  Control flow: code addresses are offsets in the kernel's section. BRA -> bra; EXIT -> ret;
 *  CALL.REL (the caller put the return offset in a register) -> bra, RET.REL Rn -> a compare
 *  chain over the call sites' return offsets; BRX Rn -> a compare chain over the targets of
 *  EIATTR_INDIRECT_BRANCH_TARGETS; CALL.ABS to an extern (vprintf, malloc, free,
 *  __assertfail) -> the PTX call with the SASS ABI's argument registers (R4 up, 64-bit in
 *  pairs, result in R4). BSSY/BSYNC/BREAK/YIELD/NOP have no meaning for a thread run alone.
 *  Semantics follow Mesa NAK's constant folder (ir.rs Foldable: IADD3/IADD3.X carries as a
 *  33/34-bit sum, ISETP .EX taking the low compare when the high words are equal, LEA/.HI,
 *  SHF clamp/wrap) and NVIDIA's PTX ISA for what PTX has directly.
 *
 *  Decisions, with the evidence that chose them:
 *  - Warp collectives. SHFL/VOTE/REDUX/MATCH take the mask of the WARPSYNC before them in
 *    straight-line code; without one, VOTE/REDUX/MATCH take activemask (ptxas's idioms mean
 *    the converged lanes: VOTEU.ANY UR, UPT, PT is __activemask() in warp-aggregated atomics;
 *    MATCH.ANY + REDUX.OR + a LOP3 mask test guard BRA.CONV before __syncwarp(mask)) and SHFL
 *    the full warp (nvcc emits no WARPSYNC for a constant full mask). ptxas's convergence
 *    tests always choose their general path, which is correct whatever the convergence:
 *    BRA.CONV falls through (to the __cuda_sm70_warpsync call), BRA.DIV branches (to the
 *    __cuda_sm70_*sync calls), R2UR Pu (is the value uniform?) answers false. k_warp_sites
 *    (sm_80: collectives met at different sites, partial warps) hung before and passes.
 *  - Address registers. Each shared/global load and store gets a register of its own
 *    (%ta<n>, %tda<n>) holding its address. With one temporary for all addresses the lockstep
 *    pass (ptx_lockstep.c) took every pair of accesses for "the same register, the same
 *    offset: the thread's own element" and placed no stop between CUB's WarpExchange stores
 *    and loads (sm_75 SASS has no __syncwarp there: a NOP): DeviceScan::ExclusiveSum gave
 *    h[0] for every element; exact since.
 *  - Physical registers stay physical by default. ptx_webs.c splits them into webs (one
 *    register per set of definitions reaching common uses; a pack of an unpack read as the
 *    packed register) with NPU_SASS_WEBS=1, so the translator's flow-insensitive analyses
 *    see one value per register as on nvcc's PTX: ATen's vectorized add (R2/R3 pairs rebuilt
 *    for every address, one %t0 for all temporaries) then gets uniform parameters, affine
 *    addresses and vector loads in its lane copy (27 -> 12-13 us per launch, 256x128 f32).
 *    Opt-in until the sasslift programs ptx_webs.c lists pass with it. Without webs a reused
 *    register gets the join of its values' classes; passes that assumed nvcc's
 *    one-register-per-value habit were fixed where SASS broke them (ptx_emit.c: a masked
 *    write is masked when its register is live at any enclosing region's join).
 *  - Indirect calls (CALL.REL.NOINC Rn): a compare chain over the section's functions'
 *    offsets (the values function pointers hold in cubin.c's model) and a trap. Recursion or
 *    indirect calls add 1024 bytes (cudaLimitStackSize's default) to the kernel's stack array.
 */
#include "sass_lift.h"
#include "sass.h"

#include "../npu_obs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ string builder ---- */
typedef struct lsb { char *s; size_t n, cap; int oom; } lsb_t;

static void lsb_vadd(lsb_t *b, const char *fmt, va_list ap)
{
    if (b->oom) return;
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (k < 0) { b->oom = 1; return; }
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 8192;
        while (nc < b->n + (size_t)k + 1) nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) { b->oom = 1; return; }
        b->s = ns;
        b->cap = nc;
    }
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    b->n += (size_t)k;
}

static void __attribute__((format(printf, 2, 3))) lsb_add(lsb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lsb_vadd(b, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------ context ---- */
#define LIFT_NSTR 64

typedef struct lift {
    const npu_cubin_t *cb;
    const npu_cubin_kernel_t *k;
    unsigned ki;                /* kernel index (names of per-kernel arrays) */
    npu_cubin_cbank0_t c0;
    sass_insn_t *ins;
    int n;
    char *label;                /* per instruction: a label precedes it */
    lsb_t *o;                   /* the kernel body */
    const sass_insn_t *cur;
    int dyn_calls;              /* calls through pointers or recursion: a runtime-sized stack */
    char g[24];                 /* guard prefix of the current instruction ("@!%p0 ") */
    int nt, nd, nq;             /* temporaries used by the current instruction */
    int mt, md, mq;             /* ... most used by any (declarations) */
    int na, nda;                /* address registers %ta<n> / %tda<n>: one per shared/global access */
    char strs[LIFT_NSTR][96];   /* operand texts of the current instruction */
    int nstrs;
    npu_status_t st;
    uint32_t stack;             /* bytes of the stack array (initial R1) */
    uint32_t stack_align;       /* ... its alignment */
    int uses_c2, uses_c4;
    uint32_t *retsites; int nret;   /* return offsets of CALL.REL sites */
    uint32_t warpsync_reg;      /* last WARPSYNC's mask operand in straight-line code */
    int warpsync_kind;          /* 0 none (full warp), 1 register, 2 immediate */
    uint32_t warpsync_imm;
} lift_t;

static const char *S(lift_t *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *S(lift_t *L, const char *fmt, ...)
{
    char *b = L->strs[L->nstrs++ % LIFT_NSTR];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof L->strs[0], fmt, ap);
    va_end(ap);
    return b;
}

static const char *TQ(lift_t *L);

/* One line under the instruction's guard. A line with its own predicate ("@%q bra L") under
 * a guard becomes "@(guard and q)": PTX takes one guard. */
static void __attribute__((format(printf, 2, 3))) E(lift_t *L, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (L->g[0] && fmt[0] == '@') {
        char line[512];
        vsnprintf(line, sizeof line, fmt, ap);
        va_end(ap);
        const char *p = line + 1, *sp = strchr(line, ' ');
        int neg = *p == '!';
        if (neg) p++;
        if (!sp) { lsb_add(L->o, "\t%s%s\n", L->g, line); return; }
        const char *g = TQ(L);
        lsb_add(L->o, "\t%s.pred %s, %%%s%u;\n", L->cur->guard_not ? "not" : "mov", g, L->cur->guard_uniform ? "up" : "p", L->cur->guard);
        if (neg) {
            const char *t = TQ(L);
            lsb_add(L->o, "\tnot.pred %s, %.*s;\n", t, (int)(sp - p), p);
            lsb_add(L->o, "\tand.pred %s, %s, %s;\n", g, g, t);
        } else lsb_add(L->o, "\tand.pred %s, %s, %.*s;\n", g, g, (int)(sp - p), p);
        lsb_add(L->o, "\t@%s%s\n", g, sp);
        return;
    }
    lsb_add(L->o, "\t%s", L->g);
    lsb_vadd(L->o, fmt, ap);
    va_end(ap);
    lsb_add(L->o, "\n");
}

/* Machine code we cannot run is counted in the migration report's unsupported table as
 * "SASS <opcode> (sm_NN)", so users learn which instructions to ask for. The report keys its
 * rows by the name's address: the names are interned here for the life of the process. */
static void fail(lift_t *L, npu_status_t st, const char *what)
{
    if (L->st != NPU_OK) return;
    L->st = st;
    char txt[160] = "?";
    if (L->cur) sass_format(L->cur, txt, sizeof txt);
    NPU_ERR("sass: kernel %s (sm_%u): pc 0x%llx: %s: %s [%016llx %016llx]", L->k ? L->k->name : "?", L->cb->sm,
            L->cur ? (unsigned long long)L->cur->pc : 0ull, what, txt,
            L->cur ? (unsigned long long)L->cur->raw[0] : 0ull, L->cur ? (unsigned long long)L->cur->raw[1] : 0ull);
    if (st == NPU_EPTXUNSUP)
        npu_report_unsupported_fmt("SASS %s (sm_%u)", L->cur ? sass_op_name((sass_op_t)L->cur->op) : "?", L->cb->sm);
}

static const char *T32(lift_t *L) { if (++L->nt > L->mt) L->mt = L->nt; return S(L, "%%t%d", L->nt - 1); }
static const char *T64(lift_t *L) { if (++L->nd > L->md) L->md = L->nd; return S(L, "%%td%d", L->nd - 1); }
static const char *TQ(lift_t *L) { if (++L->nq > L->mq) L->mq = L->nq; return S(L, "%%tq%d", L->nq - 1); }

static int has(const sass_insn_t *in, sass_mod_t m) { return sass_has_mod(in, m); }

/* ---------------------------------------------------------- register names ---- */
static const char *rname(lift_t *L, const sass_operand_t *o, int i)
{
    unsigned r = (unsigned)o->reg + (unsigned)i;
    if (o->kind == SASS_OPND_UREG) return r >= SASS_URZ ? "0" : S(L, "%%ur%u", r);
    return r >= SASS_RZ ? "0" : S(L, "%%r%u", r);
}
static const char *rdst(lift_t *L, const sass_operand_t *o, int i)
{
    unsigned r = (unsigned)o->reg + (unsigned)i;
    if (o->kind == SASS_OPND_UREG) return r >= SASS_URZ ? "%rzs" : S(L, "%%ur%u", r);
    return r >= SASS_RZ ? "%rzs" : S(L, "%%r%u", r);
}
/* a predicate source with its ! applied (a fresh temporary when negated) */
static const char *psrc(lift_t *L, const sass_operand_t *o)
{
    const char *p = o->reg >= SASS_PT ? "%pt" : S(L, "%%%s%u", o->kind == SASS_OPND_UPRED ? "up" : "p", o->reg);
    if (!(o->flags & SASS_OF_NOT)) return p;
    const char *q = TQ(L);
    E(L, "not.pred %s, %s;", q, p);
    return q;
}
static const char *pdst(lift_t *L, const sass_operand_t *o)
{
    if (o->reg >= SASS_PT) return "%pzs";
    return S(L, "%%%s%u", o->kind == SASS_OPND_UPRED ? "up" : "p", o->reg);
}

/* ----------------------------------------------------------- constant banks ---- */
/* The parameter holding byte [off, off + sz) of the parameter area, and the byte inside it. */
static int param_at(const npu_cubin_kernel_t *k, uint32_t off, uint32_t sz, uint32_t *inside)
{
    for (uint32_t i = 0; i < k->nparams; i++)
        if (off >= k->params[i].offset && off + sz <= k->params[i].offset + k->params[i].size) {
            *inside = off - k->params[i].offset;
            return (int)k->params[i].ordinal;
        }
    return -1;
}

/* the byte offset of a static constant-bank operand: the encoding's 16-bit field is signed
 * (nvdisasm prints ULDC.64 UR4, c[0x0][-0x6590] for a parameter at 0x9a70 of a kernel with
 * 32 KB of parameters) and a bank is 64 KB, so it wraps there */
static uint32_t coff(const sass_operand_t *o) { return (uint32_t)o->imm & 0xffffu; }

/* where the parameters start in bank 0: the kernel's EIATTR_PARAM_CBANK offset (0x1a80 for
 * parameter blocks over 0x1100 bytes), else the architecture's */
static uint32_t pbase(const lift_t *L)
{
    return L->k->has_param_cbank ? L->k->param_base : (uint32_t)L->c0.param_base;
}

/* 32-bit word of constant bank `bank` at byte offset off (static). */
static const char *cbank32(lift_t *L, unsigned bank, uint32_t off)
{
    const npu_cubin_cbank0_t *c = &L->c0;
    const char *t = T32(L);
    if (bank == 0) {
        if (off >= pbase(L)) {
            uint32_t in = 0;
            int p = param_at(L->k, off - pbase(L), 4, &in);
            if (p < 0) {   /* bytes between parameters (padding): read as 0 like an unset slot */
                E(L, "mov.b32 %s, 0;", t);
                return t;
            }
            E(L, "ld.param.b32 %s, [__p%d+%u];", t, p, in);
            return t;
        }
        if (off >= (uint32_t)c->ntid && off < (uint32_t)c->ntid + 12 && !(off & 3)) {
            E(L, "mov.u32 %s, %%ntid.%c;", t, "xyz"[(off - (uint32_t)c->ntid) / 4]);
            return t;
        }
        if (off >= (uint32_t)c->nctaid && off < (uint32_t)c->nctaid + 12 && !(off & 3)) {
            E(L, "mov.u32 %s, %%nctaid.%c;", t, "xyz"[(off - (uint32_t)c->nctaid) / 4]);
            return t;
        }
        if (c->shared_window >= 0 && (off == (uint32_t)c->shared_window || off == (uint32_t)c->shared_window + 4)) {
            E(L, "mov.b64 {%%t_lo, %%t_hi}, %%shwin;");
            E(L, "mov.b32 %s, %s;", t, off == (uint32_t)c->shared_window ? "%t_lo" : "%t_hi");
            return t;
        }
        if (off == (uint32_t)c->local_window || off == (uint32_t)c->local_window + 4) {
            E(L, "mov.b64 {%%t_lo, %%t_hi}, %%lwin;");
            E(L, "mov.b32 %s, %s;", t, off == (uint32_t)c->local_window ? "%t_lo" : "%t_hi");
            return t;
        }
        if (off == (uint32_t)c->stack_init) { E(L, "mov.b32 %s, %u;", t, L->stack); return t; }
        if (off == (uint32_t)c->dynamic_smem_size) { E(L, "mov.u32 %s, %%dynamic_smem_size;", t); return t; }
        if (c->mem_desc >= 0 && (off == (uint32_t)c->mem_desc || off == (uint32_t)c->mem_desc + 4)) {
            E(L, "mov.b32 %s, 0;", t);   /* one flat address space: the descriptor means nothing */
            return t;
        }
        if (c->reserved_smem >= 0 && off == (uint32_t)c->reserved_smem) { E(L, "mov.b32 %s, 0;", t); return t; }
        if (off == (uint32_t)c->nsmid) { E(L, "mov.u32 %s, %%nsmid;", t); return t; }
        if (off >= (uint32_t)c->envreg && off < (uint32_t)c->envreg + 128 && !(off & 3)) {
            E(L, "mov.u32 %s, %%envreg%u;", t, (off - (uint32_t)c->envreg) / 4);
            return t;
        }
        if (off == (uint32_t)c->gridid || off == (uint32_t)c->gridid + 4) {
            E(L, "mov.u64 %%t_64, %%gridid;");
            E(L, "mov.b64 {%%t_lo, %%t_hi}, %%t_64;");
            E(L, "mov.b32 %s, %s;", t, off == (uint32_t)c->gridid ? "%t_lo" : "%t_hi");
            return t;
        }
        fail(L, NPU_EPTXUNSUP, S(L, "constant bank 0 offset 0x%x (driver area) is not modelled", off));
        return "0";
    }
    if (bank == 2) {
        if (off + 4 > L->k->cmem2_size) { fail(L, NPU_ECUBIN, "read past .nv.constant2"); return "0"; }
        L->uses_c2 = 1;
        E(L, "ld.const.b32 %s, [__c2_%u+%u];", t, L->ki, off);
        return t;
    }
    if (bank == 3) {
        for (uint32_t i = 0; i < L->cb->nvars; i++) {
            const npu_cubin_var_t *v = &L->cb->vars[i];
            if (v->kind == NPU_CUBIN_VAR_CONST && off >= v->offset && off + 4 <= v->offset + v->size) {
                E(L, "ld.const.b32 %s, [%s+%llu];", t, v->name, (unsigned long long)(off - v->offset));
                return t;
            }
        }
        fail(L, NPU_EPTXUNSUP, S(L, "c[0x3][0x%x] is in no named __constant__ variable", off));
        return "0";
    }
    if (bank == 4) {
        if (off + 4 > L->cb->const4_size) { fail(L, NPU_ECUBIN, "read past .nv.constant4"); return "0"; }
        L->uses_c4 = 1;
        E(L, "ld.const.b32 %s, [__c4+%u];", t, off);
        return t;
    }
    fail(L, NPU_EPTXUNSUP, S(L, "constant bank %u", bank));
    return "0";
}

/* c[bank][ix + off] with ix known only at run time (LDC, register-indexed ULDC): a load
 * through the address of the bank's array. size 4 -> a .b32 temporary, 8 -> a .b64 one. */
static const char *cbank_dyn_t(lift_t *L, unsigned bank, const char *ix, uint32_t off, unsigned size, const char *ty);
static const char *cbank_dyn(lift_t *L, unsigned bank, const char *ix, uint32_t off, unsigned size)
{
    return cbank_dyn_t(L, bank, ix, off, size, NULL);
}

/* ... of type ty (u8, s8, u16, s16; NULL: b<size*8>) */
static const char *cbank_dyn_t(lift_t *L, unsigned bank, const char *ix, uint32_t off, unsigned size, const char *ty)
{
    const char *a = T64(L), *x = T64(L);
    const char *sp = "const";
    E(L, "cvt.u64.u32 %s, %s;", x, ix);
    if (bank == 0) {
        /* the index may reach the parameters from below (c[0x0][R9+0x15c] with R9 >= 4:
         * an array parameter indexed from -1) */
        if (off + 0x1000u < pbase(L) || !L->k->nparams) {
            fail(L, NPU_EPTXUNSUP, "register-indexed read of constant bank 0 outside the parameters");
            return "0";
        }
        /* parameters are one packed buffer; __p0 is its first byte (KPARAM offset 0) */
        E(L, "mov.u64 %s, __p0;", a);
        E(L, "add.u64 %s, %s, %lld;", a, a, (long long)off - (long long)pbase(L) - (long long)L->k->params[0].offset);
        sp = "param";
    } else if (bank == 2) {
        L->uses_c2 = 1;
        E(L, "mov.u64 %s, __c2_%u;", a, L->ki);
        E(L, "add.u64 %s, %s, %u;", a, a, off);
    } else if (bank == 3) {
        const npu_cubin_var_t *v = NULL;
        for (uint32_t i = 0; i < L->cb->nvars && !v; i++)
            if (L->cb->vars[i].kind == NPU_CUBIN_VAR_CONST && off >= L->cb->vars[i].offset &&
                off < L->cb->vars[i].offset + L->cb->vars[i].size)
                v = &L->cb->vars[i];
        if (!v) { fail(L, NPU_EPTXUNSUP, "register-indexed c[0x3] read outside a named variable"); return "0"; }
        E(L, "mov.u64 %s, %s;", a, v->name);
        E(L, "add.u64 %s, %s, %llu;", a, a, (unsigned long long)(off - v->offset));
    } else if (bank == 4) {
        L->uses_c4 = 1;
        E(L, "mov.u64 %s, __c4;", a);
        E(L, "add.u64 %s, %s, %u;", a, a, off);
    } else {
        fail(L, NPU_EPTXUNSUP, S(L, "register-indexed constant bank %u", bank));
        return "0";
    }
    E(L, "add.u64 %s, %s, %s;", a, a, x);
    const char *t = size == 8 ? T64(L) : T32(L);
    if (ty) E(L, "ld.%s.%s %s, [%s];", sp, ty, t, a);
    else E(L, "ld.%s.b%u %s, [%s];", sp, size * 8, t, a);
    return t;
}

/* ------------------------------------------------------------------ sources ---- */
/* 32-bit value of a source operand, modifiers not applied (callers apply them). */
static const char *src(lift_t *L, const sass_operand_t *o)
{
    switch (o->kind) {
    case SASS_OPND_REG: case SASS_OPND_UREG: return rname(L, o, 0);
    case SASS_OPND_IMM: return S(L, "0x%x", (uint32_t)o->imm);
    case SASS_OPND_FIMM: return S(L, "0x%x", (uint32_t)o->imm);   /* bit pattern */
    case SASS_OPND_CBANK: {
        if (o->flags & SASS_OF_CX) { fail(L, NPU_EPTXUNSUP, "constant bank selected by a uniform register"); return "0"; }
        if (o->reg2kind) {   /* c[bank][Rn + off]: an address computed at run time */
            const char *ix = o->reg2kind == SASS_OPND_UREG ? (o->reg2 >= SASS_URZ ? "0" : S(L, "%%ur%u", o->reg2))
                                                           : (o->reg2 >= SASS_RZ ? "0" : S(L, "%%r%u", o->reg2));
            return cbank_dyn(L, o->bank, ix, (uint32_t)o->imm, 4);
        }
        return cbank32(L, o->bank, coff(o));
    }
    default:
        fail(L, NPU_EPTXUNSUP, "operand kind");
        return "0";
    }
}

/* 64-bit value of a source: a register pair, 8 bytes of a constant bank, an immediate
 * (sign-extended). */
static const char *src64(lift_t *L, const sass_operand_t *o)
{
    const char *t = T64(L);
    switch (o->kind) {
    case SASS_OPND_REG: case SASS_OPND_UREG:
        E(L, "mov.b64 %s, {%s, %s};", t, rname(L, o, 0), rname(L, o, 1));
        return t;
    case SASS_OPND_IMM:
        E(L, "mov.b64 %s, %lld;", t, (long long)(int32_t)o->imm);
        return t;
    case SASS_OPND_CBANK:
        if (o->reg2kind) {
            const char *ix = o->reg2kind == SASS_OPND_UREG ? (o->reg2 >= SASS_URZ ? "0" : S(L, "%%ur%u", o->reg2))
                                                           : (o->reg2 >= SASS_RZ ? "0" : S(L, "%%r%u", o->reg2));
            return cbank_dyn(L, o->bank, ix, (uint32_t)o->imm, 8);
        } else {
            const char *lo = cbank32(L, o->bank, coff(o)), *hi = cbank32(L, o->bank, coff(o) + 4);
            E(L, "mov.b64 %s, {%s, %s};", t, lo, hi);
            return t;
        }
    default:
        fail(L, NPU_EPTXUNSUP, "64-bit operand kind");
        return t;
    }
}

/* writes a .b64 value to a register pair */
static void dst64(lift_t *L, const sass_operand_t *o, const char *v)
{
    if (o->reg >= (o->kind == SASS_OPND_UREG ? SASS_URZ : SASS_RZ)) return;
    E(L, "mov.b64 {%s, %s}, %s;", rdst(L, o, 0), rdst(L, o, 1), v);
}

/* integer source with its - (two's complement) or ~ (bitwise not) applied */
static const char *isrc(lift_t *L, const sass_operand_t *o)
{
    const char *v = src(L, o);
    if (o->flags & SASS_OF_NEG) { const char *t = T32(L); E(L, "neg.s32 %s, %s;", t, v); return t; }
    if (o->flags & SASS_OF_NOT) { const char *t = T32(L); E(L, "not.b32 %s, %s;", t, v); return t; }
    return v;
}

/* f32 source with - and |x| applied (on the bits: -0 and NaN payloads stay exact) */
static const char *fsrc(lift_t *L, const sass_operand_t *o)
{
    /* a float immediate in a float instruction is PTX's 0f<bits> (0x<bits> would be an
     * integer converted to float) */
    const char *v = o->kind == SASS_OPND_FIMM || o->kind == SASS_OPND_IMM ? S(L, "0f%08X", (uint32_t)o->imm) : src(L, o);
    if (o->kind == SASS_OPND_REG && o->reg >= SASS_RZ) v = "0x00000000";
    if (o->flags & (SASS_OF_ABS | SASS_OF_NEG)) {
        const char *t = T32(L);
        if (o->flags & SASS_OF_ABS) { E(L, "and.b32 %s, %s, 0x7fffffff;", t, v); v = t; }
        if (o->flags & SASS_OF_NEG) { E(L, "xor.b32 %s, %s, 0x80000000;", t, v); v = t; }
    }
    return v;
}

/* f64 source (a register pair, a c[][] pair, or a float immediate holding the high word) */
static const char *dsrc(lift_t *L, const sass_operand_t *o)
{
    const char *v;
    if (o->kind == SASS_OPND_FIMM && o->ftype == SASS_FT_F32) {   /* an f32 immediate in a double op */
        v = T64(L);
        const char *f = T32(L);
        E(L, "mov.b32 %s, 0x%x;", f, (uint32_t)o->imm);
        E(L, "cvt.f64.f32 %s, %s;", v, f);
    } else if (o->kind == SASS_OPND_FIMM) {
        v = T64(L);
        E(L, "mov.b64 %s, 0x%llx;", v, (unsigned long long)((uint64_t)(uint32_t)o->imm << 32));
    } else if (o->kind == SASS_OPND_IMM) {
        v = T64(L);
        E(L, "mov.b64 %s, 0x%llx;", v, (unsigned long long)((uint64_t)(uint32_t)o->imm << 32));
    } else v = src64(L, o);
    if (o->flags & (SASS_OF_ABS | SASS_OF_NEG)) {
        const char *t = T64(L);
        if (o->flags & SASS_OF_ABS) { E(L, "and.b64 %s, %s, 0x7fffffffffffffff;", t, v); v = t; }
        if (o->flags & SASS_OF_NEG) { E(L, "xor.b64 %s, %s, 0x8000000000000000;", t, v); v = t; }
    }
    return v;
}

static void dst32(lift_t *L, const sass_operand_t *o, const char *v)
{
    if (o->kind == SASS_OPND_PRED || o->kind == SASS_OPND_UPRED) { E(L, "setp.ne.u32 %s, %s, 0;", pdst(L, o), v); return; }
    if (o->reg >= (o->kind == SASS_OPND_UREG ? SASS_URZ : SASS_RZ)) return;
    E(L, "mov.b32 %s, %s;", rdst(L, o, 0), v);
}

/* predicate value as 0/1 in a .b32 temporary */
static const char *p01(lift_t *L, const sass_operand_t *o)
{
    const char *t = T32(L);
    E(L, "selp.u32 %s, 1, 0, %s;", t, psrc(L, o));
    return t;
}

/* ------------------------------------------------------------ integer ALU ---- */
/* first operand index at or after i that is not a predicate destination */
static int skip_preds(const sass_insn_t *in, int i)
{
    while (i < in->nopnds && (in->opnd[i].kind == SASS_OPND_PRED || in->opnd[i].kind == SASS_OPND_UPRED)) i++;
    return i;
}

static void op_iadd3(lift_t *L, const sass_insn_t *in)
{
    const sass_operand_t *d = &in->opnd[0];
    int s0 = skip_preds(in, 1), ncout = s0 - 1;
    if (s0 + 3 > in->nopnds) { fail(L, NPU_ECUBIN, "IADD3 operands"); return; }
    int x = has(in, SASS_MOD_X);
    int ncin = x ? in->nopnds - (s0 + 3) : 0;
    if (!ncout && !x) {   /* the common case stays 32-bit arithmetic (lane analyses see adds) */
        const char *acc = NULL;
        for (int i = 0; i < 3; i++) {
            const sass_operand_t *o = &in->opnd[s0 + i];
            const char *v = src(L, o);
            if (o->kind != SASS_OPND_IMM && !strcmp(v, "0")) continue;
            if (o->kind == SASS_OPND_IMM && (uint32_t)o->imm == 0) continue;
            if (!acc) {
                if (o->flags & SASS_OF_NEG) { const char *t = T32(L); E(L, "neg.s32 %s, %s;", t, v); acc = t; }
                else acc = v;
                continue;
            }
            const char *t = T32(L);
            E(L, "%s.u32 %s, %s, %s;", (o->flags & SASS_OF_NEG) ? "sub" : "add", t, acc, v);
            acc = t;
        }
        dst32(L, d, acc ? acc : "0");
        return;
    }
    /* the sum as 64 bits (NAK: a negated source adds ~x + 1; .X sources are bitwise not) */
    const char *sum = T64(L);
    E(L, "mov.b64 %s, 0;", sum);
    for (int i = 0; i < 3; i++) {
        const sass_operand_t *o = &in->opnd[s0 + i];
        const char *v = src(L, o), *w = T64(L);
        if (o->flags & (SASS_OF_NEG | SASS_OF_NOT)) { const char *t = T32(L); E(L, "not.b32 %s, %s;", t, v); v = t; }
        E(L, "cvt.u64.u32 %s, %s;", w, v);
        E(L, "add.u64 %s, %s, %s;", sum, sum, w);
        if ((o->flags & SASS_OF_NEG) && !x) E(L, "add.u64 %s, %s, 1;", sum, sum);
    }
    for (int i = 0; i < ncin; i++) {
        const char *c = p01(L, &in->opnd[s0 + 3 + i]), *w = T64(L);
        E(L, "cvt.u64.u32 %s, %s;", w, c);
        E(L, "add.u64 %s, %s, %s;", sum, sum, w);
    }
    for (int i = 0; i < ncout; i++)
        E(L, "setp.ge.u64 %s, %s, 0x%llx;", pdst(L, &in->opnd[1 + i]), sum, (unsigned long long)(i ? 2ull << 32 : 1ull << 32));
    const char *lo = T32(L);
    E(L, "cvt.u32.u64 %s, %s;", lo, sum);
    dst32(L, d, lo);
}

static void op_imad(lift_t *L, const sass_insn_t *in)
{
    /* IMAD[.WIDE][.HI][.X][.U32] d, [Pcout,] a, b, c[, Pcin] */
    const sass_operand_t *d = &in->opnd[0];
    int s0 = skip_preds(in, 1);
    const sass_operand_t *PC = s0 > 1 ? &in->opnd[1] : NULL;
    if (s0 + 3 > in->nopnds) { fail(L, NPU_ECUBIN, "IMAD operands"); return; }
    const sass_operand_t *A = &in->opnd[s0], *B = &in->opnd[s0 + 1], *C = &in->opnd[s0 + 2];
    int wide = has(in, SASS_MOD_WIDE), hi = has(in, SASS_MOD_HI), x = has(in, SASS_MOD_X);
    int sgn = !has(in, SASS_MOD_U32);
    const char *cin = x && s0 + 3 < in->nopnds ? p01(L, &in->opnd[s0 + 3]) : NULL;
    if (has(in, SASS_MOD_MOV) && !wide && !hi && !cin && !PC) {   /* RZ * RZ + c */
        dst32(L, d, isrc(L, C));
        return;
    }
    const char *a = isrc(L, A), *b = isrc(L, B);
    if (wide) {
        const char *c = src64(L, C);
        if (C->flags & SASS_OF_NEG) E(L, "neg.s64 %s, %s;", c, c);
        const char *r = T64(L), *p = T64(L);
        /* the product first (it fits: < 2^64), then the adds, so the carry out is r < c */
        E(L, "mul.wide.%s32 %s, %s, %s;", sgn ? "s" : "u", p, a, b);
        if (cin) { const char *w = T64(L); E(L, "cvt.u64.u32 %s, %s;", w, cin); E(L, "add.u64 %s, %s, %s;", p, p, w); }
        E(L, "add.u64 %s, %s, %s;", r, p, c);
        if (PC && PC->reg < SASS_PT) E(L, "setp.lt.u64 %s, %s, %s;", pdst(L, PC), r, c);
        dst64(L, d, r);
        return;
    }
    if (hi) {
        /* IMAD.HI d, a, b, c: c is the register pair c:c+1 (ptxas's reciprocal refinement
         * IMAD.HI.U32 R7, R7, R23, R6 after R6 = 0 is R7 + umulhi(R7, R23)); d = the high word
         * of a*b + c64, the carry out bit 64 of that sum */
        const char *c = src64(L, C);
        if (C->flags & SASS_OF_NEG) E(L, "neg.s64 %s, %s;", c, c);
        const char *p = T64(L), *sum = T64(L), *ph = T32(L), *pl = T32(L), *r = T32(L);
        E(L, "mul.wide.%s32 %s, %s, %s;", sgn ? "s" : "u", p, a, b);
        E(L, "add.u64 %s, %s, %s;", sum, p, c);
        E(L, "mov.b64 {%s, %s}, %s;", pl, ph, sum);
        if (cin) E(L, "add.u32 %s, %s, %s;", r, ph, cin);
        else E(L, "mov.b32 %s, %s;", r, ph);
        if (PC && PC->reg < SASS_PT) {
            const char *q = pdst(L, PC), *q2 = TQ(L);
            E(L, "setp.lt.u64 %s, %s, %s;", q, sum, c);
            if (cin) { E(L, "setp.lt.u32 %s, %s, %s;", q2, r, ph); E(L, "or.pred %s, %s, %s;", q, q, q2); }
        }
        dst32(L, d, r);
        return;
    }
    const char *c = isrc(L, C), *r = T32(L);
    if (PC && PC->reg < SASS_PT) {   /* a 32-bit IMAD with a carry out: the low word's sum as 64 bits */
        const char *p = T32(L), *sum = T64(L), *w = T64(L);
        E(L, "mul.lo.u32 %s, %s, %s;", p, a, b);
        E(L, "cvt.u64.u32 %s, %s;", sum, p);
        E(L, "cvt.u64.u32 %s, %s;", w, c);
        E(L, "add.u64 %s, %s, %s;", sum, sum, w);
        if (cin) { const char *w2 = T64(L); E(L, "cvt.u64.u32 %s, %s;", w2, cin); E(L, "add.u64 %s, %s, %s;", sum, sum, w2); }
        E(L, "setp.ge.u64 %s, %s, 0x100000000;", pdst(L, PC), sum);
        E(L, "cvt.u32.u64 %s, %s;", r, sum);
        dst32(L, d, r);
        return;
    }
    E(L, "mad.lo.u32 %s, %s, %s, %s;", r, a, b, c);
    if (cin) E(L, "add.u32 %s, %s, %s;", r, r, cin);
    dst32(L, d, r);
}

static void op_lop3(lift_t *L, const sass_insn_t *in)
{
    /* LOP3.LUT [Pd,] Rd, a, b, c, lut, Pq: Rd = lut(a, b, c); Pd = (Rd != 0) OR Pq (AND with .PAND) */
    int i = 0;
    const sass_operand_t *pd = NULL;
    if (in->opnd[0].kind == SASS_OPND_PRED || in->opnd[0].kind == SASS_OPND_UPRED) pd = &in->opnd[i++];
    if (in->nopnds < i + 5) { fail(L, NPU_ECUBIN, "LOP3 operands"); return; }
    const sass_operand_t *d = &in->opnd[i];
    const char *a = isrc(L, &in->opnd[i + 1]), *b = isrc(L, &in->opnd[i + 2]), *c = isrc(L, &in->opnd[i + 3]);
    unsigned lut = (unsigned)in->opnd[i + 4].imm & 0xff;
    const char *r = T32(L);
    E(L, "lop3.b32 %s, %s, %s, %s, 0x%x;", r, a, b, c, lut);
    if (pd && pd->reg < SASS_PT) {
        const char *q = TQ(L);
        E(L, "setp.ne.u32 %s, %s, 0;", q, r);
        if (in->nopnds > i + 5) {
            const char *pq = psrc(L, &in->opnd[i + 5]);
            E(L, "%s.pred %s, %s, %s;", has(in, SASS_MOD_PAND) ? "and" : "or", q, q, pq);
        }
        E(L, "mov.pred %s, %s;", pdst(L, pd), q);
    }
    dst32(L, d, r);
}

static const char *cmp_name(const sass_insn_t *in, int fp)
{
    static const struct { sass_mod_t m; const char *s; } t[] = {
        {SASS_MOD_LT, "lt"}, {SASS_MOD_EQ, "eq"}, {SASS_MOD_LE, "le"}, {SASS_MOD_GT, "gt"}, {SASS_MOD_NE, "ne"},
        {SASS_MOD_GE, "ge"}, {SASS_MOD_NUM, "num"}, {SASS_MOD_NAN, "nan"}, {SASS_MOD_LTU, "ltu"}, {SASS_MOD_EQU, "equ"},
        {SASS_MOD_LEU, "leu"}, {SASS_MOD_GTU, "gtu"}, {SASS_MOD_NEU, "neu"}, {SASS_MOD_GEU, "geu"},
        {SASS_MOD_F, "f"}, {SASS_MOD_T, "t"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (has(in, t[i].m)) return t[i].s;
    (void)fp;
    return NULL;
}

static const char *bool_op(const sass_insn_t *in)
{
    return has(in, SASS_MOD_OR) ? "or" : has(in, SASS_MOD_XOR) ? "xor" : "and";
}

/* Pd = cmp op Pc; Pq = !cmp op Pc */
static void set_pair(lift_t *L, const sass_insn_t *in, const sass_operand_t *pd, const sass_operand_t *pq,
                     const char *cmp, const sass_operand_t *pc)
{
    const char *c = pc ? psrc(L, pc) : "%pt", *op = bool_op(in);
    const char *r1 = TQ(L), *r2 = TQ(L), *nc = TQ(L);
    E(L, "%s.pred %s, %s, %s;", op, r1, cmp, c);
    if (pq && pq->reg < SASS_PT) {
        E(L, "not.pred %s, %s;", nc, cmp);
        E(L, "%s.pred %s, %s, %s;", op, r2, nc, c);
    }
    if (pd->reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, pd), r1);
    if (pq && pq->reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, pq), r2);
}

static void op_isetp(lift_t *L, const sass_insn_t *in)
{
    /* ISETP.cmp[.U32].op[.EX] Pd, Pq, a, b, Pc[, Plow] */
    if (in->nopnds < 5) { fail(L, NPU_ECUBIN, "ISETP operands"); return; }
    const char *cmp = cmp_name(in, 0);
    if (!cmp) { fail(L, NPU_EPTXUNSUP, "ISETP comparison"); return; }
    int u = has(in, SASS_MOD_U32);
    const char *a = isrc(L, &in->opnd[2]), *b = isrc(L, &in->opnd[3]);
    const char *q = TQ(L);
    if (!strcmp(cmp, "t") || !strcmp(cmp, "f")) E(L, "setp.%s.u32 %s, 0, 0;", *cmp == 't' ? "eq" : "ne", q);
    else E(L, "setp.%s.%s32 %s, %s, %s;", cmp, u ? "u" : "s", q, a, b);
    if (has(in, SASS_MOD_EX)) {   /* the high words of a 64-bit compare: equal -> the low words' result */
        if (in->nopnds < 6) { fail(L, NPU_ECUBIN, "ISETP.EX operands"); return; }
        const char *eq = TQ(L), *lo = psrc(L, &in->opnd[5]);
        E(L, "setp.eq.u32 %s, %s, %s;", eq, a, b);
        const char *t1 = TQ(L), *ne = TQ(L);
        E(L, "and.pred %s, %s, %s;", t1, eq, lo);
        E(L, "not.pred %s, %s;", ne, eq);
        E(L, "and.pred %s, %s, %s;", q, ne, q);
        E(L, "or.pred %s, %s, %s;", q, q, t1);
    }
    set_pair(L, in, &in->opnd[0], &in->opnd[1], q, &in->opnd[4]);
}

static void op_shf(lift_t *L, const sass_insn_t *in)
{
    /* SHF.{L,R}[.W].{U32,S32,U64,S64}[.HI] d, lo, shift, hi (NAK: x = hi:lo; shift clamped to
     * the type's bits, or wrapped with .W; .HI returns the high word) */
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "SHF operands"); return; }
    int right = has(in, SASS_MOD_R), w = has(in, SASS_MOD_W), hi = has(in, SASS_MOD_HI);
    int bits = (has(in, SASS_MOD_U64) || has(in, SASS_MOD_S64)) ? 64 : 32;
    int sgn = has(in, SASS_MOD_S32) || has(in, SASS_MOD_S64);
    const char *lo = src(L, &in->opnd[1]), *sh = src(L, &in->opnd[2]), *h = src(L, &in->opnd[3]);
    const char *x = T64(L), *n = T32(L), *r = T64(L), *n64 = T32(L);
    E(L, "mov.b64 %s, {%s, %s};", x, lo, h);
    if (w) E(L, "and.b32 %s, %s, %d;", n, sh, bits - 1);
    else E(L, "min.u32 %s, %s, %d;", n, sh, bits);
    /* PTX shifts by >= 64 give 0 (or the sign for shr.s64), as NAK's checked shifts */
    E(L, "mov.b32 %s, %s;", n64, n);
    if (right) E(L, "shr.%s64 %s, %s, %s;", sgn ? "s" : "u", r, x, n64);
    else E(L, "shl.b64 %s, %s, %s;", r, x, n64);
    const char *a = T32(L), *b = T32(L);
    E(L, "mov.b64 {%s, %s}, %s;", a, b, r);
    dst32(L, &in->opnd[0], hi ? b : a);
}

static void op_lea(lift_t *L, const sass_insn_t *in)
{
    /* LEA[.HI][.X][.SX32] d, [Pcout,] a, b, [a_high,] shift[, Pcin] (NAK OpLea/OpLeaX) */
    int hi = has(in, SASS_MOD_HI), x = has(in, SASS_MOD_X), sx = has(in, SASS_MOD_SX32);
    int s0 = skip_preds(in, 1), ncout = s0 - 1;
    int nsrc = hi && !sx ? 4 : 3;
    if (s0 + nsrc > in->nopnds) { fail(L, NPU_ECUBIN, "LEA operands"); return; }
    const sass_operand_t *A = &in->opnd[s0], *B = &in->opnd[s0 + 1];
    const sass_operand_t *AH = hi && !sx ? &in->opnd[s0 + 2] : NULL, *SH = &in->opnd[s0 + nsrc - 1];
    const sass_operand_t *CIN = x && s0 + nsrc < in->nopnds ? &in->opnd[s0 + nsrc] : NULL;
    unsigned sh = (unsigned)SH->imm & 63;
    const char *a = src(L, A), *b = src(L, B), *t = T32(L);
    if (hi) {
        const char *ah;
        if (sx) { ah = T32(L); E(L, "shr.s32 %s, %s, 31;", ah, a); }
        else ah = src(L, AH);
        const char *x64 = T64(L);
        E(L, "mov.b64 %s, {%s, %s};", x64, a, ah);
        E(L, "shr.u64 %s, %s, %u;", x64, x64, 32 - sh);
        E(L, "cvt.u32.u64 %s, %s;", t, x64);
    } else E(L, "shl.b32 %s, %s, %u;", t, a, sh);
    /* modifiers: non-.X negates (two's complement), .X complements */
    int aneg = (A->flags & (SASS_OF_NEG | SASS_OF_NOT)) != 0, bneg = (B->flags & (SASS_OF_NEG | SASS_OF_NOT)) != 0;
    const char *sum = T64(L), *w = T64(L), *u = T32(L);
    if (aneg) { E(L, "not.b32 %s, %s;", u, t); t = u; }
    E(L, "cvt.u64.u32 %s, %s;", sum, t);
    if (aneg && !x) E(L, "add.u64 %s, %s, 1;", sum, sum);
    const char *bb = b;
    if (bneg) { const char *v = T32(L); E(L, "not.b32 %s, %s;", v, b); bb = v; }
    E(L, "cvt.u64.u32 %s, %s;", w, bb);
    E(L, "add.u64 %s, %s, %s;", sum, sum, w);
    if (bneg && !x) E(L, "add.u64 %s, %s, 1;", sum, sum);
    if (CIN) { const char *c = p01(L, CIN), *w2 = T64(L); E(L, "cvt.u64.u32 %s, %s;", w2, c); E(L, "add.u64 %s, %s, %s;", sum, sum, w2); }
    if (ncout) E(L, "setp.ge.u64 %s, %s, 0x100000000;", pdst(L, &in->opnd[1]), sum);
    const char *r = T32(L);
    E(L, "cvt.u32.u64 %s, %s;", r, sum);
    dst32(L, &in->opnd[0], r);
}

static void op_sel(lift_t *L, const sass_insn_t *in, int fp)
{
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "SEL operands"); return; }
    const char *a = fp ? fsrc(L, &in->opnd[1]) : isrc(L, &in->opnd[1]);
    const char *b = fp ? fsrc(L, &in->opnd[2]) : isrc(L, &in->opnd[2]);
    const char *p = psrc(L, &in->opnd[3]), *r = T32(L);
    E(L, "selp.b32 %s, %s, %s, %s;", r, a, b, p);
    dst32(L, &in->opnd[0], r);
}

static void op_imnmx(lift_t *L, const sass_insn_t *in)
{
    /* IMNMX[.U32] d, a, b, Pmin: Pmin true -> min */
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "IMNMX operands"); return; }
    const char *ty = has(in, SASS_MOD_U32) ? "u32" : "s32";
    const char *a = isrc(L, &in->opnd[1]), *b = isrc(L, &in->opnd[2]), *p = psrc(L, &in->opnd[3]);
    const char *mn = T32(L), *mx = T32(L), *r = T32(L);
    E(L, "min.%s %s, %s, %s;", ty, mn, a, b);
    E(L, "max.%s %s, %s, %s;", ty, mx, a, b);
    E(L, "selp.b32 %s, %s, %s, %s;", r, mn, mx, p);
    dst32(L, &in->opnd[0], r);
}

static void op_unary_int(lift_t *L, const sass_insn_t *in)
{
    const sass_operand_t *d = &in->opnd[0];
    const char *a = isrc(L, &in->opnd[in->nopnds - 1]), *r = T32(L);
    switch (in->op) {
    case SASS_OP_IABS: E(L, "abs.s32 %s, %s;", r, a); break;
    case SASS_OP_POPC: case SASS_OP_UPOPC: E(L, "popc.b32 %s, %s;", r, a); break;
    case SASS_OP_BREV: case SASS_OP_UBREV: E(L, "brev.b32 %s, %s;", r, a); break;
    case SASS_OP_FLO: case SASS_OP_UFLO:   /* FLO[.U32|.S32][.SH]: bfind (0xffffffff for no bit) */
        E(L, "bfind%s.%s32 %s, %s;", has(in, SASS_MOD_SH) ? ".shiftamt" : "", has(in, SASS_MOD_U32) ? "u" : "s", r, a);   /* no type: .S32 (nvdisasm omits the default) */
        break;
    default: fail(L, NPU_EPTXUNSUP, "unary op"); return;
    }
    dst32(L, d, r);
}

static void op_prmt(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "PRMT operands"); return; }
    const char *mode = has(in, SASS_MOD_F4E) ? ".f4e" : has(in, SASS_MOD_B4E) ? ".b4e" : has(in, SASS_MOD_RC8) ? ".rc8" :
                       has(in, SASS_MOD_ECL) ? ".ecl" : has(in, SASS_MOD_ECR) ? ".ecr" : has(in, SASS_MOD_RC16) ? ".rc16" : "";
    const char *a = src(L, &in->opnd[1]), *s = src(L, &in->opnd[2]), *b = src(L, &in->opnd[3]), *r = T32(L);
    E(L, "prmt.b32%s %s, %s, %s, %s;", mode, r, a, b, s);
    dst32(L, &in->opnd[0], r);
}

static void op_bmsk(lift_t *L, const sass_insn_t *in)
{
    /* BMSK[.W] d, pos, width: width ones from bit pos (clamped, or wrapped with .W) */
    const char *pos = src(L, &in->opnd[1]), *wd = src(L, &in->opnd[2]);
    const char *p = T32(L), *w = T32(L), *r = T32(L), *m = T64(L), *x = T64(L);
    int wrap = has(in, SASS_MOD_W);
    E(L, "%s %s, %s, %s;", wrap ? "and.b32" : "min.u32", p, pos, wrap ? "31" : "32");
    E(L, "%s %s, %s, %s;", wrap ? "and.b32" : "min.u32", w, wd, wrap ? "31" : "32");
    E(L, "mov.b64 %s, 1;", m);
    E(L, "shl.b64 %s, %s, %s;", m, m, w);
    E(L, "sub.u64 %s, %s, 1;", m, m);
    E(L, "shl.b64 %s, %s, %s;", m, m, p);
    E(L, "cvt.u32.u64 %s, %s;", r, m);
    (void)x;
    dst32(L, &in->opnd[0], r);
}

static void op_sgxt(lift_t *L, const sass_insn_t *in)
{
    /* SGXT[.W][.U32] d, a, bits: keep the low `bits` bits, sign-extend (zero for .U32) */
    const char *a = src(L, &in->opnd[1]), *n = src(L, &in->opnd[2]), *c = T32(L), *r = T32(L);
    int wrap = has(in, SASS_MOD_W);
    E(L, "%s %s, %s, %s;", wrap ? "and.b32" : "min.u32", c, n, wrap ? "31" : "32");
    E(L, "bfe.%s32 %s, %s, 0, %s;", has(in, SASS_MOD_U32) ? "u" : "s", r, a, c);
    dst32(L, &in->opnd[0], r);
}

static void op_mov(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 2) { fail(L, NPU_ECUBIN, "MOV operands"); return; }
    const sass_operand_t *d = &in->opnd[0], *s = &in->opnd[1];
    if (d->width == 64 || has(in, SASS_MOD_64)) { dst64(L, d, src64(L, s)); return; }
    dst32(L, d, src(L, s));
}

static const char *sreg(lift_t *L, unsigned n, int *w64)
{
    *w64 = 0;
    switch (n) {
    case 0: return "%laneid";
    case 33: return "%tid.x";
    case 34: return "%tid.y";
    case 35: return "%tid.z";
    case 37: return "%ctaid.x";
    case 38: return "%ctaid.y";
    case 39: return "%ctaid.z";
    case 56: return "%lanemask_eq";
    case 57: return "%lanemask_lt";
    case 58: return "%lanemask_le";
    case 59: return "%lanemask_gt";
    case 60: return "%lanemask_ge";
    case 67: return "%smid";        /* SR_VIRTUALSMID */
    case 80: *w64 = 1; return "%clock64";          /* SR_CLOCKLO (CS2R reads both words) */
    case 81: *w64 = 2; return "%clock64";          /* SR_CLOCKHI */
    case 82: *w64 = 1; return "%globaltimer";      /* SR_GLOBALTIMERLO */
    case 83: *w64 = 2; return "%globaltimer";
    default: return NULL;
    }
    (void)L;
}

static void op_s2r(lift_t *L, const sass_insn_t *in)
{
    const sass_operand_t *d = &in->opnd[0], *s = &in->opnd[1];
    if (s->kind != SASS_OPND_SREG) {   /* CS2R R, SRZ */
        if (d->width == 64) dst64(L, d, "0");
        else dst32(L, d, "0");
        return;
    }
    int w64;
    const char *nm = sass_sreg_name(s->reg);
    if (nm && !strcmp(nm, "SRZ")) {   /* the zero special register */
        if (d->width == 64) dst64(L, d, "0");
        else dst32(L, d, "0");
        return;
    }
    if (s->reg == 3) {   /* SR_VIRTID: the warp's id in bits 8..14 (ptxas reads %warpid so) */
        const char *t = T32(L);
        E(L, "mov.u32 %s, %%warpid;", t);
        E(L, "shl.b32 %s, %s, 8;", t, t);
        dst32(L, d, t);
        return;
    }
    const char *n = sreg(L, s->reg, &w64);
    if (!n) { fail(L, NPU_EPTXUNSUP, S(L, "special register %s", sass_sreg_name(s->reg) ? sass_sreg_name(s->reg) : "?")); return; }
    if (w64) {
        const char *t = T64(L), *lo = T32(L), *hi = T32(L);
        E(L, "mov.u64 %s, %s;", t, n);
        if (d->width == 64) { dst64(L, d, t); return; }
        E(L, "mov.b64 {%s, %s}, %s;", lo, hi, t);
        dst32(L, d, w64 == 2 ? hi : lo);
        return;
    }
    const char *t = T32(L);
    E(L, "mov.u32 %s, %s;", t, n);
    dst32(L, d, t);
}

static void op_plop3(lift_t *L, const sass_insn_t *in)
{
    /* PLOP3.LUT Pd, Pq, a, b, c, lut, lut2: Pd = lut(a, b, c), Pq = lut2(a, b, c) */
    if (in->nopnds < 7) { fail(L, NPU_ECUBIN, "PLOP3 operands"); return; }
    const char *v[3];
    for (int i = 0; i < 3; i++) {
        const char *t = T32(L);
        E(L, "selp.b32 %s, 0xffffffff, 0, %s;", t, psrc(L, &in->opnd[2 + i]));
        v[i] = t;
    }
    for (int k = 0; k < 2; k++) {
        const sass_operand_t *pd = &in->opnd[k];
        if (pd->reg >= SASS_PT) continue;
        const char *r = T32(L);
        E(L, "lop3.b32 %s, %s, %s, %s, 0x%x;", r, v[0], v[1], v[2], (unsigned)in->opnd[5 + k].imm & 0xff);
        E(L, "setp.ne.u32 %s, %s, 0;", pdst(L, pd), r);
    }
}

static void op_p2r(lift_t *L, const sass_insn_t *in)
{
    /* P2R[.B1/.B2/.B3] d, PR, a, mask: d = a with the byte (0..3) replaced by (preds & mask) */
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "P2R operands"); return; }
    unsigned byte = has(in, SASS_MOD_B1) ? 1 : has(in, SASS_MOD_B2) ? 2 : has(in, SASS_MOD_B3) ? 3 : 0;
    const char *a = src(L, &in->opnd[2]), *m = src(L, &in->opnd[3]);
    const char *pr = T32(L), *t = T32(L), *r = T32(L), *mk = T32(L), *nm = T32(L);
    E(L, "mov.b32 %s, 0;", pr);
    for (int i = 0; i < 7; i++) {
        E(L, "selp.b32 %s, %d, 0, %%p%d;", t, 1 << i, i);
        E(L, "or.b32 %s, %s, %s;", pr, pr, t);
    }
    E(L, "and.b32 %s, %s, 0xff;", mk, m);
    E(L, "and.b32 %s, %s, %s;", pr, pr, mk);
    E(L, "shl.b32 %s, %s, %u;", pr, pr, byte * 8);
    E(L, "shl.b32 %s, %s, %u;", mk, mk, byte * 8);
    E(L, "not.b32 %s, %s;", nm, mk);
    E(L, "and.b32 %s, %s, %s;", r, a, nm);
    E(L, "or.b32 %s, %s, %s;", r, r, pr);
    dst32(L, &in->opnd[0], r);
}

static void op_r2p(lift_t *L, const sass_insn_t *in)
{
    /* R2P PR, a[.B1..B3], mask: P_i = bit i of the byte, for the bits set in mask */
    if (in->nopnds < 3) { fail(L, NPU_ECUBIN, "R2P operands"); return; }
    const sass_operand_t *A = &in->opnd[1];
    unsigned byte = A->sel == SASS_SEL_B1 ? 1 : A->sel == SASS_SEL_B2 ? 2 : A->sel == SASS_SEL_B3 ? 3 : 0;
    if (in->opnd[2].kind != SASS_OPND_IMM) { fail(L, NPU_EPTXUNSUP, "R2P with a register mask"); return; }
    unsigned mask = (unsigned)in->opnd[2].imm;
    const char *a = src(L, A), *t = T32(L);
    for (int i = 0; i < 7; i++) {
        if (!(mask >> i & 1)) continue;
        E(L, "and.b32 %s, %s, %u;", t, a, 1u << (i + 8 * byte));
        E(L, "setp.ne.u32 %%p%d, %s, 0;", i, t);
    }
}

/* --------------------------------------------------------------- float ALU ---- */
static const char *rnd(const sass_insn_t *in, const char *dflt)
{
    return has(in, SASS_MOD_RM) ? ".rm" : has(in, SASS_MOD_RP) ? ".rp" : has(in, SASS_MOD_RZ) ? ".rz" : dflt;
}

static void op_ffp(lift_t *L, const sass_insn_t *in)
{
    const char *ftz = has(in, SASS_MOD_FTZ) || has(in, SASS_MOD_FMZ) ? ".ftz" : "", *sat = has(in, SASS_MOD_SAT) ? ".sat" : "";
    if (has(in, SASS_MOD_D2) || has(in, SASS_MOD_D4) || has(in, SASS_MOD_D8) || has(in, SASS_MOD_M2) ||
        has(in, SASS_MOD_M4) || has(in, SASS_MOD_M8)) { fail(L, NPU_EPTXUNSUP, "FMUL with a scale"); return; }
    const char *r = T32(L);
    if (in->op == SASS_OP_FFMA) {
        if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "FFMA operands"); return; }
        const char *a = fsrc(L, &in->opnd[1]), *b = fsrc(L, &in->opnd[2]), *c = fsrc(L, &in->opnd[3]);
        E(L, "fma%s%s%s.f32 %s, %s, %s, %s;", rnd(in, ".rn"), ftz, sat, r, a, b, c);
    } else {
        if (in->nopnds < 3) { fail(L, NPU_ECUBIN, "FADD/FMUL operands"); return; }
        const char *a = fsrc(L, &in->opnd[1]), *b = fsrc(L, &in->opnd[2]);
        E(L, "%s%s%s%s.f32 %s, %s, %s;", in->op == SASS_OP_FADD ? "add" : "mul", rnd(in, ".rn"), ftz, sat, r, a, b);
    }
    dst32(L, &in->opnd[0], r);
}

static void op_fmnmx(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "FMNMX operands"); return; }
    const char *ftz = has(in, SASS_MOD_FTZ) ? ".ftz" : "";
    const char *a = fsrc(L, &in->opnd[1]), *b = fsrc(L, &in->opnd[2]), *p = psrc(L, &in->opnd[3]);
    const char *mn = T32(L), *mx = T32(L), *r = T32(L);
    const char *nan = has(in, SASS_MOD_NAN) ? ".NaN" : "";   /* FMNMX.NAN: a NaN operand gives the canonical NaN */
    E(L, "min%s%s.f32 %s, %s, %s;", ftz, nan, mn, a, b);
    E(L, "max%s%s.f32 %s, %s, %s;", ftz, nan, mx, a, b);
    E(L, "selp.b32 %s, %s, %s, %s;", r, mn, mx, p);
    dst32(L, &in->opnd[0], r);
}

/* DSETP.{MIN,MAX}.AND Pa, Pn, a, b, PT (how ptxas builds fmin/fmax of doubles, followed by
 * selects of a where Pa and a quiet-NaN bit where Pn): Pa = "a is the result" with IEEE
 * minNum/maxNum's NaN rule and -0 < +0, Pn = both are NaN */
static void op_dminmax(lift_t *L, const sass_insn_t *in, int mx)
{
    const char *a = dsrc(L, &in->opnd[2]), *b = dsrc(L, &in->opnd[3]);
    const char *na = TQ(L), *nb = TQ(L), *lt = TQ(L), *eq = TQ(L), *sa = TQ(L), *r = TQ(L), *t = TQ(L);
    E(L, "setp.nan.f64 %s, %s, %s;", na, a, a);
    E(L, "setp.nan.f64 %s, %s, %s;", nb, b, b);
    E(L, "setp.%s.f64 %s, %s, %s;", mx ? "gt" : "lt", lt, a, b);
    E(L, "setp.eq.f64 %s, %s, %s;", eq, a, b);
    const char *hi = T32(L), *lo = T32(L);
    E(L, "mov.b64 {%s, %s}, %s;", lo, hi, a);
    E(L, "setp.%s.s32 %s, %s, 0;", mx ? "ge" : "lt", sa, hi);   /* sign of a: min takes -0, max +0 */
    E(L, "and.pred %s, %s, %s;", eq, eq, sa);
    E(L, "or.pred %s, %s, %s;", lt, lt, eq);
    E(L, "not.pred %s, %s;", t, na);
    E(L, "and.pred %s, %s, %s;", r, lt, t);
    E(L, "or.pred %s, %s, %s;", r, r, nb);
    if (in->opnd[0].reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, &in->opnd[0]), r);
    if (in->opnd[1].reg < SASS_PT) E(L, "and.pred %s, %s, %s;", pdst(L, &in->opnd[1]), na, nb);
}

static void op_fsetp(lift_t *L, const sass_insn_t *in, int dbl)
{
    if (in->nopnds < 5) { fail(L, NPU_ECUBIN, "FSETP operands"); return; }
    if (dbl && (has(in, SASS_MOD_MIN) || has(in, SASS_MOD_MAX))) { op_dminmax(L, in, has(in, SASS_MOD_MAX)); return; }
    const char *cmp = cmp_name(in, 1);
    if (!cmp) { fail(L, NPU_EPTXUNSUP, "FSETP comparison"); return; }
    const char *q = TQ(L);
    if (!strcmp(cmp, "t") || !strcmp(cmp, "f")) E(L, "setp.%s.u32 %s, 0, 0;", *cmp == 't' ? "eq" : "ne", q);
    else if (dbl) E(L, "setp.%s.f64 %s, %s, %s;", cmp, q, dsrc(L, &in->opnd[2]), dsrc(L, &in->opnd[3]));
    else E(L, "setp.%s%s.f32 %s, %s, %s;", cmp, has(in, SASS_MOD_FTZ) ? ".ftz" : "", q, fsrc(L, &in->opnd[2]), fsrc(L, &in->opnd[3]));
    set_pair(L, in, &in->opnd[0], &in->opnd[1], q, &in->opnd[4]);
}

static void op_fset(lift_t *L, const sass_insn_t *in)
{
    /* FSET[.BF].cmp.op d, a, b, Pc: d = (cmp op Pc) ? (1.0 with .BF, else all ones) : 0 */
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "FSET operands"); return; }
    const char *cmp = cmp_name(in, 1);
    if (!cmp || !strcmp(cmp, "t") || !strcmp(cmp, "f")) { fail(L, NPU_EPTXUNSUP, "FSET comparison"); return; }
    const char *q = TQ(L), *r = T32(L), *c = psrc(L, &in->opnd[3]);
    E(L, "setp.%s%s.f32 %s, %s, %s;", cmp, has(in, SASS_MOD_FTZ) ? ".ftz" : "", q, fsrc(L, &in->opnd[1]), fsrc(L, &in->opnd[2]));
    E(L, "%s.pred %s, %s, %s;", bool_op(in), q, q, c);
    E(L, "selp.b32 %s, %s, 0, %s;", r, has(in, SASS_MOD_BF) ? "0x3f800000" : "0xffffffff", q);
    dst32(L, &in->opnd[0], r);
}

static void op_mufu(lift_t *L, const sass_insn_t *in)
{
    const char *a = fsrc(L, &in->opnd[1]), *r = T32(L);
    if (has(in, SASS_MOD_RCP)) E(L, "rcp.approx.ftz.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_RSQ)) E(L, "rsqrt.approx.ftz.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_EX2)) E(L, "ex2.approx.ftz.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_LG2)) E(L, "lg2.approx.ftz.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_SIN) || has(in, SASS_MOD_COS)) {
        /* MUFU.SIN/COS take the angle in turns: ptxas multiplies by 1/(2 pi) first
         * (FMUL.RZ R0, R2, 0.15915493667125701904) */
        const char *x = T32(L);
        E(L, "mul.ftz.f32 %s, %s, 0f40C90FDB;", x, a);
        E(L, "%s.approx.ftz.f32 %s, %s;", has(in, SASS_MOD_SIN) ? "sin" : "cos", r, x);
    }
    else if (has(in, SASS_MOD_SQRT)) E(L, "sqrt.approx.ftz.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_TANH)) E(L, "tanh.approx.f32 %s, %s;", r, a);
    else if (has(in, SASS_MOD_RCP64H) || has(in, SASS_MOD_RSQ64H)) {
        /* the high word of an approximate 1/x (1/sqrt(x)) of the double whose high word is a;
         * double-precision code refines it with DFMA Newton steps */
        const char *x = T64(L), *y = T64(L), *lo = T32(L);
        E(L, "mov.b64 %s, {0, %s};", x, a);
        if (has(in, SASS_MOD_RCP64H)) E(L, "rcp.rn.f64 %s, %s;", y, x);
        else E(L, "rsqrt.approx.f64 %s, %s;", y, x);
        E(L, "mov.b64 {%s, %s}, %s;", lo, r, y);
    } else { fail(L, NPU_EPTXUNSUP, "MUFU function"); return; }
    dst32(L, &in->opnd[0], r);
}

static void op_frnd(lift_t *L, const sass_insn_t *in)
{
    const char *m = has(in, SASS_MOD_TRUNC) ? "rzi" : has(in, SASS_MOD_FLOOR) ? "rmi" : has(in, SASS_MOD_CEIL) ? "rpi" : "rni";
    const char *ftz = has(in, SASS_MOD_FTZ) ? ".ftz" : "";
    if (has(in, SASS_MOD_F64)) {
        const char *r = T64(L);
        E(L, "cvt.%s.f64.f64 %s, %s;", m, r, dsrc(L, &in->opnd[1]));
        dst64(L, &in->opnd[0], r);
        return;
    }
    const char *r = T32(L);
    E(L, "cvt.%s%s.f32.f32 %s, %s;", m, ftz, r, fsrc(L, &in->opnd[1]));
    dst32(L, &in->opnd[0], r);
}

static void op_dfp(lift_t *L, const sass_insn_t *in)
{
    const char *r = T64(L);
    if (in->op == SASS_OP_DFMA) {
        const char *a = dsrc(L, &in->opnd[1]), *b = dsrc(L, &in->opnd[2]), *c = dsrc(L, &in->opnd[3]);
        E(L, "fma%s.f64 %s, %s, %s, %s;", rnd(in, ".rn"), r, a, b, c);
    } else {
        const char *a = dsrc(L, &in->opnd[1]), *b = dsrc(L, &in->opnd[2]);
        E(L, "%s%s.f64 %s, %s, %s;", in->op == SASS_OP_DADD ? "add" : "mul", rnd(in, ".rn"), r, a, b);
    }
    dst64(L, &in->opnd[0], r);
}

/* conversion type of a modifier list position: the first float/int type after the op */
static const char *ctype(sass_mod_t m)
{
    switch (m) {
    case SASS_MOD_U8: return "u8"; case SASS_MOD_S8: return "s8"; case SASS_MOD_U16: return "u16";
    case SASS_MOD_S16: return "s16"; case SASS_MOD_U32: return "u32"; case SASS_MOD_S32: return "s32";
    case SASS_MOD_U64: return "u64"; case SASS_MOD_S64: return "s64"; case SASS_MOD_F16: return "f16";
    case SASS_MOD_BF16: return "bf16"; case SASS_MOD_F32: return "f32"; case SASS_MOD_F64: return "f64";
    default: return NULL;
    }
}

static void op_cvt(lift_t *L, const sass_insn_t *in)
{
    /* F2F / F2I / I2F [.dtype][.stype][.rounding]: nvdisasm prints the destination type first
     * when both are there; a missing one is f32 (float side) or s32 (integer side) */
    const char *t[2] = {NULL, NULL};
    int nt = 0;
    for (int i = 0; i < in->nmods && nt < 2; i++) { const char *c = ctype((sass_mod_t)in->mods[i]); if (c) t[nt++] = c; }
    const char *dt, *st;
    int f2i = in->op == SASS_OP_F2I, i2f = in->op == SASS_OP_I2F;
    if (nt == 2) { dt = t[0]; st = t[1]; }
    else if (nt == 1) {
        if (f2i) { dt = t[0][0] == 'f' || t[0][0] == 'b' ? "s32" : t[0]; st = t[0][0] == 'f' || t[0][0] == 'b' ? t[0] : "f32"; }
        else if (i2f) { dt = t[0][0] == 'f' || t[0][0] == 'b' ? t[0] : "f32"; st = t[0][0] == 'f' || t[0][0] == 'b' ? "s32" : t[0]; }
        else { dt = t[0]; st = "f32"; }
    } else { dt = f2i ? "s32" : "f32"; st = f2i ? "f32" : i2f ? "s32" : "f32"; }
    const char *r;
    const char *mode;
    if (f2i) mode = has(in, SASS_MOD_TRUNC) ? ".rzi" : has(in, SASS_MOD_FLOOR) ? ".rmi" : has(in, SASS_MOD_CEIL) ? ".rpi" : ".rni";
    else if (i2f) mode = rnd(in, ".rn");
    else {   /* F2F: float to float; to a narrower type rounds, to integer-valued with TRUNC... */
        int widen = (!strcmp(st, "f32") && !strcmp(dt, "f64")) || ((!strcmp(st, "f16") || !strcmp(st, "bf16")) && dt[0] == 'f' && strcmp(dt, "f16"));
        mode = widen ? "" : rnd(in, ".rn");
        if (has(in, SASS_MOD_TRUNC)) mode = ".rzi";
        else if (has(in, SASS_MOD_FLOOR)) mode = ".rmi";
        else if (has(in, SASS_MOD_CEIL)) mode = ".rpi";
    }
    const char *ftz = has(in, SASS_MOD_FTZ) && (!strcmp(st, "f32") || !strcmp(dt, "f32")) ? ".ftz" : "";
    const char *sat = has(in, SASS_MOD_SAT) ? ".sat" : "";
    int s64 = !strcmp(st, "f64") || !strcmp(st, "s64") || !strcmp(st, "u64");
    int d64 = !strcmp(dt, "f64") || !strcmp(dt, "s64") || !strcmp(dt, "u64");
    const sass_operand_t *S0 = &in->opnd[in->nopnds - 1];
    const char *a;
    if (s64) a = st[0] == 'f' ? dsrc(L, S0) : src64(L, S0);
    else if (st[0] == 'f' && !strcmp(st, "f32")) a = fsrc(L, S0);
    else {
        a = src(L, S0);
        if (S0->sel == SASS_SEL_H1 || S0->sel == SASS_SEL_B1 || S0->sel == SASS_SEL_B2 || S0->sel == SASS_SEL_B3) {
            unsigned sh = S0->sel == SASS_SEL_H1 ? 16 : S0->sel == SASS_SEL_B1 ? 8 : S0->sel == SASS_SEL_B2 ? 16 : 24;
            const char *u = T32(L);
            E(L, "shr.u32 %s, %s, %u;", u, a, sh);
            a = u;
        }
        if (S0->flags & SASS_OF_NEG) { const char *u = T32(L); E(L, "neg.s32 %s, %s;", u, a); a = u; }
        if (S0->flags & SASS_OF_ABS) { const char *u = T32(L); E(L, "abs.s32 %s, %s;", u, a); a = u; }
    }
    r = d64 ? T64(L) : T32(L);
    /* 8/16-bit and f16 operands live in 32-bit registers: cvt takes them as such */
    const char *cst = !strcmp(st, "f16") ? "f16" : !strcmp(st, "bf16") ? "bf16" : st;
    if (!strcmp(dt, st)) E(L, "cvt%s%s%s.%s.%s %s, %s;", mode[0] ? mode : "", ftz, sat, dt, cst, r, a);
    else E(L, "cvt%s%s%s.%s.%s %s, %s;", mode, ftz, sat, dt, cst, r, a);
    if (d64) dst64(L, &in->opnd[0], r);
    else dst32(L, &in->opnd[0], r);
}

static void op_f2fp(lift_t *L, const sass_insn_t *in)
{
    /* F2FP[.BF16].PACK_AB d, a, b: d = {cvt.rn(a) high, cvt.rn(b) low} (PTX cvt.rn.f16x2.f32) */
    if (!has(in, SASS_MOD_PACK_AB) || in->nopnds < 3) { fail(L, NPU_EPTXUNSUP, "F2FP form"); return; }
    const char *a = fsrc(L, &in->opnd[1]), *b = fsrc(L, &in->opnd[2]), *r = T32(L);
    E(L, "cvt%s%s.%s.f32 %s, %s, %s;", rnd(in, ".rn"), has(in, SASS_MOD_RELU) ? ".relu" : "", has(in, SASS_MOD_BF16) ? "bf16x2" : "f16x2", r, a, b);
    dst32(L, &in->opnd[0], r);
}


/* VABSDIFF[.U32] d, a, b, c: d = |a - b| + c (__sad / __usad); VABSDIFF4.U8.ACC: the four
 * bytes' |a - b| summed into c. A predicate destination or a SIMD (non-.ACC) VABSDIFF4 is
 * refused: no measured semantics. */
static void op_vabsdiff(lift_t *L, const sass_insn_t *in)
{
    int s0 = skip_preds(in, 1);
    if (s0 != 1 || in->nopnds < 4) { fail(L, NPU_EPTXUNSUP, "VABSDIFF with a predicate destination"); return; }
    const char *a = src(L, &in->opnd[1]), *b = src(L, &in->opnd[2]), *c = src(L, &in->opnd[3]), *r = T32(L);
    if (in->op == SASS_OP_VABSDIFF4) {
        if (!has(in, SASS_MOD_ACC) || !has(in, SASS_MOD_U8)) { fail(L, NPU_EPTXUNSUP, "VABSDIFF4 form"); return; }
        const char *x = T32(L), *y = T32(L);
        E(L, "mov.b32 %s, %s;", r, c);
        for (int i = 0; i < 4; i++) {
            E(L, "bfe.u32 %s, %s, %d, 8;", x, a, 8 * i);
            E(L, "bfe.u32 %s, %s, %d, 8;", y, b, 8 * i);
            E(L, "sad.u32 %s, %s, %s, %s;", r, x, y, r);
        }
    } else {
        const char *t = has(in, SASS_MOD_U32) ? "u32" : "s32";
        E(L, "sad.%s %s, %s, %s, %s;", t, r, a, b, c);
    }
    dst32(L, &in->opnd[0], r);
}

/* ------------------------------------------------------------ packed halves ---- */
/* A source of HADD2/HMUL2/HFMA2/HSET2/HSETP2/HMNMX2 as the 32 bits of two halves (high
 * half = .H1, as in a register; nvdisasm prints an immediate pair high half first): .H0_H0 /
 * .H1_H1 broadcast one half, .F32 takes an f32 register rounded to the half type, then |x| and
 * -x act on both halves' sign bits. */
static const char *hsrc(lift_t *L, const sass_operand_t *o, int bf)
{
    const char *v = (o->kind == SASS_OPND_REG && o->reg >= SASS_RZ) ? "0" : src(L, o);
    if (o->sel == SASS_SEL_H0_H0 || o->sel == SASS_SEL_H1_H1 || o->sel == SASS_SEL_F32) {
        const char *t = T32(L), *h = T32(L);
        if (o->sel == SASS_SEL_H0_H0) E(L, "and.b32 %s, %s, 0xffff;", h, v);
        else if (o->sel == SASS_SEL_H1_H1) E(L, "shr.b32 %s, %s, 16;", h, v);
        else {
            const char *f = T32(L);
            E(L, "mov.b32 %s, %s;", f, v);
            E(L, "cvt.rn.%s.f32 %s, %s, %s;", bf ? "bf16x2" : "f16x2", h, f, f);
            E(L, "and.b32 %s, %s, 0xffff;", h, h);
        }
        E(L, "shl.b32 %s, %s, 16;", t, h);
        E(L, "or.b32 %s, %s, %s;", t, t, h);
        v = t;
    }
    if (o->flags & (SASS_OF_ABS | SASS_OF_NEG)) {
        const char *t = T32(L);
        if (o->flags & SASS_OF_ABS) { E(L, "and.b32 %s, %s, 0x7fff7fff;", t, v); v = t; }
        if (o->flags & SASS_OF_NEG) { E(L, "xor.b32 %s, %s, 0x80008000;", t, v); v = t; }
    }
    return v;
}

/* the low half of a packed source widened to f32 (a .F32 result computes one lane in f32) */
static const char *hlo_f32(lift_t *L, const char *v, int bf)
{
    const char *f = T32(L);
    if (bf) E(L, "shl.b32 %s, %s, 16;", f, v);
    else {
        const char *h = T32(L);
        E(L, "and.b32 %s, %s, 0xffff;", h, v);
        E(L, "cvt.f32.f16 %s, %s;", f, h);   /* the translator reads the low 16 bits */
    }
    return f;
}

/* HADD2 / HMUL2 / HFMA2[.MMA] d, a, b[, c]: both halves at once in f16 (or bf16 with
 * .BF16_V2); a .F32 result is the low lanes' result computed in f32. The HFMA2.MMA form
 * -RZ, RZ, <halves> is how ptxas materialises a 32-bit constant: d = the immediate's bits. */
static void op_half(lift_t *L, const sass_insn_t *in)
{
    int fma = in->op == SASS_OP_HFMA2, bf = has(in, SASS_MOD_BF16_V2), n = fma ? 4 : 3;
    if (in->nopnds < n) { fail(L, NPU_ECUBIN, "half ALU operands"); return; }
    if (has(in, SASS_MOD_FMZ)) { fail(L, NPU_EPTXUNSUP, "half ALU .FMZ"); return; }
    const char *r = T32(L);
    if (fma && in->opnd[1].kind == SASS_OPND_REG && in->opnd[1].reg >= SASS_RZ && !in->opnd[1].sel &&
        in->opnd[2].kind == SASS_OPND_REG && in->opnd[2].reg >= SASS_RZ && !in->opnd[2].sel &&
        in->opnd[3].kind == SASS_OPND_FIMM && !has(in, SASS_MOD_F32) && !has(in, SASS_MOD_SAT) && !has(in, SASS_MOD_RELU)) {
        E(L, "mov.b32 %s, 0x%x;", r, (uint32_t)in->opnd[3].imm);
        dst32(L, &in->opnd[0], r);
        return;
    }
    const char *a = hsrc(L, &in->opnd[1], bf), *b = hsrc(L, &in->opnd[2], bf), *c = fma ? hsrc(L, &in->opnd[3], bf) : NULL;
    const char *ftz = has(in, SASS_MOD_FTZ) ? ".ftz" : "", *sat = has(in, SASS_MOD_SAT) ? ".sat" : has(in, SASS_MOD_RELU) ? ".relu" : "";
    const char *op = fma ? "fma" : in->op == SASS_OP_HADD2 ? "add" : "mul";
    if (has(in, SASS_MOD_F32)) {
        const char *fa = hlo_f32(L, a, bf), *fb = hlo_f32(L, b, bf);
        if (fma) E(L, "fma.rn%s%s.f32 %s, %s, %s, %s;", ftz, sat, r, fa, fb, hlo_f32(L, c, bf));
        else E(L, "%s.rn%s%s.f32 %s, %s, %s;", op, ftz, sat, r, fa, fb);
    } else if (fma) E(L, "fma.rn%s%s.%s %s, %s, %s, %s;", ftz, sat, bf ? "bf16x2" : "f16x2", r, a, b, c);
    else if (bf) {   /* add/mul.bf16x2 are sm_90: a*1+b and a*b+(-0) */
        if (in->op == SASS_OP_HADD2) E(L, "fma.rn%s.bf16x2 %s, %s, 0x3f803f80, %s;", sat, r, a, b);
        else E(L, "fma.rn%s.bf16x2 %s, %s, %s, 0x80008000;", sat, r, a, b);
    } else E(L, "%s.rn%s%s.f16x2 %s, %s, %s;", op, ftz, sat, r, a, b);
    dst32(L, &in->opnd[0], r);
}

/* HSETP2.cmp[.H_AND].op Pd, Pq, a, b, Pc: per half Pd = cmp(lo) op Pc, Pq = cmp(hi) op Pc;
 * with .H_AND both halves must hold and Pq is the complement (like FSETP) */
static void op_hsetp2(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 5) { fail(L, NPU_ECUBIN, "HSETP2 operands"); return; }
    const char *cmp = cmp_name(in, 1);
    if (!cmp || !strcmp(cmp, "t") || !strcmp(cmp, "f")) { fail(L, NPU_EPTXUNSUP, "HSETP2 comparison"); return; }
    const char *a = hsrc(L, &in->opnd[2], 0), *b = hsrc(L, &in->opnd[3], 0);
    const char *lo = TQ(L), *hi = TQ(L), *c = psrc(L, &in->opnd[4]), *op = bool_op(in);
    E(L, "setp.%s%s.f16x2 %s|%s, %s, %s;", cmp, has(in, SASS_MOD_FTZ) ? ".ftz" : "", lo, hi, a, b);
    if (has(in, SASS_MOD_H_AND)) {
        const char *q = TQ(L);
        E(L, "and.pred %s, %s, %s;", q, lo, hi);
        set_pair(L, in, &in->opnd[0], &in->opnd[1], q, &in->opnd[4]);
        return;
    }
    if (in->opnd[0].reg < SASS_PT) E(L, "%s.pred %s, %s, %s;", op, pdst(L, &in->opnd[0]), lo, c);
    if (in->opnd[1].reg < SASS_PT) E(L, "%s.pred %s, %s, %s;", op, pdst(L, &in->opnd[1]), hi, c);
}

/* HSET2[.BF].cmp.op d, a, b, Pc: each half of d = (cmp op Pc) ? (1.0 with .BF, else 0xffff) : 0 */
static void op_hset2(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "HSET2 operands"); return; }
    const char *cmp = cmp_name(in, 1);
    if (!cmp || !strcmp(cmp, "t") || !strcmp(cmp, "f")) { fail(L, NPU_EPTXUNSUP, "HSET2 comparison"); return; }
    const char *a = hsrc(L, &in->opnd[1], 0), *b = hsrc(L, &in->opnd[2], 0);
    const char *lo = TQ(L), *hi = TQ(L), *c = psrc(L, &in->opnd[3]), *op = bool_op(in);
    const char *one = has(in, SASS_MOD_BF) ? "0x3c00" : "0xffff", *rl = T32(L), *rh = T32(L), *r = T32(L);
    E(L, "setp.%s%s.f16x2 %s|%s, %s, %s;", cmp, has(in, SASS_MOD_FTZ) ? ".ftz" : "", lo, hi, a, b);
    E(L, "%s.pred %s, %s, %s;", op, lo, lo, c);
    E(L, "%s.pred %s, %s, %s;", op, hi, hi, c);
    E(L, "selp.b32 %s, %s, 0, %s;", rl, one, lo);
    E(L, "selp.b32 %s, %s, 0, %s;", rh, one, hi);
    E(L, "shl.b32 %s, %s, 16;", r, rh);
    E(L, "or.b32 %s, %s, %s;", r, r, rl);
    dst32(L, &in->opnd[0], r);
}

/* HMNMX2[.BF16_V2][.NAN] d, a, b, Pc: Pc ? min : max, per half */
static void op_hmnmx2(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 4) { fail(L, NPU_ECUBIN, "HMNMX2 operands"); return; }
    if (has(in, SASS_MOD_F32)) { fail(L, NPU_EPTXUNSUP, "HMNMX2.F32"); return; }
    int bf = has(in, SASS_MOD_BF16_V2);
    const char *a = hsrc(L, &in->opnd[1], bf), *b = hsrc(L, &in->opnd[2], bf), *p = psrc(L, &in->opnd[3]);
    const char *ty = bf ? "bf16x2" : "f16x2", *m = has(in, SASS_MOD_NAN) ? ".NaN" : "";
    const char *ftz = has(in, SASS_MOD_FTZ) && !bf ? ".ftz" : "";
    const char *mn = T32(L), *mx = T32(L), *r = T32(L);
    E(L, "min%s%s.%s %s, %s, %s;", ftz, m, ty, mn, a, b);
    E(L, "max%s%s.%s %s, %s, %s;", ftz, m, ty, mx, a, b);
    E(L, "selp.b32 %s, %s, %s, %s;", r, mn, mx, p);
    dst32(L, &in->opnd[0], r);
}

/* ------------------------------------------------------------------ memory ---- */
static unsigned msel_scale(const sass_operand_t *m)
{
    return m->sel == SASS_SEL_X4 ? 4 : m->sel == SASS_SEL_X8 ? 8 : m->sel == SASS_SEL_X16 ? 16 : 1;
}

/* a 64-bit address [Rb(.64) + UR + imm] (global, generic) */
static const char *maddr64(lift_t *L, const sass_operand_t *m)
{
    const char *a = T64(L);
    /* sm_80 prints the pair as R2.64; sm_75 marks a 64-bit address with .E ([R2]) */
    int wide = (m->flags & SASS_OF_WIDE) != 0 || (L->cur && has(L->cur, SASS_MOD_E));
    /* [R5.U32+UR4]: a 32-bit offset zero-extended, added to the 64-bit uniform pair UR4:UR5 */
    int rwide = wide && !(m->flags & SASS_OF_U32);
    if (m->reg >= SASS_RZ) E(L, "mov.b64 %s, 0;", a);
    else if (rwide) E(L, "mov.b64 %s, {%%r%u, %%r%u};", a, m->reg, m->reg + 1);
    else E(L, "cvt.u64.u32 %s, %%r%u;", a, m->reg);
    if (msel_scale(m) > 1) E(L, "mul.lo.u64 %s, %s, %u;", a, a, msel_scale(m));
    if (m->reg2 != SASS_NONE_REG && m->reg2 < SASS_URZ) {
        const char *u = T64(L);
        if (wide) E(L, "mov.b64 %s, {%%ur%u, %%ur%u};", u, m->reg2, m->reg2 + 1);
        else E(L, "cvt.u64.u32 %s, %%ur%u;", u, m->reg2);
        E(L, "add.u64 %s, %s, %s;", a, a, u);
    }
    if (m->imm) E(L, "add.u64 %s, %s, %lld;", a, a, (long long)m->imm);
    return a;
}

/* a 32-bit offset [Rb + UR + imm] (shared, local) */
static const char *maddr32(lift_t *L, const sass_operand_t *m)
{
    const char *a = T32(L);
    if (m->reg >= SASS_RZ) E(L, "mov.b32 %s, 0;", a);
    else if (msel_scale(m) > 1) E(L, "mul.lo.u32 %s, %%r%u, %u;", a, m->reg, msel_scale(m));
    else E(L, "mov.b32 %s, %%r%u;", a, m->reg);
    if (m->reg2 != SASS_NONE_REG && m->reg2 < SASS_URZ) E(L, "add.u32 %s, %s, %%ur%u;", a, a, m->reg2);
    if (m->imm) E(L, "add.u32 %s, %s, %d;", a, a, (int32_t)m->imm);
    return a;
}

/* value type and register count of a load/store from its modifiers */
static const char *mtype(const sass_insn_t *in, int *nregs)
{
    *nregs = 1;
    if (has(in, SASS_MOD_U8)) return "u8";
    if (has(in, SASS_MOD_S8)) return "s8";
    if (has(in, SASS_MOD_U16)) return "u16";
    if (has(in, SASS_MOD_S16)) return "s16";
    if (has(in, SASS_MOD_64)) { *nregs = 2; return "b32"; }
    if (has(in, SASS_MOD_128)) { *nregs = 4; return "b32"; }
    return "b32";
}

static const char *reglist(lift_t *L, const sass_operand_t *r, int n, int dst)
{
    if (n == 1) return dst ? rdst(L, r, 0) : rname(L, r, 0);
    char buf[96];
    int k = snprintf(buf, sizeof buf, "{");
    for (int i = 0; i < n; i++)
        k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%s", i ? ", " : "", dst ? rdst(L, r, i) : rname(L, r, i));
    snprintf(buf + k, sizeof buf - (size_t)k, "}");
    return S(L, "%s", buf);
}

/* 64-bit host address of a local-memory offset */
static const char *laddr(lift_t *L, const char *off32)
{
    if (L->dyn_calls) {
        /* a run-time-sized stack (recursion, calls through pointers) can overflow: R1 below 0
         * wraps to an offset past the array, which unchecked would reach 4 GiB past it (other
         * memory, silently). The GPU faults there; so do we. */
        const char *q = TQ(L);
        E(L, "setp.ge.u32 %s, %s, %u;", q, off32, L->stack);
        E(L, "@%s trap;", q);
    }
    const char *a = T64(L);
    E(L, "cvt.u64.u32 %s, %s;", a, off32);
    E(L, "add.u64 %s, %s, %%lwin;", a, a);
    return a;
}

static void op_ldst(lift_t *L, const sass_insn_t *in)
{
    int st = in->op == SASS_OP_STG || in->op == SASS_OP_ST || in->op == SASS_OP_STS || in->op == SASS_OP_STL;
    int n;
    const char *ty = mtype(in, &n);
    const sass_operand_t *m = &in->opnd[st ? 0 : 1], *r = &in->opnd[st ? 1 : 0];
    if (m->kind != SASS_OPND_MEM || in->nopnds < 2) { fail(L, NPU_ECUBIN, "memory operands"); return; }
    const char *addr, *sp;
    switch (in->op) {
    case SASS_OP_LDG: case SASS_OP_STG:
        addr = maddr64(L, m);
        sp = has(in, SASS_MOD_CONSTANT) ? ".global.nc" : (has(in, SASS_MOD_STRONG) && !has(in, SASS_MOD_CTA)) ? ".volatile.global" : ".global";
        break;
    case SASS_OP_LD: case SASS_OP_ST:
        addr = maddr64(L, m);
        sp = has(in, SASS_MOD_STRONG) && !has(in, SASS_MOD_CTA) ? ".volatile" : "";
        break;
    case SASS_OP_LDS: case SASS_OP_STS:
        addr = maddr32(L, m);
        sp = ".shared";
        break;
    default:   /* LDL / STL */
        addr = laddr(L, maddr32(L, m));
        sp = ".local";
        break;
    }
    if (st && !strcmp(sp, ".global.nc")) sp = ".global";
    /* each shared/global access gets an address register of its own: a temporary reused for
     * every address would look to the lockstep pass (ptx_lockstep.c: "the same register with
     * the same offset: the thread's own element") as one address, hiding the warp-synchronous
     * exchanges of CUB's WarpExchange/BlockLoad transposes (STS, no __syncwarp on sm_75, LDS) */
    if (!strcmp(sp, ".shared")) { const char *u = S(L, "%%ta%d", L->na++); E(L, "mov.b32 %s, %s;", u, addr); addr = u; }
    else if (strcmp(sp, ".local") && strcmp(sp, ".global.nc")) { const char *u = S(L, "%%tda%d", L->nda++); E(L, "mov.b64 %s, %s;", u, addr); addr = u; }
    const char *v = n == 2 ? ".v2" : n == 4 ? ".v4" : "";
    if (st) E(L, "st%s%s.%s [%s], %s;", sp, v, ty, addr, reglist(L, r, n, 0));
    else {
        if (r->reg >= SASS_RZ) return;   /* a load into RZ (prefetch-like): nothing to keep */
        E(L, "ld%s%s.%s %s, [%s];", sp, v, ty, reglist(L, r, n, 1), addr);
    }
}

static void op_ldc(lift_t *L, const sass_insn_t *in)
{
    /* LDC[.U8/.S8/.U16/.S16/.64] d, c[bank][Ra + off]; ULDC[.64] URd, c[bank][off] */
    const sass_operand_t *d = &in->opnd[0], *c = &in->opnd[1];
    if (c->kind != SASS_OPND_CBANK) { fail(L, NPU_ECUBIN, "LDC operand"); return; }
    int n;
    const char *ty = mtype(in, &n);
    if (n == 2) { dst64(L, d, src64(L, c)); return; }
    if (n != 1) { fail(L, NPU_EPTXUNSUP, "LDC width"); return; }
    if (ty[1] != '3' && c->bank == 0 && !c->reg2kind && !(c->flags & SASS_OF_CX) && coff(c) >= pbase(L)) {
        /* a char/short parameter: read exactly it (a word read would straddle parameters) */
        uint32_t in = 0, sz = ty[1] == '8' ? 1 : 2;
        int p = param_at(L->k, coff(c) - pbase(L), sz, &in);
        const char *r = T32(L);
        if (p < 0) E(L, "mov.b32 %s, 0;", r);
        else E(L, "ld.param.%s %s, [__p%d+%u];", ty, r, p, in);
        dst32(L, d, r);
        return;
    }
    if (ty[1] != '3') {   /* a byte or half of the word holding it */
        sass_operand_t w = *c;
        uint32_t sh = ((uint32_t)c->imm & 3) * 8;
        w.imm &= ~3ll;
        if (c->reg2kind) {   /* c[bank][Rn + off]: the byte/half at the computed address */
            const char *ix = c->reg2kind == SASS_OPND_UREG ? (c->reg2 >= SASS_URZ ? "0" : S(L, "%%ur%u", c->reg2))
                                                           : (c->reg2 >= SASS_RZ ? "0" : S(L, "%%r%u", c->reg2));
            dst32(L, d, cbank_dyn_t(L, c->bank, ix, (uint32_t)c->imm, ty[1] == '8' ? 1 : 2, ty));
            return;
        }
        const char *v = src(L, &w), *r = T32(L);
        E(L, "bfe.%s32 %s, %s, %u, %u;", ty[0] == 's' ? "s" : "u", r, v, sh, ty[1] == '8' ? 8 : 16);
        dst32(L, d, r);
        return;
    }
    dst32(L, d, src(L, c));
}

/* ------------------------------------------------------- warp collectives ---- */
/* the member mask of a warp instruction: the last WARPSYNC's operand in straight-line code
 * before it (nvcc emits WARPSYNC Rmask before *_sync with a non-constant mask), else all */
static const char *warp_mask(lift_t *L)
{
    if (L->warpsync_kind == 1) return L->warpsync_reg >= SASS_RZ ? "0" : S(L, "%%r%u", L->warpsync_reg);
    if (L->warpsync_kind == 2) return S(L, "0x%x", L->warpsync_imm);
    return "0xffffffff";
}

static void op_shfl(lift_t *L, const sass_insn_t *in)
{
    /* SHFL.{IDX,UP,DOWN,BFLY} Pd, Rd, Ra, b, c */
    if (in->nopnds < 5) { fail(L, NPU_ECUBIN, "SHFL operands"); return; }
    const char *mode = has(in, SASS_MOD_IDX) ? "idx" : has(in, SASS_MOD_UP) ? "up" : has(in, SASS_MOD_DOWN) ? "down" : "bfly";
    const char *a = src(L, &in->opnd[2]), *b = src(L, &in->opnd[3]), *c = src(L, &in->opnd[4]);
    const char *r = T32(L), *q = TQ(L);
    E(L, "shfl.sync.%s.b32 %s|%s, %s, %s, %s, %s;", mode, r, q, a, b, c, warp_mask(L));
    if (in->opnd[0].reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, &in->opnd[0]), q);
    dst32(L, &in->opnd[1], r);
}

/* ------------------------------------------------------ tensor-core ops ---- */
/* HMMA, LDSM and MOVM are warp-wide (.aligned: all 32 lanes take part) and exchange
 * fragments between lanes; the lift spells each one out with shfl.sync.idx over the fragment
 * layouts of the PTX ISA's mma.m16n8k{4,8,16}, ldmatrix.m8n8 and movmatrix.m8n8 (ptxas maps
 * those 1:1 onto HMMA/LDSM/MOVM), so every execution mode (lane groups, phases, fibers) runs
 * them with the collectives it already has. Lane (g = lane/4, t = lane%4) of an m16n8 MMA
 * owns D rows g and g+8, columns 2t and 2t+1; the A elements of rows g and g+8 sit in lanes
 * 4g..4g+3 and the B elements of column c in lanes 4c..4c+3, so a lane gathers 4 lanes' A
 * registers and 8 lanes' B registers (32 shuffles for m16n8k16) and accumulates its four
 * results with fma.rn.f32 in k order from C. Products of f16/bf16/tf32 inputs are exact in
 * f32; the GPU's adder tree rounds differently in the last bits (tests compare with a
 * tolerance, as for the PTX path's wmma). tf32 inputs drop their 13 low mantissa bits. */
/* a block of n fresh .b32 temporaries %t<base..base+n-1> (not from the operand-text ring) */
static int tblock(lift_t *L, int n)
{
    int b = L->nt;
    L->nt += n;
    if (L->nt > L->mt) L->mt = L->nt;
    return b;
}
#define TN(buf, i) (snprintf((buf), sizeof (buf), "%%t%d", (i)), (buf))

static void op_hmma(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 4 || has(in, SASS_MOD_SP)) { fail(L, NPU_EPTXUNSUP, "HMMA form"); return; }
    int K = has(in, SASS_MOD_16816) ? 16 : has(in, SASS_MOD_1688) ? 8 : has(in, SASS_MOD_1684) ? 4 : 0;
    int tf = has(in, SASS_MOD_TF32), bf = has(in, SASS_MOD_BF16), f16acc = !has(in, SASS_MOD_F32);
    if (!K || (tf && K == 16) || (!tf && K == 4)) { fail(L, NPU_EPTXUNSUP, "HMMA shape"); return; }
    if (f16acc && (tf || bf)) { fail(L, NPU_EPTXUNSUP, "HMMA accumulator type"); return; }
    for (int i = 0; i < 4; i++)
        if (in->opnd[i].kind != SASS_OPND_REG) { fail(L, NPU_ECUBIN, "HMMA operands"); return; }
    /* registers per fragment: A holds 16 x K elements over 32 lanes, B K x 8 */
    int ebits = tf ? 32 : 16, nA = 16 * K * ebits / 32 / 32, nB = K * 8 * ebits / 32 / 32, nC = f16acc ? 2 : 4;
    char b1[16], b2[16], b3[16];
    int lane = tblock(L, 3), tA = tblock(L, 4 * nA), tB = tblock(L, 8 * nB), fA = tblock(L, 2 * 4 * nA),
        fB = tblock(L, 2 * 8 * nB), acc = tblock(L, 4);
    /* lane, the first lane of my A group (lane & ~3), the first lane of my B columns (8t) */
    E(L, "mov.u32 %s, %%laneid;", TN(b1, lane));
    E(L, "and.b32 %s, %s, 0x1c;", TN(b2, lane + 1), TN(b1, lane));
    E(L, "and.b32 %s, %s, 3;", TN(b3, lane + 2), TN(b1, lane));
    E(L, "shl.b32 %s, %s, 3;", b3, b3);
    for (int r = 0; r < nA; r++)
        for (int sl = 0; sl < 4; sl++) {
            char v[16], l[16];
            E(L, "add.u32 %s, %s, %d;", TN(l, lane), TN(b2, lane + 1), sl);
            E(L, "shfl.sync.idx.b32 %s, %s, %s, 31, 0xffffffff;", TN(v, tA + r * 4 + sl), rname(L, &in->opnd[1], r), l);
        }
    for (int j = 0; j < 2; j++)
        for (int r = 0; r < nB; r++)
            for (int sl = 0; sl < 4; sl++) {
                char v[16], l[16];
                E(L, "add.u32 %s, %s, %d;", TN(l, lane), TN(b3, lane + 2), 4 * j + sl);
                E(L, "shfl.sync.idx.b32 %s, %s, %s, 31, 0xffffffff;", TN(v, tB + (j * nB + r) * 4 + sl), rname(L, &in->opnd[2], r), l);
            }
    /* the gathered words as f32 elements: [word][half] */
    int nwA = 4 * nA, nwB = 8 * nB;
    for (int side = 0; side < 2; side++) {
        int nw = side ? nwB : nwA, tw = side ? tB : tA, fw = side ? fB : fA;
        for (int w = 0; w < nw; w++) {
            char v[16], lo[16], hi[16];
            TN(v, tw + w);
            if (tf) { E(L, "and.b32 %s, %s, 0xffffe000;", TN(lo, fw + 2 * w), v); continue; }
            TN(lo, fw + 2 * w); TN(hi, fw + 2 * w + 1);
            if (bf) {
                E(L, "shl.b32 %s, %s, 16;", lo, v);
                E(L, "and.b32 %s, %s, 0xffff0000;", hi, v);
            } else {
                E(L, "and.b32 %s, %s, 0xffff;", lo, v);
                E(L, "cvt.f32.f16 %s, %s;", lo, lo);   /* the translator reads the low 16 bits */
                E(L, "shr.b32 %s, %s, 16;", hi, v);
                E(L, "cvt.f32.f16 %s, %s;", hi, hi);
            }
        }
    }
    /* element (row ri*8 + g, k) of A and (k, column 2t + cj) of B: the temporaries holding them */
    for (int ri = 0; ri < 2; ri++)
        for (int cj = 0; cj < 2; cj++) {
            char a[16], d[16];
            TN(d, acc + ri * 2 + cj);
            if (f16acc) {   /* C as f16x2: word ri, half cj */
                const char *c = rname(L, &in->opnd[3], ri);
                if (cj) E(L, "shr.b32 %s, %s, 16;", d, c);
                else E(L, "and.b32 %s, %s, 0xffff;", d, c);
                E(L, "cvt.f32.f16 %s, %s;", d, d);
            } else E(L, "mov.b32 %s, %s;", d, rname(L, &in->opnd[3], ri * 2 + cj));
            for (int k = 0; k < K; k++) {
                int ra, sa, ha, rb, sb, hb;
                if (tf) {   /* 32-bit elements: 4 per register row of a lane group */
                    ra = ri + 2 * (k / 4); sa = k % 4; ha = 0;
                    rb = k / 4; sb = k % 4; hb = 0;
                } else {
                    ra = ri + 2 * (k / 8); sa = (k % 8) / 2; ha = k % 2;
                    rb = k / 8; sb = (k % 8) / 2; hb = k % 2;
                }
                char bb[16];
                TN(a, fA + 2 * (ra * 4 + sa) + ha);
                TN(bb, fB + 2 * ((cj * nB + rb) * 4 + sb) + hb);
                E(L, "fma.rn.f32 %s, %s, %s, %s;", d, a, bb, d);
            }
        }
    if (f16acc) {
        for (int ri = 0; ri < 2; ri++) {
            char d0[16], d1[16];
            E(L, "cvt.rn.f16x2.f32 %s, %s, %s;", rdst(L, &in->opnd[0], ri), TN(d1, acc + ri * 2 + 1), TN(d0, acc + ri * 2));
        }
    } else
        for (int i = 0; i < nC; i++) { char d[16]; E(L, "mov.b32 %s, %s;", rdst(L, &in->opnd[0], i), TN(d, acc + i)); }
}

/* LDSM.16.M88.{1,2,4} Rd, [a] (ldmatrix.m8n8.x{1,2,4}.b16): lanes 8i..8i+7 give the row
 * addresses of matrix i; lane j receives word j%4 of row j/4 of each matrix. .MT88 (.trans):
 * lane j receives elements (row 2(j%4), column j/4) and (row 2(j%4)+1, column j/4). */
static void op_ldsm(lift_t *L, const sass_insn_t *in)
{
    const sass_operand_t *d = &in->opnd[0], *m = &in->opnd[1];
    if (in->nopnds < 2 || d->kind != SASS_OPND_REG || m->kind != SASS_OPND_MEM || !has(in, SASS_MOD_16)) {
        fail(L, NPU_EPTXUNSUP, "LDSM form");
        return;
    }
    int n = has(in, SASS_MOD_4) ? 4 : has(in, SASS_MOD_2) ? 2 : 1, tr = has(in, SASS_MOD_MT88);
    if (!tr && !has(in, SASS_MOD_M88)) { fail(L, NPU_EPTXUNSUP, "LDSM shape"); return; }
    char my[16], ln[16], q[16], x[16], ra[16], v[16], h[16];
    int b = tblock(L, 7);
    E(L, "mov.b32 %s, %s;", TN(my, b), maddr32(L, m));
    E(L, "mov.u32 %s, %%laneid;", TN(ln, b + 1));
    TN(q, b + 2); TN(x, b + 3); TN(ra, b + 4); TN(v, b + 5); TN(h, b + 6);
    for (int i = 0; i < n; i++) {
        const char *out = rdst(L, d, i);
        if (!tr) {
            E(L, "shr.u32 %s, %s, 2;", q, ln);
            E(L, "add.u32 %s, %s, %d;", q, q, 8 * i);
            E(L, "shfl.sync.idx.b32 %s, %s, %s, 31, 0xffffffff;", ra, my, q);
            E(L, "and.b32 %s, %s, 3;", x, ln);
            E(L, "shl.b32 %s, %s, 2;", x, x);
            E(L, "add.u32 %s, %s, %s;", ra, ra, x);
            char u[16]; snprintf(u, sizeof u, "%%ta%d", L->na++);
            E(L, "mov.b32 %s, %s;", u, ra);
            E(L, "ld.shared.b32 %s, [%s];", v, u);
        } else {
            /* column offset (j/4)*2, rows 2(j%4) and 2(j%4)+1 */
            E(L, "shr.u32 %s, %s, 2;", x, ln);
            E(L, "shl.b32 %s, %s, 1;", x, x);
            for (int hh = 0; hh < 2; hh++) {
                E(L, "and.b32 %s, %s, 3;", q, ln);
                E(L, "shl.b32 %s, %s, 1;", q, q);
                E(L, "add.u32 %s, %s, %d;", q, q, 8 * i + hh);
                E(L, "shfl.sync.idx.b32 %s, %s, %s, 31, 0xffffffff;", ra, my, q);
                E(L, "add.u32 %s, %s, %s;", ra, ra, x);
                char u[16]; snprintf(u, sizeof u, "%%ta%d", L->na++);
                E(L, "mov.b32 %s, %s;", u, ra);
                E(L, "ld.shared.u16 %s, [%s];", hh ? h : v, u);
            }
            E(L, "shl.b32 %s, %s, 16;", h, h);
            E(L, "or.b32 %s, %s, %s;", v, v, h);
        }
        if (d->reg + i < SASS_RZ) E(L, "mov.b32 %s, %s;", out, v);
    }
}

/* MOVM.16.MT88 Rd, Ra (movmatrix.m8n8.trans.b16): element (r, c) of the 8x8 matrix is half
 * c%2 of lane 4r + c/2; lane j receives (2(j%4), j/4) and (2(j%4)+1, j/4) */
static void op_movm(lift_t *L, const sass_insn_t *in)
{
    if (in->nopnds < 2 || in->opnd[0].kind != SASS_OPND_REG || in->opnd[1].kind != SASS_OPND_REG ||
        !has(in, SASS_MOD_MT88) || !has(in, SASS_MOD_16)) {
        fail(L, NPU_EPTXUNSUP, "MOVM form");
        return;
    }
    char ln[16], q[16], sh[16], v[16], h[16];
    int b = tblock(L, 5);
    const char *a = rname(L, &in->opnd[1], 0);
    E(L, "mov.u32 %s, %%laneid;", TN(ln, b));
    TN(q, b + 1); TN(sh, b + 2); TN(v, b + 3); TN(h, b + 4);
    /* the half: bit 0 of j/4, as a shift of 0 or 16 */
    E(L, "bfe.u32 %s, %s, 2, 1;", sh, ln);
    E(L, "shl.b32 %s, %s, 4;", sh, sh);
    for (int hh = 0; hh < 2; hh++) {
        /* source lane 4 * (2(j%4) + hh) + (j/4)/2 = 8(j%4) + 4hh + j/8 */
        E(L, "and.b32 %s, %s, 3;", q, ln);
        E(L, "shl.b32 %s, %s, 3;", q, q);
        E(L, "add.u32 %s, %s, %d;", q, q, 4 * hh);
        const char *t = T32(L);
        E(L, "shr.u32 %s, %s, 3;", t, ln);
        E(L, "add.u32 %s, %s, %s;", q, q, t);
        E(L, "shfl.sync.idx.b32 %s, %s, %s, 31, 0xffffffff;", hh ? h : v, a, q);
        E(L, "shr.b32 %s, %s, %s;", hh ? h : v, hh ? h : v, sh);
        E(L, "and.b32 %s, %s, 0xffff;", hh ? h : v, hh ? h : v);
    }
    E(L, "shl.b32 %s, %s, 16;", h, h);
    E(L, "or.b32 %s, %s, %s;", v, v, h);
    dst32(L, &in->opnd[0], v);
}

/* the mask of a vote/reduce/match: WARPSYNC's operand when one precedes it, else the lanes
 * converged at this program point (nvcc emits no WARPSYNC for a full constant mask; ptxas's
 * own idioms - VOTEU.ANY UR, UPT, PT for __activemask(), MATCH/REDUX over a mask before
 * BRA.CONV - mean the active lanes) */
static const char *coll_mask(lift_t *L)
{
    if (L->warpsync_kind != 0) return warp_mask(L);
    const char *a = T32(L);
    E(L, "activemask.b32 %s;", a);
    return a;
}

static void op_vote(lift_t *L, const sass_insn_t *in)
{
    /* VOTE.{ALL,ANY,EQ} Rd, Pd, Pa (VOTEU: URd, UPd): Rd = ballot(Pa), Pd = the vote */
    if (in->nopnds < 2) { fail(L, NPU_ECUBIN, "VOTE operands"); return; }
    const sass_operand_t *pa = &in->opnd[in->nopnds - 1];
    const char *p = psrc(L, pa), *m = coll_mask(L);
    for (int i = 0; i < in->nopnds - 1; i++) {
        const sass_operand_t *d = &in->opnd[i];
        if (d->kind == SASS_OPND_REG || d->kind == SASS_OPND_UREG) {
            const char *r = T32(L);
            E(L, "vote.sync.ballot.b32 %s, %s, %s;", r, p, m);
            dst32(L, d, r);
        } else if (d->reg < SASS_PT) {
            const char *q = TQ(L);
            const char *mode = has(in, SASS_MOD_ALL) ? "all" : has(in, SASS_MOD_ANY) ? "any" : "uni";
            E(L, "vote.sync.%s.pred %s, %s, %s;", mode, q, p, m);
            E(L, "mov.pred %s, %s;", pdst(L, d), q);
        }
    }
}

static void op_redux(lift_t *L, const sass_insn_t *in)
{
    const char *op = has(in, SASS_MOD_SUM) ? "add" : has(in, SASS_MOD_MIN) ? "min" : has(in, SASS_MOD_MAX) ? "max" :
                     has(in, SASS_MOD_OR) ? "or" : has(in, SASS_MOD_XOR) ? "xor" : "and";   /* no modifier: AND */
    if (in->nopnds < 2) { fail(L, NPU_EPTXUNSUP, "REDUX form"); return; }
    int logic = !strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor");
    const char *ty = logic ? "b32" : has(in, SASS_MOD_S32) ? "s32" : "u32";
    const char *r = T32(L);
    const char *a = src(L, &in->opnd[1]);
    E(L, "redux.sync.%s.%s %s, %s, %s;", op, ty, r, a, coll_mask(L));
    dst32(L, &in->opnd[0], r);
}

static void op_match(lift_t *L, const sass_insn_t *in)
{
    int w64 = has(in, SASS_MOD_U64) || has(in, SASS_MOD_64);
    const sass_operand_t *a = &in->opnd[in->nopnds - 1];
    const char *v = w64 ? src64(L, a) : src(L, a), *r = T32(L), *m = coll_mask(L);
    if (has(in, SASS_MOD_ALL)) {
        const char *q = TQ(L);
        E(L, "match.all.sync.b%d %s|%s, %s, %s;", w64 ? 64 : 32, r, q, v, m);
        for (int i = 0; i < in->nopnds - 1; i++) {
            if (in->opnd[i].kind == SASS_OPND_PRED) { if (in->opnd[i].reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, &in->opnd[i]), q); }
            else dst32(L, &in->opnd[i], r);
        }
        return;
    }
    E(L, "match.any.sync.b%d %s, %s, %s;", w64 ? 64 : 32, r, v, m);
    dst32(L, &in->opnd[0], r);
}

/* ----------------------------------------------------------------- atomics ---- */
/* ATOMS.CAST.SPIN[.64] d, [a], cmp, new: a compare-and-store whose result is the success flag
 * (ptxas's shared-memory CAS loops test d == 1) */
static void op_cast(lift_t *L, const sass_insn_t *in)
{
    int w64 = has(in, SASS_MOD_64);
    const sass_operand_t *m = &in->opnd[1];
    const char *addr = in->op == SASS_OP_ATOMS ? maddr32(L, m) : maddr64(L, m);
    const char *sp = in->op == SASS_OP_ATOMS ? ".shared" : in->op == SASS_OP_ATOMG ? ".global" : "";
    const char *b = w64 ? src64(L, &in->opnd[2]) : src(L, &in->opnd[2]);
    const char *c = w64 ? src64(L, &in->opnd[3]) : src(L, &in->opnd[3]);
    const char *old = w64 ? T64(L) : T32(L), *q = TQ(L), *f = T32(L);
    E(L, "atom%s.cas.b%d %s, [%s], %s, %s;", sp, w64 ? 64 : 32, old, addr, b, c);
    E(L, "setp.eq.b%d %s, %s, %s;", w64 ? 64 : 32, q, old, b);
    E(L, "selp.u32 %s, 1, 0, %s;", f, q);
    if (w64) { const char *v = T64(L); E(L, "cvt.u64.u32 %s, %s;", v, f); dst64(L, &in->opnd[0], v); }
    else dst32(L, &in->opnd[0], f);
}

static void op_atom(lift_t *L, const sass_insn_t *in)
{
    if (has(in, SASS_MOD_CAST)) { op_cast(L, in); return; }
    /* ATOMG.E.op[.type] Pd?, Rd, [addr], b[, c]; ATOMS.op Rd, [addr], b; RED.E.op [addr], b */
    int red = in->op == SASS_OP_RED, shared = in->op == SASS_OP_ATOMS;
    int i = 0;
    while (i < in->nopnds && in->opnd[i].kind == SASS_OPND_PRED) i++;
    const sass_operand_t *d = red ? NULL : &in->opnd[i];
    int mi = red ? 0 : i + 1;
    if (mi >= in->nopnds || in->opnd[mi].kind != SASS_OPND_MEM) { fail(L, NPU_ECUBIN, "atomic operands"); return; }
    const sass_operand_t *m = &in->opnd[mi], *B = mi + 1 < in->nopnds ? &in->opnd[mi + 1] : NULL;
    const sass_operand_t *C = mi + 2 < in->nopnds ? &in->opnd[mi + 2] : NULL;
    const char *op = has(in, SASS_MOD_ADD) ? "add" : has(in, SASS_MOD_MIN) ? "min" : has(in, SASS_MOD_MAX) ? "max" :
                     has(in, SASS_MOD_INC) ? "inc" : has(in, SASS_MOD_DEC) ? "dec" : has(in, SASS_MOD_AND) ? "and" :
                     has(in, SASS_MOD_OR) ? "or" : has(in, SASS_MOD_XOR) ? "xor" : has(in, SASS_MOD_EXCH) ? "exch" :
                     has(in, SASS_MOD_CAS) ? "cas" : NULL;
    if (has(in, SASS_MOD_POPC) && has(in, SASS_MOD_INC) && !B && (!d || d->reg >= SASS_RZ)) {
        /* ATOMS.POPC.INC [a]: the warp adds the number of its lanes that execute it (ptxas's
         * aggregation of atomicAdd(p, 1) on one shared address): one per lane run alone */
        const char *addr = shared ? maddr32(L, m) : maddr64(L, m), *t = T32(L);
        E(L, "atom%s.add.u32 %s, [%s], 1;", shared ? ".shared" : ".global", t, addr);
        return;
    }
    if (!op || !B) { fail(L, NPU_EPTXUNSUP, "atomic operation"); return; }
    int w64 = has(in, SASS_MOD_64) || has(in, SASS_MOD_U64) || has(in, SASS_MOD_S64) || has(in, SASS_MOD_F64);
    const char *ty;
    if (has(in, SASS_MOD_F32)) ty = "f32";
    else if (has(in, SASS_MOD_F64)) ty = "f64";
    else if (has(in, SASS_MOD_F16x2)) ty = "f16x2";
    else if (has(in, SASS_MOD_BF16_V2)) ty = "bf16x2";
    else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "exch") || !strcmp(op, "cas")) ty = w64 ? "b64" : "b32";
    else if (has(in, SASS_MOD_S32)) ty = "s32";
    else if (has(in, SASS_MOD_S64)) ty = "s64";
    else ty = w64 ? "u64" : "u32";
    if (!strcmp(op, "add") && ty[0] == 'u' && w64) ty = "u64";
    const char *addr = shared ? maddr32(L, m) : maddr64(L, m);
    const char *sp = shared ? ".shared" : in->op == SASS_OP_ATOM ? "" : ".global";
    const char *scope = has(in, SASS_MOD_SYS) ? ".sys" : has(in, SASS_MOD_CTA) ? ".cta" : "";
    const char *b = w64 ? src64(L, B) : src(L, B);
    const char *c = C && !strcmp(op, "cas") ? (w64 ? src64(L, C) : src(L, C)) : NULL;
    if (red) { E(L, "red%s%s.%s.%s [%s], %s;", scope, sp, op, ty, addr, b); return; }
    const char *r = w64 ? T64(L) : T32(L);
    if (c) E(L, "atom%s%s.%s.%s %s, [%s], %s, %s;", scope, sp, op, ty, r, addr, b, c);
    else E(L, "atom%s%s.%s.%s %s, [%s], %s;", scope, sp, op, ty, r, addr, b);
    if (w64) dst64(L, d, r);
    else dst32(L, d, r);
    /* ATOM's predicate: the operation was done here (a generic f16x2 add is followed by a
     * QSPC-selected shared-memory CAS loop or a local LD/ST for when it was not); ours does
     * any address */
    if (i > 0 && in->opnd[0].reg < SASS_PT) E(L, "setp.eq.u32 %s, 0, 0;", pdst(L, &in->opnd[0]));
}

/* ------------------------------------------------------------- calls, flow ---- */
/* Externs reached through CALL.ABS: tokens the __c4 slots hold for them (no host address,
 * never dereferenced), and their SASS calling convention (arguments from R4, 64-bit ones in
 * even-aligned pairs, result in R4 / R4:R5; checked on nvcc 13's output for each). */
enum { EXT_NONE = 0, EXT_VPRINTF, EXT_MALLOC, EXT_FREE, EXT_ASSERTFAIL, EXT_COUNT };
static const char *const ext_name[EXT_COUNT] = {"", "vprintf", "malloc", "free", "__assertfail"};
#define EXT_TOKEN(i) (0x00f8000000000000ull | (uint64_t)(i))

static int ext_of(const char *name)
{
    for (int i = 1; i < EXT_COUNT; i++)
        if (name && !strcmp(name, ext_name[i])) return i;
    return EXT_NONE;
}

static void emit_ext_call(lift_t *L, int ext, const char *q)
{
    const char *g = q ? S(L, "@%s ", q) : "";
    char saved[24];
    memcpy(saved, L->g, sizeof saved);
    L->g[0] = 0;
    lsb_add(L->o, "\t{\n");
    switch (ext) {
    case EXT_VPRINTF:
        E(L, ".param .b64 __a0; .param .b64 __a1; .param .b32 __rv;");
        E(L, "%smov.b64 %%t_64, {%%r4, %%r5};", g); E(L, "%sst.param.b64 [__a0], %%t_64;", g);
        E(L, "%smov.b64 %%t_64, {%%r6, %%r7};", g); E(L, "%sst.param.b64 [__a1], %%t_64;", g);
        E(L, "%scall.uni (__rv), vprintf, (__a0, __a1);", g);
        E(L, "%sld.param.b32 %%r4, [__rv];", g);
        break;
    case EXT_MALLOC:
        E(L, ".param .b64 __a0; .param .b64 __rv;");
        E(L, "%smov.b64 %%t_64, {%%r4, %%r5};", g); E(L, "%sst.param.b64 [__a0], %%t_64;", g);
        E(L, "%scall.uni (__rv), malloc, (__a0);", g);
        E(L, "%sld.param.b64 %%t_64, [__rv];", g); E(L, "%smov.b64 {%%r4, %%r5}, %%t_64;", g);
        break;
    case EXT_FREE:
        E(L, ".param .b64 __a0;");
        E(L, "%smov.b64 %%t_64, {%%r4, %%r5};", g); E(L, "%sst.param.b64 [__a0], %%t_64;", g);
        E(L, "%scall.uni free, (__a0);", g);
        break;
    case EXT_ASSERTFAIL:
        E(L, ".param .b64 __a0; .param .b64 __a1; .param .b32 __a2; .param .b64 __a3; .param .b64 __a4;");
        E(L, "%smov.b64 %%t_64, {%%r4, %%r5};", g); E(L, "%sst.param.b64 [__a0], %%t_64;", g);
        E(L, "%smov.b64 %%t_64, {%%r6, %%r7};", g); E(L, "%sst.param.b64 [__a1], %%t_64;", g);
        E(L, "%sst.param.b32 [__a2], %%r8;", g);
        E(L, "%smov.b64 %%t_64, {%%r10, %%r11};", g); E(L, "%sst.param.b64 [__a3], %%t_64;", g);
        E(L, "%smov.b64 %%t_64, {%%r12, %%r13};", g); E(L, "%sst.param.b64 [__a4], %%t_64;", g);
        E(L, "%scall.uni __assertfail, (__a0, __a1, __a2, __a3, __a4);", g);
        break;
    default: break;
    }
    lsb_add(L->o, "\t}\n");
    memcpy(L->g, saved, sizeof saved);
}

static void op_call_abs(lift_t *L, const sass_insn_t *in)
{
    const sass_operand_t *t = &in->opnd[0];
    if (t->kind == SASS_OPND_CBANK && !t->reg2kind && t->bank == 4) {   /* CALL.ABS c[0x4][x] */
        const npu_cubin_reloc_t *r = npu_cubin_const_reloc(L->cb, L->k, 4, (uint64_t)t->imm);
        int ext = r ? ext_of(r->sym_name) : EXT_NONE;
        if (!ext) { fail(L, NPU_EPTXUNSUP, S(L, "call of %s", r && r->sym_name[0] ? r->sym_name : "an unknown address")); return; }
        emit_ext_call(L, ext, NULL);
        return;
    }
    if (t->kind != SASS_OPND_REG) { fail(L, NPU_EPTXUNSUP, "CALL.ABS target form"); return; }
    /* through a register pair loaded from c[0x4]: compare with each extern's token; the
     * instruction's guard joins each test (the lines below are emitted unguarded) */
    const char *gq = "%pt";
    if (L->g[0]) {
        gq = TQ(L);
        lsb_add(L->o, "\t%s.pred %s, %%p%u;\n", L->cur->guard_not ? "not" : "mov", gq, L->cur->guard);
    }
    const char *v = src64(L, t), *any = TQ(L);
    lsb_add(L->o, "\tsetp.ne.u32 %s, 0, 0;\n", any);
    for (int e = 1; e < EXT_COUNT; e++) {
        const char *q = TQ(L);
        lsb_add(L->o, "\tsetp.eq.u64 %s, %s, 0x%llx;\n", q, v, (unsigned long long)EXT_TOKEN(e));
        lsb_add(L->o, "\tand.pred %s, %s, %s;\n", q, q, gq);
        lsb_add(L->o, "\tor.pred %s, %s, %s;\n", any, any, q);
        emit_ext_call(L, e, q);
    }
    /* a call to anything else (a device function through a pointer) is not lifted yet */
    lsb_add(L->o, "\tnot.pred %s, %s;\n", any, any);
    lsb_add(L->o, "\tand.pred %s, %s, %s;\n", any, any, gq);
    lsb_add(L->o, "\t@%s trap;\n", any);
}

static void op_ret(lift_t *L, const sass_insn_t *in)
{
    /* RET.REL.NODEC Rn: back to the offset the caller put in Rn */
    const char *r = src(L, &in->opnd[0]);
    for (int i = 0; i < L->nret; i++) {
        const char *q = TQ(L);
        E(L, "setp.eq.u32 %s, %s, %u;", q, r, L->retsites[i]);
        E(L, "@%s bra L_%x;", q, L->retsites[i]);
    }
    E(L, "trap;");
}

static void op_brx(lift_t *L, const sass_insn_t *in)
{
    /* BRX Rn imm: to Rn + pc + 16 + imm, one of EIATTR_INDIRECT_BRANCH_TARGETS's targets */
    const npu_cubin_ibranch_t *ib = NULL;
    for (uint32_t i = 0; i < L->k->nibranches; i++)
        if (L->k->ibranches[i].offset == in->pc) ib = &L->k->ibranches[i];
    if (!ib) { fail(L, NPU_ECUBIN, "BRX without EIATTR_INDIRECT_BRANCH_TARGETS"); return; }
    const char *r = src(L, &in->opnd[0]), *t = T32(L);
    int64_t add = (int64_t)in->pc + 16 + (in->nopnds > 1 ? in->opnd[1].imm : 0);
    E(L, "add.u32 %s, %s, %d;", t, r, (int32_t)add);
    for (uint32_t i = 0; i < ib->ntargets; i++) {
        const char *q = TQ(L);
        E(L, "setp.eq.u32 %s, %s, %u;", q, t, ib->targets[i]);
        E(L, "@%s bra L_%x;", q, ib->targets[i]);
    }
    E(L, "trap;");
}

static void op_bar(lift_t *L, const sass_insn_t *in)
{
    const char *id = in->nopnds > 0 ? src(L, &in->opnd[0]) : "0";
    const char *cnt = in->nopnds > 1 && in->opnd[1].kind != SASS_OPND_PRED ? src(L, &in->opnd[1]) : NULL;
    if (has(in, SASS_MOD_RED)) {
        const char *mode = has(in, SASS_MOD_POPC) ? "popc.u32" : has(in, SASS_MOD_AND) ? "and.pred" : "or.pred";
        const sass_operand_t *p = &in->opnd[in->nopnds - 1];
        if (p->kind != SASS_OPND_PRED) { fail(L, NPU_EPTXUNSUP, "BAR.RED form"); return; }
        if (has(in, SASS_MOD_POPC)) E(L, "bar.red.%s %%bred, %s, %s;", mode, id, psrc(L, p));
        else { E(L, "bar.red.%s %%bredp, %s, %s;", mode, id, psrc(L, p)); E(L, "selp.u32 %%bred, 1, 0, %%bredp;"); }
        return;
    }
    if (has(in, SASS_MOD_ARV)) { E(L, "bar.arrive %s, %s;", id, cnt ? cnt : "0"); return; }
    if (cnt) E(L, "bar.sync %s, %s;", id, cnt);
    else E(L, "bar.sync %s;", id);
}

static void op_b2r(lift_t *L, const sass_insn_t *in)
{
    /* B2R.RESULT Rd[, Pd]: the last BAR.RED's result (count, or the predicate) */
    if (!has(in, SASS_MOD_RESULT)) { fail(L, NPU_EPTXUNSUP, "B2R form"); return; }
    for (int i = 0; i < in->nopnds; i++) {
        if (in->opnd[i].kind == SASS_OPND_REG) dst32(L, &in->opnd[i], "%bred");
        else if (in->opnd[i].kind == SASS_OPND_PRED && in->opnd[i].reg < SASS_PT) E(L, "setp.ne.u32 %s, %%bred, 0;", pdst(L, &in->opnd[i]));
    }
}

static void op_membar(lift_t *L, const sass_insn_t *in)
{
    E(L, "membar.%s;", has(in, SASS_MOD_CTA) ? "cta" : has(in, SASS_MOD_SYS) ? "sys" : "gl");
}

/* ------------------------------------------------------------- dispatcher ---- */
static void lift_insn(lift_t *L, const sass_insn_t *in)
{
    switch (in->op) {
    case SASS_OP_NOP: case SASS_OP_BSSY: case SASS_OP_BSYNC: case SASS_OP_BREAK: case SASS_OP_BMOV:
    case SASS_OP_YIELD: case SASS_OP_NANOSLEEP: case SASS_OP_CCTL: case SASS_OP_ERRBAR:
    case SASS_OP_DEPBAR: case SASS_OP_LDGDEPBAR: case SASS_OP_LEPC:
        return;   /* convergence bookkeeping, scheduling, caches: nothing for a thread run alone */
    case SASS_OP_IMAD: case SASS_OP_UIMAD: op_imad(L, in); return;
    case SASS_OP_IADD3: case SASS_OP_UIADD3: op_iadd3(L, in); return;
    case SASS_OP_LOP3: case SASS_OP_ULOP3: op_lop3(L, in); return;
    case SASS_OP_ISETP: case SASS_OP_UISETP: op_isetp(L, in); return;
    case SASS_OP_SHF: case SASS_OP_USHF: op_shf(L, in); return;
    case SASS_OP_LEA: case SASS_OP_ULEA: op_lea(L, in); return;
    case SASS_OP_SEL: case SASS_OP_USEL: op_sel(L, in, 0); return;
    case SASS_OP_FSEL: op_sel(L, in, 1); return;
    case SASS_OP_IMNMX: op_imnmx(L, in); return;
    case SASS_OP_IABS: case SASS_OP_POPC: case SASS_OP_UPOPC: case SASS_OP_BREV: case SASS_OP_UBREV:
    case SASS_OP_FLO: case SASS_OP_UFLO: op_unary_int(L, in); return;
    case SASS_OP_PRMT: case SASS_OP_UPRMT: op_prmt(L, in); return;
    case SASS_OP_BMSK: case SASS_OP_UBMSK: op_bmsk(L, in); return;
    case SASS_OP_SGXT: case SASS_OP_USGXT: op_sgxt(L, in); return;
    case SASS_OP_R2UR:
        if (in->nopnds == 3 && in->opnd[0].kind == SASS_OPND_PRED) {
            /* R2UR Pu, URd, Ra: Pu tells whether Ra was uniform over the active lanes; false
             * sends ptxas's idioms (@!Pu BRA.DIV) down their general path */
            if (in->opnd[0].reg < SASS_PT) E(L, "setp.ne.u32 %s, 0, 0;", pdst(L, &in->opnd[0]));
            dst32(L, &in->opnd[1], src(L, &in->opnd[2]));
            return;
        }
        op_mov(L, in); return;
    case SASS_OP_MOV: case SASS_OP_UMOV: op_mov(L, in); return;
    case SASS_OP_S2R: case SASS_OP_CS2R: case SASS_OP_S2UR: op_s2r(L, in); return;
    case SASS_OP_PLOP3: case SASS_OP_UPLOP3: op_plop3(L, in); return;
    case SASS_OP_P2R: op_p2r(L, in); return;
    case SASS_OP_R2P: op_r2p(L, in); return;
    case SASS_OP_FADD: case SASS_OP_FMUL: case SASS_OP_FFMA: op_ffp(L, in); return;
    case SASS_OP_FMNMX: op_fmnmx(L, in); return;
    case SASS_OP_FSETP: op_fsetp(L, in, 0); return;
    case SASS_OP_DSETP: op_fsetp(L, in, 1); return;
    case SASS_OP_FSET: op_fset(L, in); return;
    case SASS_OP_FCHK:
        /* the fast division's safety check: "not safe" always takes the slow path, which is
         * exact for every input */
        if (in->nopnds > 0 && in->opnd[0].reg < SASS_PT) E(L, "mov.pred %s, %%pt;", pdst(L, &in->opnd[0]));
        return;
    case SASS_OP_MUFU: op_mufu(L, in); return;
    case SASS_OP_FRND: op_frnd(L, in); return;
    case SASS_OP_DADD: case SASS_OP_DMUL: case SASS_OP_DFMA: op_dfp(L, in); return;
    case SASS_OP_F2F: case SASS_OP_F2I: case SASS_OP_I2F: op_cvt(L, in); return;
    case SASS_OP_F2FP: op_f2fp(L, in); return;
    case SASS_OP_LDG: case SASS_OP_STG: case SASS_OP_LD: case SASS_OP_ST: case SASS_OP_LDS:
    case SASS_OP_STS: case SASS_OP_LDL: case SASS_OP_STL: op_ldst(L, in); return;
    case SASS_OP_LDC: case SASS_OP_ULDC: op_ldc(L, in); return;
    case SASS_OP_ATOM: case SASS_OP_ATOMG: case SASS_OP_ATOMS: case SASS_OP_RED: op_atom(L, in); return;
    case SASS_OP_SHFL: op_shfl(L, in); return;
    case SASS_OP_HMMA: op_hmma(L, in); return;
    case SASS_OP_LDSM: op_ldsm(L, in); return;
    case SASS_OP_MOVM: op_movm(L, in); return;
    case SASS_OP_VOTE: case SASS_OP_VOTEU: op_vote(L, in); return;
    case SASS_OP_REDUX: op_redux(L, in); return;
    case SASS_OP_MATCH: op_match(L, in); return;
    case SASS_OP_WARPSYNC:
        if (in->nopnds > 0 && in->opnd[0].kind == SASS_OPND_REG) { L->warpsync_kind = 1; L->warpsync_reg = in->opnd[0].reg; }
        else if (in->nopnds > 0 && in->opnd[0].kind == SASS_OPND_IMM) { L->warpsync_kind = 2; L->warpsync_imm = (uint32_t)in->opnd[0].imm; }
        else L->warpsync_kind = 0;
        if (!(L->warpsync_kind == 2 && L->warpsync_imm == 0xffffffffu) && !(in->nopnds > 0 && in->opnd[0].kind == SASS_OPND_PRED))
            E(L, "bar.warp.sync %s;", warp_mask(L));
        else if (in->nopnds > 0 && in->opnd[0].kind == SASS_OPND_PRED) { L->warpsync_kind = 0; E(L, "bar.warp.sync 0xffffffff;"); }
        else E(L, "bar.warp.sync 0xffffffff;");
        return;
    case SASS_OP_BAR: op_bar(L, in); return;
    case SASS_OP_B2R: op_b2r(L, in); return;
    case SASS_OP_MEMBAR: op_membar(L, in); return;
    case SASS_OP_BRA: {
        const sass_operand_t *t = &in->opnd[in->nopnds - 1];
        if (!in->nopnds || t->kind != SASS_OPND_TARGET) { fail(L, NPU_EPTXUNSUP, "BRA form"); return; }
        if (in->nopnds > 1 && (in->opnd[0].kind == SASS_OPND_PRED || in->opnd[0].kind == SASS_OPND_UPRED) &&
            in->opnd[0].reg < SASS_PT) {
            /* @Pg BRA Pc, target: taken when the guard and the condition hold (fdiv's slow
             * path: @!P1 BRA !P2); E() folds the guard into the line's own predicate */
            E(L, "@%s bra L_%llx;", psrc(L, &in->opnd[0]), (unsigned long long)t->imm);
            return;
        }
        if (in->nopnds > 1 && in->opnd[0].kind == SASS_OPND_PRED && (in->opnd[0].flags & SASS_OF_NOT)) return;   /* !PT */
        /* BRA.CONV Um, t: taken when the lanes of Um are converged, to skip ptxas's general
         * path (the call of __cuda_sm70_warpsync after a MATCH/REDUX mask check); BRA.DIV Um,
         * t: taken when they are not, to the general path. Both always choose the general
         * path, which is correct whatever the convergence: CONV falls through, DIV branches */
        if (has(in, SASS_MOD_CONV)) return;
        E(L, "bra L_%llx;", (unsigned long long)t->imm);
        return;
    }
    case SASS_OP_EXIT:
        if (in->nopnds >= 1 && (in->opnd[0].kind == SASS_OPND_PRED || in->opnd[0].kind == SASS_OPND_UPRED)) {
            /* @Pg EXIT Pc: the thread exits when the guard and the condition hold, as for BRA
             * (ATen's reduce_kernel: `@P0 EXIT P1` is `if (block_x_reduce && tid.x != 0)
             * return;` before the store; without the condition every thread left and
             * torch.sum gave 0). EXIT !PT never exits. */
            E(L, "@%s ret;", psrc(L, &in->opnd[0]));
            return;
        }
        E(L, "ret;");
        return;
    case SASS_OP_CALL:
        if (has(in, SASS_MOD_REL) && in->nopnds >= 1 && in->opnd[0].kind == SASS_OPND_REG) {
            /* CALL.REL.NOINC Rn imm: a function pointer, the code offset of one of the
             * functions in the kernel's section (cubin.c: function pointers) */
            const sass_operand_t *t = in->nopnds > 1 ? &in->opnd[1] : NULL;
            const char *v = src(L, &in->opnd[0]);
            if (t && t->imm) { const char *w = T32(L); E(L, "add.u32 %s, %s, %u;", w, v, (uint32_t)t->imm); v = w; }
            for (uint32_t f = 0; f < L->k->nlocal_funcs; f++) {
                const char *q = TQ(L);
                E(L, "setp.eq.u32 %s, %s, %u;", q, v, (uint32_t)L->k->local_funcs[f]->offset);
                E(L, "@%s bra L_%x;", q, (uint32_t)L->k->local_funcs[f]->offset);
            }
            E(L, "trap;");
            return;
        }
        if (has(in, SASS_MOD_REL)) {
            if (!in->nopnds || in->opnd[0].kind != SASS_OPND_TARGET) { fail(L, NPU_EPTXUNSUP, "CALL.REL form"); return; }
            E(L, "bra L_%llx;", (unsigned long long)in->opnd[0].imm);
            return;
        }
        op_call_abs(L, in);
        return;
    case SASS_OP_RET: op_ret(L, in); return;
    case SASS_OP_BRX: case SASS_OP_BRXU: op_brx(L, in); return;
    case SASS_OP_BPT:
        if (has(in, SASS_MOD_TRAP)) { E(L, "trap;"); return; }
        fail(L, NPU_EPTXUNSUP, "BPT");
        return;
    case SASS_OP_KILL: E(L, "ret;"); return;
    case SASS_OP_QSPC: {   /* QSPC.E.{S,L,G} Pd, RZ, [addr]: is the generic address in that window? */
        const char *sp = has(in, SASS_MOD_S) ? "shared" : has(in, SASS_MOD_L) ? "local" : "global";
        const sass_operand_t *m = &in->opnd[in->nopnds - 1];
        if (m->kind != SASS_OPND_MEM) { fail(L, NPU_EPTXUNSUP, "QSPC form"); return; }
        const char *a = maddr64(L, m), *q = TQ(L);
        E(L, "isspacep.%s %s, %s;", sp, q, a);
        if (in->opnd[0].kind == SASS_OPND_PRED && in->opnd[0].reg < SASS_PT) E(L, "mov.pred %s, %s;", pdst(L, &in->opnd[0]), q);
        return;
    }
    case SASS_OP_IDP: {   /* IDP.{4A,2A.LO,2A.HI}.<atype>.<btype> d, a, b, c: dp4a / dp2a */
        const char *t[2] = {NULL, NULL};
        int nt = 0;
        for (int i = 0; i < in->nmods && nt < 2; i++) {
            sass_mod_t mm = (sass_mod_t)in->mods[i];
            if (mm == SASS_MOD_S8 || mm == SASS_MOD_S16) t[nt++] = "s32";
            else if (mm == SASS_MOD_U8 || mm == SASS_MOD_U16) t[nt++] = "u32";
        }
        if (nt != 2) { fail(L, NPU_EPTXUNSUP, "IDP types"); return; }
        const char *a = src(L, &in->opnd[1]), *b = src(L, &in->opnd[2]), *c = src(L, &in->opnd[3]), *r = T32(L);
        if (has(in, SASS_MOD_4A)) E(L, "dp4a.%s.%s %s, %s, %s, %s;", t[0], t[1], r, a, b, c);
        else E(L, "dp2a.%s.%s.%s %s, %s, %s, %s;", has(in, SASS_MOD_HI) ? "hi" : "lo", t[0], t[1], r, a, b, c);
        dst32(L, &in->opnd[0], r);
        return;
    }
    case SASS_OP_LDGSTS: {   /* an asynchronous global -> shared copy, done at once (DEPBAR then waits for nothing) */
        int n;
        const char *ty = mtype(in, &n);
        if (in->nopnds < 2 || in->opnd[0].kind != SASS_OPND_MEM || in->opnd[1].kind != SASS_OPND_MEM || has(in, SASS_MOD_ZFILL)) {
            fail(L, NPU_EPTXUNSUP, "LDGSTS form");
            return;
        }
        const char *sa = maddr32(L, &in->opnd[0]), *ga = maddr64(L, &in->opnd[1]);
        const char *v = n == 2 ? ".v2" : n == 4 ? ".v4" : "";
        const char *regs = n == 4 ? "{%t_lo, %t_hi, %t_x2, %t_x3}" : n == 2 ? "{%t_lo, %t_hi}" : "%t_lo";
        if (in->nopnds >= 3 && (in->opnd[2].kind == SASS_OPND_PRED || in->opnd[2].kind == SASS_OPND_UPRED) &&
            (in->opnd[2].reg < SASS_PT || (in->opnd[2].flags & SASS_OF_NOT))) {
            /* LDGSTS [s], [g], Pc: the copy reads the source only when Pc holds, else it writes
             * zeros (cp.async's src-size 0 / ignore-src; ptxas: `sz = p ? 16 : 0` becomes
             * LDGSTS ..., !P0 with P0 = !p). CUTLASS's predicated tile iterators zero the
             * out-of-bounds part of a tile this way: PyTorch's memory-efficient attention with
             * head dim 16 in a 64-wide tile read garbage for the other 48 columns. */
            for (int i = 0; i < n; i++) E(L, "mov.b32 %s, 0;", n == 1 ? "%t_lo" : (const char *[]){"%t_lo", "%t_hi", "%t_x2", "%t_x3"}[i]);
            E(L, "@%s ld.global%s.%s %s, [%s];", psrc(L, &in->opnd[2]), v, ty, regs, ga);
        } else E(L, "ld.global%s.%s %s, [%s];", v, ty, regs, ga);
        E(L, "st.shared%s.%s [%s], %s;", v, ty, sa, regs);
        return;
    }
    case SASS_OP_HADD2: case SASS_OP_HMUL2: case SASS_OP_HFMA2:
        op_half(L, in);
        return;
    case SASS_OP_HSETP2: op_hsetp2(L, in); return;
    case SASS_OP_VABSDIFF: case SASS_OP_VABSDIFF4: op_vabsdiff(L, in); return;
    case SASS_OP_HSET2: op_hset2(L, in); return;
    case SASS_OP_HMNMX2: op_hmnmx2(L, in); return;
    default:
        fail(L, NPU_EPTXUNSUP, S(L, "%s is not lifted yet", sass_op_name((sass_op_t)in->op)));
        return;
    }
}

/* --------------------------------------------------------------- kernels ---- */
/* 1 when control never falls through: unguarded, and no condition operand other than PT
 * (`EXIT P1`, `BRA !P2, t` fall through when it is false), and not BRA.CONV (which the lift
 * never takes: the fall-through, ptxas's call of __cuda_sm70_warpsync, is the path that runs;
 * counting it unreachable dropped every __syncwarp of PyTorch's sm_80 code) */
static int is_uncond_end(const sass_insn_t *in)
{
    if (in->guard != SASS_PT || in->guard_not) return 0;
    if (in->nopnds >= 1 && (in->opnd[0].kind == SASS_OPND_PRED || in->opnd[0].kind == SASS_OPND_UPRED) &&
        (in->opnd[0].reg < SASS_PT || (in->opnd[0].flags & SASS_OF_NOT)))
        return 0;
    if (in->op == SASS_OP_BRA && has(in, SASS_MOD_CONV)) return 0;
    return in->op == SASS_OP_EXIT || in->op == SASS_OP_RET || in->op == SASS_OP_BRX || in->op == SASS_OP_BRXU ||
           in->op == SASS_OP_KILL || (in->op == SASS_OP_BRA) || (in->op == SASS_OP_CALL && !has(in, SASS_MOD_REL)) ||
           (in->op == SASS_OP_BPT && has(in, SASS_MOD_TRAP));
}

/* Decodes the kernel's section; marks branch targets, return sites and the instructions
 * reachable from the entry (the rest: NOP padding, the trailing self-loop, is not lifted). */
static npu_status_t decode_kernel(lift_t *L, char **reach_out)
{
    const npu_cubin_kernel_t *k = L->k;
    int n = (int)(k->code_size / 16);
    L->n = n;
    L->ins = calloc((size_t)n + 1, sizeof *L->ins);
    L->label = calloc((size_t)n + 1, 1);
    char *ok = calloc((size_t)n + 1, 1), *reach = calloc((size_t)n + 1, 1);
    int *stk = malloc(((size_t)n + 1) * sizeof *stk);
    L->retsites = calloc((size_t)n + 1, sizeof *L->retsites);
    if (!L->ins || !L->label || !ok || !reach || !stk || !L->retsites) { free(ok); free(reach); free(stk); return NPU_EHOSTMEM; }
    char err[256];
    for (int i = 0; i < n; i++) {
        err[0] = 0;
        ok[i] = sass_decode(k->code + 16 * (size_t)i, k->code_size - 16 * (size_t)i, 16 * (uint64_t)i, L->cb->sm,
                            &L->ins[i], err, sizeof err) == SASS_OK;
    }
    /* reachability (a CALL.REL's callee and its return site are both reachable) */
    int sp = 0;
    int entry = (int)(k->entry_offset / 16);
    if (entry < n) { reach[entry] = 1; stk[sp++] = entry; }
    while (sp) {
        int i = stk[--sp];
        if (!ok[i]) {
            L->cur = NULL;
            uint64_t w[2] = {0, 0};
            memcpy(w, k->code + 16 * (size_t)i, k->code_size - 16 * (size_t)i >= 16 ? 16 : k->code_size - 16 * (size_t)i);
            NPU_ERR("sass: kernel %s (sm_%u): pc 0x%x: cannot decode a reachable instruction [%016llx %016llx]", k->name,
                    L->cb->sm, i * 16, (unsigned long long)w[0], (unsigned long long)w[1]);
            npu_report_unsupported_fmt("SASS undecodable (sm_%u)", L->cb->sm);
            free(ok); free(reach); free(stk);
            return NPU_EPTXUNSUP;
        }
        const sass_insn_t *in = &L->ins[i];
        int succ[2], ns = 0;
        if (!is_uncond_end(in) || (in->op == SASS_OP_CALL && has(in, SASS_MOD_REL))) succ[ns++] = i + 1;
        if (in->op == SASS_OP_CALL && !has(in, SASS_MOD_REL)) succ[ns++] = i + 1;   /* externs return */
        for (int j = 0; j < in->nopnds; j++)
            if (in->opnd[j].kind == SASS_OPND_TARGET && in->op != SASS_OP_BSSY && in->op != SASS_OP_RET) {
                int t = (int)(in->opnd[j].imm / 16);
                if (in->opnd[j].imm % 16 || t < 0 || t >= n) {
                    NPU_ERR("sass: kernel %s: pc 0x%x: branch target 0x%llx outside the kernel", k->name, i * 16,
                            (unsigned long long)in->opnd[j].imm);
                    free(ok); free(reach); free(stk);
                    return NPU_ECUBIN;
                }
                L->label[t] = 1;
                if (ns < 2) succ[ns++] = t;
            }
        if (in->op == SASS_OP_CALL && has(in, SASS_MOD_REL) && in->nopnds && in->opnd[0].kind == SASS_OPND_TARGET) {
            /* a call back into code before it, into its own function: maybe recursion */
            for (uint32_t f = 0; f < k->nlocal_funcs; f++) {
                uint64_t o = k->local_funcs[f]->offset, e = o + k->local_funcs[f]->size;
                if ((uint64_t)in->opnd[0].imm == o && in->pc >= o && in->pc < e) L->dyn_calls = 1;
            }
        }
        if (in->op == SASS_OP_CALL && has(in, SASS_MOD_REL) && in->nopnds && in->opnd[0].kind == SASS_OPND_REG)
            for (uint32_t f = 0; f < k->nlocal_funcs; f++) {   /* through a pointer: any local function */
                L->dyn_calls = 1;
                uint32_t x = (uint32_t)(k->local_funcs[f]->offset / 16);
                if (x < (uint32_t)n && !reach[x]) { reach[x] = 1; stk[sp++] = (int)x; }
                if (x < (uint32_t)n) L->label[x] = 1;
            }
        if (in->op == SASS_OP_CALL && has(in, SASS_MOD_REL)) {
            L->label[i + 1] = 1;
            int dup = 0;
            for (int r = 0; r < L->nret; r++) dup |= L->retsites[r] == (uint32_t)(16 * (i + 1));
            if (!dup) L->retsites[L->nret++] = (uint32_t)(16 * (i + 1));
        }
        if (in->op == SASS_OP_BRX || in->op == SASS_OP_BRXU)
            for (uint32_t b = 0; b < k->nibranches; b++)
                if (k->ibranches[b].offset == in->pc)
                    for (uint32_t t = 0; t < k->ibranches[b].ntargets; t++) {
                        uint32_t x = k->ibranches[b].targets[t] / 16;
                        if (x < (uint32_t)n && !reach[x]) { reach[x] = 1; stk[sp++] = (int)x; }
                        if (x < (uint32_t)n) L->label[x] = 1;
                    }
        for (int s = 0; s < ns; s++)
            if (succ[s] < n && !reach[succ[s]]) { reach[succ[s]] = 1; stk[sp++] = succ[s]; }
    }
    /* return sites of calls into code reached only through a RET are reachable too */
    for (int r = 0; r < L->nret; r++) {
        int x = (int)(L->retsites[r] / 16);
        if (x < n && !reach[x]) reach[x] = 1;
    }
    free(ok);
    free(stk);
    *reach_out = reach;
    return NPU_OK;
}

static uint32_t pow2div(uint32_t x)
{
    return x ? x & (~x + 1) : 8;
}

/* the entry's header: name, parameters at KPARAM offsets, launch bounds */
static void entry_header(lsb_t *o, const npu_cubin_kernel_t *k)
{
    lsb_add(o, ".visible .entry %s(", k->name);
    for (uint32_t i = 0; i < k->nparams; i++) {
        const npu_cubin_param_t *p = &k->params[i];
        uint32_t al = pow2div(p->offset);
        if (al > 256) al = 256;
        lsb_add(o, "%s\n\t.param .align %u .b8 __p%u[%u]", i ? "," : "", al, p->ordinal, p->size ? p->size : 1);
    }
    lsb_add(o, "\n)\n");
    if (k->max_threads[0]) lsb_add(o, ".maxntid %u, %u, %u\n", k->max_threads[0], k->max_threads[1] ? k->max_threads[1] : 1,
                                   k->max_threads[2] ? k->max_threads[2] : 1);
    if (k->reqntid[0]) lsb_add(o, ".reqntid %u, %u, %u\n", k->reqntid[0], k->reqntid[1] ? k->reqntid[1] : 1, k->reqntid[2] ? k->reqntid[2] : 1);
}

/* register names used in a body: %r<n>, %ur<n>, %p<n>, %up<n> */
static void declare_regs(lsb_t *o, const char *body)
{
    static const struct { const char *pfx, *type; int max; } fam[] = {
        {"%r", ".b32", 256}, {"%ur", ".b32", 64}, {"%p", ".pred", 8}, {"%up", ".pred", 8}};
    for (size_t f = 0; f < sizeof fam / sizeof fam[0]; f++) {
        char used[256] = {0};
        size_t pl = strlen(fam[f].pfx);
        for (const char *s = strstr(body, fam[f].pfx); s; s = strstr(s + 1, fam[f].pfx)) {
            const char *d = s + pl;
            if (*d < '0' || *d > '9') continue;
            if (s > body && (s[-1] == '_' || (s[-1] >= 'a' && s[-1] <= 'z'))) continue;
            int v = atoi(d);
            if (v < fam[f].max) used[v] = 1;
        }
        int any = 0;
        for (int i = 0; i < fam[f].max; i++)
            if (used[i]) {
                if (any) lsb_add(o, ", %s%d", fam[f].pfx, i);
                else lsb_add(o, "\t.reg %s %s%d", fam[f].type, fam[f].pfx, i);
                any = 1;
            }
        if (any) lsb_add(o, ";\n");
    }
}

/* The body of kernel k ("{ ... }"), for the entry npu_sass_lift_module declared. */
static npu_status_t lift_kernel(const npu_cubin_t *cb, unsigned ki, size_t stack_limit, lsb_t *out)
{
    lift_t L;
    memset(&L, 0, sizeof L);
    L.cb = cb;
    L.k = &cb->kernels[ki];
    L.ki = ki;
    L.st = NPU_OK;
    if (npu_cubin_cbank0_layout(cb->sm, &L.c0) != NPU_OK) {
        NPU_ERR("sass: kernel %s: sm_%u machine code is not supported (sm_75..sm_89)", L.k->name, cb->sm);
        return NPU_EPTXUNSUP;
    }
    if (cb->sm >= 90) {
        NPU_ERR("sass: kernel %s: sm_%u machine code is not lifted yet (sm_75..sm_89)", L.k->name, cb->sm);
        return NPU_EPTXUNSUP;
    }
    uint32_t st = L.k->frame_size;
    if (L.k->max_stack_size > st) st = L.k->max_stack_size;
    if (L.k->min_stack_size > st) st = L.k->min_stack_size;
    char *reach = NULL;
    npu_status_t rs = decode_kernel(&L, &reach);
    /* R1 starts at c[0x0][0x28], the top of the thread's local window. With calls through
     * pointers or recursion ptxas cannot bound the stack (MAX_STACK_SIZE covers the static
     * call graph only) and the GPU gives such code cudaLimitStackSize bytes per thread (1024
     * by default; the driver raises it to what a kernel needs statically): here the larger of
     * the static need plus 1024 and the limit the program set (k_local_stack raises it to
     * 16 KiB for ten recursive frames under an 8 KiB array; with 1024 above the frame R1 went
     * below 0 and its stores landed 4 GiB past the array) */
    if (L.dyn_calls) {
        size_t want = (size_t)st + 1024u;
        if (stack_limit > want) want = stack_limit;
        if (want > (1u << 24)) want = 1u << 24;   /* 16 MiB per thread: beyond it, the check below faults */
        st = (uint32_t)want;
    }
    /* ptxas places a local array of alignment A at an A-aligned offset from the stack pointer
     * and pads the frame to a multiple of A, assuming the initial stack pointer A-aligned (it
     * may then form addresses with OR): the stack array gets the alignment the frame size
     * shows (its lowest set bit, 16..256) and a size that keeps the top that aligned
     * (k_local_align: 64- and 256-byte aligned local arrays) */
    uint32_t fs = L.k->frame_size, al = fs ? (fs & (0u - fs)) : 16u;
    if (al < 16u) al = 16u;
    if (al > 256u) al = 256u;
    /* a frame aligned beyond that is realigned in code: LOP3.LUT R1, R1, 0xfffffc00 (alignas
     * (1024)) after R1 -= size; with the array's top that aligned the AND changes nothing and
     * the frame stays inside it */
    for (int i = 0; rs == NPU_OK && i < L.n; i++) {
        const sass_insn_t *in = &L.ins[i];
        if (!reach[i] || in->op != SASS_OP_LOP3 || in->nopnds < 3) continue;
        if (in->opnd[0].kind != SASS_OPND_REG || in->opnd[0].reg != 1) continue;
        for (int j = 1; j < in->nopnds; j++) {
            uint32_t v = (uint32_t)in->opnd[j].imm;
            if (in->opnd[j].kind != SASS_OPND_IMM || !v || (v | (v - 1u)) != 0xffffffffu) continue;   /* ~(2^k - 1) */
            uint32_t a = v & (0u - v);
            if (a > al && a <= 65536u) al = a;
        }
    }
    L.stack_align = al;
    L.stack = (st + al - 1u) & ~(al - 1u);
    lsb_t body = {0};
    L.o = &body;
    if (rs != NPU_OK) { L.st = rs; goto done; }
    for (int i = 0; i < L.n && L.st == NPU_OK && !body.oom; i++) {
        if (L.label[i]) { lsb_add(&body, "L_%x:\n", 16 * i); L.warpsync_kind = 0; }
        if (!reach[i]) continue;
        const sass_insn_t *in = &L.ins[i];
        L.cur = in;
        L.nt = L.nd = L.nq = 0;
        L.nstrs = 0;
        if (in->guard == SASS_PT) {
            if (in->guard_not) { /* @!PT: never runs */ continue; }
            L.g[0] = 0;
        } else snprintf(L.g, sizeof L.g, "@%s%%%s%u ", in->guard_not ? "!" : "", in->guard_uniform ? "up" : "p", in->guard);
        if (getenv("NPU_SASS_ANNOTATE")) {
            char txt[160];
            sass_format(in, txt, sizeof txt);
            lsb_add(&body, "\t// %04llx %s\n", (unsigned long long)in->pc, txt);
        }
        lift_insn(&L, in);
        if (in->op == SASS_OP_BRA || in->op == SASS_OP_EXIT || in->op == SASS_OP_CALL || in->op == SASS_OP_RET) L.warpsync_kind = 0;
    }
done:
    if (body.oom && L.st == NPU_OK) L.st = NPU_EHOSTMEM;
    if (L.st == NPU_OK) {
        lsb_add(out, "{\n");
        declare_regs(out, body.s ? body.s : "");
        lsb_add(out, "\t.reg .pred %%pt, %%pzs, %%bredp;\n\t.reg .b32 %%rzs, %%t_lo, %%t_hi, %%t_x2, %%t_x3, %%bred;\n\t.reg .b64 %%shwin, %%lwin, %%t_64;\n");
        if (L.mt) lsb_add(out, "\t.reg .b32 %%t<%d>;\n", L.mt);
        if (L.md) lsb_add(out, "\t.reg .b64 %%td<%d>;\n", L.md);
        if (L.mq) lsb_add(out, "\t.reg .pred %%tq<%d>;\n", L.mq);
        if (L.na) lsb_add(out, "\t.reg .b32 %%ta<%d>;\n", L.na);
        if (L.nda) lsb_add(out, "\t.reg .b64 %%tda<%d>;\n", L.nda);
        uint32_t shm = L.k->shared_size;
        if (shm) lsb_add(out, "\t.shared .align 16 .b8 __shm[%u];\n", (shm + 15u) & ~15u);
        if (L.stack) lsb_add(out, "\t.local .align %u .b8 __stack[%u];\n", L.stack_align, L.stack);
        lsb_add(out, "\tsetp.eq.u32 %%pt, 0, 0;\n");
        lsb_add(out, "\tmov.u64 %%shwin, 0;\n\tcvta.shared.u64 %%shwin, %%shwin;\n");
        if (shm) lsb_add(out, "\tmov.u32 %%t_lo, __shm;\n");   /* __shm is the first shared variable: offset 0 */
        if (L.stack) lsb_add(out, "\tmov.u64 %%lwin, __stack;\n");
        else lsb_add(out, "\tmov.u64 %%lwin, 0;\n");
        lsb_add(out, "%s}\n", body.s ? body.s : "");
        if (out->oom) L.st = NPU_EHOSTMEM;
    }
    free(body.s);
    free(L.ins);
    free(L.label);
    free(L.retsites);
    free(reach);
    return L.st;
}

/* --------------------------------------------------------------- the module ---- */
static void bytes_init(lsb_t *o, const uint8_t *p, uint64_t n)
{
    lsb_add(o, " = {");
    for (uint64_t i = 0; i < n; i++) lsb_add(o, "%s%u", i ? "," : "", p ? p[i] : 0);
    lsb_add(o, "}");
}

static const npu_cubin_sym_t *sym_of(const npu_cubin_t *cb, uint32_t i) { return i < cb->nsyms ? &cb->syms[i] : NULL; }

/* a data object named by a relocation: the module variable (name) and the byte inside it */
static const npu_cubin_var_t *var_at(const npu_cubin_t *cb, uint16_t sec, uint64_t off)
{
    for (uint32_t i = 0; i < cb->nvars; i++)
        if (cb->vars[i].section == sec && off >= cb->vars[i].offset && off < cb->vars[i].offset + (cb->vars[i].size ? cb->vars[i].size : 1))
            return &cb->vars[i];
    return NULL;
}

/* "name" / "name+off" (generic address of a module variable) or an extern's token, for a
 * relocation target; NULL when it names neither */
static const char *reloc_value(const npu_cubin_t *cb, const npu_cubin_reloc_t *r, char *buf, size_t n)
{
    int ext = ext_of(r->sym_name);
    if (ext) { snprintf(buf, n, "%llu", (unsigned long long)EXT_TOKEN(ext)); return buf; }
    const npu_cubin_sym_t *s = sym_of(cb, r->sym);
    if (!s || !s->shndx) return NULL;
    uint64_t at = s->value + (uint64_t)r->addend;
    const npu_cubin_var_t *v = var_at(cb, s->shndx, at);
    if (!v) return NULL;
    if (at == v->offset) snprintf(buf, n, "generic(%s)", v->name);
    else snprintf(buf, n, "generic(%s)+%llu", v->name, (unsigned long long)(at - v->offset));
    return buf;
}

static int valid_ident(const char *s)
{
    if (!s || !*s) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$' || *p == '.'))
            return 0;
    return 1;
}

/* variable declarations; a variable holding relocated addresses is a .u64 array */
static npu_status_t module_vars(const npu_cubin_t *cb, lsb_t *o)
{
    for (uint32_t i = 0; i < cb->nvars; i++) {
        const npu_cubin_var_t *v = &cb->vars[i];
        const char *space = v->kind == NPU_CUBIN_VAR_GLOBAL ? ".global" : v->kind == NPU_CUBIN_VAR_CONST ? ".const" : NULL;
        if (!space || !valid_ident(v->name)) continue;
        uint64_t size = v->size ? v->size : 1;
        /* relocations inside it */
        const npu_cubin_reloc_list_t *rl = v->kind == NPU_CUBIN_VAR_CONST ? &cb->const3_relocs : &cb->global_init_relocs;
        int nrel = 0;
        for (uint32_t r = 0; r < rl->n; r++)
            if (rl->v[r].offset >= v->offset && rl->v[r].offset < v->offset + size) nrel++;
        lsb_add(o, "%s%s %s", v->bind == 1 ? ".visible " : "", space, v->managed ? ".attribute(.managed) " : "");
        if (nrel) {
            if (size % 8 || v->offset % 8) { NPU_ERR("sass: variable %s holds addresses at unaligned offsets", v->name); return NPU_EPTXUNSUP; }
            lsb_add(o, ".align 8 .u64 %s[%llu] = {", v->name, (unsigned long long)(size / 8));
            for (uint64_t w = 0; w < size / 8; w++) {
                const npu_cubin_reloc_t *hit = NULL;
                for (uint32_t r = 0; r < rl->n; r++)
                    if (rl->v[r].offset == v->offset + 8 * w) hit = &rl->v[r];
                char buf[300];
                uint64_t raw = 0;
                if (v->init) memcpy(&raw, v->init + 8 * w, 8);
                const char *val = hit ? reloc_value(cb, hit, buf, sizeof buf) : NULL;
                if (hit && !val) { NPU_ERR("sass: variable %s: a relocation to %s is not modelled", v->name, hit->sym_name); return NPU_EPTXUNSUP; }
                if (val) lsb_add(o, "%s%s", w ? ", " : "", val);
                else lsb_add(o, "%s%llu", w ? ", " : "", (unsigned long long)raw);
            }
            lsb_add(o, "};\n");
            continue;
        }
        unsigned al = v->offset % 16 == 0 ? 16 : (unsigned)pow2div((uint32_t)v->offset);
        if (al > 16) al = 16;
        lsb_add(o, ".align %u .b8 %s[%llu]", al, v->name, (unsigned long long)size);
        if (v->init) bytes_init(o, v->init, size);
        lsb_add(o, ";\n");
    }
    return o->oom ? NPU_EHOSTMEM : NPU_OK;
}

npu_status_t npu_sass_lift_module(const npu_cubin_t *cb, int with_bodies, char **ptx, size_t *len)
{
    lsb_t o = {0};
    npu_status_t st = NPU_OK;
    unsigned sm = cb->sm;
    lsb_add(&o, "// lifted by transfer_to_npu from sm_%u machine code\n.version 8.0\n.target sm_%u\n.address_size 64\n\n",
            sm, sm);
    lsb_add(&o, ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
                ".extern .func (.param .b64 r) malloc(.param .b64 a);\n"
                ".extern .func free(.param .b64 a);\n"
                ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);\n\n");
    st = module_vars(cb, &o);
    /* bank 4: the addresses the driver patches in */
    if (st == NPU_OK && cb->const4_size) {
        uint64_t nw = (cb->const4_size + 7) / 8;
        lsb_add(&o, ".const .align 8 .u64 __c4[%llu] = {", (unsigned long long)nw);
        for (uint64_t w = 0; w < nw && st == NPU_OK; w++) {
            const npu_cubin_reloc_t *hit = NULL;
            for (uint32_t r = 0; r < cb->const4_relocs.n; r++)
                if (cb->const4_relocs.v[r].offset == 8 * w) hit = &cb->const4_relocs.v[r];
            uint64_t raw = 0;
            if (cb->const4) memcpy(&raw, cb->const4 + 8 * w, (8 * w + 8 <= cb->const4_size) ? 8 : cb->const4_size - 8 * w);
            char buf[300];
            const char *val = hit ? reloc_value(cb, hit, buf, sizeof buf) : NULL;
            if (val) lsb_add(&o, "%s%s", w ? ", " : "", val);
            else lsb_add(&o, "%s%llu", w ? ", " : "", (unsigned long long)(hit ? 0 : raw));   /* unknown targets: 0 */
        }
        lsb_add(&o, "};\n");
    }
    for (uint32_t ki = 0; ki < cb->nkernels && st == NPU_OK; ki++) {
        const npu_cubin_kernel_t *k = &cb->kernels[ki];
        if (k->cmem2_size) {
            lsb_add(&o, ".const .align 8 .b8 __c2_%u[%u]", ki, k->cmem2_size);
            bytes_init(&o, k->cmem2, k->cmem2_size);
            lsb_add(&o, ";\n");
        }
    }
    for (uint32_t ki = 0; ki < cb->nkernels && st == NPU_OK; ki++) {
        const npu_cubin_kernel_t *k = &cb->kernels[ki];
        lsb_add(&o, "\n");
        entry_header(&o, k);
        if (with_bodies) {
            st = lift_kernel(cb, ki, 1024, &o);
            if (st != NPU_OK) {   /* keep the module: this kernel fails when it is asked for */
                lsb_add(&o, "{\n\t__sass_unlifted;\n}\n");
                st = NPU_OK;
            }
        } else lsb_add(&o, "{\n\t__sass_unlifted;\n}\n");
    }
    if (o.oom) st = NPU_EHOSTMEM;
    if (st != NPU_OK) { free(o.s); return st; }
    *ptx = o.s;
    *len = o.n;
    return NPU_OK;
}

npu_status_t npu_sass_lift_kernel_body(const npu_cubin_t *cb, const char *name, size_t stack_limit, char **body,
                                       size_t *len)
{
    for (uint32_t ki = 0; ki < cb->nkernels; ki++)
        if (!strcmp(cb->kernels[ki].name, name)) {
            lsb_t o = {0};
            npu_status_t st = lift_kernel(cb, ki, stack_limit, &o);
            if (st != NPU_OK) { free(o.s); return st; }
            *body = o.s;
            *len = o.n;
            return NPU_OK;
        }
    return NPU_ENOTFOUND;
}

npu_status_t npu_sass_lift(const npu_cubin_t *cb, char **ptx, size_t *len)
{
    return npu_sass_lift_module(cb, 1, ptx, len);
}

npu_status_t npu_sass_lift_image(const void *elf, size_t size, char **ptx, size_t *len)
{
    npu_cubin_t *cb = NULL;
    npu_status_t st = npu_cubin_parse(elf, size, &cb);
    if (st != NPU_OK) return st;
    st = npu_sass_lift(cb, ptx, len);
    npu_cubin_free(cb);
    return st;
}
