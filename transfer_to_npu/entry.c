/*
 * entry.c - library entry of libtransfer_to_npu.so. LD_PRELOAD is inherited by every child
 * of a launched program (shells, pip, compilers), so loading the library does nothing costly
 * and starts no thread: the runtime starts on the first CUDA call (npu_init).
 */
#include "npu_runtime/npu.h"

#define NPU_EXPORT __attribute__((visibility("default")))

/* Version of the library, for the Python bridge and the launcher. */
NPU_EXPORT const char *transfer_to_npu_version(void)
{
    return TRANSFER_TO_NPU_VERSION;
}
