/*
 * ptx_internal.h - the PTX translator's private data model, shared by ptx_parse.c (index +
 * parse), ptx_emit.c (check + lower + emit C), jit.c (compile + disk cache + dlopen) and
 * module.c (npu_kmodule_*). Nothing here is visible outside the runtime.
 * Thread-safety: a ptx_prog_t is owned by its module; module.c serialises translation under
 * the module lock, so none of these functions lock anything themselves.
 */
#ifndef PTX_INTERNAL_H
#define PTX_INTERNAL_H
#include "../npu.h"
#include "npu_kernel.h"

#include <stddef.h>
#include <stdint.h>

#define PTX_TRANSLATOR_VERSION "ptx2c-13"

/* A device "function address" (mov of a .func symbol, or a .func named in a variable's
 * initialiser) is a token: the function's index in ptx_prog_t.funcs, tagged. Every kernel .so
 * that can reach the function resolves the token to its own copy, so pointers stored in
 * device memory work across kernels of a module. Kept below 2^56 and far from host pointers. */
#define PTX_FN_TOKEN(i) (0x00f7000000000000ull | (uint64_t)((i) + 1))

enum { SP_NONE = 0, SP_REG, SP_PARAM, SP_GLOBAL, SP_CONST, SP_SHARED, SP_LOCAL };

/* A declaration: .reg / .param / .shared / .global / .const / .local. */
typedef struct ptx_var {
    char *name;
    int space;
    char type[12];          /* "u32", "f32", "pred", "b8" ... */
    int tsize;              /* bytes of one element (vector included) */
    int vec;                /* 1, 2, 4 */
    int align;
    long long count;        /* elements; 1 for a scalar; -1 for an unsized [] array */
    int nregs;              /* %r<N>: N; 0 for a plain name */
    int is_extern, is_ptr, is_array;
    const char *init;       /* initialiser text after '=' (points into the module text) */
    size_t init_len;
    int line;
    int scope;              /* body scope id: 0 = function level, else the '{' that opened it */
} ptx_var_t;

enum { OP_NONE = 0, OP_REG, OP_IMM, OP_FIMM, OP_DIMM, OP_DEC, OP_SYM, OP_ADDR, OP_VEC,
       OP_LIST, OP_SINK };

typedef struct ptx_opnd {
    int kind;
    int neg;                /* !%p */
    int minus;              /* -%r (vmad's negated operands) */
    char *sel;              /* video-instruction selector without the dot: "b2", "h10", "b3210" */
    char *name;             /* OP_REG/OP_SYM name, OP_ADDR base (NULL for an absolute address) */
    char *name2;            /* second destination of "a|b" */
    long long off;          /* OP_ADDR / OP_SYM offset */
    uint64_t imm;           /* OP_IMM value, OP_FIMM/OP_DIMM bits */
    double dval;            /* OP_DEC */
    int base_is_imm;        /* OP_ADDR [imm] */
    int nelem;
    struct ptx_opnd *elem;  /* OP_VEC / OP_LIST */
} ptx_opnd_t;

#define PTX_MAXMODS 12
#define PTX_MAXOPS 8
typedef struct ptx_insn {
    int line;
    int is_label;           /* 1 label, 2 '{' opening scope `scope`, 3 '}' */
    int scope;
    char *label;            /* label name when is_label == 1 */
    char *pred;             /* guard predicate register or NULL */
    int pred_neg;
    char *opcode;           /* full text, "ld.global.u32" */
    char *mods[PTX_MAXMODS];/* split on '.', mods[0] = base opcode */
    int nmods;
    ptx_opnd_t ops[PTX_MAXOPS];
    int nops;
    int bad_ops;            /* operands did not parse (reported by check) */
    uint8_t lockstep;       /* the entry's warp steps in lockstep before this access (ptx_lockstep.c) */
} ptx_insn_t;

typedef struct ptx_func {
    char *name;
    int is_entry, is_decl, is_visible, is_weak, is_extern;
    int text_id;
    ptx_var_t *params; int nparams;
    ptx_var_t *rets; int nrets;
    const char *text; size_t text_len;   /* whole definition (for dumps) */
    const char *body; size_t body_len;   /* inside the braces */
    int line, body_line;
    uint32_t maxntid[3], reqntid[3], minnctapersm, maxnreg;
    /* filled by ptx_parse_func */
    int parsed;
    int lockstep_done, nlockstep;        /* ptx_lockstep_mark ran (it rewrites insns once) */
    int lifted;                          /* the body came from the SASS front end (ptx_webs runs) */
    npu_status_t parse_status;
    ptx_insn_t *insns; int ninsns;
    ptx_var_t *locals; int nlocals;      /* .reg/.param/.local/.shared declared in the body */
} ptx_func_t;

