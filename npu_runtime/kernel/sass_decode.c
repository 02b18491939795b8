/*
 * sass_decode.c - table-driven decoder of Volta-family SASS (sm_75, sm_80, sm_86, sm_89):
 * the core (field extraction, strictness check, dispatch) and the ALU instructions.
 * Memory, warp, texture and control-flow instructions are in sass_decode_ctl.c, the printer
 * in sass_format.c, the API in sass.h.
 *
 * ENCODING (128 bits, two little-endian u64; bit n of the instruction = bit n%64 of word n/64)
 *   0-8     opcode; 9-11 operand form: for ALU instructions where sources b and c come from
 *           (1 R,R  2 R,imm  3 R,cbank  4 imm,R  5 cbank,R  6 UR,R  7 R,UR; sass_sm70.def),
 *           for the others part of the opcode (LDG 0x381 vs 0x981 ...)
 *   12-14   guard predicate P0-P6/PT (UP0-UP6/UPT for uniform-datapath ops, S2UR, ULDC),
 *   15      guard negation
 *   16-23   destination register (R0-R254, 255 = RZ; uniform: UR0-UR62, 63 = URZ)
 *   24-31   source a
 *   32-63   the "b/c" field: register (32-39); 32-bit immediate (float ops: the float's
 *           bits; double ops: the top 32 bits of the double; half ops: two halves, high half
 *           printed first); constant bank: word offset 40-53 (signed; 38-39 zero), bank
 *           54-58, or with bit 91 set a uniform register in 32-37 as the bank (cx[URn]);
 *           uniform register 32-37 (bit 91 set)
 *   64-71   the other source register
 *   72-90   modifiers, per opcode: a's negate/abs 72/73, the 32-63 source's 63/62, the
 *           register at 64's 75/74 (fp16 ops: 84/83, half selects 74-75, 60-61, 81-82),
 *           comparisons 76-79, types 73-76, rounding 78-79, .FTZ 80, predicate destinations
 *           81-83 and 84-86 (7 = PT), a predicate source 87-89 with its negation in 90
 *   105-108 stall cycles, 109 yield, 110-112 write scoreboard, 113-115 read scoreboard,
 *   116-121 scoreboard wait mask, 122-125 reuse flags for sources a, b, c, d
 * Memory instructions: address register 24-31 (bits 90-91: .64 / .U32 / 32-bit base), 24-bit
 * signed offset 40-63 (32-bit 32-63 in some forms), data 32-39 or 64-71, size 73-75, .E 72,
 * order/scope 77-80 (different code tables on sm_75 and sm_80), cache policy 84-86, the
 * uniform-register part of the address in 32-37 or 64-69, switched by bit 76 (LDG/STG), 71
 * (atomics) or 91 (shared/local). Branch targets are signed byte offsets from the next
 * instruction in 32-81 (decoded into absolute addresses); BRA's 32-33 select .U/.DIV/.CONV.
 *
 * TABLES: sass_ops.def (opcode names), sass_mods.def (every modifier token), sass_sm70.def
 * (one line per 9-bit opcode: accepted forms, first SM, handler, variant flags). The dispatch
 * table is sass_sm70.def expanded into an array indexed by the 9 low opcode bits; about 60
 * handlers cover the ~130 opcodes, each reading its fields with sass_fld() (sass_expect() for
 * a field that must hold one value), pushing modifiers in nvdisasm's print order and operands
 * in nvdisasm's order. Small const arrays map field values to modifier ids; SASS_MOD_BAD marks
 * values that are not instructions (nvdisasm's "INVALID3", "???1").
 *
 * STRICTNESS: every bit of 12-104 and 122-127 that is set but was not read makes the
 * instruction SASS_EFIELD, and so does every field value not modelled. nvdisasm ignores some
 * bits (the low two bits of an ALU cbank offset, IMAD's negation of b, unused register
 * slots ...): such instructions are refused, not decoded, since their meaning is not known.
 * Reuse flags must name a register source (nvdisasm refuses them otherwise); they are shown
 * on the operand only when the yield bit is set and the unit is not a variable-latency one
 * (MUFU, conversions, SHFL ... : V_NOREUSE), which is exactly when nvdisasm prints them.
 * Control bits (stall, barriers) are decoded, not validated.
 *
 * SM DIFFERENCES (measured with nvdisasm 13.5): sm_75 prints memory scopes always and has its
 * own order codes, lacks the sm_80 opcodes (LDGSTS, REDUX, HMNMX2, F2FP ...) and some fields
 * (FMNMX.NAN, HFMA2.RELU/.BF16_V2, WARPSYNC.EXCLUSIVE, bf16/tf32 HMMA), leaves ISETP.EX's PT
 * carry out; sm_86 adds I2FP and F2IP; sm_89 prints F2FP's source type (F2FP.BF16.F32.PACK_AB).
 *
 * VALIDATION (tests/sass/run_sass.sh, oracle nvdisasm from PyPI nvidia-cuda-nvdisasm 13.5):
 *   corpus A, cubins of the .cu files of tests/cuda and tests/sass/kernels, sm_75/80/86/89:
 *     79,024 / 82,208 / 82,192 / 82,192 instructions, all identical to nvdisasm -b, none refused;
 *     through nvdisasm -c (labels, relocations) the cubins with calls: identical
 *   bit flips (every bit of 12-104, 122-127 of one instruction per form, ~64,000 variants
 *     per SM): wherever both decode, identical; nothing nvdisasm calls illegal is accepted;
 *     about half of the variants nvdisasm accepts are refused here (ignored bits, modifiers
 *     no compiler output showed)
 *   corpus B, PyTorch 2.15 (libtorch_cuda.so), every sm_75 and sm_80 cubin through
 *     nvdisasm -c: sm_75 476 cubins, 30,016,120 instructions, sm_80 476 cubins, 35,196,568
 *     instructions: all identical, none refused (labels resolved to addresses)
 */
#include "sass_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- core helpers ---- */

static uint64_t bits_of(const uint64_t w[2], unsigned lo, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        v |= ((w[b >> 6] >> (b & 63)) & 1ull) << i;
    }
    return v;
}

uint64_t sass_peek(const sass_dctx_t *d, unsigned lo, unsigned n)
{
    return bits_of(d->w, lo, n);
}

uint64_t sass_fld(sass_dctx_t *d, unsigned lo, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned b = lo + i;
        d->used[b >> 6] |= 1ull << (b & 63);
    }
    return bits_of(d->w, lo, n);
}

void sass_fail(sass_dctx_t *d, const char *fmt, ...)
{
    if (d->st != SASS_OK)
        return;
    d->st = SASS_EFIELD;
    if (d->err && d->errlen) {
        int k = snprintf(d->err, d->errlen, "pc 0x%llx opcode 0x%03x (%s): ",
                         (unsigned long long)d->in->pc, (unsigned)(d->w[0] & 0xfff),
                         sass_op_name((sass_op_t)d->in->op));
        if (k > 0 && (size_t)k < d->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(d->err + k, d->errlen - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
}

void sass_expect(sass_dctx_t *d, unsigned lo, unsigned n, uint64_t v)
{
    uint64_t got = sass_fld(d, lo, n);
    if (got != v)
        sass_fail(d, "bits %u-%u hold 0x%llx, only 0x%llx is modelled", lo, lo + n - 1,
                  (unsigned long long)got, (unsigned long long)v);
}

void sass_mod(sass_dctx_t *d, unsigned m)
{
    if (m == SASS_MOD_NONE)
        return;
    if (m == SASS_MOD_BAD || m >= SASS_MOD_COUNT) {
        sass_fail(d, "modifier value not modelled");
        return;
    }
    if (d->in->nmods >= SASS_MAX_MODS) {
        sass_fail(d, "too many modifiers");
        return;
    }
    d->in->mods[d->in->nmods++] = (uint16_t)m;
}

void sass_mod_tab(sass_dctx_t *d, unsigned lo, unsigned n, const uint16_t *tab)
{
    uint64_t v = sass_fld(d, lo, n);
    if (tab[v] == SASS_MOD_BAD)
        sass_fail(d, "bits %u-%u = %llu: value not modelled", lo, lo + n - 1,
                  (unsigned long long)v);
    else
        sass_mod(d, tab[v]);
}

sass_operand_t *sass_opnd(sass_dctx_t *d, unsigned kind)
{
    if (d->in->nopnds >= SASS_MAX_OPNDS) {
        sass_fail(d, "too many operands");
        memset(&d->scratch, 0, sizeof d->scratch);
        return &d->scratch;
    }
    sass_operand_t *o = &d->in->opnd[d->in->nopnds++];
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)kind;
    o->reg2 = SASS_NONE_REG;
    return o;
}

sass_operand_t *sass_reg(sass_dctx_t *d, unsigned lo, unsigned width)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_REG);
    o->reg = (uint16_t)sass_fld(d, lo, 8);
    o->width = (uint8_t)(width > 255 ? 255 : width);
    return o;
}

