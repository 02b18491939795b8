/*
 * cubin.h - a CUDA cubin (ELF64, EM_CUDA 190) parsed into what the SASS lifter and the module
 * loader need besides the instruction bits: kernels (code, parameters, resources, the
 * instruction-offset lists of .nv.info), device functions, module variables with their
 * initial bytes, constant banks 2/3/4, relocations with their symbols, the call graph.
 * The ELF and .nv.info layouts, attribute and relocation meanings and the evidence for each
 * are in the header comment of cubin.c; ids and names live in cubin_attrs.def and
 * cubin_relocs.def.
 *
 * Ownership: npu_cubin_parse copies the image; every pointer in the model points into memory
 * the npu_cubin_t owns and stays valid until npu_cubin_free.
 * Validation: every size, offset and index is checked against the image before use; a
 * malformed cubin gives NPU_ECUBIN and one log line naming what is wrong. Attributes the
 * parser does not know are kept raw and counted, never fatal; a known attribute whose value
 * does not have the expected shape is kept raw, counted in bad_attrs and logged.
 * Thread-safety: npu_cubin_parse is reentrant; a parsed cubin is read-only and may be read
 * from any thread.
 */
#ifndef NPU_CUBIN_H
#define NPU_CUBIN_H

#include <stdint.h>
#include <stdio.h>
#include "../npu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NPU_CUBIN_EM_CUDA 190

/* .nv.info attribute ids (EIATTR_*) and R_CUDA_* relocation types: one line each in the
 * .def files. NPU_EIATTR_REGCOUNT, NPU_R_CUDA_ABS32_LO_32 ... */
enum {
#define EIATTR(id, name, desc) NPU_EIATTR_##name = id,
#include "cubin_attrs.def"
#undef EIATTR
};
enum {
#define RCUDA(id, name, pos, bits, shift, desc) NPU_R_CUDA_##name = id,
#include "cubin_relocs.def"
#undef RCUDA
};
const char *npu_cubin_attr_name(unsigned id);   /* "EIATTR_REGCOUNT"; NULL when unknown */
const char *npu_cubin_reloc_name(unsigned type);/* "R_CUDA_ABS32_LO_32"; NULL when unknown */

/* .nv.info record formats (EIFMT_*) */
enum { NPU_EIFMT_NVAL = 1, NPU_EIFMT_BVAL = 2, NPU_EIFMT_HVAL = 3, NPU_EIFMT_SVAL = 4 };

/* One .nv.info record as stored. */
typedef struct npu_cubin_attr {
    uint8_t format;             /* NPU_EIFMT_* */
    uint8_t id;                 /* EIATTR_* */
    uint16_t size;              /* value bytes: SVAL its length field, BVAL 1, HVAL 2, NVAL 0 */
    uint32_t offset;            /* of the record in its section */
    const uint8_t *value;       /* little-endian, size bytes (possibly unaligned) */
} npu_cubin_attr_t;

/* A decoded array of 32-bit words (instruction offsets, register ids ...). */
typedef struct npu_cubin_u32s {
    uint32_t n;
    const uint32_t *v;
} npu_cubin_u32s_t;

/* One kernel parameter (EIATTR_KPARAM_INFO / _V2). */
typedef struct npu_cubin_param {
    uint32_t ordinal;           /* position in the parameter list */
    uint32_t offset;            /* bytes from param_base; pack arguments at exactly these offsets
                                 * (alignment follows the bank address, cubin.c) */
    uint32_t size;              /* bytes */
    uint32_t index;             /* the record's "Index" word (0 in every cubin seen) */
    uint8_t log_align;          /* pointee's log2 alignment (PTX .ptr .align), 0: none */
    uint8_t space;              /* pointee's state space code (PTX .ptr .global/.shared ...), 0: none */
    uint8_t cbank;              /* bank field (0x1f: "the parameter bank") */
    uint8_t in_smem;            /* parameter space SMEM (pre-Volta) rather than a constant bank */
    uint8_t v2;                 /* from EIATTR_KPARAM_INFO_V2 */
} npu_cubin_param_t;

