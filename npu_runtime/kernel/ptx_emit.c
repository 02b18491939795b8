/*
 * ptx_emit.c - passes 3..5 of the PTX translator: check, lower, emit C.
 *
 * Pass list (each dumpable with NPU_PTX_DUMP=<pass>[,<pass>] or "all", to stderr):
 *   sass   (cubin modules) the PTX body sass_lift.c made of a kernel, with NPU_SASS_ANNOTATE=1
 *          the SASS instruction as a comment before its lines (module.c)
 *   index  -> parse  (ptx_parse.c)
 *   check  undefined registers, labels, symbols and call targets -> NPU_EPTX, with a log line
 *          naming kernel and line; unknown .extern .func -> NPU_EPTX naming it
 *   lower  closure of called .funcs, entry mode (block/thread), shared/local/param layouts,
 *          referenced module variables
 *   emit   one C statement (or a static-inline helper call from ptx_prelude.h) per instruction
 *   (compile + cache + dlopen in jit.c)
 *
 * Decisions (with what chose them):
 *  - Registers: every PTX virtual register is a C local of its declared class: .pred -> int,
 *    .f32 -> float, .f64 -> double, all integer/bit types (and .f16/.bf16 bits) -> unsigned
 *    uintN_t of the same width. Signedness comes from the instruction type (casts at use), so
 *    integer wrap-around is never C undefined behaviour. Operands read with another type are
 *    bit-reinterpreted (memcpy helpers, free after -O2), narrower/wider registers are
 *    truncated or sign/zero-extended as the PTX "relaxed type-checking" rules say. Nested
 *    PTX scopes { } become C blocks, so shadowed registers keep PTX scoping.
 *  - Control flow: labels -> C labels, bra -> goto; a guard @p wraps the statement in if().
 *  - Entry modes (uses_sync in npu_kfunc_info_t):
 *    block mode `npu_kentry_block(b, params)`: a z/y/x loop over the block's threads with the
 *      body inlined and per-thread locals inside the loop (vectorAdd becomes a tight loop);
 *    block mode with barrier phases, for kernels whose only collectives are full-block
 *      bar.sync/barrier.sync in the entry: each thread runs to its next barrier, saves the
 *      registers live across it (backward liveness over the PTX CFG) and a resume point, the
 *      next thread runs; .local frames live in the block state. Measured (bench_kernels,
 *      2 vCPU, loaded): tiled SGEMM 1024^3 10.1 s on fibers -> 1.2-1.75 s, 0.5-0.6x PoCL;
 *      transpose 868 -> 176 ms. NPU_PTX_NO_PHASES=1 turns it off;
 *      Warp collectives in the entry (shfl.sync, vote.sync, redux.sync, bar.warp.sync,
 *      activemask, wmma.mma) are stop points too: a resolver between passes computes their
 *      results. A *.sync op waits (the thread is held) until every live lane of its mask has
 *      reached one with the same qualifiers and mask value, at any site, as the ISA says:
 *      nvcc unrolls loops around __ballot_sync, so lanes with different trip counts meet in
 *      different copies (found by tests/diff/diff_warp_half.cu checked against a host model
 *      of the ISA; not yet recorded on a GPU); a pass
 *      in which every live thread waited releases them with the lanes present;
 *    thread mode `npu_kentry_thread(t, params)` (fibers in exec.c) for the other collectives
 *      (match, elect, predicated ones), bar.arrive/bar.red, counted barriers, or barriers
 *      inside .funcs.
 *    exit/ret in an entry end that thread's iteration; in a .func, exit returns 1 up the chain.
 *  - Nested scopes: registers declared inside { } of the entry (CUB's inline-asm blocks, call
 *    sequences) are renamed to unique function-level names first (flatten_scopes), so barrier
 *    phases and lane groups apply to CUB kernels too (CuPy's mean over 256 floats: 141 -> 57 us).
 *  - Lane groups (block mode and phase mode; NPU_PTX_NO_LANES=1 turns them off): the entry gets
 *    a second, "lane" copy that runs 16 consecutive threads of a row (same tid.y/z, tid.x =
 *    16k..16k+15) as the lanes of C arrays: every PTX register X is also `T w_X[16]`, every
 *    plain instruction a loop over the 16 lanes (consecutive ones fused into one loop), which
 *    gcc vectorizes. Used when ntid.x % 16 == 0; the per-thread copy stays for other shapes.
 *    Lane classes (lane_classify: flow-insensitive fixpoint over all definitions): a register
 *    is uniform (same in all lanes: computed once, in w_X[0]), affine (lane l = lane 0 + c*l,
 *    c known or known only at run time) or unknown. An affine integer register whose every
 *    definition is a plain add/sub/mul/mad/shl/shr/mov/cvta/cvt is scalar-affine
 *    (lane_mark_sa): two scalars, lane 0's value in w_X[0] and the stride in sa_X; readers see
 *    w_X[0] + l * sa_X, a definition is evaluated at lanes 0 and 1 (and 15 for its affinity
 *    check) instead of over 16 lanes (emit_lane_sa). CuPy's elementwise kernels compute three
 *    64-bit offsets per element ((i * stride) << 32 >> 32, then + base): as 16-lane loops that
 *    was most of their lane work (vpmullq, shifts and adds over two zmm each). Measured
 *    (device time per launch, 256x128 f32, isolated): add 21.6 -> 12.4 us, greater 15.3 ->
 *    11.6, maximum 23.6 -> 16.4, multiply by a bool mask 23.9 -> 21.5. In block mode,
 *    uniform single-definition values made from parameters, ntid/ctaid/nctaid and each other
 *    are computed once per block before the group loop (lane_mark_hoist), not once per group
 *    (CuPy: 7 parameter loads and ~15 stride products per 16 threads): add 12.5 -> 11.0 us,
 *    greater 10.7 -> 10.0, multiply by mask 21.5 -> 20.5 (device min, interleaved A/B);
 *    maximum looked slower in one pair (16.5 -> 17.9) but 3 more pairs gave 19.8 -> 18.3. Uses: a uniform branch tests lane 0; a
 *    load from a uniform address is one scalar load; an access whose address is affine with
 *    stride = size (checked: lane 15 == lane 0 + 15*size) or unknown but contiguous (checked
 *    on all 16 lanes) is one vector access through a local array and memcpy; anything else
 *    a per-lane loop. Widenings and right shifts of affine values are checked after the fact
 *    (three scalar reads, see emit_lane_post_check). Control flow stays uniform in the lane
 *    copy: a branch whose lanes disagree, an instruction with per-thread state (calls, .local,
 *    carry flags, printf, traps) or a failed check sets __dk and continues the group per
 *    thread from that instruction (labels __D<i> in the per-thread copy, each thread taking
 *    the registers live there from the lanes). Divergent forward branches over hammocks run
 *    as masked regions instead (lane_regions: the lanes that do not branch run the region
 *    under a mask, the others wait at the join, as on a GPU). In phase mode a group that left
 *    the lanes goes back to them at a stop where all its threads stopped and the live
 *    registers hold their lane classes (lane_reentry_check; the classes assume uniform
 *    control flow). cuda-samples globalToShmemAsyncCopy (320^3, one `if (t4x < 16)` copy
 *    per tile that split every group, warp lockstep stops inside it), 3 interleaved pairs:
 *    83-104 ms -> 21-28 ms per launch; without lockstep 49-53 -> 22 ms (re-entry alone,
 *    copying every register per exit, had made it slower: 61-76 ms). Barrier phases save registers one array
 *    per register (S_X[thread]), so a lane group saves and restores 16 with one memcpy.
 *    Limits: entries up to 800 instructions and 512 registers (compile time), no memcheck.
 *    A load with a known stride other than its size (a shared tile's column) is a plain
 *    strided loop; faults in it name the group's first thread.
 *    Measured (bench_kernels, 2-vCPU guest; before -> after, ours in ms): vectorAdd 6.7 ->
 *    4.8-5.6, saxpy 5.6 -> 3.3-3.7, reduction 16.0 -> 9.9-11.4 (PoCL 14-15), tiled SGEMM
 *    328 -> 202-219 (PoCL 390; plain C 45-50, so 4.3-4.5x), histogram 21 -> 7.7, transpose
 *    26.7 -> 30-32 (PoCL 32-37). (Plain-C references that ran after a lane kernel on the same
 *    thread were 3x slow until exec.c cleared the vector upper state after each block: see
 *    exec_clear_upper.) CuPy elementwise kernels
 *    (256x128 f32) 2-4 -> 1-1.5 ns per element. Lane copies roughly double the C the
 *    compiler sees (jit.c chose -O1 for it).
 *    Group size: 16 lanes, or 32 for kernels without %tid.y/z (lane_width32, with the
 *    measurements); in session 2, before scalar-affine registers, 32 everywhere halved
 *    train_cupy's steps/s (64-bit lane arrays spilled). Tried and dropped:
 *    predicates as bytes tested with two 64-bit words (cupy_maximum 1.45 -> 2.55 ns/element),
 *    one address array + out-of-line gather/scatter for every access (tiled SGEMM 2.25x ->
 *    2.85x C).
 *    gcc vectorizes a fused lane loop whole or not at all: one statement it cannot if-convert
 *    keeps all of it scalar. So a guarded pure statement is a select (computed in every lane,
 *    `w[l] = g ? new : old`, lane_select_ok) and lop3 with an immediate LUT is a plain
 *    expression (lop3_expr; __lop3's loop over 8 minterms stayed a loop at -O1, in per-thread
 *    code too). ATen's GELU backward (SASS, 256x128 f32, per-thread copy): 368 -> 300-335 us
 *    per launch, GELU 88 -> 71-77 us. Kernels past the limits get no lane copy (the debug log
 *    says which limit; NPU_PTX_LANES_MAX=N raises all three for experiments: ATen's GELU
 *    backward, 1997 instructions and ~2000 registers after webs, then took minutes to compile).
 *  - .func: `static int fn(npu_tctx_t *t, uint8_t *ret..., uint8_t *arg...)`: every parameter
 *    and return value is passed as a pointer to its bytes (the caller's .param array), which
 *    covers scalars, .b8 struct arrays and taking a parameter's address uniformly; gcc
 *    inlines the static functions. Function pointers are tokens (PTX_FN_TOKEN) resolved by a
 *    switch in each .so, so tables of .func addresses in .global initialisers work.
 *  - Address spaces: generic/global/const/param addresses are host pointers (kernel params:
 *    the packed buffer; .func params: the caller's arrays); .shared addresses are byte offsets
 *    into b->shared (static variables laid out from 0 in reference order, extern arrays at
 *    b->dyn_shared_offset); cvta(.to).shared add/subtract (uintptr_t)b->shared. .local
 *    variables live in the function's frame __lf[] on the executing thread's stack, and a
 *    .local address is the host address itself (cvta.local is the identity): nvcc passes
 *    a caller's local address to a callee, which does cvta.to.local + st.local on it
 *    (k_calls' divmod out-params), so all frames of a thread must share one local window;
 *    frame-relative offsets broke that. 64-bit local addressing (what nvcc emits) only.
 *  - Atomics: global/generic -> __atomic builtins (SEQ_CST; float/min/max/inc/dec via CAS
 *    loops); .shared -> plain read-modify-write, since a block's threads share one host thread
 *    (histogram with shared atomics: 10.7x -> 6.2x of C, 0.5x PoCL).
 *  - Module .global/.const variables: the .so exports `void *npu_globals[N]` and
 *    `const char *npu_global_names[N]`; module.c fills the table after dlopen, so one cached
 *    .so serves any module (no addresses baked into the code).
 *  - Floating point: compiled with -ffp-contract=off; fma -> fmaf/fma; directed rounding
 *    (.rz/.rm/.rp) switches the FP environment around one volatile operation; .approx
 *    transcendental ops use libm (more accurate than the ISA bound); f16/bf16 arithmetic is
 *    done in double and rounded once (products are exact; sums, fma included, are rounded to odd
 *    in double first, __sum_rto, so that bf16 fma does not round twice).
 *  - Integer corner cases: division by zero -> all ones (signed: -1), rem by zero -> dividend,
 *    INT_MIN / -1 -> INT_MIN (no host SIGFPE); sub.cc/subc use the two's-complement carry
 *    (1 = no borrow), which nvcc's own int128 division relies on.
 *  - Cache key / hash / flags (jit.c): FNV-1a 128 of the generated C (which embeds translator
 *    version, kabi text, entry, .funcs and variable declarations) + compiler + flags
 *    "-O2 -fPIC -shared -ffp-contract=off -fno-strict-aliasing -march=native -w -lm".
 *    First-run JIT measured by bench/bench_jit.c on this 2 vCPU VM while other builds ran
 *    (load 6-7): vectorAdd 76 ms idle / 160-240 ms loaded, shfl reduction 150-270 ms, libm-
 *    heavy kernel with printf 330-400 ms, tiled matmul 230-300 ms; cached: 0.2-1.6 ms.
 *  - Fault reports: block-mode thread loops (plain and barrier-phase) store the linear thread
 *    index through b->exec (npu_kexec_hdr_t.cur_lin, volatile, once per thread) so that the
 *    SIGSEGV handler in exec.c can name the thread. Measured A/B on the loaded 2-vCPU guest
 *    (6 alternating runs each, bench_memcheck's child without memcheck): vectorAdd 16M median
 *    15.0 ms without the store vs 15.2 ms with it, tiled SGEMM 512 120 vs 115 ms: within the
 *    noise (+-20%), so the thread is always reported rather than "thread unknown".
 *  - Memcheck mode (TRANSFER_TO_NPU_MEMCHECK=1, read once; the generated C differs, so the
 *    JIT cache key does too): every ld/st/atom/red of the global, shared or generic space goes
 *    through __mc/__mcs (emitted only in this mode) before the access: .shared is checked
 *    inline against b->shared_size; global/generic first against the executor's 4-entry cache
 *    of allocations known valid (npu_kexec_hdr_t), then rt->memcheck, which reports and
 *    abandons the block instead of returning, so an invalid access is never performed.
 *    .param/.const/.local, wmma fragments, cp.async and texture paths are not checked.
 *    Slowdown (bench_memcheck, one run, loaded 2 vCPU): vectorAdd 16M 7.1x (a call per access
 *    gave 18.8x, a 1-entry cache that missed on 3 arrays 92x), tiled SGEMM 512 2.8x (17x
 *    before the inline .shared check).
 *  - Warp-synchronous code (ptx_lockstep.c, pass "lockstep" before lower): accesses through
 *    which a warp's threads exchange data without a barrier become stop points of phase mode
 *    (PK_LOCKSTEP: the access runs after the stop), branches that may split a warp around such
 *    points push their immediate post-dominator ("__rspush") and threads wait there
 *    ("__reconv", PK_RECONV) until their warp has left the region; barriers wait while any
 *    thread is at one of these. Kernels phase mode refuses run them on fibers (rt->ls_*).
 *    Measured: cupy.partition of 64K floats (kth 100) 28.6 ms with wrong results -> 1113 ms
 *    exact with a per-lane scan of the other lanes' stacks -> 207-231 ms with one scan per
 *    warp and point; 1.5x slower again on fibers. bench_kernels and CuPy's radix sort: no
 *    change (their kernels mark nothing, or few points in code that is on fibers anyway).
 *    NPU_PTX_NO_LOCKSTEP=1 turns it off.
 *  - wmma (m16n16k16, f16/bf16 inputs, f16/f32 accumulators): loads and stores per lane, the
 *    MMA once per warp by the prelude's __wmma_mma, in phase mode from the resolver, on fibers
 *    from rt->wmma_mma (the last lane to arrive runs it with the warp's 32 fragments). An a or
 *    b fragment holds its tile in the element order of its layout (PTX requires the mma's
 *    layout qualifiers to match the load's), so every fragment load is one contiguous copy per
 *    lane. cuda-samples cudaTensorCoreGemm (4096^3, its compute_gemm fully unrolled: 2048 MMAs
 *    per thread, refused by phase mode) failed with "needs a block-mode kernel with phases";
 *    on fibers: 94 s, then 47 s with the vectorized __wmma_mma (16 zmm accumulators, vcvtph2ps;
 *    __h2d called ldexp per element) and contiguous fragment loads.
 *  - Unsupported, reported by name with NPU_EPTXUNSUP: textures/surfaces, mma/ldmatrix, wmma
 *    shapes other than m16n16k16, cp.async.bulk/mbarrier, brx.idx, vector atomics, cvt.pack,
 *    8-bit float types, clusters beyond size 1, indirect calls with register arguments.
 */
#include "ptx_internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(NPU_KABI_VERSION == 6, "npu_kabi.h changed: check the prelude and bump PTX_TRANSLATOR_VERSION");

/* The texts pasted into every generated file (see the header comment of ptx_prelude.h). */
__asm__(".section .rodata\n"
        ".balign 16\n"
        "ptx_kabi_text:\n"
        ".incbin \"npu_runtime/kernel/npu_kabi.h\"\n"
        ".byte 0\n"
        ".balign 16\n"
        "ptx_prelude_text:\n"
        ".incbin \"npu_runtime/kernel/ptx_prelude.h\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char ptx_kabi_text[] __attribute__((visibility("hidden")));
extern const char ptx_prelude_text[] __attribute__((visibility("hidden")));

/* ------------------------------------------------------------ string builder ---- */
typedef struct sb { char *s; size_t n, cap; int oom; } sb_t;

static void sb_vadd(sb_t *b, const char *fmt, va_list ap)
{
    if (b->oom) return;
    va_list ap2;
    va_copy(ap2, ap);
    int k = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (k < 0) { b->oom = 1; return; }
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 4096;
        while (nc < b->n + (size_t)k + 1) nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) { b->oom = 1; return; }
        b->s = ns;
        b->cap = nc;
    }
    vsnprintf(b->s + b->n, (size_t)k + 1, fmt, ap);
    b->n += (size_t)k;
}