sass_operand_t *sass_ureg(sass_dctx_t *d, unsigned lo, unsigned width)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_UREG);
    o->reg = (uint16_t)sass_fld(d, lo, 6);
    o->width = (uint8_t)width;
    return o;
}

sass_operand_t *sass_pred(sass_dctx_t *d, unsigned lo, int notbit)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_PRED);
    o->reg = (uint16_t)sass_fld(d, lo, 3);
    if (notbit >= 0 && sass_fld(d, (unsigned)notbit, 1))
        o->flags |= SASS_OF_NOT;
    return o;
}

sass_operand_t *sass_upred(sass_dctx_t *d, unsigned lo, int notbit)
{
    sass_operand_t *o = sass_pred(d, lo, notbit);
    o->kind = SASS_OPND_UPRED;
    return o;
}

sass_operand_t *sass_imm_val(sass_dctx_t *d, int64_t v, int fmt)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_IMM);
    o->imm = v;
    o->ftype = (uint8_t)fmt;
    return o;
}

sass_operand_t *sass_imm(sass_dctx_t *d, unsigned lo, unsigned n, int is_signed)
{
    uint64_t v = sass_fld(d, lo, n);
    int64_t s = (int64_t)v;
    if (is_signed && n < 64 && (v >> (n - 1)) & 1)
        s = (int64_t)(v | (~0ull << n));
    return sass_imm_val(d, s, is_signed ? SASS_IFMT_HEX : SASS_IFMT_UHEX);
}

/* pc-relative target: a signed byte offset from the next instruction in bits lo..lo+n-1;
 * its two low bits (lo, lo+1) must be zero (instructions are 16-byte aligned, offsets are
 * stored as multiples of 4) */
sass_operand_t *sass_target(sass_dctx_t *d, unsigned lo, unsigned n)
{
    sass_expect(d, lo, 2, 0);
    uint64_t v = sass_fld(d, lo, n);
    int64_t s = (int64_t)v;
    if ((v >> (n - 1)) & 1)
        s = (int64_t)(v | (~0ull << n));
    sass_operand_t *o = sass_opnd(d, SASS_OPND_TARGET);
    o->imm = (int64_t)(d->in->pc + 16) + s;
    return o;
}

/* The operand just pushed occupies reuse slot `slot` (0 = a, 1 = b, 2 = c, 3 = d). */
void sass_slot(sass_dctx_t *d, int slot)
{
    if (d->in->nopnds)
        d->slot_opnd[slot] = d->in->nopnds - 1;
}

static sass_operand_t *fimm(sass_dctx_t *d, unsigned lo, unsigned n, unsigned ftype)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_FIMM);
    o->imm = (int64_t)sass_fld(d, lo, n);
    o->ftype = (uint8_t)ftype;
    return o;
}

/* c[bank][offset] of the ALU forms: offset 38-53 (signed), bank 54-58, bit 91: cx[URn] */
static sass_operand_t *cbank(sass_dctx_t *d)
{
    sass_operand_t *o = sass_opnd(d, SASS_OPND_CBANK);
    sass_expect(d, 38, 2, 0);       /* ALU operands are whole words (nvdisasm ignores these) */
    int64_t off = (int64_t)sass_fld(d, 40, 14) << 2;
    if (off & 0x8000)
        off -= 0x10000;
    o->imm = off;
    if (sass_fld(d, 91, 1)) {
        o->flags |= SASS_OF_CX;
        o->bank = (uint8_t)sass_fld(d, 32, 6);
        sass_expect(d, 54, 5, 0);
    } else {
        o->bank = (uint8_t)sass_fld(d, 54, 5);
    }
    return o;
}

/* ---------------------------------------------------------- ALU source decoding ---- */


/* immediate kinds of an ALU source */
enum { IM_S32, IM_U32, IM_F32, IM_F64, IM_F16X2, IM_BF16X2 };

/* modifier bits of a register/cbank/UR source: where its neg and abs flags live (0: none) */
typedef struct srcmods {
    uint8_t neg, abs;
    uint8_t neg_is_not;     /* print ~ instead of - (integer .X forms) */
} srcmods_t;

static void apply_mods(sass_dctx_t *d, sass_operand_t *o, srcmods_t m)
{
    if (m.abs && sass_fld(d, m.abs, 1))
        o->flags |= SASS_OF_ABS;
    if (m.neg && sass_fld(d, m.neg, 1))
        o->flags |= m.neg_is_not ? SASS_OF_NOT : SASS_OF_NEG;
}

static sass_operand_t *gpr(sass_dctx_t *d, unsigned lo, unsigned width, int uni)
{
    if (uni) {
        sass_expect(d, 91, 1, 1);       /* every uniform-datapath ALU op has bit 91 set */
        return sass_ureg(d, lo, width);
    }
    return sass_reg(d, lo, width);
}

static sass_operand_t *imm32(sass_dctx_t *d, int kind)
{
    switch (kind) {
    case IM_F32: return fimm(d, 32, 32, SASS_FT_F32);
    case IM_F64: return fimm(d, 32, 32, SASS_FT_F64H);
    case IM_F16X2: return fimm(d, 32, 32, SASS_FT_F16X2);
    case IM_BF16X2: return fimm(d, 32, 32, SASS_FT_BF16X2);
    case IM_U32: return sass_imm(d, 32, 32, 0);
    default: return sass_imm(d, 32, 32, 1);
    }
}

/* The source that lives in bits 32-63 in form `form` (b in forms 1/4/5/6, c in 2/3/7):
 * register (form 1), immediate, cbank or uniform register. mods applies to reg/cbank/UR
 * forms (bits 62/63 of the 32-63 field). */
static sass_operand_t *src32(sass_dctx_t *d, int form, unsigned width, int uni, int immkind,
                             srcmods_t m)
{
    sass_operand_t *o;
    switch (form) {
    case 1:
        o = gpr(d, 32, width, uni);
        apply_mods(d, o, m);
        return o;
    case 2: case 4:
        return imm32(d, immkind);
    case 3: case 5:
        o = cbank(d);
        o->width = (uint8_t)width;
        apply_mods(d, o, m);
        return o;
    default:
        sass_expect(d, 91, 1, 1);       /* uniform-register source */
        o = sass_ureg(d, 32, width);
        apply_mods(d, o, m);
        return o;
    }
}

/* Three-source ALU (a at 24, b and c per form). Pushes a, b, c with reuse slots 0-2.
 * ma: a's modifier bits; m32: bits-32 source; m64: register at 64. */
typedef struct alu3 {
    unsigned wa, wb, wc;        /* widths */
    int immkind;
    srcmods_t ma, m32, m64;
} alu3_t;

static void alu_abc(sass_dctx_t *d, const alu3_t *s, int uni)
{
    int f = d->form;
    sass_operand_t *o = gpr(d, 24, s->wa, uni);
    apply_mods(d, o, s->ma);
    sass_slot(d, 0);
    if (f == 1 || f == 4 || f == 5 || f == 6) {     /* b in 32, c at 64 */
        src32(d, f, s->wb, uni, s->immkind, s->m32);
        if (f == 1)
            sass_slot(d, 1);
        o = gpr(d, 64, s->wc, uni);
        apply_mods(d, o, s->m64);
        sass_slot(d, 2);
    } else {                                        /* b at 64, c in 32 */
        o = gpr(d, 64, s->wb, uni);
        apply_mods(d, o, s->m64);
        sass_slot(d, 1);
        src32(d, f, s->wc, uni, s->immkind, s->m32);
    }
}

/* Two-source ALU whose second source is b (forms 1/4/5/6: bits 32-63; 64-71 unused) */
static void alu_ab(sass_dctx_t *d, unsigned wa, unsigned wb, int uni, int immkind,
                   srcmods_t ma, srcmods_t mb, int bslot)
{
    sass_operand_t *o = gpr(d, 24, wa, uni);
    apply_mods(d, o, ma);
    sass_slot(d, 0);
    src32(d, d->form, wb, uni, immkind, mb);
    if (d->form == 1)
        sass_slot(d, bslot);
}

/* Two-source ALU whose second source is c (forms 1: R at 64; 2/3/7: bits 32-63) */
static void alu_ac(sass_dctx_t *d, unsigned wa, unsigned wc, int uni, int immkind,
                   srcmods_t ma, srcmods_t m64, srcmods_t m32, int cslot)
{
    sass_operand_t *o = gpr(d, 24, wa, uni);
    apply_mods(d, o, ma);
    sass_slot(d, 0);
    if (d->form == 1) {
        o = gpr(d, 64, wc, uni);
        apply_mods(d, o, m64);
        sass_slot(d, cslot);
    } else {
        src32(d, d->form, wc, uni, immkind, m32);
    }
}

#define NOMODS ((srcmods_t){0, 0, 0})
#define MODS(n, a) ((srcmods_t){(n), (a), 0})

