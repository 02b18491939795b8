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

/* Memory ordering and scope (77-80), as nvdisasm names the codes.
 * sm_80+: one 4-bit code; 4 means CONSTANT (ld.global.nc) for loads but STRONG.SM.PRIVATE
 * for stores and atomics. sm_75: scope in 77-78 (CTA SM GPU SYS, always printed), order in
 * 79-80 (CONSTANT for loads only, weak: nothing, STRONG, MMIO: not for reductions). */
#define SM2(a, b) {M(a), M(b), 0}
#define SM3(a, b, c) {M(a), M(b), M(c)}
static const uint16_t t_order80[16][3] = {
    {0}, SM2(CONSTANT, PRIVATE), SM2(CONSTANT, CTA), SM3(CONSTANT, CTA, PRIVATE),
    {0} /* per access kind */, SM2(STRONG, SM), SM3(STRONG, GPU, PRIVATE), SM2(STRONG, GPU),
    SM2(MMIO, GPU), SM2(CONSTANT, SM), SM2(STRONG, SYS), SM3(CONSTANT, SM, PRIVATE),
    SM2(MMIO, SYS), SM2(CONSTANT, VC), SM3(CONSTANT, VC, PRIVATE), SM2(CONSTANT, GPU),
};
#undef SM2
#undef SM3

enum { MO_LOAD, MO_STORE, MO_RED };

