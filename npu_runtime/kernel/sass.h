/*
 * sass.h - decoder for NVIDIA GPU machine code (SASS) of the Volta family: sm_75 (Turing),
 * sm_80 (Ampere), sm_86/sm_89 (their encodings of the forms compilers emit are sm_80's).
 * Private to npu_runtime/kernel: the cubin loader hands it the bytes of a .text section, the
 * lifter turns the decoded instructions into PTX. No CUDA headers, no NVIDIA code at run time.
 *
 * One instruction is 16 bytes (two little-endian 64-bit words). sass_decode() fills a
 * sass_insn_t whose fields carry everything the semantics depend on: the opcode, the guard
 * predicate, the modifiers (an ordered list of ids, as nvdisasm prints them), typed operands
 * (registers with their width, immediates with their type, constant-bank and memory
 * operands, branch targets as absolute addresses) and the scheduling control bits.
 * sass_format() prints it exactly as `nvdisasm -c` does (absolute branch targets, no
 * address or encoding comments); tests/sass compares the two instruction by instruction.
 * Encodings this decoder does not know are rejected (SASS_EUNKNOWN / SASS_EFIELD with a
 * message naming the pc and the opcode bits), never guessed.
 *
 * Thread-safety: pure functions, no shared mutable state.
 */
#ifndef NPU_SASS_H
#define NPU_SASS_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sass_status {
    SASS_OK = 0,
    SASS_ETRUNC,        /* fewer than 16 bytes left */
    SASS_EARCH,         /* an SM this decoder does not handle */
    SASS_EUNKNOWN,      /* opcode bits not in the table */
    SASS_EFIELD,        /* known opcode, but a field holds a value we do not model */
} sass_status_t;

/* Opcodes (sass_ops.def): SASS_OP_IMAD, SASS_OP_LDG ... */
typedef enum sass_op {
    SASS_OP_NONE = 0,
#define SASS_OP(name) SASS_OP_##name,
#include "sass_ops.def"
#undef SASS_OP
    SASS_OP_COUNT
} sass_op_t;

/* Modifier tokens (sass_mods.def): SASS_MOD_WIDE, SASS_MOD_U32, SASS_MOD_GE ... */
typedef enum sass_mod {
    SASS_MOD_NONE = 0,
#define SASS_MOD(id, text) SASS_MOD_##id,
#include "sass_mods.def"
#undef SASS_MOD
    SASS_MOD_COUNT
} sass_mod_t;

typedef enum sass_okind {
    SASS_OPND_NONE = 0,
    SASS_OPND_REG,      /* R0..R254, RZ (reg 255); width 32/64/128 = registers it spans */
    SASS_OPND_UREG,     /* UR0..UR62, URZ (reg 63) */
    SASS_OPND_PRED,     /* P0..P6, PT (reg 7); flag NOT for ! */
    SASS_OPND_UPRED,    /* UP0..UP6, UPT (reg 7) */
    SASS_OPND_PR,       /* PR: all predicates as a bit mask (P2R/R2P) */
    SASS_OPND_IMM,      /* integer immediate, sign-extended in imm (printed per `ifmt`) */
                        /* BRX/BRXU Ra imm: the branch goes to Ra + (pc + 16 + imm); nvcc's
                           jump tables hold function-relative addresses, so imm = -(pc + 16)
                           (265 of 265 BRX/BRXU in PyTorch's cubins) */
    SASS_OPND_FIMM,     /* float immediate: imm holds the bits, ftype the format */
    SASS_OPND_CBANK,    /* c[bank][offset] / c[bank][R+off] / cx[UR][off] / c[UR][off] */
    SASS_OPND_MEM,      /* [Rbase(.64) + UR + offset] */
    SASS_OPND_SREG,     /* special register: reg = S2R index (SR_TID.X = 33 ...) */
    SASS_OPND_BAR,      /* convergence barrier register B0..B15 (reg) or BMOV special */
    SASS_OPND_TARGET,   /* branch/call target: imm = absolute address */
    SASS_OPND_SB,       /* scoreboard SB0..SB5 (DEPBAR) */
    SASS_OPND_SBSET,    /* set of scoreboards {5,0} (DEPBAR): imm = bit mask */
    SASS_OPND_TEXDIM,   /* texture dimension (TEX/TLD): reg = 0 1D, 1 2D, 2 3D, ... */
} sass_okind_t;

/* operand flags */
#define SASS_OF_NEG     0x01    /* -x  (integer or float negation) */
#define SASS_OF_ABS     0x02    /* |x| */
#define SASS_OF_NOT     0x04    /* ~x (bitwise) or !P (predicate) */
#define SASS_OF_REUSE   0x08    /* .reuse: operand-reuse cache hint (no semantics) */
#define SASS_OF_WIDE    0x10    /* MEM: base register is a 64-bit pair (prints R2.64) */
#define SASS_OF_U32     0x20    /* MEM: base is a 32-bit offset zero-extended (R2.U32) */
#define SASS_OF_CX      0x40    /* CBANK: bank is a uniform register (cx[URn][off]) */
#define SASS_OF_SPACE   0x80    /* CBANK: nvdisasm prints "c[b] [off]" (fp16 ALU forms) */