static void dst(sass_dctx_t *d, unsigned width, int uni)
{
    if (uni)
        sass_ureg(d, 16, width);
    else
        sass_reg(d, 16, width);
}

/* predicate source with negation (87-90 by default) */
static void psrc(sass_dctx_t *d, unsigned lo, int uni)
{
    if (uni)
        sass_upred(d, lo, (int)lo + 3);
    else
        sass_pred(d, lo, (int)lo + 3);
}

static void pdst(sass_dctx_t *d, unsigned lo, int uni)
{
    if (uni)
        sass_upred(d, lo, -1);
    else
        sass_pred(d, lo, -1);
}

static int is_rz(const sass_operand_t *o)
{
    return (o->kind == SASS_OPND_REG && o->reg == SASS_RZ) ||
           (o->kind == SASS_OPND_UREG && o->reg == SASS_URZ);
}

/* -------------------------------------------------------------- value tables ---- */
#define B SASS_MOD_BAD
#define M(x) SASS_MOD_##x
static const uint16_t t_icmp[8] = {M(F), M(LT), M(EQ), M(LE), M(GT), M(NE), M(GE), M(T)};
static const uint16_t t_bop[4] = {M(AND), M(OR), M(XOR), B};
static const uint16_t t_fcmp[16] = {M(F), M(LT), M(EQ), M(LE), M(GT), M(NE), M(GE), M(NUM),
                                    M(NAN), M(LTU), M(EQU), M(LEU), M(GTU), M(NEU), M(GEU), M(T)};
static const uint16_t t_rnd[4] = {0, M(RM), M(RP), M(RZ)};
static const uint16_t t_rnd_int[4] = {0, M(FLOOR), M(CEIL), M(TRUNC)};

/* ------------------------------------------------------------- integer ALU ---- */

static void sass_h_imad(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI, wide = e->arg & V_WIDE, hi = e->arg & V_HI;
    int x = (int)sass_fld(d, 74, 1), sgn = (int)sass_fld(d, 73, 1);
    int f = d->form;
    dst(d, wide ? 64 : 32, uni);
    int dp = -1;
    if (wide || hi) {
        if (sass_peek(d, 81, 3) != 7) {     /* carry-out predicate */
            dp = d->in->nopnds;
            pdst(d, 81, uni);
        } else {
            sass_fld(d, 81, 3);
        }
    } else {
        sass_expect(d, 81, 3, 7);
    }
    sass_expect(d, 84, 3, 0);
    /* b and c may be negated: c by 75 when it is the register at 64 (forms 1/4/5/6), by 63
     * when it is the cbank/UR of forms 3/7; b by 63 when it is the cbank/UR of forms 5/6 */
    int c64 = f == 1 || f == 4 || f == 5 || f == 6;
    alu3_t s = { 32, 32, wide ? 64 : 32, IM_S32, NOMODS,
                 (f == 3 || f == 7) ? MODS(63, 0) : NOMODS,
                 c64 ? MODS(75, 0) : NOMODS };
    if (!c64)
        sass_expect(d, 75, 1, 0);
    if (f == 1 || f == 5 || f == 6)
        sass_expect(d, 63, 1, 0);       /* b is never negated (nvdisasm ignores the bit) */
    if (x) {
        s.m32.neg_is_not = 1;
        s.m64.neg_is_not = 1;
    }
    alu_abc(d, &s, uni);
    if (x)
        psrc(d, 87, uni);
    else
        sass_expect(d, 87, 4, 0xf);       /* !PT */
    /* nvdisasm's aliases of the plain 32-bit multiply-add */
    sass_operand_t *A = &d->in->opnd[dp >= 0 ? 2 : 1];
    sass_operand_t *Bo = A + 1, *C = A + 2;
    if (wide) {
        sass_mod(d, M(WIDE));
    } else if (hi) {
        sass_mod(d, M(HI));
    } else if (!x && !uni && f != 6 && f != 7 &&
               !(Bo->kind == SASS_OPND_CBANK && (Bo->flags & SASS_OF_CX)) &&
               !(C->kind == SASS_OPND_CBANK && (C->flags & SASS_OF_CX))) {
        /* measured: MOV when the product is statically 0 or the sum is a*1 + 0, IADD for
         * a*1 + c, SHL for a*2^k + 0 with k in 1..30 except 16 */
        int bimm = Bo->kind == SASS_OPND_IMM;
        int64_t bv = Bo->imm;
        if (is_rz(A) || is_rz(Bo) || (bimm && bv == 0) || (bimm && bv == 1 && is_rz(C)))
            sass_mod(d, M(MOV));
        else if (bimm && bv == 1)
            sass_mod(d, M(IADD));
        else if (bimm && is_rz(C) && bv >= 2 && bv <= 0x40000000 && (bv & (bv - 1)) == 0 &&
                 bv != 0x10000)
            sass_mod(d, M(SHL));
    }
    if (!sgn)
        sass_mod(d, M(U32));
    if (x)
        sass_mod(d, M(X));
}

static void sass_h_iadd3(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    int x = (int)sass_fld(d, 74, 1);
    dst(d, 32, uni);
    /* carry-out predicates: each printed unless PT */
    for (unsigned lo = 81; lo <= 84; lo += 3) {
        if (sass_peek(d, lo, 3) != 7)
            pdst(d, lo, uni);
        else
            sass_fld(d, lo, 3);
    }
    alu3_t s = { 32, 32, 32, IM_S32, MODS(72, 0), MODS(63, 0), MODS(75, 0) };
    if (d->form == 2 || d->form == 4)
        s.m32 = NOMODS;
    if (x) {
        s.ma.neg_is_not = s.m32.neg_is_not = s.m64.neg_is_not = 1;
    }
    alu_abc(d, &s, uni);
    if (x) {
        psrc(d, 87, uni);
        psrc(d, 77, uni);
        sass_mod(d, M(X));
    } else {
        sass_expect(d, 87, 4, 0xf);
        sass_expect(d, 77, 4, 0xf);
    }
}

static void sass_h_isetp(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    int ex = (int)sass_fld(d, 72, 1);
    sass_mod_tab(d, 76, 3, t_icmp);
    if (!sass_fld(d, 73, 1))
        sass_mod(d, M(U32));
    sass_mod_tab(d, 74, 2, t_bop);
    if (ex)
        sass_mod(d, M(EX));
    pdst(d, 81, uni);
    pdst(d, 84, uni);
    alu_ab(d, 32, 32, uni, IM_S32, NOMODS, NOMODS, 1);
    psrc(d, 87, uni);
    /* .EX: the carry-in predicate; for ISETP sm_75 nvdisasm leaves it out when PT */
    if (ex && (d->sm >= 80 || uni || sass_peek(d, 68, 4) != 7))
        psrc(d, 68, uni);
    else if (ex)
        sass_fld(d, 68, 4);
    else
        sass_expect(d, 68, 4, 7);
}

static void sass_h_lop3(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    sass_mod(d, M(LUT));
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(PAND));
    if (sass_peek(d, 81, 3) != 7)   /* predicate destination, printed first */
        pdst(d, 81, uni);
    else
        sass_fld(d, 81, 3);
    dst(d, 32, uni);
    alu3_t s = { 32, 32, 32, IM_U32, NOMODS, NOMODS, NOMODS };
    alu_abc(d, &s, uni);
    sass_imm(d, 72, 8, 0);
    psrc(d, 87, uni);
}

static void sass_h_lea(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    int x = (int)sass_fld(d, 74, 1), hi = (int)sass_fld(d, 80, 1), sx = (int)sass_fld(d, 73, 1);
    dst(d, 32, uni);
    if (sass_peek(d, 81, 3) != 7)
        pdst(d, 81, uni);
    else
        sass_fld(d, 81, 3);
    sass_expect(d, 84, 3, 0);
    if (hi)
        sass_mod(d, M(HI));
    if (x)
        sass_mod(d, M(X));
    if (sx) {
        if (!hi)
            sass_fail(d, "LEA.SX32 without .HI");
        sass_mod(d, M(SX32));
    }
    srcmods_t ma = MODS(72, 0);
    ma.neg_is_not = (uint8_t)x;
    srcmods_t mb = (d->form == 2 || d->form == 4) ? NOMODS : MODS(63, 0);
    mb.neg_is_not = (uint8_t)x;
    if (hi && !sx) {
        alu3_t s = { 32, 32, 32, IM_U32, ma, mb, NOMODS };
        alu_abc(d, &s, uni);
    } else {
        /* c (the high part) is unused: two sources a, b */
        sass_operand_t *o = gpr(d, 24, 32, uni);
        apply_mods(d, o, ma);
        sass_slot(d, 0);
        if (d->form == 1 || d->form == 4 || d->form == 5 || d->form == 6) {
            src32(d, d->form, 32, uni, IM_U32, mb);
            if (d->form == 1)
                sass_slot(d, 1);
            sass_expect(d, 64, 8, uni ? 0x3f : 0xff);
        } else {
            sass_fail(d, "LEA form %d without .HI", d->form);
        }
    }
    sass_imm(d, 75, 5, 0);
    if (x)
        psrc(d, 87, uni);
    else
        sass_expect(d, 87, 4, 0xf);
}