static void __attribute__((format(printf, 2, 3))) sb_add(sb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vadd(b, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ emitter state ---- */
typedef struct ty { char c; int sz; } ty_t;  /* c: u s f h(f16) g(bf16) H(f16x2) G(bf16x2) p */

/* a masked region of the lane copy (lane_regions): the branch, its join, the enclosing region */
typedef struct lregion { int br, join, parent, depth; } lregion_t;
#define LANE_MASK_DEPTH 8   /* region nesting around a lane-copy stop (mask slots per group) */

typedef struct emit {
    ptx_prog_t *p;
    ptx_func_t *entry, *f;
    int in_entry, thread_mode;
    sb_t out;
    npu_status_t st;
    ptx_func_t **funcs; int nfuncs, capfuncs;
    ptx_var_t **globals; int nglobals, capglobals;
    ptx_var_t **shv; uint32_t *shoff; int nsh, capsh;
    uint32_t shared_size;
    uint32_t *loff; uint32_t lsize;          /* current function's .local layout */
    uint32_t lalign;                         /* its frame alignment: 16 or the largest .align */
    npu_kparam_t *kp; uint32_t kp_size;      /* entry param layout */
    char **strs; int nstrs, capstrs;         /* temporaries */
    int tmp;                                 /* temp counter */
    int scopes[256]; int nscopes;            /* open body scopes, innermost last */
    /* phase mode (block mode with bar.sync split into per-thread resume points) */
    int phase;
    int nbar; int *bar_insn;                 /* insn index of each barrier (1-based ids) */
    unsigned char *bar_vb;                   /* the lane copy emitted stop k (its label __VB<k+1>) */
    char ***bar_live; int *bar_nlive;        /* registers live across each barrier */
    int memcheck;                            /* TRANSFER_TO_NPU_MEMCHECK: checked accesses */
    /* lane groups (see "Lane groups" in the header): the entry's vector copy */
    int lanes;                               /* the entry gets a lane-group copy */
    int lanes32;                             /* ... of 32 lanes (lane_width), else 16 */
    int lane;                                /* emitting that copy: registers are w_X[__l] */
    int lane_bad;                            /* the instruction just emitted cannot run as lanes */
    int lane_fuse;                           /* ... is a plain per-lane statement (fusable) */
    const char *lane_tail;                   /* ... left a per-lane statement for the fused loop */
    const char *lane_uni_dest;               /* ... is a uniform statement writing this register */
    const char **pread; int npread, cappread; /* registers the pending fused statements read */
    char *divpt;                             /* per entry insn: the scalar copy needs entry label __D<i> */
    struct lreg *lr; int nlr, caplr;         /* lane classes of the entry's registers (lane_classify) */
    int *lrh; int lrhcap;                    /* name -> index hash (open addressing) */
    char *hoist;                             /* per entry insn: computed once per block (lane_mark_hoist) */
    sb_t hoisted;                            /* ... their lane-copy text */
    const char *sa_dst, *sa_to;              /* lane copy: a write to register sa_dst goes to sa_to */
    int nlockstep;                           /* entry accesses marked by ptx_lockstep_mark */
    int ls_inner;                            /* emitting the access after its lockstep stop */
    int ls_idx;                              /* lane copy: index of that access */
    uint64_t *lv; int lvw, nlvr;             /* live_compute: live-in sets, words per set, registers */
    const char **lvn; struct regix *lvmap;   /* ... register names by index, name -> index */
    struct labix *labmap;                    /* label name -> instruction index (label_index) */
    struct lregion *rg; int nrg;             /* masked regions of the lane copy (lane_regions) */
    int *rin;                                /* per entry insn: innermost region holding it, -1 none */
    int *rstart;                             /* per entry insn: 1 + the region this branch opens, 0 none */
    int crg;                                 /* lane copy: region of the instruction being emitted */
    int gam_depth;                           /* deepest region nesting at a lane-copy stop (mask slots) */
    ptx_func_t *lkf; int lkn;                /* lookup_index: the function and local count it indexes */
    struct lkent *lkmap;                     /* ... its locals by name */
} emit_t;
static uint32_t lstride(const struct emit *E);


static const char *S(emit_t *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *S(emit_t *E, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *r = NULL;
    if (vasprintf(&r, fmt, ap) < 0) r = NULL;
    va_end(ap);
    if (!r) { E->st = NPU_EHOSTMEM; return "0"; }
    if (E->nstrs == E->capstrs) {
        int nc = E->capstrs ? E->capstrs * 2 : 256;
        char **ns = realloc(E->strs, (size_t)nc * sizeof *ns);
        if (!ns) { free(r); E->st = NPU_EHOSTMEM; return "0"; }
        E->strs = ns;
        E->capstrs = nc;
    }
    E->strs[E->nstrs++] = r;
    return r;
}

static void fail(emit_t *E, npu_status_t st, const ptx_insn_t *in, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(emit_t *E, npu_status_t st, const ptx_insn_t *in, const char *fmt, ...)
{
    if (E->lane && st != NPU_EHOSTMEM) {   /* the lane copy: that instruction runs per thread (the */
        E->lane_bad = 1;                    /* per-thread copy reports it, if it is an error there) */
        return;
    }
    if (E->st != NPU_OK)
        return;
    E->st = st;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    NPU_ERR("ptx: kernel %s%s%s line %d: %s%s", E->entry->name,
            E->f && E->f != E->entry ? ", function " : "", E->f && E->f != E->entry ? E->f->name : "",
            in ? in->line : (E->f ? E->f->line : 0), msg,
            st == NPU_EPTXUNSUP ? " (not supported by the NPU translator)" : "");
}

/* C identifier for a PTX name: alnum kept, '_' -> "__", '%' -> "_P", '$' -> "_D", '.' -> "_o". */
static const char *mangle(emit_t *E, const char *pfx, const char *n)
{
    size_t L = strlen(n);
    char *buf = malloc(strlen(pfx) + 2 * L + 1);
    if (!buf) { E->st = NPU_EHOSTMEM; return "x"; }
    char *o = buf + sprintf(buf, "%s", pfx);
    for (const char *c = n; *c; c++) {
        if (isalnum((unsigned char)*c)) *o++ = *c;
        else if (*c == '_') { *o++ = '_'; *o++ = '_'; }
        else if (*c == '%') { *o++ = '_'; *o++ = 'P'; }
        else if (*c == '$') { *o++ = '_'; *o++ = 'D'; }
        else { *o++ = '_'; *o++ = 'o'; }
    }
    *o = 0;
    const char *r = S(E, "%s", buf);
    free(buf);
    return r;
}

/* ------------------------------------------------------------ types ---- */
static ty_t ty_of(const char *t)
{
    ty_t r = {0, 0};
    if (!t) return r;
    if (!strcmp(t, "pred")) { r.c = 'p'; r.sz = 1; }
    else if (!strcmp(t, "f32")) { r.c = 'f'; r.sz = 4; }
    else if (!strcmp(t, "f64")) { r.c = 'f'; r.sz = 8; }
    else if (!strcmp(t, "f16")) { r.c = 'h'; r.sz = 2; }
    else if (!strcmp(t, "bf16")) { r.c = 'g'; r.sz = 2; }
    else if (!strcmp(t, "f16x2")) { r.c = 'H'; r.sz = 4; }
    else if (!strcmp(t, "bf16x2")) { r.c = 'G'; r.sz = 4; }
    else if ((t[0] == 'u' || t[0] == 'b' || t[0] == 's') && isdigit((unsigned char)t[1])) {
        char *end;
        long bits = strtol(t + 1, &end, 10);
        if (*end) return r;   /* .u16x2 / .s16x2 are packed pairs, not 16-bit scalars: their own paths */
        if (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128) {
            r.c = t[0] == 's' ? 's' : 'u';
            r.sz = bits / 8;
        }
    }
    return r;
}
static ty_t TY(char c, int sz) { ty_t t = {c, sz}; return t; }
static int is_int(ty_t t) { return t.c == 'u' || t.c == 's'; }

static const char *ut_name(int sz)
{
    switch (sz) { case 1: return "uint8_t"; case 2: return "uint16_t"; case 4: return "uint32_t";
                  case 8: return "uint64_t"; default: return "u128_t"; }
}
static const char *st_name(int sz)
{
    switch (sz) { case 1: return "int8_t"; case 2: return "int16_t"; case 4: return "int32_t";
                  case 8: return "int64_t"; default: return "s128_t"; }
}
static const char *ct(ty_t t)
{
    if (t.c == 'f') return t.sz == 4 ? "float" : "double";
    if (t.c == 'p') return "int";
    if (t.c == 's') return st_name(t.sz);
    return ut_name(t.sz);
}
static const char *ut(ty_t t) { return t.c == 'p' ? "int" : ut_name(t.sz); }

/* register class of a declaration */
static ty_t reg_ty(const ptx_var_t *v)
{
    ty_t t = ty_of(v->type);
    if (t.c == 'p' || t.c == 'f') return t;
    return TY('u', t.sz ? t.sz : 4);
}

/* ------------------------------------------------------------ symbols ---- */
enum { SY_NONE, SY_REG, SY_SPECIAL, SY_KPARAM, SY_PARR, SY_LOCAL, SY_SHARED, SY_GLOBAL, SY_FUNC };
typedef struct sym { int kind; ptx_var_t *v; int idx; ty_t ty; const char *cname; } sym_t;

static int reg_match(const ptx_var_t *v, const char *name)
{
    size_t n = strlen(v->name);
    if (strncmp(v->name, name, n)) return 0;
    if (!v->nregs) return name[n] == 0;
    const char *d = name + n;
    if (!*d) return 0;
    for (const char *q = d; *q; q++)
        if (!isdigit((unsigned char)*q)) return 0;
    if (d[0] == '0' && d[1]) return 0;
    return atol(d) < v->nregs;
}

static const char *special_expr(emit_t *E, const char *n, ty_t *ty)
{
    int blk = E->in_entry && !E->thread_mode;
    *ty = TY('u', 4);
    static const char *xyz = "xyz";
    const char *dot = strchr(n, '.');
    if (dot && dot[1] && !dot[2] && strchr(xyz, dot[1])) {
        int i = (int)(strchr(xyz, dot[1]) - xyz);
        size_t bl = (size_t)(dot - n);
        if (bl == 4 && !strncmp(n, "%tid", 4)) {
            if (E->lane && i == 0) return "(__xg + __l)";
            return blk ? S(E, "__%c", dot[1]) : S(E, "t->tid[%d]", i);
        }
        /* block mode: copies taken before the thread loop (stores through kernel pointers
         * may alias *b as far as gcc knows, so b->... would be reloaded per thread) */
        if (bl == 5 && !strncmp(n, "%ntid", 5)) return blk ? S(E, "__ntid%d", i) : S(E, "b->ntid[%d]", i);
        if (bl == 6 && !strncmp(n, "%ctaid", 6)) return blk ? S(E, "__ctaid%d", i) : S(E, "b->ctaid[%d]", i);
        if (bl == 7 && !strncmp(n, "%nctaid", 7)) return blk ? S(E, "__nctaid%d", i) : S(E, "b->nctaid[%d]", i);
        if (!strncmp(n, "%cluster_ctaid", bl) || !strncmp(n, "%clusterid", bl)) {
            if (bl == 10) return S(E, "b->ctaid[%d]", i);   /* %clusterid: clusters of one CTA */
            return "0u";
        }
        if (!strncmp(n, "%cluster_nctaid", bl)) return "1u";
        if (!strncmp(n, "%nclusterid", bl)) return S(E, "b->nctaid[%d]", i);
        return NULL;
    }
    const char *lin = E->lane ? "(__ling + __l)" : blk ? "__lin" : "t->linear";
    if (!strcmp(n, "%laneid")) return S(E, "(%s & 31u)", lin);
    if (!strcmp(n, "%warpid")) return S(E, "(%s >> 5)", lin);
    if (!strcmp(n, "%nwarpid")) return "((b->nthreads + 31u) >> 5)";
    if (!strcmp(n, "%lanemask_eq")) return S(E, "(1u << (%s & 31u))", lin);
    if (!strcmp(n, "%lanemask_le")) return S(E, "((uint32_t)((2ull << (%s & 31u)) - 1u))", lin);
    if (!strcmp(n, "%lanemask_lt")) return S(E, "((1u << (%s & 31u)) - 1u)", lin);
    if (!strcmp(n, "%lanemask_ge")) return S(E, "(~((1u << (%s & 31u)) - 1u))", lin);
    if (!strcmp(n, "%lanemask_gt")) return S(E, "(~(uint32_t)((2ull << (%s & 31u)) - 1u))", lin);
    if (!strcmp(n, "%clock")) return "((uint32_t)rt->clock64(t))";
    if (!strcmp(n, "%clock_hi")) return "((uint32_t)(rt->clock64(t) >> 32))";
    if (!strcmp(n, "%clock64")) { *ty = TY('u', 8); return "rt->clock64(t)"; }
    if (!strcmp(n, "%globaltimer")) { *ty = TY('u', 8); return "rt->globaltimer(t)"; }
    if (!strcmp(n, "%globaltimer_lo")) return "((uint32_t)rt->globaltimer(t))";
    if (!strcmp(n, "%globaltimer_hi")) return "((uint32_t)(rt->globaltimer(t) >> 32))";
    if (!strcmp(n, "%smid")) return "b->smid";
    if (!strcmp(n, "%nsmid")) return "b->nsmid";
    if (!strcmp(n, "%gridid")) { *ty = TY('u', 8); return "0ull"; }
    if (!strcmp(n, "%dynamic_smem_size")) return "(b->shared_size - b->dyn_shared_offset)";
    if (!strcmp(n, "%total_smem_size")) return "b->shared_size";
    if (!strcmp(n, "%aggr_smem_size")) return "b->shared_size";
    if (!strcmp(n, "%cluster_ctarank") || !strcmp(n, "%is_explicit_cluster")) return "0u";
    if (!strcmp(n, "%cluster_nctarank")) return "1u";
    if (!strncmp(n, "%envreg", 7) && isdigit((unsigned char)n[7])) return "0u";
    if (!strncmp(n, "%pm", 3) && isdigit((unsigned char)n[3])) return "0u";
    return NULL;
}

static int shared_index(emit_t *E, ptx_var_t *v)
{
    for (int i = 0; i < E->nsh; i++)
        if (E->shv[i] == v) return i;
    if (E->nsh == E->capsh) {
        int nc = E->capsh ? E->capsh * 2 : 16;
        ptx_var_t **a = realloc(E->shv, (size_t)nc * sizeof *a);
        uint32_t *o = a ? realloc(E->shoff, (size_t)nc * sizeof *o) : NULL;
        if (a) E->shv = a;
        if (!a || !o) { E->st = NPU_EHOSTMEM; return 0; }
        E->shoff = o;
        E->capsh = nc;
    }
    uint32_t off = 0;
    if (!(v->count < 0 || v->is_extern)) {
        uint32_t al = (uint32_t)(v->align > 0 ? v->align : 1);
        off = (E->shared_size + al - 1) / al * al;
        E->shared_size = off + (uint32_t)(v->tsize * (v->count > 0 ? v->count : 1));
    }
    E->shv[E->nsh] = v;
    E->shoff[E->nsh] = off;
    return E->nsh++;
}

static int global_index(emit_t *E, ptx_var_t *v)
{
    for (int i = 0; i < E->nglobals; i++)
        if (!strcmp(E->globals[i]->name, v->name)) return i;
    if (E->nglobals == E->capglobals) {
        int nc = E->capglobals ? E->capglobals * 2 : 8;
        ptx_var_t **a = realloc(E->globals, (size_t)nc * sizeof *a);
        if (!a) { E->st = NPU_EHOSTMEM; return 0; }
        E->globals = a;
        E->capglobals = nc;
    }
    E->globals[E->nglobals] = v;
    return E->nglobals++;
}

static int lane_uni_reg(emit_t *E, const char *name);
static int lane_sa_reg(emit_t *E, const char *name);
static const char *lane_sa_value(emit_t *E, const char *name, ty_t t, const char *lane);
/* The current function's locals by name, for lookup: a declaration "%r<N>" is filed under
 * "%r", any other under its name, so a name's candidates are the entries for itself and for
 * its non-digit prefix. Scanning every local with reg_match per lookup was quadratic in CUB's
 * kernels (hundreds of renamed inline-asm predicates) and most of their translation time. */
#include <uthash.h>
typedef struct lkent { const char *name; int *ix; int n, cap; UT_hash_handle hh; } lkent_t;

static void lookup_index_free(emit_t *E)
{
    lkent_t *e, *t2;
    HASH_ITER(hh, E->lkmap, e, t2) { HASH_DEL(E->lkmap, e); free(e->ix); free(e); }
    E->lkmap = NULL;
    E->lkf = NULL;
}

static int lookup_index(emit_t *E, ptx_func_t *f)
{
    if (E->lkf == f && E->lkn == f->nlocals) return 1;
    lookup_index_free(E);
    for (int i = 0; i < f->nlocals; i++) {
        const char *nm = f->locals[i].name;
        lkent_t *e;
        HASH_FIND_STR(E->lkmap, nm, e);
        if (!e) {
            e = calloc(1, sizeof *e);
            if (!e) { lookup_index_free(E); return 0; }
            e->name = nm;
            HASH_ADD_KEYPTR(hh, E->lkmap, e->name, strlen(e->name), e);
        }
        if (e->n == e->cap) {
            int nc = e->cap ? 2 * e->cap : 2;
            int *a = realloc(e->ix, (size_t)nc * sizeof *a);
            if (!a) { lookup_index_free(E); return 0; }
            e->ix = a;
            e->cap = nc;
        }
        e->ix[e->n++] = i;
    }
    E->lkf = f;
    E->lkn = f->nlocals;
    return 1;
}

static sym_t lookup(emit_t *E, const char *name)
{
    sym_t s;
    memset(&s, 0, sizeof s);
    ptx_func_t *f = E->f;
    int best = -1, bestpos = -1;
    if (lookup_index(E, f)) {
        size_t L = strlen(name), pl = L;
        while (pl > 0 && isdigit((unsigned char)name[pl - 1])) pl--;
        for (int pass = 0; pass < 2; pass++) {
            lkent_t *e = NULL;
            if (pass == 0) HASH_FIND_STR(E->lkmap, name, e);
            else if (pl > 0 && pl < L) HASH_FIND(hh, E->lkmap, name, pl, e);
            for (int q = 0; e && q < e->n; q++) {
                int i = e->ix[q];
                ptx_var_t *v = &f->locals[i];
                if (v->space == SP_REG ? !reg_match(v, name) : strcmp(v->name, name)) continue;
                int pos = -1;
                for (int k = E->nscopes - 1; k >= 0 && pos < 0; k--)
                    if (E->scopes[k] == v->scope) pos = k;
                if (pos > bestpos || (pos == bestpos && i < best)) { bestpos = pos; best = i; }   /* the first, as a scan would */
            }
        }
    } else
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->space == SP_REG ? !reg_match(v, name) : strcmp(v->name, name)) continue;
        int pos = -1;
        for (int k = E->nscopes - 1; k >= 0 && pos < 0; k--)
            if (E->scopes[k] == v->scope) pos = k;
        if (pos > bestpos) { bestpos = pos; best = i; }
    }
    for (int i = best; i >= 0 && i <= best; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->space == SP_REG) {
            if (reg_match(v, name)) {
                s.kind = SY_REG; s.v = v; s.ty = reg_ty(v);
                if (E->lane && lane_sa_reg(E, name))   /* an expression: written only by emit_lane_sa */
                    s.cname = lane_sa_value(E, name, s.ty, "__l");
                else
                    s.cname = E->lane ? S(E, lane_uni_reg(E, name) ? "%s[0]" : "%s[__l]", mangle(E, "w_", name)) : mangle(E, "r_", name);
                return s;
            }
        } else if (!strcmp(v->name, name)) {
            s.v = v;
            if (v->space == SP_PARAM) { s.kind = SY_PARR; s.cname = mangle(E, "pa_", name); }
            else if (v->space == SP_LOCAL) { s.kind = SY_LOCAL; s.idx = i; }
            else if (v->space == SP_SHARED) { s.kind = SY_SHARED; s.idx = shared_index(E, v); }
            else if (v->space == SP_GLOBAL || v->space == SP_CONST) {
                s.kind = SY_GLOBAL; s.idx = global_index(E, v);
            }
            return s;
        }
    }
    for (int k = 0; k < 2; k++) {
        ptx_var_t *arr = k ? f->rets : f->params;
        int n = k ? f->nrets : f->nparams;
        for (int i = 0; i < n; i++)
            if (!strcmp(arr[i].name, name)) {
                s.v = &arr[i];
                if (arr[i].space == SP_REG) {
                    s.kind = SY_REG; s.ty = reg_ty(&arr[i]);
                    if (E->lane) E->lane_bad = 1;   /* .func register parameters: entries have none */
                    s.cname = mangle(E, "r_", name);
                } else if (f->is_entry) {
                    s.kind = SY_KPARAM; s.idx = i;
                } else {
                    s.kind = SY_PARR; s.cname = mangle(E, "pa_", name);
                }
                return s;
            }
    }
    if (name[0] == '%') {
        const char *x = special_expr(E, name, &s.ty);
        if (x) { s.kind = SY_SPECIAL; s.cname = x; return s; }
    }
    ptx_var_t *v = ptx_find_var(E->p, name);
    if (v) {
        s.v = v;
        if (v->space == SP_SHARED) { s.kind = SY_SHARED; s.idx = shared_index(E, v); }
        else if (v->space == SP_GLOBAL || v->space == SP_CONST) { s.kind = SY_GLOBAL; s.idx = global_index(E, v); }
        else if (v->space == SP_LOCAL) { s.kind = SY_NONE; }
        return s;
    }
    if (ptx_find_func(E->p, name)) { s.kind = SY_FUNC; return s; }
    return s;
}

/* Address value of a symbol (as uint64_t). */
static const char *sym_addr(emit_t *E, const ptx_insn_t *in, sym_t *s, const char *name)
{
    switch (s->kind) {
    case SY_KPARAM: return S(E, "((uint64_t)(uintptr_t)(params + %u))", E->kp[s->idx].offset);
    case SY_PARR: return S(E, "((uint64_t)(uintptr_t)%s)", s->cname);
    case SY_LOCAL: return S(E, "((uint64_t)(uintptr_t)(__lf + %u))", E->loff[s->idx]);
    case SY_SHARED:
        if (s->v->count < 0 || s->v->is_extern) return "((uint64_t)b->dyn_shared_offset)";
        return S(E, "((uint64_t)%uu)", E->shoff[s->idx]);
    case SY_GLOBAL: return S(E, "((uint64_t)(uintptr_t)npu_globals[%d])", s->idx);
    case SY_FUNC: {
        ptx_func_t *g = ptx_find_func(E->p, name);
        if (g && !g->is_decl && !g->is_entry) return S(E, "0x%llxull", (unsigned long long)PTX_FN_TOKEN(g - E->p->funcs));
        fail(E, NPU_EPTXUNSUP, in, "address of function %s", name);
        return "0";
    }
    default:
        fail(E, NPU_EPTX, in, "undefined symbol %s", name);
        return "0";
    }
}

/* ------------------------------------------------------------ operand read/write ---- */
static const char *reg_bits(emit_t *E, const char *R, ty_t rt)
{
    if (rt.c == 'f') return rt.sz == 4 ? S(E, "__f2u(%s)", R) : S(E, "__d2u(%s)", R);
    if (rt.c == 'p') return S(E, "((uint32_t)%s)", R);
    return R;
}

static const char *conv(emit_t *E, const char *R, ty_t rt, ty_t t)
{
    if (t.c == 'p') return rt.c == 'p' ? R : S(E, "(%s != 0)", reg_bits(E, R, rt));
    if (t.c == 'f') {
        if (rt.c == 'f' && rt.sz == t.sz) return R;
        const char *bits = reg_bits(E, R, rt);
        return t.sz == 4 ? S(E, "__u2f((uint32_t)%s)", bits) : S(E, "__u2d((uint64_t)%s)", bits);
    }
    if (rt.c == 'u' && rt.sz == t.sz) return t.c == 's' ? S(E, "((%s)%s)", ct(t), R) : R;
    return S(E, "((%s)(%s)%s)", ct(t), ut(t), reg_bits(E, R, rt));
}

static const char *rd(emit_t *E, const ptx_insn_t *in, const ptx_opnd_t *o, ty_t t)
{
    switch (o->kind) {
    case OP_REG:
    case OP_SYM: {
        sym_t s = lookup(E, o->name);
        const char *r;
        if (s.kind == SY_REG) r = conv(E, s.cname, s.ty, t);
        else if (s.kind == SY_SPECIAL) r = conv(E, s.cname, s.ty, t);
        else {
            const char *a = sym_addr(E, in, &s, o->name);
            if (o->off) a = S(E, "(%s + (uint64_t)%lldll)", a, o->off);
            r = conv(E, a, TY('u', 8), t);
        }
        if (o->neg) r = S(E, "(!%s)", r);
        return r;
    }
    case OP_IMM:
        if (t.c == 'f') return t.sz == 4 ? S(E, "((float)%lld)", (long long)o->imm) : S(E, "((double)%lld)", (long long)o->imm);
        if (t.c == 'p') return o->imm ? "1" : "0";
        return S(E, "((%s)0x%llxull)", ct(t), (unsigned long long)o->imm);
    case OP_FIMM:
        if (t.c == 'f') return t.sz == 4 ? S(E, "__u2f(0x%08llxu)", (unsigned long long)o->imm)
                                         : S(E, "((double)__u2f(0x%08llxu))", (unsigned long long)o->imm);
        return S(E, "((%s)0x%llxu)", ct(t), (unsigned long long)o->imm);
    case OP_DIMM:
        if (t.c == 'f') return t.sz == 8 ? S(E, "__u2d(0x%016llxull)", (unsigned long long)o->imm)
                                         : S(E, "((float)__u2d(0x%016llxull))", (unsigned long long)o->imm);
        return S(E, "((%s)0x%llxull)", ct(t), (unsigned long long)o->imm);
    case OP_DEC:
        if (t.c == 'f') return S(E, "((%s)%a)", ct(t), o->dval);
        return S(E, "((%s)%.0f)", ct(t), o->dval);
    case OP_VEC: {
        /* packing {a,b,...} into one value of type t */
        if (!is_int(t) && t.c != 'f' && t.c != 'H' && t.c != 'G') break;
        int n = o->nelem, esz = t.sz / (n ? n : 1);
        if (n < 1 || esz < 1) break;
        const char *acc = "0";
        ty_t wide = TY('u', t.sz), et = TY('u', esz);
        for (int i = 0; i < n; i++)
            acc = S(E, "(%s | ((%s)%s << %d))", acc, ut(wide), rd(E, in, &o->elem[i], et), 8 * esz * i);
        if (t.c == 'f') return t.sz == 4 ? S(E, "__u2f((uint32_t)%s)", acc) : S(E, "__u2d((uint64_t)%s)", acc);
        return S(E, "((%s)%s)", ct(t), acc);
    }
    default: break;
    }
    fail(E, NPU_EPTX, in, "bad operand for %s", in->opcode);
    return "0";
}

static const char *tobits(emit_t *E, ty_t t, const char *x)
{
    if (t.c == 'f') return t.sz == 4 ? S(E, "__f2u(%s)", x) : S(E, "__d2u(%s)", x);
    if (t.c == 'p') return S(E, "((uint32_t)(%s))", x);
    return S(E, "((%s)(%s))", ut(t), x);
}

/* assignment to a register named name (or sink) */
static void wr_name(emit_t *E, const ptx_insn_t *in, const char *name, ty_t t, const char *x)
{
    if (!name || !strcmp(name, "_")) { sb_add(&E->out, "(void)(%s);", x); return; }
    sym_t s = lookup(E, name);
    if (s.kind != SY_REG) {
        fail(E, NPU_EPTX, in, "destination %s of %s is not a register", name, in->opcode);
        return;
    }
    ty_t r = s.ty;
    const char *R = s.cname;
    if (E->sa_dst && !strcmp(name, E->sa_dst)) R = E->sa_to;
    if (r.c == 'p') {
        if (t.c == 'p') sb_add(&E->out, "%s = (%s);", R, x);
        else sb_add(&E->out, "%s = ((%s) != 0);", R, x);
    } else if (r.c == 'f') {
        if (t.c == 'f' && t.sz == r.sz) sb_add(&E->out, "%s = %s;", R, x);
        else if (r.sz == 4) sb_add(&E->out, "%s = __u2f((uint32_t)%s);", R, tobits(E, t, x));
        else sb_add(&E->out, "%s = __u2d((uint64_t)%s);", R, tobits(E, t, x));
    } else {
        if (t.c == 's' && r.sz > t.sz) sb_add(&E->out, "%s = (%s)(%s)(%s);", R, ut(r), ct(t), x);
        else sb_add(&E->out, "%s = (%s)%s;", R, ut(r), tobits(E, t, x));
    }
}

static void wr(emit_t *E, const ptx_insn_t *in, const ptx_opnd_t *o, ty_t t, const char *x)
{
    if (o->kind == OP_SINK) { sb_add(&E->out, "(void)(%s);", x); return; }
    if (o->kind == OP_VEC) {
        int n = o->nelem, esz = t.sz / (n ? n : 1);
        if (n < 1 || esz < 1) { fail(E, NPU_EPTX, in, "bad vector destination"); return; }
        int k = E->tmp++;
        sb_add(&E->out, "{ %s __v%d = %s; ", ut_name(t.sz), k, tobits(E, t, x));
        for (int i = 0; i < n; i++)
            if (o->elem[i].kind != OP_SINK)
                wr(E, in, &o->elem[i], TY('u', esz), S(E, "(%s)(__v%d >> %d)", ut_name(esz), k, 8 * esz * i));
        sb_add(&E->out, "}");
        return;
    }
    if (o->kind != OP_REG && o->kind != OP_SYM) { fail(E, NPU_EPTX, in, "destination of %s is not a register", in->opcode); return; }
    wr_name(E, in, o->name, t, x);
}

/* ------------------------------------------------------------ instruction helpers ---- */
static int has(const ptx_insn_t *in, const char *m)
{
    for (int i = 1; i < in->nmods; i++)
        if (!strcmp(in->mods[i], m)) return 1;
    return 0;
}
static int has_prefix(const ptx_insn_t *in, const char *m)
{
    size_t n = strlen(m);
    for (int i = 1; i < in->nmods; i++)
        if (!strncmp(in->mods[i], m, n)) return 1;
    return 0;
}
/* i-th type modifier (0-based), or {0,0} */
static ty_t ity(const ptx_insn_t *in, int k)
{
    for (int i = 1; i < in->nmods; i++) {
        ty_t t = ty_of(in->mods[i]);
        if (t.c && k-- == 0) return t;
    }
    return TY(0, 0);
}
static int rmode(const ptx_insn_t *in)   /* 0 rn 1 rz 2 rm 3 rp; integer-rounding +4 */
{
    if (has(in, "rz")) return 1;
    if (has(in, "rm")) return 2;
    if (has(in, "rp")) return 3;
    if (has(in, "rni")) return 4;
    if (has(in, "rzi")) return 5;
    if (has(in, "rmi")) return 6;
    if (has(in, "rpi")) return 7;
    return 0;
}
static int space_mod(const ptx_insn_t *in)
{
    for (int i = 1; i < in->nmods; i++) {
        const char *m = in->mods[i];
        if (!strncmp(m, "global", 6)) return SP_GLOBAL;
        if (!strncmp(m, "shared", 6)) return SP_SHARED;
        if (!strcmp(m, "local")) return SP_LOCAL;
        if (!strcmp(m, "const")) return SP_CONST;
        if (!strncmp(m, "param", 5)) return SP_PARAM;
    }
    return SP_NONE;
}

#define NEED(n) do { if (in->nops < (n)) { fail(E, NPU_EPTX, in, "%s needs %d operands", in->opcode, (n)); return; } } while (0)
#define A(i, t) rd(E, in, &in->ops[i], (t))
#define OUT(...) sb_add(&E->out, __VA_ARGS__)

/* Pointer (uint8_t *) to the operand address in space sp. */
static const char *addr(emit_t *E, const ptx_insn_t *in, const ptx_opnd_t *o, int sp)
{
    if (o->kind != OP_ADDR) {
        if (o->kind == OP_SYM || o->kind == OP_REG) {
            ptx_opnd_t t = *o;
            t.kind = OP_ADDR;
            return addr(E, in, &t, sp);
        }
        fail(E, NPU_EPTX, in, "%s needs an address operand", in->opcode);
        return "((uint8_t *)0)";
    }
    if (o->base_is_imm) {
        if (sp == SP_SHARED) return S(E, "(b->shared + (uint32_t)%lldll)", o->off);
        return S(E, "((uint8_t *)(uintptr_t)0x%llxull)", (unsigned long long)o->off);
    }
    sym_t s = lookup(E, o->name);
    const char *off = o->off ? S(E, " + (%lldll)", o->off) : "";
    if (s.kind == SY_REG) {
        const char *v = conv(E, s.cname, s.ty, TY('u', 8));
        if (sp == SP_SHARED) return S(E, "(b->shared + (uint32_t)(%s%s))", v, off);
        return S(E, "((uint8_t *)(uintptr_t)(%s%s))", v, off);
    }
    switch (s.kind) {
    case SY_KPARAM: return S(E, "((uint8_t *)params + %u%s)", E->kp[s.idx].offset, off);
    case SY_PARR: return S(E, "(%s%s)", s.cname, off);
    case SY_LOCAL:
        if (sp != SP_LOCAL && sp != SP_NONE) break;
        return S(E, "(__lf + %u%s)", E->loff[s.idx], off);
    case SY_SHARED:
        if (s.v->count < 0 || s.v->is_extern) return S(E, "(b->shared + b->dyn_shared_offset%s)", off);
        return S(E, "(b->shared + %u%s)", E->shoff[s.idx], off);
    case SY_GLOBAL: return S(E, "((uint8_t *)npu_globals[%d]%s)", s.idx, off);
    default: break;
    }
    fail(E, NPU_EPTX, in, "undefined or unusable address symbol %s", o->name);
    return "((uint8_t *)0)";
}

static const char *load_expr(emit_t *E, const char *p, ty_t t, int order)
{
    int sz = t.sz;
    if (sz == 16) return S(E, "(*(a_u128 *)(%s))", p);
    const char *bits;
    if (order == 1) bits = S(E, "(*(volatile %s *)(%s))", ut_name(sz), p);
    else if (order >= 2) bits = S(E, "__atomic_load_n((%s *)(%s), __ATOMIC_ACQUIRE)", ut_name(sz), p);
    else {
        if (t.c == 'f') return S(E, "(*(a_f%d *)(%s))", sz * 8, p);
        bits = S(E, "(*(a_u%d *)(%s))", sz * 8, p);
    }
    if (t.c == 'f') return sz == 4 ? S(E, "__u2f(%s)", bits) : S(E, "__u2d(%s)", bits);
    return S(E, "((%s)%s)", ct(t), bits);
}

static void store(emit_t *E, const char *p, ty_t t, const char *x, int order)
{
    int sz = t.sz;
    if (sz == 16) { OUT("*(a_u128 *)(%s) = (u128_t)(%s);", p, x); return; }
    const char *bits = tobits(E, t, x);
    if (order == 1) OUT("*(volatile %s *)(%s) = %s;", ut_name(sz), p, bits);
    else if (order >= 2) OUT("__atomic_store_n((%s *)(%s), %s, __ATOMIC_RELEASE);", ut_name(sz), p, bits);
    else if (t.c == 'f') OUT("*(a_f%d *)(%s) = %s;", sz * 8, p, x);
    else OUT("*(a_u%d *)(%s) = %s;", sz * 8, p, bits);
}

static int mem_order(const ptx_insn_t *in)
{
    if (has(in, "acquire") || has(in, "release") || has(in, "acq_rel") || has(in, "sc")) return 2;
    if (has(in, "volatile") || has(in, "relaxed") || has(in, "mmio")) return 1;
    return 0;
}

static int vec_n(const ptx_insn_t *in)
{
    if (has(in, "v2")) return 2;
    if (has(in, "v4")) return 4;
    if (has(in, "v8")) return 8;
    return 1;
}

/* ------------------------------------------------------------ instructions ---- */
static const char *fsuffix(ty_t t) { return t.sz == 4 ? "f32" : "f64"; }

static const char *fpost(emit_t *E, const ptx_insn_t *in, ty_t t, const char *x)
{
    if (t.c != 'f') return x;
    if (has(in, "ftz") && t.sz == 4) x = S(E, "__ftz32(%s)", x);
    if (has(in, "sat")) x = S(E, "__sat%d(%s)", t.sz * 8, x);
    return x;
}
static const char *fin(emit_t *E, const ptx_insn_t *in, int i, ty_t t)
{
    const char *x = A(i, t);
    if (t.c == 'f' && t.sz == 4 && has(in, "ftz")) x = S(E, "__ftz32(%s)", x);
    else if ((t.c == 'h' || t.c == 'g') && has(in, "ftz")) x = S(E, "%s(%s)", t.c == 'h' ? "__hftz" : "__bftz", x);
    return x;
}

static int half_flags(const ptx_insn_t *in)
{
    return (has(in, "ftz") ? 1 : 0) | (has(in, "sat") ? 2 : 0) | (has(in, "NaN") ? 4 : 0) | (has(in, "relu") ? 8 : 0);
}

/* rt->activemask with the instruction's identity: lanes waiting at the same PTX instruction
 * form one group. The call's return address was the identity before, but gcc duplicates a call
 * on the paths of an if/else it threads (a SASS-lifted vote after @!P0 IMAD got two call
 * sites, splitting one converged warp into two groups). */
static const char *am_call(emit_t *E, const ptx_insn_t *in)
{
    return S(E, "rt->activemask(t, %uu)", ((uint32_t)E->f->text_id << 24) ^ (uint32_t)in->line);
}

static int emit_half(emit_t *E, const ptx_insn_t *in, const char *op, ty_t t)
{
    static const char *ops[] = {"add", "sub", "mul", "min", "max", "neg", "abs", "fma"};
    int k = -1;
    for (int i = 0; i < 8; i++)
        if (!strcmp(op, ops[i])) k = i;
    if (k < 0) return 0;
    int bf = t.c == 'g' || t.c == 'G', two = t.c == 'H' || t.c == 'G';
    int nsrc = k == 7 ? 3 : (k == 5 || k == 6) ? 1 : 2;
    if (in->nops < nsrc + 1) { fail(E, NPU_EPTX, in, "missing operands"); return 1; }
    ty_t bt = two ? TY('u', 4) : TY('u', 2);
    const char *a = A(1, bt), *b = nsrc > 1 ? A(2, bt) : "0", *c = nsrc > 2 ? A(3, bt) : "0";
    int m = rmode(in) & 3;
    wr(E, in, &in->ops[0], bt, S(E, "%s(%s, %s, %s, %d, %d, %d, %d)", two ? "__hop2" : "__hop",
                                 a, b, c, k, bf, half_flags(in), m));
    return 1;
}

/* add/sub/fma .f32.{f16,bf16} (sm_100): an f32 result from 16-bit operands; not built */
static int f32_mixed(const ptx_insn_t *in) { return ity(in, 0).c == 'f' && ity(in, 1).c && ity(in, 1).c != 'f'; }

static int x2_int_mod(const ptx_insn_t *in)   /* 's' / 'u' for a .s16x2 / .u16x2 instruction */
{
    for (int i = 1; i < in->nmods; i++)
        if (!strcmp(in->mods[i], "s16x2") || !strcmp(in->mods[i], "u16x2")) return in->mods[i][0];
    return 0;
}

static void emit_arith(emit_t *E, const ptx_insn_t *in, const char *op)
{
    ty_t t = ity(in, 0);
    NEED(3);
    if (x2_int_mod(in) && (!strcmp(op, "add") || !strcmp(op, "sub")) && !has(in, "sat") && !has(in, "cc")) {
        ty_t u = TY('u', 4);   /* each 16-bit half on its own, wrapping */
        const char *a = A(1, u), *b = A(2, u), *c = op[0] == 'a' ? "+" : "-";
        wr(E, in, &in->ops[0], u, S(E, "((uint32_t)(uint16_t)(%s %s %s) | ((uint32_t)(uint16_t)((%s >> 16) %s (%s >> 16)) << 16))",
                                    a, c, b, a, c, b));
        return;
    }
    if (f32_mixed(in)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    if (t.c == 'h' || t.c == 'g' || t.c == 'H' || t.c == 'G') { if (emit_half(E, in, op, t)) return; }
    if (t.c == 'f') {
        int m = rmode(in) & 3;
        const char *a = fin(E, in, 1, t), *b = fin(E, in, 2, t);
        const char *x = S(E, "__%s_%s(%s, %s, %d)", op, fsuffix(t), a, b, m);
        wr(E, in, &in->ops[0], t, fpost(E, in, t, x));
        return;
    }
    if (!is_int(t)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    ty_t u = TY('u', t.sz);
    const char *a = A(1, u), *b = A(2, u);
    const char *c = op[0] == 'a' ? "+" : "-";
    if (has(in, "sat")) {
        if (t.sz != 4) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        wr(E, in, &in->ops[0], TY('s', 4), S(E, "((int32_t)__sat_s((int64_t)(int32_t)%s %s (int64_t)(int32_t)%s, 32))", a, c, b));
        return;
    }
    int cc = has(in, "cc"), ci = !strcmp(op, "addc") || !strcmp(op, "subc");
    if (!cc && !ci) { wr(E, in, &in->ops[0], u, S(E, "(%s)(%s %s %s)", ut(u), a, c, b)); return; }
    if (t.sz != 4 && t.sz != 8) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    const char *w = t.sz == 4 ? "uint64_t" : "u128_t";
    int k = E->tmp++;
    if (op[0] == 'a')
        OUT("{ %s __s%d = (%s)%s + (%s)%s%s; ", w, k, w, a, w, b, ci ? " + (__cc & 1)" : "");
    else   /* a + ~b + CF: the flag is the carry of the two's-complement sum (1 = no borrow),
            * as the hardware does; nvcc's own int128 division tests it with addc after subc */
        OUT("{ %s __s%d = (%s)%s + (%s)(%s)~%s + %s; ", w, k, w, a, w, ut(u), b, ci ? "(__cc & 1)" : "1");
    wr(E, in, &in->ops[0], u, S(E, "(%s)__s%d", ut(u), k));
    if (cc) OUT(" __cc = (uint32_t)(__s%d >> %d) & 1u;", k, t.sz * 8);
    OUT(" }");
}

static void emit_mul(emit_t *E, const ptx_insn_t *in, int mad)
{
    ty_t t = ity(in, 0);
    NEED(mad ? 4 : 3);
    /* not built: fma.f32.f16 (mixed operands), fma.oob (out-of-bounds NaN -> 0) */
    if (f32_mixed(in) || has(in, "oob")) {
        fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
        return;
    }
    if (t.c == 'h' || t.c == 'g' || t.c == 'H' || t.c == 'G') { if (emit_half(E, in, mad ? "fma" : "mul", t)) return; }
    if (t.c == 'f') {
        int m = rmode(in) & 3;
        const char *a = fin(E, in, 1, t), *b = fin(E, in, 2, t);
        const char *x = mad ? S(E, "__fma_%s(%s, %s, %s, %d)", fsuffix(t), a, b, fin(E, in, 3, t), m)
                            : S(E, "__mul_%s(%s, %s, %d)", fsuffix(t), a, b, m);
        wr(E, in, &in->ops[0], t, fpost(E, in, t, x));
        return;
    }
    if (!is_int(t)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    int sg = t.c == 's';
    const char *a = A(1, t), *b = A(2, t);
    if (!strcmp(in->mods[0], "mul24") || !strcmp(in->mods[0], "mad24")) {
        if (t.sz != 4 || has(in, "cc")) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        /* 24-bit operands (sign-extended for .s32), 48-bit product: .lo = bits 31..0, .hi = 47..16 */
        const char *ext = sg ? "(int64_t)((int32_t)((uint32_t)%s << 8) >> 8)" : "(int64_t)(%s & 0xffffffu)";
        const char *p = S(E, "((uint64_t)(%s * %s))", S(E, ext, A(1, TY('u', 4))), S(E, ext, A(2, TY('u', 4))));
        const char *x = has(in, "hi") ? S(E, "(uint32_t)(%s >> 16)", p) : S(E, "(uint32_t)%s", p);
        if (mad && sg && has(in, "sat") && has(in, "hi"))   /* mad24.hi.sat.s32: the sum clamped */
            x = S(E, "(uint32_t)__sat_s((int64_t)(int32_t)%s + (int64_t)(int32_t)%s, 32)", x, A(3, TY('u', 4)));
        else if (mad) x = S(E, "(uint32_t)(%s + %s)", x, A(3, TY('u', 4)));
        wr(E, in, &in->ops[0], TY('u', 4), x);
        return;
    }
    int n = t.sz * 8;
    const char *wide_s = t.sz == 8 ? "s128_t" : st_name(t.sz * 2);
    const char *wide_u = t.sz == 8 ? "u128_t" : ut_name(t.sz * 2);
    const char *W = sg ? wide_s : wide_u;
    if (has(in, "wide")) {
        if (t.sz > 4) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        ty_t wt = TY(t.c, t.sz * 2);
        const char *x = S(E, "((%s)((%s)%s * (%s)%s))", ut(wt), W, a, W, b);
        /* by a power of two (index scaling): a shift of the widened value. gcc's vectorizer took
         * the u16 x u16 -> u32 product for a widening multiply (vpmullw + vpmulhuw + permutes) */
        const ptx_opnd_t *bo = &in->ops[2];
        uint64_t bv = bo->kind == OP_IMM ? bo->imm & (t.sz == 4 ? 0xffffffffull : t.sz == 2 ? 0xffffull : 0xffull) : 0;
        if (bv && !(bv & (bv - 1)) && (!sg || !(bv >> (n - 1))))
            x = S(E, "((%s)((%s)(%s)%s << %d))", ut(wt), ut(wt), W, a, __builtin_ctzll(bv));
        if (mad) x = S(E, "((%s)(%s + %s))", ut(wt), x, A(3, TY('u', wt.sz)));
        wr(E, in, &in->ops[0], TY('u', wt.sz), x);
        return;
    }
    ty_t u = TY('u', t.sz);
    const char *x;
    if (has(in, "hi"))
        x = S(E, "((%s)(((%s)%s * (%s)%s) >> %d))", ut(t), W, a, W, b, n);
    else    /* .lo (mul24/mad24: the .lo product of the full inputs) */
        x = S(E, "((%s)((%s)%s * (%s)%s))", ut(u), ut(u), A(1, u), ut(u), A(2, u));
    if (!mad) { wr(E, in, &in->ops[0], u, x); return; }
    if (sg && t.sz == 4 && has(in, "hi") && has(in, "sat")) {   /* mad.hi.sat.s32: the sum clamped */
        wr(E, in, &in->ops[0], u, S(E, "(uint32_t)__sat_s((int64_t)(int32_t)%s + (int64_t)(int32_t)%s, 32)", x, A(3, u)));
        return;
    }
    int cc = has(in, "cc"), ci = !strcmp(in->mods[0], "madc");
    if (!cc && !ci) { wr(E, in, &in->ops[0], u, S(E, "((%s)(%s + %s))", ut(u), x, A(3, u))); return; }
    const char *w = t.sz == 4 ? "uint64_t" : "u128_t";
    int k = E->tmp++;
    OUT("{ %s __s%d = (%s)%s + (%s)%s%s; ", w, k, w, x, w, A(3, u), ci ? " + (__cc & 1)" : "");
    wr(E, in, &in->ops[0], u, S(E, "(%s)__s%d", ut(u), k));
    if (cc) OUT(" __cc = (uint32_t)(__s%d >> %d) & 1u;", k, n);
    OUT(" }");
}

static void emit_divrem(emit_t *E, const ptx_insn_t *in, int rem)
{
    ty_t t = ity(in, 0);
    NEED(3);
    if (t.c == 'f' && !rem) {
        int m = rmode(in) & 3;
        const char *x = S(E, "__div_%s(%s, %s, %d)", fsuffix(t), fin(E, in, 1, t), fin(E, in, 2, t), m);
        wr(E, in, &in->ops[0], t, fpost(E, in, t, x));
        return;
    }
    if (!is_int(t) || t.sz == 1 || t.sz == 16) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    /* the lane copy uses the vectorizable 32-bit forms (ptx_prelude.h: __div_u32v) */
    wr(E, in, &in->ops[0], t, S(E, "__%s_%c%d%s(%s, %s)", rem ? "rem" : "div", t.c, t.sz * 8,
                                E->lane && t.sz == 4 ? "v" : "", A(1, t), A(2, t)));
}

static void emit_minmax(emit_t *E, const ptx_insn_t *in, int mx)
{
    ty_t t = ity(in, 0);
    NEED(3);
    if (has(in, "xorsign")) {   /* min/max.xorsign.abs.f32: of |a| and |b|, the sign is sign(a) ^ sign(b) */
        if (t.c != 'f' || t.sz != 4 || in->nops > 3) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        const char *a = fin(E, in, 1, t), *b = fin(E, in, 2, t);
        const char *m = S(E, "__%s_f32(fabsf(%s), fabsf(%s), %d)", mx ? "max" : "min", a, b, has(in, "NaN"));
        wr(E, in, &in->ops[0], t, fpost(E, in, t, S(E, "__xorsign32(%s, %s, %s)", m, a, b)));
        return;
    }
    if (t.c == 'h' || t.c == 'g' || t.c == 'H' || t.c == 'G') { if (emit_half(E, in, mx ? "max" : "min", t)) return; }
    if (t.c == 'f') {
        if (in->nops > 3) { fail(E, NPU_EPTXUNSUP, in, "three-input %s", in->opcode); return; }
        const char *x = S(E, "__%s_%s(%s, %s, %d)", mx ? "max" : "min", fsuffix(t), fin(E, in, 1, t), fin(E, in, 2, t), has(in, "NaN"));
        wr(E, in, &in->ops[0], t, fpost(E, in, t, x));
        return;
    }
    if (x2_int_mod(in)) {   /* packed halves */
        if (in->nops > 3) { fail(E, NPU_EPTXUNSUP, in, "three-input %s", in->opcode); return; }
        ty_t u = TY('u', 4);
        wr(E, in, &in->ops[0], u, S(E, "__mm16x2(%s, %s, %d, %d, %d)", A(1, u), A(2, u), mx,
                                    x2_int_mod(in) == 's', has(in, "relu")));
        return;
    }
    if (!is_int(t)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    if (in->nops > 3) { fail(E, NPU_EPTXUNSUP, in, "three-input %s", in->opcode); return; }
    const char *a = A(1, t), *b = A(2, t);
    const char *x = S(E, "(%s %s %s ? %s : %s)", a, mx ? ">" : "<", b, a, b);
    if (has(in, "relu")) x = S(E, "(%s < 0 ? (%s)0 : %s)", x, ct(t), x);
    wr(E, in, &in->ops[0], t, x);
}

static void emit_unary(emit_t *E, const ptx_insn_t *in, const char *op)
{
    ty_t t = ity(in, 0);
    NEED(2);
    if ((t.c == 'h' || t.c == 'g' || t.c == 'H' || t.c == 'G') && (!strcmp(op, "abs") || !strcmp(op, "neg"))) {
        emit_half(E, in, op, t);
        return;
    }
    if (t.c == 'h' || t.c == 'g' || t.c == 'H' || t.c == 'G') {
        static const char *un[] = {"sin", "cos", "ex2", "lg2", "tanh", "sqrt", "rsqrt", "rcp"};
        int k = -1;
        for (int i = 0; i < 8; i++) if (!strcmp(op, un[i])) k = i;
        if (k < 0) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        int two = t.c == 'H' || t.c == 'G', bf = t.c == 'g' || t.c == 'G';
        ty_t bt = two ? TY('u', 4) : TY('u', 2);
        wr(E, in, &in->ops[0], bt, S(E, "%s(%s, %d, %d, %d)", two ? "__hun2" : "__hun", A(1, bt), k, bf, has(in, "ftz")));
        return;
    }
    if (t.c == 'f') {
        const char *a = fin(E, in, 1, t), *x = NULL;
        int f32 = t.sz == 4;
        int m = rmode(in) & 3;
        if (!strcmp(op, "abs")) x = f32 ? S(E, "fabsf(%s)", a) : S(E, "fabs(%s)", a);
        else if (!strcmp(op, "neg")) x = S(E, "(-%s)", a);
        else if (!strcmp(op, "sqrt")) x = S(E, "__sqrt_%s(%s, %d)", fsuffix(t), a, m);
        else if (!strcmp(op, "rsqrt")) x = f32 ? S(E, "(1.0f / sqrtf(%s))", a) : S(E, "(1.0 / sqrt(%s))", a);
        else if (!strcmp(op, "rcp")) x = S(E, "__div_%s(1.0, %s, %d)", fsuffix(t), a, m);
        else if (!strcmp(op, "sin")) x = f32 ? S(E, "sinf(%s)", a) : S(E, "sin(%s)", a);
        else if (!strcmp(op, "cos")) x = f32 ? S(E, "cosf(%s)", a) : S(E, "cos(%s)", a);
        else if (!strcmp(op, "ex2")) x = f32 ? S(E, "__ex2_f32(%s)", a) : S(E, "exp2(%s)", a);   /* branch-free: lane loops vectorize it */
        else if (!strcmp(op, "lg2")) x = f32 ? S(E, "log2f(%s)", a) : S(E, "log2(%s)", a);
        else if (!strcmp(op, "tanh")) x = f32 ? S(E, "tanhf(%s)", a) : S(E, "tanh(%s)", a);
        if (!x) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        if (!strcmp(op, "abs") || !strcmp(op, "neg")) {
            /* exact sign-bit operations (NaN payloads kept) */
            x = f32 ? S(E, "__u2f(__f2u(%s) %s)", a, op[0] == 'a' ? "& 0x7fffffffu" : "^ 0x80000000u")
                    : S(E, "__u2d(__d2u(%s) %s)", a, op[0] == 'a' ? "& 0x7fffffffffffffffull" : "^ 0x8000000000000000ull");
        }
        wr(E, in, &in->ops[0], t, fpost(E, in, t, x));
        return;
    }
    if (!is_int(t)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    ty_t u = TY('u', t.sz);
    const char *a = A(1, u);
    if (!strcmp(op, "neg")) wr(E, in, &in->ops[0], u, S(E, "(%s)(0 - %s)", ut(u), a));
    else if (!strcmp(op, "abs")) wr(E, in, &in->ops[0], u, S(E, "(%s)((%s)%s < 0 ? 0 - %s : %s)", ut(u), st_name(t.sz), a, a, a));
    else fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
}

static void emit_logic(emit_t *E, const ptx_insn_t *in, const char *op)
{
    ty_t t = ity(in, 0);
    if (!t.c) { fail(E, NPU_EPTX, in, "%s without a type", in->opcode); return; }
    if (!strcmp(op, "not") || !strcmp(op, "cnot")) {
        NEED(2);
        if (t.c == 'p') { wr(E, in, &in->ops[0], t, S(E, "(!%s)", A(1, t))); return; }
        ty_t u = TY('u', t.sz);
        if (op[0] == 'c') wr(E, in, &in->ops[0], u, S(E, "(%s)(%s == 0)", ut(u), A(1, u)));
        else wr(E, in, &in->ops[0], u, S(E, "(%s)~%s", ut(u), A(1, u)));
        return;
    }
    NEED(3);
    const char *c = op[0] == 'a' ? "&" : op[0] == 'o' ? "|" : "^";
    if (t.c == 'p') { wr(E, in, &in->ops[0], t, S(E, "(%s %s %s)", A(1, t), c, A(2, t))); return; }
    ty_t u = TY('u', t.sz);
    wr(E, in, &in->ops[0], u, S(E, "(%s)(%s %s %s)", ut(u), A(1, u), c, A(2, u)));
}

static void emit_shift(emit_t *E, const ptx_insn_t *in, int left)
{
    ty_t t = ity(in, 0);
    NEED(3);
    if (!is_int(t)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    int n = t.sz * 8;
    const char *b = A(2, TY('u', 4));
    if (left || t.c == 'u') {
        ty_t u = TY('u', t.sz);
        wr(E, in, &in->ops[0], u, S(E, "(%s >= %du ? (%s)0 : (%s)(%s %s %s))", b, n, ut(u), ut(u), A(1, u), left ? "<<" : ">>", b));
    } else {
        wr(E, in, &in->ops[0], t, S(E, "(%s)(%s >> (%s > %du ? %du : %s))", ct(t), A(1, t), b, n - 1, n - 1, b));
    }
}

static int cmp_expr(emit_t *E, const ptx_insn_t *in, const char *cmp, ty_t t, const char *a, const char *b, const char **out)
{
    const char *x = NULL;
    if (t.c == 'f' || t.c == 'h' || t.c == 'g') {
        if (t.c == 'h') { a = S(E, "__h2d(%s)", a); b = S(E, "__h2d(%s)", b); }
        if (t.c == 'g') { a = S(E, "__b2d(%s)", a); b = S(E, "__b2d(%s)", b); }
        /* bitwise | & on the 0/1 comparison results (no short-circuit branches: lane loops vectorize) */
        const char *nan = S(E, "((%s != %s) | (%s != %s))", a, a, b, b);
        static const char *ord[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="}};
        for (int i = 0; i < 6; i++) {
            if (!strcmp(cmp, ord[i][0]))
                x = i == 1 ? S(E, "(!%s & (%s != %s))", nan, a, b) : S(E, "(%s %s %s)", a, ord[i][1], b);
            else if (!strncmp(cmp, ord[i][0], 2) && cmp[2] == 'u' && !cmp[3])
                x = S(E, "(%s | (%s %s %s))", nan, a, ord[i][1], b);
        }
        if (!strcmp(cmp, "num")) x = S(E, "(!%s)", nan);
        if (!strcmp(cmp, "nan")) x = nan;
    } else if (is_int(t)) {
        static const char *ops[][2] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="},
                                       {"lo", "<"}, {"ls", "<="}, {"hi", ">"}, {"hs", ">="}};
        for (int i = 0; i < 10; i++)
            if (!strcmp(cmp, ops[i][0])) {
                if (i >= 6) x = S(E, "((%s)%s %s (%s)%s)", ut(t), a, ops[i][1], ut(t), b);
                else x = S(E, "(%s %s %s)", a, ops[i][1], b);
            }
    } else if (t.c == 'p') {
        if (!strcmp(cmp, "eq")) x = S(E, "(%s == %s)", a, b);
        if (!strcmp(cmp, "ne")) x = S(E, "(%s != %s)", a, b);
    }
    if (!x) return -1;
    *out = x;
    return 0;
}

/* f16x2 / bf16x2 compare (setp, set): *lo, *hi = the low and the high halves compared; .ftz
 * makes subnormal halves 0. Nonzero when cmp is not a compare of that type. */
static int cmp_x2(emit_t *E, const ptx_insn_t *in, const char *cmp, ty_t t, const char **lo, const char **hi)
{
    ty_t h = TY(t.c == 'H' ? 'h' : 'g', 2);
    const char *a = A(1, TY('u', 4)), *b = A(2, TY('u', 4));
    const char *fz = has(in, "ftz") ? (t.c == 'H' ? "__hftz" : "__bftz") : "";
    return cmp_expr(E, in, cmp, h, S(E, "%s((uint16_t)%s)", fz, a), S(E, "%s((uint16_t)%s)", fz, b), lo) != 0 ||
           cmp_expr(E, in, cmp, h, S(E, "%s((uint16_t)(%s >> 16))", fz, a), S(E, "%s((uint16_t)(%s >> 16))", fz, b), hi) != 0;
}

static void emit_setp(emit_t *E, const ptx_insn_t *in)
{
    NEED(3);
    const char *cmp = in->nmods > 1 ? in->mods[1] : "";
    ty_t t = ity(in, 0);
    const char *bop = has(in, "and") ? "&" : has(in, "or") ? "|" : has(in, "xor") ? "^" : NULL;
    const ptx_opnd_t *d = &in->ops[0];
    if (t.c == 'H' || t.c == 'G') {
        /* packed: p = low halves compared, q = high halves compared */
        const char *lo, *hi;
        if (cmp_x2(E, in, cmp, t, &lo, &hi)) {
            fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
            return;
        }
        const char *c = bop ? (in->nops >= 4 ? A(3, TY('p', 1)) : "0") : NULL;
        if (bop) { lo = S(E, "(%s %s %s)", lo, bop, c); hi = S(E, "(%s %s %s)", hi, bop, c); }
        if (d->kind == OP_REG && d->name2) {
            if (d->name) wr_name(E, in, d->name, TY('p', 1), lo);
            wr_name(E, in, d->name2, TY('p', 1), hi);
        } else wr(E, in, d, TY('p', 1), lo);
        return;
    }
    const char *a = fin(E, in, 1, t), *b = fin(E, in, 2, t), *x;
    if (cmp_expr(E, in, cmp, t, a, b, &x) != 0) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    int k = E->tmp++;
    OUT("{ int __c%d = %s; ", k, x);
    const char *c = NULL;
    if (bop) {
        if (in->nops < 4) { fail(E, NPU_EPTX, in, "%s needs a predicate operand", in->opcode); return; }
        c = A(3, TY('p', 1));
    }
    const char *p = bop ? S(E, "(__c%d %s %s)", k, bop, c) : S(E, "__c%d", k);
    const char *q = bop ? S(E, "(!__c%d %s %s)", k, bop, c) : S(E, "!__c%d", k);
    if (d->kind == OP_REG && d->name2) {
        wr_name(E, in, d->name, TY('p', 1), p);
        wr_name(E, in, d->name2, TY('p', 1), q);
    } else {
        wr(E, in, d, TY('p', 1), p);
    }
    OUT(" }");
}

static void emit_set(emit_t *E, const ptx_insn_t *in)
{
    NEED(3);
    const char *cmp = in->nmods > 1 ? in->mods[1] : "";
    ty_t dt = ity(in, 0), st = ity(in, 1);
    if (!st.c) st = dt;
    const char *x;
    const char *bop0 = has(in, "and") ? "&" : has(in, "or") ? "|" : has(in, "xor") ? "^" : NULL;
    const char *cpred = bop0 && in->nops >= 4 ? A(3, TY('p', 1)) : "0";
    unsigned one = dt.c == 'h' || dt.c == 'H' ? 0x3c00u : dt.c == 'g' || dt.c == 'G' ? 0x3f80u : 0xffffu;
    if (st.c == 'H' || st.c == 'G') {
        const char *lo, *hi;
        if (cmp_x2(E, in, cmp, st, &lo, &hi) || dt.sz != 4) {
            fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
            return;
        }
        if (bop0) { lo = S(E, "(%s %s %s)", lo, bop0, cpred); hi = S(E, "(%s %s %s)", hi, bop0, cpred); }
        wr(E, in, &in->ops[0], TY('u', 4), S(E, "((%s ? 0x%xu : 0u) | ((%s ? 0x%xu : 0u) << 16))", lo, one, hi, one));
        return;
    }
    if (dt.c == 'h' || dt.c == 'g') {
        if (cmp_expr(E, in, cmp, st, fin(E, in, 1, st), fin(E, in, 2, st), &x) != 0) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        if (bop0) x = S(E, "(%s %s %s)", x, bop0, cpred);
        wr(E, in, &in->ops[0], TY('u', 2), S(E, "(uint16_t)(%s ? 0x%xu : 0u)", x, one));
        return;
    }
    if (cmp_expr(E, in, cmp, st, fin(E, in, 1, st), fin(E, in, 2, st), &x) != 0 || (!is_int(dt) && dt.c != 'f')) {
        fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
        return;
    }
    const char *bop = has(in, "and") ? "&" : has(in, "or") ? "|" : has(in, "xor") ? "^" : NULL;
    if (bop) { NEED(4); x = S(E, "(%s %s %s)", x, bop, A(3, TY('p', 1))); }
    if (dt.c == 'f') wr(E, in, &in->ops[0], dt, S(E, "(%s ? 1.0f : 0.0f)", x));
    else wr(E, in, &in->ops[0], TY('u', 4), S(E, "(%s ? 0xffffffffu : 0u)", x));
}

static void emit_cvt(emit_t *E, const ptx_insn_t *in)
{
    NEED(2);
    ty_t d = ity(in, 0), s = ity(in, 1);
    int m = rmode(in), sat = has(in, "sat"), ftz = has(in, "ftz");
    if (!d.c) { fail(E, NPU_EPTX, in, "%s without types", in->opcode); return; }
    if (has(in, "rs")) { fail(E, NPU_EPTXUNSUP, in, "%s (stochastic rounding)", in->opcode); return; }
    if (has(in, "pack")) {
        /* cvt.pack.sat.{u16,s16}.s32 d, a, b / .{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c: saturated a
         * in the upper, b in the lower of the two low fields of d, the low bits of c above them */
        int w = 0, sg = 0;
        for (int i = 1; i < in->nmods && !w; i++) {
            const char *q = in->mods[i];
            if ((q[0] == 'u' || q[0] == 's') && (!strcmp(q + 1, "16") || !strcmp(q + 1, "8") || !strcmp(q + 1, "4") || !strcmp(q + 1, "2"))) {
                w = atoi(q + 1);
                sg = q[0] == 's';
            }
        }
        if (!w || !sat) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        NEED(w == 16 ? 3 : 4);
        ty_t s32 = TY('s', 4);
        wr(E, in, &in->ops[0], TY('u', 4), S(E, "__pack_sat(%s, %s, %s, %d, %d)", A(1, s32), A(2, s32),
                                             w == 16 ? "0u" : A(3, TY('u', 4)), w, sg));
        return;
    }
    /* packed conversions: cvt.rn.f16x2.f32 d, a, b  (a -> upper half, b -> lower) */
    if ((d.c == 'H' || d.c == 'G') && s.c == 'f' && s.sz == 4) {
        NEED(3);
        const char *fn = d.c == 'H' ? "__d2h" : "__d2b";
        const char *a = A(1, s), *b = A(2, s);
        if (has(in, "relu")) { a = S(E, "__max_f32(%s, 0.0f, 1)", a); b = S(E, "__max_f32(%s, 0.0f, 1)", b); }
        if (sat) { a = S(E, "__sat32(%s)", a); b = S(E, "__sat32(%s)", b); }
        const char *ha = S(E, "%s((double)%s, %d)", fn, a, m & 3), *hb = S(E, "%s((double)%s, %d)", fn, b, m & 3);
        if (has(in, "satfinite")) { ha = S(E, "__satfin16(%s, %d)", ha, d.c == 'G'); hb = S(E, "__satfin16(%s, %d)", hb, d.c == 'G'); }
        wr(E, in, &in->ops[0], TY('u', 4), S(E, "(((uint32_t)%s << 16) | %s)", ha, hb));
        return;
    }
    if (!s.c || s.c == 'H' || s.c == 'G' || d.c == 'H' || d.c == 'G' || d.sz == 16 || s.sz == 16) {
        fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
        return;
    }
    const char *a = A(1, s);
    /* source value as double (floats). .ftz flushes an f32 source, except towards f16/bf16: the H200
     * rounds subnormal f32 inputs there (cvt.rp.ftz.f16.f32 of 0x00000001 is 0x0001) */
    const char *fv = NULL;
    if (s.c == 'f') fv = S(E, "(double)%s", (ftz && s.sz == 4 && d.c != 'h' && d.c != 'g') ? S(E, "__ftz32(%s)", a) : a);
    else if (s.c == 'h') fv = S(E, "__h2d(%s)", a);
    else if (s.c == 'g') fv = S(E, "__b2d(%s)", a);
    if (is_int(d)) {
        int bits = d.sz * 8;
        const char *x;
        if (fv) {
            int nanhi = (s.c == 'f' && s.sz == 8) || bits == 64;   /* NaN -> 1 << (bits - 1), else 0 */
            x = d.c == 's' ? S(E, "(%s)__cvt_sat_s(%s, %d, %d, %d)", ct(d), fv, m, bits, nanhi)
                           : S(E, "(%s)__cvt_sat_u(%s, %d, %d, %d)", ct(d), fv, m, bits, nanhi);
        } else if (sat) {
            if (s.c == 's') x = d.c == 's' ? S(E, "(%s)__sat_s((int64_t)%s, %d)", ct(d), a, bits)
                                           : S(E, "(%s)__sat_u_from_s((int64_t)%s, %d)", ct(d), a, bits);
            else x = d.c == 's' ? S(E, "(%s)__sat_s_from_u((uint64_t)%s, %d)", ct(d), a, bits)
                                : S(E, "(%s)__sat_u((uint64_t)%s, %d)", ct(d), a, bits);
        } else {
            x = S(E, "(%s)%s", ct(d), a);   /* C conversion: truncation, sign/zero extension by source */
        }
        wr(E, in, &in->ops[0], d, x);
        return;
    }
    /* float destinations */
    const char *x;
    int rm = m & 3;
    if (d.c == 'f') {
        if (fv) {
            if (m >= 4) x = S(E, "__rndi(%s, %d)", fv, m);
            else if (d.sz == 4 && s.c == 'f' && s.sz == 8) x = S(E, "%s(%s, %d)", ftz ? "__d2f_ftz" : "__d2f", fv, rm);
            else x = fv;
            x = S(E, "(%s)%s", ct(d), x);
        } else if (s.c == 's') {
            x = d.sz == 4 ? S(E, "__i2f((int64_t)%s, %d)", a, rm) : S(E, "__i2d((int64_t)%s, %d)", a, rm);
        } else {
            x = d.sz == 4 ? S(E, "__u2fr((uint64_t)%s, %d)", a, rm) : S(E, "__u2dr((uint64_t)%s, %d)", a, rm);
        }
        if (ftz && d.sz == 4) x = S(E, "__ftz32(%s)", x);
        if (sat) x = S(E, "__sat%d(%s)", d.sz * 8, x);
        wr(E, in, &in->ops[0], d, x);
        return;
    }
    /* f16 / bf16 destinations */
    const char *fn = d.c == 'h' ? "__d2h" : "__d2b";
    const char *v = fv;
    /* a 64-bit integer goes through a double rounded to odd, so that it is rounded once */
    if (!v && s.sz == 8) v = s.c == 's' ? S(E, "__s64_rto((int64_t)%s)", a) : S(E, "__u64_rto((uint64_t)%s, 0)", a);
    if (!v) v = s.c == 's' ? S(E, "(double)(int64_t)%s", a) : S(E, "(double)(uint64_t)%s", a);
    if (m >= 4) v = S(E, "__rndi(%s, %d)", v, m);
    if (sat) v = S(E, "__sat64(%s)", v);
    if (has(in, "relu")) v = S(E, "__relu_d(%s)", v);
    const char *h = S(E, "%s(%s, %d)", fn, v, rm);
    if (has(in, "satfinite")) h = S(E, "__satfin16(%s, %d)", h, d.c == 'g');
    wr(E, in, &in->ops[0], TY('u', 2), h);
}

static void emit_mov(emit_t *E, const ptx_insn_t *in)
{
    NEED(2);
    ty_t t = ity(in, 0);
    if (!t.c) { fail(E, NPU_EPTX, in, "mov without a type"); return; }
    wr(E, in, &in->ops[0], t, A(1, t));
}

/* Memcheck mode: the address expression p of an access of n bytes, routed through the
 * runtime's check (rt->memcheck, which does not return for an invalid access, so the access
 * itself is never performed). .param/.const/.local accesses are not checked. */
static const char *mc_wrap(emit_t *E, const ptx_insn_t *in, const char *p, int sp, int n, int acc)
{
    if (!E->memcheck || (sp != SP_GLOBAL && sp != SP_NONE && sp != SP_SHARED)) return p;
    int space = sp == SP_GLOBAL ? NPU_MC_GLOBAL : sp == SP_SHARED ? NPU_MC_SHARED : NPU_MC_GENERIC;
    return S(E, "%s(t, %s, %du, %du, %du)", sp == SP_SHARED ? "__mcs" : "__mc", p, n, acc | space, (unsigned)in->line);
}

static void emit_ld(emit_t *E, const ptx_insn_t *in, int st)
{
    NEED(2);
    ty_t t = ity(in, 0);
    if (!t.c) { fail(E, NPU_EPTX, in, "%s without a type", in->opcode); return; }
    if (t.c == 'p') t = TY('u', 1);
    int sp = space_mod(in), n = vec_n(in), ord = mem_order(in);
    const ptx_opnd_t *ao = &in->ops[st ? 0 : 1], *vo = &in->ops[st ? 1 : 0];
    const char *p = mc_wrap(E, in, addr(E, in, ao, sp), sp, t.sz * n, st ? NPU_MC_WRITE : NPU_MC_READ);
    if (n == 1) {
        if (st) store(E, p, t, A(1, t), ord);
        else wr(E, in, vo, t, load_expr(E, p, t, ord));
        return;
    }
    if (vo->kind != OP_VEC || vo->nelem != n) { fail(E, NPU_EPTX, in, "%s needs a %d-element vector", in->opcode, n); return; }
    int k = E->tmp++;
    OUT("{ uint8_t *__p%d = %s; ", k, p);
    for (int i = 0; i < n; i++) {
        const char *pe = S(E, "(__p%d + %d)", k, i * t.sz);
        if (st) store(E, pe, t, rd(E, in, &vo->elem[i], t), ord);
        else if (vo->elem[i].kind != OP_SINK) wr(E, in, &vo->elem[i], t, load_expr(E, pe, t, ord));
    }
    OUT(" }");
}

static void emit_atom(emit_t *E, const ptx_insn_t *in, int red)
{
    int sp = space_mod(in);
    ty_t t = ity(in, 0);
    int ai = red ? 0 : 1;
    NEED(ai + 2);
    if (has_prefix(in, "v2") || has_prefix(in, "v4") || has_prefix(in, "v8")) { fail(E, NPU_EPTXUNSUP, in, "vector %s", in->opcode); return; }
    static const char *ops[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"};
    const char *op = NULL;
    for (int i = 0; i < 10 && !op; i++)
        if (has(in, ops[i])) op = ops[i];
    if (!op || !t.c) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    const char *p = mc_wrap(E, in, addr(E, in, &in->ops[ai], sp), sp, t.sz, NPU_MC_ATOMIC);
    if (sp == SP_SHARED && (t.sz == 4 || t.sz == 8)) {
        /* .shared atomics: a block's threads all run on one host thread (loop iterations or
         * fibers that switch only inside collectives), so a plain read-modify-write is atomic
         * with respect to every other access to that block's shared memory. Measured on
         * bench_kernels' shared-memory histogram: lock-prefixed RMWs made it 10x slower than C. */
        ty_t u = TY('u', t.sz);
        const char *v = NULL, *nv = NULL;
        int isf = t.c == 'f';
        if (!strcmp(op, "cas")) { NEED(ai + 3); v = A(ai + 2, u); nv = S(E, "(__o == %s ? __v : __o)", A(ai + 1, u)); }
        else if (!strcmp(op, "exch")) { v = A(ai + 1, u); nv = "__v"; }
        else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor")) {
            v = A(ai + 1, u); nv = S(E, "(__o %s __v)", op[0] == 'a' ? "&" : op[0] == 'o' ? "|" : "^");
        } else if (!strcmp(op, "add") && is_int(t)) { v = A(ai + 1, u); nv = "(__o + __v)"; }
        else if (!strcmp(op, "add") && isf) {
            v = tobits(E, t, A(ai + 1, t));
            nv = t.sz == 4 ? "__f2u(__u2f(__o) + __u2f(__v))" : "__d2u(__u2d(__o) + __u2d(__v))";
        } else if (!strcmp(op, "add") && (t.c == 'H' || t.c == 'G')) {
            v = A(ai + 1, u); nv = t.c == 'H' ? "__hop2(__o, __v, 0, 0, 0, 0, 0)" : "__hop2(__o, __v, 0, 0, 1, 0, 0)";
        } else if ((!strcmp(op, "min") || !strcmp(op, "max")) && is_int(t)) {
            v = A(ai + 1, u);
            const char *c = t.c == 's' ? S(E, "(%s)__o %s (%s)__v", st_name(t.sz), op[1] == 'i' ? "<" : ">", st_name(t.sz))
                                       : S(E, "__o %s __v", op[1] == 'i' ? "<" : ">");
            nv = S(E, "(%s ? __o : __v)", c);
        } else if ((!strcmp(op, "min") || !strcmp(op, "max")) && isf && t.sz == 4) {
            v = tobits(E, t, A(ai + 1, t)); nv = S(E, "__f2u(__%s_f32(__u2f(__o), __u2f(__v), 0))", op);
        } else if (!strcmp(op, "inc") && t.sz == 4) { v = A(ai + 1, u); nv = "(__o >= __v ? 0u : __o + 1u)"; }
        else if (!strcmp(op, "dec") && t.sz == 4) { v = A(ai + 1, u); nv = "((__o == 0 || __o > __v) ? __v : __o - 1u)"; }
        if (!v) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        OUT("{ %s *__ap = (%s *)(%s); %s __v = %s; %s __o = *__ap; *__ap = (%s)%s; ", ut(u), ut(u), p, ut(u), v, ut(u), ut(u), nv);
        if (!red) {
            if (isf) wr(E, in, &in->ops[0], t, t.sz == 4 ? "__u2f((uint32_t)__o)" : "__u2d(__o)");
            else wr(E, in, &in->ops[0], u, "__o");
        }
        OUT(" }");
        return;
    }
    const char *x = NULL;
    ty_t vt = t;
    int sz = t.sz;
    if (!strcmp(op, "cas")) {
        NEED(ai + 3);
        ty_t u = TY('u', sz);
        x = S(E, "__atom_cas(%s, %s, %s, %s)", ut(u), p, A(ai + 1, u), A(ai + 2, u));
        vt = u;
    } else if (!strcmp(op, "exch")) {
        ty_t u = TY('u', sz);
        x = S(E, "__atomic_exchange_n((%s *)(%s), %s, P_SC)", ut(u), p, tobits(E, t, A(ai + 1, t)));
        vt = u;
    } else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") ||
               (!strcmp(op, "add") && is_int(t))) {
        ty_t u = TY('u', sz);
        x = S(E, "__atomic_fetch_%s((%s *)(%s), %s, P_SC)", op, ut(u), p, A(ai + 1, u));
        vt = u;
    } else if (!strcmp(op, "add")) {
        if (t.c == 'f') x = S(E, "__atom_add_f%d%s(%s, %s)", sz * 8, sz == 4 && (has(in, "noftz") || sp == SP_SHARED) ? "_noftz" : "", p, A(ai + 1, t));
        else if (t.c == 'H') x = S(E, "__atom_add_f16x2(%s, %s)", p, A(ai + 1, TY('u', 4)));
        else if (t.c == 'G') x = S(E, "__atom_add_bf16x2(%s, %s)", p, A(ai + 1, TY('u', 4)));
        else if (t.c == 'h') x = S(E, "__atom_add_f16(%s, %s)", p, A(ai + 1, TY('u', 2)));
        else if (t.c == 'g') x = S(E, "__atom_add_bf16(%s, %s)", p, A(ai + 1, TY('u', 2)));
        if (t.c != 'f') vt = TY('u', sz);
    } else if (!strcmp(op, "min") || !strcmp(op, "max")) {
        if (is_int(t) && (sz == 4 || sz == 8)) x = S(E, "__atom_%s_%c%d(%s, %s)", op, t.c, sz * 8, p, A(ai + 1, t));
        else if (t.c == 'f' && sz == 4) x = S(E, "__atom_%s_f32(%s, %s)", op, p, A(ai + 1, t));
        else if (t.c == 'H') { x = S(E, "__atom_%s_f16x2(%s, %s)", op, p, A(ai + 1, TY('u', 4))); vt = TY('u', 4); }
    } else if ((!strcmp(op, "inc") || !strcmp(op, "dec")) && sz == 4) {
        x = S(E, "__atom_%s_u32(%s, %s)", op, p, A(ai + 1, TY('u', 4)));
        vt = TY('u', 4);
    }
    if (!x) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
    if (red) OUT("(void)%s;", x);
    else wr(E, in, &in->ops[0], vt, x);
}

static void emit_call(emit_t *E, const ptx_insn_t *in)
{
    const ptx_opnd_t *rets = NULL, *args = NULL, *callee = NULL;
    for (int i = 0; i < in->nops; i++) {
        const ptx_opnd_t *o = &in->ops[i];
        if (o->kind == OP_LIST && !callee) rets = o;
        else if ((o->kind == OP_SYM || o->kind == OP_REG) && !callee) callee = o;
        else if (o->kind == OP_LIST && callee && !args) args = o;
    }
    if (!callee) { fail(E, NPU_EPTX, in, "call without a target"); return; }
    sym_t cs = lookup(E, callee->name);
    if (cs.kind == SY_REG) {
        /* indirect call: every function here has the signature int(t, uint8_t *rets..., uint8_t *args...) */
        int nr0 = rets ? rets->nelem : 0, na0 = args ? args->nelem : 0;
        int has_proto = 0;
        for (int i = 0; i < in->nops; i++)
            if (&in->ops[i] != callee && in->ops[i].kind == OP_SYM) has_proto = 1;
        if (!has_proto) { fail(E, NPU_EPTX, in, "indirect call through %s without a prototype", callee->name); return; }
        const char *after0 = E->in_entry ? "goto __ret;" : "return 1;";
        const char *proto = "npu_tctx_t *";
        const char *call = "t";
        for (int i = 0; i < nr0 + na0; i++) {
            const ptx_opnd_t *o = i < nr0 ? &rets->elem[i] : &args->elem[i - nr0];
            sym_t s2 = o->kind == OP_SYM ? lookup(E, o->name) : (sym_t){0};
            if (s2.kind != SY_PARR) { fail(E, NPU_EPTXUNSUP, in, "indirect call with register arguments"); return; }
            proto = S(E, "%s, uint8_t *", proto);
            call = S(E, "%s, %s", call, s2.cname);
        }
        int k = E->tmp++;
        OUT("{ uint64_t __ft%d = %s; void *__fp%d = __fn_resolve(__ft%d); if (!__fp%d) rt->fault(t, %d, __ft%d, \"indirect call to a non-function address\"); ",
            k, conv(E, cs.cname, cs.ty, TY('u', 8)), k, k, k, NPU_FAULT_ILLEGAL_ADDRESS, k);
        OUT("if (((int (*)(%s))__fp%d)(%s)) %s }", proto, k, call, after0);
        return;
    }
    ptx_func_t *g = ptx_find_func(E->p, callee->name);
    if (!g) { fail(E, NPU_EPTX, in, "call of undefined function %s", callee->name); return; }
    int na = args ? args->nelem : 0, nr = rets ? rets->nelem : 0;
    const char *after = E->in_entry ? "goto __ret;" : "return 1;";
    /* value of argument i with type t */
#define ARGV(i, t) (args->elem[i].kind == OP_SYM && lookup(E, args->elem[i].name).kind == SY_PARR \
        ? load_expr(E, lookup(E, args->elem[i].name).cname, (t), 0) : rd(E, in, &args->elem[i], (t)))
    if (g->is_decl) {
        const char *n = g->name;
        const char *rv = NULL;
        ty_t rt = TY('u', 4);
        if (!strcmp(n, "vprintf") && na == 2) rv = S(E, "rt->vprintf(t, (const char *)(uintptr_t)%s, (const void *)(uintptr_t)%s)", ARGV(0, TY('u', 8)), ARGV(1, TY('u', 8)));
        else if (!strcmp(n, "malloc") && na == 1) { rv = S(E, "(uint64_t)(uintptr_t)rt->malloc(t, %s)", ARGV(0, TY('u', 8))); rt = TY('u', 8); }
        else if (!strcmp(n, "free") && na == 1) { OUT("rt->free(t, (void *)(uintptr_t)%s);", ARGV(0, TY('u', 8))); return; }
        else if (!strcmp(n, "__assertfail") && na >= 4) {
            OUT("rt->assertfail(t, (const char *)(uintptr_t)%s, (const char *)(uintptr_t)%s, %s, (const char *)(uintptr_t)%s); %s",
                ARGV(0, TY('u', 8)), ARGV(1, TY('u', 8)), ARGV(2, TY('u', 4)), ARGV(3, TY('u', 8)), after);
            return;
        } else { fail(E, NPU_EPTX, in, "call of .extern function %s that no linked module defines", n); return; }
        if (nr >= 1) {
            const ptx_opnd_t *r0 = &rets->elem[0];
            sym_t rs = r0->kind == OP_SYM ? lookup(E, r0->name) : (sym_t){0};
            if (rs.kind == SY_PARR) store(E, rs.cname, rt, rv, 0);
            else wr(E, in, r0, rt, rv);
        } else {
            OUT("(void)%s;", rv);
        }
        return;
    }
    /* The return lists of a call and of the definition may differ: the CUDA linker accepts a
     * declaration with a result for a function defined without one (numba's C-ABI device
     * functions, declare_device(..., abi="c"), declare `void` ones with a b32 result). As on
     * the GPU, results the callee does not define are never written (a register result reads
     * 0), results the caller does not take go to a scratch buffer. Argument counts must match. */
    if (na != g->nparams) {
        fail(E, NPU_EPTX, in, "call of %s with %d arguments and %d results, declared %d and %d", g->name, na, nr, g->nparams, g->nrets);
        return;
    }
    int k = E->tmp++;
    OUT("{ ");
    int nslots = (nr > g->nrets ? nr : g->nrets) + na;   /* results (caller's or callee's), then arguments */
    int nres = nslots - na;
    const char **ap = calloc((size_t)(nslots + 1), sizeof *ap);
    if (!ap) { E->st = NPU_EHOSTMEM; return; }
    for (int i = 0; i < nslots; i++) {
        int res = i < nres;
        if (res && i >= nr && i >= g->nrets) continue;
        const ptx_opnd_t *o = res ? (i < nr ? &rets->elem[i] : NULL) : &args->elem[i - nres];
        const ptx_var_t *pv = res ? (i < g->nrets ? &g->rets[i] : NULL) : &g->params[i - nres];
        sym_t s = o && o->kind == OP_SYM ? lookup(E, o->name) : (sym_t){0};
        if (s.kind == SY_PARR) { ap[i] = s.cname; continue; }
        long long bytes = pv ? (long long)pv->tsize * (pv->count > 0 ? pv->count : 1) : 16;
        OUT("uint8_t __a%d_%d[%lld] __attribute__((aligned(16))); ", k, i, bytes < 1 ? 1 : bytes);
        if (res && !pv) OUT("memset(__a%d_%d, 0, sizeof __a%d_%d); ", k, i, k, i);
        ap[i] = S(E, "__a%d_%d", k, i);
        if (!res) {
            ty_t pt = ty_of(pv->type);
            if (pt.c == 'p') pt = TY('u', 1);
            if (pv->is_array || pv->vec > 1 || !pt.c) { free(ap); fail(E, NPU_EPTXUNSUP, in, "register argument for aggregate parameter"); return; }
            store(E, ap[i], pt, rd(E, in, o, pt), 0);
        }
    }
    OUT("if (%s(t", mangle(E, "fn_", g->name));
    for (int i = 0; i < g->nrets; i++) OUT(", %s", ap[i]);
    for (int i = nres; i < nslots; i++) OUT(", %s", ap[i]);
    OUT(")) %s ", after);
    for (int i = 0; i < nr; i++) {
        const ptx_opnd_t *o = &rets->elem[i];
        if (o->kind == OP_SYM && lookup(E, o->name).kind == SY_PARR) continue;
        if (i >= g->nrets) { wr(E, in, o, TY('u', 4), "0u"); continue; }
        ty_t pt = ty_of(g->rets[i].type);
        if (pt.c == 'p') pt = TY('u', 1);
        wr(E, in, o, pt, load_expr(E, ap[i], pt, 0));
    }
    OUT("}");
    free(ap);
#undef ARGV
}

static int is_texture_op(const char *op)
{
    return !strcmp(op, "tex") || !strcmp(op, "tld4") || !strcmp(op, "suld") || !strcmp(op, "sust") ||
           !strcmp(op, "txq") || !strcmp(op, "suq") || !strcmp(op, "sured") || !strcmp(op, "istypep");
}

static int is_sync_op(const char *op)
{
    return !strcmp(op, "bar") || !strcmp(op, "barrier") || !strcmp(op, "shfl") || !strcmp(op, "vote") ||
           !strcmp(op, "match") || !strcmp(op, "redux") || !strcmp(op, "activemask") || !strcmp(op, "elect") ||
           !strcmp(op, "wmma");
}

/* a point where a thread stops in phase mode (wmma.load/store are per-lane) */
static int is_stop(const ptx_insn_t *in)
{
    return in->lockstep || !strcmp(in->mods[0], "__reconv") ||
           (is_sync_op(in->mods[0]) && !(!strcmp(in->mods[0], "wmma") && !has(in, "mma")));
}

/* Warp collectives handled in phase mode: kind codes shared with the generated resolver. */
enum { PK_BAR = 1, PK_SHFL = 2, PK_VOTE = 3, PK_ACTIVEMASK = 4, PK_WARPSYNC = 5, PK_REDUX = 6, PK_WMMA = 7, PK_BARRED = 8,
       PK_LOCKSTEP = 9, PK_RECONV = 10 };
static void emit_lane_insn(emit_t *E, const ptx_insn_t *in, int idx);
static void emit_insn(emit_t *E, const ptx_insn_t *in);
static int phase_kind(const ptx_insn_t *in, int *mode);

/* ptx_lockstep.c's "__rspush ID": the reconvergence point ID goes on the thread's stack unless it
 * is already on top (a loop's branch runs every iteration); a full stack (16) gives up waiting
 * for that region (the lanes then run as without lockstep). */
static void emit_rspush(emit_t *E, const ptx_insn_t *in, const char *ix)
{
    OUT("{ size_t __q = %s; uint32_t __d = __rsd[__q]; if ((!__d || __rst[__q * 16u + __d - 1u] != %uu) && __d < 16u) "
        "{ __rst[__q * 16u + __d] = %uu; __rsd[__q] = (uint8_t)(__d + 1u); } }", ix, (uint32_t)in->ops[0].imm, (uint32_t)in->ops[0].imm);
}

/* Phase mode: a stop point. Inputs go to the thread's slots, live registers to its state;
 * the resolver between phases computes warp results into __cr/__cp; resuming writes them.
 * Lane-group copy (E->lane): the same for the group's 16 threads, in loops over __l. */
static void emit_phase_stop(emit_t *E, const ptx_insn_t *in)
{
    ty_t u32 = TY('u', 4), pr = TY('p', 1);
    int id = 0, mode = 0, ln = E->lane;
    for (int k = 0; k < E->nbar; k++)
        if (&E->f->insns[E->bar_insn[k]] == in) id = k + 1;
    int kind = phase_kind(in, &mode);
    if (!id || !kind) { fail(E, NPU_EINTERNAL, in, "stop point not indexed"); return; }
    /* 64-bit index: with the 32-bit sum gcc cannot prove the 16 slots contiguous (it emitted
     * scatters for these saves: tiled SGEMM 177 -> 330 ms) */
    const char *ix = ln ? "((size_t)__ling + __l)" : "__lin";
    if (kind == PK_BARRED) OUT("__bred = 1; ");   /* the block reduction runs after the pass */
    else if (kind == PK_LOCKSTEP) OUT("__lsk = 1; ");   /* barriers wait while a lane steps */
    else if (kind == PK_RECONV) {   /* leave the region: pop this point if it is on top, then wait for the others */
        uint32_t rid = (uint32_t)E->bar_insn[id - 1];
        /* drop the point and whatever was pushed after it (side exits of unstructured code) */
        if (ln) OUT("for (__l = 0; __l < NPU_LANES; __l++) { size_t __q = %s; for (uint32_t __d = __rsd[__q]; __d-- > 0;) if (__rst[__q * 16u + __d] == %uu) { __rsd[__q] = (uint8_t)__d; break; } } ", ix, rid);
        else OUT("for (uint32_t __d = __rsd[%s]; __d-- > 0;) if (__rst[(size_t)%s * 16u + __d] == %uu) { __rsd[%s] = (uint8_t)__d; break; } ", ix, ix, rid, ix);
        OUT("__rvk = 1; ");
    }
    else if (kind != PK_BAR) OUT("__coll = 1; ");   /* the resolver runs after this pass */
    if (ln) OUT("for (__l = 0; __l < NPU_LANES; __l++) { ");
    switch (kind) {
    case PK_SHFL:
        OUT("__ca[%s] = %s; __cb[%s] = %s; __cc2[%s] = %s; __cm[%s] = %s; ", ix, A(1, u32), ix, A(2, u32), ix, A(3, u32), ix, A(4, u32));
        break;
    case PK_VOTE: OUT("__ca[%s] = (uint32_t)%s; __cm[%s] = %s; ", ix, A(1, pr), ix, A(2, u32)); break;
    case PK_REDUX: OUT("__ca[%s] = %s; __cm[%s] = %s; ", ix, A(1, u32), ix, A(2, u32)); break;
    case PK_WARPSYNC: OUT("__cm[%s] = %s; ", ix, A(0, u32)); break;
    case PK_BARRED: OUT("__ca[%s] = (uint32_t)%s; ", ix, A(2, pr)); break;
    case PK_WMMA:
        for (int k = 1; k <= 3; k++) {
            const ptx_opnd_t *v = &in->ops[k];
            ty_t et = (k == 3 && !(mode & 1)) ? TY('f', 4) : TY('u', 4);
            for (int i = 0; i < v->nelem && i < 8; i++)
                OUT("__cw[%s * 24u + %d] = %s; ", ix, 8 * (k - 1) + i, tobits(E, et, rd(E, in, &v->elem[i], et)));
        }
        break;
    default: break;
    }
    if (ln) OUT("__resume[%s] = %d; } ", ix, id);
    for (int k = 0; k < E->bar_nlive[id - 1]; k++) {
        const char *r = mangle(E, "r_", E->bar_live[id - 1][k]);
        const char *S_ = mangle(E, "S_", E->bar_live[id - 1][k]);
        const char *w = mangle(E, "w_", E->bar_live[id - 1][k]);
        /* the value through a scalar: gcc's very-cheap cost model does not version a loop for
         * aliasing between w_X (addressable) and the save array, so the loop stayed scalar */
        if (ln && lane_uni_reg(E, E->bar_live[id - 1][k]))
            OUT("{ const __typeof__(%s[0]) __u = %s[0]; for (__l = 0; __l < NPU_LANES; __l++) %s[(size_t)__ling + __l] = __u; } ", w, w, S_);
        else if (ln && lane_sa_reg(E, E->bar_live[id - 1][k]))
            OUT("{ const __typeof__(%s) __u = %s[0], __s = %s; for (__l = 0; __l < NPU_LANES; __l++) %s[(size_t)__ling + __l] = (__typeof__(%s[0]))(__u + __l * __s); } ",
                mangle(E, "sa_", E->bar_live[id - 1][k]), w, mangle(E, "sa_", E->bar_live[id - 1][k]), S_, w);
        else if (ln) OUT("memcpy(%s + __ling, %s, sizeof %s); ", S_, w, w);
        else if (E->lanes) OUT("%s[%s] = %s; ", S_, ix, r);
        else OUT("__L[%s].%s = %s; ", ix, r, r);
    }
    for (int r = ln ? E->crg : -1; r >= 0; r = E->rg[r].parent)   /* a stop inside masked regions */
        OUT("__gam[(size_t)(__ling / NPU_LANES) * %du + %du] = __ami%d; ", LANE_MASK_DEPTH, E->rg[r].depth - 1, r);
    if (ln) { OUT("__alive = 1; goto __gnext; __VB%d: ;", id); E->bar_vb[id - 1] = 1; }
    else OUT("__resume[%s] = %d; __alive = 1; goto __next; __B%d: ;", ix, id, id);
    const ptx_opnd_t *d = &in->ops[0];
    const char *cr = S(E, "__cr[%s]", ix);
    if (ln) OUT(" for (__l = 0; __l < NPU_LANES; __l++) { ");
    switch (kind) {
    case PK_SHFL:
        if (d->kind == OP_REG && d->name2) {
            if (d->name) wr_name(E, in, d->name, u32, cr);
            wr_name(E, in, d->name2, pr, S(E, "(__cp[%s] != 0)", ix));
        } else wr(E, in, d, u32, cr);
        break;
    case PK_VOTE:
        if (mode == 3) wr(E, in, d, u32, cr);
        else wr(E, in, d, pr, S(E, "(%s != 0)", cr));
        break;
    case PK_ACTIVEMASK: case PK_REDUX: wr(E, in, d, u32, cr); break;
    case PK_BARRED:
        if (mode == 0) wr(E, in, d, u32, cr);
        else wr(E, in, d, pr, S(E, "(%s != 0)", cr));
        break;
    case PK_WMMA:
        for (int i = 0; i < d->nelem && i < 8; i++) {
            if (mode & 2) wr(E, in, &d->elem[i], u32, S(E, "__cwr[%s * 8u + %d]", ix, i));
            else wr(E, in, &d->elem[i], TY('f', 4), S(E, "__u2f(__cwr[%s * 8u + %d])", ix, i));
        }
        break;
    default: break;
    }
    if (ln) OUT(" }");
    if (kind == PK_LOCKSTEP) {   /* now the access itself, as it would have been emitted */
        E->ls_inner = 1;
        if (ln) {
            size_t m0 = E->out.n;
            E->lane_fuse = 0;
            emit_lane_insn(E, in, E->ls_idx);
            if (E->lane_fuse) {   /* a fusable per-lane statement: its own loop here */
                char *txt = strdup(E->out.s + m0);
                if (!txt) E->st = NPU_EHOSTMEM;
                else { E->out.n = m0; E->out.s[m0] = 0; OUT("for (__l = 0; __l < NPU_LANES; __l++) %s", txt); free(txt); }
                E->lane_fuse = 0;
            }
            /* a stop is never moved ahead of the pending fused loop (whose registers it saves),
             * even when the access after it is a uniform load */
            E->lane_uni_dest = NULL;
        } else emit_insn(E, in);
        E->ls_inner = 0;
    }
}

/* wmma.load / wmma.store (per lane, m16n16k16 only) */
static void emit_wmma(emit_t *E, const ptx_insn_t *in)
{
    ty_t u32 = TY('u', 4);
    if (!has(in, "m16n16k16")) { fail(E, NPU_EPTXUNSUP, in, "%s (only m16n16k16 tiles)", in->opcode); return; }
    int ld = has(in, "load"), st = has(in, "store");
    if (!ld && !st) { fail(E, NPU_EPTXUNSUP, in, "%s outside a block-mode kernel with phases", in->opcode); return; }
    ty_t t = ity(in, 0);
    int col = has(in, "col"), sp = space_mod(in);
    /* an a or b fragment holds its tile in the element order of its layout (the mma's layout
     * qualifiers must match the load's, PTX ISA), so lane l's 8 elements are one contiguous run
     * in memory either way; c and d fragments are always in row-major order */
    if (ld && (has(in, "a") || has(in, "b"))) col = 0;
    const ptx_opnd_t *frag = &in->ops[ld ? 0 : 1], *ad = &in->ops[ld ? 1 : 0];
    if (in->nops < 2 || frag->kind != OP_VEC || (t.c != 'h' && t.c != 'g' && t.c != 'f')) {
        fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
        return;
    }
    const char *stride = in->nops >= 3 ? A(2, u32) : "16u";
    const char *lane = E->in_entry && !E->thread_mode ? "(__lin & 31u)" : "t->lane";
    int k = E->tmp++;
    OUT("{ uint32_t __wf%d[8] = {0}; ", k);
    if (ld) {
        OUT("%s(%s, %s, %d, %s, __wf%d); ", t.c == 'f' ? "__wmma_ld32" : "__wmma_ld16", addr(E, in, ad, sp), stride, col, lane, k);
        for (int i = 0; i < frag->nelem && i < 8; i++)
            wr(E, in, &frag->elem[i], t.c == 'f' ? TY('f', 4) : u32, t.c == 'f' ? S(E, "__u2f(__wf%d[%d])", k, i) : S(E, "__wf%d[%d]", k, i));
    } else {
        for (int i = 0; i < frag->nelem && i < 8; i++)
            OUT("__wf%d[%d] = %s; ", k, i, tobits(E, t.c == 'f' ? TY('f', 4) : u32, rd(E, in, &frag->elem[i], t.c == 'f' ? TY('f', 4) : u32)));
        OUT("%s(%s, %s, %d, %s, __wf%d); ", t.c == 'f' ? "__wmma_st32" : "__wmma_st16", addr(E, in, ad, sp), stride, col, lane, k);
    }
    OUT("}");
}

static void emit_collective(emit_t *E, const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    ty_t u32 = TY('u', 4), pr = TY('p', 1);
    if (!strcmp(op, "wmma") && !has(in, "mma")) { emit_wmma(E, in); return; }
    if (E->phase && E->in_entry) { emit_phase_stop(E, in); return; }
    if (!strcmp(op, "wmma")) {
        /* thread mode (fibers): the warp's fragments meet in rt->wmma_mma, the last lane to
         * arrive runs the prelude's __wmma_mma for all 32 (the same code phase mode runs) */
        int mode = 0;
        if (!has(in, "m16n16k16") || in->nops != 4 || !phase_kind(in, &mode)) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        int k = E->tmp++;
        OUT("{ uint32_t __wi%d[24] = {0}, __wo%d[8] = {0}; ", k, k);
        for (int q = 1; q <= 3; q++) {
            const ptx_opnd_t *v = &in->ops[q];
            ty_t et = (q == 3 && !(mode & 1)) ? TY('f', 4) : u32;
            for (int i = 0; v->kind == OP_VEC && i < v->nelem && i < 8; i++)
                OUT("__wi%d[%d] = %s; ", k, 8 * (q - 1) + i, tobits(E, et, rd(E, in, &v->elem[i], et)));
        }
        OUT("rt->wmma_mma(t, __wi%d, __wo%d, %d, __wmma_mma); ", k, k, mode);
        const ptx_opnd_t *d = &in->ops[0];
        for (int i = 0; d->kind == OP_VEC && i < d->nelem && i < 8; i++) {
            if (mode & 2) wr(E, in, &d->elem[i], u32, S(E, "__wo%d[%d]", k, i));
            else wr(E, in, &d->elem[i], TY('f', 4), S(E, "__u2f(__wo%d[%d])", k, i));
        }
        OUT("}");
        return;
    }
    if (!strcmp(op, "bar") || !strcmp(op, "barrier")) {
        if (has(in, "warp")) { NEED(1); OUT("rt->warp_sync(t, %s);", A(0, u32)); return; }
        if (has(in, "cluster")) {
            /* clusters hold one CTA here: arrive/wait are a block barrier pair */
            if (has(in, "wait")) OUT("rt->bar_sync(t, 15u, 0u);");
            return;
        }
        if (has(in, "red")) {
            NEED(3);
            int mode = has(in, "popc") ? 0 : has(in, "and") ? 1 : 2;
            int hasb = in->nops >= 4;
            const char *c = A(hasb ? 3 : 2, pr);
            const char *x = S(E, "rt->bar_red(t, %s, %s, %d, (uint32_t)%s)", A(1, u32), hasb ? A(2, u32) : "0u", mode, c);
            if (mode == 0) wr(E, in, &in->ops[0], u32, x);
            else wr(E, in, &in->ops[0], pr, S(E, "(%s != 0)", x));
            return;
        }
        NEED(1);
        const char *cnt = in->nops >= 2 ? A(1, u32) : "0u";
        if (has(in, "arrive")) OUT("rt->bar_arrive(t, %s, %s);", A(0, u32), cnt);
        else OUT("rt->bar_sync(t, %s, %s);", A(0, u32), cnt);
        return;
    }
    if (!strcmp(op, "shfl")) {
        int sync = has(in, "sync");   /* pre-sm_70 shfl: the whole warp takes part */
        NEED(sync ? 5 : 4);
        int mode = has(in, "up") ? 0 : has(in, "down") ? 1 : has(in, "bfly") ? 2 : has(in, "idx") ? 3 : -1;
        if (mode < 0) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        const ptx_opnd_t *d = &in->ops[0];
        int k = E->tmp++;
        OUT("{ uint32_t __pp%d; uint32_t __sv%d = rt->shfl(t, %d, %s, %s, %s, %s, &__pp%d); ", k, k, mode,
            A(1, u32), A(2, u32), A(3, u32), sync ? A(4, u32) : "0xffffffffu", k);
        if (d->kind == OP_REG && d->name2) {
            wr_name(E, in, d->name, u32, S(E, "__sv%d", k));
            wr_name(E, in, d->name2, pr, S(E, "(__pp%d != 0)", k));
        } else wr(E, in, d, u32, S(E, "__sv%d", k));
        OUT("}");
        return;
    }
    if (!strcmp(op, "vote")) {
        NEED(has(in, "sync") ? 3 : 2);
        int mode = has(in, "all") ? 0 : has(in, "any") ? 1 : has(in, "uni") ? 2 : has(in, "ballot") ? 3 : -1;
        if (mode < 0) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        const char *x = S(E, "rt->vote(t, %d, (uint32_t)%s, %s)", mode, A(1, pr), has(in, "sync") ? A(2, u32) : am_call(E, in));
        if (mode == 3) wr(E, in, &in->ops[0], u32, x);
        else wr(E, in, &in->ops[0], pr, S(E, "(%s != 0)", x));
        return;
    }
    if (!strcmp(op, "match")) {
        NEED(3);
        ty_t t = ity(in, 0);
        const char *v = t.sz == 8 ? A(1, TY('u', 8)) : S(E, "(uint64_t)%s", A(1, u32));
        const ptx_opnd_t *d = &in->ops[0];
        if (has(in, "any")) { wr(E, in, d, u32, S(E, "rt->match_any(t, %s, %s)", v, A(2, u32))); return; }
        if (has(in, "all")) {
            int k = E->tmp++;
            OUT("{ uint32_t __mp%d; uint32_t __mv%d = rt->match_all(t, %s, %s, &__mp%d); ", k, k, v, A(2, u32), k);
            if (d->kind == OP_REG && d->name2) {
                wr_name(E, in, d->name, u32, S(E, "__mv%d", k));
                wr_name(E, in, d->name2, pr, S(E, "(__mp%d != 0)", k));
            } else wr(E, in, d, u32, S(E, "__mv%d", k));
            OUT("}");
            return;
        }
        fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
        return;
    }
    if (!strcmp(op, "redux")) {
        NEED(3);
        ty_t t = ity(in, 0);
        int mode = -1;
        if (has(in, "add")) mode = 0;
        else if (has(in, "min")) mode = t.c == 's' ? 1 : 3;
        else if (has(in, "max")) mode = t.c == 's' ? 2 : 4;
        else if (has(in, "and")) mode = 5;
        else if (has(in, "or")) mode = 6;
        else if (has(in, "xor")) mode = 7;
        if (mode < 0 || t.c == 'f') { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        wr(E, in, &in->ops[0], u32, S(E, "rt->redux(t, %d, %s, %s)", mode, A(1, u32), A(2, u32)));
        return;
    }
    if (!strcmp(op, "activemask")) { NEED(1); wr(E, in, &in->ops[0], u32, am_call(E, in)); return; }
    if (!strcmp(op, "elect")) {
        NEED(2);
        const ptx_opnd_t *d = &in->ops[0];
        int k = E->tmp++;
        OUT("{ uint32_t __em%d = rt->vote(t, 3, 1u, %s); uint32_t __el%d = __em%d ? (uint32_t)__builtin_ctz(__em%d) : 0u; ",
            k, A(1, u32), k, k, k);
        const char *lane = E->in_entry && !E->thread_mode ? "(__lin & 31u)" : "t->lane";
        if (d->kind == OP_REG && d->name2) {
            if (d->name) wr_name(E, in, d->name, u32, S(E, "__el%d", k));
            wr_name(E, in, d->name2, pr, S(E, "(__el%d == %s)", k, lane));
        } else wr(E, in, d, u32, S(E, "__el%d", k));
        OUT("}");
        return;
    }
    fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode);
}

/* Video instructions. Kind: 1 scalar (vadd vsub vabsdiff vmin vmax vshl vshr vset), 3 vmad,
 * 2 / 4 SIMD with that many lanes (vadd2 ... vset2, vadd4 ... vset4); 0 not one. Only these take
 * operand selectors (parsed into ptx_opnd_t.sel) and vmad negated operands (.minus). */
static int video_kind(const char *op)
{
    static const char *sc[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vset", "vavrg", NULL};
    if (!strcmp(op, "vmad")) return 3;
    for (int i = 0; sc[i]; i++) {
        size_t n = strlen(sc[i]);
        if (strncmp(op, sc[i], n)) continue;
        if (!op[n] && i < 8) return 1;
        if ((op[n] == '2' || op[n] == '4') && !op[n + 1] && i != 5 && i != 6) return op[n] - '0';
    }
    return 0;
}

/* selector text -> __vpart's code: b0..b3 -> 1..4, h0/h1 -> 5/6, none -> 0; -1 if malformed */
static int video_sel1(const char *sel)
{
    if (!sel) return 0;
    if (sel[0] == 'b' && sel[1] >= '0' && sel[1] <= '3' && !sel[2]) return 1 + sel[1] - '0';
    if (sel[0] == 'h' && sel[1] >= '0' && sel[1] <= '1' && !sel[2]) return 5 + sel[1] - '0';
    return -1;
}

/* SIMD source selector (.hxy / .bxyzw, highest lane first) -> nibble per lane; dflt when absent */
static int video_seln(const char *sel, int n, int dflt)
{
    if (!sel) return dflt;
    if (sel[0] != (n == 2 ? 'h' : 'b') || (int)strlen(sel + 1) != n) return -1;
    int v = 0;
    for (int i = 0; i < n; i++) {
        int d = sel[1 + i] - '0';
        if (d < 0 || d >= 2 * n) return -1;
        v |= d << (4 * (n - 1 - i));
    }
    return v;
}

/* SIMD destination mask (.h0 .h1 .h10; .b0 ... .b3210: the lanes written) -> bit per lane */
static int video_mask(const char *sel, int n)
{
    if (!sel) return (1 << n) - 1;
    if (sel[0] != (n == 2 ? 'h' : 'b') || !sel[1]) return -1;
    int m = 0;
    for (const char *c = sel + 1; *c; c++) {
        int d = *c - '0';
        if (d < 0 || d >= n || (m >> d & 1)) return -1;
        m |= 1 << d;
    }
    return m;
}

static void emit_video(emit_t *E, const ptx_insn_t *in, int kind)
{
    const char *op = in->mods[0];
    ty_t u32 = TY('u', 4);
    static const char *cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    int cmp = -1;
    for (int i = 0; i < 6; i++) if (has(in, cmps[i])) cmp = i;
    int vset = !strncmp(op, "vset", 4);
    /* vset has no destination type (d and c are unsigned) */
    ty_t dt = vset ? u32 : ity(in, 0), at = ity(in, vset ? 0 : 1), bt = ity(in, vset ? 1 : 2);
    if (!is_int(dt) || !is_int(at) || !is_int(bt) || dt.sz != 4 || at.sz != 4 || bt.sz != 4 || (vset && cmp < 0)) {
        fail(E, NPU_EPTX, in, "%s: bad types", in->opcode);
        return;
    }
    NEED(3);
    const char *a = A(1, u32), *b = A(2, u32), *c = in->nops > 3 ? A(3, u32) : "0u";
    int sat = has(in, "sat");
    if (kind == 3) {
        NEED(4);
        int asel = video_sel1(in->ops[1].sel), bsel = video_sel1(in->ops[2].sel);
        int shift = has(in, "shr7") ? 7 : has(in, "shr15") ? 15 : 0, po = has(in, "po");
        int nprod = in->ops[1].minus ^ in->ops[2].minus, nc = in->ops[3].minus;
        if (asel < 0 || bsel < 0 || in->ops[0].sel || in->ops[3].sel || (po && (nprod || nc)) || (nprod && nc)) {
            fail(E, NPU_EPTX, in, "%s: bad operand selector or negation", in->opcode);
            return;
        }
        int fl = (at.c == 's') | (bt.c == 's') << 1 | nprod << 2 | nc << 3 | po << 4 | sat << 5;
        wr(E, in, &in->ops[0], u32, S(E, "__vmad(%s, %s, %s, %d, %d, %d, %d)", a, b, c, asel, bsel, fl, shift));
        return;
    }
    int base = !strncmp(op, "vadd", 4) ? 0 : !strncmp(op, "vsub", 4) ? 1 : !strncmp(op, "vabsdiff", 8) ? 2 :
               !strncmp(op, "vmin", 4) ? 3 : !strncmp(op, "vmax", 4) ? 4 : !strcmp(op, "vshl") ? 5 :
               !strcmp(op, "vshr") ? 6 : !strncmp(op, "vavrg", 5) ? 7 : 8 + cmp;
    if (base == 5 || base == 6) bt = u32;   /* vshl/vshr: b is always .u32 */
    int fl = (at.c == 's') | (bt.c == 's') << 1 | (dt.c == 's') << 2 | (sat && !vset) << 3 | has(in, "clamp") << 4;
    for (int i = 0; i < in->nops; i++)
        if (in->ops[i].minus) { fail(E, NPU_EPTX, in, "%s: negated operand", in->opcode); return; }
    if (kind == 1) {
        int asel = video_sel1(in->ops[1].sel), bsel = video_sel1(in->ops[2].sel), dsel = video_sel1(in->ops[0].sel);
        int op2 = has(in, "add") ? 1 : has(in, "min") ? 2 : has(in, "max") ? 3 : 0;
        if (asel < 0 || bsel < 0 || dsel < 0 || (in->nops > 3 && in->ops[3].sel)) {
            fail(E, NPU_EPTX, in, "%s: bad operand selector", in->opcode);
            return;
        }
        if ((op2 || dsel) && in->nops < 4) { fail(E, NPU_EPTX, in, "%s needs the operand c", in->opcode); return; }
        wr(E, in, &in->ops[0], u32, S(E, "__vop(%s, %s, %s, %d, %d, %d, %d, %d, %d)", a, b, c, base, asel, bsel, dsel, fl, op2));
        return;
    }
    NEED(4);
    int n = kind;
    int asel = video_seln(in->ops[1].sel, n, n == 2 ? 0x10 : 0x3210);
    int bsel = video_seln(in->ops[2].sel, n, n == 2 ? 0x32 : 0x7654);
    int mask = video_mask(in->ops[0].sel, n);
    if (asel < 0 || bsel < 0 || mask < 0 || in->ops[3].sel) { fail(E, NPU_EPTX, in, "%s: bad operand selector", in->opcode); return; }
    if (has(in, "add")) fl |= 32;
    wr(E, in, &in->ops[0], u32, S(E, "__vsimd(%s, %s, %s, %d, %d, 0x%x, 0x%x, 0x%x, %d)", a, b, c, n, base, asel, bsel, mask, fl));
}


/* lop3 with an immediate LUT (every LOP3 the SASS front end lifts has one) as a plain C
 * expression, by Shannon expansion on a: f = a ? f1(b, c) : f0(b, c), each half one of the 16
 * two-input functions in its shortest form. The loop over the 8 minterms in __lop3 stayed a
 * loop at -O1, and a loop inside a lane loop kept gcc from vectorizing that lane loop
 * (ATen's GELU backward: 11 of its largest lane loops, each with two ex2 polynomials). */
static const char *lop3_two(emit_t *E, unsigned f, const char *x, const char *y)
{
    switch (f & 15u) {
    case 0: return "0u";
    case 1: return S(E, "(~(%s | %s))", x, y);
    case 2: return S(E, "(~%s & %s)", x, y);
    case 3: return S(E, "(~%s)", x);
    case 4: return S(E, "(%s & ~%s)", x, y);
    case 5: return S(E, "(~%s)", y);
    case 6: return S(E, "(%s ^ %s)", x, y);
    case 7: return S(E, "(~(%s & %s))", x, y);
    case 8: return S(E, "(%s & %s)", x, y);
    case 9: return S(E, "(~(%s ^ %s))", x, y);
    case 10: return S(E, "(%s)", y);
    case 11: return S(E, "(~%s | %s)", x, y);
    case 12: return S(E, "(%s)", x);
    case 13: return S(E, "(%s | ~%s)", x, y);
    case 14: return S(E, "(%s | %s)", x, y);
    default: return "0xffffffffu";
    }
}
static const char *lop3_expr(emit_t *E, const char *a, const char *b, const char *c, unsigned lut)
{
    unsigned f1 = lut >> 4, f0 = lut & 15u;
    const char *F1 = lop3_two(E, f1, b, c), *F0 = lop3_two(E, f0, b, c);
    const char *r;
    if (f1 == f0) r = F0;
    else if (f0 == 0) r = S(E, "(%s & %s)", a, F1);
    else if (f1 == 0) r = S(E, "(~%s & %s)", a, F0);
    else if (f1 == 15) r = S(E, "(%s | %s)", a, F0);
    else if (f0 == 15) r = S(E, "(~%s | %s)", a, F1);
    else if (f1 == (~f0 & 15u)) r = S(E, "(%s ^ %s)", a, F0);
    else r = S(E, "(%s ^ (%s & (%s ^ %s)))", F0, a, F0, F1);
    return S(E, "((uint32_t)%s)", r);
}

static void emit_insn(emit_t *E, const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    ty_t u32 = TY('u', 4);
    if (in->lockstep && E->phase && E->in_entry && !E->ls_inner) { emit_phase_stop(E, in); return; }
    if (in->lockstep && E->thread_mode && E->in_entry) OUT("rt->ls_step(t); ");
    if (!strncmp(op, "__", 2)) {   /* ptx_lockstep.c's pseudo-instructions: phase and thread mode act on them */
        if (!E->in_entry) return;
        if (E->phase) {
            if (!strcmp(op, "__reconv")) emit_phase_stop(E, in);
            else if (!strcmp(op, "__rspush")) emit_rspush(E, in, "__lin");
        } else if (E->thread_mode) {
            if (!strcmp(op, "__reconv")) OUT("rt->ls_reconv(t, %uu);", (uint32_t)(in - E->f->insns));
            else if (!strcmp(op, "__rspush")) OUT("rt->ls_push(t, %uu);", (uint32_t)in->ops[0].imm);
        }
        return;
    }
    if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "addc") || !strcmp(op, "subc")) {
        emit_arith(E, in, op);
    } else if (!strcmp(op, "mul") || !strcmp(op, "mul24")) emit_mul(E, in, 0);
    else if (!strcmp(op, "mad") || !strcmp(op, "madc") || !strcmp(op, "fma") || !strcmp(op, "mad24")) {
        if (!strcmp(op, "fma") && !ity(in, 0).c) { fail(E, NPU_EPTX, in, "fma without a type"); return; }
        emit_mul(E, in, 1);
    } else if (!strcmp(op, "div")) emit_divrem(E, in, 0);
    else if (!strcmp(op, "rem")) emit_divrem(E, in, 1);
    else if (!strcmp(op, "min")) emit_minmax(E, in, 0);
    else if (!strcmp(op, "max")) emit_minmax(E, in, 1);
    else if (!strcmp(op, "abs") || !strcmp(op, "neg") || !strcmp(op, "sqrt") || !strcmp(op, "rsqrt") ||
             !strcmp(op, "rcp") || !strcmp(op, "sin") || !strcmp(op, "cos") || !strcmp(op, "ex2") ||
             !strcmp(op, "lg2") || !strcmp(op, "tanh")) emit_unary(E, in, op);
    else if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "not") || !strcmp(op, "cnot"))
        emit_logic(E, in, op);
    else if (!strcmp(op, "shl")) emit_shift(E, in, 1);
    else if (!strcmp(op, "shr")) emit_shift(E, in, 0);
    else if (!strcmp(op, "shf")) {
        NEED(4);
        wr(E, in, &in->ops[0], u32, S(E, "__shf(%s, %s, %s, %d, %d)", A(1, u32), A(2, u32), A(3, u32), has(in, "l"), has(in, "wrap")));
    } else if (!strcmp(op, "bfe")) {
        NEED(4);
        ty_t t = ity(in, 0);
        if (!is_int(t) || t.sz < 4) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        wr(E, in, &in->ops[0], TY('u', t.sz), S(E, "(%s)__bfe((uint64_t)%s, %s, %s, %d, %d)", ut(t), A(1, TY('u', t.sz)),
                                                A(2, u32), A(3, u32), t.sz * 8, t.c == 's'));
    } else if (!strcmp(op, "bfi")) {
        NEED(5);
        ty_t t = ity(in, 0);
        if (!is_int(t) || t.sz < 4) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        ty_t u = TY('u', t.sz);
        wr(E, in, &in->ops[0], u, S(E, "(%s)__bfi((uint64_t)%s, (uint64_t)%s, %s, %s, %d)", ut(u), A(1, u), A(2, u), A(3, u32), A(4, u32), t.sz * 8));
    } else if (!strcmp(op, "szext") || !strcmp(op, "bmsk")) {
        NEED(3);
        ty_t t = ity(in, 0);
        int clamp = has(in, "clamp");
        if (t.sz != 4 || (!clamp && !has(in, "wrap"))) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        if (op[0] == 's') wr(E, in, &in->ops[0], u32, S(E, "__szext(%s, %s, %d, %d)", A(1, u32), A(2, u32), clamp, t.c == 's'));
        else wr(E, in, &in->ops[0], u32, S(E, "__bmsk(%s, %s, %d)", A(1, u32), A(2, u32), clamp));
    } else if (video_kind(op)) {
        emit_video(E, in, video_kind(op));
    } else if (!strcmp(op, "fns")) {
        NEED(4);
        wr(E, in, &in->ops[0], u32, S(E, "__fns(%s, %s, (int32_t)%s)", A(1, u32), A(2, u32), A(3, u32)));
    } else if (!strcmp(op, "lop3")) {
        NEED(5);
        const char *x = in->ops[4].kind == OP_IMM ? lop3_expr(E, A(1, u32), A(2, u32), A(3, u32), (unsigned)in->ops[4].imm & 0xffu)
                      : S(E, "__lop3(%s, %s, %s, %s)", A(1, u32), A(2, u32), A(3, u32), A(4, u32));
        const ptx_opnd_t *d = &in->ops[0];
        if (d->kind == OP_REG && d->name2) {   /* lop3.BoolOp d|p, a, b, c, lut, q: p = (d != 0) BoolOp q */
            const char *bop = has(in, "and") ? "&" : has(in, "or") ? "|" : NULL;
            if (!bop || in->nops < 6) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
            int k = E->tmp++;
            OUT("{ uint32_t __lo%d = %s; ", k, x);
            if (d->name) wr_name(E, in, d->name, u32, S(E, "__lo%d", k));
            wr_name(E, in, d->name2, TY('p', 1), S(E, "((__lo%d != 0) %s (%s != 0))", k, bop, A(5, TY('p', 1))));
            OUT(" }");
        } else wr(E, in, d, u32, x);
    } else if (!strcmp(op, "prmt")) {
        NEED(4);
        int mode = has(in, "f4e") ? 1 : has(in, "b4e") ? 2 : has(in, "rc8") ? 3 : has(in, "ecl") ? 4 :
                   has(in, "ecr") ? 5 : has(in, "rc16") ? 6 : 0;
        wr(E, in, &in->ops[0], u32, S(E, "__prmt(%s, %s, %s, %d)", A(1, u32), A(2, u32), A(3, u32), mode));
    } else if (!strcmp(op, "popc") || !strcmp(op, "clz") || !strcmp(op, "brev") || !strcmp(op, "bfind")) {
        NEED(2);
        ty_t t = ity(in, 0);
        if (!is_int(t) || t.sz < 4) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        ty_t u = TY('u', t.sz);
        const char *a = A(1, u);
        int w = t.sz * 8;
        if (op[0] == 'p') wr(E, in, &in->ops[0], u32, S(E, "(uint32_t)__builtin_popcountll((uint64_t)%s)", a));
        else if (op[0] == 'c') wr(E, in, &in->ops[0], u32, S(E, "(%s == 0 ? %du : (uint32_t)__builtin_clzll((uint64_t)%s) - %du)", a, w, a, 64 - w));
        else if (op[1] == 'r') wr(E, in, &in->ops[0], u, S(E, "__brev%d(%s)", w, a));
        else wr(E, in, &in->ops[0], u32, S(E, "__bfind((uint64_t)%s, %d, %d, %d)", a, w, t.c == 's', has(in, "shiftamt")));
    } else if (!strcmp(op, "dp4a") || !strcmp(op, "dp2a")) {
        NEED(4);
        ty_t ta = ity(in, 0), tb = ity(in, 1);
        const char *x = op[2] == '4'
            ? S(E, "__dp4a(%s, %s, (int32_t)%s, %d, %d)", A(1, u32), A(2, u32), A(3, u32), ta.c == 's', tb.c == 's')
            : S(E, "__dp2a(%s, %s, (int32_t)%s, %d, %d, %d)", A(1, u32), A(2, u32), A(3, u32), ta.c == 's', tb.c == 's', has(in, "hi"));
        wr(E, in, &in->ops[0], u32, S(E, "(uint32_t)%s", x));
    } else if (!strcmp(op, "sad")) {
        NEED(4);
        ty_t t = ity(in, 0);
        ty_t u = TY('u', t.sz);
        wr(E, in, &in->ops[0], u, S(E, "(%s)(%s + (%s > %s ? (%s)(%s - %s) : (%s)(%s - %s)))", ut(u), A(3, u), A(1, t), A(2, t),
                                    ut(u), A(1, u), A(2, u), ut(u), A(2, u), A(1, u)));
    } else if (!strcmp(op, "testp")) {
        NEED(2);
        ty_t t = ity(in, 0);
        static const char *k[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
        int kind = -1;
        for (int i = 0; i < 6; i++) if (has(in, k[i])) kind = i;
        if (kind < 0 || t.c != 'f') { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        wr(E, in, &in->ops[0], TY('p', 1), S(E, "__testp%d(%s, %d)", t.sz * 8, A(1, t), kind));
    } else if (!strcmp(op, "copysign")) {
        NEED(3);
        ty_t t = ity(in, 0);
        if (t.c != 'f') { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        wr(E, in, &in->ops[0], t, S(E, "copysign%s(%s, %s)", t.sz == 4 ? "f" : "", A(2, t), A(1, t)));
    } else if (!strcmp(op, "setp")) emit_setp(E, in);
    else if (!strcmp(op, "set")) emit_set(E, in);
    else if (!strcmp(op, "selp")) {
        NEED(4);
        ty_t t = ity(in, 0);
        wr(E, in, &in->ops[0], t, S(E, "(%s ? %s : %s)", A(3, TY('p', 1)), A(1, t), A(2, t)));
    } else if (!strcmp(op, "slct")) {
        NEED(4);
        ty_t t = ity(in, 0), c = ity(in, 1);
        const char *cv = c.c == 'f' ? fin(E, in, 3, c) : A(3, c);
        wr(E, in, &in->ops[0], t, S(E, "(%s >= 0 ? %s : %s)", cv, A(1, t), A(2, t)));
    } else if (!strcmp(op, "cvt")) emit_cvt(E, in);
    else if (!strcmp(op, "mov")) emit_mov(E, in);
    else if (!strcmp(op, "ld") || !strcmp(op, "ldu")) emit_ld(E, in, 0);
    else if (!strcmp(op, "st")) emit_ld(E, in, 1);
    else if (!strcmp(op, "cvta")) {
        NEED(2);
        ty_t t = ity(in, 0);
        if (!t.c) t = TY('u', 8);
        int to = has(in, "to"), sp = space_mod(in);
        const char *a = A(1, TY('u', 8));
        const char *x = a;
        if (sp == SP_SHARED) x = to ? S(E, "(%s - (uint64_t)(uintptr_t)b->shared)", a) : S(E, "(%s + (uint64_t)(uintptr_t)b->shared)", a);
        wr(E, in, &in->ops[0], TY('u', t.sz), S(E, "(%s)%s", ut_name(t.sz), x));
    } else if (!strcmp(op, "isspacep")) {
        NEED(2);
        int sp = space_mod(in);
        const char *a = A(1, TY('u', 8));
        const char *insh = S(E, "(%s - (uint64_t)(uintptr_t)b->shared < (uint64_t)b->shared_size)", a);
        const char *inl = S(E, "(%s - ((uint64_t)(uintptr_t)__builtin_frame_address(0) - 65536u) < (1u << 20))", a);
        if (E->phase && E->in_entry)   /* phase mode keeps the entry's frames in the block state */
            inl = S(E, "(%s || %s - (uint64_t)(uintptr_t)__lfbase < (uint64_t)__nt * %uu)", inl, a, lstride(E));
        const char *x = sp == SP_SHARED ? insh : sp == SP_LOCAL ? inl :
                        sp == SP_GLOBAL ? S(E, "(!%s && !%s)", insh, inl) : sp == SP_PARAM ? "0" : "1";
        if (sp == SP_CONST) x = S(E, "(!%s && !%s)", insh, inl);
        wr(E, in, &in->ops[0], TY('p', 1), x);
    } else if (!strcmp(op, "atom")) emit_atom(E, in, 0);
    else if (!strcmp(op, "red")) emit_atom(E, in, 1);
    else if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
        if (has_prefix(in, "proxy") || has_prefix(in, "mbarrier_init")) OUT("/* %s */", in->opcode);
        else OUT("__atomic_thread_fence(__ATOMIC_SEQ_CST);");
    } else if (is_sync_op(op)) emit_collective(E, in);
    else if (!strcmp(op, "bra") || !strcmp(op, "brx")) {
        if (op[2] == 'x') { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        NEED(1);
        OUT("goto %s;", mangle(E, "L_", in->ops[0].name ? in->ops[0].name : "?"));
    } else if (!strcmp(op, "call")) emit_call(E, in);
    else if (!strcmp(op, "ret")) OUT("goto __ret;");
    else if (!strcmp(op, "exit")) {
        if (E->in_entry) OUT("goto __ret;");
        else OUT("return 1;");
    } else if (!strcmp(op, "trap")) OUT("rt->trap(t);");
    else if (!strcmp(op, "brkpt") || !strcmp(op, "prefetch") || !strcmp(op, "prefetchu") ||
             !strcmp(op, "nanosleep") || !strcmp(op, "pmevent") || !strcmp(op, "applypriority") ||
             !strcmp(op, "discard") || !strcmp(op, "griddepcontrol")) OUT("/* %s */", in->opcode);
    else if (!strcmp(op, "createpolicy")) { NEED(1); wr(E, in, &in->ops[0], TY('u', 8), "0ull"); }
    else if (!strcmp(op, "cp") && has(in, "async")) {
        if (has(in, "commit_group") || has(in, "wait_group") || has(in, "wait_all")) { OUT("/* %s */", in->opcode); return; }
        if (has_prefix(in, "bulk") || has_prefix(in, "mbarrier")) { fail(E, NPU_EPTXUNSUP, in, "%s", in->opcode); return; }
        NEED(3);
        const char *dst = addr(E, in, &in->ops[0], SP_SHARED), *src = addr(E, in, &in->ops[1], SP_GLOBAL);
        const char *cp = A(2, u32);
        /* [dst], [src], cp-size{, src-size | ignore-src predicate}{, cache-policy with .L2::cache_hint}:
         * ignore-src true copies zeros (the ISA); the cache policy is a hint */
        int nops = in->nops - (has(in, "L2::cache_hint") ? 1 : 0);
        const char *ss = cp;
        if (nops >= 4) {
            const ptx_opnd_t *o = &in->ops[3];
            sym_t sy = {0};
            if ((o->kind == OP_REG || o->kind == OP_SYM) && o->name) sy = lookup(E, o->name);
            if (sy.kind == SY_REG && sy.ty.c == 'p') ss = S(E, "(%s ? 0u : %s)", A(3, TY('p', 1)), cp);
            else if (o->kind != OP_SYM) ss = A(3, u32);
        }
        int k = E->tmp++;
        OUT("{ uint32_t __cs%d = %s, __ss%d = %s; if (__ss%d > __cs%d) __ss%d = __cs%d; memcpy(%s, %s, __ss%d); memset(%s + __ss%d, 0, __cs%d - __ss%d); }",
            k, cp, k, ss, k, k, k, k, dst, src, k, dst, k, k, k);
    } else if (is_texture_op(op)) {
        fail(E, NPU_EPTXUNSUP, in, "texture/surface instruction %s", in->opcode);
    } else {
        fail(E, NPU_EPTXUNSUP, in, "instruction %s", in->opcode);
    }
}

/* ------------------------------------------------------------ lane groups ---- */
static int reg_declared_before(const ptx_func_t *f, int i, const char *nm);
static int insn_no_dest(const ptx_insn_t *in);
static void lane_regs(emit_t *E, ptx_func_t *f, void (*fn)(emit_t *, ty_t, const char *));
static int lane_op_ok(const ptx_insn_t *in);
/* Identifiers a lane-group statement must not use: per-thread scalar state (t, the local
 * frame, the carry flag, .func parameter arrays, calls). A statement that uses one is not
 * emitted as lanes; the group continues per thread from that instruction. */
static int lane_tokens_ok(const char *s)
{
    for (const char *c = s; *c; ) {
        if (isalpha((unsigned char)*c) || *c == '_') {
            const char *b = c;
            while (isalnum((unsigned char)*c) || *c == '_') c++;
            size_t n = (size_t)(c - b);
            if ((n == 1 && *b == 't') || (n == 2 && !strncmp(b, "rt", 2)) || (n == 4 && !strncmp(b, "__lf", 4)) ||
                (n == 4 && !strncmp(b, "__cc", 4)) || (n == 8 && !strncmp(b, "__lfbase", 8)) ||
                (n == 4 && !strncmp(b, "__tc", 4)) || (n >= 3 && !strncmp(b, "pa_", 3)) || (n >= 3 && !strncmp(b, "fn_", 3)))
                return 0;
        } else if (*c == '"' || *c == '\'') {
            return 0;                       /* no literals expected in lane statements */
        } else c++;
    }
    return 1;
}

/* the predicate guard of in as a lane expression ("1" without one) */
static const char *lane_pred(emit_t *E, const ptx_insn_t *in)
{
    if (!in->pred) return "1";
    sym_t s = lookup(E, in->pred);
    return S(E, "(%s%s)", in->pred_neg ? "!" : "", s.kind == SY_REG ? conv(E, s.cname, s.ty, TY('p', 1)) : "0");
}

static int lane_op_ok(const ptx_insn_t *in)
{
    static const char *ok[] = {"add", "sub", "mul", "mul24", "mad", "mad24", "fma", "div", "rem", "min", "max",
        "abs", "neg", "sqrt", "rsqrt", "rcp", "sin", "cos", "ex2", "lg2", "tanh", "and", "or", "xor", "not", "cnot",
        "shl", "shr", "shf", "bfe", "bfi", "fns", "lop3", "prmt", "popc", "clz", "brev", "bfind", "dp4a", "dp2a",
        "sad", "testp", "copysign", "setp", "set", "selp", "slct", "cvt", "mov", "cvta", "atom", "red", "szext", "bmsk", NULL};
    for (int i = 0; ok[i]; i++)
        if (!strcmp(in->mods[0], ok[i])) return 1;
    return video_kind(in->mods[0]) != 0;
}

/* Lane classes: what a register holds across the 16 lanes of a group while the group runs as
 * lanes (control flow is uniform there; a divergent branch leaves the lane copy).
 *   LC_AFF with stride c: lane l holds v0 + c*l (mod 2^width); c == 0 is "uniform".
 *   LC_UNK: anything else.
 * Flow-insensitive: a register's class is the join over all its definitions (nvcc's PTX is
 * nearly SSA), iterated to a fixpoint. A definition guarded by a non-uniform predicate is
 * LC_UNK. Widening an affine 32-bit value to 64 bits is exact only without wrap-around
 * between lane 0 and lane 15: the lane copy checks that at run time and leaves the lane copy
 * when it fails. Uses: a uniform branch tests lane 0 only; a load from a uniform address is
 * one scalar load; an access whose address has stride == access size is one vector access
 * after a scalar check that lane 15's address is lane 0's + 15 * size. */
enum { LC_BOT = 0, LC_AFF = 1, LC_UNK = 2 };
typedef struct lcls { int k; long long c; } lcls_t;
#define LC_RT LLONG_MIN         /* affine with a stride known only at run time (c of LC_AFF) */
typedef struct lreg { const char *name; lcls_t cl; int sa; ty_t ty; int ndef, hz; } lreg_t;

static unsigned lr_hash(const char *n) { unsigned h = 2166136261u; for (; *n; n++) h = (h ^ (unsigned char)*n) * 16777619u; return h; }
static int lr_find(emit_t *E, const char *n)
{
    if (!E->lrh || !n) return -1;
    for (unsigned i = lr_hash(n) & (unsigned)(E->lrhcap - 1);; i = (i + 1) & (unsigned)(E->lrhcap - 1)) {
        int x = E->lrh[i];
        if (x < 0) return -1;
        if (!strcmp(E->lr[x].name, n)) return x;
    }
}
/* uniform lane registers live in lane 0 of their array: w_X[0] (computed once, not 16 times) */
static int lane_uni_reg(emit_t *E, const char *name)
{
    int i = lr_find(E, name);
    return i >= 0 && E->lr[i].cl.k == LC_AFF && E->lr[i].cl.c == 0;
}
/* scalar-affine lane registers (lane_mark_sa): lane l holds w_X[0] + l * sa_X */
static int lane_sa_reg(emit_t *E, const char *name)
{
    int i = name ? lr_find(E, name) : -1;
    return i >= 0 && E->lr[i].sa;
}
/* the value of scalar-affine register name (of type t) at lane `lane` (a C expression) */
static const char *lane_sa_value(emit_t *E, const char *name, ty_t t, const char *lane)
{
    return S(E, "((%s)((%s)%s[0] + (%s)%s * %s))", ct(t), ut_name(t.sz), mangle(E, "w_", name), ut_name(t.sz), lane,
             mangle(E, "sa_", name));
}
static void lr_add(emit_t *E, ty_t t, const char *n)
{
    if (E->nlr == E->caplr) {
        int nc = E->caplr ? E->caplr * 2 : 64;
        lreg_t *a = realloc(E->lr, (size_t)nc * sizeof *a);
        if (!a) { E->st = NPU_EHOSTMEM; return; }
        E->lr = a;
        E->caplr = nc;
    }
    char *c = strdup(n);
    if (!c) { E->st = NPU_EHOSTMEM; return; }
    E->lr[E->nlr].name = c;
    E->lr[E->nlr].cl.k = LC_BOT;
    E->lr[E->nlr].cl.c = 0;
    E->lr[E->nlr].sa = 0;
    E->lr[E->nlr].ndef = E->lr[E->nlr].hz = 0;
    E->lr[E->nlr].ty = t;
    E->nlr++;
}
static void lr_free(emit_t *E)
{
    for (int i = 0; i < E->nlr; i++) free((char *)E->lr[i].name);
    free(E->lr);
    free(E->lrh);
    E->lr = NULL; E->lrh = NULL; E->nlr = E->caplr = 0;
}

static lcls_t LC(int k, long long c) { lcls_t r = {k, c}; return r; }
static lcls_t lc_join(lcls_t a, lcls_t b)
{
    if (a.k == LC_BOT) return b;
    if (b.k == LC_BOT) return a;
    if (a.k == LC_AFF && b.k == LC_AFF) return a.c == b.c ? a : LC(LC_AFF, LC_RT);   /* affine either way */
    return LC(LC_UNK, 0);
}
static int lc_uni(lcls_t a) { return a.k != LC_UNK && a.c == 0; }   /* BOT counts as uniform (not yet defined) */

static lcls_t lc_opnd(emit_t *E, const ptx_opnd_t *o)
{
    switch (o->kind) {
    case OP_IMM: case OP_FIMM: case OP_DIMM: case OP_DEC: return LC(LC_AFF, 0);
    case OP_REG: case OP_SYM: {
        if (o->name2) return LC(LC_UNK, 0);
        int i = lr_find(E, o->name);
        if (i >= 0) return E->lr[i].cl;
        if (o->name[0] != '%') return LC(LC_AFF, 0);                /* a symbol's address */
        if (!strcmp(o->name, "%tid.x") || !strcmp(o->name, "%laneid")) return LC(LC_AFF, 1);
        if (!strncmp(o->name, "%tid.", 5) || !strncmp(o->name, "%ntid", 5) || !strncmp(o->name, "%ctaid", 6) ||
            !strncmp(o->name, "%nctaid", 7) || !strcmp(o->name, "%warpid") || !strcmp(o->name, "%nwarpid") ||
            !strcmp(o->name, "%smid") || !strcmp(o->name, "%nsmid") || !strcmp(o->name, "%dynamic_smem_size") ||
            !strcmp(o->name, "%total_smem_size"))
            return LC(LC_AFF, 0);                                   /* (warpid: groups never straddle warps) */
        return LC(LC_UNK, 0);
    }
    case OP_VEC: {       /* a pack {a, b}: uniform when every element is */
        for (int e = 0; e < o->nelem; e++)
            if (!lc_uni(lc_opnd(E, &o->elem[e]))) return LC(LC_UNK, 0);
        return LC(LC_AFF, 0);
    }
    default: return LC(LC_UNK, 0);
    }
}
/* the base register of an address operand (a symbol or immediate base: uniform) */
static lcls_t lc_addr(emit_t *E, const ptx_opnd_t *o)
{
    if (o->kind == OP_ADDR) {
        if (o->base_is_imm || !o->name) return LC(LC_AFF, 0);
        ptx_opnd_t t = *o;
        t.kind = OP_REG;
        t.name2 = NULL;
        return lc_opnd(E, &t);
    }
    return lc_opnd(E, o);
}
static int imm_val(const ptx_opnd_t *o, long long *v)
{
    if (o->kind != OP_IMM) return 0;
    *v = (long long)o->imm;
    return 1;
}
/* whether in's guard predicate (if any) is uniform over the group's lanes */
static int lc_uni_guard(emit_t *E, const ptx_insn_t *in)
{
    if (!in->pred) return 1;
    ptx_opnd_t p = {0};
    p.kind = OP_REG;
    p.name = in->pred;
    return lc_uni(lc_opnd(E, &p));
}
static lcls_t lc_small(long long c) { return (c > -(1ll << 24) && c < (1ll << 24)) ? LC(LC_AFF, c) : LC(LC_AFF, LC_RT); }
static int lc_rt(lcls_t a) { return a.k == LC_AFF && a.c == LC_RT; }

/* an atomic, or an instruction that reads or writes the carry flag: never a lane-uniform value */
static int atomic_or_carry(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    return !strcmp(op, "atom") || !strcmp(op, "red") || has(in, "cc") || !strcmp(op, "addc") ||
           !strcmp(op, "subc") || !strcmp(op, "madc");
}

/* class of the value an instruction writes to its (first) destination */
static lcls_t lc_eval(emit_t *E, const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    lcls_t U = LC(LC_AFF, 0), X = LC(LC_UNK, 0);
    if (!lc_uni_guard(E, in)) return X;
    if (!lane_op_ok(in) && strcmp(op, "ld") && strcmp(op, "ldu")) return X;
    if (atomic_or_carry(in)) return X;
    int n = in->nops;
    lcls_t c[PTX_MAXOPS];
    int allu = 1;
    for (int i = 1; i < n; i++) { c[i] = lc_opnd(E, &in->ops[i]); allu &= lc_uni(c[i]); }
    if (!strcmp(op, "ld") || !strcmp(op, "ldu")) {
        /* .param space: only the entry's own parameters are uniform; a .param of the body is
         * per thread (a call's arguments and results) */
        const ptx_opnd_t *ao = n >= 2 ? &in->ops[1] : NULL;
        if (ao && space_mod(in) == SP_PARAM) {
            int kp = 0;
            for (int q = 0; ao->name && q < E->entry->nparams && !kp; q++) kp = !strcmp(E->entry->params[q].name, ao->name);
            if (!kp) return X;
        }
        return ao && lc_uni(lc_addr(E, ao)) && !mem_order(in) ? U : X;
    }
    if (allu) return U;
    ty_t t = ity(in, 0);
    int intop = is_int(t) || (t.c == 0 && strcmp(op, "mov") == 0);
    long long k;
    if (!strcmp(op, "mov") && n == 2 && in->ops[1].kind != OP_VEC && in->ops[0].kind != OP_VEC) return c[1];
    if (!intop) return X;
    if ((!strcmp(op, "add") || !strcmp(op, "sub")) && n == 3 && !has(in, "sat")) {
        if (c[1].k != LC_AFF || c[2].k != LC_AFF) return X;
        if (lc_rt(c[1]) || lc_rt(c[2])) return LC(LC_AFF, LC_RT);
        return lc_small(op[0] == 'a' ? c[1].c + c[2].c : c[1].c - c[2].c);
    }
    if ((!strcmp(op, "mul") || !strcmp(op, "mad")) && !has(in, "hi") && n >= 3) {
        long long s;
        if (c[1].k != LC_AFF || c[2].k != LC_AFF) return X;
        int rt = 0;
        if (lc_uni(c[1]) && lc_uni(c[2])) s = 0;
        else if (lc_uni(c[2]) && imm_val(&in->ops[2], &k)) { s = lc_rt(c[1]) ? 0 : c[1].c * k; rt = lc_rt(c[1]) && k; }
        else if (lc_uni(c[1]) && imm_val(&in->ops[1], &k)) { s = lc_rt(c[2]) ? 0 : c[2].c * k; rt = lc_rt(c[2]) && k; }
        else if (lc_uni(c[1]) || lc_uni(c[2])) { s = 0; rt = 1; }          /* uniform but not constant factor */
        else return X;
        if (!strcmp(op, "mad")) {
            if (n < 4) return X;
            lcls_t a = lc_opnd(E, &in->ops[3]);
            if (a.k != LC_AFF) return X;
            if (lc_rt(a)) rt = 1; else s += a.c;
        }
        return rt ? LC(LC_AFF, LC_RT) : lc_small(s);
    }
    if (!strcmp(op, "shl") && n == 3 && c[1].k == LC_AFF && imm_val(&in->ops[2], &k) && k >= 0 && k < 64)
        return lc_rt(c[1]) || k >= 24 ? LC(LC_AFF, LC_RT) : lc_small(c[1].c * (1ll << k));
    /* shifting right is affine only without rounding steps or wrap: checked at run time */
    if (!strcmp(op, "shr") && n == 3 && c[1].k == LC_AFF && imm_val(&in->ops[2], &k) && k >= 0 && k < 64)
        return LC(LC_AFF, LC_RT);
    if (!strcmp(op, "cvt") && n == 2 && c[1].k == LC_AFF && !has(in, "sat")) {
        ty_t s2 = ity(in, 1);
        if (is_int(s2) && is_int(t)) return c[1];   /* widening checked where emitted */
        return X;
    }
    if (!strcmp(op, "cvta") && n == 2 && c[1].k == LC_AFF) return c[1];
    return X;
}

static void lc_set(emit_t *E, const char *name, lcls_t v, int *changed)
{
    int i = lr_find(E, name);
    if (i < 0) return;
    lcls_t j = lc_join(E->lr[i].cl, v);
    if (j.k != E->lr[i].cl.k || j.c != E->lr[i].cl.c) { E->lr[i].cl = j; *changed = 1; }
}

/* Scalar-affine registers. A non-uniform affine integer register whose every definition is a
 * plain add/sub/mul/mad/shl/shr/mov/cvta/cvt (no carry, saturation or high half) is kept as two
 * scalars in the lane copy: its lane-0 value in w_X[0] and its run-time stride in sa_X; lane l
 * reads w_X[0] + l * sa_X (an induction gcc vectorizes), and a definition is computed at lanes
 * 0 and 1 (and 15 when it needs the affinity check) instead of in a 16-lane loop
 * (emit_lane_sa). CuPy's elementwise kernels spend most of their lane work on 64-bit index
 * arithmetic (vpmullq and shifts over 2 zmm per register); here it is scalar. */
static int lane_sa_op(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    const ptx_opnd_t *d = &in->ops[0];
    if (in->nops < 2 || (d->kind != OP_REG && d->kind != OP_SYM) || !d->name || d->name2 || is_stop(in)) return 0;
    if (has(in, "cc") || has(in, "sat") || has(in, "hi")) return 0;
    for (int k = 1; k < in->nops; k++)
        if (in->ops[k].kind == OP_VEC || in->ops[k].kind == OP_LIST || in->ops[k].kind == OP_SINK) return 0;
    if (!strcmp(op, "cvt")) return in->nops == 2 && is_int(ity(in, 0)) && is_int(ity(in, 1));
    if (!strcmp(op, "mov") || !strcmp(op, "cvta")) return in->nops == 2 && (is_int(ity(in, 0)) || ity(in, 0).c == 0);
    if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul") || !strcmp(op, "mad") ||
        !strcmp(op, "shl") || !strcmp(op, "shr"))
        return is_int(ity(in, 0));
    return 0;
}

/* Calls fn(E, lane register index, sole) for every register a destination operand names;
 * sole: it is the operand's only register (not a vector element or one of a pair). */
static void lane_dest_regs(emit_t *E, const ptx_opnd_t *o, int sole, void (*fn)(emit_t *, int, int))
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int e = 0; e < o->nelem; e++) lane_dest_regs(E, &o->elem[e], 0, fn);
        return;
    }
    const char *n[2] = {o->name, o->name2};
    for (int k = 0; k < 2; k++) {
        int i = n[k] ? lr_find(E, n[k]) : -1;
        if (i >= 0) fn(E, i, sole && !o->name2);
    }
}
static void lane_sa_clear(emit_t *E, int i, int sole) { (void)sole; E->lr[i].sa = 0; }
static void lane_count_def(emit_t *E, int i, int sole) { E->lr[i].ndef += sole ? 1 : 2; }

static void lane_mark_sa(emit_t *E, ptx_func_t *f)
{
    for (int i = 0; i < E->nlr; i++) {
        lcls_t c = E->lr[i].cl;
        ty_t t = E->lr[i].ty;
        E->lr[i].sa = c.k == LC_AFF && c.c != 0 && is_int(t) && (t.sz == 4 || t.sz == 8);
    }
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || in->nops < 1 || insn_no_dest(in) || lane_sa_op(in)) continue;
        lane_dest_regs(E, &in->ops[0], 1, lane_sa_clear);
    }
}

