/*
 * sass_lift.h - the SASS front end's last step: a cubin (GPU machine code, sm_75..sm_89) lifted
 * into PTX text that the one translator (ptx_parse.c, ptx_emit.c) then runs like any PTX module:
 * barrier phases, lane groups, fibers, memcheck, fault isolation, report and trace apply
 * unchanged. See sass_lift.c for the mapping of registers, constant banks, memory windows,
 * calls and control flow.
 * Thread-safety: pure functions of their inputs.
 */
#ifndef NPU_SASS_LIFT_H
#define NPU_SASS_LIFT_H
#include "../npu.h"
#include "cubin.h"

#include <stddef.h>

/* The PTX text of the whole cubin (every kernel, the module's variables), malloc'ed and
 * NUL-terminated. NPU_EPTXUNSUP (logged, naming kernel, pc and instruction) when an
 * instruction or construct is not lifted; NPU_ECUBIN when the image is inconsistent. */
npu_status_t npu_sass_lift(const npu_cubin_t *cb, char **ptx, size_t *len);

/* The skeleton of a cubin module: the same text with every entry's body a placeholder
 * ("__sass_unlifted;") unless with_bodies; module.c fills a body in when its kernel is first
 * asked for (npu_sass_lift_kernel_body: "{ ... }", NPU_ENOTFOUND for an unknown name). */
npu_status_t npu_sass_lift_module(const npu_cubin_t *cb, int with_bodies, char **ptx, size_t *len);
/* stack_limit: the device's cudaLimitStackSize, the stack a kernel with recursion or
 * indirect calls gets (npu_sass_lift_module's bodies use CUDA's default, 1024) */
npu_status_t npu_sass_lift_kernel_body(const npu_cubin_t *cb, const char *name, size_t stack_limit, char **body,
                                       size_t *len);

/* Convenience: parse an ELF image and lift it. */
npu_status_t npu_sass_lift_image(const void *elf, size_t size, char **ptx, size_t *len);

#endif