static const uint16_t t_prmt[8] = {0, M(F4E), M(B4E), M(RC8), M(ECL), M(ECR), M(RC16), B};

static void sass_h_prmt(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    if (uni)
        sass_expect(d, 72, 3, 0);       /* UPRMT has no mode (nvdisasm ignores 73-74) */
    else
        sass_mod_tab(d, 72, 3, t_prmt);
    dst(d, 32, uni);
    alu3_t s = { 32, 32, 32, IM_U32, NOMODS, NOMODS, NOMODS };
    alu_abc(d, &s, uni);
}

static void sass_h_sel(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    dst(d, 32, uni);
    alu_ab(d, 32, 32, uni, IM_U32, NOMODS, NOMODS, 1);
    psrc(d, 87, uni);
}

static void sass_h_imnmx(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (!sass_fld(d, 73, 1))
        sass_mod(d, M(U32));
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_S32, NOMODS, NOMODS, 1);
    psrc(d, 87, 0);
}

static const uint16_t t_shf_type[4] = {M(S64), M(U64), M(S32), M(U32)};

static void sass_h_shf(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    sass_mod(d, sass_fld(d, 76, 1) ? M(R) : M(L));
    if (sass_fld(d, 75, 1))
        sass_mod(d, M(W));
    sass_mod_tab(d, 73, 2, t_shf_type);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(HI));
    dst(d, 32, uni);
    alu3_t s = { 32, 32, 32, IM_U32, NOMODS, NOMODS, NOMODS };
    alu_abc(d, &s, uni);
}

static void sass_h_sgxt(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    if (sass_fld(d, 75, 1))
        sass_mod(d, M(W));
    if (e->op == SASS_OP_SGXT || e->op == SASS_OP_USGXT) {
        if (!sass_fld(d, 73, 1))
            sass_mod(d, M(U32));
    }
    dst(d, 32, uni);
    alu_ab(d, 32, 32, uni, IM_U32, NOMODS, NOMODS, 1);
}

/* one source in b (IABS, BREV ...) */
static void sass_h_unary(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    dst(d, 32, uni);
    src32(d, d->form, 32, uni, IM_S32, NOMODS);
    if (d->form == 1)
        sass_slot(d, 1);
}

static void sass_h_popc(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    dst(d, 32, uni);
    srcmods_t m = {63, 0, 1};
    src32(d, d->form, 32, uni, IM_S32, d->form == 4 ? NOMODS : m);
    if (d->form == 1)
        sass_slot(d, 1);
}

static void sass_h_flo(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    if (!sass_fld(d, 73, 1))
        sass_mod(d, M(U32));
    if (sass_fld(d, 74, 1))
        sass_mod(d, M(SH));
    dst(d, 32, uni);
    if (sass_peek(d, 81, 3) != 7)   /* predicate destination, after the register */
        pdst(d, 81, uni);
    else
        sass_fld(d, 81, 3);
    srcmods_t m = {63, 0, 1};
    src32(d, d->form, 32, uni, IM_S32, d->form == 4 ? NOMODS : m);
    if (d->form == 1)
        sass_slot(d, 1);
}

static void sass_h_mov(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    dst(d, 32, uni);
    if (uni) {                      /* UMOV: bit 91 set only for the UR source form */
        if (d->form == 6) {
            sass_expect(d, 91, 1, 1);
            sass_ureg(d, 32, 32);
        } else {
            sass_expect(d, 91, 1, 0);
            sass_imm(d, 32, 32, 0);
        }
        return;
    }
    src32(d, d->form, 32, 0, IM_U32, NOMODS);
    if (d->form == 1)
        sass_slot(d, 1);
    uint64_t q = sass_fld(d, 72, 4);
    if (q != 0xf)
        sass_imm_val(d, (int64_t)q, SASS_IFMT_UHEX);
}

static void sass_h_vabsdiff(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (!sass_fld(d, 73, 1))
        sass_mod(d, M(U32));
    dst(d, 32, 0);
    if (sass_peek(d, 81, 3) != 7)
        pdst(d, 81, 0);
    else
        sass_fld(d, 81, 3);
    alu3_t s = { 32, 32, 32, IM_S32, NOMODS, NOMODS, NOMODS };
    alu_abc(d, &s, 0);
}

static void sass_h_idp(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int two = (int)sass_fld(d, 76, 1);
    int sa = (int)sass_fld(d, 73, 1), sb = (int)sass_fld(d, 74, 1);
    if (two) {
        sass_mod(d, M(2A));
        sass_mod(d, sass_fld(d, 77, 1) ? M(HI) : M(LO));
        sass_mod(d, sa ? M(S16) : M(U16));
    } else {
        sass_expect(d, 77, 1, 0);
        sass_mod(d, M(4A));
        sass_mod(d, sa ? M(S8) : M(U8));
    }
    sass_mod(d, sb ? M(S8) : M(U8));
    dst(d, 32, 0);
    alu3_t s = { 32, 32, 32, IM_S32, NOMODS, NOMODS, MODS(75, 0) };
    alu_abc(d, &s, 0);
}

static void sass_h_plop3(sass_dctx_t *d, const sass_enc_t *e)
{
    int uni = e->arg & V_UNI;
    sass_mod(d, M(LUT));
    pdst(d, 81, uni);
    pdst(d, 84, uni);
    psrc(d, 87, uni);
    psrc(d, 77, uni);
    if (!uni && sass_fld(d, 67, 1))
        sass_upred(d, 68, 71);
    else
        psrc(d, 68, uni);
    uint64_t lut = sass_fld(d, 64, 3) | (sass_fld(d, 72, 5) << 3);
    sass_imm_val(d, (int64_t)lut, SASS_IFMT_UHEX);
    sass_imm(d, 16, 8, 0);
}

static const uint16_t t_byte[4] = {0, M(B1), M(B2), M(B3)};

static void sass_h_p2r(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 76, 2, t_byte);
    dst(d, 32, 0);
    sass_opnd(d, SASS_OPND_PR);
    gpr(d, 24, 32, 0);
    sass_slot(d, 0);
    sass_imm(d, 32, 32, 1);
}

static void sass_h_r2p(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_opnd(d, SASS_OPND_PR);
    sass_operand_t *o = gpr(d, 24, 32, 0);
    sass_slot(d, 0);
    uint64_t b = sass_fld(d, 76, 2);
    o->sel = (uint8_t)(b == 0 ? SASS_SEL_NONE : b == 1 ? SASS_SEL_B1 : b == 2 ? SASS_SEL_B2
                                                                         : SASS_SEL_B3);
    sass_imm(d, 32, 32, 0);
}

/* --------------------------------------------------------------- float ALU ---- */

static void sass_h_fadd(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    sass_mod_tab(d, 78, 2, t_rnd);
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    dst(d, 32, 0);
    sass_operand_t *o = gpr(d, 24, 32, 0);
    apply_mods(d, o, MODS(72, 73));
    sass_slot(d, 0);
    if (d->form == 1) {
        o = gpr(d, 32, 32, 0);
        apply_mods(d, o, MODS(63, 62));
        sass_slot(d, 2);
        sass_expect(d, 64, 8, 0);
    } else {
        src32(d, d->form, 32, 0, IM_F32, MODS(63, 62));
        sass_expect(d, 64, 8, 0);
    }
}

static const uint16_t t_fmul_scale[8] = {B, M(D8), M(D4), M(D2), 0, M(M2), M(M4), M(M8)};

static void sass_h_fmul(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int ftz = (int)sass_fld(d, 80, 1), fmz = (int)sass_fld(d, 76, 1);
    if (ftz && fmz)
        sass_fail(d, "FMUL .FTZ with .FMZ");
    if (ftz)
        sass_mod(d, M(FTZ));
    if (fmz)
        sass_mod(d, M(FMZ));
    sass_mod_tab(d, 84, 3, t_fmul_scale);
    sass_mod_tab(d, 78, 2, t_rnd);
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
    sass_expect(d, 64, 8, 0);
}

static void sass_h_ffma(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int ftz = (int)sass_fld(d, 80, 1), fmz = (int)sass_fld(d, 76, 1);
    if (ftz && fmz)
        sass_fail(d, "FFMA .FTZ with .FMZ");
    if (ftz)
        sass_mod(d, M(FTZ));
    if (fmz)
        sass_mod(d, M(FMZ));
    sass_mod_tab(d, 78, 2, t_rnd);
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    dst(d, 32, 0);
    alu3_t s = { 32, 32, 32, IM_F32, MODS(72, 73), MODS(63, 62), MODS(75, 74) };
    alu_abc(d, &s, 0);
}

static void sass_h_fsel(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
    psrc(d, 87, 0);
}

static void sass_h_fmnmx(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (d->sm >= 80 && sass_fld(d, 81, 1))
        sass_mod(d, M(NAN));
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
    psrc(d, 87, 0);
}

