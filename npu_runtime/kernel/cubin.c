/*
 * cubin.c - parse a CUDA cubin (ELF64, EM_CUDA) into the model of cubin.h.
 *
 * Everything below was measured on nvcc/ptxas/nvlink 13.0 output for sm_75, 80, 86, 87, 88,
 * 89 and 90 (whole-program, -rdc=true objects and nvlink'ed images) and on the 2,981 cubins
 * of PyPI torch 2.15.0 (libtorch_cuda.so), with NVIDIA's nvdisasm 13.5 (PyPI
 * nvidia-cuda-nvdisasm), binutils readelf and ptxas -v as the references;
 * tests/cubin/check_cubin.py re-checks each statement marked [t] on every run.
 *
 * ELF header. ELF64, little-endian, e_machine 190. CUDA 13 writes OSABI 0x41, ABI version 8
 * and keeps the SASS arch in e_flags bits 8..15 (0x6004b04 sm_75, 0x6005004 sm_80, 0x6005a04
 * sm_90 and sm_90a alike, 0x6006402 sm_100); older toolkits (ABI 7, OSABI 0x33) keep it in bits
 * 0..7 with the virtual arch in 16..23 (EF_CUDA_SM / EF_CUDA_VIRTUAL_SM of public cubin
 * writers). e_type ET_EXEC for what fatbins carry, ET_REL for -rdc objects [t].
 *
 * Sections (per kernel K unless said otherwise):
 *   .text.K            code; sh_info = SHI_REGISTERS << 24 | symbol index on sm_75..89, the
 *                      symbol index alone on sm_90 [t]. A kernel's callees are cloned into its
 *                      section as LOCAL FUNC symbols "$K$callee" (CALL.REL), weak runtime
 *                      helpers likewise ($__internal_0_$__cuda_sm70_barrier_sync_0); -rdc
 *                      objects and nvlink'ed images give device functions sections of their own.
 *   .nv.info           CUDA_INFO 0x70000000, per-function resources keyed by symbol index:
 *                      REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE (MAX_STACK_SIZE) {u32 sym, u32 v}.
 *   .nv.info.K         CUDA_INFO with SHF_INFO_LINK, sh_info = .text.K: the records below.
 *   .nv.constant0.K    bank 0 as ptxas lays it out: driver area, then the parameters; its size
 *                      is ptxas -v's cmem[0] = param base + CBANK_PARAM_SIZE [t].
 *   .nv.constant2.K    compiler constants (cmem[2]): 64-bit literals, BRX jump tables (u32
 *                      code offsets into .text.K), function-pointer slots (see below).
 *   .nv.constant3      user __constant__ data with OBJECT symbols (cmem[3]) [t].
 *   .nv.constant4      8-byte slots filled through R_CUDA_64: addresses of globals, strings and
 *                      externs (vprintf, malloc, free, __assertfail) that code loads as
 *                      c[0x4][off] (CALL.ABS.NOINC of a register holding c[0x4][slot]) [t].
 *   .nv.shared.K       NOBITS, static __shared__ bytes; on sm_90 it also spans the 1 KB the
 *                      system reserves at the start of every CTA's window (variables from 0x400,
 *                      every sm_90 cubin has an empty .nv.shared.reserved.0) [t].
 *   .nv.global         NOBITS, zero-initialised module variables; .nv.global.init holds the
 *                      initialised ones and string literals ($str, __unnamed_N); ptxas -v's
 *                      "gmem" is the sum of both [t].
 *   .nv.local.K        not produced by nvcc 13: frames live on the stack (FRAME_SIZE).
 *   .nv.callgraph      CUDA_CALLGRAPH 0x70000001: {u32, u32} pairs in four groups opened by
 *                      (0, 0xffffffff..0xfffffffc): calls, prototypes, indirect-call
 *                      signatures, device-side launches (npu_cubin_edge_t) [t].
 *   .nv.prototype      CUDA_PROTOTYPE 0x70000002, -rdc objects: {u32 sym, u32 .strtab offset}
 *                      of calling-convention strings ("#ill|12p4r20sRx..." for vprintf).
 *   .nv.rel.action 0x7000000b, .nv.compat 0x70000086 (sm_90+), .note.nv.tkinfo/cuinfo,
 *   .debug_frame: kept as sections, not decoded.
 *   -rdc objects use CUDA section types: 0x70000064 + n for .nv.constantN, 0x70000007
 *   .nv.global, 0x70000008 .nv.global.init, 0x7000000a .nv.shared.K; 7/9/a/0x15 occupy no
 *   file bytes (they share their offset with the next section), like NOBITS.
 *
 * Symbols. st_other 0x10 STO_CUDA_ENTRY marks kernels, 0x04 STO_CUDA_MANAGED __managed__
 * variables [t]; -rdc objects type data as STT_CUDA_OBJECT (13) and give shared variables
 * their alignment in st_value (the linker places them).
 *
 * .nv.info records: u8 format, u8 id, then NVAL nothing, BVAL one byte, HVAL a u16 (each
 * fills a 4-byte slot), SVAL a u16 length and that many bytes; records start 4-aligned (every
 * SVAL length in torch 2.15's sm_75/80/90 cubins is a multiple of 4) [t: boundaries and bytes
 * equal nvdisasm's listing]. Ids, names and value shapes: cubin_attrs.def. Decoded here:
 *   KPARAM_INFO 0x17  {u32 index, u16 ordinal, u16 offset, u32 w}: w bits 0..7 log2 of the
 *       pointee alignment, 8..11 pointee state space, 12..16 bank (0x1f), 17 parameter space
 *       (0 constant bank, 1 SMEM), 18..31 size in bytes (bit layout also in VivekPanyam/
 *       cudaparsers). Space codes, from PTX .ptr annotations: 1 .local, 2 .shared, 3 .const
 *       (4 on sm_90), 4 .global, 5 generic; 0 for a non-pointer [t]. nvcc writes no .ptr, so
 *       CUDA C parameters carry no pointer hint.
 *   KPARAM_INFO_V2 0x45  {u32 index, u16 ordinal, u16 offset, u32 size}: every parameter of a
 *       kernel whose block exceeds 0x1100 bytes (CUDA 12.1 large parameters, to 32764 bytes;
 *       4352 keeps KPARAM_INFO, 4356 gets V2) [t].
 *   PARAM_CBANK 0x0a  {u32 symbol of .nv.constant0.K, u16 base, u16 size}: parameters live at
 *       c[0x0][base + offset]; base 0x160 (sm_75..89) or 0x210 (sm_90), and 0x1a80 on
 *       sm_75..89 for V2 blocks [t]. A parameter's alignment applies to its address in the
 *       bank, not to its offset: `.param .align 64 .b8 h[8]` after 0x34 bytes sits at +0x60 on
 *       sm_80 (bank 0x1c0) and +0x70 on sm_90 (bank 0x280) [t].
 *   CBANK_PARAM_SIZE 0x19 HVAL: end of the last parameter (not rounded).
 *   MAX_THREADS 0x05 / REQNTID 0x10 / CTA_PER_CLUSTER 0x3d: u32[3] of .maxntid
 *       (__launch_bounds__), .reqntid, .reqnctapercluster; MAX_CLUSTER_RANK 0x3f u32,
 *       EXPLICIT_CLUSTER 0x3e NVAL [t]. .minnctapersm (__launch_bounds__' second argument)
 *       leaves no record: ptxas turns it into MAXREG_COUNT 0x1b (.maxntid 256 + .minnctapersm 4
 *       -> 64 registers), 0xff when nothing limits [t].
 *   Resources: the register count is REGCOUNT of the global .nv.info (= ptxas "Used N
 *       registers" = SHI_REGISTERS where present) [t]. An entry's FRAME_SIZE is its whole
 *       stack with its callees' frames: ptxas's "cumulative stack size" [t] (an entry with a
 *       40-byte frame calling a 120-byte one: FRAME_SIZE = MIN_STACK_SIZE = 160); on sm_90 the records of $K$callee
 *       clones repeat K's value. CRS_STACK_SIZE 0x1e u32. NUM_BARRIERS 0x4c BVAL = ptxas
 *       "used N barriers" [t].
 *   Instruction offsets (bytes from the section start) [t: nvdisasm shows that instruction]:
 *       EXIT_INSTR_OFFSETS 0x1c (EXIT), SYSCALL_OFFSETS 0x46 (the CALL.ABS.NOINC of an
 *       extern; EXTERNS 0x0f lists the externs' symbols), INDIRECT_BRANCH_TARGETS 0x34
 *       ({u32 BRX offset, u16 0, u16 0, u32 n, u32 targets[n]}: nvdisasm's BRANCH_TARGETS),
 *       COOP_GROUP_INSTR_OFFSETS 0x28 (BAR.SYNC and CALLs of the grid-sync helper; 0x29 holds
 *       one register id or 0xffffffff per entry), INT_WARP_WIDE_INSTR_OFFSETS 0x31 (VOTEU,
 *       SHFL), S2RCTAID 0x1d, MBARRIER_INSTR_OFFSETS 0x39 (16-byte records, sm_90+),
 *       ATOM16_EMUL_INSTR_REG_MAP 0x2e and UNUSED_LOAD_BYTE_OFFSET 0x44 (pairs),
 *       ANNOTATIONS 0x55 ({kind 1 = SpillRefill, offset} pairs). An offset outside the code
 *       is kept and counted in bad_offsets.
 *   Flags and versions: CTAIDZ_USED 0x04 (not written for sm_90 [t]), SW2861232_WAR 0x35
 *       NVAL (sm_80..89), SW_WAR 0x36 u32 (1 on sm_75, 8 on sm_90), CUDA_API_VERSION 0x37
 *       (0x82 nvcc 13.0, 0x84 torch's 13.2), 0x5f HVAL in every kernel (0 before sm_90, 0x101
 *       on sm_90; cuobjdump 13.1 calls it MERCURY_ISA_VERSION), LANGUAGE 0x66 (3 in every
 *       torch kernel), 0x6b HVAL 0x0100 in every sm_90+ kernel (unnamed by nvdisasm 13.5, kept
 *       raw and counted as unknown).
 *
 * Driver area of bank 0 (npu_cubin_cbank0_layout) [t: ptxas for each special register]:
 *   sm_75..89: 0x0 %ntid.xyz, 0xc %nctaid.xyz, 0x18 u64 shared window (cvta.shared adds it),
 *   0x20 u64 local window (cvta.local adds it to R1), 0x28 initial stack pointer (every kernel
 *   starts MOV R1, c[0x0][0x28]), 0x2c %dynamic_smem_size, 0x30 u64 %gridid, 0x88 + 4i
 *   %envreg<i>, 0x10c %nsmid, 0x114 reserved shared bytes (%total_smem_size = SR_SMEMSZ -
 *   c[0x114]; not on sm_75), 0x118 u64 the global memory descriptor every LDG/STG/ATOMG
 *   names through ULDC.64 (sm_80+: the 24k-kernel census read), parameters at 0x160.
 *   sm_90: the same to 0x30, %envreg at 0x40 + 4i, 0x10c, 0x114, %aggr_smem_size =
 *   min(SR_SMEMSZ, c[0x13c]), descriptor 0x208, parameters 0x210; the shared window comes from
 *   SR_SWINHI and the CTA rank (SR_CgaCtaId << 24), not from bank 0. Special registers read
 *   with S2R/CS2R (%smid, %laneid, %clock64, %globaltimer, %lanemask_*) use no bank 0 slot.
 *   sm_100/120 moved everything (ntid 0x360, parameters 0x380...): not in the table.
 *
 * Function pointers. In a whole-program cubin a device function pointer (a __device__ table
 * of function pointers, a vtable of a class used by two kernels) holds an offset into the
 * calling kernel's .nv.constant2, whose 64-bit entry there is the code offset of that
 * kernel's clone: CALL.REL.NOINC through LDC.64 c[0x2][ptr] [t: vtab, _ZTV4Base]. A vtable
 * used by one kernel holds the clones' code offsets directly. On sm_90 the slots carry
 * R_CUDA_UNIFIED relocations naming the function instead [t].
 *
 * Relocations (cubin_relocs.def: types, names, field placement). .rel sections keep the
 * addend in the patched field, .rela sections in r_addend. What appears where:
 *   nvcc whole-program ET_EXEC: R_CUDA_64 in .nv.constant4 and .debug_frame, R_CUDA_G64 in
 *     .nv.global.init (gp = &garr[2]: garr + 8) [t], R_CUDA_UNIFIED in .nv.constant2 (sm_90),
 *     empty .rela.text.K sections on sm_90. torch 2.15 sm_75/80: R_CUDA_64 only (145,582).
 *   nvlink'ed images keep what the driver resolves at load: R_CUDA_ABS32_LO_32/HI_32 (a
 *     variable's or a return address's halves into MOV/UMOV immediates), R_CUDA_ABS47_34
 *     (sm_75-89) / ABS55_16_34 (sm_90) CALL.ABS targets, to externs and to device functions
 *     of other objects [t: k_rdc -> f1].
 *   -rdc objects add R_CUDA_CONST_FIELD21_38 (c[bank][off] operands of .nv.constant2 slots),
 *     ABS16_32 (bank-3 offsets of __constant__ variables), ABS24_40 / ABS32_32 (shared
 *     addresses), YIELD_OPCODE9_0 + YIELD_CLEAR_PRED4_87 (a YIELD the linker may turn into
 *     NOP), UNUSED_CLEAR64 (.debug_frame), ABS56_16_34 (sm_90 CALL.ABS Rn + offset).
 *
 * Robustness: every section, symbol, string, relocation and record is bounds-checked against
 * the image before use (64-bit arithmetic, no wrap); the first violation ends the parse with
 * NPU_ECUBIN and one log line. The image is copied into a block of exactly its size, so
 * ASan/valgrind see a stray read (tests/fuzz/fuzz_cubin.c).
 * Thread-safety: no shared state; a parsed cubin is immutable.
 */