typedef struct ptx_prog {
    char **texts; int ntexts;            /* comment-stripped copies */
    ptx_func_t *funcs; int nfuncs;
    ptx_var_t *vars; int nvars;          /* module-scope variables */
    unsigned version, target_sm, addr_size;
    void *arena;                         /* strings and arrays, freed with the program */
} ptx_prog_t;

/* Result of translating one entry. */
typedef struct ptx_out {
    char *csrc; size_t clen;             /* generated C (malloc'ed) */
    int uses_sync;
    uint32_t static_shared, local_size;
    int nglobals;                        /* the .so exports npu_globals[nglobals] filled by
                                          * module.c in the order of global_names */
    char **global_names;                 /* malloc'ed array of pointers into the program */
} ptx_out_t;

/* ptx_parse.c */
npu_status_t ptx_index(ptx_prog_t *p, const char *const *texts, const size_t *lens, int n);
npu_status_t ptx_parse_func(ptx_prog_t *p, ptx_func_t *f);
void ptx_prog_free(ptx_prog_t *p);
void *ptx_alloc(ptx_prog_t *p, size_t n);            /* zeroed, lives as long as p */
char *ptx_strndup(ptx_prog_t *p, const char *s, size_t n);
int ptx_type_size(const char *t);                    /* bytes of a PTX type name, 0 if unknown */
ptx_func_t *ptx_find_func(ptx_prog_t *p, const char *name);  /* prefers a definition */
ptx_var_t *ptx_find_var(ptx_prog_t *p, const char *name);    /* prefers a definition */
int ptx_dump_enabled(const char *pass);              /* NPU_PTX_DUMP names this pass (or "all") */

/* ptx_lockstep.c: marks the accesses of an entry before which a warp must step in lockstep and
 * inserts the reconvergence pseudo-instructions "__rspush ID" (before a branch) and "__reconv"
 * (at the branch's immediate post-dominator, ID = its own index); returns the number of
 * lockstep points (0: none, nothing inserted), -1 when out of memory (nothing marked). Runs
 * once per function: later calls return the first answer. */
int ptx_lockstep_mark(ptx_prog_t *p, ptx_func_t *f);

/* ptx_regs.c: whether in's base opcode is in the NULL-terminated set; the opcodes whose first
 * operand is not a destination, and those that end a basic block (shared by ptx_webs.c). */
int ptx_base_is(const ptx_insn_t *in, const char *const *set);
extern const char *const ptx_no_dest[], *const ptx_ends_block[];

/* ptx_webs.c: splits the registers of a parsed lifted body into webs (one register per set of
 * definitions reaching common uses); returns the number of new registers, -1 when skipped. */
int ptx_webs(ptx_prog_t *p, ptx_func_t *f);

/* ptx_emit.c: check + lower + emit for one entry (parses the functions it needs). */
npu_status_t ptx_translate(ptx_prog_t *p, ptx_func_t *entry, ptx_out_t *out);
void ptx_out_free(ptx_out_t *o);
/* Packed kernel-parameter layout: declared/natural alignment, in order; total aligned to 8. */
void ptx_param_layout(const ptx_func_t *f, npu_kparam_t *out, uint32_t *total);

/* ptx_regs.c: registers a GPU would give the (parsed) function, and that estimate under the
 * limits ptxas obeys (.maxnreg, CU_JIT_MAX_REGISTERS, launch bounds; 0 = no such limit). */
uint32_t ptx_reg_estimate(const ptx_func_t *f);
uint32_t ptx_reg_limit(uint32_t estimate, uint32_t maxnreg, uint32_t jit_max,
                       const uint32_t maxntid[3], uint32_t minnctapersm);

/* jit.c: compile C source to a shared object in the disk cache and dlopen it. */
typedef struct npu_jit_result {
    void *handle;
    int from_cache;
    uint64_t compile_ns;
    char path[512];
} npu_jit_result_t;
npu_status_t npu_jit_load(const char *csrc, size_t len, const char *what, int private_copy,
                          npu_jit_result_t *out);
void npu_jit_hash128(const void *data, size_t len, uint64_t out[2]);
const char *npu_jit_flags(void);

#endif