/* One BRX site of EIATTR_INDIRECT_BRANCH_TARGETS. */
typedef struct npu_cubin_ibranch {
    uint32_t offset;            /* of the BRX, bytes from the section start */
    uint16_t field1, field2;    /* two halfwords after the offset, 0 in every cubin seen */
    uint32_t ntargets;
    const uint32_t *targets;    /* possible targets, bytes from the section start */
} npu_cubin_ibranch_t;

/* One record of EIATTR_MBARRIER_INSTR_OFFSETS: 16 bytes, the first word an instruction
 * offset; the others as seen in every sm_90/sm_100 record of torch 2.15: w1 0xff, w2 a
 * multiple of 8 (the mbarrier's shared offset, it seems), w3 0x60100. */
typedef struct npu_cubin_mbarrier {
    uint32_t offset, w1, w2, w3;
} npu_cubin_mbarrier_t;

/* One pair of EIATTR_ATOM16_EMUL_INSTR_REG_MAP / EIATTR_UNUSED_LOAD_BYTE_OFFSET. */
typedef struct npu_cubin_pair {
    uint32_t a, b;
} npu_cubin_pair_t;

/* One relocation. */
typedef struct npu_cubin_reloc {
    uint64_t offset;            /* bytes from the start of the patched section */
    uint32_t type;              /* NPU_R_CUDA_* */
    uint32_t sym;               /* symbol index, 0: none (e.g. R_CUDA_YIELD_*) */
    const char *sym_name;       /* "" when none */
    int64_t addend;             /* RELA: r_addend; REL: 0 (the addend is the field's content) */
    uint16_t section;           /* the patched section (index) */
    uint16_t rel_section;       /* the .rel / .rela section it came from */
    uint8_t rela;
} npu_cubin_reloc_t;

typedef struct npu_cubin_reloc_list {
    uint32_t n;
    const npu_cubin_reloc_t *v;
} npu_cubin_reloc_list_t;

/* One .nv.prototype record (ET_REL): a function and its calling-convention string. */
typedef struct npu_cubin_proto {
    uint32_t sym;
    const char *proto;          /* e.g. "#ill|12p4r20sRx0...fff9" for vprintf */
} npu_cubin_proto_t;

/* A symbol the parser resolved. */
typedef struct npu_cubin_sym {
    const char *name;
    uint64_t value, size;
    uint16_t shndx;             /* 0: undefined */
    uint8_t type, bind, other;  /* STT_*, STB_*, st_other (STO_CUDA_ENTRY 0x10, MANAGED 0x04) */
} npu_cubin_sym_t;

/* Function symbols (kernels and device functions). Resources come from the global .nv.info
 * (keyed by symbol index); has_* says whether the record was there. */
typedef struct npu_cubin_func {
    const char *name;
    uint32_t sym;
    uint16_t section;           /* its .text section (0: undefined, an extern) */
    uint8_t entry;              /* STO_CUDA_ENTRY: a kernel */
    uint8_t bind;               /* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2 */
    uint64_t offset, size;      /* st_value, st_size within the section */
    uint32_t regcount, frame_size, min_stack_size, max_stack_size, crs_stack_size;
    uint8_t has_regcount, has_frame_size, has_min_stack_size, has_max_stack_size,
            has_crs_stack_size;
    /* a function that owns its section (.text.<name>: kernels, and device functions of -rdc
     * objects and of images nvlink linked from them): the section's bytes, the relocations
     * patching it and the records of .nv.info.<name>; NULL/0 otherwise */
    const uint8_t *code;
    uint64_t code_size;
    npu_cubin_reloc_list_t text_relocs;
    uint32_t nattrs;
    const npu_cubin_attr_t *attrs;
} npu_cubin_func_t;

typedef struct npu_cubin_extern {
    uint32_t sym;
    const char *name;           /* vprintf, malloc, free, __assertfail; with dynamic parallelism
                                 * __cudaCDP2GetParameterBufferV2, __cudaCDP2LaunchDeviceV2 and
                                 * the child kernels (-rdc objects) */
} npu_cubin_extern_t;

