/*
 * sass_internal.h - shared by the SASS decoder files (sass_decode.c: core, dispatch, ALU;
 * sass_decode_ctl.c: memory, warp and control-flow instructions; sass_format.c: printer).
 * Not for other modules: they include sass.h.
 */
#ifndef NPU_SASS_INTERNAL_H
#define NPU_SASS_INTERNAL_H
#include "sass.h"

/* Decoding state of one instruction. Every field read through fld()/expect() is marked as
 * consumed; whatever bit of 12..104 and 122..127 is set but was not consumed makes the
 * instruction SASS_EFIELD, so an encoding we do not model is refused, not misread. */
typedef struct sass_dctx {
    uint64_t w[2];
    uint64_t used[2];
    unsigned sm;
    sass_insn_t *in;
    sass_status_t st;
    char *err;
    size_t errlen;
    int form;                   /* bits 9-11 */
    int slot_opnd[4];           /* operand index occupying reuse slot a, b, c, d (-1 none) */
    sass_operand_t scratch;     /* target of writes past SASS_MAX_OPNDS (already failed) */
} sass_dctx_t;

/* one line of sass_sm70.def */
typedef struct sass_enc {
    uint16_t opc9;              /* bits 0-8 */
    uint8_t forms;              /* bit f set: bits 9-11 == f accepted */
    uint8_t sm_min;             /* first SM that has it */
    uint16_t op;                /* sass_op_t */
    uint16_t arg;               /* handler parameter (family variant flags) */
    void (*fn)(sass_dctx_t *d, const struct sass_enc *e);
} sass_enc_t;

/* handler variants (the arg column of sass_sm70.def) */
#define V_UNI     0x0001    /* uniform datapath: UR/UP registers */
#define V_WIDE    0x0002    /* IMAD.WIDE, 64-bit conversions */
#define V_HI      0x0004    /* IMAD.HI */
#define V_INT     0x0008
#define V_MMA     0x0010
#define V_LOAD    0x0020
#define V_GLOBAL  0x0040
#define V_CAS     0x0080
#define V_IDX     0x0100
#define V_TLD     0x0200
#define V_ABS     0x0400
#define V_TOBAR   0x0800
#define V_PRED    0x1000
#define V_UG      0x2000    /* guard predicate is uniform (@UPn) */
#define V_NOREUSE 0x4000    /* reuse flags accepted but never printed (variable-latency units) */

/* sentinel in modifier tables: this field value is not a valid encoding */
#define SASS_MOD_BAD 0xffff

uint64_t sass_fld(sass_dctx_t *d, unsigned lo, unsigned n);
uint64_t sass_peek(const sass_dctx_t *d, unsigned lo, unsigned n);
void sass_expect(sass_dctx_t *d, unsigned lo, unsigned n, uint64_t v);
void sass_fail(sass_dctx_t *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sass_mod(sass_dctx_t *d, unsigned m);
void sass_mod_tab(sass_dctx_t *d, unsigned lo, unsigned n, const uint16_t *tab);
sass_operand_t *sass_opnd(sass_dctx_t *d, unsigned kind);
sass_operand_t *sass_reg(sass_dctx_t *d, unsigned lo, unsigned width);
sass_operand_t *sass_ureg(sass_dctx_t *d, unsigned lo, unsigned width);
sass_operand_t *sass_pred(sass_dctx_t *d, unsigned lo, int notbit);
sass_operand_t *sass_upred(sass_dctx_t *d, unsigned lo, int notbit);
sass_operand_t *sass_imm(sass_dctx_t *d, unsigned lo, unsigned n, int is_signed);
sass_operand_t *sass_imm_val(sass_dctx_t *d, int64_t v, int fmt);
sass_operand_t *sass_target(sass_dctx_t *d, unsigned lo, unsigned n);
void sass_slot(sass_dctx_t *d, int slot);

/* memory / warp / control-flow handlers (sass_decode_ctl.c) */
#define SASS_H(name) void sass_h_##name(sass_dctx_t *d, const sass_enc_t *e);
#define SASS_HANDLERS_CTL(X) X(ldst) X(lds) X(ldl) X(ldc) X(uldc) X(ldsm) X(ldgsts) X(atom) \
    X(atoms) X(red) X(cctl) X(membar) X(bare) X(depbar) X(qspc) X(s2r) X(cs2r) X(b2r) \
    X(shfl) X(vote) X(match) X(redux) X(bra) X(brx) X(call) X(ret) X(exit) X(bssy) \
    X(bsync) X(brk) X(bmov) X(warpsync) X(bar) X(nanosleep) X(bpt) X(lepc) X(r2ur) X(s2ur) \
    X(tex) X(suld) X(kill)
SASS_HANDLERS_CTL(SASS_H)

/* float printing shared with the tests */
int sass_fmt_float(char *buf, size_t n, uint64_t bits, unsigned ftype_bits);

#endif