static void lane_classify(emit_t *E, ptx_func_t *f)
{
    lane_regs(E, f, lr_add);
    if (E->st != NPU_OK) return;
    int cap = 16;
    while (cap < 2 * E->nlr + 2) cap *= 2;
    E->lrh = malloc((size_t)cap * sizeof *E->lrh);
    if (!E->lrh) { E->st = NPU_EHOSTMEM; return; }
    E->lrhcap = cap;
    for (int i = 0; i < cap; i++) E->lrh[i] = -1;
    for (int x = 0; x < E->nlr; x++) {
        unsigned i = lr_hash(E->lr[x].name) & (unsigned)(cap - 1);
        while (E->lrh[i] >= 0) i = (i + 1) & (unsigned)(cap - 1);
        E->lrh[i] = x;
    }
    /* until nothing changes: each register's class only rises (BOT < AFF < UNK, AFF(c) -> AFF(RT)
     * on a stride mismatch), so at most 3 changes per register; a chain of movs needs one
     * pass per link, so a fixed pass cap would leave classes too low (wrong) */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < f->ninsns; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || in->nops < 1 || insn_no_dest(in)) continue;
            lcls_t v = is_stop(in) ? LC(LC_UNK, 0) : lc_eval(E, in);
            const ptx_opnd_t *d = &in->ops[0];
            if (d->kind == OP_VEC) {
                for (int e = 0; e < d->nelem; e++)   /* (names without '%' parse as OP_SYM) */
                    if ((d->elem[e].kind == OP_REG || d->elem[e].kind == OP_SYM) && d->elem[e].name)
                        lc_set(E, d->elem[e].name, (!strcmp(in->mods[0], "ld") || !strcmp(in->mods[0], "mov")) && lc_uni(v) ? v : LC(LC_UNK, 0), &changed);
                continue;
            }
            if ((d->kind != OP_REG && d->kind != OP_SYM) || !d->name) continue;
            if (d->name2) { lc_set(E, d->name, LC(LC_UNK, 0), &changed); lc_set(E, d->name2, LC(LC_UNK, 0), &changed); continue; }
            if ((!strcmp(in->mods[0], "setp") || !strcmp(in->mods[0], "set")) && !lc_uni(v)) v = LC(LC_UNK, 0);
            lc_set(E, d->name, v, &changed);
        }
    }
    lane_mark_sa(E, f);
    if (ptx_dump_enabled("lower")) {
        fprintf(stderr, "== ptx lanes: %s (%d insns, %d registers):", f->name, f->ninsns, E->nlr);
        for (int i = 0; i < E->nlr; i++)
            if (E->lr[i].cl.k == LC_AFF) fprintf(stderr, " %s=%s%lld%s", E->lr[i].name, E->lr[i].cl.c ? "+" : "u", E->lr[i].cl.c,
                                                 E->lr[i].sa ? "s" : "");
        fprintf(stderr, "\n");
    }
}