#include "cubin.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ELF constants (no <elf.h> dependency: the values are the ELF spec's) */
#define ET_REL          1
#define ET_EXEC         2
#define SHT_PROGBITS    1
#define SHT_SYMTAB      2
#define SHT_STRTAB      3
#define SHT_RELA        4
#define SHT_NOBITS      8
#define SHT_REL         9
#define SHT_CUDA_INFO       0x70000000u
#define SHT_CUDA_CALLGRAPH  0x70000001u
#define SHT_CUDA_PROTOTYPE  0x70000002u
#define SHT_CUDA_GLOBAL     0x70000007u
#define SHT_CUDA_LOCAL      0x70000009u
#define SHT_CUDA_SHARED     0x7000000au
#define SHT_CUDA_RESERVED_SHARED 0x70000015u
#define SHF_EXECINSTR   0x4
#define SHF_INFO_LINK   0x40
#define STT_OBJECT      1
#define STT_FUNC        2
#define STT_SECTION     3
#define STT_CUDA_OBJECT 13
#define STO_CUDA_ENTRY   0x10
#define STO_CUDA_MANAGED 0x04
#define SHN_LORESERVE   0xff00
#define SHN_XINDEX      0xffff

/* ------------------------------------------------------------------ tables ---- */

const char *npu_cubin_attr_name(unsigned id)
{
    switch (id) {
#define EIATTR(i, name, desc) case i: return "EIATTR_" #name;
#include "cubin_attrs.def"
#undef EIATTR
    default: return NULL;
    }
}

const char *npu_cubin_reloc_name(unsigned type)
{
    switch (type) {
#define RCUDA(i, name, pos, bits, shift, desc) case i: return "R_CUDA_" #name;
#include "cubin_relocs.def"
#undef RCUDA
    default: return NULL;
    }
}

typedef struct rplace {
    uint8_t pos, bits, shift;
} rplace_t;

static int reloc_place(unsigned type, rplace_t *p)
{
    switch (type) {
#define RCUDA(i, name, ps, bt, sh, desc) \
    case i: p->pos = ps; p->bits = bt; p->shift = sh; return bt != 0;
#include "cubin_relocs.def"
#undef RCUDA
    default: return 0;
    }
}

/* The two CALL.ABS types whose field is split: low 8 bits of (v >> 2) at [16, 24), the rest
 * from bit 34. */
static int reloc_split(unsigned type)
{
    return type == NPU_R_CUDA_ABS55_16_34 || type == NPU_R_CUDA_ABS56_16_34;
}

/* Bytes a relocation of this type touches: 16 for an instruction field, 8 for data. */
static unsigned reloc_width(unsigned type)
{
    rplace_t p;
    if (!reloc_place(type, &p))
        return 1;
    if (reloc_split(type))
        return 16;
    return p.pos + p.bits > 64 || p.pos >= 32 ? 16 : p.bits > 32 ? 8 : (p.bits > 8 ? 4 : 2);
}

int npu_cubin_reloc_placement(unsigned type, unsigned *pos, unsigned *bits)
{
    rplace_t p;
    if (!reloc_place(type, &p)) {
        if (pos) *pos = 0;
        if (bits) *bits = 0;
        return 0;
    }
    if (pos) *pos = p.pos;
    if (bits) *bits = p.bits;
    return 1;
}

/* bits [pos, pos+n) of a little-endian 128-bit word */
static uint64_t bits_get(const uint8_t *p, unsigned pos, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned b = pos + i;
        v |= (uint64_t)((p[b >> 3] >> (b & 7)) & 1) << i;
    }
    return v;
}

static void bits_set(uint8_t *p, unsigned pos, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned b = pos + i;
        uint8_t m = (uint8_t)(1u << (b & 7));
        if ((v >> i) & 1)
            p[b >> 3] |= m;
        else
            p[b >> 3] &= (uint8_t)~m;
    }
}

npu_status_t npu_cubin_reloc_patch(unsigned type, uint8_t *p, uint64_t value)
{
    rplace_t r;
    if (!p)
        return NPU_EINVAL;
    if (!reloc_place(type, &r)) {
        const char *n = npu_cubin_reloc_name(type);
        NPU_WARN("cubin: relocation type %s (0x%x) has no established field placement",
                 n ? n : "unknown", type);
        return NPU_ENOTSUP;
    }
    uint64_t v = value >> r.shift;
    if (reloc_split(type)) {
        bits_set(p, 16, 8, v & 0xff);
        bits_set(p, 34, r.bits - 8u, v >> 8);
    } else {
        bits_set(p, r.pos, r.bits, r.bits == 64 ? v : v & ((1ull << r.bits) - 1));
    }
    return NPU_OK;
}

npu_status_t npu_cubin_reloc_field(unsigned type, const uint8_t *p, uint64_t *value)
{
    rplace_t r;
    if (!p || !value)
        return NPU_EINVAL;
    if (!reloc_place(type, &r))
        return NPU_ENOTSUP;
    uint64_t v;
    if (reloc_split(type))
        v = bits_get(p, 16, 8) | bits_get(p, 34, r.bits - 8u) << 8;
    else
        v = bits_get(p, r.pos, r.bits);
    *value = v << r.shift;
    return NPU_OK;
}

/* ------------------------------------------------------------------- arena ---- */

typedef struct ablk {
    struct ablk *next;
    size_t used, cap;
    max_align_t data[];
} ablk_t;

typedef struct arena {
    ablk_t *head;
    int oom;
} arena_t;