static void mem_order(sass_dctx_t *d, int kind)
{
    uint64_t v = sass_fld(d, 77, 4);
    if (d->sm >= 80) {
        if (v == 4) {
            if (kind == MO_LOAD) {
                sass_mod(d, M(CONSTANT));
            } else {
                sass_mod(d, M(STRONG));
                sass_mod(d, M(SM));
                sass_mod(d, M(PRIVATE));
            }
            return;
        }
        for (int i = 0; i < 3; i++)
            sass_mod(d, t_order80[v][i]);
        return;
    }
    static const uint16_t t_scope[4] = {M(CTA), M(SM), M(GPU), M(SYS)};
    static const uint16_t t_ord[3][4] = {
        {M(CONSTANT), 0, M(STRONG), M(MMIO)},       /* loads */
        {B, 0, M(STRONG), M(MMIO)},                 /* stores */
        {B, 0, M(STRONG), B},                       /* reductions, atomics */
    };
    sass_mod(d, t_ord[kind][v >> 2]);
    sass_mod(d, t_scope[v & 3]);
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

/* Address of the form-4 (bits 9-11 = 4) generic/global memory instructions:
 *   91-90 = 3: [Ra.64 + URb + off], 2: [Ra.U32 + URb + off] (24-bit offset in 40-63);
 *   91 = 0 (LD, RED): [Ra + off] with a 32-bit offset in 32-63 (LD) or 24-bit (RED).
 * URb (in ur_lo..+5) is part of the address on sm_80 unless bit `nour` is set (for .U32
 * always); on sm_75 it always is, and bit 76 of loads/stores means .PRIVATE instead.
 * Returns the operand, or NULL after failing. */
static sass_operand_t *gaddr(sass_dctx_t *d, unsigned ur_lo, unsigned nour, int allow32,
                             int off32)
{
    uint64_t mode = sass_fld(d, 90, 2);
    if (mode < 2) {
        if (!allow32 || mode != 0) {
            sass_fail(d, "address mode %llu", (unsigned long long)mode);
            return NULL;
        }
        return off32 ? maddr(d, 0, 32, 32, -1) : maddr(d, 0, 40, 24, -1);
    }
    sass_operand_t *a = maddr(d, mode == 3, 40, 24, -1);
    if (mode == 2)
        a->flags |= SASS_OF_U32;
    uint64_t u = sass_fld(d, ur_lo, 6);
    int ur = 1;
    if (d->sm >= 80 && nour)
        ur = mode == 2 || !sass_fld(d, nour, 1);
    if (ur)
        a->reg2 = (uint16_t)u;
    return a;
}

/* LDG / STG / LD / ST.
 * form 1: LDG [Ra + off24(40)]; LD [Ra + off32(32)]; STG data(32) [Ra + off24(40)];
 *         ST data(64) [Ra + off32(32)]
 * form 4: gaddr(); loads read URb in 32-37, stores in 64-69 (data in 32) */
void sass_h_ldst(sass_dctx_t *d, const sass_enc_t *e)
{
    int load = e->arg & V_LOAD, global = e->arg & V_GLOBAL;
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
    mem_order(d, load ? MO_LOAD : MO_STORE);
    if (d->sm < 80 && sass_fld(d, 76, 1))
        sass_mod(d, M(PRIVATE));
    if (load) {
        /* LDG: 81-83 a predicate destination, PT when absent; LD: unused, zero */
        if (sass_fld(d, 81, 3) != (global ? 7u : 0u))
            sass_fail(d, "load with a predicate destination");
        sass_expect(d, 87, 1, 0);                   /* .ZD */
        sass_reg(d, 16, w_msize[sz]);
    }
    if (f4) {
        if (!gaddr(d, load ? 32 : 64, 76, load && !global, 1))
            return;
    } else {
        if (d->sm >= 80)
            sass_expect(d, 76, 1, 0);
        if (load)
            maddr(d, 0, global ? 40 : 32, global ? 24 : 32, -1);
        else
            maddr(d, 0, global ? 40 : 32, global ? 24 : 32, -1);
        sass_expect(d, 90, 2, 0);
    }
    if (!load) {
        sass_reg(d, (!f4 && !global) ? 64 : 32, w_msize[sz]);
    } else {
        /* a predicate source in 64-67, stored inverted (0 = PT), printed last */
        uint64_t p = sass_fld(d, 64, 3);
        int pn = (int)sass_fld(d, 67, 1);
        if (p != 0 || pn) {
            sass_operand_t *o = sass_opnd(d, SASS_OPND_PRED);
            o->reg = (uint16_t)(7 - p);
            if (pn)
                o->flags |= SASS_OF_NOT;
        }
    }
}

/* shared-memory address scale (78-79): [R.X4] ... */
static const uint8_t t_scale[4] = {SASS_SEL_NONE, SASS_SEL_X4, SASS_SEL_X8, SASS_SEL_X16};

/* LDS / STS */
void sass_h_lds(sass_dctx_t *d, const sass_enc_t *e)
{
    int load = e->arg & V_LOAD;
    uint64_t sz = sass_fld(d, 73, 3);
    if (load && d->sm < 80 && sass_fld(d, 76, 1))      /* sm_75: LDS.U */
        sass_mod(d, M(U));
    sass_mod(d, t_msize[sz]);
    if (load)
        sass_reg(d, 16, w_msize[sz]);
    sass_operand_t *a = maddr(d, 0, 40, 24, -1);
    a->sel = t_scale[sass_fld(d, 78, 2)];
    /* URb part: LDS (form 4) when bit 91 is set; STS form 4 always, form 1 never */
    int ur = (int)sass_fld(d, 91, 1);
    if (!load && ur != (d->form == 4))
        sass_fail(d, "STS form %d with bit 91 = %d", d->form, ur);
    if (ur)
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
    if (d->form == 4 && sass_fld(d, 91, 1))     /* URb part only in form 4 */
        a->reg2 = (uint16_t)sass_fld(d, load ? 32 : 64, 6);
    else if (d->form != 4)
        sass_expect(d, 91, 1, 0);
    if (!load)
        sass_reg(d, 32, w_msize[sz]);
}

/* LDC Rd, c[bank][Ra + off] (form 5) */
void sass_h_ldc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    uint64_t sz = sass_fld(d, 73, 3);
    if (sz > 5)
        sass_fail(d, "LDC size %llu", (unsigned long long)sz);
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
    if (sz > 5)
        sass_fail(d, "ULDC size %llu", (unsigned long long)sz);
    sass_mod(d, t_msize[sz]);
    sass_ureg(d, 16, w_msize[sz]);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_CBANK);
    o->bank = (uint8_t)sass_fld(d, 54, 5);
    int64_t off = (int64_t)sass_fld(d, 38, 16);
    if (off & 0x8000)
        off -= 0x10000;
    o->imm = off;
    sass_expect(d, 91, 1, (e->arg & V_IDX) ? 1 : 0);
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
    sass_operand_t *a = maddr(d, 0, 40, 24, -1);
    if (sass_fld(d, 91, 1))
        a->reg2 = (uint16_t)sass_fld(d, 32, 6);
}

