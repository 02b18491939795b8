/*
 * npu_kabi.h - the ABI between translated kernel code (C generated from PTX) and the block
 * executor. The JIT pastes this header's text into every generated C file, so it must stay
 * self-contained (only <stdint.h>). Any change bumps NPU_KABI_VERSION, which is part of the
 * kernel cache key.
 *
 * A translated kernel has one of two entry points:
 *  - block mode (the kernel has no barrier and no warp-collective op): one call runs every
 *    thread of a block, as a plain loop over tid z/y/x, so gcc sees a tight loop;
 *  - thread mode (it has bar.*, shfl/vote/match/redux, bar.warp.sync, activemask): one call
 *    runs one thread; the executor runs each thread of a block on its own fiber and switches
 *    fibers inside the npu_krt_t collectives below.
 * Generated code reaches the runtime only through b->rt (no symbol lookups from the .so).
 *
 * Address spaces inside generated code: generic and global addresses are host pointers
 * (device memory lives in the host address space); .shared addresses are byte offsets into
 * b->shared; .local addresses are offsets into the calling function's own local frame.
 */
#ifndef NPU_KABI_H
#define NPU_KABI_H
#include <stdint.h>

#define NPU_KABI_VERSION 6

typedef struct npu_krt npu_krt_t;

typedef struct npu_bctx {
    const npu_krt_t *rt;
    uint32_t ctaid[3];
    uint32_t nctaid[3];
    uint32_t ntid[3];
    uint32_t nthreads;          /* ntid.x * ntid.y * ntid.z */
    uint8_t *shared;            /* static .shared layout first, then dynamic (extern) shared */
    uint32_t shared_size;       /* static + dynamic bytes */
    uint32_t dyn_shared_offset; /* where extern .shared arrays start (aligned to 16) */
    uint32_t smid;              /* index of the worker running this block */
    uint32_t nsmid;
    void *exec;                 /* executor: points at an npu_kexec_hdr_t (below), then private */
} npu_bctx_t;

/* What generated code may touch through b->exec: block-mode thread loops store the linear
 * index of the running thread in cur_lin (fault reports); memcheck code reads the executor's
 * cache of allocations [mc_lo[i], mc_lo[i] + mc_len[i]) already found valid (len 0 = empty)
 * before calling rt->memcheck. Barrier-phase kernels keep their per-block state in scratch
 * (grown with malloc by the generated code, freed by the executor with its worker). */
typedef struct npu_kexec_hdr {
    volatile uint32_t cur_lin;
    uint32_t mc_next;
    uintptr_t mc_lo[4], mc_len[4];
    uint64_t mc_gen;
    uint8_t *scratch;
    uint64_t scratch_cap;
} npu_kexec_hdr_t;

typedef struct npu_tctx {
    npu_bctx_t *b;
    uint32_t tid[3];
    uint32_t linear;            /* tid.x + ntid.x * (tid.y + ntid.y * tid.z) */
    uint32_t lane;              /* linear % 32 */
    uint32_t warp;              /* linear / 32 */
    void *exec;                 /* executor-private */
} npu_tctx_t;

/* Modes and ops of the collectives, numbered as the translator emits them. */
enum { NPU_SHFL_UP = 0, NPU_SHFL_DOWN = 1, NPU_SHFL_BFLY = 2, NPU_SHFL_IDX = 3 };
enum { NPU_VOTE_ALL = 0, NPU_VOTE_ANY = 1, NPU_VOTE_UNI = 2, NPU_VOTE_BALLOT = 3 };
enum { NPU_BARRED_POPC = 0, NPU_BARRED_AND = 1, NPU_BARRED_OR = 2 };
enum { NPU_REDUX_ADD = 0, NPU_REDUX_MIN = 1, NPU_REDUX_MAX = 2, NPU_REDUX_UMIN = 3,
       NPU_REDUX_UMAX = 4, NPU_REDUX_AND = 5, NPU_REDUX_OR = 6, NPU_REDUX_XOR = 7 };
enum { NPU_FAULT_TRAP = 1, NPU_FAULT_ILLEGAL_ADDRESS = 2, NPU_FAULT_UNSUPPORTED = 3 };