/* n zeroed bytes that live until the arena is freed; NULL (and a->oom) when out of memory */
static void *ar_alloc(arena_t *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        ablk_t *b = malloc(sizeof *b + cap);
        if (!b) {
            a->oom = 1;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

static void *ar_array(arena_t *a, size_t n, size_t elem)
{
    if (n && elem > SIZE_MAX / n) {
        a->oom = 1;
        return NULL;
    }
    return ar_alloc(a, n * elem);
}

static void ar_free(arena_t *a)
{
    ablk_t *b = a->head;
    while (b) {
        ablk_t *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

/* ------------------------------------------------------------------ parser ---- */

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

typedef struct cb {
    npu_cubin_t *c;
    arena_t *ar;
    const uint8_t *img;
    size_t size;
    npu_cubin_section_t *sec;
    uint32_t nsec;
    npu_cubin_sym_t *sym;
    uint32_t nsym;
    int32_t *sym_func;          /* symbol -> index in funcs, -1 */
    int32_t *sec_kernel;        /* text section -> index in kernels, -1 */
    int32_t *sec_owner;         /* text section -> function owning it (offset 0, named after it), -1 */
    npu_cubin_reloc_list_t *sec_relocs; /* per patched section, sorted by offset */
    npu_cubin_func_t *funcs;
    npu_cubin_kernel_t *kernels;
    char err[256];
} cb_t;

static npu_status_t cb_bad(cb_t *cb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static npu_status_t cb_bad(cb_t *cb, const char *fmt, ...)
{
    if (!cb->err[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(cb->err, sizeof cb->err, fmt, ap);
        va_end(ap);
    }
    return NPU_ECUBIN;
}

#define OOM(cb) ((cb)->ar->oom)

/* Sections that occupy no file bytes: SHT_NOBITS, and in -rdc objects (ET_REL) the CUDA
 * types of uninitialised data, which share their file offset with the next section (nvcc 13
 * -rdc: .nv.global and .nv.shared.<K> both at the end of the section data). */
static int no_file_bytes(uint32_t type)
{
    return type == SHT_NOBITS || type == SHT_CUDA_GLOBAL || type == SHT_CUDA_LOCAL ||
           type == SHT_CUDA_SHARED || type == SHT_CUDA_RESERVED_SHARED;
}

/* [off, off+len) inside [0, size)? */
static int in_range(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

/* NUL-terminated string at off of a string table section, or NULL */
static const char *strtab_at(const npu_cubin_section_t *s, uint64_t off)
{
    if (!s->data || off >= s->size)
        return NULL;
    const char *p = (const char *)s->data + off;
    return memchr(p, 0, (size_t)(s->size - off)) ? p : NULL;
}

static npu_status_t parse_header(cb_t *cb)
{
    const uint8_t *e = cb->img;
    npu_cubin_t *c = cb->c;
    if (cb->size < 64)
        return cb_bad(cb, "%zu bytes, shorter than an ELF64 header", cb->size);
    if (memcmp(e, "\177ELF", 4) != 0)
        return cb_bad(cb, "no ELF magic");
    if (e[4] != 2 || e[5] != 1)
        return cb_bad(cb, "not a little-endian ELF64 (class %u, data %u)", e[4], e[5]);
    if (rd16(e + 18) != NPU_CUBIN_EM_CUDA)
        return cb_bad(cb, "e_machine %u is not EM_CUDA (190)", rd16(e + 18));
    c->elf_type = rd16(e + 16);
    c->osabi = e[7];
    c->abi_version = e[8];
    c->e_flags = rd32(e + 48);
    /* sm: ABI version 8 (CUDA 13, OSABI 0x41) keeps it in e_flags bits 8..15 (0x6004b04 is
     * sm_75, 0x6005a04 sm_90, 0x6006402 sm_100); older ABIs (7, OSABI 0x33) in bits 0..7
     * with the virtual arch in bits 16..23 (EF_CUDA_SM / EF_CUDA_VIRTUAL_SM). */
    c->sm = c->abi_version >= 8 ? (c->e_flags >> 8) & 0xff : c->e_flags & 0xff;
    uint64_t shoff = rd64(e + 40);
    uint16_t shentsize = rd16(e + 58);
    uint32_t shnum = rd16(e + 60);
    uint32_t shstrndx = rd16(e + 62);
    if (shoff == 0)
        return cb_bad(cb, "no section headers");
    if (shentsize != 64)
        return cb_bad(cb, "e_shentsize %u, expected 64", shentsize);
    if (!in_range(shoff, 64, cb->size))
        return cb_bad(cb, "section headers at 0x%" PRIx64 " past the end (%zu bytes)", shoff, cb->size);
    /* ELF extended numbering: counts that do not fit live in section header 0 */
    if (shnum == 0)
        shnum = (uint32_t)(rd64(e + shoff + 32) > 0xffffff ? 0xffffff : rd64(e + shoff + 32));
    if (shstrndx == SHN_XINDEX)
        shstrndx = rd32(e + shoff + 40);
    if (shnum == 0 || !in_range(shoff, (uint64_t)shnum * 64, cb->size))
        return cb_bad(cb, "%u section headers at 0x%" PRIx64 " do not fit in %zu bytes", shnum,
                      shoff, cb->size);
    if (shstrndx >= shnum)
        return cb_bad(cb, "e_shstrndx %u out of %u sections", shstrndx, shnum);
    /* Symbols name sections in 16 bits; past SHN_LORESERVE they would need SHT_SYMTAB_SHNDX,
     * which no cubin seen has (torch's largest holds a few thousand sections). */
    if (shnum >= SHN_LORESERVE)
        return cb_bad(cb, "%u sections: more than this loader indexes (%u)", shnum, SHN_LORESERVE - 1);
    cb->nsec = shnum;
    cb->sec = ar_array(cb->ar, shnum, sizeof *cb->sec);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *h = e + shoff + 64ull * i;
        npu_cubin_section_t *s = &cb->sec[i];
        s->type = rd32(h + 4);
        s->flags = rd64(h + 8);
        s->offset = rd64(h + 24);
        s->size = rd64(h + 32);
        s->link = rd32(h + 40);
        s->info = rd32(h + 44);
        s->align = rd64(h + 48);
        s->entsize = rd64(h + 56);
        if (i == 0)
            continue;
        if (!no_file_bytes(s->type) && s->size) {
            if (!in_range(s->offset, s->size, cb->size))
                return cb_bad(cb, "section %u: [0x%" PRIx64 ", +0x%" PRIx64 ") past the end (%zu bytes)",
                              i, s->offset, s->size, cb->size);
            s->data = e + s->offset;
        }
    }
    const npu_cubin_section_t *shs = &cb->sec[shstrndx];
    if (shs->type != SHT_STRTAB || !shs->data)
        return cb_bad(cb, "section name table %u is not a string table", shstrndx);
    for (uint32_t i = 0; i < shnum; i++) {
        uint32_t off = rd32(e + shoff + 64ull * i);
        const char *n = strtab_at(shs, off);
        if (!n)
            return cb_bad(cb, "section %u: name offset %u outside .shstrtab", i, off);
        cb->sec[i].name = n;
    }
    return NPU_OK;
}

static npu_status_t parse_symbols(cb_t *cb)
{
    uint32_t symtab = 0;
    for (uint32_t i = 1; i < cb->nsec; i++)
        if (cb->sec[i].type == SHT_SYMTAB) {
            symtab = i;
            break;
        }
    if (!symtab)
        return cb_bad(cb, "no symbol table");
    const npu_cubin_section_t *st = &cb->sec[symtab];
    if (st->entsize != 24 || st->size % 24 || !st->data)
        return cb_bad(cb, "symbol table entsize %" PRIu64 ", size %" PRIu64, st->entsize, st->size);
    if (st->link == 0 || st->link >= cb->nsec || cb->sec[st->link].type != SHT_STRTAB)
        return cb_bad(cb, "symbol table links to section %u, not a string table", st->link);
    const npu_cubin_section_t *str = &cb->sec[st->link];
    cb->nsym = (uint32_t)(st->size / 24);
    cb->sym = ar_array(cb->ar, cb->nsym, sizeof *cb->sym);
    cb->sym_func = ar_array(cb->ar, cb->nsym, sizeof *cb->sym_func);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    for (uint32_t i = 0; i < cb->nsym; i++) {
        const uint8_t *p = st->data + 24ull * i;
        npu_cubin_sym_t *s = &cb->sym[i];
        uint32_t name = rd32(p);
        s->name = strtab_at(str, name);
        if (!s->name)
            return cb_bad(cb, "symbol %u: name offset %u outside the string table", i, name);
        s->type = p[4] & 0xf;
        s->bind = p[4] >> 4;
        s->other = p[5];
        s->shndx = rd16(p + 6);
        s->value = rd64(p + 8);
        s->size = rd64(p + 16);
        if (s->shndx < SHN_LORESERVE && s->shndx >= cb->nsec)
            return cb_bad(cb, "symbol %u (%s): section %u out of %u", i, s->name, s->shndx, cb->nsec);
        if (s->shndx >= SHN_LORESERVE)
            s->shndx = 0;               /* SHN_ABS, SHN_COMMON: no section of ours */
        if (s->type == STT_SECTION && !s->name[0] && s->shndx)
            s->name = cb->sec[s->shndx].name;
        cb->sym_func[i] = -1;
    }
    cb->c->nsyms = cb->nsym;
    cb->c->syms = cb->sym;
    return NPU_OK;
}

static int reloc_cmp(const void *a, const void *b)
{
    const npu_cubin_reloc_t *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->type < y->type ? -1 : x->type > y->type;
}

static npu_status_t parse_relocs(cb_t *cb)
{
    npu_cubin_t *c = cb->c;
    uint64_t total = 0;
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        if (s->type != SHT_REL && s->type != SHT_RELA)
            continue;
        uint64_t es = s->type == SHT_REL ? 16 : 24;
        if ((s->entsize && s->entsize != es) || s->size % es)
            return cb_bad(cb, "%s: entsize %" PRIu64 ", size %" PRIu64, s->name, s->entsize, s->size);
        if (s->info == 0 || s->info >= cb->nsec)
            return cb_bad(cb, "%s: patches section %u out of %u", s->name, s->info, cb->nsec);
        total += s->size / es;
    }
    c->relocs = ar_array(cb->ar, total, sizeof *c->relocs);
    cb->sec_relocs = ar_array(cb->ar, cb->nsec, sizeof *cb->sec_relocs);
    uint32_t *count = ar_array(cb->ar, cb->nsec, sizeof *count);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    npu_cubin_reloc_t *r = (npu_cubin_reloc_t *)c->relocs;
    uint32_t n = 0;
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        if (s->type != SHT_REL && s->type != SHT_RELA)
            continue;
        int rela = s->type == SHT_RELA;
        uint64_t es = rela ? 24 : 16;
        const npu_cubin_section_t *t = &cb->sec[s->info];
        for (uint64_t j = 0; j < s->size / es; j++) {
            const uint8_t *p = s->data + j * es;
            npu_cubin_reloc_t *x = &r[n];
            uint64_t info = rd64(p + 8);
            x->offset = rd64(p);
            x->type = (uint32_t)info;
            x->sym = (uint32_t)(info >> 32);
            x->addend = rela ? (int64_t)rd64(p + 16) : 0;
            x->rela = (uint8_t)rela;
            x->section = (uint16_t)s->info;
            x->rel_section = (uint16_t)i;
            if (x->sym >= cb->nsym)
                return cb_bad(cb, "%s[%" PRIu64 "]: symbol %u out of %u", s->name, j, x->sym, cb->nsym);
            x->sym_name = x->sym ? cb->sym[x->sym].name : "";
            unsigned w = reloc_width(x->type);
            if (!in_range(x->offset, w, t->size))
                return cb_bad(cb, "%s[%" PRIu64 "]: %s at 0x%" PRIx64 " (+%u bytes) outside %s (0x%" PRIx64 " bytes)",
                              s->name, j, npu_cubin_reloc_name(x->type) ? npu_cubin_reloc_name(x->type) : "?",
                              x->offset, w, t->name, t->size);
            if (x->type < 256)
                c->reloc_count[x->type]++;
            else
                c->reloc_other++;
            count[s->info]++;
            n++;
        }
    }
    c->nrelocs = n;
    for (uint32_t i = 0; i < cb->nsec; i++) {
        if (!count[i])
            continue;
        npu_cubin_reloc_t *v = ar_array(cb->ar, count[i], sizeof *v);
        if (OOM(cb))
            return NPU_EHOSTMEM;
        uint32_t k = 0;
        for (uint32_t j = 0; j < n; j++)
            if (r[j].section == i)
                v[k++] = r[j];
        qsort(v, k, sizeof *v, reloc_cmp);
        cb->sec_relocs[i].n = k;
        cb->sec_relocs[i].v = v;
    }
    return NPU_OK;
}

/* ---------------------------------------------------------------- .nv.info ---- */

/* Splits one .nv.info section into records. Formats: NVAL (no value), BVAL (1 byte), HVAL
 * (2 bytes) each fill one 4-byte slot; SVAL has a u16 length and that many bytes; every
 * record starts 4-byte aligned. */
static npu_status_t split_records(cb_t *cb, const npu_cubin_section_t *s,
                                  npu_cubin_attr_t **out, uint32_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (!s->data || s->size == 0)
        return NPU_OK;
    uint32_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint64_t p = 0;
        uint32_t k = 0;
        while (p < s->size) {
            if (s->size - p < 2)
                return cb_bad(cb, "%s: truncated record at 0x%" PRIx64, s->name, p);
            uint8_t fmt = s->data[p], id = s->data[p + 1];
            uint64_t vsize, hdr;
            switch (fmt) {
            case NPU_EIFMT_NVAL: vsize = 0; hdr = 2; break;
            case NPU_EIFMT_BVAL: vsize = 1; hdr = 2; break;
            case NPU_EIFMT_HVAL: vsize = 2; hdr = 2; break;
            case NPU_EIFMT_SVAL:
                if (s->size - p < 4)
                    return cb_bad(cb, "%s: truncated SVAL header at 0x%" PRIx64, s->name, p);
                vsize = rd16(s->data + p + 2);
                hdr = 4;
                break;
            default:
                return cb_bad(cb, "%s: record at 0x%" PRIx64 " has format %u (expected 1-4)",
                              s->name, p, fmt);
            }
            if (!in_range(p + hdr, vsize, s->size))
                return cb_bad(cb, "%s: record 0x%x at 0x%" PRIx64 " claims %" PRIu64 " value bytes past the end",
                              s->name, id, p, vsize);
            if (pass == 1) {
                npu_cubin_attr_t *a = &(*out)[k];
                a->format = fmt;
                a->id = id;
                a->size = (uint16_t)vsize;
                a->offset = (uint32_t)p;
                a->value = s->data + p + hdr;
            }
            k++;
            p = (p + hdr + vsize + 3) & ~(uint64_t)3;
        }
        if (pass == 0) {
            n = k;
            *out = ar_array(cb->ar, n, sizeof **out);
            if (OOM(cb))
                return NPU_EHOSTMEM;
        }
    }
    *nout = n;
    return NPU_OK;
}

/* A u16/u32 scalar however it is stored (HVAL, BVAL or a 4-byte SVAL). */
static int attr_scalar(const npu_cubin_attr_t *a, uint32_t *v)
{
    switch (a->format) {
    case NPU_EIFMT_BVAL: *v = a->value[0]; return 1;
    case NPU_EIFMT_HVAL: *v = rd16(a->value); return 1;
    case NPU_EIFMT_SVAL:
        if (a->size == 4) { *v = rd32(a->value); return 1; }
        if (a->size == 2) { *v = rd16(a->value); return 1; }
        return 0;
    default: return 0;
    }
}

/* A u32 array (SVAL, size a multiple of 4), decoded into the arena. */
static int attr_u32s(cb_t *cb, const npu_cubin_attr_t *a, npu_cubin_u32s_t *out)
{
    if (a->format != NPU_EIFMT_SVAL || a->size % 4)
        return 0;
    uint32_t n = a->size / 4;
    uint32_t *v = ar_array(cb->ar, n ? n : 1, sizeof *v);
    if (!v)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        v[i] = rd32(a->value + 4 * i);
    /* several records of one id append */
    if (out->n) {
        uint32_t *w = ar_array(cb->ar, out->n + n, sizeof *w);
        if (!w)
            return 0;
        memcpy(w, out->v, out->n * sizeof *w);
        memcpy(w + out->n, v, n * sizeof *w);
        out->v = w;
        out->n += n;
    } else {
        out->v = v;
        out->n = n;
    }
    return 1;
}

static int attr_pairs(cb_t *cb, const npu_cubin_attr_t *a, const npu_cubin_pair_t **out,
                      uint32_t *nout)
{
    if (a->format != NPU_EIFMT_SVAL || a->size % 8)
        return 0;
    uint32_t n = a->size / 8;
    npu_cubin_pair_t *v = ar_array(cb->ar, *nout + n + 1, sizeof *v);
    if (!v)
        return 0;
    if (*nout)
        memcpy(v, *out, *nout * sizeof *v);
    for (uint32_t i = 0; i < n; i++) {
        v[*nout + i].a = rd32(a->value + 8 * i);
        v[*nout + i].b = rd32(a->value + 8 * i + 4);
    }
    *out = v;
    *nout += n;
    return 1;
}

/* The global-style record {u32 sym, u32 value}: applied to the function with that symbol. */
static int attr_symval(cb_t *cb, const npu_cubin_attr_t *a)
{
    if (a->format != NPU_EIFMT_SVAL || a->size != 8)
        return 0;
    uint32_t sym = rd32(a->value), v = rd32(a->value + 4);
    if (sym >= cb->nsym || cb->sym_func[sym] < 0)
        return 0;
    npu_cubin_func_t *f = &cb->funcs[cb->sym_func[sym]];
    switch (a->id) {
    case NPU_EIATTR_REGCOUNT:       f->regcount = v; f->has_regcount = 1; break;
    case NPU_EIATTR_FRAME_SIZE:     f->frame_size = v; f->has_frame_size = 1; break;
    case NPU_EIATTR_MIN_STACK_SIZE: f->min_stack_size = v; f->has_min_stack_size = 1; break;
    case NPU_EIATTR_MAX_STACK_SIZE: f->max_stack_size = v; f->has_max_stack_size = 1; break;
    case NPU_EIATTR_CRS_STACK_SIZE: f->crs_stack_size = v; f->has_crs_stack_size = 1; break;
    default: return 0;
    }
    return 1;
}

static int is_symval_id(unsigned id)
{
    return id == NPU_EIATTR_REGCOUNT || id == NPU_EIATTR_FRAME_SIZE ||
           id == NPU_EIATTR_MIN_STACK_SIZE || id == NPU_EIATTR_MAX_STACK_SIZE;
}

static int param_cmp(const void *a, const void *b)
{
    const npu_cubin_param_t *x = a, *y = b;
    if (x->ordinal != y->ordinal)
        return x->ordinal < y->ordinal ? -1 : 1;
    return x->v2 - y->v2;
}

static void count_offsets(npu_cubin_kernel_t *k, const npu_cubin_u32s_t *l, uint32_t from)
{
    for (uint32_t i = from; i < l->n; i++)
        if (l->v[i] >= k->code_size)
            k->bad_offsets++;
}

/* Decodes one record of .nv.info.<kernel>. Returns 1 decoded, 0 unknown id, -1 bad shape. */
static int kernel_attr(cb_t *cb, npu_cubin_kernel_t *k, const npu_cubin_attr_t *a,
                       npu_cubin_param_t *params, uint32_t *nparams)
{
    uint32_t v;
    npu_cubin_u32s_t *list = NULL;
    switch (a->id) {
    /* flags */
    case NPU_EIATTR_CTAIDZ_USED:      k->ctaidz_used = 1; return 1;
    case NPU_EIATTR_SW1850030_WAR:    k->sw1850030_war = 1; return 1;
    case NPU_EIATTR_SW2393858_WAR:    k->sw2393858_war = 1; return 1;
    case NPU_EIATTR_SW2861232_WAR:    k->sw2861232_war = 1; return 1;
    case NPU_EIATTR_EXPLICIT_CLUSTER: k->explicit_cluster = 1; return 1;
    case NPU_EIATTR_NEED_CNP_WRAPPER: k->need_cnp_wrapper = 1; return 1;
    case NPU_EIATTR_NEED_CNP_PATCH:   k->need_cnp_patch = 1; return 1;
    case NPU_EIATTR_REG_RECONFIG:     k->reg_reconfig = 1; return 1;
    /* scalars */
    case NPU_EIATTR_CBANK_PARAM_SIZE:
        if (!attr_scalar(a, &v)) return -1;
        k->param_size = v; k->has_param_size = 1; return 1;
    case NPU_EIATTR_MAXREG_COUNT:
        if (!attr_scalar(a, &v)) return -1;
        k->maxreg_count = v; return 1;
    case NPU_EIATTR_NUM_BARRIERS:
        if (!attr_scalar(a, &v)) return -1;
        k->num_barriers = v; return 1;
    case NPU_EIATTR_CRS_STACK_SIZE:
        if (!attr_scalar(a, &v)) return -1;
        k->crs_stack_size = v; return 1;
    case NPU_EIATTR_SW_WAR:
        if (!attr_scalar(a, &v)) return -1;
        k->sw_war = v; return 1;
    case NPU_EIATTR_CUDA_API_VERSION:
        if (!attr_scalar(a, &v)) return -1;
        k->cuda_api_version = v; return 1;
    case NPU_EIATTR_MAX_CLUSTER_RANK:
        if (!attr_scalar(a, &v)) return -1;
        k->max_cluster_rank = v; return 1;
    case NPU_EIATTR_NUM_MBARRIERS:
        if (!attr_scalar(a, &v)) return -1;
        k->num_mbarriers = v; return 1;
    case NPU_EIATTR_MERCURY_ISA_VERSION:
        if (!attr_scalar(a, &v)) return -1;
        k->mercury_isa_version = (uint16_t)v; return 1;
    case NPU_EIATTR_LANGUAGE:
        if (!attr_scalar(a, &v)) return -1;
        k->language = v; return 1;
    case NPU_EIATTR_SPARSE_MMA_MASK:
        if (!attr_scalar(a, &v)) return -1;
        k->sparse_mma_mask = v; return 1;
    /* triples */
    case NPU_EIATTR_MAX_THREADS:
    case NPU_EIATTR_REQNTID:
    case NPU_EIATTR_CTA_PER_CLUSTER: {
        if (a->format != NPU_EIFMT_SVAL || a->size != 12)
            return -1;
        uint32_t *d = a->id == NPU_EIATTR_MAX_THREADS ? k->max_threads :
                      a->id == NPU_EIATTR_REQNTID ? k->reqntid : k->cta_per_cluster;
        for (int i = 0; i < 3; i++)
            d[i] = rd32(a->value + 4 * i);
        return 1;
    }
    case NPU_EIATTR_PARAM_CBANK:
        if (a->format != NPU_EIFMT_SVAL || a->size != 8)
            return -1;
        k->param_bank_sym = rd32(a->value);
        k->param_base = rd16(a->value + 4);
        k->param_bank_size = rd16(a->value + 6);
        k->has_param_cbank = 1;
        return k->param_bank_sym < cb->nsym ? 1 : -1;
    case NPU_EIATTR_KPARAM_INFO:
    case NPU_EIATTR_KPARAM_INFO_V2: {
        if (a->format != NPU_EIFMT_SVAL || a->size != 12)
            return -1;
        npu_cubin_param_t *p = &params[(*nparams)++];
        p->index = rd32(a->value);
        p->ordinal = rd16(a->value + 4);
        p->offset = rd16(a->value + 6);
        uint32_t w = rd32(a->value + 8);
        if (a->id == NPU_EIATTR_KPARAM_INFO) {
            p->log_align = (uint8_t)(w & 0xff);
            p->space = (uint8_t)((w >> 8) & 0xf);
            p->cbank = (uint8_t)((w >> 12) & 0x1f);
            p->in_smem = (uint8_t)((w >> 17) & 1);
            p->size = w >> 18;
        } else {
            p->v2 = 1;
            p->size = w;
            p->cbank = 0x1f;
        }
        return 1;
    }
    case NPU_EIATTR_EXTERNS: {
        if (a->format != NPU_EIFMT_SVAL || a->size % 4)
            return -1;
        uint32_t n = a->size / 4;
        npu_cubin_extern_t *e = ar_array(cb->ar, k->nexterns + n + 1, sizeof *e);
        if (!e)
            return -1;
        if (k->nexterns)
            memcpy(e, k->externs, k->nexterns * sizeof *e);
        int ok = 1;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t s = rd32(a->value + 4 * i);
            e[k->nexterns + i].sym = s;
            e[k->nexterns + i].name = s < cb->nsym ? cb->sym[s].name : "";
            if (s >= cb->nsym)
                ok = 0;
        }
        k->externs = e;
        k->nexterns += n;
        return ok ? 1 : -1;
    }
    case NPU_EIATTR_INDIRECT_BRANCH_TARGETS: {
        if (a->format != NPU_EIFMT_SVAL)
            return -1;
        /* count, then decode */
        uint32_t n = 0, p = 0;
        while (p < a->size) {
            if (a->size - p < 12)
                return -1;
            uint32_t nt = rd32(a->value + p + 8);
            if (nt > (a->size - p - 12) / 4)
                return -1;
            p += 12 + 4 * nt;
            n++;
        }
        npu_cubin_ibranch_t *b = ar_array(cb->ar, k->nibranches + n + 1, sizeof *b);
        if (!b)
            return -1;
        if (k->nibranches)
            memcpy(b, k->ibranches, k->nibranches * sizeof *b);
        p = 0;
        for (uint32_t i = 0; i < n; i++) {
            npu_cubin_ibranch_t *x = &b[k->nibranches + i];
            x->offset = rd32(a->value + p);
            x->field1 = rd16(a->value + p + 4);
            x->field2 = rd16(a->value + p + 6);
            x->ntargets = rd32(a->value + p + 8);
            uint32_t *t = ar_array(cb->ar, x->ntargets ? x->ntargets : 1, sizeof *t);
            if (!t)
                return -1;
            for (uint32_t j = 0; j < x->ntargets; j++) {
                t[j] = rd32(a->value + p + 12 + 4 * j);
                if (t[j] >= k->code_size)
                    k->bad_offsets++;
            }
            if (x->offset >= k->code_size)
                k->bad_offsets++;
            x->targets = t;
            p += 12 + 4 * x->ntargets;
        }
        k->ibranches = b;
        k->nibranches += n;
        return 1;
    }
    case NPU_EIATTR_MBARRIER_INSTR_OFFSETS: {
        if (a->format != NPU_EIFMT_SVAL || a->size % 16)
            return -1;
        uint32_t n = a->size / 16;
        npu_cubin_mbarrier_t *m = ar_array(cb->ar, k->nmbarriers + n + 1, sizeof *m);
        if (!m)
            return -1;
        if (k->nmbarriers)
            memcpy(m, k->mbarriers, k->nmbarriers * sizeof *m);
        for (uint32_t i = 0; i < n; i++) {
            npu_cubin_mbarrier_t *x = &m[k->nmbarriers + i];
            x->offset = rd32(a->value + 16 * i);
            x->w1 = rd32(a->value + 16 * i + 4);
            x->w2 = rd32(a->value + 16 * i + 8);
            x->w3 = rd32(a->value + 16 * i + 12);
            if (x->offset >= k->code_size)
                k->bad_offsets++;
        }
        k->mbarriers = m;
        k->nmbarriers += n;
        return 1;
    }
    case NPU_EIATTR_ATOM16_EMUL_INSTR_REG_MAP:
        return attr_pairs(cb, a, &k->atom16_emul, &k->natom16_emul) ? 1 : -1;
    case NPU_EIATTR_UNUSED_LOAD_BYTE_OFFSET:
        return attr_pairs(cb, a, &k->unused_load, &k->nunused_load) ? 1 : -1;
    case NPU_EIATTR_ANNOTATIONS:
        return attr_pairs(cb, a, &k->annotations, &k->nannotations) ? 1 : -1;
    case NPU_EIATTR_COOP_GROUP_MASK_REGIDS:
        return attr_u32s(cb, a, &k->coop_group_mask_regids) ? 1 : -1;
    /* instruction offsets */
    case NPU_EIATTR_EXIT_INSTR_OFFSETS:         list = &k->exit_offsets; break;
    case NPU_EIATTR_S2RCTAID_INSTR_OFFSETS:     list = &k->s2rctaid_offsets; break;
    case NPU_EIATTR_SYSCALL_OFFSETS:            list = &k->syscall_offsets; break;
    case NPU_EIATTR_COOP_GROUP_INSTR_OFFSETS:   list = &k->coop_group_offsets; break;
    case NPU_EIATTR_INT_WARP_WIDE_INSTR_OFFSETS: list = &k->int_warp_wide_offsets; break;
    case NPU_EIATTR_LD_CACHEMOD_INSTR_OFFSETS:  list = &k->ld_cachemod_offsets; break;
    case NPU_EIATTR_ATOM_SYS_INSTR_OFFSETS:     list = &k->atom_sys_offsets; break;
    case NPU_EIATTR_ATOMF16_EMUL_INSTR_OFFSETS: list = &k->atomf16_emul_offsets; break;
    case NPU_EIATTR_STACK_CANARY_TRAP_OFFSETS:  list = &k->stack_canary_offsets; break;
    default:
        if (is_symval_id(a->id))
            return attr_symval(cb, a) ? 1 : -1;
        return 0;
    }
    uint32_t from = list->n;
    if (!attr_u32s(cb, a, list))
        return -1;
    count_offsets(k, list, from);
    return 1;
}

static npu_status_t parse_kernel_info(cb_t *cb, npu_cubin_kernel_t *k, const npu_cubin_section_t *s)
{
    npu_cubin_attr_t *attrs;
    uint32_t n;
    npu_status_t st = split_records(cb, s, &attrs, &n);
    if (st != NPU_OK)
        return st;
    npu_cubin_param_t *params = ar_array(cb->ar, n + 1, sizeof *params);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    uint32_t np = 0;
    for (uint32_t i = 0; i < n; i++) {
        const npu_cubin_attr_t *a = &attrs[i];
        cb->c->attr_count[a->id]++;
        int r = kernel_attr(cb, k, a, params, &np);
        if (OOM(cb))
            return NPU_EHOSTMEM;
        if (r < 0) {
            k->bad_attrs++;
            NPU_WARN("cubin: %s: %s (format %u, %u bytes) at 0x%x has an unexpected value",
                     s->name, npu_cubin_attr_name(a->id), a->format, a->size, a->offset);
        } else if (r == 0 && !npu_cubin_attr_name(a->id)) {
            k->unknown_attrs++;
        }
    }
    qsort(params, np, sizeof *params, param_cmp);
    k->params = params;
    k->nparams = np;
    k->attrs = attrs;
    k->nattrs = n;
    return NPU_OK;
}

/* --------------------------------------------------------------- functions ---- */

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The text section a per-function section (.nv.info.X, .nv.constant0.X ...) belongs to:
 * sh_info when it carries SHF_INFO_LINK and names a code section, else .text.<suffix>. */
static uint32_t owner_text(cb_t *cb, const npu_cubin_section_t *s, const char *suffix)
{
    if ((s->flags & SHF_INFO_LINK) && s->info && s->info < cb->nsec &&
        (cb->sec[s->info].flags & SHF_EXECINSTR))
        return s->info;
    for (uint32_t i = 1; i < cb->nsec; i++)
        if ((cb->sec[i].flags & SHF_EXECINSTR) && starts(cb->sec[i].name, ".text.") &&
            strcmp(cb->sec[i].name + 6, suffix) == 0)
            return i;
    return 0;
}

static npu_status_t parse_functions(cb_t *cb)
{
    npu_cubin_t *c = cb->c;
    uint32_t nf = 0, nk = 0;
    for (uint32_t i = 1; i < cb->nsym; i++)
        if (cb->sym[i].type == STT_FUNC) {
            nf++;
            if (cb->sym[i].other & STO_CUDA_ENTRY)
                nk++;
        }
    cb->funcs = ar_array(cb->ar, nf + 1, sizeof *cb->funcs);
    cb->kernels = ar_array(cb->ar, nk + 1, sizeof *cb->kernels);
    cb->sec_kernel = ar_array(cb->ar, cb->nsec, sizeof *cb->sec_kernel);
    cb->sec_owner = ar_array(cb->ar, cb->nsec, sizeof *cb->sec_owner);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    for (uint32_t i = 0; i < cb->nsec; i++)
        cb->sec_kernel[i] = cb->sec_owner[i] = -1;
    nf = nk = 0;
    for (uint32_t i = 1; i < cb->nsym; i++) {
        const npu_cubin_sym_t *s = &cb->sym[i];
        if (s->type != STT_FUNC)
            continue;
        npu_cubin_func_t *f = &cb->funcs[nf];
        f->name = s->name;
        f->sym = i;
        f->section = s->shndx;
        f->entry = (s->other & STO_CUDA_ENTRY) != 0;
        f->bind = s->bind;
        f->offset = s->value;
        f->size = s->size;
        if (f->section) {
            const npu_cubin_section_t *t = &cb->sec[f->section];
            if (!(t->flags & SHF_EXECINSTR) || !t->data)
                return cb_bad(cb, "function %s lives in %s, which holds no code", f->name, t->name);
            if (!in_range(f->offset, f->size, t->size))
                return cb_bad(cb, "function %s: [0x%" PRIx64 ", +0x%" PRIx64 ") outside %s (0x%" PRIx64 " bytes)",
                              f->name, f->offset, f->size, t->name, t->size);
            if (f->offset == 0 && starts(t->name, ".text.") && strcmp(t->name + 6, f->name) == 0) {
                f->code = t->data;
                f->code_size = t->size;
                cb->sec_owner[f->section] = (int32_t)nf;
            }
        } else if (f->entry) {
            return cb_bad(cb, "kernel %s is undefined", f->name);
        }
        cb->sym_func[i] = (int32_t)nf;
        if (f->entry) {
            if (cb->sec_kernel[f->section] >= 0)
                return cb_bad(cb, "two kernels in %s", cb->sec[f->section].name);
            npu_cubin_kernel_t *k = &cb->kernels[nk];
            const npu_cubin_section_t *t = &cb->sec[f->section];
            k->name = f->name;
            k->sym = i;
            k->text_section = f->section;
            k->code = t->data;
            k->code_size = t->size;
            k->entry_offset = f->offset;
            k->file_offset = t->offset;
            k->shi_registers = t->info >> 24;
            cb->sec_kernel[f->section] = (int32_t)nk;
            nk++;
        }
        nf++;
    }
    c->nfuncs = nf;
    c->funcs = cb->funcs;
    c->nkernels = nk;
    c->kernels = cb->kernels;
    for (uint32_t i = 0; i < nk; i++)
        cb->kernels[i].func = &cb->funcs[cb->sym_func[cb->kernels[i].sym]];
    return NPU_OK;
}

/* Function symbols inside a kernel's section other than the kernel ($kernel$callee clones,
 * weak runtime helpers such as __cuda_sm70_barrier_sync_0). */
static npu_status_t kernel_local_funcs(cb_t *cb, npu_cubin_kernel_t *k)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < cb->c->nfuncs; i++)
        if (cb->funcs[i].section == k->text_section && cb->funcs[i].sym != k->sym)
            n++;
    if (!n)
        return NPU_OK;
    const npu_cubin_func_t **v = ar_array(cb->ar, n, sizeof *v);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    n = 0;
    for (uint32_t i = 0; i < cb->c->nfuncs; i++)
        if (cb->funcs[i].section == k->text_section && cb->funcs[i].sym != k->sym)
            v[n++] = &cb->funcs[i];
    k->local_funcs = v;
    k->nlocal_funcs = n;
    return NPU_OK;
}