/* LDGSTS [Rs + off20], [Rg.64 + UR + off12]: asynchronous global -> shared copy */
void sass_h_ldgsts(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_ltc[4] = {0, B, M(LTC128B), M(LTC256B)};
    sass_expect(d, 70, 1, 1);
    sass_expect(d, 91, 1, 1);
    sass_mod(d, M(E));
    if (!sass_fld(d, 81, 1))
        sass_mod(d, M(BYPASS));
    sass_mod_tab(d, 84, 3, t_evict);
    sass_mod_tab(d, 71, 2, t_ltc);
    uint64_t sz = sass_fld(d, 73, 3);
    if (sz < 4 || sz > 6)
        sass_fail(d, "LDGSTS size %llu", (unsigned long long)sz);
    sass_mod(d, t_msize[sz]);
    sass_expect(d, 77, 4, 0);           /* only weak ordering modelled */
    if (sass_fld(d, 82, 1))
        sass_mod(d, M(ZFILL));
    /* shared destination: R(16) + signed 20-bit offset in 44-63 */
    sass_operand_t *o = sass_opnd(d, SASS_OPND_MEM);
    o->reg = (uint16_t)sass_fld(d, 16, 8);
    uint64_t v = sass_fld(d, 44, 20);
    o->imm = (v & 0x80000) ? (int64_t)v - 0x100000 : (int64_t)v;
    /* global source: R(24).64 + UR(64) when bit 76 clear + signed 12-bit offset in 32-43 */
    o = sass_opnd(d, SASS_OPND_MEM);
    o->reg = (uint16_t)sass_fld(d, 24, 8);
    o->flags |= SASS_OF_WIDE;
    v = sass_fld(d, 32, 12);
    o->imm = (v & 0x800) ? (int64_t)v - 0x1000 : (int64_t)v;
    uint64_t u = sass_fld(d, 64, 6);
    if (!sass_fld(d, 76, 1))
        o->reg2 = (uint16_t)u;
    if (sass_peek(d, 87, 4) != 7)
        sass_pred(d, 87, 90);
    else
        sass_fld(d, 87, 4);
}

/* atomics: operation (87-90), type (73-76) */
static const uint16_t t_atomop[16] = {M(ADD), M(MIN), M(MAX), M(INC), M(DEC), M(AND), M(OR),
                                      M(XOR), M(EXCH), M(SAFEADD), B, B, B, B, B, B};
/* U32 S32 U64 F32 F16x2 S64 F64; width of the data */
static const unsigned w_atype[8] = {32, 32, 64, 32, 32, 64, 64, 0};

static void atom_type(sass_dctx_t *d, uint64_t t)
{
    switch (t) {
    case 0: break;
    case 1: sass_mod(d, M(S32)); break;
    case 2: sass_mod(d, M(64)); break;
    case 3: sass_mod(d, M(F32)); sass_mod(d, M(FTZ)); sass_mod(d, M(RN)); break;
    case 4: sass_mod(d, M(F16x2)); sass_mod(d, M(RN)); break;
    case 5: sass_mod(d, M(S64)); break;
    case 6: sass_mod(d, M(F64)); sass_mod(d, M(RN)); break;
    default: sass_fail(d, "atomic type %llu", (unsigned long long)t);
    }
}



/* ATOM / ATOMG (generic / global). Form 4: [R.64], op in 87-90; CAS (form 1): [R], cmp in
 * 32, data in 64 (no UR part), CAST/SPIN in 87/88 */
