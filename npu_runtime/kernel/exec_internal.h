/*
 * exec_internal.h - private seam between exec.c (grid/block executor, collectives),
 * exec_launch.c (launch checks, packing, submission) and exec_printf.c (device printf).
 * Nothing outside kernel/exec*.c includes it.
 */
#ifndef NPU_EXEC_INTERNAL_H
#define NPU_EXEC_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include "npu_kernel.h"

#define EXEC_MAX_THREADS     1024
#define EXEC_SHARED_DEFAULT  (48u * 1024)
#define EXEC_SHARED_OPTIN    (227u * 1024)
#define EXEC_SHARED_PER_SM   (228u * 1024)
#define EXEC_THREADS_PER_SM  2048
#define EXEC_BLOCKS_PER_SM   32

/* CUDA's launch-configuration checks (see exec_launch.c): NPU_OK, NPU_ECONFIG,
 * NPU_ERESOURCES or NPU_EINVAL. */
npu_status_t npu_exec_check(npu_kfunc_info_t *info, const uint32_t grid[3],
                            const uint32_t block[3], size_t dyn_shared);

/* npu_exec_grid without the checks: a launch checked the configuration when it was
 * submitted; attributes changed since (cudaFuncSetAttribute) only affect later launches. */
npu_status_t npu_exec_grid_checked(npu_kfunc_info_t *info, const uint32_t grid[3],
                                   const uint32_t block[3], size_t dyn_shared,
                                   const uint8_t *params);

/* Threads that run a grid's blocks (the caller plus the pool): TRANSFER_TO_NPU_THREADS. */
int npu_exec_runners(void);
/* Runs blocks of a grid other runners are executing, if any (for threads that would spin). */
int npu_exec_help(void);

/* CUDA device printf: fmt plus a packed argument buffer (each argument aligned to its size,
 * floats promoted to double). Writes one piece to stdout under the stdio lock. Returns the
 * number of arguments consumed, -1 for a NULL format, -2 on an internal error (as CUDA). */
int32_t npu_exec_vprintf(const char *fmt, const void *args);
/* Formats into a malloc'ed string (*out, NUL-terminated, length *len). Same return value. */
int32_t npu_exec_format(const char *fmt, const void *args, char **out, size_t *len);
#endif
