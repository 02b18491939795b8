/*
 * cudart_internal.h - hidden helpers shared by the cudart_*.c files of module E (device,
 * memory, stream, error). Nothing here is exported.
 * Thread-safety: every function is callable from any host thread.
 */
#ifndef CUDART_INTERNAL_H
#define CUDART_INTERNAL_H
#include "interpose/common/shim.h"

/* Most devices whose per-device runtime state (flags, limits, peers, current pool) is kept. */
#define CUDART_MAX_DEVICES 64

/* NPU_OK for a visible device ordinal, else NPU_EDEVICE. Call after SHIM_ENTER. */
static inline npu_status_t cudart_check_device(int dev)
{
    return dev >= 0 && dev < npu_device_count() ? NPU_OK : NPU_EDEVICE;
}

/* cudart_memory.c: the pool cudaMallocAsync uses on dev (cudaDeviceSetMemPool). */
npu_pool_t *cudart_current_pool(int dev);
/* cudart_memory.c: forget per-device memory state on cudaDeviceReset. */
void cudart_memory_device_reset(int dev);

#endif
