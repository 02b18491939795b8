/*
 * fiber.h - user-level execution contexts for the block executor (one per CUDA thread of a
 * thread-mode block). A fiber runs until it switches back explicitly; there is no preemption.
 *
 * x86-64: a hand-written switch that saves rbx, rbp, r12-r15, rsp, MXCSR and the x87 control
 * word (the System V callee-saved state). Elsewhere (or with -DNPU_FIBER_UCONTEXT)
 * ucontext's swapcontext, which also saves the signal mask (a system call per switch).
 * Measured (ping-pong of two fibers, 2-vCPU guest under load): asm 11-20 ns per switch,
 * swapcontext 250 ns.
 * Thread-safety: a fiber context belongs to one OS thread at a time.
 */
#ifndef NPU_FIBER_H
#define NPU_FIBER_H
#include <stddef.h>

#if !defined(__x86_64__) && !defined(NPU_FIBER_UCONTEXT)
#define NPU_FIBER_UCONTEXT 1
#endif

#ifdef NPU_FIBER_UCONTEXT
#include <ucontext.h>
typedef struct npu_fiber_ctx {
    ucontext_t uc;
    void (*fn)(void *);
    void *arg;
} npu_fiber_ctx_t;
#else
typedef struct npu_fiber_ctx {
    void *sp;
} npu_fiber_ctx_t;
#endif

/* Prepares ctx to run fn(arg) on the stack [stack, stack + size) at the next switch into it.
 * fn must never return: it ends by switching away for good. */
void npu_fiber_make(npu_fiber_ctx_t *ctx, void *stack, size_t size, void (*fn)(void *), void *arg);
/* Saves the running context in from and resumes to. */
void npu_fiber_switch(npu_fiber_ctx_t *from, npu_fiber_ctx_t *to);

/* Stacks: count stacks of size bytes each (rounded to pages), each with a PROT_NONE guard page
 * below it, in one mapping (MAP_NORESERVE: only touched pages cost memory). */
typedef struct npu_fiber_stacks {
    void *map;
    size_t map_size, stack_size;
    unsigned count;
    unsigned *vg_ids;           /* valgrind stack ids, when built with valgrind.h */
} npu_fiber_stacks_t;
int npu_fiber_stacks_alloc(npu_fiber_stacks_t *st, unsigned count, size_t size); /* 0 = ok */
void npu_fiber_stacks_free(npu_fiber_stacks_t *st);
static inline void *npu_fiber_stack(const npu_fiber_stacks_t *st, unsigned i)
{
    return (char *)st->map + (size_t)i * (st->stack_size + 4096) + 4096;
}
#endif