typedef struct npu_cubin_kernel {
    const char *name;           /* mangled */
    uint32_t sym;
    uint16_t text_section;
    const uint8_t *code;        /* the whole .text.<name> section */
    uint64_t code_size;
    uint64_t entry_offset;      /* st_value: where execution starts (0 in every cubin seen) */
    uint64_t file_offset;       /* of the section in the image, for diagnostics */
    const npu_cubin_func_t *func;   /* its entry in cubin->funcs (global .nv.info resources) */

    /* resources */
    uint32_t regcount;          /* EIATTR_REGCOUNT, else SHI_REGISTERS */
    uint32_t shi_registers;     /* .text sh_info >> 24 (nvdisasm's SHI_REGISTERS) */
    uint32_t num_barriers;      /* EIATTR_NUM_BARRIERS */
    uint32_t maxreg_count;      /* EIATTR_MAXREG_COUNT: .maxnreg, or the limit ptxas derived from
                                 * .minnctapersm (which leaves no other trace); 0xff: none */
    uint32_t max_threads[3];    /* EIATTR_MAX_THREADS (.maxntid), 0 when absent */
    uint32_t reqntid[3];        /* EIATTR_REQNTID (.reqntid), 0 when absent */
    uint32_t cta_per_cluster[3];/* EIATTR_CTA_PER_CLUSTER (.reqnctapercluster), 0 when absent */
    uint32_t max_cluster_rank;  /* EIATTR_MAX_CLUSTER_RANK */
    uint32_t frame_size;        /* stack bytes per thread, callees' frames included (FRAME_SIZE) */
    uint32_t min_stack_size, max_stack_size, crs_stack_size;
    uint32_t shared_size;       /* .nv.shared.<name>: bytes of the CTA's shared window the code
                                 * addresses statically (sm_90: includes the reserved 1 KB) */
    uint32_t shared_base;       /* first byte of the static variables: 0x400 on sm_90, else 0 */
    uint32_t shared_static;     /* static __shared__ bytes (ptxas -v "smem") */
    uint32_t shared_align;
    uint32_t local_size;        /* .nv.local.<name> (0 in every cubin seen: frames live on the stack) */
    uint32_t cmem0_size;        /* .nv.constant0.<name>: driver area + parameters */
    const uint8_t *cmem2;       /* .nv.constant2.<name>: compiler constants, BRX jump tables, */
    uint32_t cmem2_size;        /*   function-pointer slots; NULL/0 when absent */
    uint16_t cmem2_section, shared_section;
    uint32_t cuda_api_version;  /* EIATTR_CUDA_API_VERSION, e.g. 0x82 = 130 for CUDA 13.0 */
    uint32_t sw_war;            /* EIATTR_SW_WAR value */
    uint8_t sw1850030_war, sw2393858_war, sw2861232_war;   /* NVAL flags */
    uint8_t ctaidz_used;        /* EIATTR_CTAIDZ_USED */
    uint8_t explicit_cluster;
    uint8_t need_cnp_wrapper, need_cnp_patch;   /* dynamic parallelism */
    uint16_t mercury_isa_version;   /* EIATTR 0x5f (HVAL; see cubin.c) */
    uint32_t language;          /* EIATTR_LANGUAGE (0x66): 3 in every torch 2.15 kernel */
    uint32_t sparse_mma_mask;
    uint32_t num_mbarriers;     /* EIATTR_NUM_MBARRIERS */
    uint8_t reg_reconfig;       /* EIATTR_REG_RECONFIG (sm_90 setmaxnreg) */

    /* parameters: c[param_bank][param_base + offset] */
    uint32_t param_base;        /* EIATTR_PARAM_CBANK offset: 0x160 sm_75..sm_89 (0x1a80 for blocks
                                 * over 0x1100 bytes), 0x210 sm_90 */
    uint32_t param_bank_size;   /* EIATTR_PARAM_CBANK size */
    uint32_t param_bank_sym;    /* EIATTR_PARAM_CBANK symbol (the .nv.constant0.<name> section) */
    uint32_t param_size;        /* EIATTR_CBANK_PARAM_SIZE */
    uint8_t has_param_cbank, has_param_size;
    uint32_t nparams;
    const npu_cubin_param_t *params;    /* sorted by ordinal */

    /* instruction offsets, bytes from the section start */
    npu_cubin_u32s_t exit_offsets;          /* EIATTR_EXIT_INSTR_OFFSETS */
    npu_cubin_u32s_t s2rctaid_offsets;      /* EIATTR_S2RCTAID_INSTR_OFFSETS */
    npu_cubin_u32s_t syscall_offsets;       /* EIATTR_SYSCALL_OFFSETS: CALLs to externs */
    npu_cubin_u32s_t coop_group_offsets;    /* EIATTR_COOP_GROUP_INSTR_OFFSETS */
    npu_cubin_u32s_t coop_group_mask_regids;/* EIATTR_COOP_GROUP_MASK_REGIDS (not offsets) */
    npu_cubin_u32s_t int_warp_wide_offsets; /* EIATTR_INT_WARP_WIDE_INSTR_OFFSETS */
    npu_cubin_u32s_t ld_cachemod_offsets;   /* EIATTR_LD_CACHEMOD_INSTR_OFFSETS */
    npu_cubin_u32s_t atom_sys_offsets;      /* EIATTR_ATOM_SYS_INSTR_OFFSETS */
    npu_cubin_u32s_t atomf16_emul_offsets;  /* EIATTR_ATOMF16_EMUL_INSTR_OFFSETS */
    npu_cubin_u32s_t stack_canary_offsets;  /* EIATTR_STACK_CANARY_TRAP_OFFSETS */
    uint32_t natom16_emul;
    const npu_cubin_pair_t *atom16_emul;    /* EIATTR_ATOM16_EMUL_INSTR_REG_MAP (offset, reg) */
    uint32_t nunused_load;
    const npu_cubin_pair_t *unused_load;    /* EIATTR_UNUSED_LOAD_BYTE_OFFSET (offset, mask) */
    uint32_t nibranches;
    const npu_cubin_ibranch_t *ibranches;   /* EIATTR_INDIRECT_BRANCH_TARGETS */
    uint32_t nmbarriers;
    const npu_cubin_mbarrier_t *mbarriers;  /* EIATTR_MBARRIER_INSTR_OFFSETS (sm_90+) */
    uint32_t nexterns;
    const npu_cubin_extern_t *externs;      /* EIATTR_EXTERNS */
    uint32_t nannotations;
    const npu_cubin_pair_t *annotations;    /* EIATTR_ANNOTATIONS (kind 1 SpillRefill, offset) */
    uint32_t bad_offsets;       /* listed offsets outside the code (kept, counted) */

    /* every record of .nv.info.<name>, in order */
    uint32_t nattrs;
    const npu_cubin_attr_t *attrs;
    uint32_t unknown_attrs;     /* records whose id cubin_attrs.def does not name */
    uint32_t bad_attrs;         /* known ids whose value has an unexpected shape */

    npu_cubin_reloc_list_t text_relocs;     /* patching .text.<name> (sorted by offset) */
    npu_cubin_reloc_list_t cmem2_relocs;    /* patching .nv.constant2.<name> */
    uint32_t nlocal_funcs;      /* function symbols inside .text.<name> besides the kernel */
    const npu_cubin_func_t *const *local_funcs;
} npu_cubin_kernel_t;