/* operand selectors (sel) */
typedef enum sass_sel {
    SASS_SEL_NONE = 0,
    SASS_SEL_H0_H0, SASS_SEL_H1_H1, SASS_SEL_F32,     /* fp16 pair source selects */
    SASS_SEL_H1, SASS_SEL_B1, SASS_SEL_B2, SASS_SEL_B3, /* sub-word selects (I2F, P2R) */
    SASS_SEL_X4, SASS_SEL_X8, SASS_SEL_X16,            /* MEM: base register scaled */
    SASS_SEL_ROW, SASS_SEL_COL,                        /* IMMA operand layouts */
    SASS_SEL_COUNT
} sass_sel_t;

/* float immediate formats */
typedef enum sass_ftype {
    SASS_FT_F32 = 1,    /* 32-bit float */
    SASS_FT_F64H,       /* top 32 bits of a double (low 32 bits zero) */
    SASS_FT_F16X2,      /* two halves as a register holds them: imm bits 0-15 = H0 (low),
                           16-31 = H1; nvdisasm prints H1 first ("HFMA2.MMA R3, -RZ, RZ, 0,
                           4.76837158203125e-07" has imm 0x00000008) */
    SASS_FT_BF16X2,     /* two bfloat16 halves, the same layout */
    SASS_FT_F16,        /* one half (imm bits 0-15) */
} sass_ftype_t;

/* integer immediate print formats */
#define SASS_IFMT_HEX   0       /* 0x1f, -0x1 */
#define SASS_IFMT_UHEX  1       /* unsigned hex (LOP3 lut, masks) */

typedef struct sass_operand {
    uint8_t kind;           /* sass_okind_t */
    uint8_t flags;          /* SASS_OF_* */
    uint8_t sel;            /* sass_sel_t */
    uint8_t width;          /* REG/UREG: bits the operand spans (32, 64, 128, 256) */
    uint16_t reg;           /* register/predicate/special-register/barrier number */
    uint16_t reg2;          /* MEM: UR index; CBANK: index register (R or UR); 0xffff none */
    int64_t imm;            /* IMM value, FIMM bits, MEM/CBANK offset, TARGET address */
    uint8_t bank;           /* CBANK: bank (or UR index with SASS_OF_CX) */
    uint8_t ftype;          /* FIMM: sass_ftype_t; IMM: SASS_IFMT_* */
    uint8_t reg2kind;       /* CBANK index register kind: SASS_OPND_REG or _UREG (0 none) */
    uint8_t pad;
} sass_operand_t;

#define SASS_NONE_REG   0xffff
#define SASS_RZ         255
#define SASS_URZ        63
#define SASS_PT         7
#define SASS_MAX_MODS   12
#define SASS_MAX_OPNDS  8

/* Scheduling control (bits 105-125 of the instruction). */
typedef struct sass_ctrl {
    uint8_t stall;          /* cycles to wait before issuing the next instruction (0-15) */
    uint8_t yield;          /* 1: the scheduler may switch warps (bit is "no yield" inverted) */
    uint8_t wr_bar;         /* scoreboard set on write-back (0-5), 7 = none */
    uint8_t rd_bar;         /* scoreboard set when sources are read (0-5), 7 = none */
    uint8_t wait_mask;      /* scoreboards waited on before issue (bit i = SB i) */
    uint8_t reuse;          /* operand-reuse flags for source slots a, b, c, d (bit 0 = a) */
} sass_ctrl_t;

typedef struct sass_insn {
    uint64_t pc;            /* byte offset of the instruction in its section */
    uint64_t raw[2];        /* the two encoding words */
    uint16_t op;            /* sass_op_t */
    uint16_t opc;           /* the 12 opcode bits (0-11) */
    uint8_t guard;          /* guard predicate number; 7 (PT) = always */
    uint8_t guard_not;      /* @!P */
    uint8_t guard_uniform;  /* @UP */
    uint8_t nmods, nopnds;
    uint16_t mods[SASS_MAX_MODS];           /* sass_mod_t, in nvdisasm's print order */
    sass_operand_t opnd[SASS_MAX_OPNDS];    /* destinations first, as nvdisasm prints */
    sass_ctrl_t ctrl;
} sass_insn_t;

/* Decodes the instruction at code[0..15] (len = bytes available from there) for SM `sm`
 * (75, 80, 86, 89) at byte offset pc. On failure *out has op SASS_OP_NONE and, when err is
 * not NULL, err holds a message naming the pc and the opcode bits. */
sass_status_t sass_decode(const uint8_t *code, size_t len, uint64_t pc, unsigned sm,
                          sass_insn_t *out, char *err, size_t errlen);

/* nvdisasm's text of one instruction ("@!P0 IMAD.WIDE R2, R5, 0x4, R2"), without the
 * trailing " ;". Returns the length it needed (snprintf-like). */
int sass_format(const sass_insn_t *in, char *buf, size_t n);

int sass_has_mod(const sass_insn_t *in, sass_mod_t m);
const char *sass_op_name(sass_op_t op);
const char *sass_mod_name(sass_mod_t m);
const char *sass_status_name(sass_status_t st);
/* Name of special register n as nvdisasm prints it (SR_TID.X), NULL when unnamed. */
const char *sass_sreg_name(unsigned n);

#ifdef __cplusplus
}
#endif
#endif