/* Masked regions. A branch whose predicate is not uniform may split a group's lanes at run
 * time; the lane copy used to leave the lanes then (the group ran per thread from there: to the
 * end of the thread in block mode, to the next stop in phase mode). A forward branch `@p bra J`
 * at i whose region (i, J) is a hammock -- no label inside it is the target of a branch from
 * outside, every branch inside targets (i, J], no ret/exit/brx and no stop other than a
 * lockstep access (phase mode) inside, and every register written inside and live at J is of
 * unknown class (so masked writes keep it right for the lanes that skip) -- runs in the lanes
 * under a mask instead, as a GPU does: the lanes that do not branch are active (__ami<K>), the
 * others wait at J. Inside, per-lane statements, loads and stores are masked; registers of
 * uniform or affine class written there are dead at J (checked), so their lane-0/stride forms
 * stay right for the active lanes; an exit from the lanes inside a region sends each inactive
 * lane to the join of the outermost region it is inactive in (__dkt). Regions nest (the
 * conditions imply it); the mask of an instruction is that of its innermost region. */
static int live_bit(const emit_t *E, int i, int r);
static int live_index(emit_t *E, const char *name);
static int label_index(emit_t *E, ptx_func_t *f, const char *name);

/* whether an instruction reads or writes memory (or may: anything without a destination) */
static int lane_mem_op(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    return insn_no_dest(in) || !strcmp(op, "ld") || !strcmp(op, "ldu") || !strcmp(op, "atom") || !strcmp(op, "red") ||
           !strcmp(op, "st") || !strcmp(op, "cp") || !strcmp(op, "tex") || !strcmp(op, "tld4") || !strcmp(op, "suld");
}