static void sass_h_fsetp(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 76, 4, t_fcmp);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    sass_mod_tab(d, 74, 2, t_bop);
    pdst(d, 81, 0);
    pdst(d, 84, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
    psrc(d, 87, 0);
}

static void sass_h_fset(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod(d, M(BF));                 /* result 1.0f / 0.0f; nvdisasm always prints it */
    sass_mod_tab(d, 76, 4, t_fcmp);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    sass_mod_tab(d, 74, 2, t_bop);
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
    psrc(d, 87, 0);
}

static void sass_h_fchk(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    pdst(d, 81, 0);
    alu_ab(d, 32, 32, 0, IM_F32, MODS(72, 73), MODS(63, 62), 1);
}

static const uint16_t t_mufu[16] = {M(COS), M(SIN), M(EX2), M(LG2), M(RCP), M(RSQ), M(RCP64H),
                                    M(RSQ64H), M(SQRT), M(TANH), B, B, B, B, B, B};

static void sass_h_mufu(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    uint64_t fn = sass_peek(d, 74, 4);
    sass_mod_tab(d, 74, 4, t_mufu);
    if (sass_fld(d, 73, 1)) {
        if (fn == 6 || fn == 7)
            sass_fail(d, "MUFU.%s.F16", fn == 6 ? "RCP64H" : "RSQ64H");
        sass_mod(d, M(F16));
    }
    dst(d, 32, 0);
    /* RCP64H/RSQ64H take the high word of a double, .F16 a half in bits 32-47 */
    int f16 = (int)sass_peek(d, 73, 1);
    if (f16 && (d->form == 4)) {
        fimm(d, 32, 16, SASS_FT_F16);
        sass_expect(d, 48, 16, 0);
    } else {
        src32(d, d->form, 32, 0, (fn == 6 || fn == 7) ? IM_F64 : IM_F32, MODS(63, 62));
    }
    if (d->form == 1)
        sass_slot(d, 1);
}

static const uint16_t t_fty[4] = {B, M(F16), M(F32), M(F64)};

static void sass_h_frnd(sass_dctx_t *d, const sass_enc_t *e)
{
    int w = e->arg & V_WIDE;
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    uint64_t st = sass_fld(d, 84, 2), dt = sass_fld(d, 75, 2);
    if (st != dt || st != (w ? 3u : 2u))
        sass_fail(d, "FRND types %llu/%llu", (unsigned long long)st, (unsigned long long)dt);
    if (w)
        sass_mod(d, M(F64));
    sass_mod_tab(d, 78, 2, t_rnd_int);
    dst(d, w ? 64 : 32, 0);
    src32(d, d->form, w ? 64 : 32, 0, w ? IM_F64 : IM_F32, MODS(63, 62));
    if (d->form == 1)
        sass_slot(d, 1);
}

static void sass_h_dadd(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 78, 2, t_rnd);
    dst(d, 64, 0);
    alu_ac(d, 64, 64, 0, IM_F64, MODS(72, 73), MODS(75, 74), MODS(63, 62), 2);
    if (d->form == 1)
        sass_expect(d, 32, 8, 0);
}

static void sass_h_dmul(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 78, 2, t_rnd);
    dst(d, 64, 0);
    alu_ab(d, 64, 64, 0, IM_F64, MODS(72, 73), MODS(63, 62), 1);
    sass_expect(d, 64, 8, 0);
}

static void sass_h_dfma(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 78, 2, t_rnd);
    dst(d, 64, 0);
    alu3_t s = { 64, 64, 64, IM_F64, MODS(72, 73), MODS(63, 62), MODS(75, 74) };
    alu_abc(d, &s, 0);
}

static const uint16_t t_dcmp[16] = {M(MIN), M(LT), M(EQ), M(LE), M(GT), M(NE), M(GE), M(NUM),
                                    M(NAN), M(LTU), M(EQU), M(LEU), M(GTU), M(NEU), M(GEU), M(MAX)};

static void sass_h_dsetp(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    sass_mod_tab(d, 76, 4, t_dcmp);
    sass_mod_tab(d, 74, 2, t_bop);
    pdst(d, 81, 0);
    pdst(d, 84, 0);
    /* second source: R(32) in form 1 (reuse slot c), imm/cbank/UR in 32-63 otherwise */
    sass_operand_t *o = gpr(d, 24, 64, 0);
    apply_mods(d, o, MODS(72, 73));
    sass_slot(d, 0);
    src32(d, d->form, 64, 0, IM_F64, MODS(63, 62));
    if (d->form == 1)
        sass_slot(d, 2);
    sass_expect(d, 64, 8, 0);
    psrc(d, 87, 0);
}

/* ----------------------------------------------------------------- half ALU ---- */

/* fp16 register source: select in `sel` (2 bits: 0 none, 1 .F32, 2 .H0_H0, 3 .H1_H1) */
static const uint8_t t_hsel[4] = {SASS_SEL_NONE, SASS_SEL_F32, SASS_SEL_H0_H0, SASS_SEL_H1_H1};

static void hsel(sass_dctx_t *d, sass_operand_t *o, unsigned lo)
{
    o->sel = t_hsel[sass_fld(d, lo, 2)];
}

/* a: reg 24, neg 72, abs 73, sel 74-75 */
static void h_a(sass_dctx_t *d)
{
    sass_operand_t *o = gpr(d, 24, 32, 0);
    apply_mods(d, o, MODS(72, 73));
    hsel(d, o, 74);
    sass_slot(d, 0);
}

/* source in 32-63: reg (sel 60-61, abs 62, neg 63), cbank, UR, or immediate halves
 * (with a .F32 result HADD2/HMUL2 take one half: bits 32-47, 48-63 zero) */
static void h_32(sass_dctx_t *d, int slot, int bf16)
{
    if ((d->form == 2 || d->form == 4) && bf16 == 2) {
        fimm(d, 32, 16, SASS_FT_F16);
        sass_expect(d, 48, 16, 0);
        return;
    }
    sass_operand_t *o;
    switch (d->form) {
    case 1: case 3: case 5: case 6: case 7:
        if (d->form == 1)
            o = gpr(d, 32, 32, 0);
        else if (d->form == 3 || d->form == 5) {
            o = cbank(d);
            o->flags |= SASS_OF_SPACE;
        } else
            o = sass_ureg(d, 32, 32);
        apply_mods(d, o, MODS(63, 62));
        hsel(d, o, 60);
        if (d->form == 1)
            sass_slot(d, slot);
        break;
    default:
        imm32(d, bf16 ? IM_BF16X2 : IM_F16X2);
    }
}

/* register at 64: sel 81-82? (per op), abs/neg per op */
static void h_64(sass_dctx_t *d, int slot, unsigned negb, unsigned absb, unsigned sello)
{
    sass_operand_t *o = gpr(d, 64, 32, 0);
    apply_mods(d, o, MODS(negb, absb));
    if (sello)
        hsel(d, o, sello);
    sass_slot(d, slot);
}

static void sass_h_hadd2(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int bf = 0;
    sass_expect(d, 85, 1, 0);           /* HADD2.BF16_V2 is sm_90 */
    if (d->sm >= 86 && sass_peek(d, 78, 1) && sass_peek(d, 77, 1))
        sass_fail(d, "HADD2.F32.SAT");
    if (d->sm >= 86 && sass_peek(d, 24, 8) == SASS_RZ) {
        /* sm_86's nvdisasm ignores |RZ| in a and refuses a reuse flag on it */
        sass_expect(d, 73, 1, 0);
        if (d->in->ctrl.reuse & 1)
            sass_fail(d, "reuse flag on RZ");
    }
    if (sass_fld(d, 78, 1))
        sass_mod(d, M(F32));
    if (bf)
        sass_mod(d, M(BF16_V2));
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    dst(d, 32, 0);
    h_a(d);
    h_32(d, 2, sass_peek(d, 78, 1) ? 2 : bf);
    sass_expect(d, 64, 8, 0);
}

static void sass_h_hmul2(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int bf = 0;
    sass_expect(d, 85, 1, 0);           /* HMUL2.BF16_V2 is sm_90 */
    if (sass_fld(d, 78, 1))
        sass_mod(d, M(F32));
    if (bf)
        sass_mod(d, M(BF16_V2));
    if (sass_fld(d, 76, 1))
        sass_mod(d, M(FMZ));
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    dst(d, 32, 0);
    h_a(d);
    h_32(d, 1, bf);
    sass_expect(d, 64, 8, 0);
}

