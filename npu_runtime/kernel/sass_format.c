/*
 * sass_format.c - prints a decoded SASS instruction the way `nvdisasm -c` does (without the
 * address and encoding comments and the trailing " ;"), so that the tests can compare the
 * two line by line. Branch targets print as absolute addresses (nvdisasm's raw-binary mode
 * `-b SMxx` prints them so; in ELF mode it prints labels, which the test normalises).
 *
 * nvdisasm's conventions, measured with nvdisasm 13.x:
 *   - integer immediates in hex, negative ones as -0x..; memory offsets as +0x.. or +-0x..
 *   - float immediates: %.20g of the value, but %.20e from 1e9 up; -0.0 for negative zero,
 *     +INF/-INF, +QNAN/-QNAN/+SNAN/-SNAN; half pairs print the high half first
 *   - operand decorations: -|R2|.reuse.H1_H1 (reuse inside, selector after the bars) but
 *     |c[0x0] [0x670].H0_H0| for constant-bank operands of fp16 instructions
 *   - CALL/RET/BRX separate the register from the target with a space, not a comma
 */
#include "sass_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const sreg_names[256] = {
    [0] = "SR_LANEID", [1] = "SR_CLOCK", [2] = "SR_VIRTCFG", [3] = "SR_VIRTID",
    [15] = "SR_ORDERING_TICKET", [16] = "SR_PRIM_TYPE", [17] = "SR_INVOCATION_ID",
    [18] = "SR_Y_DIRECTION", [19] = "SR_THREAD_KILL", [20] = "SM_SHADER_TYPE",
    [21] = "SR_DIRECTCBEWRITEADDRESSLOW", [22] = "SR_DIRECTCBEWRITEADDRESSHIGH",
    [23] = "SR_DIRECTCBEWRITEENABLED", [24] = "SR_SW_SCRATCH", [25] = "SR_MACHINE_ID_1",
    [26] = "SR_MACHINE_ID_2", [27] = "SR_MACHINE_ID_3", [28] = "SR_AFFINITY",
    [29] = "SR_INVOCATION_INFO", [30] = "SR_WSCALEFACTOR_XY", [31] = "SR_WSCALEFACTOR_Z",
    [32] = "SR_TID", [33] = "SR_TID.X", [34] = "SR_TID.Y", [35] = "SR_TID.Z",
    [37] = "SR_CTAID.X", [38] = "SR_CTAID.Y", [39] = "SR_CTAID.Z", [40] = "SR_NTID",
    [41] = "SR_CirQueueIncrMinusOne", [42] = "SR_NLATC", [44] = "SR_SM_SPA_VERSION",
    [45] = "SR_MULTIPASSSHADERINFO", [46] = "SR_LWINHI", [47] = "SR_SWINHI",
    [48] = "SR_SWINLO", [49] = "SR_SWINSZ", [50] = "SR_SMEMSZ", [51] = "SR_SMEMBANKS",
    [52] = "SR_LWINLO", [53] = "SR_LWINSZ", [54] = "SR_LMEMLOSZ", [55] = "SR_LMEMHIOFF",
    [56] = "SR_EQMASK", [57] = "SR_LTMASK", [58] = "SR_LEMASK", [59] = "SR_GTMASK",
    [60] = "SR_GEMASK", [61] = "SR_REGALLOC", [62] = "SR_BARRIERALLOC",
    [64] = "SR_GLOBALERRORSTATUS", [66] = "SR_WARPERRORSTATUS", [67] = "SR_VIRTUALSMID",
    [68] = "SR_VIRTUALENGINEID", [80] = "SR_CLOCKLO", [81] = "SR_CLOCKHI",
    [82] = "SR_GLOBALTIMERLO", [83] = "SR_GLOBALTIMERHI", [84] = "SR_ESR_PC",
    [85] = "SR_ESR_PC_HI", [96] = "SR_HWTASKID", [97] = "SR_CIRCULARQUEUEENTRYINDEX",
    [98] = "SR_CIRCULARQUEUEENTRYADDRESSLOW", [99] = "SR_CIRCULARQUEUEENTRYADDRESSHIGH",
    [100] = "SR_PM0", [101] = "SR_PM_HI0", [102] = "SR_PM1", [103] = "SR_PM_HI1",
    [104] = "SR_PM2", [105] = "SR_PM_HI2", [106] = "SR_PM3", [107] = "SR_PM_HI3",
    [108] = "SR_PM4", [109] = "SR_PM_HI4", [110] = "SR_PM5", [111] = "SR_PM_HI5",
    [112] = "SR_PM6", [113] = "SR_PM_HI6", [114] = "SR_PM7", [115] = "SR_PM_HI7",
    [116] = "SR_SNAP_PM0", [117] = "SR_SNAP_PM_HI0", [118] = "SR_SNAP_PM1",
    [119] = "SR_SNAP_PM_HI1", [120] = "SR_SNAP_PM2", [121] = "SR_SNAP_PM_HI2",
    [122] = "SR_SNAP_PM3", [123] = "SR_SNAP_PM_HI3", [124] = "SR_SNAP_PM4",
    [125] = "SR_SNAP_PM_HI4", [126] = "SR_SNAP_PM5", [127] = "SR_SNAP_PM_HI5",
    [128] = "SR_SNAP_PM6", [129] = "SR_SNAP_PM_HI6", [130] = "SR_SNAP_PM7",
    [131] = "SR_SNAP_PM_HI7", [132] = "SR_VARIABLE_RATE", [133] = "__HIR0X000",
    [255] = "SRZ",
};

