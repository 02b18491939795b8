/*
 * sass_decode_ctl.c - SASS decoder, second half: memory, warp-level, special-register and
 * control-flow instructions of the Volta family. Encoding layout and table organisation:
 * see the header comment of sass_decode.c.
 */
#include "sass_internal.h"

#include <string.h>


#define B SASS_MOD_BAD
#define M(x) SASS_MOD_##x

/* memory access size (73-75): U8 S8 U16 S16 32 64 128 */
static const uint16_t t_msize[8] = {M(U8), M(S8), M(U16), M(S16), 0, M(64), M(128), B};
static const unsigned w_msize[8] = {32, 32, 32, 32, 32, 64, 128, 0};
/* cache eviction policy (84-86) */
static const uint16_t t_evict[8] = {M(EF), 0, M(EL), M(LU), M(EU), M(NA), B, B};

/* memory ordering/scope (77-80). sm_80: one 4-bit code; sm_75: scope 77-78, order 79-80. */
static void mem_order(sass_dctx_t *d)
{
    uint64_t v = sass_fld(d, 77, 4);
    if (d->sm >= 80) {
        switch (v) {
        case 0x0: return;
        case 0x4: sass_mod(d, M(CONSTANT)); return;
        case 0x5: sass_mod(d, M(STRONG)); sass_mod(d, M(SM)); return;
        case 0x7: sass_mod(d, M(STRONG)); sass_mod(d, M(GPU)); return;
        case 0xa: sass_mod(d, M(STRONG)); sass_mod(d, M(SYS)); return;
        default: break;
        }
    } else {
        unsigned scope = (unsigned)(v & 3), order = (unsigned)(v >> 2);
        static const uint16_t t_scope[4] = {M(CTA), M(SM), M(GPU), M(SYS)};
        switch (order) {
        case 0: if (scope == 3) { sass_mod(d, M(CONSTANT)); return; } break;
        case 1: if (scope == 0) return; break;
        case 2: sass_mod(d, M(STRONG)); sass_mod(d, t_scope[scope]); return;
        default: break;
        }
    }
    sass_fail(d, "memory order/scope code 0x%llx not modelled", (unsigned long long)v);
}

/* [Ra(.64) + URb + offset]: base register at 24, offset (signed, n bits) at off_lo */
static sass_operand_t *maddr(sass_dctx_t *d, int wide, unsigned off_lo, unsigned off_n,
                             int ur_lo)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_MEM);
    o->reg = (uint16_t)sass_fld(d, 24, 8);
    if (wide)
        o->flags |= SASS_OF_WIDE;
    uint64_t v = sass_fld(d, off_lo, off_n);
    int64_t s = (int64_t)v;
    if ((v >> (off_n - 1)) & 1)
        s = (int64_t)(v | (~0ull << off_n));
    o->imm = s;
    if (ur_lo >= 0)
        o->reg2 = (uint16_t)sass_fld(d, (unsigned)ur_lo, 6);
    return o;
}

/* LDG / STG / LD / ST */
void sass_h_ldst(sass_dctx_t *d, const sass_enc_t *e)
{
    int load = e->arg & V_LOAD;
    int f4 = d->form == 4;
    int ext = (int)sass_fld(d, 72, 1);
    uint64_t sz = sass_fld(d, 73, 3);
    if (ext)
        sass_mod(d, M(E));
    else if (f4)
        sass_fail(d, "64-bit address form without .E");
    sass_mod_tab(d, 84, 3, t_evict);
    static const uint16_t t_ltc[4] = {0, M(LTC64B), M(LTC128B), B};
    if (load)
        sass_mod_tab(d, 68, 2, t_ltc);
    sass_mod(d, t_msize[sz]);
    mem_order(d);
    if (load) {
        if (sass_peek(d, 81, 3) != 7)
            sass_fail(d, "load with a predicate destination");
        sass_fld(d, 81, 3);
        sass_reg(d, 16, w_msize[sz]);
    }
    int ur = f4 && !sass_fld(d, 76, 1);
    sass_operand_t *a = maddr(d, f4 && ext, load ? 40 : 40, 24, -1);
    if (f4) {
        /* 32-37 (loads) / 64-69 (stores): uniform register with the memory descriptor;
         * an address part only when bit 76 is clear */
        uint64_t u = sass_fld(d, load ? 32 : 64, 8);
        if (ur)
            a->reg2 = (uint16_t)(u & 0x3f);
        sass_expect(d, 90, 2, 3);
    } else {
        sass_expect(d, 76, 1, 0);
    }
    if (!load) {
        sass_reg(d, 32, w_msize[sz]);
    } else {
        uint64_t p = sass_fld(d, 64, 4);
        if (p != 0)
            sass_fail(d, "load with a predicate source");
    }
}