enum {
    NPU_CUBIN_VAR_GLOBAL = 1,   /* .nv.global (zero-filled) or .nv.global.init */
    NPU_CUBIN_VAR_CONST = 2,    /* .nv.constant3: user __constant__ data (bank 3) */
    NPU_CUBIN_VAR_SHARED = 3,   /* a named object in a .nv.shared.* section */
    NPU_CUBIN_VAR_LOCAL = 4,    /* .nv.local.* */
    NPU_CUBIN_VAR_OTHER = 5,    /* another allocated section (.nv.constant4 etc.) */
    NPU_CUBIN_VAR_EXTERN = 6    /* undefined object (ET_REL) */
};

/* A named data object (STT_OBJECT symbol). Offsets are within the section; the module loader
 * lays .nv.global.init and .nv.global out in device memory and applies the relocations of
 * .nv.global.init / .nv.constant4 with the addresses it chose. */
typedef struct npu_cubin_var {
    const char *name;
    uint32_t sym;
    uint8_t kind;               /* NPU_CUBIN_VAR_* */
    uint8_t managed;            /* STO_CUDA_MANAGED (__managed__) */
    uint8_t bind;               /* STB_* */
    uint16_t section;
    uint64_t offset, size;
    const uint8_t *init;        /* initial bytes (size of them), NULL when zero-filled */
} npu_cubin_var_t;

