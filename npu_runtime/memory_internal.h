/*
 * memory_internal.h - private seam between memory.c (device memory, pools) and
 * memory_host.c (pinned and registered host memory). Not part of the runtime API.
 * Thread-safety: every function here is callable from any thread.
 */
#ifndef NPU_MEMORY_INTERNAL_H
#define NPU_MEMORY_INTERNAL_H
#include "npu.h"

typedef struct npu_hostreg_entry {
    uintptr_t base;
    size_t size;
    unsigned flags;
    int is_alloc;       /* 1: npu_host_alloc, 0: npu_host_register */
} npu_hostreg_entry_t;

/* Finds the pinned/registered range containing p; 1 and *out filled if found, else 0. */
int npu_hostreg_find(const void *p, npu_hostreg_entry_t *out);

#endif