const char *sass_sreg_name(unsigned n)
{
    return n < 256 ? sreg_names[n] : NULL;
}

/* output buffer that counts what it would need */
typedef struct obuf {
    char *p;
    size_t n, len;
} obuf_t;

static void put(obuf_t *o, const char *s)
{
    size_t k = strlen(s);
    if (o->len + 1 < o->n) {
        size_t room = o->n - 1 - o->len;
        memcpy(o->p + o->len, s, k < room ? k : room);
    }
    o->len += k;
    if (o->n)
        o->p[o->len < o->n ? o->len : o->n - 1] = 0;
}

static void putf(obuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(obuf_t *o, const char *fmt, ...)
{
    char tmp[96];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(o, tmp);
}

static void put_hex(obuf_t *o, int64_t v)
{
    if (v < 0)
        putf(o, "-0x%llx", (unsigned long long)(-(uint64_t)v));
    else
        putf(o, "0x%llx", (unsigned long long)v);
}

static double half_to_double(uint32_t h)
{
    int e = (int)((h >> 10) & 0x1f);
    double m = (double)(h & 0x3ff);
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else
        v = ldexp(m + 1024.0, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* bits of a float of `fbits` bits (16: IEEE half, 15: bfloat16, 32, 64) */
int sass_fmt_float(char *buf, size_t n, uint64_t bits, unsigned fbits)
{
    int neg;
    double v;
    int isnan_ = 0, isinf_ = 0, quiet = 0;
    if (fbits == 64) {
        neg = (int)(bits >> 63);
        uint64_t ex = (bits >> 52) & 0x7ff, man = bits & ((1ull << 52) - 1);
        if (ex == 0x7ff) {
            isinf_ = man == 0;
            isnan_ = man != 0;
            quiet = (int)((man >> 51) & 1);
        }
        memcpy(&v, &bits, 8);
    } else if (fbits == 32) {
        uint32_t b = (uint32_t)bits;
        neg = (int)(b >> 31);
        uint32_t ex = (b >> 23) & 0xff, man = b & 0x7fffff;
        if (ex == 0xff) {
            isinf_ = man == 0;
            isnan_ = man != 0;
            quiet = (int)((man >> 22) & 1);
        }
        float f;
        memcpy(&f, &b, 4);
        v = f;
    } else if (fbits == 15) {           /* bfloat16: the top half of a float */
        uint32_t b = (uint32_t)(bits & 0xffff) << 16;
        return sass_fmt_float(buf, n, b, 32);
    } else {
        uint32_t h = (uint32_t)(bits & 0xffff);
        neg = (int)(h >> 15);
        uint32_t ex = (h >> 10) & 0x1f, man = h & 0x3ff;
        if (ex == 0x1f) {
            isinf_ = man == 0;
            isnan_ = man != 0;
            quiet = (int)((man >> 9) & 1);
        }
        v = half_to_double(h);
    }
    if (isinf_)
        return snprintf(buf, n, "%cINF", neg ? '-' : '+');
    if (isnan_)
        return snprintf(buf, n, "%c%s", neg ? '-' : '+', quiet ? "QNAN" : "SNAN");
    if (v == 0)
        return snprintf(buf, n, "%s", neg ? "-0.0" : "0");
    if (fabs(v) >= 1e9)
        return snprintf(buf, n, "%.20e", v);
    return snprintf(buf, n, "%.20g", v);
}

/* nvdisasm follows INF, NAN and -0.0 with a space (also before a comma: "-INF , !P0") */
static void put_float(obuf_t *o, uint64_t bits, unsigned fbits)
{
    char tmp[64];
    sass_fmt_float(tmp, sizeof tmp, bits, fbits);
    put(o, tmp);
    size_t k = strlen(tmp);
    if ((k >= 3 && (!strcmp(tmp + k - 3, "INF") || !strcmp(tmp + k - 3, "NAN"))) ||
        !strcmp(tmp, "-0.0"))
        put(o, " ");
}

static const char *const sel_names[SASS_SEL_COUNT] = {
    "", ".H0_H0", ".H1_H1", ".F32", ".H1", ".B1", ".B2", ".B3", ".X4", ".X8", ".X16",
    ".ROW", ".COL",
};

static void put_regname(obuf_t *o, const sass_operand_t *x)
{
    switch (x->kind) {
    case SASS_OPND_REG:
        if (x->reg == SASS_RZ) put(o, "RZ"); else putf(o, "R%u", x->reg);
        break;
    case SASS_OPND_UREG:
        if (x->reg == SASS_URZ) put(o, "URZ"); else putf(o, "UR%u", x->reg);
        break;
    case SASS_OPND_PRED:
        if (x->reg == SASS_PT) put(o, "PT"); else putf(o, "P%u", x->reg);
        break;
    case SASS_OPND_UPRED:
        if (x->reg == SASS_PT) put(o, "UPT"); else putf(o, "UP%u", x->reg);
        break;
    default:
        break;
    }
}

static void put_cbank(obuf_t *o, const sass_operand_t *x)
{
    if (x->flags & SASS_OF_CX)
        putf(o, "cx[UR%u]", x->bank);
    else
        putf(o, "c[0x%x]", x->bank);
    put(o, (x->flags & SASS_OF_SPACE) ? " [" : "[");
    int any = 0;
    if (x->reg2 != SASS_NONE_REG) {
        sass_operand_t r = *x;
        r.kind = x->reg2kind;
        r.reg = x->reg2;
        put_regname(o, &r);
        any = 1;
    }
    if (x->imm != 0 || !any) {
        if (any)
            put(o, "+");
        put_hex(o, x->imm);
    }
    put(o, "]");
}

/* [R2.64+UR4+0x10]: the base is left out when it is RZ and a UR or (for a 32-bit base)
 * an offset is there; an offset alone prints as an unsigned 24-bit address */
static void put_mem(obuf_t *o, const sass_operand_t *x)
{
    int has_ur = x->reg2 != SASS_NONE_REG;
    int base = !(x->reg == SASS_RZ &&
                 (has_ur || (!(x->flags & SASS_OF_WIDE) && x->imm != 0)));
    int any = 0;
    put(o, "[");
    if (base) {
        if (x->reg == SASS_RZ) put(o, "RZ"); else putf(o, "R%u", x->reg);
        if (x->flags & SASS_OF_WIDE)
            put(o, ".64");
        if (x->flags & SASS_OF_U32)
            put(o, ".U32");
        if (x->reg != SASS_RZ)      /* RZ scaled is still zero: nvdisasm omits the scale */
            put(o, sel_names[x->sel]);
        any = 1;
    }
    if (has_ur) {
        if (any)
            put(o, "+");
        if (x->reg2 == SASS_URZ) put(o, "URZ"); else putf(o, "UR%u", x->reg2);
        any = 1;
    }
    if (x->imm != 0) {
        if (any) {
            put(o, "+");
            put_hex(o, x->imm);
        } else {
            putf(o, "0x%llx", (unsigned long long)(x->imm & 0xffffff));
        }
    }
    put(o, "]");
}

static void put_opnd(obuf_t *o, const sass_operand_t *x)
{
    switch (x->kind) {
    case SASS_OPND_REG: case SASS_OPND_UREG: case SASS_OPND_PRED: case SASS_OPND_UPRED:
        if (x->flags & SASS_OF_NOT)
            put(o, (x->kind == SASS_OPND_PRED || x->kind == SASS_OPND_UPRED) ? "!" : "~");
        if (x->flags & SASS_OF_NEG)
            put(o, "-");
        if (x->flags & SASS_OF_ABS)
            put(o, "|");
        put_regname(o, x);
        if (x->flags & SASS_OF_ABS)
            put(o, "|");
        if (x->flags & SASS_OF_REUSE)
            put(o, ".reuse");
        put(o, sel_names[x->sel]);
        break;
    case SASS_OPND_PR:
        put(o, "PR");
        break;
    case SASS_OPND_IMM:
        if (x->ftype == SASS_IFMT_UHEX)
            putf(o, "0x%llx", (unsigned long long)x->imm);
        else
            put_hex(o, x->imm);
        break;
    case SASS_OPND_FIMM:
        switch (x->ftype) {
        case SASS_FT_F32: put_float(o, (uint64_t)x->imm, 32); break;
        case SASS_FT_F64H: put_float(o, (uint64_t)x->imm << 32, 64); break;
        case SASS_FT_F16X2:
            put_float(o, ((uint64_t)x->imm >> 16) & 0xffff, 16);
            put(o, ", ");
            put_float(o, (uint64_t)x->imm & 0xffff, 16);
            break;
        case SASS_FT_F16:
            put_float(o, (uint64_t)x->imm & 0xffff, 16);
            break;
        case SASS_FT_BF16X2:
            put_float(o, ((uint64_t)x->imm >> 16) & 0xffff, 15);
            put(o, ", ");
            put_float(o, (uint64_t)x->imm & 0xffff, 15);
            break;
        }
        break;
    case SASS_OPND_CBANK:
        if (x->flags & SASS_OF_NOT)
            put(o, "~");
        if (x->flags & SASS_OF_NEG)
            put(o, "-");
        if (x->flags & SASS_OF_ABS)
            put(o, "|");
        put_cbank(o, x);
        put(o, sel_names[x->sel]);
        if (x->flags & SASS_OF_ABS)
            put(o, "|");
        break;
    case SASS_OPND_MEM:
        put_mem(o, x);
        break;
    case SASS_OPND_SREG: {
        const char *nm = sass_sreg_name(x->reg);
        if (nm) put(o, nm); else putf(o, "SR%u", x->reg);
        break;
    }
    case SASS_OPND_BAR:
        putf(o, "B%u", x->reg);
        break;
    case SASS_OPND_TARGET:
        put_hex(o, x->imm);         /* nvdisasm: -0x3900 for a target before address 0 */
        break;
    case SASS_OPND_SB:
        putf(o, "SB%u", x->reg);
        break;
    case SASS_OPND_TEXDIM: {
        static const char *const dims[8] = {"1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D",
                                            "ARRAY_3D", "ARRAY_CUBE"};
        put(o, dims[x->reg & 7]);
        break;
    }
    case SASS_OPND_SBSET: {
        put(o, "{");
        int first = 1;
        for (int b = 5; b >= 0; b--) {
            if (!((x->imm >> b) & 1))
                continue;
            putf(o, first ? "%d" : ",%d", b);
            first = 0;
        }
        put(o, "}");
        break;
    }
    default:
        put(o, "?");
    }
}

int sass_format(const sass_insn_t *in, char *buf, size_t n)
{
    char tmp[512];                      /* the longest instruction text is ~110 characters */
    obuf_t o = {tmp, sizeof tmp, 0};
    tmp[0] = 0;
    if (in->guard != SASS_PT || in->guard_not) {
        put(&o, "@");
        if (in->guard_not)
            put(&o, "!");
        put(&o, in->guard_uniform ? "UP" : "P");
        if (in->guard == SASS_PT) put(&o, "T"); else putf(&o, "%u", in->guard);
        put(&o, " ");
    }
    put(&o, sass_op_name((sass_op_t)in->op));
    for (unsigned i = 0; i < in->nmods; i++) {
        put(&o, ".");
        put(&o, sass_mod_name((sass_mod_t)in->mods[i]));
    }
    int spaced = in->op == SASS_OP_CALL || in->op == SASS_OP_RET || in->op == SASS_OP_BRX ||
                 in->op == SASS_OP_BRXU || in->op == SASS_OP_JMP;
    for (unsigned i = 0; i < in->nopnds; i++) {
        const sass_operand_t *x = &in->opnd[i];
        if (i == 0)
            put(&o, " ");
        else if (spaced && (x->kind == SASS_OPND_TARGET || x->kind == SASS_OPND_IMM) &&
                 (in->opnd[i - 1].kind == SASS_OPND_REG ||
                  in->opnd[i - 1].kind == SASS_OPND_UREG))
            put(&o, " ");
        else
            put(&o, ", ");
        put_opnd(&o, x);
    }
    if (o.len >= sizeof tmp)
        o.len = sizeof tmp - 1;
    while (o.len && tmp[o.len - 1] == ' ')      /* "+INF " as the last operand */
        tmp[--o.len] = 0;
    if (n) {
        size_t k = o.len < n - 1 ? o.len : n - 1;
        memcpy(buf, tmp, k);
        buf[k] = 0;
    }
    return (int)o.len;
}