/* Every CUDA_INFO section: the global one (per-function resources keyed by symbol) and one
 * per function. */
static npu_status_t parse_infos(cb_t *cb)
{
    npu_cubin_t *c = cb->c;
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        if (s->type != SHT_CUDA_INFO)
            continue;
        if (strcmp(s->name, ".nv.info") == 0) {
            npu_cubin_attr_t *attrs;
            uint32_t n, nrest = 0;
            npu_status_t st = split_records(cb, s, &attrs, &n);
            if (st != NPU_OK)
                return st;
            npu_cubin_attr_t *rest = ar_array(cb->ar, n + 1, sizeof *rest);
            if (OOM(cb))
                return NPU_EHOSTMEM;
            for (uint32_t j = 0; j < n; j++) {
                c->attr_count[attrs[j].id]++;
                if (is_symval_id(attrs[j].id) || attrs[j].id == NPU_EIATTR_CRS_STACK_SIZE) {
                    if (!attr_symval(cb, &attrs[j])) {
                        c->bad_attrs++;
                        NPU_WARN("cubin: .nv.info: %s record at 0x%x: symbol or size is wrong",
                                 npu_cubin_attr_name(attrs[j].id), attrs[j].offset);
                    }
                    continue;
                }
                if (!npu_cubin_attr_name(attrs[j].id))
                    c->unknown_attrs++;
                rest[nrest++] = attrs[j];
            }
            c->global_attrs = rest;
            c->nglobal_attrs = nrest;
            continue;
        }
        if (!starts(s->name, ".nv.info."))
            continue;
        uint32_t t = owner_text(cb, s, s->name + 9);
        if (t && cb->sec_kernel[t] >= 0) {
            npu_cubin_kernel_t *k = &cb->kernels[cb->sec_kernel[t]];
            if (k->attrs)
                return cb_bad(cb, "%s: kernel %s has two .nv.info sections", s->name, k->name);
            npu_status_t st = parse_kernel_info(cb, k, s);
            if (st != NPU_OK)
                return st;
            c->unknown_attrs += k->unknown_attrs;
            c->bad_attrs += k->bad_attrs;
            c->bad_offsets += k->bad_offsets;
        } else {
            /* a device function's records (ET_REL): kept raw with the function */
            npu_cubin_attr_t *attrs;
            uint32_t n;
            npu_status_t st = split_records(cb, s, &attrs, &n);
            if (st != NPU_OK)
                return st;
            for (uint32_t j = 0; j < n; j++) {
                c->attr_count[attrs[j].id]++;
                if (!npu_cubin_attr_name(attrs[j].id))
                    c->unknown_attrs++;
                else if (is_symval_id(attrs[j].id))
                    attr_symval(cb, &attrs[j]);
            }
            if (t && cb->sec_owner[t] >= 0) {
                npu_cubin_func_t *f = &cb->funcs[cb->sec_owner[t]];
                f->attrs = attrs;
                f->nattrs = n;
            }
        }
    }
    return NPU_OK;
}