/* Whether a guarded (predicated, or masked in a region) lane statement may run in every lane
 * with its result kept only where the guard holds (`__g ? new : old`): one plain register
 * destination, no memory, no trap to speculate (integer div/rem: division by zero). A guarded
 * statement as `if (g) w[l] = ...` kept gcc from vectorizing the whole fused lane loop around
 * it (SASS predicates every short conditional: ATen's GELU backward erf/exp paths, @P MUFU.EX2
 * and friends, ran as scalar double polynomials). */
static int lane_select_ok(emit_t *E, const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    if (lane_mem_op(in) || !lane_op_ok(in)) return 0;      /* (atom/red are memory operations) */
    if (in->nops < 1 || in->ops[0].kind != OP_REG || !in->ops[0].name || in->ops[0].name2) return 0;
    if (lane_sa_reg(E, in->ops[0].name) || lane_uni_reg(E, in->ops[0].name)) return 0;
    if (!strcmp(op, "div") || !strcmp(op, "rem")) {
        for (int m = 1; m < in->nmods; m++)
            if (!strcmp(in->mods[m], "f32") || !strcmp(in->mods[m], "f64")) return 1;
        return 0;
    }
    return 1;
}

/* whether no register named by destination operand o is live at instruction j */
static int dest_dead_at(emit_t *E, const ptx_opnd_t *o, int j)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int e = 0; e < o->nelem; e++) if (!dest_dead_at(E, &o->elem[e], j)) return 0;
        return 1;
    }
    const char *nm[2] = {o->name, o->name2};
    for (int k = 0; k < 2; k++) {
        int r = nm[k] ? live_index(E, nm[k]) : -1;
        if (r >= 0 && live_bit(E, j, r)) return 0;
    }
    return 1;
}

/* whether no register named by destination operand o is live at the join of region r or of
 * any region around it: an unmasked write reaches the lanes inactive in each of them (a
 * register dead at the inner join may be live at the outer one, as in code lifted from SASS,
 * whose physical registers are reused for unrelated values) */
static int dest_dead_in_regions(emit_t *E, const ptx_opnd_t *o, int r)
{
    for (; r >= 0; r = E->rg[r].parent)
        if (!dest_dead_at(E, o, E->rg[r].join)) return 0;
    return 1;
}

/* whether every register named by destination operand o that is live at instruction j has
 * unknown class */
static int dest_live_unk(emit_t *E, const ptx_opnd_t *o, int j)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int e = 0; e < o->nelem; e++) if (!dest_live_unk(E, &o->elem[e], j)) return 0;
        return 1;
    }
    const char *nm[2] = {o->name, o->name2};
    for (int k = 0; k < 2; k++) {
        if (!nm[k]) continue;
        int r = live_index(E, nm[k]);
        if (r < 0 || !live_bit(E, j, r)) continue;
        int x = lr_find(E, nm[k]);
        if (x < 0 || E->lr[x].cl.k != LC_UNK) return 0;
    }
    return 1;
}

static void lane_regions(emit_t *E, ptx_func_t *f)
{
    int n = f->ninsns;
    E->rin = malloc((size_t)(n + 1) * sizeof(int));
    E->rstart = calloc((size_t)n + 1, sizeof(int));
    if (!E->rin || !E->rstart) { E->st = NPU_EHOSTMEM; return; }
    for (int k = 0; k <= n; k++) E->rin[k] = -1;
    if (!E->lv || npu_env("NPU_PTX_NO_MASKED")) return;
    int *lo = malloc((size_t)(n + 1) * sizeof(int)), *hi = malloc((size_t)(n + 1) * sizeof(int));
    if (!lo || !hi) { free(lo); free(hi); E->st = NPU_EHOSTMEM; return; }
    for (int k = 0; k <= n; k++) { lo[k] = n; hi[k] = -1; }
    for (int i = 0; i < n; i++) {   /* the first and last branch to each label */
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || strcmp(in->mods[0], "bra") || in->nops < 1 || !in->ops[0].name) continue;
        int t = label_index(E, f, in->ops[0].name);
        if (t < 0) continue;
        if (i < lo[t]) lo[t] = i;
        if (i > hi[t]) hi[t] = i;
    }
    for (int i = 0; i < n && E->st == NPU_OK; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || strcmp(in->mods[0], "bra") || !in->pred || in->nops < 1 || !in->ops[0].name) continue;
        if (lc_uni_guard(E, in)) continue;
        int j = label_index(E, f, in->ops[0].name);
        if (j <= i + 1) continue;
        int ok = 1;
        for (int k = i + 1; k < j && ok; k++) {
            const ptx_insn_t *ik = &f->insns[k];
            if (ik->is_label == 1) { if (hi[k] >= 0 && (lo[k] <= i || hi[k] >= j)) ok = 0; continue; }
            if (ik->is_label) continue;
            const char *op = ik->mods[0];
            if (!strcmp(op, "bra")) {
                int t = ik->nops >= 1 && ik->ops[0].name ? label_index(E, f, ik->ops[0].name) : -1;
                if (t <= i || t > j) ok = 0;
                continue;
            }
            if (!strcmp(op, "brx") || !strcmp(op, "ret") || !strcmp(op, "exit")) ok = 0;
            if (is_stop(ik) && !(E->phase && ik->lockstep)) ok = 0;
            if (ok && ik->nops >= 1 && !insn_no_dest(ik) && !dest_live_unk(E, &ik->ops[0], j)) ok = 0;
        }
        if (!ok) continue;
        if (E->nrg % 16 == 0) {
            lregion_t *a = realloc(E->rg, (size_t)(E->nrg + 16) * sizeof *a);
            if (!a) { E->st = NPU_EHOSTMEM; break; }
            E->rg = a;
        }
        E->rg[E->nrg].br = i;
        E->rg[E->nrg].join = j;
        E->rg[E->nrg].parent = -1;
        E->rg[E->nrg].depth = 1;
        E->nrg++;
    }
    free(lo);
    free(hi);
    /* nesting: outer (longer) regions first, each inner one overwrites the interior it owns */
    int *ord = malloc((size_t)(E->nrg + 1) * sizeof(int));
    if (!ord) { E->st = NPU_EHOSTMEM; return; }
    for (int r = 0; r < E->nrg; r++) ord[r] = r;
    for (int a = 1; a < E->nrg; a++)   /* insertion sort by span, descending */
        for (int b = a; b > 0; b--) {
            lregion_t *x = &E->rg[ord[b - 1]], *y = &E->rg[ord[b]];
            if (x->join - x->br >= y->join - y->br) break;
            int t = ord[b]; ord[b] = ord[b - 1]; ord[b - 1] = t;
        }
    for (int q = 0; q < E->nrg; q++) {
        int r = ord[q];
        lregion_t *R = &E->rg[r];
        R->parent = E->rin[R->br];
        R->depth = R->parent >= 0 ? E->rg[R->parent].depth + 1 : 1;
        for (int k = R->br + 1; k < R->join; k++) E->rin[k] = r;
        E->rstart[R->br] = r + 1;
    }
    free(ord);
    /* a lane-copy stop inside regions saves their masks: at most LANE_MASK_DEPTH slots */
    for (int k = 0; k < n; k++) {
        if (f->insns[k].is_label || !is_stop(&f->insns[k]) || E->rin[k] < 0) continue;
        int d = E->rg[E->rin[k]].depth;
        if (d > LANE_MASK_DEPTH) {   /* too deep (never seen): no masked regions at all */
            for (int j = 0; j <= n; j++) { E->rin[j] = -1; E->rstart[j] = 0; }
            E->nrg = 0;
            E->gam_depth = 0;
            break;
        }
        if (d > E->gam_depth) E->gam_depth = d;
    }
    if (ptx_dump_enabled("lower") && E->nrg) {
        fprintf(stderr, "== ptx lanes: %s: %d masked region(s):", f->name, E->nrg);
        for (int r = 0; r < E->nrg; r++)
            if (E->rstart[E->rg[r].br])
                fprintf(stderr, " lines %d-%d", f->insns[E->rg[r].br].line, f->insns[E->rg[r].join].line);
        fprintf(stderr, "\n");
    }
}

/* the active mask of the instruction being emitted (its innermost region's) */
static const char *lane_am(emit_t *E)
{
    return E->crg < 0 ? "NPU_LANE_FULL" : S(E, "__ami%d", E->crg);
}

/* Leaving the lane copy at instruction idx (the per-thread copy continues there). Inside masked
 * regions the inactive lanes go to the join of the outermost region they are inactive in. */
static const char *lane_exit(emit_t *E, int idx)
{
    E->divpt[idx] = 1;
    if (E->crg < 0) return S(E, "{ __dk = %d; goto __div; }", idx + 1);
    sb_t b = {0};
    sb_add(&b, "{ for (uint32_t __lx = 0; __lx < NPU_LANES; __lx++) { uint32_t __t = %du;", idx + 1);
    for (int r = E->crg; r >= 0; r = E->rg[r].parent) {   /* innermost first: outer ones override */
        sb_add(&b, " if (!(__ami%d >> __lx & 1u)) __t = %du;", r, E->rg[r].join + 1);
        E->divpt[E->rg[r].join] = 1;
    }
    sb_add(&b, " __dkt[__lx] = __t; } __dkx = 1; __dk = %d; goto __div; }", idx + 1);
    if (b.oom) { E->st = NPU_EHOSTMEM; free(b.s); return "0"; }
    const char *r = S(E, "%s", b.s);
    free(b.s);
    return r;
}

/* ld/st of one element as lanes, by the class of the address's base register (lane_classify):
 * uniform -> one scalar access (a store keeps lane 15's value, as threads in order would);
 * stride == size -> one vector access when lane 15's address is lane 0's + 15 * size
 * (a 32-bit shared offset may wrap); otherwise, or under a non-uniform guard, a per-lane loop.
 * The text of addresses and values refers to __l: a block declaring "const uint32_t __l = k"
 * evaluates them at lane k. */
/* the head of an affine lane access: __p0_k / __pz_k = lane 0's / lane 15's address, __pgk the
 * guard (uniform); opens a block the caller closes */
static void lane_aff_head(emit_t *E, int k, const char *a, const char *pred)
{
    OUT("{ uint8_t *__p0_%d, *__pz_%d; int __pg%d; { const uint32_t __l = 0; __p0_%d = %s; __pg%d = %s; } "
        "{ const uint32_t __l = NPU_LANES - 1u; __pz_%d = %s; }\n", k, k, k, k, a, k, pred, k, a);
}

static void emit_lane_mem_body(emit_t *E, const ptx_insn_t *in, int st, int idx);

/* Inside a masked region (lane_regions): the forms below when every lane is active; else one
 * access per active lane (no lane that skipped the region may touch memory or have its
 * register written). A uniform load into a uniform register is one load either way (some lane
 * is active, so the GPU makes it too). */
static void emit_lane_mem(emit_t *E, const ptx_insn_t *in, int st, int idx)
{
    if (E->crg < 0) { emit_lane_mem_body(E, in, st, idx); return; }
    ty_t t = ity(in, 0);
    if (!t.c) { E->lane_bad = 1; return; }
    if (t.c == 'p') t = TY('u', 1);
    const ptx_opnd_t *ao = &in->ops[st ? 0 : 1], *vo = &in->ops[st ? 1 : 0];
    if (!st && lc_uni_guard(E, in) && lc_uni(lc_addr(E, ao)) && (vo->kind == OP_REG || vo->kind == OP_SYM) && vo->name &&
        !vo->name2 && lane_uni_reg(E, vo->name)) {
        emit_lane_mem_body(E, in, st, idx);
        return;
    }
    const char *am = lane_am(E);
    OUT("if (%s == NPU_LANE_FULL) { ", am);
    emit_lane_mem_body(E, in, st, idx);
    OUT(" } else { for (__l = 0; __l < NPU_LANES; __l++) if ((%s >> __l & 1u) && %s) { *__curlin = __ling + __l; ", am, lane_pred(E, in));
    const char *a = addr(E, in, ao, space_mod(in));
    if (st) store(E, a, t, A(1, t), 0);
    else wr(E, in, vo, t, load_expr(E, a, t, 0));
    OUT(" } }");
}

static void emit_lane_mem_body(emit_t *E, const ptx_insn_t *in, int st, int idx)
{
    ty_t t = ity(in, 0);
    if (!t.c) { E->lane_bad = 1; return; }
    if (t.c == 'p') t = TY('u', 1);
    int sp = space_mod(in);
    const ptx_opnd_t *ao = &in->ops[st ? 0 : 1], *vo = &in->ops[st ? 1 : 0];
    const char *a = addr(E, in, ao, sp);
    const char *pred = lane_pred(E, in);
    lcls_t ac = lc_addr(E, ao);
    int upred = lc_uni_guard(E, in);
    int k = E->tmp++;
    if (upred && lc_uni(ac)) {
        if (st) {
            OUT("{ const uint32_t __l = NPU_LANES - 1u; if (%s) { ", pred);
            store(E, a, t, A(1, t), 0);
            OUT(" } }");
        } else {
            /* one load into a scalar (a may_alias load inside the lane loop would not be hoisted);
             * a uniform destination is lane 0 only: a loop storing it 16 times stayed a loop at
             * -O1 (the hoisted parameter loads were 7% of CuPy's maximum, 14% with 32 lanes) */
            int udst = (vo->kind == OP_REG || vo->kind == OP_SYM) && vo->name && !vo->name2 && lane_uni_reg(E, vo->name);
            OUT("{ uint8_t *__pu%d; int __pg%d; { const uint32_t __l = 0; __pu%d = %s; __pg%d = %s; } "
                "if (__pg%d) { %s __uv%d = %s; %s", k, k, k, a, k, pred, k,
                ct(t), k, load_expr(E, S(E, "__pu%d", k), t, 0),
                udst ? "{ const uint32_t __l = 0; (void)__l; " : "for (__l = 0; __l < NPU_LANES; __l++) { ");
            wr(E, in, vo, t, S(E, "__uv%d", k));
            OUT(" } } }");
        }
        return;
    }
    int strided = ac.k == LC_AFF && ac.c != LC_RT && ac.c != t.sz && ac.c != 0;   /* known stride != size */
    int vec = upred && !strided;
    if (upred && !st && strided) {
        /* a load with a known stride (a column of a shared tile): lane l reads lane 0's address
         * + l*c, without the per-lane fault bookkeeping (faults name the group's first thread) */
        OUT("{ uint8_t *__p0_%d; int __pg%d; { const uint32_t __l = 0; __p0_%d = %s; __pg%d = %s; } "
            "if (__pg%d) { *__curlin = __ling; for (__l = 0; __l < NPU_LANES; __l++) { ", k, k, k, a, k, pred, k);
        wr(E, in, vo, t, load_expr(E, S(E, "(__p0_%d + (intptr_t)__l * %lldll)", k, (long long)ac.c), t, 0));
        OUT(" } } }");
        return;
    }
    if (vec) {
        /* a register whose lane array has the access's exact type and size (f32 <-> float,
         * 32/64-bit integer <-> uintN_t of that size, not uniform) is copied directly; any
         * other goes through a local array and memcpy (gcc vectorizes loops over locals
         * without the run-time alias checks its cost model refuses) */
        const ptx_opnd_t *ro = st ? &in->ops[1] : vo;
        const char *direct = NULL;
        if ((ro->kind == OP_REG || ro->kind == OP_SYM) && ro->name && !ro->name2 && !ro->neg && t.sz >= 4) {
            sym_t rs = lookup(E, ro->name);
            if (rs.kind == SY_REG && !lane_uni_reg(E, ro->name) && !lane_sa_reg(E, ro->name) && rs.ty.sz == t.sz &&
                ((rs.ty.c == 'f' && t.c == 'f') || (rs.ty.c == 'u' && is_int(t))))
                direct = mangle(E, "w_", ro->name);
        }
        /* an affine load into a register of another type or size (a byte widened to 16 bits):
         * the check and the memcpy here, the per-lane conversion left (E->lane_tail) to the
         * next fused loop, so the values go straight into the statements that use them. As a
         * loop of its own, gcc stored them as two xmm halves that the next loop re-read as one
         * ymm: a store-forwarding stall (tiled histogram, perf annotate: a third of its time) */
        if (!st && !direct && ac.k == LC_AFF && t.sz <= 8 && E->crg < 0) {
            OUT("uint8_t __tv%d[NPU_LANES * %du] __attribute__((aligned(64))); int __tg%d = 0;\n    ", k, t.sz, k);
            lane_aff_head(E, k, a, pred);
            OUT("    if (__pg%d && __pz_%d - __p0_%d == (intptr_t)((NPU_LANES - 1u) * %du)) { memcpy(__tv%d, __p0_%d, sizeof __tv%d); __tg%d = 1; }",
                k, k, k, t.sz, k, k, k, k);
            OUT("\n    else if (__pg%d) %s }", k, lane_exit(E, idx));
            size_t mark = E->out.n;
            wr(E, in, vo, t, load_expr(E, S(E, "(__tv%d + __l * %du)", k, t.sz), t, 0));
            const char *w = S(E, "    if (__tg%d) { %s }", k, E->out.s + mark);
            E->out.n = mark;
            E->out.s[mark] = 0;
            E->lane_tail = w;
            return;
        }
        if (ac.k == LC_AFF) {   /* affine: lane 15 against lane 0 decides */
            lane_aff_head(E, k, a, pred);
            OUT("    if (__pg%d && __pz_%d - __p0_%d == (intptr_t)((NPU_LANES - 1u) * %du)) {", k, k, k, t.sz);
        } else {                /* unknown (e.g. div/mod index math): every lane is compared */
            OUT("{ uint8_t *__pa%d[NPU_LANES], *__p0_%d; int __pg%d; { const uint32_t __l = 0; __pg%d = %s; } "
                "for (__l = 0; __l < NPU_LANES; __l++) __pa%d[__l] = %s; __p0_%d = __pa%d[0];\n", k, k, k, k, pred, k, a, k, k);
            OUT("    if (__pg%d && __lane_contig(__pa%d, %du)) {", k, k, t.sz);
        }
        if (direct) {
            if (st) OUT(" memcpy(__p0_%d, %s, sizeof %s);", k, direct, direct);
            else OUT(" memcpy(%s, __p0_%d, sizeof %s);", direct, k, direct);
        } else {
            OUT(" uint8_t __tv%d[NPU_LANES * %du] __attribute__((aligned(64))); ", k, t.sz);
            if (!st) OUT("memcpy(__tv%d, __p0_%d, sizeof __tv%d); ", k, k, k);
            OUT("for (__l = 0; __l < NPU_LANES; __l++) { ");
            const char *pe = S(E, "(__tv%d + __l * %du)", k, t.sz);
            if (st) store(E, pe, t, A(1, t), 0);
            else wr(E, in, vo, t, load_expr(E, pe, t, 0));
            OUT(" }");
            if (st) OUT(" memcpy(__p0_%d, __tv%d, sizeof __tv%d);", k, k, k);
        }
        if (ac.k == LC_AFF) {
            /* affine but not contiguous here (a 32-bit offset wrapped, or the guard is off):
             * per thread from this access on; no per-lane copy to compile */
            OUT(" }\n    else if (__pg%d) %s }", k, lane_exit(E, idx));
            return;
        }
        if (!st) {
            /* every lane at one address (a row's index in CuPy's take: idx[i / width]): one
             * load, broadcast. 16 scalar loads of one index were a fifth of cupy_take. */
            OUT(" }\n    else if (__pg%d && __lane_same(__pa%d)) { *__curlin = __ling; %s __uv%d = %s; "
                "for (__l = 0; __l < NPU_LANES; __l++) { ", k, k, ct(t), k, load_expr(E, S(E, "__p0_%d", k), t, 0));
            wr(E, in, vo, t, S(E, "__uv%d", k));
            OUT(" }");
        }
        OUT(" }\n    else ");
    } else OUT("{ ");
    OUT("for (__l = 0; __l < NPU_LANES; __l++) if (%s) { *__curlin = __ling + __l; ", pred);
    if (st) store(E, a, t, A(1, t), 0);
    else wr(E, in, vo, t, load_expr(E, a, t, 0));
    OUT(" } }");
}

/* lane copy of a guard or branch condition: uniform ones test lane 0 */
static void emit_lane_cond(emit_t *E, const ptx_insn_t *in, const char *target, int idx)
{
    if (lc_uni_guard(E, in)) {
        OUT("{ int __u; { const uint32_t __l = 0; __u = %s; } if (__u) goto %s; }", lane_pred(E, in), target);
        return;
    }
    /* the lanes that take the branch, among the active ones */
    const char *am = lane_am(E);
    sym_t ps = {0};
    if (in->pred) ps = lookup(E, in->pred);
    if (in->pred && ps.kind == SY_REG && ps.ty.c == 'p')   /* a predicate register's lane array: a mask test */
        OUT("{ uint32_t __m = (__lane_mask(%s)%s) & %s; ", mangle(E, "w_", in->pred), in->pred_neg ? " ^ NPU_LANE_FULL" : "", am);
    else
        OUT("{ uint32_t __m = 0; for (uint32_t __lx = 0; __lx < NPU_LANES; __lx++) { const uint32_t __l = __lx; "
            "__m |= (uint32_t)(%s != 0) << __lx; } __m &= %s; ", lane_pred(E, in), am);
    OUT("if (__m == %s) goto %s; ", am, target);
    int r = E->rstart ? E->rstart[idx] - 1 : -1;
    if (r >= 0) OUT("__ami%d = %s & ~__m; }", r, am);   /* a masked region: the others go on */
    else OUT("if (__m) %s }", lane_exit(E, idx));
}

/* After a widening conversion (cvt, mul.wide, mad.wide) or a right shift whose destination
 * the lane classes call affine: check that this execution really produced an affine sequence
 * d_0..d_15. Such an instruction maps an exactly affine input through a function whose
 * lane-to-lane steps take at most two values that differ by a large power of two (a wrap of
 * the narrower source, or the jump where a shifted input wraps), or, for shifts, differ by
 * one (rounding). With q = d_1 - d_0 bounded (|q| < 2^b, b = source bits - 5, minus the
 * shift), d_15 - d_0 == 15q holds only if every step is q: a wrap anywhere adds a multiple of
 * 2^(bits) that the bound keeps from cancelling, and rounding steps q+1 cannot sum to 15q.
 * Known stride c: d_15 - d_0 == 15c alone (at most one wrap). Three scalar reads, no
 * reduction. On failure the group continues per thread at this (pure) instruction. */
static int lane_post_check_needed(emit_t *E, const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    int cvt = !strcmp(op, "cvt"), wide = (!strcmp(op, "mul") || !strcmp(op, "mad")) && has(in, "wide");
    if (!cvt && !wide && strcmp(op, "shr")) return 0;
    if (in->nops < 2 || (in->ops[0].kind != OP_REG && in->ops[0].kind != OP_SYM) || !in->ops[0].name || in->ops[0].name2) return 0;
    if (cvt) {
        ty_t d = ity(in, 0), s2 = ity(in, 1);
        if (!is_int(d) || !is_int(s2) || d.sz <= s2.sz) return 0;
    }
    int i = lr_find(E, in->ops[0].name);
    if (i < 0) return 0;
    lcls_t c = E->lr[i].cl;
    return c.k == LC_AFF && c.c != 0;
}

/* v0, v1, vz: the destination's values at lanes 0, 1 and 15 */
static void emit_lane_post_check(emit_t *E, const ptx_insn_t *in, int idx, const char *v0, const char *v1, const char *vz)
{
    int i = lr_find(E, in->ops[0].name);
    lcls_t c = E->lr[i].cl;
    ty_t rt = lookup(E, in->ops[0].name).ty;
    const char *u = ut_name(rt.sz), *sg = st_name(rt.sz);
    if (c.c != LC_RT) {
        OUT("  if ((%s)(%s - %s) != (%s)((NPU_LANES - 1u) * (uint64_t)%lldll)) %s\n",
            u, vz, v0, u, (long long)c.c, lane_exit(E, idx));
        return;
    }
    const char *op = in->mods[0];
    int bits, lg = E->lanes32 ? 6 : 5;      /* 2^lg > 2 * (lanes - 1): the wrap bound below */
    if (!strcmp(op, "cvt")) bits = ity(in, 1).sz * 8 - lg;
    else if (!strcmp(op, "shr")) {
        long long k = 0;
        imm_val(&in->ops[2], &k);
        bits = rt.sz * 8 - lg - (int)k;
    } else bits = ity(in, 0).sz * 8 - lg;   /* mul.wide / mad.wide: the narrow source */
    if (bits > 40) bits = 40;
    if (bits < 1) { OUT("  %s\n", lane_exit(E, idx)); return; }
    OUT("  { %s __q = (%s)(%s - %s); if ((%s)__q >= (%s)%lldll || (%s)__q <= -(%s)%lldll || (%s)(%s - %s) != (%s)((NPU_LANES - 1u) * __q))"
        " %s }\n", u, u, v1, v0, sg, sg, 1ll << bits, sg, sg, 1ll << bits, u, vz, v0, u, lane_exit(E, idx));
}