void sass_h_atom(sass_dctx_t *d, const sass_enc_t *e)
{
    int cas = e->arg & V_CAS;
    if (!sass_fld(d, 72, 1)) {
        sass_fail(d, "atomic without .E");
        return;
    }
    sass_mod(d, M(E));
    uint64_t t = sass_fld(d, 73, 4);
    if (cas) {
        /* ATOM (generic) has CAST(.SPIN) in 87-88; ATOMG only CAS. Types U32 S32 64. */
        uint64_t c = (e->arg & V_GLOBAL) ? 0 : sass_fld(d, 87, 2);
        sass_mod(d, c == 0 ? M(CAS) : M(CAST));
        if (c == 3)
            sass_mod(d, M(SPIN));
        else if (c == 2)
            sass_fail(d, "CAS mode 2");
        if (e->arg & V_GLOBAL)
            sass_expect(d, 87, 5, 0);
        else
            sass_expect(d, 89, 3, 0);
        if (t > 2)
            sass_fail(d, "CAS type %llu", (unsigned long long)t);
    } else {
        if (!(e->arg & V_GLOBAL) && sass_peek(d, 87, 4) == 9)
            sass_fail(d, "SAFEADD is ATOMG only");
        sass_mod_tab(d, 87, 4, t_atomop);
        sass_expect(d, 91, 1, d->form == 4);
    }
    sass_mod_tab(d, 84, 3, t_evict);
    if (t > 7)
        sass_fail(d, "atomic type %llu", (unsigned long long)t);
    atom_type(d, t);
    mem_order(d, MO_RED);
    sass_pred(d, 81, -1);
    sass_reg(d, 16, w_atype[t & 7]);
    if (cas) {
        maddr(d, 0, 40, 24, -1);
        sass_reg(d, 32, w_atype[t & 7]);
        sass_reg(d, 64, w_atype[t & 7]);
    } else if (d->form == 1) {          /* sm_75 ATOM.E [Ra + off24] */
        maddr(d, 0, 40, 24, -1);
        sass_expect(d, 64, 8, 0xff);
        sass_reg(d, 32, w_atype[t & 7]);
    } else {
        /* [Ra.64 + URb(64) + off24]; bit 71 set: no URb (sm_80); 90 is part of the op */
        sass_expect(d, 70, 1, 1);
        sass_operand_t *a = maddr(d, 1, 40, 24, -1);
        uint64_t u = sass_fld(d, 64, 6);
        if (d->sm < 80 || !sass_fld(d, 71, 1))
            a->reg2 = (uint16_t)u;
        sass_reg(d, 32, w_atype[t & 7]);
    }
}

/* RED [R.64 + UR + off], Rb */
void sass_h_red(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_redop[8] = {M(ADD), M(MIN), M(MAX), M(INC), M(DEC), M(AND),
                                        M(OR), M(XOR)};
    if (!sass_fld(d, 72, 1)) {
        sass_fail(d, "RED without .E");
        return;
    }
    sass_mod(d, M(E));
    sass_mod_tab(d, 87, 3, t_redop);
    sass_mod_tab(d, 84, 3, t_evict);
    uint64_t t = sass_fld(d, 73, 4);
    if (t > 7)
        sass_fail(d, "RED type %llu", (unsigned long long)t);
    atom_type(d, t);
    mem_order(d, MO_RED);
    sass_expect(d, 70, 1, 0);
    if (!gaddr(d, 64, 71, 1, 0))
        return;
    if (!(sass_peek(d, 91, 1)))
        sass_fld(d, 64, 8);             /* URb field unused */
    sass_reg(d, 32, w_atype[t & 7]);
}