/* Per-kernel data sections: .nv.constant0/2.<K>, .nv.shared.<K>, .nv.local.<K>. */
static npu_status_t parse_kernel_sections(cb_t *cb)
{
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        const char *suffix = NULL;
        int kind = 0;
        if (starts(s->name, ".nv.constant0.")) { suffix = s->name + 14; kind = 0; }
        else if (starts(s->name, ".nv.constant2.")) { suffix = s->name + 14; kind = 2; }
        else if (starts(s->name, ".nv.shared.reserved.")) continue;
        else if (starts(s->name, ".nv.shared.")) { suffix = s->name + 11; kind = 's'; }
        else if (starts(s->name, ".nv.local.")) { suffix = s->name + 10; kind = 'l'; }
        else continue;
        uint32_t t = owner_text(cb, s, suffix);
        if (!t || cb->sec_kernel[t] < 0)
            continue;           /* a device function's (ET_REL) or a shared variable's own section */
        npu_cubin_kernel_t *k = &cb->kernels[cb->sec_kernel[t]];
        if (s->size > UINT32_MAX)
            return cb_bad(cb, "%s: 0x%" PRIx64 " bytes", s->name, s->size);
        switch (kind) {
        case 0: k->cmem0_size = (uint32_t)s->size; break;
        case 2:
            /* the bank's bytes are the compiler's constants: a section that claims a size but
             * has no file bytes (SHT_NOBITS) leaves nothing to load (fuzz_cubin found it) */
            if (s->size && !s->data)
                return cb_bad(cb, "%s: %" PRIu64 " bytes but no data in the file", s->name, s->size);
            k->cmem2 = s->data;
            k->cmem2_size = (uint32_t)s->size;
            k->cmem2_section = (uint16_t)i;
            k->cmem2_relocs = cb->sec_relocs[i];
            break;
        case 's':
            k->shared_size = (uint32_t)s->size;
            /* sm_90: the system's 1 KB sits at the start of the CTA's window (the code's shared
             * addresses start at 0x400, %reserved_smem_offset_begin is the constant 0) and the
             * section spans it: every sm_90 .nv.shared.<K> of torch 2.15 is >= 0x400, ptxas -v
             * "smem" is the size minus 0x400; before sm_90 the reserved block is at the end */
            k->shared_base = cb->c->sm >= 90 && cb->c->sm < 100 && s->size >= 0x400 ? 0x400 : 0;
            k->shared_static = k->shared_size - k->shared_base;
            k->shared_align = (uint32_t)(s->align > UINT32_MAX ? 0 : s->align);
            k->shared_section = (uint16_t)i;
            break;
        default: k->local_size = (uint32_t)s->size; break;
        }
    }
    for (uint32_t i = 0; i < cb->c->nkernels; i++) {
        npu_cubin_kernel_t *k = &cb->kernels[i];
        const npu_cubin_func_t *f = k->func;
        k->regcount = f->has_regcount ? f->regcount : k->shi_registers;
        k->frame_size = f->frame_size;
        k->min_stack_size = f->min_stack_size;
        k->max_stack_size = f->max_stack_size;
        if (f->has_crs_stack_size)
            k->crs_stack_size = f->crs_stack_size;
        k->text_relocs = cb->sec_relocs[k->text_section];
        npu_status_t st = kernel_local_funcs(cb, k);
        if (st != NPU_OK)
            return st;
    }
    for (uint32_t i = 0; i < cb->c->nfuncs; i++)
        if (cb->funcs[i].code)
            cb->funcs[i].text_relocs = cb->sec_relocs[cb->funcs[i].section];
    return NPU_OK;
}