/* A definition of a scalar-affine register (lane_mark_sa): the instruction evaluated at lanes
 * 0 and 1 (and 15 for the affinity check of widenings and right shifts, done before anything
 * is written, so that the per-thread copy can redo the instruction on failure), then lane 0's
 * value and the stride stored. Guards are uniform (the class says so): tested at lane 0. */
static void emit_lane_sa(emit_t *E, const ptx_insn_t *in, int idx)
{
    const char *X = in->ops[0].name;
    int i = lr_find(E, X);
    ty_t rt = E->lr[i].ty;
    const char *c = ct(rt), *u = ut_name(rt.sz);
    int chk = lane_post_check_needed(E, in);
    int k = E->tmp++;
    OUT("{ %s __sa%d_0, __sa%d_1, __sa%d_z; int __sag%d = 1; (void)__sa%d_z; ", c, k, k, k, k, k);
    if (in->pred) OUT("{ const uint32_t __l = 0; __sag%d = %s; } ", k, lane_pred(E, in));
    OUT("if (__sag%d) {\n", k);
    static const char *lane[3] = {"0", "1", "NPU_LANES - 1u"}, *tag[3] = {"0", "1", "z"};
    for (int j = 0; j < (chk ? 3 : 2); j++) {
        E->sa_dst = X;
        E->sa_to = S(E, "__sa%d_%s", k, tag[j]);
        OUT("    { const uint32_t __l = %s; ", lane[j]);
        emit_insn(E, in);
        OUT(" }\n");
    }
    E->sa_dst = E->sa_to = NULL;
    if (chk) emit_lane_post_check(E, in, idx, S(E, "__sa%d_0", k), S(E, "__sa%d_1", k), S(E, "__sa%d_z", k));
    OUT("    %s[0] = __sa%d_0; %s = (%s)((%s)__sa%d_1 - (%s)__sa%d_0); } }", mangle(E, "w_", X), k, mangle(E, "sa_", X), u, u, k, u, k);
}

/* One instruction of the lane-group copy. Sets E->lane_bad for what must run per thread. */
static void emit_lane_insn(emit_t *E, const ptx_insn_t *in, int idx)
{
    const char *op = in->mods[0];
    if (!strcmp(op, "bra")) {
        if (in->nops < 1 || !in->ops[0].name) { E->lane_bad = 1; return; }
        const char *L = mangle(E, "V_", in->ops[0].name);
        if (!in->pred) { OUT("goto %s;", L); return; }
        emit_lane_cond(E, in, L, idx);
        return;
    }
    if (!strcmp(op, "ret") || !strcmp(op, "exit")) {
        if (!in->pred) { OUT("goto __vret;"); return; }
        emit_lane_cond(E, in, "__vret", idx);
        return;
    }
    if (E->phase && is_stop(in) && !(in->lockstep && E->ls_inner)) {
        if (in->pred) { E->lane_bad = 1; return; }
        E->ls_idx = idx;
        emit_phase_stop(E, in);
        return;
    }
    if ((!strcmp(op, "ld") || !strcmp(op, "ldu") || !strcmp(op, "st")) && vec_n(in) == 1 && !mem_order(in)) {
        int sp = space_mod(in);
        if (sp == SP_GLOBAL || sp == SP_SHARED || sp == SP_NONE || (sp == SP_PARAM && op[0] == 'l') || sp == SP_CONST) {
            emit_lane_mem(E, in, op[0] == 's', idx);
            return;
        }
    }
    if (!strcmp(op, "membar") || !strcmp(op, "fence")) { emit_insn(E, in); return; }
    if (!strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) { OUT("/* %s */", in->opcode); return; }
    if (!strncmp(op, "__", 2)) {   /* ptx_lockstep.c's push (its __reconv is a stop, above) */
        if (E->phase && !strcmp(op, "__rspush")) {
            OUT("for (__l = 0; __l < NPU_LANES; __l++) ");
            if (E->crg >= 0) OUT("if (%s >> __l & 1u) ", lane_am(E));   /* the lanes that reach the branch */
            emit_rspush(E, in, "((size_t)__ling + __l)");
        }
        return;
    }
    if (!lane_op_ok(in) && strcmp(op, "ld") && strcmp(op, "ldu") && strcmp(op, "st")) { E->lane_bad = 1; return; }
    /* plain per-lane statements are fused into one lane loop by emit_body_lane (fewer loops:
     * the compiler's time goes per loop); atomics and checked instructions keep their own */
    if (in->nops >= 1 && (in->ops[0].kind == OP_REG || in->ops[0].kind == OP_SYM) && lane_sa_reg(E, in->ops[0].name)) {
        /* may run ahead of the pending fused loop when it reads only uniform and scalar-affine
         * registers (the fused statements never write those) and has no affinity check (whose
         * exit to the per-thread copy would skip the pending statements before it) */
        int ahead = (!in->pred || lane_uni_reg(E, in->pred)) && !lane_post_check_needed(E, in);
        for (int o = 1; o < in->nops && ahead; o++) {
            const ptx_opnd_t *x = &in->ops[o];
            const char *nm[2] = {x->name, x->name2};
            for (int q = 0; q < 2; q++)
                if (nm[q] && nm[q][0] == '%' && lr_find(E, nm[q]) >= 0 && !lane_uni_reg(E, nm[q]) && !lane_sa_reg(E, nm[q])) ahead = 0;
        }
        if (ahead) E->lane_uni_dest = in->ops[0].name;
        emit_lane_sa(E, in, idx);
        return;
    }
    int post = lane_post_check_needed(E, in);
    int atomic = !strcmp(op, "atom") || !strcmp(op, "red");
    int uni = !atomic && !post && in->nops >= 1 && (in->ops[0].kind == OP_REG || in->ops[0].kind == OP_SYM) &&
              in->ops[0].name && !in->ops[0].name2 && !insn_no_dest(in) && lane_uni_reg(E, in->ops[0].name);
    /* an unpack `mov.b64 {a, b}, x` of a uniform x: uniform elements, once in lane 0 too (a
     * fused loop must never write a uniform register: uniform statements run ahead of it);
     * lane_uni_dest stays NULL, so the pending loop is flushed before it */
    int uni_vec = 0;
    if (!uni && !atomic && !post && !in->pred && in->nops == 2 && in->ops[0].kind == OP_VEC && !strcmp(op, "mov")) {
        uni_vec = in->ops[0].nelem > 0;
        for (int e = 0; e < in->ops[0].nelem && uni_vec; e++) {
            const ptx_opnd_t *x = &in->ops[0].elem[e];
            uni_vec = (x->kind == OP_REG || x->kind == OP_SYM) && x->name && !x->name2 && lane_uni_reg(E, x->name);
        }
    }
    if (uni) {              /* uniform destination (so uniform operands and guard): once, in lane 0 */
        E->lane_uni_dest = in->ops[0].name;
        OUT("{ const uint32_t __l = 0; ");
    } else if (uni_vec) {
        uni = 1;
        OUT("{ const uint32_t __l = 0; ");
    } else if (post || atomic) OUT("for (__l = 0; __l < NPU_LANES; __l++) { ");
    else { E->lane_fuse = 1; OUT("{ "); }
    /* in a masked region the lanes that skip it touch no memory and keep the registers they
     * read after its join (lane_regions); other writes may run in every lane */
    int masked = !uni && E->crg >= 0 && (lane_mem_op(in) || !dest_dead_in_regions(E, &in->ops[0], E->crg));
    if ((in->pred || masked) && !uni && !post && lane_select_ok(E, in)) {
        /* computed in every lane, kept where the guard holds: a select, not a branch */
        const char *w = mangle(E, "w_", in->ops[0].name);
        const char *g = in->pred && masked ? S(E, "((%s >> __l & 1u) && %s)", lane_am(E), lane_pred(E, in))
                      : in->pred ? lane_pred(E, in) : S(E, "(%s >> __l & 1u)", lane_am(E));
        OUT("const int __g = %s; const __typeof__(%s[0]) __o = %s[__l]; ", g, w, w);
        emit_insn(E, in);
        OUT(" %s[__l] = __g ? %s[__l] : __o; }", w, w);
        return;
    }
    if (in->pred && masked) OUT("if ((%s >> __l & 1u) && %s) { ", lane_am(E), lane_pred(E, in));
    else if (masked) OUT("if (%s >> __l & 1u) { ", lane_am(E));
    else if (in->pred) OUT("if %s { ", lane_pred(E, in));
    emit_insn(E, in);
    if (in->pred || masked) OUT(" }");
    OUT(" }");
    if (post) {
        const char *w = mangle(E, "w_", in->ops[0].name);
        OUT("\n");
        emit_lane_post_check(E, in, idx, S(E, "%s[0]", w), S(E, "%s[1]", w), S(E, "%s[NPU_LANES - 1u]", w));
    }
}

/* The entry's lane-group copy: labels V_*, divergence exits "__dk = i + 1; goto __div" */
/* registers a fused statement reads (its sources and guard), for moving uniform statements
 * ahead of the pending loop */
static void pread_add(emit_t *E, const char *n)
{
    if (!n) return;
    if (E->npread == E->cappread) {
        int nc = E->cappread ? E->cappread * 2 : 64;
        const char **a = realloc(E->pread, (size_t)nc * sizeof *a);
        if (!a) { E->st = NPU_EHOSTMEM; return; }
        E->pread = a;
        E->cappread = nc;
    }
    E->pread[E->npread++] = n;
}
static void pread_opnd(emit_t *E, const ptx_opnd_t *o)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) { for (int e = 0; e < o->nelem; e++) pread_opnd(E, &o->elem[e]); return; }
    pread_add(E, o->name);
    pread_add(E, o->name2);
}
static int pread_has(emit_t *E, const char *n)
{
    for (int i = 0; i < E->npread; i++)
        if (!strcmp(E->pread[i], n)) return 1;
    return 0;
}

static void lane_flush(emit_t *E, sb_t *pend)
{
    E->npread = 0;
    if (!pend->n) return;
    OUT("  for (__l = 0; __l < NPU_LANES; __l++) {\n%s  }\n", pend->s);
    pend->n = 0;
    pend->s[0] = 0;
}

/* A loop test on scalar-affine values: `setp.<lt|le|gt|ge|lo|ls|hi|hs>.<s|u|b><32|64> %p, a, b`
 * followed by `@%p bra` (only register movs in between, as nvcc schedules them), where a and b
 * are scalar-affine or uniform and %p is read by nothing but that branch (CUDA's and CuPy's
 * grid-stride loops: i < n at entry and at the back edge). The lane values a_l = a_0 + l*s are
 * compared at lanes 0 and NPU_LANES - 1 only: when neither operand wraps in the compared type
 * between those lanes (checked exactly: a_0 + (NPU_LANES - 1)s in range, s read as signed),
 * each side is monotone in l, so equal results at both ends mean all lanes agree and the
 * branch is uniform.
 * %p's lane array is then not written: nothing else reads it, and nothing between the setp
 * and the branch can leave the lane copy (movs only), so the per-thread copy never restores
 * it. Otherwise the setp's lane loop and the branch's mask test run as before, divergence
 * included. Measured on CuPy's maximum(x, 0) (32K floats, one core, 2 interleaved pairs of
 * hand-edited C): 23.8 -> 20.4-20.8 us per launch; writing the predicate array anyway kept
 * only a third of that (22.3-23.0), and a 128-bit range check cost more than it saved
 * (25.0), hence the single use and the overflow builtins. */
/* How many names in operand o (vector and list elements included) match(name, arg). */
static int opnd_names_count(const ptx_opnd_t *o, int (*match)(const char *, const void *), const void *arg)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        int c = 0;
        for (int e = 0; e < o->nelem; e++) c += opnd_names_count(&o->elem[e], match, arg);
        return c;
    }
    return (o->name && match(o->name, arg)) + (o->name2 && match(o->name2, arg));
}
static int name_is(const char *n, const void *want) { return !strcmp(n, (const char *)want); }
/* the index of the branch that instruction i's setp feeds as described above, else 0 */
static int lane_sa_branch_ok(emit_t *E, ptx_func_t *f, int i)
{
    static const char *ord[] = {"lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    const ptx_insn_t *sp = &f->insns[i];
    if (sp->is_label || sp->pred || sp->nops != 3 || strcmp(sp->mods[0], "setp")) return 0;
    const ptx_opnd_t *d = &sp->ops[0];
    if (d->kind != OP_REG || !d->name || d->name2) return 0;
    int j = i + 1;
    for (; j < f->ninsns; j++) {                   /* plain register movs only */
        const ptx_insn_t *in = &f->insns[j];
        if (in->is_label || in->pred || strcmp(in->mods[0], "mov")) break;
        if (in->nops != 2 || in->ops[0].kind != OP_REG || in->ops[0].name2 ||
            (in->ops[1].kind != OP_REG && in->ops[1].kind != OP_IMM) || in->ops[1].name2 ||
            (E->hoist && E->hoist[j]))
            return 0;
    }
    if (j >= f->ninsns) return 0;
    const ptx_insn_t *br = &f->insns[j];
    if (br->is_label || strcmp(br->mods[0], "bra") || !br->pred || strcmp(br->pred, d->name) ||
        br->nops < 1 || !br->ops[0].name)
        return 0;
    if (E->hoist && (E->hoist[i] || E->hoist[j])) return 0;
    if (has(sp, "and") || has(sp, "or") || has(sp, "xor")) return 0;
    ty_t t = ity(sp, 0);
    if ((t.c != 's' && t.c != 'u' && t.c != 'b') || (t.sz != 4 && t.sz != 8)) return 0;
    const char *c = sp->nmods > 1 ? sp->mods[1] : "";
    int okc = 0;
    for (size_t k = 0; k < sizeof ord / sizeof *ord; k++) okc |= !strcmp(c, ord[k]);
    if (!okc || (t.c == 'b' && c[0] != 'l' && c[0] != 'h')) return 0;   /* .b: lo/ls/hi/hs only */
    if (lc_uni_guard(E, br)) return 0;            /* a uniform predicate: one lane-0 test already */
    int nsa = 0;
    for (int k = 1; k <= 2; k++) {
        const ptx_opnd_t *o = &sp->ops[k];
        if (o->kind == OP_IMM) continue;
        if (o->kind != OP_REG || !o->name || o->name2 || o->neg) return 0;
        int x = lr_find(E, o->name);
        if (x < 0 || E->lr[x].ty.sz != t.sz) return 0;
        if (lane_sa_reg(E, o->name)) nsa++;
        else if (!lane_uni_reg(E, o->name)) return 0;
    }
    if (!nsa) return 0;
    int uses = 0;                                  /* the setp's destination and the guard: 2 */
    for (int k = 0; k < f->ninsns && uses <= 2; k++) {
        const ptx_insn_t *in = &f->insns[k];
        if (in->is_label) continue;
        if (in->pred && !strcmp(in->pred, d->name)) uses++;
        for (int o = 0; o < in->nops; o++) uses += opnd_names_count(&in->ops[o], name_is, d->name);
    }
    return uses == 2 ? j : 0;
}
/* The setp part (instruction i): __sbK_u = all lanes agree (and __sbK_t = their value),
 * else the setp's lane loop. Returns K + 1, or 0 when the lane form of the setp could not be
 * emitted (the output is rewound; the caller goes on as usual). */
static int emit_lane_sa_setp(emit_t *E, ptx_func_t *f, int i)
{
    const ptx_insn_t *sp = &f->insns[i];
    ty_t t = ity(sp, 0);
    int sg = t.c == 's';
    const char *T = sg ? st_name(t.sz) : ut_name(t.sz);
    size_t mark = E->out.n;
    int k = E->tmp++;
    OUT("int __sb%d_u, __sb%d_t;\n{ %s __sb%d_a0, __sb%d_az, __sb%d_b0, __sb%d_bz; int __sb%d_ok = 1;\n",
        k, k, T, k, k, k, k, k);
    for (int j = 0; j < 2; j++) {
        const ptx_opnd_t *o = &sp->ops[1 + j];
        char ab = j ? 'b' : 'a';
        if (o->kind == OP_REG && lane_sa_reg(E, o->name)) {
            /* lane 0, and the last lane exactly: the stride read as signed, overflow of the type checked */
            const char *w0 = S(E, "%s[0]", mangle(E, "w_", o->name)), *sa = mangle(E, "sa_", o->name);
            if (t.sz == 8) {
                OUT("  { int64_t __d; %s __z; __sb%d_ok &= !__builtin_mul_overflow((int64_t)%s, (int64_t)(NPU_LANES - 1u), &__d);", T, k, sa);
                if (sg) OUT(" __sb%d_ok &= !__builtin_add_overflow((int64_t)%s, __d, &__z);", k, w0);
                else OUT(" __z = (uint64_t)%s + (uint64_t)__d; __sb%d_ok &= (__d >= 0) == (__z >= (uint64_t)%s);", w0, k, w0);
            } else {
                OUT("  { int64_t __z = (int64_t)(%s)%s + (int64_t)(int32_t)%s * (int64_t)(NPU_LANES - 1u);", T, w0, sa);
                OUT(sg ? " __sb%d_ok &= __z == (int64_t)(int32_t)__z;" : " __sb%d_ok &= (uint64_t)__z <= 0xffffffffull;", k);
            }
            OUT(" __sb%d_%c0 = (%s)%s; __sb%d_%cz = (%s)__z; }\n", k, ab, T, w0, k, ab, T);
        } else {
            OUT("  { const uint32_t __l = 0; (void)__l; __sb%d_%c0 = __sb%d_%cz = (%s)(%s); }\n",
                k, ab, k, ab, T, rd(E, sp, &sp->ops[1 + j], t));
        }
    }
    const char *c = sp->nmods > 1 ? sp->mods[1] : "", *x0, *xz;
    if (cmp_expr(E, sp, c, t, S(E, "__sb%d_a0", k), S(E, "__sb%d_b0", k), &x0) ||
        cmp_expr(E, sp, c, t, S(E, "__sb%d_az", k), S(E, "__sb%d_bz", k), &xz)) {
        E->out.n = mark; E->out.s[mark] = 0;
        return 0;
    }
    OUT("  __sb%d_t = %s; __sb%d_u = __sb%d_ok && __sb%d_t == %s;\n}\n", k, x0, k, k, k, xz);
    /* mixed or wrapping: the setp's own lane loop */
    E->lane_bad = E->lane_fuse = 0;
    E->lane_tail = NULL;
    E->lane_uni_dest = NULL;
    size_t m1 = E->out.n;
    emit_lane_insn(E, sp, i);
    if (E->out.oom || E->lane_bad || !E->lane_fuse || E->lane_tail || !lane_tokens_ok(E->out.s + m1)) {
        E->out.n = mark; E->out.s[mark] = 0;
        return 0;
    }
    char *txt = strdup(E->out.s + m1);
    if (!txt) { E->st = NPU_EHOSTMEM; return 0; }
    E->out.n = m1; E->out.s[m1] = 0;
    OUT("if (!__sb%d_u) for (__l = 0; __l < NPU_LANES; __l++) { %s }\n", k, txt);
    free(txt);
    return k + 1;
}

static void emit_body_lane(emit_t *E, ptx_func_t *f)
{
    E->lane = 1;
    sb_t pend = {0};
    int *sbr = calloc((size_t)f->ninsns + 1, sizeof *sbr);   /* branch -> its emit_lane_sa_setp + 1 */
    for (int i = 0; i < f->ninsns && E->st == NPU_OK; i++) {
        const ptx_insn_t *in = &f->insns[i];
        E->crg = E->rin ? E->rin[i] : -1;
        if (in->is_label) lane_flush(E, &pend);
        if (in->is_label == 1) { OUT("%s: ;\n", mangle(E, "V_", in->label)); continue; }
        if (in->is_label == 2) { if (E->nscopes < 256) E->scopes[E->nscopes++] = in->scope; OUT("{\n"); continue; }
        if (in->is_label == 3) { if (E->nscopes > 1) E->nscopes--; OUT(";}\n"); continue; }
        if (E->hoist && E->hoist[i]) continue;   /* once per block, before the groups */
        int jb = lane_sa_branch_ok(E, f, i);
        if (jb && sbr) {
            lane_flush(E, &pend);
            if ((sbr[jb] = emit_lane_sa_setp(E, f, i))) continue;
        }
        if (sbr && sbr[i]) {                       /* the branch of an emit_lane_sa_setp */
            lane_flush(E, &pend);
            OUT("    if (__sb%d_u) { if (%s__sb%d_t) goto %s;", sbr[i] - 1, in->pred_neg ? "!" : "",
                sbr[i] - 1, mangle(E, "V_", in->ops[0].name));
            if (E->rstart && E->rstart[i]) OUT(" __ami%d = %s;", E->rstart[i] - 1, lane_am(E));   /* a masked region, all lanes in */
            OUT(" }\n    else { ");
            size_t m0 = E->out.n;
            E->lane_bad = 0;
            emit_lane_insn(E, in, i);              /* the mask test (emit_lane_cond) */
            if (E->lane_bad) {
                E->out.n = m0; E->out.s[m0] = 0;
                OUT("%s", lane_exit(E, i));
            }
            OUT(" }\n");
            continue;
        }
        size_t mark = E->out.n;
        E->lane_bad = 0;
        E->lane_fuse = 0;
        E->lane_tail = NULL;
        E->lane_uni_dest = NULL;
        OUT("    ");
        emit_lane_insn(E, in, i);
        if (E->out.oom) break;
        if (E->lane_bad || !lane_tokens_ok(E->out.s + mark)) {
            E->out.n = mark;
            E->out.s[mark] = 0;
            lane_flush(E, &pend);
            OUT("  %s   /* %s: per thread */", lane_exit(E, i), in->opcode);
        } else if (E->lane_fuse) {
            sb_add(&pend, "%s\n", E->out.s + mark);
            E->out.n = mark;
            E->out.s[mark] = 0;
            /* from operand 0: a store's (st.v2/.v4, fused) address register is a read too; a
             * scalar-affine update of it run ahead of the loop stored through the next
             * iteration's address (cuda-samples alignedTypes' 8- and 32-byte structs) */
            for (int k = 0; k < in->nops; k++) pread_opnd(E, &in->ops[k]);
            pread_add(E, in->pred);
            continue;
        } else if (pend.n && E->lane_uni_dest && !pread_has(E, E->lane_uni_dest)) {
            /* a uniform statement reads only uniform registers, which the pending per-lane
             * statements do not write; when none of them reads its destination either, it
             * may run first: the pending loop stays one loop */
        } else if (pend.n) {
            char *txt = strdup(E->out.s + mark);
            if (!txt) { E->st = NPU_EHOSTMEM; break; }
            E->out.n = mark;
            E->out.s[mark] = 0;
            lane_flush(E, &pend);
            OUT("%s", txt);
            free(txt);
        }
        OUT("\n");
        if (E->lane_tail)   /* the instruction's per-lane part starts the next fused loop */
            sb_add(&pend, "%s\n", E->lane_tail);
        if (E->nstrs > 4096) {
            for (int k = 0; k < E->nstrs; k++) free(E->strs[k]);
            E->nstrs = 0;
        }
    }
    lane_flush(E, &pend);
    if (pend.oom) E->st = NPU_EHOSTMEM;
    free(pend.s);
    free(sbr);
    E->crg = -1;
    OUT("  goto __vret;\n");
    E->lane = 0;
}

/* Calls fn(E, type, name) for every register the entry declares at function level. */
static void lane_regs(emit_t *E, ptx_func_t *f, void (*fn)(emit_t *, ty_t, const char *))
{
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->scope != 0 || v->space != SP_REG) continue;
        ty_t t = reg_ty(v);
        if (!v->nregs) {
            if (!reg_declared_before(f, i, v->name)) fn(E, t, v->name);
            continue;
        }
        for (int r = 0; r < v->nregs; r++) {
            char nm[160];
            snprintf(nm, sizeof nm, "%s%d", v->name, r);
            if (!reg_declared_before(f, i, nm)) fn(E, t, nm);
        }
    }
}
static void lane_decl1(emit_t *E, ty_t t, const char *n)
{
    OUT("%s %s[NPU_LANES];\n", ct(t), mangle(E, "w_", n));
    if (lane_sa_reg(E, n)) OUT("%s %s = 0;\n", ut_name(t.sz), mangle(E, "sa_", n));
}
static void lane_load1(emit_t *E, ty_t t, const char *n)
{
    if (lane_sa_reg(E, n))
        OUT("%s = %s; ", mangle(E, "r_", n), lane_sa_value(E, n, t, "__l2"));
    else OUT("%s = %s[%s]; ", mangle(E, "r_", n), mangle(E, "w_", n), lane_uni_reg(E, n) ? "0" : "__l2");
}

/* Whether the entry gets a lane-group copy: block or phase mode, no memcheck, no registers
 * declared in nested scopes (the divergence entry copies function-level registers only),
 * bounded size (the copy doubles the C the compiler sees). NPU_PTX_NO_LANES=1: never. */
static int lanes_eligible(emit_t *E, ptx_func_t *f)
{
    if (E->thread_mode || E->memcheck || npu_env("NPU_PTX_NO_LANES")) return 0;
    const char *mx = npu_env("NPU_PTX_LANES_MAX");
    int max_insns = mx ? atoi(mx) : 800, max_mem = mx ? atoi(mx) / 12 : 64, max_regs = mx ? atoi(mx) : 512;
    if (f->ninsns > max_insns) {     /* compile time: CUB's 1000-1200-instruction, 800-900-register
                                      * reduce kernels took 3.4-5.2 s with lanes, 0.3-0.8 s without */
        NPU_DEBUG("ptx: %s: no lane groups: %d instructions (> %d)", f->name, f->ninsns, max_insns);
        return 0;
    }
    int nmem = 0;                    /* each access is three small loops in the lane copy: */
    for (int i = 0; i < f->ninsns; i++)  /* tests/ptx/int_ops.ptx (92 accesses) compiled in 0.45 s */
        if (!f->insns[i].is_label && (!strcmp(f->insns[i].mods[0], "ld") || !strcmp(f->insns[i].mods[0], "st")))
            nmem++;                  /* with lanes, 0.12 s without; tiled matmul (41) 0.25 s */
    if (nmem > max_mem) {
        NPU_DEBUG("ptx: %s: no lane groups: %d memory accesses (> %d)", f->name, nmem, max_mem);
        return 0;
    }
    int nregs = 0;
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->space != SP_REG) continue;
        if (v->scope != 0 || v->vec > 1) {
            NPU_DEBUG("ptx: %s: no lane groups: register %s is %s", f->name, v->name,
                      v->scope ? "declared in a nested scope" : "a vector");
            return 0;
        }
        nregs += v->nregs ? v->nregs : 1;
    }
    if (nregs > max_regs) NPU_DEBUG("ptx: %s: no lane groups: %d registers (> %d)", f->name, nregs, max_regs);
    return nregs <= max_regs;
}

/* ------------------------------------------------------------ check ---- */
static int label_exists(const ptx_func_t *f, const char *n)
{
    for (int i = 0; i < f->ninsns; i++)
        if (f->insns[i].is_label == 1 && !strcmp(f->insns[i].label, n)) return 1;
    return 0;
}

static void check_opnd(emit_t *E, const ptx_insn_t *in, const ptx_opnd_t *o, int is_call)
{
    switch (o->kind) {
    case OP_VEC: case OP_LIST:
        for (int i = 0; i < o->nelem; i++) check_opnd(E, in, &o->elem[i], is_call);
        return;
    case OP_REG: case OP_SYM: case OP_ADDR: {
        const char *names[2] = {o->name, o->name2};
        for (int k = 0; k < 2; k++) {
            if (!names[k] || !strcmp(names[k], "_")) continue;
            sym_t s = lookup(E, names[k]);
            if (s.kind == SY_NONE) {
                if (names[k][0] == '%') fail(E, NPU_EPTX, in, "undefined register %s", names[k]);
                else fail(E, NPU_EPTX, in, "undefined symbol %s", names[k]);
            }
        }
        return;
    }
    default: return;
    }
}

static void check_func(emit_t *E, ptx_func_t *f)
{
    E->f = f;
    E->nscopes = 1;
    E->scopes[0] = 0;
    for (int i = 0; i < f->ninsns && E->st == NPU_OK; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label == 2 && E->nscopes < 256) E->scopes[E->nscopes++] = in->scope;
        if (in->is_label == 3 && E->nscopes > 1) E->nscopes--;
        if (in->is_label) continue;
        if (in->pred) {
            sym_t s = lookup(E, in->pred);
            if (s.kind != SY_REG) fail(E, NPU_EPTX, in, "undefined guard predicate %s", in->pred);
        }
        const char *op = in->mods[0];
        if (in->bad_ops) {
            if (is_texture_op(op)) fail(E, NPU_EPTXUNSUP, in, "texture/surface instruction %s", in->opcode);
            else fail(E, NPU_EPTX, in, "malformed operands of %s", in->opcode);
            continue;
        }
        if (!strcmp(op, "bra") || !strcmp(op, "brx")) {
            if (in->nops < 1 || !in->ops[0].name) { fail(E, NPU_EPTX, in, "branch without a target"); continue; }
            if (!strcmp(op, "bra") && !label_exists(f, in->ops[0].name)) fail(E, NPU_EPTX, in, "undefined label %s", in->ops[0].name);
            continue;
        }
        if (!strcmp(op, "call")) {
            for (int k = 0; k < in->nops; k++) {
                const ptx_opnd_t *o = &in->ops[k];
                if (o->kind == OP_SYM && (ptx_find_func(E->p, o->name) || label_exists(f, o->name))) continue;
                if (o->kind == OP_SYM && !lookup(E, o->name).kind) { fail(E, NPU_EPTX, in, "call of undefined function %s", o->name); break; }
                check_opnd(E, in, o, 1);
            }
            continue;
        }
        for (int k = 0; k < in->nops; k++) {
            const ptx_opnd_t *o = &in->ops[k];
            if ((o->sel && !video_kind(op)) || (o->minus && strcmp(op, "vmad"))) {
                fail(E, NPU_EPTX, in, "operand %s%s%s%s of %s: selectors are for video instructions, negation for vmad",
                     o->minus ? "-" : "", o->name ? o->name : "", o->sel ? "." : "", o->sel ? o->sel : "", in->opcode);
                break;
            }
            check_opnd(E, in, o, 0);
        }
    }
}

/* ------------------------------------------------------------ lower ---- */
static int add_func(emit_t *E, ptx_func_t *g)
{
    for (int i = 0; i < E->nfuncs; i++)
        if (E->funcs[i] == g) return 0;
    if (E->nfuncs == E->capfuncs) {
        int nc = E->capfuncs ? E->capfuncs * 2 : 8;
        ptx_func_t **a = realloc(E->funcs, (size_t)nc * sizeof *a);
        if (!a) { E->st = NPU_EHOSTMEM; return -1; }
        E->funcs = a;
        E->capfuncs = nc;
    }
    E->funcs[E->nfuncs++] = g;
    return 1;
}

/* Functions (and, one level down, variables) named in a variable's initialiser join the
 * closure: their tokens may be loaded from memory and called. */
static int init_funcs(emit_t *E, const ptx_var_t *v, int depth)
{
    const char *s = v->init, *e = v->init + v->init_len;
    while (s < e) {
        if (isalpha((unsigned char)*s) || *s == '_' || *s == '$') {
            const char *n0 = s;
            while (s < e && (isalnum((unsigned char)*s) || *s == '_' || *s == '$')) s++;
            char nm[256];
            size_t n = (size_t)(s - n0) < sizeof nm - 1 ? (size_t)(s - n0) : sizeof nm - 1;
            memcpy(nm, n0, n);
            nm[n] = 0;
            if (n0 > v->init && (n0[-1] == '0' || isdigit((unsigned char)n0[-1]))) continue;   /* 0f3F80.. */
            ptx_func_t *g = ptx_find_func(E->p, nm);
            if (g && !g->is_decl && !g->is_entry) { if (add_func(E, g) < 0) return -1; continue; }
            ptx_var_t *w = g ? NULL : ptx_find_var(E->p, nm);
            if (w && w != v && w->init && depth < 2 && init_funcs(E, w, depth + 1) < 0) return -1;
        } else {
            s++;
        }
    }
    return 0;
}

/* An indirect call may reach any function whose address the module takes anywhere, not only
 * in the code this kernel reaches: C++ objects built by one kernel (their vtables are module
 * .global data initialised with function addresses) are called through in another (cuda-samples
 * newdelete: constructed in containerCreate, called in containerFill). So the first indirect
 * call in the closure adds every function named in any module variable's initialiser and every
 * function whose symbol any function or entry of the module uses other than as a call target
 * (those bodies are parsed for it; modules with indirect calls are rare and small). */
static int closure_add_address_taken(emit_t *E)
{
    ptx_prog_t *p = E->p;
    for (int i = 0; i < p->nvars; i++)
        if (p->vars[i].init && init_funcs(E, &p->vars[i], 0) < 0) return -1;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        ptx_func_t *f = &p->funcs[fi];
        if (f->is_decl) continue;
        if (ptx_parse_func(p, f) != NPU_OK) continue;   /* reported if the kernel ever reaches it */
        for (int i = 0; i < f->ninsns; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || !strcmp(in->mods[0], "call")) continue;
            for (int k = 0; k < in->nops; k++) {
                const ptx_opnd_t *o = &in->ops[k];
                if ((o->kind != OP_SYM && o->kind != OP_ADDR) || !o->name) continue;
                ptx_func_t *g = ptx_find_func(p, o->name);
                if (g && !g->is_decl && !g->is_entry && add_func(E, g) < 0) return -1;
            }
        }
    }
    return 0;
}

/* closure of called functions; returns uses_sync */
static int lower_closure(emit_t *E)
{
    int sync = 0, indirect = 0;
    if (add_func(E, E->entry) < 0) return 0;
    for (int fi = 0; fi < E->nfuncs && E->st == NPU_OK; fi++) {
        ptx_func_t *f = E->funcs[fi];
        E->f = f;
        npu_status_t st = ptx_parse_func(E->p, f);
        if (st != NPU_OK) { E->st = st; if (st == NPU_EPTX) NPU_ERR("ptx: kernel %s: function %s does not parse", E->entry->name, f->name); return 0; }
        for (int i = 0; i < f->ninsns; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label) continue;
            if (is_sync_op(in->mods[0])) sync = 1;
            if (strcmp(in->mods[0], "call")) {
                for (int k = 0; k < in->nops; k++) {
                    const ptx_opnd_t *o = &in->ops[k];
                    if ((o->kind != OP_SYM && o->kind != OP_ADDR) || !o->name) continue;
                    ptx_func_t *g = ptx_find_func(E->p, o->name);
                    if (g && !g->is_decl && !g->is_entry && add_func(E, g) < 0) return 0;
                    ptx_var_t *v = g ? NULL : ptx_find_var(E->p, o->name);
                    if (v && v->init && init_funcs(E, v, 0) < 0) return 0;
                }
            }
            if (!strcmp(in->mods[0], "call")) {
                const ptx_opnd_t *callee = NULL;   /* the first operand that is not a list */
                for (int k = 0; k < in->nops && !callee; k++)
                    if (in->ops[k].kind != OP_LIST) callee = &in->ops[k];
                if (callee && callee->kind == OP_REG && !indirect) {
                    indirect = 1;
                    if (closure_add_address_taken(E) < 0) return 0;
                }
                for (int k = 0; k < in->nops; k++) {
                    if (in->ops[k].kind != OP_SYM) continue;
                    ptx_func_t *g = ptx_find_func(E->p, in->ops[k].name);
                    if (!g) continue;
                    if (g->is_entry) { fail(E, NPU_EPTX, in, "call of kernel %s", g->name); return 0; }
                    if (g->is_decl) {
                        const char *n = g->name;
                        if (strcmp(n, "vprintf") && strcmp(n, "malloc") && strcmp(n, "free") && strcmp(n, "__assertfail")) {
                            fail(E, NPU_EPTX, in, "call of .extern function %s that no linked module defines", n);
                            return 0;
                        }
                    } else if (add_func(E, g) < 0) return 0;
                    break;
                }
            }
        }
    }
    return sync;
}

void ptx_param_layout(const ptx_func_t *f, npu_kparam_t *out, uint32_t *total)
{
    uint32_t off = 0;
    for (int i = 0; i < f->nparams; i++) {
        const ptx_var_t *v = &f->params[i];
        uint32_t al = (uint32_t)(v->align > 0 ? v->align : 1);
        uint32_t sz = (uint32_t)(v->tsize * (v->count > 0 ? v->count : 1));
        off = (off + al - 1) / al * al;
        out[i].offset = off;
        out[i].size = sz;
        out[i].align = al;
        ty_t t = ty_of(v->type);
        out[i].type = v->is_array ? 'b' : t.c == 'f' ? 'f' : t.c == 's' ? 's' : (v->type[0] == 'b' ? 'b' : 'u');
        out[i].is_ptr = (uint8_t)v->is_ptr;
        off += sz;
    }
    *total = (off + 7) / 8 * 8;
}

/* local frame layout of the current function */
static void lower_locals(emit_t *E, ptx_func_t *f)
{
    free(E->loff);
    E->loff = calloc((size_t)(f->nlocals + 1), sizeof(uint32_t));
    if (!E->loff) { E->st = NPU_EHOSTMEM; return; }
    uint32_t off = 0;
    E->lalign = 16;
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->space != SP_LOCAL) continue;
        uint32_t al = (uint32_t)(v->align > 0 ? v->align : 1);
        if (al > E->lalign) E->lalign = al;   /* `.local .align 256` (numba's local arrays) */
        off = (off + al - 1) / al * al;
        E->loff[i] = off;
        off += (uint32_t)(v->tsize * (v->count > 0 ? v->count : 1));
    }
    E->lsize = off;
}

/* bytes between two threads' frames in a barrier-phase block state: keeps every frame aligned */
static uint32_t lstride(const emit_t *E)
{
    return (E->lsize + E->lalign - 1u) & ~(E->lalign - 1u);
}

/* ------------------------------------------------------------ barrier splitting ---- */
/*
 * Phase mode: a kernel whose only collectives are full-block barriers (bar.sync / barrier.sync
 * with an immediate id and no thread count, unpredicated, at the body's top scope, in the entry
 * itself) stays a block-mode function. Each thread runs until its next barrier, saves the
 * registers live across that barrier (backward liveness over the PTX control flow) and its
 * resume point, and the next thread runs; when every thread has stopped or exited, the next
 * phase resumes each one after its barrier (exited threads count as arrived, divergent
 * barriers of the same block behave as on Volta+). Measured on the tiled SGEMM of
 * bench_kernels: fibers cost ~70 ns per thread and barrier; this costs the live registers'
 * stores and loads (a handful per barrier).
 */
#include <uthash.h>
typedef struct regix { const char *name; int idx; UT_hash_handle hh; } regix_t;
typedef struct labix { const char *name; int idx; UT_hash_handle hh; } labix_t;

/* the instruction index of label name in the entry, -1 if none (a hash built on first use:
 * the linear search per branch was quadratic in the size of CUB's unrolled kernels) */