/* LDS / STS */
void sass_h_lds(sass_dctx_t *d, const sass_enc_t *e)
{
    int load = e->arg & V_LOAD;
    uint64_t sz = sass_fld(d, 73, 3);
    sass_mod(d, t_msize[sz]);
    if (load)
        sass_reg(d, 16, w_msize[sz]);
    sass_operand_t *a = maddr(d, 0, 40, 24, -1);
    uint64_t sc = sass_fld(d, 78, 2);
    if (sc == 3)
        sass_fail(d, "shared address scale 3");
    a->sel = sc == 0 ? SASS_SEL_NONE : sc == 1 ? SASS_SEL_X4 : SASS_SEL_X8;
    if (sass_fld(d, 91, 1))
        a->reg2 = (uint16_t)sass_fld(d, load ? 32 : 64, 6);
    if (!load)
        sass_reg(d, 32, w_msize[sz]);
}

/* LDL / STL */
void sass_h_ldl(sass_dctx_t *d, const sass_enc_t *e)
{
    int load = e->arg & V_LOAD;
    uint64_t sz = sass_fld(d, 73, 3);
    sass_mod_tab(d, 84, 3, t_evict);
    sass_mod(d, t_msize[sz]);
    if (load)
        sass_reg(d, 16, w_msize[sz]);
    sass_operand_t *a = maddr(d, 0, 40, 24, -1);
    if (sass_fld(d, 91, 1))
        a->reg2 = (uint16_t)sass_fld(d, load ? 32 : 64, 6);
    if (!load)
        sass_reg(d, 32, w_msize[sz]);
}

/* LDC Rd, c[bank][Ra + off] (form 5) */
void sass_h_ldc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    uint64_t sz = sass_fld(d, 73, 3);
    sass_mod(d, t_msize[sz]);
    sass_expect(d, 78, 2, 0);
    sass_reg(d, 16, w_msize[sz]);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_CBANK);
    if (d->form != 5) {
        sass_fail(d, "bindless LDC");
        return;
    }
    o->bank = (uint8_t)sass_fld(d, 54, 5);
    int64_t off = (int64_t)sass_fld(d, 38, 16);
    if (off & 0x8000)
        off -= 0x10000;
    o->imm = off;
    uint64_t r = sass_fld(d, 24, 8);
    if (r != SASS_RZ) {
        o->reg2 = (uint16_t)r;
        o->reg2kind = SASS_OPND_REG;
    }
    sass_slot(d, 0);
}

/* ULDC URd, c[bank][off] / c[bank][URa + off] */
void sass_h_uldc(sass_dctx_t *d, const sass_enc_t *e)
{
    uint64_t sz = sass_fld(d, 73, 3);
    sass_mod(d, t_msize[sz]);
    sass_ureg(d, 16, w_msize[sz]);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_CBANK);
    o->bank = (uint8_t)sass_fld(d, 54, 5);
    int64_t off = (int64_t)sass_fld(d, 38, 16);
    if (off & 0x8000)
        off -= 0x10000;
    o->imm = off;
    if (e->arg & V_IDX) {
        uint64_t r = sass_fld(d, 24, 6);
        o->reg2 = (uint16_t)r;
        o->reg2kind = SASS_OPND_UREG;
    }
}