static void sass_h_hfma2(sass_dctx_t *d, const sass_enc_t *e)
{
    int mma = e->arg & V_MMA;
    if (d->sm < 80) {                   /* .BF16_V2 and .RELU are sm_80 */
        sass_expect(d, 85, 1, 0);
        sass_expect(d, 79, 1, 0);
    }
    int bf = mma ? 0 : (int)sass_fld(d, 85, 1);
    int relu = (int)sass_fld(d, 79, 1);
    if (mma)
        sass_mod(d, M(MMA));
    if (sass_peek(d, 77, 1) && (relu || bf))
        sass_fail(d, "HFMA2 .SAT with .RELU or .BF16_V2");
    if (!mma && sass_fld(d, 78, 1)) {
        if (bf)
            sass_fail(d, "HFMA2 .F32 with .BF16_V2");
        sass_mod(d, M(F32));
    }
    if (bf)
        sass_mod(d, M(BF16_V2));
    if (sass_fld(d, 76, 1))
        sass_mod(d, M(FMZ));
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SAT));
    if (relu)
        sass_mod(d, M(RELU));
    dst(d, 32, 0);
    int f = d->form;
    if (mma) {
        sass_operand_t *o = gpr(d, 24, 32, 0);
        apply_mods(d, o, MODS(72, 73));
        sass_slot(d, 0);
    } else {
        h_a(d);
    }
    if (f == 1 || f == 4 || f == 5 || f == 6) {
        if (mma && f == 1) {
            sass_operand_t *o = gpr(d, 32, 32, 0);
            apply_mods(d, o, MODS(63, 62));
            sass_slot(d, 1);
        } else {
            h_32(d, 1, bf);
        }
        if (mma)
            h_64(d, 2, 84, 83, 0);
        else
            h_64(d, 2, 84, 83, 81);
    } else {
        if (mma)
            h_64(d, 1, 84, 83, 0);
        else
            h_64(d, 1, 84, 83, 81);
        h_32(d, 2, bf);
    }
    /* RELU: a predicate source, printed unless PT; ignored otherwise */
    if (relu && sass_peek(d, 87, 4) != 7)
        psrc(d, 87, 0);
    else
        sass_fld(d, 87, 4);
}

static void sass_h_hset2(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int bf = 0;
    sass_expect(d, 65, 1, 0);           /* .BF16_V2 is sm_90 */
    if (sass_fld(d, 71, 1))
        sass_mod(d, M(BF));
    sass_mod_tab(d, 76, 4, t_fcmp);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    sass_mod_tab(d, 69, 2, t_bop);
    dst(d, 32, 0);
    h_a(d);
    h_32(d, 2, bf);
    psrc(d, 87, 0);
}

static void sass_h_hsetp2(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int bf = 0;
    sass_expect(d, 65, 1, 0);           /* .BF16_V2 is sm_90 */
    sass_mod_tab(d, 76, 4, t_fcmp);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (sass_fld(d, 71, 1))
        sass_mod(d, M(H_AND));
    sass_mod_tab(d, 69, 2, t_bop);
    pdst(d, 81, 0);
    pdst(d, 84, 0);
    h_a(d);
    h_32(d, 2, bf);
    psrc(d, 87, 0);
}

static void sass_h_hmnmx2(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    int bf = (int)sass_fld(d, 85, 1);
    if (sass_fld(d, 78, 1)) {
        if (bf)
            sass_fail(d, "HMNMX2 .F32 with .BF16_V2");
        sass_mod(d, M(F32));
    }
    if (bf)
        sass_mod(d, M(BF16_V2));
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    if (sass_fld(d, 81, 1))
        sass_mod(d, M(NAN));
    dst(d, 32, 0);
    h_a(d);
    h_32(d, 1, bf);
    psrc(d, 87, 0);
}

/* ------------------------------------------------------------- tensor cores ---- */

/* HMMA.<shape>.<acc type>(.<input type>) Rd, Ra, Rb, Rc: shape (75, 78): 1688, 16816, 1684;
 * accumulator F32 (76) or F16; inputs F16, BF16, TF32 (82-83). Register counts follow the
 * fragment sizes of mma.sync (m16 x k of the input type per 32 lanes ...). */
/* sparse MMA metadata: register in 40-47 with its own reuse flag (50, printed whatever the
 * yield bit), thread selector 48-49 */
static void sparse_meta(sass_dctx_t *d)
{
    sass_operand_t *o = sass_reg(d, 40, 32);
    if (sass_fld(d, 50, 1))
        o->flags |= SASS_OF_REUSE;
    sass_imm(d, 48, 2, 0);
}

/* HMMA(.SP).<shape>.<acc type>(.<input type>) Rd, Ra, Rb, Rc(, Re, sel): shape (75, 78):
 * dense 1688, 16816, 1684 (TF32); sparse 16816, 16832; accumulator F32 (76) or F16; inputs
 * F16, BF16, TF32 (82-83); -a (72), -b (63). Register counts follow the fragment sizes of
 * mma.sync (m16 x k of the input type per 32 lanes ...). */
static void sass_h_hmma(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_shape[4] = {M(1688), M(16816), M(1684), B};
    static const unsigned k_shape[4] = {8, 16, 4, 0};
    static const uint16_t t_sshape[4] = {B, M(16816), B, M(16832)};
    static const unsigned k_sshape[4] = {0, 16, 0, 32};
    static const uint16_t t_ty[4] = {0, M(BF16), M(TF32), B};
    int sp = (int)sass_fld(d, 73, 1);
    if (sp && d->sm < 80)
        sass_fail(d, "HMMA.SP on sm_75");
    if (sp)
        sass_mod(d, M(SP));
    uint64_t shape = sass_fld(d, 75, 1) | (sass_fld(d, 78, 1) << 1);
    sass_mod(d, sp ? t_sshape[shape] : t_shape[shape]);
    int f32 = (int)sass_fld(d, 76, 1);
    sass_mod(d, f32 ? M(F32) : M(F16));
    uint64_t ty = sass_fld(d, 82, 2);
    sass_mod(d, t_ty[ty]);
    if (!sp && ((shape == 2 && ty != 2) || (shape == 1 && ty == 2)))
        sass_fail(d, "HMMA shape and type");     /* 1684 is TF32 only, 16816 has no TF32 */
    if (d->sm < 80 && ty)
        sass_fail(d, "HMMA.%s on sm_75", ty == 1 ? "BF16" : "TF32");
    unsigned ibits = ty == 2 ? 32 : 16, k = sp ? k_sshape[shape] : k_shape[shape];
    unsigned wa = 16 * (sp ? k / 2 : k) * ibits / 32, wb = 8 * k * ibits / 32, wc = f32 ? 128 : 64;
    dst(d, wc, 0);
    sass_operand_t *o = sass_reg(d, 24, wa);
    if (sass_fld(d, 72, 1))
        o->flags |= SASS_OF_NEG;
    if (d->sm >= 80)            /* sm_75's nvdisasm refuses .reuse on a */
        sass_slot(d, 0);
    o = sass_reg(d, 32, wb);
    if (sass_fld(d, 63, 1))
        o->flags |= SASS_OF_NEG;
    sass_slot(d, 1);
    sass_reg(d, 64, wc);        /* no reuse slot: nvdisasm refuses .reuse on c */
    if (sp)
        sparse_meta(d);
}

/* IMMA.<shape>.<atype>.<btype> Rd, Ra.ROW, Rb.COL, Rc: integer tensor-core MMA.
 * shape (75, 85, 86): 16816 / 16832 / 16864 / 8832; a and b type: signed 76 / 78,
 * 4-bit 83 / 84; .SAT 82; 73 (a row-major) and 74 (b column-major) are fixed. */
static void sass_h_imma(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_shape[8] = {M(8816), B, M(8832), B, M(16816), M(16832), M(16864), B};
    static const uint16_t t_sshape[8] = {B, B, B, B, B, B, M(16864), B};
    static const uint16_t t_ity[4] = {M(U8), M(S8), M(U4), M(S4)};
    int sp = (int)sass_fld(d, 72, 1);
    if (sp && d->sm < 80)
        sass_fail(d, "IMMA.SP on sm_75");
    if (sp)
        sass_mod(d, M(SP));
    sass_expect(d, 73, 2, 2);           /* ROW, COL */
    sass_expect(d, 77, 1, 0);
    sass_expect(d, 79, 1, 0);
    if (d->sm < 80) {                   /* sm_75: only 8816 with 8-bit types is modelled */
        sass_expect(d, 75, 1, 0);
        sass_expect(d, 83, 4, 0);
    }
    uint64_t shape = sass_fld(d, 75, 1) | (sass_fld(d, 85, 2) << 1);
    sass_mod(d, sp ? t_sshape[shape] : t_shape[shape]);
    uint64_t at = sass_fld(d, 76, 1) | (sass_fld(d, 83, 1) << 1);
    uint64_t bt = sass_fld(d, 78, 1) | (sass_fld(d, 84, 1) << 1);
    if (sp && (at | bt) > 1)
        sass_fail(d, "IMMA.SP with 4-bit inputs");
    sass_mod(d, t_ity[at]);
    sass_mod(d, t_ity[bt]);
    if (sass_fld(d, 82, 1))
        sass_mod(d, M(SAT));
    unsigned wa = shape == 4 ? 64 : (shape == 2 || shape == 0) ? 32 : 128;
    unsigned wb = (shape == 4 || shape == 2 || shape == 0) ? 32 : 64;
    unsigned wc = (shape == 2 || shape == 0) ? 64 : 128;
    if (sp)                     /* m16n8k64 8-bit sparse: A compressed to k32, B k64 */
        wa = 128, wb = 128;
    dst(d, wc, 0);
    sass_operand_t *o = sass_reg(d, 24, wa);
    o->sel = SASS_SEL_ROW;
    sass_slot(d, 0);
    o = sass_reg(d, 32, wb);
    o->sel = SASS_SEL_COL;
    sass_slot(d, 1);
    sass_reg(d, 64, wc);        /* no reuse slot: nvdisasm refuses .reuse on c */
    if (sp)
        sparse_meta(d);
}