/* A section's bytes (NULL data for NOBITS) and where it is. */
typedef struct npu_cubin_section {
    const char *name;
    uint32_t type;              /* SHT_* (SHT_CUDA_INFO 0x70000000 ...) */
    uint64_t flags;
    uint64_t offset, size, align, entsize;
    uint32_t link, info;
    const uint8_t *data;        /* NULL for NOBITS and empty sections */
} npu_cubin_section_t;

/* One .nv.callgraph record. The section is a list of groups, each opened by a marker pair
 * (0, 0xffffffff - (group - 1)): group 1 calls (caller, callee symbols); group 2 (function
 * symbol, .strtab offset of its calling-convention string: "#vl", "#i" ..., "" for a
 * kernel launched from the device); group 3 (kernel, string) for the kernels that call
 * through function pointers, one per signature they call ("#ili"); group 4 device-side
 * launches (parent kernel, child kernel). Groups 2 and 3 appear in -rdc objects and
 * nvlink'ed images, group 4 with dynamic parallelism. */
typedef struct npu_cubin_edge {
    uint32_t caller, callee;    /* symbol indices (groups 2, 3: callee is the string offset) */
    const char *proto;          /* groups 2, 3: the string; NULL otherwise */
    uint8_t group;
} npu_cubin_edge_t;

typedef struct npu_cubin {
    /* ELF header */
    unsigned sm;                /* 75, 80, 86, 89, 90, 100 ... */
    unsigned elf_type;          /* 2 ET_EXEC (linked, what fatbins carry), 1 ET_REL (-rdc object) */
    unsigned osabi, abi_version;/* 0x41/8 for CUDA 13 (older toolkits: ABI 7, cubin.c) */
    uint32_t e_flags;
    const uint8_t *image;       /* the copy the model points into */
    size_t image_size;

    uint32_t nsections;
    const npu_cubin_section_t *sections;
    uint32_t nsyms;
    const npu_cubin_sym_t *syms;

    uint32_t nkernels;
    const npu_cubin_kernel_t *kernels;  /* in symbol-table order */
    uint32_t nfuncs;
    const npu_cubin_func_t *funcs;      /* every function symbol: kernels, device functions, externs */
    uint32_t nvars;
    const npu_cubin_var_t *vars;        /* every data object symbol */

    /* module data */
    uint16_t global_init_section, global_section, const3_section, const4_section;
    uint64_t global_init_size;          /* .nv.global.init bytes (initialised globals, strings) */
    uint64_t global_size;               /* .nv.global bytes (zero-filled globals) */
    const uint8_t *const3;              /* .nv.constant3 (user __constant__), NULL when absent */
    uint64_t const3_size;
    const uint8_t *const4;              /* .nv.constant4 (addresses filled by R_CUDA_64) */
    uint64_t const4_size;

    uint32_t nrelocs;
    const npu_cubin_reloc_t *relocs;    /* every relocation, grouped by .rel section */
    npu_cubin_reloc_list_t global_init_relocs, const4_relocs, const3_relocs;

    /* the global .nv.info: records other than the per-function resources */
    uint32_t nglobal_attrs;
    const npu_cubin_attr_t *global_attrs;
    uint32_t nedges;
    const npu_cubin_edge_t *callgraph;
    uint32_t callgraph_markers;         /* group markers of .nv.callgraph */
    uint32_t nprotos;
    const npu_cubin_proto_t *protos;    /* .nv.prototype (ET_REL objects) */

    /* tallies over the whole cubin */
    uint32_t attr_count[256];           /* records seen per EIATTR id (all .nv.info sections) */
    uint32_t unknown_attrs, bad_attrs, bad_offsets;
    uint32_t reloc_count[256];          /* relocations per type (types >= 256 in reloc_other) */
    uint32_t reloc_other;

    void *arena_;                       /* private */
} npu_cubin_t;