/* ATOMS (shared): op 87-90 (CAS: 87 CAST, 88 SPIN), type 73-74, address scale 78-79 */
void sass_h_atoms(sass_dctx_t *d, const sass_enc_t *e)
{
    int cas = e->arg & V_CAS;
    static const uint16_t t_stype[4] = {0, M(S32), M(64), B};
    static const unsigned w_stype[4] = {32, 32, 64, 0};
    if (d->form == 7) {
        /* ATOMS.POPC.INC.32 Rd, [Ra + URb + off]: increment by the number of active
         * threads (one fixed operation code, no data register) */
        sass_expect(d, 87, 5, 0x1a);
        sass_mod(d, M(POPC));
        sass_mod(d, M(INC));
        static const uint16_t t_t7[4] = {M(32), B, B, B};
        sass_mod_tab(d, 73, 2, t_t7);
        sass_reg(d, 16, 32);
        sass_operand_t *a = maddr(d, 0, 40, 24, -1);
        a->sel = t_scale[sass_fld(d, 78, 2)];
        a->reg2 = (uint16_t)sass_fld(d, 64, 6);
        return;
    }
    if (cas) {
        uint64_t c = sass_fld(d, 87, 2);
        sass_mod(d, c == 0 ? M(CAS) : M(CAST));
        if (c == 3)
            sass_mod(d, M(SPIN));
        else if (c == 2)
            sass_fail(d, "CAS mode 2");
    } else {
        static const uint16_t t_sop[16] = {M(ADD), M(MIN), M(MAX), M(INC), M(DEC), M(AND),
                                           M(OR), M(XOR), M(EXCH), B, B, B, B, B, B, B};
        sass_mod_tab(d, 87, 4, t_sop);
    }
    uint64_t t = sass_fld(d, 73, 2);
    sass_mod_tab(d, 73, 2, t_stype);
    sass_reg(d, 16, w_stype[t]);
    sass_operand_t *a = maddr(d, 0, 40, 24, -1);
    a->sel = t_scale[sass_fld(d, 78, 2)];
    sass_reg(d, 32, w_stype[t]);
    if (cas)
        sass_reg(d, 64, w_stype[t]);
    else
        sass_expect(d, 64, 8, d->sm >= 80 ? 0 : 0xff);     /* unused source c */
}

void sass_h_cctl(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_cctl[16] = {M(PF1), M(PF2), M(WB), M(IV), M(IVALL), M(RS),
                                        M(IVALLP), M(WBALL), M(WBALLP), B, B, B, B, B, B, B};
    uint64_t op = sass_fld(d, 87, 4);
    int all = op == 4 || op == 6 || op == 7 || op == 8;
    int ext = (int)sass_fld(d, 72, 1);
    if (ext)
        sass_mod(d, M(E));
    sass_expect(d, 78, 2, 0);
    sass_mod_tab(d, 87, 4, t_cctl);
    if (all) {
        if (ext)
            sass_fail(d, "CCTL .E with an all-lines operation");
        sass_expect(d, 24, 8, SASS_RZ);
        return;
    }
    sass_operand_t *a = sass_opnd(d, SASS_OPND_MEM);
    a->reg = (uint16_t)sass_fld(d, 24, 8);
    uint64_t v = sass_fld(d, 32, 32);
    a->imm = (int64_t)(int32_t)(uint32_t)v;
}

void sass_h_membar(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_scope[8] = {M(CTA), M(SM), M(GPU), M(SYS), B, B, B, B};
    int all = (int)sass_fld(d, 79, 1), plain = (int)sass_fld(d, 80, 1);
    if (!plain)
        sass_mod(d, all ? M(ALL) : M(SC));
    else if (all)
        sass_fail(d, "MEMBAR mode 3");
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
    uint64_t set = sass_fld(d, 32, 6);
    if (set) {
        sass_operand_t *s = sass_opnd(d, SASS_OPND_SBSET);
        s->imm = (int64_t)set;
    }
}

/* QSPC.E.S/.G Pd, Rd, [Ra + off]: does the generic address lie in shared/global space */
void sass_h_qspc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_space[4] = {M(G), M(L), M(S), B};
    int ext = (int)sass_fld(d, 72, 1);
    if (ext)
        sass_mod(d, M(E));
    sass_mod_tab(d, 73, 2, t_space);
    sass_pred(d, 81, -1);
    sass_reg(d, 16, 32);
    if (d->form == 4)
        gaddr(d, 32, 76, 0, 0);
    else
        maddr(d, 0, 40, 24, -1);
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
    if (!sass_fld(d, 78, 1)) {
        sass_fail(d, "B2R without .RESULT");
        return;
    }
    sass_mod(d, M(RESULT));
    sass_reg(d, 16, 32);
    if (sass_peek(d, 81, 3) != 7)
        sass_pred(d, 81, -1);
    else
        sass_fld(d, 81, 3);
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
    if (uni)
        sass_upred(d, 81, -1);
    else
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
    /* .U (uniform branch), .DIV / .CONV (taken when the warp is divergent / convergent,
     * sm_80: with respect to the thread mask in URa, bit 30: ~URa) */
    static const uint16_t t_mode[4] = {0, M(U), M(DIV), M(CONV)};
    uint64_t mode = sass_peek(d, 32, 2);
    sass_mod_tab(d, 32, 2, t_mode);
    if (d->sm >= 80 && sass_fld(d, 91, 1)) {
        if (mode < 2)
            sass_fail(d, "BRA with a UR operand but no .DIV/.CONV");
        sass_operand_t *o = sass_ureg(d, 24, 32);
        if (sass_fld(d, 30, 1))
            o->flags |= SASS_OF_NOT;
    } else {
        sass_expect(d, 91, 1, 0);
        sass_expect(d, 24, 8, 0);
    }
    rel50(d);
}