/* I2IP.<U8|S8|U16|S16>.S32.SAT Rd, Ra, Rb, Rc(.H1): two 32-bit integers saturated to 8 or
 * 16 bits and packed into c (the half of c kept is selected by 72) */
static void sass_h_i2ip(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_dt[8] = {M(U8), M(S8), M(U16), M(S16), B, B, B, B};
    sass_mod_tab(d, 76, 3, t_dt);
    sass_mod(d, M(S32));
    sass_mod(d, M(SAT));
    dst(d, 32, 0);
    sass_reg(d, 24, 32);
    sass_slot(d, 0);
    sass_reg(d, 32, 32);
    sass_slot(d, 1);
    sass_operand_t *o = sass_reg(d, 64, 32);
    uint64_t sel = sass_fld(d, 72, 2);
    if (sel > 1)
        sass_fail(d, "I2IP select %llu", (unsigned long long)sel);
    o->sel = (uint8_t)(sel ? SASS_SEL_H1 : SASS_SEL_NONE);
    sass_slot(d, 2);
}

/* MOVM.16.MT88 Rd, Ra: transpose 8x8 16-bit matrices across the warp (78-79: MT88 M832 M864) */
static void sass_h_movm(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_movm[4] = {M(MT88), M(M832), M(M864), B};
    sass_expect(d, 75, 3, 0);
    sass_mod(d, M(16));
    sass_mod_tab(d, 78, 2, t_movm);
    dst(d, 32, 0);
    sass_reg(d, 24, 32);
}

/* VABSDIFF4(.U8)(.ACC) Rd, Pd, Ra, Rb, Rc: byte-wise |a - b| summed into c */
static void sass_h_vabsdiff4(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (!sass_fld(d, 73, 1))
        sass_mod(d, M(U8));
    if (sass_fld(d, 75, 1))
        sass_mod(d, M(ACC));
    dst(d, 32, 0);
    if (sass_peek(d, 81, 3) != 7)
        pdst(d, 81, 0);
    else
        sass_fld(d, 81, 3);
    alu3_t s = { 32, 32, 32, IM_U32, NOMODS, NOMODS, NOMODS };
    alu_abc(d, &s, 0);
}

/* ------------------------------------------------------------- conversions ---- */

static const uint16_t t_isz[8] = {M(U8), M(U16), M(U32), M(U64), M(S8), M(S16), M(S32), M(S64)};

/* The source of a conversion (b: bits 32-63 or R at 32) with its sub-word select in 60-61:
 * .H1 for 16-bit sources, .B1-.B3 for 8-bit ones, nothing otherwise. A 16-bit source in a
 * constant bank prints as "c[b] [off]". */
static void conv_src(sass_dctx_t *d, unsigned bits, int immkind, srcmods_t m)
{
    sass_operand_t *o = src32(d, d->form, bits < 32 ? 32 : bits, 0, immkind, m);
    if (d->form == 1) {
        uint64_t sel = sass_fld(d, 60, 2);
        if (bits == 8)
            o->sel = (uint8_t)(sel ? SASS_SEL_B1 + sel - 1 : SASS_SEL_NONE);
        else if (bits == 16 && sel <= 1)
            o->sel = (uint8_t)(sel ? SASS_SEL_H1 : SASS_SEL_NONE);
        else if (sel)
            sass_fail(d, "sub-word select %llu of a %u-bit source", (unsigned long long)sel, bits);
        sass_slot(d, 1);
    } else if (o->kind == SASS_OPND_CBANK && bits < 32) {
        o->flags |= SASS_OF_SPACE;
    }
}

/* F2F: 0x104 between 16/32-bit floats (and to BF16), 0x110 to or from F64 */
static void sass_h_f2f(sass_dctx_t *d, const sass_enc_t *e)
{
    static const uint16_t t_dty[8] = {B, M(F16), M(F32), M(F64), M(BF16), B, B, B};
    static const unsigned w_fty[4] = {0, 16, 32, 64};
    uint64_t dt = sass_fld(d, 75, 3), st = sass_fld(d, 84, 2);
    int wide = (e->arg & V_WIDE) != 0;
    int ok = wide ? ((dt == 3) != (st == 3) && (dt == 1 || dt == 2 || dt == 3) && st >= 1)
                  : ((dt == 1 && st == 2) || (dt == 2 && st == 1) || (dt == 4 && st == 2));
    if (!ok) {
        sass_fail(d, "F2F types %llu <- %llu", (unsigned long long)dt, (unsigned long long)st);
        return;
    }
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    sass_mod(d, t_dty[dt]);
    sass_mod(d, t_fty[st]);
    sass_mod_tab(d, 78, 2, t_rnd);
    dst(d, dt == 3 ? 64 : 32, 0);
    conv_src(d, w_fty[st], st == 3 ? IM_F64 : IM_F32, MODS(63, 62));
}

/* F2I: 0x105 to 8/16/32-bit integers from F16/F32, 0x111 with a 64-bit side */
static void sass_h_f2i(sass_dctx_t *d, const sass_enc_t *e)
{
    static const unsigned w_fty[4] = {0, 16, 32, 64};
    uint64_t dsz = sass_fld(d, 75, 2), ssz = sass_fld(d, 84, 2);
    int wide = (e->arg & V_WIDE) != 0;
    if (ssz == 0 || (wide ? (dsz != 3 && ssz != 3) : (dsz == 3 || ssz == 3))) {
        sass_fail(d, "F2I sizes %llu <- %llu", (unsigned long long)dsz, (unsigned long long)ssz);
        return;
    }
    int sgn = (int)sass_fld(d, 72, 1);
    if (sass_fld(d, 80, 1))
        sass_mod(d, M(FTZ));
    unsigned dty = (unsigned)(sgn ? 4 : 0) + (unsigned)(dsz);
    if (dty != 6)               /* S32 is the default */
        sass_mod(d, t_isz[dty]);
    if (ssz != 2)
        sass_mod(d, t_fty[ssz]);
    sass_mod_tab(d, 78, 2, t_rnd_int);
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(NTZ));
    dst(d, dsz == 3 ? 64 : 32, 0);
    conv_src(d, w_fty[ssz], ssz == 3 ? IM_F64 : IM_F32, MODS(63, 62));
}

/* I2F: 0x106 to F16/F32 from 8-32-bit integers, 0x112 with a 64-bit side */
static void sass_h_i2f(sass_dctx_t *d, const sass_enc_t *e)
{
    static const unsigned w_isz[4] = {8, 16, 32, 64};
    uint64_t dt = sass_fld(d, 75, 2), ssz = sass_fld(d, 84, 2);
    int wide = (e->arg & V_WIDE) != 0;
    if (dt == 0 || (wide ? (dt != 3 && ssz != 3) : (dt == 3 || ssz == 3))) {
        sass_fail(d, "I2F types %llu <- %llu", (unsigned long long)dt, (unsigned long long)ssz);
        return;
    }
    int sgn = (int)sass_fld(d, 74, 1);
    if (dt != 2)
        sass_mod(d, t_fty[dt]);
    unsigned sty = (unsigned)(sgn ? 4 : 0) + (unsigned)ssz;
    if (sty != 6)
        sass_mod(d, t_isz[sty]);
    sass_mod_tab(d, 78, 2, t_rnd);
    dst(d, dt == 3 ? 64 : 32, 0);
    conv_src(d, w_isz[ssz], sgn ? IM_S32 : IM_U32, NOMODS);
}

static void sass_h_f2fp(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    if (sass_fld(d, 75, 1))
        sass_mod(d, M(RELU));
    if (sass_fld(d, 77, 1))
        sass_mod(d, M(SATFINITE));
    if (sass_fld(d, 76, 1))
        sass_mod(d, M(BF16));
    if (sass_fld(d, 78, 1))
        sass_fail(d, "F2FP.MERGE_C");
    if (d->sm == 89) {                  /* sm_89's nvdisasm names both types */
        if (!sass_has_mod(d->in, M(BF16)))
            sass_mod(d, M(F16));
        sass_mod(d, M(F32));
    }
    sass_mod(d, M(PACK_AB));
    static const uint16_t t_rn_rz[4] = {0, B, B, M(RZ)};
    sass_mod_tab(d, 79, 2, t_rn_rz);
    dst(d, 32, 0);
    alu_ab(d, 32, 32, 0, IM_F32, NOMODS, NOMODS, 1);
    sass_expect(d, 64, 8, 0xff);
}