/* Parses data[0, size) (copied). NPU_ECUBIN when malformed (logged), NPU_EHOSTMEM. */
npu_status_t npu_cubin_parse(const void *data, size_t size, npu_cubin_t **out);
void npu_cubin_free(npu_cubin_t *c);

const npu_cubin_kernel_t *npu_cubin_find_kernel(const npu_cubin_t *c, const char *name);
const npu_cubin_var_t *npu_cubin_find_var(const npu_cubin_t *c, const char *name);
const npu_cubin_func_t *npu_cubin_find_func(const npu_cubin_t *c, const char *name);
/* The relocation that patches byte offset off of a constant bank (2: of kernel k; 3, 4:
 * module-wide), e.g. the c[0x4][0x28] slot a CALL.ABS loads its target from: the extern or
 * variable it names. NULL when none. */
const npu_cubin_reloc_t *npu_cubin_const_reloc(const npu_cubin_t *c,
                                               const npu_cubin_kernel_t *k,
                                               unsigned bank, uint64_t off);

/* Writes value into the field a relocation of this type patches (placement from
 * cubin_relocs.def: bits [pos, pos+bits) of the little-endian word at p, for 64-bit data or
 * 128-bit instructions). For REL relocations the caller adds the field's old content (the
 * implicit addend) itself, see npu_cubin_reloc_field. NPU_ENOTSUP for types whose placement
 * is not established (name logged); p must hold 16 bytes for instruction types, 8 for data. */
npu_status_t npu_cubin_reloc_patch(unsigned type, uint8_t *p, uint64_t value);
/* The current content of that field (the implicit addend of a REL relocation). */
npu_status_t npu_cubin_reloc_field(unsigned type, const uint8_t *p, uint64_t *value);
/* Field placement of a type: bit position and width within the patched word; 0 when not
 * established. */
int npu_cubin_reloc_placement(unsigned type, unsigned *pos, unsigned *bits);

/* Where ptxas expects the values the driver writes into constant bank 0 before the
 * parameters (measured per sm, cubin.c): byte offsets in c[0x0], -1 when the value is not
 * in bank 0 on that sm (it comes from a special register, or from nowhere). */
typedef struct npu_cubin_cbank0 {
    int ntid;               /* u32[3] blockDim (%ntid.x/y/z) */
    int nctaid;             /* u32[3] gridDim (%nctaid.x/y/z) */
    int shared_window;      /* u64 generic address of the CTA's shared memory (cvta.shared) */
    int local_window;       /* u64 generic base of local memory (cvta.local adds R1) */
    int stack_init;         /* u32 initial stack pointer, loaded into R1 by every kernel */
    int dynamic_smem_size;  /* u32 %dynamic_smem_size */
    int gridid;             /* u64 %gridid */
    int envreg;             /* u32[32] %envreg0..31 */
    int nsmid;              /* u32 %nsmid */
    int reserved_smem;      /* u32 reserved shared bytes: %total_smem_size = SR_SMEMSZ - this */
    int aggr_smem;          /* u32 %aggr_smem_size = min(SR_SMEMSZ, this) */
    int mem_desc;           /* u64 global memory descriptor LDG/STG/ATOMG use (ULDC.64) */
    int param_base;         /* parameters, blocks up to 0x1100 bytes (EIATTR_PARAM_CBANK agrees) */
    int param_base_large;   /* parameters, blocks over 0x1100 bytes (KPARAM_INFO_V2 kernels) */
} npu_cubin_cbank0_t;
/* NPU_ENOTSUP for an sm whose layout was not measured (sm_100+ moved everything). */
npu_status_t npu_cubin_cbank0_layout(unsigned sm, npu_cubin_cbank0_t *out);

/* A text dump of the model (sections, symbols, kernels with every decoded field, variables,
 * relocations), one fact per line; the tests compare it with nvdisasm/readelf/ptxas. */
void npu_cubin_dump(const npu_cubin_t *c, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* NPU_CUBIN_H */