/* Module data: banks, globals, variables. */
static npu_status_t parse_module_data(cb_t *cb)
{
    npu_cubin_t *c = cb->c;
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        if (strcmp(s->name, ".nv.global.init") == 0) {
            c->global_init_section = (uint16_t)i;
            c->global_init_size = s->size;
            c->global_init_relocs = cb->sec_relocs[i];
        } else if (strcmp(s->name, ".nv.global") == 0) {
            c->global_section = (uint16_t)i;
            c->global_size = s->size;
        } else if (strcmp(s->name, ".nv.constant3") == 0) {
            c->const3_section = (uint16_t)i;
            c->const3 = s->data;
            c->const3_size = s->size;
            c->const3_relocs = cb->sec_relocs[i];
        } else if (strcmp(s->name, ".nv.constant4") == 0) {
            c->const4_section = (uint16_t)i;
            c->const4 = s->data;
            c->const4_size = s->size;
            c->const4_relocs = cb->sec_relocs[i];
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 1; i < cb->nsym; i++)
        if (cb->sym[i].type == STT_OBJECT || cb->sym[i].type == STT_CUDA_OBJECT)
            n++;
    npu_cubin_var_t *v = ar_array(cb->ar, n + 1, sizeof *v);
    if (OOM(cb))
        return NPU_EHOSTMEM;
    n = 0;
    for (uint32_t i = 1; i < cb->nsym; i++) {
        const npu_cubin_sym_t *s = &cb->sym[i];
        if (s->type != STT_OBJECT && s->type != STT_CUDA_OBJECT)
            continue;
        npu_cubin_var_t *x = &v[n++];
        x->name = s->name;
        x->sym = i;
        x->bind = s->bind;
        x->managed = (s->other & STO_CUDA_MANAGED) != 0;
        x->section = s->shndx;
        x->offset = s->value;
        x->size = s->size;
        if (!s->shndx) {
            x->kind = NPU_CUBIN_VAR_EXTERN;
            continue;
        }
        const npu_cubin_section_t *sec = &cb->sec[s->shndx];
        /* In -rdc objects a shared variable's st_value is its alignment (the linker places
         * it), not an offset: nothing is read from a NOBITS section, so only linked images
         * and sections with bytes are held to the range. */
        if (!(c->elf_type == ET_REL && no_file_bytes(sec->type)) && !in_range(s->value, s->size, sec->size))
            return cb_bad(cb, "variable %s: [0x%" PRIx64 ", +0x%" PRIx64 ") outside %s (0x%" PRIx64 " bytes)",
                          s->name, s->value, s->size, sec->name, sec->size);
        if (starts(sec->name, ".nv.global"))
            x->kind = NPU_CUBIN_VAR_GLOBAL;
        else if (strcmp(sec->name, ".nv.constant3") == 0)
            x->kind = NPU_CUBIN_VAR_CONST;
        else if (starts(sec->name, ".nv.shared"))
            x->kind = NPU_CUBIN_VAR_SHARED;
        else if (starts(sec->name, ".nv.local"))
            x->kind = NPU_CUBIN_VAR_LOCAL;
        else
            x->kind = NPU_CUBIN_VAR_OTHER;
        if (sec->data)
            x->init = sec->data + s->value;
    }
    c->vars = v;
    c->nvars = n;
    return NPU_OK;
}