/* ------------------------------------------------------------ dispatch table ---- */

/* sm_86+: I2FP.F32.S32/U32 Rd, Rb (integer to float on the FMA pipe) */
static void sass_h_i2fp(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_rn_rz[4] = {0, B, B, M(RZ)};
    sass_expect(d, 75, 3, 2);           /* F32 */
    sass_expect(d, 84, 2, 2);           /* 32-bit source */
    sass_mod(d, M(F32));
    sass_mod(d, sass_fld(d, 74, 1) ? M(S32) : M(U32));
    sass_mod_tab(d, 78, 2, t_rn_rz);
    dst(d, 32, 0);
    src32(d, d->form, 32, 0, IM_U32, NOMODS);
    if (d->form == 1)
        sass_slot(d, 1);
}

/* sm_86+: F2IP.U8/S8.F32.TRUNC(.NTZ)(.RELU) Rd, Ra(.H1), Rb, Rc: two floats converted to
 * bytes and packed */
static void sass_h_f2ip(sass_dctx_t *d, const sass_enc_t *e)
{
    (void)e;
    static const uint16_t t_f2ip_rnd[4] = {0, B, B, M(TRUNC)};
    sass_expect(d, 77, 1, 0);
    sass_mod(d, sass_fld(d, 76, 1) ? M(S8) : M(U8));
    sass_mod(d, M(F32));
    sass_mod_tab(d, 78, 2, t_f2ip_rnd);
    if (sass_fld(d, 74, 1))
        sass_mod(d, M(NTZ));
    if (sass_fld(d, 75, 1))
        sass_mod(d, M(RELU));
    dst(d, 32, 0);
    sass_reg(d, 24, 32);
    sass_slot(d, 0);
    sass_reg(d, 32, 32);
    sass_slot(d, 1);
    sass_operand_t *o = sass_reg(d, 64, 32);   /* .H1: the high half of c is kept */
    if (sass_fld(d, 72, 1))
        o->sel = SASS_SEL_H1;
    sass_slot(d, 2);
}

#define SASS_HANDLERS_ALU(X) X(imad) X(iadd3) X(isetp) X(lop3) X(lea) X(prmt) X(sel) \
    X(imnmx) X(shf) X(sgxt) X(unary) X(popc) X(flo) X(mov) X(vabsdiff) X(idp) X(plop3) \
    X(p2r) X(r2p) X(fadd) X(fmul) X(ffma) X(fsel) X(fmnmx) X(fsetp) X(fset) X(fchk) X(mufu) \
    X(frnd) X(dadd) X(dmul) X(dfma) X(dsetp) X(hadd2) X(hmul2) X(hfma2) X(hset2) X(hsetp2) \
    X(hmnmx2) X(hmma) X(imma) X(movm) X(vabsdiff4) X(i2ip) X(f2f) X(f2i) X(i2f) X(f2fp)

static const sass_enc_t enc_sm70[512] = {
#define SASS_ENC(opc9, forms, smmin, OP, h, arg) \
    [opc9] = {opc9, (uint8_t)(forms), smmin, SASS_OP_##OP, (uint16_t)(arg), sass_h_##h},
#include "sass_sm70.def"
#undef SASS_ENC
};
#undef B
#undef M

/* ------------------------------------------------------------------- entry ---- */

static const char *const op_names[SASS_OP_COUNT] = {
    [SASS_OP_NONE] = "(none)",
#define SASS_OP(n) [SASS_OP_##n] = #n,
#include "sass_ops.def"
#undef SASS_OP
};

static const char *const mod_names[SASS_MOD_COUNT] = {
    [SASS_MOD_NONE] = "",
#define SASS_MOD(id, text) [SASS_MOD_##id] = text,
#include "sass_mods.def"
#undef SASS_MOD
};

const char *sass_op_name(sass_op_t op)
{
    return (unsigned)op < SASS_OP_COUNT && op_names[op] ? op_names[op] : "?";
}

const char *sass_mod_name(sass_mod_t m)
{
    return (unsigned)m < SASS_MOD_COUNT && mod_names[m] ? mod_names[m] : "?";
}

const char *sass_status_name(sass_status_t st)
{
    switch (st) {
    case SASS_OK: return "ok";
    case SASS_ETRUNC: return "truncated instruction";
    case SASS_EARCH: return "unsupported SM";
    case SASS_EUNKNOWN: return "unknown opcode";
    case SASS_EFIELD: return "unsupported encoding";
    }
    return "?";
}

int sass_has_mod(const sass_insn_t *in, sass_mod_t m)
{
    for (unsigned i = 0; i < in->nmods; i++)
        if (in->mods[i] == m)
            return 1;
    return 0;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

sass_status_t sass_decode(const uint8_t *code, size_t len, uint64_t pc, unsigned sm,
                          sass_insn_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->pc = pc;
    if (err && errlen)
        err[0] = 0;
    if (!code || len < 16) {
        if (err && errlen)
            snprintf(err, errlen, "pc 0x%llx: %zu bytes left, an instruction has 16",
                     (unsigned long long)pc, code ? len : 0);
        return SASS_ETRUNC;
    }
    if (sm != 75 && sm != 80 && sm != 86 && sm != 87 && sm != 89) {
        if (err && errlen)
            snprintf(err, errlen, "sm_%u: only sm_75, sm_80, sm_86, sm_87, sm_89 are decoded",
                     sm);
        return SASS_EARCH;
    }
    sass_dctx_t d;
    memset(&d, 0, sizeof d);
    d.w[0] = rd64(code);
    d.w[1] = rd64(code + 8);
    d.sm = sm;
    d.in = out;
    d.err = err;
    d.errlen = errlen;
    for (int i = 0; i < 4; i++)
        d.slot_opnd[i] = -1;
    out->raw[0] = d.w[0];
    out->raw[1] = d.w[1];
    unsigned opc = (unsigned)(d.w[0] & 0xfff);
    out->opc = (uint16_t)opc;
    const sass_enc_t *e = &enc_sm70[opc & 0x1ff];
    d.form = (int)(opc >> 9);
    if (!e->fn || !(e->forms & (1u << d.form)) || e->sm_min > sm) {
        if (err && errlen)
            snprintf(err, errlen, "pc 0x%llx: unknown opcode 0x%03x (bits 0-11) for sm_%u",
                     (unsigned long long)pc, opc, sm);
        memset(out, 0, sizeof *out);
        out->pc = pc;
        return SASS_EUNKNOWN;
    }
    out->op = e->op;
    out->guard_uniform = (e->arg & V_UG) != 0;
    sass_fld(&d, 0, 12);
    out->guard = (uint8_t)sass_fld(&d, 12, 3);
    out->guard_not = (uint8_t)sass_fld(&d, 15, 1);
    out->ctrl.stall = (uint8_t)sass_fld(&d, 105, 4);
    out->ctrl.yield = (uint8_t)sass_fld(&d, 109, 1);
    out->ctrl.wr_bar = (uint8_t)sass_fld(&d, 110, 3);
    out->ctrl.rd_bar = (uint8_t)sass_fld(&d, 113, 3);
    out->ctrl.wait_mask = (uint8_t)sass_fld(&d, 116, 6);
    out->ctrl.reuse = (uint8_t)sass_fld(&d, 122, 4);
    e->fn(&d, e);
    if (d.st == SASS_OK) {
        uint64_t left0 = d.w[0] & ~d.used[0], left1 = d.w[1] & ~d.used[1];
        if (left0 | left1) {
            unsigned b = left0 ? (unsigned)__builtin_ctzll(left0)
                               : 64 + (unsigned)__builtin_ctzll(left1);
            sass_fail(&d, "bit %u is set in a field this decoder does not model", b);
        }
    }
    /* A reuse flag must name a register source. nvdisasm shows it (and ptxas sets it) only
     * with the yield bit set, and never for the variable-latency units (V_NOREUSE). */
    for (int s = 0; s < 4 && d.st == SASS_OK; s++) {
        if (!((out->ctrl.reuse >> s) & 1))
            continue;
        int k = d.slot_opnd[s];
        if (k < 0 || out->opnd[k].kind != SASS_OPND_REG)
            sass_fail(&d, "reuse flag for source %c, which is not a register", 'a' + s);
        else if (out->ctrl.yield && !(e->arg & V_NOREUSE))
            out->opnd[k].flags |= SASS_OF_REUSE;
    }
    if (d.st != SASS_OK) {
        sass_status_t st = d.st;
        memset(out, 0, sizeof *out);
        out->pc = pc;
        out->raw[0] = d.w[0];
        out->raw[1] = d.w[1];
        out->opc = (uint16_t)opc;
        return st;
    }
    return SASS_OK;
}
