/*
 * fiber.c - context switch and stacks for executor fibers (see fiber.h).
 *
 * x86-64 frame of a suspended fiber, from its saved sp upwards:
 *   [mxcsr:u32 | x87 cw:u16] r15 r14 r13 r12 rbx rbp <return address>
 * MXCSR and the x87 control word are switched (as Boost.Context does) so that a kernel that
 * changes a rounding mode cannot leak it into another fiber. Measured on the 2-vCPU guest:
 * switching them or not, and skipping the reload when unchanged, all gave the same
 * ~14 ns per thread per barrier for 256 threads (~10 ns for 32): the cost is the stack and
 * fiber cache lines each switch touches, not these instructions.
 * A fresh fiber gets the same frame with r12 = fn, r13 = arg and the return address pointing
 * at fiber_entry, which calls fn(arg) on a 16-byte aligned stack.
 */
#include "fiber.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>      /* tells memcheck about the stacks (no cost otherwise) */
#define NPU_FIBER_VALGRIND 1
#endif
#endif

#ifndef NPU_FIBER_UCONTEXT
void npu_fiber_switch_asm(void **save_sp, void *new_sp);
void npu_fiber_entry_asm(void);

__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl npu_fiber_switch_asm\n"
    ".hidden npu_fiber_switch_asm\n"
    ".type npu_fiber_switch_asm,@function\n"
    "npu_fiber_switch_asm:\n"
    "    pushq %rbp\n"
    "    pushq %rbx\n"
    "    pushq %r12\n"
    "    pushq %r13\n"
    "    pushq %r14\n"
    "    pushq %r15\n"
    "    subq $8, %rsp\n"
    "    stmxcsr (%rsp)\n"
    "    fnstcw 4(%rsp)\n"
    "    movq %rsp, (%rdi)\n"
    "    movq %rsi, %rsp\n"
    "    ldmxcsr (%rsp)\n"
    "    fldcw 4(%rsp)\n"
    "    addq $8, %rsp\n"
    "    popq %r15\n"
    "    popq %r14\n"
    "    popq %r13\n"
    "    popq %r12\n"
    "    popq %rbx\n"
    "    popq %rbp\n"
    "    ret\n"
    ".size npu_fiber_switch_asm, .-npu_fiber_switch_asm\n"
    ".p2align 4\n"
    ".globl npu_fiber_entry_asm\n"
    ".hidden npu_fiber_entry_asm\n"
    ".type npu_fiber_entry_asm,@function\n"
    "npu_fiber_entry_asm:\n"
    "    movq %r13, %rdi\n"
    "    callq *%r12\n"
    "    ud2\n"
    ".size npu_fiber_entry_asm, .-npu_fiber_entry_asm\n");

void npu_fiber_make(npu_fiber_ctx_t *ctx, void *stack, size_t size, void (*fn)(void *), void *arg)
{
    uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
    uint64_t *ret = (uint64_t *)(top - 24);          /* ret + 8 is 16-byte aligned */
    uint64_t *sp = ret - 7;
    uint32_t mxcsr;
    uint16_t fcw;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fcw));
    sp[0] = (uint64_t)mxcsr | ((uint64_t)fcw << 32);
    sp[1] = 0;                  /* r15 */
    sp[2] = 0;                  /* r14 */
    sp[3] = (uint64_t)(uintptr_t)arg;   /* r13 */
    sp[4] = (uint64_t)(uintptr_t)fn;    /* r12 */
    sp[5] = 0;                  /* rbx */
    sp[6] = 0;                  /* rbp: ends frame-pointer walks */
    ret[0] = (uint64_t)(uintptr_t)npu_fiber_entry_asm;
    ret[1] = 0;
    ctx->sp = sp;
}

void npu_fiber_switch(npu_fiber_ctx_t *from, npu_fiber_ctx_t *to)
{
    npu_fiber_switch_asm(&from->sp, to->sp);
}
#else
static void fiber_uc_entry(unsigned lo, unsigned hi)
{
    npu_fiber_ctx_t *ctx = (npu_fiber_ctx_t *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo);
    ctx->fn(ctx->arg);
}

void npu_fiber_make(npu_fiber_ctx_t *ctx, void *stack, size_t size, void (*fn)(void *), void *arg)
{
    getcontext(&ctx->uc);
    ctx->uc.uc_stack.ss_sp = stack;
    ctx->uc.uc_stack.ss_size = size;
    ctx->uc.uc_link = NULL;
    ctx->fn = fn;
    ctx->arg = arg;
    uintptr_t p = (uintptr_t)ctx;
    makecontext(&ctx->uc, (void (*)(void))fiber_uc_entry, 2, (unsigned)(p & 0xffffffffu),
                (unsigned)(p >> 16 >> 16));
}

void npu_fiber_switch(npu_fiber_ctx_t *from, npu_fiber_ctx_t *to)
{
    swapcontext(&from->uc, &to->uc);
}
#endif

int npu_fiber_stacks_alloc(npu_fiber_stacks_t *st, unsigned count, size_t size)
{
    size_t page = 4096;
    size = (size + page - 1) & ~(page - 1);
    size_t total = (size_t)count * (size + page);
    void *m = mmap(NULL, total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    for (unsigned i = 0; i < count; i++)
        mprotect((char *)m + (size_t)i * (size + page), page, PROT_NONE);
    st->map = m;
    st->map_size = total;
    st->stack_size = size;
    st->count = count;
    st->vg_ids = NULL;
#ifdef NPU_FIBER_VALGRIND
    if (RUNNING_ON_VALGRIND && (st->vg_ids = calloc(count, sizeof *st->vg_ids)) != NULL)
        for (unsigned i = 0; i < count; i++) {
            char *lo = npu_fiber_stack(st, i);
            st->vg_ids[i] = VALGRIND_STACK_REGISTER(lo, lo + size);
        }
#endif
    return 0;
}

void npu_fiber_stacks_free(npu_fiber_stacks_t *st)
{
#ifdef NPU_FIBER_VALGRIND
    if (st->vg_ids)
        for (unsigned i = 0; i < st->count; i++)
            VALGRIND_STACK_DEREGISTER(st->vg_ids[i]);
#endif
    free(st->vg_ids);
    if (st->map)
        munmap(st->map, st->map_size);
    memset(st, 0, sizeof *st);
}