static int label_index(emit_t *E, ptx_func_t *f, const char *name)
{
    if (f != E->entry) {
        for (int j = 0; j < f->ninsns; j++)
            if (f->insns[j].is_label == 1 && !strcmp(f->insns[j].label, name)) return j;
        return -1;
    }
    if (!E->labmap) {
        for (int j = 0; j < f->ninsns; j++) {
            if (f->insns[j].is_label != 1) continue;
            labix_t *l;
            HASH_FIND_STR(E->labmap, f->insns[j].label, l);
            if (l) continue;
            l = calloc(1, sizeof *l);
            if (!l) { E->st = NPU_EHOSTMEM; return -1; }
            l->name = f->insns[j].label;
            l->idx = j;
            HASH_ADD_KEYPTR(hh, E->labmap, l->name, strlen(l->name), l);
        }
    }
    labix_t *l;
    HASH_FIND_STR(E->labmap, name, l);
    return l ? l->idx : -1;
}

/* no destination operand: stores, branches, barriers ... (bar.red writes its operand 0) */
static int insn_no_dest(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    if ((!strcmp(op, "bar") || !strcmp(op, "barrier")) && has(in, "red")) return 0;
    if (!strncmp(op, "__", 2)) return 1;   /* ptx_lockstep.c's pseudo-instructions */
    static const char *nd[] = {"st", "red", "bar", "barrier", "membar", "fence", "bra", "brx", "ret", "exit", "call",
                               "prefetch", "prefetchu", "trap", "brkpt", "cp", "nanosleep", "pmevent", "discard",
                               "applypriority", "griddepcontrol", NULL};
    for (int i = 0; nd[i]; i++)
        if (!strcmp(op, nd[i])) return 1;
    return 0;
}

static void collect_regs(emit_t *E, const ptx_opnd_t *o, regix_t **map, int *n, int *out, int *nout, int maxout)
{
    if (o->kind == OP_VEC || o->kind == OP_LIST) {
        for (int i = 0; i < o->nelem; i++) collect_regs(E, &o->elem[i], map, n, out, nout, maxout);
        return;
    }
    const char *names[2] = {o->name, o->name2};
    for (int k = 0; k < 2; k++) {
        if (!names[k] || !strcmp(names[k], "_")) continue;
        if (o->kind != OP_REG && o->kind != OP_SYM && o->kind != OP_ADDR) continue;
        regix_t *r;
        HASH_FIND_STR(*map, names[k], r);
        if (!r) {
            sym_t sy = lookup(E, names[k]);
            if (sy.kind != SY_REG) continue;
            r = calloc(1, sizeof *r);
            if (!r) { E->st = NPU_EHOSTMEM; return; }
            r->name = names[k];
            r->idx = (*n)++;
            HASH_ADD_KEYPTR(hh, *map, r->name, strlen(r->name), r);
        }
        if (*nout < maxout) out[(*nout)++] = r->idx;
    }
}

static int full_barrier(const ptx_insn_t *in)
{
    const char *op = in->mods[0];
    if (strcmp(op, "bar") && strcmp(op, "barrier")) return 0;
    if (has(in, "warp") || has(in, "arrive") || has(in, "red") || has(in, "cluster")) return 0;
    return in->nops == 1 && in->ops[0].kind == OP_IMM && !in->pred;
}


static int phase_kind(const ptx_insn_t *in, int *mode)
{
    const char *op = in->mods[0];
    *mode = 0;
    if (in->lockstep) return PK_LOCKSTEP;   /* (may be guarded: the access is, the stop is not) */
    if (!strcmp(op, "__reconv")) return PK_RECONV;
    if (in->pred) return 0;
    if (full_barrier(in)) return PK_BAR;
    if ((!strcmp(op, "bar") || !strcmp(op, "barrier")) && has(in, "warp") && in->nops == 1) return PK_WARPSYNC;
    /* bar.red.{popc.u32,and.pred,or.pred} d, a, {!}c over the whole block (__syncthreads_count/
     * _and/_or): a barrier whose threads leave their predicate; the block's reduction is written
     * on resume (CUB's onesweep radix sort uses __syncthreads_or) */
    if ((!strcmp(op, "bar") || !strcmp(op, "barrier")) && has(in, "red") && !has(in, "arrive") && in->nops == 3 &&
        in->ops[1].kind == OP_IMM) {
        *mode = has(in, "popc") ? 0 : has(in, "and") ? 1 : has(in, "or") ? 2 : -1;
        return *mode >= 0 ? PK_BARRED : 0;
    }
    if (!strcmp(op, "shfl") && has(in, "sync") && in->nops == 5) {
        *mode = has(in, "up") ? 0 : has(in, "down") ? 1 : has(in, "bfly") ? 2 : has(in, "idx") ? 3 : -1;
        return *mode >= 0 ? PK_SHFL : 0;
    }
    if (!strcmp(op, "vote") && has(in, "sync") && in->nops == 3) {
        *mode = has(in, "all") ? 0 : has(in, "any") ? 1 : has(in, "uni") ? 2 : has(in, "ballot") ? 3 : -1;
        return *mode >= 0 ? PK_VOTE : 0;
    }
    if (!strcmp(op, "activemask") && in->nops == 1) return PK_ACTIVEMASK;
    if (!strcmp(op, "wmma") && has(in, "mma") && has(in, "m16n16k16") && in->nops == 4) {
        ty_t dt = ity(in, 0), ct2 = ity(in, 1);
        if (has(in, "satfinite")) return 0;
        for (int k = 0; k < 4; k++) if (in->ops[k].kind != OP_VEC) return 0;
        *mode = (ct2.c == 'h' ? 1 : 0) | (dt.c == 'h' ? 2 : 0);
        /* the layouts of a and b (in that order): a column-major fragment holds its tile in
         * column-major element order (see emit_wmma), 8 / 16 tell __wmma_mma */
        int nl = 0;
        for (int k = 1; k < in->nmods; k++) {
            if (strcmp(in->mods[k], "row") && strcmp(in->mods[k], "col")) continue;
            if (!strcmp(in->mods[k], "col")) *mode |= nl ? 16 : 8;
            nl++;
        }
        if (nl != 2) return 0;
        if (in->ops[1].nelem != 8 && in->ops[1].nelem != 4) return 0;   /* bf16 fragments hold 4 registers */
        if (in->ops[1].nelem == 4) *mode |= 4;
        if ((dt.c != 'f' && dt.c != 'h') || (ct2.c != 'f' && ct2.c != 'h')) return 0;
        return PK_WMMA;
    }
    if (!strcmp(op, "redux") && has(in, "sync") && in->nops == 3) {
        ty_t t = ity(in, 0);
        if (t.c == 'f') return 0;
        if (has(in, "add")) *mode = 0;
        else if (has(in, "min")) *mode = t.c == 's' ? 1 : 3;
        else if (has(in, "max")) *mode = t.c == 's' ? 2 : 4;
        else if (has(in, "and")) *mode = 5;
        else if (has(in, "or")) *mode = 6;
        else if (has(in, "xor")) *mode = 7;
        else return 0;
        return PK_REDUX;
    }
    return 0;
}

/* Registers declared in nested { } scopes of the entry (CUB's inline-asm blocks around shfl,
 * call sequences) are renamed to unique function-level registers ("%f<4>" in scope 7 ->
 * "%f_S7_<4>"), so that barrier phases can save them and lane groups can hold them; the
 * scopes' other declarations (.param arrays) stay where they are. Innermost scopes first, so
 * a name an inner scope shadows keeps its inner meaning. Idempotent (a second translation of
 * the same entry finds nothing to rename). Measured: CuPy's mean over 256 floats (cub
 * DeviceReduceSingleTileKernel, shfl inside asm scopes) ran on fibers before. */
static void rename_opnd(ptx_prog_t *p, ptx_opnd_t *o, const ptx_var_t *v, const char *nb, size_t oldlen, int *oom)
{
    char **slots[3] = {&o->name, &o->name2, NULL};
    if (o->kind == OP_VEC || o->kind == OP_LIST)
        for (int e = 0; e < o->nelem; e++) rename_opnd(p, &o->elem[e], v, nb, oldlen, oom);
    for (int k = 0; slots[k]; k++) {
        char *n = *slots[k];
        if (!n || !reg_match(v, n)) continue;
        size_t L = strlen(nb) + strlen(n + oldlen);
        char *r = ptx_alloc(p, L + 1);
        if (!r) { *oom = 1; return; }
        snprintf(r, L + 1, "%s%s", nb, n + oldlen);
        *slots[k] = r;
    }
}

static void flatten_scopes(emit_t *E, ptx_func_t *f)
{
    int n = f->ninsns, maxd = 0;
    int *open = calloc((size_t)n + 1, sizeof(int)), *close = calloc((size_t)n + 1, sizeof(int));
    int *sdepth = NULL, nsc = 0;
    for (int i = 0; i < n; i++) if (f->insns[i].is_label == 2 && f->insns[i].scope + 1 > nsc) nsc = f->insns[i].scope + 1;
    sdepth = calloc((size_t)nsc + 1, sizeof(int));
    int *sopen = calloc((size_t)nsc + 1, sizeof(int)), *sclose = calloc((size_t)nsc + 1, sizeof(int));
    if (!open || !close || !sdepth || !sopen || !sclose) { E->st = NPU_EHOSTMEM; goto out; }
    {
        int stack[256], sp = 0;
        for (int i = 0; i < n; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label == 2 && in->scope >= 0 && in->scope < nsc) {
                if (sp < 256) stack[sp] = in->scope;
                sp++;
                sdepth[in->scope] = sp;
                sopen[in->scope] = i;
                sclose[in->scope] = n;
                if (sp > maxd) maxd = sp;
            } else if (in->is_label == 3 && sp > 0) {
                sp--;
                if (sp < 256) sclose[stack[sp]] = i;
            }
        }
    }
    for (int d = maxd; d >= 1; d--)
        for (int vi = 0; vi < f->nlocals; vi++) {
            ptx_var_t *v = &f->locals[vi];
            if (v->space != SP_REG || v->scope <= 0 || v->scope >= nsc || sdepth[v->scope] != d) continue;
            char nb[200];
            snprintf(nb, sizeof nb, "%s_S%d%s", v->name, v->scope, v->nregs ? "_" : "");
            size_t oldlen = strlen(v->name);
            int oom = 0;
            for (int i = sopen[v->scope] + 1; i < sclose[v->scope] && i < n; i++) {
                ptx_insn_t *in = &f->insns[i];
                if (in->is_label) continue;
                for (int k = 0; k < in->nops; k++) rename_opnd(E->p, &in->ops[k], v, nb, oldlen, &oom);
                if (in->pred && reg_match(v, in->pred)) {
                    size_t L = strlen(nb) + strlen(in->pred + oldlen);
                    char *r = ptx_alloc(E->p, L + 1);
                    if (!r) { oom = 1; break; }
                    snprintf(r, L + 1, "%s%s", nb, in->pred + oldlen);
                    in->pred = r;
                }
            }
            char *nm = ptx_strndup(E->p, nb, strlen(nb));
            if (oom || !nm) { E->st = NPU_EHOSTMEM; goto out; }
            v->name = nm;
            v->scope = 0;
        }
out:
    free(open); free(close); free(sdepth); free(sopen); free(sclose);
    lookup_index_free(E);   /* names changed */
}

/* Backward liveness over the entry's PTX control flow (a register is live at an instruction
 * when some path from it reads the register before writing it; a guarded write keeps the old
 * value, so it also reads). E->lv holds the live-in set of every instruction (E->lvw 64-bit
 * words each), E->lvn the register names by index, E->lvmap name -> index. Used by phase mode
 * (registers saved at stop points) and by the lane copy (registers a thread takes from the
 * lanes when its group leaves them, masked regions). 0 when out of memory or an instruction
 * has too many operands to track. Computed once per entry. */
static int live_compute(emit_t *E, ptx_func_t *f)
{
    if (E->lv) return 1;
    int n = f->ninsns, nregs = 0;
    regix_t *map = NULL;
    int **use = calloc((size_t)n, sizeof *use), *nuse = calloc((size_t)n, sizeof(int));
    int *def = calloc((size_t)n * 4, sizeof(int)), *ndef = calloc((size_t)n, sizeof(int));
    int *succ = calloc((size_t)n * 2, sizeof(int)), *nsucc = calloc((size_t)n, sizeof(int));
    int ok = use && nuse && def && ndef && succ && nsucc;
    E->nscopes = 1;
    E->scopes[0] = 0;
    for (int i = 0; ok && i < n; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label == 2 && E->nscopes < 256) E->scopes[E->nscopes++] = in->scope;
        if (in->is_label == 3 && E->nscopes > 1) E->nscopes--;
        int next = i + 1 < n ? i + 1 : -1;
        if (in->is_label) { if (next >= 0) succ[2 * i + nsucc[i]++] = next; continue; }
        int buf[256], nb = 0;
        const char *op = in->mods[0];
        int nd = insn_no_dest(in);
        for (int k = 0; k < in->nops; k++) {
            if (k == 0 && !nd && (in->ops[0].kind == OP_REG || in->ops[0].kind == OP_VEC || in->ops[0].kind == OP_SINK)) {
                int db[16], ndb = 0;
                collect_regs(E, &in->ops[0], &map, &nregs, db, &ndb, 16);
                if (!in->pred) for (int j = 0; j < ndb && j < 4; j++) def[4 * i + ndef[i]++] = db[j];
                if (in->pred) for (int j = 0; j < ndb && nb < 256; j++) buf[nb++] = db[j];  /* may keep old value */
                continue;
            }
            collect_regs(E, &in->ops[k], &map, &nregs, buf, &nb, 256);
        }
        if (in->pred) {
            ptx_opnd_t po;
            memset(&po, 0, sizeof po);
            po.kind = OP_REG;
            po.name = in->pred;
            collect_regs(E, &po, &map, &nregs, buf, &nb, 256);
        }
        if (nb == 256) ok = 0;   /* too many operands to track */
        use[i] = malloc((size_t)(nb ? nb : 1) * sizeof(int));
        if (!use[i]) { ok = 0; break; }
        memcpy(use[i], buf, (size_t)nb * sizeof(int));
        nuse[i] = nb;
        int uncond_jump = (!strcmp(op, "bra") && !in->pred);
        int ends = (!strcmp(op, "ret") || !strcmp(op, "exit")) && !in->pred;
        if (!strcmp(op, "bra") && in->nops >= 1 && in->ops[0].name) {
            int j = label_index(E, f, in->ops[0].name);
            if (j >= 0) succ[2 * i + nsucc[i]++] = j;
        }
        if (!uncond_jump && !ends && next >= 0) succ[2 * i + nsucc[i]++] = next;
    }
    int words = (nregs + 63) / 64;
    if (!words) words = 1;
    uint64_t *live = ok ? calloc((size_t)n * (size_t)words + 1, sizeof(uint64_t)) : NULL;
    if (!live) ok = 0;
    /* backward fixpoint: in(i) = use(i) | (out(i) & ~def(i)), out(i) = U in(succ) */
    uint64_t *tmp = ok ? calloc((size_t)words, sizeof(uint64_t)) : NULL;
    if (!tmp) ok = 0;
    for (int changed = ok; changed;) {
        changed = 0;
        for (int i = n - 1; i >= 0; i--) {
            memset(tmp, 0, (size_t)words * sizeof(uint64_t));
            for (int k = 0; k < nsucc[i]; k++)
                for (int w = 0; w < words; w++) tmp[w] |= live[(size_t)succ[2 * i + k] * words + w];
            for (int k = 0; k < ndef[i]; k++) tmp[def[4 * i + k] / 64] &= ~(1ull << (def[4 * i + k] % 64));
            for (int k = 0; k < nuse[i]; k++) tmp[use[i][k] / 64] |= 1ull << (use[i][k] % 64);
            if (memcmp(tmp, &live[(size_t)i * words], (size_t)words * sizeof(uint64_t))) {
                memcpy(&live[(size_t)i * words], tmp, (size_t)words * sizeof(uint64_t));
                changed = 1;
            }
        }
    }
    const char **names = ok ? calloc((size_t)(nregs + 1), sizeof(char *)) : NULL;
    if (!names) ok = 0;
    regix_t *r, *rt2;
    if (names) HASH_ITER(hh, map, r, rt2) names[r->idx] = r->name;
    for (int i = 0; use && i < n; i++) free(use[i]);
    free(use); free(nuse); free(def); free(ndef); free(succ); free(nsucc); free(tmp);
    if (!ok || E->st != NPU_OK) {
        HASH_ITER(hh, map, r, rt2) { HASH_DEL(map, r); free(r); }
        free(live); free(names);
        return 0;
    }
    E->lv = live;
    E->lvw = words;
    E->lvn = names;
    E->lvmap = map;
    E->nlvr = nregs;
    return 1;
}

static int live_bit(const emit_t *E, int i, int r)
{
    return (int)(E->lv[(size_t)i * (size_t)E->lvw + (size_t)r / 64] >> (r % 64) & 1);
}

/* the liveness index of register name, -1 if it has none (never read or written) */
static int live_index(emit_t *E, const char *name)
{
    regix_t *r;
    HASH_FIND_STR(E->lvmap, name, r);
    return r ? r->idx : -1;
}

static void live_free(emit_t *E)
{
    regix_t *r, *rt2;
    HASH_ITER(hh, E->lvmap, r, rt2) { HASH_DEL(E->lvmap, r); free(r); }
    free(E->lv);
    free(E->lvn);
    E->lv = NULL; E->lvn = NULL; E->lvmap = NULL;
}

/* Phase code grows with the registers saved and restored at its stop points (one statement
 * each, plus a case of the resume switch); past this many the C compiler's time explodes and
 * the kernel runs on fibers instead. Measured: CUB's DeviceRadixSortOnesweepKernel (CUDA 13,
 * sm_75 PTX, __syncthreads_or once bar.red became a stop point) made 11 MB of C that gcc -O1
 * had not compiled after 5 minutes (4.1 s as a thread-mode kernel); CuPy's partition kernel
 * with its warp lockstep points saves 5965 and compiles in 8.9 s on the loaded 2-vCPU guest,
 * running 1.5x faster than on fibers. */
#define PHASE_MAX_SAVES 8000

/* Decides phase mode for the entry and computes the live sets; 0 = not eligible. */
static int lower_phases(emit_t *E)
{
    if (npu_env("NPU_PTX_NO_PHASES")) return 0;
    for (int fi = 1; fi < E->nfuncs; fi++)
        for (int i = 0; i < E->funcs[fi]->ninsns; i++)
            if (!E->funcs[fi]->insns[i].is_label && is_sync_op(E->funcs[fi]->insns[i].mods[0])) return 0;
    ptx_func_t *f = E->entry;
    E->f = f;
    E->in_entry = 1;
    int depth = 0, nbar = 0;
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label == 2) depth++;
        if (in->is_label == 3) depth--;
        if (in->is_label) continue;
        if (!is_stop(in)) continue;
        int md;
        if (!phase_kind(in, &md)) {
            if (ptx_dump_enabled("lower"))
                fprintf(stderr, "== ptx lower: %s: no barrier phases: %s%s at line %d%s\n", f->name, in->pred ? "predicated " : "",
                        in->opcode, in->line, depth ? " (inside a nested scope)" : "");
            return 0;
        }
        nbar++;
    }
    if (!nbar) return 0;
    int ok = live_compute(E, f);
    if (ok) {   /* the saves first, from the live sets' bit counts (naming 31M of them took seconds) */
        long saves = 0;
        for (int i = 0; i < f->ninsns && saves <= PHASE_MAX_SAVES; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || !is_stop(in)) continue;
            int sidx = in->lockstep ? i : i + 1 < f->ninsns ? i + 1 : -1;
            for (int w = 0; sidx >= 0 && w < E->lvw; w++) saves += __builtin_popcountll(E->lv[(size_t)sidx * E->lvw + w]);
        }
        if (saves > PHASE_MAX_SAVES) {
            if (ptx_dump_enabled("lower"))
                fprintf(stderr, "== ptx lower: %s: no barrier phases: %d stop points save more than %d registers in all\n",
                        f->name, nbar, PHASE_MAX_SAVES);
            return 0;
        }
    }
    if (ok) {
        E->bar_insn = calloc((size_t)nbar, sizeof(int));
        E->bar_vb = calloc((size_t)nbar, 1);
        E->bar_live = calloc((size_t)nbar, sizeof(char **));
        E->bar_nlive = calloc((size_t)nbar, sizeof(int));
        if (!E->bar_insn || !E->bar_vb || !E->bar_live || !E->bar_nlive) ok = 0;
        for (int i = 0; ok && i < f->ninsns; i++) {
            const ptx_insn_t *in = &f->insns[i];
            if (in->is_label || !is_stop(in)) continue;
            int k = E->nbar++;
            E->bar_insn[k] = i;
            /* live after the barrier = live-in of its successor */
            int sidx = in->lockstep ? i : i + 1 < f->ninsns ? i + 1 : -1;   /* a lockstep stop comes before its access */
            E->bar_live[k] = calloc((size_t)(E->nlvr + 1), sizeof(char *));
            if (!E->bar_live[k]) { ok = 0; break; }
            for (int rr = 0; sidx >= 0 && rr < E->nlvr; rr++)
                if (live_bit(E, sidx, rr)) {
                    sym_t sy = lookup(E, E->lvn[rr]);
                    if (sy.kind != SY_REG || sy.v->scope != 0) {   /* nested-scope or param register */
                        if (ptx_dump_enabled("lower"))
                            fprintf(stderr, "== ptx lower: %s: no barrier phases: %s live across line %d is not a function-level register\n",
                                    f->name, E->lvn[rr], in->line);
                        ok = 0;
                        break;
                    }
                    E->bar_live[k][E->bar_nlive[k]++] = (char *)E->lvn[rr];
                }
        }
    }
    if (E->st != NPU_OK) return 0;
    long saves = 0;   /* register saves + restores the phase code will hold */
    for (int k = 0; ok && k < E->nbar; k++) saves += E->bar_nlive[k];
    if (ok && saves > PHASE_MAX_SAVES) {
        if (ptx_dump_enabled("lower"))
            fprintf(stderr, "== ptx lower: %s: no barrier phases: %d stop points save %ld registers in all (limit %d)\n",
                    f->name, E->nbar, saves, PHASE_MAX_SAVES);
        ok = 0;
    }
    if (!ok) {
        for (int k = 0; k < E->nbar; k++) free(E->bar_live[k]);
        free(E->bar_live); free(E->bar_insn); free(E->bar_nlive); free(E->bar_vb);
        E->bar_live = NULL; E->bar_insn = NULL; E->bar_nlive = NULL; E->bar_vb = NULL; E->nbar = 0;
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------ emit functions ---- */
/* 1 when register name nm is declared by an earlier declaration of the same scope */
static int reg_declared_before(const ptx_func_t *f, int i, const char *nm)
{
    for (int j = 0; j < i; j++) {
        const ptx_var_t *w = &f->locals[j];
        if (w->space == SP_REG && w->scope == f->locals[i].scope && reg_match(w, nm)) return 1;
    }
    return 0;
}

/* Declarations of one body scope (0: the function level), at the start of its C block. */
static void emit_decls(emit_t *E, ptx_func_t *f, int scope)
{
    for (int i = 0; i < f->nlocals; i++) {
        ptx_var_t *v = &f->locals[i];
        if (v->scope != scope) continue;
        int dup = 0;
        for (int j = 0; j < i && !dup && v->space != SP_REG; j++)
            dup = f->locals[j].space == v->space && f->locals[j].scope == scope && !strcmp(f->locals[j].name, v->name);
        if (dup) continue;
        if (v->space == SP_REG) {
            ty_t t = reg_ty(v);
            if (v->vec > 1) { fail(E, NPU_EPTXUNSUP, NULL, "vector register %s", v->name); return; }
            if (!v->nregs) {
                if (!reg_declared_before(f, i, v->name)) OUT("%s %s = 0;\n", ct(t), mangle(E, "r_", v->name));
                continue;
            }
            int first = 1;
            for (int r = 0; r < v->nregs; r++) {
                char nm[160];
                snprintf(nm, sizeof nm, "%s%d", v->name, r);
                if (reg_declared_before(f, i, nm)) continue;
                OUT("%s %s = 0", first ? ct(t) : ",", mangle(E, "r_", nm));
                first = 0;
                if (r % 8 == 7 && r + 1 < v->nregs) OUT("\n");
            }
            if (!first) OUT(";\n");
        } else if (v->space == SP_PARAM) {
            long long bytes = (long long)v->tsize * (v->count > 0 ? v->count : 1);
            int maxb = (int)bytes;
            for (int j = i + 1; j < f->nlocals; j++)
                if (f->locals[j].space == SP_PARAM && f->locals[j].scope == scope && !strcmp(f->locals[j].name, v->name)) {
                    long long b2 = (long long)f->locals[j].tsize * (f->locals[j].count > 0 ? f->locals[j].count : 1);
                    if (b2 > maxb) maxb = (int)b2;
                }
            OUT("uint8_t %s[%d] __attribute__((aligned(16)));\n", mangle(E, "pa_", v->name), maxb < 1 ? 1 : maxb);
        }
    }
    if (scope != 0) return;
    for (int k = 0; k < 2; k++) {
        ptx_var_t *arr = k ? f->rets : f->params;
        int n = k ? f->nrets : f->nparams;
        if (f->is_entry) break;
        for (int i = 0; i < n; i++)
            if (arr[i].space == SP_REG) {
                ty_t t = reg_ty(&arr[i]);
                OUT("%s %s = 0;", ct(t), mangle(E, "r_", arr[i].name));
                if (!k) OUT(" memcpy(&%s, %s, %d);", mangle(E, "r_", arr[i].name), mangle(E, "pa_", arr[i].name), t.sz);
                OUT("\n");
            }
    }
    if (E->phase && E->in_entry)   /* the frame must survive barriers: one per thread in the block's state */
        OUT("uint8_t *__lf = __lfbase + (size_t)__lin * %uu; (void)__lf;\nuint32_t __cc = 0; (void)__cc;\n", lstride(E));
    else
        OUT("uint8_t __lf[%u] __attribute__((aligned(%u))); (void)__lf;\nuint32_t __cc = 0; (void)__cc;\n", E->lsize ? E->lsize : 1, E->lalign);
}

static void emit_body(emit_t *E, ptx_func_t *f)
{
    for (int i = 0; i < f->ninsns && E->st == NPU_OK; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label == 1) {
            if (E->divpt && f == E->entry && E->divpt[i]) OUT("__D%d: ;\n", i);   /* a masked region's join */
            OUT("%s: ;\n", mangle(E, "L_", in->label));
            continue;
        }
        if (in->is_label == 2) {
            if (E->nscopes < 256) E->scopes[E->nscopes++] = in->scope;
            OUT("{\n");
            emit_decls(E, f, in->scope);
            continue;
        }
        if (in->is_label == 3) { if (E->nscopes > 1) E->nscopes--; OUT(";}\n"); continue; }
        if (E->divpt && f == E->entry && E->divpt[i]) OUT("__D%d: ;\n", i);
        OUT("  ");
        if (in->pred) {
            sym_t s = lookup(E, in->pred);
            OUT("if (%s%s) { ", in->pred_neg ? "!" : "", s.kind == SY_REG ? conv(E, s.cname, s.ty, TY('p', 1)) : "0");
        }
        emit_insn(E, in);
        if (in->pred) OUT(" }");
        OUT("\n");
        if (E->nstrs > 4096) {   /* keep the temporaries bounded on huge kernels */
            for (int k = 0; k < E->nstrs; k++) free(E->strs[k]);
            E->nstrs = 0;
        }
    }
}

static void emit_func_proto(emit_t *E, ptx_func_t *g, int def)
{
    OUT("static int %s(npu_tctx_t *t", mangle(E, "fn_", g->name));
    for (int i = 0; i < g->nrets; i++) OUT(", uint8_t *%s", mangle(E, "pa_", g->rets[i].name));
    for (int i = 0; i < g->nparams; i++) OUT(", uint8_t *%s", mangle(E, "pa_", g->params[i].name));
    OUT(")%s", def ? "\n{\n" : ";\n");
}

static void emit_func(emit_t *E, ptx_func_t *g)
{
    E->f = g;
    E->in_entry = 0;
    lower_locals(E, g);
    emit_func_proto(E, g, 1);
    OUT("npu_bctx_t *b = t->b; const npu_krt_t *rt = b->rt; (void)b; (void)rt;\n");
    E->nscopes = 1;
    E->scopes[0] = 0;
    emit_decls(E, g, 0);
    emit_body(E, g);
    OUT("__ret: ;\n");
    for (int i = 0; i < g->nrets; i++)
        if (g->rets[i].space == SP_REG)
            OUT("memcpy(%s, &%s, %d);\n", mangle(E, "pa_", g->rets[i].name), mangle(E, "r_", g->rets[i].name), reg_ty(&g->rets[i]).sz);
    OUT("return 0;\n}\n\n");
}

/* whether live register j of stop k is its first appearance over all stops (one slot each) */
static int live_first(emit_t *E, int k, int j)
{
    for (int k2 = 0; k2 <= k; k2++)
        for (int j2 = 0; j2 < (k2 == k ? j : E->bar_nlive[k2]); j2++)
            if (!strcmp(E->bar_live[k2][j2], E->bar_live[k][j])) return 0;
    return 1;
}

/* Lane-group prologue pieces shared by block and phase mode: the vector copy of the body is
 * generated first (into *vb) because it decides which instructions need scalar entry labels. */
/* Block-invariant statements (block mode): a uniform register with a single definition, made
 * by a pure instruction (arithmetic, logic, conversion, mov, cvta, or ld.param of a kernel
 * parameter), without a guard, from immediates, %ntid/%ctaid/%nctaid and registers hoisted
 * earlier in program order, holds the same value in every group of the block: the lane copy
 * computes it once per block (E->hoisted, before the group loop) instead of once per 16
 * threads. Wherever the definition sat (after a branch, in a loop) computing it early is
 * harmless: it has no side effects, and with a single definition no other path sees a
 * different value. CuPy's elementwise kernels load 7 parameters and derive ~15 strides and
 * offsets from them and ctaid/ntid/nctaid per group. */
static int hoist_src_ok(emit_t *E, const ptx_opnd_t *o)
{
    switch (o->kind) {
    case OP_IMM: case OP_FIMM: case OP_DIMM: case OP_DEC: return 1;
    case OP_REG: case OP_SYM: case OP_ADDR: break;
    default: return 0;
    }
    if (o->name2) return 0;
    const char *n = o->name;
    if (!n) return o->kind == OP_ADDR;
    if (n[0] == '%') {
        if (!strncmp(n, "%ntid.", 6) || !strncmp(n, "%ctaid.", 7) || !strncmp(n, "%nctaid.", 8)) return 1;
        int i = lr_find(E, n);
        return i >= 0 && E->lr[i].hz;
    }
    sym_t sy = lookup(E, n);
    return sy.kind == SY_KPARAM;
}

static void lane_mark_hoist(emit_t *E, ptx_func_t *f)
{
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || in->nops < 1 || insn_no_dest(in)) continue;
        lane_dest_regs(E, &in->ops[0], 1, lane_count_def);   /* a register in a vector or pair is never "one definition" */
    }
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label || in->pred || in->nops < 2 || insn_no_dest(in) || is_stop(in)) continue;
        const char *op = in->mods[0];
        const ptx_opnd_t *d = &in->ops[0];
        if ((d->kind != OP_REG && d->kind != OP_SYM) || !d->name || d->name2) continue;
        int x = lr_find(E, d->name);
        if (x < 0 || E->lr[x].ndef != 1 || !lane_uni_reg(E, d->name)) continue;
        if (!strcmp(op, "ld")) {
            if (space_mod(in) != SP_PARAM || vec_n(in) != 1 || mem_order(in) || !hoist_src_ok(E, &in->ops[1])) continue;
        } else {
            if (!lane_op_ok(in) || atomic_or_carry(in)) continue;
            int ok = 1;
            for (int k = 1; k < in->nops && ok; k++) ok = hoist_src_ok(E, &in->ops[k]);
            if (!ok) continue;
        }
        if (!E->hoist) {
            E->hoist = calloc((size_t)f->ninsns + 1, 1);
            if (!E->hoist) { E->st = NPU_EHOSTMEM; return; }
        }
        E->hoist[i] = 1;
        E->lr[x].hz = 1;
    }
}

/* Lane width: 32 for kernels with at least 8 scalar-affine registers that never read %tid.y /
 * %tid.z (1-D blocks, whose sizes are multiples of 32 in practice: CuPy's 128/256/512), else 16
 * (2-D tiles of 16x16 must keep a lane copy, which needs ntid.x % NPU_LANES == 0). A group's
 * scalar-affine index arithmetic, address checks and loop tests cost the same at either
 * width, so 32 lanes halve them per element where they are many: CuPy's elementwise kernels
 * have 11-15 such registers (three 64-bit offsets per element). With few (bench_kernels'
 * vectorAdd: 6) 32 lanes bought nothing on one core and lost ~25% with two runners on 16M
 * floats (4.5-4.8 -> 5.7-6.6 ms, memory-bound; not understood), hence the threshold; the
 * 256-thread tree reduction, also 6, had gained (7.2 -> 4.4-5.2 ms) and stays at 16.
 * CuPy 256x128 on one core, 3 interleaved pairs, 32 against 16 lanes: add 21.0-21.5 -> 14.7-15.1 us, maximum 21.3-21.7 -> 16.4-16.6, greater 18.3-18.7 -> 10.6-10.8, multiply
 * by a bool mask 37.8-38.9 -> 22.0-22.5, sum(axis=0) 35.0 -> 31.2-31.5; the broadcast add was
 * 27% slower until __lane_contig became a mask test (then on par). Earlier attempts at 32
 * lanes lost (session 2: 64-bit lane arrays; today before the fix of the hoisted uniform loads,
 * whose 32-iteration store loops ran once per block). */
static int name_tid_yz(const char *n, const void *unused)
{
    (void)unused;
    return !strncmp(n, "%tid", 4) && strcmp(n, "%tid.x");
}
static int lane_width32(emit_t *E, ptx_func_t *f)
{
    int nsa = 0;
    for (int i = 0; i < E->nlr; i++) nsa += E->lr[i].sa != 0;
    if (nsa < 8) return 0;
    for (int i = 0; i < f->ninsns; i++) {
        const ptx_insn_t *in = &f->insns[i];
        if (in->is_label) continue;
        for (int o = 0; o < in->nops; o++) if (opnd_names_count(&in->ops[o], name_tid_yz, NULL)) return 0;
    }
    return 1;
}

static void lane_prepare(emit_t *E, ptx_func_t *f, sb_t *vb)
{
    memset(vb, 0, sizeof *vb);
    E->lanes = lanes_eligible(E, f);
    if (!E->lanes) return;
    E->divpt = calloc((size_t)f->ninsns + 1, 1);
    if (!E->divpt) { E->st = NPU_EHOSTMEM; E->lanes = 0; return; }
    live_compute(E, f);   /* (without it, exits copy every register and there are no masked regions) */
    lane_classify(E, f);
    if (E->st == NPU_OK) lane_regions(E, f);
    E->lanes32 = lane_width32(E, f);
    sb_t save = E->out;
    memset(&E->out, 0, sizeof E->out);
    E->nscopes = 1;
    E->scopes[0] = 0;
    if (!E->phase) lane_mark_hoist(E, f);
    if (E->hoist) {
        E->lane = 1;
        for (int i = 0; i < f->ninsns && E->st == NPU_OK; i++)
            if (E->hoist[i]) {
                E->lane_bad = E->lane_fuse = 0;
                E->lane_tail = NULL;
                E->lane_uni_dest = NULL;
                emit_lane_insn(E, &f->insns[i], i);
                OUT("\n");
            }
        E->lane = 0;
        E->hoisted = E->out;
        memset(&E->out, 0, sizeof E->out);
    }
    emit_body_lane(E, f);
    *vb = E->out;
    E->out = save;
    if (vb->oom || E->hoisted.oom) E->st = NPU_EHOSTMEM;
}

/* declarations both entry forms put before their thread loops: the lane index, the divergence
 * point and, with lanes, the lane arrays */
static void lane_prologue(emit_t *E, ptx_func_t *f)
{
    OUT("uint32_t __l = 0, __dk = 0, __dkx = 0, __dkt[NPU_LANES]; (void)__l; (void)__dk; (void)__dkx; (void)__dkt;\n");
    if (E->lanes) {
        OUT("const int __lanes_ok = (__nx %% NPU_LANES) == 0;\n");
        for (int r = 0; r < E->nrg; r++) OUT("uint32_t __ami%d = 0; (void)__ami%d;\n", r, r);
        lane_regs(E, f, lane_decl1);
    }
}

/* Register copies the exits from the lane copy may hold in all (lane_scalar_entry). */
#define LANE_EXIT_MAX_LOADS 6000

/* In the per-thread copy: a thread whose group left the lane copy at instruction i (__dk = i + 1)
 * takes its registers from lane __l2 and continues at __D<i>. */
static void lane_scalar_entry(emit_t *E, ptx_func_t *f)
{
    int any = 0;
    long nload = 0;
    for (int i = 0; i < f->ninsns; i++) {
        if (!E->divpt[i]) continue;
        any = 1;
        for (int r = 0; E->lv && r < E->nlvr; r++) nload += live_bit(E, i, r);
    }
    if (!any) return;
    /* each exit takes the registers live there (every register, when that would be a lot of
     * code): in phase mode a group may leave the lanes in every iteration of a loop, and 16
     * copies of all ~250 registers of cuda-samples' globalToShmemAsyncCopy kernel per exit
     * were 15% of its time */
    int per_exit = E->lv && nload <= LANE_EXIT_MAX_LOADS;
    OUT("if (__dk) {\n");
    if (!per_exit) lane_regs(E, f, lane_load1);
    OUT("\nswitch (__dkx ? __dkt[__l2] : __dk) {\n");   /* (__dkt: a lane inactive in a masked region) */
    for (int i = 0; i < f->ninsns; i++) {
        if (!E->divpt[i]) continue;
        OUT("case %d: ", i + 1);
        for (int r = 0; per_exit && r < E->nlvr; r++) {
            if (!live_bit(E, i, r)) continue;
            int x = lr_find(E, E->lvn[r]);
            if (x >= 0) lane_load1(E, E->lr[x].ty, E->lr[x].name);
        }
        OUT("goto __D%d;\n", i);
    }
    OUT("default: break;\n}\n}\n");
}

/* Phase mode: a lane group that left the lane copy (a divergent branch, a failed check) ran
 * per thread since. When all its threads stop at the same point again, it may go back to the
 * lane copy if the registers live there hold what their lane classes claim: the classes are an
 * invariant of uniform execution from any point at which the live registers satisfy them
 * (every later definition preserves them), so checking the live set at the stop is enough.
 * Uniform: all lanes equal (bit patterns, so NaNs compare); affine with stride c (known, or
 * run-time: lane 1 - lane 0): every lane l == lane 0 + l*c modulo the width. Registers of
 * unknown class are copied lane by lane and need nothing. A failed check keeps the group per
 * thread for that pass. cuda-samples globalToShmemAsyncCopy's tiled kernel diverged on
 * `if (t4x < BLOCK_SIZE)` in every tile loop and ran per thread after the first tile. */