/* .nv.callgraph: {u32, u32} pairs in groups opened by markers (0, 0xffffffff), (0,
 * 0xfffffffe) ... (cubin.h): symbol pairs, except groups 2 and 3 whose second word is a
 * string offset (nvdisasm prints str_index@("#ili")). .nv.prototype: {u32 sym, u32 offset of a
 * prototype string in .strtab}. */
static npu_status_t parse_graph(cb_t *cb)
{
    npu_cubin_t *c = cb->c;
    for (uint32_t i = 1; i < cb->nsec; i++) {
        const npu_cubin_section_t *s = &cb->sec[i];
        uint32_t symtab_str = 0;
        for (uint32_t j = 1; j < cb->nsec; j++)
            if (cb->sec[j].type == SHT_SYMTAB) {
                symtab_str = cb->sec[j].link;
                break;
            }
        if (s->type == SHT_CUDA_CALLGRAPH && s->data) {
            if (s->size % 8)
                return cb_bad(cb, "%s: %" PRIu64 " bytes, not pairs of words", s->name, s->size);
            uint32_t n = (uint32_t)(s->size / 8);
            npu_cubin_edge_t *e = ar_array(cb->ar, n + 1, sizeof *e);
            if (OOM(cb))
                return NPU_EHOSTMEM;
            uint32_t k = 0;
            uint8_t group = 1;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t a = rd32(s->data + 8ull * j), b = rd32(s->data + 8ull * j + 4);
                if (a == 0 && b >= 0xfffffff0u) {
                    group = (uint8_t)(0xffffffffu - b + 1);
                    c->callgraph_markers++;
                    continue;
                }
                int str = group == 2 || group == 3;
                if (a >= cb->nsym || (!str && b >= cb->nsym))
                    return cb_bad(cb, "%s[%u]: symbol %u -> %u out of %u", s->name, j, a, b, cb->nsym);
                e[k].caller = a;
                e[k].callee = b;
                e[k].group = group;
                if (str && !(e[k].proto = strtab_at(&cb->sec[symtab_str], b)))
                    return cb_bad(cb, "%s[%u]: string offset %u outside the string table", s->name, j, b);
                k++;
            }
            c->callgraph = e;
            c->nedges = k;
        } else if (s->type == SHT_CUDA_PROTOTYPE && s->data) {
            if (s->size % 8)
                return cb_bad(cb, "%s: %" PRIu64 " bytes, not pairs of words", s->name, s->size);
            uint32_t n = (uint32_t)(s->size / 8);
            npu_cubin_proto_t *p = ar_array(cb->ar, n + 1, sizeof *p);
            if (OOM(cb))
                return NPU_EHOSTMEM;
            for (uint32_t j = 0; j < n; j++) {
                p[j].sym = rd32(s->data + 8ull * j);
                p[j].proto = strtab_at(&cb->sec[symtab_str], rd32(s->data + 8ull * j + 4));
                if (p[j].sym >= cb->nsym || !p[j].proto)
                    return cb_bad(cb, "%s[%u]: symbol %u or string out of range", s->name, j, p[j].sym);
            }
            c->protos = p;
            c->nprotos = n;
        }
    }
    return NPU_OK;
}

npu_status_t npu_cubin_parse(const void *data, size_t size, npu_cubin_t **out)
{
    if (!out)
        return NPU_EINVAL;
    *out = NULL;
    if (!data)
        return NPU_EINVAL;
    arena_t *ar = calloc(1, sizeof *ar);
    if (!ar)
        return NPU_EHOSTMEM;
    cb_t cb;
    memset(&cb, 0, sizeof cb);
    cb.ar = ar;
    cb.c = ar_alloc(ar, sizeof *cb.c);
    /* the image gets a block of its own, exactly its size, so that ASan and valgrind see any
     * read past its end (the fuzz harness relies on it) */
    uint8_t *img = malloc(size ? size : 1);
    if (ar->oom || !img) {
        free(img);
        ar_free(ar);
        return NPU_EHOSTMEM;
    }
    memcpy(img, data, size);
    cb.img = img;
    cb.size = size;
    cb.c->image = img;
    cb.c->image_size = size;
    cb.c->arena_ = ar;
    npu_status_t st = parse_header(&cb);
    if (st == NPU_OK) st = parse_symbols(&cb);
    if (st == NPU_OK) st = parse_functions(&cb);
    if (st == NPU_OK) st = parse_relocs(&cb);
    if (st == NPU_OK) st = parse_infos(&cb);
    if (st == NPU_OK) st = parse_kernel_sections(&cb);
    if (st == NPU_OK) st = parse_module_data(&cb);
    if (st == NPU_OK) st = parse_graph(&cb);
    if (st == NPU_OK && ar->oom)
        st = NPU_EHOSTMEM;
    if (st != NPU_OK) {
        if (st == NPU_ECUBIN)
            NPU_WARN("cubin: malformed image: %s", cb.err);
        free(img);
        ar_free(ar);
        return st;
    }
    cb.c->nsections = cb.nsec;
    cb.c->sections = cb.sec;
    *out = cb.c;
    return NPU_OK;
}

void npu_cubin_free(npu_cubin_t *c)
{
    if (!c)
        return;
    free((void *)c->image);
    ar_free(c->arena_);
}

/* ------------------------------------------------------------ driver area ---- */

npu_status_t npu_cubin_cbank0_layout(unsigned sm, npu_cubin_cbank0_t *o)
{
    if (!o)
        return NPU_EINVAL;
    if (sm != 75 && sm != 80 && sm != 86 && sm != 87 && sm != 88 && sm != 89 && sm != 90)
        return NPU_ENOTSUP;
    o->ntid = 0x0;
    o->nctaid = 0xc;
    o->local_window = 0x20;
    o->stack_init = 0x28;
    o->dynamic_smem_size = 0x2c;
    o->gridid = 0x30;
    o->nsmid = 0x10c;
    if (sm == 90) {
        o->shared_window = -1;      /* SR_SWINHI << 32 | CgaCtaId << 24 | offset */
        o->envreg = 0x40;
        o->reserved_smem = 0x114;
        o->aggr_smem = 0x13c;
        o->mem_desc = 0x208;
        o->param_base = o->param_base_large = 0x210;
    } else {
        o->shared_window = 0x18;
        o->envreg = 0x88;
        o->reserved_smem = sm == 75 ? -1 : 0x114;
        o->aggr_smem = -1;
        o->mem_desc = sm == 75 ? -1 : 0x118;
        o->param_base = 0x160;
        o->param_base_large = 0x1a80;
    }
    return NPU_OK;
}

/* ----------------------------------------------------------------- lookups ---- */

const npu_cubin_kernel_t *npu_cubin_find_kernel(const npu_cubin_t *c, const char *name)
{
    if (!c || !name)
        return NULL;
    for (uint32_t i = 0; i < c->nkernels; i++)
        if (strcmp(c->kernels[i].name, name) == 0)
            return &c->kernels[i];
    return NULL;
}

const npu_cubin_var_t *npu_cubin_find_var(const npu_cubin_t *c, const char *name)
{
    if (!c || !name)
        return NULL;
    for (uint32_t i = 0; i < c->nvars; i++)
        if (strcmp(c->vars[i].name, name) == 0)
            return &c->vars[i];
    return NULL;
}

const npu_cubin_func_t *npu_cubin_find_func(const npu_cubin_t *c, const char *name)
{
    if (!c || !name)
        return NULL;
    for (uint32_t i = 0; i < c->nfuncs; i++)
        if (strcmp(c->funcs[i].name, name) == 0)
            return &c->funcs[i];
    return NULL;
}

const npu_cubin_reloc_t *npu_cubin_const_reloc(const npu_cubin_t *c,
                                               const npu_cubin_kernel_t *k,
                                               unsigned bank, uint64_t off)
{
    if (!c)
        return NULL;
    const npu_cubin_reloc_list_t *l = bank == 2 ? (k ? &k->cmem2_relocs : NULL) :
                                      bank == 3 ? &c->const3_relocs :
                                      bank == 4 ? &c->const4_relocs : NULL;
    if (!l)
        return NULL;
    uint32_t lo = 0, hi = l->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (l->v[mid].offset < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->v[lo].offset == off ? &l->v[lo] : NULL;
}

/* -------------------------------------------------------------------- dump ---- */

static void dump_u32s(FILE *f, const char *key, const npu_cubin_u32s_t *l)
{
    if (!l->n)
        return;
    fprintf(f, "  %s", key);
    for (uint32_t i = 0; i < l->n; i++)
        fprintf(f, " 0x%x", l->v[i]);
    fputc('\n', f);
}

static void dump_pairs(FILE *f, const char *key, const npu_cubin_pair_t *v, uint32_t n)
{
    if (!n)
        return;
    fprintf(f, "  %s", key);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, " 0x%x:0x%x", v[i].a, v[i].b);
    fputc('\n', f);
}

static void dump_attr(FILE *f, const char *indent, const npu_cubin_attr_t *a)
{
    const char *n = npu_cubin_attr_name(a->id);
    fprintf(f, "%sattr 0x%x %s fmt %u size %u off 0x%x value ", indent, a->id, n ? n : "?", a->format,
            a->size, a->offset);
    for (uint32_t i = 0; i < a->size; i++)
        fprintf(f, "%02x", a->value[i]);
    if (!a->size)
        fputc('-', f);
    fputc('\n', f);
}

static void dump_reloc(FILE *f, const char *indent, const npu_cubin_reloc_t *r)
{
    const char *n = npu_cubin_reloc_name(r->type);
    fprintf(f, "%sreloc 0x%" PRIx64 " %s sym %u %s addend %" PRId64 " %s\n", indent, r->offset,
            n ? n : "?", r->sym, r->sym_name[0] ? r->sym_name : "-", r->addend, r->rela ? "rela" : "rel");
}