void sass_h_ldsm(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_mat[4] = {M(M88), M(MT88), B, B};
    static const uint16_t t_num[4] = {0, M(2), M(4), B};
    static const unsigned w_num[4] = {32, 64, 128, 0};
    sass_mod(d, M(16));
    sass_mod_tab(d, 78, 2, t_mat);
    uint64_t n = sass_fld(d, 72, 2);
    if (n == 0)
        sass_mod(d, SASS_MOD_NONE);
    else
        sass_mod(d, t_num[n]);
    sass_reg(d, 16, w_num[n]);
    maddr(d, 0, 40, 24, -1);
}

void sass_h_ldgsts(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "LDGSTS not modelled yet");
}

/* atomics */
static const uint16_t t_atomop[16] = {M(ADD), M(MIN), M(MAX), M(INC), M(DEC), M(AND), M(OR),
                                      M(XOR), M(EXCH), M(SAFEADD), B, B, B, B, B, B};

void sass_h_atom(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "ATOM not modelled yet");
}

void sass_h_atoms(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    (void)t_atomop;
    sass_fail(d, "ATOMS not modelled yet");
}

void sass_h_red(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "RED not modelled yet");
}

void sass_h_cctl(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "CCTL not modelled yet");
}

void sass_h_membar(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_scope[8] = {M(CTA), M(SM), M(GPU), M(SYS), B, B, B, B};
    uint64_t sc = sass_fld(d, 79, 1), mmio = sass_fld(d, 80, 1) ^ 1;
    (void)mmio;
    if (sass_peek(d, 80, 1))
        sass_mod(d, sc ? M(ALL) : M(SC));
    else if (sc)
        sass_fail(d, "MEMBAR mode");
    sass_fld(d, 80, 1);
    sass_mod_tab(d, 76, 3, t_scope);
}

/* instructions without operands (NOP, ERRBAR, LDGDEPBAR, YIELD with its predicate) */
void sass_h_bare(sass_dctx_t *d, const sass_enc_t *e)
{
    if (e->arg & V_PRED) {
        if (sass_peek(d, 87, 4) != 7)
            sass_pred(d, 87, 90);
        else
            sass_fld(d, 87, 4);
    }
}

void sass_h_depbar(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (!sass_fld(d, 47, 1)) {
        sass_fail(d, "DEPBAR without .LE");
        return;
    }
    sass_mod(d, M(LE));
    sass_operand_t *o = sass_opnd(d, SASS_OPND_SB);
    o->reg = (uint16_t)sass_fld(d, 44, 3);
    sass_imm(d, 38, 6, 0);
    if (sass_peek(d, 32, 6))
        sass_fail(d, "DEPBAR scoreboard list");
    sass_fld(d, 32, 6);
}

void sass_h_qspc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "QSPC not modelled yet");
}

/* special registers */
void sass_h_s2r(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_reg(d, 16, 32);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_SREG);
    o->reg = (uint16_t)sass_fld(d, 72, 8);
}

void sass_h_s2ur(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_ureg(d, 16, 32);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_SREG);
    o->reg = (uint16_t)sass_fld(d, 72, 8);
}

void sass_h_cs2r(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int w64 = (int)sass_fld(d, 80, 1);
    if (!w64)
        sass_mod(d, M(32));
    sass_reg(d, 16, w64 ? 64 : 32);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_SREG);
    o->reg = (uint16_t)sass_fld(d, 72, 8);
}

void sass_h_b2r(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "B2R not modelled yet");
}

void sass_h_r2ur(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 84, 1))
        sass_mod(d, M(OR));
    if (sass_peek(d, 81, 3) != 7)
        sass_pred(d, 81, -1);
    else
        sass_fld(d, 81, 3);
    sass_ureg(d, 16, 32);
    sass_reg(d, 24, 32);
    sass_slot(d, 0);
}

/* warp-level */
static const uint16_t t_shfl[4] = {M(IDX), M(UP), M(DOWN), M(BFLY)};

void sass_h_shfl(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 58, 2, t_shfl);
    sass_pred(d, 81, -1);
    sass_reg(d, 16, 32);
    sass_reg(d, 24, 32);
    sass_slot(d, 0);
    int f = d->form;
    if (f == 1 || f == 2) {
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        sass_imm(d, 53, 5, 0);
    }
    if (f == 1 || f == 4) {
        sass_reg(d, 64, 32);
        sass_slot(d, 2);
    } else {
        sass_imm(d, 40, 13, 0);
    }
}