static void lane_reentry_check(emit_t *E)
{
    OUT("if (__uni && __gdv[__ling / NPU_LANES]) {\nint __ok = 1;\nswitch (__r0) {\n");
    for (int k = 0; k < E->nbar; k++) {
        OUT("case %d: ", k + 1);
        for (int j = 0; j < E->bar_nlive[k]; j++) {
            const char *n = E->bar_live[k][j];
            int x = lr_find(E, n);
            if (x < 0 || E->lr[x].cl.k != LC_AFF) continue;
            sym_t sy = lookup(E, n);
            int sz = sy.ty.c == 'p' ? 4 : sy.ty.sz;
            if (sz != 1 && sz != 2 && sz != 4 && sz != 8) { OUT("__ok = 0; "); continue; }
            long long c = E->lr[x].cl.c;
            const char *S_ = mangle(E, "S_", n), *U = ut_name(sz);
            if (c == LC_RT)
                OUT("__ok &= __lane_aff%d(%s + __ling, (%s)(((const %s *)(const void *)(%s + __ling))[1] - ((const %s *)(const void *)(%s + __ling))[0])); ",
                    sz * 8, S_, U, U, S_, U, S_);
            else OUT("__ok &= __lane_aff%d(%s + __ling, (%s)%lldll); ", sz * 8, S_, U, c);
        }
        /* a stop inside masked regions: all the group's threads reached it, so every lane is
         * active in each of them (the slots are only written by lane-copy stops) */
        for (int r = E->rin ? E->rin[E->bar_insn[k]] : -1; r >= 0; r = E->rg[r].parent)
            OUT("__gam[(size_t)(__ling / NPU_LANES) * %du + %du] = NPU_LANE_FULL; ", LANE_MASK_DEPTH, E->rg[r].depth - 1);
        OUT("break;\n");
    }
    OUT("default: __ok = 0; break;\n}\nif (__ok) __gdv[__ling / NPU_LANES] = 0;\n}\n");
}

static void emit_entry(emit_t *E)
{
    ptx_func_t *f = E->entry;
    E->f = f;
    E->in_entry = 1;
    lower_locals(E, f);
    if (E->thread_mode) {
        OUT("__attribute__((visibility(\"default\"))) void npu_kentry_thread(npu_tctx_t *t, const uint8_t *__restrict params)\n{\n");
        OUT("npu_bctx_t *b = t->b; const npu_krt_t *rt = b->rt; (void)b; (void)rt; (void)params;\n");
        E->nscopes = 1;
        E->scopes[0] = 0;
        emit_decls(E, f, 0);
        emit_body(E, f);
        OUT("__ret: ;\n}\n");
    } else if (E->phase) {
        /* saved registers: the union of the live sets of all barriers */
        OUT("struct __live {\n");
        int any = 0;
        for (int k = 0; k < E->nbar; k++)
            for (int j = 0; j < E->bar_nlive[k]; j++) {
                const char *n = E->bar_live[k][j];
                if (!live_first(E, k, j)) continue;
                sym_t sy = lookup(E, n);
                OUT("    %s %s;\n", ct(sy.ty), mangle(E, "r_", n));
                any++;
            }
        if (!any) OUT("    char __none;\n");
        OUT("};\n");
        int nlive = any;
        uint32_t lsz = lstride(E);
        OUT("__attribute__((visibility(\"default\"))) void npu_kentry_block(npu_bctx_t *b, const uint8_t *__restrict params)\n{\n");
        OUT("const npu_krt_t *rt = b->rt; (void)rt; (void)params;\n");
        OUT("const uint32_t __nx = b->ntid[0], __ny = b->ntid[1], __nz = b->ntid[2], __nt = __nx * __ny * __nz;\n");
        OUT("const uint32_t __ntid0 = __nx, __ntid1 = __ny, __ntid2 = __nz, __ctaid0 = b->ctaid[0], __ctaid1 = b->ctaid[1], "
            "__ctaid2 = b->ctaid[2], __nctaid0 = b->nctaid[0], __nctaid1 = b->nctaid[1], __nctaid2 = b->nctaid[2];\n"
            "(void)__ntid0; (void)__ntid1; (void)__ntid2; (void)__ctaid0; (void)__ctaid1; (void)__ctaid2; "
            "(void)__nctaid0; (void)__nctaid1; (void)__nctaid2;\n");
        /* the block state lives in the executor's per-worker scratch (freed with the worker) */
        OUT("npu_kexec_hdr_t *__xh = (npu_kexec_hdr_t *)b->exec;\n");
        OUT("size_t __need = (size_t)__nt * (4u + %uu + sizeof(struct __live) + 16u + 24u + 128u + 2u + 65u + 4u) + 320u + 64u * %du + %uu;\n", lsz, nlive + 1, E->lalign);
        OUT("if (__need > __xh->scratch_cap) { free(__xh->scratch); __xh->scratch = (uint8_t *)malloc(__need); __xh->scratch_cap = __xh->scratch ? __need : 0; }\n");
        OUT("uint8_t *__st = __xh->scratch;\n");
        OUT("if (!__st) { npu_tctx_t __t0; memset(&__t0, 0, sizeof __t0); __t0.b = b; rt->fault(&__t0, %d, 0, \"out of host memory for the block state\"); return; }\n",
            NPU_FAULT_ILLEGAL_ADDRESS);
        if (E->memcheck) OUT("rt->memcheck(&(npu_tctx_t){ .b = b }, (uint64_t)(uintptr_t)__st, (uint32_t)__need, 0xffffffffu, 0);   /* memcheck: the block state is valid */\n");
        OUT("uint32_t *__resume = (uint32_t *)__st;\n");
        OUT("uint8_t *__lfbase = (uint8_t *)(((uintptr_t)__st + (size_t)__nt * 4u + %uu) & ~(uintptr_t)%uu); (void)__lfbase;\n", E->lalign - 1u, E->lalign - 1u);
        /* saved registers: one array per register when lane groups save/restore 16 at once,
         * else one struct per thread (per-thread code: transpose 4096^2 67 -> 62 ms, one core) */
        E->lanes = lanes_eligible(E, f);
        OUT("uint8_t *__Lp = __lfbase + (size_t)__nt * %uu;\n", lsz);
        if (!E->lanes) OUT("struct __live *__L = (struct __live *)__Lp; __Lp = (uint8_t *)(__L + __nt);\n");
        for (int k = 0; k < E->nbar && E->lanes; k++)
            for (int j = 0; j < E->bar_nlive[k]; j++) {
                const char *n = E->bar_live[k][j];
                if (!live_first(E, k, j)) continue;
                sym_t sy = lookup(E, n);
                const char *S_ = mangle(E, "S_", n);
                OUT("%s *%s = (%s *)__Lp; __Lp = (uint8_t *)(((uintptr_t)(%s + __nt) + 63u) & ~(uintptr_t)63u);\n", ct(sy.ty), S_, ct(sy.ty), S_);
            }
        OUT("uint32_t *__ca = (uint32_t *)(((uintptr_t)__Lp + 15u) & ~(uintptr_t)15u), *__cb = __ca + __nt, "
            "*__cc2 = __cb + __nt, *__cm = __cc2 + __nt, *__cr = __cm + __nt, *__cp = __cr + __nt;\n"
            "(void)__cb; (void)__cc2; (void)__cp;\n"
            "uint32_t *__cw = __cp + __nt, *__cwr = __cw + (size_t)__nt * 24u; (void)__cw; (void)__cwr;\n"
            "uint8_t *__gdv = (uint8_t *)(__cwr + (size_t)__nt * 8u); (void)__gdv;   /* per lane group: left the lane copy once */\n"
            "uint8_t *__chd = __gdv + __nt / NPU_LANES + 1u;   /* per thread: held at a warp collective until its mask is there */\n"
            "uint32_t *__rst = (uint32_t *)(((uintptr_t)(__chd + __nt) + 3u) & ~(uintptr_t)3u);   /* per thread: reconvergence stack (ptx_lockstep.c) */\n"
            "uint8_t *__rsd = (uint8_t *)(__rst + (size_t)__nt * 16u); (void)__rst; (void)__rsd;\n"
            "uint32_t *__gam = (uint32_t *)(((uintptr_t)(__rsd + __nt) + 3u) & ~(uintptr_t)3u); (void)__gam;   /* per lane group: masks of the regions around a stop */\n");
        /* kind of each stop point: 1 barrier, 2 shfl, 3 vote, 4 activemask, 5 bar.warp.sync, 6 redux */
        OUT("static const uint8_t __kind[%d] = {0", E->nbar + 1);
        for (int k = 0; k < E->nbar; k++) { int md; OUT(", %d", phase_kind(&f->insns[E->bar_insn[k]], &md)); }
        OUT("};\nstatic const uint8_t __kmode[%d] = {0", E->nbar + 1);
        for (int k = 0; k < E->nbar; k++) { int md; phase_kind(&f->insns[E->bar_insn[k]], &md); OUT(", %d", md); }
        OUT("};\nstatic const uint32_t __kpc[%d] = {0", E->nbar + 1);   /* program position of each stop (min-PC) */
        for (int k = 0; k < E->nbar; k++) OUT(", %du", E->bar_insn[k]);
        OUT("};\n(void)__kmode; (void)__kpc;\n");
        OUT("uint32_t __curdummy; volatile uint32_t *__curlin = b->exec ? (volatile uint32_t *)b->exec : &__curdummy;\n");
        OUT("memset(__resume, 0, (size_t)__nt * 4u);\nint __hold = 0, __ran = 0, __force = 0, __coll = 0, __bred = 0, __rvk = 0, __lsk = 0; (void)__bred; (void)__rvk; (void)__lsk;\nmemset(__chd, 0, __nt); memset(__rsd, 0, __nt);\n");
        int ncoll = 0;   /* stop points that are warp collectives (not full-block barriers) */
        int nbred = 0;   /* bar.red stop points */
        for (int k = 0; k < E->nbar; k++) {
            int md, kd = phase_kind(&f->insns[E->bar_insn[k]], &md);
            if (kd == PK_BARRED) nbred++;
            else if (kd != PK_BAR) ncoll++;
        }
        OUT("memset(__gdv, 0, __nt / NPU_LANES + 1u);\n");
        sb_t vb;
        lane_prepare(E, f, &vb);
        lane_prologue(E, f);
        OUT("for (;;) {\nint __alive = 0;\n");
        OUT("for (uint32_t __z = 0; __z < __nz; __z++)\nfor (uint32_t __y = 0; __y < __ny; __y++)\n"
            "for (uint32_t __xg = 0; __xg < __nx; __xg += %s) {\n", E->lanes ? "NPU_LANES" : "__nx");
        OUT("const uint32_t __ling = (__z * __ny + __y) * __nx + __xg; (void)__ling;\n__dk = 0; __dkx = 0;\n");
        if (E->lanes) {
            /* the group runs as lanes when all 16 threads stopped at the same point */
            /* one OR-reduction over the 16 resume points and hold flags (vectorized; the
             * compare-and-and loop it replaced was 15% of tiled SGEMM) */
            OUT("if (__lanes_ok) {\nuint32_t __r0 = __resume[__ling], __dd = 0; uint8_t __hh = 0;\n"
                "for (__l = 0; __l < NPU_LANES; __l++) __dd |= __resume[(size_t)__ling + __l] ^ __r0;\n");
            if (ncoll) OUT("for (__l = 0; __l < NPU_LANES; __l++) __hh |= __chd[(size_t)__ling + __l];\n");
            OUT("uint32_t __uni = __r0 != 0xffffffffu && !__dd && !__hh;\n");
            lane_reentry_check(E);
            OUT("if (__uni && !__gdv[__ling / NPU_LANES]) {\nif (__hold && (__kind[__r0] == 1 || __kind[__r0] == 8)) { __alive = 1; goto __gnext; }\n*__curlin = __ling; __ran = 1;\nswitch (__r0) {\n");
            for (int k = 0; k < E->nbar; k++) {
                /* a stop the lane copy does not hold (it leaves the lanes before reaching it,
                 * e.g. a lockstep stop after a divergent branch) is resumed per thread */
                if (!E->bar_vb[k]) { OUT("case %d: goto __div;\n", k + 1); continue; }
                OUT("case %d: ", k + 1);
                for (int j = 0; j < E->bar_nlive[k]; j++) {
                    const char *n = E->bar_live[k][j];
                    const char *w = mangle(E, "w_", n), *S_ = mangle(E, "S_", n), *sa = mangle(E, "sa_", n);
                    if (lane_uni_reg(E, n))   /* the lane copy reads only [0] of a uniform register */
                        OUT("%s[0] = %s[__ling]; ", w, S_);
                    else if (lane_sa_reg(E, n))   /* saved from the lanes: affine */
                        OUT("%s[0] = %s[__ling]; %s = (__typeof__(%s))(%s[__ling + 1u] - %s[__ling]); ", w, S_, sa, sa, S_, S_);
                    else OUT("memcpy(%s, %s + __ling, sizeof %s); ", w, S_, w);
                }
                for (int r = E->rin ? E->rin[E->bar_insn[k]] : -1; r >= 0; r = E->rg[r].parent)
                    OUT("__ami%d = __gam[(size_t)(__ling / NPU_LANES) * %du + %du]; ", r, LANE_MASK_DEPTH, E->rg[r].depth - 1);
                OUT("goto __VB%d;\n", k + 1);
            }
            OUT("default: break;\n}\n");
            OUT("%s", vb.s ? vb.s : "");
            /* the lane classes hold only while the group's control flow stayed uniform: a group
             * that left the lane copy runs per thread until lane_reentry_check lets it back */
            OUT("__vret: for (__l = 0; __l < NPU_LANES; __l++) __resume[(size_t)__ling + __l] = 0xffffffffu;\ngoto __gnext;\n}\n}\n__div: if (__dk) __gdv[__ling / NPU_LANES] = 1;\n");
        }
        free(vb.s);
        /* without a lane copy one pass covers the row (the 16-thread grouping cost ~8%) */
        OUT("for (uint32_t __l2 = 0; %s; __l2++) {\n", E->lanes ? "__l2 < NPU_LANES && __xg + __l2 < __nx" : "__l2 < __nx");
        OUT("const uint32_t __x = __xg + __l2, __lin = __ling + __l2;\n");
        OUT("if (!__dk) {\nif (__resume[__lin] == 0xffffffffu) continue;\n");
        OUT("if (__hold && (__kind[__resume[__lin]] == 1 || __kind[__resume[__lin]] == 8)) { __alive = 1; continue; }   /* a barrier waits for warps in collectives */\n");
        OUT("if (__chd[__lin]) { __alive = 1; continue; }   /* a warp collective waits for its mask */\n}\n");
        OUT("*__curlin = __lin; __ran = 1;\n");
        OUT("npu_tctx_t __tc; __tc.b = b; __tc.tid[0] = __x; __tc.tid[1] = __y; __tc.tid[2] = __z; __tc.linear = __lin;"
            " __tc.lane = __lin & 31u; __tc.warp = __lin >> 5; __tc.exec = 0; npu_tctx_t *t = &__tc; (void)t;\n");
        E->nscopes = 1;
        E->scopes[0] = 0;
        emit_decls(E, f, 0);
        if (E->lanes) lane_scalar_entry(E, f);
        OUT("switch (__resume[__lin]) {\n");
        for (int k = 0; k < E->nbar; k++) {
            OUT("case %d: ", k + 1);
            for (int j = 0; j < E->bar_nlive[k]; j++) {
                const char *r = mangle(E, "r_", E->bar_live[k][j]);
                if (E->lanes) OUT("%s = %s[__lin]; ", r, mangle(E, "S_", E->bar_live[k][j]));
                else OUT("%s = __L[__lin].%s; ", r, r);
            }
            OUT("goto __B%d;\n", k + 1);
        }
        OUT("default: break;\n}\n");
        emit_body(E, f);
        OUT("__ret: __resume[__lin] = 0xffffffffu;\n__next: ;\n}\n");
        if (E->lanes) OUT("__gnext: ;\n");
        OUT("}\nif (!__alive) break;\n");
        /* a pass in which every live thread waited (a collective whose mask names a lane that
         * waits elsewhere: undefined in CUDA) releases the collectives with the lanes present */
        OUT("__force = !__ran; __ran = 0;\n");
        /* a kernel whose stop points are all full-block barriers needs no resolver (its loop
         * over the block's threads after every pass was 20% of tiled SGEMM); otherwise it runs
         * after passes that stopped a thread at a collective (__coll) */
        OUT("__hold = 0;\n");
        if (!ncoll) OUT("(void)__coll; (void)__cr; (void)__cm; (void)__ca; (void)__force;\n");
        else OUT("if (__coll) {\n__coll = 0;\n");
        /* resolver. A shfl/vote/redux/bar.warp.sync waits until every live lane of its mask has
         * reached one with the same qualifiers and the same mask (PTX ISA: "wait until all
         * non-exited threads corresponding to membermask have executed <op>.sync with the same
         * qualifiers and same membermask value"), at any site: nvcc unrolls a loop holding
         * __ballot_sync, and lanes with different trip counts meet in different copies (and a
         * __syncwarp(full) must not pass lanes still in a __syncwarp(half) branch). activemask
         * and wmma combine the lanes stopped at the same point. */
        /* Per warp: when every live lane stopped at the same point with the same mask value
         * (the common case), the peers are the live lanes and a ballot, reduction or MMA is
         * computed once for the warp; otherwise each lane finds its peers (O(32) per lane).
         * The per-lane search for every thread made a 512-thread CUB single-tile reduce of
         * 256 floats (6 shuffle passes) take 117 us, most of a CuPy mean(). */
        if (ncoll) OUT("for (uint32_t __base = 0; __base < __nt; __base += 32u) {\n"
            "  uint32_t __nw = __nt - __base < 32u ? __nt - __base : 32u, __wlive = 0, __k0 = 0xffffffffu, __m0 = 0; int __same = 1;\n"
            "  for (uint32_t __j = 0; __j < __nw; __j++) {\n"
            "    uint32_t __kj = __resume[__base + __j];\n"
            "    if (__kj == 0xffffffffu) continue;\n"
            "    __wlive |= 1u << __j;\n"
            "    if (__k0 == 0xffffffffu) { __k0 = __kj; __m0 = __cm[__base + __j]; }\n"
            "    else if (__kj != __k0 || __cm[__base + __j] != __m0) __same = 0;\n"
            "  }\n"
            "  if (!__wlive || (__same && (__kind[__k0] <= 1 || __kind[__k0] >= 8))) continue;\n"
            "  uint32_t __wdone = 0, __wval = 0;   /* the warp-wide result, once computed (__same) */\n"
            "  for (uint32_t __lane = 0; __lane < __nw; __lane++) {\n"
            "  const uint32_t __i = __base + __lane;\n"
            "  uint32_t __k = __resume[__i];\n"
            "  if (__k == 0xffffffffu || __kind[__k] <= 1 || __kind[__k] >= 8) continue;\n"
            "  __hold = 1;\n"
            "  uint32_t __peers = 0, __live = __wlive, __K = __kind[__k];\n"
            "  if (__same) __peers = __wlive;\n"
            "  else for (uint32_t __j = 0; __j < __nw; __j++) {\n"
            "    uint32_t __kj = __resume[__base + __j];\n"
            "    if (__kj == 0xffffffffu) continue;\n"
            "    if (__K == 4 || __K == 7 ? __kj == __k : (__kind[__kj] == __K && __kmode[__kj] == __kmode[__k] && __cm[__base + __j] == __cm[__i])) __peers |= 1u << __j;\n"
            "  }\n"
            "  if (__K != 4 && __K != 7) { __chd[__i] = (__cm[__i] & __live & ~__peers) && !__force; if (__chd[__i]) { __coll = 1; continue; } }\n"
            "  uint32_t __m = __K == 4 ? __peers : (__cm[__i] & __peers);\n"
            "  switch (__K) {\n"
            "  case 2: { uint32_t __b = __cb[__i] & 31u, __c = __cc2[__i], __seg = (__c >> 8) & 31u, __cl = __c & 31u;\n"
            "    uint32_t __max = (__lane & __seg) | (__cl & ~__seg), __min = __lane & __seg; int32_t __src; int __ok;\n"
            "    switch (__kmode[__k]) { case 0: __src = (int32_t)__lane - (int32_t)__b; __ok = __src >= (int32_t)__max; break;\n"
            "      case 1: __src = (int32_t)(__lane + __b); __ok = __src <= (int32_t)__max; break;\n"
            "      case 2: __src = (int32_t)(__lane ^ __b); __ok = __src <= (int32_t)__max; break;\n"
            "      default: __src = (int32_t)(__min | (__b & ~__seg)); __ok = __src <= (int32_t)__max; break; }\n"
            "    if (!__ok || __src < 0 || __src > 31) __src = (int32_t)__lane;   /* out of range: own value (ISA) */\n"
            /* an in-range source that did not reach this shfl reads as 0 (exec.c, "Shuffles
             * from lanes that do not take part") */
            "    __cr[__i] = (__peers >> __src & 1) ? __ca[__base + (uint32_t)__src] : 0u; __cp[__i] = (uint32_t)__ok; break; }\n"
            "  case 3: { uint32_t __bal = 0;\n"
            "    if (__same && __wdone) __bal = __wval;\n"
            "    else { for (uint32_t __j = 0; __j < 32; __j++) if ((__m >> __j & 1) && __ca[__base + __j]) __bal |= 1u << __j; __wdone = __same; __wval = __bal; }\n"
            "    switch (__kmode[__k]) { case 0: __cr[__i] = __bal == __m; break; case 1: __cr[__i] = __bal != 0; break;\n"
            "      case 2: __cr[__i] = __bal == 0 || __bal == __m; break; default: __cr[__i] = __bal; } break; }\n"
            "  case 4: __cr[__i] = __peers; break;\n"
            /* bar.warp.sync: nothing to compute once its mask is there */
            "  case 7: if (__i == __base + (uint32_t)__builtin_ctz(__peers)) __wmma_mma(__cw + (size_t)__base * 24u, __cwr + (size_t)__base * 8u, __kmode[__k]); break;\n"
            "  case 6: { uint32_t __acc = 0; int __first = 1;\n"
            "    if (__same && __wdone) { __cr[__i] = __wval; break; }\n"
            "    for (uint32_t __j = 0; __j < 32; __j++) { if (!(__m >> __j & 1)) continue; uint32_t __v = __ca[__base + __j];\n"
            "      if (__first) { __acc = __v; __first = 0; continue; }\n"
            "      switch (__kmode[__k]) { case 0: __acc += __v; break; case 1: if ((int32_t)__v < (int32_t)__acc) __acc = __v; break;\n"
            "        case 2: if ((int32_t)__v > (int32_t)__acc) __acc = __v; break; case 3: if (__v < __acc) __acc = __v; break;\n"
            "        case 4: if (__v > __acc) __acc = __v; break; case 5: __acc &= __v; break; case 6: __acc |= __v; break; default: __acc ^= __v; } }\n"
            "    __cr[__i] = __acc; __wdone = __same; __wval = __acc; break; }\n"
            "  default: break;\n"
            "  }\n"
            "  }\n"
            "}\n}\n");
        /* bar.red: once no thread is held at a warp collective (__hold == 0), every live thread
         * waits at a barrier, so the block's reduction of the predicates left at bar.red is
         * complete; it is written before the pass that resumes them. Threads at different
         * bar.red points (undefined in CUDA) each get the reduction of their own point. */
        if (nbred) OUT("if (__bred && !__hold) {\n__bred = 0;\n"
            "uint32_t __bk = 0xffffffffu, __bn = 0, __bc = 0; int __mixed = 0;\n"
            "for (uint32_t __i = 0; __i < __nt; __i++) { uint32_t __k = __resume[__i];\n"
            "  if (__k == 0xffffffffu || __kind[__k] != 8) continue;\n"
            "  if (__bk == 0xffffffffu) __bk = __k; else if (__k != __bk) __mixed = 1;\n"
            "  __bn++; __bc += __ca[__i] != 0; }\n"
            "for (uint32_t __i = 0; __i < __nt; __i++) { uint32_t __k = __resume[__i], __n = __bn, __c = __bc;\n"
            "  if (__k == 0xffffffffu || __kind[__k] != 8) continue;\n"
            "  if (__mixed) { __n = __c = 0; for (uint32_t __j = 0; __j < __nt; __j++) if (__resume[__j] == __k) { __n++; __c += __ca[__j] != 0; } }\n"
            "  __cr[__i] = __kmode[__k] == 0 ? __c : __kmode[__k] == 1 ? (uint32_t)(__c == __n) : (uint32_t)(__c != 0); }\n"
            "}\n");
        /* reconvergence (ptx_lockstep.c): a thread at "__reconv" (its own point already popped) is
         * held while another live thread of its warp still has that point on its stack; a pass in
         * which nobody ran releases everybody (__force). While one is held, threads at barriers
         * wait too (__hold). Lockstep access points need nothing here: being stop points, every
         * lane's code before them ran in the passes before. */
        /* a barrier waits while any thread is still between stops of the lockstep kind: the
         * pass model releases a barrier in the pass after every thread stopped there, which
         * holds only while no thread stopped anywhere else (CUB's look-back scan: one warp
         * steps through its spin loop while the others wait at __syncthreads) */
        if (E->nlockstep) OUT("if (__lsk) { __lsk = 0; __hold = 1; }\n");
        if (E->nlockstep) OUT("if (__rvk) { int __held = 0; __rvk = 0;\n"
            "for (uint32_t __base = 0; __base < __nt; __base += 32u) {\n"
            "  uint32_t __nw = __nt - __base < 32u ? __nt - __base : 32u, __r0 = 0xffffffffu; int __mixed = 0;\n"
            "  for (uint32_t __j = 0; __j < __nw; __j++) { uint32_t __k = __resume[__base + __j];\n"
            "    if (__k == 0xffffffffu || __kind[__k] != 10) continue;\n"
            "    if (__r0 == 0xffffffffu) __r0 = __kpc[__k]; else if (__kpc[__k] != __r0) __mixed = 1; }\n"
            "  if (__r0 == 0xffffffffu) continue;\n"
            "  __rvk = 1; __held = 1;   /* barriers wait for threads at reconvergence points, held or not */\n"
            "  if (!__mixed) {   /* one point (the usual case): is any other lane still inside its region? */\n"
            "    int __in = 0;\n"
            "    for (uint32_t __j = 0; __j < __nw && !__in; __j++) { uint32_t __m = __base + __j, __k = __resume[__m];\n"
            "      if (__k == 0xffffffffu || __kind[__k] == 10) continue;\n"
            "      for (uint32_t __d = 0; __d < __rsd[__m]; __d++) if (__rst[(size_t)__m * 16u + __d] == __r0) { __in = 1; break; } }\n"
            "    for (uint32_t __j = 0; __j < __nw; __j++) { uint32_t __k = __resume[__base + __j];\n"
            "      if (__k != 0xffffffffu && __kind[__k] == 10) __chd[__base + __j] = __in && !__force; }\n"
            "    continue;\n"
            "  }\n"
            "  for (uint32_t __j = 0; __j < __nw; __j++) { uint32_t __i = __base + __j, __k = __resume[__i];\n"
            "    if (__k == 0xffffffffu || __kind[__k] != 10) continue;\n"
            "    uint32_t __r = __kpc[__k]; int __w = 0;\n"
            "    for (uint32_t __q = 0; __q < __nw && !__w; __q++) { uint32_t __m = __base + __q;\n"
            "      if (__m == __i || __resume[__m] == 0xffffffffu) continue;\n"
            "      for (uint32_t __d = 0; __d < __rsd[__m]; __d++) if (__rst[(size_t)__m * 16u + __d] == __r) { __w = 1; break; } }\n"
            "    __chd[__i] = __w && !__force; }\n"
            "}\n"
            "if (__held) __hold = 1;\n}\n");
        OUT("}\n}\n");
    } else {
        OUT("__attribute__((visibility(\"default\"))) void npu_kentry_block(npu_bctx_t *b, const uint8_t *__restrict params)\n{\n");
        OUT("const npu_krt_t *rt = b->rt; (void)rt; (void)params;\n");
        OUT("const uint32_t __nx = b->ntid[0], __ny = b->ntid[1], __nz = b->ntid[2];\n");
        OUT("const uint32_t __ntid0 = __nx, __ntid1 = __ny, __ntid2 = __nz, __ctaid0 = b->ctaid[0], __ctaid1 = b->ctaid[1], "
            "__ctaid2 = b->ctaid[2], __nctaid0 = b->nctaid[0], __nctaid1 = b->nctaid[1], __nctaid2 = b->nctaid[2];\n"
            "(void)__ntid0; (void)__ntid1; (void)__ntid2; (void)__ctaid0; (void)__ctaid1; (void)__ctaid2; "
            "(void)__nctaid0; (void)__nctaid1; (void)__nctaid2;\n");
        OUT("uint32_t __curdummy; volatile uint32_t *__curlin = b->exec ? (volatile uint32_t *)b->exec : &__curdummy;\n");
        sb_t vb;
        lane_prepare(E, f, &vb);
        lane_prologue(E, f);
        if (E->lanes && E->hoisted.n) OUT("if (__lanes_ok) {   /* block-invariant (lane_mark_hoist) */\n%s}\n", E->hoisted.s);
        OUT("for (uint32_t __z = 0; __z < __nz; __z++)\nfor (uint32_t __y = 0; __y < __ny; __y++)\n"
            "for (uint32_t __xg = 0; __xg < __nx; __xg += %s) {\n", E->lanes ? "NPU_LANES" : "__nx");
        OUT("const uint32_t __ling = (__z * __ny + __y) * __nx + __xg; (void)__ling;\n__dk = 0; __dkx = 0;\n");
        if (E->lanes) {
            OUT("if (__lanes_ok) {\n*__curlin = __ling;\n%s", vb.s ? vb.s : "");
            OUT("__vret: goto __gnext;\n}\n__div: ;\n");
        }
        free(vb.s);
        /* without a lane copy one pass covers the row (the 16-thread grouping cost ~8%) */
        OUT("for (uint32_t __l2 = 0; %s; __l2++) {\n", E->lanes ? "__l2 < NPU_LANES && __xg + __l2 < __nx" : "__l2 < __nx");
        OUT("const uint32_t __x = __xg + __l2, __lin = __ling + __l2;\n");
        OUT("*__curlin = __lin;\n");
        OUT("npu_tctx_t __tc; __tc.b = b; __tc.tid[0] = __x; __tc.tid[1] = __y; __tc.tid[2] = __z; __tc.linear = __lin;"
            " __tc.lane = __lin & 31u; __tc.warp = __lin >> 5; __tc.exec = 0; npu_tctx_t *t = &__tc; (void)t;\n");
        E->nscopes = 1;
        E->scopes[0] = 0;
        emit_decls(E, f, 0);
        if (E->lanes) lane_scalar_entry(E, f);
        emit_body(E, f);
        OUT("__ret: ;\n}\n");
        if (E->lanes) OUT("__gnext: ;\n");
        OUT("}\n}\n");
    }
}

/* ------------------------------------------------------------ driver ---- */
npu_status_t ptx_translate(ptx_prog_t *p, ptx_func_t *entry, ptx_out_t *out)
{
    memset(out, 0, sizeof *out);
    emit_t E;
    memset(&E, 0, sizeof E);
    E.p = p;
    E.entry = entry;
    E.f = entry;
    E.st = NPU_OK;
    E.memcheck = npu_mem_memcheck_enabled();
    E.crg = -1;
    if (!entry->is_entry || entry->is_decl) return NPU_EINVAL;
    E.kp = calloc((size_t)(entry->nparams + 1), sizeof(npu_kparam_t));
    if (!E.kp) return NPU_EHOSTMEM;
    ptx_param_layout(entry, E.kp, &E.kp_size);

    /* lower (closure + mode), then check every function */
    int sync = lower_closure(&E);          /* (parses the bodies) */
    if (E.st == NPU_OK) flatten_scopes(&E, entry);
    for (int i = 0; i < E.nfuncs && E.st == NPU_OK; i++) check_func(&E, E.funcs[i]);
    if (E.st == NPU_OK && ptx_dump_enabled("check"))
        fprintf(stderr, "== ptx check: %s: %d function(s) ok\n", entry->name, E.nfuncs);
    /* accesses through which a warp's threads talk without a barrier: stop points of phase mode
     * where the warp steps in lockstep (ptx_lockstep.c) */
    if (E.st == NPU_OK && !npu_env("NPU_PTX_NO_LOCKSTEP")) E.nlockstep = ptx_lockstep_mark(p, entry);
    if (E.nlockstep < 0) { E.nlockstep = 0; E.st = NPU_EHOSTMEM; }
    if (E.nlockstep)
        NPU_INFO("kernel %s: threads of a warp exchange data through memory without a barrier (warp-synchronous code): "
                 "%d access(es) run in warp lockstep", entry->name, E.nlockstep);
    if (E.st == NPU_OK && (sync || E.nlockstep) && lower_phases(&E)) {
        E.phase = 1;
        sync = 0;
    } else if (E.nlockstep) {
        sync = 1;   /* lockstep on fibers (exec.c: rt->ls_step / ls_push / ls_reconv) */
    }
    E.thread_mode = sync;
    /* shared variables referenced get laid out in reference order during emission */
    sb_t body = {0};
    if (E.st == NPU_OK) {
        for (int i = 1; i < E.nfuncs; i++) emit_func_proto(&E, E.funcs[i], 0);
        /* the functions an indirect call may reach (addresses taken by mov of their symbol) */
        sb_add(&E.out, "static void *__attribute__((unused)) __fn_resolve(uint64_t a)\n{\n    switch (a) {\n");
        for (int i = 1; i < E.nfuncs; i++)
            sb_add(&E.out, "    case 0x%llxull: return (void *)&%s;\n", (unsigned long long)PTX_FN_TOKEN(E.funcs[i] - p->funcs),
                   mangle(&E, "fn_", E.funcs[i]->name));
        sb_add(&E.out, "    default: return 0;\n    }\n}\n\n");
        for (int i = 1; i < E.nfuncs && E.st == NPU_OK; i++) emit_func(&E, E.funcs[i]);
        if (E.st == NPU_OK) emit_entry(&E);
        body = E.out;
        memset(&E.out, 0, sizeof E.out);
    }
    if (E.st == NPU_OK && (body.oom)) E.st = NPU_EHOSTMEM;
    if (E.st == NPU_OK && ptx_dump_enabled("lower")) {
        fprintf(stderr, "== ptx lower: %s: mode %s, %d function(s), static shared %u bytes, %d module variable(s), params %u bytes\n",
                entry->name, sync ? "thread" : E.phase ? "block (barriers split into phases)" : "block", E.nfuncs, E.shared_size,
                E.nglobals, E.kp_size);
        for (int k = 0; k < E.nbar; k++) {
            fprintf(stderr, "  barrier %d (line %d): %d live register(s):", k + 1, entry->insns[E.bar_insn[k]].line, E.bar_nlive[k]);
            for (int j = 0; j < E.bar_nlive[k]; j++) fprintf(stderr, " %s", E.bar_live[k][j]);
            fprintf(stderr, "\n");
        }
        for (int i = 0; i < E.nsh; i++)
            fprintf(stderr, "  shared %s at %s%u\n", E.shv[i]->name, (E.shv[i]->count < 0 || E.shv[i]->is_extern) ? "dyn+" : "", E.shoff[i]);
        for (int i = 0; i < E.nglobals; i++) fprintf(stderr, "  npu_globals[%d] = %s\n", i, E.globals[i]->name);
    }
    if (E.st == NPU_OK) {
        sb_t *o = &E.out;
        sb_add(o, "/* generated by transfer_to_npu %s from PTX entry %s (ISA %u.%u, sm_%u) */\n", PTX_TRANSLATOR_VERSION,
               entry->name, p->version / 10, p->version % 10, p->target_sm);
        if (E.lanes && E.lanes32) sb_add(o, "#define NPU_LANES 32u   /* lane_width32 */\n");
        sb_add(o, "%s\n%s\n", ptx_kabi_text, ptx_prelude_text);
        if (E.memcheck)
            sb_add(o, "/* memcheck mode */\nstatic inline __attribute__((always_inline)) uint8_t *__mc(npu_tctx_t *t, uint8_t *p, uint32_t n, uint32_t kind, uint32_t line)\n"
                   "{ const npu_kexec_hdr_t *h = (const npu_kexec_hdr_t *)t->b->exec; uintptr_t a = (uintptr_t)p;\n"
                   "  if (h) for (int i = 0; i < 4; i++) if (a - h->mc_lo[i] < h->mc_len[i] && n <= h->mc_len[i] - (a - h->mc_lo[i])) return p;\n"
                   "  t->b->rt->memcheck(t, (uint64_t)(uintptr_t)p, n, kind, line); return p; }\n"
                   "/* .shared: checked inline against the block's size (measured: tiled SGEMM 17x -> see bench_memcheck) */\n"
                   "static inline __attribute__((always_inline)) uint8_t *__mcs(npu_tctx_t *t, uint8_t *p, uint32_t n, uint32_t kind, uint32_t line)\n"
                   "{ if (__builtin_expect((uint64_t)(p - t->b->shared) + n <= t->b->shared_size, 1)) return p;\n"
                   "  t->b->rt->memcheck(t, (uint64_t)(uintptr_t)p, n, kind, line); return p; }\n\n");
        int ng = E.nglobals;
        sb_add(o, "__attribute__((visibility(\"default\"))) void *npu_globals[%d];\n", ng ? ng : 1);
        sb_add(o, "__attribute__((visibility(\"default\"))) const int npu_nglobals = %d;\n", ng);
        sb_add(o, "__attribute__((visibility(\"default\"))) const char *const npu_global_names[%d] = {", ng ? ng : 1);
        for (int i = 0; i < ng; i++) sb_add(o, "%s\"%s\"", i ? ", " : "", E.globals[i]->name);
        if (!ng) sb_add(o, "0");
        sb_add(o, "};\n\n");
        sb_add(o, "%s", body.s ? body.s : "");
        if (o->oom) E.st = NPU_EHOSTMEM;
    }
    free(body.s);
    if (E.st == NPU_OK) {
        out->csrc = E.out.s;
        out->clen = E.out.n;
        E.out.s = NULL;
        out->uses_sync = sync;
        out->static_shared = E.shared_size;
        lower_locals(&E, entry);
        out->local_size = E.lsize;
        out->nglobals = E.nglobals;
        out->global_names = calloc((size_t)(E.nglobals + 1), sizeof(char *));
        if (!out->global_names) E.st = NPU_EHOSTMEM;
        for (int i = 0; out->global_names && i < E.nglobals; i++) out->global_names[i] = E.globals[i]->name;
        if (E.st == NPU_OK && ptx_dump_enabled("emit")) fprintf(stderr, "== ptx emit: %s\n%s\n", entry->name, out->csrc);
    }
    free(E.out.s);
    for (int i = 0; i < E.nstrs; i++) free(E.strs[i]);
    free(E.strs);
    free(E.funcs);
    free(E.globals);
    free(E.shv);
    free(E.shoff);
    free(E.loff);
    free(E.kp);
    for (int k = 0; k < E.nbar; k++) free(E.bar_live[k]);
    free(E.bar_live);
    free(E.bar_insn);
    free(E.bar_vb);
    free(E.bar_nlive);
    free(E.divpt);
    free(E.pread);
    free(E.hoist);
    free(E.hoisted.s);
    free(E.rg);
    free(E.rin);
    free(E.rstart);
    lr_free(&E);
    live_free(&E);
    lookup_index_free(&E);
    { labix_t *l, *l2; HASH_ITER(hh, E.labmap, l, l2) { HASH_DEL(E.labmap, l); free(l); } }
    if (E.st != NPU_OK) ptx_out_free(out);
    return E.st;
}

void ptx_out_free(ptx_out_t *o)
{
    if (!o) return;
    free(o->csrc);
    free(o->global_names);
    memset(o, 0, sizeof *o);
}