struct npu_krt {
    /* bar.sync / barrier.sync / bar.arrive / bar.red: id 0..15, count 0 = all threads of the
     * block (exited threads count as arrived). */
    void (*bar_sync)(npu_tctx_t *t, uint32_t id, uint32_t count);
    void (*bar_arrive)(npu_tctx_t *t, uint32_t id, uint32_t count);
    uint32_t (*bar_red)(npu_tctx_t *t, uint32_t id, uint32_t count, int op, uint32_t pred);
    /* Warp collectives, PTX semantics: mask = membermask (lanes not in it or exited are ignored). */
    void (*warp_sync)(npu_tctx_t *t, uint32_t mask);
    /* shfl.sync: b = lane/delta/lanemask, c = packed clamp and segment mask as in PTX;
     * *pred (may be NULL) receives the in-range predicate. */
    uint32_t (*shfl)(npu_tctx_t *t, int mode, uint32_t val, uint32_t b, uint32_t c,
                     uint32_t mask, uint32_t *pred);
    uint32_t (*vote)(npu_tctx_t *t, int mode, uint32_t pred, uint32_t mask);
    uint32_t (*match_any)(npu_tctx_t *t, uint64_t v, uint32_t mask);
    uint32_t (*match_all)(npu_tctx_t *t, uint64_t v, uint32_t mask, uint32_t *pred);
    uint32_t (*redux)(npu_tctx_t *t, int op, uint32_t v, uint32_t mask);
    uint32_t (*activemask)(npu_tctx_t *t, uint32_t site);   /* site: the instruction's id */
    /* Faults: do not return. The block is abandoned and the launch fails with the matching
     * sticky status; the log names kernel, block, thread (and address). */
    void (*trap)(npu_tctx_t *t);
    void (*fault)(npu_tctx_t *t, int code, uint64_t addr, const char *what);
    void (*assertfail)(npu_tctx_t *t, const char *msg, const char *file, uint32_t line,
                       const char *func);
    /* Device-side library calls. */
    int32_t (*vprintf)(npu_tctx_t *t, const char *fmt, const void *args);
    void *(*malloc)(npu_tctx_t *t, uint64_t size);
    void (*free)(npu_tctx_t *t, void *p);
    uint64_t (*clock64)(npu_tctx_t *t);
    uint64_t (*globaltimer)(npu_tctx_t *t);
    /* Memcheck mode only (TRANSFER_TO_NPU_MEMCHECK=1): called before every global, generic
     * and shared load/store/atomic of size bytes at addr (.shared: the host address inside
     * b->shared). kind = NPU_MC_* access and space bits; line = PTX source line. Returns when
     * the access is valid; otherwise reports it and abandons the block (does not return). */
    void (*memcheck)(npu_tctx_t *t, uint64_t addr, uint32_t size, uint32_t kind, uint32_t line);
    /* Warp lockstep for warp-synchronous code (ptx_lockstep.c), thread mode: ls_step before an
     * access waits until every live lane of the warp is suspended somewhere, then the lanes
     * waiting in ls_step go on together; ls_push puts reconvergence point id on the lane's
     * stack (not twice in a row); ls_reconv pops id when on top and waits while another live
     * lane of the warp still has id on its stack. */
    void (*ls_step)(npu_tctx_t *t);
    void (*ls_push)(npu_tctx_t *t, uint32_t id);
    void (*ls_reconv)(npu_tctx_t *t, uint32_t id);
    /* wmma.mma.sync (m16n16k16), thread mode: in = this lane's a[8], b[8], c[8] fragment words,
     * out receives its d[8]; waits for the warp's live lanes, then mma(w, r, mode) runs once
     * with w = 32 lanes x 24 words (absent lanes zero) and r = 32 lanes x 8 words. mma is the
     * kernel's own (the translator's prelude __wmma_mma), so both modes compute alike. */
    void (*wmma_mma)(npu_tctx_t *t, const uint32_t *in, uint32_t *out, int mode,
                     void (*mma)(const uint32_t *w, uint32_t *r, int mode));
};
enum { NPU_MC_READ = 0, NPU_MC_WRITE = 1, NPU_MC_ATOMIC = 2,
       NPU_MC_GENERIC = 0 << 4, NPU_MC_GLOBAL = 1 << 4, NPU_MC_SHARED = 2 << 4 };

/* Entry points a translated kernel exports (see npu_kernel.h for how they are found). */
typedef void (*npu_kblock_fn)(npu_bctx_t *b, const uint8_t *params);
typedef void (*npu_kthread_fn)(npu_tctx_t *t, const uint8_t *params);

#endif /* NPU_KABI_H */
