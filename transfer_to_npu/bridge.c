/*
 * bridge.c - the few C entry points the Python bridge (transfer_to_npu/npu.py) calls through
 * ctypes that have no CUDA runtime equivalent: the caching allocator's statistics and cache
 * release (torch.cuda.memory_allocated / max_memory_allocated / memory_reserved /
 * empty_cache semantics). Everything else the bridge needs goes through the exported CUDA
 * runtime calls (cudaGetDeviceCount, cudaGetDeviceProperties, cudaDeviceSynchronize ...).
 * Return values are npu_status_t codes (0 = success); bad input never crashes.
 * Thread-safety: callable from any thread (the runtime's functions are).
 */
#include <string.h>

#include "npu_runtime/npu.h"

#define NPU_EXPORT __attribute__((visibility("default")))

static npu_status_t bridge_check_dev(int dev)
{
    npu_status_t st = npu_init();
    if (st != NPU_OK)
        return st;
    if (dev < 0 || dev >= npu_device_count())
        return NPU_EDEVICE;
    return NPU_OK;
}

/* out[0] allocated, out[1] reserved, out[2] peak allocated, out[3] peak reserved (bytes). */
NPU_EXPORT int transfer_to_npu_mem_stats(int dev, unsigned long long out[4])
{
    npu_mem_stats_t s;
    npu_status_t st;
    if (out == NULL)
        return NPU_EINVAL;
    st = bridge_check_dev(dev);
    if (st != NPU_OK)
        return st;
    memset(&s, 0, sizeof s);
    st = npu_mem_get_stats(dev, &s);
    if (st != NPU_OK)
        return st;
    out[0] = s.allocated;
    out[1] = s.reserved;
    out[2] = s.peak_allocated;
    out[3] = s.peak_reserved;
    return NPU_OK;
}

/* Returns the allocator's cached (free) blocks of dev to the OS. */
NPU_EXPORT int transfer_to_npu_empty_cache(int dev)
{
    npu_status_t st = bridge_check_dev(dev);
    if (st != NPU_OK)
        return st;
    return npu_mem_empty_cache(dev);
}

/* Resets the peak statistics of dev (torch.cuda.reset_peak_memory_stats). */
NPU_EXPORT int transfer_to_npu_reset_peak(int dev)
{
    npu_status_t st = bridge_check_dev(dev);
    if (st != NPU_OK)
        return st;
    return npu_mem_reset_peak(dev);
}

/* Name of a status code, for the bridge's error messages. */
NPU_EXPORT const char *transfer_to_npu_status_name(int status)
{
    if (status < 0 || status >= NPU_STATUS_COUNT)
        return "NPU_UNKNOWN_STATUS";
    return npu_status_name((npu_status_t)status);
}