static const uint16_t t_vote[4] = {M(ALL), M(ANY), M(EQ), B};

void sass_h_vote(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    sass_mod_tab(d, 72, 2, t_vote);
    uint64_t r = sass_peek(d, 16, 8);
    if (r != (uni ? SASS_URZ : SASS_RZ)) {
        if (uni)
            sass_ureg(d, 16, 32);
        else
            sass_reg(d, 16, 32);
    } else {
        sass_fld(d, 16, 8);
    }
    sass_pred(d, 81, -1);
    sass_pred(d, 87, 90);
}

void sass_h_match(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int any = (int)sass_fld(d, 79, 1);
    sass_mod(d, any ? M(ANY) : M(ALL));
    int u64 = (int)sass_fld(d, 73, 1);
    if (u64)
        sass_mod(d, M(U64));
    if (!any)
        sass_pred(d, 81, -1);
    else
        sass_expect(d, 81, 3, 7);
    sass_reg(d, 16, 32);
    sass_reg(d, 24, u64 ? 64 : 32);
    sass_slot(d, 0);
}

void sass_h_redux(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_op[8] = {0, M(OR), M(XOR), M(SUM), M(MIN), M(MAX), B, B};
    sass_mod_tab(d, 78, 3, t_op);
    if (sass_fld(d, 73, 1))
        sass_mod(d, M(S32));
    sass_ureg(d, 16, 32);
    sass_reg(d, 24, 32);
    sass_slot(d, 0);
}

/* control flow */
static void cond_pred(sass_dctx_t *d)
{
    if (sass_peek(d, 87, 4) != 7)
        sass_pred(d, 87, 90);
    else
        sass_fld(d, 87, 4);
}

/* INC/DEC of the branch-divergence counter (85-86) */
static void incdec(sass_dctx_t *d)
{
    uint64_t v = sass_fld(d, 85, 2);
    if (v == 1)
        sass_mod(d, M(INC));
    else if (v == 2)
        sass_mod(d, M(DEC));
    else if (v == 3)
        sass_fail(d, "INC and DEC");
}

/* byte offset in 32..81 relative to the next instruction, low two bits handled by caller */
static void rel50(sass_dctx_t *d)
{
    uint64_t v = sass_fld(d, 34, 48) << 2;
    int64_t s = (int64_t)v;
    if ((v >> 49) & 1)
        s = (int64_t)(v | (~0ull << 50));
    sass_operand_t *o = sass_opnd(d, SASS_OPND_TARGET);
    o->imm = (int64_t)(d->in->pc + 16) + s;
}

void sass_h_bra(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    incdec(d);
    cond_pred(d);
    if (sass_fld(d, 91, 1)) {
        /* BRA.DIV / BRA.CONV URa: branch when the warp is divergent/convergent w.r.t.
         * the mask in URa (bit 30: ~) */
        static const uint16_t t_mode[4] = {B, B, M(DIV), M(CONV)};
        sass_mod_tab(d, 32, 2, t_mode);
        sass_operand_t *o = sass_ureg(d, 24, 32);
        if (sass_fld(d, 30, 1))
            o->flags |= SASS_OF_NOT;
    } else {
        sass_expect(d, 24, 8, 0);
        sass_expect(d, 32, 2, 0);
    }
    rel50(d);
}

void sass_h_brx(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    incdec(d);
    cond_pred(d);
    sass_reg(d, 24, 64);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_IMM);
    sass_expect(d, 32, 2, 0);
    uint64_t v = sass_fld(d, 34, 48) << 2;
    int64_t s = (int64_t)v;
    if ((v >> 49) & 1)
        s = (int64_t)(v | (~0ull << 50));
    o->imm = s;             /* offset added to the register's target, printed as is */
}