void sass_h_brx(sass_dctx_t *d, const sass_enc_t *e)
{
    incdec(d);
    cond_pred(d);
    if (e->arg & V_UNI) {               /* BRXU URa: the target from a uniform register */
        sass_expect(d, 91, 1, 1);
        sass_ureg(d, 24, 64);
    } else {
        sass_reg(d, 24, 64);
    }
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
    if ((e->arg & V_ABS) && d->form == 4)
        sass_expect(d, 86, 1, 1);           /* always printed .NOINC (measured) */
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(NOINC));
    cond_pred(d);
    sass_expect(d, 32, 2, 0);
    if ((e->arg & V_ABS) && d->form == 4) {
        /* CALL.ABS.NOINC <absolute address> (bits 34-80, a relocation usually fills it) */
        sass_expect(d, 24, 8, 0);
        sass_expect(d, 81, 1, 0);
        sass_operand_t *o = sass_opnd(d, SASS_OPND_TARGET);
        o->imm = (int64_t)(sass_fld(d, 34, 47) << 2);
        return;
    }
    if (e->arg & V_ABS) {
        sass_reg(d, 24, 64);
        uint64_t t = sass_fld(d, 34, 48) << 2;
        if (t)
            sass_imm_val(d, (t >> 49) & 1 ? (int64_t)(t | (~0ull << 50)) : (int64_t)t,
                         SASS_IFMT_HEX);
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
    sass_expect(d, 84, 1, 0);
    if (sass_fld(d, 85, 1))
        sass_mod(d, M(PREEMPTED));
    sass_expect(d, 86, 1, 0);
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
    if (d->sm >= 80 && d->form == 1 && sass_fld(d, 86, 1))
        sass_mod(d, M(EXCLUSIVE));
    cond_pred(d);
    if (d->form == 1) {
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        sass_imm(d, 32, 32, 0);
    }
}

/* BAR.SYNC/ARV/RED id, count: id in 54-57; count: form 5 an immediate in 42-53 (0: all
 * threads, not printed), form 4 a register in 32-39 */
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
    sass_expect(d, 79, 1, 0);       /* .SYNCALL */
    if (sass_fld(d, 80, 1)) {
        if (mode == 1)
            sass_fail(d, "BAR.ARV.DEFER_BLOCKING");
        sass_mod(d, M(DEFER_BLOCKING));
    }
    sass_imm(d, 54, 4, 0);
    if (d->form == 4) {
        sass_reg(d, 32, 32);
        sass_slot(d, 1);
    } else {
        uint64_t n = sass_fld(d, 42, 12);
        if (n || mode == 1)             /* ARV always names its count */
            sass_imm_val(d, (int64_t)n, SASS_IFMT_UHEX);
    }
    if (mode == 2)
        sass_pred(d, 87, 90);
}

void sass_h_nanosleep(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int warp = (int)sass_fld(d, 85, 1);
    if (sass_fld(d, 86, 1))
        sass_mod(d, M(RAND));
    if (warp)
        sass_mod(d, M(WARP));
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
    static const uint16_t t_bpt[8] = {B, B, B, M(TRAP), M(INT), B, B, B};
    sass_mod_tab(d, 84, 3, t_bpt);
    uint64_t code = sass_fld(d, 34, 3);
    if (code)
        sass_imm_val(d, (int64_t)code, SASS_IFMT_UHEX);
}