void npu_cubin_dump(const npu_cubin_t *c, FILE *f)
{
    fprintf(f, "cubin sm %u type %u osabi 0x%x abi %u flags 0x%x size %zu\n", c->sm, c->elf_type,
            c->osabi, c->abi_version, c->e_flags, c->image_size);
    for (uint32_t i = 0; i < c->nsections; i++) {
        const npu_cubin_section_t *s = &c->sections[i];
        fprintf(f, "section %u %s type 0x%x flags 0x%" PRIx64 " offset 0x%" PRIx64 " size 0x%" PRIx64
                " link %u info 0x%x align %" PRIu64 "\n", i, s->name[0] ? s->name : "-", s->type, s->flags,
                s->offset, s->size, s->link, s->info, s->align);
    }
    for (uint32_t i = 0; i < c->nsyms; i++) {
        const npu_cubin_sym_t *s = &c->syms[i];
        fprintf(f, "sym %u %s type %u bind %u other 0x%x shndx %u value 0x%" PRIx64 " size 0x%" PRIx64 "\n",
                i, s->name[0] ? s->name : "-", s->type, s->bind, s->other, s->shndx, s->value, s->size);
    }
    for (uint32_t i = 0; i < c->nfuncs; i++) {
        const npu_cubin_func_t *fn = &c->funcs[i];
        fprintf(f, "func %s sym %u section %u entry %u bind %u offset 0x%" PRIx64 " size 0x%" PRIx64
                " own_section %u", fn->name, fn->sym, fn->section, fn->entry, fn->bind, fn->offset,
                fn->size, fn->code != NULL);
        if (fn->has_regcount) fprintf(f, " regcount %u", fn->regcount);
        if (fn->has_frame_size) fprintf(f, " frame_size %u", fn->frame_size);
        if (fn->has_min_stack_size) fprintf(f, " min_stack_size %u", fn->min_stack_size);
        if (fn->has_max_stack_size) fprintf(f, " max_stack_size %u", fn->max_stack_size);
        if (fn->has_crs_stack_size) fprintf(f, " crs_stack_size %u", fn->crs_stack_size);
        fputc('\n', f);
        for (uint32_t j = 0; j < fn->nattrs; j++)
            dump_attr(f, "  ", &fn->attrs[j]);
        if (fn->code && !fn->entry)
            for (uint32_t j = 0; j < fn->text_relocs.n; j++)
                dump_reloc(f, "  ", &fn->text_relocs.v[j]);
    }
    for (uint32_t i = 0; i < c->nkernels; i++) {
        const npu_cubin_kernel_t *k = &c->kernels[i];
        fprintf(f, "kernel %s\n", k->name);
        fprintf(f, "  sym %u section %u code_size 0x%" PRIx64 " entry 0x%" PRIx64 "\n", k->sym,
                k->text_section, k->code_size, k->entry_offset);
        fprintf(f, "  regcount %u shi_registers %u num_barriers %u maxreg_count %u\n", k->regcount,
                k->shi_registers, k->num_barriers, k->maxreg_count);
        fprintf(f, "  max_threads %u %u %u\n", k->max_threads[0], k->max_threads[1], k->max_threads[2]);
        fprintf(f, "  reqntid %u %u %u\n", k->reqntid[0], k->reqntid[1], k->reqntid[2]);
        fprintf(f, "  cta_per_cluster %u %u %u max_cluster_rank %u explicit_cluster %u\n",
                k->cta_per_cluster[0], k->cta_per_cluster[1], k->cta_per_cluster[2],
                k->max_cluster_rank, k->explicit_cluster);
        fprintf(f, "  frame_size %u min_stack_size %u max_stack_size %u crs_stack_size %u\n",
                k->frame_size, k->min_stack_size, k->max_stack_size, k->crs_stack_size);
        fprintf(f, "  shared_size %u shared_base %u shared_static %u shared_align %u local_size %u"
                " cmem0_size %u cmem2_size %u\n", k->shared_size, k->shared_base, k->shared_static,
                k->shared_align, k->local_size, k->cmem0_size, k->cmem2_size);
        fprintf(f, "  param_cbank %u sym %u base 0x%x size 0x%x param_size %u\n", k->has_param_cbank,
                k->param_bank_sym, k->param_base, k->param_bank_size, k->param_size);
        fprintf(f, "  cuda_api_version 0x%x sw_war %u war1850030 %u war2393858 %u war2861232 %u"
                " ctaidz_used %u cnp %u %u mercury 0x%x language %u sparse_mma 0x%x mbarriers %u"
                " reg_reconfig %u\n", k->cuda_api_version, k->sw_war, k->sw1850030_war, k->sw2393858_war,
                k->sw2861232_war, k->ctaidz_used, k->need_cnp_wrapper, k->need_cnp_patch,
                k->mercury_isa_version, k->language, k->sparse_mma_mask, k->num_mbarriers,
                k->reg_reconfig);
        if (k->cmem2_size) {
            fprintf(f, "  cmem2 ");
            for (uint32_t j = 0; j < k->cmem2_size; j++)
                fprintf(f, "%02x", k->cmem2[j]);
            fputc('\n', f);
        }
        for (uint32_t j = 0; j < k->nparams; j++) {
            const npu_cubin_param_t *p = &k->params[j];
            fprintf(f, "  param %u offset 0x%x size 0x%x index %u log_align %u space %u cbank 0x%x smem %u v2 %u\n",
                    p->ordinal, p->offset, p->size, p->index, p->log_align, p->space, p->cbank,
                    p->in_smem, p->v2);
        }
        dump_u32s(f, "exit_offsets", &k->exit_offsets);
        dump_u32s(f, "s2rctaid_offsets", &k->s2rctaid_offsets);
        dump_u32s(f, "syscall_offsets", &k->syscall_offsets);
        dump_u32s(f, "coop_group_offsets", &k->coop_group_offsets);
        dump_u32s(f, "coop_group_mask_regids", &k->coop_group_mask_regids);
        dump_u32s(f, "int_warp_wide_offsets", &k->int_warp_wide_offsets);
        dump_u32s(f, "ld_cachemod_offsets", &k->ld_cachemod_offsets);
        dump_u32s(f, "atom_sys_offsets", &k->atom_sys_offsets);
        dump_u32s(f, "atomf16_emul_offsets", &k->atomf16_emul_offsets);
        dump_u32s(f, "stack_canary_offsets", &k->stack_canary_offsets);
        dump_pairs(f, "atom16_emul", k->atom16_emul, k->natom16_emul);
        dump_pairs(f, "unused_load", k->unused_load, k->nunused_load);
        dump_pairs(f, "annotations", k->annotations, k->nannotations);
        for (uint32_t j = 0; j < k->nexterns; j++)
            fprintf(f, "  extern %u %s\n", k->externs[j].sym, k->externs[j].name);
        for (uint32_t j = 0; j < k->nibranches; j++) {
            const npu_cubin_ibranch_t *b = &k->ibranches[j];
            fprintf(f, "  ibranch 0x%x %u %u targets", b->offset, b->field1, b->field2);
            for (uint32_t t = 0; t < b->ntargets; t++)
                fprintf(f, " 0x%x", b->targets[t]);
            fputc('\n', f);
        }
        for (uint32_t j = 0; j < k->nmbarriers; j++)
            fprintf(f, "  mbarrier 0x%x 0x%x 0x%x 0x%x\n", k->mbarriers[j].offset, k->mbarriers[j].w1,
                    k->mbarriers[j].w2, k->mbarriers[j].w3);
        for (uint32_t j = 0; j < k->nlocal_funcs; j++)
            fprintf(f, "  local_func %s offset 0x%" PRIx64 " size 0x%" PRIx64 "\n", k->local_funcs[j]->name,
                    k->local_funcs[j]->offset, k->local_funcs[j]->size);
        fprintf(f, "  counts attrs %u unknown %u bad %u bad_offsets %u\n", k->nattrs, k->unknown_attrs,
                k->bad_attrs, k->bad_offsets);
        for (uint32_t j = 0; j < k->nattrs; j++)
            dump_attr(f, "  ", &k->attrs[j]);
        for (uint32_t j = 0; j < k->text_relocs.n; j++)
            dump_reloc(f, "  text_", &k->text_relocs.v[j]);
        for (uint32_t j = 0; j < k->cmem2_relocs.n; j++)
            dump_reloc(f, "  cmem2_", &k->cmem2_relocs.v[j]);
    }
    for (uint32_t i = 0; i < c->nvars; i++) {
        const npu_cubin_var_t *v = &c->vars[i];
        fprintf(f, "var %s sym %u kind %u section %u offset 0x%" PRIx64 " size 0x%" PRIx64 " managed %u bind %u init ",
                v->name, v->sym, v->kind, v->section, v->offset, v->size, v->managed, v->bind);
        if (v->init && v->size <= 4096) {
            for (uint64_t j = 0; j < v->size; j++)
                fprintf(f, "%02x", v->init[j]);
        } else {
            fputc('-', f);
        }
        fputc('\n', f);
    }
    fprintf(f, "module global_init_size 0x%" PRIx64 " global_size 0x%" PRIx64 " const3_size 0x%" PRIx64
            " const4_size 0x%" PRIx64 "\n", c->global_init_size, c->global_size, c->const3_size, c->const4_size);
    for (uint32_t i = 0; i < c->nrelocs; i++) {
        const npu_cubin_reloc_t *r = &c->relocs[i];
        fprintf(f, "reloc %s ", c->sections[r->section].name);
        dump_reloc(f, "", r);
    }
    for (uint32_t i = 0; i < c->nglobal_attrs; i++)
        dump_attr(f, "global_", &c->global_attrs[i]);
    for (uint32_t i = 0; i < c->nedges; i++) {
        const npu_cubin_edge_t *e = &c->callgraph[i];
        if (e->proto)
            fprintf(f, "edge %u %s \"%s\"\n", e->group, c->syms[e->caller].name, e->proto);
        else
            fprintf(f, "edge %u %s %s\n", e->group, c->syms[e->caller].name,
                    c->syms[e->callee].name[0] ? c->syms[e->callee].name : "-");
    }
    for (uint32_t i = 0; i < c->nprotos; i++)
        fprintf(f, "proto %s %s\n", c->syms[c->protos[i].sym].name, c->protos[i].proto);
    fprintf(f, "counts kernels %u funcs %u vars %u relocs %u unknown_attrs %u bad_attrs %u bad_offsets %u"
            " callgraph_markers %u\n", c->nkernels, c->nfuncs, c->nvars, c->nrelocs, c->unknown_attrs,
            c->bad_attrs, c->bad_offsets, c->callgraph_markers);
}