void sass_h_call(sass_dctx_t *d, const sass_enc_t *e)
{
    sass_mod(d, (e->arg & V_ABS) ? M(ABS) : M(REL));
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(NOINC));
    cond_pred(d);
    sass_expect(d, 32, 2, 0);
    if (e->arg & V_ABS) {
        sass_reg(d, 24, 64);
        uint64_t t = sass_fld(d, 34, 48);
        if (t)
            sass_imm_val(d, (int64_t)(t << 2), SASS_IFMT_UHEX);
        return;
    }
    if (d->form == 1)
        sass_reg(d, 24, 64);
    rel50(d);
}

void sass_h_ret(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 85, 1)) {
        sass_fail(d, "RET.ABS");
        return;
    }
    sass_mod(d, M(REL));
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(NODEC));
    cond_pred(d);
    sass_reg(d, 24, 64);
    sass_expect(d, 32, 2, 0);
    rel50(d);
}

void sass_h_exit(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 84, 1))
        sass_mod(d, M(KEEPREFCOUNT));
    if (sass_fld(d, 85, 1))
        sass_mod(d, M(NO_ATEXIT));
    cond_pred(d);
}

void sass_h_bssy(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    cond_pred(d);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_BAR);
    o->reg = (uint16_t)sass_fld(d, 16, 4);
    sass_target(d, 32, 32);
    sass_expect(d, 64, 18, 0);
}

void sass_h_bsync(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    cond_pred(d);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_BAR);
    o->reg = (uint16_t)sass_fld(d, 16, 4);
}

void sass_h_brk(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    cond_pred(d);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_BAR);
    o->reg = (uint16_t)sass_fld(d, 16, 4);
}

void sass_h_bmov(sass_dctx_t *d, const sass_enc_t *e)
{
    sass_mod(d, M(32));
    if (e->arg & V_TOBAR) {
        if (sass_fld(d, 84, 1))
            sass_mod(d, M(PQUAD));
        sass_operand_t *o = sass_opnd(d, SASS_OPND_BAR);
        o->reg = (uint16_t)sass_fld(d, 24, 6);
        if (o->reg > 15)
            sass_fail(d, "BMOV special barrier %u", o->reg);
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        if (sass_fld(d, 84, 1))
            sass_mod(d, M(CLEAR));
        sass_reg(d, 16, 32);
        sass_operand_t *o = sass_opnd(d, SASS_OPND_BAR);
        o->reg = (uint16_t)sass_fld(d, 24, 6);
        if (o->reg > 15)
            sass_fail(d, "BMOV special barrier %u", o->reg);
    }
}

void sass_h_warpsync(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(EXCLUSIVE));
    cond_pred(d);
    if (d->form == 1) {
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        sass_imm(d, 32, 32, 0);
    }
}

void sass_h_bar(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_red[4] = {M(POPC), M(AND), M(OR), B};
    uint64_t mode = sass_fld(d, 77, 2);
    switch (mode) {
    case 0: sass_mod(d, M(SYNC)); break;
    case 1: sass_mod(d, M(ARV)); break;
    case 2: sass_mod(d, M(RED)); sass_mod_tab(d, 74, 2, t_red); break;
    default: sass_fail(d, "BAR mode 3"); return;
    }
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(DEFER_BLOCKING));
    if (d->form == 5)
        sass_imm(d, 54, 4, 0);
    else {
        sass_fail(d, "BAR with a register barrier id");
        return;
    }
    if (sass_fld(d, 90, 1) == 0 && mode != 2) {
        /* thread count (bit 90 clear = count given) */
    }
    if (mode == 2)
        sass_pred(d, 87, 90);
}

void sass_h_nanosleep(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 85, 1))
        sass_mod(d, M(WARP));
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(RAND));
    cond_pred(d);
    if (d->form == 1) {
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        sass_imm(d, 32, 32, 0);
    }
}

void sass_h_bpt(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_bpt[8] = {B, B, B, M(TRAP), B, B, B, B};
    sass_mod_tab(d, 84, 3, t_bpt);
    sass_imm(d, 38, 20, 0);
}

void sass_h_lepc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_reg(d, 16, 64);
}

void sass_h_kill(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    cond_pred(d);
}

void sass_h_tex(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "texture instructions not modelled yet");
}

void sass_h_suld(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_fail(d, "surface instructions not modelled yet");
}