void sass_h_lepc(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_reg(d, 16, 64);
}


/* texture/surface header slot in a constant bank: bank 54-58, word index 40-53 (printed as
 * two immediates, "0x0, 0x58" for c[0x0][0x160]) */
static void tex_handle(sass_dctx_t *d)
{
    sass_imm(d, 54, 5, 0);
    sass_imm(d, 40, 14, 0);
}

/* TEX/TLD.SCR(.B).<lod> Rd2, Rd, Ra, Rb, bank, slot, <dim>, <channel mask> (form 5, the
 * header in a constant bank). Rb is left out when RZ (TLD). Modelled: .SCR, lod LL/LZ/LB,
 * no AOFFI/NDV/DC/F16/CL/MS, no fault predicate, default cache policy. */
void sass_h_tex(sass_dctx_t *d, const sass_enc_t *e)
{
    static const uint16_t t_lod_tex[8] = {0, M(LZ), M(LB), M(LL), B, B, B, B};
    static const uint16_t t_lod_tld[8] = {B, M(LZ), B, M(LL), B, B, B, B};
    static const uint16_t t_dim[8] = {M(1D), M(2D), M(3D), B, B, B, B, B};
    if (!sass_fld(d, 60, 1)) {
        sass_fail(d, "texture without .SCR");
        return;
    }
    sass_expect(d, 59, 1, 0);           /* .B */
    sass_mod(d, M(SCR));
    sass_mod_tab(d, 87, 3, (e->arg & V_TLD) ? t_lod_tld : t_lod_tex);
    sass_expect(d, 76, 5, 0);
    sass_expect(d, 81, 3, 7);
    sass_expect(d, 84, 3, 1);
    sass_expect(d, 90, 2, 0);
    sass_reg(d, 64, 32);
    sass_reg(d, 16, 32);
    sass_reg(d, 24, 32);
    if (sass_peek(d, 32, 8) != SASS_RZ || !(e->arg & V_TLD))
        sass_reg(d, 32, 32);
    else
        sass_fld(d, 32, 8);
    tex_handle(d);
    uint64_t dim = sass_peek(d, 61, 3);
    if (t_dim[dim] == B) {
        sass_fail(d, "texture dimension %llu", (unsigned long long)dim);
        return;
    }
    sass_fld(d, 61, 3);
    sass_operand_t *o = sass_opnd(d, SASS_OPND_TEXDIM);
    o->reg = (uint16_t)dim;
    sass_imm(d, 72, 4, 0);
}

/* SULD.D.BA.<dim>.<order>.<oob> Rd, [Ra], bank, slot / SUST ... [Ra], Rb, bank, slot */
void sass_h_suld(sass_dctx_t *d, const sass_enc_t *e)
{
    static const uint16_t t_idim[8] = {M(1D), M(1D_BUFFER), M(1D_ARRAY), M(2D), M(2D_ARRAY),
                                       M(3D), B, B};
    static const uint16_t t_oob[4] = {M(IGN), B, M(TRAP), B};
    int load = e->arg & V_LOAD;
    sass_expect(d, 91, 1, 0);
    sass_mod(d, M(D));
    if (!sass_fld(d, 72, 1)) {
        sass_fail(d, "surface access without .BA");
        return;
    }
    sass_mod(d, M(BA));
    sass_mod_tab(d, 61, 3, t_idim);
    uint64_t sz = sass_fld(d, 73, 3);
    sass_mod(d, t_msize[sz]);
    sass_mod_tab(d, 84, 3, t_evict);
    mem_order(d, (load && d->sm >= 80) ? MO_LOAD : MO_STORE);  /* sm_75: no SULD.CONSTANT */
    sass_mod_tab(d, 59, 2, t_oob);
    if (load) {
        sass_expect(d, 81, 3, 7);
        sass_reg(d, 16, w_msize[sz]);
    }
    sass_operand_t *a = sass_opnd(d, SASS_OPND_MEM);
    a->reg = (uint16_t)sass_fld(d, 24, 8);
    if (!load)
        sass_reg(d, 32, w_msize[sz]);
    tex_handle(d);
}

void sass_h_kill(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    cond_pred(d);
}
